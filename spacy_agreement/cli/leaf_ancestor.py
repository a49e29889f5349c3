"""``spacy-agreement leaf-ancestor``: leaf-ancestor scores and GEIG bracket F (Sampson & Babarczy 2003).

Bracket files are streamed (:mod:`~spacy_agreement.evaluation.constituency.leaf_ancestor_compiled` says what is
kept): memory does not grow with the corpus. The text output keeps the ``--worst`` lowest
sentences and the first ``--worst`` reasons for skipping one; ``--words`` and ``--json`` write
each sentence as it is scored to a temporary file (:class:`SentenceSpool`), copied out after
the corpus figures that come first; ``--json`` keeps every reason for skipping (it lists them);
``--ci`` alone keeps about 60 bytes per sentence, which the bootstrap resamples."""
from __future__ import annotations

import json
import tempfile
from contextlib import nullcontext
from enum import Enum
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import typer

from ..evaluation.constituency.leaf_ancestor import LeafAncestorResult, SentenceResult, format_sentence
from ..evaluation.constituency.leaf_ancestor_run import corpus_figures, leaf_ancestor, leaf_ancestor_settings
from ..report.format import percent  # noqa: F401
from ..report.leaf_ancestor_text import format_result, format_summary, sentence_block, worst_sentences  # noqa: F401
from ..report.text import listed
from ._handling import handled_errors
from ._options import InputFormat, format_option, json_option, output_option, quiet_option, strict_option, tsv_option
from ._output import Output, dumps
from ._registry import command
from ._settings_options import signature_footer, signature_option, with_signature
from ..report.text_parts import bracket_intervals_text
from ._intervals import (ci_option, confidence_option, interval_option, resamples_option,
                        seed_option)


class CostChoice(str, Enum):
    exact = "exact"
    first_char = "first-char"


class SentenceSpool:
    """Every scored sentence written out as it is scored (a ``--words`` block, or its JSON
    with the indentation it has inside the result), into a temporary file (in memory up to
    1 MiB) until the corpus figures that come before them are known: memory holds one
    sentence at a time. The sink of :func:`~spacy_agreement.evaluation.constituency.leaf_ancestor.leaf_ancestor_files`."""

    def __init__(self, as_json: bool):
        self.as_json, self.count = as_json, 0
        self.file = tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8", newline="")

    def add(self, sentence: SentenceResult) -> None:
        if self.count:
            self.file.write(",\n" if self.as_json else "\n\n")
        self.count += 1
        if self.as_json:
            self.file.write("    " + dumps(sentence.to_dict()).replace("\n", "\n    "))
        else:
            self.file.write(sentence_block(sentence, self.count))

    def reset(self) -> None:
        self.file.seek(0)
        self.file.truncate()
        self.count = 0

    def chunks(self) -> Iterator[str]:
        """The text written, about 256 KiB at a time, cut at line ends."""
        self.file.seek(0)
        while True:
            lines = self.file.readlines(1 << 18)
            if not lines:
                break
            yield "".join(lines)

    def __enter__(self) -> "SentenceSpool":
        return self

    def __exit__(self, *exc) -> None:
        self.file.close()


def emit_parts(out: Output, parts: Sequence[Union[str, SentenceSpool]]) -> None:
    """What ``out.emit("".join(parts))`` writes, the spools copied a piece at a time."""
    pieces = (piece for part in parts for piece in ((part,) if isinstance(part, str) else part.chunks()))
    if out.path is not None:
        with open(out.path, "w", encoding="utf-8") as handle:
            for piece in pieces:
                handle.write(piece)
            handle.write("\n")
        return
    for piece in pieces:
        typer.echo(piece, nl=False)
    typer.echo("")


def streamed_output(out: Output, result: LeafAncestorResult, spool: SentenceSpool, gold: Path, candidate: Path,
                    worst: int, ci_text: str, ci_json: Dict[str, Any], signature: str) -> None:
    """The output of ``--words`` or ``--json`` with every sentence from ``spool``: the same
    bytes as :func:`format_result` or :func:`corpus_figures` with ``sentences`` give."""
    if out.as_json:
        mark = "\0sentences\0"
        data = {**with_signature({**corpus_figures(result, gold, candidate), "skipped": list(result.skipped),
                                  "sentences": mark}, signature), **ci_json}
        head, tail = dumps(data).split(json.dumps(mark), 1)
        emit_parts(out, [head, "[\n", spool, "\n  ]", tail] if spool.count else [head, "[]", tail])
        return
    head = f"gold: {gold}  candidate: {candidate}\n\n"
    body = [spool, "\n\n"] if spool.count else []
    emit_parts(out, [head, *body, signature_footer(format_summary(result, gold, candidate, worst) + ci_text,
                                                   signature)])


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
        settings = leaf_ancestor_settings(signature, costs, evalb_params)  # sa.leaf_ancestor's, as it reads them
        from ..adapters.files import guess_format

        streamed = (fmt or guess_format(gold)) == "bracket" and (as_json or (words and not tsv))
        with SentenceSpool(as_json) if streamed else nullcontext() as spool:
            # bracket files are streamed (compiled reader and loops where they apply), keeping what the output needs
            run = leaf_ancestor(gold, candidate, settings=settings, format=fmt, strict=strict, ci=ci, resamples=resamples,
                                seed=seed, confidence=confidence, interval=interval,
                                worst=0 if streamed else max(worst, 0),
                                keep_skipped=None if as_json or ci else max(worst, 0), sink=spool)
            result = run.result
            ci_text = bracket_intervals_text(run)
            ci_json = run.intervals.to_dict() if run.intervals is not None else {}
            if spool is not None:
                streamed_output(out, result, spool, gold, candidate, worst, ci_text, ci_json, settings.signature())
            else:
                out.write(lambda: signature_footer(format_result(result, gold, candidate, worst, words) + ci_text,
                                                   settings.signature()),
                          lambda: run.to_dict(sentences=as_json))
