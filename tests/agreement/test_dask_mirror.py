"""The Dask backend takes the cheaper orientation of each pair (``mirror``) as the threads
backend does, and both give identical sums on trees where the orientation matters."""
import numpy as np
import pytest

import spacy_agreement as sa
from spacy_agreement import _core
from spacy_agreement.agreement.engine import expected_sums, expected_sums_dask, mirror_arrays
from spacy_agreement.trees import Forest
from spacy_agreement.vocab import LabelVocab

distributed = pytest.importorskip("distributed")


def _lopsided_trees():
    """Dependency trees whose Zhang–Shasha cost differs a lot between the two orientations:
    a token with many leaf dependents on the left of a deep chain, and the reverse."""
    heads = [
        [2, 0, 2, 3, 4, 5, 6],      # a chain going right
        [7, 7, 7, 7, 7, 7, 0],      # a flat fan
        [0, 1, 2, 3, 4, 5, 6],      # a chain going right from the first token
        [2, 3, 4, 5, 6, 7, 0],      # a chain going left
        [0, 1, 1, 3, 3, 5, 5],      # a right comb
        [3, 3, 5, 5, 7, 7, 0],      # a left comb
    ]
    labels = ["a", "b", "a", "c", "b", "a", "c"]
    return [sa.DependencyTree.create(h, labels) for h in heads]


@pytest.fixture(scope="module")
def client():
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as c:
        yield c


def test_the_orientation_matters_on_these_trees():
    vocab = LabelVocab()
    ordered = [t.to_ordered(vocab)[0] for t in _lopsided_trees()]
    *_, left, right = mirror_arrays(ordered)
    cheaper_mirrored = right[:, None] * right[None, :] < left[:, None] * left[None, :]
    assert cheaper_mirrored.any() and not cheaper_mirrored.all()


def test_dask_passes_the_mirror_and_matches_threads(client, monkeypatch):
    vocab = LabelVocab()
    ordered = [t.to_ordered(vocab)[0] for t in _lopsided_trees()]
    forest = Forest.from_trees(ordered)
    sizes = np.ascontiguousarray(forest.sizes, dtype=np.int64)
    counts = np.arange(1, len(ordered) + 1, dtype=np.float64)
    mirrors = []
    real = _core.expected_sums_rows

    def spy(*args, **kwargs):
        mirrors.append(args[11] if len(args) > 11 else None)
        return real(*args, **kwargs)

    monkeypatch.setattr(_core, "expected_sums_rows", spy)  # the in-process workers see it too
    threads = expected_sums(forest, sizes, counts, n_threads=2, chunks=3, forest_trees=ordered)
    n_threads_calls = len(mirrors)
    dask = expected_sums_dask(forest, sizes, counts, scheduler=client, chunks=3, forest_trees=ordered)
    assert n_threads_calls and len(mirrors) > n_threads_calls
    assert all(m is not None for m in mirrors), "a backend computed without the mirrored forest"
    np.testing.assert_array_equal(dask, threads)
    unmirrored = real(*forest.arrays(), sizes, counts, 0, len(ordered), 1, None, None)
    np.testing.assert_array_equal(dask, unmirrored)


def test_alpha_dask_equals_threads_on_lopsided_trees(client):
    trees = _lopsided_trees()
    items = [[trees[i], trees[j], trees[k]] for i, j, k in [(0, 1, 2), (3, 4, 5), (0, 3, 5), (1, 2, 4), (2, 2, 3)]]
    threads = sa.alpha(items, n_threads=2)
    dask = sa.alpha(items, backend="dask", scheduler=client)
    serial = sa.alpha(items, backend="serial")
    assert dask.expected == threads.expected and dask.observed == threads.observed
    for kind in ("plain", "diff", "norm"):
        assert dask[kind] == threads[kind]
        assert dask[kind] == pytest.approx(serial[kind], rel=1e-12)


def test_repeated_calls_on_one_client_keep_their_data(client):
    """Equal inputs scattered by one call must not share keys with the next call's (an earlier
    call's release could drop them: 'lost dependencies', about one call in 60 before the fix)."""
    trees = _lopsided_trees()
    items = [[trees[0], trees[1], trees[2]], [trees[3], trees[1], trees[0]]]
    first = sa.alpha(items, backend="dask", scheduler=client)
    for _ in range(60):
        again = sa.alpha(items, backend="dask", scheduler=client)
        assert again.expected == first.expected
