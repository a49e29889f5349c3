"""Old import paths that still work for one release (0.4), each an alias of the module that now
holds the code. Importing one warns (``DeprecationWarning``) and gives the new module itself, so
names, ``isinstance`` checks and ``monkeypatch`` targets are the same objects. The table is the
migration page's list (``docs/migration.md``); a test checks both. A module of this package that
still imports an old path (a use not renamed yet) gets the new module without the warning: the
warning is for the user's code.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from typing import Dict

_E = "spacy_agreement.evaluation."

#: old module -> the module that holds its code now (0.4: evaluation by family)
MOVED: Dict[str, str] = {_E + old: _E + new for old, new in {
    "parser_metrics": "dependency.metrics",
    "token_metrics": "dependency.token_metrics",
    "ud_metrics": "dependency.ud_labels",
    "column_evaluation": "dependency.column_evaluation",
    "streaming": "dependency.streaming",
    "breakdowns": "dependency.breakdowns",
    "breakdown_tables": "dependency.breakdown_tables",
    "label_sets": "dependency.label_sets",
    "metric_options": "dependency.settings",
    "evaluate_run": "dependency.evaluate_run",
    "aligned": "conll18.alignment",
    "aligned_refusals": "conll18.refusals",
    "aligned_stream": "conll18.streaming",
    "conll18_files": "conll18.files",
    "evalb": "constituency.evalb",
    "evalb_params": "constituency.evalb_params",
    "evalb_report": "constituency.evalb_report",
    "evalb_run": "constituency.evalb_run",
    "geig": "constituency.geig",
    "leaf_ancestor": "constituency.leaf_ancestor",
    "leaf_ancestor_fast": "constituency.leaf_ancestor_compiled",
    "leaf_ancestor_run": "constituency.leaf_ancestor_run",
    "leaf_ancestor_words": "constituency.leaf_ancestor_words",
    "lineage": "constituency.lineage",
    "discourse_json": "discourse.json_format",
    "discourse_model": "discourse.model",
    "discourse_report": "discourse.report",
    "discourse_run": "discourse.discourse_run",
    "judgments_run": "judgments.judgments_run",
    "judging_items": "judgments.judging_items",
    "mace": "judgments.mace",
    "compare_run": "comparison.compare_run",
    "significance": "comparison.significance",
}.items()}
#: the CLI's shared modules are private (0.4: a command module imports no other command; what
#: they share is marked as the CLI's own)
MOVED.update({f"spacy_agreement.cli.{name}": f"spacy_agreement.cli._{name}" for name in (
    "breakdown_options", "handling", "intervals", "options", "output", "registry", "settings_options",
    "warning_lines")})
# ``evaluation.discourse``, ``evaluation.judgments`` and ``evaluation.comparison`` are now the
# families' packages, which re-export every public name the old modules had.
#: the three readings of CoNLL-U in one package (0.4: ``adapters/conllu/``)
MOVED.update({f"spacy_agreement.adapters.{old}": f"spacy_agreement.adapters.conllu.{new}" for old, new in {
    "conll": "trees",
    "conllu_words": "column_reader",
    "string_arrays": "scan",
}.items()})


def _imported_by_the_package() -> bool:
    """Whether the import of an old path comes from a module of this package: a use not yet
    renamed there (the library's own business, not its user's: no warning for it)."""
    frame = sys._getframe(2)
    while frame is not None and (frame.f_code.co_filename.startswith("<frozen importlib")
                                 or frame.f_globals.get("__name__", "").partition(".")[0] == "importlib"):
        frame = frame.f_back
    name = frame.f_globals.get("__name__", "") if frame is not None else ""
    return name == "spacy_agreement" or name.startswith("spacy_agreement.")


class _Alias(importlib.abc.Loader):
    """Gives the new module under the old name (its own ``__spec__`` kept)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._spec = None

    def create_module(self, spec):
        if not _imported_by_the_package():
            warnings.warn(f"{spec.name} moved to {self.target}; the old path works until 0.5 "
                          f"(docs: Renamed between versions)", DeprecationWarning, stacklevel=4)
        module = importlib.import_module(self.target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module) -> None:
        module.__spec__ = self._spec  # the import system set the alias's spec on it


class _MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        new = MOVED.get(fullname)
        return importlib.util.spec_from_loader(fullname, _Alias(new)) if new else None


def install() -> None:
    """Put the finder of old paths on ``sys.meta_path`` (once, after the real finders)."""
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
