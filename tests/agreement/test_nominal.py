"""Agreement on categories from a coded matrix (:mod:`spacy_agreement.agreement.nominal`), each
figure checked against a computation that does not use the module: the ``krippendorff``
package and Krippendorff's (2011) worked example for α, a coincidence matrix built here pair by
pair (his definition), NLTK and scikit-learn for Cohen's κ, statsmodels for Fleiss' κ, and a
confusion matrix built here with numpy for category-specific agreement.

Codes have shape (annotators, units); ``-1`` is a missing value."""
import math
import warnings
from collections import defaultdict

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_agreement.agreement import kappa, nominal
from spacy_agreement.errors import UndefinedMetricWarning
from tests.helpers import krippendorff_nominal

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the nominal example with
# missing values: observers A-D (rows) over 12 units; "." is a missing value.
KRIPPENDORFF_2011 = [
    "1 2 3 3 2 1 4 1 2 . . .",  # A
    "1 2 3 3 2 2 4 1 2 5 . 3",  # B
    ". 3 3 3 2 3 4 2 2 5 1 .",  # C
    "1 2 3 3 2 4 4 1 2 5 1 .",  # D
]


def paper_codes():
    """The example as codes: value v is category v - 1, "." is -1."""
    return np.array([[-1 if v == "." else int(v) - 1 for v in row.split()] for row in KRIPPENDORFF_2011])


def as_reliability(codes):
    """Codes as the ``krippendorff`` package's reliability data (nan: missing)."""
    data = np.asarray(codes, dtype=float)
    return np.where(data < 0, np.nan, data)


def package_alpha(codes):
    """``krippendorff.alpha`` (nominal): tests/helpers.py ``krippendorff_nominal``."""
    return krippendorff_nominal(as_reliability(codes))


def coincidences(codes):
    """Krippendorff's coincidence matrix by its definition, pair by pair: every ordered pair of
    values (c, k) two different annotators gave a unit with m_u ≥ 2 values adds 1 / (m_u - 1)
    to o_ck. Returns {(c, k): o_ck}."""
    out = defaultdict(float)
    codes = np.asarray(codes)
    for u in range(codes.shape[1]):
        values = [int(v) for v in codes[:, u] if v >= 0]
        m = len(values)
        if m < 2:
            continue
        for i in range(m):
            for j in range(m):
                if i != j:
                    out[values[i], values[j]] += 1 / (m - 1)
    return dict(out)


def reference(codes):
    """α, observed agreement and per-category o_cc / n_c from :func:`coincidences`
    (Krippendorff 2011, nominal δ): α = 1 - (n - 1) Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k."""
    o = coincidences(codes)
    n_c = defaultdict(float)
    for (c, _), value in o.items():
        n_c[c] += value
    n = sum(n_c.values())
    observed_d = sum(v for (c, k), v in o.items() if c != k)
    expected_d = sum(n_c[c] * n_c[k] for c in n_c for k in n_c if c != k)
    alpha = math.nan if n == 0 or expected_d == 0 else 1 - (n - 1) * observed_d / expected_d
    agree = math.nan if n == 0 else sum(v for (c, k), v in o.items() if c == k) / n
    specific = {c: o.get((c, c), 0.0) / n_c[c] for c in n_c}
    return alpha, agree, specific


@st.composite
def coded_matrices(draw, min_annotators=2, max_annotators=5, max_units=60, missing=True):
    """(codes, V): 2-5 annotators, 1-60 units, 1-8 categories, missing values at a random rate."""
    annotators = draw(st.integers(min_annotators, max_annotators))
    units = draw(st.integers(1, max_units))
    v = draw(st.integers(1, 8))
    weight = draw(st.integers(0, 4)) if missing else 0  # how many "missing" tickets per draw
    element = st.sampled_from([-1] * weight + list(range(v)))
    flat = draw(st.lists(element, min_size=annotators * units, max_size=annotators * units))
    return np.array(flat, dtype=np.int64).reshape(annotators, units), v


# --- Krippendorff's α ---------------------------------------------------------------------------

def _forced_closed_form(codes, v):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(nominal, "PACKAGE_CELLS", 0)
        return nominal.value_alpha(codes, v)


