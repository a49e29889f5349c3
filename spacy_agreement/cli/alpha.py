"""``spacy-agreement alpha``: Krippendorff's α and the uncorrected accuracies of parallel annotations:
the options of :func:`spacy_agreement.alpha` (``--alpha`` is its ``method=``; ``--json`` is its
result's ``to_dict()``) and the text of its result. The options and helpers that ``report`` and
``layers`` share are in :mod:`._annotations` (importable from here too)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..agreement.alpha_run import alpha as alpha_of_inputs
from ..agreement.settings import BACKENDS
from ._annotations import (  # noqa: F401 (re-exported: the names this module had)
    PATHS_HELP,
    DIRS_HELP,
    AlphaChoice,
    ALPHA_HELP,
    BUDGET_HELP,
    SECONDS_HELP,
    alpha_option,
    budget_option,
    seconds_option,
    size_option,
    PartialPolicy,
    partial_option,
    user_key_option,
    sample_pairs_option,
    seed_option,
    threads_option,
    delta_option,
    label_options,
    alpha_settings_from_options,
    SizeConvention,
    load_corpus,
    AnnotatorPart,
    flat_folder_options,
    input_options,
    allow_duplicates_option,
    interval_lines,
    text,
    run_signature,
    write_result,
    write,
)
from ._handling import handled_errors
from ._options import (max_memory_option, InputFormat, choices, format_option, json_option, output_option,
                      quiet_option, strict_option, tsv_option)
from ._output import Output
from ._registry import command
from ._settings_options import signature_option


@command("alpha")
def alpha_command(
    paths: List[Path] = typer.Argument(..., help=PATHS_HELP),
    dirs: bool = typer.Option(False, "--dirs", help=DIRS_HELP),
    allow_duplicates: bool = allow_duplicates_option(),
    user_key: str = user_key_option(),
    partial: PartialPolicy = partial_option(),
    include: Optional[List[str]] = input_options()[0],
    annotator_key: Optional[str] = input_options()[1],
    annotator_part: Optional[AnnotatorPart] = flat_folder_options()[0],
    name_pattern: Optional[str] = flat_folder_options()[1],
    fmt: Optional[InputFormat] = format_option("Input format (default: from the content: bracket when a file starts with '(')."),
    as_json: bool = json_option("Print one flat JSON object."),
    tsv: bool = tsv_option("Print key and value, tab-separated."),
    strict: bool = strict_option("Errors instead of counts: tokens that are their own head, sentences without a root, other head cycles, annotations with different tokens."),
    single_root: bool = typer.Option(False, "--single-root", help="Require exactly one root token per sentence."),
    size: SizeConvention = size_option(),
    exclude_mismatched: bool = typer.Option(False, "--exclude-mismatched", help="Leave phrase-tree items whose annotations differ in leaf count out of Jaccard (default: scored and counted)."),
    worst: int = typer.Option(5, "--worst", help="How many of the most disagreeing items to list."),
    threads: Optional[int] = threads_option(),
    backend: str = typer.Option("threads", "--backend", metavar=choices(BACKENDS), help="threads, serial, dask or gpu (exact alpha on a CUDA GPU, extra 'gpu')."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS", help="Dask scheduler address (default: a local cluster)."),
    method: AlphaChoice = alpha_option(),
    budget: Optional[float] = budget_option(),
    seconds: float = seconds_option(),
    sample_pairs: Optional[int] = sample_pairs_option(),
    seed: int = seed_option(),
    bootstrap: Optional[int] = typer.Option(None, "--bootstrap", help="Add a bootstrap confidence interval over items with this many resamples."),
    delta: Optional[List[str]] = delta_option(),
    pqgram: bool = typer.Option(False, "--pqgram", help="Add alpha over the pq-gram distance (p=2, q=3), a fast approximation (the same as adding --delta pqgram)."),
    ignore_subtypes: bool = label_options()[0],
    case_sensitive_root: bool = label_options()[1],
    signature: Optional[str] = signature_option(),
    quiet: bool = quiet_option("No progress bar."),
    output: Optional[Path] = output_option(),
    max_memory: Optional[float] = max_memory_option(),
) -> None:
    """Krippendorff's alpha (delta plain, diff, norm) and LAS/UAS/LA or bracket Jaccard."""
    with handled_errors(*paths):
        out = Output(as_json, tsv, output, quiet)
        result = alpha_of_inputs(
            *paths, dirs=dirs, allow_duplicates=allow_duplicates, user_key=user_key, partial=partial,
            include=include, annotator_key=annotator_key, annotator_part=annotator_part, name_pattern=name_pattern,
            format=fmt, strict=strict, single_root=single_root, size=size, exclude_mismatched=exclude_mismatched,
            threads=threads, backend=backend, scheduler=scheduler, method=method, alpha_budget=budget,
            alpha_seconds=seconds, sample_pairs=sample_pairs, seed=seed, bootstrap=bootstrap, delta=delta,
            pqgram=pqgram, ignore_subtypes=ignore_subtypes, case_sensitive_root=case_sensitive_root,
            signature=signature, max_memory=max_memory, progress=out.progress)
        write_result(out, result, worst)
