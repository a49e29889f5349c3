"""The combined-row Zhang–Shasha kernels (extension/zs_rows.h: portable C, AVX2, AVX-512)
against the classic per-keyroot-pair kernel and the slow pure-Python reference, distance by
distance, on random forests (hypothesis) and on the shared IAA data; and the fall-back to the
classic kernel for trees too big for the row layouts."""
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spacy_agreement as sa
from spacy_agreement import LabelVocab, _core
from spacy_agreement.agreement.engine import expected_sums, mirror_arrays, oriented, row_layouts
from spacy_agreement.trees import Forest, OrderedTree

from ..reference import ref_tree_edit_distance
from ..strategies import labelled_trees
from ..helpers import assert_same_sums, block_forest, chain, comb, ordered_forest, to_ordered

KERNELS = _core.row_kernels()
#: Every kernel the core has (classic, scalar, avx2, avx512): the tests below that take one
#: kernel are parametrized over all of them, and one this CPU (or build) does not offer is a skip
#: that says so, not a kernel left out unseen.
ALL_KERNELS = tuple(_core.ROW_KERNELS)


def each_kernel(kernels=ALL_KERNELS):
    return [pytest.param(k, id=k, marks=pytest.mark.skipif(
        k not in KERNELS, reason=f"the {k} kernel is not offered here (this CPU or build lacks it; here: "
                                 f"{', '.join(KERNELS)}): its code paths NOT tested")) for k in kernels]


@pytest.fixture(autouse=True)
def restore_kernel():
    yield
    _core.use_row_kernel("auto")


def all_pairs(n):
    left, right = np.triu_indices(n, k=1)
    return left.astype(np.int64), right.astype(np.int64)


def distances(kernel, forest, left, right):
    _core.use_row_kernel(kernel)
    return _core.forest_ted_pairs(*forest.arrays(), left, right)


def test_the_portable_kernels_are_always_there():
    assert KERNELS[:2] == ["classic", "scalar"] and ALL_KERNELS == ("classic", "scalar", "avx2", "avx512")
    assert tuple(KERNELS) == ALL_KERNELS[:len(KERNELS)]  # the best a CPU offers includes the lesser ones
    assert _core.row_kernel() == KERNELS[-1]


def test_unknown_kernel_is_refused_and_the_choice_restored():
    with pytest.raises(ValueError, match="unknown or unavailable kernel 'gpu'"):
        _core.use_row_kernel("gpu")
    assert _core.use_row_kernel("scalar") == KERNELS[-1]
    assert _core.row_kernel() == "scalar"
    assert _core.use_row_kernel("classic") == "scalar"
    assert _core.use_row_kernel() == "classic"


@pytest.mark.parametrize("kernel", each_kernel())
@settings(max_examples=80, deadline=None)
@given(trees=st.lists(labelled_trees(max_nodes=14), min_size=2, max_size=9))
def test_every_kernel_matches_the_reference_on_random_forests(kernel, trees):
    _, forest, _ = ordered_forest(trees)
    n = len(trees)
    left, right = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    left, right = left.ravel().astype(np.int64), right.ravel().astype(np.int64)
    expected = [ref_tree_edit_distance(trees[i], trees[j]) for i, j in zip(left, right)]
    assert distances(kernel, forest, left, right).tolist() == expected


@pytest.mark.parametrize("kernel", each_kernel())
@settings(max_examples=60, deadline=None)
@given(one=labelled_trees(max_nodes=20), other=labelled_trees(max_nodes=20))
def test_every_kernel_gives_the_reference_distance_of_one_pair(kernel, one, other):
    """The single-pair function (one tree against a batch of one with the row kernels)."""
    vocab = LabelVocab()
    a, b = to_ordered(one, vocab), to_ordered(other, vocab)
    expected = ref_tree_edit_distance(one, other)
    _core.use_row_kernel(kernel)
    assert _core.tree_edit_distance(a.labels, a.lml, a.keyroots, b.labels, b.lml, b.keyroots) == expected


@pytest.mark.parametrize("kernel", each_kernel(ALL_KERNELS[1:]))
@settings(max_examples=40, deadline=None)
@given(trees=st.lists(labelled_trees(max_nodes=16), min_size=2, max_size=14), threads=st.integers(1, 3))
def test_every_kernel_gives_the_same_alpha_sums(kernel, trees, threads):
    """The all-pairs sums (each pair in its cheaper orientation, in batches) are the classic
    kernel's."""
    ordered, forest, sizes = ordered_forest(trees)
    _core.use_row_kernel("classic")
    classic = expected_sums(forest, sizes, np.ones(len(ordered)), n_threads=threads, forest_trees=ordered)
    _core.use_row_kernel(kernel)
    got = expected_sums(forest, sizes, np.ones(len(ordered)), n_threads=threads, forest_trees=ordered)
    one_thread = expected_sums(forest, sizes, np.ones(len(ordered)), n_threads=1, forest_trees=ordered)
    # bit for bit, δnorm too: every row's sums are added in row order, whatever the threads did
    assert got.tolist() == classic.tolist() == one_thread.tolist()


