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

Speed: the sentences EVALB scores without complaint (nearly all of a real run) are read and
scored by the compiled :mod:`spacy_agreement._evalb` (``Scorer``: the same steps in C, no
Python object per word), and :func:`evaluate_files` runs EVALB's loop there, over the files
read in blocks, keeping the rows as 9 integers a sentence. Every pair EVALB reports an error
for (and every run with ``DEBUG``) is scored by the Python code below, which is the reference:
``fast=False`` scores everything with it. :class:`SentenceBuilder` and :func:`score_sentence`
(GEIG's counts, :mod:`.geig`) are the Python path; ``_evalb.Scorer(params).score(gold, test)``
scores one pair of Latin-1 lines the fast way (``None`` where EVALB reports an error).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, List, Optional, Sequence

from ...adapters.documents import read_document
from ...adapters.evalb_files import file_lines, line_reader
from .evalb_params import BLANK, EvalbSettings, Path
from .evalb_report import (ERROR, HEADER, OK, SKIP, EvalbReport, SentenceResult, Totals, Unkept, format_report,
                           format_rows, format_summary)

try:  # the compiled hot path; without it (a stale build) everything runs in Python
    from ... import _evalb
except ImportError:  # pragma: no cover
    _evalb = None  # type: ignore[assignment]

__all__ = ["HEADER", "EvalbSettings", "EvalbReport", "Evaluator", "SentenceResult", "Totals", "evaluate", "evaluate_files",
           "fast_scorer", "file_lines", "format_report", "format_rows", "format_summary", "read_sentence",
           "score_sentence"]

_TERMINATORS = BLANK + "()"
_QUOTE_WORDS = ("'", '"', "/")
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
    (:mod:`spacy_agreement.evaluation.constituency.geig`): ``terminal`` for ``(label word)``, ``open``/``close``."""

    def __init__(self, params: EvalbSettings, error=None):
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


def read_sentence(line: str, params: EvalbSettings, error=None) -> _Sentence:
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


def _fix_quote(gold: _Sentence, test: _Sentence, params: EvalbSettings) -> None:
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


def _massage(s: _Sentence, params: EvalbSettings) -> int:
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


def score_sentence(gold: _Sentence, test: _Sentence, params: EvalbSettings, line: int = 1, status: int = OK,
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


class Evaluator:
    """EVALB's main loop, one line pair at a time (:meth:`add`), then :meth:`finish`.
    ``fast``: pairs EVALB scores without error go through the compiled scorer
    (:func:`fast_scorer`); the others, and all with ``fast=False``, through :meth:`read_and_score`."""

    def __init__(self, params: Optional[EvalbSettings] = None, fast: bool = True):
        self.params = params or EvalbSettings()
        self.report = EvalbReport(self.params)
        self.scorer = fast_scorer(self.params) if fast else None
        self._errors, self._line, self._ended = 0, 0, False

    def _error(self, message: str) -> None:
        self.report.messages.append(f"{self._line} : {message}")
        self._errors += 1
        if self._errors - 1 > self.params.max_error:
            self.report.aborted = True
            raise EvalbAbort(message)

    def add(self, gold_line: str, test_line: Optional[str], line: Optional[int] = None) -> Optional[SentenceResult]:
        """Score one line pair (``test_line`` None: the test file has ended, an error);
        raises :class:`EvalbAbort` when EVALB would exit. ``line``: its line number (the
        next one by default)."""
        if self.scorer is not None and test_line is not None:
            try:
                row = self.scorer.score(gold_line.encode("latin-1"), test_line.encode("latin-1"))
            except UnicodeEncodeError:  # a character no file byte is: the Python path decides
                row = None
            if row is not None:
                self._line = self._line + 1 if line is None else line
                return self._record(SentenceResult(self._line, *row))
        return self.read_and_score(gold_line, test_line, line)

    def read_and_score(self, gold_line: str, test_line: Optional[str],
                       line: Optional[int] = None) -> Optional[SentenceResult]:
        """:meth:`add` by the Python port alone: EVALB's reading, ``calc_result`` and error
        handling step by step (what the compiled loop calls for the pairs it leaves)."""
        self._line = self._line + 1 if line is None else line
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
        return self._record(result)

    def _record(self, result: SentenceResult) -> SentenceResult:
        self.report.sentences.append(result)
        self.report.all.add(result)
        if result.length <= self.params.cutoff_len:
            self.report.cutoff.add(result)
        return result

    def merge(self, all_counts: Sequence[int], cutoff_counts: Sequence[int]) -> None:
        """Totals of sentences scored elsewhere (the compiled loop), in :class:`Totals`' field order."""
        self.report.all.merge(all_counts)
        self.report.cutoff.merge(cutoff_counts)

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

    def finish(self, test_left: bool = False, lines: Optional[int] = None) -> EvalbReport:
        """``test_left``: the test file has more lines (an error, as in EVALB); ``lines``:
        the number of line pairs read (when they were not all read through :meth:`add`)."""
        if lines is not None:
            self._line = lines
        if test_left and not self._ended:
            self._line += 1
            self._error("Number of lines unmatch (too many lines in test file)")
        return self.report


def fast_scorer(params: EvalbSettings):
    """The compiled scorer for ``params`` (``_evalb.Scorer``), or None where the Python port
    must do everything: no compiled module, ``DEBUG`` listings, labels outside Latin-1."""
    if _evalb is None or params.debug >= 1:
        return None
    try:
        return _evalb.Scorer(params)
    except ValueError:
        return None


def evaluate(gold_lines: Iterable[str], test_lines: Iterable[str],
             params: Optional[EvalbSettings] = None, fast: bool = True) -> EvalbReport:
    """Score parallel lines; never raises for bad sentences (see :class:`EvalbReport`).
    ``fast=False``: the Python port alone (the reference the compiled path is tested against)."""
    evaluator = Evaluator(params, fast)
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


def evaluate_files(gold: Path, test: Path, params: Optional[EvalbSettings] = None,
                   reader: str = "evalb-lines", fast: bool = True, keep_sentences: bool = True,
                   write: Optional[Callable[[bytes], object]] = None) -> EvalbReport:
    """:func:`evaluate` on two bracket files, read line by line as EVALB reads them
    (:func:`~spacy_agreement.adapters.evalb_files.file_lines`, also importable from here).

    With the built-in reader the files are read in blocks and EVALB's loop runs compiled
    (:func:`spacy_agreement._evalb.run_files`); ``report.sentences`` then holds the rows
    compactly (9 integers a sentence, a :class:`SentenceResult` made on access), or nothing
    with ``keep_sentences=False`` (the totals are kept either way). ``write``: the rows are
    handed to it as EVALB prints them (Latin-1 bytes, in blocks) while they are scored, so
    that a caller can stream them out between :data:`HEADER` and :func:`format_summary`."""
    evaluator = Evaluator(params, fast)
    if reader != "evalb-lines" or evaluator.scorer is None:
        report = evaluate(read_document(reader, gold), read_document(reader, test), evaluator.params, fast)
        if write is not None:
            write(format_rows(report.sentences).encode("latin-1"))
        if not keep_sentences:
            report.sentences = Unkept()
        return report
    rows = _evalb.SentenceRows(SentenceResult) if keep_sentences else None
    evaluator.report.sentences = rows if rows is not None else Unkept()  # type: ignore[assignment]
    try:
        with line_reader(gold) as gold_lines, line_reader(test) as test_lines:
            lines, test_left = _evalb.run_files(evaluator.scorer, gold_lines, test_lines, evaluator, rows, write)
        if test_left is not None:
            evaluator.finish(test_left=test_left, lines=lines)
    except EvalbAbort:
        pass
    return evaluator.report
