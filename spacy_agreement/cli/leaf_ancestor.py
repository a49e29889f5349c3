"""``spacy-agreement leaf-ancestor``: leaf-ancestor scores and GEIG bracket F (Sampson & Babarczy 2003)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from ..adapters.brackets import trim_trailing_failures
from ..adapters.files import guess_format
from ..evaluation.geig import EvalbParams
from ..evaluation.leaf_ancestor import LeafAncestorResult, format_sentence, leaf_ancestor
from ..report.format import number
from .options import (InputFormat, Output, cycles, format_option, handled_errors, json_option,
                      output_option, quiet_option, read_trees, strict_option, tsv_option)


class CostChoice(str, Enum):
    exact = "exact"
    first_char = "first-char"


def format_result(result: LeafAncestorResult, worst: int) -> str:
    """Every sentence word by word, then the corpus scores, what was skipped and the worst configurations."""
    blocks = [f"sentence {k} ({sentence.location})\n{format_sentence(sentence)}"
              for k, sentence in enumerate(result.sentences, start=1)]
    summary = [f"corpus: LA {number(result.leaf_ancestor)} (mean over sentences), "
               f"{number(result.leaf_ancestor_words)} (mean over words)"]
    if result.skipped:
        summary.append(f"skipped {len(result.skipped)} sentence(s): failed parses, or words that differ:")
        summary.extend(f"  {where}" for where in result.skipped[:worst])
    if result.brackets is not None:
        geig = result.brackets.scores()
        summary.append(f"GEIG unlabelled F {number(geig['geig_unlabelled'])}, "
                       f"labelled F {number(geig['geig_labelled'])}")
    rows = result.error_configurations(k=worst)
    if rows:
        summary.append("gold configurations with the lowest mean word score:")
        summary.extend(f"  {number(score)}  {count:4d}x  {feature}" for feature, count, score in rows)
    return "\n\n".join(blocks + ["\n".join(summary)])


def leaf_ancestor_command(
    gold: Path = typer.Argument(..., help="Gold trees: bracketed (words as leaves) or CoNLL."),
    candidate: Path = typer.Argument(..., help="Candidate trees, same sentences and words."),
    costs: CostChoice = typer.Option(CostChoice.exact, "--costs", help="Label replacement costs: exact (0/2) or first-char (0.5 for a shared first character)."),
    evalb_params: Optional[Path] = typer.Option(None, "--evalb-params", help="EVALB parameter file (DELETE_LABEL, EQ_LABEL, ...)."),
    fmt: Optional[InputFormat] = format_option("bracket or conll (default: from the content)."),
    as_json: bool = json_option("Print one JSON object with every sentence and word."),
    worst: int = typer.Option(10, "--worst", help="How many error configurations to list."),
    strict: bool = strict_option("Errors instead of skipped sentences: words that differ; in CoNLL, tokens that are their own head, sentences without a root and other head cycles."),
    tsv: bool = tsv_option("Print key and value, tab-separated (corpus scores; nested keys as a.b)."),
    quiet: bool = quiet_option(),
    output: Optional[Path] = output_option(),
) -> None:
    """Leaf-ancestor scores word by word and GEIG bracket F (Sampson & Babarczy 2003)."""
    with handled_errors(gold, candidate, evalb_params):
        out = Output(as_json, tsv, output, quiet)
        params = EvalbParams.read(evalb_params) if evalb_params else None
        kind = fmt or guess_format(gold)  # the gold file's format is the candidate's
        options = {"cycles": cycles(strict), "leaves": "categories", "missing": True}
        gold_trees, cand_trees = trim_trailing_failures(read_trees(gold, kind, **options),
                                                        read_trees(candidate, kind, **options))
        result = leaf_ancestor(gold_trees, cand_trees, cost=costs.value, evalb=params, strict=strict)
        out.write(lambda: format_result(result, worst), lambda: result.to_dict(sentences=as_json))
