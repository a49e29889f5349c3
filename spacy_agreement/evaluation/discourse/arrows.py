"""Agreement on discourse arrows between tree nodes (Mírovský, Mladová & Zikánová 2010).

A document is a sequence of dependency trees; each annotator has a set of relations over
it (:class:`~.discourse_model.Relation`: arrows with a connective, a type and the rest of
what annotation files hold, :mod:`.discourse_model`). Three measures, each with everything
of its table:

* **strict** (§3.1, Table 1): two relations agree when their start and target nodes are
  equal;
* **skip** (§3.2, Table 2): as strict, but one tree level may be skipped: if node A is the
  parent of node B, arrows A→C and B→C agree, and so do D→A and D→B. The skip is allowed at
  the start *or* at the target, not at both ends at once (``skip_both_ends=True`` allows
  that too); the paper describes a single skip;
* **connective** (§3.3, Table 3): two relations agree when their connectives are the same
  set of tokens, whatever their nodes and direction. The paper annotates only relations
  with an explicit connective and leaves the others open: here a relation without
  connective is set aside and counted (``no connective``), and one whose connective is
  known only by its text (an implicit connective, a DTAG label's) is identified by that
  text and the pair of sentences its arrow joins, or set aside with
  ``text_connectives="aside"`` (:mod:`.discourse_model` says every choice).

For strict and skip: F1 on relations, on relations + types, + connectives, + types +
connectives; among the agreeing relations the simple agreement on types and on
connectives and Cohen's κ on types. For connective: F1 on relations, + types, + start/end
nodes (the same start and the same target), + types + nodes; among the agreeing relations
agreement on types and on start/end nodes, and κ on types. Each measure scores the
relations it can use (:func:`~.discourse_model.set_aside_reason`); the others are counted
by reason in :meth:`DiscourseAgreement.accounting`, so that scored + set aside = the links
of each file.

F1 between annotators X and Y with M agreeing pairs is 2M / (|X| + |Y|) (precision M/|Y|,
recall M/|X|, symmetric), over the relations each measure scores. Matching is one-to-one:
for each criterion the agreeing pairs are a maximum matching in the graph of pairs that
satisfy it (scipy's ``linear_sum_assignment``), and among maximum matchings the one with the
most exact node agreements, then type and connective agreements, is taken. For more than
two annotators every pair is reported, and the mean; the confusion of types among the
agreeing pairs is kept per pair. Over a corpus (:func:`corpus_agreement`) each pair's counts
are pooled over the texts both annotated, then the figures computed and averaged over pairs.

Documents are read by :mod:`spacy_agreement.adapters.discourse_files` (the JSON interchange
format), :mod:`~spacy_agreement.adapters.dtag_discourse` (CDT's DTAG files) and
:mod:`~spacy_agreement.adapters.pml_discourse` (PDT's PML t-files);
:func:`load_discourse` turns what a reader gives into a checked :class:`DiscourseDocument`.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...adapters.discourse_files import DiscourseFile
from ...adapters.documents import read_document
from ...adapters.spacy import from_doc
from ...agreement.kappa import cohen_kappa
from ...errors import DiscourseError, Location, ratio
from .json_format import relations_from_json
from .model import (MEASURES, DiscourseDocument, Node, Relation, connective_identity,
                              set_aside_reason)
from .report import format_tables
from ..settings import DiscourseSettings


def load_discourse(path, reader: str = "discourse") -> DiscourseDocument:
    """A document from its file, read by the registered document reader ``reader``
    (:data:`~spacy_agreement.adapters.documents.DOCUMENT_READERS`: ``discourse`` for the
    JSON format of :mod:`spacy_agreement.adapters.discourse_files`, ``dtag-discourse``,
    ``pml-discourse``), its relations checked as each annotator's are added."""
    data: DiscourseFile = read_document(reader, path)
    document = DiscourseDocument(data.sentences, {}, data.source)
    set_aside = getattr(data, "set_aside", None) or {}
    notes = getattr(data, "notes", None) or {}
    for annotator, records in data.annotators.items():
        document.add(annotator, relations_from_json(records, annotator, data.source), set_aside.get(annotator),
                     data.source, notes.get(annotator))
    document.text = getattr(data, "text", None) or data.source
    return document


