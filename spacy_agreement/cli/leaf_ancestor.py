"""``spacy-agreement leaf-ancestor``: leaf-ancestor scores and GEIG bracket F (Sampson & Babarczy 2003)."""
from __future__ import annotations

from enum import Enum
from itertools import islice
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import typer

from ..adapters.brackets import trim_trailing_failures
from ..adapters.files import guess_format
from ..evaluation.geig import EvalbParams
from ..evaluation.settings import LeafAncestorSettings
from ..evaluation.leaf_ancestor import (LeafAncestorResult, SentenceResult, format_sentence, leaf_ancestor,
                                        leaf_ancestor_files)
from ..report.format import percent
from ..report.text import listed
from .handling import handled_errors
from .options import (InputFormat, cycles, format_option, json_option,
                      output_option, quiet_option, read_trees, strict_option, tsv_option)
from .output import Output
from .registry import command
from .settings_options import apply_signature, signature_footer, signature_option, with_signature
from .intervals import (ci_option, confidence_option, interval_option, interval_settings, intervals, resamples_option,
                        seed_option)


class CostChoice(str, Enum):
    exact = "exact"
    first_char = "first-char"


def corpus_figures(result: LeafAncestorResult, gold: Path, candidate: Path, sentences: bool = False) -> Dict[str, Any]:
    """What text, JSON and TSV all carry: the two files and the corpus scores and counts (and
    with ``sentences`` every sentence and word, for JSON)."""
    return {"gold": str(gold), "candidate": str(candidate), "sentences_scored": result.sentences_scored,
            "words_scored": result.words_scored, **result.to_dict(sentences=sentences)}


def worst_sentences(result: LeafAncestorResult, k: Optional[int] = None) -> List[Tuple[int, SentenceResult]]:
    """The sentences below a perfect leaf-ancestor score, lowest first, ties in file order, with
    their 1-based rank among the scored sentences: the first ``k`` (all without ``k``)."""
    return result.worst(k)[1]


def format_result(result: LeafAncestorResult, gold: Path, candidate: Path, worst: int, words: bool = False) -> str:
    """Which file is gold and which candidate; the ``worst`` lowest-scoring sentences word by
    word, lowest first and never a perfect one (every sentence in file order with ``words``);
    then the corpus scores, what was skipped, GEIG and the gold configurations with the lowest
    mean word score. Every shortened list ends with ``... and N more``."""
    figures = corpus_figures(result, gold, candidate)
    blocks = [f"gold: {gold}  candidate: {candidate}"]
    if words:
        blocks += [f"{s.location or f'sentence {k}'}\n{format_sentence(s)}" for k, s in enumerate(result.sentences, 1)]
    else:
        count, below = result.worst(max(worst, 0))
        shown = [f"{s.location or f'sentence {k}'}\n{format_sentence(s)}" for k, s in below]
        if count:
            blocks.append(f"the {min(count, max(worst, 0))} sentence(s) with the lowest leaf-ancestor score, "
                          f"lowest first ({count} below 100%; --words: every sentence word by word):")
            blocks += listed(shown + [""] * (count - len(shown)), worst, indent="")
    summary = [f"corpus: leaf-ancestor {percent(figures['leaf_ancestor'], sign=True)} (mean over sentences), "
               f"{percent(figures['leaf_ancestor_words'], sign=True)} (mean over words); "
               f"{figures['sentences_scored']} sentences and {figures['words_scored']} words scored, "
               f"{figures['sentences_skipped']} sentences skipped"]
    if result.skipped:
        summary.append(f"skipped {len(result.skipped)} sentence(s): failed parses, or words that differ:")
        summary.extend(listed(result.skipped, worst))
    if result.brackets is not None:
        summary.append(f"GEIG unlabelled F {percent(figures['geig_unlabelled'], sign=True)}, "
                       f"labelled F {percent(figures['geig_labelled'], sign=True)} "
                       f"({figures['error_sentences']} error sentences, {figures['skip_sentences']} skipped, "
                       "as EVALB counts them)")
    rows = result.error_configurations(k=None)
    if rows:
        summary.append("gold configurations with the lowest mean word score (%):")
        summary.extend(listed([f"{percent(score, width=6)}  {count:4d}x  {feature}" for feature, count, score in rows], worst))
    return "\n\n".join(blocks + ["\n".join(summary)])


