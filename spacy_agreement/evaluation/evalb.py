"""EVALB (Sekine & Collins 1997), the Parseval bracket scorer, reimplemented number for number.

EVALB is what constituency papers report: labelled bracket recall, precision and F of a
test file against a gold file, one tree per line, plus crossing brackets and tagging
accuracy. The bracket measures are Black et al.'s (1991) GEIG ("Parseval") scheme, labelled
as in Collins (1997); Sampson & Babarczy (2003, §1) discuss what it rewards. This module
follows the C program (the 2006 version with David Ellis' ``QUOTE_LABEL`` fix, as shipped
with ``COLLINS.prm`` and ``new.prm``) step by step, so that :func:`format_report` prints
what ``evalb`` prints and the two outputs can be compared with ``diff``:

* a line is read with EVALB's own tokenizer: ``(label word)`` is a word, any other ``(``
  opens a bracket, even an unlabelled one such as the outer ``( (S ...) )`` of ``.mrg``
  files, which is counted like any other bracket; bytes are characters (Latin-1) and only
  ASCII blanks separate them, as in C;
* a word whose tag is a ``DELETE_LABEL`` (``-NONE-``, punctuation) is left out before the
  words are compared, a bracket that then covers no word is dropped, and a bracket label
  loses everything from its first ``-`` or ``=`` (``NP-SBJ-1`` is ``NP``) before
  ``DELETE_LABEL`` and ``EQ_LABEL`` pairs apply;
* the sentence length for ``CUTOFF_LEN`` is the number of gold words whose tag is not a
  ``DELETE_LABEL_FOR_LENGTH``; deleted punctuation counts;
* a test line without words is a *skip* (status 2); different word counts (after
  ``QUOTE_LABEL`` repairs) or words are an *error* (status 1); both are listed and counted
  per sentence, and the run only stops (without a summary, exit status 1) once more than
  ``MAX_ERROR`` + 1 errors have been seen, as EVALB's ``Error`` does;
* brackets are matched greedily, gold order then test order; a test bracket crosses when
  it overlaps a gold bracket without nesting.

Choices where EVALB's behaviour is undefined (it has fixed buffers: 5000 bytes a line, 200
words or brackets, 100 bytes a word, 30 a label): no such limits here; a ``)`` closing
nothing is an error sentence; a parameter keyword without a value gets an empty value.
``DEBUG 1`` prints EVALB's per-sentence listing; the extra trace lines of ``DEBUG 2`` are
not reproduced.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Dict, Iterable, List, Optional

from ..adapters.documents import read_document
from ..adapters.evalb_files import file_lines
from .evalb_params import BLANK, EvalbParams, Path

__all__ = ["EvalbParams", "EvalbReport", "Evaluator", "SentenceResult", "Totals", "evaluate", "evaluate_files",
           "file_lines", "format_report", "read_sentence", "score_sentence"]

_TERMINATORS = BLANK + "()"
_QUOTE_WORDS = ("'", '"', "/")
OK, ERROR, SKIP = 0, 1, 2
#: How often "Reading sentence" is reported for one line at most. EVALB reports it again
#: and again until ``MAX_ERROR`` ends the run; with a ``MAX_ERROR`` over this (EVALB has no
#: bound: a billion would take minutes and the memory of a billion messages) the run ends
#: after this many, with a message saying so.
READING_SENTENCE_REPEATS = 1000


class EvalbAbort(Exception):
    """More errors than ``MAX_ERROR`` allows: EVALB exits with status 1."""


@dataclass
class _Bracket:
    start: int
    label: str
    buf_start: int = 0
    end: int = -1
    buf_end: int = 0
    result: int = 9  # 0 unmatched, 1 matched, 5 deleted, 9 not yet looked at


@dataclass
class _Quote:
    word: str
    label: str
    index: int
    bracket: int
    ends: List[int]


@dataclass
class _Sentence:
    """What EVALB's ``read_line`` gathers from one line: kept words, brackets, quote words."""

    terminals: List[List[str]] = field(default_factory=list)  # [word, label]
    brackets: List[_Bracket] = field(default_factory=list)
    quotes: List[_Quote] = field(default_factory=list)
    stack: List[int] = field(default_factory=list)
    length: int = 0

    @property
    def wn(self) -> int:
        return len(self.terminals)

    def term(self, i: int) -> List[str]:
        return self.terminals[i] if i < len(self.terminals) else ["", ""]


