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

from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _core
from ..corpus import Corpus
from ..errors import BadOptionError
from ..trees import OrderedTree, children_lists
from ..vocab import LabelVocab
from .alpha import AlphaResult, pairable_trees
from .engine import deduplicate, default_threads, row_chunks, within_item_pairs

STAR = -1  # the dummy label


def profile(tree: OrderedTree, p: int = 2, q: int = 3) -> List[Tuple[int, ...]]:
    """The pq-grams of a tree as tuples of label ids (``-1`` for ``*``), in no special order."""
    if p < 1 or q < 1:
        raise BadOptionError("p and q must be at least 1")
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
    vocab = LabelVocab()
    grams, offsets = profiles([a.to_ordered(vocab)[0], b.to_ordered(vocab)[0]], p, q)
    return float(_core.pqgram_pairs(grams, offsets, np.array([0]), np.array([1]))[0])


def pqgram_alpha(data: Union[Corpus, Sequence], p: int = 2, q: int = 3, n_threads: Optional[int] = None,
                 **convert_options) -> AlphaResult:
    """Krippendorff's α with δpq over a corpus (the result's only δ is ``"pqgram"``: ``.alpha``,
    ``result["pqgram"]``), exact over all pairs: identical trees deduplicated as for the
    other δ, the rows of the pair triangle over ``n_threads`` threads."""
    converted = pairable_trees(data, **convert_options)
    trees = converted.trees
    distinct, multiplicity, _ = deduplicate(trees, converted.sizes)
    unique, unique_offsets = profiles([trees[i] for i in distinct], p, q)
    threads = n_threads or default_threads()
    expected_sum = sum(_core.pqgram_expected_rows(unique, unique_offsets, multiplicity, a, b, threads)
                       for a, b in row_chunks(len(distinct), 64))
    # observed: the pairs within items
    item_of = np.asarray(converted.item_of, dtype=np.int64)
    per_item = np.zeros((len(converted.counts), 1))
    left, right = within_item_pairs(item_of)
    if len(left):
        grams, offsets = profiles(trees, p, q)
        d = _core.pqgram_pairs(grams, offsets, left, right)
        m = np.asarray(converted.counts, dtype=np.float64)[item_of[left]]
        np.add.at(per_item[:, 0], item_of[left], 2.0 * d ** 2 / (m - 1))
    return converted.result(per_item.sum(axis=0), [float(expected_sum)], ("pqgram",), per_item)
