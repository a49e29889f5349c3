"""Comparing systems on the same gold: per-sentence statistics resampled for intervals
(bootstrap) and paired tests (approximate randomization), with corrections for many
comparisons. The command is ``sa.compare``.
"""
from ..._lazy import lazy_exports

_EXPORTS = {
    "compare": ".compare_run",
    "CompareRun": ".compare_run",
    "Comparison": ".systems",
    "PairComparison": ".systems",
    "compare_systems": ".systems",
    "merge_metrics": ".systems",
    "system_intervals": ".systems",
    "ComparisonSettings": ".settings",
    "IntervalSettings": ".settings",
    "Interval": ".settings",
    "BootstrapResult": ".significance",
    "bootstrap": ".significance",
    "randomization_test": ".significance",
    "adjust": ".significance",
    "CORRECTIONS": ".settings",
    "INTERVAL_METHODS": ".settings",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
