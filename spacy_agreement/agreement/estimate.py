"""Estimates of α for corpora too large for the exact all-pairs sum, and confidence intervals.

* :func:`sampled_alpha`: the expected disagreement De estimated from a uniform random
  sample of pairs of pairable annotations (with replacement), with a normal-approximation
  confidence interval for De carried over to α (α is monotone in De). Tree distances grow
  with tree sizes, whose pair means are known exactly from the sizes alone, so the sizes
  serve as control variates: the regression estimator of De on (|x| + |y|)²,
  (|x| − |y|)², |x| + |y| and ||x| − |y|| has a much smaller and less skewed error than the plain sample mean. The
  observed disagreement needs only the pairs within items and stays exact.
* :func:`bootstrap_alpha`: a bootstrap confidence interval for α in the manner of Hayes &
  Krippendorff (2007): items are resampled with replacement, the observed disagreement of
  each resample is recomputed from the items' own pair disagreements, and the expected
  disagreement is held at its value for the whole data (as in their procedure, which
  resamples the coincidences of pairable values, not De). Percentile interval.
"""
from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, Optional, Sequence, Union

import numpy as np

from .. import _core
from ..corpus import Corpus
from ..errors import AgreementError
from ..trees import Forest
from .deltas import Delta, delta_names, get_delta, squared_delta_values
from .engine import default_threads, observed_sums
from .pairable import PairableTrees, pairable_trees
from .result import AlphaResult


#: Random pairs behind a sampled estimate unless told otherwise: the interval of α is then
#: typically a few thousandths wide on parser-against-gold data.
DEFAULT_SAMPLE_PAIRS = 20_000


