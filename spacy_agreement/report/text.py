"""Readable text reports of agreement results (the CLI's output without ``--json``), and
:func:`listed`, the one way the CLI's text outputs shorten a list (``... and N more``)."""
from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .format import percent as _percent

if TYPE_CHECKING:  # the helpers of other reports (leaf-ancestor's) do not load the α machinery
    from ..agreement.accuracy import AccuracyResult
    from ..agreement.alpha import AlphaResult
    from ..corpus import Corpus

#: The δ whose mean squared value over an item's pairs of annotations ranks the items "most
#: disagreement": the HTML report's ranking (:data:`spacy_agreement.report.html.DEFAULT_RANKING`),
#: so that long sentences do not come first for their length alone.
RANKING = "norm"

#: What shows more of a shortened list, in the CLI.
MORE_HINT = "--worst shows more"


#: The width of the report's ``%`` column: ``-100.00`` fits.
WIDTH = 7


def percent(value: float) -> str:
    """A score as a percentage in the report's column (``    n/a`` if undefined)."""
    return _percent(value, width=WIDTH)


def listed(entries: Sequence[str], limit: int, indent: str = "  ", hint: str = MORE_HINT) -> List[str]:
    """The lines of the first ``limit`` of ``entries`` (``indent`` before each), and when
    some are left out one more line saying how many: ``... and N more (hint)``. Every list
    the CLI shortens goes through here."""
    shown = [f"{indent}{entry}" for entry in islice(entries, max(limit, 0))]
    left = len(entries) - len(shown)
    if left > 0:
        shown.append(f"{indent}... and {left} more" + (f" ({hint})" if hint else ""))
    return shown


def item_label(name: str, trees: Iterable[Any]) -> str:
    """An item's name in the corpus (its sent_id when the items were paired by sent_id), with
    the sent_id of its sentences when the name does not say it (items paired by position or
    text are named ``sentence N``)."""
    ids = sorted({str(t.location.sent_id) for t in trees if getattr(getattr(t, "location", None), "sent_id", None)})
    if not ids or name in ids:
        return name
    return f"{name} (sent_id {', '.join(ids)})"


def most_disagreement(corpus: Corpus, result: AlphaResult, kind: str = RANKING) -> Tuple[str, List[Tuple[str, float]]]:
    """The δ that ranks the items (``kind``, else the first δ computed) and every item with any
    disagreement under it, most first (ties in corpus order), as (label, mean squared δ over its
    pairs of annotations); labels by :func:`item_label`."""
    kinds = list(result.alphas)
    if result.item_disagreement is None or not len(result.item_names) or not kinds:
        return kind, []
    kind = kind if kind in kinds else kinds[0]
    column = result.item_disagreement[:, kinds.index(kind)]
    by_name: Mapping[str, Any] = dict(zip(corpus.names, corpus.items))
    order = [int(i) for i in np.argsort(-column, kind="stable") if column[i] > 0]
    return kind, [(item_label(result.item_names[i], by_name.get(result.item_names[i], {}).values()),
                   float(column[i])) for i in order]


def alpha_method_line(result: Optional[AlphaResult]) -> str:
    """One line saying how α was computed (exact, sampled and why, or not at all)."""
    if result is None:
        return "alpha: not computed (--alpha off)"
    cost = ""
    if result.cells is not None:
        seconds = f", about {result.seconds:.2g} s here" if result.seconds else ""
        if result.method != "exact" and result.budget is not None and result.cells > result.budget:
            cost = (f"; the exact alpha would cost {result.cells:.3g} DP cells, over the budget of {result.budget:.3g} "
                    "(--alpha exact computes it)")
        elif result.method != "exact" and result.seconds is not None and result.seconds > result.settings.seconds:
            cost = (f"; the exact alpha would take about {result.seconds:.3g} s here ({result.cells:.3g} DP cells), "
                    f"over the limit of {result.settings.seconds:.3g} s (--alpha exact computes it)")
        else:
            cost = f", {result.cells:.3g} DP cells{seconds}"
    if result.method == "exact":
        return f"alpha: exact, over all pairs of annotations{cost}"
    if result.method == "sampled pairs":
        return f"alpha: sampled, expected disagreement from {result.samples:,} random pairs{cost}"
    return f"alpha: {result.method}{cost}"


def summary(corpus: Corpus, result: Optional[AlphaResult], accuracy: AccuracyResult) -> Dict[str, Any]:
    """The flat dict of the CLI's ``--json`` output but its signature: α (with
    ``alpha_method``; ``"off"`` when not computed), accuracies and every count of skips
    (:func:`~spacy_agreement.agreement.result.run_summary`, what
    :meth:`AlphaResult.to_dict` of :func:`spacy_agreement.alpha` writes)."""
    from ..agreement.result import run_summary

    return run_summary(corpus, result, accuracy)


