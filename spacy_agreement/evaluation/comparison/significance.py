"""Is system B really better than system A? Paired significance tests over sentences and
bootstrap confidence intervals, for every corpus metric of the package.

The data are the metrics' counts per gold sentence (:mod:`.unit_counts`); every statistic is
the **corpus metric recomputed from summed counts** (micro-averaged as the metric defines it),
never a mean of sentence scores.

* **Approximate randomization** (Noreen 1989; Yeh 2000; Bikel's randomized parsing evaluation
  comparator; TedEval's stratified shuffling): under the null hypothesis the two systems'
  analyses of a sentence are exchangeable, so each shuffle swaps A's and B's counts of every
  sentence with probability ½ and recomputes |metric(B) − metric(A)|. The p-value is
  (1 + shuffles at least as extreme as the observed difference) / (1 + shuffles), two-sided;
  with fewer sentences than log₂(shuffles) every one of the 2ⁿ arrangements is enumerated and
  the p-value is exact. The shuffles are :func:`scipy.stats.permutation_test`'s
  (``permutation_type="samples"``) drawn from the same seed, so the p-values are that function's;
  :mod:`.randomization` draws them without SciPy's loop over sentences, and the statistic sums
  the swapped counts with one matrix product per batch of shuffles.
* **Paired bootstrap** (Efron & Tibshirani 1993; Koehn 2004; Berg-Kirkpatrick et al. 2012):
  resample the sentences with replacement, the same sentences for every system, and recompute
  each metric. The bootstrap distribution of the difference d* is shifted to the null
  hypothesis: p = (1 + resamples with |d* − d| ≥ |d|) / (1 + resamples), two-sided. Computed by
  :func:`scipy.stats.bootstrap` over sentence indices (one call gives every system's metrics
  and every pair's differences from the same resamples).
* **Intervals**: the bootstrap's, ``percentile`` by default (as the CoNLL 2018 shared task's
  rankings reported them), ``basic`` or ``bca`` (:func:`scipy.stats.bootstrap`'s methods),
  for each system's metric and for each difference.
* **Several systems**: every pair, and the p-values of each metric and test adjusted over the
  pairs by Holm's step-down method (default; controls the family-wise error, uniformly more
  powerful than Bonferroni), ``bonferroni`` or ``none``. Both the raw and the adjusted p-values
  are reported.

Choices the methods leave open, made here: a shuffle or resample in which a metric is undefined
(a zero denominator: no verb for LCP in the resampled sentences, say) counts as at least as
extreme as the observation (conservative: it can only raise p), and makes the interval of that
metric ``nan`` only if more than the interval's tail share of resamples is undefined; the
units are the gold sentences (a system's sentences of raw-text parsing are assigned to the gold
sentence holding their first character); a sentence that any system's evaluation set aside is
left out for all, and reported. The default seed is fixed (1), so a run is reproducible; the
signature records the tests, their sample counts and the seed.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ...errors import BadOptionError
from ...signature import Settings, setting
from .randomization import exact_p_values, randomization_p_values
from .settings import CORRECTIONS, INTERVAL_METHODS, ComparisonSettings, Interval, IntervalSettings

if TYPE_CHECKING:  # the families' counts (unit_counts imports the conll18 alignment)
    from ..unit_counts import UnitCounts

#: floats of resampling weights held at once (rows × sentences), to bound the memory
_BATCH_CELLS = 4_000_000


def _rng_argument(function) -> str:
    """``rng`` (SciPy 1.15+) or ``random_state``."""
    return "rng" if "rng" in inspect.signature(function).parameters else "random_state"


def paired_units(systems: Mapping[str, UnitCounts]) -> Tuple[np.ndarray, Dict[int, str]]:
    """The units every system has, and those set aside (any system's reason, or "not in
    SYSTEM's evaluation")."""
    names = list(systems)
    common = systems[names[0]].units
    for name in names[1:]:
        common = np.intersect1d(common, systems[name].units)
    aside: Dict[int, str] = {}
    for name in names:  # the evaluations' own reasons first
        for unit, reason in systems[name].set_aside.items():
            aside.setdefault(int(unit), f"{name}: {reason}")
    for name in names:
        uc = systems[name]
        for unit in np.setdiff1d(uc.units, common):
            aside.setdefault(int(unit), f"not scored for {', '.join(n for n in names if unit not in systems[n].units)}")
    return common, aside


def _weights(indices: np.ndarray, n: int) -> np.ndarray:
    """How often each unit occurs in each row of resampled indices."""
    flat = indices.reshape(-1, indices.shape[-1])
    out = np.zeros((len(flat), n))
    for r, row in enumerate(flat):
        out[r] = np.bincount(row, minlength=n)
    return out


class _Stack:
    """Every system's counts on the common units, as (units, systems × metrics) arrays."""

    def __init__(self, systems: Sequence[UnitCounts]):
        self.template = systems[0]
        self.n_systems, self.n_metrics = len(systems), len(self.template.metrics)
        self.num = np.concatenate([s.numerators for s in systems], axis=1)
        self.den = np.concatenate([s.denominators for s in systems], axis=1)

    def values(self, num: np.ndarray, den: np.ndarray) -> np.ndarray:
        """(..., systems × metrics) sums → (..., systems, metrics) values."""
        shape = num.shape[:-1] + (self.n_systems, self.n_metrics)
        return self.template.values(num.reshape(shape), den.reshape(shape))


def _check(systems: Mapping[str, UnitCounts]) -> List[str]:
    names = list(systems)
    if not names:
        raise BadOptionError("no system to compare")
    metrics = systems[names[0]].metrics
    for name in names[1:]:
        if systems[name].metrics != metrics:
            raise BadOptionError(f"{name} has other metrics than {names[0]}")
    return names


@dataclass
class BootstrapResult:
    """Every system's metric values and intervals, every pair's differences, their intervals
    and paired-bootstrap p-values, from one set of resamples."""

    values: Dict[str, Dict[str, float]]
    intervals: Dict[str, Dict[str, Interval]]
    differences: Dict[Tuple[str, str], Dict[str, float]] = field(default_factory=dict)
    difference_intervals: Dict[Tuple[str, str], Dict[str, Interval]] = field(default_factory=dict)
    p_values: Dict[Tuple[str, str], Dict[str, float]] = field(default_factory=dict)
    undefined: Dict[str, int] = field(default_factory=dict)  # resamples where a metric is undefined (any system)


def bootstrap(systems: Mapping[str, UnitCounts], settings: IntervalSettings,
              pairs: Sequence[Tuple[str, str]] = ()) -> BootstrapResult:
    """Bootstrap intervals of every system's metrics and, for each pair ``(a, b)``, of
    ``metric(b) − metric(a)`` with its paired-bootstrap p-value (module docstring). The
    systems must share their units (:func:`paired_units`, then :meth:`UnitCounts.select`)."""
    from scipy import stats  # here: scipy.stats takes a second to import, every command would pay it

    names = _check(systems)
    stack = _Stack([systems[n] for n in names])
    metrics = stack.template.metrics
    n = len(stack.template)
    index = {name: k for k, name in enumerate(names)}
    a_idx = np.array([index[a] for a, _ in pairs], dtype=np.int64)
    b_idx = np.array([index[b] for _, b in pairs], dtype=np.int64)

    def statistic(indices: np.ndarray, axis: int = -1) -> np.ndarray:
        indices = np.asarray(indices)
        lead = indices.shape[:-1]
        w = _weights(indices, n)
        v = stack.values(w @ stack.num, w @ stack.den)  # (rows, systems, metrics)
        out = np.concatenate([v.reshape(len(v), -1), (v[:, b_idx] - v[:, a_idx]).reshape(len(v), -1)], axis=1)
        return np.moveaxis(out, 0, -1).reshape((out.shape[1],) + lead)

    observed = statistic(np.arange(n))
    if n < 2:  # nothing to resample (SciPy refuses a single sentence): no interval, p = 1
        dist = np.full((len(observed), 0), np.nan)
        low = high = np.full(len(observed), np.nan)
    else:
        batch = max(1, _BATCH_CELLS // max(n, 1))
        with np.errstate(all="ignore"):
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", stats.DegenerateDataWarning)
                res = stats.bootstrap((np.arange(n),), statistic, n_resamples=settings.resamples, batch=batch,
                                      vectorized=True, axis=-1, confidence_level=settings.confidence,
                                      method=settings.interval, **{_rng_argument(stats.bootstrap): settings.seed})
        dist = np.asarray(res.bootstrap_distribution).reshape(len(observed), -1)
        low, high = _nan_aware_interval(dist, np.asarray(res.confidence_interval.low).ravel(),
                                        np.asarray(res.confidence_interval.high).ravel(), settings)
    S, M = len(names), len(metrics)
    result = BootstrapResult({}, {})
    for s, name in enumerate(names):
        result.values[name] = {m: float(observed[s * M + k]) for k, m in enumerate(metrics)}
        result.intervals[name] = {m: Interval(float(low[s * M + k]), float(high[s * M + k]))
                                  for k, m in enumerate(metrics)}
    undefined = np.isnan(dist[:S * M]).reshape(S, M, -1).any(axis=0).sum(axis=-1)
    result.undefined = {m: int(undefined[k]) for k, m in enumerate(metrics)}
    for p, pair in enumerate(pairs):
        base = S * M + p * M
        d = observed[base:base + M]
        boot = dist[base:base + M]
        with np.errstate(invalid="ignore"):
            extreme = np.where(np.isnan(boot), True, np.abs(boot - d[:, None]) >= np.abs(d[:, None]) - 1e-12)
        pv = (1 + extreme.sum(axis=1)) / (1 + boot.shape[1])
        result.differences[pair] = {m: float(d[k]) for k, m in enumerate(metrics)}
        result.difference_intervals[pair] = {m: Interval(float(low[base + k]), float(high[base + k]))
                                             for k, m in enumerate(metrics)}
        result.p_values[pair] = {m: float(pv[k]) if not np.isnan(d[k]) else float("nan") for k, m in enumerate(metrics)}
    return result


def _nan_aware_interval(dist: np.ndarray, low: np.ndarray, high: np.ndarray,
                        settings: IntervalSettings) -> Tuple[np.ndarray, np.ndarray]:
    """SciPy's interval where no resample is undefined; else the percentile interval of the
    defined resamples, unless more than the tail share of them is undefined (``nan``)."""
    tail = (1 - settings.confidence) / 2
    low, high = low.copy(), high.copy()
    for k in np.flatnonzero(np.isnan(dist).any(axis=1)):
        defined = dist[k][~np.isnan(dist[k])]
        if len(defined) and 1 - len(defined) / dist.shape[1] <= tail:
            low[k], high[k] = np.quantile(defined, [tail, 1 - tail])
        else:
            low[k] = high[k] = np.nan
    return low, high


def randomization_test(a: UnitCounts, b: UnitCounts, shuffles: int, seed: int) -> Dict[str, float]:
    """Approximate randomization p-value of ``metric(b) − metric(a)`` for every metric
    (module docstring; exact over all 2ⁿ swaps when there are no more of them than
    ``shuffles``). ``a`` and ``b`` share their units."""
    if not np.array_equal(a.units, b.units):
        raise ValueError("the systems' units differ: select the common ones first")
    n = len(a)
    metrics = a.metrics
    if n == 0:
        return {m: float("nan") for m in metrics}
    diff_num, diff_den = b.numerators - a.numerators, b.denominators - a.denominators
    a_num, a_den = a.numerators.sum(axis=0), a.denominators.sum(axis=0)
    b_num, b_den = b.numerators.sum(axis=0), b.denominators.sum(axis=0)

    den_moves = bool(np.any(diff_den != 0))  # same tokens: no denominator moves, its products all +0.0
    # counts (whole numbers) whose sums stay below 2**24: every partial sum of a product with 0/1 swaps
    # is exact in float32, in any order, so the float32 products are the float64 ones to the last bit
    exact = all(np.array_equal(d, np.round(d)) and float(np.abs(d).sum(axis=0).max(initial=0)) < 2 ** 24
                for d in (diff_num, diff_den))
    weights_num, weights_den = (d.astype(np.float32) if exact else d for d in (diff_num, diff_den))

    def sums_differ(swapped: np.ndarray) -> np.ndarray:  # swapped: shuffles x sentences, 1.0 where swapped
        moved_num = (swapped @ weights_num).astype(np.float64, copy=False)
        moved_den = (swapped @ weights_den).astype(np.float64, copy=False) if den_moves else \
            np.zeros((swapped.shape[0],) + diff_den.shape[1:])
        with np.errstate(all="ignore"):
            d = np.abs(a.values(b_num - moved_num, b_den - moved_den) - a.values(a_num + moved_num, a_den + moved_den))
        return np.where(np.isnan(d), np.inf, d)  # undefined: as extreme as can be

    observed = sums_differ(np.zeros((1, n)))[0]
    batch = max(1, _BATCH_CELLS // n)
    if shuffles < 2 ** min(n, 62):  # random shuffles: SciPy's draws, without its loop over sentences
        p = randomization_p_values(sums_differ, observed, n, shuffles, batch, seed,
                                   np.float32 if exact else np.float64)
    else:  # every one of the 2^n arrangements (few sentences)
        p = exact_p_values(sums_differ, observed, n, batch)
    return {m: (float(min(1.0, p[k])) if np.isfinite(observed[k]) else float("nan")) for k, m in enumerate(metrics)}


def adjust(p_values: Sequence[float], method: str) -> List[float]:
    """p-values adjusted for testing them together: Holm's step-down (1979), Bonferroni, or
    none. ``nan`` (an undefined test) is left out of the family and stays ``nan``."""
    p = np.asarray(p_values, dtype=float)
    out = p.copy()
    ok = np.flatnonzero(~np.isnan(p))
    m = len(ok)
    if method == "none" or m <= 1:
        return out.tolist()
    if method == "bonferroni":
        out[ok] = np.minimum(1.0, p[ok] * m)
        return out.tolist()
    order = ok[np.argsort(p[ok], kind="stable")]
    running = 0.0
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[k]))
        out[k] = running
    return out.tolist()


__all__ = ["BootstrapResult", "CORRECTIONS", "ComparisonSettings", "INTERVAL_METHODS", "Interval", "IntervalSettings",
           "adjust", "bootstrap", "paired_units", "randomization_test"]
