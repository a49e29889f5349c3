"""``spacy-agreement evalb`` as one function: :func:`evalb` scores two bracket files as EVALB
(Sekine & Collins 1997) does and returns an :class:`EvalbRun`, whose :meth:`~EvalbRun.to_dict`
is what ``evalb --json`` prints (the rows, both summaries, the messages, the signature of the
parameters, and with ``ci=True`` the bootstrap intervals). The scoring itself is
:func:`~spacy_agreement.evaluation.constituency.evalb.evaluate_files` (the family's accumulator,
:class:`~spacy_agreement.evaluation.constituency.evalb.Evaluator`: EVALB's loop, compiled where it
applies), the intervals' counts per sentence the report's own
(:meth:`~spacy_agreement.evaluation.constituency.evalb_report.EvalbReport.statistics`); the text,
EVALB's bytes, is :func:`~spacy_agreement.evaluation.constituency.evalb.format_report`.
"""
from __future__ import annotations

import os
import re
from typing import Any, Callable, Dict, List, Optional, Union

from ...errors import InvalidTreeError, Location
from ..._calling import positional_settings
from ...adapters.objects import InputFiles
from ..command_results import CommandRun, Intervals, bootstrap_intervals, html_table, json_safe, resolve_settings
from .evalb import HEADER, evaluate_files, format_report
from .evalb_params import EvalbSettings
from .evalb_report import EvalbReport

PathLike = Union[str, "os.PathLike[str]"]


def looks_like_conll(path: PathLike) -> Optional[int]:
    """The line of the first content of ``path`` when the file is CoNLL, not bracketed trees:
    its first line other than blank or a ``#`` comment is a token line (tab-separated fields,
    an id first); ``None`` otherwise (a tree, a blank file, anything else: EVALB's own reading
    reports it)."""
    first = None
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, start=1):
                text = line.strip()
                if not text:
                    continue
                first = first or number
                if text.startswith("#"):
                    continue
                fields = line.rstrip("\r\n").split("\t")
                token = len(fields) >= 8 and re.fullmatch(r"\d+(?:[-.]\d+)?", fields[0]) is not None
                return first if token else None
    except OSError:
        return None  # reading it reports the problem
    return None


def check_bracketed(*paths: PathLike) -> None:
    """One error for an input that is CoNLL, before EVALB reads it line by line (where each
    token line would be one more ``Reading sentence`` message); a file that cannot be opened
    (missing, a folder, unreadable) is reported first, as itself."""
    for path in paths:
        open(path, "rb").close()
    for path in paths:
        line = looks_like_conll(path)
        if line is not None:
            raise InvalidTreeError("not bracketed trees: it looks like CoNLL (tab-separated token lines); "
                                   "evalb reads one bracketed tree a line (dependency trees: use evaluate)",
                                   Location(str(path), line=line))


def evalb_settings(settings: Union[None, str, EvalbSettings] = None,
                   params: Union[None, PathLike, EvalbSettings] = None, max_error: Optional[int] = None,
                   cutoff_len: Optional[int] = None) -> EvalbSettings:
    """The parameters of one run: the parameter file ``params`` (a path, read as EVALB reads it,
    or an :class:`~spacy_agreement.evaluation.constituency.evalb_params.EvalbSettings`; EVALB's built-in
    settings without it), ``MAX_ERROR`` and ``CUTOFF_LEN`` overridden where given, and
    ``settings`` (parameters, or a signature given back) as ``--signature`` applies them."""
    if params is None:
        base = EvalbSettings()
    elif isinstance(params, EvalbSettings):
        base = params
    else:
        base = EvalbSettings.read(params)
    return resolve_settings(settings, base.with_options(max_error=max_error, cutoff_len=cutoff_len))


