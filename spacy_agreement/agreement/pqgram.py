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
Defaults p = 2, q = 3, as in the paper. α over δpq is squared like the other δ. It is the
registered δ ``pqgram`` (a pair-level δ: not a function of the TED), computed when asked for
(``deltas=(..., "pqgram")``, ``alpha --delta pqgram``), always exactly: its all-pairs sum is
linear per pair.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .. import _core
from ..errors import BadOptionError
from ..trees import OrderedTree, children_lists
from ..vocab import LabelVocab
from .deltas import Delta, register_delta
from .engine import default_threads, row_chunks

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


def pqgram_pairs(trees: Sequence[OrderedTree], left: np.ndarray, right: np.ndarray, p: int = 2,
                 q: int = 3) -> np.ndarray:
    """δpq of the pairs (``trees[left[k]]``, ``trees[right[k]]``): the pair-level hook of the
    registered δ ``pqgram`` (:func:`~spacy_agreement.agreement.deltas.register_delta`)."""
    if not len(left):
        return np.zeros(0, dtype=np.float64)
    grams, offsets = profiles(trees, p, q)
    return _core.pqgram_pairs(grams, offsets, np.asarray(left, dtype=np.int64), np.asarray(right, dtype=np.int64))


def pqgram_expected(distinct: Any, n_threads: Optional[int] = None, p: int = 2, q: int = 3) -> float:
    """Σ over ordered pairs of distinct pairable annotations of δpq²: every pair of distinct
    trees once, weighted by their multiplicities, the rows of the pair triangle over
    ``n_threads`` threads."""
    if len(distinct) < 2:
        return 0.0
    grams, offsets = profiles(distinct.trees, p, q)
    threads = n_threads or default_threads()
    return float(sum(_core.pqgram_expected_rows(grams, offsets, distinct.multiplicity, a, b, threads)
                     for a, b in row_chunks(len(distinct), 64)))


def pqgram_delta(p: int = 2, q: int = 3) -> Delta:
    """The pq-gram δ for other ``p`` and ``q`` than the registered one's (2, 3): named
    ``pqgram`` for those, ``pqgram_p{p}_q{q}`` otherwise."""
    name = "pqgram" if (p, q) == (2, 3) else f"pqgram_p{p}_q{q}"
    return Delta(name, description=f"pq-gram distance, p={p}, q={q} (Augsten et al. 2005): a fast approximation",
                 pairs=partial(pqgram_pairs, p=p, q=q), expected=partial(pqgram_expected, p=p, q=q), default=False)


register_delta("pqgram", pqgram_delta(), _builtin=True)
