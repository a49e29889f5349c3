"""``spacy-agreement evaluate``: every parser metric of predicted trees (a file, or a spaCy pipeline) against gold."""
from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional

import typer

from ..adapters.conll import read_conll
from ..errors import BadOptionError
from ..evaluation.parser_metrics import EvaluationResult, display_name, evaluate
from ..report.format import percent
from .options import (CONTENT_HELP, IGNORE_FORMS_HELP, NED_HELP, PUNCT_HELP, VERB_HELP, Output, cycles,
                      handled_errors, json_option, metric_options, output_option, quiet_option, strict_option,
                      tsv_option)

def format_result(result: EvaluationResult) -> str:
    """The readable table: counts, one line per metric (percent, ``n/a`` if undefined), what was skipped."""
    values = result.to_dict()
    lines = [f"{values['sentences']} sentences, {values['tokens']} tokens scored, {values['verbs']} verbs"]
    for key, value in result.scores.items():
        lines.append(f"  {display_name(key):<18} {percent(value, width=5)}")
    if result.skipped:
        lines.append(f"skipped {len(result.skipped)} sentence(s) whose tokens differ:")
        lines.extend(f"  {where}" for where in result.skipped[:10])
    return "\n".join(lines)


def parse_with_model(model: str, gold_trees: List[Any], progress: bool) -> List[Any]:
    """The gold words parsed by a spaCy pipeline (spaCy imported only here)."""
    import spacy

    from ..integrations.spacy_parse import parse_with_pipeline

    try:
        nlp = spacy.load(model)
    except OSError as exc:
        raise BadOptionError(f"{model}: cannot load the spaCy pipeline ({exc})") from exc
    if "parser" not in nlp.pipe_names and not any(getattr(p, "moves", None) is not None for _, p in nlp.pipeline):
        raise BadOptionError(f"{model}: the pipeline has no parser")
    return parse_with_pipeline(nlp, gold_trees, progress=progress)


def evaluate_command(
    gold: Path = typer.Argument(..., help="Gold CoNLL-U/CoNLL-X file."),
    pred: Optional[Path] = typer.Argument(None, help="Predicted CoNLL-U/CoNLL-X file (or use --model)."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="A spaCy pipeline (name or path) to parse the gold words with."),
    as_json: bool = json_option("Print one flat JSON object."),
    tsv: bool = tsv_option("Print key and value, tab-separated."),
    no_punct: bool = typer.Option(False, "--no-punct", help="Exclude punctuation (as --punct defines it)."),
    punct: str = typer.Option("upos,label", "--punct", help=PUNCT_HELP),
    punct_label: List[str] = typer.Option(["punct"], "--punct-label", help="Relations that mark punctuation."),
    verb_tags: Optional[str] = typer.Option(None, "--verb-tags", help=VERB_HELP),
    content_tags: Optional[str] = typer.Option(None, "--content-tags", help=CONTENT_HELP),
    ned: str = typer.Option("schwartz", "--ned", help=NED_HELP),
    ignore_subtypes: bool = typer.Option(False, "--ignore-subtypes", help="Compare nmod:poss as nmod."),
    skip_mismatched: bool = typer.Option(False, "--skip-mismatched", help="Skip (and count) sentences whose tokens differ instead of failing."),
    ignore_forms: bool = typer.Option(False, "--ignore-forms", help=IGNORE_FORMS_HELP),
    strict: bool = strict_option("Tokens that are their own head, sentences without a root and other head cycles are errors (default: scored as they are, a self-head is a wrong attachment)."),
    ted_norm: str = typer.Option("sum", "--ted-norm", help="TED accuracy normaliser: sum, max or gold."),
    quiet: bool = quiet_option("No progress bar."),
    output: Optional[Path] = output_option(),
) -> None:
    """Every parser metric (LAS, UAS, LA, NED, TED, UCP, LCP, POS-wise and root-weighted LAS,
    and CLAS, MLAS, BLEX of the CoNLL 2018 shared task)."""
    with handled_errors(gold, pred):
        out = Output(as_json, tsv, output, quiet)
        if (pred is None) == (model is None):
            raise BadOptionError("give either a predicted file or --model, not both or neither")
        options = metric_options(no_punct, punct, punct_label, verb_tags, content_tags,
                                 ignore_subtypes=ignore_subtypes, ted_norm=ted_norm, ned=ned)
        gold_trees = read_conll(gold, cycles=cycles(strict))
        if model is not None:
            pred_trees = parse_with_model(model, gold_trees, out.progress)
        else:
            pred_trees = read_conll(pred, cycles=cycles(strict))
        result = evaluate(gold_trees, pred_trees, options, skip_mismatched, check_forms=not ignore_forms)
        out.write(lambda: format_result(result), result.to_dict)
