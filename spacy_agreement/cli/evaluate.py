"""``spacy-agreement evaluate``: every parser metric of predicted trees (a file, or a spaCy pipeline) against gold."""
from __future__ import annotations

from bisect import bisect_right
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np
import typer

from ..adapters.files import guess_format
from ..adapters.conll import surface_tokens
from ..errors import AgreementError, BadOptionError, InvalidTreeError, MismatchedCorpusError
from ..evaluation.aligned import AlignedScores, format_conll18_table
from ..evaluation.aligned_refusals import RECURSION, ScriptRefusal, ScriptRefusalError, pair_refusal
from ..evaluation.label_sets import read_label_map
from ..evaluation.metric_options import CONVENTIONS, NED_VARIANTS
from ..evaluation.parser_metrics import EvaluationResult, display_name, evaluate, token_problem
from ..integrations.spacy_parse import spacy_convention_scores, write_parses
from ..report.format import percent
from ..report.text import listed
from ..limits import memory_limit
from ..trees import DependencyTree
from .handling import handled_errors, in_flags
from .options import (InputFormat, choices, format_option, max_memory_option, read_trees, CONTENT_HELP, IGNORE_FORMS_HELP, NED_HELP, PUNCT_HELP, VERB_HELP, cycles,
                      json_option, metric_options, output_option, quiet_option, strict_option,
                      tsv_option)
from .output import Output
from .registry import command
from .settings_options import apply_signature, signature_footer, signature_option
from ..evaluation.breakdowns import breakdowns_from_layers, breakdowns_from_trees
from .breakdown_options import attributes, breakdown_option, breakdown_output
from .intervals import (ci_option, confidence_option, interval_option, interval_settings, intervals, resamples_option,
                        seed_option)

CONVENTION_HELP = ("The field's convention the options start from (any option given overrides it): conll18 "
                   "(conll18_ud_eval.py: every word, subtypes stripped, root as written), conll07 (eval07.pl: labels "
                   "as written, punctuation scored), conllx (eval.pl: punctuation by form excluded), plank2015, spacy "
                   "(spacy evaluate's UAS and LAS: F over arcs, each side's punct/p arcs left out by its own label, "
                   "labels lowercased) or package (0.2's defaults).")

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


#: The options the aligned evaluation (other tokens) has: conll18_ud_eval.py's, no other
#: (each with the flag that changes it).
CONLL18_FIXED = {"ignore_subtypes": True, "fold_root_case": False, "exclude_punct": False, "label_map": None}
CONLL18_FLAGS = {"ignore_subtypes": "--keep-subtypes", "fold_root_case": "--fold-root-case",
                 "exclude_punct": "--no-punct", "label_map": "--label-map"}


def tokens_differ(gold: List[Any], pred: List[Any], check_forms: bool) -> bool:
    """Whether gold and prediction differ in sentence count or in any sentence's tokens."""
    return len(gold) != len(pred) or any(token_problem(g, p, check_forms) is not None for g, p in zip(gold, pred))


def text_difference(gold: List[Any], pred: List[Any], gold_path: Path, pred_path: Path) -> Optional[str]:
    """Where the two files' texts (their surface tokens without whitespace, as
    conll18_ud_eval.py compares them) first differ, or ``None`` when they are the same text."""
    def characters(trees: List[Any]) -> Tuple[str, List[int]]:
        text, starts, length = [], [], 0
        for tree in trees:
            starts.append(length)
            text.append("".join("".join(form.split()) for form, _, _ in surface_tokens(tree)))
            length += len(text[-1])
        return "".join(text), starts

    g_text, g_starts = characters(gold)
    p_text, _ = characters(pred)
    if g_text == p_text:
        return None
    at = next((k for k, (a, b) in enumerate(zip(g_text, p_text)) if a != b), min(len(g_text), len(p_text)))
    sentence = max(0, bisect_right(g_starts, at) - 1)
    where = gold[sentence].location if gold else gold_path
    return (f"{where}: the gold ({len(gold)} sentences) and {pred_path} ({len(pred)} sentences) are not the same "
            f"text (gold {g_text[at:at + 20]!r}, predicted {p_text[at:at + 20]!r}): no alignment can pair their words")


