"""``spacy-agreement alpha``: Krippendorff's α and the uncorrected accuracies of parallel annotations."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Dict, List, Optional

import typer

from ..adapters.files import load_annotator_dirs, load_parallel_files
from ..agreement.accuracy import AccuracyResult
from ..agreement.alpha import AlphaResult
from ..agreement.run import agreement
from ..corpus import Corpus
from ..report.format import number, percent
from ..report.text import summary, text_report
from .options import (InputFormat, Output, cycles, format_option, handled_errors, json_option,
                      output_option, quiet_option, strict_option, tsv_option)


class SizeConvention(str, Enum):
    annotation = "annotation"
    tree = "tree"


def load_corpus(paths: List[Path], dirs: bool, fmt: Optional[InputFormat], strict: bool,
                single_root: bool = False) -> Corpus:
    """The corpus of parallel files, or of annotator directories with ``--dirs``."""
    load = load_annotator_dirs if dirs else load_parallel_files
    return load(paths, fmt or None, single_root=single_root, cycles=cycles(strict))


def interval_lines(result: AlphaResult) -> Dict[str, str]:
    """One line per δ with an interval (none for an exact α without a bootstrap)."""
    if not result.low or result.confidence is None:
        return {}
    return {k: f"alpha {k}: {number(result.alphas[k], 4)} ({percent(result.confidence, 0)}% interval "
               f"{number(result.low[k], 4)} .. {number(result.high[k], 4)}, {result.method}, {result.samples})"
            for k in result.low}


def text(corpus: Corpus, result: AlphaResult, accuracy: AccuracyResult, worst: int) -> str:
    """The readable table, with one line per interval where α is an estimate or has a bootstrap interval."""
    intervals = interval_lines(result)
    return text_report(corpus, result, accuracy, worst) + ("\n\n" + "\n".join(intervals.values()) if intervals else "")


def write(out: Output, corpus: Corpus, result: AlphaResult, accuracy: AccuracyResult, worst: int) -> None:
    """The text, or with ``--json`` / ``--tsv`` α (with intervals), accuracies and every count of skips."""
    out.write(lambda: text(corpus, result, accuracy, worst), lambda: summary(corpus, result, accuracy))


def alpha_command(
    paths: List[Path] = typer.Argument(..., help="Two or more parallel files (one annotator each), or directories with --dirs."),
    dirs: bool = typer.Option(False, "--dirs", help="PATHS are annotator directories holding PREFIX-NAME.conll/.tree files."),
    fmt: Optional[InputFormat] = format_option("Input format (default: from the content: bracket when a file starts with '(')."),
    as_json: bool = json_option("Print one flat JSON object."),
    tsv: bool = tsv_option("Print key and value, tab-separated."),
    strict: bool = strict_option("Errors instead of counts: tokens that are their own head, sentences without a root, other head cycles, annotations with different tokens."),
    single_root: bool = typer.Option(False, "--single-root", help="Require exactly one root token per sentence."),
    size: SizeConvention = typer.Option(SizeConvention.annotation, "--size", help="|x| in delta-diff/norm: annotation (the paper's: tokens + root, or the leaves of a phrase tree) or tree (nodes of the compared tree)."),
    exclude_mismatched: bool = typer.Option(False, "--exclude-mismatched", help="Leave phrase-tree items whose annotations differ in leaf count out of Jaccard (default: scored and counted)."),
    worst: int = typer.Option(5, "--worst", help="How many of the most disagreeing items to list."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Threads for the all-pairs sums, pq-gram alpha's too (default: all cores)."),
    backend: str = typer.Option("threads", "--backend", help="threads, serial or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address (default: a local cluster)."),
    sample_pairs: Optional[int] = typer.Option(None, "--sample-pairs", help="Estimate the expected disagreement from this many random pairs, with a confidence interval."),
    bootstrap: Optional[int] = typer.Option(None, "--bootstrap", help="Add a bootstrap confidence interval over items with this many resamples."),
    pqgram: bool = typer.Option(False, "--pqgram", help="Add alpha over the pq-gram distance (p=2, q=3), a fast approximation."),
    quiet: bool = quiet_option("No progress bar."),
    output: Optional[Path] = output_option(),
) -> None:
    """Krippendorff's alpha (delta plain, diff, norm) and LAS/UAS/LA or bracket Jaccard."""
    with handled_errors(*paths):
        out = Output(as_json, tsv, output, quiet)
        corpus = load_corpus(paths, dirs, fmt, strict, single_root)
        result, accuracy = agreement(corpus, strict=strict, size=size.value, exclude_mismatched=exclude_mismatched,
                                     sample_pairs=sample_pairs, bootstrap=bootstrap, pqgram=pqgram, backend=backend,
                                     n_threads=threads, scheduler=scheduler, progress=out.progress)
        write(out, corpus, result, accuracy, worst)