@settings(max_examples=30, deadline=None)
@given(st.lists(labelled_trees(max_nodes=12), min_size=2, max_size=10))
def test_the_kernel_builds_its_own_layouts_when_given_none(trees):
    """The path of the dask tasks: mirror given, no layouts (both built inside the call)."""
    ordered, forest, sizes = ordered_forest(trees)
    args = (sizes, np.ones(len(ordered)), 0, len(ordered), 2, None, mirror_arrays(ordered))
    got = _core.expected_sums_rows(*forest.arrays(), *args)
    _core.use_row_kernel("classic")
    assert_same_sums(got, _core.expected_sums_rows(*forest.arrays(), *args))


def test_trees_too_big_for_the_layouts_go_to_the_classic_kernel():
    vocab = LabelVocab()
    small = [("a", (("b", ()), ("c", ()))), ("a", (("c", ()),))]
    nested = small + [comb(100)] + small  # the comb: over 4,096 layout columns
    ordered = [to_ordered(t, vocab) for t in nested]
    ordered[3:3] = [chain(600, vocab.add("a")), chain(520, vocab.add("b"))]  # over 512 nodes
    forest = Forest.from_trees(ordered)
    layouts = _core.row_layouts(*forest.arrays())
    # the comb (201 nodes) is too wide to be met in a batch but its rows fit: max_rows counts it
    assert layouts.n_trees == len(ordered) and layouts.max_rows == 201
    left, right = all_pairs(len(ordered))
    expected = distances("classic", forest, left, right)
    for kernel in KERNELS[1:]:
        assert distances(kernel, forest, left, right).tolist() == expected.tolist(), kernel
    sizes, counts = np.array([t.size for t in ordered], dtype=np.int64), np.ones(len(ordered))
    _core.use_row_kernel("classic")
    classic = expected_sums(forest, sizes, counts, n_threads=2, forest_trees=ordered)
    for kernel in KERNELS[1:]:
        _core.use_row_kernel(kernel)
        assert_same_sums(expected_sums(forest, sizes, counts, n_threads=2, forest_trees=ordered), classic)


def test_layouts_of_another_forest_are_refused():
    vocab = LabelVocab()
    one = Forest.from_trees([to_ordered(t, vocab) for t in [("a", ()), ("b", (("a", ()),))]])
    other = Forest.from_trees([to_ordered(t, vocab) for t in [("a", ()), ("a", (("a", ()),))]])
    n = 2
    args = (np.ones(n, dtype=np.int64), np.ones(n), 0, n, 1, None, None)
    with pytest.raises(ValueError, match="not built from this forest"):
        _core.expected_sums_rows(*one.arrays(), *args, (_core.row_layouts(*other.arrays()), None))
    with pytest.raises(ValueError, match="not built from this forest"):
        _core.expected_sums_rows(*one.arrays(), *args, ("not layouts", None))
    good = _core.expected_sums_rows(*one.arrays(), *args, (_core.row_layouts(*one.arrays()), None))
    assert good.tolist() == _core.expected_sums_rows(*one.arrays(), *args).tolist()


IAA_FILES = ["cdt/da-lotte.conll", "cdt/da-morten.conll", "ndt/odin-norwegian.conll"]


@pytest.mark.parametrize("kernel", each_kernel(ALL_KERNELS[1:]))
@pytest.mark.parametrize("name", IAA_FILES)
def test_every_kernel_agrees_with_the_classic_one_on_the_iaa_data(iaa, name, kernel):
    """Every pair of trees of one annotator's file, in both orientations, distance by distance."""
    vocab = LabelVocab()
    ordered = [t.to_ordered(vocab)[0] for t in sa.read_conll(iaa / name)]
    forest = Forest.from_trees(ordered)
    left, right = all_pairs(len(ordered))
    mirrored = mirror_arrays(ordered)
    mirror_forest = (mirrored[0], mirrored[1], forest.offsets, mirrored[2], mirrored[3])
    expected = distances("classic", forest, left, right)
    assert row_layouts(forest.arrays(), mirrored)[0].max_rows == max(t.size for t in ordered)
    assert np.array_equal(distances(kernel, forest, left, right), expected)
    _core.use_row_kernel(kernel)
    assert np.array_equal(_core.forest_ted_pairs(*mirror_forest, left, right), expected)


