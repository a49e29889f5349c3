"""``spacy-agreement compare GOLD A B [C ...]``: is one parser really better than another?
Paired significance tests and bootstrap intervals over sentences, for every metric.

The command is :func:`spacy_agreement.compare` (:mod:`spacy_agreement.evaluation.comparison.compare_run`)
and the text it prints."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional

import typer

from ..evaluation.dependency.breakdown_tables import format_breakdowns
from ..evaluation.comparison.compare_run import (CompareRun, bracket_counts, compare, dependency_counts,  # noqa: F401
                                      system_names)
from ..evaluation.comparison.systems import Comparison
from ..evaluation.dependency.settings import CONVENTIONS
from ..evaluation.comparison.significance import CORRECTIONS, INTERVAL_METHODS
from ..report.comparison_text import format_comparison  # noqa: F401
from ..report.command_text import compare_text, format_compare_run as format_run  # noqa: F401
from ._breakdown_options import breakdown_option
from ._handling import handled_errors
from ._options import (CONVENTION_HELP, InputFormat, choices, format_option, json_option, output_option, quiet_option,
                      strict_option, tsv_option, PUNCT_HELP)
from ._output import Output
from ._registry import command
from ._settings_options import signature_footer, signature_option

SHUFFLES_HELP = "Approximate randomization: how many shuffles (each swaps the systems' analyses of every sentence with probability 1/2)."
RESAMPLES_HELP = "Paired bootstrap: how many resamples of the sentences (also the intervals')."
SEED_HELP = "Seed of the shuffles and resamples (the same seed, the same p-values and intervals)."
CONFIDENCE_HELP = "Confidence level of the bootstrap intervals."
INTERVAL_HELP = "Bootstrap interval: percentile (default), basic or bca (bias-corrected and accelerated, slower)."


@command("compare")
def compare_command(
    gold: Path = typer.Argument(..., help="Gold file: CoNLL-U/CoNLL-X (dependency) or bracketed trees, one a line (phrase structure)."),
    systems: List[Path] = typer.Argument(..., help="Two or more system outputs, each scored against GOLD as evaluate (dependency) or evalb (brackets) scores it."),
    metric: Optional[List[str]] = typer.Option(None, "--metric", metavar="NAME", help="Compare only these metrics (repeatable; lower case as in evaluate's JSON: las, uas, clas, ...)."),
    shuffles: int = typer.Option(10000, "--shuffles", help=SHUFFLES_HELP),
    resamples: int = typer.Option(1000, "--resamples", help=RESAMPLES_HELP),
    seed: int = typer.Option(1, "--seed", help=SEED_HELP),
    confidence: float = typer.Option(0.95, "--confidence", help=CONFIDENCE_HELP),
    interval: str = typer.Option("percentile", "--interval", metavar=choices(INTERVAL_METHODS), help=INTERVAL_HELP),
    correction: str = typer.Option("holm", "--correction", metavar=choices(CORRECTIONS), help="More than two systems: adjust each metric's p-values over the pairs by Holm's method (default), Bonferroni's, or none."),
    fmt: Optional[InputFormat] = format_option("Input format of every file (default: from the gold's content)."),
    convention: str = typer.Option("conll18", "--convention", help=CONVENTION_HELP, metavar=choices(CONVENTIONS)),
    no_punct: Optional[bool] = typer.Option(None, "--no-punct/--with-punct", help="Dependency: exclude punctuation, or score it (default: as the convention says)."),
    punct: Optional[str] = typer.Option(None, "--punct", help=PUNCT_HELP, metavar="RULES"),
    ignore_subtypes: Optional[bool] = typer.Option(None, "--ignore-subtypes/--keep-subtypes", help="Dependency: compare nmod:poss as nmod, or keep subtypes (default: as the convention says)."),
    label_map: Optional[Path] = typer.Option(None, "--label-map", help="Dependency: map predicted labels to the gold scheme (two columns, or JSON)."),
    case_sensitive_root: Optional[bool] = typer.Option(None, "--case-sensitive-root/--fold-root-case", help="Dependency: compare the root relation as written (ROOT is not root), as conll18_ud_eval.py does, or case-insensitively (default: as the convention says)."),
    skip_mismatched: bool = typer.Option(False, "--skip-mismatched", help="Dependency: set aside (and report) sentences whose tokens differ instead of aligning the characters."),
    params: Optional[Path] = typer.Option(None, "--params", "-p", help="Brackets: EVALB parameter file (default: EVALB's built-in settings)."),
    with_leaf_ancestor: bool = typer.Option(False, "--leaf-ancestor", help="Brackets: also compare leaf-ancestor and GEIG scores."),
    breakdown: Optional[str] = breakdown_option(),
    strict: bool = strict_option("Head cycles and self-heads are errors."),
    as_json: bool = json_option("Print one JSON object: per system each metric with its interval, per pair the difference, its interval and every p-value."),
    tsv: bool = tsv_option("Print key and value, tab-separated (nested keys as a.b)."),
    worst: int = typer.Option(10, "--worst", help="How many set-aside sentences to list."),
    quiet: bool = quiet_option(),
    output: Optional[Path] = output_option(),
    signature: Optional[str] = signature_option(),
) -> None:
    """Is parser B really better than A? Paired significance tests and bootstrap intervals.

    Every metric of each system against GOLD, with a bootstrap interval; for each pair of
    systems the difference, its interval and the p-values of approximate randomization
    (stratified shuffling) and the paired bootstrap, recomputing the corpus metric from the
    resampled sentences' counts."""
    with handled_errors(gold, *systems, label_map, params, may_be_empty=(params,)):
        out = Output(as_json, tsv, output, quiet)
        run = compare(gold, *systems, signature=signature, metric=metric, shuffles=shuffles, resamples=resamples, seed=seed,
                      confidence=confidence, interval=interval, correction=correction, format=fmt,
                      convention=convention, no_punct=no_punct, punct=punct, ignore_subtypes=ignore_subtypes,
                      label_map=label_map, case_sensitive_root=case_sensitive_root, skip_mismatched=skip_mismatched,
                      params=params, leaf_ancestor=with_leaf_ancestor, breakdown=breakdown, strict=strict,
                      note=out.note)
        out.write(lambda: compare_text(run, worst), run.to_dict)  # str(run) with --worst 10


def comparison_json(result: Comparison, gold: Path, systems: List[Path], names: List[str], alignment: str,
                    evaluation_signature: str) -> Dict[str, Any]:
    out = result.to_dict()
    out.update(gold=str(gold), files={n: str(p) for n, p in zip(names, systems)}, alignment=alignment,
               evaluation_signature=evaluation_signature)
    return out
