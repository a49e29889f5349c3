"""Prodigy's ``db-out`` JSON Lines of the dependency and relation recipes (``dep.correct``,
``rel.manual``): one annotator per ``_annotator_id`` (else ``_session_id``), one item per
``_input_hash``, each accepted task a partial :class:`~spacy_agreement.trees.DependencyTree`.

The format, as the sources below show it: a task a line, with ``text``, ``tokens``
(``{text, start, end, id, ws}``, ``id`` the 0-based position; rel.manual may add
``disabled``), ``relations`` (``{head, child, label, head_span, child_span}``, ``head`` and
``child`` 0-based token indices, not span indices [1, 2]), ``answer`` (``accept``, ``reject``,
``ignore``), ``_input_hash`` (one per input text, whoever annotates it), ``_task_hash``, and the
annotator: session ``?session=alice`` of dataset ``news`` is ``news-alice`` [3]; ``_session_id``
may be ``null`` [4]. Prodigy keeps every answer: an annotator may answer one input twice.
dep.correct may annotate a subset of the labels ("incomplete annotations" [1]); a relation of
multi-token spans names the span's last token (``head == head_span.token_end`` [4]). The pages
we could read do not say how dep.correct writes the root: spaCy makes the root its own head
(label ``ROOT``), and a dep.correct-style recipe writes a relation from the root to itself [5].
Both, and an omitted root, are read:

* a relation with ``head == child`` makes its child the root (a relation labelled ``ROOT`` to
  another token is read as written: annotators do write such relations, and they disagree);
* in a task with relations and no such root, a lone token (not ``disabled``) without an incoming
  relation is the root, labelled :data:`IMPLICIT_ROOT_LABEL` (counted in the report);
* any other token without an incoming relation is not annotated (:attr:`DependencyTree.unannotated`),
  as is one whose relation has no label where others have one;
* two incoming relations for one token, or an index out of range, is an error naming the line.

Only ``answer == "accept"`` counts; the other answers are counted per annotator
(:class:`ProdigyReadReport`, :func:`prodigy_notes`). Items are keyed by ``_input_hash``
(``item_key`` may name another, ``meta.sent_id`` inside ``meta``: free-form ids some tasks may
lack, hence not the default), which is each tree's ``Location.sent_id``, so
:func:`~.matching.match_items` pairs by it. An annotator accepting one input twice: the last in
the file is kept, the earlier counted as superseded.

[1] https://prodi.gy/docs/dependencies-relations
[2] https://support.prodi.gy/t/confusion-about-structure-of-relations-jsonl-format/6467
[3] https://support.prodi.gy/t/prodigy-multi-user-session-access/1644
[4] an exported rel.manual task of Prodigy's bio_events example, quoted in a public repository
[5] a public ``suparkanbun.dep.correct`` recipe: ``head = head - 1 if head else child``
"""
from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass, field, fields, replace
from typing import IO, Any, Dict, Iterator, List, Optional, Tuple, Union, cast

from ..corpus import Corpus, ReadStats
from ..errors import InvalidTreeError, Location, MismatchedCorpusError, not_utf8
from ..trees import DependencyTree
from .matching import match_columns

PathLike = Union[str, "os.PathLike[str]"]
Source = Union[PathLike, io.TextIOBase]
#: Where the annotator is named, in order of preference; the relation of a root read from
#: the one token without a head (spaCy's root label).
ANNOTATOR_KEYS = ("_annotator_id", "_session_id")
IMPLICIT_ROOT_LABEL = "ROOT"
_SNIFF_LIMIT = 1 << 22
_SET_ASIDE = {"reject": "rejected", "ignore": "ignored"}


@dataclass
class AnnotatorCounts:
    """One annotator's tasks: ``accepted`` (``superseded`` of them by a later answer), set aside
    (``rejected``, ``ignored``, ``other``), and of the trees kept the implicit roots and partial trees."""

    accepted: int = 0
    superseded: int = 0
    rejected: int = 0
    ignored: int = 0
    other: int = 0
    implicit_roots: int = 0
    partial_trees: int = 0
    unannotated_tokens: int = 0

    @property
    def trees(self) -> int:
        return self.accepted - self.superseded


@dataclass
class ProdigyReadReport:
    """What :func:`read_prodigy` read besides the trees: the tasks (non-blank lines) and the
    counts of each annotator, in order of first appearance."""

    source: str = "<input>"
    tasks: int = 0
    annotators: Dict[str, AnnotatorCounts] = field(default_factory=dict)