class SentenceBuilder:
    """Collects a sentence as EVALB does, from its tokenizer or from a tree walk
    (:mod:`spacy_agreement.evaluation.geig`): ``terminal`` for ``(label word)``, ``open``/``close``."""

    def __init__(self, params: EvalbParams, error=None):
        self.params, self.sentence = params, _Sentence()
        self._error = error or (lambda message: None)

    def terminal(self, label: str, word: str) -> None:
        s, p = self.sentence, self.params
        if label not in p.delete_labels_for_length:
            s.length += 1
        if label in p.quote_labels and word in _QUOTE_WORDS:
            s.quotes.append(_Quote(word, label, s.wn, len(s.brackets), list(s.stack)))
        if label not in p.delete_labels:
            s.terminals.append([word, label])

    def open(self, label: str, buf_start: int = 0) -> None:
        s = self.sentence
        s.stack.append(len(s.brackets))
        s.brackets.append(_Bracket(s.wn, label, buf_start))

    def close(self, buf_end: int = 0) -> None:
        if not self.sentence.stack:
            self._error("Bracketing unbalance (too many close bracket)")
            return
        bracket = self.sentence.brackets[self.sentence.stack.pop()]
        bracket.end, bracket.buf_end = self.sentence.wn, buf_end

    def finish(self) -> _Sentence:
        if self.sentence.stack:
            self._error("Bracketing is unbalanced (too many open bracket)")
        return self.sentence


def read_sentence(line: str, params: EvalbParams, error=None) -> _Sentence:
    """One line read as EVALB's ``read_line`` does. ``error(message)`` is called for each
    problem; text outside ``(label word)`` is an error EVALB repeats until ``MAX_ERROR``
    ends the run: it is reported ``MAX_ERROR + 2`` times at most (at least once, at most
    :data:`READING_SENTENCE_REPEATS` times), then :class:`EvalbAbort` is raised if ``error``
    has not raised it."""
    builder = SentenceBuilder(params, error)
    report = error or (lambda message: None)
    text, p = line.split("\0")[0], 0
    n = len(text)
    while p < n:
        ch = text[p]
        if ch in BLANK:
            p += 1
        elif ch == "(":
            start = p = p + 1
            while p < n and text[p] not in _TERMINATORS:
                p += 1
            label = text[start:p]
            if p < n and text[p] in BLANK:
                q = p
                while q < n and text[q] in BLANK:
                    q += 1
                word_start = q
                while q < n and text[q] not in _TERMINATORS:
                    q += 1
                if q < n and text[q] == ")":
                    builder.terminal(label, text[word_start:q])
                    p = q + 1
                    continue
                if q >= n or text[q] != "(":
                    report("More than two elements in a bracket")
            builder.open(label, p)
        elif ch == ")":
            builder.close(p)
            p += 1
        else:
            # EVALB loops on this error until MAX_ERROR stops it: its Error() exits once more
            # than MAX_ERROR + 1 errors were seen, so MAX_ERROR + 2 reports are always enough
            for _ in range(max(1, min(params.max_error + 2, READING_SENTENCE_REPEATS))):
                report("Reading sentence")
            raise EvalbAbort("Reading sentence")
    return builder.finish()


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
        keys = ("id", "length", "status", "recall", "precision", "matched", "gold_brackets", "test_brackets",
                "crossing", "words", "correct_tags", "tag_accuracy", "errors")
        return {k: getattr(self, k) for k in keys}


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

    def to_dict(self) -> Dict[str, object]:
        out: Dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["valid_sentences"] = self.valid_sentences
        out.update({k: (None if v != v else v) for k, v in self.scores().items()})
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


def _fix_quote(gold: _Sentence, test: _Sentence, params: EvalbParams) -> None:
    """EVALB's ``fix_quote``: where a quote word was deleted on one side only (a ``'``
    tagged ``''`` in gold and ``POS`` in test, say), put it back on the deleting side."""
    deleted = params.delete_labels
    for i, q2 in enumerate(test.quotes):
        ind = q2.index
        for j, q1 in enumerate(gold.quotes):
            if q1.index != ind or q1.label == q2.label:
                continue
            if q1.label in deleted and q2.label not in deleted:
                _reinsert(q1, gold)
                for later in gold.quotes[j:]:
                    later.index += 1
            elif q2.label in deleted and q1.label not in deleted:
                _reinsert(q2, test)
                for later in test.quotes[i:]:
                    later.index += 1