class EvalbRun(CommandRun):
    """One ``evalb`` run: :attr:`report` (EVALB's rows, summaries and messages, an
    :class:`~spacy_agreement.evaluation.constituency.evalb_report.EvalbReport`, whose attributes this
    object also answers: ``all``, ``cutoff``, ``sentences``, ``messages``, ``aborted``), the
    parameters it ran with (:attr:`settings`) and with ``ci=True`` the bootstrap intervals
    (:attr:`intervals`). :meth:`to_dict` is ``evalb --json``; :meth:`text` EVALB's output."""

    WRAPS = "report"

    def __init__(self, report: EvalbReport, settings: EvalbSettings, intervals: Optional[Intervals] = None):
        self.report, self.settings, self.intervals = report, settings, intervals


    def scores(self) -> Dict[str, float]:
        """EVALB's "All" summary as percentages (F NaN when recall + precision is 0)."""
        return self.report.all.scores()

    def to_dict(self, sentences: bool = True) -> Dict[str, Any]:
        """What ``evalb --json`` prints (``sentences=False``: without the rows, ``--tsv``'s keys; an
        undefined figure is None, JSON's null)."""
        out = {**self.report.to_dict(sentences=sentences), "signature": self.signature}
        if self.intervals is not None:
            out.update(self.intervals.to_dict())
        return json_safe(out)

    def text(self) -> str:
        """EVALB's output, line for line (without the last newline; empty rows where the run kept none)."""
        return format_report(self.report)

    @property
    def score(self) -> float:
        """The headline figure: EVALB's bracketing F of "All", a fraction (``nan`` when undefined)."""
        return self.report.all.fractions()["fmeasure"]

    @property
    def aborted(self) -> bool:
        """Whether EVALB gave up (more than ``MAX_ERROR`` errors), as it exits with status 1."""
        return bool(self.report.aborted)

    @property
    def messages(self) -> List[str]:
        """EVALB's messages (``1001 : Number of lines unmatch``, errors): the command prints them on stderr."""
        return list(self.report.messages)

    def __repr__(self) -> str:
        if self.report.aborted:
            head = f"aborted after {len(self.report.messages)} message(s)"
        else:
            sc, t = self.report.all.scores(), self.report.all
            head = (f"F {sc['fmeasure']:.2f}, recall {sc['recall']:.2f}, precision {sc['precision']:.2f}, "
                    f"tagging {sc['tagging_accuracy']:.2f}; {t.sentences} sentences "
                    f"({t.error_sentences} error, {t.skip_sentences} skip)")
        return f"EvalbRun({head}; {self.signature})"

    def _headline_html(self) -> str:
        t, c = self.report.all, self.report.cutoff
        if self.report.aborted:
            return html_table("EVALB: aborted", [("messages", str(len(self.report.messages)))], self.signature,
                              self.report.messages[-3:])
        names = (("Bracketing Recall", "recall"), ("Bracketing Precision", "precision"),
                 ("Bracketing FMeasure", "fmeasure"), ("Complete match", "complete_match"),
                 ("Average crossing", "average_crossing"), ("Tagging accuracy", "tagging_accuracy"))
        a, b = t.scores(), c.scores()
        rows = [("", f"All / len<={self.settings.cutoff_len}")]
        rows += [(label, f"{a[key]:.2f} / {b[key]:.2f}") for label, key in names]
        rows += [("Sentences (error, skip)", f"{t.sentences} ({t.error_sentences}, {t.skip_sentences})")]
        notes = self.report.messages[:10] + ([f"... and {len(self.report.messages) - 10} more in .messages"]
                                             if len(self.report.messages) > 10 else [])
        return html_table("EVALB", rows, self.signature, notes)  # EVALB's messages: the command's stderr


