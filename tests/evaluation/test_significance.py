"""Approximate randomization, the paired bootstrap and its intervals
(spacy_agreement.evaluation.comparison.significance) against slow textbook implementations written
here (loops over shuffles and resamples, Python's own random numbers), on cases with a known
answer and on hypothesis-generated systems: p-values and interval ends agree within the
Monte-Carlo error; Holm's adjustment against statsmodels."""
import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_agreement.errors import BadOptionError
from spacy_agreement.evaluation.comparison.systems import compare_systems, merge_metrics, system_intervals
from spacy_agreement.evaluation.comparison.significance import (ComparisonSettings, IntervalSettings, adjust, bootstrap,
                                                     randomization_test)
from spacy_agreement.evaluation.unit_counts import from_rows, ratio
from spacy_agreement.signature import Settings


# --------------------------------------------------------------------- the textbook versions

def corpus_metric(rows, k):
    """Σ numerator / Σ denominator of column k over (numerators, denominators) rows."""
    num = sum(r[0][k] for r in rows)
    den = sum(r[1][k] for r in rows)
    return num / den if den else math.nan


def textbook_randomization(a_rows, b_rows, k, shuffles, seed):
    """Noreen's approximate randomization, one sentence at a time."""
    rng = random.Random(seed)
    observed = abs(corpus_metric(b_rows, k) - corpus_metric(a_rows, k))
    at_least = 0
    for _ in range(shuffles):
        sa, sb = [], []
        for ra, rb in zip(a_rows, b_rows):
            if rng.random() < 0.5:
                ra, rb = rb, ra
            sa.append(ra)
            sb.append(rb)
        at_least += abs(corpus_metric(sb, k) - corpus_metric(sa, k)) >= observed - 1e-12
    return (at_least + 1) / (shuffles + 1)


def textbook_bootstrap(a_rows, b_rows, k, resamples, seed, level=0.95):
    """The paired bootstrap: p (shifted to the null, two-sided) and percentile intervals of
    A, B and B − A."""
    rng = random.Random(seed)
    n = len(a_rows)
    observed = corpus_metric(b_rows, k) - corpus_metric(a_rows, k)
    da, db, dd = [], [], []
    for _ in range(resamples):
        pick = [rng.randrange(n) for _ in range(n)]
        va = corpus_metric([a_rows[i] for i in pick], k)
        vb = corpus_metric([b_rows[i] for i in pick], k)
        da.append(va)
        db.append(vb)
        dd.append(vb - va)
    p = (1 + sum(abs(d - observed) >= abs(observed) - 1e-12 for d in dd)) / (resamples + 1)
    tail = (1 - level) / 2

    def percentile(values):
        return tuple(np.quantile(values, [tail, 1 - tail]))

    return p, percentile(da), percentile(db), percentile(dd), np.std(dd), np.std(da)


def rows_of(correct, total):
    return [((c, 2 * c), (t, 2 * t)) for c, t in zip(correct, total)]


def counts_of(correct, total):
    correct, total = np.asarray(correct, dtype=float), np.asarray(total, dtype=float)
    return from_rows(("acc", "f"), range(len(total)), np.stack([correct, 2 * correct], 1),
                     np.stack([total, 2 * total], 1), [ratio, ratio])


# --------------------------------------------------------------------- known answers

def test_identical_systems_give_p_one_and_an_interval_at_zero():
    a = counts_of([3, 5, 7, 2, 9, 4] * 5, [10] * 30)
    result = compare_systems({"a": a, "b": a}, ComparisonSettings(shuffles=500, resamples=500))
    pair = result.pairs[0]
    assert pair.p_randomization == {"acc": 1.0, "f": 1.0}
    assert pair.p_bootstrap == {"acc": 1.0, "f": 1.0}
    assert pair.difference["acc"] == 0.0
    assert pair.interval["acc"].low == pair.interval["acc"].high == 0.0


def test_a_system_better_on_every_sentence_is_at_the_floor():
    """Randomized: 1/(R+1) (only the identity and the full swap are as extreme, 2 of 2^40
    arrangements); bootstrap: the difference is the same in every resample."""
    total = [10] * 40
    a = counts_of([5] * 40, total)
    b = counts_of([6] * 40, total)
    R = 999
    assert randomization_test(a, b, R, seed=3)["acc"] == pytest.approx(1 / (R + 1))
    boot = bootstrap({"a": a, "b": b}, IntervalSettings(resamples=R), [("a", "b")])
    assert boot.p_values[("a", "b")]["acc"] == pytest.approx(1 / (R + 1))
    assert boot.differences[("a", "b")]["acc"] == pytest.approx(0.1)


