"""``spacy-agreement judge A B --html PAGE``: a page for blind pairwise judging of two parsers'
analyses (Plank et al. 2015, §3), whose exports ``spacy-agreement judgments`` reads. The command
is :func:`spacy_agreement.judge` (:mod:`spacy_agreement.report.judging_page`) and the summary it prints."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from ..report.judging_page import DEFAULT_TITLE, judge
from ..report.command_text import judge_summary as summary, judge_text  # noqa: F401 (summary: its old name)
from ._handling import handled_errors
from ._options import InputFormat, format_option, json_option, output_option, quiet_option, tsv_option
from ._output import Output
from ._registry import command
from ._settings_options import signature_option


class Layout(str, Enum):
    stacked = "stacked"
    side_by_side = "side-by-side"


@command("judge")
def judge_command(
    system_a: Path = typer.Argument(..., help="The first parser's analyses (CoNLL-U/CoNLL-X, spaCy DocBin or bracketed trees): system A of the judgments."),
    system_b: Path = typer.Argument(..., help="The second parser's analyses of the same sentences: system B."),
    html_path: Path = typer.Option(..., "--html", metavar="PAGE", help="Write the self-contained judging page here."),
    gold: Optional[Path] = typer.Option(None, "--gold", metavar="FILE", help="Gold analyses: go into the exports (so that judgments can compare the metrics with the judges) and decide what is punctuation; hidden from the judges unless --show-gold."),
    all_items: bool = typer.Option(False, "--all", help="Every sentence, also those whose analyses are the same once punctuation is removed (default: only those that differ, as Plank et al. 2015 chose)."),
    items: Optional[int] = typer.Option(None, "--items", min=1, help="Draw this many items at random (kept in the items' order), as the paper drew 200."),
    seed: int = typer.Option(0, "--seed", help="Seed of the draw of --items."),
    punct: str = typer.Option("form", "--punct", help="Punctuation rule(s) of the selection, comma-separated: form (CoNLL-07 eval.pl, the paper's; default), upos, label. Read from the gold where given, else from either system."),
    layout: Layout = typer.Option(Layout.stacked, "--layout", help="The two analyses one above the other (stacked) or side by side."),
    no_marks: bool = typer.Option(False, "--no-marks", help="Do not mark where the two analyses differ."),
    show_gold: bool = typer.Option(False, "--show-gold", help="Show the gold analysis below the two (hidden by default, as in the paper)."),
    no_ties: bool = typer.Option(False, "--no-ties", help="Judges must choose one analysis: no 'no preference' answer."),
    title: str = typer.Option(DEFAULT_TITLE, "--title", help="Title of the page."),
    key: Optional[Path] = typer.Option(None, "--key", metavar="FILE", help="Write the page's key here (default: PAGE.key.json beside the page): which system each item shows as analysis 1; keep it from the judges, give it to judgments --key."),
    in_order: bool = typer.Option(False, "--in-order", help="Every judge sees the items in the files' order (default: an order drawn per judge, from the page id and the judge's name)."),
    fmt: Optional[InputFormat] = format_option(),
    as_json: bool = json_option("Print what the page holds as one JSON object."),
    tsv: bool = tsv_option(),
    quiet: bool = quiet_option(),
    output: Optional[Path] = output_option(),
    signature: Optional[str] = signature_option(),
) -> None:
    """A page for blind pairwise judging of two parsers' analyses (Plank et al. 2015, section 3).

    One self-contained HTML file, no network, and its key PAGE.key.json beside it (which system each item shows as
    analysis 1: keep it from the judges). Each judge types a name, sees the items in an order drawn for that judge,
    chooses the better analysis by key, button or click, and exports judgments-NAME.jsonl; then
    spacy-agreement judgments judgments-*.jsonl --key PAGE.key.json says which system the judges prefer."""
    paths = [system_a, system_b] + ([gold] if gold is not None else [])
    with handled_errors(*paths):
        out = Output(as_json, tsv, output, quiet)
        page = judge(system_a, system_b, gold, signature=signature, html=html_path, all=all_items, items=items, seed=seed,
                     punct=punct, layout=layout.value, no_marks=no_marks, show_gold=show_gold, no_ties=no_ties,
                     title=title, format=fmt, in_order=in_order, key=key)
        out.write(lambda: judge_text(page), page.to_dict)  # str(page); to_dict is --json, as every command's
