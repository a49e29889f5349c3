"""``spacy-agreement evaluate``: every parser metric of predicted trees (a file, or a spaCy pipeline) against gold.

The command is :func:`spacy_agreement.evaluate` (:mod:`spacy_agreement.evaluation.dependency.evaluate_run`)
and the text it prints; the functions that read and align the files moved to the library
(:mod:`spacy_agreement.evaluation.conll18.files`) and are exported here under their old names."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import typer

from ..evaluation.conll18.alignment import AlignedScores, format_conll18_table
from ..evaluation.dependency.breakdown_tables import format_breakdowns
from ..evaluation.conll18.files import (CONLL18_FIXED, CONLL18_FLAGS, aligned_json, aligned_keys,  # noqa: F401
                                        aligned_scores, check_conll18_options, conll18_beside, conll18_changes,
                                        conll18_refusal, conll18_table, dependency_trees, refuse_as_conll18,
                                        refuse_deep_heads, text_difference, tokens_differ)
from ..evaluation.dependency.evaluate_run import EvaluateRun, evaluate, evaluate_streamed as streamed_run, from_raw_text  # noqa: F401
from ..evaluation.dependency.settings import CONVENTIONS, NED_VARIANTS
from ..evaluation.dependency.metrics import EvaluationResult, display_name
from ..integrations.spacy_parse import load_pipeline, parse_with_model  # noqa: F401
from ..report.format import percent
from ..report.text import listed
from ._handling import handled_errors, in_flags
from ._options import (CONVENTION_HELP, InputFormat, choices, format_option, max_memory_option, CONTENT_HELP,  # noqa: F401
                      IGNORE_FORMS_HELP, NED_HELP, PUNCT_HELP, VERB_HELP, json_option, output_option, quiet_option,
                      strict_option, tsv_option)
from ._output import Output
from ._registry import command
from ._settings_options import signature_footer, signature_option
from ._breakdown_options import breakdown_option
from ._intervals import (ci_option, confidence_option, interval_option, intervals_text, resamples_option,
                        seed_option)


def format_result(result: EvaluationResult, worst: int = 10, spacy_scores: Optional[Dict[str, float]] = None) -> str:
    """The readable table: counts, one line per metric (percent, ``n/a`` if undefined),
    attachment per label, the label-set check, predictions with several roots and what
    was skipped (the first ``worst`` of each list, then ``... and N more``): the figures of the
    JSON output."""
    values = result.to_dict()
    lines = [f"{values['sentences_scored']} sentences, {values['tokens_scored']} tokens scored, {values['verbs']} verbs"]
    for key, value in result.scores.items():
        lines.append(f"  {display_name(key):<18} {percent(value, width=6)}")
    if spacy_scores:
        lines.append(f"  spaCy's scorer on these parses (as spacy evaluate: F over arcs, punctuation left out by "
                     f"each side's label): LAS {percent(spacy_scores['spacy_las'])}, UAS "
                     f"{percent(spacy_scores['spacy_uas'])}")
    check = result.label_check
    lines.append("")
    lines.append(f"gold tokens whose label the predictions never use: {percent(check.share, sign=True)} "
                 f"({check.unseen_tokens} of {check.gold_tokens})")
    lines.extend(listed([f"{gold:<14} -> {predicted:<14} {count:6d}" for gold, predicted, count in check.pairs],
                        worst))
    rows = result.per_label
    if rows:
        lines.append("")
        lines.append("attachment by label (head and label right; P over predicted, R over gold):")
        lines.append(f"  {'label':<16} {'P %':>6} {'R %':>6} {'F %':>6} {'gold':>7} {'pred':>7}")
        for label, row in rows.items():
            lines.append(f"  {label:<16} {percent(row['precision'], width=6)} {percent(row['recall'], width=6)} "
                         f"{percent(row['f'], width=6)} {row['gold']:7d} {row['predicted']:7d}")
    if result.multi_root:
        lines.append("")
        lines.append(f"{len(result.multi_root)} sentence(s) with several roots in the prediction and one in the gold:")
        lines.extend(listed(result.multi_root, worst))
    if result.partial:
        lines.append("")
        lines.append(f"{len(result.partial)} sentence(s) partly annotated (HEAD _): the token scores use the "
                     f"{values['tokens_scored']} of {values['tokens_scored'] + result.tokens_unannotated} tokens both "
                     f"annotated ({percent(values['token_coverage'], sign=True)} coverage); TED, UCP/LCP and "
                     "CLAS/MLAS/BLEX leave them out:")
        lines.extend(listed(result.partial, worst))
    if result.over_limits:
        lines.append(f"{len(result.over_limits)} sentence(s) left out of a metric, too large for it:")
        lines.extend(listed([in_flags(where, ("memory_limit",)) for where in result.over_limits], worst))
    if result.skipped:
        lines.append(f"skipped {len(result.skipped)} sentence(s) whose tokens differ:")
        lines.extend(listed(result.skipped, worst))
    return "\n".join(lines)


def format_aligned(aligned: AlignedScores, gold_sentences: int, pred_sentences: Optional[int]) -> str:
    """The text of an aligned evaluation: what was aligned, then conll18_ud_eval.py's table."""
    predicted = "the pipeline's own" if pred_sentences is None else str(pred_sentences)
    head = (f"{gold_sentences} gold sentences and {predicted} predicted, with other tokens: words aligned "
            f"through the characters of the text, as conll18_ud_eval.py aligns them ({aligned.multiword_spans} "
            "multiword spans aligned by their forms). NED, TED, UCP, LCP and the POS-wise LAS need the same "
            "tokens: --skip-mismatched scores them over the sentences whose tokens match.")
    return f"{head}\n\n{format_conll18_table(aligned)}"


