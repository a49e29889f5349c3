"""Two parts of every command's text: the signature line at its end, and the block of bootstrap
intervals of ``--ci`` (evaluate, evalb, leaf-ancestor)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Optional

if TYPE_CHECKING:
    from ..evaluation.comparison.settings import IntervalSettings
    from ..evaluation.unit_counts import UnitCounts


def signature_footer(text: str, signature: str) -> str:
    """The text output with its last line naming the signature."""
    return f"{text}\n\nsignature: {signature}"


def intervals_text(counts: "UnitCounts", found: Mapping[str, Any], settings: "IntervalSettings", names: Mapping[str, str],
                   values: Optional[Mapping[str, float]] = None) -> str:
    """The text block of intervals already computed (``found``, metric → interval, over ``counts``
    with ``settings``): what :func:`intervals` prints."""
    from .comparison_text import format_intervals

    shown = dict(values) if values is not None else counts.corpus()
    text = format_intervals({m: shown[m] for m in counts.metrics if m in shown}, found, names, settings.confidence,
                            settings.resamples, settings.interval)
    return text + f"\nci signature: {settings.signature()}"


def bracket_intervals_text(run: Any) -> str:
    """The ``--ci`` block of evalb and leaf-ancestor (empty without intervals)."""
    if run.intervals is None:
        return ""
    from .comparison_text import BRACKET_NAMES

    found = run.intervals
    return "\n\n" + intervals_text(found.counts, found.found, found.settings, BRACKET_NAMES)


__all__ = ["bracket_intervals_text", "intervals_text", "signature_footer"]
