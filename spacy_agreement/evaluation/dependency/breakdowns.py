"""Attachment scores broken down by a property of the word, as MaltEval's ``GroupBy``
(Nilsson and Nivre 2008, "MaltEval: an evaluation and visualization tool for dependency
parsing"; its user guide, section "The GroupBy values"): where a parser goes wrong, long arcs
or short, left or right attachments, deep nodes, long sentences, one POS or one relation.

**Groups.** Every word falls in one group of each attribute. As in MaltEval, a *gold* word
falls in the group of its gold attribute and a *system* word in the group of its system
attribute (the system's own head, depth, relation), so that recall and precision of a group
are over different words where the parser got the attribute wrong:

* ``arc_length``: ``|head − dependent|`` in words, binned (:data:`ARC_LENGTH_BINS`: 1 to 9
  each, then ``10-14``, ``15-19``, ``20-29``, ``30+``); the arc from the root is the group
  ``root`` (MaltEval's ArcLength gives it length 0; here it is named), a word that is its own
  head (a malformed tree, scored as it is) the group ``self``.
* ``direction``: ``left`` when the head is to the left of the dependent (``head < dependent``:
  the arc comes from the left), ``right`` when it is to its right, ``root`` for the root's
  dependents: the values of MaltEval's ArcDirection (left, right, root), "left" read as the
  side the head is on; ``self`` for a word that is its own head.
* ``depth``: the number of arcs from the root to the word (1: attached to the root),
  MaltEval's ArcDepth, binned 1 to 9 and ``10+`` (:data:`DEPTH_BINS`); a word with no path
  to the root (its heads run into a cycle, or into a token not annotated) is ``unreachable``.
* ``sentence_length``: the length in words of the sentence, in the bins ``1-10``, ``11-20``,
  ``21-30``, ``31-40`` and ``41+`` (:data:`SENTENCE_LENGTH_BINS`; MaltEval's SentenceLength
  groups by length in bins of ten). An attribute of the word pair: a system word has its
  gold partner's sentence (under ``conll18``, an unaligned system word its own).
* ``upos``: the gold UPOS for gold words; for system words the system's UPOS where it has one
  (not ``_``), else the gold UPOS of the same (aligned) word.
* ``deprel``: the gold relation for gold words, the system's relation for system words, as
  compared (labels normalised by the options: label map, root case, subtypes; under
  ``conll18`` the universal part, as ``conll18_ud_eval.py`` compares them).

**Counts and scores** of each group (:class:`BreakdownRow`): ``gold`` and ``system`` words in
it, ``correct_gold`` of the gold words and ``correct_system`` of the system words correct
(unlabelled: the right head; labelled: the right head and relation), recall
``correct_gold / gold``, precision ``correct_system / system`` and their harmonic mean F1,
all fractions; ``nan`` where a denominator is 0 (no warning: a breakdown, not a result, as
the per-sentence rows of :func:`~.accumulator.evaluate`). Rows come in their natural
order: bins ascending (then ``root``, ``self`` or ``unreachable``), directions left, right,
root, self, labels by gold count (then system count) descending.

**Two conventions of input**, one result:

* :func:`breakdowns_from_trees`: pairs of (gold, predicted) :class:`~spacy_agreement.trees.DependencyTree`
  of the same tokens, as :func:`~.accumulator.evaluate` compares them (its
  :class:`~.metric_options.EvaluationSettings`: punctuation excluded or not, labels as
  compared, sentences whose tokens differ skipped or an error). A token that either side has
  not annotated (partial trees, HEAD ``_``) is left out of both sides and counted
  (:attr:`Breakdown.unannotated`). Gold and system totals are then equal; per group they are
  not.
* :func:`breakdowns_from_layers`: two CoNLL-U files as the CoNLL 2018 shared task reads and
  aligns them (:mod:`.aligned`): heads compared through the alignment as
  :func:`~.aligned.evaluate_aligned_layers` compares them, every word scored (punctuation
  too), relations by their universal part; an unaligned gold word counts in the gold totals
  of its groups (never correct), an unaligned system word in the system totals. On identical
  tokens the figures are those of :func:`breakdowns_from_trees` with
  ``EvaluationSettings(ignore_subtypes=True, fold_root_case=False)``.

Both read the columns once into arrays over the whole corpus and count with ``numpy``
(depths by pointer jumping, groups by ``bincount``). :func:`.breakdown_tables.format_breakdowns` prints the
tables of one system or several side by side, :func:`.breakdown_tables.breakdowns_to_json` gives the same as
one JSON-ready object (:mod:`.breakdown_tables`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ...adapters.conllu.column_reader import ConlluColumns
from ...errors import BadOptionError, MismatchedCorpusError
from ...trees import DependencyTree
from ..conll18.alignment import WordAlignment, align_words
from .settings import EvaluationSettings, punct_mask
from .ud_labels import universal_deprel

#: The attributes a breakdown can group by, in the order tables show them.
ATTRIBUTES: Tuple[str, ...] = ("arc_length", "direction", "depth", "sentence_length", "upos", "deprel")
ALL = ATTRIBUTES
#: Display names of the attributes.
TITLES: Dict[str, str] = {"arc_length": "arc length", "direction": "arc direction", "depth": "depth of the dependent",
                          "sentence_length": "sentence length", "upos": "UPOS", "deprel": "relation"}
#: Lower bounds of the bins (the last one open): ``1``, ..., ``9``, ``10-14``, ``15-19``, ``20-29``, ``30+``.
ARC_LENGTH_BINS: Tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 30)
#: ``1`` to ``9``, then ``10+``.
DEPTH_BINS: Tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
#: ``1-10``, ``11-20``, ``21-30``, ``31-40``, ``41+``.
SENTENCE_LENGTH_BINS: Tuple[int, ...] = (1, 11, 21, 31, 41)
ROOT, UNREACHABLE, SELF = "root", "unreachable", "self"
DIRECTIONS: Tuple[str, ...] = ("left", "right", ROOT, SELF)


def bin_names(edges: Sequence[int]) -> List[str]:
    """The names of the bins starting at ``edges``: ``"3"``, ``"10-14"``, the last ``"30+"``."""
    names = [str(lo) if hi - 1 == lo else f"{lo}-{hi - 1}" for lo, hi in zip(edges, edges[1:])]
    return names + [f"{edges[-1]}+"]


#: For the attributes whose groups have a natural order, every group in that order.
FIXED_ORDER: Dict[str, Tuple[str, ...]] = {
    "arc_length": tuple(bin_names(ARC_LENGTH_BINS)) + (ROOT, SELF),
    "direction": DIRECTIONS,
    "depth": tuple(bin_names(DEPTH_BINS)) + (UNREACHABLE,),
    "sentence_length": tuple(bin_names(SENTENCE_LENGTH_BINS)),
}


def _fraction(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else math.nan


@dataclass(frozen=True)
class BreakdownRow:
    """One group: ``gold`` and ``system`` words in it and how many of each are correct."""

    group: str
    gold: int
    system: int
    correct_gold: int
    correct_system: int

    @property
    def recall(self) -> float:
        """``correct_gold / gold`` (``nan`` without gold words)."""
        return _fraction(self.correct_gold, self.gold)

    @property
    def precision(self) -> float:
        """``correct_system / system`` (``nan`` without system words)."""
        return _fraction(self.correct_system, self.system)

    @property
    def f1(self) -> float:
        """The harmonic mean of precision and recall (``nan`` where either is, 0 where both are 0)."""
        p, r = self.precision, self.recall
        if math.isnan(p) or math.isnan(r):
            return math.nan
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> Dict[str, object]:
        """The counts and the scores (fractions) under lower-case keys."""
        return {"group": self.group, "gold": self.gold, "system": self.system, "correct_gold": self.correct_gold,
                "correct_system": self.correct_system, "recall": self.recall, "precision": self.precision,
                "f1": self.f1}


@dataclass(frozen=True)
class Breakdown:
    """The rows of one attribute (``by``, one of :data:`ATTRIBUTES`), labelled (head and
    relation) or not (head), in their natural order (module docstring); ``unannotated``: tokens
    left out because one side has not annotated them; ``skipped``: sentences left out because
    their tokens differ (``skip_mismatched``)."""

    by: str
    labelled: bool
    rows: Tuple[BreakdownRow, ...]
    unannotated: int = 0
    skipped: int = 0

    def row(self, group: str) -> BreakdownRow:
        """The row of ``group`` (all counts 0 when no word falls in it)."""
        return next((r for r in self.rows if r.group == group), BreakdownRow(group, 0, 0, 0, 0))

    @property
    def groups(self) -> List[str]:
        return [r.group for r in self.rows]

    def to_dict(self) -> Dict[str, object]:
        """``by``, ``labelled``, ``unannotated``, ``skipped`` and ``rows`` (each :meth:`BreakdownRow.to_dict`)."""
        return {"by": self.by, "labelled": self.labelled, "unannotated": self.unannotated, "skipped": self.skipped,
                "rows": [r.to_dict() for r in self.rows]}


# ---------------------------------------------------------------------------------------- arrays


@dataclass(frozen=True)
class _Side:
    """One side's counted words: 1-based position and head (0: the root) in their sentence,
    depth (0: unreachable), the length of the sentence grouped by, UPOS and relation codes,
    and whether the word is correct."""

    position: np.ndarray
    head: np.ndarray
    depth: np.ndarray
    sentence_length: np.ndarray
    upos: np.ndarray
    deprel: np.ndarray
    correct: np.ndarray


def depths(parent: np.ndarray, longest: int) -> np.ndarray:
    """The depth of every word (1: attached to the root) from global 0-based parent indices
    (-1: the root; -2: unknown, a head not annotated), by pointer jumping over the whole
    corpus at once; 0 for a word with no path to the root (a cycle, an unknown head on the
    way). ``longest``: the longest sentence (the number of rounds is its logarithm)."""
    n = len(parent)
    jump = np.append(np.where(parent == -2, n, parent), n).astype(np.int64)  # n: a sink pointing at itself
    dist = np.ones(n + 1, dtype=np.int64)
    for _ in range(max(1, int(longest).bit_length()) + 1):
        active = np.flatnonzero(jump >= 0)
        if not len(active):
            break
        up = jump[active]
        dist[active] += dist[up]  # right-hand sides are read before writing: synchronous rounds
        jump[active] = jump[up]
    return np.where(jump[:n] < 0, dist[:n], 0)


def _codes(values: Sequence[str], table: Dict[str, int]) -> np.ndarray:
    """Integer codes of ``values`` in ``table`` (extended with new values)."""
    distinct = dict.fromkeys(values)
    for value in distinct:
        table.setdefault(value, len(table))
    return np.fromiter(map(table.__getitem__, values), dtype=np.int64, count=len(values))


def _bins(values: np.ndarray, edges: Sequence[int]) -> np.ndarray:
    return np.searchsorted(np.asarray(edges), values, side="right") - 1


def _groups(by: str, side: _Side) -> np.ndarray:
    """The group code of every word of one side; codes index :data:`FIXED_ORDER` (bins,
    then root or unreachable) or the label table."""
    itself = side.head == side.position
    if by == "arc_length":
        return np.where(side.head == 0, len(ARC_LENGTH_BINS), np.where(
            itself, len(ARC_LENGTH_BINS) + 1, _bins(np.maximum(np.abs(side.head - side.position), 1), ARC_LENGTH_BINS)))
    if by == "direction":
        return np.where(side.head == 0, 2, np.where(itself, 3, np.where(side.head < side.position, 0, 1)))
    if by == "depth":
        return np.where(side.depth == 0, len(DEPTH_BINS), _bins(np.maximum(side.depth, 1), DEPTH_BINS))
    if by == "sentence_length":
        return _bins(side.sentence_length, SENTENCE_LENGTH_BINS)
    return side.upos if by == "upos" else side.deprel


def _breakdowns(gold: _Side, system: _Side, labels: Dict[str, Dict[str, int]], by: Iterable[str],
                labelled: bool, unannotated: int, skipped: int) -> Dict[str, Breakdown]:
    out: Dict[str, Breakdown] = {}
    for attribute in _chosen(by):
        if attribute in FIXED_ORDER:
            names: Sequence[str] = FIXED_ORDER[attribute]
        else:
            names = list(labels[attribute])
        g, s = _groups(attribute, gold), _groups(attribute, system)
        size = len(names)
        counts = [np.bincount(g, minlength=size), np.bincount(s, minlength=size),
                  np.bincount(g[gold.correct], minlength=size), np.bincount(s[system.correct], minlength=size)]
        present = np.flatnonzero((counts[0] > 0) | (counts[1] > 0))
        if attribute not in FIXED_ORDER:  # labels: by gold count, then system count, descending; then by name
            present = np.asarray(sorted(present.tolist(), key=lambda c: (-counts[0][c], -counts[1][c], names[c])),
                                 dtype=np.int64)
        rows = tuple(BreakdownRow(names[c], *(int(column[c]) for column in counts)) for c in present.tolist())
        out[attribute] = Breakdown(attribute, labelled, rows, unannotated, skipped)
    return out


def _chosen(by: Iterable[str]) -> List[str]:
    chosen = [by] if isinstance(by, str) else list(by)
    unknown = [b for b in chosen if b not in ATTRIBUTES]
    if unknown:
        raise BadOptionError(f"cannot break down by {', '.join(map(repr, unknown))}: choose from {', '.join(ATTRIBUTES)}")
    return chosen


def _sentence_arrays(lengths: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For sentences of ``lengths`` words laid end to end: each word's sentence start, its
    1-based position and its sentence's length."""
    start = np.repeat(np.cumsum(lengths) - lengths, lengths)
    length = np.repeat(lengths, lengths)
    return start, np.arange(int(lengths.sum()), dtype=np.int64) - start + 1, length


