"""EVALB's results and output (Sekine & Collins 1997): the per-sentence rows, the summary
blocks, and the text ``evalb`` prints, byte for byte (its ``printf`` formats; the summary's
undefined F as glibc prints it, ``-nan``).

Split from :mod:`spacy_agreement.evaluation.constituency.evalb` (which re-exports every name here), which
reads and scores the sentences. A compiled run keeps its rows in
``spacy_agreement._evalb.SentenceRows`` (9 integers a sentence, a :class:`SentenceResult` made
on access); :func:`format_rows` formats those in C.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Dict, Iterable, List, Sequence

from ...errors import AgreementError
from .evalb_params import EvalbSettings

if TYPE_CHECKING:
    from ..unit_counts import UnitCounts

try:  # the compiled rows; without them (a stale build) rows are SentenceResult lists
    from ... import _evalb
except ImportError:  # pragma: no cover
    _evalb = None  # type: ignore[assignment]

OK, ERROR, SKIP = 0, 1, 2
#: EVALB's summary figures as fractions, the columns of :meth:`EvalbReport.statistics`
STATISTICS = ("recall", "precision", "fmeasure", "complete_match", "average_crossing", "no_crossing",
              "two_or_less_crossing", "tagging_accuracy")


def _unit_counts():
    """:mod:`spacy_agreement.evaluation.unit_counts`, loaded by name: it still imports this family
    for its ``evalb_unit_counts`` (which :meth:`EvalbReport.statistics` replaces, issue 40), so a
    static import here would be an import cycle; a plain import once that function is gone."""
    return importlib.import_module("spacy_agreement.evaluation.unit_counts")


#: The figures EVALB prints in percent, held as fractions in ``to_dict()`` (``evalb --json``).
PERCENT_KEYS = frozenset({"recall", "precision", "fmeasure", "complete_match", "no_crossing", "two_or_less_crossing",
                          "tagging_accuracy", "tag_accuracy"})


@dataclass
class SentenceResult:
    """One row of EVALB's table: ``id`` is the line number, ``length`` the gold length used
    for the cutoff, ``status`` 0 (scored), 1 (error) or 2 (skip). A sentence with a reading
    error that could still be scored shows its numbers but counts as an error, as in EVALB."""

    id: int
    length: int
    status: int = OK
    matched: int = 0
    gold_brackets: int = 0
    test_brackets: int = 0
    crossing: int = 0
    words: int = 0
    correct_tags: int = 0
    errors: List[str] = field(default_factory=list)
    debug: str = ""

    @property
    def recall(self) -> float:
        return 100.0 * self.matched / self.gold_brackets if self.gold_brackets else 0.0

    @property
    def precision(self) -> float:
        return 100.0 * self.matched / self.test_brackets if self.test_brackets else 0.0

    @property
    def tag_accuracy(self) -> float:
        return 100.0 * self.correct_tags / self.words if self.words else 0.0

    def row(self) -> str:
        return (f"{self.id:4d}  {self.length:3d}    {self.status:d}  {self.recall:6.2f} {self.precision:6.2f}   "
                f"{self.matched:3d}    {self.gold_brackets:3d}  {self.test_brackets:3d}    {self.crossing:3d}"
                f"   {self.words:4d}  {self.correct_tags:4d}   {self.tag_accuracy:6.2f}")

    def to_dict(self) -> Dict[str, object]:
        """The row as ``evalb --json`` writes it: recall, precision and tagging accuracy as
        fractions (as every result of the package holds them; EVALB prints them in percent)."""
        keys = ("id", "length", "status", "recall", "precision", "matched", "gold_brackets", "test_brackets",
                "crossing", "words", "correct_tags", "tag_accuracy", "errors")
        return {k: getattr(self, k) / 100.0 if k in PERCENT_KEYS else getattr(self, k) for k in keys}


@dataclass
class Totals:
    """EVALB's summary block for a set of sentences (all, or those of length <= cutoff)."""

    sentences: int = 0
    error_sentences: int = 0
    skip_sentences: int = 0
    gold_brackets: int = 0
    test_brackets: int = 0
    matched: int = 0
    complete_sentences: int = 0
    words: int = 0
    crossing: int = 0
    no_crossing_sentences: int = 0
    two_or_less_crossing_sentences: int = 0
    correct_tags: int = 0

    def add(self, s: SentenceResult) -> None:
        self.sentences += 1
        if s.status == ERROR:
            self.error_sentences += 1
            return
        if s.status == SKIP:
            self.skip_sentences += 1
            return
        self.gold_brackets += s.gold_brackets
        self.test_brackets += s.test_brackets
        self.matched += s.matched
        self.complete_sentences += s.gold_brackets == s.test_brackets == s.matched
        self.words += s.words
        self.crossing += s.crossing
        self.no_crossing_sentences += s.crossing == 0
        self.two_or_less_crossing_sentences += s.crossing <= 2
        self.correct_tags += s.correct_tags

    def merge(self, values: Sequence[int]) -> None:
        """Add counts given in the order of the fields (the compiled loop's totals)."""
        for f, value in zip(fields(self), values):
            setattr(self, f.name, getattr(self, f.name) + int(value))

    @property
    def valid_sentences(self) -> int:
        return self.sentences - self.error_sentences - self.skip_sentences

    def scores(self) -> Dict[str, float]:
        """Percentages as EVALB computes them; F is NaN when recall + precision is 0."""
        r = 100.0 * self.matched / self.gold_brackets if self.gold_brackets > 0 else 0.0
        p = 100.0 * self.matched / self.test_brackets if self.test_brackets > 0 else 0.0
        valid = self.valid_sentences

        def per_sentence(x: int, scale: float = 100.0) -> float:
            return scale * x / valid if valid > 0 else 0.0

        return {"recall": r, "precision": p, "fmeasure": 2 * p * r / (p + r) if p + r else float("nan"),
                "complete_match": per_sentence(self.complete_sentences), "average_crossing": per_sentence(self.crossing, 1.0),
                "no_crossing": per_sentence(self.no_crossing_sentences), "two_or_less_crossing": per_sentence(self.two_or_less_crossing_sentences),
                "tagging_accuracy": 100.0 * self.correct_tags / self.words if self.words > 0 else 0.0}

    def fractions(self) -> Dict[str, float]:
        """:meth:`scores` with every percentage as a fraction (``average_crossing``, a mean count,
        as it is): what :meth:`to_dict` holds."""
        return {k: v / 100.0 if k in PERCENT_KEYS else v for k, v in self.scores().items()}

    def to_dict(self) -> Dict[str, object]:
        """The summary as ``evalb --json`` writes it: the counts, and the figures as fractions
        (:meth:`fractions`; an undefined F is None)."""
        out: Dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["valid_sentences"] = self.valid_sentences
        out.update({k: (None if v != v else v) for k, v in self.fractions().items()})
        return out

    def block(self, title: str) -> List[str]:
        sc = self.scores()
        f = "-nan" if sc["fmeasure"] != sc["fmeasure"] else f"{sc['fmeasure']:.2f}"  # glibc's 0.0/0.0 on x86-64
        return [f"-- {title} --", f"Number of sentence        = {self.sentences:6d}",
                f"Number of Error sentence  = {self.error_sentences:6d}",
                f"Number of Skip  sentence  = {self.skip_sentences:6d}",
                f"Number of Valid sentence  = {self.valid_sentences:6d}",
                f"Bracketing Recall         = {sc['recall']:6.2f}", f"Bracketing Precision      = {sc['precision']:6.2f}",
                f"Bracketing FMeasure       = {f:>6}", f"Complete match            = {sc['complete_match']:6.2f}",
                f"Average crossing          = {sc['average_crossing']:6.2f}",
                f"No crossing               = {sc['no_crossing']:6.2f}",
                f"2 or less crossing        = {sc['two_or_less_crossing']:6.2f}",
                f"Tagging accuracy          = {sc['tagging_accuracy']:6.2f}"]


