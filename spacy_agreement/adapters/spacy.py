"""spaCy ``Doc`` and ``Span`` into :class:`DependencyTree`s (one tree per sentence).

spaCy marks a root by making a token its own head; here the root is head 0 and heads are
1-based positions inside the sentence, as in CoNLL. A span whose tokens attach outside it
is not a tree and raises :class:`InvalidTreeError` naming the token.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..errors import InvalidTreeError, Location
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


def from_span(span, location: Optional[Location] = None, single_root: bool = False) -> DependencyTree:
    """One sentence (or any span that is a whole tree) of a parsed ``Doc``."""
    doc = span.doc
    location = location or Location("<doc>")
    if not doc.has_annotation("DEP"):
        raise InvalidTreeError("the Doc has no dependency parse (no DEP annotation)", location)
    start = span.start
    heads = []
    for token in span:
        if token.head.i == token.i:
            heads.append(0)
        elif span.start <= token.head.i < span.end:
            heads.append(token.head.i - start + 1)
        else:
            raise InvalidTreeError(
                f"head {token.head.i - start + 1} ({token.head.text!r}) lies outside the sentence",
                location.at_token(token.i - start + 1),
            )
    return DependencyTree.create(
        heads=heads,
        deprels=[t.dep_ for t in span],
        forms=[t.text for t in span],
        location=location,
        single_root=single_root,
        **token_columns(span),
    )


def from_doc(doc, name: str = "<doc>", single_root: bool = False) -> List[DependencyTree]:
    """One :class:`DependencyTree` per sentence of a parsed ``Doc``."""
    if not doc.has_annotation("DEP"):
        raise InvalidTreeError("the Doc has no dependency parse (no DEP annotation)", Location(name))
    return [
        from_span(sent, Location(name, number), single_root) for number, sent in enumerate(doc.sents, start=1)
    ]