def aligned_scores(gold: Path, pred: Path, fmt: Optional[str], options: Any) -> Tuple[AlignedScores, Tuple[Any, Any]]:
    """The thirteen scores of conll18_ud_eval.py through its character alignment, for files
    whose tokens or sentences differ: CoNLL-U only, under conll18's conventions (any other
    option is an error saying so, as is another format); with the two files' layers, read once
    (``--ci`` and ``--breakdown`` use them too)."""
    from ..adapters.conllu_words import read_conllu_layers
    from ..evaluation.aligned import evaluate_aligned_layers

    if (fmt or guess_format(gold)) != "conll":
        raise BadOptionError(f"{pred}: the tokens differ from the gold's; aligning other tokenisations needs "
                             "CoNLL-U files (or skip those sentences with --skip-mismatched)")
    check_conll18_options(pred, options)
    layers = (read_conllu_layers(gold), read_conllu_layers(pred))
    scores = evaluate_aligned_layers(*layers)
    refuse_deep_heads(gold, pred, fmt, options, layers)
    return scores, layers


def conll18_changes(options: Any) -> List[str]:
    """The options set otherwise than conll18_ud_eval.py scores (:data:`CONLL18_FIXED`)."""
    return [name for name, value in CONLL18_FIXED.items() if getattr(options, name) != value]


def check_conll18_options(where: Path, options: Any) -> None:
    """One error naming the options that conll18_ud_eval.py's character alignment cannot honour."""
    other = conll18_changes(options)
    if other:
        flags = ", ".join(CONLL18_FLAGS[name] for name in other)
        raise BadOptionError(f"{where}: the tokens differ from the gold's, and the character alignment scores "
                             f"as conll18_ud_eval.py does, whose conventions these options change: {flags} "
                             "(leave them out, or score only the sentences whose tokens match with "
                             "--skip-mismatched)")


def conll18_beside(gold: Path, pred: Path, fmt: Optional[str], options: Any, out: Output,
                   scans: Optional[Tuple[Any, Any]] = None) -> Optional[AlignedScores]:
    """On identical tokens under --convention conll18, the thirteen scores of conll18_ud_eval.py
    beside the package's (the same LAS, UAS, CLAS, MLAS, BLEX); none for other conventions or
    formats. A pair that the script refuses is refused (:func:`refuse_as_conll18`); where the
    script reads the files and the table still cannot be computed, one line on stderr says why,
    ``--quiet`` or not. ``scans``: the two files as the Cython scanner read them (not read again)."""
    if not conll18_table(gold, pred, fmt, options):
        return None
    from ..adapters.conllu_words import read_conllu_layers
    from ..evaluation.aligned import evaluate_aligned_layers

    try:
        layers = (read_conllu_layers(gold, scanned=scans[0] if scans else None),
                  read_conllu_layers(pred, scanned=scans[1] if scans else None))
        scores = evaluate_aligned_layers(*layers)
        refuse_deep_heads(gold, pred, fmt, options, layers)
        return scores
    except ScriptRefusalError:
        raise
    except AgreementError as exc:
        refusal = conll18_refusal(gold, pred, fmt, options)
        if refusal is not None and not (refusal.text and (options.skip_mismatched or not options.check_forms)):
            raise refusal.error() from None
        # the script reads the files (or refuses only their texts, which --skip-mismatched or
        # --ignore-forms let the package score): why its table is missing, --quiet or not
        why = f" (conll18_ud_eval.py refuses the pair: {' '.join(refusal.reason.split(chr(10)))})" if refusal else ""
        typer.echo(f"the thirteen scores of conll18_ud_eval.py are not computed: {exc}{why}", err=True)
        return None


