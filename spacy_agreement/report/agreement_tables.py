"""The compact HTML tables a notebook shows for an α result and a per-layer result
(``_repr_html_`` of :class:`~spacy_agreement.agreement.result.AlphaResult` and
:class:`~spacy_agreement.agreement.layers.LayersResult`): what the CLI's text says at a glance,
with the signature. Strings from the input go through :func:`~.escape.text`; numbers through
the reports' formatter. The results are read by their attributes (this module imports no
result type, so that the results may import it)."""
from __future__ import annotations

from typing import Any, Iterable, List, Sequence

from .escape import text as esc
from .format import percent

#: Rows of most disagreement (items, confusions) a table shows.
SHOWN = 5

_STYLE = "border-collapse:collapse;font-size:0.9em"
_CELL = "padding:1px 8px;border-bottom:1px solid #ddd"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], numeric_from: int = 1) -> str:
    """An HTML table of ``header`` and ``rows`` (cells already escaped); columns from
    ``numeric_from`` on right-aligned."""
    def cells(values: Sequence[str], tag: str) -> str:
        return "".join(f"<{tag} style=\"{_CELL};text-align:{'right' if k >= numeric_from else 'left'}\">{v}</{tag}>"
                       for k, v in enumerate(values))

    body = "".join(f"<tr>{cells(row, 'td')}</tr>" for row in rows)
    return f"<table style=\"{_STYLE}\"><thead><tr>{cells(header, 'th')}</tr></thead><tbody>{body}</tbody></table>"


def _signature(signature: str) -> str:
    return f"<p style=\"font-size:0.8em;overflow-wrap:anywhere\">signature: <code>{esc(signature)}</code></p>"


def alpha_table(result: Any) -> str:
    """α of each δ and the accuracies (%), the items and annotators, the items of most
    disagreement (mean squared δnorm, else the first δ, over an item's pairs of annotations,
    as the text and the report rank them) and the signature of an
    :class:`~spacy_agreement.agreement.result.AlphaResult`."""
    corpus, accuracy = result.corpus, result.accuracy
    head: List[str] = []
    if corpus is not None:
        head.append(f"{len(corpus.annotators)} annotators ({esc(', '.join(corpus.annotators))})")
    head.append(f"{result.items} items with {result.annotations} annotations" if result.computed else
                f"{result.items} items, alpha not computed")
    head.append(esc(result.method) + (f", {percent(result.confidence, 0)}% interval"
                                      if result.confidence is not None else ""))
    rows: List[List[str]] = []
    for kind, value in result.alphas.items():
        interval = ""
        if kind in result.low:
            interval = f"{percent(result.low[kind])} .. {percent(result.high[kind])}"
        rows.append([f"alpha {esc(kind)}", percent(value), interval])
    names = {"las": "LAS", "uas": "UAS", "la": "LA", "jaccard": "Jaccard"}
    if accuracy is not None:
        rows += [[names.get(k, esc(k)), percent(v), ""] for k, v in accuracy.scores.items()]
    if not any(row[2] for row in rows):
        rows = [row[:2] for row in rows]
    parts = [f"<p>{'; '.join(head)}</p>", _table(["metric", "%", "interval"][:len(rows[0]) if rows else 2], rows)]
    kinds = list(result.alphas)
    if kinds and result.item_disagreement is not None:
        kind = "norm" if "norm" in kinds else kinds[0]
        worst = result.worst_items(SHOWN, kind)
        if worst:
            disagreeing = int((result.item_disagreement[:, kinds.index(kind)] > 0).sum())
            parts.append(f"<p>most disagreement (mean squared &delta;{esc(kind)} over an item's pairs of "
                         "annotations):</p>")
            rows = [[esc(name), f"{value:.4f}"] for name, value in worst]
            if disagreeing > len(worst):
                rows.append([f"... and {disagreeing - len(worst)} more", ""])
            parts.append(_table(["item", "mean &delta;&sup2;"], rows))
    parts.append(_signature(result.signature))
    return "<div>" + "".join(parts) + "</div>"


def layers_table(result: Any) -> str:
    """Each layer's α, A_o, mean Cohen's κ, Fleiss' κ (%), units and tokens that differ, the
    most frequent confusions of the layers with disagreements and the signature of a
    :class:`~spacy_agreement.agreement.layers.LayersResult`."""
    head = (f"<p>{len(result.annotators)} annotators ({esc(', '.join(result.annotators))}), {result.items} items "
            "compared; alpha, observed agreement (Ao), mean Cohen's kappa and Fleiss' kappa in %</p>")
    rows = [[esc(name), percent(layer.alpha), percent(layer.observed), percent(layer.cohen_mean),
             percent(layer.fleiss), str(layer.units), str(layer.disagreeing)] for name, layer in result.layers.items()]
    parts = [head, _table(["layer", "alpha", "Ao", "kappa", "Fleiss", "units", "differ"], rows)]
    confused = []
    for name, layer in result.layers.items():
        if layer.confusions:
            more = len(layer.confusions) - SHOWN
            shown = ", ".join(f"{a}/{b} {n}" for a, b, n in layer.confusions[:SHOWN])
            confused.append([esc(name), esc(shown + (f" ... ({more} more in .confusions)" if more > 0 else ""))])
    if confused:
        parts += ["<p>most confused labels:</p>", _table(["layer", "confused (pairs of labels, tokens)"], confused,
                                                         numeric_from=2)]
    parts.append(_signature(result.signature))
    return "<div>" + "".join(parts) + "</div>"


__all__ = ["alpha_table", "layers_table"]