@dataclass
class EvalbReport:
    """Everything EVALB prints: rows, totals for all and for length <= cutoff, the error
    messages it writes on stderr (``"line : message"``) and whether it gave up. ``sentences``
    is a list, or a compiled run's ``_evalb.SentenceRows`` (a sequence of the same
    :class:`SentenceResult`), or empty when the run kept no rows (``keep_sentences=False``)."""

    params: EvalbSettings
    sentences: List[SentenceResult] = field(default_factory=list)
    all: Totals = field(default_factory=Totals)
    cutoff: Totals = field(default_factory=Totals)
    messages: List[str] = field(default_factory=list)
    aborted: bool = False

    def statistics(self) -> "UnitCounts":
        """EVALB's "All" figures per sentence, as fractions (:data:`STATISTICS`: recall,
        precision, F as 2·matched / (gold + test), complete match, average crossing in
        brackets per sentence, no crossing, two or less crossing, tagging accuracy), one unit
        a row (0-based, in file order): a :class:`~spacy_agreement.evaluation.unit_counts.UnitCounts`
        whose sums are the "All" totals, what ``--ci`` and ``compare`` resample. Error and skip
        sentences are set aside, as EVALB leaves them out of its totals. A run that kept no
        rows (``keep_sentences=False``) has none to give: :class:`~spacy_agreement.errors.AgreementError`."""
        import numpy as np  # (here: EVALB's own run needs no numpy)

        unit_counts = _unit_counts()
        if isinstance(self.sentences, Unkept) and self.all.sentences:
            raise AgreementError("this EVALB run kept no rows (keep_sentences=False): its counts per sentence are gone")
        rows = np.array([(s.id, s.status, s.matched, s.gold_brackets, s.test_brackets, s.crossing, s.words,
                          s.correct_tags) for s in self.sentences], dtype=np.int64).reshape(-1, 8)
        line, status, matched, gold, test, crossing, words, tags = rows.T
        labels = {k: f"line {n}" for k, n in enumerate(line.tolist())}
        set_aside = {k: f"line {line[k]}: EVALB {'error' if status[k] == ERROR else 'skip'} sentence"
                     for k in np.flatnonzero(status != OK).tolist()}
        kept = np.flatnonzero(status == OK)
        matched, gold, test, crossing, words, tags = (c[kept] for c in (matched, gold, test, crossing, words, tags))
        one = np.ones(len(kept))
        numerators = np.stack([matched, matched, 2 * matched, (gold == test) & (test == matched), crossing,
                               crossing == 0, crossing <= 2, tags], axis=1).astype(float)
        denominators = np.stack([gold, test, gold + test, one, one, one, one, words], axis=1).astype(float)
        return unit_counts.from_rows(STATISTICS, kept, numerators, denominators, [unit_counts.ratio] * len(STATISTICS),
                                     labels, set_aside)

    def to_dict(self, sentences: bool = True) -> Dict[str, object]:
        out: Dict[str, object] = {"all": self.all.to_dict(), "cutoff_len": self.params.cutoff_len,
                                  "cutoff": self.cutoff.to_dict(), "aborted": self.aborted,
                                  "messages": list(self.messages)}
        if sentences:
            out["sentences"] = [s.to_dict() for s in self.sentences]
        return out


