"""``spacy-agreement judgments`` as one function: :func:`judgments` reads judged items (the exports
of judging pages, several judges' files merged by item, or a folder in the layout of the Plank et
al. 2015 release), scores each item's two parses with the parser metrics, and asks which metric
agrees with the judges (Plank et al. 2015, Tables 1, 3-5); it returns a :class:`JudgmentsRun`
whose :meth:`~JudgmentsRun.to_dict` is what ``judgments --json`` prints. The analysis itself is
:func:`~spacy_agreement.evaluation.judgments.analysis.analyse_judgments`, which keeps its signature.
"""
from __future__ import annotations

import os
from typing import Any, Dict, Sequence, Union

from ...errors import BadOptionError
from ..command_results import CommandRun, html_table, json_safe, percent_text, resolve_settings
from .analysis import DEFAULT_METRICS, JudgmentAnalysis, analyse_judgments, iter_judgments
from .analysis_text import format_analysis
from ..dependency.settings import options_from_flags
from ..settings import JudgmentSettings

PathLike = Union[str, "os.PathLike[str]"]


def _pair(value: Union[str, Sequence[str]], option: str) -> tuple:
    """Two names, given as ``"a,b"`` (as the command takes them) or as a pair."""
    parts = tuple(v.strip() for v in value.split(",")) if isinstance(value, str) else tuple(value)
    if len(parts) != 2 or not all(parts):
        raise BadOptionError(f"{option} takes 2 comma-separated names, got {value!r}")
    return parts


class JudgmentsRun(CommandRun):
    """One ``judgments`` run: :attr:`analysis` (the paper's tables, a
    :class:`~spacy_agreement.evaluation.judgments.analysis.JudgmentAnalysis`, whose attributes this object
    also answers: ``items``, ``judges``, ``kappa``, ``metric_judge_agreement``,
    ``metric_correlations``, ``human_correlations``, ``mace``, ...) and the settings it ran with
    (:attr:`settings`, a :class:`~spacy_agreement.evaluation.settings.JudgmentSettings`).
    :meth:`to_dict` is ``judgments --json``, :meth:`text` its text without the signature line."""

    WRAPS = "analysis"

    def __init__(self, analysis: JudgmentAnalysis, settings: JudgmentSettings):
        self.analysis, self.settings = analysis, settings


    def to_dict(self) -> Dict[str, Any]:
        """What ``judgments --json`` prints (an undefined figure is None, JSON's null)."""
        return json_safe({**self.analysis.to_dict(), "signature": self.signature})

    def text(self) -> str:
        """The paper's tables as the command prints them (without the signature line)."""
        return format_analysis(self.analysis)

    def __repr__(self) -> str:
        a = self.analysis
        agreement = ", ".join(f"{m} {percent_text(a.metric_judge_agreement[m])}" for m in a.metrics)
        return (f"JudgmentsRun({a.items} items, {len(a.judges)} judges, {a.kappa_kind} kappa "
                f"{percent_text(a.kappa)}; agreement with the judges: {agreement or 'no metric'}; {self.signature})")

    def _headline_html(self) -> str:
        a = self.analysis
        rows = [("items", str(a.items)), ("judges", ", ".join(a.judges)),
                ("agreement between judges", percent_text(a.judge_agreement)),
                (f"{a.kappa_kind} kappa", percent_text(a.kappa))]
        rows += [(f"agreement with the judges: {m}", percent_text(a.metric_judge_agreement[m])) for m in a.metrics]
        return html_table("judgments (Plank et al. 2015)", rows, self.signature,
                          [a.metrics_left_out] if a.metrics_left_out else [])


def judgments(*paths: PathLike, settings: Union[None, str, JudgmentSettings] = None,
              signature: Optional[str] = None, no_punct: bool = False,
              punct: str = "upos,label", verb_tags: Union[None, str] = None, content_tags: Union[None, str] = None,
              ned: str = "schwartz", kappa: str = "cohen", parses: Union[str, Sequence[str]] = "parser1,parser2",
              colours: Union[str, Sequence[str]] = "blue,red", ignore_forms: bool = False, ties: str = "half",
              seed: int = 0, metric: Sequence[str] = tuple(DEFAULT_METRICS)) -> JudgmentsRun:
    """``spacy-agreement judgments PATH...``: which parser metric agrees with the people who judge
    parses (Plank et al. 2015): the judges' agreement and κ (Table 1), each metric's agreement
    with the judges (Table 5), Spearman's ρ between the metrics (Table 3) and with the judgments
    (Table 4, with Fisher's z against LAS), and MACE's competence of each judge.

    ``paths``: JSON Lines files of judged items (the exports of ``spacy-agreement judge`` pages:
    several judges' files merged by item, a later judgment of a judge replacing an earlier one
    with a warning), or a folder in the layout of the Plank et al. (2015) release (gold.conll,
    the ``parses`` files, annotated.csv with the ``colours`` meaning A and B). The items are read
    and scored one at a time.

    The options are the command's (``-`` as ``_``, its defaults): the metrics' ``no_punct``,
    ``punct``, ``verb_tags``, ``content_tags``, ``ned``, ``ignore_forms``; ``metric`` (the metrics
    compared), ``ties`` (half, skip, a or b), ``kappa`` (cohen or fleiss), ``seed`` (MACE's
    restarts). ``settings``: a :class:`~spacy_agreement.evaluation.settings.JudgmentSettings` or
    a signature given back (``--signature``)."""
    if not paths:
        raise BadOptionError("no judgment file given")
    from ..._calling import positional_settings

    settings = positional_settings("judgments", (), settings, signature, JudgmentSettings)
    if isinstance(metric, str):
        metric = [m.strip() for m in metric.split(",") if m.strip()]
    built = options_from_flags(no_punct, punct, None, verb_tags, content_tags, settings_class=JudgmentSettings,
                               ned=ned, metrics=tuple(metric), ties=ties, kappa=kappa, seed=seed,
                               check_forms=not ignore_forms)
    options = resolve_settings(settings, built)
    # the items are read, checked and scored one at a time: no tree outlives its item
    folder = {} if not any(os.path.isdir(p) for p in paths) else {
        "parses": _pair(parses, "--parses"), "colours": _pair(colours, "--colours")}
    items = iter_judgments(paths[0] if len(paths) == 1 else list(paths), **folder)
    result = analyse_judgments(items, metrics=options.metrics, options=options, ties=options.ties,
                               seed=options.seed, kappa=options.kappa, check_forms=options.check_forms)
    return JudgmentsRun(result, options)


__all__ = ["JudgmentsRun", "judgments"]