def merge_documents(documents: Sequence[DiscourseDocument]) -> DiscourseDocument:
    """One document with the annotators of several files over the same sentences (the same
    words; the trees, which the skip measure reads, are those of the first file, and the
    tokens whose head differs in another file are counted in ``syntax_differences``)."""
    first = documents[0]
    merged = DiscourseDocument(first.sentences, dict(first.annotators), first.source, dict(first.set_aside),
                               dict(first.sources), notes=dict(first.notes), text=first.text)
    for doc in documents[1:]:
        same = len(doc.sentences) == len(first.sentences) and all(
            len(a) == len(b) and a.forms == b.forms for a, b in zip(doc.sentences, first.sentences))
        for annotator in doc.annotators:
            if not same:
                raise DiscourseError(f"annotator {annotator!r} of {doc.source} annotated a different document "
                                     f"than {first.source}", Location(doc.source))
            if annotator in merged.annotators:
                raise DiscourseError(f"annotator {annotator!r} appears in two files", Location(doc.source))
            merged.annotators[annotator] = doc.annotators[annotator]
            merged.set_aside[annotator] = doc.set_aside.get(annotator, {})
            merged.sources[annotator] = doc.sources.get(annotator, doc.source)
            if annotator in doc.notes:
                merged.notes[annotator] = doc.notes[annotator]
            merged.syntax_differences[annotator] = int(sum(
                int(np.count_nonzero(np.asarray(a.heads) != np.asarray(b.heads)))
                for a, b in zip(doc.sentences, first.sentences)))
    return merged


# ----------------------------------------------------------------------------- measures

def _one_level(doc: DiscourseDocument, a: Optional[Node], b: Optional[Node]) -> bool:
    if a is None or b is None:
        return a == b
    return a == b or doc.parent(a) == b or doc.parent(b) == a


def nodes_agree(doc: DiscourseDocument, x: Relation, y: Relation, measure: str, skip_both_ends: bool = False,
                ranges: str = "exact") -> bool:
    """Whether two relations agree on their ends under ``strict`` or ``skip`` (an end is the
    node and, with ``ranges="exact"``, its range or group: :mod:`.discourse_model`)."""
    xs, ys = x.end("start", ranges), y.end("start", ranges)
    xt, yt = x.end("target", ranges), y.end("target", ranges)
    same_start, same_target = xs == ys, xt == yt
    if measure == "strict":
        return same_start and same_target
    near_start = xs[1] == ys[1] and _one_level(doc, xs[0], ys[0])
    near_target = xt[1] == yt[1] and _one_level(doc, xt[0], yt[0])
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
                weights[i, j] = (1000.0 + 100.0 * exact + 10.0 * (x.label == y.label)
                                 + (x.connective_key() == y.connective_key()))
    rows, cols = linear_sum_assignment(weights, maximize=True)
    return [(i, j) for i, j in zip(rows.tolist(), cols.tolist()) if weights[i, j] > 0]