def _routes(codes, v):
    """α by every route, as (value, engine or None): the closed form (with and without V),
    and value_alpha by both engines (the package where it fits; PACKAGE_CELLS = 0 forces the
    closed form)."""
    return {"nominal_alpha": lambda: (nominal.nominal_alpha(codes), None),
            "nominal_alpha V": lambda: (nominal.nominal_alpha(codes, v), None),
            "value_alpha": lambda: nominal.value_alpha(codes, v),
            "value_alpha no V": lambda: nominal.value_alpha(codes),
            "value_alpha PACKAGE_CELLS=0": lambda: _forced_closed_form(codes, v)}


@settings(max_examples=60, deadline=None)
@given(coded_matrices())
def test_alpha_equals_krippendorff_package(case):
    codes, v = case
    expected = package_alpha(codes)
    for route, compute in _routes(codes, v).items():
        if math.isnan(expected):  # the package raises or gives nan: nan with one warning
            with pytest.warns(UndefinedMetricWarning):
                value, _ = compute()
            assert math.isnan(value), route
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("error", UndefinedMetricWarning)  # defined: no warning
            value, engine = compute()
        assert value == pytest.approx(expected, abs=1e-9), route
        if route == "value_alpha PACKAGE_CELLS=0":
            assert engine == "closed form"
        elif engine is not None:  # small and defined: the package is value_alpha's engine
            assert engine == "krippendorff", route
    if not math.isnan(expected):  # the pair-by-pair coincidence matrix (the reference below) agrees
        assert reference(codes)[0] == pytest.approx(expected, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(coded_matrices())
def test_observed_and_category_agreement_equal_coincidences(case):
    codes, v = case
    _, agree, specific = reference(codes)
    if math.isnan(agree):
        with pytest.warns(UndefinedMetricWarning):
            assert math.isnan(nominal.observed_agreement(codes, v))
    else:
        assert nominal.observed_agreement(codes, v) == pytest.approx(agree, abs=1e-12)
    got = nominal.category_agreement(codes, v)
    assert got.shape == (v,)
    for c in range(v):
        if c in specific:
            assert got[c] == pytest.approx(specific[c], abs=1e-12)
        else:  # no pairable value of c
            assert math.isnan(got[c])


@pytest.mark.parametrize("codes", [
    np.array([[0, -1, -1], [-1, 1, -1]]),  # no unit has two values: the package raises
    np.full((3, 4), -1),  # nothing coded at all
    np.array([[2, 2, -1], [2, -1, 2]]),  # one category: the package raises
    np.array([[0, 0, 1], [0, 0, -1]]),  # pairable values all of one category: the package gives nan
], ids=["no-pairable-unit", "empty", "one-category", "one-pairable-category"])
def test_undefined_alpha_is_nan_with_warning(codes):
    assert math.isnan(package_alpha(codes))
    for route, compute in _routes(codes, int(codes.max()) + 1).items():
        with pytest.warns(UndefinedMetricWarning):
            value, _ = compute()
        assert math.isnan(value), route


def test_krippendorff_2011_worked_example():
    codes = paper_codes()
    # the paper's figure, and the package on the same matrix (checks the matrix above)
    expected = krippendorff.alpha(reliability_data=as_reliability(codes), level_of_measurement="nominal")
    assert round(expected, 3) == 0.743
    assert round(nominal.nominal_alpha(codes), 3) == 0.743
    assert nominal.nominal_alpha(codes) == pytest.approx(expected, abs=1e-12)
    value, engine = nominal.value_alpha(codes)
    assert engine == "krippendorff" and value == pytest.approx(expected, abs=1e-12)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(nominal, "PACKAGE_CELLS", 0)
        value, engine = nominal.value_alpha(codes)
    assert engine == "closed form" and value == pytest.approx(expected, abs=1e-12)
    # the paper's coincidence matrix: n_c = 9, 13, 10, 5, 3 (n = 40, unit 12 unpairable),
    # o_cc = 7, 10, 8, 4, 3, so A_o = 32 / 40 and α = 1 - 39 · 8 / (40² - 384) = 0.7434...
    o = coincidences(codes)
    n_c = [sum(v for (c, _), v in o.items() if c == k) for k in range(5)]
    diagonal = [o.get((k, k), 0.0) for k in range(5)]
    assert n_c == pytest.approx([9, 13, 10, 5, 3]) and diagonal == pytest.approx([7, 10, 8, 4, 3])
    assert expected == pytest.approx(1 - 39 * 8 / (40 ** 2 - 384), abs=1e-12)
    assert nominal.observed_agreement(codes) == pytest.approx(32 / 40)
    assert nominal.category_agreement(codes) == pytest.approx([7 / 9, 10 / 13, 8 / 10, 4 / 5, 1])
    counts = nominal.unit_counts(codes)
    assert counts.n == 40 and counts.units.tolist() == list(range(11))


# --- Cohen's κ ----------------------------------------------------------------------------------

def nltk_kappa(a, b):
    agreement = pytest.importorskip("nltk.metrics.agreement")
    task = agreement.AnnotationTask(data=[(coder, item, label) for coder, labels in (("x", a), ("y", b))
                                          for item, label in enumerate(labels)])
    return task.kappa_pairwise("x", "y")


def sklearn_kappa(a, b):
    """scikit-learn's Cohen's κ (the ``test`` extra has scikit-learn: no comparison is left out)."""
    from sklearn.metrics import cohen_kappa_score

    return float(cohen_kappa_score(a, b))


@settings(max_examples=60, deadline=None)
@given(coded_matrices(max_annotators=2, missing=False))
def test_cohen_kappa_complete_equals_nltk_and_sklearn(case):
    codes, _ = case
    x, y = codes
    labels_x, labels_y = [f"L{c}" for c in x], [f"L{c}" for c in y]
    if len(set(x) | set(y)) == 1:  # chance agreement 1: undefined
        with pytest.warns(UndefinedMetricWarning):
            assert math.isnan(nominal.coded_cohen_kappa(x, y))
        with pytest.warns(UndefinedMetricWarning):
            assert math.isnan(kappa.cohen_kappa(labels_x, labels_y))
        return
    expected = nltk_kappa(x.tolist(), y.tolist())
    assert nominal.coded_cohen_kappa(x, y) == pytest.approx(expected, abs=1e-9)
    assert kappa.cohen_kappa(labels_x, labels_y) == pytest.approx(expected, abs=1e-9)
    assert nominal.coded_cohen_kappa(x, y) == pytest.approx(sklearn_kappa(x.tolist(), y.tolist()), abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(coded_matrices(max_annotators=2))
def test_cohen_kappa_with_missing_values_is_over_units_both_coded(case):
    codes, _ = case
    x, y = codes
    both = (x >= 0) & (y >= 0)
    a, b = x[both].tolist(), y[both].tolist()
    if not a or len(set(a) | set(b)) == 1:  # nothing coded by both, or chance agreement 1
        with pytest.warns(UndefinedMetricWarning):
            assert math.isnan(nominal.coded_cohen_kappa(x, y))
        return
    got = nominal.coded_cohen_kappa(x, y)
    assert got == pytest.approx(nltk_kappa(a, b), abs=1e-9)
    assert got == pytest.approx(sklearn_kappa(a, b), abs=1e-9)


def test_cohen_kappa_known_value():
    # 20 items, 2 labels: Ao = (7 + 5) / 20 = 0.6, Ae = 0.5 · 0.6 + 0.5 · 0.4 = 0.5, κ = 0.1 / 0.5
    x = ["yes"] * 10 + ["no"] * 10
    y = ["yes"] * 7 + ["no"] * 3 + ["yes"] * 5 + ["no"] * 5
    assert nltk_kappa(x, y) == pytest.approx(0.2)
    assert kappa.cohen_kappa(x, y) == pytest.approx(0.2)


# --- Fleiss' κ ----------------------------------------------------------------------------------

def statsmodels_fleiss(codes):
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    table, _ = inter_rater.aggregate_raters(np.asarray(codes).T)  # (subjects, raters)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(inter_rater.fleiss_kappa(table, method="fleiss"))


@settings(max_examples=60, deadline=None)
@given(coded_matrices(missing=False))
def test_fleiss_kappa_complete_equals_statsmodels(case):
    codes, v = case
    expected = statsmodels_fleiss(codes)
    items = [[f"L{c}" for c in column] for column in codes.T]
    if len(np.unique(codes)) == 1:  # one category: P_e = 1
        assert math.isnan(expected)
        with pytest.warns(UndefinedMetricWarning):
            assert math.isnan(nominal.coded_fleiss_kappa(codes, v))
        with pytest.warns(UndefinedMetricWarning):
            assert math.isnan(kappa.fleiss_kappa(items))
        return
    assert nominal.coded_fleiss_kappa(codes, v) == pytest.approx(expected, abs=1e-9)
    assert nominal.coded_fleiss_kappa(codes) == pytest.approx(expected, abs=1e-9)
    assert kappa.fleiss_kappa(items) == pytest.approx(expected, abs=1e-9)
    # a unit with a single value is not a unit of Fleiss' κ: adding one changes nothing
    extra = np.concatenate([codes, np.full((codes.shape[0], 1), -1)], axis=1)
    extra[0, -1] = 0
    assert nominal.coded_fleiss_kappa(extra, v) == pytest.approx(expected, abs=1e-9)
    assert kappa.fleiss_kappa(items + [["L0"]]) == pytest.approx(expected, abs=1e-9)


def test_fleiss_kappa_fleiss_1971_table():
    # the worked example of Fleiss' κ (10 subjects, 14 raters, 5 categories; P = 0.378,
    # P_e = 0.213, κ = 0.210), also statsmodels' test table
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    table = np.array([[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
                      [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]])
    expected = inter_rater.fleiss_kappa(table)
    assert round(expected, 3) == 0.210
    codes = np.array([[c for c, count in enumerate(row) for _ in range(count)] for row in table]).T
    assert nominal.coded_fleiss_kappa(codes) == pytest.approx(expected, abs=1e-12)


def test_fleiss_kappa_without_units_is_nan():
    with pytest.warns(UndefinedMetricWarning):
        assert math.isnan(nominal.coded_fleiss_kappa(np.array([[0, -1], [-1, 1]])))
    with pytest.warns(UndefinedMetricWarning):
        assert math.isnan(kappa.fleiss_kappa([["a"], ["b"]]))


# --- category-specific agreement and confusions (two annotators) --------------------------------

@settings(max_examples=60, deadline=None)
@given(coded_matrices(max_annotators=2))
def test_category_agreement_two_annotators_from_confusion_matrix(case):
    codes, v = case
    x, y = codes
    both = (x >= 0) & (y >= 0)
    confusion = np.zeros((v, v), dtype=np.int64)  # rows: annotator 1, columns: annotator 2
    np.add.at(confusion, (x[both], y[both]), 1)
    denominator = confusion.sum(axis=1) + confusion.sum(axis=0)  # n_c· + n_·c
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = np.where(denominator > 0, 2 * np.diag(confusion) / denominator, np.nan)
    np.testing.assert_allclose(nominal.category_agreement(codes, v), expected, atol=1e-12, equal_nan=True)
    off = confusion - np.diag(np.diag(confusion))
    np.testing.assert_array_equal(nominal.confusion_pairs(codes, v), off + off.T)


def test_confusion_pairs_three_annotators_by_hand():
    # unit 1: 0, 0, 1 → (0,1) twice; unit 2: 2, missing, 0 → (2,0) once; unit 3: all agree
    codes = np.array([[0, 2, 1], [0, -1, 1], [1, 0, 1]])
    expected = np.zeros((3, 3), dtype=np.int64)
    expected[0, 1] = expected[1, 0] = 2
    expected[0, 2] = expected[2, 0] = 1
    np.testing.assert_array_equal(nominal.confusion_pairs(codes, 3), expected)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-3, 40), max_size=60), st.sampled_from([0, 1, 10 ** 6, 2 ** 40]),
       st.sampled_from([np.int64, np.int32]))
def test_distinct_codes_are_np_uniques(values, shift, dtype):
    """The distinct non-negative codes and their counts (a bincount, or np.unique where the codes
    are far larger than their number), as np.unique gives them; int64 whatever the input."""
    if dtype is np.int32 and shift > 2 ** 30:
        shift = 0
    codes = np.asarray([v + shift if v >= 0 else v for v in values], dtype=dtype).reshape(-1)
    kept = codes[codes >= 0]
    keys, times = np.unique(kept, return_counts=True)
    found, counted = nominal.distinct_codes(codes, counts=True)
    assert found.dtype == np.int64 and counted.dtype == np.int64
    assert found.tolist() == keys.tolist() and counted.tolist() == times.tolist()
    assert nominal.distinct_codes(codes.reshape(1, -1)).tolist() == keys.tolist()
