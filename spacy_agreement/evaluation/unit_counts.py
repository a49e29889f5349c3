"""Each metric's counts sentence by sentence: what the significance tests and the bootstrap
intervals resample (:mod:`spacy_agreement.evaluation.comparison.significance`).

Every corpus metric of the package is a function of two sums over the sentences, a numerator
and a denominator: LAS is Σ correct / Σ scored tokens; an F1 (CLAS, the conll18 scores, EVALB's
and GEIG's bracket F) is Σ 2·matched / Σ (gold + system); TED accuracy is 1 − Σ TED / Σ norm;
the leaf-ancestor corpus score is Σ sentence score / Σ 1. A :class:`UnitCounts` holds both
columns per sentence (the *unit*) and the function, so that a resampled corpus is scored as the
metric defines it (micro-averaged), never as a mean of per-sentence scores, and the sum over every
unit gives the number the evaluation printed.

Units are the **gold** sentences, numbered from 0 in the gold file. With the CoNLL 2018 alignment
(parser output from raw text, its own sentences and tokens), a system word, token or sentence
belongs to the gold sentence holding its first character: the units stay the same for every
system, which a paired test needs. A sentence a system's evaluation left out (tokens that differ,
a failed parse, an EVALB error or skip) is recorded with its reason in ``set_aside``; a comparison
leaves such a unit out for every system and says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np


Score = Callable[[np.ndarray, np.ndarray], np.ndarray]


def ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """Σ numerator / Σ denominator (``nan`` where the denominator is 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator != 0, numerator / np.where(denominator != 0, denominator, 1), np.nan)


def vectorised(score: Callable[[float, float], float]) -> Score:
    """A metric's own score function made to take arrays (``nan`` where the denominator is 0)."""
    def apply(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
        numerator, denominator = np.asarray(numerator, dtype=float), np.asarray(denominator, dtype=float)
        safe = np.where(denominator != 0, denominator, 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            try:
                value = np.asarray(score(numerator, safe), dtype=float)
                if value.shape != numerator.shape:
                    raise TypeError
            except (TypeError, ValueError):  # a function of two floats only
                value = np.vectorize(lambda n, d: float(score(n, d)), otypes=[float])(numerator, safe)
        return np.where(denominator != 0, value, np.nan)
    return apply


@dataclass(frozen=True)
class UnitCounts:
    """One system's counts per unit (module docstring): ``numerators`` and ``denominators``
    of shape (units, metrics), ``units`` the gold sentence of each row (0-based, increasing),
    ``scores`` one vectorised function per metric, ``labels`` where each unit is (for the
    messages), ``set_aside`` the units left out of this system's evaluation, with the reason."""

    metrics: Tuple[str, ...]
    units: np.ndarray
    numerators: np.ndarray
    denominators: np.ndarray
    scores: Tuple[Score, ...]
    labels: Mapping[int, str] = field(default_factory=dict)
    set_aside: Mapping[int, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.units)

    def values(self, numerators: np.ndarray, denominators: np.ndarray) -> np.ndarray:
        """Each metric's value from summed counts of shape (..., metrics)."""
        numerators, denominators = np.asarray(numerators, dtype=float), np.asarray(denominators, dtype=float)
        out = np.empty(np.broadcast(numerators, denominators).shape)
        for k, score in enumerate(self.scores):
            out[..., k] = score(numerators[..., k], denominators[..., k])
        return out

    def corpus(self) -> Dict[str, float]:
        """Each metric over every unit: the evaluation's own figures."""
        values = self.values(self.numerators.sum(axis=0), self.denominators.sum(axis=0))
        return dict(zip(self.metrics, values.tolist()))

    def select(self, units: np.ndarray, metrics: Optional[Sequence[str]] = None) -> "UnitCounts":
        """The rows of ``units`` (each one present) and the columns of ``metrics``, in that order."""
        rows = np.searchsorted(self.units, units)
        if len(units) and (rows.max() >= len(self.units) or np.any(self.units[rows] != units)):
            raise KeyError("a unit is not among this system's")
        names = tuple(metrics) if metrics is not None else self.metrics
        cols = [self.metrics.index(m) for m in names]
        return UnitCounts(names, np.asarray(units), self.numerators[np.ix_(rows, cols)],
                          self.denominators[np.ix_(rows, cols)], tuple(self.scores[c] for c in cols),
                          self.labels, self.set_aside)


def from_rows(metrics: Sequence[str], units: Sequence[int], numerators: Sequence[Sequence[float]],
              denominators: Sequence[Sequence[float]], scores: Sequence[Score],
              labels: Optional[Mapping[int, str]] = None, set_aside: Optional[Mapping[int, str]] = None) -> UnitCounts:
    """A :class:`UnitCounts` from per-unit rows (any order of units; each unit once)."""
    units_arr = np.asarray(units, dtype=np.int64)
    order = np.argsort(units_arr, kind="stable")
    shape = (len(units_arr), len(metrics))
    num = np.asarray(numerators, dtype=float).reshape(shape)[order]
    den = np.asarray(denominators, dtype=float).reshape(shape)[order]
    if (np.diff(units_arr[order]) == 0).any():
        raise ValueError("a unit occurs twice")
    return UnitCounts(tuple(metrics), units_arr[order], num, den, tuple(scores), dict(labels or {}),
                      dict(set_aside or {}))


__all__ = ["UnitCounts", "from_rows", "ratio", "vectorised"]