@dataclass
class PairCounts:
    """What one measure counts for two annotators: the relations each has scored, the
    matched pairs under each criterion, and over the relations agreeing on the measure's
    base criterion the two types and whether the other property (connectives or nodes)
    agrees. Counts of several texts add up (``+``) to the corpus's."""

    measure: str
    n_a: int = 0
    n_b: int = 0
    matched: Dict[str, int] = field(default_factory=dict)
    type_pairs: List[Tuple[str, str]] = field(default_factory=list)
    other_agrees: List[bool] = field(default_factory=list)

    @property
    def other(self) -> str:
        return "nodes" if self.measure == "connective" else "connectives"

    def __add__(self, more: "PairCounts") -> "PairCounts":
        keys = set(self.matched) | set(more.matched)
        return PairCounts(self.measure, self.n_a + more.n_a, self.n_b + more.n_b,
                          {k: self.matched.get(k, 0) + more.matched.get(k, 0) for k in sorted(keys)},
                          self.type_pairs + more.type_pairs, self.other_agrees + more.other_agrees)

    def figures(self) -> Dict[str, float]:
        """The measure's table (the keys of the paper's Tables 1–3)."""
        key, n = self.other, self.n_a + self.n_b

        def f1(name: str) -> float:
            return ratio(2.0 * self.matched.get(name, 0), n, name, "neither annotator has a relation", stacklevel=3)

        def agreement(name: str, values: Sequence[bool]) -> float:
            return ratio(float(sum(values)), len(values), name, "no matched pair of relations", stacklevel=3)

        return {
            "f1_relations": f1("f1_relations"),
            "f1_types": f1("f1_types"),
            f"f1_{key}": f1(f"f1_{key}"),
            f"f1_types_{key}": f1(f"f1_types_{key}"),
            "agreement_types": agreement("agreement_types", [a == b for a, b in self.type_pairs]),
            f"agreement_{key}": agreement(f"agreement_{key}", self.other_agrees),
            "kappa_types": cohen_kappa([a for a, _ in self.type_pairs], [b for _, b in self.type_pairs]),
            "relations_a": float(self.n_a),
            "relations_b": float(self.n_b),
            "agreeing": float(self.matched.get("f1_relations", 0)),
        }

    def confusion(self) -> Dict[Tuple[str, str], int]:
        """The types of the agreeing pairs: ``(type by a, type by b) → count``."""
        return dict(Counter(self.type_pairs))


def pair_counts(doc: DiscourseDocument, xs: Sequence[Relation], ys: Sequence[Relation], measure: str,
                settings: DiscourseSettings = DiscourseSettings()) -> PairCounts:
    """The counts of ``measure`` for two annotators' relations (those it cannot score left out)."""
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}: one of {MEASURES}")
    usable = lambda r: set_aside_reason(r, measure, settings.lists, settings.text_connectives) is None  # noqa: E731
    xs, ys = [r for r in xs if usable(r)], [r for r in ys if usable(r)]
    ranges = settings.ranges
    if measure == "connective":
        ids_x = {id(r): connective_identity(r) for r in xs}
        ids_y = {id(r): connective_identity(r) for r in ys}
        base = lambda x, y: ids_x[id(x)] == ids_y[id(y)]  # noqa: E731
        other = lambda x, y: (x.end("start", ranges) == y.end("start", ranges)  # noqa: E731
                              and x.end("target", ranges) == y.end("target", ranges))
    else:
        base = lambda x, y: nodes_agree(doc, x, y, measure, settings.skip_both_ends, ranges)  # noqa: E731
        other = lambda x, y: x.connective_key() == y.connective_key()  # noqa: E731
    same_type = lambda x, y: x.label == y.label  # noqa: E731
    counts = PairCounts(measure, len(xs), len(ys))
    key = counts.other
    pairs = _match(xs, ys, base)
    counts.matched = {
        "f1_relations": len(pairs),
        "f1_types": len(_match(xs, ys, lambda x, y: base(x, y) and same_type(x, y))),
        f"f1_{key}": len(_match(xs, ys, lambda x, y: base(x, y) and other(x, y))),
        f"f1_types_{key}": len(_match(xs, ys, lambda x, y: base(x, y) and same_type(x, y) and other(x, y))),
    }
    counts.type_pairs = [(xs[i].label, ys[j].label) for i, j in pairs]
    counts.other_agrees = [other(xs[i], ys[j]) for i, j in pairs]
    return counts


def compare_pair(doc: DiscourseDocument, xs: Sequence[Relation], ys: Sequence[Relation], measure: str,
                 skip_both_ends: bool = False, settings: Optional[DiscourseSettings] = None) -> Dict[str, float]:
    """Every figure of the measure's table for two annotators' relations."""
    settings = settings or DiscourseSettings(skip_both_ends=skip_both_ends)
    return pair_counts(doc, xs, ys, measure, settings).figures()


