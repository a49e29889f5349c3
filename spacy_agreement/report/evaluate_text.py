"""The text of ``spacy-agreement evaluate`` (what the command prints, and ``str()`` of an
:class:`~spacy_agreement.evaluation.dependency.evaluate_run.EvaluateRun`): the package's table, or what
was aligned, the intervals of ``--ci``, the tables of ``--breakdown`` and conll18_ud_eval.py's table."""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Optional

from ..evaluation.conll18.alignment import AlignedScores, format_conll18_table
from ..evaluation.dependency.breakdown_tables import format_breakdowns
from ..evaluation.dependency.metrics import display_name
from .text_parts import intervals_text
from .flags import in_flags
from .format import percent
from .text import listed

if TYPE_CHECKING:
    from ..evaluation.dependency.evaluate_run import EvaluateRun
    from ..evaluation.dependency.metrics import EvaluationResult


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


__all__ = ["format_aligned", "format_result", "format_run"]
