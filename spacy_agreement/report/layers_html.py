"""The ``layers`` section of the HTML report: agreement on every annotation layer (issue 28).

From a :class:`~spacy_agreement.agreement.layers.LayersResult` (:func:`layers_section`):

* a summary table, one row per layer: Krippendorff's α (in %, like every score of the page),
  observed agreement (%), mean Cohen's κ over the pairs of annotators, Fleiss' κ, the units
  (tokens with two or more values) and the tokens on which the annotators disagree;
* per layer a collapsible ``<details>``: the per-label table (each annotator's count, the
  tokens pairs both gave the label, precision, recall, F and category-specific agreement,
  in %), the labels confused most, and per annotator the mean κ with the others and (three
  or more annotators) α without them;
* the tokens on which annotators disagree, one row per (token, layer), with a filter by layer
  (:data:`LAYERS_SCRIPT`, a few lines joined to the page's one inline script).

Undefined figures read ``n/a`` as everywhere on the page; every string from the input goes
through :func:`~spacy_agreement.report.escape.text`. :func:`report_layers` is what
:func:`~spacy_agreement.report.html.build_report` calls: the section, or nothing for
phrase-structure trees or where the layers cannot be computed.
"""
from __future__ import annotations

import warnings
from itertools import islice
from typing import Any, List, Optional

from ..agreement.layers import LayerAgreement, LayersResult, agreement_by_layer, disagreements
from ..corpus import Corpus
from ..errors import UndefinedMetricWarning
from .escape import text as esc
from .format import count, percent

#: The layer filter of the disagreement table: rows whose ``data-layer`` is not the chosen one are hidden.
LAYERS_SCRIPT = """
(function () {
  var select = document.getElementById('layer-filter');
  if (!select) { return; }
  var count = document.getElementById('layer-filter-count');
  function apply() {
    var shown = 0;
    document.querySelectorAll('#layer-disagreements tr[data-layer]').forEach(function (row) {
      var ok = !select.value || row.dataset.layer === select.value;
      row.hidden = !ok;
      if (ok) { shown += 1; }
    });
    count.textContent = shown + ' shown';
  }
  select.addEventListener('change', apply);
  apply();
})();
"""


def _summary(result: LayersResult) -> List[str]:
    out = ["<table><tr><th class='name'>layer</th><th>α (%)</th><th>observed agreement (%)</th>"
           "<th>mean Cohen's κ (%)</th><th>Fleiss' κ (%)</th><th>units</th><th>tokens disagreeing</th></tr>"]
    for name, layer in result.layers.items():
        out.append(f"<tr><td class='name'>{esc(name)}</td><td>{percent(layer.alpha)}</td>"
                   f"<td>{percent(layer.observed)}</td><td>{percent(layer.cohen_mean)}</td>"
                   f"<td>{percent(layer.fleiss)}</td><td>{layer.units}</td><td>{layer.disagreeing}</td></tr>")
    out.append("</table>")
    return out


def _details(layer: LayerAgreement, annotators: List[str], labels: int, confusions: int) -> List[str]:
    out = [f"<details><summary>{esc(layer.name)}: α {percent(layer.alpha)}, {layer.disagreeing} token(s) "
           f"disagreeing, {layer.categories} label(s)</summary>"]
    counts = "".join(f"<th>{esc(a)}</th>" for a in annotators)
    out.append(f"<table><tr><th class='name'>label</th>{counts}<th>agreed</th><th>P (%)</th><th>R (%)</th>"
               "<th>F (%)</th><th>specific agreement (%)</th></tr>")
    for row in layer.labels[:labels]:
        cells = "".join(f"<td>{row.counts.get(a, 0)}</td>" for a in annotators)
        out.append(f"<tr><td class='name'>{esc(row.label)}</td>{cells}<td>{count(row.agreed)}</td>"
                   f"<td>{percent(row.precision)}</td><td>{percent(row.recall)}</td><td>{percent(row.f)}</td>"
                   f"<td>{percent(row.specific)}</td></tr>")
    out.append("</table>")
    if len(layer.labels) > labels:
        out.append(f"<p class='muted'>{len(layer.labels) - labels} more label(s) not shown.</p>")
    if layer.confusions:
        out.append("<table><tr><th class='name'>label</th><th class='name'>confused with</th><th>times</th></tr>")
        out.extend(f"<tr><td class='name'>{esc(a)}</td><td class='name'>{esc(b)}</td><td>{n}</td></tr>"
                   for a, b, n in layer.confusions[:confusions])
        out.append("</table>")
    without = len(annotators) >= 3  # leaving one out says something only when two or more remain
    out.append("<table><tr><th class='name'>annotator</th><th>mean κ with the others (%)</th>"
               + ("<th>α without them (%)</th>" if without else "") + "</tr>")
    for a in annotators:
        figures = layer.annotators.get(a, {})
        cells = f"<td>{percent(figures.get('cohen_kappa_mean'))}</td>"
        if without:
            cells += f"<td>{percent(figures.get('alpha_without'))}</td>"
        out.append(f"<tr><td class='name'>{esc(a)}</td>{cells}</tr>")
    out.append("</table></details>")
    return out


