"""The conll18 family's accumulator: ``conll18_ud_eval.py``'s thirteen scores summed over pairs of
files (or of pieces of files that the script aligns as they are), with their counts per gold
sentence.

:class:`AlignedEvaluator` has the shape of every family's accumulator (EVALB's
:class:`~spacy_agreement.evaluation.constituency.evalb.Evaluator`, leaf-ancestor's
:class:`~spacy_agreement.evaluation.constituency.leaf_ancestor_accumulator.LeafAncestorEvaluator`):
:meth:`~AlignedEvaluator.add` one pair (here the CoNLL-U columns of a gold and a system text, whole
files or the pieces between two synchronisation points, :mod:`.streaming`),
:meth:`~AlignedEvaluator.add_files` a pair of files, :meth:`~AlignedEvaluator.result` the scores, an
:class:`~.scores.AlignedScores` whose :meth:`~.scores.AlignedScores.statistics` gives the counts
per gold sentence that ``--ci`` and ``compare`` resample (sacrebleu's pattern: the metric supplies
per-segment statistics, and its score is a function of their sum).

Per gold sentence (the *units* of :mod:`spacy_agreement.evaluation.unit_counts`): each score's F1
as ``2·correct / (gold + system)``, a system word, token or sentence counted in the gold sentence
holding its first character, so that the units are the same for every system (a paired test needs
that). The counts are made from the word-by-word flags the scores are summed from
(:func:`~.masks.aligned_masks`), on first use: an evaluation without ``--ci`` pays nothing for them
but a few arrays per piece.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from ...adapters.conllu.column_reader import ConlluColumns, PathLike, read_conllu_columns
from ...errors import Location
from ..unit_counts import UnitCounts, ratio
from .masks import AlignedMasks, ColumnCoder, aligned_masks, count_scores
from .scores import METRICS, AlignedMetric, AlignedScores
from .word_alignment import WordAlignment, align_words

#: what the scores sum besides the thirteen metrics' counts
READING_COUNTS = ("gold_empty_nodes", "system_empty_nodes", "gold_multiword_tokens", "system_multiword_tokens",
                  "multiword_spans")
_CONTENT = ("clas", "mlas", "blex")


@dataclass(frozen=True)
class _Piece:
    """What the counts per gold sentence of one added pair need (not the columns' strings): the
    gold's sentence and token spans, word sentences and places, the system's spans, and the flags."""

    offset: int  # gold sentences added before this pair
    source: str
    sentence_start: np.ndarray
    sentence_end: np.ndarray
    sentence_lines: np.ndarray
    sent_ids: List[Optional[str]]
    token_start: np.ndarray
    token_end: np.ndarray
    word_sentence: np.ndarray
    system_token_start: np.ndarray
    system_token_end: np.ndarray
    system_sentence_start: np.ndarray
    system_sentence_end: np.ndarray
    system_word_start: np.ndarray  # the start of each system word's token
    masks: AlignedMasks

    @classmethod
    def of(cls, offset: int, gold: ConlluColumns, system: ConlluColumns, masks: AlignedMasks) -> "_Piece":
        return cls(offset, gold.source, gold.sentence_start, gold.sentence_end, gold.sentence_lines, gold.sent_ids,
                   gold.token_start, gold.token_end, gold.word_sentence, system.token_start, system.token_end,
                   system.sentence_start, system.sentence_end, system.token_start[system.word_token], masks)

    def __len__(self) -> int:
        return len(self.sent_ids)

    def unit_of(self, starts: np.ndarray) -> np.ndarray:
        """The gold sentence (of this piece) holding each character offset."""
        return np.maximum(np.searchsorted(self.sentence_start, starts, side="right") - 1, 0)

    def columns(self) -> Tuple[np.ndarray, np.ndarray]:
        """Numerators (2·correct) and denominators (gold + system) per gold sentence, one column a
        score in :data:`~.scores.METRICS` order."""
        n, masks = len(self), self.masks

        def per_unit(units: np.ndarray) -> np.ndarray:
            return np.bincount(units, minlength=n)[:n]

        gold_word_unit = self.word_sentence
        system_word_unit = self.unit_of(self.system_word_start) if len(self.system_word_start) else \
            np.zeros(0, dtype=np.int64)
        aligned_unit = gold_word_unit[masks.gold_words]
        columns = {}
        for name, g_start, g_end, s_start, s_end, g_unit in (
                ("tokens", self.token_start, self.token_end, self.system_token_start, self.system_token_end,
                 self.unit_of(self.token_start)),
                ("sentences", self.sentence_start, self.sentence_end, self.system_sentence_start,
                 self.system_sentence_end, np.arange(n))):
            _, gk, sk = np.intersect1d(g_start, s_start, assume_unique=True, return_indices=True)
            right = gk[g_end[gk] == s_end[sk]]  # spans whose both ends agree
            columns[name] = (per_unit(g_unit[right]), per_unit(g_unit), per_unit(self.unit_of(s_start)))
        columns["words"] = (per_unit(aligned_unit), per_unit(gold_word_unit), per_unit(system_word_unit))
        for name, ok in masks.correct.items():
            if name in _CONTENT:
                columns[name] = (per_unit(aligned_unit[ok]), per_unit(gold_word_unit[masks.gold_content]),
                                 per_unit(system_word_unit[masks.system_content]))
            else:
                columns[name] = (per_unit(aligned_unit[ok]), per_unit(gold_word_unit), per_unit(system_word_unit))
        numerators = np.stack([2 * columns[m][0] for m in METRICS], axis=1)
        denominators = np.stack([columns[m][1] + columns[m][2] for m in METRICS], axis=1)
        return numerators, denominators

    def labels(self) -> Dict[int, str]:
        """Where each gold sentence is (numbered in the whole gold: this piece's offset added)."""
        return {self.offset + s: str(Location(self.source, self.offset + s + 1, None, int(self.sentence_lines[s]),
                                              self.sent_ids[s]))
                for s in range(len(self))}


def _statistics(pieces: List[_Piece]) -> Callable[[], UnitCounts]:
    """The counts per gold sentence of the pieces, made on the first call and kept."""
    made: List[UnitCounts] = []

    def statistics() -> UnitCounts:
        if not made:
            names = tuple(METRICS)
            parts = [piece.columns() for piece in pieces]
            width = len(names)
            numerators = np.concatenate([p[0] for p in parts]) if parts else np.zeros((0, width), dtype=np.int64)
            denominators = np.concatenate([p[1] for p in parts]) if parts else np.zeros((0, width), dtype=np.int64)
            units = (np.concatenate([piece.offset + np.arange(len(piece), dtype=np.int64) for piece in pieces])
                     if pieces else np.zeros(0, dtype=np.int64))
            labels: Dict[int, str] = {}
            for piece in pieces:
                labels.update(piece.labels())
            made.append(UnitCounts(names, units, numerators, denominators, tuple(ratio for _ in names), labels, {}))
        return made[0]

    return statistics


class AlignedEvaluator:
    """``conll18_ud_eval.py``'s scores summed pair by pair (module docstring): :meth:`add` the
    columns of a gold and a system text (whole files, or pieces that the script's alignment of
    the whole aligns as they are: :mod:`.streaming` cuts files so), :meth:`add_files` two files,
    :meth:`result` the :class:`~.scores.AlignedScores` of everything added.

    ``keep_statistics`` (the default): the result's :meth:`~.scores.AlignedScores.statistics`
    gives the counts per gold sentence (the gold sentences numbered across the pairs, in the
    order added); without it nothing is kept per sentence (the streamed evaluation's flat
    memory). ``gold_source`` and ``system_source`` name the files in the result (by default
    the first pair's)."""

    def __init__(self, keep_statistics: bool = True, gold_source: Optional[str] = None,
                 system_source: Optional[str] = None):
        self.keep_statistics = keep_statistics
        self.sources = (gold_source, system_source)
        self.counts: Dict[str, List[Optional[int]]] = {m: [0, 0, 0, None] for m in METRICS}
        self.extra: Dict[str, int] = {key: 0 for key in READING_COUNTS}
        self.pieces = 0  # pairs added
        self.gold_sentences = 0
        self._kept: List[_Piece] = []
        self._coder = ColumnCoder()  # the scanner's codes of the pieces, looked up once for all

    def add(self, gold: ConlluColumns, system: ConlluColumns, alignment: Optional[WordAlignment] = None
            ) -> AlignedScores:
        """One pair of texts (their columns,
        :func:`~spacy_agreement.adapters.conllu.column_reader.read_conllu_columns`): aligned (``alignment`` when the caller has it, :func:`~.word_alignment.align_words`),
        scored and added; returns the pair's own scores. Texts that differ raise
        :class:`~spacy_agreement.errors.MismatchedCorpusError`."""
        alignment = alignment if alignment is not None else align_words(gold, system)
        masks = aligned_masks(gold, system, alignment, self._coder)
        scores = count_scores(gold, system, alignment, masks)
        if self.keep_statistics:
            self._kept.append(_Piece.of(self.gold_sentences, gold, system, masks))
        self._sum(scores)
        if not self.pieces:
            self.sources = (self.sources[0] or gold.source, self.sources[1] or system.source)
        self.pieces += 1
        self.gold_sentences += len(gold)
        return scores

    def add_files(self, gold: PathLike, system: PathLike) -> AlignedScores:
        """Two CoNLL-U files, read whole (:func:`~spacy_agreement.adapters.conllu.column_reader.read_conllu_columns`)
        and :meth:`add`-ed; returns their scores."""
        return self.add(read_conllu_columns(gold), read_conllu_columns(system))

    def _sum(self, scores: AlignedScores) -> None:
        for metric in scores.metrics():
            entry = self.counts[metric.name]
            entry[0] += metric.correct  # type: ignore[operator]
            entry[1] += metric.gold  # type: ignore[operator]
            entry[2] += metric.system  # type: ignore[operator]
            if metric.aligned is not None:
                entry[3] = (entry[3] or 0) + metric.aligned
        for key in READING_COUNTS:
            self.extra[key] += getattr(scores, key)

    def result(self) -> AlignedScores:
        """The scores of every pair added (each count the sum of the pairs'), with
        :meth:`~.scores.AlignedScores.statistics` where ``keep_statistics``."""
        metrics = {m: AlignedMetric(m, *values) for m, values in self.counts.items()}  # type: ignore[arg-type]
        gold_source, system_source = self.sources
        return AlignedScores(**metrics, gold_source=gold_source or "<gold>",  # type: ignore[arg-type]
                             system_source=system_source or "<system>", **self.extra,
                             per_sentence=_statistics(list(self._kept)) if self.keep_statistics else None)


def aligned_evaluation(gold: ConlluColumns, system: ConlluColumns, alignment: Optional[WordAlignment] = None
                       ) -> AlignedScores:
    """The scores of one pair of texts with their counts per gold sentence:
    ``AlignedEvaluator().add(gold, system)`` and its :meth:`~AlignedEvaluator.result`
    (:func:`~.alignment.evaluate_aligned_layers`' numbers, with
    :meth:`~.scores.AlignedScores.statistics`)."""
    evaluator = AlignedEvaluator()
    evaluator.add(gold, system, alignment)
    return evaluator.result()


__all__ = ["AlignedEvaluator", "READING_COUNTS", "aligned_evaluation"]
