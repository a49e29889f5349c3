"""Krippendorff's α over tree edit distance (Skjærholt 2014, §2).

α = 1 − Do / De with, over the n pairable annotations (annotations of items that have at
least two of them),

    Do = 1/n · Σ_u 1/(m_u − 1) · Σ_{c ≠ c'} δ(x_uc, x_uc')²
    De = 1/(n(n − 1)) · Σ over all ordered pairs of distinct pairable annotations δ²

(Krippendorff 2004; the paper writes the same sums without the 1/n factors, which cancel
in the ratio up to n − 1.) The expected disagreement is exact: every pair of pairable
annotations is compared, within and across items. δ is δplain, δdiff or δnorm
(:mod:`spacy_agreement.agreement.deltas`), squared as in the paper. All three α come from one
pass over the pairs.

Choices the paper leaves open, made here:

* Items with fewer than two annotations are not pairable: they are left out of both Do
  and De, and counted (``items_unpairable``, ``annotations_unpairable``).
* Tokens caught in head cycles drop out of the dependency tree (as in the paper's code,
  which built trees by walking down from the root); they are counted in ``cycle_tokens``.
  ``cycles="raise"`` makes them an error instead.
* |x| in δdiff and δnorm is the size of the annotation, "the length of the sentence" of §2
  (the paper's code took ``len(tokens)``): for a dependency tree its number of tokens plus
  the artificial root, whether or not tokens dropped out of the compared tree through a
  head cycle; for a phrase tree its number of leaves (the preterminals of the word-less
  tree). This is what reproduces Table 2 (CDT da: αdiff 84.7, counting only the nodes left
  in the compared tree gives 85.6; SSD: αdiff 98.6, the node count gives 97.7).
  ``size="tree"`` uses the node count of the compared tree instead. For dependency trees
  the two agree whenever no token is in a cycle.
* Undefined α (De = 0: every pairable annotation identical, or fewer than two pairable
  annotations) is ``nan`` with an :class:`~spacy_agreement.errors.UndefinedMetricWarning`,
  the library's one policy for undefined results.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _core
from ..corpus import Corpus
from .deltas import DELTAS
from ..errors import UndefinedMetricWarning
from .engine import deduplicate, expected_sums, expected_sums_dask, observed_sums
from ..trees import CyclePolicy, Forest, OrderedTree
from ..vocab import LabelCost, LabelVocab


@dataclass
class AlphaResult:
    """α for δplain, δdiff and δnorm, the disagreements behind them and what was skipped."""

    alpha_plain: float
    alpha_diff: float
    alpha_norm: float
    observed: Dict[str, float]
    expected: Dict[str, float]
    items: int
    annotations: int
    items_unpairable: int
    annotations_unpairable: int
    cycle_tokens: int
    cycle_trees: List[str] = field(default_factory=list)
    item_names: List[str] = field(default_factory=list, repr=False)
    item_disagreement: Optional[np.ndarray] = field(default=None, repr=False)
    item_counts: List[int] = field(default_factory=list, repr=False)

    def __getitem__(self, kind: str) -> float:
        return {"plain": self.alpha_plain, "diff": self.alpha_diff, "norm": self.alpha_norm}[kind]

    def to_dict(self) -> Dict[str, Any]:
        """A flat dict in the style of spaCy's scorers."""
        out: Dict[str, Any] = {
            "alpha_plain": self.alpha_plain,
            "alpha_diff": self.alpha_diff,
            "alpha_norm": self.alpha_norm,
            "items": self.items,
            "annotations": self.annotations,
            "items_unpairable": self.items_unpairable,
            "annotations_unpairable": self.annotations_unpairable,
            "cycle_tokens": self.cycle_tokens,
        }
        for kind in DELTAS:
            out[f"observed_{kind}"] = self.observed[kind]
            out[f"expected_{kind}"] = self.expected[kind]
        return out

    def worst_items(self, k: int = 10, kind: str = "plain") -> List[Tuple[str, float]]:
        """The ``k`` items contributing most to the observed disagreement for δ ``kind``,
        with their mean squared δ between annotations."""
        if self.item_disagreement is None or not len(self.item_names):
            return []
        column = self.item_disagreement[:, DELTAS.index(kind)]
        order = np.argsort(-column, kind="stable")[:k]
        return [(self.item_names[i], float(column[i])) for i in order if column[i] > 0]


def _as_corpus(data: Union[Corpus, Sequence[Any]]) -> Corpus:
    return data if isinstance(data, Corpus) else Corpus.from_items(data)


@dataclass
class _Converted:
    """The pairable annotations of a corpus as ordered trees, with what α needs about them."""

    trees: List[OrderedTree]
    item_of: List[int]
    sizes: List[int]
    counts: List[int]
    names: List[str]
    cost: Optional[np.ndarray]
    unpairable_items: int = 0
    unpairable_annotations: int = 0
    cycle_tokens: int = 0
    cycle_trees: List[str] = field(default_factory=list)


