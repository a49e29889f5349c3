"""Annotations of one sentence paired by identity, not blindly by position: how the loaders
of one file per annotator (:func:`~spacy_agreement.adapters.files.load_parallel_files`) make
items.

The rule, in order:

1. **by ``sent_id``** when every sentence of every file has one (CoNLL-U ``# sent_id``): the
   items are the ids in their natural order (digits compared as numbers: ``s2`` before
   ``s10``), whatever order the files have them in, so that α is the same to the last bit;
   an id one annotator lacks is a missing annotation of that item; the same id
   twice in one file is an error naming both lines.
2. **by position** when the files have as many sentences each and the sentences at each
   position are one text (below): the usual parallel files, whose items may differ in
   their tokens (an annotator who re-tokenised; such items are counted and listed by the
   accuracies, ``items_mismatched``, as Skjærholt 2014 did) and even in their text, when
   an annotator edited or segmented the text otherwise: one more token at an edge, a
   word dropped or changed, a sentence boundary moved. Such an item is the same item seen through another segmentation: α
   takes its analyses as they are, as the paper's Table 2 does for the Spanish and
   Italian CDT texts, the accuracies leave it out (its tokens differ) and
   :attr:`ItemMatch.resegmented` lists it with the difference. Two texts at one position
   that are clearly other sentences are an error naming both (never a silent α).

   Where the line is: walking the positions, the annotators' words over a stretch of
   positions are compared; the stretch closes where they are the same text (words joined
   without whitespace), or one text with (a) at most :data:`FEW_TOKENS` tokens inserted,
   deleted or replaced anywhere, fewer than those kept, or (b) at most :data:`SMALL_SHARE` of both texts'
   characters different, that ends in the same token (both annotators ended a sentence
   there). A stretch of one position is an annotator's edit of that sentence; a longer one
   is a moved sentence boundary (an annotator split one sentence and joined two later
   ones, keeping the count: Skjærholt's released code, whose results the paper prints,
   pairs such sentences by position too). A stretch still open at the end of the files
   is other sentences: a sentence missing from one file shifts every later position and
   the annotators never end a sentence at the same place again; then the files are
   refused (or, when their texts are distinct, matched by text, rule 3).
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

import difflib
import os
import re
from collections import Counter
from itertools import combinations
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ..errors import MismatchedCorpusError
from ..trees import sent_id_of

MATCH_RULES = ("sent_id", "text", "position")

#: Texts at one position differing in at most this many tokens are one item (rule (a) above).
FEW_TOKENS = 3
#: ... or in at most this share of their characters (rule (b)): 2·matched / (|a| + |b|) ≥ 0.9.
SMALL_SHARE = 0.1


@dataclass(frozen=True)
class ItemMatch:
    """How the items were made: ``rule`` (``"sent_id"``, ``"text"`` or ``"position"``), the
    items some annotators lack (``"NAME: lacks A, B"``), in item order, and ``notes`` from the
    reader on what it set aside (a tool's pseudo-users, rejected Prodigy answers, files not read)."""

    rule: str = "position"
    missing: Tuple[str, ...] = field(default=())
    notes: Tuple[str, ...] = field(default=())
    #: Items paired by position whose annotators segmented the text otherwise (``"LABEL:
    #: difference"``): in α as they are, left out of the accuracies.
    resegmented: Tuple[str, ...] = field(default=())

    def to_dict(self) -> Dict[str, Any]:
        return {"items_matched_by": self.rule, "items_missing_annotators": len(self.missing),
                "items_resegmented": len(self.resegmented)}


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
    ids = [[sent_id_of(t) for t in column if t is not None] for column in columns]
    if trees and all(all(column) for column in ids):
        return _by_key(columns, names, None, "sent_id", [list(map(str, column)) for column in ids])
    texts = [[None if t is None else _text(t) for t in column] for column in columns]
    same_length = len({len(column) for column in columns}) == 1
    known = all(x is not None for column, col_texts in zip(columns, texts)
                for t, x in zip(column, col_texts) if t is not None)
    unique = all(len({x for x in col if x is not None}) == sum(x is not None for x in col) for col in texts)
    if same_length:
        try:
            return _noted(_by_position(columns, names), columns, names, "position")
        except MismatchedCorpusError:
            if not (trees and known and unique and _moved(texts)):
                raise  # not reordered files either: the sentences differ
    if trees and known and unique:
        return _noted(_by_key(columns, names, _text, "text"), columns, names, "text")
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
            rule: str, column_keys: Optional[Sequence[List[str]]] = None
            ) -> Tuple[List[Dict[str, Optional[Any]]], List[str], ItemMatch]:
    """Items by each tree's key: ``key_of(tree)``, or ``column_keys`` (per column, the keys of its
    trees in order, ``None`` left out) where they are known."""
    order: List[str] = []
    first_tree: Dict[str, Any] = {}
    by_key: Dict[str, Dict[str, Optional[Any]]] = {}
    for k, (column, name) in enumerate(zip(columns, names)):
        trees = [tree for tree in column if tree is not None]
        keys = column_keys[k] if column_keys is not None else [key_of(t) for t in trees]
        if len(set(keys)) < len(keys):  # the first key given twice, named where it is
            seen: Dict[str, Any] = {}
            for key, tree in zip(keys, trees):
                if key in seen:
                    what = f"sent_id {key}" if rule == "sent_id" else "this sentence's text"
                    raise MismatchedCorpusError(f"{what} is in the file twice (also {_where(seen[key])}): "
                                                "an annotator's sentences must be distinct", tree.location)
                seen[key] = tree
        for key, tree in zip(keys, trees):
            entry = by_key.get(key)
            if entry is None:
                by_key[key] = {name: tree}
                order.append(key)
                first_tree[key] = tree
            else:
                entry[name] = tree
    if rule == "sent_id":  # one order whatever the files' order: the same α to the last bit
        order.sort(key=_natural)
    items = [by_key[k] for k in order]
    labels = order if rule == "sent_id" else [_item_label(first_tree[k]) for k in order]
    missing = tuple(f"{label}: lacks {', '.join(n for n in names if n not in item)}"
                    for label, item in zip(labels, items) if len(item) < len(names))
    return items, labels, ItemMatch(rule, missing)


