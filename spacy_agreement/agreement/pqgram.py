"""The pq-gram distance (Augsten, Böhlen & Gamper 2005) as a fast approximate δ for α — the
"approximate tree edit distance" Skjærholt (2014, §5.1) proposes for future work.

The pq-gram profile of a tree is the bag of its pq-grams: for every node, its p − 1 nearest
ancestors and itself (the stem, padded with ``*`` above the root) together with every run of
q consecutive children in the tree extended with q − 1 dummy ``*`` children before the
first and after the last child (a leaf gets q dummy children). The distance between two
trees is

    δpq(T1, T2) = 1 − 2 |P1 ∩ P2| / (|P1| + |P2|)          (bag intersection; in [0, 1])

It is computed in time linear in the tree sizes per pair (after a sort), against the cubic
worst case of tree edit distance, and it is a pseudo-metric (identical profiles give 0).
Defaults p = 2, q = 3, as in the paper. α over δpq is squared like the other δ.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _core
from .alpha import _as_corpus, _convert
from .engine import default_threads, row_chunks, within_item_pairs
from ..corpus import Corpus
from ..errors import UndefinedMetricWarning
from ..trees import OrderedTree, children_lists

STAR = -1  # the dummy label


def profile(tree: OrderedTree, p: int = 2, q: int = 3) -> List[Tuple[int, ...]]:
    """The pq-grams of a tree as tuples of label ids (``-1`` for ``*``), in no special order."""
    if p < 1 or q < 1:
        raise ValueError("p and q must be at least 1")
    if tree.size == 0:
        return []
    kids = children_lists(tree.parent.tolist())
    labels = tree.labels.tolist()
    grams: List[Tuple[int, ...]] = []
    stack = [(tree.size - 1, (STAR,) * (p - 1) + (labels[tree.size - 1],))]
    while stack:
        node, stem = stack.pop()
        children = kids[node]
        if not children:
            grams.append(stem + (STAR,) * q)
            continue
        base = (STAR,) * q
        for child in children:
            base = base[1:] + (labels[child],)
            grams.append(stem + base)
            stack.append((child, stem[1:] + (labels[child],)))
        for _ in range(q - 1):
            base = base[1:] + (STAR,)
            grams.append(stem + base)
    return grams


def profiles(trees: Sequence[OrderedTree], p: int = 2, q: int = 3) -> Tuple[np.ndarray, np.ndarray]:
    """Profiles of many trees as sorted bags of pq-gram ids: (ids, offsets)."""
    ids: Dict[Tuple[int, ...], int] = {}
    bags: List[np.ndarray] = []
    for tree in trees:
        bag = np.fromiter((ids.setdefault(g, len(ids)) for g in profile(tree, p, q)), dtype=np.int64)
        bag.sort()
        bags.append(bag)
    offsets = np.zeros(len(bags) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in bags], out=offsets[1:])
    return (np.concatenate(bags) if bags else np.empty(0, dtype=np.int64)), offsets


def pqgram_distance(a, b, p: int = 2, q: int = 3) -> float:
    """δpq between two dependency or phrase trees (see the module docstring)."""
    from ..vocab import LabelVocab

    vocab = LabelVocab()
    grams, offsets = profiles([a.to_ordered(vocab)[0], b.to_ordered(vocab)[0]], p, q)
    return float(_core.pqgram_pairs(grams, offsets, np.array([0]), np.array([1]))[0])


@dataclass
class PqGramAlpha:
    """α with δpq, and its disagreements."""

    alpha: float
    observed: float
    expected: float
    items: int
    annotations: int
    p: int
    q: int

    def to_dict(self) -> Dict[str, float]:
        return {"alpha_pqgram": self.alpha, "observed_pqgram": self.observed, "expected_pqgram": self.expected,
                "items": self.items, "annotations": self.annotations, "p": self.p, "q": self.q}


def pqgram_alpha(data: Union[Corpus, Sequence], p: int = 2, q: int = 3, n_threads: Optional[int] = None,
                 **convert_options) -> PqGramAlpha:
    """Krippendorff's α with δpq over a corpus, exact over all pairs (deduplicated, threaded)."""
    converted = _convert(_as_corpus(data), **convert_options)
    n = len(converted.trees)
    grams, offsets = profiles(converted.trees, p, q)
    # deduplicate identical profiles
    keys: Dict[bytes, int] = {}
    first, counts = [], []
    for t in range(n):
        key = grams[offsets[t]:offsets[t + 1]].tobytes()
        k = keys.setdefault(key, len(first))
        if k == len(first):
            first.append(t)
            counts.append(0)
        counts[k] += 1
    bags = [grams[offsets[t]:offsets[t + 1]] for t in first]
    unique_offsets = np.zeros(len(bags) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in bags], out=unique_offsets[1:])
    unique = np.concatenate(bags) if bags else np.empty(0, dtype=np.int64)
    weights = np.asarray(counts, dtype=np.float64)
    threads = n_threads or default_threads()
    expected_sum = sum(_core.pqgram_expected_rows(unique, unique_offsets, weights, a, b, threads)
                       for a, b in row_chunks(len(bags), 64))
    # observed: pairs within items
    item_of = np.asarray(converted.item_of, dtype=np.int64)
    left, right = within_item_pairs(item_of)
    observed_sum = 0.0
    if len(left):
        d = _core.pqgram_pairs(grams, offsets, left, right)
        m = np.asarray(converted.counts, dtype=np.float64)[item_of[left]]
        observed_sum = float(np.sum(2.0 * d ** 2 / (m - 1)))
    observed = observed_sum / n if n else math.nan
    expected = expected_sum / (n * (n - 1)) if n > 1 else math.nan
    if n < 2 or not expected:
        warnings.warn("alpha_pqgram is undefined (zero expected disagreement); returning nan",
                      UndefinedMetricWarning, stacklevel=2)
        value = math.nan
    else:
        value = 1.0 - observed / expected
    return PqGramAlpha(value, observed, expected, len(converted.counts), n, p, q)
