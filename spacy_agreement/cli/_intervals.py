"""``--ci`` of ``evaluate``, ``evalb`` and ``leaf-ancestor``: bootstrap confidence intervals
of one system's metrics, resampling its sentences (:mod:`spacy_agreement.evaluation.comparison.significance`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Tuple

import typer

from ..evaluation.comparison.settings import INTERVAL_METHODS, IntervalSettings
from ..report.text_parts import intervals_text
from ._options import choices

if TYPE_CHECKING:
    from ..evaluation.unit_counts import UnitCounts

CI_HELP = ("Add a bootstrap confidence interval to each metric (the sentences resampled with replacement, the corpus "
           "metric recomputed from their counts); its settings are in the signature ci|...")


def ci_option() -> Any:
    return typer.Option(False, "--ci", help=CI_HELP)


def resamples_option() -> Any:
    return typer.Option(1000, "--resamples", help="With --ci: bootstrap resamples of the sentences.")


def seed_option() -> Any:
    return typer.Option(1, "--seed", help="With --ci: seed of the resamples (the same seed, the same intervals).")


def confidence_option() -> Any:
    return typer.Option(0.95, "--confidence", help="With --ci: confidence level of the intervals.")


def interval_option() -> Any:
    return typer.Option("percentile", "--interval", metavar=choices(INTERVAL_METHODS),
                        help="With --ci: percentile (default), basic or bca.")


def interval_settings(resamples: int, seed: int, confidence: float, interval: str) -> IntervalSettings:
    return IntervalSettings(resamples=resamples, seed=seed, confidence=confidence, interval=interval)


def intervals(counts: UnitCounts, settings: IntervalSettings, names: Mapping[str, str],
              values: Optional[Mapping[str, float]] = None) -> Tuple[str, Dict[str, Any]]:
    """The text block and the JSON keys (``ci``: metric → [low, high] as fractions, and
    ``ci_signature``) of one system's intervals; ``values``: the figures printed beside them
    (default: the counts' own corpus values)."""
    from ..evaluation.comparison.systems import system_intervals  # a run with --ci

    found = system_intervals(counts, settings)
    text = intervals_text(counts, found, settings, names, values)
    return text, {"ci": {m: interval.to_list() for m, interval in found.items()}, "ci_signature": settings.signature()}


__all__ = ["ci_option", "confidence_option", "interval_option", "interval_settings", "intervals", "intervals_text",
           "resamples_option", "seed_option"]
