"""Agreement on discourse arrows between tree nodes (Mírovský, Mladová & Zikánová 2010).

A document is a sequence of dependency trees. A discourse relation is an arrow from a start
node to a target node (a node = sentence index from 0 and token id from 1, as in CoNLL)
with a connective (one or more tokens) and a semantic type. Each annotator has a set of
relations over the same document. Three measures, each with everything of its table:

* **strict** (§3.1, Table 1): two relations agree when their start and target nodes are
  equal;
* **skip** (§3.2, Table 2): as strict, but one tree level may be skipped: if node A is the
  parent of node B, arrows A→C and B→C agree, and so do D→A and D→B. The skip is allowed at
  the start *or* at the target, not at both ends at once (``skip_both_ends=True`` allows
  that too); the paper describes a single skip;
* **connective** (§3.3, Table 3): two relations agree when their connectives are the same
  set of tokens, whatever their nodes and direction.

For strict and skip: F1 on relations, on relations + types, + connectives, + types +
connectives; among the agreeing relations the simple agreement on types and on
connectives and Cohen's κ on types. For connective: F1 on relations, + types, + start/end
nodes (the same start and the same target), + types + nodes; among the agreeing relations
agreement on types and on start/end nodes, and κ on types.

F1 between annotators X and Y with M agreeing pairs is 2M / (|X| + |Y|) (precision M/|Y|,
recall M/|X|, symmetric). Matching is one-to-one: for each criterion the agreeing pairs
are a maximum matching in the graph of pairs that satisfy it (scipy's
``linear_sum_assignment``), and among maximum matchings the one with the most exact node
agreements, then type and connective agreements, is taken. For more than two annotators
every pair is reported, and the mean.

Documents are read from their JSON files by :mod:`spacy_agreement.adapters.discourse_files`
(:func:`load_discourse` turns what it reads into a checked :class:`DiscourseDocument`); the
measures take documents.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Callable, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..adapters.documents import read_document
from ..adapters.discourse_files import json_list as _json_list
from ..adapters.spacy import from_doc
from ..errors import DiscourseError, Location, ratio
from ..agreement.kappa import cohen_kappa
from ..report.format import percent
from ..trees import DependencyTree

Node = Tuple[int, int]  # (sentence index from 0, token id from 1)
MEASURES = ("strict", "skip", "connective")


@dataclass(frozen=True)
class Relation:
    """A discourse arrow ``start → target`` with its connective tokens and semantic type."""

    start: Node
    target: Node
    connective: FrozenSet[Node]
    type: str

    def describe(self) -> str:
        return f"{self.start}->{self.target} ({self.type})"


@dataclass
class DiscourseDocument:
    """The sentences of a document and every annotator's relations over them."""

    sentences: List[DependencyTree]
    annotators: Dict[str, List[Relation]] = field(default_factory=dict)
    source: str = "<document>"

    def check_node(self, node: Node, annotator: str, index: int, role: str) -> None:
        sentence, token = node
        where = Location(self.source)  # the message names annotator, relation, role and node
        if not 0 <= sentence < len(self.sentences):
            raise DiscourseError(
                f"annotator {annotator!r}, relation {index + 1}: {role} node {list(node)} names sentence {sentence}, "
                f"but the document has sentences 0..{len(self.sentences) - 1}", where)
        if not 1 <= token <= len(self.sentences[sentence]):
            raise DiscourseError(
                f"annotator {annotator!r}, relation {index + 1}: {role} node {list(node)} does not exist "
                f"(sentence {sentence} has tokens 1..{len(self.sentences[sentence])})", where)

    def add(self, annotator: str, relations: Sequence[Relation]) -> None:
        """Check and add an annotator's relations (errors name annotator, relation and node)."""
        for index, rel in enumerate(relations):
            self.check_node(rel.start, annotator, index, "start")
            self.check_node(rel.target, annotator, index, "target")
            if not rel.connective:
                raise DiscourseError(f"annotator {annotator!r}, relation {index + 1} {rel.describe()} has no connective",
                                     Location(self.source))
            for node in rel.connective:
                self.check_node(node, annotator, index, "connective")
        self.annotators[annotator] = list(relations)

    def parent(self, node: Node) -> Optional[Node]:
        head = int(self.sentences[node[0]].heads[node[1] - 1])
        return (node[0], head) if head else None


def _node(value: Any, annotator: str, index: int, role: str, source: str) -> Node:
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise DiscourseError(f"annotator {annotator!r}, relation {index + 1}: {role} must be [sentence, token], "
                             f"got {value!r}", Location(source))
    return int(value[0]), int(value[1])


