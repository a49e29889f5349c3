"""Re-exports loaded on first use (PEP 562): a family's package names its public objects
without importing every module behind it, so ``import spacy_agreement.evaluation.conll18``
stays cheap and no two families import each other at import time.
"""
from __future__ import annotations

import functools
import importlib
import sys
from typing import Any, Callable, Dict, List, Mapping, Tuple


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

    def __dir__() -> List[str]:  # the public names only: no private helper, no typing import
        names = set(vars(sys.modules[package])) | set(exports)
        return sorted(n for n in names if (not n.startswith("_") or n == "__version__")
                      and n not in ("TYPE_CHECKING", "annotations", "lazy_exports"))

    return __getattr__, __dir__


def deferred(module: str, name: str, package: str) -> Callable[..., Any]:
    """A function that calls ``name`` of ``module`` (relative to ``package``), importing the module
    on the first call: what a registry holds for a built-in entry whose module a run may not need
    (the ``evalb`` command does not import the discourse readers, nor a bracket file spaCy)."""
    @functools.lru_cache(maxsize=None)
    def target() -> Callable[..., Any]:
        return getattr(importlib.import_module(module, package), name)

    def call(*args: Any, **kwargs: Any) -> Any:
        return target()(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``{module}.{name}`` (of {package}), imported on the first call."
    call.resolve = target  # type: ignore[attr-defined]  # the function itself, imported now
    return call