def _means(tables: Sequence[Dict[str, Dict[str, float]]]) -> Dict[str, Dict[str, float]]:
    out: Dict[str, Dict[str, float]] = {}
    for measure in MEASURES:
        keys = tables[0][measure].keys() if tables else []
        out[measure] = {k: float(np.nanmean([t[measure][k] for t in tables]))
                        if any(not math.isnan(t[measure][k]) for t in tables) else math.nan for k in keys}
    return out


def _confusion_rows(counts: Sequence[PairCounts]) -> List[List[Any]]:
    total: Counter = Counter()
    for c in counts:
        total.update(c.type_pairs)
    return [[a, b, n] for (a, b), n in sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))]


@dataclass
class DiscourseAgreement:
    """The three tables for every pair of annotators, and their means; ``counts`` the pairs'
    :class:`PairCounts`, ``accounting`` per annotator and measure the links scored and set
    aside (:meth:`~.discourse_model.DiscourseDocument.accounting`)."""

    pairs: List[Tuple[str, str, Dict[str, Dict[str, float]]]]
    counts: Dict[Tuple[str, str], Dict[str, PairCounts]] = field(default_factory=dict)
    accounting: Dict[str, Dict[str, Dict[str, Any]]] = field(default_factory=dict)
    source: str = ""
    syntax_differences: Dict[str, int] = field(default_factory=dict)
    left_out: List[str] = field(default_factory=list)
    files: Dict[str, Dict[str, Any]] = field(default_factory=dict)

    def means(self) -> Dict[str, Dict[str, float]]:
        return _means([p[2] for p in self.pairs])

    def confusion(self) -> Dict[str, List[List[Any]]]:
        """Per measure, ``[type by the first, type by the second, count]`` summed over pairs."""
        return {m: _confusion_rows([c[m] for c in self.counts.values()]) for m in MEASURES}

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = dict(self.means())
        out["pairs"] = [{"annotators": [a, b], **tables,
                         "confusion": {m: _confusion_rows([self.counts[(a, b)][m]]) for m in MEASURES}
                         if (a, b) in self.counts else {}}
                        for a, b, tables in self.pairs]
        out["links"] = self.accounting
        out["confusion"] = self.confusion()
        out["files"] = self.files
        if self.syntax_differences:
            out["syntax_differences"] = self.syntax_differences
        if self.left_out:
            out["left_out"] = {name: "no discourse link (not annotated)" for name in self.left_out}
        return out


def discourse_agreement(doc: DiscourseDocument, skip_both_ends: bool = False,
                        settings: Optional[DiscourseSettings] = None) -> DiscourseAgreement:
    """Strict, skip and connective-based agreement for every pair of annotators."""
    settings = settings or DiscourseSettings(skip_both_ends=skip_both_ends)
    names, empty = annotated(doc, settings)
    if len(names) < 2:
        raise DiscourseError("at least two annotators are needed" + (
            f" (left out as not annotated, without any discourse link: {', '.join(empty)})" if empty else ""),
            Location(doc.source))
    pairs, counts = [], {}
    for a, b in combinations(names, 2):
        counts[(a, b)] = {m: pair_counts(doc, doc.annotators[a], doc.annotators[b], m, settings) for m in MEASURES}
        pairs.append((a, b, {m: counts[(a, b)][m].figures() for m in MEASURES}))
    accounting = {name: {m: doc.accounting(name, m, settings.lists, settings.text_connectives) for m in MEASURES}
                  for name in names}
    return DiscourseAgreement(pairs, counts, accounting, doc.source, dict(doc.syntax_differences), empty,
                              {name: {"source": doc.sources.get(name, doc.source), **doc.notes.get(name, {})}
                               for name in names})


