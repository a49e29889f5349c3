"""``spacy-agreement judgments``: which parser metric agrees with people who judge parses (Plank et al. 2015).

Several files (the exports of several judges' judging pages, ``spacy-agreement judge``) are
merged by item: a judge's judgment in a later file replaces the one in an earlier file, and a
warning says so. One file (or release folder) is streamed: :func:`~spacy_agreement.evaluation.judgments.analysis.iter_judgments`
yields one checked item at a time and :func:`~spacy_agreement.evaluation.judgments.analysis.analyse_judgments`
keeps per item only the metrics' differences and the judges' preferences, so memory does not
grow with the trees of the file. The command is :func:`spacy_agreement.judgments`
(:mod:`spacy_agreement.evaluation.judgments.judgments_run`) and the text it prints."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..evaluation.judgments.analysis import DEFAULT_METRICS
from ..evaluation.judgments.judgments_run import judgments
from ._handling import handled_errors
from ._options import CONTENT_HELP, IGNORE_FORMS_HELP, NED_HELP, PUNCT_HELP, VERB_HELP, json_option, output_option, \
    quiet_option, tsv_option
from ._output import Output
from ._registry import command
from ..report.command_text import judgments_text
from ._settings_options import signature_footer, signature_option  # noqa: F401


@command("judgments")
def judgments_command(
    paths: List[Path] = typer.Argument(..., metavar="PATH...", help="JSON Lines files of judged items (the exports of judging pages: several judges' files are merged by item), or a folder in the layout of the Plank et al. (2015) release: gold.conll, parser1.conll, parser2.conll, annotated.csv (format: spacy_agreement.evaluation.judgments.analysis)."),
    as_json: bool = json_option("Print one flat JSON object."),
    no_punct: bool = typer.Option(False, "--no-punct", help="Exclude punctuation from the metrics (as --punct defines it)."),
    punct: str = typer.Option("upos,label", "--punct", help=PUNCT_HELP),
    verb_tags: Optional[str] = typer.Option(None, "--verb-tags", help=VERB_HELP),
    content_tags: Optional[str] = typer.Option(None, "--content-tags", help=CONTENT_HELP),
    ned: str = typer.Option("schwartz", "--ned", help=NED_HELP),
    kappa: str = typer.Option("cohen", "--kappa", help="Kappa between judges: cohen (mean pairwise Cohen's kappa, the paper's) or fleiss."),
    parses: str = typer.Option("parser1,parser2", "--parses", help="Folder input: the CoNLL files (no .conll) of parse A and parse B."),
    colours: str = typer.Option("blue,red", "--colours", help="Folder input: the annotated.csv values meaning A and B."),
    ignore_forms: bool = typer.Option(False, "--ignore-forms", help=IGNORE_FORMS_HELP),
    ties: str = typer.Option("half", "--ties", help="A metric's tie counts as half an agreement (half), is skipped (skip), or counts as preferring B (b) or A (a)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the MACE restarts."),
    metric: List[str] = typer.Option(
        list(DEFAULT_METRICS), "--metric",
        help="Metrics to compare (repeat the option); also las_content, las_function, las_root_weighted."),
    key: Optional[List[Path]] = typer.Option(None, "--key", metavar="PAGE.key.json", help="The key of the judging page whose exports these are (written beside the page by judge --html): maps each choice (analysis 1 or 2) back to system A or B. Repeat it for several pages (with --allow-mixed)."),
    allow_mixed: bool = typer.Option(False, "--allow-mixed", help="Pool the exports of different judging pages (refused by default, naming them)."),
    tsv: bool = tsv_option(),
    quiet: bool = quiet_option(),
    output: Optional[Path] = output_option(),
    signature: Optional[str] = signature_option(),
) -> None:
    """Which metric agrees with the people who judge parses (Plank et al. 2015, Tables 1, 3-5)."""
    # an empty export among others does not fail the batch (a lone empty file is still said to be empty)
    with handled_errors(*paths, *(key or []), may_be_empty=tuple(paths) if len(paths) > 1 else ()):
        out = Output(as_json, tsv, output, quiet)
        run = judgments(*paths, settings=signature, no_punct=no_punct, punct=punct, verb_tags=verb_tags,
                        content_tags=content_tags, ned=ned, kappa=kappa, parses=parses, colours=colours,
                        ignore_forms=ignore_forms, ties=ties, seed=seed, metric=metric, key=key or None,
                        allow_mixed=allow_mixed)
        out.write(lambda: judgments_text(run), run.to_dict)  # str(run)