def relations_from_json(records: Sequence[Mapping[str, Any]], annotator: str, source: str = "<json>") -> List[Relation]:
    """Relations from JSON objects ``{"start", "target", "connective", "type"}`` (node shapes checked here;
    that the nodes exist and the connective is not empty, by :meth:`DiscourseDocument.add`)."""
    out = []
    for index, rec in enumerate(_json_list(records, f"the relations of annotator {annotator!r}", source)):
        if not isinstance(rec, Mapping):
            raise DiscourseError(f"annotator {annotator!r}, relation {index + 1} must be a JSON object, got "
                                 f"{type(rec).__name__} {rec!r:.40}", Location(source))
        start = _node(rec.get("start"), annotator, index, "start", source)
        target = _node(rec.get("target"), annotator, index, "target", source)
        # an empty connective is rejected by DiscourseDocument.add, for JSON and Python input alike
        connective = _json_list(rec.get("connective") or [], f"annotator {annotator!r}, relation {index + 1}: "
                                "connective", source)
        nodes = frozenset(_node(c, annotator, index, "connective", source) for c in connective)
        out.append(Relation(start, target, nodes, str(rec.get("type", ""))))
    return out


def load_discourse(path, reader: str = "discourse") -> DiscourseDocument:
    """A document from its JSON file (the format in :mod:`spacy_agreement.adapters.discourse_files`;
    ``"conllu"`` may replace ``"sentences"``), read by :func:`~spacy_agreement.adapters.discourse_files.read_discourse_file`, its relations
    checked as each annotator's are added. ``reader``: a registered document reader
    (:data:`~spacy_agreement.adapters.documents.DOCUMENT_READERS`)."""
    data = read_document(reader, path)
    document = DiscourseDocument(data.sentences, {}, data.source)
    for annotator, records in data.annotators.items():
        document.add(annotator, relations_from_json(records, annotator, data.source))
    return document


def merge_documents(documents: Sequence[DiscourseDocument]) -> DiscourseDocument:
    """One document with the annotators of several files over the same sentences."""
    first = documents[0]
    merged = DiscourseDocument(first.sentences, dict(first.annotators), first.source)
    for doc in documents[1:]:
        for annotator in doc.annotators:
            same = len(doc.sentences) == len(first.sentences) and all(
                len(a) == len(b) and a.forms == b.forms for a, b in zip(doc.sentences, first.sentences))
            if not same:
                raise DiscourseError(f"annotator {annotator!r} of {doc.source} annotated a different document "
                                     f"than {first.source}", Location(doc.source))
            if annotator in merged.annotators:
                raise DiscourseError(f"annotator {annotator!r} appears in two files", Location(doc.source))
            merged.annotators[annotator] = doc.annotators[annotator]
    return merged


# ----------------------------------------------------------------------------- measures

def _one_level(doc: DiscourseDocument, a: Node, b: Node) -> bool:
    return a == b or doc.parent(a) == b or doc.parent(b) == a


def nodes_agree(doc: DiscourseDocument, x: Relation, y: Relation, measure: str, skip_both_ends: bool = False) -> bool:
    """Whether two relations agree on their nodes under ``strict`` or ``skip``."""
    if measure == "strict":
        return x.start == y.start and x.target == y.target
    same_start, same_target = x.start == y.start, x.target == y.target
    near_start, near_target = _one_level(doc, x.start, y.start), _one_level(doc, x.target, y.target)
    if skip_both_ends:
        return near_start and near_target
    return (same_start and near_target) or (near_start and same_target)


def _match(xs: Sequence[Relation], ys: Sequence[Relation], agree: Callable[[Relation, Relation], bool]
           ) -> List[Tuple[int, int]]:
    """Maximum one-to-one matching of agreeing pairs, preferring exact agreement."""
    from scipy.optimize import linear_sum_assignment  # lazy: import time

    if not xs or not ys:
        return []
    weights = np.zeros((len(xs), len(ys)))
    for i, x in enumerate(xs):
        for j, y in enumerate(ys):
            if agree(x, y):
                exact = x.start == y.start and x.target == y.target
                weights[i, j] = 1000.0 + 100.0 * exact + 10.0 * (x.type == y.type) + (x.connective == y.connective)
    rows, cols = linear_sum_assignment(weights, maximize=True)
    return [(i, j) for i, j in zip(rows.tolist(), cols.tolist()) if weights[i, j] > 0]


def _f1(name: str, matched: int, nx: int, ny: int) -> float:
    """F1 of matched relations; undefined (nan, warned) when neither annotator has one."""
    return ratio(2.0 * matched, nx + ny, name, "neither annotator has a relation", stacklevel=3)


def _ratio(name: str, values: Sequence[bool]) -> float:
    """Simple agreement over matched pairs; undefined (nan, warned) without a matched pair."""
    return ratio(float(sum(values)), len(values), name, "no matched pair of relations", stacklevel=3)


