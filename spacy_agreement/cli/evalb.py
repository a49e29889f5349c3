"""``spacy-agreement evalb``: bracket scores exactly as EVALB prints them (its bytes, diff-able with its output)."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Optional

import typer

from ..evaluation.constituency.evalb import HEADER, format_report, format_summary
from ..evaluation.constituency.evalb_run import check_bracketed, evalb, evalb_settings, looks_like_conll  # noqa: F401 (compare's)
from ._handling import handled_errors
from ._options import json_option, output_option, quiet_option, tsv_option
from ._output import Output
from ._registry import command
from ._settings_options import signature_option
from ..report.text_parts import bracket_intervals_text
from ._intervals import (ci_option, confidence_option, interval_option, resamples_option,
                        seed_option)


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
        settings = evalb_settings(signature, params, max_error, cutoff_len)  # sa.evalb's, as it reads them
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
            run = evalb(gold, test, settings=settings, keep_sentences=as_json, write=emit if stream else None, ci=ci,
                        resamples=resamples, seed=seed, confidence=confidence, interval=interval)
            report = run.report
            for message in report.messages:
                out.note(message)
            ci_text = bracket_intervals_text(run)  # after EVALB's bytes, which stay as they are
            # (no signature line in the text, EVALB's bytes: it is in --json and --tsv)
            if not stream:
                out.write(lambda: format_report(report) + ci_text, lambda: run.to_dict(sentences=as_json),
                          encoding="latin-1")
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