def _convert(corpus: Corpus, label_cost: Optional[LabelCost] = None, cycles: CyclePolicy = "drop",
             size: str = "annotation") -> _Converted:
    """Items with at least two annotations as ordered trees in one label vocabulary."""
    if size not in ("annotation", "tree"):
        raise ValueError(f"size must be 'annotation' or 'tree', not {size!r}")
    vocab = LabelVocab()
    out = _Converted([], [], [], [], [], None)
    for name, item in zip(corpus.names, corpus.items):
        if len(item) < 2:
            out.unpairable_items += 1
            out.unpairable_annotations += len(item)
            continue
        for annotator in corpus.annotators:
            tree = item.get(annotator)
            if tree is None:
                continue
            ordered, dropped = tree.to_ordered(vocab, cycles)
            if dropped:
                out.cycle_tokens += dropped
                out.cycle_trees.append(f"{tree.location} ({annotator}): {dropped} token(s) in head cycles")
            out.trees.append(ordered)
            out.sizes.append(tree.annotation_size if size == "annotation" else ordered.size)
            out.item_of.append(len(out.counts))
        out.counts.append(len(item))
        out.names.append(name)
    out.cost = vocab.cost_matrix(label_cost)
    return out


def alpha(
    data: Union[Corpus, Sequence[Any]],
    label_cost: Optional[LabelCost] = None,
    cycles: CyclePolicy = "drop",
    size: Literal["annotation", "tree"] = "annotation",
    backend: Literal["threads", "serial", "dask"] = "threads",
    n_threads: Optional[int] = None,
    scheduler: Optional[object] = None,
    progress: bool = False,
) -> AlphaResult:
    """Krippendorff's α with δplain, δdiff and δnorm over a corpus of trees.

    ``data`` is a :class:`Corpus`, or items as accepted by :meth:`Corpus.from_items`
    (each a sequence of trees with ``None`` for a missing annotation, or a mapping from
    annotator to tree). ``label_cost`` gives partial credit for related labels (a function
    of two labels or a mapping from label pairs to costs; unit costs by default).
    ``cycles`` and ``size`` are explained in the module docstring.

    ``backend`` chooses how the all-pairs expected disagreement is summed
    (:mod:`spacy_agreement.agreement.engine`): ``"threads"`` (default) deduplicates identical
    trees and splits the pairs over ``n_threads`` OpenMP threads (default: the machine's
    cores), with a progress bar if ``progress``; ``"dask"`` sends the same work to a
    ``dask.distributed`` cluster (``scheduler``: a ``Client``, an address, or ``None`` for a
    local cluster); ``"serial"`` is the plain single-threaded loop over every pair. All give
    the same α up to floating-point summation order.

    >>> from spacy_agreement import DependencyTree
    >>> a = DependencyTree.create([2, 0], ["subj", "root"])
    >>> b = DependencyTree.create([2, 0], ["obj", "root"])
    >>> c = DependencyTree.create([0, 1, 1], ["root", "obj", "punct"])
    >>> round(alpha([[a, a], [b, a], [c, c]]).alpha_plain, 4)
    0.8276
    """
    converted = _convert(_as_corpus(data), label_cost, cycles, size)
    trees, item_of, sizes, counts, names = (converted.trees, converted.item_of, converted.sizes,
                                            converted.counts, converted.names)
    n = len(trees)
    forest = Forest.from_trees(trees)
    item_arr = np.asarray(item_of, dtype=np.int64)
    count_arr = np.asarray(counts, dtype=np.int64)
    size_arr = np.asarray(sizes, dtype=np.int64)
    cost = converted.cost
    if backend == "serial":
        observed_sum, expected_sum, per_item = _core.forest_alpha_sums(
            *forest.arrays(), item_arr, count_arr, size_arr, cost)
    elif backend in ("threads", "dask"):
        distinct, multiplicity, _ = deduplicate(trees, sizes)
        unique_trees = [trees[i] for i in distinct]
        unique = Forest.from_trees(unique_trees)
        unique_sizes = np.ascontiguousarray(size_arr[distinct])
        if backend == "threads":
            expected_sum = expected_sums(unique, unique_sizes, multiplicity, cost, n_threads, progress,
                                         forest_trees=unique_trees)
        else:
            expected_sum = expected_sums_dask(unique, unique_sizes, multiplicity, cost, scheduler)
        per_item = observed_sums(forest, size_arr, item_arr, count_arr, cost)
        observed_sum = per_item.sum(axis=0)
    else:
        raise ValueError(f"unknown backend {backend!r}: 'threads', 'serial' or 'dask'")
    observed: Dict[str, float] = {}
    expected: Dict[str, float] = {}
    alphas: Dict[str, float] = {}
    for d, kind in enumerate(DELTAS):
        observed[kind] = float(observed_sum[d] / n) if n else math.nan
        expected[kind] = float(expected_sum[d] / (n * (n - 1))) if n > 1 else math.nan
        if n < 2 or expected_sum[d] == 0:
            warnings.warn(
                f"alpha_{kind} is undefined (expected disagreement is zero over {n} pairable annotations); "
                "returning nan",
                UndefinedMetricWarning,
                stacklevel=2,
            )
            alphas[kind] = math.nan
        else:
            alphas[kind] = 1.0 - observed[kind] / expected[kind]
    # per item: mean squared distance over the ordered pairs of annotations of the item
    counts_arr = np.asarray(counts, dtype=np.float64)
    per_pair = per_item / counts_arr[:, None] if len(counts) else per_item
    return AlphaResult(
        alphas["plain"],
        alphas["diff"],
        alphas["norm"],
        observed,
        expected,
        items=len(counts),
        annotations=n,
        items_unpairable=converted.unpairable_items,
        annotations_unpairable=converted.unpairable_annotations,
        cycle_tokens=converted.cycle_tokens,
        cycle_trees=converted.cycle_trees,
        item_names=names,
        item_disagreement=per_pair,
        item_counts=list(counts),
    )
