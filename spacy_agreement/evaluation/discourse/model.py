"""The discourse model: arrows as real annotation projects write them (Mírovský, Mladová &
Zikánová 2010 and the files of PDT/PDiT/PDT-C and the Copenhagen Dependency Treebank).

A document is a sequence of dependency trees; a node is ``(sentence index from 0, token id
from 1)``. A :class:`Relation` is an arrow ``start → target`` between nodes with:

* a **connective** of one of three kinds (:attr:`Relation.connective_kind`): *explicit*, a
  set of tokens (``connective``: nodes of the trees, or the ids of nodes of another layer,
  such as PML a-nodes, as strings); *by text*, known only by its words (``connective_text``:
  DTAG labels name the connective, ``CONJ:add/og``, but not its position), *implicit* when
  the annotator inserted it (``implicit=True``: DTAG's ``CAUSE/(fordi)``); or *absent*;
* a **link type** (``link``): ``discourse``, or ``list`` (PML's arrows between the members
  of a list, which have no discourse type);
* **ends** that are a node's subtree (the paper's arrows), a **range** of whole trees
  (PML ``start_range``/``target_range``: ``("range", first, last)`` sentence indices), or
  a **group** of nodes (PML ``start_group_id``: ``("group", frozenset of nodes)``), in
  :attr:`Relation.start_extent` / :attr:`Relation.target_extent`; an arrow whose target
  is in another document has ``target=None`` and the reference in ``target_ref``, and one
  drawn without target (PML allows it) has neither;
* the semantic **type**, a **negation** flag (PDT 3.5 ``is_negated``), a **secondary**
  flag (PDT 3.5 ``is_secondary``, DTAG's bracketed ``[...]`` arcs) and free ``marks``
  (DTAG's attribution ``ATTR``, PML's ``src``), which no measure reads.

The paper defines its measures on arrows between two nodes with an explicit connective
("we only annotate discourse relations with explicitly expressed connectives", §3.3). What
it leaves open, and what is chosen here (:func:`set_aside_reason` says, per measure, why a
relation cannot be scored; every such relation is counted by its reason, never dropped):

* **strict and skip** need both ends in the document: an arrow without target, or with its
  target in another document, is set aside (``no target node``, ``target in another
  document``). A connective-less or implicit one is scored: these measures do not read the
  connective except for the "+ connectives" figures, where two relations agree on the
  connective when both have none, or the same tokens, or the same text and kind;
* **range and group ends** (``ranges`` setting): ``exact`` (default) makes two ends equal
  when they are drawn at the same node *and* cover the same extent (the paper's Figure 5,
  a start range of two sentences against one, is a disagreement); ``node`` compares only
  the node the arrow is drawn at. The one-level skip applies to that node, the extent
  still compared under ``exact``;
* **connective-based** identifies a relation by its connective tokens (§3.3). A relation
  without connective is set aside (``no connective``); one whose connective is known only by
  its text (implicit connectives, DTAG's labels) is identified by its kind, its text and
  the unordered pair of sentences its arrow joins (``text_connectives="sentences"``, the
  default: direction and nodes within the sentences are disregarded as the paper
  disregards them) or set aside (``"aside"``: ``connective known by text only``);
* **list links** (``lists`` setting): set aside (``list link``) by default, the paper's
  measures being about discourse relations; scored with the type ``list`` with ``lists``;
* a **negated** relation has the type ``TYPE-neg`` in every comparison of types.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, Hashable, List, Optional, Sequence, Tuple

from ...errors import BadOptionError, DiscourseError, Location
from ...trees import DependencyTree

Node = Tuple[int, int]  # (sentence index from 0, token id from 1)
Extent = Optional[Tuple[Any, ...]]  # None (the node's subtree), ("range", first, last), ("group", nodes)
MEASURES = ("strict", "skip", "connective")
RANGES = ("exact", "node")
TEXT_CONNECTIVES = ("sentences", "aside")

#: the reasons a relation is set aside, in the order they are tested (module docstring)
REASONS = ("list link", "no target node", "target in another document", "no connective",
           "connective known by text only")


@dataclass(frozen=True)
class Relation:
    """A discourse arrow ``start → target`` (module docstring). The first four fields are
    those of the paper's arrows; the others default to an explicit discourse relation
    between two nodes."""

    start: Node
    target: Optional[Node]
    connective: FrozenSet[Hashable] = frozenset()
    type: str = ""
    connective_text: Optional[str] = None
    implicit: bool = False
    link: str = "discourse"
    negated: bool = False
    start_extent: Extent = None
    target_extent: Extent = None
    target_ref: Optional[str] = None
    secondary: bool = False
    marks: Tuple[str, ...] = ()
    where: str = field(default="", compare=False)

    def describe(self) -> str:
        target = self.target if self.target is not None else (self.target_ref or "no target")
        return f"{self.start}->{target} ({self.type})"

    @property
    def connective_kind(self) -> str:
        """``explicit`` (tokens), ``implicit`` (inserted, by text), ``text`` (by text) or ``absent``."""
        if self.connective:
            return "explicit"
        if self.connective_text:
            return "implicit" if self.implicit else "text"
        return "absent"

    @property
    def label(self) -> str:
        """The type compared by the measures: ``list`` for list links, ``-neg`` for negated."""
        base = "list" if self.link == "list" else self.type
        return f"{base}-neg" if self.negated else base

    def connective_key(self) -> Tuple[Any, ...]:
        """What "the same connective" compares (module docstring)."""
        kind = self.connective_kind
        if kind == "explicit":
            return (kind, self.connective)
        return (kind, (self.connective_text or "").lower())

    def end(self, role: str, ranges: str) -> Tuple[Any, ...]:
        """The start or target end as compared (node, and extent under ``ranges="exact"``)."""
        node, extent = (self.start, self.start_extent) if role == "start" else (self.target, self.target_extent)
        if node is None and role == "target":
            return (None, self.target_ref)
        return (node, extent) if ranges == "exact" else (node, None)


def check_settings(settings: Any) -> None:
    """The discourse settings' choices (an unknown one is a :class:`BadOptionError`)."""
    if settings.ranges not in RANGES:
        raise BadOptionError(f"unknown range matching {settings.ranges!r}: {' or '.join(RANGES)}", option="ranges")
    if settings.text_connectives not in TEXT_CONNECTIVES:
        raise BadOptionError(f"unknown treatment of connectives known by text {settings.text_connectives!r}: "
                             f"{' or '.join(TEXT_CONNECTIVES)}", option="text_connectives")


