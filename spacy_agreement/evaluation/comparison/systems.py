"""Several systems scored against one gold, compared pair by pair: every metric's value and
bootstrap interval per system, and per pair the difference, its interval and the p-values of
approximate randomization and the paired bootstrap, adjusted over the pairs
(:mod:`.significance` says how each is computed).

>>> from spacy_agreement.evaluation.unit_counts import from_rows, ratio
>>> a = from_rows(["las"], range(4), [[8], [9], [7], [10]], [[10]] * 4, [ratio])
>>> result = compare_systems({"a": a, "b": a}, ComparisonSettings(shuffles=100, resamples=100))
>>> result.pairs[0].p_randomization["las"], result.pairs[0].difference["las"]
(1.0, 0.0)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ...errors import BadOptionError
from .significance import ComparisonSettings, Interval, IntervalSettings, adjust, bootstrap, paired_units, \
    randomization_test
from ..unit_counts import UnitCounts


@dataclass
class PairComparison:
    """``b`` against ``a``: per metric ``metric(b) − metric(a)`` (a fraction), its bootstrap
    interval, the two p-values and the same adjusted over the pairs."""

    a: str
    b: str
    difference: Dict[str, float]
    interval: Dict[str, Interval]
    p_randomization: Dict[str, float]
    p_bootstrap: Dict[str, float]
    p_randomization_adjusted: Dict[str, float] = field(default_factory=dict)
    p_bootstrap_adjusted: Dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        metrics = {m: {"difference": self.difference[m], "ci_low": self.interval[m].low,
                       "ci_high": self.interval[m].high, "p_value_randomization": self.p_randomization[m],
                       "p_value_bootstrap": self.p_bootstrap[m],
                       "p_value_randomization_adjusted": self.p_randomization_adjusted.get(m, self.p_randomization[m]),
                       "p_value_bootstrap_adjusted": self.p_bootstrap_adjusted.get(m, self.p_bootstrap[m])}
                   for m in self.difference}
        return {"a": self.a, "b": self.b, "metrics": metrics}


@dataclass
class Comparison:
    """Every system's metrics with intervals, every pair's comparison, the units compared and
    those set aside (with the reason), and the settings."""

    metrics: Tuple[str, ...]
    values: Dict[str, Dict[str, float]]
    intervals: Dict[str, Dict[str, Interval]]
    pairs: List[PairComparison]
    units: int
    set_aside: Dict[str, str]
    settings: ComparisonSettings
    undefined: Dict[str, int] = field(default_factory=dict)
    #: metrics left out because no system has a value on these files (no verb for UCP, say)
    not_defined: Tuple[str, ...] = ()

    @property
    def signature(self) -> str:
        return self.settings.signature()

    def pair(self, a: str, b: str) -> PairComparison:
        for p in self.pairs:
            if (p.a, p.b) == (a, b):
                return p
        raise KeyError(f"no pair ({a}, {b})")

    def to_dict(self) -> Dict[str, Any]:
        systems = {name: {m: {"value": self.values[name][m], "ci_low": self.intervals[name][m].low,
                              "ci_high": self.intervals[name][m].high} for m in self.metrics}
                   for name in self.values}
        return {"metrics": list(self.metrics), "systems": systems, "pairs": [p.to_dict() for p in self.pairs],
                "units": self.units, "units_set_aside": len(self.set_aside), "set_aside": dict(self.set_aside),
                "metrics_not_defined": list(self.not_defined),
                "resamples_undefined": {m: n for m, n in self.undefined.items() if n},
                "test": "approximate randomization and paired bootstrap", "shuffles": self.settings.shuffles,
                "resamples": self.settings.resamples, "seed": self.settings.seed,
                "confidence": self.settings.confidence, "interval": self.settings.interval,
                "correction": self.settings.correction, "signature": self.signature}


def _common(systems: Mapping[str, UnitCounts], metrics: Optional[Sequence[str]]) -> Tuple[Dict[str, UnitCounts],
                                                                                        Dict[str, str], np.ndarray]:
    names = list(systems)
    chosen = tuple(metrics) if metrics else systems[names[0]].metrics
    for name in names:
        missing = [m for m in chosen if m not in systems[name].metrics]
        if missing:
            raise BadOptionError(f"{name}: no metric {', '.join(missing)} (it has {', '.join(systems[name].metrics)})",
                                 option="metric")
    units, aside = paired_units(systems)
    labels: Dict[int, str] = {}
    for uc in systems.values():
        labels.update(uc.labels)
    set_aside = {labels.get(u, f"sentence {u + 1}"): reason for u, reason in sorted(aside.items())}
    return {n: systems[n].select(units, chosen) for n in names}, set_aside, units


def compare_systems(systems: Mapping[str, UnitCounts], settings: Optional[ComparisonSettings] = None,
                    metrics: Optional[Sequence[str]] = None) -> Comparison:
    """Every pair of ``systems`` (in the order given: the second against the first), on the
    units all of them have (:mod:`.significance`); ``metrics``: a subset, in that order."""
    settings = settings or ComparisonSettings()
    if len(systems) < 2:
        raise BadOptionError("comparing needs two systems or more")
    paired, set_aside, units = _common(systems, metrics)
    names = list(paired)
    chosen = paired[names[0]].metrics
    corpus = {n: uc.corpus() for n, uc in paired.items()}
    not_defined = tuple(m for m in chosen if all(np.isnan(corpus[n][m]) for n in names))
    if not_defined:
        kept = [m for m in chosen if m not in not_defined]
        if not kept:
            raise BadOptionError(f"no metric is defined on these files ({', '.join(not_defined)})", option="metric")
        paired = {n: uc.select(uc.units, kept) for n, uc in paired.items()}
    pairs = list(combinations(names, 2))
    boot = bootstrap(paired, settings, pairs)
    rows = []
    for a, b in pairs:
        p_ar = randomization_test(paired[a], paired[b], settings.shuffles, settings.seed)
        rows.append(PairComparison(a, b, boot.differences[(a, b)], boot.difference_intervals[(a, b)], p_ar,
                                   boot.p_values[(a, b)]))
    chosen = paired[names[0]].metrics
    for m in chosen:
        for test in ("p_randomization", "p_bootstrap"):
            adjusted = adjust([getattr(r, test)[m] for r in rows], settings.correction)
            for r, value in zip(rows, adjusted):
                getattr(r, f"{test}_adjusted")[m] = value
    return Comparison(chosen, boot.values, boot.intervals, rows, len(units), set_aside, settings, boot.undefined,
                      not_defined)


def system_intervals(counts: UnitCounts, settings: Optional[IntervalSettings] = None,
                     metrics: Optional[Sequence[str]] = None) -> Dict[str, Interval]:
    """Bootstrap intervals of one system's metrics (``evaluate --ci``)."""
    settings = settings or IntervalSettings()
    chosen = tuple(metrics) if metrics else counts.metrics
    return bootstrap({"system": counts.select(counts.units, chosen)}, settings).intervals["system"]


def merge_metrics(first: UnitCounts, second: UnitCounts) -> UnitCounts:
    """The metrics of two evaluations of the same sentences side by side (EVALB's and
    leaf-ancestor's, say), on the units both scored; a unit either set aside stays set aside."""
    units = np.intersect1d(first.units, second.units)
    a, b = first.select(units), second.select(units)
    clash = set(a.metrics) & set(b.metrics)
    if clash:
        raise ValueError(f"both evaluations have the metric(s) {', '.join(sorted(clash))}")
    aside = {**dict(second.set_aside), **dict(first.set_aside)}
    for unit in np.setdiff1d(np.union1d(first.units, second.units), units):
        aside.setdefault(int(unit), "scored by one evaluation only")
    return UnitCounts(a.metrics + b.metrics, units, np.concatenate([a.numerators, b.numerators], axis=1),
                      np.concatenate([a.denominators, b.denominators], axis=1), a.scores + b.scores,
                      {**dict(second.labels), **dict(first.labels)}, aside)


__all__ = ["Comparison", "PairComparison", "compare_systems", "merge_metrics", "system_intervals"]