def format_run(run: EvaluateRun, worst: int = 10) -> str:
    """The text of a run (without the signature line): the package's table (the same tokens)
    or what was aligned (other tokens), the intervals of ``--ci``, the tables of ``--breakdown``,
    and conll18_ud_eval.py's table beside the package's figures."""
    found = run.intervals
    if run.alignment == "characters":
        assert run.aligned is not None
        text = format_aligned(run.aligned, run.gold_sentences or 0, run.system_sentences)
        if found is not None:
            shown = intervals_text(found.counts, found.found, found.settings, run.display_names())
            text += "\n\nF1 of conll18_ud_eval.py's scores, " + shown[0].lower() + shown[1:]
    else:
        assert run.result is not None
        text = format_result(run.result, worst, run.spacy_scores)
        if found is not None:
            text += "\n\n" + intervals_text(found.counts, found.found, found.settings, run.display_names(),
                                            run.result.scores)
    if run.breakdowns:
        text += "\n\n" + format_breakdowns(run.breakdowns)
    if run.alignment == "identical" and run.aligned is not None:
        text += f"\n\n{format_conll18_table(run.aligned)}"
    return text


def write_run(run: EvaluateRun, worst: int, out: Output) -> None:
    """The run as text (with its signature), ``--json`` (:meth:`EvaluateRun.to_dict`) or
    ``--tsv``; why conll18_ud_eval.py's table is missing, on stderr, ``--quiet`` or not."""
    if run.conll18_missing:
        typer.echo(run.conll18_missing, err=True)
    out.write(lambda: signature_footer(format_run(run, worst), run.signature), run.to_dict)


def aligned_intervals(layers: Optional[Tuple[Any, Any]], settings: Any) -> Tuple[str, Dict[str, Any]]:
    """``--ci`` of an aligned evaluation as text and JSON keys (0.3's helper)."""
    from ..evaluation.conll18.alignment import DISPLAY_NAMES
    from ..evaluation.comparison.systems import system_intervals
    from ..evaluation.conll18.accumulator import aligned_evaluation

    if settings is None or layers is None:
        return "", {}
    counts = aligned_evaluation(*layers).statistics()
    found = system_intervals(counts, settings)
    text = intervals_text(counts, found, settings, dict(DISPLAY_NAMES))
    return ("\n\nF1 of conll18_ud_eval.py's scores, " + text[0].lower() + text[1:],
            {"ci": {m: i.to_list() for m, i in found.items()}, "ci_signature": settings.signature()})


def evaluate_streamed(gold: Path, pred: Optional[Path], fmt: Optional[str], options: Any, ci_settings: Any,
                      ci: bool, worst: int, out: Output, block: Optional[int] = None) -> bool:
    """The streamed evaluation of two CoNLL files written to ``out`` (0.3's entry point:
    :func:`spacy_agreement.evaluation.dependency.evaluate_run.evaluate_streamed` is the library's);
    ``False`` when the whole-file path must run instead."""
    run = streamed_run(gold, pred, fmt, options, ci_settings, block) if pred is not None else None
    if run is None:
        return False
    write_run(run, worst, out)
    return True