def prodigy_notes(report: ProdigyReadReport) -> List[str]:
    """Human-readable lines on what was set aside or inferred, one per annotator concerned
    (``news-alice: 1 rejected, 1 ignored tasks set aside``)."""
    def _plural(count: int, word: str) -> str:
        return f"{count} {word}" + ("" if count == 1 else "s")

    notes = []
    for name, c in report.annotators.items():
        parts = []
        if c.rejected or c.ignored or c.other:
            parts.append(f"{c.rejected} rejected, {c.ignored} ignored" + (f", {c.other} unanswered or other" if
                                                                            c.other else "") + " tasks set aside")
        if c.superseded:
            parts.append(f"{_plural(c.superseded, 'accepted answer')} superseded by a later one (the last kept)")
        if c.implicit_roots:
            parts.append(f"{_plural(c.implicit_roots, 'root')} read from the one token without a head")
        if c.partial_trees:
            parts.append(f"{_plural(c.partial_trees, 'partial tree')} ({c.unannotated_tokens} unannotated tokens)")
        if not c.trees:
            parts.append("no accepted task: not an annotator of the corpus")
        if parts:
            notes.append(f"{name}: " + "; ".join(parts))
    return notes


def is_prodigy_jsonl(path: PathLike) -> bool:
    """Whether the first non-blank line of a file is a JSON object with ``tokens`` and
    ``relations`` or ``_input_hash`` (a Prodigy task). Reads one line; never raises."""
    try:
        with open(path, encoding="utf-8") as handle:
            for line in iter(lambda: handle.readline(_SNIFF_LIMIT), ""):
                if line.strip():
                    task = json.loads(line)
                    return isinstance(task, dict) and "tokens" in task and ("relations" in task or
                                                                            "_input_hash" in task)
    except Exception:  # a sniff: anything unreadable is not this format
        return False
    return False


def _annotator(task: Dict[str, Any], key: Optional[str], where: Location) -> str:
    keys = (key,) if key else ANNOTATOR_KEYS
    for k in keys:
        if task.get(k) not in (None, ""):
            return str(task[k])
    raise InvalidTreeError(f"the task names no annotator (no {' or '.join(repr(k) for k in keys)})", where,
                           option="annotator_key")


def _item(task: Dict[str, Any], key: str, where: Location) -> str:
    value: Any = task
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if value in (None, ""):
        raise InvalidTreeError(f"the accepted task has no {key!r} to pair it with the others'", where,
                               option="item_key")
    return str(value)


def _tree(task: Dict[str, Any], where: Location, single_root: bool) -> Tuple[DependencyTree, bool]:
    """An accepted task's tree (module docstring) and whether its root is the one headless token."""
    tokens = task.get("tokens")
    if not isinstance(tokens, list) or not tokens:
        raise InvalidTreeError("the accepted task has no tokens", where)
    n = len(tokens)
    for k, token in enumerate(tokens):
        if not isinstance(token, dict) or token.get("id", k) != k:
            raise InvalidTreeError(f"token {k} (0-based) is not a token object with id {k}", where.at_token(k + 1))
    heads: List[Optional[int]] = [None] * n
    deprels: List[Optional[str]] = [None] * n
    relations = task.get("relations") or []
    explicit_root = False
    for number, rel in enumerate(relations, 1):
        rel = rel if isinstance(rel, dict) else {}
        head: Any = rel.get("head")
        child: Any = rel.get("child")
        valid = [isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n for i in (head, child)]
        if not all(valid):
            what, index = ("child", child) if not valid[1] else ("head", head)
            raise InvalidTreeError(f"relation {number}: {what} {index!r} is not a token index 0..{n - 1}",
                                   where.at_token(child + 1) if valid[1] else where)
        if heads[child] is not None:
            raise InvalidTreeError(f"relation {number}: token {child} (0-based) has two incoming relations",
                                   where.at_token(child + 1))
        label = rel.get("label")
        is_root = head == child  # a ROOT label on a relation to another token keeps that head
        heads[child] = 0 if is_root else head + 1
        deprels[child] = "_" if label in (None, "") else str(label)
        explicit_root = explicit_root or is_root
    headless = [k for k in range(n) if heads[k] is None and not tokens[k].get("disabled")]
    implicit = bool(relations) and not explicit_root and len(headless) == 1
    if implicit:
        heads[headless[0]], deprels[headless[0]] = 0, IMPLICIT_ROOT_LABEL
    location = Location(where.source, where.sentence, None, where.line, where.sent_id, None, (0,) * n)
    forms = [str(t.get("text", "_")) for t in tokens]
    tree = DependencyTree.create(heads, deprels, forms, location=location,  # a None head: not annotated
                                 single_root=single_root, partial=True,
                                 misc=["_" if t.get("ws", True) else "SpaceAfter=No" for t in tokens])
    return tree, implicit


