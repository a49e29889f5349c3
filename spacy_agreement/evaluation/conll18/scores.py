"""The thirteen scores of ``conll18_ud_eval.py`` (Zeman et al. 2018) as the CoNLL 2018 shared task
prints them: one :class:`AlignedMetric` each (correct, gold, system and aligned counts, precision,
recall, F1, aligned accuracy), :class:`AlignedScores` for the thirteen, and the script's table
(:func:`format_conll18_table`). Split from :mod:`.alignment` (which re-exports every name here
and says how the counts are made); what an :class:`AlignedScores` counts per gold sentence comes
from :meth:`AlignedScores.statistics` (kept by :class:`~.accumulator.AlignedEvaluator`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Tuple, Union

from ...errors import AgreementError, ratio, warns_once

if TYPE_CHECKING:
    from ..unit_counts import UnitCounts

#: the scores, in the script's order, and their names in its table
METRICS: Tuple[str, ...] = ("tokens", "sentences", "words", "upos", "xpos", "ufeats", "alltags", "lemmas",
                            "uas", "las", "clas", "mlas", "blex")
DISPLAY_NAMES: Dict[str, str] = {
    "tokens": "Tokens", "sentences": "Sentences", "words": "Words", "upos": "UPOS", "xpos": "XPOS",
    "ufeats": "UFeats", "alltags": "AllTags", "lemmas": "Lemmas", "uas": "UAS", "las": "LAS", "clas": "CLAS",
    "mlas": "MLAS", "blex": "BLEX",
}


@dataclass(frozen=True)
class AlignedMetric:
    """The counts of one score and its values: ``correct`` of ``gold`` gold items and
    ``system`` system items, over ``aligned`` aligned words (``None`` for tokens, sentences
    and words). Undefined values (a zero denominator) are ``nan`` with an
    :class:`~spacy_agreement.errors.UndefinedMetricWarning` (:mod:`.alignment`)."""

    name: str
    correct: int
    gold: int
    system: int
    aligned: Optional[int] = None

    @property
    def precision(self) -> float:
        return ratio(self.correct, self.system, f"{self.name}_precision", "nothing in the system file")

    @property
    def recall(self) -> float:
        return ratio(self.correct, self.gold, f"{self.name}_recall", "nothing in the gold file")

    @property
    def f1(self) -> float:
        """2PR/(P+R), computed as ``2·correct / (gold + system)`` (as the script does)."""
        return ratio(2 * self.correct, self.system + self.gold, f"{self.name}_f1", "nothing in either file")

    @property
    def aligned_accuracy(self) -> Optional[float]:
        """``correct / aligned``; ``None`` for tokens, sentences and words."""
        if self.aligned is None:
            return None
        return ratio(self.correct, self.aligned, f"{self.name}_aligned_accuracy", "no aligned word to score")

    def script_values(self) -> Tuple[float, float, float, Optional[float]]:
        """(precision, recall, F1, aligned accuracy) as ``conll18_ud_eval.py`` computes them:
        0 where a denominator is 0 (no warning), aligned accuracy ``None`` where it has none."""
        c, g, s, a = self.correct, self.gold, self.system, self.aligned
        accuracy: Optional[float] = None if a is None else (c / a if a else 0)
        return (c / s if s else 0.0, c / g if g else 0.0, 2 * c / (s + g) if s + g else 0.0, accuracy)

    def to_dict(self) -> Dict[str, Optional[float]]:
        """``<name>_precision``, ``_recall``, ``_f1``, ``_aligned_accuracy`` (fractions) and the
        counts ``_correct``, ``_gold``, ``_system``, ``_aligned``."""
        m = self.name
        return {f"{m}_precision": self.precision, f"{m}_recall": self.recall, f"{m}_f1": self.f1,
                f"{m}_aligned_accuracy": self.aligned_accuracy, f"{m}_correct": self.correct,
                f"{m}_gold": self.gold, f"{m}_system": self.system, f"{m}_aligned": self.aligned}


@dataclass(frozen=True)
class AlignedScores:
    """The thirteen scores of ``conll18_ud_eval.py`` (one :class:`AlignedMetric` each, named as
    lower-case attributes: ``scores.las.f1``, ``scores.upos.aligned_accuracy``), where they came
    from, and what the reading skipped or merged (empty nodes, multiword tokens, the multiword
    spans aligned by forms)."""

    tokens: AlignedMetric
    sentences: AlignedMetric
    words: AlignedMetric
    upos: AlignedMetric
    xpos: AlignedMetric
    ufeats: AlignedMetric
    alltags: AlignedMetric
    lemmas: AlignedMetric
    uas: AlignedMetric
    las: AlignedMetric
    clas: AlignedMetric
    mlas: AlignedMetric
    blex: AlignedMetric
    gold_source: str = "<gold>"
    system_source: str = "<system>"
    gold_empty_nodes: int = 0
    system_empty_nodes: int = 0
    gold_multiword_tokens: int = 0
    system_multiword_tokens: int = 0
    multiword_spans: int = 0
    #: the counts per gold sentence, made on first use (set by :class:`~.accumulator.AlignedEvaluator`)
    per_sentence: Optional[Callable[[], "UnitCounts"]] = field(default=None, compare=False, repr=False)

    def statistics(self) -> "UnitCounts":
        """The thirteen F1 scores' counts per gold sentence (a
        :class:`~spacy_agreement.evaluation.unit_counts.UnitCounts`: numerator ``2·correct``,
        denominator ``gold + system``; a system word, token or sentence counts in the gold
        sentence holding its first character), whose sums are these scores' counts: what
        ``--ci`` and ``compare`` resample. Kept by :class:`~.accumulator.AlignedEvaluator`
        (``keep_statistics``, the default), which ``evaluate`` and ``compare`` score through;
        scores summed without their sentences (:func:`~.alignment.evaluate_aligned_layers`, the
        streamed evaluation) raise :class:`~spacy_agreement.errors.AgreementError`."""
        if self.per_sentence is None:
            raise AgreementError("these conll18 scores were summed without their sentences: score the files with "
                                 "spacy_agreement.evaluation.conll18.AlignedEvaluator (keep_statistics=True) for "
                                 "their counts per sentence")
        return self.per_sentence()

    def metric(self, name: str) -> AlignedMetric:
        """The score named ``name`` (``"las"``; the script's ``"LAS"`` too)."""
        key = name.lower()
        if key not in METRICS:
            raise KeyError(f"unknown score {name!r}: one of {', '.join(METRICS)}")
        return getattr(self, key)

    def metrics(self) -> List[AlignedMetric]:
        """Every score, in the script's order."""
        return [getattr(self, m) for m in METRICS]

    @property
    def signature(self) -> str:
        """``conll18|v:VERSION``: nothing here is a setting (:mod:`.alignment`)."""
        from ...signature import version

        return f"conll18|v:{version()}"

    @warns_once
    def to_dict(self) -> Dict[str, object]:
        """Flat: for every score ``<m>_precision``, ``<m>_recall``, ``<m>_f1`` and
        ``<m>_aligned_accuracy`` as fractions (``nan`` where undefined, one warning naming them
        all, :func:`~spacy_agreement.errors.warns_once`; ``None``
        for the aligned accuracy of tokens, sentences and words), the counts ``<m>_correct``,
        ``<m>_gold``, ``<m>_system``, ``<m>_aligned`` (``None`` where there is no aligned
        accuracy); then the reading's counts and the ``signature``."""
        out: Dict[str, object] = {}
        for metric in self.metrics():
            out.update(metric.to_dict())
        out.update(gold_empty_nodes=self.gold_empty_nodes, system_empty_nodes=self.system_empty_nodes,
                   gold_multiword_tokens=self.gold_multiword_tokens,
                   system_multiword_tokens=self.system_multiword_tokens, multiword_spans=self.multiword_spans,
                   signature=self.signature)
        return out


def format_conll18_table(scores: AlignedScores, counts: bool = False, verbose: bool = True) -> str:
    """The text ``conll18_ud_eval.py`` prints for these scores (without the final newline that
    ``print`` adds): with ``-v`` (the default here) the table of precision, recall, F1 and
    aligned accuracy in percent with 2 decimals; with ``counts=True`` (``-c``) the table of
    correct, gold, system and aligned counts; with ``verbose=False`` (no option) the three lines
    of LAS, MLAS and BLEX F1. Values the script cannot compute print as it prints them (0.00)."""
    if not verbose and not counts:
        return "\n".join([f"LAS F1 Score: {100 * scores.las.script_values()[2]:.2f}",
                          f"MLAS Score: {100 * scores.mlas.script_values()[2]:.2f}",
                          f"BLEX Score: {100 * scores.blex.script_values()[2]:.2f}"])
    head = "Metric     | Correct   |      Gold | Predicted | Aligned" if counts else \
        "Metric     | Precision |    Recall |  F1 Score | AligndAcc"
    lines = [head, "-----------+-----------+-----------+-----------+-----------"]
    for metric in scores.metrics():
        name = DISPLAY_NAMES[metric.name]
        if counts:
            aligned: Union[int, str] = metric.aligned or (metric.correct if metric.name == "words" else "")
            lines.append(f"{name:11}|{metric.correct:10} |{metric.gold:10} |{metric.system:10} |{aligned:10}")
        else:
            precision, recall, f1, accuracy = metric.script_values()
            last = "" if accuracy is None else f"{100 * accuracy:10.2f}"
            lines.append(f"{name:11}|{100 * precision:10.2f} |{100 * recall:10.2f} |{100 * f1:10.2f} |{last}")
    return "\n".join(lines)



__all__ = ["AlignedMetric", "AlignedScores", "DISPLAY_NAMES", "METRICS", "format_conll18_table"]