def _reinsert(quote: _Quote, s: _Sentence) -> None:
    while len(s.terminals) < quote.index:
        s.terminals.append(["", ""])
    s.terminals.insert(quote.index, [quote.word, quote.label])
    for k, bracket in enumerate(s.brackets):
        if k >= quote.bracket:
            bracket.start += 1
            bracket.end += 1
    for k in quote.ends:
        s.brackets[k].end += 1


def _massage(s: _Sentence, params: EvalbParams) -> int:
    for b in s.brackets:
        b.result = 0
        if b.start == b.end:
            b.result = 5
            continue
        b.label = re.split("[-=]", b.label, maxsplit=1)[0]
        if any(params.label_equal(b.label, d) for d in params.delete_labels):
            b.result = 5
    return sum(b.result != 5 for b in s.brackets)


def _crosses(g: _Bracket, t: _Bracket) -> bool:
    return ((g.start < t.start and g.end > t.start and g.end < t.end)
            or (g.start > t.start and g.start < t.end and g.end > t.end))


def score_sentence(gold: _Sentence, test: _Sentence, params: EvalbParams, line: int = 1, status: int = OK,
                   error=None) -> SentenceResult:
    """EVALB's ``calc_result`` for one pair of read sentences (changes them, as EVALB does)."""
    result = SentenceResult(line, gold.length, status)

    def fail(message: str) -> SentenceResult:
        result.status = ERROR
        result.errors.append(message)
        if error:
            error(message)
        return result

    if test.wn == 0:
        result.status = SKIP
        return result
    if gold.wn != test.wn:
        _fix_quote(gold, test, params)
        if gold.wn != test.wn:
            return fail(f"Length unmatch ({gold.wn}|{test.wn})")
    for i in range(gold.wn):
        if not params.word_equal(gold.term(i)[0], test.term(i)[0]):
            return fail(f"Words unmatch ({gold.term(i)[0]}|{test.term(i)[0]})")
    result.gold_brackets, result.test_brackets = _massage(gold, params), _massage(test, params)
    for g in gold.brackets:
        for t in test.brackets:
            if g.result != 5 and t.result == 0 and (g.start, g.end) == (t.start, t.end) and (
                    params.labeled == 0 or params.label_equal(g.label, t.label)):
                g.result = t.result = 1
                result.matched += 1
                break
    result.crossing = sum(any(g.result != 5 and t.result != 5 and _crosses(g, t) for g in gold.brackets)
                          for t in test.brackets)
    result.words = gold.wn
    for i in range(gold.wn):
        g_term, t_term = gold.term(i), test.term(i)
        ok = params.label_equal(g_term[1], t_term[1])
        g_term[2:] = t_term[2:] = [int(ok)]
        result.correct_tags += ok
    return result


def _debug_listing(gold: _Sentence, test: _Sentence) -> str:
    """EVALB's ``dsp_info`` (``DEBUG 1``)."""
    out = [f"-<1>---(wn1={gold.wn:3d}, bn1={len(gold.brackets):3d})-           "
           f"-<2>---(wn2={test.wn:3d}, bn2={len(test.brackets):3d})-"]
    for i in range(max(gold.wn, test.wn)):
        row = []
        for t, tail in ((gold.term(i), "      "), (test.term(i), "")):
            if t[0]:
                row.append(f"{i:3d} : {t[2] if len(t) > 2 else 9:d} : {t[1]:<6s}  {t[0]:<16s}{tail}")
            else:
                row.append(" " * 40 if tail else "")
        out.append("".join(row))
    out.append("")
    for i in range(max(len(gold.brackets), len(test.brackets))):
        row = []
        for bs, tail in ((gold.brackets, "      "), (test.brackets, "")):
            if i < len(bs):
                b = bs[i]
                row.append(f"{i:3d} : {b.result:d} : {b.start:3d}  {b.end:3d}  {b.label:<6s}{tail}")
            else:
                row.append(" " * 32 if tail else "")
        out.append("".join(row))
    return "\n".join(out + ["", "========"])


