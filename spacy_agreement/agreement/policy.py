"""When to compute α exactly and when to estimate it: the one policy of the CLI, the Python
API (:func:`estimate_alpha`), the spaCy scorer, :func:`~spacy_agreement.integrations.nltk_scoring.score_nltk_trees`
and the HTML report.

The exact α (:func:`~spacy_agreement.agreement.alpha.alpha`) compares every pair of
pairable annotations, within and across items, so its cost grows with the square of the
corpus: one parser against gold over the 3,914 trees of NLTK's Penn Treebank sample is 30
million pairs. The observed disagreement needs only the pairs within items and is always
exact; only the expected disagreement De can be estimated.

**The budget.** The cost of the exact De is counted in dynamic-programming cells: a pair of
trees of m and n nodes costs m·n (the size of one Zhang–Shasha table), and identical trees
are compared once (the engine deduplicates them), so the cost is Σ m·n over the pairs of
distinct trees. ``method="auto"`` (the default) computes α exactly when that sum is at most
``budget`` (:data:`DEFAULT_ALPHA_BUDGET`, 10⁹ cells: a few seconds on two cores) and
otherwise estimates De from ``sample_pairs`` random pairs
(:func:`~spacy_agreement.agreement.estimate.sampled_alpha`, with a confidence interval).
``"exact"`` and ``"sampled"`` force either; the result's ``method`` always says which was
computed, and ``cells`` and ``budget`` say why.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Optional, Sequence, Union

import numpy as np

from ..corpus import Corpus
from ..errors import BadOptionError
from .alpha import AlphaResult, PairableTrees, alpha, pairable_trees
from .engine import deduplicate
from .estimate import DEFAULT_SAMPLE_PAIRS, sampled_alpha

#: ``method`` values of :func:`estimate_alpha` (``"off"`` only where α is optional: the CLI, the scorer).
ALPHA_METHODS = ("auto", "exact", "sampled")
#: Dynamic-programming cells (Σ m·n over pairs of distinct trees) the exact α may cost under ``"auto"``.
DEFAULT_ALPHA_BUDGET = 1e9


@dataclass(frozen=True)
class AlphaPlan:
    """What :func:`plan_alpha` decided: ``method`` (``"exact"`` or ``"sampled"``), the cost
    of the exact α in cells, the budget it was held against and the pairable trees."""

    method: str
    cells: float
    budget: float
    trees: PairableTrees


def exact_cells(trees: PairableTrees) -> float:
    """DP cells of the exact expected disagreement: Σ m·n over the pairs of distinct trees."""
    if len(trees.trees) < 2:
        return 0.0
    distinct, _, _ = deduplicate(trees.trees, trees.sizes)
    nodes = np.asarray([trees.trees[i].size for i in distinct], dtype=np.float64)
    total = float(nodes.sum())
    return (total * total - float((nodes * nodes).sum())) / 2.0


def plan_alpha(data: Union[Corpus, Sequence[Any], PairableTrees], method: str = "auto",
               budget: Optional[float] = None, **convert_options: Any) -> AlphaPlan:
    """Exact or sampled α for this corpus under ``budget`` cells (module docstring)."""
    if method not in ALPHA_METHODS:
        raise BadOptionError(f"unknown alpha method {method!r}: {', '.join(ALPHA_METHODS)}")
    budget = DEFAULT_ALPHA_BUDGET if budget is None else float(budget)
    if not budget > 0:
        raise BadOptionError(f"the alpha budget must be a positive number of cells, not {budget}")
    trees = data if isinstance(data, PairableTrees) else pairable_trees(data, **convert_options)
    cells = exact_cells(trees)
    chosen = method if method != "auto" else ("exact" if cells <= budget else "sampled")
    return AlphaPlan(chosen, cells, budget, trees)


def estimate_alpha(data: Union[Corpus, Sequence[Any]], method: str = "auto", budget: Optional[float] = None,
                   sample_pairs: Optional[int] = None, seed: int = 0, confidence: float = 0.95,
                   label_cost: Any = None, cycles: str = "drop", size: str = "annotation",
                   **alpha_options: Any) -> AlphaResult:
    """Krippendorff's α for every built-in and registered δ, exact when it fits ``budget``
    and estimated from ``sample_pairs`` random pairs otherwise (``method``: ``"auto"``,
    ``"exact"``, ``"sampled"``; module docstring). The result's ``method`` says which was
    computed (``"exact"`` or ``"sampled pairs"``, the latter with ``low``/``high``), ``cells``
    the cost of the exact α and ``budget`` the limit. ``alpha_options`` (``backend``,
    ``n_threads``, ``scheduler``, ``progress``) go to the exact
    :func:`~spacy_agreement.agreement.alpha.alpha`."""
    plan = plan_alpha(data, method, budget, label_cost=label_cost, cycles=cycles, size=size)
    return alpha_by_plan(plan, sample_pairs, seed, confidence, **alpha_options)


def alpha_by_plan(plan: AlphaPlan, sample_pairs: Optional[int] = None, seed: int = 0, confidence: float = 0.95,
                  **alpha_options: Any) -> AlphaResult:
    """α as ``plan`` (:func:`plan_alpha`) decided, for a caller that looked at the plan first
    (:func:`estimate_alpha` without planning twice)."""
    if plan.method == "exact":
        result = alpha(plan.trees, **alpha_options)
    else:
        if len(plan.trees.trees) < 2:  # nothing to sample: the exact α is free (and undefined)
            result = alpha(plan.trees, **alpha_options)
        else:
            result = sampled_alpha(plan.trees, pairs=sample_pairs or DEFAULT_SAMPLE_PAIRS, seed=seed,
                                   confidence=confidence, n_threads=alpha_options.get("n_threads"))
    return replace(result, cells=plan.cells, budget=plan.budget)