def test_few_sentences_are_enumerated_exactly():
    """2^5 = 32 arrangements ≤ the shuffles: the exact p-value, checked by enumeration."""
    correct_a, correct_b, total = [3, 8, 5, 9, 1], [4, 8, 7, 6, 2], [10, 10, 9, 12, 4]
    a, b = counts_of(correct_a, total), counts_of(correct_b, total)
    rows_a, rows_b = rows_of(correct_a, total), rows_of(correct_b, total)
    observed = abs(corpus_metric(rows_b, 0) - corpus_metric(rows_a, 0))
    extreme = 0
    for swaps in itertools.product([False, True], repeat=5):
        sa = [rb if s else ra for ra, rb, s in zip(rows_a, rows_b, swaps)]
        sb = [ra if s else rb for ra, rb, s in zip(rows_a, rows_b, swaps)]
        extreme += abs(corpus_metric(sb, 0) - corpus_metric(sa, 0)) >= observed - 1e-12
    assert randomization_test(a, b, 10000, seed=0)["acc"] == pytest.approx(extreme / 32)


def test_the_statistic_is_the_corpus_metric_not_a_mean_of_sentences():
    """A long sentence weighs more: the corpus LAS of A is (1 + 90) / (2 + 100)."""
    a = counts_of([1, 90], [2, 100])
    boot = bootstrap({"a": a}, IntervalSettings(resamples=10))
    assert boot.values["a"]["acc"] == pytest.approx(91 / 102)


# --------------------------------------------------------------------- against the textbook

systems = st.integers(min_value=12, max_value=40).flatmap(lambda n: st.tuples(
    st.lists(st.integers(1, 25), min_size=n, max_size=n),  # sentence lengths
    st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n),  # A's accuracy per sentence
    st.lists(st.floats(-0.3, 0.3), min_size=n, max_size=n),  # B's change
))


@settings(max_examples=12, deadline=None)
@given(systems, st.integers(0, 1000))
def test_p_values_and_intervals_agree_with_the_textbook(data, seed):
    total, acc, change = data
    correct_a = [round(t * a) for t, a in zip(total, acc)]
    correct_b = [min(t, max(0, round(t * (a + c)))) for t, a, c in zip(total, acc, change)]
    a, b = counts_of(correct_a, total), counts_of(correct_b, total)
    rows_a, rows_b = rows_of(correct_a, total), rows_of(correct_b, total)
    R = 2000
    mc = lambda p: 5 * math.sqrt(2 * max(p * (1 - p), 1 / R) / R) + 2 / R  # noqa: E731

    ours_ar = randomization_test(a, b, R, seed)["acc"]
    ref_ar = textbook_randomization(rows_a, rows_b, 0, R, seed + 1)
    assert abs(ours_ar - ref_ar) <= mc(ref_ar), (ours_ar, ref_ar)

    boot = bootstrap({"a": a, "b": b}, IntervalSettings(resamples=R, seed=seed), [("a", "b")])
    ref_p, ref_a, ref_b, ref_d, sd_d, sd_a = textbook_bootstrap(rows_a, rows_b, 0, R, seed + 1)
    assert abs(boot.p_values[("a", "b")]["acc"] - ref_p) <= mc(ref_p)
    ours_d = boot.difference_intervals[("a", "b")]["acc"]
    assert abs(ours_d.low - ref_d[0]) <= 0.35 * sd_d + 1e-9
    assert abs(ours_d.high - ref_d[1]) <= 0.35 * sd_d + 1e-9
    ours_a = boot.intervals["a"]["acc"]
    assert abs(ours_a.low - ref_a[0]) <= 0.35 * sd_a + 1e-9 and abs(ours_a.high - ref_a[1]) <= 0.35 * sd_a + 1e-9
    # the same metric under another name (the F column: 2c / 2t) gives the same answers
    assert randomization_test(a, b, R, seed)["f"] == ours_ar


