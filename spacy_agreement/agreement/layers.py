"""Agreement on every annotation layer, per label and per token: what a team adjudicates from.

For each layer of :mod:`~spacy_agreement.agreement.layer_values` (UPOS, XPOS, FEATS as a whole
and per feature where its values are ``Name=Value`` pairs, else as a whole only, with a note, LEMMA, HEAD, DEPREL over all tokens and over tokens whose head agrees, MISC
keys asked for), over the tokens of the items whose annotations share their tokens, any
number of annotators, missing values allowed (:mod:`~spacy_agreement.agreement.nominal`):

* Krippendorff's α (nominal) and its observed agreement A_o; Cohen's κ for each pair of
  annotators (units both coded) and their mean; Fleiss' κ;
* per label (the Copenhagen Dependency Treebank's per-label tables): each annotator's count,
  the tokens two annotators both gave it (``agreed``), precision, recall and F with the first
  annotator of each pair as reference (``reference`` names one: pairs with it only), averaged
  over pairs for more than two, and category-specific agreement o_cc / n_c;
* the confusions: label pairs two annotators gave one token, most frequent first;
* per annotator: mean κ with the others and α without them (who is the odd one out: α rises
  when they are left out);
* per token: every (token, layer) where annotators differ (:func:`disagreements`), for a
  spreadsheet or the report.

HEAD is compared as the head's position, a nominal category: α over attachment, the chance
agreement from how often each position is chosen. Units are tokens, so a long sentence
weighs more, as with the accuracies. Undefined values are ``nan`` with one warning each.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..corpus import Corpus
from ..errors import BadOptionError, UndefinedMetricWarning
from ..signature import Settings, setting
from .layer_values import LAYERS, Layer, LayerData, layer_data
from .nominal import category_agreement, coded_cohen_kappa, coded_fleiss_kappa, confusion_pairs, value_alpha, \
    observed_agreement, unit_counts


@dataclass(frozen=True)
class LayerSettings(Settings):
    """Which layers are compared and how (module docstring)."""

    computation = "layers"

    layers: Tuple[str, ...] = setting(LAYERS, key="l", kind="list",
                                      doc="the layers: upos, xpos, feats, lemma, head, deprel, deprel_same_head, "
                                          "head_deprel, feats.NAME, misc.KEY")
    misc: Tuple[str, ...] = setting((), key="misc", kind="list", doc="MISC keys compared as layers (misc.KEY)")
    per_feature: bool = setting(True, key="perfeat", kind="bool", doc="each feature name of FEATS as a layer")
    reference: str = setting("", key="ref", doc="the annotator precision and recall take as reference (none: "
                                                "the first of each pair)")
    same_forms: bool = setting(True, key="forms", kind="bool", when=lambda s: not s.same_forms,
                               doc="items whose annotations differ in a form set aside (yes) or compared token by "
                                   "token when they have as many tokens (no)")
    unannotated: str = setting("none", key="unann", when=lambda s: s.unannotated != "none",
                               doc="a token not annotated yet (HEAD _, DEPREL _): no head and relation (none) or the "
                                   "value _ (value, a disagreement, as the AGDT reports count an empty relation)")

    def __post_init__(self) -> None:
        for name in ("layers", "misc"):
            value = getattr(self, name)
            object.__setattr__(self, name, tuple(v.strip() for v in value.split(",") if v.strip())
                               if isinstance(value, str) else tuple(value))


@dataclass
class LabelRow:
    """One label of a layer: each annotator's count, the tokens pairs of annotators both gave
    it (mean over pairs), precision/recall/F (mean over pairs) and category-specific agreement."""

    label: str
    counts: Dict[str, int]
    agreed: float
    precision: float
    recall: float
    f: float
    specific: float

    def to_dict(self) -> Dict[str, Any]:
        return {"label": self.label, "counts": self.counts, "agreed": self.agreed, "precision": self.precision,
                "recall": self.recall, "f": self.f, "specific_agreement": self.specific}


@dataclass
class LayerAgreement:
    """The figures of one layer (module docstring); ``units`` pairable tokens (two or more
    values), ``values`` their values, ``missing`` the values lacking among the compared items' tokens."""

    name: str
    alpha: float
    engine: str
    observed: float
    cohen: Dict[str, float]
    fleiss: float
    units: int
    values: int
    missing: int
    categories: int
    labels: List[LabelRow] = field(default_factory=list)
    confusions: List[Tuple[str, str, int]] = field(default_factory=list)
    annotators: Dict[str, Dict[str, float]] = field(default_factory=dict)
    disagreeing: int = 0

    @property
    def cohen_mean(self) -> float:
        finite = [v for v in self.cohen.values() if not math.isnan(v)]
        return float(np.mean(finite)) if finite else math.nan

    def to_dict(self, details: bool = True) -> Dict[str, Any]:
        out: Dict[str, Any] = {"alpha": self.alpha, "alpha_engine": self.engine, "observed": self.observed,
                               "cohen_kappa": self.cohen_mean, "cohen_kappa_pairs": dict(self.cohen),
                               "fleiss_kappa": self.fleiss, "units": self.units, "values": self.values,
                               "missing_values": self.missing, "categories": self.categories,
                               "tokens_disagreeing": self.disagreeing}
        if details:
            out["per_label"] = [row.to_dict() for row in self.labels]
            out["confusions"] = [{"a": a, "b": b, "count": n} for a, b, n in self.confusions]
            out["per_annotator"] = self.annotators
        return out


