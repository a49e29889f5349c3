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
import os
import warnings
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from .._calling import name_list
from .._display import ShowsAsCommandText
from ..adapters.multi_user import USER_KEY
from ..corpus import Corpus
from ..errors import BadOptionError, UndefinedMetricWarning
from ..signature import Settings, read_signature, setting
from .inputs import read_inputs, split_inputs, value_of
from .layer_values import LAYERS, Layer, LayerData, layer_data
from .nominal import category_agreement, coded_cohen_kappa, coded_fleiss_kappa, confused_pairs, differing_units, \
    value_alpha, observed_agreement, unit_counts


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
class LayersResult(ShowsAsCommandText):
    """Every layer's :class:`LayerAgreement`, the items compared and those set aside, the
    data behind them (for :func:`disagreements`) and the settings."""

    layers: Dict[str, LayerAgreement]
    annotators: Tuple[str, ...]
    items: int
    items_mismatched: List[str]
    items_unpairable: int
    data: LayerData = field(repr=False, default=None)  # type: ignore[assignment]
    settings: LayerSettings = field(default_factory=LayerSettings)
    #: what the readers said about the inputs (pseudo-users set aside, files not read ...), of
    #: :func:`layers`; the text output shows them, ``--json`` does not
    input_notes: List[str] = field(default_factory=list, repr=False)
    #: the (token, layer) disagreements written with ``export=`` (:func:`layers`), else ``None``
    exported: Optional[int] = field(default=None, repr=False)

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

    def to_dict(self, details: bool = True) -> Dict[str, Any]:
        """What ``layers --json`` prints: one object per layer under ``layers``
        (``layers.upos.alpha`` ...), with its per-label rows, confusions and per-annotator
        figures (``details``), the counts and the signature."""
        from ..evaluation.command_results import json_safe  # undefined figures as None, as --json writes them

        return json_safe({"annotators": list(self.annotators), "items": self.items,
                          "items_mismatched": len(self.items_mismatched), "items_unpairable": self.items_unpairable,
                          "layers": {name: layer.to_dict(details) for name, layer in self.layers.items()},
                          "notes": self.notes, "signature": self.signature})

    def to_json(self, details: bool = True) -> Dict[str, Any]:
        """The same as :meth:`to_dict` (its name before 0.4)."""
        return self.to_dict(details)

    @property
    def score(self) -> float:
        """The headline figure: α of the first layer compared (the table's first row; ``nan`` when
        undefined or when no layer was compared)."""
        return next(iter(self.layers.values())).alpha if self.layers else float("nan")

    def __repr__(self) -> str:
        """One line: α of the first layers, the annotators and items, the signature."""
        shown = [f"{name} {_percent(layer.alpha)}" for name, layer in list(self.layers.items())[:6]]
        if len(self.layers) > 6:
            shown.append(f"... {len(self.layers) - 6} more")
        return (f"LayersResult(alpha {', '.join(shown) or 'of no layer'}; {len(self.annotators)} annotators, "
                f"{self.items} items; signature {self.signature})")

    def _headline_html(self) -> str:
        """A compact table for a notebook: each layer's α, A_o, κ, Fleiss' κ, units and tokens
        that differ, its most frequent confusions, the signature."""
        from ..report.agreement_tables import layers_table

        return layers_table(self)