def test_the_same_seed_gives_the_same_numbers_and_another_seed_other_ones():
    a = counts_of([3, 5, 7, 2, 9, 4, 6, 6, 1, 8] * 3, [10] * 30)
    b = counts_of([4, 5, 6, 3, 9, 5, 6, 7, 1, 8] * 3, [10] * 30)
    one = compare_systems({"a": a, "b": b}, ComparisonSettings(shuffles=300, resamples=300, seed=7)).to_dict()
    two = compare_systems({"a": a, "b": b}, ComparisonSettings(shuffles=300, resamples=300, seed=7)).to_dict()
    other = compare_systems({"a": a, "b": b}, ComparisonSettings(shuffles=300, resamples=300, seed=8)).to_dict()
    assert one == two
    assert one["pairs"] != other["pairs"]


def test_holm_and_bonferroni_equal_statsmodels():
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    p = [0.01, 0.04, 0.03, 0.2, 0.005]
    for ours, theirs in (("holm", "holm"), ("bonferroni", "bonferroni")):
        assert adjust(p, ours) == pytest.approx(list(multitest.multipletests(p, method=theirs)[1]))
    assert adjust(p, "none") == p
    assert math.isnan(adjust([0.01, math.nan, 0.02], "holm")[1])
    assert adjust([0.01, math.nan, 0.02], "holm")[::2] == pytest.approx([0.02, 0.02])
    # an undefined test is not one of the family (m = 2), and no adjusted p-value exceeds 1
    bonferroni = adjust([0.01, math.nan, 0.02], "bonferroni")
    assert math.isnan(bonferroni[1]) and bonferroni[::2] == pytest.approx([0.02, 0.04])
    assert adjust([0.6, 0.7], "holm") == [1.0, 1.0] and adjust([0.6, 0.7], "bonferroni") == [1.0, 1.0]


def test_three_systems_every_pair_adjusted():
    rng = np.random.default_rng(0)
    total = rng.integers(5, 20, 50)
    systems = {name: counts_of(np.minimum(total, rng.binomial(total, q)), total)
               for name, q in (("a", 0.7), ("b", 0.75), ("c", 0.7))}
    result = compare_systems(systems, ComparisonSettings(shuffles=500, resamples=500))
    assert [(p.a, p.b) for p in result.pairs] == [("a", "b"), ("a", "c"), ("b", "c")]
    raw = [p.p_randomization["acc"] for p in result.pairs]
    assert [p.p_randomization_adjusted["acc"] for p in result.pairs] == pytest.approx(adjust(raw, "holm"))
    data = result.to_dict()
    assert set(data["pairs"][0]["metrics"]["acc"]) == {
        "difference", "ci_low", "ci_high", "p_value_randomization", "p_value_bootstrap",
        "p_value_randomization_adjusted", "p_value_bootstrap_adjusted"}


def test_units_set_aside_by_any_system_are_left_out_for_all():
    a = from_rows(("acc",), [0, 1, 2, 3], [[1], [2], [3], [4]], [[5]] * 4, [ratio], set_aside={4: "tokens differ"})
    b = from_rows(("acc",), [0, 2, 3, 4], [[1], [3], [4], [5]], [[5]] * 4, [ratio], set_aside={1: "failed parse"})
    result = compare_systems({"a": a, "b": b}, ComparisonSettings(shuffles=50, resamples=50))
    assert result.units == 3
    assert sorted(result.set_aside.values()) == ["a: tokens differ", "b: failed parse"]


def test_undefined_metrics_are_left_out_and_said():
    a = from_rows(("acc", "lcp"), range(3), [[1, 0], [2, 0], [3, 0]], [[5, 0]] * 3, [ratio, ratio])
    result = compare_systems({"a": a, "b": a}, ComparisonSettings(shuffles=50, resamples=50))
    assert result.metrics == ("acc",) and result.not_defined == ("lcp",)