@dataclass
class LayersResult:
    """Every layer's :class:`LayerAgreement`, the items compared and those set aside, the
    data behind them (for :func:`disagreements`) and the settings."""

    layers: Dict[str, LayerAgreement]
    annotators: Tuple[str, ...]
    items: int
    items_mismatched: List[str]
    items_unpairable: int
    data: LayerData = field(repr=False, default=None)  # type: ignore[assignment]
    settings: LayerSettings = field(default_factory=LayerSettings)

    @property
    def signature(self) -> str:
        return self.settings.signature()

    @property
    def notes(self) -> List[str]:
        """What was decided about the data (:attr:`~.layer_values.LayerData.notes`: FEATS that
        are no ``Name=Value`` pairs compared as whole values only)."""
        return list(self.data.notes) if self.data is not None else []

    def __getitem__(self, layer: str) -> LayerAgreement:
        return self.layers[layer]

    def to_json(self, details: bool = True) -> Dict[str, Any]:
        """One object per layer under ``layers`` (``layers.upos.alpha`` ...), the counts and the signature."""
        return {"annotators": list(self.annotators), "items": self.items,
                "items_mismatched": len(self.items_mismatched), "items_unpairable": self.items_unpairable,
                "layers": {name: layer.to_dict(details) for name, layer in self.layers.items()},
                "notes": self.notes, "signature": self.signature}


def _pairs(annotators: Sequence[str], reference: str) -> List[Tuple[int, int]]:
    if reference:
        if reference not in annotators:
            raise BadOptionError(f"reference {reference!r} is not an annotator: {', '.join(annotators)}",
                                 option="reference")
        r = annotators.index(reference)
        return [(r, j) for j in range(len(annotators)) if j != r]
    return list(combinations(range(len(annotators)), 2))


