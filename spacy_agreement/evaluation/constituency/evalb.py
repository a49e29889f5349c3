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

Two implementations, the same numbers: the sentences EVALB scores without complaint (nearly all
of a real run) are read and scored by the *compiled* :mod:`spacy_agreement._evalb` (``Scorer``:
the same steps in C, no Python object per word), and :meth:`Evaluator.add_files` runs EVALB's
loop there, over the files read in blocks, keeping the rows as 9 integers a sentence. Every pair
EVALB reports an error for (and every run with ``DEBUG``) is scored by the Python port, the
*reference* (:mod:`.evalb_reference`): ``compiled=False`` scores everything with it. :class:`SentenceBuilder` and
:func:`score_sentence` (GEIG's counts, :mod:`.geig`) are the reference's;
``_evalb.Scorer(params).score(gold, test)`` scores one pair of Latin-1 lines compiled (``None``
where EVALB reports an error). :class:`Evaluator` is the family's accumulator (pairs or files
in, an :class:`EvalbReport` out, whose :meth:`~EvalbReport.statistics` are its counts per sentence).
"""
from __future__ import annotations

from typing import Callable, Iterable, Optional, Sequence

from ...adapters.documents import read_document
from ...adapters.evalb_files import file_lines, line_reader
from ...errors import AgreementError
from .evalb_params import EvalbSettings, Path
from .evalb_reference import (READING_SENTENCE_REPEATS, EvalbAbort, SentenceBuilder, _debug_listing, _Sentence,  # noqa: F401
                              read_sentence, score_sentence)  # (re-exported: the reference's public names)
from .evalb_report import (ERROR, HEADER, OK, SKIP, EvalbReport, SentenceResult, Totals, Unkept, format_report,  # noqa: F401
                           format_rows, format_summary)

try:  # the compiled hot path; without it (a stale build) everything runs in Python
    from ... import _evalb
except ImportError:  # pragma: no cover
    _evalb = None  # type: ignore[assignment]

__all__ = ["HEADER", "EvalbSettings", "EvalbReport", "Evaluator", "SentenceResult", "Totals", "compiled_scorer",
           "evaluate", "evaluate_files", "fast_scorer", "file_lines", "format_report", "format_rows", "format_summary",
           "read_sentence", "score_sentence"]


class Evaluator:
    """EVALB's main loop, the family's accumulator (the shape of every family's:
    :class:`~spacy_agreement.evaluation.conll18.accumulator.AlignedEvaluator`,
    :class:`~.leaf_ancestor_accumulator.LeafAncestorEvaluator`): :meth:`add` one line pair,
    :meth:`add_files` two files (EVALB's loop compiled, over blocks of the files), then
    :meth:`result`, an :class:`EvalbReport` whose :meth:`~EvalbReport.statistics` are its
    counts per sentence. ``compiled``: pairs EVALB scores without error go through the
    compiled scorer (:func:`compiled_scorer`); the others, and all with ``compiled=False``,
    through the reference, the Python port (:meth:`read_and_score`). ``keep_sentences=False``
    keeps no rows (the totals are kept). ``fast`` is the old name of ``compiled``."""

    def __init__(self, params: Optional[EvalbSettings] = None, compiled: bool = True, keep_sentences: bool = True,
                 *, fast: Optional[bool] = None):
        compiled = compiled if fast is None else fast
        self.params = params or EvalbSettings()
        self.report = EvalbReport(self.params)
        if not keep_sentences:
            self.report.sentences = Unkept()
        self.keep_sentences = keep_sentences
        self.scorer = compiled_scorer(self.params) if compiled else None
        self._errors, self._line, self._ended, self._closed = 0, 0, False, False

    def _error(self, message: str) -> None:
        self.report.messages.append(f"{self._line} : {message}")
        self._errors += 1
        if self._errors - 1 > self.params.max_error:
            self.report.aborted = True
            raise EvalbAbort(message)

    def add(self, gold_line: str, test_line: Optional[str], line: Optional[int] = None) -> Optional[SentenceResult]:
        """Score one line pair (``test_line`` None: the test file has ended, an error);
        raises :class:`EvalbAbort` when EVALB would exit (:meth:`result` then gives the
        report so far, ``aborted`` set). ``line``: its line number (the next one by default)."""
        if self.scorer is not None and test_line is not None:
            try:
                row = self.scorer.score(gold_line.encode("latin-1"), test_line.encode("latin-1"))
            except UnicodeEncodeError:  # a character no file byte is: the reference decides
                row = None
            if row is not None:
                self._line = self._line + 1 if line is None else line
                return self._record(SentenceResult(self._line, *row))
        return self.read_and_score(gold_line, test_line, line)

    def read_and_score(self, gold_line: str, test_line: Optional[str],
                       line: Optional[int] = None) -> Optional[SentenceResult]:
        """:meth:`add` by the reference alone: EVALB's reading, ``calc_result`` and error
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

    def add_lines(self, gold_lines: Iterable[str], test_lines: Iterable[str]) -> EvalbReport:
        """Every pair of two parallel sequences of lines, as EVALB reads two files (a gold
        line without a test line, or test lines left over, is an error), then :meth:`result`;
        never raises for bad sentences (the report says where EVALB gave up)."""
        gold_it, test_it = iter(gold_lines), iter(test_lines)
        try:
            for gold_line in gold_it:
                test_line = next(test_it, None)
                self.add(gold_line, test_line)
                if test_line is None:
                    return self.result()
            return self.result(test_left=next(test_it, None) is not None)
        except EvalbAbort:
            return self.report

    def add_files(self, gold: Path, test: Path, reader: str = "evalb-lines",
                  write: Optional[Callable[[bytes], object]] = None) -> EvalbReport:
        """Two bracket files, read line by line as EVALB reads them (``reader``: another
        registered reader's trees, one a line), scored and closed: the :meth:`result`. With
        the built-in reader and the compiled scorer the files are read in blocks and EVALB's
        loop runs compiled (:func:`spacy_agreement._evalb.run_files`, which hands the pairs it
        leaves to :meth:`read_and_score` and its totals to :meth:`merge`); the rows are then
        kept compactly (9 integers a sentence). ``write`` gets the rows as EVALB prints them
        (Latin-1 bytes). One pair of files per evaluator (EVALB's run), nothing added before."""
        if self._line or self._closed:
            raise AgreementError("Evaluator.add_files scores a run of its own: use a new Evaluator")
        if reader != "evalb-lines" or self.scorer is None:
            if write is not None:
                self.report.sentences = []  # the rows, until written
            report = self.add_lines(read_document(reader, gold), read_document(reader, test))
            if write is not None:
                write(format_rows(report.sentences).encode("latin-1"))
            if not self.keep_sentences:
                report.sentences = Unkept()
            return report
        rows = _evalb.SentenceRows(SentenceResult) if self.keep_sentences else None
        self.report.sentences = rows if rows is not None else Unkept()  # type: ignore[assignment]
        try:
            with line_reader(gold) as gold_lines, line_reader(test) as test_lines:
                lines, test_left = _evalb.run_files(self.scorer, gold_lines, test_lines, self, rows, write)
            if test_left is not None:
                self.result(test_left=test_left, lines=lines)
        except EvalbAbort:
            pass
        self._closed = True
        return self.report

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

    def result(self, test_left: bool = False, lines: Optional[int] = None) -> EvalbReport:
        """The report of the pairs added. ``test_left``: the test file has more lines (an
        error, as in EVALB); ``lines``: the number of line pairs read (when they were not all
        read through :meth:`add`). Closes the run: later calls give the same report."""
        if self._closed:
            return self.report
        self._closed = True
        if lines is not None:
            self._line = lines
        if test_left and not self._ended:
            self._line += 1
            self._error("Number of lines unmatch (too many lines in test file)")
        return self.report

    finish = result  # the old name


def compiled_scorer(params: EvalbSettings):
    """The compiled scorer for ``params`` (``_evalb.Scorer``), or None where the reference (the
    Python port) must do everything: no compiled module, ``DEBUG`` listings, labels outside Latin-1."""
    if _evalb is None or params.debug >= 1:
        return None
    try:
        return _evalb.Scorer(params)
    except ValueError:
        return None


fast_scorer = compiled_scorer  # the old name


def evaluate(gold_lines: Iterable[str], test_lines: Iterable[str],
             params: Optional[EvalbSettings] = None, compiled: bool = True, *, fast: Optional[bool] = None
             ) -> EvalbReport:
    """Score parallel lines (:meth:`Evaluator.add_lines`); never raises for bad sentences (see
    :class:`EvalbReport`). ``compiled=False``: the reference, the Python port, alone (what the
    compiled path is tested against); ``fast`` is its old name."""
    return Evaluator(params, compiled, fast=fast).add_lines(gold_lines, test_lines)


def evaluate_files(gold: Path, test: Path, params: Optional[EvalbSettings] = None,
                   reader: str = "evalb-lines", compiled: bool = True, keep_sentences: bool = True,
                   write: Optional[Callable[[bytes], object]] = None, *, fast: Optional[bool] = None) -> EvalbReport:
    """:func:`evaluate` on two bracket files, read line by line as EVALB reads them
    (:func:`~spacy_agreement.adapters.evalb_files.file_lines`, also importable from here):
    :meth:`Evaluator.add_files`.

    With the built-in reader the files are read in blocks and EVALB's loop runs compiled
    (:func:`spacy_agreement._evalb.run_files`); ``report.sentences`` then holds the rows
    compactly (9 integers a sentence, a :class:`SentenceResult` made on access), or nothing
    with ``keep_sentences=False`` (the totals are kept either way). ``write``: the rows are
    handed to it as EVALB prints them (Latin-1 bytes, in blocks) while they are scored, so
    that a caller can stream them out between :data:`HEADER` and :func:`format_summary`.
    ``compiled=False`` (old name ``fast``): the reference alone."""
    return Evaluator(params, compiled, keep_sentences, fast=fast).add_files(gold, test, reader, write)