def _percent(value: float) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{100 * value:.2f}"


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
    # plain numbers first (a layer of lemmas has thousands of labels); the mean of one pair is its value
    by_label = counts.T.tolist()
    agreed_mean = agreed[0].tolist() if len(pairs) == 1 else [float(agreed[:, c].mean()) for c in range(size)]
    p_list, r_list, f_list, s_list = (np.asarray(x, dtype=np.float64).tolist()
                                      for x in (p_mean, r_mean, f_mean, specific))
    rows = [LabelRow(label, dict(zip(annotators, by_label[c])), agreed_mean[c], p_list[c], r_list[c], f_list[c],
                     s_list[c]) for c, label in enumerate(layer.labels)]
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
    counts = unit_counts(codes, size)  # once: every figure below is made from them
    alpha, engine = value_alpha(codes, size, name=name, counts=counts)
    observed = _quiet(observed_agreement, codes, size, counts=counts)
    pairs = list(combinations(range(len(annotators)), 2))
    cohen = {f"{annotators[i]}|{annotators[j]}": _quiet(coded_cohen_kappa, codes[i], codes[j]) for i, j in pairs}
    fleiss = _quiet(coded_fleiss_kappa, codes, size, counts=counts)
    specific = category_agreement(codes, size, counts=counts)
    lower, upper, times = confused_pairs(codes, size)
    confused = sorted(((layer.labels[a], layer.labels[b], n) for a, b, n in zip(lower.tolist(), upper.tolist(),
                                                                               times.tolist())),
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
    return LayerAgreement(layer.name, alpha, engine, observed, cohen, fleiss, int(counts.units.size), counts.n,
                          lacking, size, _label_rows(layer, annotators, _pairs(annotators, reference), specific),
                          confused, per_annotator, int(np.count_nonzero(differing_units(codes))))


def agreement_by_layer(data: Any, settings: Optional[LayerSettings] = None, **options: Any) -> LayersResult:
    """Every layer's agreement (module docstring) for a :class:`~spacy_agreement.corpus.Corpus`
    (or the items :meth:`Corpus.from_items` takes); ``options`` are fields of
    :class:`LayerSettings` (``layers``, ``misc``, ``per_feature``, ``reference``, ``same_forms``,
    ``unannotated``)."""
    settings = settings or LayerSettings()
    if options:
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


def layers(*inputs: Any, settings: Union[None, str, LayerSettings] = None, dirs: bool = False,
           allow_duplicates: bool = False, user_key: str = USER_KEY, include: Optional[Sequence[str]] = None,
           annotator_key: Optional[str] = None, annotator_part: Optional[str] = None,
           name_pattern: Optional[str] = None, format: Optional[str] = None, layer: Optional[Sequence[str]] = None,
           misc: Optional[Sequence[str]] = None, no_per_feature: bool = False, reference: Optional[str] = None,
           any_forms: bool = False, unannotated: str = "none",
           export: Optional[Union[str, "os.PathLike[str]"]] = None, strict: bool = False,
           signature: Optional[str] = None, **fields: Any) -> LayersResult:
    """``spacy-agreement layers`` as a function: agreement on every annotation layer
    (Krippendorff's α over nominal values, A_o, Cohen's and Fleiss' κ; module docstring), per
    label and per annotator. ``result.to_dict()`` is what ``layers --json`` prints for the
    same inputs and options, signature included.

    ``inputs``: annotation paths as the command takes them (parallel files, annotator folders
    with ``dirs=True``, one project export, flat folder, Prodigy JSONL, multi-user CoNLL-U or
    DocBin), or data already read (a :class:`~spacy_agreement.corpus.Corpus`, or the items
    :meth:`Corpus.from_items` takes), then optionally the settings positionally.
    ``settings``: a :class:`LayerSettings`, or a signature given back (as ``--signature``: a
    signature, or a saved JSON output holding one); an option given otherwise than by default
    replaces a settings object's field, as do the settings' own field names
    (``layers``, ``misc``, ``per_feature``, ``reference``, ``same_forms``, ``unannotated``,
    the keywords of :func:`agreement_by_layer`).

    The options are the command's long options (``-`` as ``_``) with its defaults: ``layer``
    (the command's repeated ``--layer``: the layers to compare, default every basic layer and
    each feature name), ``misc``, ``no_per_feature``, ``reference``, ``any_forms``,
    ``unannotated``, ``strict`` (head cycles are errors while reading), ``signature``, the
    reading options of ``alpha`` (``dirs``, ``format``, ``include``, ...), and ``export``:
    a ``.tsv``, ``.csv`` or ``.jsonl`` file to write every (token, layer) disagreement to
    (:func:`disagreements`; their number in ``result.exported``).

    Parameters
    ----------
    *inputs
        One argument per annotator: a path as the command takes it (a CoNLL-U/CoNLL-X file, a ``.spacy`` DocBin, a folder or a
        tool's export), spaCy docs (a ``Doc``, an iterable of them, a ``DocBin``), NLTK
        ``DependencyGraph``\\ s or the package's ``DependencyTree``\\ s: objects are written to a
        file and read as the path would be (:mod:`spacy_agreement.adapters.objects`), so the
        numbers are the same.
        Or data already read: a :class:`~spacy_agreement.Corpus`.
    settings
        A settings object of the command (keyword-only), whose fields an option given otherwise than
        by default must not contradict (an error naming the option).
    signature
        A signature given back (as ``--signature``: the signature, or a saved ``--json`` output).
    **options
        The command's long options (``-`` as ``_``) with its defaults (see above).

    Returns
    -------
    LayersResult
        One :class:`LayerAgreement` per layer (``result.layers``, ``result["deprel"]``): α, observed
        agreement, Cohen's and Fleiss' κ, per label and per annotator; ``.score`` is the first
        layer's α, ``str()`` the command's text, ``to_dict()`` its ``--json``.

    Raises
    ------
    TypeError
        An input that is none of the kinds above, or of the other family (phrase-structure trees
        here): the message names the argument, what was given and the kinds accepted.
    spacy_agreement.EmptyInputError
        An empty file (``FILE: empty file``, as the command says) or an empty list.
    spacy_agreement.InvalidTreeError
        A malformed tree, naming the file, the sentence and the token.
    spacy_agreement.BadOptionError
        An option value the function cannot use, naming the option.

    Examples
    --------
    >>> import spacy_agreement as sa
    >>> from pathlib import Path
    >>> demo = Path(sa.__file__).parent / "data" / "demo"
    >>> result = sa.layers(demo / "dependency" / "anna" / "story-anna.conllu",
    ...                    demo / "dependency" / "ben" / "story-ben.conllu", layer=["upos", "deprel"])
    >>> {name: round(layer.alpha, 4) for name, layer in result.layers.items()}
    {'upos': 1.0, 'deprel': 0.9415}
    """
    reading = {"dirs": dirs, "allow_duplicates": allow_duplicates, "user_key": user_key, "include": include,
               "annotator_key": annotator_key, "annotator_part": annotator_part, "name_pattern": name_pattern,
               "format": format}
    paths, data, settings, signature = split_inputs("layers", inputs, settings, signature, reading)
    if paths is None and strict:
        raise BadOptionError("strict reads annotation files: give paths, or leave it out with data already read",
                             option="strict")
    if settings is not None and not isinstance(settings, LayerSettings):
        raise BadOptionError(f"settings must be a LayerSettings or a signature, not {type(settings).__name__}",
                             option="settings")
    if export is not None:
        from ..report.disagreement_export import export_format

        export_format(export)  # a bad suffix is one error before anything is read
    given = {"layers": name_list(layer), "misc": name_list(misc),
             "per_feature": False if no_per_feature else None, "reference": reference or None,
             "same_forms": False if any_forms else None,
             "unannotated": value_of(unannotated) if value_of(unannotated) != "none" else None}
    wanted = {name: value for name, value in given.items() if value is not None}
    for name in set(wanted) & set(fields):
        raise TypeError(f"layers() got {name} twice: by its option and by its field name")
    resolved = replace(settings or LayerSettings(), **wanted, **fields)
    if signature:
        resolved = resolved.merged(read_signature(signature))
    corpus = read_inputs(paths, strict=strict, function="layers", **reading) if paths is not None else \
        (data if isinstance(data, Corpus) else Corpus.from_items(data))
    with warnings.catch_warnings(record=True) as caught:  # said again below, at the caller's line
        warnings.simplefilter("always")
        result = agreement_by_layer(corpus, resolved)
    for warning in caught:
        warnings.warn(warning.message, stacklevel=2)
    result.input_notes = list(corpus.matched_by.notes) if corpus.matched_by is not None else []
    if export is not None:
        from ..report.disagreement_export import export_disagreements

        result.exported = export_disagreements(disagreements(result), result.annotators, export)
    return result


def disagreements(result: LayersResult, layers: Optional[Sequence[str]] = None) -> Iterator[Dict[str, Any]]:
    """One row per (token, layer) whose annotators gave two or more different values, layer by
    layer in unit order: ``item``, ``token`` (its id), ``form``, ``layer`` and each annotator's
    value (``""`` for none). Every disagreement once: the rows of a layer are its
    ``tokens_disagreeing``."""
    data = result.data
    for name, layer in data.layers.items():
        if layers is not None and name not in layers:
            continue
        for u in np.flatnonzero(differing_units(layer.codes)).tolist():
            item, token = layer.units[u]
            column = layer.codes[:, u]
            tree = next(iter(data.items[item].values()))
            yield {"item": data.item_names[item], "token": tree.ids[token], "form": tree.forms[token], "layer": name,
                   "values": {a: (layer.labels[c] if c >= 0 else "") for a, c in zip(data.annotators, column.tolist())}}


__all__ = ["LabelRow", "LayerAgreement", "LayerSettings", "LayersResult", "agreement_by_layer", "disagreements",
           "layer_agreement", "layers"]
