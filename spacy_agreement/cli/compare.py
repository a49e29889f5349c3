"""``spacy-agreement compare GOLD A B [C ...]``: is one parser really better than another?
Paired significance tests and bootstrap intervals over sentences, for every metric."""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import typer

from ..adapters.files import guess_format
from ..errors import BadOptionError, MismatchedCorpusError, UndefinedMetricWarning
from ..evaluation.aligned import DISPLAY_NAMES as CONLL18_NAMES
from ..evaluation.comparison import Comparison, compare_systems, merge_metrics
from ..evaluation.evalb import EvalbParams, evaluate_files
from ..evaluation.label_sets import read_label_map
from ..evaluation.metric_options import CONVENTIONS
from ..evaluation.parser_metrics import display_name, evaluate
from ..evaluation.significance import CORRECTIONS, INTERVAL_METHODS, ComparisonSettings
from ..evaluation.unit_counts import UnitCounts, aligned_unit_counts, evalb_unit_counts, leaf_ancestor_unit_counts
from ..report.comparison_text import BRACKET_NAMES, format_comparison
from ..evaluation.breakdowns import breakdowns_from_layers, breakdowns_from_trees
from .breakdown_options import attributes, breakdown_option, breakdown_output
from .evalb import check_bracketed
from .evaluate import CONVENTION_HELP, check_conll18_options, dependency_trees, text_difference, tokens_differ
from .handling import handled_errors
from .options import (InputFormat, choices, cycles, format_option, json_option, metric_options, output_option,
                      quiet_option, read_trees, strict_option, tsv_option, PUNCT_HELP)
from .output import Output
from .registry import command
from .settings_options import apply_signature, signature_footer, signature_option

SHUFFLES_HELP = "Approximate randomization: how many shuffles (each swaps the systems' analyses of every sentence with probability 1/2)."
RESAMPLES_HELP = "Paired bootstrap: how many resamples of the sentences (also the intervals')."
SEED_HELP = "Seed of the shuffles and resamples (the same seed, the same p-values and intervals)."
CONFIDENCE_HELP = "Confidence level of the bootstrap intervals."
INTERVAL_HELP = "Bootstrap interval: percentile (default), basic or bca (bias-corrected and accelerated, slower)."


def system_names(paths: List[Path]) -> List[str]:
    """How the systems are called: their file names, or their paths where two names clash."""
    names = [p.name for p in paths]
    if len(set(names)) < len(names):
        names = [str(p) for p in paths]
    if len(set(names)) < len(names):
        raise BadOptionError("the same system file is given twice")
    return names


def dependency_counts(gold: Path, systems: List[Path], names: List[str], fmt: Optional[str],
                      options: Any, out: Output, by: Optional[List[str]] = None,
                      breakdowns: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, UnitCounts], Dict[str, str], str, str]:
    """Each system's counts per gold sentence, as ``evaluate`` scores it: every metric on the
    same tokens; through conll18_ud_eval.py's character alignment (its thirteen F1 scores)
    for every system as soon as one has other tokens or sentences."""
    strict = options.cycles == "raise"
    gold_trees = dependency_trees(gold, fmt, strict)
    preds = [dependency_trees(p, fmt, strict) for p in systems]
    differ = [tokens_differ(gold_trees, trees, options.check_forms) for trees in preds]
    if any(differ) and not options.skip_mismatched:
        from ..adapters.conllu_words import read_conllu_layers

        for path, trees, other in zip(systems, preds, differ):
            if other:
                difference = text_difference(gold_trees, trees, gold, path)
                if difference is not None:
                    raise MismatchedCorpusError(difference)
                check_conll18_options(path, options)
        which = ", ".join(n for n, d in zip(names, differ) if d)
        out.note(f"{which}: other tokens or sentences than the gold's; every system is scored through "
                 "conll18_ud_eval.py's character alignment (its F1 scores), per gold sentence")
        gold_layers = read_conllu_layers(gold)
        counts = {}
        for n, p in zip(names, systems):
            layers = read_conllu_layers(p)
            counts[n] = aligned_unit_counts(gold_layers, layers)
            if by and breakdowns is not None:
                breakdowns[n] = breakdowns_from_layers(gold_layers, layers, by=by)
        return counts, dict(CONLL18_NAMES), "characters", f"conll18|v:{options.signature().rsplit('v:', 1)[1]}"
    counts = {}
    for name, trees in zip(names, preds):
        with warnings.catch_warnings():  # a metric undefined on these files is said once, by the comparison
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            counts[name] = evaluate(gold_trees, trees, options, keep_counts=True).unit_counts
        if by and breakdowns is not None:
            breakdowns[name] = breakdowns_from_trees(list(zip(gold_trees, trees)), by=by, options=options)
    display = {m: display_name(m) for m in next(iter(counts.values())).metrics}
    return counts, display, "identical", options.signature()


