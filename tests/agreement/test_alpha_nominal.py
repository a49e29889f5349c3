"""With one-node trees labelled by categories δplain is the nominal metric, so α must be
Krippendorff's nominal α: his own worked example and the `krippendorff` package."""
import math
import warnings

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spacy_agreement as sa

# Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 observers x 12 units
KRIPPENDORFF_EXAMPLE = [
    "1 2 3 3 2 1 4 1 2 . . .",
    "1 2 3 3 2 2 4 1 2 5 . 3",
    ". 3 3 3 2 3 4 2 2 5 1 .",
    "1 2 3 3 2 4 4 1 2 5 1 .",
]


def node(label):
    """A one-node phrase tree labelled with a category."""
    return sa.parse_brackets(f"({label})")[0]


def token(label):
    """A one-token dependency tree: the artificial root and one node labelled ``label``."""
    return sa.DependencyTree.create([0], [label])


def items_from_rows(rows, make):
    table = [row.split() for row in rows]
    return [[None if row[u] == "." else make(row[u]) for row in table] for u in range(len(table[0]))]


@pytest.mark.parametrize("make", [node, token])
def test_krippendorff_worked_example(make):
    result = sa.alpha(items_from_rows(KRIPPENDORFF_EXAMPLE, make))
    assert round(result.alpha_plain, 3) == 0.743
    # unit 12 has a single value: not pairable, excluded and counted
    assert result.items == 11 and result.items_unpairable == 1 and result.annotations_unpairable == 1
    assert result.annotations == 40


def test_matches_krippendorff_package_on_example():
    table = np.array([[np.nan if v == "." else float(v) for v in row.split()] for row in KRIPPENDORFF_EXAMPLE])
    expected = krippendorff.alpha(reliability_data=table, level_of_measurement="nominal")
    assert sa.alpha(items_from_rows(KRIPPENDORFF_EXAMPLE, node)).alpha_plain == pytest.approx(expected, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda coders: st.lists(
            st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=coders, max_size=coders),
            min_size=2, max_size=25,
        )
    )
)
def test_matches_krippendorff_package_on_random_data(units):
    table = np.array([[np.nan if v is None else float(v) for v in unit] for unit in units]).T
    pairable = [u for u in units if sum(v is not None for v in u) >= 2]
    values = {v for u in pairable for v in u if v is not None}
    if len(values) < 2:
        return  # α is undefined there; the policy is tested below
    expected = krippendorff.alpha(reliability_data=table, level_of_measurement="nominal")
    got = sa.alpha([[None if v is None else node(f"c{v}") for v in unit] for unit in units])
    assert got.alpha_plain == pytest.approx(expected, abs=1e-9)


def test_undefined_alpha_is_nan_with_a_warning():
    with pytest.warns(sa.UndefinedMetricWarning):
        result = sa.alpha([[node("A"), node("A")], [node("A"), node("A")]])
    assert math.isnan(result.alpha_plain) and math.isnan(result.alpha_diff) and math.isnan(result.alpha_norm)
    with pytest.warns(sa.UndefinedMetricWarning):
        empty = sa.alpha([[node("A"), None]])
    assert math.isnan(empty.alpha_plain) and empty.items_unpairable == 1


def test_perfect_agreement_is_one_and_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = sa.alpha([[node("A"), node("A")], [node("B"), node("B")]])
    assert result.alpha_plain == 1.0 and result.alpha_norm == 1.0