@command("evaluate")
def evaluate_command(
    gold: Path = typer.Argument(..., help="Gold CoNLL-U/CoNLL-X file (or a .spacy DocBin)."),
    pred: Optional[Path] = typer.Argument(None, help="Predicted CoNLL-U/CoNLL-X file or .spacy DocBin (or use --model)."),
    fmt: Optional[InputFormat] = format_option("Input format of both files (default: from the content)."),
    model: Optional[str] = typer.Option(None, "--model", "-m", metavar="PIPELINE", help="A spaCy pipeline (name or path) to parse the gold words with."),
    as_json: bool = json_option("Print one flat JSON object."),
    tsv: bool = tsv_option("Print key and value, tab-separated."),
    convention: str = typer.Option("conll18", "--convention", help=CONVENTION_HELP, metavar=choices(CONVENTIONS)),
    no_punct: Optional[bool] = typer.Option(None, "--no-punct/--with-punct", help="Exclude punctuation (as --punct defines it), or score it (default: as the convention says)."),
    punct: Optional[str] = typer.Option(None, "--punct", help=PUNCT_HELP, metavar="RULES"),
    punct_label: Optional[List[str]] = typer.Option(None, "--punct-label", metavar="LABEL", help="Relations that mark punctuation (default punct)."),
    verb_tags: Optional[str] = typer.Option(None, "--verb-tags", help=VERB_HELP, metavar="TAGS"),
    content_tags: Optional[str] = typer.Option(None, "--content-tags", help=CONTENT_HELP, metavar="TAGS"),
    ned: Optional[str] = typer.Option(None, "--ned", help=NED_HELP, metavar=choices(NED_VARIANTS)),
    ignore_subtypes: Optional[bool] = typer.Option(None, "--ignore-subtypes/--keep-subtypes", help="Compare nmod:poss as nmod, or keep subtypes (default: as the convention says; conll18 strips them)."),
    skip_mismatched: bool = typer.Option(False, "--skip-mismatched", help="Skip (and count) sentences whose tokens differ instead of failing."),
    ignore_forms: bool = typer.Option(False, "--ignore-forms", help=IGNORE_FORMS_HELP),
    strict: bool = strict_option("Tokens that are their own head, sentences without a root and other head cycles are errors (default: scored as they are, a self-head is a wrong attachment)."),
    ted_norm: str = typer.Option("sum", "--ted-norm", metavar=choices(("sum", "max", "gold")), help="TED accuracy normaliser: sum, max or gold."),
    label_map: Optional[Path] = typer.Option(None, "--label-map", help="Map predicted labels to the gold scheme: a file of two columns (predicted gold) or a JSON object."),
    case_sensitive_root: Optional[bool] = typer.Option(None, "--case-sensitive-root/--fold-root-case", help="Compare the root relation as written (ROOT is not root), as conll18_ud_eval.py does, or case-insensitively (default: as the convention says)."),
    from_text: bool = typer.Option(False, "--from-text", help="With --model: give the pipeline the raw text of the gold, to tokenise and split into sentences itself, and score its parses through conll18_ud_eval.py's character alignment."),
    save_parses: Optional[Path] = typer.Option(None, "--save-parses", help="With --model: write the pipeline's parses to this CoNLL-U file."),
    worst: int = typer.Option(10, "--worst", help="How many label pairs, multi-root and skipped sentences to list."),
    quiet: bool = quiet_option("No progress bar."),
    output: Optional[Path] = output_option(),
    max_memory: Optional[float] = max_memory_option(),
    signature: Optional[str] = signature_option(),
    ci: bool = ci_option(),
    resamples: int = resamples_option(),
    seed: int = seed_option(),
    confidence: float = confidence_option(),
    interval: str = interval_option(),
    breakdown: Optional[str] = breakdown_option(),
) -> None:
    """Every parser metric of predicted trees against gold: LAS, UAS, CLAS, MLAS, BLEX and more.

    LAS, UAS, LA, NED, TED, UCP, LCP, POS-wise and root-weighted LAS, and CLAS, MLAS, BLEX of the
    CoNLL 2018 shared task."""
    with handled_errors(gold, pred, label_map):
        out = Output(as_json, tsv, output, quiet)
        run = evaluate(gold, pred, signature, format=fmt, model=model, convention=convention, no_punct=no_punct,
                       punct=punct, punct_label=punct_label, verb_tags=verb_tags, content_tags=content_tags, ned=ned,
                       ignore_subtypes=ignore_subtypes, skip_mismatched=skip_mismatched, ignore_forms=ignore_forms,
                       strict=strict, ted_norm=ted_norm, label_map=label_map, case_sensitive_root=case_sensitive_root,
                       from_text=from_text, save_parses=save_parses, max_memory=max_memory, ci=ci,
                       resamples=resamples, seed=seed, confidence=confidence, interval=interval, breakdown=breakdown,
                       note=out.note, progress=out.progress)
        write_run(run, worst, out)
