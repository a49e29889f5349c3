"""``spacy-agreement evaluate``: every parser metric of predicted trees (a file, or a spaCy pipeline) against gold."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import typer

from ..errors import BadOptionError
from ..evaluation.label_sets import read_label_map
from ..evaluation.parser_metrics import EvaluationResult, display_name, evaluate
from ..integrations.spacy_parse import spacy_convention_scores, write_parses
from ..report.format import percent
from ..limits import memory_limit
from ..trees import DependencyTree
from .handling import handled_errors, in_flags
from .options import (InputFormat, format_option, max_memory_option, read_trees, CONTENT_HELP, IGNORE_FORMS_HELP, NED_HELP, PUNCT_HELP, VERB_HELP, cycles,
                      json_option, metric_options, output_option, quiet_option, strict_option,
                      tsv_option)
from .output import Output
from .registry import command
from .settings_options import apply_signature, signature_footer, signature_option

CONVENTION_HELP = ("The field's convention the options start from (any option given overrides it): conll18 "
                   "(conll18_ud_eval.py: every word, subtypes stripped, root as written), conll07 (eval07.pl: labels "
                   "as written, punctuation scored), conllx (eval.pl: punctuation by form excluded), plank2015, spacy "
                   "(punctuation by label excluded, ROOT = root) or package (0.2's defaults).")

def format_result(result: EvaluationResult, worst: int = 10, spacy_scores: Optional[Dict[str, float]] = None) -> str:
    """The readable table: counts, one line per metric (percent, ``n/a`` if undefined),
    attachment per label, the label-set check, predictions with several roots and what
    was skipped: the figures of the JSON output."""
    values = result.to_dict()
    lines = [f"{values['sentences_scored']} sentences, {values['tokens_scored']} tokens scored, {values['verbs']} verbs"]
    for key, value in result.scores.items():
        lines.append(f"  {display_name(key):<18} {percent(value, width=5)}")
    if spacy_scores:
        lines.append(f"  spaCy's scorer on these parses (as spacy evaluate: F over arcs, punctuation left out by "
                     f"each side's label): LAS {percent(spacy_scores['spacy_las'])}, UAS "
                     f"{percent(spacy_scores['spacy_uas'])}")
    check = result.label_check
    lines.append("")
    lines.append(f"gold tokens whose label the predictions never use: {percent(check.share)}% "
                 f"({check.unseen_tokens} of {check.gold_tokens})")
    for gold, predicted, count in check.pairs[:worst]:
        lines.append(f"  {gold:<14} -> {predicted:<14} {count:6d}")
    rows = result.per_label
    if rows:
        lines.append("")
        lines.append("attachment by label (head and label right; P over predicted, R over gold):")
        lines.append(f"  {'label':<16} {'P':>5} {'R':>5} {'F':>5} {'gold':>7} {'pred':>7}")
        for label, row in rows.items():
            lines.append(f"  {label:<16} {percent(row['precision'], width=5)} {percent(row['recall'], width=5)} "
                         f"{percent(row['f'], width=5)} {row['gold']:7d} {row['predicted']:7d}")
    if result.multi_root:
        lines.append("")
        lines.append(f"{len(result.multi_root)} sentence(s) with several roots in the prediction and one in the gold:")
        lines.extend(f"  {where}" for where in result.multi_root[:worst])
    if result.over_limits:
        lines.append(f"{len(result.over_limits)} sentence(s) left out of a metric, too large for it:")
        lines.extend(f"  {in_flags(where, ('memory_limit',))}" for where in result.over_limits[:worst])
    if result.skipped:
        lines.append(f"skipped {len(result.skipped)} sentence(s) whose tokens differ:")
        lines.extend(f"  {where}" for where in result.skipped[:worst])
    return "\n".join(lines)


def dependency_trees(path: Path, fmt: Optional[str], strict: bool) -> List[Any]:
    """The dependency trees of a file in any registered format that has them (CoNLL-U/X, a
    ``.spacy`` DocBin, ...; from the content unless ``--format``)."""
    trees = read_trees(path, fmt, cycles(strict), missing=False)
    if any(not isinstance(t, DependencyTree) for t in trees):
        raise BadOptionError(f"{path}: evaluate scores dependency trees; this file holds phrase-structure trees "
                             "(use leaf-ancestor or evalb)")
    return trees


def parse_with_model(model: str, gold_trees: List[Any], out: Output) -> Tuple[List[Any], Any, List[Any]]:
    """The gold words parsed by a spaCy pipeline (spaCy imported only here): the trees, the
    pipeline and the docs. Says on stderr that the pipeline is loading (it can take seconds)."""
    out.note(f"loading the spaCy pipeline {model} ...")
    import spacy

    from ..integrations.spacy_parse import parse_with_pipeline

    try:
        nlp = spacy.load(model)
    except OSError as exc:
        raise BadOptionError(f"{model}: cannot load the spaCy pipeline ({exc})") from exc
    if "parser" not in nlp.pipe_names and not any(getattr(p, "moves", None) is not None for _, p in nlp.pipeline):
        raise BadOptionError(f"{model}: the pipeline has no parser")
    docs: List[Any] = []
    trees = parse_with_pipeline(nlp, gold_trees, progress=out.progress, docs_out=docs)
    return trees, nlp, docs


@command("evaluate")
def evaluate_command(
    gold: Path = typer.Argument(..., help="Gold CoNLL-U/CoNLL-X file (or a .spacy DocBin)."),
    pred: Optional[Path] = typer.Argument(None, help="Predicted CoNLL-U/CoNLL-X file or .spacy DocBin (or use --model)."),
    fmt: Optional[InputFormat] = format_option("Input format of both files (default: from the content)."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="A spaCy pipeline (name or path) to parse the gold words with."),
    as_json: bool = json_option("Print one flat JSON object."),
    tsv: bool = tsv_option("Print key and value, tab-separated."),
    convention: str = typer.Option("conll18", "--convention", help=CONVENTION_HELP),
    no_punct: Optional[bool] = typer.Option(None, "--no-punct/--with-punct", help="Exclude punctuation (as --punct defines it), or score it (default: as the convention says)."),
    punct: Optional[str] = typer.Option(None, "--punct", help=PUNCT_HELP),
    punct_label: Optional[List[str]] = typer.Option(None, "--punct-label", help="Relations that mark punctuation (default punct)."),
    verb_tags: Optional[str] = typer.Option(None, "--verb-tags", help=VERB_HELP),
    content_tags: Optional[str] = typer.Option(None, "--content-tags", help=CONTENT_HELP),
    ned: Optional[str] = typer.Option(None, "--ned", help=NED_HELP),
    ignore_subtypes: Optional[bool] = typer.Option(None, "--ignore-subtypes/--keep-subtypes", help="Compare nmod:poss as nmod, or keep subtypes (default: as the convention says; conll18 strips them)."),
    skip_mismatched: bool = typer.Option(False, "--skip-mismatched", help="Skip (and count) sentences whose tokens differ instead of failing."),
    ignore_forms: bool = typer.Option(False, "--ignore-forms", help=IGNORE_FORMS_HELP),
    strict: bool = strict_option("Tokens that are their own head, sentences without a root and other head cycles are errors (default: scored as they are, a self-head is a wrong attachment)."),
    ted_norm: str = typer.Option("sum", "--ted-norm", help="TED accuracy normaliser: sum, max or gold."),
    label_map: Optional[Path] = typer.Option(None, "--label-map", help="Map predicted labels to the gold scheme: a file of two columns (predicted gold) or a JSON object."),
    case_sensitive_root: Optional[bool] = typer.Option(None, "--case-sensitive-root/--fold-root-case", help="Compare the root relation as written (ROOT is not root), as conll18_ud_eval.py does, or case-insensitively (default: as the convention says)."),
    save_parses: Optional[Path] = typer.Option(None, "--save-parses", help="With --model: write the pipeline's parses to this CoNLL-U file."),
    worst: int = typer.Option(10, "--worst", help="How many label pairs, multi-root and skipped sentences to list."),
    quiet: bool = quiet_option("No progress bar."),
    output: Optional[Path] = output_option(),
    max_memory: Optional[float] = max_memory_option(),
    signature: Optional[str] = signature_option(),
) -> None:
    """Every parser metric (LAS, UAS, LA, NED, TED, UCP, LCP, POS-wise and root-weighted LAS,
    and CLAS, MLAS, BLEX of the CoNLL 2018 shared task)."""
    with handled_errors(gold, pred, label_map), memory_limit(max_memory):
        out = Output(as_json, tsv, output, quiet)
        if (pred is None) == (model is None):
            raise BadOptionError("give either a predicted file or --model, not both or neither")
        if save_parses is not None and model is None:
            raise BadOptionError("--save-parses keeps the parses of --model: give --model")
        options = metric_options(no_punct, punct, punct_label, verb_tags, content_tags, convention=convention,
                                 ignore_subtypes=ignore_subtypes, ted_norm=ted_norm, ned=ned,
                                 label_map=read_label_map(label_map) if label_map else None,
                                 fold_root_case=None if case_sensitive_root is None else not case_sensitive_root,
                                 skip_mismatched=skip_mismatched, check_forms=not ignore_forms,
                                 cycles=cycles(strict))
        options = apply_signature(options, signature, default=type(options).for_convention(convention))
        strict = options.cycles == "raise"
        gold_trees = dependency_trees(gold, fmt, strict)
        spacy_scores: Dict[str, float] = {}
        if model is not None:
            pred_trees, nlp, docs = parse_with_model(model, gold_trees, out)
            spacy_scores = spacy_convention_scores(nlp, docs, gold_trees, options)
            if save_parses is not None:
                rerooted: List[str] = []  # sentences the pipeline split: one root in the file
                save_parses.write_text(write_parses(pred_trees, gold_trees, rerooted), encoding="utf-8")
                out.note(f"wrote {len(pred_trees)} parses to {save_parses}" + (
                    f" ({len(rerooted)} with several roots written with one: the later attached to the first as "
                    f"parataxis, e.g. sent_id {rerooted[0]})" if rerooted else ""))
        else:
            pred_trees = dependency_trees(pred, fmt, strict)
        result = evaluate(gold_trees, pred_trees, options)
        out.write(lambda: signature_footer(format_result(result, worst, spacy_scores), result.signature),
                  lambda: {**result.to_json(), **spacy_scores})
