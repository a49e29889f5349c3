"""``trees.dependency_forest`` (the forest of many dependency trees built at once, issue 50) against
the trees built one by one (``DependencyTree.to_ordered`` and ``Forest.from_trees``): the same
arrays, the same vocabulary (labels added in the same order, to a vocabulary already in use too),
the same tokens dropped from head cycles."""
from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_agreement.trees import DependencyTree, Forest, dependency_forest
from spacy_agreement.vocab import LabelVocab

LABELS = ("nsubj", "obj", "root", "ROOT", "_", "det", "amod")


def random_tree(rng: random.Random) -> DependencyTree:
    n = rng.randrange(1, 9)
    heads = [rng.choice([0, rng.randrange(0, n + 1), k + 1]) for k in range(n)]  # roots, cycles, self-heads
    return DependencyTree.create(heads=heads, deprels=[rng.choice(LABELS) for _ in range(n)])


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 30), st.booleans())
def test_the_forest_of_every_tree_at_once(seed, n, used_vocab):
    rng = random.Random(seed)
    trees = [random_tree(rng) for _ in range(n)]
    one, many = LabelVocab(), LabelVocab()
    if used_vocab:
        for vocab in (one, many):
            vocab.add("det")
            vocab.add("other")
    built = [t.to_ordered(one, "drop") for t in trees]
    expected = Forest.from_trees([tree for tree, _ in built])
    forest, dropped = dependency_forest(trees, many)
    for got, want in zip(forest.arrays(), expected.arrays()):
        assert got.dtype == want.dtype and np.array_equal(got, want)
    assert dropped.tolist() == [d for _, d in built]
    assert one._ids == many._ids
