"""Perseus / Arethusa treebank XML (the AGLDT format of the Ancient Greek and Latin Dependency
Treebanks, ``PerseusDL/treebank_data``, and of every project annotating with Arethusa) as
dependency trees (:class:`~spacy_agreement.trees.DependencyTree`): the ``perseus`` reader.

A file is ``<treebank ...>`` holding ``<sentence id=".." document_id=".." subdoc="..">``
elements of ``<word id=".." form=".." lemma=".." postag=".." relation=".." head=".." .../>``;
anything else in it (``<date>``, ``<comment>``, ``<annotator>``) is set aside. It is read with
the standard library's ``xml.etree.ElementTree.iterparse``, one sentence at a time. What is read:

* **Columns.** ``form`` is FORM, ``lemma`` LEMMA, ``postag`` XPOS (the 9-character AGDT tag),
  ``relation`` DEPREL, ``head`` HEAD; UPOS and FEATS are ``_``. An attribute that is absent is
  ``_`` (no value); a ``lemma`` or ``postag`` written empty (``postag=""``, as on punctuation) is
  kept empty, a value of its own, as the AGDT inter-coder agreement reports count it (an empty
  ``form`` is ``_``). Every other attribute of a word (``cite``, ``insertion_id``, ``artificial``,
  ``sg``, ``gloss``, ``ref``, ...) is kept in MISC as ``key=value``, in the order written, an
  empty one as ``key=`` (``misc.sg`` then compares the empty Smyth-grammar tag as a value, as the
  reports do; ``|`` in a value is written ``¦``).
* **Sentence ids.** The sentence's ``id``, after its ``cite`` (else ``document_id:subdoc``, the
  non-empty parts, as Arethusa cites a sentence) and ``/`` where there is one: ``1/2`` is
  sentence 2 of subdoc 1. It is the tree's ``sent_id`` (:attr:`Location.sent_id`), so that two
  annotators' files are paired by id (:mod:`~spacy_agreement.adapters.matching`), in any order.
* **Words** keep their ``id`` as written (:attr:`DependencyTree.ids`; ids may skip numbers where
  punctuation was left out of an annotator's file) and a ``head`` names a word by its id.
* **Elliptic (artificial) words** (``artificial="elliptic"``, ``insertion_id="0023e"``, a form
  copied from the elided word or ``[0]``, often no lemma or postag) are words of the tree, as in
  the treebank: they carry relations and dependents. Arethusa writes them after the sentence's
  other words, with ``id`` the next free number, and shows them where ``insertion_id`` says:
  after word 23 (``0000e``: before the first word), several there in the order of the letters
  (``0023e``, ``0023f``). They are placed there (an ``insertion_id`` naming no word of the
  sentence leaves the word where it is written); MISC keeps ``artificial`` and ``insertion_id``.
  Two annotators who inserted different elliptic words have different tokens: their sentence is
  compared by α (tree edit distance copes) and set aside, counted, by the per-token figures.
* **Unannotated words.** A ``relation`` that is absent, empty, ``nil`` (Arethusa's empty label)
  or ``_`` is DEPREL ``_``, a relation not annotated yet (the head stays), a ``head`` absent or
  empty is HEAD ``_``, a word not annotated yet: the one rule for partial annotations
  (:meth:`DependencyTree.create <spacy_agreement.trees.DependencyTree.create>` with
  ``partial=True``), counted in :class:`~spacy_agreement.corpus.ReadStats`.
* **A head that is no word of the sentence** (a number that no word has, as when punctuation or
  elliptic words were removed from an annotator's copy) cannot be an edge of the tree: the word is
  *not annotated* in the tree (:attr:`DependencyTree.unannotated`), so α takes the tree by the
  partial-tree rule (``--partial missing``: a missing annotation, counted and listed under
  ``trees_partial``; ``attach``: the word on the root, a disagreement); but its relation is kept
  and its head is kept as written in MISC, ``head=19``, and the per-word comparison (``layers``:
  ``head``, ``deprel``) compares them as written (:mod:`~spacy_agreement.agreement.layer_values`).

Errors name the file, the sentence (its number and id) and the word id
(:class:`~spacy_agreement.errors.InvalidTreeError`): a file that is not well-formed XML (with the
line and column the parser stopped at), a word without an ``id`` or with an id that is not a
number, an id twice in a sentence, a ``head`` that is not a number, a sentence without words.
With ``cycles="raise"`` a head cycle is an error too, as for CoNLL files.
"""
from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Tuple, Union

from ..corpus import ReadStats, Tree
from ..errors import InvalidTreeError, Location
from ..trees import DependencyTree
from .files import PERSEUS_SUFFIXES

