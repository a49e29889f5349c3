"""The settings of intervals and paired tests (``--ci``, ``compare``) and an interval: what a
command's options need before anything is computed, without numpy or SciPy (the methods are
in :mod:`.significance`, which re-exports these names)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List

from ...errors import BadOptionError
from ...signature import Settings, setting

INTERVAL_METHODS = ("percentile", "basic", "bca")
CORRECTIONS = ("holm", "bonferroni", "none")


@dataclass(frozen=True)
class IntervalSettings(Settings):
    """Bootstrap confidence intervals of one system's metrics (``--ci``)."""

    computation = "ci"

    resamples: int = setting(1000, key="boot", kind="int", doc="bootstrap resamples of the sentences")
    seed: int = setting(1, key="seed", kind="int", doc="seed of the resamples (and the shuffles)")
    confidence: float = setting(0.95, key="level", kind="float", doc="confidence level of the intervals")
    interval: str = setting("percentile", key="method", doc="bootstrap interval: percentile, basic or bca")

    def __post_init__(self) -> None:
        if self.resamples < 1:
            raise BadOptionError(f"resamples must be at least 1, not {self.resamples}", option="resamples")
        if not 0 < self.confidence < 1:
            raise BadOptionError(f"the confidence level lies between 0 and 1, not {self.confidence}",
                                 option="confidence")
        if self.interval not in INTERVAL_METHODS:
            raise BadOptionError(f"unknown interval {self.interval!r}: one of {', '.join(INTERVAL_METHODS)}",
                                 option="interval")


@dataclass(frozen=True)
class ComparisonSettings(IntervalSettings):
    """Paired significance tests between systems (``compare``)."""

    computation = "compare"

    shuffles: int = setting(10000, key="ar", kind="int", doc="approximate randomization: shuffles")
    correction: str = setting("holm", key="mc", doc="p-values adjusted over the pairs of systems: holm, bonferroni "
                                                    "or none")

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.shuffles < 1:
            raise BadOptionError(f"shuffles must be at least 1, not {self.shuffles}", option="shuffles")
        if self.correction not in CORRECTIONS:
            raise BadOptionError(f"unknown correction {self.correction!r}: one of {', '.join(CORRECTIONS)}",
                                 option="correction")


@dataclass(frozen=True)
class Interval:
    low: float
    high: float

    def to_list(self) -> List[float]:
        return [self.low, self.high]


__all__ = ["CORRECTIONS", "INTERVAL_METHODS", "ComparisonSettings", "Interval", "IntervalSettings"]
