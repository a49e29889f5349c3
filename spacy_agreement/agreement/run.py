"""α as a command runs it: α by the one pipeline (:func:`~spacy_agreement.agreement.alpha.alpha`,
exact or sampled, with its bootstrap interval and any δ, pq-gram included) beside the
uncorrected accuracies, both from one :class:`~spacy_agreement.agreement.settings.AlphaSettings`.
The CLI, the report and the demo call this."""
from __future__ import annotations

from typing import Any, Optional, Tuple

from ..corpus import Corpus
from .accuracy import AccuracyResult, pairwise_accuracy
from .alpha import AlphaResult, alpha, alpha_settings
from .settings import AlphaSettings


def agreement(corpus: Corpus, settings: Optional[AlphaSettings] = None,
              **options: Any) -> Tuple[Optional[AlphaResult], AccuracyResult]:
    """α (``None`` with ``method="off"``) and the accuracies of the corpus under one set of
    ``settings`` (or its fields as ``options``). ``cycles="raise"`` also makes annotations
    with different tokens an error in the accuracies (the CLI's ``--strict``). The
    accuracies compare labels as the settings say (root case, subtypes), as ``evaluate``
    does with the same settings."""
    settings = alpha_settings(settings, **options)
    accuracy = pairwise_accuracy(corpus, strict=settings.cycles == "raise",
                                 exclude_mismatched=settings.exclude_mismatched, label=settings.label)
    # how the accuracies were counted, so that the report takes the pair's figure from them (computed once)
    accuracy._counted_as = counted_as(corpus, settings)  # type: ignore[attr-defined]
    if settings.method == "off":
        return None, accuracy
    return alpha(corpus, settings), accuracy


def counted_as(corpus: Corpus, settings: AlphaSettings) -> tuple:
    """What the accuracies of ``corpus`` under ``settings`` depend on: the corpus (by identity) and
    how labels and mismatched items are compared."""
    return (id(corpus), settings.exclude_mismatched, settings.fold_root_case, settings.ignore_subtypes)


__all__ = ["agreement"]