def evalb(gold: Any, test: Any, *args: Any, settings: Union[None, str, EvalbSettings] = None,
          signature: Optional[str] = None, params: Union[None, PathLike, EvalbSettings] = None, max_error: Optional[int] = None,
          cutoff_len: Optional[int] = None, ci: bool = False, resamples: int = 1000, seed: int = 1,
          confidence: float = 0.95, interval: str = "percentile", keep_sentences: bool = True,
          write: Optional[Callable[[bytes], object]] = None) -> EvalbRun:
    """``spacy-agreement evalb GOLD TEST``: bracket scores exactly as EVALB (Sekine & Collins 1997)
    computes them, from two files of bracketed trees read line by line as EVALB reads them
    (the Parseval/GEIG brackets of Black et al. 1991, labelled as in Collins 1997;
    :mod:`spacy_agreement.evaluation.constituency.evalb` says every step).

    ``params`` is ``-p``: an EVALB parameter file (``COLLINS.prm``, ``new.prm``) or its
    :class:`~spacy_agreement.evaluation.constituency.evalb_params.EvalbSettings`; without it EVALB's built-in
    settings. ``max_error`` and ``cutoff_len`` override ``MAX_ERROR`` and ``CUTOFF_LEN``.
    ``settings``: parameters, or a signature given back (``signature=``, ``--signature``). ``ci=True`` adds
    bootstrap intervals of the "All" figures (``resamples``, ``seed``, ``confidence``,
    ``interval`` as ``--ci`` takes them; none when EVALB gave up).

    ``keep_sentences=False`` keeps no rows (the totals are kept; the rows are needed by
    :meth:`EvalbRun.to_dict` and ``ci``); ``write`` gets the rows as EVALB prints them (Latin-1
    bytes, in blocks, without :data:`~spacy_agreement.evaluation.constituency.evalb.HEADER`) while they are scored.
    A run EVALB gives up on (more than ``MAX_ERROR`` errors) is returned with ``aborted`` set
    and its messages, as EVALB exits with status 1; an input that is CoNLL, not brackets, raises
    :class:`~spacy_agreement.errors.InvalidTreeError`.

    Parameters
    ----------
    gold, test
        The gold and the test trees, each a path (a file of bracketed trees, one a line as EVALB reads them), an NLTK ``Tree``
        (**one** sentence) or an iterable of them, or the package's ``ConstituencyTree``\\ s,
        written to a file and read as the path would be.
    settings
        A settings object of the command (keyword-only), whose fields an option given otherwise than
        by default must not contradict (an error naming the option).
    signature
        A signature given back (as ``--signature``: the signature, or a saved ``--json`` output).
    params
        EVALB's parameter file (``-p``), keyword-only: a third positional value is an error saying so.
    **options
        The command's long options (``-`` as ``_``) with its defaults (see above).

    Returns
    -------
    EvalbRun
        EVALB's rows and summaries (``report``, ``aborted``, ``messages``); ``.score`` is the
        bracketing F of "All" (a fraction), ``str()`` EVALB's output byte for byte, ``to_dict()``
        the command's ``--json`` (fractions).

    Raises
    ------
    TypeError
        An input that is none of the kinds above, or of the other family (dependency analyses
        here): the message names the argument, what was given and the kinds accepted.
    spacy_agreement.EmptyInputError
        An empty file (``FILE: empty file``, as the command says) or an empty list.
    spacy_agreement.InvalidTreeError
        A malformed tree, naming the file, the sentence and the token.
    spacy_agreement.BadOptionError
        An option value the function cannot use, naming the option.

    Examples
    --------
    >>> import spacy_agreement as sa
    >>> from pathlib import Path
    >>> demo = Path(sa.__file__).parent / "data" / "demo"
    >>> run = sa.evalb(demo / "phrase" / "annotator-a.tree", demo / "phrase" / "annotator-b.tree")
    >>> round(run.score, 4), run.aborted
    (0.9333, False)
    """
    settings = positional_settings("evalb", args, settings, signature, EvalbSettings, hint="params='COLLINS.prm'")
    with InputFiles("evalb") as files:
        gold, test = files.path(gold, "gold", "phrase"), files.path(test, "test", "phrase")
        check_bracketed(gold, test)
        chosen = evalb_settings(settings, params, max_error, cutoff_len)
        report = evaluate_files(gold, test, chosen, keep_sentences=keep_sentences or ci, write=write)
    found = None
    if ci and not report.aborted:
        found = bootstrap_intervals(report.statistics(), resamples, seed, confidence, interval)
    return EvalbRun(report, chosen, found)


__all__ = ["HEADER", "EvalbRun", "check_bracketed", "evalb", "evalb_settings", "looks_like_conll"]
