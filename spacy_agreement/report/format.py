"""The one number formatter of the reports and the CLI: an undefined value (``None`` or NaN,
the library's undefined result) reads ``n/a``, right-aligned to the same width as a number."""
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


def percent(value: Optional[float], digits: int = 1, width: int = 0) -> str:
    """A proportion as a percentage without the sign: ``0.904`` → ``90.4`` (``n/a`` if undefined)."""
    return number(None if undefined(value) else 100 * value, digits, width)


__all__ = ["number", "percent", "undefined"]
