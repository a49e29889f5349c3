"""The readable output of per-layer agreement (:mod:`spacy_agreement.agreement.layers`): one
row per layer, then for each layer with disagreements its labels, confusions and annotators."""
from __future__ import annotations

import math
from typing import List

from ..agreement.layers import LayerAgreement, LayersResult
from .format import count, percent
from .text import listed


#: The width of a column of percentages: ``-100.00`` fits.
W = 7


def _value(value: float) -> str:
    """α and κ as percentages (as every text output prints them), ``n/a`` where undefined."""
    return percent(value)


def summary_table(result: LayersResult) -> List[str]:
    width = max([len(n) for n in result.layers] + [5])
    lines = [f"  {'layer':<{width}}  {'alpha':>{W}}  {'Ao':>{W}}  {'kappa':>{W}}  {'Fleiss':>{W}}  {'units':>7}  {'differ':>7}"]
    for name, layer in result.layers.items():
        lines.append(f"  {name:<{width}}  {_value(layer.alpha):>{W}}  {_value(layer.observed):>{W}}  "
                     f"{_value(layer.cohen_mean):>{W}}  {_value(layer.fleiss):>{W}}  {layer.units:>7}  "
                     f"{layer.disagreeing:>7}")
    return lines


def layer_details(layer: LayerAgreement, labels: int = 10) -> List[str]:
    """The labels most involved in disagreement, the top confusions and each annotator's figures."""
    lines = [f"{layer.name}: labels (count per annotator; agreed, P, R, F, specific agreement, %)"] if labels else \
        [f"{layer.name}:"]
    rows = sorted(layer.labels, key=lambda r: (r.specific if not math.isnan(r.specific) else 2, r.label))[:labels]
    for row in rows:
        counts = "/".join(str(v) for v in row.counts.values())
        lines.append(f"  {row.label:<16} {counts:>15}  {count(row.agreed):>7}  {_value(row.precision):>{W}}  "
                     f"{_value(row.recall):>{W}}  {_value(row.f):>{W}}  {_value(row.specific):>{W}}")
    if layer.confusions:
        lines.append("  confused: " + ", ".join(f"{a}/{b} {n}" for a, b, n in layer.confusions[:8]))
    lines.append("  per annotator (mean kappa with the others; alpha without them): " + "; ".join(
        f"{name} {_value(v['cohen_kappa_mean'])}, {_value(v['alpha_without'])}" for name, v in layer.annotators.items()))
    return lines


def layers_text(result: LayersResult, details: int = 10) -> str:
    """The table of every layer, what was set aside, and the details of the layers where
    annotators differ (``details`` labels each, those with the lowest specific agreement first)."""
    lines = [f"{len(result.annotators)} annotators ({', '.join(result.annotators)}), {result.items} items compared; "
             "alpha, observed agreement (Ao), mean Cohen's kappa and Fleiss' kappa in %", ""]
    lines += summary_table(result)
    set_aside = []
    if result.items_mismatched:
        set_aside.append(f"{len(result.items_mismatched)} item(s) whose annotations differ in tokens left out")
        set_aside += listed([f"tokens differ: {where}" for where in result.items_mismatched], 5, hint="")
    if result.items_unpairable:
        set_aside.append(f"{result.items_unpairable} item(s) with fewer than two annotations left out")
    if set_aside:
        lines += ["", "skipped:"] + [f"  {line}" for line in set_aside]
    if result.notes:
        lines += [""] + [f"note: {note}" for note in result.notes]
    for layer in result.layers.values():
        if layer.disagreeing:
            lines += [""] + layer_details(layer, details)
    return "\n".join(lines)


__all__ = ["layer_details", "layers_text", "summary_table"]
