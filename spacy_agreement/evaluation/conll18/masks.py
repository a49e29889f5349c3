"""What ``conll18_ud_eval.py``'s scores count, word by word (:func:`aligned_masks`: for each aligned
pair whether each score takes it, and the content words), and those flags summed over a pair of
files (:func:`count_scores`). Split from :mod:`.alignment` (which re-exports the public names and
says what each score counts); summed per gold sentence by :class:`~.accumulator.AlignedEvaluator`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np

from ...adapters.conllu.column_reader import ConlluColumns
from ..dependency.ud_labels import CONTENT_DEPRELS, FUNCTIONAL_DEPRELS, universal_deprel, universal_feats
from .scores import AlignedMetric, AlignedScores
from .word_alignment import WordAlignment, align_words

_UNALIGNED = -2  # gold partner of a system word that has none (the root's "head" is -1)


def _coded(gold: Sequence[str], system: Sequence[str], normalise: Optional[Callable[[str], object]] = None
           ) -> Tuple[Tuple[np.ndarray, np.ndarray], Dict[object, int]]:
    """A column of both sides as integer codes, equal where the (normalised) values are equal:
    ``((gold codes, system codes), {normalised value: code})``. Each distinct value is
    normalised once (the readers intern the values, so the look-ups are quick)."""
    distinct = dict.fromkeys(gold)
    distinct.update(dict.fromkeys(system))
    codes: Dict[object, int] = {}
    if normalise is None:
        code_of = {value: codes.setdefault(value, len(codes)) for value in distinct}
    else:
        code_of = {value: codes.setdefault(normalise(value), len(codes)) for value in distinct}
    look_up = code_of.__getitem__
    return ((np.fromiter(map(look_up, gold), dtype=np.int64, count=len(gold)),
             np.fromiter(map(look_up, system), dtype=np.int64, count=len(system))), codes)


class ColumnCoder:
    """:func:`_coded` of columns given as string codes of one table (the scanner's), for the
    pieces of a pair of files read into that table (the streamed evaluation's): :meth:`coded`
    looks each table code's value up (and normalises it) once for all pieces, so that a piece
    costs the values it meets first, and maps the codes through an array. A piece from another
    table starts afresh."""

    def __init__(self) -> None:
        self.table: Any = None
        # per normalisation: each table code's code (-1 not yet met; the last entry: code -1's,
        # the empty string's), and {normalised value: code}
        self._states: Dict[Any, Tuple[np.ndarray, Dict[object, int]]] = {}

    def coded(self, gold: np.ndarray, system: np.ndarray, values: np.ndarray, table: Any,
              normalise: Optional[Callable[[str], object]] = None
              ) -> Tuple[Tuple[np.ndarray, np.ndarray], Dict[object, int]]:
        """:func:`_coded` of two columns of codes of ``table`` (``values``: each code's text,
        ``""`` last for -1), equal where the (normalised) values are equal, whichever code of the
        table they come from; the dict holds every value met so far."""
        if table is not self.table:
            self.table, self._states = table, {}
        n = len(values) - 1  # the table's codes; values[n] is "", code -1's
        look, codes = self._states.get(normalise, (None, {}))
        if look is None or len(look) - 1 < n:
            grown = np.full(n + 1, -1, dtype=np.int64)
            if look is not None:
                grown[:len(look) - 1] = look[:-1]
            grown[n] = codes.setdefault(normalise("") if normalise is not None else "", len(codes)) \
                if look is None else look[-1]
            look = grown
            self._states[normalise] = (look, codes)
        present = np.zeros(len(look), dtype=bool)
        present[gold] = True
        present[system] = True
        new = np.flatnonzero(present & (look < 0))
        if len(new):
            strings = values[new].tolist()
            if normalise is None:
                look[new] = [codes.setdefault(value, len(codes)) for value in strings]
            else:
                look[new] = [codes.setdefault(normalise(value), len(codes)) for value in strings]
        return (look[gold], look[system]), codes


def _flags(codes: Dict[object, int], accepted: frozenset) -> np.ndarray:
    """For each code of a coded column, whether its value is in ``accepted``."""
    flags = np.zeros(len(codes), dtype=bool)
    for value, code in codes.items():
        flags[code] = value in accepted
    return flags


@dataclass(frozen=True)
class _Columns:
    """One side's words as the scores compare them: integer codes of the columns, shared with
    the other side (equal codes, equal values as compared), the content and functional
    relations, and the heads as word indices (-1: the root)."""

    upos: np.ndarray
    xpos: np.ndarray
    lemmas: np.ndarray
    feats: np.ndarray  # universal features, sorted
    deprels: np.ndarray  # universal part
    content: np.ndarray
    functional: np.ndarray
    heads: np.ndarray


def _columns(gold: ConlluColumns, system: ConlluColumns, coder: Optional[ColumnCoder] = None
             ) -> Tuple[_Columns, _Columns, np.ndarray]:
    """Both sides' :class:`_Columns`, and where the gold lemma is ``_`` (any lemma is right);
    ``coder`` keeps the scanner's codes looked up across the pieces of a stream."""
    if gold.word_codes is not None and system.word_codes is not None and gold.code_table is not None \
            and gold.code_table is system.code_table:
        values = max(gold.code_values, system.code_values, key=len)  # the same table, one read later
        # each column contiguous and of the index type: the look-ups below index with them
        g, s = gold.word_codes.T.astype(np.intp), system.word_codes.T.astype(np.intp)
        coded = (coder or ColumnCoder()).coded
        table = gold.code_table
        upos, _ = coded(g[2], s[2], values, table)
        xpos, _ = coded(g[3], s[3], values, table)
        lemmas, lemma_codes = coded(g[1], s[1], values, table)
        feats, _ = coded(g[4], s[4], values, table, universal_feats)
        deprels, deprel_codes = coded(g[5], s[5], values, table, universal_deprel)
    else:
        upos, _ = _coded(gold.upos, system.upos)
        xpos, _ = _coded(gold.xpos, system.xpos)
        lemmas, lemma_codes = _coded(gold.lemmas, system.lemmas)
        feats, _ = _coded(gold.feats, system.feats, universal_feats)
        deprels, deprel_codes = _coded(gold.deprels, system.deprels, universal_deprel)
    content, functional = _flags(deprel_codes, CONTENT_DEPRELS), _flags(deprel_codes, FUNCTIONAL_DEPRELS)
    sides = [_Columns(upos[k], xpos[k], lemmas[k], feats[k], deprels[k], content[deprels[k]], functional[deprels[k]],
                      layers.head_words) for k, layers in enumerate((gold, system))]
    return sides[0], sides[1], lemmas[0] == lemma_codes.get("_", -1)


def _spans_metric(name: str, gold_start: np.ndarray, gold_end: np.ndarray, system_start: np.ndarray,
                  system_end: np.ndarray) -> AlignedMetric:
    """Spans shared by both sides (starts are increasing on each side)."""
    if np.array_equal(gold_start, system_start):  # the same tokens (or sentences), nearly always
        correct = int(np.count_nonzero(gold_end == system_end))
    else:
        _, gk, sk = np.intersect1d(gold_start, system_start, assume_unique=True, return_indices=True)
        correct = int(np.count_nonzero(gold_end[gk] == system_end[sk]))
    return AlignedMetric(name, correct, len(gold_start), len(system_start))


def _count(mask: np.ndarray) -> int:
    return int(np.count_nonzero(mask))


@dataclass(frozen=True)
class AlignedMasks:
    """What the scores count, word by word: the aligned pairs (``gold_words[k]`` with
    ``system_words[k]``), for each score over aligned words (``upos`` ... ``blex``) whether
    pair ``k`` is right, and which words of each side are content words (the CLAS, MLAS and
    BLEX denominators). :func:`count_scores` sums them over the file;
    :class:`~.accumulator.AlignedEvaluator` over each gold sentence too."""

    gold_words: np.ndarray
    system_words: np.ndarray
    correct: Dict[str, np.ndarray]
    gold_content: np.ndarray
    system_content: np.ndarray


def aligned_masks(gold: ConlluColumns, system: ConlluColumns, alignment: Optional[WordAlignment] = None,
                  coder: Optional[ColumnCoder] = None) -> AlignedMasks:
    """The word-by-word flags behind the scores of :func:`~.alignment.evaluate_aligned_layers`
    (``coder``: a :class:`ColumnCoder` kept across the pieces of a stream)."""
    alignment = alignment if alignment is not None else align_words(gold, system)
    G, S, no_gold_lemma = _columns(gold, system, coder)
    ag, as_ = alignment.gold_words, alignment.system_words
    upos = G.upos[ag] == S.upos[as_]
    xpos = G.xpos[ag] == S.xpos[as_]
    feats = G.feats[ag] == S.feats[as_]
    lemmas = no_gold_lemma[ag] | (G.lemmas[ag] == S.lemmas[as_])
    # heads: the gold head against the gold partner of the system head (-1 both roots, -2 unaligned)
    partner = np.where(alignment.gold_of_system >= 0, alignment.gold_of_system, _UNALIGNED)
    system_heads = np.where(S.heads >= 0, partner[np.maximum(S.heads, 0)], -1) if system.n_words else S.heads
    uas = G.heads[ag] == system_heads[as_]
    las = uas & (G.deprels[ag] == S.deprels[as_])
    content = G.content[ag]
    clas = las & content
    # functional children: those of the gold word, each aligned with one of the system word's
    # with the same relation, UPOS and features (same order: the alignment is monotone)
    g_child = (G.heads >= 0) & G.functional
    s_child = (S.heads >= 0) & S.functional
    g_children = np.bincount(G.heads[g_child], minlength=gold.n_words)
    s_children = np.bincount(S.heads[s_child], minlength=system.n_words)
    child = np.flatnonzero(s_child)
    child_gold = partner[child]
    ok = child_gold >= 0
    child, child_gold = child[ok], child_gold[ok]
    ok = (g_child[child_gold] & (G.heads[child_gold] == system_heads[child])
          & (G.deprels[child_gold] == S.deprels[child]) & (G.upos[child_gold] == S.upos[child])
          & (G.feats[child_gold] == S.feats[child]))
    matched_children = np.bincount(S.heads[child[ok]], minlength=system.n_words)
    same_children = (g_children[ag] == s_children[as_]) & (s_children[as_] == matched_children[as_])
    mlas = clas & upos & feats & same_children
    blex = clas & lemmas
    correct = {"upos": upos, "xpos": xpos, "ufeats": feats, "alltags": upos & xpos & feats, "lemmas": lemmas,
               "uas": uas, "las": las, "clas": clas, "mlas": mlas, "blex": blex}
    return AlignedMasks(ag, as_, correct, G.content, S.content)


def count_scores(gold: ConlluColumns, system: ConlluColumns, alignment: WordAlignment,
                 masks: AlignedMasks) -> AlignedScores:
    """The thirteen scores of two files from their alignment and its :func:`aligned_masks`: the
    flags summed over the files (what :func:`~.alignment.evaluate_aligned_layers` returns)."""
    n_aligned = len(masks.gold_words)
    content = masks.gold_content[masks.gold_words]
    scores = {}
    for name, ok in masks.correct.items():
        if name in ("clas", "mlas", "blex"):
            scores[name] = AlignedMetric(name, _count(ok), _count(masks.gold_content), _count(masks.system_content),
                                         _count(content))
        else:
            scores[name] = AlignedMetric(name, _count(ok), gold.n_words, system.n_words, n_aligned)
    return AlignedScores(
        tokens=_spans_metric("tokens", gold.token_start, gold.token_end, system.token_start, system.token_end),
        sentences=_spans_metric("sentences", gold.sentence_start, gold.sentence_end, system.sentence_start,
                                system.sentence_end),
        words=AlignedMetric("words", n_aligned, gold.n_words, system.n_words), **scores,
        gold_source=gold.source, system_source=system.source, gold_empty_nodes=gold.empty_nodes,
        system_empty_nodes=system.empty_nodes, gold_multiword_tokens=gold.multiword_tokens,
        system_multiword_tokens=system.multiword_tokens, multiword_spans=alignment.multiword_spans)


__all__ = ["AlignedMasks", "aligned_masks", "count_scores"]
