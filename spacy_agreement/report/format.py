"""The number formatters of the reports and the CLI: an undefined value (``None`` or NaN,
the library's undefined result) reads ``n/a``, right-aligned to the same width as a number.

:func:`percent` is the one way every text output (the CLI's text, the HTML report) prints a
score, an accuracy, F, α or κ: a percentage with two decimals (``87.73``, ``-12.50``), as spaCy,
conll18_ud_eval.py and EVALB print theirs. :func:`number` is for the rest (distances such as a
mean squared δ). JSON and TSV keep fractions."""
from __future__ import annotations

import math
from typing import Optional


def undefined(value: Optional[float]) -> bool:
    """Whether ``value`` is an undefined result: ``None`` or NaN."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def number(value: Optional[float], digits: int = 3, width: int = 0) -> str:
    """``value`` with ``digits`` decimals, right-aligned to ``width`` (``n/a`` if undefined)."""
    if undefined(value):
        return f"{'n/a':>{width}}"
    return f"{value:{width}.{digits}f}"


def percent(value: Optional[float], digits: int = 2, width: int = 0, sign: bool = False) -> str:
    """A score as a percentage with two decimals: ``0.9045`` → ``90.45``, ``-0.125`` →
    ``-12.50`` (``n/a`` if undefined); right-aligned to ``width``; with ``sign`` followed by
    ``%`` (for a figure in a sentence, not under a ``%`` header; ``n/a`` stays ``n/a``)."""
    if undefined(value):
        return f"{'n/a':>{width}}"
    return number(100 * value, digits, width) + ("%" if sign else "")


def count(value: Optional[float]) -> str:
    """A count, or a mean of counts over pairs: an integer where whole, else one decimal
    (``n/a`` if undefined)."""
    if undefined(value):
        return "n/a"
    return str(int(value)) if float(value).is_integer() else number(value, 1)


__all__ = ["count", "number", "percent", "undefined"]