if TYPE_CHECKING:  # the parser is imported by the reader: guessing a file's format only sniffs its start
    import xml.etree.ElementTree as ET

PathLike = Union[str, "os.PathLike[str]"]

#: The word attributes read into columns; every other one goes to MISC.
COLUMNS = ("id", "form", "lemma", "postag", "relation", "head")
#: Relations that mean "no relation yet" (Arethusa writes ``nil`` or nothing).
NO_RELATION = ("", "nil", "_")
#: The MISC key of a head kept as written where it is not an edge of the tree.
WRITTEN_HEAD = "head"
_INSERTION = re.compile(r"^(?:.*-)?0*(\d+)([^\d]*)$")  # "0023e", "3-0023e" (with the sentence id)
_SNIFF_BYTES = 65536


def sniff_perseus(path: PathLike) -> bool:
    """Whether the file's first element is ``<treebank``, after a byte-order mark, white space,
    an XML declaration, comments and a document type declaration."""
    try:
        with open(path, "rb") as handle:
            text = handle.read(_SNIFF_BYTES)
    except OSError:
        return False
    if text.startswith(b"\xef\xbb\xbf"):
        text = text[3:]
    while True:
        text = text.lstrip()
        for start, end in ((b"<?", b"?>"), (b"<!--", b"-->"), (b"<!DOCTYPE", b">")):
            if text.startswith(start):
                close = text.find(end, len(start))
                if close < 0:
                    return False
                text = text[close + len(end):]
                break
        else:
            return text.startswith(b"<treebank") and text[9:10] in (b"", b">", b"/", b" ", b"\t", b"\r", b"\n")


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def sentence_id(attributes: Dict[str, str]) -> Optional[str]:
    """The sent_id of a ``<sentence>`` (module docstring): ``cite``, else ``document_id:subdoc``
    (their non-empty parts), then ``/`` and the ``id``; ``None`` without an ``id``."""
    own = attributes.get("id", "").strip()
    if not own:
        return None
    cite = attributes.get("cite", "").strip()
    if not cite:
        cite = ":".join(p for p in (attributes.get("document_id", "").strip(), attributes.get("subdoc", "").strip()) if p)
    return f"{cite}/{own}" if cite else own


def _number(text: str) -> Optional[int]:
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def _order(words: List[Dict[str, str]], ids: List[int]) -> List[int]:
    """The indices of ``words`` in sentence order: as written, each elliptic word with an
    ``insertion_id`` naming a word of the sentence (or ``0``) moved after it (module docstring)."""
    inserted: Dict[int, Tuple[int, str]] = {}  # index -> (target id, letters)
    for k, word in enumerate(words):
        found = _INSERTION.match(word.get("insertion_id", "").strip()) if word.get("artificial") else None
        if found:
            inserted[k] = (int(found.group(1)), found.group(2))
    rank = {ids[k]: r for r, k in enumerate(k for k in range(len(words)) if k not in inserted)}
    keys: List[Tuple[int, int, str, int]] = []
    last = -1  # the rank of the last word written before, for a word that stays where it is
    for k in range(len(words)):
        target = inserted.get(k)
        if target is not None and (target[0] == 0 or target[0] in rank):
            keys.append((rank.get(target[0], -1), 1, target[1], k))
        elif k in inserted:
            keys.append((last, 2, "", k))
        else:
            last = rank[ids[k]]
            keys.append((last, 0, "", k))
    return [key[3] for key in sorted(keys)]


def _misc(word: Dict[str, str], written_head: Optional[str]) -> str:
    parts = [f"{WRITTEN_HEAD}={written_head}"] if written_head is not None else []
    parts += [f"{key}={value.replace('|', '¦')}" for key, value in word.items() if key not in COLUMNS]
    return "|".join(parts) or "_"