@dataclass
class EvalbReport:
    """Everything EVALB prints: rows, totals for all and for length <= cutoff, the error
    messages it writes on stderr (``"line : message"``) and whether it gave up."""

    params: EvalbParams
    sentences: List[SentenceResult] = field(default_factory=list)
    all: Totals = field(default_factory=Totals)
    cutoff: Totals = field(default_factory=Totals)
    messages: List[str] = field(default_factory=list)
    aborted: bool = False

    def to_dict(self, sentences: bool = True) -> Dict[str, object]:
        out: Dict[str, object] = {"all": self.all.to_dict(), "cutoff_len": self.params.cutoff_len,
                                  "cutoff": self.cutoff.to_dict(), "aborted": self.aborted,
                                  "messages": list(self.messages)}
        if sentences:
            out["sentences"] = [s.to_dict() for s in self.sentences]
        return out


class Evaluator:
    """EVALB's main loop, one line pair at a time (:meth:`add`), then :meth:`finish`."""

    def __init__(self, params: Optional[EvalbParams] = None):
        self.params = params or EvalbParams()
        self.report = EvalbReport(self.params)
        self._errors, self._line, self._ended = 0, 0, False

    def _error(self, message: str) -> None:
        self.report.messages.append(f"{self._line} : {message}")
        self._errors += 1
        if self._errors - 1 > self.params.max_error:
            self.report.aborted = True
            raise EvalbAbort(message)

    def add(self, gold_line: str, test_line: Optional[str]) -> Optional[SentenceResult]:
        """Score one line pair (``test_line`` None: the test file has ended, an error);
        raises :class:`EvalbAbort` when EVALB would exit."""
        self._line += 1
        status = [OK]

        def error(message: str) -> None:
            status[0] = ERROR
            self._error(message)

        gold = self._read(gold_line, error)
        if test_line is None:
            self._ended = True
            self._error("Number of lines unmatch (too many lines in gold file)")
            return None
        test = self._read(test_line, error)
        result = score_sentence(gold, test, self.params, self._line, status[0], self._error)
        if self.params.debug >= 1:
            result.debug = _debug_listing(gold, test)
        self.report.sentences.append(result)
        self.report.all.add(result)
        if result.length <= self.params.cutoff_len:
            self.report.cutoff.add(result)
        return result

    def _read(self, line: str, error) -> _Sentence:
        try:
            return read_sentence(line, self.params, error)
        except EvalbAbort:
            if not self.report.aborted:  # "Reading sentence" cut short of a MAX_ERROR over the repeats
                self.report.messages.append(
                    f"{self._line} : Reading sentence: reported {READING_SENTENCE_REPEATS} times; EVALB repeats it "
                    f"until MAX_ERROR ({self.params.max_error}) ends the run")
                self.report.aborted = True
            raise

    def finish(self, test_left: bool = False) -> EvalbReport:
        """``test_left``: the test file has more lines (an error, as in EVALB)."""
        if test_left and not self._ended:
            self._line += 1
            self._error("Number of lines unmatch (too many lines in test file)")
        return self.report


def evaluate(gold_lines: Iterable[str], test_lines: Iterable[str],
             params: Optional[EvalbParams] = None) -> EvalbReport:
    """Score parallel lines; never raises for bad sentences (see :class:`EvalbReport`)."""
    evaluator = Evaluator(params)
    gold_it, test_it = iter(gold_lines), iter(test_lines)
    try:
        for gold_line in gold_it:
            test_line = next(test_it, None)
            evaluator.add(gold_line, test_line)
            if test_line is None:
                return evaluator.finish()
        return evaluator.finish(test_left=next(test_it, None) is not None)
    except EvalbAbort:
        return evaluator.report


def format_report(report: EvalbReport) -> str:
    """EVALB's output, line for line (without the last newline)."""
    out = ["  Sent.                        Matched  Bracket   Cross        Correct Tag",
           " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy",
           "=" * 76]
    for s in report.sentences:
        out.append(s.row())
        if s.debug:
            out.append(s.debug)
    if report.aborted:
        return "\n".join(out)
    out.append("=" * 76)
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


def evaluate_files(gold: Path, test: Path, params: Optional[EvalbParams] = None,
                   reader: str = "evalb-lines") -> EvalbReport:
    """:func:`evaluate` on two bracket files, read line by line as EVALB reads them
    (:func:`~spacy_agreement.adapters.evalb_files.file_lines`, also importable from here)."""
    return evaluate(read_document(reader, gold), read_document(reader, test), params)