def _disagreement_table(result: LayersResult, annotators: List[str], rows: int) -> List[str]:
    # the rows of a layer are its tokens_disagreeing: the total without listing them, the shown ones listed
    total = sum(layer.disagreeing for layer in result.layers.values())
    shown: List[dict] = list(islice(disagreements(result), rows))
    out = ["<h3>Tokens the annotators disagree on</h3>",
           '<div class="layer-filters">layer: <select id="layer-filter"><option value="">any layer</option>']
    out.extend(f'<option value="{esc(name)}">{esc(name)} ({layer.disagreeing})</option>'
               for name, layer in result.layers.items() if layer.disagreeing)
    out.append('</select> <span id="layer-filter-count" class="muted"></span></div>')
    heads = "".join(f"<th class='name'>{esc(a)}</th>" for a in annotators)
    out.append(f"<table id='layer-disagreements'><tr><th class='name'>item</th><th>token</th>"
               f"<th class='name'>form</th><th class='name'>layer</th>{heads}</tr>")
    for row in shown:
        given = row["values"] if isinstance(row.get("values"), dict) else row  # each annotator's value
        values = "".join(f"<td class='name'>{esc(given.get(a, ''))}</td>" for a in annotators)
        out.append(f'<tr data-layer="{esc(row["layer"])}"><td class="name">{esc(row["item"])}</td>'
                   f'<td>{esc(row["token"])}</td><td class="name">{esc(row["form"])}</td>'
                   f'<td class="name">{esc(row["layer"])}</td>{values}</tr>')
    out.append("</table>")
    if total > len(shown):
        out.append(f"<p class='muted'>{total - len(shown)} more not shown (the first {len(shown)} of {total} "
                   "rows).</p>")
    return out


def layers_section(result: LayersResult, rows: int = 500, labels: int = 50, confusions: int = 10) -> str:
    """The ``layers`` section (module docstring): the summary table, a ``<details>`` per layer
    (its ``labels`` most frequent labels, ``confusions`` most confused label pairs) and the
    first ``rows`` disagreeing (token, layer) rows with a note on how many more there are."""
    annotators = list(result.annotators)
    out: List[str] = ['<section id="layers"><h2>Agreement by annotation layer</h2>']
    aside = []
    if result.items_mismatched:
        aside.append(f"{len(result.items_mismatched)} item(s) whose annotations differ in tokens")
    if result.items_unpairable:
        aside.append(f"{result.items_unpairable} item(s) with fewer than two annotations")
    out.append(f"<p class='muted'>Every layer over the tokens of {result.items} item(s)"
               + (f" (set aside: {'; '.join(aside)})" if aside else "")
               + ". Each value is a category: α (nominal) is 100% for perfect agreement and 0 at chance level; "
               "observed agreement is the share of pairs of values that agree; units are tokens with two or more "
               "values. Per label, precision and recall take "
               + (f"{esc(result.settings.reference)} as reference" if result.settings.reference
                  else "the first annotator of each pair as reference")
               + ", averaged over the pairs; specific agreement is the share of the label's values another "
               "annotator matched.</p>")
    out.extend(f"<p class='muted'>{esc(note)}</p>" for note in result.notes)
    out.extend(_summary(result))
    out.extend(line for layer in result.layers.values() for line in _details(layer, annotators, labels, confusions))
    out.extend(_disagreement_table(result, annotators, max(0, rows)))
    out.append("</section>")
    return "\n".join(out)


def report_layers(corpus: Corpus, layers: Optional[LayersResult] = None, **options: Any) -> str:
    """The ``layers`` section of ``corpus``'s report: of ``layers`` when given, else of
    :func:`~spacy_agreement.agreement.layers.agreement_by_layer` for a dependency corpus
    (warnings on undefined figures silenced: the page shows them ``n/a``); ``""`` for a
    phrase-structure corpus or where the layers cannot be computed (fewer than two
    annotators ...): the report is built without the section. ``options`` go to
    :func:`layers_section`."""
    if layers is None:
        if corpus.family != "dependency":
            return ""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                layers = agreement_by_layer(corpus)
        except Exception:  # noqa: BLE001 - the layers are an extra: the rest of the page stands without them
            return ""
    return layers_section(layers, **options)


__all__ = ["LAYERS_SCRIPT", "layers_section", "report_layers"]
