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

from ..adapters.conllu.column_reader import ConlluColumns
from .conll18.alignment import METRICS as CONLL18_METRICS, WordAlignment, align_words, aligned_masks

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


# ------------------------------------------------------------------------ parser metrics


def dependency_unit_counts(rows: Sequence[Tuple[int, Dict[str, List[float]]]], metrics: Sequence[str],
                           score_functions: Sequence[Callable[[float, float], float]], labels: Mapping[int, str],
                           set_aside: Mapping[int, str]) -> UnitCounts:
    """From :func:`~spacy_agreement.evaluation.dependency.metrics.evaluate`'s per-sentence counts
    (``rows``: gold sentence index and the sentence's ``Counts.values``; ``score_functions``:
    each metric's ``Metric.score``)."""
    shape = (len(rows), len(metrics))
    num = np.array([[counts[m][0] for m in metrics] for _, counts in rows], dtype=float).reshape(shape)
    den = np.array([[counts[m][1] for m in metrics] for _, counts in rows], dtype=float).reshape(shape)
    return dependency_unit_counts_arrays(np.array([u for u, _ in rows], dtype=np.int64), num, den, metrics,
                                         score_functions, labels, set_aside)


def dependency_unit_counts_arrays(units: np.ndarray, numerators: np.ndarray, denominators: np.ndarray,
                                  metrics: Sequence[str], score_functions: Sequence[Callable[[float, float], float]],
                                  labels: Mapping[int, str], set_aside: Mapping[int, str]) -> UnitCounts:
    """:func:`dependency_unit_counts` from the per-sentence count arrays of the fast path
    (:mod:`.column_evaluation`): ``units`` the gold sentence of each row, ``numerators`` and
    ``denominators`` of shape (rows, metrics)."""
    scores = [vectorised(score) for score in score_functions]
    return from_rows(metrics, units, numerators, denominators, scores, labels, set_aside)


def _unit_of(gold: ConlluColumns, starts: np.ndarray) -> np.ndarray:
    """The gold sentence holding each character offset."""
    return np.maximum(np.searchsorted(gold.sentence_start, starts, side="right") - 1, 0)


def aligned_unit_counts(gold: ConlluColumns, system: ConlluColumns,
                        alignment: Optional[WordAlignment] = None) -> UnitCounts:
    """The thirteen scores of ``conll18_ud_eval.py`` (their F1, as the shared task ranked
    systems: 2·correct / (gold + system)) per gold sentence, for a system with its own tokens
    and sentences (module docstring: a system item counts in the gold sentence holding its
    first character)."""
    alignment = alignment if alignment is not None else align_words(gold, system)
    masks = aligned_masks(gold, system, alignment)
    n = len(gold)
    gold_word_unit = gold.word_sentence
    system_word_unit = _unit_of(gold, system.token_start[system.word_token]) if system.n_words else \
        np.zeros(0, dtype=np.int64)
    aligned_unit = gold_word_unit[masks.gold_words]

    def per_unit(units: np.ndarray, weights: Optional[np.ndarray] = None) -> np.ndarray:
        return np.bincount(units, weights=None if weights is None else weights.astype(float), minlength=n)[:n]

    gold_tokens_unit = _unit_of(gold, gold.token_start)
    columns = {}
    # spans: tokens and sentences right where both ends agree
    for name, g_start, g_end, s_start, s_end, g_unit in (
            ("tokens", gold.token_start, gold.token_end, system.token_start, system.token_end, gold_tokens_unit),
            ("sentences", gold.sentence_start, gold.sentence_end, system.sentence_start, system.sentence_end,
             np.arange(n))):
        _, gk, sk = np.intersect1d(g_start, s_start, assume_unique=True, return_indices=True)
        right = gk[g_end[gk] == s_end[sk]]
        columns[name] = (per_unit(g_unit[right]), per_unit(g_unit), per_unit(_unit_of(gold, s_start)))
    columns["words"] = (per_unit(aligned_unit), per_unit(gold_word_unit), per_unit(system_word_unit))
    for name, ok in masks.correct.items():
        if name in ("clas", "mlas", "blex"):
            columns[name] = (per_unit(aligned_unit[ok]), per_unit(gold_word_unit[masks.gold_content]),
                             per_unit(system_word_unit[masks.system_content]))
        else:
            columns[name] = (per_unit(aligned_unit[ok]), per_unit(gold_word_unit), per_unit(system_word_unit))
    names = tuple(CONLL18_METRICS)
    num = np.stack([2 * columns[m][0] for m in names], axis=1)
    den = np.stack([columns[m][1] + columns[m][2] for m in names], axis=1)
    labels = {s: str(gold.sentence_location(s)) for s in range(n)}
    return UnitCounts(names, np.arange(n, dtype=np.int64), num, den, tuple(ratio for _ in names), labels, {})


