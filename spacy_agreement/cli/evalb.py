"""``spacy-agreement evalb``: bracket scores exactly as EVALB prints them (its bytes, diff-able with its output)."""
from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import Optional

import typer

from ..errors import InvalidTreeError, Location
from ..evaluation.evalb import HEADER, EvalbParams, evaluate_files, format_report, format_summary
from .handling import handled_errors
from .options import json_option, output_option, quiet_option, tsv_option
from .output import Output
from .registry import command
from .settings_options import apply_signature, signature_option, with_signature
from .intervals import (ci_option, confidence_option, interval_option, interval_settings, intervals, resamples_option,
                        seed_option)


def looks_like_conll(path: Path) -> Optional[int]:
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


def check_bracketed(*paths: Path) -> None:
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


@command("evalb")
def evalb_command(
    gold: Path = typer.Argument(..., help="Gold trees, one per line as EVALB reads them (any suffix: .gld, .mrg, ...)."),
    test: Path = typer.Argument(..., help="Test (parser) trees, line by line parallel to GOLD."),
    params: Optional[Path] = typer.Option(None, "--params", "-p", help="EVALB parameter file (COLLINS.prm, new.prm); default: EVALB's built-in settings."),
    max_error: Optional[int] = typer.Option(None, "--max-error", "-e", help="Override MAX_ERROR: give up after this many errors (+1)."),
    cutoff_len: Optional[int] = typer.Option(None, "--cutoff-len", "-c", help="Override CUTOFF_LEN for the len<=N summary."),
    as_json: bool = json_option("Print one JSON object: every sentence and both summaries."),
    tsv: bool = tsv_option("Print key and value, tab-separated (the summaries; nested keys as a.b)."),
    quiet: bool = quiet_option("Nothing on stderr but errors (no EVALB warnings or messages)."),
    output: Optional[Path] = output_option(),
    signature: Optional[str] = signature_option(),
    ci: bool = ci_option(),
    resamples: int = resamples_option(),
    seed: int = seed_option(),
    confidence: float = confidence_option(),
    interval: str = interval_option(),
) -> None:
    """Bracket scores exactly as EVALB (Sekine & Collins) prints them, diff-able with its output."""
    with handled_errors(gold, test, params, may_be_empty=(params,)):
        out = Output(as_json, tsv, output, quiet)
        check_bracketed(gold, test)
        settings = EvalbParams.read(params) if params else EvalbParams()
        settings = apply_signature(settings.with_options(max_error=max_error, cutoff_len=cutoff_len), signature)
        for warning in settings.warnings:
            out.note(warning)
        # EVALB's bytes, whatever the encoding of the terminal. The rows go out in blocks as they are
        # scored: to stdout, or with --output to a temporary file (in memory up to 1 MiB) copied there at
        # the end (no file is written when the run fails). For --json and --ci (per-sentence counts) they
        # are kept, 9 integers a sentence; --tsv prints the summaries alone
        stream = not out.structured
        spool = tempfile.SpooledTemporaryFile(max_size=1 << 20) if stream and output is not None else None

        def emit(data: bytes) -> None:  # bytes ending in a newline
            if spool is not None:
                spool.write(data)
            else:
                out.emit(data[:-1].decode("latin-1"), encoding="latin-1")

        try:
            if stream:
                emit(HEADER.encode("latin-1"))
            report = evaluate_files(gold, test, settings, keep_sentences=as_json or ci,
                                    write=emit if stream else None)
            for message in report.messages:
                out.note(message)
            ci_text, ci_json = "", {}
            if ci and not report.aborted:
                from ..evaluation.unit_counts import evalb_unit_counts
                from ..report.comparison_text import BRACKET_NAMES

                ci_text, ci_json = intervals(evalb_unit_counts(report), interval_settings(resamples, seed, confidence,
                                                                                          interval), BRACKET_NAMES)
                ci_text = "\n\n" + ci_text  # after EVALB's bytes, which stay as they are
            # (no signature line in the text, EVALB's bytes: it is in --json and --tsv)
            if not stream:
                out.write(lambda: format_report(report) + ci_text,
                          lambda: {**with_signature(report.to_dict(sentences=as_json), settings.signature()),
                                   **ci_json}, encoding="latin-1")
            elif not report.aborted:
                emit((format_summary(report) + ci_text + "\n").encode("latin-1"))
            if spool is not None:
                spool.seek(0)
                with open(output, "wb") as handle:
                    shutil.copyfileobj(spool, handle)
        finally:
            if spool is not None:
                spool.close()
    if report.aborted:
        raise typer.Exit(code=1)
