"""The text of every command: what ``spacy-agreement COMMAND`` prints with its default
printing options, and ``str(result)`` of the function behind it (:func:`result_text`), one
function per command here or in the family's own text module (:mod:`.evaluate_text`,
:mod:`.leaf_ancestor_text`, :mod:`.layers_text`, :mod:`.text`). The CLI prints through the same
functions, so the two cannot drift apart."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional

from .format import percent
from .text_parts import bracket_intervals_text, intervals_text, signature_footer

if TYPE_CHECKING:
    from ..agreement.accuracy import AccuracyResult
    from ..agreement.alpha import AlphaResult
    from ..corpus import Corpus
    from ..evaluation.comparison.compare_run import CompareRun


def format_compare_run(run: "CompareRun", worst: int = 10) -> str:
    """The text of a run (without the signature lines): the comparison's tables, then those of ``--breakdown``."""
    from ..evaluation.dependency.breakdown_tables import format_breakdowns
    from .comparison_text import format_comparison

    text = format_comparison(run.comparison, run.display, run.gold, worst)
    return text + ("\n\n" + format_breakdowns(run.breakdowns) if run.breakdowns else "")


def compare_text(run: "CompareRun", worst: int = 10) -> str:
    """``spacy-agreement compare``'s text: the tables and both signatures."""
    return signature_footer(format_compare_run(run, worst),
                            f"{run.signature}\nsignature (evaluation): {run.evaluation_signature}")


def interval_lines(result: Optional[AlphaResult]) -> Dict[str, str]:
    """One line per δ with an interval (none for an exact α without a bootstrap)."""
    if result is None or not result.low or result.confidence is None:
        return {}
    return {k: f"alpha {k}: {percent(result.alphas[k], sign=True)} ({percent(result.confidence, 0)}% interval "
               f"{percent(result.low[k], sign=True)} .. {percent(result.high[k], sign=True)}, {result.method}, "
               f"{result.samples})"
            for k in result.low}


def text(corpus: Corpus, result: Optional[AlphaResult], accuracy: AccuracyResult, worst: int) -> str:
    """The readable table, with one line per interval where α is an estimate or has a bootstrap interval."""
    from .text import text_report  # numpy: loaded by alpha's text only

    intervals = interval_lines(result)
    return text_report(corpus, result, accuracy, worst) + ("\n\n" + "\n".join(intervals.values()) if intervals else "")


def alpha_text(result: Any, worst: int = 5) -> str:
    """``spacy-agreement alpha``'s text (``--worst 5``): the table, the intervals, what was set
    aside, the most disagreeing items and the signature."""
    computed = result if result.computed else None
    return signature_footer(text(result.corpus, computed, result.accuracy, worst), result.signature)


def layers_command_text(result: Any, details: int = 10) -> str:
    """``spacy-agreement layers``' text (``--details 10``)."""
    from .layers_text import layers_text

    body = layers_text(result, details) + "".join(f"\ninput: {note}" for note in result.input_notes)
    return signature_footer(body, result.signature)


def evaluate_text(run: Any, worst: int = 10) -> str:
    """``spacy-agreement evaluate``'s text (``--worst 10``)."""
    from .evaluate_text import format_run

    return signature_footer(format_run(run, worst), run.signature)


def evalb_text(run: Any) -> str:
    """``spacy-agreement evalb``'s text: EVALB's output line for line (its own bytes, Latin-1,
    decoded), then the intervals of ``ci=True``; no signature line, as EVALB prints none."""
    from ..evaluation.constituency.evalb import format_report

    return format_report(run.report) + bracket_intervals_text(run)


def leaf_ancestor_text(run: Any, worst: int = 10, words: bool = False) -> str:
    """``spacy-agreement leaf-ancestor``'s text (``--worst 10``; ``words``: every sentence word by word)."""
    from .leaf_ancestor_text import format_result

    return signature_footer(format_result(run.result, run.gold, run.candidate, worst, words) +
                            bracket_intervals_text(run), run.settings.signature())


def discourse_text(run: Any, confusion: bool = False) -> str:
    """``spacy-agreement discourse``'s text (``confusion``: as ``--confusion``)."""
    from ..evaluation.discourse.report import agreement_text, corpus_text

    return signature_footer((corpus_text if run.corpus else agreement_text)(run.agreement, confusion), run.signature)


def judgments_text(run: Any) -> str:
    """``spacy-agreement judgments``' text: the paper's tables and the signature."""
    return signature_footer(run.text(), run.signature)


def judge_summary(selection: Any, path: Any, size: int, key: str = "") -> str:
    """What the page holds and what was left out, as text (``judge``'s output before its signature)."""
    from ..limits import size_text
    from .judging_page import key_path
    from .text import listed

    s = selection
    rule = "every sentence" if s.settings.all_items else "the sentences whose analyses differ without punctuation"
    lines = [f"wrote {path}: {len(s.items)} {'item' if len(s.items) == 1 else 'items'} to judge, {size_text(size)}",
             f"  {s.sentences} sentences in both systems (paired by {s.matched_by}), {s.sentences - s.identical} "
             f"differ without punctuation ({', '.join(s.settings.punct_rules)}), {s.identical} the same",
             f"  items: {rule}" + (f", {len(s.items)} drawn of {s.candidates} (seed {s.settings.seed})"
                                   if len(s.items) < s.candidates else "")]
    for reason, ids in s.left_out_ids.items():
        lines.append(f"  left out, {reason}: {len(ids)}")
        lines.extend(listed(list(ids), 5, indent="    ", hint=""))
    if key:
        lines.append(f"wrote {key}: the key (which system each item shows first); keep it from the judges")
    lines.append("judges open the page (no network needed), type a name, judge, press Export; then: "
                 f"spacy-agreement judgments judgments-*.jsonl --key {key or key_path(path)}")
    return "\n".join(lines)


def judge_text(page: Any) -> str:
    """``spacy-agreement judge``'s text: where the page and its key were written (by ``judge(html=...)``
    or :meth:`~spacy_agreement.report.judging_page.JudgingPage.write`), its items, what was left out,
    the signature."""
    path = page.written if page.written is not None else "(not written yet: page.write(PATH))"
    key = page.key_written or ""
    return signature_footer(judge_summary(page.selection, path, len(page.html.encode("utf-8")), key), page.signature)


#: The text of each command's result, by the result's class (:func:`result_text`).
TEXTS = {"AlphaResult": alpha_text, "LayersResult": layers_command_text, "EvaluateRun": evaluate_text,
         "CompareRun": compare_text, "EvalbRun": evalb_text, "LeafAncestorRun": leaf_ancestor_text,
         "DiscourseRun": discourse_text, "JudgmentsRun": judgments_text, "JudgingPage": judge_text}


def result_text(result: Any) -> str:
    """What the command prints for ``result`` with its default printing options:
    ``str(result)`` of every command function's result."""
    return TEXTS[type(result).__name__](result)


__all__ = ["TEXTS", "alpha_text", "compare_text", "discourse_text", "evalb_text", "evaluate_text", "format_compare_run",
           "interval_lines", "judge_summary", "judge_text", "judgments_text", "layers_command_text", "leaf_ancestor_text", "result_text",
           "text"]
