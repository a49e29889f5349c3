"""Relations from the records of the discourse interchange format (JSON objects), which every
discourse reader gives (:mod:`spacy_agreement.adapters.discourse_files` for JSON files,
:mod:`~spacy_agreement.adapters.dtag_discourse`, :mod:`~spacy_agreement.adapters.pml_discourse`).

A record::

    {"start": [1, 3], "target": [0, 2], "connective": [[1, 1]], "type": "opposition"}

with, all optional: ``"target": null`` (an arrow without target) and ``"target_ref"`` (the
target's reference when it is in another document); ``"connective"`` items that are nodes
``[sentence, token]`` or strings (ids of another layer's nodes, PML a-node ids);
``"connective_text"`` (the connective's words, all there is of it when ``"connective"`` is
empty) and ``"implicit": true`` (inserted by the annotator); ``"link"``: ``"discourse"``
(default) or ``"list"``; ``"negated"``, ``"secondary"`` (booleans); ``"start_range"`` /
``"target_range"`` ``[first, last]`` sentence indices (the end covers those whole trees) or
``"start_group"`` / ``"target_group"`` (a list of nodes); ``"marks"`` (strings no measure
reads) and ``"where"`` (where the link is in its file, for messages). A
:class:`~.discourse_model.Relation` passes as it is.
"""
from __future__ import annotations

from typing import Any, FrozenSet, Hashable, List, Mapping, Optional, Sequence

from ...adapters.discourse_files import json_list as _json_list
from ...errors import DiscourseError, Location
from .model import Extent, Node, Relation


def _node(value: Any, annotator: str, index: int, role: str, source: str) -> Node:
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise DiscourseError(f"annotator {annotator!r}, relation {index + 1}: {role} must be [sentence, token], "
                             f"got {value!r}", Location(source))
    return int(value[0]), int(value[1])


def _extent(rec: Mapping[str, Any], role: str, annotator: str, index: int, source: str) -> Extent:
    where = f"annotator {annotator!r}, relation {index + 1}: "
    span, group = rec.get(f"{role}_range"), rec.get(f"{role}_group")
    if span is not None and group is not None:
        raise DiscourseError(f"{where}{role} has both a range and a group", Location(source))
    if span is not None:
        if not (isinstance(span, (list, tuple)) and len(span) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in span) and span[0] <= span[1]):
            raise DiscourseError(f"{where}{role}_range must be [first, last] sentence indices, got {span!r:.40}",
                                 Location(source))
        return ("range", int(span[0]), int(span[1]))
    if group is not None:
        members = _json_list(group, f"{where}{role}_group", source)
        return ("group", frozenset(_node(m, annotator, index, f"{role}_group member", source) for m in members))
    return None


def _flag(rec: Mapping[str, Any], key: str, annotator: str, index: int, source: str) -> bool:
    value = rec.get(key, False)
    if not isinstance(value, bool):
        raise DiscourseError(f"annotator {annotator!r}, relation {index + 1}: {key} must be true or false, "
                             f"got {value!r:.40}", Location(source))
    return value


def _text(rec: Mapping[str, Any], key: str, annotator: str, index: int, source: str) -> Optional[str]:
    value = rec.get(key)
    if value is not None and not isinstance(value, str):
        raise DiscourseError(f"annotator {annotator!r}, relation {index + 1}: {key} must be a string, "
                             f"got {value!r:.40}", Location(source))
    return value


def relations_from_json(records: Sequence[Any], annotator: str, source: str = "<json>") -> List[Relation]:
    """Relations from interchange records (module docstring; shapes checked here, that the
    nodes exist by :meth:`~.discourse_model.DiscourseDocument.add`)."""
    out = []
    for index, rec in enumerate(_json_list(records, f"the relations of annotator {annotator!r}", source)):
        if isinstance(rec, Relation):
            out.append(rec)
            continue
        if not isinstance(rec, Mapping):
            raise DiscourseError(f"annotator {annotator!r}, relation {index + 1} must be a JSON object, got "
                                 f"{type(rec).__name__} {rec!r:.40}", Location(source))
        start = _node(rec.get("start"), annotator, index, "start", source)
        target = None if rec.get("target") is None else _node(rec.get("target"), annotator, index, "target", source)
        connective = _json_list(rec.get("connective") or [], f"annotator {annotator!r}, relation {index + 1}: "
                                "connective", source)
        tokens: FrozenSet[Hashable] = frozenset(
            c if isinstance(c, str) else _node(c, annotator, index, "connective", source) for c in connective)
        link = rec.get("link", "discourse")
        if link not in ("discourse", "list"):
            raise DiscourseError(f"annotator {annotator!r}, relation {index + 1}: link must be \"discourse\" or "
                                 f"\"list\", got {link!r:.40}", Location(source))
        marks = _json_list(rec.get("marks") or [], f"annotator {annotator!r}, relation {index + 1}: marks", source)
        out.append(Relation(
            start, target, tokens, str(rec.get("type") or ""),
            connective_text=_text(rec, "connective_text", annotator, index, source) or None,
            implicit=_flag(rec, "implicit", annotator, index, source), link=link,
            negated=_flag(rec, "negated", annotator, index, source),
            start_extent=_extent(rec, "start", annotator, index, source),
            target_extent=_extent(rec, "target", annotator, index, source),
            target_ref=_text(rec, "target_ref", annotator, index, source),
            secondary=_flag(rec, "secondary", annotator, index, source),
            marks=tuple(str(m) for m in marks), where=_text(rec, "where", annotator, index, source) or ""))
    return out


__all__ = ["relations_from_json"]
