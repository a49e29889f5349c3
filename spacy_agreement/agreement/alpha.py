"""Krippendorff's α over tree edit distance (Skjærholt 2014, §2).

α = 1 − Do / De with, over the n pairable annotations (annotations of items that have at
least two of them),

    Do = 1/n · Σ_u 1/(m_u − 1) · Σ_{c ≠ c'} δ(x_uc, x_uc')²
    De = 1/(n(n − 1)) · Σ over all ordered pairs of distinct pairable annotations δ²

(Krippendorff 2004; the paper writes the same sums without the 1/n factors, which cancel
in the ratio up to n − 1.) The expected disagreement is exact: every pair of pairable
annotations is compared, within and across items. δ is δplain, δdiff, δnorm or any δ added
to the registry (:mod:`spacy_agreement.agreement.deltas`), squared as in the paper. The
built-in α come from one pass over the pairs.

One result type, :class:`AlphaResult`, serves every δ and every estimator: the exact α
here, the sampled and bootstrap estimates (:mod:`spacy_agreement.agreement.estimate`, which
add an interval) and α over pq-grams (:mod:`spacy_agreement.agreement.pqgram`).

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
from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _core
from ..corpus import Corpus
from ..errors import BadOptionError, undefined
from ..trees import CyclePolicy, Forest, OrderedTree
from ..vocab import LabelCost, LabelVocab
from .deltas import delta_names, get_delta
from ..limits import check_forest
from .engine import default_threads, deduplicate, expected_sums, expected_sums_dask, expected_sums_pairs, observed_sums


@dataclass
class AlphaResult:
    """α for each δ (``alphas``, also ``result["plain"]`` and ``result.alpha_plain``), the
    disagreements behind them and what was skipped.

    ``method`` says how De was obtained: ``"exact"`` (all pairs), ``"sampled pairs"`` or
    ``"bootstrap over items (De fixed)"``; estimates carry a ``confidence`` interval
    (``low``, ``high``) from ``samples`` draws. ``item_disagreement[u, k]`` is the mean
    squared δ number k (in the order of ``alphas``) between the annotations of item u.
    """

    alphas: Dict[str, float]
    observed: Dict[str, float]
    expected: Dict[str, float]
    items: int
    annotations: int
    items_unpairable: int = 0
    annotations_unpairable: int = 0
    cycle_tokens: int = 0
    cycle_trees: List[str] = field(default_factory=list)
    item_names: List[str] = field(default_factory=list, repr=False)
    item_disagreement: Optional[np.ndarray] = field(default=None, repr=False)
    item_counts: List[int] = field(default_factory=list, repr=False)
    method: str = "exact"
    low: Dict[str, float] = field(default_factory=dict)
    high: Dict[str, float] = field(default_factory=dict)
    confidence: Optional[float] = None
    samples: Optional[int] = None
    cells: Optional[float] = None  # cost of the exact α in DP cells, where a policy chose (agreement.policy)
    budget: Optional[float] = None  # the budget that cost was held against

    def __getitem__(self, kind: str) -> float:
        return self.alphas[kind]

    def __getattr__(self, name: str) -> float:
        if name.startswith("alpha_") and name[6:] in self.__dict__.get("alphas", {}):
            return self.alphas[name[6:]]
        raise AttributeError(name)

    @property
    def alpha(self) -> float:
        """α of the only δ of a single-δ result (e.g. over pq-grams)."""
        if len(self.alphas) != 1:
            raise AttributeError("this result has several alphas: use result[name]")
        return next(iter(self.alphas.values()))

    @property
    def estimate(self) -> Dict[str, float]:
        return self.alphas

    def to_dict(self) -> Dict[str, Any]:
        """A flat dict in the style of spaCy's scorers."""
        out: Dict[str, Any] = {f"alpha_{k}": v for k, v in self.alphas.items()}
        out.update({
            "alpha_method": self.method,
            "items": self.items,
            "annotations": self.annotations,
            "items_unpairable": self.items_unpairable,
            "annotations_unpairable": self.annotations_unpairable,
            "cycle_tokens": self.cycle_tokens,
        })
        for kind in self.alphas:
            out[f"observed_{kind}"] = self.observed.get(kind, math.nan)
            out[f"expected_{kind}"] = self.expected.get(kind, math.nan)
            if kind in self.low:
                out[f"alpha_{kind}_low"] = self.low[kind]
                out[f"alpha_{kind}_high"] = self.high[kind]
        if self.confidence is not None:
            out["confidence"] = self.confidence
            out["samples"] = self.samples
        if self.cells is not None:
            out["alpha_cells"] = self.cells
            out["alpha_budget"] = self.budget
        return out

    def worst_items(self, k: int = 10, kind: str = "plain") -> List[Tuple[str, float]]:
        """The ``k`` items contributing most to the observed disagreement for δ ``kind``,
        with their mean squared δ between annotations."""
        if self.item_disagreement is None or not len(self.item_names):
            return []
        column = self.item_disagreement[:, list(self.alphas).index(kind)]
        order = np.argsort(-column, kind="stable")[:k]
        return [(self.item_names[i], float(column[i])) for i in order if column[i] > 0]

    def merged(self, other: "AlphaResult") -> "AlphaResult":
        """This result with the δ of ``other`` (same corpus) added, e.g. α over pq-grams."""
        per_item = self.item_disagreement
        if per_item is not None and other.item_disagreement is not None:
            per_item = np.column_stack([per_item, other.item_disagreement])
        return replace(self, alphas={**self.alphas, **other.alphas}, observed={**self.observed, **other.observed},
                       expected={**self.expected, **other.expected}, item_disagreement=per_item)

    def with_interval(self, method: str, low: Dict[str, float], high: Dict[str, float], confidence: float,
                      samples: int, alphas: Optional[Dict[str, float]] = None) -> "AlphaResult":
        """The same result as an estimate with an interval (``alphas`` replaced if given)."""
        return replace(self, alphas=dict(alphas or self.alphas), method=method, low=low, high=high,
                       confidence=confidence, samples=samples)