# ---------------------------------------------------------------------------------------- inputs


def breakdowns_from_trees(pairs: Iterable[Tuple[DependencyTree, DependencyTree]], by: Iterable[str] = ALL,
                          options: Optional[EvaluationSettings] = None, labelled: bool = True
                          ) -> Dict[str, Breakdown]:
    """Breakdowns of attachment for (gold, predicted) trees of the same tokens, one
    :class:`Breakdown` per attribute in ``by`` (a subset of :data:`ATTRIBUTES`, default all),
    keyed by attribute. ``options`` (:class:`~.metric_options.EvaluationSettings`, default the
    package's): punctuation excluded (``exclude_punct`` with ``punct_rules``), labels as
    compared, ``check_forms`` and ``skip_mismatched`` (sentences whose tokens differ: skipped
    and counted, else a :class:`~spacy_agreement.errors.MismatchedCorpusError`), as
    :func:`~.accumulator.evaluate` takes them. ``labelled``: a word is correct with the
    right head and relation (LAS-style), else with the right head (UAS-style). Tokens either
    side has not annotated are left out and counted (module docstring)."""
    from .sentence_context import token_problem  # imported on use

    options = options or EvaluationSettings()
    heads: Tuple[List[np.ndarray], List[np.ndarray]] = ([], [])
    known: Tuple[List[np.ndarray], List[np.ndarray]] = ([], [])
    upos: Tuple[List[str], List[str]] = ([], [])
    deprels: Tuple[List[str], List[str]] = ([], [])
    scored: List[np.ndarray] = []
    lengths: List[int] = []
    skipped = 0
    for gold, pred in pairs:
        problem = token_problem(gold, pred, options.check_forms)
        if problem is not None:
            if not options.skip_mismatched:
                raise MismatchedCorpusError(f"gold and prediction differ in tokens: {problem}", gold.location)
            skipped += 1
            continue
        for k, tree in enumerate((options.normalise(gold), options.normalise(pred, predicted=True))):
            heads[k].append(tree.heads)
            known[k].append(tree.annotated_mask())
            upos[k].extend(tree.upos)
            deprels[k].extend(tree.deprels)
        scored.append(~punct_mask(gold, options) if options.exclude_punct else np.ones(len(gold), dtype=bool))
        lengths.append(len(gold))
    if not lengths:
        empty = np.zeros(0, dtype=np.int64)
        side = _Side(empty, empty, empty, empty, empty, empty, np.zeros(0, dtype=bool))
        return _breakdowns(side, side, {"upos": {}, "deprel": {}}, by, labelled, 0, skipped)
    sizes = np.asarray(lengths, dtype=np.int64)
    start, position, length = _sentence_arrays(sizes)
    both = np.concatenate(known[0]) & np.concatenate(known[1])
    counted_scored = np.concatenate(scored)
    unannotated = int(np.count_nonzero(counted_scored & ~both))
    keep = counted_scored & both
    tables: Dict[str, Dict[str, int]] = {"upos": {}, "deprel": {}}
    upos_codes = [_codes(upos[0], tables["upos"]), _codes(upos[1], tables["upos"])]
    missing = tables["upos"].get("_")
    if missing is not None:  # a system without UPOS: the gold UPOS of the token
        upos_codes[1] = np.where(upos_codes[1] == missing, upos_codes[0], upos_codes[1])
    deprel_codes = [_codes(deprels[0], tables["deprel"]), _codes(deprels[1], tables["deprel"])]
    head = [np.concatenate(h).astype(np.int64) for h in heads]
    right = (head[0] == head[1]) & ((deprel_codes[0] == deprel_codes[1]) if labelled else True)
    sides: List[_Side] = []
    for k in (0, 1):
        parent = np.where(head[k] == 0, -1, start + head[k] - 1)
        parent = np.where(np.concatenate(known[k]), parent, -2)
        depth = depths(parent, int(sizes.max()))
        sides.append(_Side(position[keep], head[k][keep], depth[keep], length[keep], upos_codes[k][keep],
                           deprel_codes[k][keep], right[keep]))
    return _breakdowns(sides[0], sides[1], tables, by, labelled, unannotated, skipped)