def _natural(key: str) -> Tuple:
    """A sort key comparing the digits of ids as numbers (``s2`` before ``s10``): the key cut at
    its runs of digits, which the cut puts at the odd places (``"s10a"`` -> ``("s", 10, "a")``), so
    that two keys compare text with text and number with number, place by place."""
    parts = _DIGIT_RUNS.split(key)
    parts[1::2] = map(int, parts[1::2])
    return tuple(parts)


_DIGIT_RUNS = re.compile(r"(\d+)")


def _item_label(tree: Any) -> str:
    """An item matched by text is named after its first annotation's sentence."""
    location = tree.location
    words = _words(tree) or ()
    start = " ".join(words[:6]) + (" ..." if len(words) > 6 else "")
    return f"sentence {location.sentence}: {start}" if location.sentence is not None else start


def _noted(matched: Tuple[List[Dict[str, Optional[Any]]], List[str], ItemMatch],
           columns: Sequence[Sequence[Optional[Any]]], names: Sequence[str],
           rule: str) -> Tuple[List[Dict[str, Optional[Any]]], List[str], ItemMatch]:
    """``matched`` with an input note when some annotators' sentences have sent_ids and
    the others' do not (INCEpTION's ``CURATION_USER.conllu`` has none): the ids were not
    used, and the items were matched by ``rule`` instead, which the user should know."""
    with_ids = [n for n, column in zip(names, columns)
                if any(t is not None and sent_id_of(t) for t in column)]
    if not with_ids:
        return matched
    without = [n for n, column in zip(names, columns)
               if not all(t is None or sent_id_of(t) for t in column)]
    note = (f"sent_id: {_names(with_ids)} {'has' if len(with_ids) == 1 else 'have'} them but "
            f"{_names(without)} {'lacks' if len(without) == 1 else 'lack'} them"
            + (" for some sentences" if set(without) <= set(with_ids) else "")
            + f": items matched by {rule} instead (give every sentence a # sent_id to match by id)")
    items, labels, how = matched
    return items, labels, replace(how, notes=how.notes + (note,))


