"""When to compute α exactly and when to estimate it: the one policy of every caller (the
CLI, :func:`~spacy_agreement.agreement.alpha.alpha`, the spaCy scorer,
:func:`~spacy_agreement.integrations.nltk_scoring.score_nltk_trees` and the HTML report).

The exact α compares every pair of pairable annotations, within and across items, so its
cost grows with the square of the corpus: one parser against gold over the 3,914 trees of
NLTK's Penn Treebank sample is 30 million pairs. The observed disagreement needs only the
pairs within items and is always exact; only the expected disagreement De can be estimated.

**The cost** of the exact De is counted in dynamic-programming cells: a pair of trees of m
and n nodes costs m·n (the size of one Zhang–Shasha table), and identical trees are compared
once, so the cost is Σ m·n over the pairs of distinct trees (:func:`exact_cells`).

**The choice** (``method="auto"``, the default) is made by the *estimated time on this
machine*: cells × the kernel's time per cell ÷ threads. The time per cell starts from
:data:`NS_PER_CELL` (measured in ``benchmarks/README.md`` for the kernel this machine runs,
:func:`spacy_agreement._core.row_kernel`, or the classic kernel with a label-cost table); when
that puts the exact α within a factor of :data:`CALIBRATE_FACTOR` of the limit (and the corpus
is not tiny), the kernel is timed here on :data:`CALIBRATION_TREES` of the corpus's own distinct
trees (a tenth of a second) and that measurement decides (:func:`measured_ns_per_cell`): the
same kernel runs several times slower on one CPU than on another. α is exact when that is at most ``seconds`` (:data:`~.settings.DEFAULT_ALPHA_SECONDS`,
a minute), else estimated from random pairs
(:func:`~spacy_agreement.agreement.estimate.sampled_alpha`, with a confidence interval).
A ``budget`` in cells, where given, replaces the time rule (exact when cells ≤ budget).
``"exact"`` and ``"sampled"`` force either; the result's ``method`` and signature always
say which was computed, and ``alpha_cells``, ``alpha_seconds`` and ``alpha_budget`` why.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .. import _core
from ..trees import Forest
from .engine import default_threads
from .pairable import PairableTrees
from .settings import AlphaSettings

#: Nanoseconds of one core per DP cell of :func:`exact_cells` (Σ m·n, before the kernels
#: choose each pair's cheaper orientation), by kernel: from the exact α of the shared
#: PCEDT-scale corpus (1.27e10 cells; AVX-512: 22.1 s wall on 2 cores, 2026-11-23) and the
#: kernels' ratios per cell-equivalent in the same run (benchmarks/README.md).
NS_PER_CELL = {"avx512": 3.5, "avx2": 4.6, "scalar": 9.8, "classic": 15.6}
#: The GPU is there for the exact α: its estimate is not held against the time budget.
GPU_NS_PER_CELL = 0.0
#: The whole run's time per cell over the sample's (:func:`measured_ns_per_cell`): the sample's
#: 256 trees make small batches on one thread, so it measures more per cell than the run on
#: every core achieves (2026-11-28, 2-core AVX-512: 0.83 and 0.92 on two PCEDT-scale corpora;
#: benchmarks/README.md, "α by estimated time"). Rounded up so that the estimate errs long.
MEASURED_TO_RUN = 0.9
#: Time the kernel here when the table's estimate is within this factor of the limit.
CALIBRATE_FACTOR = 8.0
#: Below this many cells the table's estimate decides (the exact α takes a second or less).
CALIBRATE_MIN_CELLS = 1e8
#: Distinct trees of the corpus the kernel is timed on (about 10⁷ cells of ~19-node trees).
CALIBRATION_TREES = 256


@dataclass(frozen=True)
class AlphaPlan:
    """What :func:`plan_alpha` decided: ``method`` (``"exact"`` or ``"sampled"``), the cost
    of the exact α in cells, its estimated seconds here, and the limit it was held
    against (``budget`` in cells or ``seconds``)."""

    method: str
    cells: float
    seconds: float
    budget: Optional[float]
    limit_seconds: float
    ns_per_cell: float = 0.0
    measured: bool = False  # whether the time per cell was measured here (else the table's)


def exact_cells(trees: PairableTrees) -> float:
    """DP cells of the exact expected disagreement: Σ m·n over the pairs of distinct trees
    (the deduplicated view of ``trees``, computed once for the plan and the sums)."""
    if len(trees.trees) < 2:
        return 0.0
    nodes = np.asarray([t.size for t in trees.distinct.trees], dtype=np.float64)
    total = float(nodes.sum())
    return (total * total - float((nodes * nodes).sum())) / 2.0


def ns_per_cell(settings: AlphaSettings, cost: Optional[np.ndarray]) -> float:
    """One core's estimated nanoseconds per cell for these settings on this machine."""
    if settings.backend == "gpu":
        return GPU_NS_PER_CELL
    kernel = "classic" if cost is not None or settings.backend == "serial" else _core.row_kernel()
    return NS_PER_CELL.get(kernel, NS_PER_CELL["classic"])


