"""One sentence pair: whether gold and prediction have the same tokens (:func:`token_problem`),
and what the metrics of the sentence share (:class:`SentenceContext`), computed once for the
reference definitions of :mod:`.metrics`. The rules behind its fields (punctuation, unannotated
tokens, labels as compared) are described there.
"""
from __future__ import annotations

from functools import cached_property
from typing import Dict, List, Optional, Tuple

import numpy as np

from ...agreement.accuracy import token_mismatch
from ...trees import DependencyTree
from .settings import EvaluationSettings, gold_depths, punct_mask
from .token_metrics import spacy_attachment_counts
from .ud_labels import UDScores, ud_counts


def token_problem(gold: DependencyTree, pred: DependencyTree, check_forms: bool) -> Optional[str]:
    """Why a gold and a predicted sentence do not have the same tokens (their forms too with
    ``check_forms``), or ``None`` when they do."""
    if check_forms:
        return token_mismatch(gold, pred)
    return None if len(gold) == len(pred) else f"{len(gold)} tokens against {len(pred)}"


class SentenceContext:
    """What the metrics of one sentence share, computed once: built by :func:`sentence_counts`
    and passed to every :class:`Metric`'s ``count``. Lists are 0-based by token; heads are
    1-based positions (0 = root). The costlier parts (depths, verbs, CLAS/MLAS/BLEX counts)
    are computed on first use."""

    def __init__(self, gold: DependencyTree, pred: DependencyTree, options: EvaluationSettings,
                 compared: Optional[Tuple[DependencyTree, DependencyTree]] = None):
        #: the trees with their labels as compared (:meth:`EvaluationSettings.normalise`;
        #: ``compared`` when the caller has them already)
        self.gold, self.pred = compared or (options.normalise(gold), options.normalise(pred, predicted=True))
        self._given = (gold, pred)  # the labels as written (spaCy's F over arcs reads them its own way)
        self.options = options
        self.n = len(gold)
        #: gold punctuation by the options' rules (whether or not it is excluded)
        self.punct: np.ndarray = punct_mask(gold, options)
        #: the tokens that count: all, or all but punctuation with ``exclude_punct``; never a
        #: token that the gold or the prediction has not annotated (HEAD ``_``)
        self.scored: np.ndarray = ~self.punct if options.exclude_punct else np.ones(self.n, dtype=bool)
        #: whether either tree is partial: its whole-tree metrics (TED, LCP/UCP, CLAS/MLAS/BLEX)
        #: are left out, its token metrics use the tokens both annotated
        self.partial: bool = bool(gold.unannotated or pred.unannotated)
        #: the tokens that would count but are not annotated on one side
        self.unannotated: int = 0
        if self.partial:
            both = gold.annotated_mask() & pred.annotated_mask()
            self.unannotated = int(np.count_nonzero(self.scored & ~both))
            self.scored = self.scored & both
        #: 0-based positions of the scored tokens, in order
        self.tokens: List[int] = np.flatnonzero(self.scored).tolist()
        self.gold_heads: List[int] = gold.heads.tolist()
        self.pred_heads: List[int] = pred.heads.tolist()
        self.gold_labels: List[str] = list(self.gold.deprels)
        self.pred_labels: List[str] = list(self.pred.deprels)
        self.head_ok: List[bool] = [g == p for g, p in zip(self.gold_heads, self.pred_heads)]
        self.label_ok: List[bool] = [g == p for g, p in zip(self.gold_labels, self.pred_labels)]
        #: metrics this sentence was left out of because it is too large for them (resource limits)
        self.limits: List[str] = []

    def attached(self, k: int) -> bool:
        """Token ``k`` (0-based) has the right head and label (LAS)."""
        return self.head_ok[k] and self.label_ok[k]

    @cached_property
    def spacy_attachment(self) -> Dict[str, Tuple[float, float]]:
        """LAS and UAS of the sentence as spaCy's F over arcs (``attachment="spacy"``):
        :func:`~.token_metrics.spacy_attachment_counts` over this sentence, each side's
        punctuation by its own columns (:meth:`~.metric_options.EvaluationSettings.arc_punct`).
        A token either side has not annotated (HEAD ``_``) is in neither set: spaCy leaves out a
        reference token whose relation is missing and the predicted token aligned with it (a
        parsed doc has no unannotated token; the compiled path sees no partial tree)."""
        o = self.options
        sides = []
        for tree, predicted in zip(self._given, (False, True)):
            label = {x: o.arc_label(x, predicted) for x in set(tree.deprels)}
            arc = [label[x] for x in tree.deprels]
            kept = np.ones(self.n, dtype=bool)
            if o.exclude_punct:
                kept = ~np.fromiter((o.arc_punct(f, u, a) for f, u, a in zip(tree.forms, tree.upos, arc)),
                                    dtype=bool, count=self.n)
            sides.append((arc, kept))
        annotated = self._given[0].annotated_mask() & self._given[1].annotated_mask()
        (g_arc, g_kept), (p_arc, p_kept) = sides
        las, uas = spacy_attachment_counts(
            np.zeros(self.n, dtype=np.int64), 1, np.arange(1, self.n + 1), np.asarray(self.gold_heads, dtype=np.int64),
            np.asarray(self.pred_heads, dtype=np.int64), np.asarray([a == b for a, b in zip(g_arc, p_arc)], dtype=bool),
            g_kept & annotated, p_kept & annotated)
        return {"las": (float(las[0][0]), float(las[1][0])), "uas": (float(uas[0][0]), float(uas[1][0]))}

    @cached_property
    def depths(self) -> np.ndarray:
        """Gold depth of each token (:func:`gold_depths`)."""
        return gold_depths(self.gold)

    @cached_property
    def verbs(self) -> List[int]:
        """The scored gold verbs (1-based) with at least one non-punctuation gold dependent:
        the items of UCP and LCP."""
        with_dependent = {h for c, h in enumerate(self.gold_heads) if not self.punct[c]}
        return [v for v in range(1, self.n + 1)
                if v in with_dependent and self.gold.upos[v - 1] in self.options.verb_upos and self.scored[v - 1]]

    @cached_property
    def _dependents(self) -> Tuple[Dict[int, set], Dict[int, set]]:
        """(position, label) of the non-punctuation dependents of every head, gold and
        predicted, in one linear pass."""
        out: Tuple[Dict[int, set], Dict[int, set]] = ({}, {})
        for side, heads, labels in ((0, self.gold_heads, self.gold_labels), (1, self.pred_heads, self.pred_labels)):
            for c, h in enumerate(heads):
                if not self.punct[c]:
                    out[side].setdefault(h, set()).add((c + 1, labels[c]))
        return out

    def children(self, v: int, gold: bool = True) -> set:
        """(position, label) of the non-punctuation dependents of ``v`` in the gold tree or
        the prediction."""
        return self._dependents[0 if gold else 1].get(v, set())

    @cached_property
    def ud(self) -> UDScores:
        """CLAS/MLAS/BLEX counts of the sentence (:func:`~.ud_metrics.ud_counts`)."""
        return ud_counts(self.gold, self.pred)

