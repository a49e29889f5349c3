"""EVALB's rows as the compiled path writes them (digit by digit, printf only where a figure might
round otherwise) against ``SentenceResult.row()``, Python's formatting of the same printf formats:
random rows, every fraction of small counts (the ties of %6.2f: 1/8, 1/32, ... are exact halves in
binary) and numbers past the field widths."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_agreement import _evalb
from spacy_agreement.evaluation.constituency.evalb import SentenceResult


def _reference(values) -> bytes:
    return (SentenceResult(*values).row() + "\n").encode("latin-1")


counts = st.integers(min_value=0, max_value=3000)


@settings(max_examples=3000, deadline=None)
@given(st.tuples(st.integers(1, 10**9), st.integers(0, 5000), st.sampled_from([0, 1, 2]), counts, counts, counts,
                 st.integers(0, 400), counts, counts))
def test_random_rows_are_printfs(values):
    assert _evalb.format_row(values) == _reference(values)


def test_every_small_fraction_and_its_ties():
    for den in range(0, 130):
        for num in range(0, den + 2):
            values = (den + 1, den, 0, num, den, max(den, 1), num % 7, den, num)
            assert _evalb.format_row(values) == _reference(values), values
    assert _evalb.format_row((1, 32, 0, 1, 32, 8, 0, 16, 1)) == _reference((1, 32, 0, 1, 32, 8, 0, 16, 1))
    assert b"  3.12" in _evalb.format_row((1, 32, 0, 1, 32, 32, 0, 32, 1))  # 3.125: a tie, to even


def test_wide_and_negative_numbers_take_printfs_widths():
    for values in [(123456, 99999, 2, 12345, 12346, 99999, 1234, 99999, 99998),
                   (-1, 3, 0, 1, 2, 3, 0, 3, 3), (5, 3, 0, 7, 2, 3, 0, 3, 9)]:
        assert _evalb.format_row(values) == _reference(values), values