def _lines(source: Source, name: str) -> Iterator[str]:
    try:
        if hasattr(source, "read"):
            yield from cast(IO[str], source)
        else:
            with open(cast(PathLike, source), encoding="utf-8") as handle:
                yield from handle
    except UnicodeDecodeError as exc:
        raise not_utf8(name, exc) from None


def read_prodigy(source: Source, annotator_key: Optional[str] = None, name: Optional[str] = None, *,
                 item_key: str = "_input_hash",
                 single_root: bool = False) -> Tuple[Dict[str, List[DependencyTree]], ProdigyReadReport]:
    """Each annotator's trees (accepted tasks, the last answer to an input kept) and the
    :class:`ProdigyReadReport`, from a path or a text stream (module docstring). Errors name the
    file line, the task number (``sentence``), the item key and the token (1-based)."""
    stream = hasattr(source, "read")
    name = str(name or (getattr(source, "name", "<input>") if stream else os.fspath(cast(PathLike, source))))
    report = ProdigyReadReport(name)
    kept: Dict[str, Dict[str, Tuple[DependencyTree, bool]]] = {}
    for line_number, line in enumerate(_lines(source, name), start=1):
        if not line.strip():
            continue
        report.tasks += 1
        where = Location(name, report.tasks, line=line_number)
        try:
            task = json.loads(line)
        except ValueError as exc:
            raise InvalidTreeError(f"not a JSON line ({exc})", where) from None
        if not isinstance(task, dict):
            raise InvalidTreeError("not a JSON object (a Prodigy task)", where)
        annotator = _annotator(task, annotator_key, where)
        counts = report.annotators.setdefault(annotator, AnnotatorCounts())
        if task.get("answer") != "accept":
            attr = _SET_ASIDE.get(str(task.get("answer")), "other")
            setattr(counts, attr, getattr(counts, attr) + 1)
            continue
        key = _item(task, item_key, where)
        column = kept.setdefault(annotator, {})
        counts.accepted += 1
        counts.superseded += key in column
        column[key] = _tree(task, Location(name, report.tasks, line=line_number, sent_id=key), single_root)
    columns: Dict[str, List[DependencyTree]] = {}
    for annotator, column in kept.items():
        counts, columns[annotator] = report.annotators[annotator], [tree for tree, _ in column.values()]
        counts.implicit_roots = sum(implicit for _, implicit in column.values())
        counts.partial_trees = sum(bool(tree.unannotated) for tree in columns[annotator])
        counts.unannotated_tokens = sum(len(tree.unannotated) for tree in columns[annotator])
    return columns, report


def load_prodigy(source: Source, annotator_key: Optional[str] = None, single_root: bool = False,
                 cycles: str = "drop", *, name: Optional[str] = None, item_key: str = "_input_hash",
                 report: Optional[ProdigyReadReport] = None) -> Corpus:
    """The corpus of a Prodigy ``db-out`` file: one annotator per ``_annotator_id`` (else
    ``_session_id``, or ``annotator_key``) with an accepted task, in order of first
    appearance; items paired by ``_input_hash`` (:func:`read_prodigy`). ``report``, when
    given, is filled with what was read (:func:`prodigy_notes` says it in words);
    ``cycles="raise"`` makes head cycles errors, as in :func:`~.conllu.iter_conll`."""
    if cycles not in ("drop", "raise"):
        raise ValueError(f"cycles must be 'drop' or 'raise', not {cycles!r}")
    columns, read = read_prodigy(source, annotator_key, name, item_key=item_key, single_root=single_root)
    if report is not None:
        for f in fields(read):
            setattr(report, f.name, getattr(read, f.name))
    if cycles == "raise":
        for tree in (t for column in columns.values() for t in column):
            if tree.unreachable_tokens().size:
                raise tree.cycle_error()
    names = list(columns)
    if len(names) < 2:
        found = f"only one annotator ({names[0]})" if names else "no annotator"
        raise MismatchedCorpusError(f"{read.source}: {found} with accepted tasks: at least two are needed to "
                                    "measure agreement", option="annotator_key")
    items, item_names, how = match_columns(columns, read.source)
    read_stats = {n: ReadStats(sentences=read.annotators[n].trees, partial_trees=read.annotators[n].partial_trees,
                               unannotated_tokens=read.annotators[n].unannotated_tokens) for n in names}
    return Corpus(tuple(names), items, item_names, "dependency", read_stats,
                  matched_by=replace(how, notes=tuple(prodigy_notes(read))))


__all__ = ["ANNOTATOR_KEYS", "AnnotatorCounts", "IMPLICIT_ROOT_LABEL", "ProdigyReadReport",
           "is_prodigy_jsonl", "load_prodigy", "prodigy_notes", "read_prodigy"]
