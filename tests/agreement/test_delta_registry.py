"""The δ registry: a new distance for α is one ``register_delta`` call, picked up by α in
every backend, by its estimators and by the CLI; the built-in δ are one definition shared
by the Cython kernels and the Python side."""
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement import _core
from spacy_agreement.agreement.deltas import DELTAS, delta_names, register_delta, unregister_delta
from spacy_agreement.agreement.estimate import bootstrap_alpha, sampled_alpha
from spacy_agreement.cli import app

from ..reference import ref_dependency_to_tuple, ref_krippendorff_alpha, ref_tree_edit_distance
from ..strategies import dependency_heads


@pytest.fixture
def sqrt_delta():
    """A test-only δ: the square root of TED (a plugin, not computed by the kernels)."""
    register_delta("sqrt", lambda ted, size_a, size_b: np.sqrt(ted), "square root of TED (test plugin)")
    yield DELTAS["sqrt"]
    unregister_delta("sqrt")


def corpus_items(pairs):
    return [[sa.DependencyTree.create(*a) for a in item] for item in pairs]


def test_builtin_deltas_are_one_definition():
    assert delta_names()[:3] == _core.KERNEL_DELTAS == ("plain", "diff", "norm")
    ted = np.array([0.0, 3.0, 4.0])
    a, b = np.array([5, 4, 0], dtype=np.int64), np.array([3, 4, 0], dtype=np.int64)
    assert DELTAS["plain"].values(ted, a, b).tolist() == [0, 3, 4]
    assert DELTAS["diff"].values(ted, a, b).tolist() == [-2, 3, 4]
    assert DELTAS["norm"].values(ted, a, b).tolist() == [0, 3 / 8, 0]  # 0 when both sizes are 0
    with pytest.raises(ValueError, match="out of range"):
        _core.delta_values(3, ted, a, b)
    with pytest.raises(ValueError, match="taken"):
        register_delta("plain", lambda t, x, y: t)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(dependency_heads(max_tokens=6), min_size=2, max_size=3), min_size=2, max_size=5))
def test_a_plugin_delta_in_every_backend_matches_the_reference(items):
    register_delta("sqrt", lambda ted, size_a, size_b: np.sqrt(ted))
    try:
        tuples = [[ref_dependency_to_tuple(*a) for a in item] for item in items]
        expected = ref_krippendorff_alpha(tuples, lambda x, y: math.sqrt(ref_tree_edit_distance(x, y)))
        trees = corpus_items(items)
        for backend in ("threads", "serial"):
            with pytest.warns(sa.UndefinedMetricWarning) if math.isnan(expected) else _no_warning():
                result = sa.alpha(trees, backend=backend)
            if math.isnan(expected):
                assert math.isnan(result["sqrt"])
            else:
                assert result["sqrt"] == pytest.approx(expected, rel=1e-9, abs=1e-9)
                assert result.alpha_sqrt == result["sqrt"]
    finally:
        unregister_delta("sqrt")


class _no_warning:
    def __enter__(self):
        import warnings

        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("ignore", sa.UndefinedMetricWarning)  # other δ may be undefined

    def __exit__(self, *exc):
        self._catch.__exit__(*exc)
        return False


def test_the_generic_pair_path_equals_the_kernels():
    """A plugin that repeats δplain goes through the chunked pair path: the same α."""
    register_delta("plain_again", lambda ted, size_a, size_b: ted)
    try:
        rng = np.random.default_rng(3)
        items = []
        for _ in range(30):
            n = int(rng.integers(2, 9))
            heads = [[int(rng.integers(0, n + 1)) if k else 0 for k in range(n)] for _ in range(3)]
            items.append([sa.DependencyTree.create([h if h != i + 1 else 0 for i, h in enumerate(hs)],
                                                   ["a", "b", "c", "d", "e", "f", "g", "h"][:n]) for hs in heads])
        for backend in ("threads", "serial"):
            result = sa.alpha(items, backend=backend)
            assert result["plain_again"] == pytest.approx(result["plain"], rel=1e-12)
            assert result.expected["plain_again"] == pytest.approx(result.expected["plain"], rel=1e-12)
        assert sa.alpha(items, deltas=["norm"]).alphas.keys() == {"norm"}
    finally:
        unregister_delta("plain_again")


def test_a_plugin_delta_reaches_the_cli_and_the_estimators(tmp_path, sqrt_delta):
    row = "{}\tw{}\t_\tX\t_\t_\t{}\t{}\t_\t_\n"
    a = "".join(row.format(k, k, h, r) for k, (h, r) in enumerate([(2, "x"), (0, "root"), (2, "y")], 1)) + "\n"
    b = "".join(row.format(k, k, h, r) for k, (h, r) in enumerate([(3, "x"), (0, "root"), (2, "z")], 1)) + "\n"
    c = "".join(row.format(k, k, h, r) for k, (h, r) in enumerate([(0, "root"), (1, "x"), (1, "y")], 1)) + "\n"
    first, second = tmp_path / "a.conll", tmp_path / "b.conll"
    first.write_text(a + c + a, encoding="utf-8")
    second.write_text(b + c + a, encoding="utf-8")
    out = CliRunner().invoke(app, ["alpha", str(first), str(second), "--json"])
    assert out.exit_code == 0, out.output
    values = json.loads(out.stdout)
    corpus = sa.load_parallel_files([first, second])
    trees = [[item[n] for n in corpus.annotators] for item in corpus.items]
    tuples = [[ref_dependency_to_tuple(t.heads.tolist(), t.deprels) for t in item] for item in trees]
    expected = ref_krippendorff_alpha(tuples, lambda x, y: math.sqrt(ref_tree_edit_distance(x, y)))
    assert values["alpha_sqrt"] == pytest.approx(expected, rel=1e-9)
    assert "expected_sqrt" in values and values["alpha_method"] == "exact"
    sampled = sampled_alpha(corpus, pairs=2000)
    assert sampled.method == "sampled pairs" and "sqrt" in sampled.low
    # The bootstrap over items (De fixed): the items are (a, b), (c, c), (a, a), so a resample's Do
    # is k/3 of the first item's δ² = TED(a, b) when it holds the first item k times (k ~ Bin(3, 1/3)),
    # and Do = TED(a, b)/3 for the data: α* = 1 - k(1 - α). Its 2.5% quantile is α* at k = 3,
    # 3α - 2 (P(k = 3) = 1/27 > 2.5%; of 5000 resamples about 185 ± 13 have k = 3 and the quantile
    # needs 126), its 97.5% quantile α* at k = 0, 1 (P(k = 0) = 8/27).
    boot = bootstrap_alpha(sa.alpha(corpus), samples=5000)
    assert boot.low["sqrt"] == pytest.approx(3 * expected - 2, rel=1e-9, abs=1e-12)
    assert boot.high["sqrt"] == 1.0
