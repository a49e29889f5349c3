"""Tree edit distance and the three distance functions δ of Skjærholt (2014), §2.

* δplain(x, y) = TED(x, y)
* δdiff(x, y)  = TED(x, y) − abs(|x| − |y|)
* δnorm(x, y)  = TED(x, y) / (|x| + |y|)

TED is the Zhang & Shasha (1989) ordered tree edit distance with unit insert and delete
costs; relabelling costs 1 unless a label cost is given (see
:meth:`LabelVocab.cost_matrix`). |x| is the size of the annotation: the number of nodes
of a phrase tree, and for a dependency tree its tokens plus the artificial root, counting
tokens that drop out of the compared tree because they sit in a head cycle (see
:func:`spacy_agreement.agreement.alpha.alpha` for why). Note that δdiff is not a metric in the strict sense (distinct trees
can be at distance 0, Figure 2 of the paper); the paper uses it all the same.
"""
from __future__ import annotations

from typing import Literal, Optional, Sequence, Union

import numpy as np

from .. import _core
from ..trees import ConstituencyTree, CyclePolicy, DependencyTree, Forest, OrderedTree
from ..vocab import LabelCost, LabelVocab

Tree = Union[DependencyTree, ConstituencyTree]
Delta = Literal["plain", "diff", "norm"]
DELTAS = ("plain", "diff", "norm")


def tree_edit_distance(
    a: Tree, b: Tree, label_cost: Optional[LabelCost] = None, cycles: CyclePolicy = "drop"
) -> float:
    """Zhang–Shasha tree edit distance between two dependency or two phrase trees.

    Dependency trees are compared in the Figure 1 form of Skjærholt (2014) and phrase
    trees without their words (see :mod:`spacy_agreement.trees`).
    """
    ted, _, _ = _ted_and_sizes(a, b, label_cost, cycles)
    return ted


def _ted_and_sizes(a: Tree, b: Tree, label_cost: Optional[LabelCost], cycles: CyclePolicy):
    """TED of two trees and their sizes |x| (``annotation_size``: tokens + root, or leaves)."""
    vocab = LabelVocab()
    x, _ = a.to_ordered(vocab, cycles)
    y, _ = b.to_ordered(vocab, cycles)
    ted = ordered_tree_edit_distance(x, y, vocab.cost_matrix(label_cost))
    return ted, a.annotation_size, b.annotation_size


def ordered_tree_edit_distance(x: OrderedTree, y: OrderedTree, cost: Optional[np.ndarray] = None) -> float:
    """TED of two :class:`OrderedTree`s built with the same vocabulary."""
    return float(_core.tree_edit_distance(x.labels, x.lml, x.keyroots, y.labels, y.lml, y.keyroots, cost))


def delta(a: Tree, b: Tree, kind: Delta = "plain", label_cost: Optional[LabelCost] = None,
          cycles: CyclePolicy = "drop") -> float:
    """δplain, δdiff or δnorm of two trees (not squared)."""
    return delta_from_ted(*_ted_and_sizes(a, b, label_cost, cycles), kind)


def delta_from_ted(ted: float, size_x: int, size_y: int, kind: Delta) -> float:
    if kind == "plain":
        return ted
    if kind == "diff":
        return ted - abs(size_x - size_y)
    if kind == "norm":
        return ted / (size_x + size_y) if size_x + size_y else 0.0
    raise ValueError(f"unknown distance {kind!r}: use one of {DELTAS}")


def distance_matrix(trees: Sequence[Tree], label_cost: Optional[LabelCost] = None,
                    cycles: CyclePolicy = "drop") -> np.ndarray:
    """The symmetric matrix of TEDs between all pairs of ``trees`` (computed once per pair)."""
    vocab = LabelVocab()
    ordered = [t.to_ordered(vocab, cycles)[0] for t in trees]
    forest = Forest.from_trees(ordered)
    n = len(ordered)
    left, right = np.triu_indices(n, k=1)
    values = _core.forest_ted_pairs(*forest.arrays(), left.astype(np.int64), right.astype(np.int64),
                                    vocab.cost_matrix(label_cost))
    out = np.zeros((n, n), dtype=np.float64)
    out[left, right] = values
    out[right, left] = values
    return out