def compare_pair(doc: DiscourseDocument, xs: Sequence[Relation], ys: Sequence[Relation], measure: str,
                 skip_both_ends: bool = False) -> Dict[str, float]:
    """Every figure of the measure's table for two annotators' relations."""
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}: one of {MEASURES}")
    n = (len(xs), len(ys))
    if measure == "connective":
        base = lambda x, y: x.connective == y.connective  # noqa: E731
        extra = {"nodes": lambda x, y: x.start == y.start and x.target == y.target}
    else:
        base = lambda x, y: nodes_agree(doc, x, y, measure, skip_both_ends)  # noqa: E731
        extra = {"connectives": lambda x, y: x.connective == y.connective}
    same_type = lambda x, y: x.type == y.type  # noqa: E731
    (key, other), = extra.items()
    pairs = _match(xs, ys, base)
    out = {
        "f1_relations": _f1("f1_relations", len(pairs), *n),
        "f1_types": _f1("f1_types", len(_match(xs, ys, lambda x, y: base(x, y) and same_type(x, y))), *n),
        f"f1_{key}": _f1(f"f1_{key}", len(_match(xs, ys, lambda x, y: base(x, y) and other(x, y))), *n),
        f"f1_types_{key}": _f1(f"f1_types_{key}", len(_match(xs, ys, lambda x, y: base(x, y) and same_type(x, y) and other(x, y))), *n),
        "agreement_types": _ratio("agreement_types", [xs[i].type == ys[j].type for i, j in pairs]),
        f"agreement_{key}": _ratio(f"agreement_{key}", [other(xs[i], ys[j]) for i, j in pairs]),
        "kappa_types": cohen_kappa([xs[i].type for i, _ in pairs], [ys[j].type for _, j in pairs]),
        "relations_a": float(n[0]),
        "relations_b": float(n[1]),
        "agreeing": float(len(pairs)),
    }
    return out


@dataclass
class DiscourseAgreement:
    """The three tables for every pair of annotators, and their means."""

    pairs: List[Tuple[str, str, Dict[str, Dict[str, float]]]]

    def means(self) -> Dict[str, Dict[str, float]]:
        out: Dict[str, Dict[str, float]] = {}
        for measure in MEASURES:
            keys = self.pairs[0][2][measure].keys() if self.pairs else []
            out[measure] = {k: float(np.nanmean([p[2][measure][k] for p in self.pairs]))
                            if any(not math.isnan(p[2][measure][k]) for p in self.pairs) else math.nan for k in keys}
        return out

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = dict(self.means())
        out["pairs"] = [{"annotators": [a, b], **tables} for a, b, tables in self.pairs]
        return out


def discourse_agreement(doc: DiscourseDocument, skip_both_ends: bool = False) -> DiscourseAgreement:
    """Strict, skip and connective-based agreement for every pair of annotators."""
    names = sorted(doc.annotators)
    if len(names) < 2:
        raise DiscourseError("at least two annotators are needed", Location(doc.source))
    pairs = []
    for a, b in combinations(names, 2):
        tables = {m: compare_pair(doc, doc.annotators[a], doc.annotators[b], m, skip_both_ends) for m in MEASURES}
        pairs.append((a, b, tables))
    return DiscourseAgreement(pairs)


def format_tables(result: DiscourseAgreement) -> str:
    """The paper's three tables side by side (means over pairs when there are several), in %."""
    means = result.means()
    rows = [("F1 on relations", "f1_relations", "f1_relations"),
            ("F1 on relations + types", "f1_types", "f1_types"),
            ("F1 on rel. + connectives / + nodes", "f1_connectives", "f1_nodes"),
            ("F1 on rel. + types + conn. / + nodes", "f1_types_connectives", "f1_types_nodes"),
            ("agreement on types", "agreement_types", "agreement_types"),
            ("agreement on connectives / nodes", "agreement_connectives", "agreement_nodes"),
            ("Cohen's kappa on types", "kappa_types", "kappa_types")]

    def cell(v: float) -> str:
        return percent(v, width=7)

    header = f"{'measure (%)':<38} {'strict':>7} {'skip':>7} {'conn.':>7}"
    lines = [f"{len(result.pairs)} pair(s) of annotators" + (" (means)" if len(result.pairs) > 1 else ""), header]
    for label, key, conn_key in rows:
        lines.append(f"{label:<38} {cell(means['strict'][key])} {cell(means['skip'][key])} "
                     f"{cell(means['connective'][conn_key])}")
    return "\n".join(lines)


# ------------------------------------------------------------------------ spaCy docs

def set_relations(doc, annotator: str, relations: Sequence[Relation]) -> None:
    """Attach an annotator's relations to a spaCy ``Doc`` (``doc._.discourse_relations``),
    nodes as (sentence index in ``doc.sents``, token id from 1)."""
    from spacy.tokens import Doc  # lazy: import time

    if not Doc.has_extension("discourse_relations"):
        Doc.set_extension("discourse_relations", default=None)
    if doc._.discourse_relations is None:
        doc._.discourse_relations = {}
    doc._.discourse_relations[annotator] = list(relations)


def document_from_doc(doc, name: str = "<doc>") -> DiscourseDocument:
    """A :class:`DiscourseDocument` from a parsed ``Doc`` carrying relations."""
    document = DiscourseDocument(from_doc(doc, name), {}, name)
    relations = doc._.discourse_relations if doc.has_extension("discourse_relations") else None
    for annotator, rels in (relations or {}).items():
        document.add(annotator, rels)
    return document