def breakdowns_from_layers(gold: ConlluColumns, system: ConlluColumns, alignment: Optional[WordAlignment] = None,
                           by: Iterable[str] = ALL, labelled: bool = True) -> Dict[str, Breakdown]:
    """Breakdowns of attachment for two CoNLL-U files read as layers
    (:func:`~spacy_agreement.adapters.conllu.column_reader.read_conllu_columns`) under the CoNLL 2018
    shared task's conventions: words aligned through the characters (``alignment`` when the
    caller has it, else :func:`~.aligned.align_words`), a system word correct when aligned and
    its head is aligned with the gold head (both roots), and (``labelled``) the universal parts
    of the relations are equal. Unaligned gold words count in the gold totals, unaligned
    system words in the system totals (module docstring). One :class:`Breakdown` per attribute
    in ``by``, keyed by attribute."""
    alignment = alignment if alignment is not None else align_words(gold, system)
    ag, as_ = alignment.gold_words, alignment.system_words
    tables: Dict[str, Dict[str, int]] = {"upos": {}, "deprel": {}}
    upos = [_codes(gold.upos, tables["upos"]), _codes(system.upos, tables["upos"])]
    missing = tables["upos"].get("_")
    if missing is not None:  # a system word without UPOS: its gold partner's
        partner_upos = np.full(system.n_words, missing, dtype=np.int64)
        partner_upos[as_] = upos[0][ag]
        upos[1] = np.where(upos[1] == missing, partner_upos, upos[1])
    deprel = [_codes([universal_deprel(d) for d in layers.deprels], tables["deprel"]) for layers in (gold, system)]
    # the system heads as gold words: -1 the root, -2 a head without a gold partner
    partner = np.where(alignment.gold_of_system >= 0, alignment.gold_of_system, -2)
    system_head_words = system.head_words
    in_gold = np.where(system_head_words >= 0, partner[np.maximum(system_head_words, 0)], -1) \
        if system.n_words else system_head_words
    right = gold.head_words[ag] == in_gold[as_]
    if labelled:
        right &= deprel[0][ag] == deprel[1][as_]
    correct = [np.zeros(gold.n_words, dtype=bool), np.zeros(system.n_words, dtype=bool)]
    correct[0][ag] = right
    correct[1][as_] = right
    sides: List[_Side] = []
    for k, layers in enumerate((gold, system)):
        sizes = np.diff(layers.sentence_words)
        _, position, length = _sentence_arrays(sizes)
        depth = depths(layers.head_words, int(sizes.max()) if len(sizes) else 0)
        if k == 1:  # the sentence length of the word pair: the gold partner's sentence
            length = length.copy()
            length[as_] = sides[0].sentence_length[ag]
        sides.append(_Side(position, layers.heads.astype(np.int64), depth, length, upos[k], deprel[k], correct[k]))
    return _breakdowns(sides[0], sides[1], tables, by, labelled, 0, 0)


__all__ = ["ALL", "ARC_LENGTH_BINS", "ATTRIBUTES", "Breakdown", "BreakdownRow", "DEPTH_BINS", "DIRECTIONS",
           "FIXED_ORDER", "SENTENCE_LENGTH_BINS", "TITLES", "bin_names", "breakdowns_from_layers",
           "breakdowns_from_trees", "depths"]