@pytest.mark.parametrize("kernel", each_kernel(ALL_KERNELS[1:]))
def test_rows_meeting_whole_blocks_give_the_classic_sums(kernel):
    """Rows over a forest of many blocks, in the given order (orientation runs of a few trees,
    blocks met rarely) and in the engine's order by cost ratio (whole blocks), every kernel."""
    ordered, forest, sizes = block_forest()
    counts = np.random.default_rng(1).integers(1, 4, len(ordered)).astype(np.float64)
    mirror = mirror_arrays(ordered)
    layouts = row_layouts(forest.arrays(), mirror)
    assert layouts[0].n_blocks >= 8 and layouts[1].n_blocks >= 8
    args = (sizes, counts, 0, len(ordered), 2, None, mirror)
    _core.use_row_kernel("classic")
    classic = _core.expected_sums_rows(*forest.arrays(), *args)
    engine_classic = expected_sums(forest, sizes, counts, n_threads=2, forest_trees=ordered)
    assert_same_sums(engine_classic, classic)
    _core.use_row_kernel(kernel)
    assert_same_sums(_core.expected_sums_rows(*forest.arrays(), *args, layouts), classic)
    assert_same_sums(expected_sums(forest, sizes, counts, n_threads=2, forest_trees=ordered), classic)


def test_layouts_survive_pickling():
    """The dask backend sends the layouts to its workers once."""
    ordered, forest, sizes = block_forest(seed=2, n_trees=120)
    layouts = _core.row_layouts(*forest.arrays())
    again = pickle.loads(pickle.dumps(layouts))
    assert again.covers(*forest.arrays())
    assert (again.n_trees, again.max_rows, again.n_blocks) == (layouts.n_trees, layouts.max_rows, layouts.n_blocks)
    args = (sizes, np.ones(len(ordered)), 0, len(ordered), 1, None, None)
    assert_same_sums(_core.expected_sums_rows(*forest.arrays(), *args, (again, None)),
                     _core.expected_sums_rows(*forest.arrays(), *args, (layouts, None)))


def test_the_engine_order_makes_each_rows_mirrored_pairs_one_run():
    """After :func:`oriented`, row i mirrors the pairs (i, j) for j below some point only."""
    ordered, forest, sizes = block_forest(seed=3, n_trees=150)
    counts = np.arange(1, len(ordered) + 1, dtype=np.float64)
    moved, moved_sizes, moved_counts, mirror = oriented(forest, sizes, counts, None, ordered)
    left, right = mirror.cost_left.astype(object), mirror.cost_right.astype(object)  # exact products
    for i in range(len(ordered)):
        flags = [right[i] * right[j] < left[i] * left[j] for j in range(len(ordered))]
        assert flags == sorted(flags, reverse=True)
    # the same trees, sizes and counts, moved together
    order = [int(c) - 1 for c in moved_counts]
    assert moved_sizes.tolist() == sizes[order].tolist()
    expected = Forest.from_trees([ordered[k] for k in order])
    assert all(np.array_equal(a, b) for a, b in zip(moved.arrays(), expected.arrays()))
    assert oriented(forest, sizes, counts, np.ones((2, 2)), ordered)[3] is None


def test_the_mirrored_forest_is_every_tree_mirrored():
    """_core.mirror_forest against OrderedTree.mirrored (Python, tree by tree), with empty and
    one-node trees and chains (keyroots nested all the way down)."""
    ordered, forest, _ = block_forest(seed=6, n_trees=80)
    vocab = LabelVocab()
    ordered += [OrderedTree.from_parents(np.zeros(0), np.zeros(0)), to_ordered(("x", ()), vocab),
                chain(40, 1), to_ordered(comb(30), vocab)]
    forest = Forest.from_trees(ordered)
    mirrored = [t.mirrored() for t in ordered]
    expected = Forest.from_trees(mirrored)
    got = _core.mirror_forest(*forest.arrays())
    for a, b in zip(got[:4], (expected.labels, expected.lml, expected.keyroots, expected.kr_offsets)):
        assert np.array_equal(a, b) and a.dtype == b.dtype
    assert got[4].tolist() == [t.keyroot_cost for t in ordered]
    assert got[5].tolist() == [t.keyroot_cost for t in mirrored]


def test_pair_batches_survive_calls_of_every_size():
    """The pair kernel keeps one work buffer between calls: bigger trees after smaller ones,
    many pairs of one tree (wide batches) and single pairs."""
    small, small_forest, _ = block_forest(seed=8, n_trees=30)
    big = [chain(400, 1), chain(500, 2)] + small
    big_forest = Forest.from_trees(big)
    for trees, forest in [(small, small_forest), (big, big_forest), (small, small_forest)]:
        n = len(trees)
        left, right = np.zeros(n, dtype=np.int64), np.arange(n, dtype=np.int64)
        expected = distances("classic", forest, left, right)
        for kernel in KERNELS[1:]:
            assert np.array_equal(distances(kernel, forest, left, right), expected), kernel
            assert np.array_equal(distances(kernel, forest, left[:1] + 1, right[:1]), expected[1:2]), kernel