def conll18_table(gold: Path, pred: Optional[Path], fmt: Optional[str], options: Any) -> bool:
    """Whether the output holds conll18_ud_eval.py's table: under --convention conll18 with no
    option that changes its conventions, for CoNLL files."""
    return (options.convention == "conll18" and not conll18_changes(options)
            and (fmt or guess_format(gold)) == "conll" and (pred is None or (fmt or guess_format(pred)) == "conll"))


def conll18_refusal(gold: Path, pred: Optional[Path], fmt: Optional[str], options: Any) -> Optional[ScriptRefusal]:
    """Why conll18_ud_eval.py would refuse the files (the gold alone without ``pred``), where
    its table is part of the output (:func:`conll18_table`); ``None`` when it reads them or
    there is no table (:func:`~spacy_agreement.evaluation.aligned_refusals.pair_refusal`)."""
    if not conll18_table(gold, pred, fmt, options):
        return None
    return pair_refusal(gold, pred)


def refuse_deep_heads(gold: Path, pred: Optional[Path], fmt: Optional[str], options: Any, layers: Tuple[Any, ...]) -> None:
    """The one refusal that the readers of the table do not see: a sentence longer than the
    script's recursion can follow (:data:`~spacy_agreement.evaluation.aligned_refusals.RECURSION`
    words) whose chain of heads is that deep. Checked only where such a sentence is read."""
    if any(len(found) and int(np.diff(found.sentence_words).max()) > RECURSION for found in layers):
        refusal = conll18_refusal(gold, pred, fmt, options)
        if refusal is not None:
            raise refusal.error()


@contextmanager
def refuse_as_conll18(gold: Path, pred: Optional[Path], fmt: Optional[str], options: Any) -> Iterator[None]:
    """Under --convention conll18 a file that conll18_ud_eval.py refuses is refused: an input
    error on the way (a reader's, whichever path read the files) becomes the script's refusal,
    one line with its message, the place and ``--convention package`` to score the files anyway
    (or, where the package's own reader refused them, its reason). A difference of text stays
    the package's error (the package refuses it too), the script's reason added."""
    try:
        yield
    except (InvalidTreeError, MismatchedCorpusError) as exc:
        if isinstance(exc, ScriptRefusalError):
            raise
        refusal = conll18_refusal(gold, pred, fmt, options)
        if refusal is None:
            raise
        if refusal.text and isinstance(exc, MismatchedCorpusError):  # the package's line, the script's reason after it
            reason = " ".join(refusal.reason.split("\n"))
            raise MismatchedCorpusError(f"{exc.message} (conll18_ud_eval.py refuses the pair too: {reason})",
                                        exc.location) from None
        raise refusal.error(str(exc) if getattr(exc, "read_by_package", False) else None) from None


def aligned_keys(aligned: AlignedScores) -> Dict[str, Any]:
    """The aligned scores' flat keys (``<m>_precision``, ``<m>_f1``, ...), not their signature."""
    return {k: v for k, v in aligned.to_dict().items() if k != "signature"}


def aligned_json(aligned: AlignedScores, options: Any) -> Dict[str, Any]:
    """The JSON of an aligned evaluation: every score of conll18_ud_eval.py, and ``las``,
    ``uas``, ``clas``, ``mlas``, ``blex`` as their F1 (what the script reports)."""
    out: Dict[str, Any] = {name: getattr(aligned, name).f1 for name in ("uas", "las", "clas", "mlas", "blex")}
    out.update(aligned_keys(aligned))
    out.update(alignment="characters", gold=aligned.gold_source, predicted=aligned.system_source,
               signature=options.signature())
    return out