def alphas_from_sums(observed_sums: Sequence[float], expected_sums: Sequence[float], n: int,
                     names: Sequence[str], stacklevel: int = 3) -> Tuple[Dict[str, float], ...]:
    """Do, De and α = 1 − Do/De for each δ from the sums over pairs (module docstring): the
    one place the ratio is taken and the undefined case (De = 0) warned about."""
    observed: Dict[str, float] = {}
    expected: Dict[str, float] = {}
    alphas: Dict[str, float] = {}
    for k, kind in enumerate(names):
        observed[kind] = float(observed_sums[k] / n) if n else math.nan
        expected[kind] = float(expected_sums[k] / (n * (n - 1))) if n > 1 else math.nan
        if n < 2 or not expected_sums[k] > 0:
            alphas[kind] = undefined(f"alpha_{kind}", f"the expected disagreement is zero over {n} pairable "
                                     "annotations", stacklevel=stacklevel)
        else:
            alphas[kind] = 1.0 - observed[kind] / expected[kind]
    return observed, expected, alphas


def as_corpus(data: Union[Corpus, Sequence[Any]]) -> Corpus:
    """A :class:`Corpus`, or items as :meth:`Corpus.from_items` takes them, as a corpus."""
    return data if isinstance(data, Corpus) else Corpus.from_items(data)


@dataclass
class PairableTrees:
    """The pairable annotations of a corpus as ordered trees in one label vocabulary, with
    what every α needs about them: the item of each tree, its size |x|, the number of
    annotations of each item, the label cost matrix and what was left out."""

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
    locations: List[Any] = field(default_factory=list, repr=False)  # where each tree came from

    def check_memory(self, threads: int = 1) -> None:
        """The all-pairs tables for the largest tree within :func:`~spacy_agreement.limits.max_memory`
        (else :class:`~spacy_agreement.errors.ResourceLimitError` naming that tree)."""
        check_forest([t.size for t in self.trees], self.locations, threads)

    def result(self, observed_sums: Sequence[float], expected_sums: Sequence[float], names: Sequence[str],
               per_item: Optional[np.ndarray] = None, stacklevel: int = 4) -> AlphaResult:
        """The :class:`AlphaResult` of these trees from the sums over pairs."""
        n = len(self.trees)
        observed, expected, alphas = alphas_from_sums(observed_sums, expected_sums, n, names, stacklevel)
        per_pair = None
        if per_item is not None:  # per item: mean squared δ over the ordered pairs of its annotations
            counts = np.asarray(self.counts, dtype=np.float64)
            per_pair = per_item / counts[:, None] if len(self.counts) else per_item
        return AlphaResult(alphas, observed, expected, items=len(self.counts), annotations=n,
                           items_unpairable=self.unpairable_items,
                           annotations_unpairable=self.unpairable_annotations, cycle_tokens=self.cycle_tokens,
                           cycle_trees=self.cycle_trees, item_names=self.names, item_disagreement=per_pair,
                           item_counts=list(self.counts))


def pairable_trees(data: Union[Corpus, Sequence[Any]], label_cost: Optional[LabelCost] = None,
                   cycles: CyclePolicy = "drop", size: str = "annotation") -> PairableTrees:
    """Items with at least two annotations as ordered trees in one label vocabulary."""
    if size not in ("annotation", "tree"):
        raise BadOptionError(f"size must be 'annotation' or 'tree', not {size!r}")
    corpus = as_corpus(data)
    vocab = LabelVocab()
    out = PairableTrees([], [], [], [], [], None)
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
            out.locations.append(tree.location)
            out.sizes.append(tree.annotation_size if size == "annotation" else ordered.size)
            out.item_of.append(len(out.counts))
        out.counts.append(len(item))
        out.names.append(name)
    out.cost = vocab.cost_matrix(label_cost)
    return out