def test_forest_take_reorders_whole_trees():
    ordered, forest, _ = block_forest(seed=4, n_trees=40)
    order = np.random.default_rng(5).permutation(len(ordered))
    taken, expected = forest.take(order), Forest.from_trees([ordered[k] for k in order])
    assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(taken.arrays(), expected.arrays()))
    assert len(forest.take([])) == 0


def shared_subtree_forest(seed=4, n_trees=40):
    """Trees assembled from a few small subtrees (so that keyroot subtrees repeat within a
    tree and across trees), a comb (one leaf keyroot repeated down its spine) and exact
    copies."""
    rng = np.random.default_rng(seed)
    pool = [("a", ()), ("b", ()), ("a", (("b", ()),)), ("c", (("a", ()), ("b", ()))), ("b", (("c", (("a", ()),)),))]
    trees = []
    for _ in range(n_trees):
        kids = tuple(pool[int(k)] for k in rng.integers(0, len(pool), int(rng.integers(1, 6))))
        inner = ("c", tuple(pool[int(k)] for k in rng.integers(0, len(pool), int(rng.integers(0, 3)))))
        trees.append(("r", kids + (inner,) if rng.integers(0, 2) else (inner,) + kids))
    trees[5:5] = [trees[0], trees[1], comb(12)]
    return trees


def test_repeated_keyroot_subtrees_are_laid_out_once_and_give_the_reference_distances():
    """A batch lays out each distinct keyroot subtree once (its homes and root columns point
    there): fewer columns, the same distances as the slow reference for every kernel, in stored
    blocks (all pairs) and in batches built per row (scattered pairs)."""
    trees = shared_subtree_forest()
    ordered, forest, sizes = ordered_forest(trees)
    layouts = _core.row_layouts(*forest.arrays())
    assert layouts.n_block_columns < 0.8 * layouts.n_tree_columns
    n = len(trees)
    left, right = all_pairs(n)
    expected = [ref_tree_edit_distance(trees[i], trees[j]) for i, j in zip(left, right)]
    for kernel in KERNELS:
        assert distances(kernel, forest, left, right).tolist() == expected, kernel
    _core.use_row_kernel("classic")
    args = (sizes, np.ones(n), 0, n, 2, None, mirror_arrays(ordered))
    classic = _core.expected_sums_rows(*forest.arrays(), *args)
    for kernel in KERNELS[1:]:
        _core.use_row_kernel(kernel)
        assert_same_sums(_core.expected_sums_rows(*forest.arrays(), *args, (layouts, None)), classic)


def test_copies_of_one_tree_take_one_trees_columns():
    """Ten copies of a tree in one block: the block is as wide as one copy (rounded up to the
    16-column padding), where each laid out alone would take ten times that."""
    one = ("r", (("a", (("b", ()), ("c", ()))), ("b", ()), ("a", (("b", ()),))))
    ordered, forest, _ = ordered_forest([one] * 10)
    layouts = _core.row_layouts(*forest.arrays())
    width = sum(int(k) - int(ordered[0].lml[k]) + 1 for k in ordered[0].keyroots)
    assert layouts.n_blocks == 1
    assert layouts.n_tree_columns == 10 * width
    assert layouts.n_block_columns == -(-width // 16) * 16


@pytest.mark.parametrize("n_labels", [3, 63, 64, 65, 200])
def test_leaf_rows_give_the_reference_distances_below_and_above_the_label_limit(n_labels):
    """A one-node keyroot of the row tree takes td[x][y] = |B(y)| - [x's label in B(y)] from
    the batch's label bits (zs_kernels.h, leaf rows) while a batch has at most 64 labels, and
    is computed as a path row past that: both give the slow reference's distances, with leaf
    labels the batch has and has not, and trees of one node."""
    rng = np.random.default_rng(n_labels)
    names = [f"l{k}" for k in range(n_labels)]

    def bush(n):
        kids = tuple((names[int(rng.integers(n_labels))], ()) for _ in range(n))
        return (names[int(rng.integers(n_labels))], kids + ((names[int(rng.integers(n_labels))], kids[:2]),))

    trees = [bush(int(rng.integers(0, 7))) for _ in range(30)] + [("zz", ()), (names[0], ())]
    _, forest, _ = ordered_forest(trees)
    n = len(trees)
    left, right = all_pairs(n)
    expected = [ref_tree_edit_distance(trees[i], trees[j]) for i, j in zip(left, right)]
    for kernel in KERNELS:
        assert distances(kernel, forest, left, right).tolist() == expected, kernel
