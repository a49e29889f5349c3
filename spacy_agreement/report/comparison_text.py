"""The text of ``spacy-agreement compare`` and of ``--ci``: scores with their bootstrap
intervals, and per pair of systems the difference, its interval and both p-values (percent
with two decimals, as every text output; differences in percentage points)."""
from __future__ import annotations

from typing import Callable, Dict, List, Mapping, Optional, Sequence

from ..evaluation.comparison.systems import Comparison
from ..evaluation.comparison.significance import Interval
from .format import number, percent, undefined

#: EVALB's and leaf-ancestor's figures as the comparison names them
BRACKET_NAMES = {"recall": "Bracket recall", "precision": "Bracket precision", "fmeasure": "Bracket F",
                 "complete_match": "Complete match", "average_crossing": "Average crossing",
                 "no_crossing": "No crossing", "two_or_less_crossing": "2 or less crossing",
                 "tagging_accuracy": "Tagging accuracy", "leaf_ancestor": "Leaf-ancestor",
                 "leaf_ancestor_words": "Leaf-ancestor words", "geig_unlabelled": "GEIG unlabelled",
                 "geig_labelled": "GEIG labelled"}

#: metrics that are not fractions (EVALB's average crossing brackets per sentence)
NOT_FRACTIONS = frozenset({"average_crossing"})


def _figure(metric: str) -> Callable[..., str]:
    if metric in NOT_FRACTIONS:
        return lambda value, width=0, sign=False: (number(value, 2, width) if not sign or undefined(value)
                                                    else f"{value:+{width}.2f}")
    return lambda value, width=0, sign=False: (percent(value, width=width) if not sign or undefined(value)
                                                else f"{100 * value:+{width}.2f}")


def interval_text(metric: str, interval: Interval, sign: bool = False) -> str:
    show = _figure(metric)
    return f"[{show(interval.low, sign=sign)}, {show(interval.high, sign=sign)}]"


def p_text(value: float) -> str:
    """A p-value with four decimals (``<0.0001`` below)."""
    if undefined(value):
        return "n/a"
    return "<0.0001" if 0 < value < 0.0001 else f"{value:.4f}"


def format_intervals(values: Mapping[str, float], intervals: Mapping[str, Interval], names: Mapping[str, str],
                     level: float, resamples: int, method: str) -> str:
    """One system's scores with their intervals (``--ci``)."""
    lines = [f"{round(100 * level)}% bootstrap intervals ({method}, {resamples:,} resamples of the sentences):"]
    for m, value in values.items():
        if m not in intervals:
            continue
        lines.append(f"  {names.get(m, m.upper()):<20} {_figure(m)(value, width=7)}  {interval_text(m, intervals[m])}")
    return "\n".join(lines)


def format_comparison(result: Comparison, names: Optional[Mapping[str, str]] = None, gold: str = "gold",
                      worst: int = 10) -> str:
    """Scores per system with intervals, then per pair the differences and p-values."""
    from .text import listed

    names = names or {}
    s = result.settings
    systems = list(result.values)
    level = f"{round(100 * s.confidence)}%"
    lines = [f"{len(systems)} systems against {gold}: {result.units:,} sentences compared"
             + (f", {len(result.set_aside)} set aside (below)" if result.set_aside else "")]
    lines.append(f"approximate randomization ({s.shuffles:,} shuffles) and paired bootstrap ({s.resamples:,} "
                 f"resamples), seed {s.seed}; {level} intervals ({s.interval})")
    lines.append("")
    width = max(28, *(len(n) + 2 for n in systems))
    lines.append(f"  {'metric':<20}" + "".join(f"{n:>{width}}" for n in systems))
    for m in result.metrics:
        cells = []
        for n in systems:
            cells.append(f"{_figure(m)(result.values[n][m])} {interval_text(m, result.intervals[n][m])}")
        lines.append(f"  {names.get(m, m.upper()):<20}" + "".join(f"{c:>{width}}" for c in cells))
    adjusted = len(result.pairs) > 1 and s.correction != "none"
    for pair in result.pairs:
        lines.append("")
        lines.append(f"{pair.b} − {pair.a}" + (f" (p-values adjusted over {len(result.pairs)} pairs, "
                                               f"{'Holm' if s.correction == 'holm' else 'Bonferroni'})"
                                               if adjusted else "") + ":")
        lines.append(f"  {'metric':<20} {'difference':>10}  {level + ' interval':<22} {'p (AR)':>8} "
                     f"{'p (boot)':>9}")
        for m in result.metrics:
            ar = pair.p_randomization_adjusted[m] if adjusted else pair.p_randomization[m]
            boot = pair.p_bootstrap_adjusted[m] if adjusted else pair.p_bootstrap[m]
            lines.append(f"  {names.get(m, m.upper()):<20} {_figure(m)(pair.difference[m], width=10, sign=True)}  "
                         f"{interval_text(m, pair.interval[m], sign=True):<22} {p_text(ar):>8} {p_text(boot):>9}")
    if result.not_defined:
        lines.append("")
        lines.append("not defined on these files for any system, left out: "
                     + ", ".join(names.get(m, m.upper()) for m in result.not_defined))
    undefined_in = {m: n for m, n in result.undefined.items() if n}
    if undefined_in:
        lines.append("")
        lines.append("undefined in some resamples (counted as extreme in the tests): "
                     + ", ".join(f"{names.get(m, m.upper())} {n:,}" for m, n in undefined_in.items()))
    if result.set_aside:
        lines.append("")
        lines.append(f"{len(result.set_aside)} sentence(s) set aside for every system:")
        lines.extend(listed([f"{where}: {why}" for where, why in result.set_aside.items()], worst))
    return "\n".join(lines)


__all__ = ["BRACKET_NAMES", "NOT_FRACTIONS", "format_comparison", "format_intervals", "interval_text", "p_text"]