def _names(names: Sequence[str]) -> str:
    return ", ".join(names)


def _by_position(columns: Sequence[Sequence[Optional[Any]]],
                 names: Sequence[str]) -> Tuple[List[Dict[str, Optional[Any]]], List[str], ItemMatch]:
    """Items by position, after checking that every annotator's sentences are the first
    annotator's seen through another segmentation (:func:`_stretches`); an error naming
    both sentences where they are not."""
    items = [{n: column[k] for n, column in zip(names, columns)} for k in range(len(columns[0]))]
    labels = [f"sentence {k + 1}" for k in range(len(items))]
    words = [[None if t is None else _words(t) for t in column] for column in columns]
    found: Dict[int, List[str]] = {}
    for j in range(1, len(names)):
        for k, what in _stretches(words[0], words[j], names[0], names[j], columns[0], columns[j]):
            found.setdefault(k, []).append(f"{names[j]} against {names[0]}: {what}")
    resegmented = tuple(f"{labels[k]}: " + "; ".join(found[k]) for k in sorted(found))
    return items, labels, ItemMatch("position", (), resegmented=resegmented)


def _joined(words: Sequence[str]) -> str:
    return "".join("".join(w.split()) for w in words)


def _stretches(ref: Sequence[Optional[Sequence[str]]], other: Sequence[Optional[Sequence[str]]], ref_name: str,
               name: str, ref_trees: Sequence[Optional[Any]], trees: Sequence[Optional[Any]]) -> List[Tuple[int, str]]:
    """The positions where ``other``'s sentences differ from ``ref``'s, each with how, or
    an error where they are other sentences.

    Walking the positions, a stretch of positions closes where the two annotators' words
    over it are the same text (whitespace left out), or one text with a few tokens or a
    small share of the characters changed (:func:`segmentation_difference`) that ends in
    the same token: there both annotators have ended a sentence at the same place. A
    stretch of one position is an annotator's edit; a longer one is a moved sentence
    boundary (one annotator split a sentence that the other did not, and joined two later
    ones, keeping the count). A stretch still open at the end of the files is other
    sentences: an error naming where it began."""
    found: List[Tuple[int, str]] = []
    start = 0
    for k in range(len(ref)):
        if ref[k] is None or other[k] is None:  # words unknown or a failed parse: nothing to compare
            if start == k:
                start = k + 1
            continue
        a = [w for x in ref[start:k + 1] if x is not None for w in x]
        b = [w for x in other[start:k + 1] if x is not None for w in x]
        same = _joined(a) == _joined(b)
        edit = None if same or a[-1] != b[-1] else segmentation_difference(a, b)
        if not same and edit is None:
            continue
        if k == start and not same:
            found.append((k, str(edit)))
        elif k > start:
            span = f"sentences {start + 1}-{k + 1}"
            for m in range(start, k + 1):
                found.append((m, f"{len(other[m] or ())} tokens against {len(ref[m] or ())}: the text of {span} "
                                 "segmented otherwise (a moved sentence boundary)"))
        start = k + 1
    if start < len(ref):
        k = start
        where = next(t for t in (ref_trees[k], trees[k]) if t is not None).location
        raise MismatchedCorpusError(
            f"sentence {k + 1}, paired by position, is another sentence for {name} ({_start(trees[k])}) than for "
            f"{ref_name} ({_start(ref_trees[k])}), and no later sentence ends where it does for both: files paired "
            "by position must hold the same sentences (another tokenisation or segmentation of the same text is "
            "fine: a few tokens, or a moved sentence boundary); add # sent_id comments to pair them by id", where)
    return found