# ------------------------------------------------------------------------ EVALB and leaf-ancestor

#: EVALB's summary figures as fractions (numerator, denominator per sentence)
EVALB_METRICS = ("recall", "precision", "fmeasure", "complete_match", "average_crossing", "no_crossing",
                 "two_or_less_crossing", "tagging_accuracy")


def evalb_unit_counts(report) -> UnitCounts:
    """EVALB's "All" figures per sentence of an
    :class:`~spacy_agreement.evaluation.constituency.evalb.EvalbReport`, as fractions (average crossing in
    brackets per sentence): recall, precision, F (2·matched / (gold + test)), complete match,
    average crossing, no crossing, two or less crossing, tagging accuracy. Error and skip
    sentences are set aside, as EVALB leaves them out of its totals."""
    from .constituency.evalb import ERROR, OK

    rows, num, den, labels, set_aside = [], [], [], {}, {}
    for k, s in enumerate(report.sentences):
        labels[k] = f"line {s.id}"
        if s.status != OK:
            set_aside[k] = f"line {s.id}: EVALB {'error' if s.status == ERROR else 'skip'} sentence"
            continue
        complete = float(s.gold_brackets == s.test_brackets == s.matched)
        rows.append(k)
        num.append([s.matched, s.matched, 2 * s.matched, complete, s.crossing, float(s.crossing == 0),
                    float(s.crossing <= 2), s.correct_tags])
        den.append([s.gold_brackets, s.test_brackets, s.gold_brackets + s.test_brackets, 1, 1, 1, 1, s.words])
    return from_rows(EVALB_METRICS, rows, num, den, [ratio] * len(EVALB_METRICS), labels, set_aside)


LEAF_ANCESTOR_METRICS = ("leaf_ancestor", "leaf_ancestor_words", "geig_unlabelled", "geig_labelled")


def leaf_ancestor_unit_counts(result) -> UnitCounts:
    """Leaf-ancestor per sentence of a
    :class:`~spacy_agreement.evaluation.constituency.leaf_ancestor.LeafAncestorResult`: the corpus score
    (mean of sentence scores: Σ score / Σ 1), the mean over words (Σ word scores / Σ words)
    and, for phrase trees, GEIG's unlabelled and labelled F (2·matched / (gold + candidate)).
    The sentences the evaluation skipped are set aside with its reason. Read from the
    result's per-sentence arrays (:meth:`~spacy_agreement.evaluation.constituency.leaf_ancestor.LeafAncestorResult.sentence_arrays`),
    without building its sentences word by word."""
    phrase = result.brackets is not None
    names = LEAF_ANCESTOR_METRICS if phrase else LEAF_ANCESTOR_METRICS[:2]
    arrays = result.sentence_arrays()
    words = arrays["words"].astype(float)
    has = words > 0
    num = [np.where(has, np.nan_to_num(arrays["mean"]), 0.0), np.where(has, arrays["sum"], 0.0)]
    den = [has.astype(float), words]
    if phrase:
        matched_unlabelled, matched_labelled = arrays["matched_unlabelled"], arrays["matched_labelled"]
        both = (arrays["gold"] + arrays["candidate"]).astype(float)
        num += [2.0 * matched_unlabelled, 2.0 * matched_labelled]
        den += [both, both]
    rows = arrays["index"].tolist()
    labels = {index: result.location(row) for row, index in enumerate(rows)}
    return from_rows(names, rows, np.stack(num, axis=1) if rows else np.zeros((0, len(names))),
                     np.stack(den, axis=1) if rows else np.zeros((0, len(names))), [ratio] * len(names), labels,
                     dict(result.set_aside))


__all__ = ["EVALB_METRICS", "LEAF_ANCESTOR_METRICS", "UnitCounts", "aligned_unit_counts", "dependency_unit_counts",
           "evalb_unit_counts", "from_rows", "leaf_ancestor_unit_counts", "ratio", "vectorised"]
