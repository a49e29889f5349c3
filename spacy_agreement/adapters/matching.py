"""Annotations of one sentence paired by identity, not blindly by position: how the loaders
of one file per annotator (:func:`~spacy_agreement.adapters.files.load_parallel_files`) make
items.

The rule, in order:

1. **by ``sent_id``** when every sentence of every file has one (CoNLL-U ``# sent_id``): the
   items are the ids in their natural order (digits compared as numbers: ``s2`` before
   ``s10``), whatever order the files have them in, so that α is the same to the last bit;
   an id one annotator lacks is a missing annotation of that item; the same id
   twice in one file is an error naming both lines.
2. **by position** when the files have as many sentences each and no sentence is found at
   another position in another file: the usual parallel files, whose items may differ in
   their tokens (an annotator who re-tokenised; such items are counted and listed by the
   accuracies, ``items_mismatched``, as Skjærholt 2014 did), but not in their text: two
   annotations at one position whose words joined without whitespace differ are different
   sentences, an error naming the item (never a silent α).
3. **by text** otherwise (files reordered, or a sentence missing from some), when every
   sentence's words are known (not ``_``) and no text occurs twice in one file: the text is
   the words joined without whitespace, so a re-tokenised sentence still meets the others;
   a text some annotators lack is a missing annotation of that item.

Anything else (different sentence counts, reordered sentences whose texts repeat or are
unknown) is an error saying what is needed. Reordered files therefore give exactly the α of
ordered ones. :class:`ItemMatch` says which rule was used and lists the items some annotator
lacks; the corpus carries it and the outputs of ``alpha`` and ``report`` state it.
"""
from __future__ import annotations

import os
import re
from itertools import combinations
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ..errors import MismatchedCorpusError

MATCH_RULES = ("sent_id", "text", "position")


@dataclass(frozen=True)
class ItemMatch:
    """How the items were made: ``rule`` (``"sent_id"``, ``"text"`` or ``"position"``), the
    items some annotators lack (``"NAME: lacks A, B"``), in item order, and ``notes`` from the
    reader on what it set aside (a tool's pseudo-users, rejected Prodigy answers, files not read)."""

    rule: str = "position"
    missing: Tuple[str, ...] = field(default=())
    notes: Tuple[str, ...] = field(default=())

    def to_dict(self) -> Dict[str, Any]:
        return {"items_matched_by": self.rule, "items_missing_annotators": len(self.missing)}


def _words(tree: Any) -> Optional[Tuple[str, ...]]:
    """A tree's words (forms of a dependency tree, leaves of a phrase tree), ``None`` when
    they are not known."""
    words = getattr(tree, "forms", None)
    if words is None:
        words = getattr(tree, "words", None)
    if not words or all(w == "_" for w in words):
        return None
    return tuple(words)


def _text(tree: Any) -> Optional[str]:
    words = _words(tree)
    return None if words is None else "".join("".join(w.split()) for w in words)


def _where(tree: Any) -> str:
    return str(tree.location)


def match_items(columns: Sequence[Sequence[Optional[Any]]], names: Sequence[str],
                paths: Sequence[Any]) -> Tuple[List[Dict[str, Optional[Any]]], List[str], ItemMatch]:
    """Items (annotator → tree, ``None`` for a failed parse) from each annotator's sentences
    in file order, by the rule of the module docstring: the items, their names and the
    :class:`ItemMatch`."""
    trees = [t for column in columns for t in column if t is not None]
    if trees and all(getattr(t.location, "sent_id", None) for t in trees):
        return _by_key(columns, names, lambda t: str(t.location.sent_id), "sent_id")
    texts = [[None if t is None else _text(t) for t in column] for column in columns]
    same_length = len({len(column) for column in columns}) == 1
    known = all(x is not None for column, col_texts in zip(columns, texts)
                for t, x in zip(column, col_texts) if t is not None)
    unique = all(len({x for x in col if x is not None}) == sum(x is not None for x in col) for col in texts)
    if same_length and not (known and unique and _moved(texts)):
        return _by_position(columns, names)
    if trees and known and unique:
        return _by_key(columns, names, _text, "text")
    counts = ", ".join(f"{os.fspath(p)} has {len(c)}" for p, c in zip(paths, columns))
    raise MismatchedCorpusError(
        f"the files cannot be paired: {counts} sentences, without sent_ids, and their texts "
        + ("repeat within a file" if known else "are not known (no words)")
        + ": add # sent_id comments to pair them by id")


def _moved(texts: Sequence[Sequence[Optional[str]]]) -> bool:
    """Whether a sentence found at one position in one file is at another position in
    another (so that pairing by position would pair different sentences); a sentence whose
    text is found nowhere else is an annotator's changed sentence, paired by position."""
    where: Dict[str, set] = {}
    for column in texts:
        for k, text in enumerate(column):
            if text is not None:
                where.setdefault(text, set()).add(k)
    return any(len(positions) > 1 for positions in where.values())


def _by_key(columns: Sequence[Sequence[Optional[Any]]], names: Sequence[str], key_of: Any,
            rule: str) -> Tuple[List[Dict[str, Optional[Any]]], List[str], ItemMatch]:
    order: List[str] = []
    first_tree: Dict[str, Any] = {}
    by_key: Dict[str, Dict[str, Optional[Any]]] = {}
    for column, name in zip(columns, names):
        seen: Dict[str, Any] = {}
        for tree in column:
            if tree is None:
                continue
            key = key_of(tree)
            if key in seen:
                what = f"sent_id {key}" if rule == "sent_id" else "this sentence's text"
                raise MismatchedCorpusError(f"{what} is in the file twice (also {_where(seen[key])}): "
                                            "an annotator's sentences must be distinct", tree.location)
            seen[key] = tree
            if key not in by_key:
                by_key[key] = {}
                order.append(key)
                first_tree[key] = tree
            by_key[key][name] = tree
    if rule == "sent_id":  # one order whatever the files' order: the same α to the last bit
        order.sort(key=_natural)
    items = [by_key[k] for k in order]
    labels = [k if rule == "sent_id" else _item_label(first_tree[k]) for k in order]
    missing = tuple(f"{label}: lacks {', '.join(n for n in names if n not in item)}"
                    for label, item in zip(labels, items) if len(item) < len(names))
    return items, labels, ItemMatch(rule, missing)


