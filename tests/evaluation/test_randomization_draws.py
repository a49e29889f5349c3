"""Approximate randomization draws SciPy's shuffles itself (issue 42: 10,000 shuffles of 16k
sentences in ≤ 2 s with the same p-values). The reference here is
:func:`scipy.stats.permutation_test` itself, called as 0.3 called it, and the textbook's
Monte-Carlo loop over the same masks."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from spacy_agreement.evaluation.comparison.randomization import scipy_seeds_generator, swap_masks
from spacy_agreement.evaluation.comparison.significance import randomization_test
from spacy_agreement.evaluation.unit_counts import from_rows, ratio


def _scipy_p_values(a, b, shuffles, seed, batch):
    """0.3's call: SciPy permutes each sentence's pair of analyses (index i for A, n + i for B)."""
    n = len(a)
    diff_num, diff_den = b.numerators - a.numerators, b.denominators - a.denominators
    sums = (a.numerators.sum(axis=0), a.denominators.sum(axis=0), b.numerators.sum(axis=0), b.denominators.sum(axis=0))

    def statistic(x, y, axis=-1):
        swapped = (np.asarray(x) >= n).astype(float)
        moved_num, moved_den = swapped @ diff_num, swapped @ diff_den
        with np.errstate(all="ignore"):
            d = np.abs(a.values(sums[2] - moved_num, sums[3] - moved_den) - a.values(sums[0] + moved_num,
                                                                                 sums[1] + moved_den))
        return np.where(np.isnan(d), np.inf, d)

    key = "rng" if scipy_seeds_generator() else "random_state"
    with np.errstate(all="ignore"):
        res = stats.permutation_test((np.arange(n), np.arange(n) + n), statistic, permutation_type="samples",
                                     vectorized=True, n_resamples=shuffles, alternative="greater", batch=batch,
                                     **{key: seed})
    observed = statistic(np.arange(n), None)
    return [float(min(1.0, p)) if np.isfinite(o) else float("nan") for p, o in zip(np.ravel(res.pvalue), observed)]


def _systems(n, m, seed, floats, empty):
    rng = np.random.default_rng(seed)
    den = rng.integers(0 if empty else 1, 6, size=(n, m)).astype(float)
    a = rng.binomial(den.astype(int), 0.7).astype(float)
    b = rng.binomial(den.astype(int), 0.75).astype(float)
    if floats:  # leaf-ancestor's sentence scores are not counts
        a, b = a * rng.random((n, m)), b * rng.random((n, m))
    names = [f"m{k}" for k in range(m)]
    return (from_rows(names, range(n), a, den, [ratio] * m), from_rows(names, range(n), b, den, [ratio] * m))


@pytest.mark.parametrize("n, m, floats, empty, shuffles, seed", [
    (5, 3, False, False, 1000, 1),       # exact: every one of the 2^5 arrangements
    (10, 2, True, True, 1024, 3),        # exact at the boundary (2^10 = 1024 shuffles)
    (11, 2, True, False, 1024, 3),       # random just past it
    (14, 3, False, False, 1000, 1),      # random: 1000 < 2^14
    (40, 4, True, False, 999, 7),        # batches of uneven size, float statistics
    (300, 5, True, True, 2000, 3),       # undefined metrics in some shuffles
    (1200, 2, False, True, 700, 11),     # several batches (4,000,000 cells each)
    (9, 3, False, False, 100, None),     # no seed: only the same shape, checked below
])
def test_the_p_values_are_scipys_on_the_same_seed(n, m, floats, empty, shuffles, seed):
    a, b = _systems(n, m, 1 if seed is None else seed, floats, empty)
    ours = randomization_test(a, b, shuffles, seed)
    assert len(ours) == m
    if seed is None:
        return
    theirs = _scipy_p_values(a, b, shuffles, seed, max(1, 4_000_000 // n))
    assert list(ours.values()) == pytest.approx(theirs, nan_ok=True, rel=0, abs=0)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 30), batch=st.integers(1, 40), shuffles=st.integers(1, 90), seed=st.integers(0, 2 ** 31))
def test_the_swaps_are_the_ones_scipys_generator_draws(n, batch, shuffles, seed):
    """Which sentences each shuffle swaps, against SciPy's way of drawing them (a Generator
    permuting each sentence's two indices, ``batch`` full rows at a time)."""
    rng = np.random.default_rng(seed)
    rows = []
    tiled = np.tile(np.arange(2), (min(batch, shuffles), n, 1))
    for k in range(0, shuffles, min(batch, shuffles)):
        rows.append(rng.permuted(tiled, axis=-1)[:min(batch, shuffles - k), :, 0] == 1)
    ours = np.concatenate(list(swap_masks(n, shuffles, batch, seed, generator=True)))
    assert np.array_equal(ours, np.concatenate(rows))