def _sentence_tree(words: List[Dict[str, str]], where: Location, single_root: bool) -> DependencyTree:
    """One ``<sentence>``'s words (their attributes, local names) as a tree (module docstring)."""
    if not words:
        raise InvalidTreeError("sentence without words", where)
    ids: List[int] = []
    for k, word in enumerate(words, start=1):
        if "id" not in word or not word["id"].strip():
            raise InvalidTreeError(f"word {k} of the sentence has no id", where)
        wid = _number(word["id"])
        if wid is None:
            raise InvalidTreeError(f"word id {word['id']!r} is not a number", where.at_token(word["id"]))
        if wid in ids:
            raise InvalidTreeError(f"word id {wid} is in the sentence twice", where.at_token(word["id"]))
        ids.append(wid)
    order = _order(words, ids)
    words = [words[k] for k in order]
    ids = [ids[k] for k in order]
    position = {wid: k for k, wid in enumerate(ids, start=1)}
    heads: List[Optional[int]] = []
    deprels: List[str] = []
    written: List[Optional[str]] = []  # the head as written where it cannot be an edge
    for k, word in enumerate(words):
        relation = word.get("relation", "").strip()
        deprels.append("_" if relation in NO_RELATION else relation)
        text = word.get("head", "").strip()
        number = _number(text) if text else None
        if text and number is None:
            raise InvalidTreeError(f"head {text!r} is not a word id (a number)", where.at_token(ids[k]))
        heads.append(None if number is None else 0 if number == 0 else position.get(number))
        written.append(None if number is None else str(number))
    # kept as written: a head that is no word of the sentence (no edge of the tree)
    keep = [w is not None and h is None for h, w in zip(heads, written)]
    miscs = [_misc(word, w if kept else None) for word, w, kept in zip(words, written, keep)]
    outside = {k: d for k, (h, d, w) in enumerate(zip(heads, deprels, written)) if h is None and w and d != "_"}
    tree = DependencyTree.create(
        heads=heads, deprels=deprels,
        forms=[word.get("form") or "_" for word in words],
        upos=None, ids=ids, location=where, single_root=single_root,
        lemmas=[word.get("lemma", "_") for word in words],
        xpos=[word.get("postag", "_") for word in words],
        misc=miscs, partial=True)
    if outside:  # their relations stay (the per-word comparison compares them)
        kept = list(tree.deprels)
        for k, deprel in outside.items():
            kept[k] = deprel
        tree = replace(tree, deprels=tuple(kept))
    return tree


def _not_xml(source: str, exc: ET.ParseError, sentence: Optional[int], sent_id: Optional[str]) -> InvalidTreeError:
    """The error of a file the XML parser stopped in: the file, the line, and the sentence it was in."""
    line, column = getattr(exc, "position", (None, None))
    where = Location(source, sentence, None, line, sent_id if sentence else None)
    what = str(exc).split(": line ")[0]
    return InvalidTreeError(f"not well-formed XML: {what} (line {line}, column {(column or 0) + 1})", where)


def iter_perseus(path: PathLike, single_root: bool = False, stats: Optional[ReadStats] = None,
                 cycles: str = "drop") -> Iterator[DependencyTree]:
    """Stream the trees of a Perseus / Arethusa treebank XML file, one per ``<sentence>`` in file
    order (module docstring). ``single_root`` and ``cycles`` as in
    :func:`~spacy_agreement.adapters.conllu.iter_conll`; ``stats`` counts sentences and partial trees."""
    import xml.etree.ElementTree as ET

    if cycles not in ("drop", "raise"):
        raise ValueError(f"cycles must be 'drop' or 'raise', not {cycles!r}")
    source = os.fspath(path)
    number, sent_id, inside = 0, None, False
    words: List[Dict[str, str]] = []
    seen_root = False
    try:
        for event, element in ET.iterparse(source, events=("start", "end")):
            tag = _local(element.tag)
            if event == "start":
                if not seen_root:
                    seen_root = True
                    if tag != "treebank":
                        raise InvalidTreeError(f"not a treebank file: the root element is <{tag}>, not <treebank>",
                                               Location(source))
                if tag == "sentence":
                    number += 1
                    sent_id = sentence_id({_local(k): v for k, v in element.attrib.items()})
                    words, inside = [], True
                continue
            if tag == "word":
                words.append({_local(k): v for k, v in element.attrib.items()})
            elif tag == "sentence":
                element.clear()
                inside = False
                tree = _sentence_tree(words, Location(source, number, None, None, sent_id), single_root)
                if stats is not None:
                    stats.sentences += 1
                    stats.count_partial(tree)
                if cycles == "raise" and tree.unreachable_tokens().size:
                    raise tree.cycle_error()
                yield tree
            elif tag == "treebank":
                element.clear()
    except ET.ParseError as exc:
        raise _not_xml(source, exc, number if inside else None, sent_id) from None


def read_perseus(path: PathLike, *, single_root: bool = False, stats: Optional[ReadStats] = None,
                 cycles: str = "drop", **_: Any) -> List[Optional[Tree]]:
    """The ``perseus`` reader of the registry: every tree of the file, in order
    (:func:`iter_perseus`); options it does not know are ignored."""
    return list(iter_perseus(path, single_root=single_root, stats=stats, cycles=cycles))


# the ``perseus`` input format (``--format perseus``; guessed from ``<treebank`` at the start), registered by
# adapters/files.py


__all__ = ["COLUMNS", "NO_RELATION", "PERSEUS_SUFFIXES", "WRITTEN_HEAD", "iter_perseus", "read_perseus",
           "sentence_id", "sniff_perseus"]