def _label_rows(layer: Layer, annotators: Sequence[str], pairs: List[Tuple[int, int]],
                specific: np.ndarray) -> List[LabelRow]:
    codes, size = layer.codes, len(layer.labels)
    counts = np.array([np.bincount(row[row >= 0], minlength=size) for row in codes])
    agreed, precision, recall, f = (np.zeros((len(pairs), size)) for _ in range(4))
    for p, (i, j) in enumerate(pairs):
        both = (codes[i] >= 0) & (codes[j] >= 0)
        same = both & (codes[i] == codes[j])
        agreed[p] = np.bincount(codes[i][same], minlength=size)
        ref = np.bincount(codes[i][both], minlength=size)
        other = np.bincount(codes[j][both], minlength=size)
        with np.errstate(invalid="ignore", divide="ignore"):
            precision[p] = np.where(other > 0, agreed[p] / np.maximum(other, 1), np.nan)
            recall[p] = np.where(ref > 0, agreed[p] / np.maximum(ref, 1), np.nan)
            # F = 2·agreed / (ref + other): 2PR / (P + R) where both are defined, 0 where one side never wrote it
            f[p] = np.where(ref + other > 0, 2 * agreed[p] / np.maximum(ref + other, 1), np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a label no pair wrote: nan, as in the rows
        p_mean, r_mean, f_mean = (np.nanmean(x, axis=0) for x in (precision, recall, f))
    rows = [LabelRow(label, {a: int(counts[k, c]) for k, a in enumerate(annotators)}, float(agreed[:, c].mean()),
                     float(p_mean[c]), float(r_mean[c]), float(f_mean[c]), float(specific[c]))
            for c, label in enumerate(layer.labels)]
    return sorted(rows, key=lambda r: (-sum(r.counts.values()), r.label))


def _quiet(function, *args, **kwargs):
    """A figure that is a detail (per pair, per annotator): ``nan`` where undefined, no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return function(*args, **kwargs)


def layer_agreement(layer: Layer, annotators: Sequence[str], reference: str = "",
                    confusions: int = 20) -> LayerAgreement:
    """The figures of one layer (module docstring)."""
    codes, size = layer.codes, len(layer.labels)
    name = f"{layer.name} alpha"
    alpha, engine = value_alpha(codes, size, name=name)
    counts = unit_counts(codes, size)
    observed = _quiet(observed_agreement, codes, size)
    pairs = list(combinations(range(len(annotators)), 2))
    cohen = {f"{annotators[i]}|{annotators[j]}": _quiet(coded_cohen_kappa, codes[i], codes[j]) for i, j in pairs}
    fleiss = _quiet(coded_fleiss_kappa, codes, size)
    specific = category_agreement(codes, size)
    matrix = confusion_pairs(codes, size)
    upper = np.argwhere(np.triu(matrix, 1) > 0)
    confused = sorted(((layer.labels[a], layer.labels[b], int(matrix[a, b])) for a, b in upper),
                      key=lambda t: (-t[2], t[0], t[1]))[:confusions]
    per_annotator: Dict[str, Dict[str, float]] = {}
    for k, annotator in enumerate(annotators):
        kappas = [v for key, v in cohen.items() if annotator in key.split("|") and not math.isnan(v)]
        rest = np.delete(codes, k, axis=0)
        without = _quiet(value_alpha, rest, size)[0] if rest.shape[0] >= 2 else math.nan
        per_annotator[annotator] = {"cohen_kappa_mean": float(np.mean(kappas)) if kappas else math.nan,
                                    "alpha_without": float(without)}
    has_item = codes >= 0
    lacking = int(np.count_nonzero(~has_item))
    distinct = [len(set(col[col >= 0].tolist())) > 1 for col in codes.T] if codes.size else []
    return LayerAgreement(layer.name, alpha, engine, observed, cohen, fleiss, int(counts.units.size), counts.n,
                          lacking, size, _label_rows(layer, annotators, _pairs(annotators, reference), specific),
                          confused, per_annotator, int(sum(distinct)))


def agreement_by_layer(data: Any, settings: Optional[LayerSettings] = None, **options: Any) -> LayersResult:
    """Every layer's agreement (module docstring) for a :class:`~spacy_agreement.corpus.Corpus`
    (or the items :meth:`Corpus.from_items` takes); ``options`` are fields of
    :class:`LayerSettings` (``layers``, ``misc``, ``per_feature``, ``reference``, ``same_forms``,
    ``unannotated``)."""
    settings = settings or LayerSettings()
    if options:
        from dataclasses import replace

        settings = replace(settings, **options)
    corpus = data if isinstance(data, Corpus) else Corpus.from_items(data)
    values = layer_data(corpus, settings.layers, settings.misc, settings.per_feature, settings.same_forms,
                        settings.unannotated)
    if len(corpus.annotators) < 2:
        raise BadOptionError("per-layer agreement needs two or more annotators")
    layers: Dict[str, LayerAgreement] = {}
    undefined_layers: Dict[str, List[str]] = {}
    for name, layer in values.layers.items():
        with warnings.catch_warnings(record=True) as caught:  # one warning for all layers, below
            warnings.simplefilter("always", UndefinedMetricWarning)
            layers[name] = layer_agreement(layer, corpus.annotators, settings.reference)
        for warning in caught:
            if issubclass(warning.category, UndefinedMetricWarning):
                undefined_layers.setdefault(getattr(warning.message, "reason", str(warning.message)), []).append(name)
            else:
                warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    for reason, names in undefined_layers.items():
        warnings.warn(UndefinedMetricWarning.of(f"alpha of {len(names)} layer(s) ({', '.join(names)})", reason),
                      stacklevel=2)
    return LayersResult(layers, corpus.annotators, len(values.items), values.mismatched, values.unpairable,
                        values, settings)


def disagreements(result: LayersResult, layers: Optional[Sequence[str]] = None) -> Iterator[Dict[str, Any]]:
    """One row per (token, layer) whose annotators gave two or more different values, layer by
    layer in unit order: ``item``, ``token`` (its id), ``form``, ``layer`` and each annotator's
    value (``""`` for none). Every disagreement once: the rows of a layer are its
    ``tokens_disagreeing``."""
    data = result.data
    for name, layer in data.layers.items():
        if layers is not None and name not in layers:
            continue
        for u, (item, token) in enumerate(layer.units):
            column = layer.codes[:, u]
            given = column[column >= 0]
            if given.size < 2 or (given == given[0]).all():
                continue
            tree = next(iter(data.items[item].values()))
            yield {"item": data.item_names[item], "token": tree.ids[token], "form": tree.forms[token], "layer": name,
                   "values": {a: (layer.labels[c] if c >= 0 else "") for a, c in zip(data.annotators, column.tolist())}}


__all__ = ["LabelRow", "LayerAgreement", "LayerSettings", "LayersResult", "agreement_by_layer", "disagreements",
           "layer_agreement"]