def test_the_swaps_of_older_scipy_are_its_argsort_draws():
    """SciPy before 1.15 seeds a RandomState and argsorts two uniform numbers per sentence."""
    n, shuffles, batch, seed = 7, 23, 10, 5
    state = np.random.RandomState(seed)
    expected = np.concatenate([np.argsort(state.random_sample(size=(min(batch, shuffles - k), n, 2)), axis=-1)[..., 0] == 1
                               for k in range(0, shuffles, batch)])
    ours = np.concatenate(list(swap_masks(n, shuffles, batch, seed, generator=False)))
    assert np.array_equal(ours, expected)


def test_one_sentence_is_its_two_arrangements():
    """SciPy refuses a single sentence; its two arrangements differ by the same amount: p = 1."""
    a, b = _systems(1, 2, 3, False, False)
    assert list(randomization_test(a, b, 1000, 1).values()) == [1.0, 1.0]


def test_the_p_value_counts_the_shuffles_as_the_textbook_does():
    """(1 + shuffles with |d*| ≥ |d|) / (1 + shuffles), over the same masks, written out."""
    a, b = _systems(60, 2, 4, False, False)
    shuffles, seed = 500, 9
    masks = np.concatenate(list(swap_masks(60, shuffles, 10_000, seed)))

    def metric(num, den):
        return num.sum(axis=0) / den.sum(axis=0)

    observed = np.abs(metric(b.numerators, b.denominators) - metric(a.numerators, a.denominators))
    extreme = np.zeros(2)
    for mask in masks:
        w = mask[:, None]
        na, da = np.where(w, b.numerators, a.numerators), np.where(w, b.denominators, a.denominators)
        nb, db = np.where(w, a.numerators, b.numerators), np.where(w, a.denominators, b.denominators)
        extreme += np.abs(metric(nb, db) - metric(na, da)) >= observed * (1 - 1e-12)
    assert list(randomization_test(a, b, shuffles, seed).values()) == pytest.approx((extreme + 1) / (shuffles + 1))


@pytest.mark.parametrize("n, batch, shuffles", [(7, 3, 10), (1, 1, 5), (5, 5, 13), (16, 4, 9)])
def test_the_raw_words_are_the_generators_32_bit_draws(n, batch, shuffles):
    """The swaps read from raw 64-bit draws (a half carried into the next batch when a batch
    takes an odd number of words) are those of ``Generator.integers`` drawing 32-bit words."""
    rng = np.random.default_rng(11)
    expected = np.concatenate([(rng.integers(0, 1 << 32, size=(batch, n), dtype=np.uint32)[:min(batch, shuffles - k)]
                                & 1) == 0 for k in range(0, shuffles, batch)])
    ours = np.concatenate(list(swap_masks(n, shuffles, batch, 11, generator=True)))
    assert np.array_equal(ours, expected)


def test_the_seeding_read_from_the_version_is_the_signatures():
    """``scipy_seeds_generator`` reads SciPy's version (no scipy.stats import); the signature of
    ``permutation_test`` says the same."""
    import inspect

    from scipy import stats

    assert scipy_seeds_generator() == ("rng" in inspect.signature(stats.permutation_test).parameters)
