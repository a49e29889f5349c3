"""``spacy-agreement alpha``: Krippendorff's α and the uncorrected accuracies of parallel annotations."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Dict, List, Optional

import typer

from ..adapters.docbin import load_docbin
from ..adapters.files import guess_format, load_annotator_dirs, load_parallel_files
from ..agreement.accuracy import AccuracyResult
from ..agreement.alpha import AlphaResult
from ..agreement.run import agreement
from ..corpus import Corpus
from ..report.format import number, percent
from ..report.text import summary, text_report
from ..limits import memory_limit
from .options import (max_memory_option, InputFormat, Output, cycles, format_option, handled_errors, json_option,
                      output_option, quiet_option, strict_option, tsv_option)


class AlphaChoice(str, Enum):
    auto = "auto"
    exact = "exact"
    sampled = "sampled"
    off = "off"


ALPHA_HELP = ("How to compute alpha: auto (exact when it costs at most --alpha-budget DP cells, else estimated from "
              "random pairs with a confidence interval), exact, sampled or off. The output says which was computed.")
BUDGET_HELP = ("DP cells (sum of m*n over pairs of distinct trees of m and n nodes) the exact alpha may cost under "
               "--alpha auto; 1e9 is a few seconds on two cores.")


def alpha_option() -> AlphaChoice:
    return typer.Option(AlphaChoice.auto, "--alpha", help=ALPHA_HELP)


def budget_option() -> Optional[float]:
    return typer.Option(None, "--alpha-budget", help=BUDGET_HELP, show_default="1e9")


class SizeConvention(str, Enum):
    annotation = "annotation"
    tree = "tree"


def load_corpus(paths: List[Path], dirs: bool, fmt: Optional[InputFormat], strict: bool,
                single_root: bool = False, allow_duplicates: bool = False) -> Corpus:
    """The corpus of parallel files, or of annotator directories with ``--dirs`` (the same
    file or directory twice is an error unless ``allow_duplicates``). spaCy ``.spacy`` files
    go to :func:`~spacy_agreement.adapters.docbin.load_docbin`: one file holding several
    stored analyses per doc, or one file per annotator."""
    if not dirs and paths and all((fmt or guess_format(p)) == "spacy" for p in paths):
        return load_docbin(paths, single_root=single_root, cycles=cycles(strict), allow_duplicates=allow_duplicates)
    load = load_annotator_dirs if dirs else load_parallel_files
    return load(paths, fmt or None, single_root=single_root, cycles=cycles(strict), allow_duplicates=allow_duplicates)


def allow_duplicates_option() -> bool:
    return typer.Option(False, "--allow-duplicates",
                        help="Accept the same file (or directory) given twice: it agrees with itself.")


def interval_lines(result: Optional[AlphaResult]) -> Dict[str, str]:
    """One line per δ with an interval (none for an exact α without a bootstrap)."""
    if result is None or not result.low or result.confidence is None:
        return {}
    return {k: f"alpha {k}: {number(result.alphas[k], 4)} ({percent(result.confidence, 0)}% interval "
               f"{number(result.low[k], 4)} .. {number(result.high[k], 4)}, {result.method}, {result.samples})"
            for k in result.low}


def text(corpus: Corpus, result: Optional[AlphaResult], accuracy: AccuracyResult, worst: int) -> str:
    """The readable table, with one line per interval where α is an estimate or has a bootstrap interval."""
    intervals = interval_lines(result)
    return text_report(corpus, result, accuracy, worst) + ("\n\n" + "\n".join(intervals.values()) if intervals else "")


def write(out: Output, corpus: Corpus, result: Optional[AlphaResult], accuracy: AccuracyResult, worst: int) -> None:
    """The text, or with ``--json`` / ``--tsv`` α (with intervals), accuracies and every count of skips."""
    out.write(lambda: text(corpus, result, accuracy, worst), lambda: summary(corpus, result, accuracy))


def alpha_command(
    paths: List[Path] = typer.Argument(..., help="Two or more parallel files (one annotator each: CoNLL, bracketed or .spacy), one .spacy DocBin with analyses stored by analysis_snapshot, or directories with --dirs."),
    dirs: bool = typer.Option(False, "--dirs", help="PATHS are annotator directories holding PREFIX-NAME.conll/.tree files."),
    allow_duplicates: bool = allow_duplicates_option(),
    fmt: Optional[InputFormat] = format_option("Input format (default: from the content: bracket when a file starts with '(')."),
    as_json: bool = json_option("Print one flat JSON object."),
    tsv: bool = tsv_option("Print key and value, tab-separated."),
    strict: bool = strict_option("Errors instead of counts: tokens that are their own head, sentences without a root, other head cycles, annotations with different tokens."),
    single_root: bool = typer.Option(False, "--single-root", help="Require exactly one root token per sentence."),
    size: SizeConvention = typer.Option(SizeConvention.annotation, "--size", help="|x| in delta-diff/norm: annotation (the paper's: tokens + root, or the leaves of a phrase tree) or tree (nodes of the compared tree)."),
    exclude_mismatched: bool = typer.Option(False, "--exclude-mismatched", help="Leave phrase-tree items whose annotations differ in leaf count out of Jaccard (default: scored and counted)."),
    worst: int = typer.Option(5, "--worst", help="How many of the most disagreeing items to list."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Threads for the all-pairs sums, pq-gram alpha's too (default: all cores)."),
    backend: str = typer.Option("threads", "--backend", help="threads, serial, dask or gpu (exact alpha on a CUDA GPU, extra 'gpu')."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address (default: a local cluster)."),
    method: AlphaChoice = alpha_option(),
    budget: Optional[float] = budget_option(),
    sample_pairs: Optional[int] = typer.Option(None, "--sample-pairs", help="Random pairs behind the sampled estimate (default 20000); alone, asks for it."),
    bootstrap: Optional[int] = typer.Option(None, "--bootstrap", help="Add a bootstrap confidence interval over items with this many resamples."),
    pqgram: bool = typer.Option(False, "--pqgram", help="Add alpha over the pq-gram distance (p=2, q=3), a fast approximation."),
    quiet: bool = quiet_option("No progress bar."),
    output: Optional[Path] = output_option(),
    max_memory: Optional[float] = max_memory_option(),
) -> None:
    """Krippendorff's alpha (delta plain, diff, norm) and LAS/UAS/LA or bracket Jaccard."""
    with handled_errors(*paths), memory_limit(max_memory):
        if backend == "gpu":  # a missing extra or GPU is one line before the files are read
            from ..agreement.gpu import cuda_module

            cuda_module()
        out = Output(as_json, tsv, output, quiet)
        corpus = load_corpus(paths, dirs, fmt, strict, single_root, allow_duplicates)
        result, accuracy = agreement(corpus, strict=strict, size=size.value, exclude_mismatched=exclude_mismatched,
                                     sample_pairs=sample_pairs, bootstrap=bootstrap, pqgram=pqgram, backend=backend,
                                     method=method.value, budget=budget,
                                     n_threads=threads, scheduler=scheduler, progress=out.progress)
        write(out, corpus, result, accuracy, worst)
