"""``spacy-agreement alpha``: Krippendorff's α and the uncorrected accuracies of parallel annotations."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import typer

from ..adapters.docbin import load_docbin
from ..adapters.multi_user import USER_KEY, has_user_ids, load_multi_user
from ..adapters.files import guess_format, load_annotator_dirs, load_parallel_files
from ..agreement.accuracy import AccuracyResult
from ..agreement.alpha import AlphaResult
from ..agreement.deltas import delta_names
from ..agreement.run import agreement
from ..agreement.settings import DEFAULT_ALPHA_SECONDS, AlphaSettings
from ..errors import BadOptionError
from ..corpus import Corpus
from ..report.format import number, percent
from ..report.text import summary, text_report
from ..limits import memory_limit
from .handling import handled_errors
from .options import (max_memory_option, InputFormat, cycles, format_option, json_option,
                      output_option, quiet_option, strict_option, tsv_option)
from .output import Output
from .registry import command
from .settings_options import apply_signature, signature_footer, signature_option, with_signature


class AlphaChoice(str, Enum):
    auto = "auto"
    exact = "exact"
    sampled = "sampled"
    off = "off"


ALPHA_HELP = ("How to compute alpha: auto (exact when it is estimated to take at most --alpha-seconds here, else "
              "estimated from random pairs with a confidence interval), exact, sampled or off. The output says which "
              "was computed.")
BUDGET_HELP = ("DP cells (sum of m*n over pairs of distinct trees of m and n nodes) the exact alpha may cost under "
               "--alpha auto, instead of --alpha-seconds; 1e9 is a few seconds on two cores.")
SECONDS_HELP = ("Seconds the exact alpha may be estimated to take on this machine under --alpha auto (from the "
                "kernel's measured time per DP cell and --threads).")


def alpha_option() -> AlphaChoice:
    return typer.Option(AlphaChoice.auto, "--alpha", help=ALPHA_HELP)


def budget_option() -> Optional[float]:
    return typer.Option(None, "--alpha-budget", help=BUDGET_HELP, show_default="none: --alpha-seconds decides")


def seconds_option() -> float:
    return typer.Option(DEFAULT_ALPHA_SECONDS, "--alpha-seconds", help=SECONDS_HELP)


def size_option() -> "SizeConvention":
    return typer.Option(SizeConvention.annotation, "--size", help="|x| in delta-diff/norm: annotation (the paper's: tokens + root, or the leaves of a phrase tree) or tree (nodes of the compared tree).")


def sample_pairs_option() -> Optional[int]:
    return typer.Option(None, "--sample-pairs", help="Random pairs behind the sampled estimate (default 20000); alone, asks for it.")


def seed_option() -> int:
    return typer.Option(0, "--seed", help="Seed of the sampled pairs and the bootstrap.")


def threads_option() -> Optional[int]:
    return typer.Option(None, "--threads", help="Threads for the all-pairs sums, pq-gram alpha's too (default: all cores).")


def delta_option() -> Optional[List[str]]:
    return typer.Option(None, "--delta", help="A distance to compute alpha over (repeat the option): plain, diff, norm, "
                        "pqgram or a registered one (default: plain, diff, norm and every registered one).")


def label_options() -> Tuple[Any, Any]:
    return (typer.Option(False, "--ignore-subtypes", help="Compare nmod:poss as nmod in LAS/LA (as evaluate --ignore-subtypes)."),
            typer.Option(False, "--case-sensitive-root", help="Compare the root relation as written in LAS/LA (ROOT is not root), as evaluate --case-sensitive-root."))


def alpha_settings_from_options(method: "AlphaChoice", budget: Optional[float], seconds: float, strict: bool,
                                threads: Optional[int], deltas: Optional[List[str]] = None, pqgram: bool = False,
                                signature: Optional[str] = None, **fields: Any) -> AlphaSettings:
    """The α settings of the options of ``alpha`` and ``report`` (``--signature`` applied)."""
    chosen = tuple(deltas or ())
    if pqgram:
        chosen = (chosen or delta_names(default_only=True)) + (("pqgram",) if "pqgram" not in chosen else ())
    settings = AlphaSettings(deltas=chosen, method=method.value, budget=budget, seconds=seconds,
                             cycles=cycles(strict), n_threads=threads, **fields)
    return apply_signature(settings, signature)


class SizeConvention(str, Enum):
    annotation = "annotation"
    tree = "tree"


def load_corpus(paths: List[Path], dirs: bool, fmt: Optional[InputFormat], strict: bool,
                single_root: bool = False, allow_duplicates: bool = False, user_key: str = USER_KEY) -> Corpus:
    """The corpus of parallel files, or of annotator directories with ``--dirs`` (the same
    file or directory twice is an error unless ``allow_duplicates``). spaCy ``.spacy`` files
    go to :func:`~spacy_agreement.adapters.docbin.load_docbin`: one file holding several
    stored analyses per doc, or one file per annotator."""
    if not dirs and len(paths) == 1 and (fmt or guess_format(paths[0])) == "conll" and has_user_ids(paths[0], user_key):
        # one file holding every annotator's trees, each marked '# user_id = NAME' (Arborator-Grew)
        return load_multi_user(paths[0], user_key, single_root=single_root, cycles=cycles(strict))
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


def run_signature(result: Optional[AlphaResult], settings: AlphaSettings) -> str:
    """The signature of a run: its α's (method and δ resolved), or the settings' with ``--alpha off``."""
    return result.signature if result is not None else settings.signature()


def write(out: Output, corpus: Corpus, result: Optional[AlphaResult], accuracy: AccuracyResult, worst: int,
          settings: Optional[AlphaSettings] = None) -> None:
    """The text, or with ``--json`` / ``--tsv`` α (with intervals), accuracies and every count
    of skips; each with the run's signature."""
    signature = run_signature(result, settings or AlphaSettings(method="off"))
    out.write(lambda: signature_footer(text(corpus, result, accuracy, worst), signature),
              lambda: with_signature(summary(corpus, result, accuracy), signature))


