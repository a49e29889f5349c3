"""Discourse arcs of the Copenhagen Dependency Treebank's DTAG files (``NNNN-da-disc-ANNOTATOR.tag``).

A DTAG ``.tag`` file is read line by line, as DTAG reads it: every line is a position of
the graph, a ``<W ...>word</W>`` line a word and any other line (``<s>``, ``</s>``, the TEI
header) a position that is no word. A word's ``in="OFFSET:LABEL|..."`` lists the arcs from
its governors, ``out=`` the arcs to its dependents, the offset relative to the line and free
to cross sentences; each arc is written on both of its words, and, as DTAG does, it is taken
from the later of the two (``in`` with an offset ≤ 0, ``out`` with an offset < 0). Labels are
XML-quoted with DTAG's own entities (``&3a;`` for ``:``, ``&7c;`` for ``|``, ``&22;``,
``&amp;``, ``&lt;``, ``&gt;``).

Sentences are the words between ``<s>`` and ``</s>`` (a file without them is one sentence);
a node is (sentence index from 0, word number from 1). The trees are the syntactic arcs of
the file: a word's head is its first primary arc (not bracketed ``[...]``, lower-case label)
from a word of the same sentence, the root (0) when there is none.

**Discourse arcs** are those whose relation name starts with a capital letter (CDT writes
relations in capitals, syntax in lower case). What CDT's label packs (Buch-Kromann & Korzen
2010 and the files themselves) becomes a record of the interchange format
(:mod:`spacy_agreement.evaluation.discourse.json_format`):

* ``[LABEL]``: a secondary arc (``secondary``); leading ``+``, ``:``, ``;``, ``@``, ``¤``, ``^``
  are kept in ``marks``, as is a trailing ``*``;
* ``TYPE/CONNECTIVE/ATTR...``: the relation type (``CONJ:elab``; alternatives ``A|B`` and
  ``A&B`` stay one type), then the connective, named by its words (``og``: an explicit
  connective known by its text, for the label does not give its position) or in parentheses
  when the annotator inserted it (``(fordi)``: ``implicit``); ``ATTR``, ``ATTR1``... (attribution)
  go to ``marks``, as do further ``/`` parts;
* the arc's dependent is the arrow's **start**, its governor the **target** (a CDT discourse
  dependent attaches to an earlier unit, as a PDT arrow starts at the later one).

An arc to a line that is not a word is counted as set aside (``endpoint is not a word``);
an arc that cannot be parsed, or points outside the file, is a
:class:`~spacy_agreement.errors.DiscourseError` naming the file and line.
"""
from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional, Tuple, Union

from ..errors import DiscourseError, Location, not_utf8
from ..trees import DependencyTree
from .discourse_files import DiscourseFile

PathLike = Union[str, "os.PathLike[str]"]

_WORD = re.compile(r"^\s*<W(.*)>(.*)</W>\s*$")
_ATTRIBUTE = re.compile(r'([A-Za-z_][\w.-]*)="([^"]*)"')
_ARC = re.compile(r"^([+-]?[0-9]+):(\S+)$")
_CDT_NAME = re.compile(r"^(?P<text>.+)-disc-(?P<annotator>[^.]+)\.tag$")
_ATTR = re.compile(r"^ATTR[0-9]*\*?$")
_DECORATION = "+:;@¤^¹²³"


def xml_unquote(text: str) -> str:
    """DTAG's ``xml_unquote``."""
    for quoted, plain in (("&lt;", "<"), ("&gt;", ">"), ("&22;", '"'), ("&7c;", "|"), ("&3a;", ":"), ("&amp;", "&")):
        text = text.replace(quoted, plain)
    return text


def cdt_name(path: PathLike) -> Tuple[str, str]:
    """``(text, annotator)`` of a CDT name (``0235-da-disc-iorn.tag``: ``("0235-da", "iorn")``),
    else the file's stem twice."""
    base = os.path.basename(os.fspath(path))
    match = _CDT_NAME.match(base)
    if match:
        return match.group("text"), match.group("annotator")
    stem = os.path.splitext(base)[0]
    return stem, stem


def is_discourse_label(label: str) -> bool:
    """A relation name starting with a capital letter (module docstring)."""
    core = label.strip("[]").lstrip(_DECORATION)
    return core[:1].isalpha() and core[:1].isupper()


