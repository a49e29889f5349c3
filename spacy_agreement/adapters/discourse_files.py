"""Discourse documents (Mírovský, Mladová & Zikánová 2010) read from their JSON files.

A document is one JSON object::

    {"sentences": [{"tokens": [...], "heads": [...], "deprels": [...]}, ...],
     "annotators": {"anna": [{"start": [0, 2], "target": [1, 3], "connective": [[1, 1]], "type": "reason"}, ...],
                    "ben": [...]}}

``"conllu"`` may replace ``"sentences"``: the name of a CoNLL-U file beside the document,
read through the reader registry (:func:`~spacy_agreement.adapters.files.read_trees`).
:func:`read_discourse_file` gives the sentences as trees and each annotator's relations as
the JSON records they are (:class:`DiscourseFile`); the relations become
:class:`~spacy_agreement.evaluation.discourse.arrows.Relation`\\ s, checked against the sentences,
in :func:`spacy_agreement.evaluation.discourse.arrows.load_discourse`. A file that cannot be read as
such a document is a :class:`~spacy_agreement.errors.DiscourseError` naming the file (and
the sentence where there is one).
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Union, cast

from ..errors import DiscourseError, Location, not_utf8
from ..trees import DependencyTree
from .files import read_trees

PathLike = Union[str, "os.PathLike[str]"]


class DiscourseFile(NamedTuple):
    """A document as read: its sentences, each annotator's relation records (JSON values,
    unchecked, in the interchange format of :mod:`spacy_agreement.evaluation.discourse.json_format`)
    in the file's order, and the file's name; ``set_aside`` counts per annotator, by reason,
    the links of the file that could not become records, ``notes`` per annotator what the
    reader could not check (connectives on a layer whose file is missing, ...), ``text``
    the text the file annotates (the CDT name's ``NNNN-da``; the file's name otherwise)."""

    sentences: List[DependencyTree]
    annotators: Dict[str, Any]
    source: str
    set_aside: Optional[Dict[str, Dict[str, int]]] = None
    notes: Optional[Dict[str, Dict[str, int]]] = None
    text: Optional[str] = None


def json_list(value: Any, what: str, source: str, sentence: Optional[int] = None) -> Sequence[Any]:
    """``value`` when it is a JSON array (or a Python list or tuple), else a :class:`DiscourseError`
    naming ``what``."""
    if not isinstance(value, (list, tuple)):
        raise DiscourseError(f"{what} must be a JSON array, got {type(value).__name__} {value!r:.40}",
                             Location(source, sentence))
    return value


def _sentences_from_json(data: Dict[str, Any], name: str) -> List[DependencyTree]:
    sentences = []
    for k, sent in enumerate(json_list(data.get("sentences", []), '"sentences"', name)):
        if not isinstance(sent, dict):
            raise DiscourseError(f"a sentence must be a JSON object, got {type(sent).__name__} {sent!r:.40}",
                                 Location(name, k + 1))
        heads = sent.get("heads")
        if heads is None:
            raise DiscourseError(f"sentence {k} has no heads", Location(name, k + 1))
        heads = json_list(heads, "heads", name, k + 1)
        tokens = sent.get("tokens")
        tokens = None if tokens is None else json_list(tokens, "tokens", name, k + 1)
        deprels = json_list(sent.get("deprels") or ["_"] * len(heads), "deprels", name, k + 1)
        sentences.append(DependencyTree.create(heads, deprels, tokens, location=Location(name, k + 1)))
    return sentences


def read_discourse_file(path: PathLike) -> DiscourseFile:
    """A document from its JSON file (module docstring)."""
    name = os.fspath(path)
    with open(path, encoding="utf-8") as handle:
        try:
            data = json.load(handle)
        except UnicodeDecodeError as exc:  # the file named, and the line of the bad byte
            raise not_utf8(path, exc) from None
        except json.JSONDecodeError as exc:
            raise DiscourseError(f"not JSON: {exc.msg} (line {exc.lineno})", Location(name)) from None
        except (ValueError, RecursionError) as exc:  # a number of over 4300 digits, arrays nested too deep
            raise DiscourseError(f"not JSON that can be read: {exc}", Location(name)) from None
    if not isinstance(data, dict):
        raise DiscourseError(f"the document must be a JSON object, got {type(data).__name__}", Location(name))
    if "conllu" in data:
        reference = data["conllu"]
        if not isinstance(reference, str) or not reference or "\0" in reference:
            raise DiscourseError(f'"conllu" must name a CoNLL-U file, got {reference!r:.40}', Location(name))
        try:
            sentences = cast(List[DependencyTree], read_trees(os.path.join(os.path.dirname(name), reference), "conll"))
        except OSError as exc:  # not there, a folder, a name too long, ...: the document's error
            raise DiscourseError(f'"conllu" names {reference!r:.60}, which cannot be read: '
                                 f'{exc.strerror or exc}', Location(name)) from None
    else:
        sentences = _sentences_from_json(data, name)
    annotators = data.get("annotators") or {}
    if not isinstance(annotators, dict):
        raise DiscourseError(f'"annotators" must be a JSON object, got {type(annotators).__name__}', Location(name))
    return DiscourseFile(sentences, annotators, name)


__all__ = ["DiscourseFile", "json_list", "read_discourse_file"]