def alpha(
    data: Union[Corpus, Sequence[Any], PairableTrees],
    label_cost: Optional[LabelCost] = None,
    cycles: CyclePolicy = "drop",
    size: Literal["annotation", "tree"] = "annotation",
    backend: Literal["threads", "serial", "dask", "gpu"] = "threads",
    n_threads: Optional[int] = None,
    scheduler: Optional[object] = None,
    progress: bool = False,
    deltas: Optional[Sequence[str]] = None,
) -> AlphaResult:
    """Krippendorff's α over a corpus of trees, for every registered δ (δplain, δdiff,
    δnorm and those added with :func:`~spacy_agreement.agreement.deltas.register_delta`) or
    the names in ``deltas``.

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
    local cluster); ``"gpu"`` computes them on a CUDA GPU (:mod:`spacy_agreement.agreement.gpu`,
    extra ``gpu``: an ``ImportError`` naming ``numba`` without it, a
    :class:`~spacy_agreement.errors.BadOptionError` without a usable GPU, both before any
    work); ``"serial"`` is the plain single-threaded loop over every pair. All give the same
    α up to floating-point summation order.

    >>> from spacy_agreement import DependencyTree
    >>> a = DependencyTree.create([2, 0], ["subj", "root"])
    >>> b = DependencyTree.create([2, 0], ["obj", "root"])
    >>> c = DependencyTree.create([0, 1, 1], ["root", "obj", "punct"])
    >>> round(alpha([[a, a], [b, a], [c, c]]).alpha_plain, 4)
    0.8276
    """
    if backend not in ("threads", "serial", "dask", "gpu"):
        raise BadOptionError(f"unknown backend {backend!r}: 'threads', 'serial', 'dask' or 'gpu'")
    if backend == "gpu":
        from .gpu import cuda_module

        cuda_module()  # the missing extra or GPU is one line now, not after reading the corpus
    names = tuple(deltas) if deltas is not None else delta_names()
    kernel = [name for name in names if get_delta(name).kernel_code is not None]
    other = [name for name in names if get_delta(name).kernel_code is None]
    converted = data if isinstance(data, PairableTrees) else pairable_trees(data, label_cost, cycles, size)
    converted.check_memory(1 if backend != "threads" else (n_threads or default_threads()))
    trees = converted.trees
    forest = Forest.from_trees(trees)
    item_arr = np.asarray(converted.item_of, dtype=np.int64)
    count_arr = np.asarray(converted.counts, dtype=np.int64)
    size_arr = np.asarray(converted.sizes, dtype=np.int64)
    cost = converted.cost
    expected_sum: Dict[str, float] = {}
    per_item_of: Dict[str, np.ndarray] = {}  # per item, Σ within-item δ² / (m_u − 1), by δ
    if backend == "serial":
        if kernel:  # the kernel's one pass gives the observed sums too
            _, kernel_sums, kernel_items = _core.forest_alpha_sums(*forest.arrays(), item_arr, count_arr, size_arr,
                                                                   cost)
            expected_sum.update(zip(_core.KERNEL_DELTAS, kernel_sums))
            per_item_of.update((name, kernel_items[:, k]) for k, name in enumerate(_core.KERNEL_DELTAS))
        if other:  # every pair, one by one
            counts = np.ones(len(trees))
            expected_sum.update(zip(other, expected_sums_pairs(forest, size_arr, counts, cost, other)))
    else:
        distinct, multiplicity, _ = deduplicate(trees, converted.sizes)
        unique_trees = [trees[i] for i in distinct]
        unique = Forest.from_trees(unique_trees)
        unique_sizes = np.ascontiguousarray(size_arr[distinct])
        if kernel and backend == "threads":
            sums = expected_sums(unique, unique_sizes, multiplicity, cost, n_threads, progress,
                                 forest_trees=unique_trees)
            expected_sum.update(zip(_core.KERNEL_DELTAS, sums))
        elif kernel and backend == "gpu":
            from .gpu import expected_sums_gpu

            sums = expected_sums_gpu(unique, unique_sizes, multiplicity, cost, progress=progress)
            expected_sum.update(zip(_core.KERNEL_DELTAS, sums))
        elif kernel:
            sums = expected_sums_dask(unique, unique_sizes, multiplicity, cost, scheduler, forest_trees=unique_trees)
            expected_sum.update(zip(_core.KERNEL_DELTAS, sums))
        if other:
            expected_sum.update(zip(other, expected_sums_pairs(unique, unique_sizes, multiplicity, cost, other)))
    missing = [name for name in names if name not in per_item_of]
    if missing:
        per_item_of.update(zip(missing, observed_sums(forest, size_arr, item_arr, count_arr, cost, missing).T))
    per_item = np.column_stack([per_item_of[name] for name in names]).reshape(len(converted.counts), len(names))
    return converted.result(per_item.sum(axis=0), [expected_sum[name] for name in names], names, per_item)