def test_interval_of_a_metric_undefined_in_more_than_the_tail_share_of_resamples_is_nan():
    """A metric undefined in some resamples (the module docstring's choice): the interval is that
    of the defined resamples while at most the tail share (1 − c)/2 of them is undefined, else
    ``nan``. Only sentence 0 has a denominator, so a resample of the 4 sentences is undefined
    when it misses sentence 0: with probability (3/4)⁴ ≈ 0.316, between the tail share 0.25 and
    1 − c = 0.5 at c = 0.5 (nan), above the tail 0.4 at c = 0.2 (the defined resamples: 1/2)."""
    a = from_rows(("acc",), range(4), [[1], [0], [0], [0]], [[2], [0], [0], [0]], [ratio])
    wide = bootstrap({"a": a}, IntervalSettings(resamples=1000, confidence=0.5))
    share = wide.undefined["acc"] / 1000
    assert abs(share - 0.75 ** 4) < 4 * math.sqrt(0.75 ** 4 * (1 - 0.75 ** 4) / 1000)
    assert 0.25 < share < 0.5
    assert wide.values["a"]["acc"] == 0.5
    assert math.isnan(wide.intervals["a"]["acc"].low) and math.isnan(wide.intervals["a"]["acc"].high)
    narrow = bootstrap({"a": a}, IntervalSettings(resamples=1000, confidence=0.2))
    assert narrow.undefined["acc"] == wide.undefined["acc"]  # the same seed, the same resamples
    assert (narrow.intervals["a"]["acc"].low, narrow.intervals["a"]["acc"].high) == (0.5, 0.5)


def test_undefined_resamples_and_shuffles_count_as_extreme():
    """The module docstring's choice: a resample or shuffle where the metric is undefined counts
    as at least as extreme as the observation. Bootstrap: only sentence 0 has a denominator, so
    every defined resample has exactly the observed difference (not extreme: |d* − d| = 0 < |d|)
    and p = (1 + undefined resamples) / (1 + resamples). Randomization, exact over the 2² swaps
    of two sentences (A's denominator on sentence 0 only, B's on 1 only): swapping one sentence
    leaves a system without a denominator (undefined, extreme), swapping none or both gives ±d:
    p = 4/4."""
    a = from_rows(("acc",), range(4), [[1], [0], [0], [0]], [[2], [0], [0], [0]], [ratio])
    b = from_rows(("acc",), range(4), [[2], [0], [0], [0]], [[2], [0], [0], [0]], [ratio])
    found = bootstrap({"a": a, "b": b}, IntervalSettings(resamples=1000), pairs=[("a", "b")])
    assert found.differences[("a", "b")]["acc"] == 0.5 and 200 < found.undefined["acc"] < 400
    assert found.p_values[("a", "b")]["acc"] == pytest.approx((1 + found.undefined["acc"]) / 1001, abs=1e-12)
    a = from_rows(("acc",), range(2), [[1], [0]], [[2], [0]], [ratio])
    b = from_rows(("acc",), range(2), [[0], [1]], [[0], [4]], [ratio])
    assert randomization_test(a, b, shuffles=1000, seed=1)["acc"] == 1.0


def test_intervals_of_one_system_and_merged_evaluations():
    a = counts_of([8, 9, 7, 10, 6] * 6, [10] * 30)
    found = system_intervals(a, IntervalSettings(resamples=400))
    assert found["acc"].low < 0.8 < found["acc"].high
    other = from_rows(("la",), range(30), [[1]] * 30, [[2]] * 30, [ratio])
    merged = merge_metrics(a, other)
    assert merged.metrics == ("acc", "f", "la") and merged.corpus()["la"] == 0.5


def test_settings_and_signature_round_trip():
    s = ComparisonSettings(shuffles=2000, resamples=500, seed=3, confidence=0.9, interval="basic",
                           correction="bonferroni")
    text = s.signature()
    assert text.startswith("compare|") and "ar:2000" in text and "boot:500" in text and "seed:3" in text
    assert ComparisonSettings.from_signature(text) == s
    assert IntervalSettings().signature().startswith("ci|boot:1000|seed:1|level:0.95|method:percentile")
    with pytest.raises(BadOptionError, match="correction"):
        ComparisonSettings(correction="fdr")
    with pytest.raises(BadOptionError, match="confidence"):
        IntervalSettings(confidence=95)
    assert isinstance(s, Settings)


# --------------------------------------------------------------------- the three intervals

