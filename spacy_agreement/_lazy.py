"""Re-exports loaded on first use (PEP 562): a family's package names its public objects
without importing every module behind it, so ``import spacy_agreement.evaluation.conll18``
stays cheap and no two families import each other at import time.
"""
from __future__ import annotations

import importlib
import sys
from typing import Callable, Dict, List, Mapping, Tuple


def lazy_exports(package: str, table: Mapping[str, str]) -> Tuple[Callable[[str], object], Callable[[], List[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: ``table`` maps each public name to
    ``".module"`` (the same name there) or ``".module:name"``."""
    exports: Dict[str, str] = dict(table)

    def __getattr__(name: str) -> object:
        where = exports.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attr = where.partition(":")
        value = getattr(importlib.import_module(module, package), attr or name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> List[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__
