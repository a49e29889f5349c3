"""Metrics against human judgments (Plank et al. 2015): which metric agrees with the
judges, MACE's competence estimates, and the selection of items to judge. The names of 0.3's
``spacy_agreement.evaluation.judgments`` module are all here.
"""
from ..._lazy import lazy_exports

_EXPORTS = {
    "judgments": ".judgments_run",
    "JudgmentsRun": ".judgments_run",
    "judgment_metric_choices": ".analysis",
    "JudgmentItem": ".analysis",
    "make_item": ".analysis",
    "load_datapackage": ".analysis",
    "iter_judgments": ".analysis",
    "load_judgments": ".analysis",
    "JudgmentAnalysis": ".analysis",
    "analyse_judgments": ".analysis",
    "judged_line": ".analysis_text",
    "format_analysis": ".analysis_text",
    "JudgingItem": ".judging_items",
    "JudgingSelection": ".judging_items",
    "JudgingSettings": ".judging_items",
    "select_judging_items": ".judging_items",
    "MaceResult": ".mace",
    "mace": ".mace",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
# ``mace`` is the function, not the module of the same name (which, once imported, would be the
# package's attribute ``mace``, and the lazy export never asked): bound here, after the module
from .mace import mace  # noqa: E402,F401  (numpy only; exported through __all__)
__all__ = sorted(_EXPORTS)
