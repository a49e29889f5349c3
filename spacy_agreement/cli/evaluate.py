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
from ..report.format import percent  # noqa: F401
from ..report.command_text import evaluate_text
from ..report.evaluate_text import format_aligned, format_result, format_run  # noqa: F401 (the command's text)
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


def write_run(run: EvaluateRun, worst: int, out: Output) -> None:
    """The run as text (with its signature), ``--json`` (:meth:`EvaluateRun.to_dict`) or
    ``--tsv``; why conll18_ud_eval.py's table is missing, on stderr, ``--quiet`` or not."""
    if run.conll18_missing:
        typer.echo(run.conll18_missing, err=True)
    out.write(lambda: evaluate_text(run, worst), run.to_dict)  # str(run) with --worst 10


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
        run = evaluate(gold, pred, signature=signature, format=fmt, model=model, convention=convention, no_punct=no_punct,
                       punct=punct, punct_label=punct_label, verb_tags=verb_tags, content_tags=content_tags, ned=ned,
                       ignore_subtypes=ignore_subtypes, skip_mismatched=skip_mismatched, ignore_forms=ignore_forms,
                       strict=strict, ted_norm=ted_norm, label_map=label_map, case_sensitive_root=case_sensitive_root,
                       from_text=from_text, save_parses=save_parses, max_memory=max_memory, ci=ci,
                       resamples=resamples, seed=seed, confidence=confidence, interval=interval, breakdown=breakdown,
                       note=out.note, progress=out.progress)
        write_run(run, worst, out)
