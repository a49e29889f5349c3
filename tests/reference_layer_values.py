"""The reference implementation of :mod:`spacy_agreement.agreement.layer_values` (issue 50): the
per-token Python code the package ran before it coded columns, kept to check the package's
columns against, value by value. The original docstring follows.

The annotation layers of a dependency corpus as reliability matrices: one unit per token of
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

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from spacy_agreement.agreement.accuracy import token_mismatch
from spacy_agreement.agreement.layer_values import EXTRA_LAYERS, LAYERS, NONE, UNANNOTATED_POLICIES, WRITTEN_HEAD, \
    Layer, LayerData
from spacy_agreement.corpus import Corpus
from spacy_agreement.errors import BadOptionError
from spacy_agreement.trees import DependencyTree

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
    ids, missing = tree.ids, set(k - 1 for k in tree.unannotated)
    out: List[Optional[str]] = []
    for k, h in enumerate(tree.heads.tolist()):
        if k not in missing:
            out.append("0" if h == 0 else ids[h - 1])
            continue
        written = _pairs(tree.misc[k]).get(WRITTEN_HEAD) if tree.misc else None
        out.append(written if written else ("_" if unannotated == "value" else None))
    return out


def _column(tree: DependencyTree, layer: str, unannotated: str = "none") -> List[Optional[str]]:
    """One annotator's values of a sentence on a basic layer (``None``: no value)."""
    n = len(tree)
    if layer in ("upos", "xpos", "lemma"):
        column = {"upos": tree.upos, "xpos": tree.xpos, "lemma": tree.lemmas}[layer] or ("_",) * n
        return [None if v == "_" else v for v in column]
    if layer == "feats":
        return [NONE if v in ("", "_") else "|".join(sorted(v.split("|"))) for v in (tree.feats or ("_",) * n)]
    if layer == "head":
        return _heads(tree, unannotated)
    empty = "_" if unannotated == "value" else None
    if layer == "deprel":  # a token not annotated has "_" unless its reader kept its relation
        return [empty if d == "_" else d for d in tree.deprels]
    if layer == "head_deprel":
        return [None if h is None or d is None else f"{h} {d}"
                for h, d in zip(_heads(tree, unannotated), _column(tree, "deprel", unannotated))]
    raise BadOptionError(f"unknown layer {layer!r}: {', '.join(LAYERS + EXTRA_LAYERS)}, feats.NAME or misc.KEY",
                         option="layers")


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
    units = [(i, k) for i, item in enumerate(data.items) for k in range(len(next(iter(item.values()))))]
    values: Dict[str, List[List[Optional[str]]]] = {}
    basic = [n for n in layers if n in LAYERS + EXTRA_LAYERS and n != "deprel_same_head"]
    for layer in basic + (["head", "deprel"] if "deprel_same_head" in layers else []):
        if layer in values:
            continue
        values[layer] = [[v for item in data.items for v in (_column(item[a], layer, unannotated) if a in item
                                                            else [None] * len(next(iter(item.values()))))]
                         for a in names]
    if "deprel_same_head" in layers:
        heads = values["head"]
        same = [len({row[u] for row in heads if row[u] is not None}) == 1
                and sum(row[u] is not None for row in heads) >= 2 for u in range(len(units))]
        values["deprel_same_head"] = [[v if same[u] else None for u, v in enumerate(row)]
                                      for row in values["deprel"]]
    keyed = []
    if per_feature and "feats" in layers:
        bare = _bare_values(data, "feats")
        if bare:
            shown = ", ".join(repr(v) for v in bare[:3]) + (", ..." if len(bare) > 3 else "")
            data.notes.append(f"FEATS: {len(bare)} distinct value(s) are not Name=Value features ({shown}): FEATS is "
                              "compared as whole values only, no feats.NAME layers")
        else:
            keyed = [("feats", k) for k in _keys(data, "feats")]
    keyed += [("misc", k) for k in misc_keys]
    keyed += [tuple(n.split(".", 1)) for n in layers if n.startswith(("feats.", "misc."))
              and tuple(n.split(".", 1)) not in keyed]  # type: ignore[misc]
    lengths = [len(next(iter(item.values()))) for item in data.items]
    for column, key in keyed:
        # per annotator and unit: the key's value, NONE where the annotator did not set it, or
        # None (no value) where the annotator lacks the item
        rows = [[(_pairs(text).get(key, NONE) if a in item else None) for item, n in zip(data.items, lengths)
                 for text in (getattr(item[a], column) or ("_",) * n if a in item else (None,) * n)]
                for a in names]
        wanted = [any(row[u] not in (None, NONE) for row in rows) for u in range(len(units))]
        values[f"{column}.{key}"] = [[v if wanted[u] else None for u, v in enumerate(row)] for row in rows]
    order = [n for n in layers if n in values] + [n for n in values if n not in layers and n not in ("head", "deprel")]
    if "head" in layers and "head" not in order:
        order.append("head")
    for name in order:
        data.layers[name] = _coded(name, values[name], units)
    return data


def _count_mismatch(a: Any, b: Any) -> Optional[str]:
    """Why two annotations cannot be compared token by token whatever their forms (``None``: they can)."""
    return None if len(a) == len(b) else f"{len(a)} tokens against {len(b)}"


def _bare_values(data: LayerData, column: str) -> List[str]:
    """The distinct values of a column of the compared items with a part that is no
    ``Name=Value`` pair (sorted), none where every value is ``_`` or such pairs."""
    found = set()
    for item in data.items:
        for tree in item.values():
            for text in getattr(tree, column) or ():
                if text not in ("", "_") and any("=" not in part[1:] for part in text.split("|")):
                    found.add(text)
    return sorted(found)


def _keys(data: LayerData, column: str) -> List[str]:
    """The feature names (or MISC keys) written in the items, sorted."""
    found = set()
    for item in data.items:
        for tree in item.values():
            for text in getattr(tree, column) or ():
                found.update(_pairs(text))
    return sorted(found)


def _coded(name: str, rows: List[List[Optional[str]]], units: List[Tuple[int, int]]) -> Layer:
    labels = sorted({v for row in rows for v in row if v is not None})
    number = {label: k for k, label in enumerate(labels)}
    codes = np.array([[-1 if v is None else number[v] for v in row] for row in rows], dtype=np.int64)
    return Layer(name, codes.reshape(len(rows), len(units)), labels, units)


__all__ = ["layer_data"]
