"""The one container α works on: the pairable annotations of a corpus (items with at least
two annotations) as ordered trees in one label vocabulary, built once per computation, with
every view the estimators and backends need computed once on first use: the forest, the
per-tree arrays (item, |x|), and the deduplicated view (:class:`DistinctTrees`: identical
trees of equal |x| compared once, weighted by their multiplicity)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, List, Optional, Sequence, Union

import numpy as np

from ..corpus import Corpus
from ..errors import BadOptionError
from ..limits import check_forest
from ..trees import CyclePolicy, Forest, OrderedTree
from .settings import PARTIAL_POLICIES
from ..vocab import LabelCost, LabelVocab
from .engine import deduplicate
from .result import AlphaResult, alphas_from_sums


def as_corpus(data: Union[Corpus, Sequence[Any]]) -> Corpus:
    """A :class:`Corpus`, or items as :meth:`Corpus.from_items` takes them, as a corpus."""
    return data if isinstance(data, Corpus) else Corpus.from_items(data)


@dataclass(frozen=True)
class DistinctTrees:
    """The distinct trees of a :class:`PairableTrees` (identical trees of equal |x| once):
    ``index`` of each in the full list, its ``multiplicity``, the trees, their forest and
    their sizes |x|. The all-pairs sums run over these, each pair weighted by the product
    of the multiplicities."""

    index: List[int]
    multiplicity: np.ndarray
    trees: List[OrderedTree]
    forest: Forest
    sizes: np.ndarray

    def __len__(self) -> int:
        return len(self.trees)


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
    partial_trees: List[str] = field(default_factory=list)  # trees set aside as missing (partial="missing")
    attached_tokens: int = 0  # heads and relations made "unannotated" (partial="attach")
    locations: List[Any] = field(default_factory=list, repr=False)  # where each tree came from

    # ------------------------------------------------------------------ views, each computed once

    @cached_property
    def forest(self) -> Forest:
        """All the trees as one :class:`~spacy_agreement.trees.Forest`."""
        return Forest.from_trees(self.trees)

    @cached_property
    def size_array(self) -> np.ndarray:
        return np.asarray(self.sizes, dtype=np.int64)

    @cached_property
    def item_array(self) -> np.ndarray:
        return np.asarray(self.item_of, dtype=np.int64)

    @cached_property
    def count_array(self) -> np.ndarray:
        return np.asarray(self.counts, dtype=np.int64)

    @cached_property
    def distinct(self) -> DistinctTrees:
        """The deduplicated view (:class:`DistinctTrees`), computed once whoever asks first
        (the plan's cost, the all-pairs sums, a pair-level δ)."""
        index, multiplicity, _ = deduplicate(self.trees, self.sizes)
        trees = [self.trees[i] for i in index]
        sizes = np.ascontiguousarray(self.size_array[index]) if len(index) else np.zeros(0, dtype=np.int64)
        return DistinctTrees(list(index), multiplicity, trees, Forest.from_trees(trees), sizes)

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
                           cycle_trees=self.cycle_trees, partial_trees=self.partial_trees,
                           attached_tokens=self.attached_tokens, item_names=self.names, item_disagreement=per_pair,
                           item_counts=list(self.counts))


def pairable_trees(data: Union[Corpus, Sequence[Any]], label_cost: Optional[LabelCost] = None,
                   cycles: CyclePolicy = "drop", size: str = "annotation", partial: str = "missing") -> PairableTrees:
    """Items with at least two annotations as ordered trees in one label vocabulary: the
    container every α of the corpus is computed from (module docstring).

    A dependency tree with heads or relations not annotated yet
    (:attr:`~spacy_agreement.trees.DependencyTree.partial`: HEAD ``_`` or DEPREL ``_``, one
    rule for both) is, with ``partial="missing"``, a missing annotation of its item (listed
    in ``partial_trees``): TED compares whole analyses, and one with holes is not one; with
    ``partial="attach"`` it is compared as :meth:`~spacy_agreement.trees.DependencyTree.attached`
    (its tokens without a head on the root and every relation not annotated labelled
    ``unannotated``: each counts as a disagreement; ``attached_tokens`` counts them)."""
    if size not in ("annotation", "tree"):
        raise BadOptionError(f"size must be 'annotation' or 'tree', not {size!r}")
    if partial not in PARTIAL_POLICIES:
        raise BadOptionError(f"partial must be {' or '.join(map(repr, PARTIAL_POLICIES))}, not {partial!r}")
    corpus = as_corpus(data)
    vocab = LabelVocab()
    out = PairableTrees([], [], [], [], [], None)
    for name, item in zip(corpus.names, corpus.items):
        present = []
        for annotator in corpus.annotators:
            tree = item.get(annotator)
            if tree is None:
                continue
            if getattr(tree, "partial", False):
                if partial == "missing":
                    out.partial_trees.append(f"{name} ({annotator}): {_holes(tree)}")
                    continue
                out.attached_tokens += len(tree.unannotated) + len(tree.unlabelled)
                tree = tree.attached()
            present.append((annotator, tree))
        if len(present) < 2:
            out.unpairable_items += 1
            out.unpairable_annotations += len(present)
            continue
        for annotator, tree in present:
            ordered, dropped = tree.to_ordered(vocab, cycles)
            if dropped:
                out.cycle_tokens += dropped
                out.cycle_trees.append(f"{tree.location} ({annotator}): {dropped} token(s) in head cycles")
            out.trees.append(ordered)
            out.locations.append(tree.location)
            out.sizes.append(tree.annotation_size if size == "annotation" else ordered.size)
            out.item_of.append(len(out.counts))
        out.counts.append(len(present))
        out.names.append(name)
    out.cost = vocab.cost_matrix(label_cost)
    return out


def _holes(tree: Any) -> str:
    """What a partial tree lacks, for the list of trees taken as missing annotations."""
    parts = []
    if tree.unannotated:
        parts.append(f"{len(tree.unannotated)} of {len(tree)} token(s) not annotated")
    if tree.unlabelled:
        parts.append(f"{len(tree.unlabelled)} of {len(tree)} relation(s) not annotated (DEPREL _)")
    return ", ".join(parts)


__all__ = ["DistinctTrees", "PairableTrees", "as_corpus", "pairable_trees"]