HEADER = ("  Sent.                        Matched  Bracket   Cross        Correct Tag\n"
          " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy\n" + "=" * 76 + "\n")


def format_rows(sentences: Iterable[SentenceResult]) -> str:
    """EVALB's per-sentence rows, each line ending in a newline (a ``DEBUG`` listing after its row)."""
    if _evalb is not None and isinstance(sentences, _evalb.SentenceRows):
        return sentences.text().decode("latin-1")
    return "".join(s.row() + "\n" + (s.debug + "\n" if s.debug else "") for s in sentences)


def format_summary(report: EvalbReport) -> str:
    """What EVALB prints after the rows (the totals line and both summaries, without the last
    newline); nothing when the run was aborted."""
    if report.aborted:
        return ""
    out = ["=" * 76]
    t = report.all
    total = ""
    if t.gold_brackets > 0 and t.test_brackets > 0:
        sc = t.scores()
        total = (f"                {sc['recall']:6.2f} {sc['precision']:6.2f} {t.matched:6d} {t.gold_brackets:5d} "
                 f"{t.test_brackets:5d}  {t.crossing:5d}")
    acc = 100.0 * t.correct_tags / t.words if t.words > 0 else 0.0
    out.append(f"{total}  {t.words:5d} {t.correct_tags:5d}   {acc:6.2f}")
    out.append("=== Summary ===")
    out += [""] + t.block("All") + [""] + report.cutoff.block(f"len<={report.params.cutoff_len}")
    return "\n".join(out)


def format_report(report: EvalbReport) -> str:
    """EVALB's output, line for line (without the last newline): :data:`HEADER`,
    :func:`format_rows`, :func:`format_summary`."""
    text = HEADER + format_rows(report.sentences) + format_summary(report)
    return text if not text.endswith("\n") else text[:-1]


class Unkept(list):
    """``EvalbReport.sentences`` of a run that keeps no rows (``keep_sentences=False``)."""

    def append(self, item) -> None:
        pass


__all__ = ["ERROR", "HEADER", "OK", "SKIP", "STATISTICS", "EvalbReport", "SentenceResult", "Totals", "Unkept", "format_report",
           "format_rows", "format_summary"]
