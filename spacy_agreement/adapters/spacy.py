"""spaCy ``Doc`` and ``Span`` into :class:`DependencyTree`s (one tree per sentence).

spaCy marks a root by making a token its own head; here the root is head 0 and heads are
1-based positions inside the sentence, as in CoNLL. A span whose tokens attach outside it
is not a tree: :func:`doc_tree`, the one converter (the spaCy components use it too), raises
:class:`InvalidTreeError` naming the token, or re-attaches such tokens to the root and counts
them (``heads_outside="root"``).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import BadOptionError, InvalidTreeError, Location
from ..trees import DependencyTree

# spaCy annotation -> (DependencyTree column, value of a token)
_COLUMNS = {
    "POS": ("upos", lambda t: t.pos_),
    "LEMMA": ("lemmas", lambda t: t.lemma_),
    "MORPH": ("feats", lambda t: str(t.morph)),
    "TAG": ("xpos", lambda t: t.tag_),
}


def token_columns(tokens, fallback: Optional[DependencyTree] = None) -> Dict[str, Tuple[str, ...]]:
    """UPOS, lemmas, features (``str(token.morph)``) and fine tags of some tokens of one doc,
    keyed by :class:`DependencyTree` field, ``"_"`` where a value is unset. With a
    ``fallback`` tree (same tokens), a column the doc has no annotation for is taken from it
    (e.g. a parser-only pipeline scored against gold tags and lemmas)."""
    tokens = list(tokens)
    doc = tokens[0].doc if tokens else None
    out: Dict[str, Tuple[str, ...]] = {}
    for attr, (name, value) in _COLUMNS.items():
        if fallback is not None and doc is not None and not doc.has_annotation(attr):
            out[name] = tuple(getattr(fallback, name))
        else:
            out[name] = tuple(value(t) or "_" for t in tokens)
    return out


def annotated_columns(doc) -> Dict[str, bool]:
    """Which of UPOS, lemmas, features and fine tags a doc annotates, keyed by
    :class:`DependencyTree` field (those :func:`token_columns` takes from the doc)."""
    return {name: bool(doc.has_annotation(attr)) for attr, (name, _) in _COLUMNS.items()}


def doc_analysis(doc) -> Tuple[np.ndarray, Tuple[str, ...]]:
    """The doc's current analysis, compactly: absolute head indices and labels (what
    ``analysis_snapshot`` stores and :func:`doc_tree` takes as ``analysis``)."""
    heads = np.fromiter((t.head.i for t in doc), dtype=np.int32, count=len(doc))
    return heads, tuple(t.dep_ for t in doc)


def head_cycle_tokens(heads) -> np.ndarray:
    """The tokens that reach no root by following their heads (absolute indices, as
    :func:`doc_analysis` gives them; a root is its own head): those in a head cycle and those
    attached below one, the doc-wide counterpart of
    :meth:`~spacy_agreement.trees.DependencyTree.unreachable_tokens`. A parse spaCy's parser
    makes from the words alone has none; one it makes over a doc that already had heads can
    (it keeps the old head of every token it leaves unattached)."""
    jump = np.asarray(heads, dtype=np.int64)
    n = jump.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    root = jump == np.arange(n)
    for _ in range(max(1, n.bit_length())):  # after k steps jump[i] is i's 2**k-th ancestor; roots stay put
        jump = jump[jump]
    return np.flatnonzero(~root[jump])


#: What to do with a token whose head lies outside its sentence (:func:`doc_tree`).
HEADS_OUTSIDE = ("raise", "root")


def doc_tree(doc, start: int, end: int, analysis: Optional[Tuple[Any, Sequence[str]]] = None, *,
             location: Optional[Location] = None, heads_outside: str = "raise",
             single_root: bool = False, fallback: Optional[DependencyTree] = None,
             lowercase: bool = False) -> Tuple[DependencyTree, int]:
    """The one converter from spaCy: the tree of tokens ``start:end`` of a ``Doc`` and the
    number of heads that lay outside them.

    ``analysis`` is ``(heads, labels)`` for every token of the doc, heads as absolute token
    indices (a stored analysis, :func:`doc_analysis`);
    by default the doc's current parse. A token that is its own head is a root. A head outside
    ``start:end`` is not a tree: ``heads_outside="raise"`` raises :class:`InvalidTreeError`
    naming the token; ``"root"`` attaches the token to the root instead and counts it in the
    second value, so the caller can report how many were re-attached. ``fallback`` goes to
    :func:`token_columns`; ``lowercase`` lowers the labels (spaCy's scorer compares them so).
    A token followed by no space has ``SpaceAfter=No`` in ``misc``, as in CoNLL-U.
    """
    if heads_outside not in HEADS_OUTSIDE:
        raise BadOptionError(f"heads_outside must be one of {', '.join(HEADS_OUTSIDE)}, got {heads_outside!r}")
    location = location or Location("<doc>")
    tokens = list(doc[start:end])  # spaCy makes a Token object on every access: once
    if analysis is None:
        heads_of: Sequence[int] = [t.head.i for t in tokens]
        deprels = [t.dep_ for t in tokens]
    else:
        heads_of = [int(h) for h in analysis[0][start:end]]
        deprels = list(analysis[1][start:end])
    heads = []
    outside = 0
    for i, h in enumerate(heads_of, start=start):
        if h == i:
            heads.append(0)
        elif start <= h < end:
            heads.append(h - start + 1)
        elif heads_outside == "raise":
            raise InvalidTreeError(f"head {h - start + 1} ({doc[h].text!r}) lies outside the sentence",
                                   location.at_token(i - start + 1))
        else:
            heads.append(0)
            outside += 1
    if lowercase:
        deprels = [d.lower() for d in deprels]
    # the spacing as CoNLL-U's MISC writes it, so a gold read from a DocBin keeps it (evaluate --model)
    misc = ["_" if t.whitespace_ else "SpaceAfter=No" for t in tokens]
    tree = DependencyTree.create(heads=heads, deprels=deprels, forms=[t.text for t in tokens], location=location,
                                 single_root=single_root, misc=misc, **token_columns(tokens, fallback))
    return tree, outside


def from_span(span, location: Optional[Location] = None, single_root: bool = False) -> DependencyTree:
    """One sentence (or any span that is a whole tree) of a parsed ``Doc``; a head outside the
    span raises (:func:`doc_tree` can re-attach and count instead)."""
    location = location or Location("<doc>")
    if not span.doc.has_annotation("DEP"):
        raise InvalidTreeError("the Doc has no dependency parse (no DEP annotation)", location)
    return doc_tree(span.doc, span.start, span.end, location=location, single_root=single_root)[0]


def from_doc(doc, name: str = "<doc>", single_root: bool = False) -> List[DependencyTree]:
    """One :class:`DependencyTree` per sentence of a parsed ``Doc``."""
    if not doc.has_annotation("DEP"):
        raise InvalidTreeError("the Doc has no dependency parse (no DEP annotation)", Location(name))
    return [
        from_span(sent, Location(name, number), single_root) for number, sent in enumerate(doc.sents, start=1)
    ]
