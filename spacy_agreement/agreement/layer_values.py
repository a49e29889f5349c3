"""The annotation layers of a dependency corpus as reliability matrices: one unit per token of
an item, one row per annotator, the value each annotator gave the token on a layer.

Layers (:data:`LAYERS`, names as every output writes them):

* ``upos``, ``xpos``, ``lemma``: the column as written; ``_`` is no value (missing).
* ``feats``: the FEATS column as a whole (``_``, no features, is a value: ``(none)``);
  ``feats.NAME`` for each feature name: over the tokens where some annotator set it, its value
  or ``(none)`` where an annotator did not set it. Features are ``Name=Value`` pairs (UD); FEATS
  written otherwise (the NDT's bare ``<adj>``, ``3``, ``sg|nom``) has no names: where any value of
  the compared items has a part without ``=``, the corpus' FEATS is compared as whole values only
  (no ``feats.NAME`` layers but those asked for by name), and :attr:`LayerData.notes` says so.
* ``head``: the head word's id as written (its position in CoNLL files; 0 for the root), a
  category: attachment agreement.
* ``deprel``: the relation over every token; ``deprel_same_head``: over the tokens whose
  annotations all have the same head (labelling agreement given attachment).
* ``head_deprel``: head and relation together, one category (labelled attachment agreement:
  for two annotators its observed agreement is LAS over the tokens both annotated).
* ``misc.KEY`` for each MISC key asked for (``KEY=VALUE`` in MISC; ``(none)`` where absent),
  over the tokens where some annotator wrote it.

A token not annotated yet (HEAD ``_``, :attr:`~spacy_agreement.trees.DependencyTree.unannotated`)
has no ``head``, ``deprel``, ``head_deprel`` or ``deprel_same_head`` value (with
``unannotated="value"`` it has the value ``_``, which disagrees with any annotation, as the AGDT
inter-coder agreement reports count an empty relation); an annotator lacking the item has no
value at all. Where a reader kept what it could not put in the tree, it is compared as written:
a head that is no word of the sentence, or the head of a word without a relation, in MISC
``head=ID`` (:data:`WRITTEN_HEAD`; the Perseus XML reader), and the relation of such a word.

Tokens can only be compared where the annotations of an item have the same tokens: items whose
annotations differ in their tokens (count or a known form) are set aside, counted and listed, as
the accuracies do (:func:`~spacy_agreement.agreement.accuracy.token_mismatch`); with
``same_forms=False`` only a different count sets an item aside, and tokens are compared position
by position whatever their forms (an annotator who corrected a typo or a capital).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..corpus import Corpus
from ..errors import BadOptionError
from ..trees import DependencyTree
from .accuracy import token_mismatch
from .nominal import distinct_codes
from .scanned_columns import ScannedColumns

#: The layers computed by default, in output order.
LAYERS = ("upos", "xpos", "feats", "lemma", "head", "deprel", "deprel_same_head")
#: Layers computed when asked for.
EXTRA_LAYERS = ("head_deprel",)
#: ``unannotated`` values: a token not annotated yet has no head and relation, or the value ``_``.
UNANNOTATED_POLICIES = ("none", "value")
#: The MISC key in which a reader keeps a head it could not make an edge of the tree.
WRITTEN_HEAD = "head"
#: The value of a feature (or MISC key) an annotator did not set where another did, and of an empty FEATS.
NONE = "(none)"


class TokenUnits(Sequence[Tuple[int, int]]):
    """The units of a layer, ``(item index, 0-based token)`` in order, the tokens of every item
    one after the other: a sequence made from the items' lengths (one number per item, not one
    tuple per token), equal to the list of its tuples."""

    def __init__(self, lengths: Sequence[int]) -> None:
        self.offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(np.asarray(lengths, dtype=np.int64), out=self.offsets[1:])

    def __len__(self) -> int:
        return int(self.offsets[-1])

    def __getitem__(self, u):  # type: ignore[override]
        if isinstance(u, slice):
            return [self[k] for k in range(*u.indices(len(self)))]
        n = len(self)
        if not -n <= u < n:
            raise IndexError(f"unit {u} of {n}")
        u = u % n if u < 0 else u
        item = int(np.searchsorted(self.offsets, u, side="right")) - 1
        return item, int(u - self.offsets[item])

    def __iter__(self) -> Iterator[Tuple[int, int]]:
        for item, (a, b) in enumerate(zip(self.offsets[:-1].tolist(), self.offsets[1:].tolist())):
            for k in range(b - a):
                yield item, k

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TokenUnits):
            return np.array_equal(self.offsets, other.offsets)
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"TokenUnits({len(self)} tokens of {len(self.offsets) - 1} items)"


@dataclass
class Layer:
    """One layer's reliability matrix: ``codes[a, u]`` the category number of unit u given
    by annotator a (``-1``: none), ``labels`` the categories by number, and ``units`` (item
    index, 0-based token) of each column (:class:`TokenUnits`, or any sequence of pairs)."""

    name: str
    codes: np.ndarray
    labels: List[str]
    units: Sequence[Tuple[int, int]]


@dataclass
class LayerData:
    """Every layer of a corpus (:func:`layer_data`), with the items set aside."""

    annotators: Tuple[str, ...]
    item_names: List[str]
    items: List[Dict[str, DependencyTree]]
    layers: Dict[str, Layer] = field(default_factory=dict)
    mismatched: List[str] = field(default_factory=list)
    unpairable: int = 0
    #: What was decided about the data (FEATS that are no ``Name=Value`` pairs, compared whole).
    notes: List[str] = field(default_factory=list)


def _pairs(text: str) -> Dict[str, str]:
    """``A=x|B=y`` as ``{A: x, B: y}`` (``_`` and empty: none)."""
    if text in ("", "_"):
        return {}
    out: Dict[str, str] = {}
    for part in text.split("|"):
        key, _, value = part.partition("=")
        out[key] = value
    return out


def _heads(tree: DependencyTree, unannotated: str) -> List[Optional[str]]:
    """Each token's head as written: the head word's id (``0`` the root); for a token not
    annotated, the head the reader kept in MISC (:data:`WRITTEN_HEAD`), else no value (``_``
    with ``unannotated="value"``)."""
    ids = tree.ids
    if not tree.unannotated:  # every head annotated: the head word's id, "0" for the root
        return list(map((("0",) + ids).__getitem__, tree.heads.tolist()))
    missing = set(k - 1 for k in tree.unannotated)
    out: List[Optional[str]] = []
    for k, h in enumerate(tree.heads.tolist()):
        if k not in missing:
            out.append("0" if h == 0 else ids[h - 1])
            continue
        written = _pairs(tree.misc[k]).get(WRITTEN_HEAD) if tree.misc else None
        out.append(written if written else ("_" if unannotated == "value" else None))
    return out


def layer_data(corpus: Corpus, layers: Sequence[str] = LAYERS, misc_keys: Sequence[str] = (),
               per_feature: bool = True, same_forms: bool = True, unannotated: str = "none") -> LayerData:
    """The reliability matrices of ``layers`` (plus ``feats.NAME`` per feature name with
    ``per_feature``, and ``misc.KEY`` for each of ``misc_keys``) over the tokens of the items
    with two or more annotations that share their tokens, or with ``same_forms=False`` as many
    tokens; ``unannotated`` (``"none"`` or ``"value"``): the head and relation of a token not
    annotated yet (module docstring)."""
    if unannotated not in UNANNOTATED_POLICIES:
        raise BadOptionError(f"unannotated must be {' or '.join(map(repr, UNANNOTATED_POLICIES))}, not "
                             f"{unannotated!r}", option="unannotated")
    if corpus.family != "dependency":
        raise BadOptionError("per-layer agreement needs dependency annotations (CoNLL-U, .spacy, Prodigy ...), "
                             "not phrase-structure trees", option="layers")
    for name in layers:
        if name not in LAYERS + EXTRA_LAYERS and not name.startswith(("feats.", "misc.")):
            raise BadOptionError(f"unknown layer {name!r}: {', '.join(LAYERS + EXTRA_LAYERS)}, feats.NAME or misc.KEY",
                                 option="layers")
    names = corpus.annotators
    data = LayerData(names, [], [])
    for item_name, item in zip(corpus.names, corpus.items):
        trees = [item[a] for a in names if a in item]
        if len(trees) < 2:
            data.unpairable += 1
            continue
        problem = next((p for t in trees[1:] if (p := (token_mismatch(trees[0], t) if same_forms else
                                                       _count_mismatch(trees[0], t)))), None)
        if problem is not None:
            data.mismatched.append(f"{item_name}: {problem}")
            continue
        data.items.append(item)
        data.item_names.append(item_name)
    lengths = [len(next(iter(item.values()))) for item in data.items]
    units = TokenUnits(lengths)
    columns = _Columns(data, names, lengths, unannotated)
    values: Dict[str, Layer] = {}  # numbered as soon as made: one int64 matrix per layer held
    basic = [n for n in layers if n in LAYERS + EXTRA_LAYERS and n != "deprel_same_head"]
    for layer in basic + (["head", "deprel"] if "deprel_same_head" in layers else []):
        if layer not in values:
            values[layer] = columns.layer(layer).layer(layer, units)
    if "deprel_same_head" in layers:
        heads = values["head"].codes
        given = heads >= 0
        if heads.size:
            high = np.where(given, heads, -1).max(axis=0)
            low = np.where(given, heads, np.iinfo(heads.dtype).max).min(axis=0)
            same = (given.sum(axis=0) >= 2) & (high == low)
        else:
            same = np.zeros(heads.shape[1], dtype=bool)
        deprel = values["deprel"]
        values["deprel_same_head"] = _Values(deprel.codes, deprel.labels).masked(same).layer("deprel_same_head", units)
    keyed = []
    if per_feature and "feats" in layers:
        bare = _bare_values(columns.distinct("feats"))
        if bare:
            shown = ", ".join(repr(v) for v in bare[:3]) + (", ..." if len(bare) > 3 else "")
            data.notes.append(f"FEATS: {len(bare)} distinct value(s) are not Name=Value features ({shown}): FEATS is "
                              "compared as whole values only, no feats.NAME layers")
        else:
            keyed = [("feats", k) for k in _keys(columns.distinct("feats"))]
    keyed += [("misc", k) for k in misc_keys]
    keyed += [tuple(n.split(".", 1)) for n in layers if n.startswith(("feats.", "misc."))
              and tuple(n.split(".", 1)) not in keyed]  # type: ignore[misc]
    for column, key in keyed:
        # per annotator and unit: the key's value, NONE where the annotator did not set it, or
        # no value where the annotator lacks the item; over the units where some annotator set it
        keyed_values = columns.keyed(column, key)
        values[f"{column}.{key}"] = keyed_values.masked(keyed_values.set_somewhere()).layer(f"{column}.{key}", units)
    order = [n for n in layers if n in values] + [n for n in values if n not in layers and n not in ("head", "deprel")]
    if "head" in layers and "head" not in order:
        order.append("head")
    for name in order:
        data.layers[name] = values[name]
    return data


class _Values:
    """One layer's values before they are numbered: ``codes[a, u]`` the index of annotator a's value
    of unit u in ``labels`` (any order, duplicates none), ``-1`` for no value."""

    def __init__(self, codes: np.ndarray, labels: List[str]) -> None:
        self.codes, self.labels = codes, labels

    @classmethod
    def of(cls, raw: np.ndarray, distinct: List[Optional[str]], value: Any) -> "_Values":
        """The values ``value(text)`` of the raw texts (``raw`` indexes ``distinct``; ``value``
        called once per distinct text, ``None``: no value)."""
        labels: Dict[str, int] = {}
        lookup = np.array([-1 if text is None or (v := value(text)) is None else labels.setdefault(v, len(labels))
                           for text in distinct] + [-1], dtype=np.int64)
        return cls(lookup[raw], list(labels))

    def masked(self, keep: np.ndarray) -> "_Values":
        """No value on the units outside ``keep``."""
        return _Values(np.where(keep[None, :], self.codes, -1), self.labels)

    def set_somewhere(self) -> np.ndarray:
        """The units where some annotator gave a value other than :data:`NONE`."""
        none = self.labels.index(NONE) if NONE in self.labels else -2
        return ((self.codes >= 0) & (self.codes != none)).any(axis=0) if self.codes.shape[0] else \
            np.zeros(self.codes.shape[1], dtype=bool)

    def layer(self, name: str, units: Sequence[Tuple[int, int]]) -> Layer:
        """The layer, its categories sorted and numbered in that order (as ``sorted`` orders strings)."""
        used = distinct_codes(self.codes)
        labels = sorted(self.labels[k] for k in used.tolist())
        number = np.full(len(self.labels) + 1, -1, dtype=np.int64)
        index = {label: k for k, label in enumerate(self.labels)}
        number[[index[v] for v in labels]] = np.arange(len(labels))
        return Layer(name, number[self.codes].reshape(self.codes.shape[0], len(units)), labels, units)


class _Columns:
    """The columns of the compared items, one row per annotator over every unit, each as numbers
    of its distinct texts: every text is read, split and compared once per distinct value."""

    ATTRIBUTES = {"upos": "upos", "xpos": "xpos", "lemma": "lemmas", "feats": "feats", "deprel": "deprels",
                  "misc": "misc"}

    def __init__(self, data: LayerData, names: Sequence[str], lengths: List[int], unannotated: str) -> None:
        self.data, self.names, self.lengths, self.unannotated = data, names, lengths, unannotated
        self._raw: Dict[str, Tuple[np.ndarray, List[Optional[str]]]] = {}
        self.scanned = ScannedColumns.of(data.items, names, lengths)

    def raw(self, column: str) -> Tuple[np.ndarray, List[Optional[str]]]:
        """``(numbers, texts)``: ``texts[numbers[a, u]]`` annotator a's text of unit u (``None``
        where the annotator lacks the item, or for a head: no value); ``-1`` indexes ``None`` too.
        The texts are distinct, in no particular order (every use numbers or sorts them again)."""
        if column not in self._raw and self.scanned is not None:
            self._raw[column] = self.scanned.raw(column)
        if column not in self._raw:
            rows = []
            for a in self.names:
                flat: List[Optional[str]] = []
                for item, n in zip(self.data.items, self.lengths):
                    tree = item.get(a)
                    if tree is None:
                        flat.extend((None,) * n)
                    elif column == "head":
                        flat.extend(_heads(tree, self.unannotated))
                    else:
                        flat.extend(getattr(tree, self.ATTRIBUTES[column]) or ("_",) * n)
                rows.append(flat)
            texts = list(dict.fromkeys(chain([None], *rows)))  # distinct, None first
            number = {text: k for k, text in enumerate(texts)}.__getitem__
            numbers = np.array([np.fromiter(map(number, row), dtype=np.int64, count=len(row)) for row in rows])
            self._raw[column] = (numbers.reshape(len(self.names), sum(self.lengths)), texts)
        return self._raw[column]

    def distinct(self, column: str) -> List[str]:
        """The distinct texts of a column in the compared items (``None`` left out)."""
        return [t for t in self.raw(column)[1] if t is not None]

    def layer(self, layer: str) -> _Values:
        """One basic layer's values (module docstring; ``_`` and empty texts as it says)."""
        empty = "_" if self.unannotated == "value" else None
        if layer in ("upos", "xpos", "lemma"):
            return _Values.of(*self.raw(layer), lambda v: None if v == "_" else v)
        if layer == "feats":
            return _Values.of(*self.raw(layer), lambda v: NONE if v in ("", "_") else "|".join(sorted(v.split("|"))))
        if layer == "head":
            return _Values.of(*self.raw(layer), lambda v: v)
        if layer == "deprel":
            return _Values.of(*self.raw(layer), lambda v: empty if v == "_" else v)
        if layer == "head_deprel":
            head, deprel = self.layer("head"), self.layer("deprel")
            both = (head.codes >= 0) & (deprel.codes >= 0)
            width = max(len(deprel.labels), 1)
            keys = np.where(both, head.codes * width + deprel.codes, -1)
            found, inverse = np.unique(keys, return_inverse=True)
            labels: Dict[str, int] = {}
            lookup = np.array([-1 if k < 0 else labels.setdefault(f"{head.labels[k // width]} "
                                                                  f"{deprel.labels[k % width]}", len(labels))
                               for k in found.tolist()], dtype=np.int64)
            return _Values(lookup[inverse.reshape(keys.shape)] if found.size else keys, list(labels))
        raise BadOptionError(f"unknown layer {layer!r}: {', '.join(LAYERS + EXTRA_LAYERS)}, feats.NAME or misc.KEY",
                             option="layers")

    def keyed(self, column: str, key: str) -> _Values:
        """A feature's (or MISC key's) value in each annotator's text, :data:`NONE` where it is not set."""
        return _Values.of(*self.raw(column), lambda text: _pairs(text).get(key, NONE))


def _count_mismatch(a: Any, b: Any) -> Optional[str]:
    """Why two annotations cannot be compared token by token whatever their forms (``None``: they can)."""
    return None if len(a) == len(b) else f"{len(a)} tokens against {len(b)}"


def _bare_values(texts: Sequence[str]) -> List[str]:
    """The distinct ``texts`` (of a column in the compared items) with a part that is no
    ``Name=Value`` pair (sorted), none where every value is ``_`` or such pairs."""
    return sorted({text for text in texts if text not in ("", "_")
                   and any("=" not in part[1:] for part in text.split("|"))})


def _keys(texts: Sequence[str]) -> List[str]:
    """The feature names (or MISC keys) written in the distinct ``texts``, sorted."""
    found = set()
    for text in texts:
        found.update(_pairs(text))
    return sorted(found)


__all__ = ["EXTRA_LAYERS", "LAYERS", "Layer", "LayerData", "NONE", "TokenUnits", "UNANNOTATED_POLICIES", "WRITTEN_HEAD",
           "layer_data"]