def textbook_interval(method, distribution, observed, jackknife, level):
    """Percentile, basic and BCa intervals (Efron & Tibshirani 1993, §13.3, §13.4 and §14.3) of a
    bootstrap distribution: percentile: its α/2 and 1 − α/2 quantiles; basic: 2θ̂ minus them,
    swapped; BCa: the quantiles at Φ(z₀ + (z₀ + z)/(1 − a(z₀ + z))) for z = z_{α/2}, z_{1−α/2},
    with z₀ = Φ⁻¹(share of θ* below θ̂, ties counting half) and the acceleration
    a = Σ(θ̄₍.₎ − θ₍ᵢ₎)³ / (6 (Σ(θ̄₍.₎ − θ₍ᵢ₎)²)^{3/2}) from the jackknife values θ₍ᵢ₎ (eq. 14.15).
    Quantiles interpolate linearly between order statistics (numpy's default)."""
    from scipy.stats import norm

    tail = (1 - level) / 2
    if method == "percentile":
        return tuple(np.percentile(distribution, [100 * tail, 100 * (1 - tail)]))
    if method == "basic":
        low, high = np.percentile(distribution, [100 * tail, 100 * (1 - tail)])
        return 2 * observed - high, 2 * observed - low
    below = (np.sum(distribution < observed) + np.sum(distribution <= observed)) / (2 * len(distribution))
    z0 = norm.ppf(below)
    gaps = np.mean(jackknife) - np.asarray(jackknife)
    a = np.sum(gaps ** 3) / (6 * np.sum(gaps ** 2) ** 1.5)
    ends = [norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))) for z in (norm.ppf(tail), norm.ppf(1 - tail))]
    return tuple(np.percentile(distribution, [100 * e for e in ends]))


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
@pytest.mark.parametrize("seed", [0, 7])
def test_intervals_are_scipys_and_the_textbooks_on_the_same_resamples(method, seed):
    """Each system's interval and the difference's, for every method, equal those of
    scipy.stats.bootstrap run here on the sentences' counts themselves (paired: the same
    resampled sentences for every array; the statistic the corpus metric Σc / Σt, not the
    package's weights over sentence indices): the same seed draws the same resamples (one
    batch), so they agree to rounding; and both equal the textbook interval computed here from
    that bootstrap distribution and a jackknife written out below."""
    from scipy import stats

    from spacy_agreement.evaluation.comparison.significance import _rng_argument

    rng = np.random.default_rng(100 + seed)
    n, R, level = 40, 999, 0.9
    total = rng.integers(3, 20, n)
    correct_a, correct_b = rng.binomial(total, 0.7), rng.binomial(total, 0.75)
    a, b = counts_of(correct_a, total), counts_of(correct_b, total)
    boot = bootstrap({"a": a, "b": b}, IntervalSettings(resamples=R, seed=seed, confidence=level, interval=method),
                     [("a", "b")])
    ca, cb, t = (np.asarray(v, dtype=float) for v in (correct_a, correct_b, total))

    def metric_a(x, y, axis=-1):
        return x.sum(axis=axis) / y.sum(axis=axis)

    def difference(xa, xb, y, axis=-1):
        return (xb.sum(axis=axis) - xa.sum(axis=axis)) / y.sum(axis=axis)

    cases = [(boot.intervals["a"]["acc"], metric_a, (ca, t)),
             (boot.difference_intervals[("a", "b")]["acc"], difference, (ca, cb, t))]
    for ours, statistic, data in cases:
        ref = stats.bootstrap(data, statistic, paired=True, vectorized=True, n_resamples=R, confidence_level=level,
                              method=method, **{_rng_argument(stats.bootstrap): seed})
        assert ours.low == pytest.approx(ref.confidence_interval.low, rel=1e-12, abs=1e-14)
        assert ours.high == pytest.approx(ref.confidence_interval.high, rel=1e-12, abs=1e-14)
        observed = statistic(*data)
        jackknife = [statistic(*(np.delete(x, i) for x in data)) for i in range(n)]
        low, high = textbook_interval(method, ref.bootstrap_distribution, observed, jackknife, level)
        assert (ours.low, ours.high) == pytest.approx((low, high), rel=1e-12, abs=1e-14)
        assert low < observed < high  # these data: an interval around the observation


def test_the_three_methods_give_different_intervals():
    """Skewed data (few long sentences, accuracy near 1): basic and BCa are not the percentile
    interval (a method option that fell through to the default would be caught here)."""
    rng = np.random.default_rng(3)
    total = np.concatenate([rng.integers(2, 5, 35), [60, 80, 90]])
    correct = np.minimum(total, rng.binomial(total, 0.93))
    a = counts_of(correct, total)
    found = {method: system_intervals(a, IntervalSettings(resamples=500, interval=method))["acc"]
             for method in ("percentile", "basic", "bca")}
    ends = {method: (round(i.low, 12), round(i.high, 12)) for method, i in found.items()}
    assert len(set(ends.values())) == 3, ends