def from_raw_text(model: str, gold: Path, gold_trees: List[Any], fmt: Optional[str], options: Any,
                  save_parses: Optional[Path], out: Output) -> Tuple[AlignedScores, Tuple[Any, Any]]:
    """``--model --from-text``: the pipeline tokenises, splits and parses the gold's raw text
    (:func:`~spacy_agreement.integrations.spacy_parse.parse_raw_text`); its parses are scored
    through conll18_ud_eval.py's alignment (and saved with ``--save-parses``)."""
    from ..adapters.conllu_words import parse_conllu_layers, read_conllu_layers
    from ..evaluation.aligned import evaluate_aligned_layers
    from ..integrations.spacy_parse import parse_raw_text

    check_conll18_options(gold, options)
    nlp = load_pipeline(model, out)
    text = parse_raw_text(nlp, gold_trees, progress=out.progress)
    name = str(save_parses) if save_parses is not None else f"<{model} on the raw text>"
    if save_parses is not None:
        save_parses.write_text(text, encoding="utf-8")
        out.note(f"wrote the pipeline's {text.count(chr(10) + chr(10))} sentences to {save_parses}")
    layers = (read_conllu_layers(gold), parse_conllu_layers(text, name))
    scores = evaluate_aligned_layers(*layers)
    refuse_deep_heads(gold, None, fmt, options, layers[:1])
    return scores, layers


def aligned_intervals(layers: Optional[Tuple[Any, Any]], settings: Any) -> Tuple[str, Dict[str, Any]]:
    """``--ci`` of an aligned evaluation: intervals of the thirteen F1 scores, per gold sentence."""
    if settings is None or layers is None:
        return "", {}
    from ..evaluation.aligned import DISPLAY_NAMES
    from ..evaluation.unit_counts import aligned_unit_counts

    text, keys = intervals(aligned_unit_counts(*layers), settings, dict(DISPLAY_NAMES))
    return "\n\nF1 of conll18_ud_eval.py's scores, " + text[0].lower() + text[1:], keys


def format_aligned(aligned: AlignedScores, gold_sentences: int, pred_sentences: Optional[int]) -> str:
    """The text of an aligned evaluation: what was aligned, then conll18_ud_eval.py's table."""
    predicted = "the pipeline's own" if pred_sentences is None else str(pred_sentences)
    head = (f"{gold_sentences} gold sentences and {predicted} predicted, with other tokens: words aligned "
            f"through the characters of the text, as conll18_ud_eval.py aligns them ({aligned.multiword_spans} "
            "multiword spans aligned by their forms). NED, TED, UCP, LCP and the POS-wise LAS need the same "
            "tokens: --skip-mismatched scores them over the sentences whose tokens match.")
    return f"{head}\n\n{format_conll18_table(aligned)}"


def dependency_trees(path: Path, fmt: Optional[str], strict: bool) -> List[Any]:
    """The dependency trees of a file in any registered format that has them (CoNLL-U/X, a
    ``.spacy`` DocBin, ...; from the content unless ``--format``)."""
    try:
        trees = read_trees(path, fmt, cycles(strict), missing=False)
    except AgreementError as exc:
        exc.read_by_package = True  # type: ignore[attr-defined]  # refuse_as_conll18: the package refuses it too
        raise
    if any(not isinstance(t, DependencyTree) for t in trees):
        raise BadOptionError(f"{path}: evaluate scores dependency trees; this file holds phrase-structure trees "
                             "(use leaf-ancestor or evalb)")
    return trees


def load_pipeline(model: str, out: Output) -> Any:
    """A spaCy pipeline with a parser (spaCy imported only here); says on stderr that it is
    loading (it can take seconds)."""
    out.note(f"loading the spaCy pipeline {model} ...")
    import spacy

    try:
        nlp = spacy.load(model)
    except OSError as exc:
        raise BadOptionError(f"{model}: cannot load the spaCy pipeline ({exc})") from exc
    if "parser" not in nlp.pipe_names and not any(getattr(p, "moves", None) is not None for _, p in nlp.pipeline):
        raise BadOptionError(f"{model}: the pipeline has no parser")
    return nlp