def set_aside_reason(rel: Relation, measure: str, lists: bool = False,
                     text_connectives: str = "sentences") -> Optional[str]:
    """Why ``measure`` cannot score ``rel`` (one of :data:`REASONS`), or ``None``."""
    if rel.link == "list" and not lists:
        return "list link"
    if measure == "connective":
        kind = rel.connective_kind
        if kind == "absent":
            return "no connective"
        if kind != "explicit" and text_connectives == "aside":
            return "connective known by text only"
        return None
    if rel.target is None:
        return "target in another document" if rel.target_ref else "no target node"
    return None


def connective_identity(rel: Relation) -> Tuple[Any, ...]:
    """What the connective-based measure compares: the tokens, or for a connective known by
    text its key and the unordered pair of sentences joined (module docstring)."""
    key = rel.connective_key()
    if key[0] == "explicit":
        return key
    sentences = frozenset(n[0] for n in (rel.start, rel.target) if n is not None)
    return key + (sentences, rel.target_ref)


@dataclass
class DiscourseDocument:
    """The sentences of a document and every annotator's relations over them; ``set_aside``
    counts, per annotator, the links of its file that its reader could not make relations
    of, by reason (an arc to a line that is not a word, ...)."""

    sentences: List[DependencyTree]
    annotators: Dict[str, List[Relation]] = field(default_factory=dict)
    source: str = "<document>"
    set_aside: Dict[str, Dict[str, int]] = field(default_factory=dict)
    sources: Dict[str, str] = field(default_factory=dict)
    syntax_differences: Dict[str, int] = field(default_factory=dict)
    notes: Dict[str, Dict[str, int]] = field(default_factory=dict)
    text: str = ""

    def check_node(self, node: Node, annotator: str, index: int, role: str, at: str = "") -> None:
        sentence, token = node
        where = Location(at or self.source)  # the message names annotator, relation, role and node
        if not 0 <= sentence < len(self.sentences):
            raise DiscourseError(
                f"annotator {annotator!r}, relation {index + 1}: {role} node {list(node)} names sentence {sentence}, "
                f"but the document has sentences 0..{len(self.sentences) - 1}", where)
        if not 1 <= token <= len(self.sentences[sentence]):
            raise DiscourseError(
                f"annotator {annotator!r}, relation {index + 1}: {role} node {list(node)} does not exist "
                f"(sentence {sentence} has tokens 1..{len(self.sentences[sentence])})", where)

    def add(self, annotator: str, relations: Sequence[Relation], set_aside: Optional[Dict[str, int]] = None,
            source: Optional[str] = None, notes: Optional[Dict[str, int]] = None) -> None:
        """Check and add an annotator's relations (errors name annotator, relation and node).
        A relation without connective, or with one known by text only, is accepted."""
        for index, rel in enumerate(relations):
            self.check_node(rel.start, annotator, index, "start", rel.where)
            if rel.target is not None:
                self.check_node(rel.target, annotator, index, "target", rel.where)
            for node in rel.connective:
                if isinstance(node, tuple):  # ids of another layer's nodes are the reader's to check
                    self.check_node(node, annotator, index, "connective", rel.where)
            for role, extent in (("start", rel.start_extent), ("target", rel.target_extent)):
                if extent is not None and extent[0] == "range" and not (
                        0 <= extent[1] <= extent[2] < len(self.sentences)):
                    raise DiscourseError(f"annotator {annotator!r}, relation {index + 1}: {role} range of sentences "
                                         f"{extent[1]}..{extent[2]} is not in the document "
                                         f"(sentences 0..{len(self.sentences) - 1})", Location(rel.where or self.source))
        self.annotators[annotator] = list(relations)
        self.set_aside[annotator] = dict(set_aside or {})
        if notes:
            self.notes[annotator] = dict(notes)
        if source is not None:
            self.sources[annotator] = source

    def parent(self, node: Node) -> Optional[Node]:
        head = int(self.sentences[node[0]].heads[node[1] - 1])
        return (node[0], head) if head else None

    def accounting(self, annotator: str, measure: str, lists: bool = False,
                   text_connectives: str = "sentences") -> Dict[str, Any]:
        """``{"links", "scored", "set_aside": {reason: n}}`` of one annotator under ``measure``:
        ``scored`` plus every count in ``set_aside`` is ``links``, the links of the file."""
        reasons: Dict[str, int] = dict(self.set_aside.get(annotator, {}))
        scored = 0
        for rel in self.annotators[annotator]:
            why = set_aside_reason(rel, measure, lists, text_connectives)
            if why is None:
                scored += 1
            else:
                reasons[why] = reasons.get(why, 0) + 1
        return {"links": scored + sum(reasons.values()), "scored": scored, "set_aside": reasons}


__all__ = ["DiscourseDocument", "Extent", "MEASURES", "Node", "REASONS", "Relation", "check_settings",
           "connective_identity", "set_aside_reason"]