def estimated_seconds(cells: float, settings: AlphaSettings, cost: Optional[np.ndarray] = None) -> float:
    """Seconds the exact α of ``cells`` cells is estimated to take here (module docstring)."""
    threads = 1 if settings.backend == "serial" else (settings.n_threads or default_threads())
    return cells * ns_per_cell(settings, cost) * 1e-9 / max(1, threads)


def measured_ns_per_cell(trees: PairableTrees, settings: AlphaSettings) -> float:
    """One core's nanoseconds per cell of the all-pairs kernel on this machine, timed on up to
    :data:`CALIBRATION_TREES` of the distinct trees (a fixed random choice, so the sizes are
    the corpus's), best of two runs on one thread."""
    import time

    from .engine import expected_sums

    distinct = trees.distinct
    k = min(CALIBRATION_TREES, len(distinct))
    pick = np.sort(np.random.default_rng(0).choice(len(distinct), size=k, replace=False))
    sample = [distinct.trees[i] for i in pick]
    nodes = np.asarray([t.size for t in sample], dtype=np.float64)
    cells = (nodes.sum() ** 2 - (nodes ** 2).sum()) / 2.0
    if cells <= 0:
        return ns_per_cell(settings, trees.cost)
    forest = Forest.from_trees(sample)
    best = math.inf
    for _ in range(2):
        start = time.perf_counter()
        expected_sums(forest, distinct.sizes[pick], np.ones(k), trees.cost, 1, forest_trees=sample)
        best = min(best, time.perf_counter() - start)
    return float(best * 1e9 / cells)


def plan_alpha(trees: PairableTrees, settings: AlphaSettings) -> AlphaPlan:
    """Exact or sampled α for these trees under ``settings`` (module docstring)."""
    cells = exact_cells(trees)
    per_cell = ns_per_cell(settings, trees.cost)
    seconds = estimated_seconds(cells, settings, trees.cost)
    measured = False
    limit = float(settings.seconds)
    if (settings.method == "auto" and settings.budget is None and settings.backend in ("threads", "serial")
            and cells >= CALIBRATE_MIN_CELLS and limit / CALIBRATE_FACTOR <= seconds <= limit * CALIBRATE_FACTOR):
        per_cell = measured_ns_per_cell(trees, settings) * MEASURED_TO_RUN
        seconds = float(seconds * per_cell / ns_per_cell(settings, trees.cost))
        measured = True
    method = settings.method
    if method == "auto":
        if settings.backend == "gpu":
            method = "exact"
        elif settings.budget is not None:
            method = "exact" if cells <= float(settings.budget) else "sampled"
        else:
            method = "exact" if seconds <= settings.seconds else "sampled"
    return AlphaPlan(method, cells, seconds, settings.budget, settings.seconds, per_cell, measured)


__all__ = ["AlphaPlan", "MEASURED_TO_RUN", "NS_PER_CELL", "estimated_seconds", "exact_cells", "measured_ns_per_cell", "plan_alpha"]