def parse_with_model(model: str, gold_trees: List[Any], out: Output) -> Tuple[List[Any], Any, List[Any]]:
    """The gold words parsed by a spaCy pipeline: the trees, the pipeline and the docs."""
    from ..integrations.spacy_parse import parse_with_pipeline

    nlp = load_pipeline(model, out)
    docs: List[Any] = []
    trees = parse_with_pipeline(nlp, gold_trees, progress=out.progress, docs_out=docs)
    return trees, nlp, docs


def evaluate_streamed(gold: Path, pred: Optional[Path], fmt: Optional[str], options: Any, ci_settings: Any,
                      ci: bool, worst: int, out: Output, block: Optional[int] = None) -> bool:
    """``evaluate`` of two CoNLL files read in step, ``block`` sentences at a time
    (:mod:`~spacy_agreement.evaluation.streaming`): memory flat in the corpus size, the figures
    of the whole-file evaluation. Same tokens: the package's metrics (nothing kept per sentence
    but with ``--ci``), and under conll18 the script's thirteen scores beside them, each from
    summed counts. Other tokens: the script's scores from its alignment, the files cut where
    they meet at a sentence boundary (:mod:`~spacy_agreement.evaluation.aligned_stream`).
    ``False`` when the whole-file path must run instead (another format, a file or block the
    fast readers leave to the Python readers, an error they name, ``--ci`` on other tokens)."""
    from ..evaluation.aligned_stream import Beside, evaluate_aligned_streamed
    from ..evaluation.parser_metrics import (Counts, fast_path_applies, get_metric, label_warnings,
                                             metric_names)
    from ..evaluation.streaming import BLOCK, TokensDiffer, Unscannable, evaluate_identical

    if pred is None or (fmt or guess_format(gold)) != "conll" or (fmt or guess_format(pred)) != "conll":
        return False
    chosen = list(metric_names())
    if not fast_path_applies(chosen):
        return False
    block = block or BLOCK

    def build(counts: Dict[str, List[float]], **fields: Any) -> EvaluationResult:
        total = Counts(counts)
        return EvaluationResult(total.scores(), counts=total, **fields)

    from .. import _conllu

    table = _conllu.StringTable()
    beside = (Beside(table, str(gold), str(pred))
              if options.convention == "conll18" and not conll18_changes(options) else None)
    try:
        result = evaluate_identical(gold, pred, options, {m: get_metric(m) for m in chosen}, ci, block, beside,
                                    lambda check, root_case: label_warnings(check, root_case, stacklevel=5),
                                    build, table)
    except Unscannable:
        return False
    except TokensDiffer:
        if ci_settings is not None or conll18_changes(options):
            return False  # the whole files: their intervals, or the options the alignment cannot honour
        try:
            other, n_gold, n_pred = evaluate_aligned_streamed(gold, pred, block)
        except Unscannable:
            return False  # the whole-file path names where the texts differ, or what the script refuses
        out.write(lambda: signature_footer(format_aligned(other, n_gold, n_pred), options.signature()),
                  lambda: aligned_json(other, options))
        return True
    ci_text, ci_json = "", {}  # type: Tuple[str, Dict[str, Any]]
    if ci_settings is not None:
        counts = result.unit_counts
        defined = [m for m, v in result.scores.items() if v == v]
        ci_text, ci_json = intervals(counts.select(counts.units, defined), ci_settings,
                                     {m: display_name(m) for m in counts.metrics}, result.scores)
        ci_text = "\n\n" + ci_text
    aligned: Optional[AlignedScores] = beside.scores() if beside is not None else None
    if beside is not None and aligned is None:
        aligned = conll18_beside(gold, pred, fmt, options, out)  # the whole files: says why the script refuses
    out.write(lambda: signature_footer(format_result(result, worst, {}) + ci_text
                                       + (f"\n\n{format_conll18_table(aligned)}" if aligned else ""),
                                       result.signature),
              lambda: {**result.to_json(), "alignment": "identical",
                       **(aligned_keys(aligned) if aligned else {}), **ci_json})
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
    with handled_errors(gold, pred, label_map), memory_limit(max_memory):
        out = Output(as_json, tsv, output, quiet)
        if (pred is None) == (model is None):
            raise BadOptionError("give either a predicted file or --model, not both or neither")
        if save_parses is not None and model is None:
            raise BadOptionError("--save-parses keeps the parses of --model: give --model")
        if from_text and model is None:
            raise BadOptionError("--from-text gives the raw text to the pipeline of --model: give --model")
        options = metric_options(no_punct, punct, punct_label, verb_tags, content_tags, convention=convention,
                                 ignore_subtypes=ignore_subtypes, ted_norm=ted_norm, ned=ned,
                                 label_map=read_label_map(label_map) if label_map else None,
                                 fold_root_case=None if case_sensitive_root is None else not case_sensitive_root,
                                 skip_mismatched=skip_mismatched, check_forms=not ignore_forms,
                                 cycles=cycles(strict))
        options = apply_signature(options, signature, default=type(options).for_convention(convention))
        strict = options.cycles == "raise"
        ci_settings = interval_settings(resamples, seed, confidence, interval) if ci else None
        with refuse_as_conll18(gold, pred, fmt, options):
            by = attributes(breakdown)
            system_name = pred.name if pred is not None else str(model)
            if model is None and not by and not strict:
                if evaluate_streamed(gold, pred, fmt, options, ci_settings, ci, worst, out):
                    return
            gold_trees = dependency_trees(gold, fmt, strict)
            spacy_scores: Dict[str, float] = {}
            if model is not None and from_text:
                aligned, layers = from_raw_text(model, gold, gold_trees, fmt, options, save_parses, out)
                ci_text, ci_json = aligned_intervals(layers, ci_settings)
                b_text, b_json = breakdown_output({system_name: breakdowns_from_layers(*layers, by=by)}) if by else ("", {})
                out.write(lambda: signature_footer(format_aligned(aligned, len(gold_trees), None) + ci_text + b_text,
                                                   options.signature()),
                          lambda: {**aligned_json(aligned, options), **ci_json, **b_json})
                return
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
                if tokens_differ(gold_trees, pred_trees, options.check_forms) and not options.skip_mismatched:
                    # other tokens or sentences: conll18_ud_eval.py's character alignment, its thirteen scores
                    difference = text_difference(gold_trees, pred_trees, gold, pred)
                    if difference is not None:
                        raise MismatchedCorpusError(difference)
                    aligned, layers = aligned_scores(gold, pred, fmt, options)
                    ci_text, ci_json = aligned_intervals(layers, ci_settings)
                    b_text, b_json = breakdown_output({system_name: breakdowns_from_layers(*layers, by=by)}) if by else ("", {})
                    out.write(lambda: signature_footer(format_aligned(aligned, len(gold_trees), len(pred_trees)) + ci_text
                                                       + b_text, options.signature()),
                              lambda: {**aligned_json(aligned, options), **ci_json, **b_json})
                    return
            result = evaluate(gold_trees, pred_trees, options, keep_counts=ci)
            ci_text, ci_json = "", {}
            if ci_settings is not None:
                counts = result.unit_counts
                defined = [m for m, v in result.scores.items() if v == v]  # nan: undefined on the corpus
                ci_text, ci_json = intervals(counts.select(counts.units, defined), ci_settings,
                                             {m: display_name(m) for m in counts.metrics}, result.scores)
                ci_text = "\n\n" + ci_text
            b_text, b_json = (breakdown_output({system_name: breakdowns_from_trees(list(zip(gold_trees, pred_trees)), by=by, options=options)})
                              if by else ("", {}))
            aligned = conll18_beside(gold, pred, fmt, options, out) if model is None else None
            out.write(lambda: signature_footer(format_result(result, worst, spacy_scores) + ci_text + b_text
                                               + (f"\n\n{format_conll18_table(aligned)}" if aligned else ""),
                                               result.signature),
                      lambda: {**result.to_json(), **spacy_scores, "alignment": "identical",
                               **(aligned_keys(aligned) if aligned else {}), **ci_json, **b_json})
