"""Private to the CLI: the options and helpers that ``alpha``, ``report``, ``layers`` and ``demo``
share (annotator inputs, how α is computed, α's text and its output), so that no command module
imports another (issue 40)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import typer

from ..adapters.multi_user import USER_KEY
from ..agreement.accuracy import AccuracyResult
from ..agreement.alpha import AlphaResult
from ..agreement.deltas import delta_names
from ..agreement.inputs import read_inputs
from ..agreement.alpha_run import alpha as alpha_of_inputs
from ..agreement.settings import BACKENDS, DEFAULT_ALPHA_SECONDS, AlphaSettings
from ..corpus import Corpus
from ..report.format import percent
from ..report.text import summary, text_report
from ..report.command_text import alpha_text, interval_lines, text  # noqa: F401 (the command's text)
from ._handling import handled_errors
from ._options import (max_memory_option, InputFormat, choices, cycles, format_option, json_option,
                      output_option, quiet_option, strict_option, tsv_option)
from ._output import Output
from ._settings_options import apply_signature, signature_footer, signature_option, with_signature


PATHS_HELP = ("Two or more files, one annotator each (CoNLL, bracketed or .spacy), or one path holding every "
              "annotator: a project export as a folder or a .zip (INCEpTION's annotation/DOCUMENT/USER.conllu, "
              "Arborator-Grew's USER/SAMPLE.conllu), a flat folder of files NAME-TEXT.conll or TEXT.NAME.conllu "
              "(one per annotator and text), a Prodigy JSONL file (db-out), a CoNLL-U file whose trees are "
              "marked '# user_id = NAME', or a .spacy DocBin with analyses stored by analysis_snapshot; annotator "
              "folders with --dirs.")
DIRS_HELP = ("PATHS are annotator folders, one each: files PREFIX-NAME.conll/.tree (Skjaerholt's convention), or "
             "CoNLL files of any name (the files of one name are one document).")


class AlphaChoice(str, Enum):
    auto = "auto"
    exact = "exact"
    sampled = "sampled"
    off = "off"


ALPHA_HELP = ("How to compute alpha: auto (exact when it is estimated to take at most --alpha-seconds here, else "
              "estimated from random pairs with a confidence interval), exact, sampled or off. The output says which "
              "was computed.")
BUDGET_HELP = ("DP cells (sum of m*n over pairs of distinct trees of m and n nodes) the exact alpha may cost under "
               "--alpha auto, instead of --alpha-seconds; 1e9 is a few seconds on two cores (default: none, "
               "--alpha-seconds decides).")
SECONDS_HELP = ("Seconds the exact alpha may be estimated to take on this machine under --alpha auto (from the "
                "kernel's measured time per DP cell and --threads).")


def alpha_option() -> AlphaChoice:
    return typer.Option(AlphaChoice.auto, "--alpha", help=ALPHA_HELP)


def budget_option() -> Optional[float]:
    return typer.Option(None, "--alpha-budget", help=BUDGET_HELP, metavar="CELLS")


def seconds_option() -> float:
    return typer.Option(DEFAULT_ALPHA_SECONDS, "--alpha-seconds", help=SECONDS_HELP, metavar="SECONDS")


def size_option() -> "SizeConvention":
    return typer.Option(SizeConvention.annotation, "--size", help="|x| in delta-diff/norm: annotation (the paper's: tokens + root, or the leaves of a phrase tree) or tree (nodes of the compared tree).")


class PartialPolicy(str, Enum):
    missing = "missing"
    attach = "attach"


def partial_option() -> "PartialPolicy":
    return typer.Option(PartialPolicy.missing, "--partial",
                        help="A tree with tokens not annotated yet (HEAD _): missing (a missing annotation of alpha, "
                             "counted and listed; the accuracies compare the tokens both annotated) or attach (its "
                             "unannotated tokens on the root, labelled 'unannotated': disagreements).")


def user_key_option() -> str:
    return typer.Option(USER_KEY, "--user-key", help="With one CoNLL-U file holding every annotator's trees: the "
                        "comment naming each tree's annotator (Arborator-Grew: user_id).", metavar="KEY")


def sample_pairs_option() -> Optional[int]:
    return typer.Option(None, "--sample-pairs", help="Random pairs behind the sampled estimate (default 20000); alone, asks for it.")


def seed_option() -> int:
    return typer.Option(0, "--seed", help="Seed of the sampled pairs and the bootstrap.")


def threads_option() -> Optional[int]:
    return typer.Option(None, "--threads", help="Threads for the all-pairs sums, pq-gram alpha's too (default: all cores).")


def delta_option() -> Optional[List[str]]:
    return typer.Option(None, "--delta", help="A distance to compute alpha over (repeat the option): plain, diff, norm, "
                        "pqgram or a registered one (default: plain, diff, norm and every registered one).", metavar="DELTA")


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
                single_root: bool = False, allow_duplicates: bool = False, user_key: str = USER_KEY,
                include: Optional[List[str]] = None, annotator_key: Optional[str] = None,
                annotator_part: Optional["AnnotatorPart"] = None, name_pattern: Optional[str] = None) -> Corpus:
    """The corpus of the annotator inputs of ``report``, whatever wrote them, as
    :func:`spacy_agreement.alpha` reads them (:func:`~spacy_agreement.agreement.inputs.read_inputs`:
    parallel files, annotator folders, project exports as folders or ZIPs, flat folders, Prodigy
    JSONL, multi-user CoNLL-U, DocBins)."""
    return read_inputs(paths, strict=strict, dirs=dirs, format=fmt, single_root=single_root,
                       allow_duplicates=allow_duplicates, user_key=user_key, include=include,
                       annotator_key=annotator_key, annotator_part=annotator_part, name_pattern=name_pattern)


class AnnotatorPart(str, Enum):
    first = "first"
    last = "last"


def flat_folder_options() -> Tuple[Any, Any]:
    """``--annotator-part`` and ``--name-pattern``: how the file names of a flat folder read
    (:mod:`~spacy_agreement.adapters.flat_folder`)."""
    return (typer.Option(None, "--annotator-part", help="With a flat folder of files NAME-TEXT.conll: the annotator "
                         "is the first part of each file name (NAME-TEXT) or the last (TEXT-NAME, TEXT.NAME) "
                         "(default: the part shared by the files holding the same sentences is the text)."),
            typer.Option(None, "--name-pattern", metavar="REGEX", help="With a flat folder: a regular expression "
                         "with the groups (?P<annotator>...) and (?P<text>...) that every file name without its "
                         "extension matches, e.g. '(?P<annotator>[^-]+)-(?P<text>.+)'."))


def input_options() -> Tuple[Any, Any]:
    """``--include`` (pseudo-users of a project export to count as annotators) and
    ``--annotator-key`` (the field naming a Prodigy task's annotator)."""
    return (typer.Option(None, "--include", help="With a project export: a pseudo-user to count as an annotator "
                         "(repeat): INITIAL_CAS or curation (INCEpTION), last, validated or base_tree (Arborator-Grew).",
                         metavar="USER"),
            typer.Option(None, "--annotator-key", help="With Prodigy JSONL: the field naming each task's annotator "
                         "(default _annotator_id, else _session_id).", metavar="FIELD"))


def allow_duplicates_option() -> bool:
    return typer.Option(False, "--allow-duplicates",
                        help="Accept the same file (or directory) given twice: it agrees with itself.")


def run_signature(result: Optional[AlphaResult], settings: AlphaSettings) -> str:
    """The signature of a run: its α's (method and δ resolved), or the settings' with ``--alpha off``."""
    return result.signature if result is not None else settings.signature()


def write_result(out: Output, result: AlphaResult, worst: int) -> None:
    """The text of a result of :func:`spacy_agreement.alpha`, or with ``--json`` / ``--tsv``
    its ``to_dict()``."""
    out.write(lambda: alpha_text(result, worst), lambda: result.to_dict())  # str(result) with --worst 5


def write(out: Output, corpus: Corpus, result: Optional[AlphaResult], accuracy: AccuracyResult, worst: int,
          settings: Optional[AlphaSettings] = None) -> None:
    """The text, or with ``--json`` / ``--tsv`` α (with intervals), accuracies and every count
    of skips; each with the run's signature."""
    signature = run_signature(result, settings or AlphaSettings(method="off"))
    out.write(lambda: signature_footer(text(corpus, result, accuracy, worst), signature),
              lambda: with_signature(summary(corpus, result, accuracy), signature))