@command("alpha")
def alpha_command(
    paths: List[Path] = typer.Argument(..., help="Two or more parallel files (one annotator each: CoNLL, bracketed or .spacy), one CoNLL-U file holding every annotator's trees marked '# user_id = NAME' (Arborator-Grew), one .spacy DocBin with analyses stored by analysis_snapshot, or directories with --dirs."),
    dirs: bool = typer.Option(False, "--dirs", help="PATHS are annotator directories holding PREFIX-NAME.conll/.tree files."),
    allow_duplicates: bool = allow_duplicates_option(),
    user_key: str = typer.Option(USER_KEY, "--user-key", help="With one CoNLL-U file holding every annotator's trees: the comment naming each tree's annotator (Arborator-Grew: user_id)."),
    fmt: Optional[InputFormat] = format_option("Input format (default: from the content: bracket when a file starts with '(')."),
    as_json: bool = json_option("Print one flat JSON object."),
    tsv: bool = tsv_option("Print key and value, tab-separated."),
    strict: bool = strict_option("Errors instead of counts: tokens that are their own head, sentences without a root, other head cycles, annotations with different tokens."),
    single_root: bool = typer.Option(False, "--single-root", help="Require exactly one root token per sentence."),
    size: SizeConvention = size_option(),
    exclude_mismatched: bool = typer.Option(False, "--exclude-mismatched", help="Leave phrase-tree items whose annotations differ in leaf count out of Jaccard (default: scored and counted)."),
    worst: int = typer.Option(5, "--worst", help="How many of the most disagreeing items to list."),
    threads: Optional[int] = threads_option(),
    backend: str = typer.Option("threads", "--backend", help="threads, serial, dask or gpu (exact alpha on a CUDA GPU, extra 'gpu')."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address (default: a local cluster)."),
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
    with handled_errors(*paths), memory_limit(max_memory):
        if backend == "gpu":  # a missing extra or GPU is one line before the files are read
            from ..agreement.gpu import cuda_module

            cuda_module()
        out = Output(as_json, tsv, output, quiet)
        if sample_pairs and method is AlphaChoice.auto:
            method = AlphaChoice.sampled  # --sample-pairs alone asks for the sampled estimate
        if method is AlphaChoice.off and (bootstrap or pqgram or delta):
            raise BadOptionError("--bootstrap, --delta and --pqgram need alpha: leave out --alpha off")
        settings = alpha_settings_from_options(
            method, budget, seconds, strict, threads, delta, pqgram, signature, size=size.value,
            exclude_mismatched=exclude_mismatched, seed=seed, bootstrap=bootstrap or 0,
            ignore_subtypes=ignore_subtypes, fold_root_case=not case_sensitive_root, backend=backend,
            scheduler=scheduler, progress=out.progress,
            **({"sample_pairs": sample_pairs} if sample_pairs else {}))
        corpus = load_corpus(paths, dirs, fmt, settings.cycles == "raise", single_root, allow_duplicates, user_key)
        result, accuracy = agreement(corpus, settings)
        write(out, corpus, result, accuracy, worst, settings)
