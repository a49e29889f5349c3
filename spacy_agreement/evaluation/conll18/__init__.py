"""The CoNLL 2018 shared task's evaluation (``conll18_ud_eval.py``): system words aligned to the
gold's by their characters, the thirteen scores, the script's refusals and its table. The family's
accumulator is :class:`~.accumulator.AlignedEvaluator` (pairs of texts in, the scores and their
counts per gold sentence out); :mod:`.alignment` says how the script aligns and scores.
"""
from ..._lazy import lazy_exports

_EXPORTS = {
    "AlignedEvaluator": ".accumulator",
    "aligned_evaluation": ".accumulator",
    "AlignedScores": ".alignment",
    "AlignedMetric": ".alignment",
    "WordAlignment": ".alignment",
    "METRICS": ".alignment",
    "DISPLAY_NAMES": ".alignment",
    "align_words": ".alignment",
    "aligned_masks": ".alignment",
    "evaluate_aligned": ".alignment",
    "evaluate_aligned_layers": ".alignment",
    "format_conll18_table": ".alignment",
    "aligned_scores": ".files",
    "conll18_beside": ".files",
    "conll18_table": ".files",
    "tokens_differ": ".files",
    "text_difference": ".files",
    "ScriptRefusal": ".refusals",
    "ScriptRefusalError": ".refusals",
    "script_refusal": ".refusals",
    "evaluate_aligned_streamed": ".streaming",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
