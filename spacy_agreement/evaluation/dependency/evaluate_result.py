"""The result of ``spacy-agreement evaluate`` (:func:`spacy_agreement.evaluate`): :class:`EvaluateRun`,
its figures as typed properties, ``str()`` the command's text, ``to_dict()`` its ``--json``."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional

from ..._display import MONOSPACE, ShowsAsCommandText, no_attribute, public_names
from ...errors import warns_once
from ..command_results import Intervals, html_table, json_safe, percent_text
from ..conll18.alignment import DISPLAY_NAMES, AlignedScores, format_conll18_table
from ..conll18.files import aligned_json, aligned_keys
from .metric_registry import display_name
from .result import EvaluationResult
from .settings import EvaluationSettings


class EvaluateRun(ShowsAsCommandText):
    """One ``evaluate`` run. ``alignment`` says how the words were paired: ``"identical"`` (the
    same tokens: :attr:`result`, the package's metrics, an
    :class:`~.result.EvaluationResult`, whose attributes this object also answers, and
    under conll18 :attr:`aligned`, the script's thirteen scores beside them) or
    ``"characters"`` (other tokens: :attr:`aligned`, the script's scores through its character
    alignment, :attr:`gold_sentences` and :attr:`system_sentences` read, ``None`` for a
    pipeline's own). Then the settings (:attr:`settings`, with their :attr:`signature`),
    :attr:`spacy_scores` (``model``: spaCy's own LAS and UAS), :attr:`intervals` (``ci=True``),
    :attr:`breakdowns` (``{system: {attribute: Breakdown}}``) and :attr:`conll18_missing` (why the
    script's table could not be computed beside the metrics, ``None`` when it was or is not
    part of the output). :meth:`to_dict` is ``evaluate --json``."""

    def __init__(self, alignment: str, settings: EvaluationSettings, result: Optional[EvaluationResult] = None,
                 aligned: Optional[AlignedScores] = None, spacy_scores: Optional[Dict[str, float]] = None,
                 intervals: Optional[Intervals] = None, breakdowns: Optional[Dict[str, Any]] = None,
                 gold_sentences: Optional[int] = None, system_sentences: Optional[int] = None,
                 conll18_missing: Optional[str] = None):
        self.alignment, self.settings, self.result, self.aligned = alignment, settings, result, aligned
        self.spacy_scores = dict(spacy_scores or {})
        self.intervals, self.breakdowns = intervals, breakdowns
        self.gold_sentences, self.system_sentences = gold_sentences, system_sentences
        self.conll18_missing = conll18_missing

    if not TYPE_CHECKING:  # type checkers see the typed properties alone: a misspelt name is an error there
        @warns_once
        def __getattr__(self, name: str) -> Any:
            if name.startswith("__") or name in ("result", "aligned", "alignment", "settings"):  # copy, pickle
                raise AttributeError(name)
            scores = self.scores
            if name in scores:
                return scores[name]
            if self.result is not None:
                try:
                    return getattr(self.result, name)
                except AttributeError:
                    pass
            raise no_attribute(self, name, dir(self))

    def __dir__(self) -> List[str]:
        return sorted(set(object.__dir__(self)) | set(self.scores) | set(public_names(self.__dict__.get("result"))))

    def _metric(self, name: str) -> float:
        return float(self.scores.get(name, float("nan")))

    @property
    def las(self) -> float:
        """The labelled attachment score, a fraction (``nan`` where undefined or not computed for this alignment)."""
        return self._metric("las")

    @property
    def uas(self) -> float:
        """The unlabelled attachment score, a fraction (``nan`` where undefined or not computed for this alignment)."""
        return self._metric("uas")

    @property
    def la(self) -> float:
        """The label accuracy, a fraction (``nan`` where undefined or not computed for this alignment)."""
        return self._metric("la")

    @property
    def ned(self) -> float:
        """The normalised edit distance score (NED), a fraction (``nan`` where undefined or not computed for this alignment)."""
        return self._metric("ned")

    @property
    def ted(self) -> float:
        """The tree edit distance accuracy (TED), a fraction (``nan`` where undefined or not computed for this alignment)."""
        return self._metric("ted")

    @property
    def lcp(self) -> float:
        """The labelled complete predicate, a fraction (``nan`` where undefined or not computed for this alignment)."""
        return self._metric("lcp")

    @property
    def ucp(self) -> float:
        """The unlabelled complete predicate, a fraction (``nan`` where undefined or not computed for this alignment)."""
        return self._metric("ucp")

    @property
    def clas(self) -> float:
        """The content-word LAS (CLAS), a fraction (``nan`` where undefined or not computed for this alignment)."""
        return self._metric("clas")

    @property
    def mlas(self) -> float:
        """The morphology-aware LAS (MLAS), a fraction (``nan`` where undefined or not computed for this alignment)."""
        return self._metric("mlas")

    @property
    def blex(self) -> float:
        """The bilexical LAS (BLEX), a fraction (``nan`` where undefined or not computed for this alignment)."""
        return self._metric("blex")

    @property
    def score(self) -> float:
        """The headline figure: LAS, a fraction (the F1 of conll18_ud_eval.py's LAS on other tokens)."""
        return self.las

    @property
    def signature(self) -> str:
        return self.settings.signature()

    @property
    @warns_once
    def scores(self) -> Dict[str, float]:
        """The headline figures: every metric of the package (the same tokens), or the F1 of
        ``las``, ``uas``, ``clas``, ``mlas``, ``blex`` as the script reports them (other tokens)."""
        if self.result is not None:
            return dict(self.result.scores)
        assert self.aligned is not None
        return {name: getattr(self.aligned, name).f1 for name in ("uas", "las", "clas", "mlas", "blex")}

    def display_names(self) -> Dict[str, str]:
        """How the metrics of :attr:`intervals` are shown in tables."""
        if self.alignment == "characters":
            return dict(DISPLAY_NAMES)
        return {m: display_name(m) for m in self.intervals.counts.metrics} if self.intervals else {}

    @warns_once
    def to_dict(self) -> Dict[str, Any]:
        """What ``evaluate --json`` prints (an undefined figure is None, JSON's null)."""
        extra: Dict[str, Any] = {**(self.intervals.to_dict() if self.intervals is not None else {})}
        if self.breakdowns:
            from .breakdown_tables import breakdowns_to_json

            extra["breakdowns"] = breakdowns_to_json(self.breakdowns)
        if self.alignment == "characters":
            assert self.aligned is not None
            return json_safe({**aligned_json(self.aligned, self.settings), **extra})
        assert self.result is not None
        return json_safe({**self.result.to_json(), **self.spacy_scores, "alignment": "identical",
                          **(aligned_keys(self.aligned) if self.aligned is not None else {}), **extra})

    def __repr__(self) -> str:
        shown = ("las", "uas", "clas", "mlas", "blex")
        scores = self.scores
        figures = ", ".join(f"{display_name(m)} {percent_text(scores.get(m))}" for m in shown if m in scores)
        if self.alignment == "characters":
            how = "other tokens, words aligned by characters (F1)"
        else:
            how = f"{self.result.tokens} tokens, {len(self.result.sentences)} sentences" if self.result else ""
        return f"EvaluateRun({figures}; {how}; {self.signature})"

    def _headline_html(self) -> str:
        from ...report.escape import text as esc

        scores = self.scores
        title = ("evaluate: words aligned through the characters (conll18_ud_eval.py's F1)"
                 if self.alignment == "characters" else "evaluate")
        rows = [(display_name(m), percent_text(v)) for m, v in scores.items()]
        table = html_table(title, rows, self.signature)
        if self.aligned is not None:
            table = table[:-len("</div>")] + f"<pre style=\"{MONOSPACE}\">{esc(format_conll18_table(self.aligned))}</pre></div>"
        return table


__all__ = ["EvaluateRun"]