def bracket_counts(gold: Path, systems: List[Path], names: List[str], params: Optional[Path],
                   with_leaf_ancestor: bool, strict: bool, out: Output) -> Tuple[Dict[str, UnitCounts], str]:
    """EVALB's figures per sentence (its parameter file, or its built-in settings), and with
    ``--leaf-ancestor`` leaf-ancestor and GEIG beside them."""
    from ..evaluation.leaf_ancestor import leaf_ancestor
    from ..evaluation.settings import LeafAncestorSettings

    check_bracketed(gold, *systems)
    settings = EvalbParams.read(params) if params else EvalbParams()
    for warning in settings.warnings:
        out.note(warning)
    counts: Dict[str, UnitCounts] = {}
    gold_trees = None
    for name, path in zip(names, systems):
        report = evaluate_files(gold, path, settings)
        if report.aborted:
            raise BadOptionError(f"{path}: EVALB gives up on this file ({report.messages[-1] if report.messages else 'errors'})")
        counts[name] = evalb_unit_counts(report)
        if with_leaf_ancestor:
            options = {"cycles": cycles(strict), "leaves": "categories", "missing": True}
            if gold_trees is None:
                gold_trees = read_trees(gold, "bracket", **options)
            cand = read_trees(path, "bracket", **options)
            result = leaf_ancestor(gold_trees, cand, evalb=settings if params else None)
            counts[name] = merge_metrics(counts[name], leaf_ancestor_unit_counts(result))
    signature = settings.signature()
    if with_leaf_ancestor:
        signature += "  " + LeafAncestorSettings(evalb=settings if params else None).signature()
    return counts, signature


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
        if len(systems) < 2:
            raise BadOptionError("compare needs two system files or more (one system: evaluate --ci)")
        settings = ComparisonSettings(shuffles=shuffles, resamples=resamples, seed=seed, confidence=confidence,
                                      interval=interval, correction=correction)
        settings = apply_signature(settings, signature)
        names = system_names(systems)
        kind = fmt or guess_format(gold)
        by = attributes(breakdown)
        breakdowns: Dict[str, Any] = {}
        if kind == "bracket":
            if by:
                raise BadOptionError("--breakdown groups dependency attachments; bracketed trees have none",
                                     option="breakdown")
            counts, evaluation_signature = bracket_counts(gold, systems, names, params, with_leaf_ancestor, strict,
                                                          out)
            display, alignment = BRACKET_NAMES, "lines"
        else:
            options = metric_options(no_punct, punct, None, None, None, convention=convention,
                                     ignore_subtypes=ignore_subtypes,
                                     fold_root_case=None if case_sensitive_root is None else not case_sensitive_root,
                                     label_map=read_label_map(label_map) if label_map else None,
                                     skip_mismatched=skip_mismatched, cycles=cycles(strict))
            counts, display, alignment, evaluation_signature = dependency_counts(gold, systems, names, fmt, options,
                                                                                 out, by, breakdowns)
        out.note(f"comparing {len(names)} systems ({settings.shuffles:,} shuffles and {settings.resamples:,} "
                 "resamples per pair) ...")
        result = compare_systems(counts, settings, metric)
        b_text, b_json = breakdown_output(breakdowns) if breakdowns else ("", {})
        out.write(lambda: signature_footer(format_comparison(result, display, str(gold), worst) + b_text,
                                           f"{result.signature}\nsignature (evaluation): {evaluation_signature}"),
                  lambda: {**comparison_json(result, gold, systems, names, alignment, evaluation_signature), **b_json})


def comparison_json(result: Comparison, gold: Path, systems: List[Path], names: List[str], alignment: str,
                    evaluation_signature: str) -> Dict[str, Any]:
    out = result.to_dict()
    out.update(gold=str(gold), files={n: str(p) for n, p in zip(names, systems)}, alignment=alignment,
               evaluation_signature=evaluation_signature)
    return out
