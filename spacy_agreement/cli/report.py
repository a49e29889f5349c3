"""``spacy-agreement report``: one self-contained HTML page for an annotation project."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..agreement.run import agreement
from ..errors import BadOptionError
from ..report.html import build_report
from . import _annotations as shared
from ..limits import memory_limit, size_text
from ._handling import handled_errors
from ._options import (max_memory_option, InputFormat, format_option, json_option, output_option, quiet_option,
                      strict_option, tsv_option)
from ._output import Output
from ._registry import command
from ._settings_options import signature_option


@command("report")
def report_command(
    paths: List[Path] = typer.Argument(..., help=shared.PATHS_HELP),
    html_path: Path = typer.Option(..., "--html", help="Write the self-contained HTML report here."),
    dirs: bool = typer.Option(False, "--dirs", help=shared.DIRS_HELP),
    allow_duplicates: bool = shared.allow_duplicates_option(),
    user_key: str = shared.user_key_option(),
    partial: shared.PartialPolicy = shared.partial_option(),
    include: Optional[List[str]] = shared.input_options()[0],
    annotator_key: Optional[str] = shared.input_options()[1],
    annotator_part: Optional[shared.AnnotatorPart] = shared.flat_folder_options()[0],
    name_pattern: Optional[str] = shared.flat_folder_options()[1],
    fmt: Optional[InputFormat] = format_option(),
    items: int = typer.Option(50, "--items", help="How many of the most disagreeing items to draw (the page's filters work on these)."),
    worst: int = typer.Option(0, "--worst", help="How many entries of each list the text summary shows (missing annotations, partial trees, the most disagreeing items ...); default none: the page has them."),
    rank_by: str = typer.Option("norm", "--rank-by", help="The delta whose mean squared value over an item's annotations ranks the items: norm (default: long sentences do not come first for their length alone), plain, diff or a registered one."),
    title: str = typer.Option("Syntactic annotation agreement", "--title", help="Title of the page."),
    gold: Optional[str] = typer.Option(None, "--gold", metavar="ANNOTATOR", help="The annotator (a file's name without its extension, e.g. gold for gold.conllu) whose trees are the reference: adds breakdowns of the others' attachment against it (arc length, direction, depth, sentence length, UPOS, relation)."),
    as_json: bool = json_option("Also print alpha and the accuracies as one JSON object."),
    tsv: bool = tsv_option("Also print alpha and the accuracies as key and value, tab-separated."),
    quiet: bool = quiet_option(),
    output: Optional[Path] = output_option("With --json or --tsv: write alpha and the accuracies to this file instead of stdout."),
    strict: bool = strict_option("Tokens that are their own head, sentences without a root and other head cycles are errors instead of being counted."),
    method: shared.AlphaChoice = shared.alpha_option(),
    budget: Optional[float] = shared.budget_option(),
    seconds: float = shared.seconds_option(),
    size: shared.SizeConvention = shared.size_option(),
    sample_pairs: Optional[int] = shared.sample_pairs_option(),
    seed: int = shared.seed_option(),
    threads: Optional[int] = shared.threads_option(),
    delta: Optional[List[str]] = shared.delta_option(),
    ignore_subtypes: bool = shared.label_options()[0],
    case_sensitive_root: bool = shared.label_options()[1],
    signature: Optional[str] = signature_option(),
    max_memory: Optional[float] = max_memory_option(),
) -> None:
    """One HTML page to adjudicate from: alpha and the items ranked by disagreement.

    Each item with all its analyses in one aligned picture; filters by annotator pair and by confused labels,
    pairwise scores, confusions, plots."""
    with handled_errors(*paths), memory_limit(max_memory):
        out = Output(as_json, tsv, output, quiet)
        if sample_pairs and method is shared.AlphaChoice.auto:
            method = shared.AlphaChoice.sampled  # --sample-pairs alone asks for the sampled estimate
        if method is shared.AlphaChoice.off:
            raise BadOptionError("the report ranks items by alpha's disagreements: use --alpha auto, exact or sampled")
        settings = shared.alpha_settings_from_options(method, budget, seconds, strict, threads, delta,
                                                     signature=signature, ignore_subtypes=ignore_subtypes,
                                                     size=size.value, seed=seed, partial=partial.value,
                                                     **({"sample_pairs": sample_pairs} if sample_pairs else {}),
                                                     fold_root_case=not case_sensitive_root, progress=out.progress)
        corpus = shared.load_corpus(paths, dirs, fmt, settings.cycles == "raise", allow_duplicates=allow_duplicates,
                                   user_key=user_key, include=include, annotator_key=annotator_key,
                                   annotator_part=annotator_part, name_pattern=name_pattern)
        computed = agreement(corpus, settings)  # α once, for the page and the output
        page = build_report(corpus, items=items, title=title, computed=computed, rank_by=rank_by,
                            settings=settings, gold=gold)  # type: ignore[arg-type]
        html_path.write_text(page.html, encoding="utf-8")
        out.note(f"wrote {html_path}: {page.items_shown} items drawn (of {page.items_disagreeing} with any "
                 f"disagreement), {size_text(page.size)}")
        if computed is not None:
            shared.write(out, corpus, *computed, worst, settings)