def segmentation_difference(a: Sequence[str], b: Sequence[str]) -> Optional[str]:
    """How the words ``b`` differ from ``a`` when both are one text seen through two
    tokenisations or edits (rules (a) and (b) of the module docstring), ``None`` when they
    differ more. The description names the tokens (at most three edits, then a count)."""
    text_a, text_b = _joined(a), _joined(b)
    tokens = difflib.SequenceMatcher(None, list(a), list(b), autojunk=False)
    edits = [op for op in tokens.get_opcodes() if op[0] != "equal"]
    changed = sum(max(i2 - i1, j2 - j1) for _, i1, i2, j1, j2 in edits)
    kept = sum(size for _, _, size in tokens.get_matching_blocks())
    if changed > FEW_TOKENS or kept < changed:  # a short sentence wholly replaced is another one
        chars = difflib.SequenceMatcher(None, text_a, text_b, autojunk=False)
        same = sum(size for _, _, size in chars.get_matching_blocks())
        if len(text_a) + len(text_b) - 2 * same > SMALL_SHARE * (len(text_a) + len(text_b)):
            return None
    return f"{len(b)} tokens against {len(a)}: " + ", ".join(_edit(op, a, b, len(a)) for op in edits[:3]) + \
        (f", {len(edits) - 3} more" if len(edits) > 3 else "")


def _edit(op: Tuple[str, int, int, int, int], a: Sequence[str], b: Sequence[str], n: int) -> str:
    kind, i1, i2, j1, j2 = op
    where = "at the start" if i1 == 0 else "at the end" if i1 == n else f"after token {i1}"
    if kind == "insert":
        return f"{_quoted(b[j1:j2])} more {where}"
    if kind == "delete":
        return f"no {_quoted(a[i1:i2])} (token {i1 + 1})" if i2 - i1 == 1 else \
            f"no {_quoted(a[i1:i2])} (tokens {i1 + 1}-{i2})"
    return f"{_quoted(b[j1:j2])} for {_quoted(a[i1:i2])} (token {i1 + 1})"


def _quoted(words: Sequence[str], most: int = 4) -> str:
    shown = " ".join(words[:most]) + (" ..." if len(words) > most else "")
    return repr(shown)


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
    resegmented: List[str] = []
    notes = list(notes)
    for label, names, read, path in documents:
        columns = [read(n) for n in names]
        paths = [path(n) for n in names]
        try:
            matched, labels, how = match_items(columns, names, paths)
        except MismatchedCorpusError as exc:
            lengths = ", ".join(f"{p}: {len(c)}" for p, c in zip(paths, columns))
            raise MismatchedCorpusError(f"{what} {label!r} ({lengths} sentences): {exc}") from None
        rules.add(how.rule)
        resegmented.extend(f"{label} {entry}" for entry in how.resegmented)
        notes.extend(f"{what} {label!r}: {note}" for note in how.notes)
        for item_label, entry in zip(labels, matched):
            item = present(entry, stats)
            if item:
                items.append(item)
                item_names.append(f"{label} {item_label}")
    missing = tuple(f"{name}: lacks {', '.join(n for n in annotators if n not in item)}"
                    for name, item in zip(item_names, items) if len(item) < len(annotators))
    rule = rules.pop() if len(rules) == 1 else "+".join(r for r in MATCH_RULES if r in rules) or "position"
    return items, item_names, ItemMatch(rule, missing, tuple(notes), tuple(resegmented))


__all__ = ["FEW_TOKENS", "ItemMatch", "MATCH_RULES", "SMALL_SHARE", "match_columns",
           "match_documents", "match_items", "present", "segmentation_difference"]
