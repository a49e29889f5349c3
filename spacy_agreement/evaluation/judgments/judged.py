"""The judges' preferences, kept compact while :func:`~.analysis.analyse_judgments` goes through
the items once: a judge number and a code per judgment (:class:`_Judged`), and the items'
preference dicts rebuilt on demand for MACE (:class:`_JudgedItems`)."""
from __future__ import annotations

from array import array
from typing import Dict, Iterator, List, Mapping, Optional, Sequence

import numpy as np

PREFERENCES = ("A", "B")
#: A judge's "no preference", as written in the files (``tie``, any case).
TIE = "tie"


class _Judged:
    """The judges' preferences of every item so far, compact: a judge number and a code
    (1: A, 2: B, 3: no preference) per judgment, in the order read, and where each item's judgments start. What
    the agreement statistics and MACE need, a few bytes per judgment; the item's dict is
    not kept (``item(i)`` rebuilds it, in the order it was read)."""

    LETTERS = ("", "A", "B", TIE)
    CODES = {"A": 1, "B": 2, TIE: 3}

    def __init__(self) -> None:
        self.names: Dict[str, int] = {}  # judge -> number, in the order first seen
        self.judge = array("i")
        self.value = array("b")
        self.starts = array("q", [0])

    def add(self, judgments: Mapping[str, str]) -> None:
        for judge, value in judgments.items():
            self.judge.append(self.names.setdefault(judge, len(self.names)))
            self.value.append(self.CODES[value])
        self.starts.append(len(self.judge))

    def __len__(self) -> int:
        return len(self.starts) - 1

    def item(self, i: int, names: Optional[Sequence[str]] = None) -> Dict[str, str]:
        names = names if names is not None else list(self.names)
        return {names[self.judge[k]]: self.LETTERS[self.value[k]] for k in range(self.starts[i], self.starts[i + 1])}

    def values(self) -> Iterator[List[str]]:
        """Each item's preferences in the order read (what ``fleiss_kappa`` takes)."""
        for i in range(len(self)):
            yield [self.LETTERS[self.value[k]] for k in range(self.starts[i], self.starts[i + 1])]

    def matrix(self, judges: Sequence[str]) -> np.ndarray:
        """items × ``judges``: 0 not judged, 1 A, 2 B, 3 no preference (one byte a cell)."""
        column = np.full(max(len(self.names), 1), -1, dtype=np.int64)
        for name, number in self.names.items():
            column[number] = judges.index(name)
        rows = np.repeat(np.arange(len(self)), np.diff(np.frombuffer(self.starts, dtype=np.int64)))
        out = np.zeros((len(self), len(judges)), dtype=np.int8)
        out[rows, column[np.frombuffer(self.judge, dtype=np.int32)]] = np.frombuffer(self.value, dtype=np.int8)
        return out


class _JudgedItems(Sequence):  # type: ignore[type-arg]
    """The items' preference dicts as a sequence built on demand (what :func:`mace` reads)."""

    def __init__(self, judged: _Judged):
        self.judged = judged
        self.names = list(judged.names)

    def __len__(self) -> int:
        return len(self.judged)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self.judged.item(k, self.names) for k in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        return self.judged.item(i % len(self), self.names)
