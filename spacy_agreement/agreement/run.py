"""α as a command runs it: the exact or the sampled estimate, with optional bootstrap
interval and α over pq-grams, in one :class:`~spacy_agreement.agreement.alpha.AlphaResult`
beside the uncorrected accuracies. The CLI and the report call this; it holds the choices
that used to live in the command line."""
from __future__ import annotations

from typing import Any, Optional, Tuple

from ..corpus import Corpus
from ..errors import BadOptionError
from .accuracy import AccuracyResult, pairwise_accuracy
from .alpha import AlphaResult
from .estimate import bootstrap_alpha
from .policy import alpha_by_plan, plan_alpha
from .pqgram import pqgram_alpha


def agreement(corpus: Corpus, strict: bool = False, size: str = "annotation", exclude_mismatched: bool = False,
              sample_pairs: Optional[int] = None, bootstrap: Optional[int] = None, pqgram: bool = False,
              seed: int = 0, method: str = "auto", budget: Optional[float] = None,
              **alpha_options: Any) -> Tuple[Optional[AlphaResult], AccuracyResult]:
    """α for every registered δ by the one policy of :mod:`~spacy_agreement.agreement.policy`
    (``method``: ``"auto"``, exact within ``budget`` DP cells and sampled from
    ``sample_pairs`` random pairs beyond; ``"exact"``; ``"sampled"``; ``"off"``: no α, the
    result is ``None``), with a bootstrap interval over items (``bootstrap`` resamples; exact
    α only) and α over pq-grams added as δ ``"pqgram"``; and the accuracies of the corpus.
    ``sample_pairs`` alone asks for the sampled estimate; ``backend="gpu"`` makes ``"auto"``
    exact. ``strict`` makes head cycles and
    annotations with different tokens errors. ``alpha_options`` go to
    :func:`~spacy_agreement.agreement.alpha.alpha` (backend, n_threads, scheduler, progress)."""
    cycles = "raise" if strict else "drop"
    accuracy = pairwise_accuracy(corpus, strict=strict, exclude_mismatched=exclude_mismatched)
    if method == "off":
        if bootstrap or pqgram:
            raise BadOptionError("--bootstrap and --pqgram need alpha: leave out --alpha off")
        return None, accuracy
    if sample_pairs and method == "auto":
        method = "sampled"
    if method == "auto" and alpha_options.get("backend") == "gpu":
        method = "exact"  # the GPU is there for the exact α: no budget to fall back from
    plan = plan_alpha(corpus, method, budget, cycles=cycles, size=size)
    if bootstrap and plan.method != "exact":
        why = (f"the exact alpha would cost {plan.cells:.3g} DP cells, over the budget of {plan.budget:.3g}: "
               "add --alpha exact or raise --alpha-budget") if method == "auto" else "leave out --sample-pairs"
        raise BadOptionError(f"--bootstrap needs the exact alpha; {why}")
    result = alpha_by_plan(plan, sample_pairs=sample_pairs, seed=seed, **alpha_options)
    if bootstrap:
        result = bootstrap_alpha(result, samples=bootstrap, seed=seed)
    if pqgram:
        result = result.merged(pqgram_alpha(corpus, n_threads=alpha_options.get("n_threads"), cycles=cycles,
                                            size=size))
    return result, accuracy