def annotated(doc: DiscourseDocument, settings: DiscourseSettings) -> Tuple[List[str], List[str]]:
    """The annotators compared, and those left out with ``skip_empty`` (no discourse link at all)."""
    names = sorted(doc.annotators)
    if not settings.skip_empty:
        return names, []
    links = {n: len(doc.annotators[n]) + sum(doc.set_aside.get(n, {}).values()) for n in names}
    return [n for n in names if links[n]], [n for n in names if not links[n]]


@dataclass
class CorpusAgreement:
    """Agreement per text and over the corpus: each annotator pair's counts pooled over the
    texts both annotated (``pooled``), their figures and the mean over pairs."""

    texts: List[Tuple[str, DiscourseAgreement]]
    skipped: List[Tuple[str, str]] = field(default_factory=list)

    def pooled(self) -> Dict[Tuple[str, str], Dict[str, PairCounts]]:
        out: Dict[Tuple[str, str], Dict[str, PairCounts]] = {}
        for _, result in self.texts:
            for pair, by_measure in result.counts.items():
                if pair in out:
                    out[pair] = {m: out[pair][m] + by_measure[m] for m in MEASURES}
                else:
                    out[pair] = dict(by_measure)
        return out

    def means(self) -> Dict[str, Dict[str, float]]:
        return _means([{m: c[m].figures() for m in MEASURES} for c in self.pooled().values()])

    def links(self) -> Dict[str, Any]:
        """Per measure, the links of every annotator file summed: links, scored, set aside by reason."""
        out: Dict[str, Any] = {}
        for measure in MEASURES:
            total: Dict[str, Any] = {"files": 0, "links": 0, "scored": 0, "set_aside": {}}
            for _, result in self.texts:
                for by_measure in result.accounting.values():
                    acc = by_measure[measure]
                    total["files"] += 1
                    total["links"] += acc["links"]
                    total["scored"] += acc["scored"]
                    for why, n in acc["set_aside"].items():
                        total["set_aside"][why] = total["set_aside"].get(why, 0) + n
            out[measure] = total
        return out

    def to_dict(self) -> Dict[str, Any]:
        pooled = self.pooled()
        out: Dict[str, Any] = dict(self.means())
        out["pairs"] = [{"annotators": list(pair), "texts": sum(pair in r.counts for _, r in self.texts),
                         **{m: c[m].figures() for m in MEASURES}} for pair, c in sorted(pooled.items())]
        out["links"] = self.links()
        out["confusion"] = {m: _confusion_rows([c[m] for c in pooled.values()]) for m in MEASURES}
        out["texts"] = [{"text": name, **result.to_dict()} for name, result in self.texts]
        out["skipped_texts"] = [{"text": name, "why": why} for name, why in self.skipped]
        return out


def corpus_agreement(documents: Sequence[Tuple[str, DiscourseDocument]],
                     settings: Optional[DiscourseSettings] = None) -> CorpusAgreement:
    """Agreement on every text with two or more annotators (the others are listed in
    ``skipped``), pooled over the corpus (:class:`CorpusAgreement`)."""
    texts, skipped = [], []
    settings = settings or DiscourseSettings()
    for name, doc in documents:
        names, empty = annotated(doc, settings)
        if len(names) < 2:
            skipped.append((name, f"{len(names)} annotator(s)" + (f", {len(empty)} without any discourse link"
                                                                    if empty else "")))
            continue
        texts.append((name, discourse_agreement(doc, settings=settings)))
    if not texts:
        raise DiscourseError("no text has two or more annotators", Location(documents[0][0] if documents else "<corpus>"))
    return CorpusAgreement(texts, skipped)


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


__all__ = ["CorpusAgreement", "DiscourseAgreement", "DiscourseDocument", "DiscourseError", "MEASURES", "Node",
           "PairCounts", "Relation", "compare_pair", "corpus_agreement", "discourse_agreement", "document_from_doc",
           "format_tables", "load_discourse", "merge_documents", "nodes_agree", "pair_counts", "relations_from_json",
           "set_relations"]
