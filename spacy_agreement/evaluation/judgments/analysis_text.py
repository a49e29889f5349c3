"""The analysis of judgments as text: the tables of Plank et al. (2015) (:func:`format_analysis`)
and what each judge judged (:func:`judged_line`)."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, List

from ...report.format import percent
from ..dependency.metrics import display_name

if TYPE_CHECKING:
    from .analysis import JudgmentAnalysis


def judged_line(result: "JudgmentAnalysis") -> str:
    """One line: how many items each judge judged, how many of them "no preference" (ties),
    and how many comments the judge wrote."""
    def one(judge: str) -> str:
        ties, notes = result.judge_ties.get(judge, 0), result.judge_comments.get(judge, 0)
        skips = result.wins.get(judge, {}).get("skip", 0)
        answers = result.judge_items.get(judge, 0) + skips
        ms = result.judge_ms.get(judge)
        return (f"{judge} {result.judge_items.get(judge, 0)} items, {ties} {'tie' if ties == 1 else 'ties'}"
                + (f", {skips} {'skip' if skips == 1 else 'skips'}" if skips else "")
                + (f", {notes} {'comment' if notes == 1 else 'comments'}" if notes else "")
                + (f", {ms / 1000 / answers:.1f} s per answer" if ms is not None and answers else ""))

    return "judged: " + "; ".join(one(j) for j in result.judges)


def pairs_lines(result: "JudgmentAnalysis") -> List[str]:
    """Each pair of judges: the items both judged, their raw agreement and Cohen's kappa."""
    return [f"  {j1} and {j2}: {shared} {'item' if shared == 1 else 'items'} judged by both"
            + (f", agreement {percent(raw, sign=True)}, Cohen's kappa {percent(k, sign=True)}" if shared else "")
            for j1, j2, shared, raw, k in result.judge_pairs]


def _p(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.4g}"


def preference_lines(result: "JudgmentAnalysis") -> List[str]:
    """Which system the judges prefer: per judge and overall the items won by A and by B, ties,
    skips, and the two-sided sign test's p-value (ties and skips left out)."""
    if not result.wins:
        return []
    a, b = result.systems
    who = [w for w in result.wins if w != "overall"] + ["overall"]
    width = max(8, *(len(w) for w in who))
    lines = [f"Which analysis the judges prefer (A: {a}, B: {b}; two-sided sign test, ties and skips left out)",
             f"  {'':<{width}} {'A':>6} {'B':>6} {'ties':>6} {'skips':>6} {'p':>9}"]
    for w in who:
        c = result.wins[w]
        lines.append(f"  {w:<{width}} {c['A']:>6} {c['B']:>6} {c['tie']:>6} {c['skip']:>6} "
                     f"{_p(result.sign_test.get(w, math.nan)):>9}")
    lines.append("  (overall: each item won by the judges' majority, a tie where as many judges chose A as B, "
                 "skipped where every judge skipped it)")
    return lines


def _kappa_name(result: "JudgmentAnalysis") -> str:
    if result.kappa_kind == "fleiss":
        return "Fleiss' kappa"
    return "Cohen's kappa" if len(result.judges) <= 2 else "mean pairwise Cohen's kappa"


def format_analysis(result: "JudgmentAnalysis") -> str:
    """The tables of the paper as text: agreements and κ in %, Spearman's ρ × 100 (as every
    text output prints a score: :func:`~spacy_agreement.report.format.percent`)."""
    width = 7  # -100.00

    def num(v: float) -> str:
        return percent(v, width=width)

    names = [display_name(m) for m in result.metrics]
    lines = [f"{result.items} items, {len(result.judges)} judges ({', '.join(result.judges)})",
             judged_line(result),
             f"between judges: raw agreement {percent(result.judge_agreement, sign=True)}, "
             f"{_kappa_name(result)} {percent(result.kappa, sign=True)}"]
    lines += pairs_lines(result) + [""] + preference_lines(result) + [""]
    if not result.metrics:
        lines.append(f"no metric tables: {result.metrics_left_out or 'no metric chosen'}")
        if result.mace is not None:
            lines.append("")
            lines.append("MACE competence, %: " + ", ".join(f"{j} {percent(v)}"
                                                           for j, v in result.mace.competence.items()))
        return "\n".join(lines)
    lines += ["Mean agreement with the judges, % (Table 5)",
              "  " + " ".join(f"{n:>{width}}" for n in ["ANN", *names]),
              "  " + num(result.judge_agreement) + " "
              + " ".join(num(result.metric_judge_agreement[m]) for m in result.metrics),
              f"  {'ties':<{width}} " + " ".join(f"{result.ties[m]:{width}d}" for m in result.metrics), "",
              "Spearman's rho between metrics, × 100 (Table 3)",
              "       " + " ".join(f"{n:>{width}}" for n in names[1:])]
    for i, m1 in enumerate(result.metrics[:-1]):
        row = [num(result.metric_correlations[(m1, m2)]) for m2 in result.metrics[i + 1:]]
        lines.append(f"  {display_name(m1):<5}" + " " * (width + 1) * i
                     + " ".join(row))
    lines.append("")
    lines.append("Spearman's rho with the human judgments, × 100 (Table 4; * differs from LAS, Fisher z, p < 0.05)")
    lines.append("           " + " ".join(f"{n:>{width}} " for n in names))
    for aggregation, table in result.human_correlations.items():
        cells = []
        for m in result.metrics:
            p = table[m].get("p_vs_las", math.nan)
            cells.append(num(table[m]["rho"]) + ("*" if not math.isnan(p) and p < 0.05 else " "))
        lines.append(f"  {aggregation:<9}" + " ".join(cells))
    if result.mace is not None:
        lines.append("")
        lines.append("MACE competence, %: " + ", ".join(f"{j} {percent(v)}" for j, v in result.mace.competence.items()))
    return "\n".join(lines)
