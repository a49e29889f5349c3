"""α over trees and the accuracies beside it against slow reference code (tests/reference.py)."""
import math
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spacy_agreement as sa

from ..reference import (
    ref_dependency_to_tuple,
    ref_jaccard,
    ref_krippendorff_alpha,
    ref_leaf_count,
    ref_tree_edit_distance,
    ref_tree_size,
)
from ..strategies import dependency_heads, labelled_trees


def to_brackets(tree):
    label, children = tree
    if not children:
        return label
    return f"({label} {' '.join(to_brackets(c) for c in children)})"


def phrase(tree):
    text = to_brackets(tree) if tree[1] else f"({tree[0]})"
    return sa.parse_brackets(text, leaves="categories")[0]


def ref_deltas(t1, t2, size=ref_tree_size):
    """δplain, δdiff, δnorm; |x| is ``size``: node count (dependency trees, tokens + root)
    or leaf count (phrase trees: the sentence length, Skjærholt 2014 §2)."""
    d = ref_tree_edit_distance(t1, t2)
    n1, n2 = size(t1), size(t2)
    return {"plain": d, "diff": d - abs(n1 - n2), "norm": d / (n1 + n2)}


corpora = st.integers(2, 4).flatmap(
    lambda coders: st.lists(
        st.lists(st.one_of(st.none(), labelled_trees(max_nodes=7)), min_size=coders, max_size=coders),
        min_size=1, max_size=6,
    )
)


@settings(max_examples=120, deadline=None)
@given(corpora)
def test_alpha_over_phrase_trees_matches_reference(items):
    cache = {}

    def dist(kind, size):
        def d(a, b):
            key = (a, b, size)
            if key not in cache:
                cache[key] = ref_deltas(a, b, size)
            return cache[key][kind]
        return d

    trees = [[None if t is None else phrase(t) for t in item] for item in items]
    for size, option in ((ref_leaf_count, "annotation"), (ref_tree_size, "tree")):
        expected = {kind: ref_krippendorff_alpha(items, dist(kind, size)) for kind in ("plain", "diff", "norm")}
        with _nowarn_if_defined(expected):
            got = sa.alpha(trees, size=option)
        for kind in ("plain", "diff", "norm"):
            if math.isnan(expected[kind]):
                assert math.isnan(got[kind])
            else:
                assert got[kind] == pytest.approx(expected[kind], rel=1e-9, abs=1e-9)
    pairable = [i for i in items if sum(t is not None for t in i) >= 2]
    assert got.items == len(pairable)
    assert got.items_unpairable == len(items) - len(pairable)


class _nowarn_if_defined:
    """Expect an UndefinedMetricWarning about α exactly when some reference α is undefined
    (``sa.alpha`` also computes the accuracies, which warn of their own: LAS of items whose
    annotations all differ in tokens)."""

    def __init__(self, expected):
        self.undefined = any(math.isnan(v) for v in expected.values())

    def __enter__(self):
        import warnings

        self._catch = warnings.catch_warnings(record=True)
        self.records = self._catch.__enter__()
        warnings.simplefilter("always")
        return self

    def __exit__(self, *exc):
        self._catch.__exit__(*exc)
        got = any(issubclass(r.category, sa.UndefinedMetricWarning) and str(r.message.metric).startswith("alpha_")
                  for r in self.records)
        assert got == self.undefined
        return False


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(dependency_heads(max_tokens=7), dependency_heads(max_tokens=7)), min_size=2, max_size=6))
def test_alpha_over_dependency_trees_matches_reference(pairs):
    items = [[a, b] for a, b in pairs]
    tuples = [[ref_dependency_to_tuple(*a) for a in item] for item in items]
    expected = {
        kind: ref_krippendorff_alpha(tuples, lambda x, y, k=kind: ref_deltas(x, y)[k]) for kind in ("plain", "diff", "norm")
    }
    with _nowarn_if_defined(expected):
        got = sa.alpha([[sa.DependencyTree.create(*a) for a in item] for item in items])
    for kind, value in expected.items():
        if math.isnan(value):
            assert math.isnan(got[kind])
        else:
            assert got[kind] == pytest.approx(value, rel=1e-9, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(labelled_trees(max_nodes=10), labelled_trees(max_nodes=10))
def test_bracket_jaccard_matches_reference(t1, t2):
    assert sa.bracket_jaccard(phrase(t1), phrase(t2)) == pytest.approx(ref_jaccard(t1, t2))


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.lists(
            st.lists(
                st.tuples(st.lists(st.integers(0, n), min_size=n, max_size=n), st.lists(st.sampled_from("xyz"), min_size=n, max_size=n)),
                min_size=3, max_size=3,
            ),
            min_size=1, max_size=4,
        )
    )
)
def test_pairwise_las_is_equation_3(raw_items):
    # heads may form any graph: LAS compares columns, not trees; build trees only where valid
    items = []
    for item in raw_items:
        trees = []
        for heads, rels in item:
            heads = [0 if h == k + 1 else h for k, h in enumerate(heads)]
            if 0 not in heads:
                heads[0] = 0
            trees.append(sa.DependencyTree.create(heads, rels))
        items.append(trees)
    result = sa.pairwise_attachment(sa.Corpus.from_items(items))
    # eq. (3): Σ_i |x_i1| Λ(X_i) / (|X_i|(|X_i|-1)/2) / Σ_i |x_i1|
    num = den = 0.0
    for trees in items:
        n = len(trees[0])
        pairs = list(combinations(trees, 2))
        lam = sum(
            sum(a.heads[k] == b.heads[k] and a.deprels[k] == b.deprels[k] for k in range(n)) / n for a, b in pairs
        )
        num += n * lam / len(pairs)
        den += n
    assert result.las == pytest.approx(num / den)
