"""``spacy-agreement evalb``: bracket scores exactly as EVALB prints them (its bytes, diff-able with its output)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..evaluation.evalb import EvalbParams, evaluate_files, format_report
from .handling import handled_errors
from .options import json_option, output_option, quiet_option, tsv_option
from .output import Output
from .registry import command
from .settings_options import apply_signature, signature_option, with_signature


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
) -> None:
    """Bracket scores exactly as EVALB (Sekine & Collins) prints them, diff-able with its output."""
    with handled_errors(gold, test, params, may_be_empty=(params,)):
        out = Output(as_json, tsv, output, quiet)
        settings = EvalbParams.read(params) if params else EvalbParams()
        settings = apply_signature(settings.with_options(max_error=max_error, cutoff_len=cutoff_len), signature)
        for warning in settings.warnings:
            out.note(warning)
        report = evaluate_files(gold, test, settings)
        for message in report.messages:
            out.note(message)
        # EVALB's bytes, whatever the encoding of the terminal (so no signature line: it is in --json and --tsv)
        out.write(lambda: format_report(report),
                  lambda: with_signature(report.to_dict(sentences=as_json), settings.signature()), encoding="latin-1")
    if report.aborted:
        raise typer.Exit(code=1)