def pair_threads(pairs: int, n_threads: Optional[int] = None) -> int:
    """Threads for ``pairs`` separate pairs: ``n_threads`` (default: every core), at most one
    per thousand pairs."""
    return max(1, min(n_threads or default_threads(), pairs // 1000 or 1))


def ted_of_pairs(forest: Forest, left: np.ndarray, right: np.ndarray, cost: Optional[np.ndarray],
                 n_threads: Optional[int] = None) -> np.ndarray:
    """TED of the pairs (``left[k]``, ``right[k]``) of forest trees, split over
    :func:`pair_threads` threads (the kernel releases the GIL)."""
    threads = pair_threads(len(left), n_threads)
    left, right = left.astype(np.int64), right.astype(np.int64)
    if threads == 1:
        return _core.forest_ted_pairs(*forest.arrays(), left, right, cost)
    bounds = np.linspace(0, len(left), threads + 1).astype(int)
    with ThreadPoolExecutor(threads) as pool:
        parts = pool.map(lambda k: _core.forest_ted_pairs(*forest.arrays(), left[bounds[k]:bounds[k + 1]],
                                                           right[bounds[k]:bounds[k + 1]], cost), range(threads))
        return np.concatenate(list(parts))


def sampled_alpha(data: Union[Corpus, Sequence, PairableTrees], pairs: int = DEFAULT_SAMPLE_PAIRS,
                  confidence: float = 0.95, seed: int = 0, n_threads: Optional[int] = None,
                  deltas: Optional[Sequence[Delta]] = None, **convert_options) -> AlphaResult:
    """α with De estimated from ``pairs`` random pairs of annotations (see the module doc),
    for every δ of ``deltas`` that is a function of the TED (default: every registered one
    computed by default); the result's ``method`` is ``"sampled pairs"`` and ``low`` /
    ``high`` hold the interval."""
    from scipy.stats import norm  # lazy: import time

    converted = data if isinstance(data, PairableTrees) else pairable_trees(data, **convert_options)
    n = len(converted.trees)
    converted.check_memory(pair_threads(pairs, n_threads))  # one set of tables per thread of ted_of_pairs
    if n < 2:
        raise AgreementError("fewer than two pairable annotations")
    chosen = list(deltas) if deltas is not None else [get_delta(name) for name in delta_names(default_only=True)]
    names = [d.name for d in chosen]
    forest = converted.forest
    sizes = converted.size_array
    per_item = observed_sums(forest, sizes, converted.item_array, converted.count_array, converted.cost, chosen)
    observed = per_item.sum(axis=0) / n
    rng = np.random.default_rng(seed)
    left = rng.integers(0, n, pairs)
    right = rng.integers(0, n - 1, pairs)
    right = right + (right >= left)  # a uniform pair of distinct annotations
    ted = ted_of_pairs(forest, left, right, converted.cost, n_threads)
    values = squared_delta_values(ted, sizes[left], sizes[right], chosen)
    sa, sb = sizes[left].astype(float), sizes[right].astype(float)
    # control variates with exactly known means over all ordered pairs of distinct annotations
    sorted_sizes = np.sort(sizes.astype(float))
    s1, s2 = float(sorted_sizes.sum()), float((sorted_sizes ** 2).sum())
    cross = s1 * s1 - s2
    gaps = 2 * float(sorted_sizes @ (2 * np.arange(n) - n + 1))  # Σ over ordered pairs of |x| − |y| in abs
    known = np.array([2 * (n - 1) * s2 + 2 * cross, 2 * (n - 1) * s2 - 2 * cross,
                      2 * (n - 1) * s1, gaps]) / (n * (n - 1))
    controls = np.column_stack([(sa + sb) ** 2, (sa - sb) ** 2, sa + sb, np.abs(sa - sb)])
    centred = controls - controls.mean(axis=0)
    z = float(norm.ppf(0.5 + confidence / 2))
    means: Dict[str, float] = {}
    low, high = {}, {}
    for d, kind in enumerate(names):
        x = values[d]
        beta, *_ = np.linalg.lstsq(centred, x - x.mean(), rcond=None)
        mean = float(x.mean() - (controls.mean(axis=0) - known) @ beta)
        residual = x - centred @ beta
        half = z * float(residual.std(ddof=5)) / math.sqrt(pairs)
        means[kind] = mean
        upper_de, lower_de = mean + half, max(mean - half, 1e-300)
        low[kind] = 1 - observed[d] / lower_de if mean > 0 else math.nan
        high[kind] = 1 - observed[d] / upper_de if mean > 0 else math.nan
    # the point estimate through the one Do/De assembly (n(n − 1) · mean De is the pair sum)
    result = converted.result(per_item.sum(axis=0), [means[k] * n * (n - 1) for k in names], names, per_item)
    return result.with_interval("sampled pairs", low, high, confidence, pairs)


def bootstrap_interval(result: AlphaResult, samples: int = 1000, confidence: float = 0.95,
                       seed: int = 0) -> AlphaResult:
    """A bootstrap interval for α over items, De held fixed (Hayes & Krippendorff 2007): the
    exact ``result`` with ``low`` / ``high`` and ``method`` ``"bootstrap over items (De fixed)"``."""
    if not isinstance(result, AlphaResult):
        raise TypeError("bootstrap_interval takes an AlphaResult: alpha(data, bootstrap=N) computes both")
    if result.item_disagreement is None or result.items == 0:
        raise AgreementError("no pairable items to resample")
    # per item: Σ within-item δ² / (m_u − 1), and its number of annotations m_u
    counts = np.asarray(result.item_counts, dtype=np.float64)
    per_item = result.item_disagreement * counts[:, None]
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, result.items, size=(samples, result.items))
    observed = per_item[draws].sum(axis=1) / counts[draws].sum(axis=1)[:, None]
    low, high = {}, {}
    tail = (1 - confidence) / 2
    for d, kind in enumerate(result.alphas):
        expected = result.expected[kind]
        if not expected or math.isnan(expected):
            low[kind] = high[kind] = math.nan
            continue
        alphas = 1 - observed[:, d] / expected
        low[kind], high[kind] = (float(v) for v in np.quantile(alphas, [tail, 1 - tail]))
    return result.with_interval("bootstrap over items (De fixed)", low, high, confidence, samples)


#: The 0.2 name (it took an :class:`AlphaResult`; α of raw data: ``alpha(data, bootstrap=N)``).
bootstrap_alpha = bootstrap_interval
