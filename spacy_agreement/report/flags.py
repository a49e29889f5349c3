"""The command's flags of the library's parameters: an error or a note that names a parameter in
Python terms (``bootstrap``, ``method="off"``, :attr:`~spacy_agreement.errors.AgreementError.option`)
said as the CLI's flag (``--bootstrap``, ``--alpha off``), in the CLI's messages and in the text
of a result (``str(result)`` is the command's output)."""
from __future__ import annotations

import re
from typing import Dict, Iterable

#: The flag of each library parameter that an error may name (:attr:`AgreementError.option`).
FLAGS: Dict[str, str] = {
    "method": "--alpha",
    "budget": "--alpha-budget",
    "seconds": "--alpha-seconds",
    "deltas": "--delta",
    "bootstrap": "--bootstrap",
    "pqgram": "--pqgram",
    "sample_pairs": "--sample-pairs",
    "n_threads": "--threads",
    "backend": "--backend",
    "scheduler": "--scheduler",
    "fmt": "--format",
    "allow_duplicates": "--allow-duplicates",
    "single_root": "--single-root",
    "memory_limit": "--max-memory",
    "label_map": "--label-map",
    "annotator_part": "--annotator-part",
    "name_pattern": "--name-pattern",
}


def in_flags(text: str, names: Iterable[str]) -> str:
    """``text`` with each parameter of ``names`` that has a flag (:data:`FLAGS`) said as the
    flag: ``method="off"`` as ``--alpha off``, ``allow_duplicates=True`` as
    ``--allow-duplicates``, ``spacy_agreement.limits.memory_limit()`` as ``--max-memory``, a
    bare ``bootstrap`` as ``--bootstrap`` (not inside a path or a longer name)."""
    for name in names:
        flag = FLAGS.get(name)
        if flag is None:
            continue
        pattern = re.compile(rf"(?<![\w./\\-])(?:[A-Za-z_]\w*\.)*{re.escape(name)}"  # a module path before it too
                             rf"(?:=(?:\"([^\"]*)\"|'([^']*)'|([\w.+-]+))|\(\))?(?![\w(/\\]|\.\w)")

        def said(found: "re.Match[str]", flag: str = flag) -> str:
            value = next((v for v in found.groups() if v is not None), None)
            return flag if value in (None, "True") else f"{flag} {value}"

        text = pattern.sub(said, text)
    return text


__all__ = ["FLAGS", "in_flags"]
