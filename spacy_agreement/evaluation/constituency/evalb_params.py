"""EVALB parameter files (Sekine & Collins 1997), read as EVALB's ``read_parameter_file``
reads them: ``DEBUG``, ``MAX_ERROR``, ``CUTOFF_LEN``, ``LABELED``, ``DELETE_LABEL``,
``DELETE_LABEL_FOR_LENGTH``, ``QUOTE_LABEL``, ``EQ_LABEL`` and ``EQ_WORD``. Used by
:mod:`spacy_agreement.evaluation.constituency.evalb` and the GEIG counts of :mod:`spacy_agreement.evaluation.constituency.geig`."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, fields, replace
from typing import Dict, Tuple, Union

from ...signature import Settings, setting

BLANK = " \t\n\v\f\r"  # C isspace() in the C locale
_BLANKS = re.compile("[ \t\n\v\f\r]+")
_ATOI = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")
Path = Union[str, "os.PathLike[str]"]


def _atoi(text: str) -> int:
    found = _ATOI.match(text)
    return int(found.group(1)) if found else 0


@dataclass(frozen=True)
class EvalbSettings(Settings):
    """An EVALB parameter file; the defaults are EVALB's when run without ``-p``: labelled,
    nothing deleted, ``MAX_ERROR`` 10, ``CUTOFF_LEN`` 40 (``COLLINS.prm`` is what most
    papers use). ``warnings`` holds what EVALB would print on stderr while reading it.

    These are the settings of an EVALB run: its signature (:mod:`spacy_agreement.signature`)
    writes every parameter that changes a number, so that a signature given back rebuilds
    the parameter file's settings without the file."""

    computation = "evalb"

    debug: int = setting(0)
    max_error: int = setting(10, key="maxerr", kind="int", doc="MAX_ERROR: errors before EVALB gives up")
    cutoff_len: int = setting(40, key="cutoff", kind="int", doc="CUTOFF_LEN of the len<=N summary")
    labeled: int = setting(1, key="lab", kind="int", doc="LABELED: 1 labelled, 0 unlabelled brackets")
    delete_labels: Tuple[str, ...] = setting((), key="del", kind="list", doc="DELETE_LABEL: labels left out")
    delete_labels_for_length: Tuple[str, ...] = setting((), key="dellen", kind="list",
                                                        doc="DELETE_LABEL_FOR_LENGTH: words not counted in lengths")
    quote_labels: Tuple[str, ...] = setting((), key="quote", kind="list", doc="QUOTE_LABEL: quotation labels")
    eq_labels: Tuple[Tuple[str, str], ...] = setting((), key="eqlab", kind="pairs", doc="EQ_LABEL: labels counted equal")
    eq_words: Tuple[Tuple[str, str], ...] = setting((), key="eqword", kind="pairs", doc="EQ_WORD: words counted equal")
    warnings: Tuple[str, ...] = setting(())

    @classmethod
    def read(cls, path: Path) -> "EvalbSettings":
        with open(path, "rb") as handle:
            return cls.parse(handle.read().decode("latin-1"))

    @classmethod
    def parse(cls, text: str) -> "EvalbSettings":
        """Settings line by line as EVALB's ``read_parameter_file``: ``#`` lines and lines
        under 3 characters are skipped, a keyword must be followed by a blank, the value is
        the rest of the line (so ``DELETE_LABEL a b`` deletes the label ``a b``)."""
        values: Dict[str, list] = {f.name: [] for f in fields(cls) if f.name not in ("debug", "max_error",
                                                                                        "cutoff_len", "labeled")}
        numbers: Dict[str, int] = {}
        lists = {"DELETE_LABEL": "delete_labels", "DELETE_LABEL_FOR_LENGTH": "delete_labels_for_length",
                 "QUOTE_LABEL": "quote_labels"}
        ints = {"DEBUG": "debug", "MAX_ERROR": "max_error", "CUTOFF_LEN": "cutoff_len", "LABELED": "labeled"}
        for number, line in enumerate(text.split("\n"), start=1):
            line = line.split("\0")[0]
            line = line[:1] + line[1:].rstrip(BLANK)
            if line.startswith("#") or len(line) < 3:
                continue
            i = next((k for k, ch in enumerate(line) if ch in BLANK), len(line))
            value = line[i:].lstrip(BLANK)
            if not value:
                values["warnings"].append(f"Empty value in parameter file ({number})")
            key = next((k for k in (*ints, *lists, "EQ_LABEL", "EQ_WORD")
                        if line.startswith(k) and (len(line) == len(k) or line[len(k)] in BLANK)), None)
            if key in ints:
                numbers[ints[key]] = _atoi(value)
            elif key in lists:
                values[lists[key]].append(value)
            elif key in ("EQ_LABEL", "EQ_WORD"):
                pair = _BLANKS.split(value.strip(BLANK))
                if len(pair) != 2:
                    values["warnings"].append(f"{key} requires two values")
                else:
                    values["eq_labels" if key == "EQ_LABEL" else "eq_words"].append(tuple(pair))
            else:
                values["warnings"].append(f"Unknown keyword ({line}) in parameter file")
        return cls(**numbers, **{k: tuple(v) for k, v in values.items()})

    def with_options(self, **changes) -> "EvalbSettings":
        """A copy with some settings replaced (``max_error=...``, ``labeled=0``, ...)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    def label_equal(self, a: str, b: str) -> bool:
        """EVALB's ``label_comp``: equal, or an ``EQ_LABEL`` pair (not transitive)."""
        return a == b or any((a, b) == pair or (b, a) == pair for pair in self.eq_labels)

    def word_equal(self, a: str, b: str) -> bool:
        return a == b or any((a, b) == pair or (b, a) == pair for pair in self.eq_words)


#: 0.3's name (one word per concept: settings); works until 0.5
EvalbParams = EvalbSettings