def _natural(key: str) -> Tuple:
    """A sort key comparing the digits of ids as numbers (``s2`` before ``s10``)."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", key))


def _item_label(tree: Any) -> str:
    """An item matched by text is named after its first annotation's sentence."""
    location = tree.location
    words = _words(tree) or ()
    start = " ".join(words[:6]) + (" ..." if len(words) > 6 else "")
    return f"sentence {location.sentence}: {start}" if location.sentence is not None else start


def _by_position(columns: Sequence[Sequence[Optional[Any]]],
                 names: Sequence[str]) -> Tuple[List[Dict[str, Optional[Any]]], List[str], ItemMatch]:
    items = [{n: column[k] for n, column in zip(names, columns)} for k in range(len(columns[0]))]
    for k, item in enumerate(items):  # never a silent α over different sentences paired by position
        texts = {n: _text(t) for n, t in item.items() if t is not None}
        known = {n: x for n, x in texts.items() if x is not None}
        differ = [(p, q) for p, q in combinations(known, 2) if known[p] != known[q]]
        if differ:
            a, b = differ[0]
            where = next(t for t in item.values() if t is not None).location
            raise MismatchedCorpusError(
                f"sentence {k + 1}, paired by position, is another sentence for {b} ({_start(item[b])}) than for "
                f"{a} ({_start(item[a])}): files paired by position must hold the same sentences (another "
                "tokenisation of the same text is fine); add # sent_id comments to pair them by id", where)
    return items, [f"sentence {k + 1}" for k in range(len(items))], ItemMatch("position", ())


def _start(tree: Any, words: int = 5) -> str:
    shown = _words(tree) or ()
    return " ".join(shown[:words]) + (" ..." if len(shown) > words else "")


def present(item: Dict[str, Optional[Any]], stats: Dict[str, Any]) -> Dict[str, Any]:
    """The annotations of an item that are there. A failed parse (``None``: a blank line or a
    tree without words in a bracketed file, as EVALB reads them) is a missing annotation,
    counted in the annotator's :class:`~spacy_agreement.corpus.ReadStats`; a line that is
    blank in every file is not a sentence and gives an empty item, which the callers leave out."""
    kept = {n: t for n, t in item.items() if t is not None}
    if kept:
        for n, t in item.items():
            if t is None:
                stats[n].failed_parses += 1
    return kept


def match_columns(columns: Dict[str, Sequence[Optional[Any]]],
                  source: str) -> Tuple[List[Dict[str, Any]], List[str], ItemMatch]:
    """Items of one source holding every annotator's sentences (a multi-user file, a Prodigy
    export): ``columns`` by annotator, matched by :func:`match_items`, empty items left out."""
    names = list(columns)
    matched, labels, how = match_items([columns[n] for n in names], names, [f"{source} ({n})" for n in names])
    items, item_names = [], []
    for label, entry in zip(labels, matched):
        item = {n: t for n, t in entry.items() if t is not None}
        if item:
            items.append(item)
            item_names.append(label)
    return items, item_names, how


def match_documents(documents: Iterable[Tuple[str, Sequence[str], Callable[[str], Sequence[Optional[Any]]],
                                              Callable[[str], str]]],
                    annotators: Sequence[str], stats: Dict[str, Any],
                    notes: Sequence[str] = (), what: str = "document") -> Tuple[List[Dict[str, Any]], List[str],
                                                                                 ItemMatch]:
    """Items of several documents, each with the annotators who have it: ``(label, names,
    read(name) -> sentences, path(name) -> file name)`` per document, in order. Each document's
    sentences are paired by :func:`match_items`; items are named ``LABEL ITEM``; an item lacks
    every annotator of ``annotators`` without its annotation (those without the document's
    file too); the rule is the documents' one, or those used joined by ``+``. ``what`` names a
    document in errors."""
    items: List[Dict[str, Any]] = []
    item_names: List[str] = []
    rules: set = set()
    for label, names, read, path in documents:
        columns = [read(n) for n in names]
        paths = [path(n) for n in names]
        try:
            matched, labels, how = match_items(columns, names, paths)
        except MismatchedCorpusError as exc:
            lengths = ", ".join(f"{p}: {len(c)}" for p, c in zip(paths, columns))
            raise MismatchedCorpusError(f"{what} {label!r} ({lengths} sentences): {exc}") from None
        rules.add(how.rule)
        for item_label, entry in zip(labels, matched):
            item = present(entry, stats)
            if item:
                items.append(item)
                item_names.append(f"{label} {item_label}")
    missing = tuple(f"{name}: lacks {', '.join(n for n in annotators if n not in item)}"
                    for name, item in zip(item_names, items) if len(item) < len(annotators))
    rule = rules.pop() if len(rules) == 1 else "+".join(r for r in MATCH_RULES if r in rules) or "position"
    return items, item_names, ItemMatch(rule, missing, tuple(notes))


__all__ = ["ItemMatch", "MATCH_RULES", "match_columns", "match_documents", "match_items", "present"]
