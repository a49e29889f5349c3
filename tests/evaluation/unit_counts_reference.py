"""The conversions of the families' results into per-sentence counts that the package used before
each family's result gave its own (``statistics()``, issue 40): kept here, in the tests, as the
independent reference the families' own statistics are compared with
(tests/evaluation/test_family_accumulators.py, test_unit_counts.py). The package's
``evaluation.unit_counts`` holds the shared container alone, so that it imports no family
(issue 49: each family supplies its own statistics)."""
from __future__ import annotations

from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from spacy_agreement.adapters.conllu.column_reader import ConlluColumns
from spacy_agreement.evaluation.conll18.alignment import (METRICS as CONLL18_METRICS, WordAlignment, align_words,
                                                          aligned_masks)
from spacy_agreement.evaluation.unit_counts import UnitCounts, from_rows, ratio, vectorised


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
    from spacy_agreement.evaluation.constituency.evalb import ERROR, OK

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