def text_report(corpus: Corpus, result: Optional[AlphaResult], accuracy: AccuracyResult, worst: int = 5) -> str:
    """A short table: α for each δ, the uncorrected scores, what was skipped and where
    annotators disagree most."""
    lines: List[str] = [
        f"{len(corpus.annotators)} annotators ({', '.join(corpus.annotators)}), "
        + (f"{result.items} items with {result.annotations} annotations" if result is not None else
         f"{len(corpus.items)} items, {sum(len(item) for item in corpus.items)} annotations") + f" ({corpus.family} trees)",
        alpha_method_line(result) + (f"; items matched by {corpus.matched_by.rule}" if corpus.matched_by else ""),
        "",
        f"  {'metric':<11} {'%':>{WIDTH}}",
        f"  {'-' * 10}  {'-' * WIDTH}",
    ]
    if result is not None:
        lines.extend(f"  {'alpha ' + kind:<11} {percent(value)}" for kind, value in result.alphas.items())
    names = {"las": "LAS", "uas": "UAS", "la": "LA", "jaccard": "Jaccard"}
    for key, value in accuracy.scores.items():
        lines.append(f"  {names.get(key, key):<11} {percent(value)}")
    lines.append("")
    skipped = [] if result is None else [
        f"{result.items_unpairable} item(s) with fewer than two annotations"
        f" ({result.annotations_unpairable} annotation(s)) not pairable",
        f"{result.cycle_tokens} token(s) in head cycles left out of the TED trees ({len(result.cycle_trees)} tree(s))",
    ]
    skipped += [
        f"{accuracy.items_mismatched} item(s) with different tokens "
        + ("scored (Jaccard is defined for them)" if accuracy.mismatched_scored else "left out of the accuracies"),
    ]
    if result is not None and result.partial_trees:
        skipped.append(f"{len(result.partial_trees)} partial tree(s) (heads or relations not annotated: HEAD _ or "
                       "DEPREL _) taken as missing annotations of alpha (--partial attach compares them)")
    if result is not None and result.attached_tokens:
        moved = ", ".join(f"alpha {k} {percent(v).strip()} against {percent(result.alphas_missing[k]).strip()}"
                          for k, v in result.alphas.items() if k in result.alphas_missing)
        skipped.append(f"{result.attached_tokens} head(s) or relation(s) not annotated compared as 'unannotated' "
                       f"(--partial attach)" + (f": {moved} with partial trees as missing annotations" if moved else ""))
    if accuracy.tokens_unannotated:
        skipped.append(f"{accuracy.tokens_unannotated} token(s) not annotated: the accuracies compare "
                       f"{_percent(accuracy.coverage, sign=True)} of token pairs")
    if getattr(accuracy, "tokens_unlabelled", 0):
        skipped.append(f"{accuracy.tokens_unlabelled} relation(s) not annotated (DEPREL _): LAS and LA compare "
                       f"{_percent(accuracy.label_coverage, sign=True)} of token pairs, UAS their heads")
    failed = sum(s.failed_parses for s in corpus.read_stats.values())
    if failed:
        skipped.append(f"{failed} failed parse(s) (blank lines or trees without words) read as missing annotations")
    match = corpus.matched_by
    if match is not None:
        skipped.append(f"{len(match.missing)} item(s) some annotators lack (missing annotations)")
        if match.resegmented:
            skipped.append(f"{len(match.resegmented)} item(s) paired by position whose annotators segmented the "
                           "text otherwise: in alpha as they are")
    lines.append("skipped:")
    lines.extend(f"  {what}" for what in skipped)
    if match is not None:
        lines.extend(listed([f"missing: {where}" for where in match.missing], worst))
        lines.extend(listed([f"segmented otherwise: {where}" for where in match.resegmented], worst))
        lines.extend(f"  input: {note}" for note in match.notes)
    if result is not None:
        lines.extend(listed([f"cycle: {where}" for where in result.cycle_trees], worst))
        lines.extend(listed([f"partial: {where}" for where in result.partial_trees], worst))
    lines.extend(listed([f"tokens differ: {where}" for where in accuracy.mismatched], worst))
    kind, ranked = most_disagreement(corpus, result) if result is not None else (RANKING, [])
    if ranked:
        lines.append("")
        lines.append(f"most disagreement (mean squared δ{kind} over an item's pairs of annotations, "
                     "as the report ranks them):")
        lines.extend(listed([f"{value:8.4f}  {name}" for name, value in ranked], worst))
    return "\n".join(lines)
