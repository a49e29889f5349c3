"""``spacy-agreement discourse``: agreement on discourse arrows (Mirovsky et al. 2010)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..evaluation.settings import DiscourseSettings
from ..evaluation.discourse import discourse_agreement, format_tables, load_discourse, merge_documents
from .handling import handled_errors
from .options import json_option, output_option, quiet_option, tsv_option
from .output import Output
from .registry import command
from .settings_options import apply_signature, signature_footer, signature_option, with_signature


@command("discourse")
def discourse_command(
    files: List[Path] = typer.Argument(..., help="Discourse JSON file(s) over the same document (format: spacy_agreement.evaluation.discourse)."),
    as_json: bool = json_option("Print one JSON object: strict, skip, connective and pairs."),
    skip_both_ends: bool = typer.Option(False, "--skip-both-ends", help="Allow a one-level skip at both ends at once."),
    tsv: bool = tsv_option(),
    quiet: bool = quiet_option(),
    output: Optional[Path] = output_option(),
    signature: Optional[str] = signature_option(),
) -> None:
    """Agreement on discourse arrows: strict, one-level skipping, connective-based (Mirovsky et al. 2010)."""
    with handled_errors(*files):
        out = Output(as_json, tsv, output, quiet)
        document = merge_documents([load_discourse(f) for f in files])
        settings = apply_signature(DiscourseSettings(skip_both_ends=skip_both_ends), signature)
        result = discourse_agreement(document, skip_both_ends=settings.skip_both_ends)
        out.write(lambda: signature_footer(format_tables(result), settings.signature()),
                  lambda: with_signature(result.to_dict(), settings.signature()))
