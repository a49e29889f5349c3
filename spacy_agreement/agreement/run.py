"""α as a command runs it: the exact or the sampled estimate, with optional bootstrap
interval and α over pq-grams, in one :class:`~spacy_agreement.agreement.alpha.AlphaResult`
beside the uncorrected accuracies. The CLI and the report call this; it holds the choices
that used to live in the command line."""
from __future__ import annotations

from typing import Any, Optional, Tuple

from ..corpus import Corpus
from ..errors import BadOptionError
from .accuracy import AccuracyResult, pairwise_accuracy
from .alpha import AlphaResult, alpha
from .estimate import bootstrap_alpha, sampled_alpha
from .pqgram import pqgram_alpha


def agreement(corpus: Corpus, strict: bool = False, size: str = "annotation", exclude_mismatched: bool = False,
              sample_pairs: Optional[int] = None, bootstrap: Optional[int] = None, pqgram: bool = False,
              seed: int = 0, **alpha_options: Any) -> Tuple[AlphaResult, AccuracyResult]:
    """α (exact, or estimated from ``sample_pairs`` random pairs) for every registered δ, with
    a bootstrap interval over items (``bootstrap`` resamples; exact α only) and α over
    pq-grams added as δ ``"pqgram"``; and the accuracies of the corpus. ``strict`` makes
    head cycles and annotations with different tokens errors. ``alpha_options`` go to
    :func:`~spacy_agreement.agreement.alpha.alpha` (backend, n_threads, scheduler, progress)."""
    cycles = "raise" if strict else "drop"
    accuracy = pairwise_accuracy(corpus, strict=strict, exclude_mismatched=exclude_mismatched)
    if sample_pairs:
        if bootstrap:
            raise BadOptionError("--bootstrap needs the exact alpha: leave out --sample-pairs")
        result = sampled_alpha(corpus, pairs=sample_pairs, seed=seed, cycles=cycles, size=size)
    else:
        result = alpha(corpus, cycles=cycles, size=size, **alpha_options)
        if bootstrap:
            result = bootstrap_alpha(result, samples=bootstrap, seed=seed)
    if pqgram:
        result = result.merged(pqgram_alpha(corpus, n_threads=alpha_options.get("n_threads"), cycles=cycles,
                                            size=size))
    return result, accuracy
