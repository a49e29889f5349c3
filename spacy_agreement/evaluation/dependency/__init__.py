"""Dependency parser metrics (LAS, UAS, LA, CLAS, NED, TED accuracy, LCP/UCP, the
spaCy scorer's figures; Plank et al. 2015): the ``evaluate`` command (:func:`evaluate`, which is
``sa.evaluate``), the metrics over trees (:func:`evaluate_trees`), the one accumulator every
evaluation goes through (:class:`DependencyEvaluator`), the metric registry, the settings and
the breakdowns.
"""
from ..._lazy import lazy_exports

_EXPORTS = {
    "evaluate": ".evaluate_run",
    "EvaluateRun": ".evaluate_run",
    "evaluate_trees": ".accumulator:evaluate",
    "DependencyEvaluator": ".accumulator",
    "compiled_path_applies": ".accumulator",
    "EvaluationResult": ".result",
    "Metric": ".metric_registry",
    "SentenceContext": ".sentence_context",
    "Counts": ".metric_registry",
    "register_metric": ".metrics",
    "unregister_metric": ".metrics",
    "metric_names": ".metrics",
    "get_metric": ".metrics",
    "display_name": ".metrics",
    "ted_accuracy": ".metrics",
    "EvaluationSettings": ".settings",
    "EvaluationOptions": ".settings",
    "Breakdown": ".breakdowns",
    "BreakdownRow": ".breakdowns",
    "breakdowns_from_trees": ".breakdowns",
    "breakdowns_from_layers": ".breakdowns",
    "UDScores": ".ud_labels",
    "ud_scores": ".ud_labels",
    "universal_deprel": ".ud_labels",
    "universal_feats": ".ud_labels",
    "LabelSetWarning": ".label_sets",
    "RootCaseWarning": ".label_sets",
    "check_label_sets": ".label_sets",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