@command("leaf-ancestor")
def leaf_ancestor_command(
    gold: Path = typer.Argument(..., help="Gold trees: bracketed (words as leaves) or CoNLL."),
    candidate: Path = typer.Argument(..., help="Candidate trees, same sentences and words."),
    costs: CostChoice = typer.Option(CostChoice.exact, "--costs", help="Label replacement costs: exact (0/2) or first-char (0.5 for a shared first character)."),
    evalb_params: Optional[Path] = typer.Option(None, "--evalb-params", help="EVALB parameter file (DELETE_LABEL, EQ_LABEL, ...)."),
    fmt: Optional[InputFormat] = format_option("bracket or conll (default: from the content)."),
    as_json: bool = json_option("Print one JSON object with every sentence and word."),
    worst: int = typer.Option(10, "--worst", help="How many of the lowest-scoring sentences to show word by word, "
                              "and how many skipped sentences and error configurations to list."),
    words: bool = typer.Option(False, "--words", help="Show every sentence word by word (text output; "
                               "--json always has every sentence and word)."),
    strict: bool = strict_option("Errors instead of skipped sentences: words that differ; in CoNLL, tokens that are their own head, sentences without a root and other head cycles."),
    tsv: bool = tsv_option("Print key and value, tab-separated (corpus scores; nested keys as a.b)."),
    quiet: bool = quiet_option(),
    output: Optional[Path] = output_option(),
    signature: Optional[str] = signature_option(),
    ci: bool = ci_option(),
    resamples: int = resamples_option(),
    seed: int = seed_option(),
    confidence: float = confidence_option(),
    interval: str = interval_option(),
) -> None:
    """Leaf-ancestor scores and GEIG bracket F (Sampson & Babarczy 2003).

    The corpus scores and the worst sentences word by word (every sentence with --words)."""
    with handled_errors(gold, candidate, evalb_params, may_be_empty=(evalb_params,)):
        out = Output(as_json, tsv, output, quiet)
        params = EvalbParams.read(evalb_params) if evalb_params else None
        settings = apply_signature(LeafAncestorSettings(cost=costs.value, evalb=params), signature)
        kind = fmt or guess_format(gold)  # the gold file's format is the candidate's
        if kind == "bracket":  # streamed (compiled reader and loops where they apply)
            result = leaf_ancestor_files(gold, candidate, cost=settings.cost, evalb=settings.evalb, strict=strict,
                                         keep_worst=max(worst, 0))
        else:
            options = {"cycles": cycles(strict), "leaves": "categories", "missing": True}
            gold_trees, cand_trees = trim_trailing_failures(read_trees(gold, kind, **options),
                                                            read_trees(candidate, kind, **options))
            result = leaf_ancestor(gold_trees, cand_trees, cost=settings.cost, evalb=settings.evalb, strict=strict)
        ci_text, ci_json = "", {}
        if ci:
            from ..evaluation.unit_counts import leaf_ancestor_unit_counts
            from ..report.comparison_text import BRACKET_NAMES

            ci_text, ci_json = intervals(leaf_ancestor_unit_counts(result), interval_settings(resamples, seed,
                                                                                              confidence, interval),
                                         BRACKET_NAMES)
            ci_text = "\n\n" + ci_text
        out.write(lambda: signature_footer(format_result(result, gold, candidate, worst, words) + ci_text,
                                           settings.signature()),
                  lambda: {**with_signature(corpus_figures(result, gold, candidate, sentences=as_json),
                                            settings.signature()), **ci_json})
