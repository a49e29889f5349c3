"""The result of a dependency evaluation (:class:`EvaluationResult`): corpus scores, the
per-sentence rows, attachment per label, the label-set check, what was skipped or odd, the
settings, and the per-sentence counts behind it all (:meth:`EvaluationResult.statistics`,
what the intervals and the significance tests resample: each result supplies its own, as
sacrebleu's do).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Sequence, Tuple

import numpy as np

from ...agreement.accuracy import ScoresByName
from ...errors import BadOptionError
from .metric_registry import Counts, Metric, _ratio, display_name, reserve_names
from .label_sets import LabelSetCheck, LabelTable
from .settings import EvaluationSettings
from .ud_labels import UDScores

if TYPE_CHECKING:
    from ..unit_counts import UnitCounts

@dataclass
class EvaluationResult(ScoresByName):
    """Corpus scores (micro-averaged), per-sentence scores, attachment per label, the
    label-set check and what was skipped or odd (predictions with several roots where the
    gold has one)."""

    scores: Dict[str, float]
    sentences: Sequence[Dict[str, float]]  # a list, or SentenceScores (computed on demand)
    counts: Counts
    skipped: List[str] = field(default_factory=list)
    ud: UDScores = field(default_factory=UDScores)  # counts behind clas, mlas, blex (precision, recall)
    tokens: int = 0  # scored tokens
    verbs: int = 0  # gold verbs with a dependent (UCP/LCP items)
    labels: LabelTable = field(default_factory=LabelTable)  # attachment per label (scored tokens)
    label_check: LabelSetCheck = field(default_factory=LabelSetCheck)
    multi_root: List[str] = field(default_factory=list)  # predictions with several roots, gold with one
    over_limits: List[str] = field(default_factory=list)  # sentences too large for a metric (TED), left out of it
    #: sentences where the gold or the prediction has tokens not annotated (HEAD ``_``): their
    #: token metrics use the tokens both annotated, their whole-tree metrics leave them out
    partial: List[str] = field(default_factory=list)
    tokens_unannotated: int = 0  # tokens that would be scored but one side has not annotated
    settings: EvaluationSettings = field(default_factory=EvaluationSettings)  # how the numbers were computed
    #: each metric's counts per sentence (``evaluate(..., keep_counts=True)``): what the
    #: bootstrap intervals and the significance tests resample (:meth:`statistics`)
    unit_counts: Any = None

    def statistics(self) -> "UnitCounts":
        """Each metric's (numerator, denominator) per gold sentence, with the function that
        scores summed counts (:class:`~spacy_agreement.evaluation.unit_counts.UnitCounts`):
        what the bootstrap intervals and the significance tests resample. Summed over every
        unit they give :attr:`scores`. Kept when asked for (``evaluate(..., keep_counts=True)``,
        ``sa.evaluate(..., ci=True)``, a :class:`~.accumulator.DependencyEvaluator` with
        ``keep_counts=True``); otherwise a :class:`~spacy_agreement.errors.BadOptionError`."""
        if self.unit_counts is None:
            raise BadOptionError("the per-sentence counts of this evaluation were not kept: evaluate with "
                                 "keep_counts=True (sa.evaluate: ci=True) to have its statistics")
        return self.unit_counts

    @property
    def signature(self) -> str:
        """The settings' signature (:mod:`spacy_agreement.signature`)."""
        return self.settings.signature()

    @property
    def per_label(self) -> Dict[str, Dict[str, float]]:
        """Precision, recall and F of attachment for each label (:class:`~.label_sets.LabelTable`)."""
        return self.labels.rows()

    def to_dict(self) -> Dict[str, float]:
        """The flat scores and counts (what spaCy-style consumers read)."""
        out: Dict[str, float] = dict(self.scores)
        out["tokens_scored"] = self.tokens  # counts: not a metric's name (conll18's tokens, sentences are metrics)
        out["verbs"] = self.verbs
        out["sentences_scored"] = len(self.sentences)
        out["sentences_skipped"] = len(self.skipped)
        out["sentences_multi_root"] = len(self.multi_root)
        out["sentences_over_limits"] = len(self.over_limits)
        out["sentences_partial"] = len(self.partial)
        out["tokens_unannotated"] = self.tokens_unannotated
        out["token_coverage"] = (self.tokens / (self.tokens + self.tokens_unannotated)
                                 if self.tokens + self.tokens_unannotated else 1.0)
        out["unseen_gold_label_share"] = self.label_check.share
        out["signature"] = self.signature  # type: ignore[assignment]
        return out

    def to_json(self) -> Dict[str, object]:
        """:meth:`to_dict` with the details: per-label attachment, the label-set check, the
        sentences skipped and those whose prediction has several roots."""
        out: Dict[str, object] = dict(self.to_dict())
        out.update(self.label_check.to_dict())
        out["per_label"] = self.per_label
        out["multi_root"] = list(self.multi_root)
        out["over_limits"] = list(self.over_limits)
        out["partial"] = list(self.partial)
        out["skipped"] = list(self.skipped)
        return out

    def table(self) -> List[Tuple[str, str, float]]:
        """(key, display name, score) of every metric, in table order: what a text report shows."""
        return [(key, display_name(key), value) for key, value in self.scores.items()]

reserve_names(EvaluationResult([], [], Counts()).to_json())  # a metric may not write a key the result writes


def dependency_statistics(units: np.ndarray, numerators: np.ndarray, denominators: np.ndarray,
                          metrics: Sequence[Metric], labels: Mapping[int, str],
                          set_aside: Mapping[int, str]) -> "UnitCounts":
    """The :class:`~spacy_agreement.evaluation.unit_counts.UnitCounts` of an evaluation:
    ``units`` the gold sentence (0-based) of each row of ``numerators`` and ``denominators``
    (rows × metrics, in the order of ``metrics``), each metric scored by its own function
    (a ratio, or e.g. TED's 1 − ΣTED/Σnorm), ``labels`` each unit's name in messages,
    ``set_aside`` the sentences left out (tokens that differ) with the reason."""
    from ..unit_counts import from_rows, ratio, vectorised

    scores = [ratio if metric.score is _ratio else vectorised(metric.score) for metric in metrics]
    return from_rows([metric.name for metric in metrics], units, numerators, denominators, scores, labels, set_aside)


__all__ = ["EvaluationResult", "dependency_statistics"]