def parse_label(label: str) -> Dict[str, Any]:
    """The record fields a discourse label packs (module docstring): ``type``,
    ``connective_text``, ``implicit``, ``secondary``, ``marks``."""
    marks: List[str] = []
    secondary = label.startswith("[") and label.endswith("]")
    core = label[1:-1] if secondary else label
    while core[:1] and core[0] in _DECORATION:
        marks.append(core[0])
        core = core[1:]
    parts = core.split("/")
    kind = parts[0]
    if kind.endswith("*"):
        kind, marks = kind[:-1], marks + ["*"]
    connective: Optional[str] = None
    implicit = False
    for part in parts[1:]:
        if _ATTR.match(part) or connective is not None or not part:
            marks.append(part)
        elif part.startswith("(") and part.endswith(")"):
            connective, implicit = part[1:-1], True
        else:
            connective = part.rstrip("*")
    return {"type": kind, "connective_text": connective or None, "implicit": implicit and bool(connective),
            "secondary": secondary, "marks": [m for m in marks if m]}


def _sentences(lines: List[str], name: str) -> Tuple[Dict[int, Tuple[int, int]], List[List[int]], List[Dict[str, str]]]:
    """Map of word lines to nodes, the word lines of each sentence and each line's attributes."""
    nodes: Dict[int, Tuple[int, int]] = {}
    sentences: List[List[int]] = []
    attributes: List[Dict[str, str]] = [{} for _ in lines]
    current: List[int] = []
    for i, line in enumerate(lines):
        match = _WORD.match(line)
        if match is None:
            stripped = line.strip().lower()
            if stripped.startswith("<s") or stripped.startswith("</s"):
                if current:
                    sentences.append(current)
                current = []
            continue
        attributes[i] = dict(_ATTRIBUTE.findall(match.group(1)))
        attributes[i][""] = match.group(2)
        current.append(i)
    if current:
        sentences.append(current)
    for k, sentence in enumerate(sentences):
        for t, i in enumerate(sentence):
            nodes[i] = (k, t + 1)
    return nodes, sentences, attributes


def _arcs(lines: List[str], attributes: List[Dict[str, str]], name: str):
    """Every arc once: ``(line of the dependent, line of the governor, label, line read)``."""
    for i, attrs in enumerate(attributes):
        for var in ("in", "out"):
            for entry in filter(None, attrs.get(var, "").split("|")):
                match = _ARC.match(entry)
                if match is None:
                    raise DiscourseError(f'word {xml_unquote(attrs[""])!r}: {var}= holds {entry!r:.60}, which is not '
                                         "OFFSET:LABEL", Location(name, line=i + 1))
                other = i + int(match.group(1))
                if not 0 <= other < len(lines):
                    raise DiscourseError(f'word {xml_unquote(attrs[""])!r}: the arc {entry!r:.60} points to line '
                                         f"{other + 1}, outside the file (lines 1..{len(lines)})",
                                         Location(name, line=i + 1))
                label = xml_unquote(match.group(2))
                if var == "in" and other <= i:
                    yield i, other, label, i
                elif var == "out" and other < i:
                    yield other, i, label, i


def read_dtag_discourse(path: PathLike, annotator: Optional[str] = None) -> DiscourseFile:
    """The words, trees and discourse arcs of one annotator's DTAG file (module docstring);
    ``annotator`` defaults to the CDT name's (:func:`cdt_name`)."""
    name = os.fspath(path)
    text, default = cdt_name(name)
    annotator = annotator or default
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError as exc:
        raise not_utf8(path, exc) from None
    nodes, sentences, attributes = _sentences(lines, name)
    heads = [[0] * len(s) for s in sentences]
    records: List[Dict[str, Any]] = []
    set_aside: Dict[str, int] = {}
    for dependent, governor, label, line in _arcs(lines, attributes, name):
        if is_discourse_label(label):
            if dependent not in nodes or governor not in nodes:
                set_aside["endpoint is not a word"] = set_aside.get("endpoint is not a word", 0) + 1
                continue
            record = {"start": list(nodes[dependent]), "target": list(nodes[governor]), "connective": [],
                      "where": f"{name}:{line + 1}", **parse_label(label)}
            records.append(record)
        elif not label.startswith("[") and label[:1].islower() and dependent in nodes and governor in nodes:
            (k, t), (k2, h) = nodes[dependent], nodes[governor]
            if k == k2 and not heads[k][t - 1] and t != h:
                heads[k][t - 1] = h
    trees = []
    for k, sentence in enumerate(sentences):
        forms = [xml_unquote(attributes[i][""]) for i in sentence]
        trees.append(DependencyTree.create(heads[k], ["_"] * len(sentence), forms,
                                           location=Location(name, k + 1, line=sentence[0] + 1)))
    return DiscourseFile(trees, {annotator: records}, name, {annotator: set_aside}, {annotator: {}}, text)


def sniff_dtag(path: PathLike) -> bool:
    """A ``.tag`` file."""
    return os.fspath(path).endswith(".tag")


__all__ = ["cdt_name", "is_discourse_label", "parse_label", "read_dtag_discourse", "sniff_dtag", "xml_unquote"]
