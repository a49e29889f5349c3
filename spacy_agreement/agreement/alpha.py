"""Krippendorff's α over tree edit distance (Skjærholt 2014, §2).

α = 1 − Do / De with, over the n pairable annotations (annotations of items that have at
least two of them),

    Do = 1/n · Σ_u 1/(m_u − 1) · Σ_{c ≠ c'} δ(x_uc, x_uc')²
    De = 1/(n(n − 1)) · Σ over all ordered pairs of distinct pairable annotations δ²

(Krippendorff 2004; the paper writes the same sums without the 1/n factors, which cancel
in the ratio up to n − 1.) The expected disagreement is exact: every pair of pairable
annotations is compared, within and across items. δ is δplain, δdiff, δnorm or any δ added
to the registry (:mod:`spacy_agreement.agreement.deltas`), squared as in the paper. The
built-in α come from one pass over the pairs.

**One pipeline.** :func:`alpha` is the one entry point: it takes the corpus and one
:class:`~spacy_agreement.agreement.settings.AlphaSettings`, builds the one container of
pairable trees (:class:`~spacy_agreement.agreement.pairable.PairableTrees`: forest, |x|,
items, the deduplicated view, each computed once), plans exact or sampled α by the policy
of :mod:`spacy_agreement.agreement.policy`, sums the expected disagreement on one of the
backends of :data:`BACKENDS` (a table of functions of one signature) and writes the
resolved settings into the one result type, :class:`AlphaResult`, whose ``signature`` says
how its numbers were computed. The sampled and bootstrap estimates
(:mod:`spacy_agreement.agreement.estimate`) add an interval; a pair-level δ such as the
pq-gram distance (:mod:`spacy_agreement.agreement.pqgram`) is summed by its own hook.

Choices the paper leaves open, made here:

* Items with fewer than two annotations are not pairable: they are left out of both Do
  and De, and counted (``items_unpairable``, ``annotations_unpairable``).
* Tokens caught in head cycles drop out of the dependency tree (as in the paper's code,
  which built trees by walking down from the root); they are counted in ``cycle_tokens``.
  ``cycles="raise"`` makes them an error instead.
* |x| in δdiff and δnorm is the size of the annotation, "the length of the sentence" of §2
  (the paper's code took ``len(tokens)``): for a dependency tree its number of tokens plus
  the artificial root, whether or not tokens dropped out of the compared tree through a
  head cycle; for a phrase tree its number of leaves (the preterminals of the word-less
  tree). This is what reproduces Table 2 (CDT da: αdiff 84.7, counting only the nodes left
  in the compared tree gives 85.6; SSD: αdiff 98.6, the node count gives 97.7).
  ``size="tree"`` uses the node count of the compared tree instead. For dependency trees
  the two agree whenever no token is in a cycle.
* Undefined α (De = 0: every pairable annotation identical, or fewer than two pairable
  annotations) is ``nan`` with an :class:`~spacy_agreement.errors.UndefinedMetricWarning`,
  the library's one policy for undefined results.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _core
from ..corpus import Corpus
from ..errors import AgreementError, BadOptionError
from .deltas import Delta, as_delta, delta_names, get_delta
from .engine import default_threads, expected_sums, expected_sums_dask, expected_sums_pairs, observed_sums
from .engine import within_item_pairs
from .estimate import bootstrap_interval, sampled_alpha
from .pairable import DistinctTrees, PairableTrees, as_corpus, pairable_trees
from .policy import plan_alpha
from .pqgram import pqgram_delta
from .result import AlphaResult, alphas_from_sums
from .settings import AlphaSettings

Data = Union[Corpus, Sequence[Any], PairableTrees]
#: A backend sums 2·c_i·c_j·δ² over the pairs of distinct trees for the kernel's δ
#: (``_core.KERNEL_DELTAS``, in that order): ``backend(trees, settings)``.
Backend = Callable[[PairableTrees, AlphaSettings], np.ndarray]


def _threads_backend(trees: PairableTrees, settings: AlphaSettings) -> np.ndarray:
    distinct = trees.distinct
    return expected_sums(distinct.forest, distinct.sizes, distinct.multiplicity, trees.cost, settings.n_threads,
                         settings.progress, forest_trees=distinct.trees)


def _dask_backend(trees: PairableTrees, settings: AlphaSettings) -> np.ndarray:
    distinct = trees.distinct
    return expected_sums_dask(distinct.forest, distinct.sizes, distinct.multiplicity, trees.cost,
                              settings.scheduler, forest_trees=distinct.trees)


def _gpu_backend(trees: PairableTrees, settings: AlphaSettings) -> np.ndarray:
    from .gpu import expected_sums_gpu

    distinct = trees.distinct
    return expected_sums_gpu(distinct.forest, distinct.sizes, distinct.multiplicity, trees.cost,
                             progress=settings.progress)


def _serial_backend(trees: PairableTrees, settings: AlphaSettings) -> np.ndarray:
    """The plain single-threaded loop over every pair of pairable annotations (no
    deduplication): the reference the others are checked against."""
    _, sums, _ = _core.forest_alpha_sums(*trees.forest.arrays(), trees.item_array, trees.count_array,
                                         trees.size_array, trees.cost)
    return np.asarray(sums, dtype=np.float64)


#: The backends of the exact expected disagreement, by name (``settings.backend``).
BACKENDS: Dict[str, Backend] = {
    "threads": _threads_backend,
    "dask": _dask_backend,
    "gpu": _gpu_backend,
    "serial": _serial_backend,
}


def resolve_deltas(deltas: Sequence[Any] = ()) -> List[Delta]:
    """The δ to compute: names of registered ones, :class:`~.deltas.Delta` objects or
    functions of ``(ted, size_a, size_b)`` (as the ``krippendorff`` package takes a
    distance); none: every δ registered to be computed by default."""
    if not deltas:
        return [get_delta(name) for name in delta_names(default_only=True)]
    out: List[Delta] = []
    for item in deltas:
        if isinstance(item, str):
            out.append(get_delta(item))
        else:
            out.append(as_delta(getattr(item, "name", None) or getattr(item, "__name__", "delta"), item))
    names = [d.name for d in out]
    if len(set(names)) != len(names):
        raise BadOptionError(f"a distance is named twice in {', '.join(names)}")
    return out


def alpha_settings(settings: Optional[AlphaSettings] = None, **options: Any) -> AlphaSettings:
    """The settings of one α: ``settings`` with ``options`` (its field names) replaced, or the
    defaults with them. ``deltas`` may hold Delta objects or functions (not only names)."""
    deltas = options.pop("deltas", None)
    if settings is not None and not isinstance(settings, AlphaSettings):  # 0.2: alpha(data, label_cost)
        options.setdefault("label_cost", settings)
        settings = None
    base = settings if settings is not None else AlphaSettings()
    if "sample_pairs" in options and options["sample_pairs"] is None:
        options.pop("sample_pairs")
    unknown = set(options) - {f for f in base.__dataclass_fields__}
    if unknown:
        raise TypeError(f"unknown alpha option(s): {', '.join(sorted(unknown))}")
    if deltas is not None:
        options["deltas"] = tuple(deltas) if not isinstance(deltas, str) else deltas
    return replace(base, **options) if options else base


def alpha(data: Data, settings: Optional[AlphaSettings] = None, **options: Any) -> AlphaResult:
    """Krippendorff's α over a corpus of trees for every δ of ``settings.deltas`` (default:
    δplain, δdiff, δnorm and every δ added with
    :func:`~spacy_agreement.agreement.deltas.register_delta`; ``"pqgram"`` when named).

    ``data`` is a :class:`Corpus`, items as accepted by :meth:`Corpus.from_items` (each a
    sequence of trees with ``None`` for a missing annotation, or a mapping from annotator to
    tree), or the :class:`~.pairable.PairableTrees` of one. ``settings``
    (:class:`~.settings.AlphaSettings`) says how; ``options`` are its fields for a caller
    without a settings object (``label_cost``, ``cycles``, ``size``, ``method``,
    ``backend``, ``n_threads``, ...). The result carries the settings with ``method`` and
    ``deltas`` resolved, and their ``signature``.

    ``method``: ``"auto"`` (exact when estimated to take about a minute or less here, else
    sampled: :mod:`~spacy_agreement.agreement.policy`), ``"exact"``, ``"sampled"``.
    ``backend`` chooses how the all-pairs expected disagreement is summed (:data:`BACKENDS`):
    ``"threads"`` (default) deduplicates identical trees and splits the pairs over
    ``n_threads`` OpenMP threads (default: the machine's cores), with a progress bar if
    ``progress``; ``"dask"`` sends the same work to a ``dask.distributed`` cluster
    (``scheduler``: a ``Client``, an address, or ``None`` for a local cluster); ``"gpu"``
    computes them on a CUDA GPU (:mod:`spacy_agreement.agreement.gpu`, extra ``gpu``: an
    ``ImportError`` naming ``numba`` without it, a
    :class:`~spacy_agreement.errors.BadOptionError` without a usable GPU, both before any
    work); ``"serial"`` is the plain single-threaded loop over every pair. All give the same
    α to the last bit (the sums are added in one order). ``bootstrap`` adds an interval
    over items (exact α only).

    >>> from spacy_agreement import DependencyTree
    >>> a = DependencyTree.create([2, 0], ["subj", "root"])
    >>> b = DependencyTree.create([2, 0], ["obj", "root"])
    >>> c = DependencyTree.create([0, 1, 1], ["root", "obj", "punct"])
    >>> result = alpha([[a, a], [b, a], [c, c]])
    >>> round(result.alpha_plain, 4), result.settings.method
    (0.8276, 'exact')
    """
    settings = alpha_settings(settings, **options)
    if settings.method == "off":
        raise BadOptionError("method='off' computes no alpha: call pairwise_accuracy for the accuracies alone")
    if settings.backend == "gpu":
        from .gpu import cuda_module

        cuda_module()  # the missing extra or GPU is one line now, not after reading the corpus
    deltas = resolve_deltas(settings.deltas)
    trees = data if isinstance(data, PairableTrees) else pairable_trees(data, settings.label_cost, settings.cycles,
                                                                       settings.size, settings.partial)
    plan = plan_alpha(trees, settings)
    if settings.bootstrap and plan.method != "exact":
        why = (f"the exact alpha would take about {plan.seconds:.3g} s here ({plan.cells:.3g} DP cells), over the "
               "limit: ask for method='exact' or a larger budget") if settings.method == "auto" \
            else "it cannot be combined with method='sampled'"
        raise BadOptionError(f"bootstrap needs the exact alpha; {why}", option=("bootstrap", "method", "budget"))
    if plan.method == "sampled" and len(trees.trees) >= 2:
        result = _sampled(trees, deltas, settings)
    else:
        result = _exact(trees, deltas, settings)
    if settings.bootstrap:
        result = bootstrap_interval(result, samples=settings.bootstrap, confidence=settings.confidence,
                                    seed=settings.seed)
    resolved = replace(settings, method="exact" if plan.method == "exact" or len(trees.trees) < 2 else "sampled",
                       deltas=tuple(d.name for d in deltas))
    missing: Dict[str, float] = {}
    if settings.partial == "attach" and trees.attached_tokens and not isinstance(data, PairableTrees):
        # how far attaching moved α from the default reading (partial trees as missing annotations)
        other = alpha(data, replace(settings, partial="missing", bootstrap=0, progress=False))
        missing = dict(other.alphas)
    return replace(result, cells=plan.cells, budget=plan.budget, seconds=plan.seconds, settings=resolved,
                   alphas_missing=missing)


def _exact(trees: PairableTrees, deltas: List[Delta], settings: AlphaSettings) -> AlphaResult:
    """Every pair: the kernel's δ on the backend, other TED δ in chunks of pairs, pair-level
    δ by their hooks; the observed sums of each over the pairs within items."""
    kernel = [d for d in deltas if d.kernel_code is not None]
    from_ted = [d for d in deltas if d.kernel_code is None and d.from_ted]
    by_pairs = [d for d in deltas if not d.from_ted]
    if kernel or from_ted:
        trees.check_memory((settings.n_threads or default_threads()) if settings.backend == "threads" else 1)
    expected: Dict[str, float] = {}
    if kernel:
        sums = BACKENDS[settings.backend](trees, settings)
        expected.update(zip(_core.KERNEL_DELTAS, (float(v) for v in sums)))
    if from_ted:
        distinct = trees.distinct
        if settings.backend == "serial":  # every pair, one by one
            values = expected_sums_pairs(trees.forest, trees.size_array, np.ones(len(trees.trees)), trees.cost,
                                         from_ted)
        else:
            values = expected_sums_pairs(distinct.forest, distinct.sizes, distinct.multiplicity, trees.cost, from_ted)
        expected.update((d.name, float(v)) for d, v in zip(from_ted, values))
    for d in by_pairs:
        expected[d.name] = _pair_expected(d, trees.distinct, settings)
    per_item = _observed(trees, deltas)
    return trees.result(per_item.sum(axis=0), [expected[d.name] for d in deltas], [d.name for d in deltas], per_item)


def _pair_expected(delta: Delta, distinct: DistinctTrees, settings: AlphaSettings) -> float:
    """Σ over ordered pairs of distinct annotations of δ² for a pair-level δ: its own
    ``expected`` hook, or its ``pairs`` over every pair of distinct trees, row by row."""
    if delta.expected is not None:
        return float(delta.expected(distinct, settings.n_threads))
    total = 0.0
    n = len(distinct)
    weights = distinct.multiplicity
    for i in range(n - 1):
        right = np.arange(i + 1, n, dtype=np.int64)
        values = np.asarray(delta.pairs(distinct.trees, np.full(len(right), i, dtype=np.int64), right))
        total += 2.0 * float(weights[i] * (weights[right] * values ** 2).sum())
    return total


def _observed(trees: PairableTrees, deltas: List[Delta]) -> np.ndarray:
    """Per item and δ: Σ over the ordered pairs of its annotations of δ² / (m_u − 1)."""
    per_item = np.zeros((len(trees.counts), len(deltas)))
    ted_deltas = [(k, d) for k, d in enumerate(deltas) if d.from_ted]
    if ted_deltas and len(trees.trees):
        sums = observed_sums(trees.forest, trees.size_array, trees.item_array, trees.count_array, trees.cost,
                             [d for _, d in ted_deltas])
        for column, (k, _) in enumerate(ted_deltas):
            per_item[:, k] = sums[:, column]
    left, right = within_item_pairs(trees.item_array)
    for k, d in enumerate(deltas):
        if d.from_ted or not len(left):
            continue
        values = np.asarray(d.pairs(trees.trees, left, right), dtype=np.float64)
        m = trees.count_array.astype(np.float64)[trees.item_array[left]]
        np.add.at(per_item[:, k], trees.item_array[left], 2.0 * values ** 2 / (m - 1))
    return per_item


def _sampled(trees: PairableTrees, deltas: List[Delta], settings: AlphaSettings) -> AlphaResult:
    """De of the TED δ from random pairs (:func:`~.estimate.sampled_alpha`); a pair-level δ
    is cheap per pair and stays exact."""
    from_ted = [d for d in deltas if d.from_ted]
    result = sampled_alpha(trees, pairs=settings.sample_pairs, confidence=settings.confidence, seed=settings.seed,
                           n_threads=settings.n_threads, deltas=from_ted) if from_ted else None
    by_pairs = [d for d in deltas if not d.from_ted]
    if by_pairs:
        exact = _exact(trees, by_pairs, settings)
        result = exact if result is None else result.merged(exact)
    assert result is not None
    return result


def estimate_alpha(data: Data, method: str = "auto", budget: Optional[float] = None,
                   sample_pairs: Optional[int] = None, seed: int = 0, confidence: float = 0.95,
                   **options: Any) -> AlphaResult:
    """:func:`alpha` under the package's policy with the keywords of 0.2 (``budget`` in DP
    cells, ``sample_pairs``): the same as ``alpha(data, method=..., ...)``."""
    return alpha(data, method=method, budget=budget, sample_pairs=sample_pairs, seed=seed, confidence=confidence,
                 **options)


def pqgram_alpha(data: Data, p: int = 2, q: int = 3, n_threads: Optional[int] = None, **options: Any) -> AlphaResult:
    """Krippendorff's α with δpq (:mod:`~spacy_agreement.agreement.pqgram`) alone: the result's
    only δ is ``"pqgram"`` (``.alpha``, ``result["pqgram"]``), exact over all pairs. The
    same as ``alpha(data, deltas=("pqgram",))``."""
    return alpha(data, deltas=(pqgram_delta(p, q),), n_threads=n_threads, method="exact", **options)


__all__ = ["AlphaResult", "AlphaSettings", "BACKENDS", "PairableTrees", "alpha", "alpha_settings",
           "alphas_from_sums", "as_corpus", "estimate_alpha", "pairable_trees", "pqgram_alpha", "resolve_deltas"]
