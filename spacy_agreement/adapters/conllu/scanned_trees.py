"""The :class:`~spacy_agreement.trees.DependencyTree`\\ s of a file the compiled scanner read
(:func:`~.scan.scan_file`): what :func:`~.trees.iter_conll` gives for a plain CoNLL-U file, the
same trees (columns, ids, locations with every token's line, multiword tokens, relations not
annotated) and the same :class:`~spacy_agreement.corpus.ReadStats`, built from the scanned
columns instead of one parsed line and one string per value.

Every text value is the one string of the scanner's table (a treebank's ``NOUN`` or ``nsubj`` is one
object however often it occurs), and the token ids of all sentences of one length are one tuple,
so a corpus read this way costs a few tuples of references per sentence.

Anything the Python reader would refuse or report (a head outside its sentence, two roots with
``single_root``, a head cycle with ``cycles="raise"``, a sentence without words, a head ``_``: the
scanner leaves those to it) gives ``None`` before any tree is made: :func:`~.trees.iter_conll` then
reads the file itself and names the error, so the errors stay where they were.
"""
from __future__ import annotations

from itertools import repeat
from typing import Any, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ...corpus import ReadStats
from ...errors import Location
from ...trees import DependencyTree
from . import scan
from .scan import Scanned, scan_bytes

# the scanner's code columns (rows["codes"])
FORM, LEMMA, UPOS, XPOS, FEATS, DEPREL, MISC = range(7)
WORD, RANGE, EMPTY = 0, 1, 2

_IDS: List[Tuple[str, ...]] = [()]


class ScannedWords:
    """The coded columns of every word of one scanned file, which the trees read from it carry
    (``tree.__dict__["_scan"] = (words, first)``: its words are ``first:first + len(tree)``), so that
    a corpus-wide count (:mod:`~spacy_agreement.agreement.layer_values`) can read codes instead of
    each tree's strings. ``codes[w]``: FORM, LEMMA, UPOS, XPOS, FEATS, DEPREL, MISC of word ``w`` in
    ``table``; ``heads[w]``: its head (0 the root). Not pickled with a tree
    (:meth:`~spacy_agreement.trees.DependencyTree.__getstate__`), and a tree changed by
    :func:`dataclasses.replace` no longer carries it."""

    __slots__ = ("codes", "heads", "table")

    def __init__(self, codes: np.ndarray, heads: np.ndarray, table: object) -> None:
        self.codes, self.heads, self.table = codes, heads, table


def scanned_words(tree: object) -> Optional[Tuple[ScannedWords, int]]:
    """``(words, first)`` of a tree read through the scanner, ``None`` for any other tree."""
    return getattr(tree, "__dict__", {}).get("_scan")


def scanned_sources(trees: Sequence[object]) -> Optional[Tuple[List[ScannedWords], np.ndarray, np.ndarray]]:
    """The coded words of the files ``trees`` were read from, each file once, and per tree the
    index of its file among them and its first word row there (:func:`scanned_words`, by
    comprehensions over the trees); ``None`` where a tree was not read through the scanner or holds
    what its codes do not (a token not annotated: its head and relation are not the file's)."""
    try:  # (the scanner leaves a file with a token not annotated to the Python reader: no such tree has codes)
        scans = [tree.__dict__["_scan"] for tree in trees]  # type: ignore[attr-defined]
    except (AttributeError, KeyError):
        return None
    found = {id(words): words for words, _ in scans}
    number = {key: k for k, key in enumerate(found)}
    which = np.fromiter((number[id(words)] for words, _ in scans), dtype=np.int64, count=len(scans))
    firsts = np.fromiter((first for _, first in scans), dtype=np.int64, count=len(scans))
    return list(found.values()), which, firsts


class TreeCodes(NamedTuple):
    """The coded columns of many trees read through the scanner, end to end (:func:`tree_codes`):
    tree ``i`` is tokens ``offsets[i]:offsets[i + 1]``; ``codes[c]`` the codes of the ``c``-th
    column asked for, in ``strings`` (the trees' files' string tables merged into one: equal
    codes, equal strings); ``heads`` as the trees hold them."""

    strings: List[str]
    codes: np.ndarray
    heads: np.ndarray
    offsets: np.ndarray


#: the columns :func:`tree_codes` gathers, by their names, and their places in :class:`ScannedWords`' codes
CODE_COLUMNS = {"form": FORM, "lemma": LEMMA, "upos": UPOS, "xpos": XPOS, "feats": FEATS, "deprel": DEPREL,
                "misc": MISC}


def tree_codes(trees: Sequence[object], columns: Sequence[str]) -> Optional[TreeCodes]:
    """The ``columns`` (names of :data:`CODE_COLUMNS`) and heads of ``trees`` from their files'
    coded words, gathered on arrays whatever the number of trees, instead of each tree's strings
    one by one; ``None`` where :func:`scanned_sources` finds none."""
    from ... import _conllu

    found = scanned_sources(trees)
    if found is None:
        return None
    sources, which, firsts = found
    sizes = [len(tree.heads) for tree in trees]  # type: ignore[attr-defined]
    picked = [CODE_COLUMNS[c] for c in columns]
    if any((words.codes[:, picked] < 0).any() for words in sources):
        return None
    table = _conllu.StringTable()
    coded = [np.asarray(mapping, dtype=np.int32)[words.codes[:, picked]]
             for mapping, words in zip([w.table.merge_into(table) for w in sources], sources)]
    n = np.asarray(sizes, dtype=np.int64)
    offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(n, out=offsets[1:])
    bases = np.zeros(len(sources) + 1, dtype=np.int64)
    np.cumsum([len(words.heads) for words in sources], out=bases[1:])
    rows = np.repeat(bases[which] + firsts - offsets[:-1], n) + np.arange(int(offsets[-1]), dtype=np.int64)
    if not sources:
        return TreeCodes(table.strings, np.zeros((len(picked), 0), np.int32), np.zeros(0, np.int32), offsets)
    codes = np.ascontiguousarray(np.concatenate(coded)[rows].T)
    return TreeCodes(table.strings, codes, np.concatenate([words.heads for words in sources])[rows], offsets)


def _ids(n: int) -> Tuple[str, ...]:
    """``("1", ..., "n")``, one tuple per length for the whole process."""
    while len(_IDS) <= n:
        _IDS.append(_IDS[-1] + (str(len(_IDS)),))
    return _IDS[n]


def scanned_trees(scanned: Scanned, single_root: bool = False, cycles: str = "drop",
                  stats: Optional[ReadStats] = None) -> Optional[Iterator[DependencyTree]]:
    """The trees of ``scanned`` in order, as :func:`~.trees.iter_conll` reads them (``stats``
    counted as each tree is given), or ``None`` where that reader must read the file to name an
    error (module docstring)."""
    from ... import _conllu

    rows, sentences = scanned.rows, scanned.sentences
    kind = rows["kind"]
    sentence_rows = np.asarray(sentences["rows"], dtype=np.int64)
    n_sent = len(sentence_rows) - 1
    if n_sent <= 0:
        return None
    row_sentence = np.repeat(np.arange(n_sent), np.diff(sentence_rows))
    word_rows = np.flatnonzero(kind == WORD)
    word_sentence = row_sentence[word_rows]
    per = np.bincount(word_sentence, minlength=n_sent)
    if (per == 0).any():
        return None
    offsets = np.zeros(n_sent + 1, dtype=np.int64)
    np.cumsum(per, out=offsets[1:])
    heads = np.ascontiguousarray(rows["head"][word_rows], dtype=np.int32)
    if (heads < 0).any() or (heads > per[word_sentence]).any():
        return None
    if single_root and (np.bincount(word_sentence, weights=heads == 0, minlength=n_sent) > 1).any():
        return None
    if cycles == "raise" and _conllu.first_unreachable(heads, offsets) >= 0:
        return None
    heads.flags.writeable = False
    return _trees(scanned, row_sentence, word_rows, offsets, heads, stats, comment_sent_id)


def trees_from_bytes(data: bytes, name: str, single_root: bool = False, cycles: str = "drop",
                     stats: Optional[ReadStats] = None, scanned: bool = False) -> Any:
    """:func:`scanned_trees` of a file's bytes in memory (a member of a tool's ZIP export, a
    multi-user file's text), ``name`` naming it; ``None`` (nothing read, nothing counted) where
    the caller's Python reader must read them. With ``scanned``: ``(Scanned, trees)``, the
    scanner's sentences beside the trees."""
    if cycles not in ("drop", "raise"):
        raise ValueError(f"cycles must be 'drop' or 'raise', not {cycles!r}")
    if len(data) < scan.SCAN_FROM_BYTES:  # a member of a sentence or two: the Python reader
        return None
    found = scan_bytes(data, name)
    trees = scanned_trees(found, single_root, cycles, stats) if found is not None else None
    return None if trees is None else (found, trees) if scanned else trees


class LazyColumns:
    """What the trees of one scanned file make their fields from when first asked for
    (:meth:`~spacy_agreement.trees.DependencyTree.__getattr__`): the first tree to ask for a field
    makes it for every tree of the file at once (each text column of the file as one tuple of the
    table's strings, whose slices the trees keep; the id tuples of :func:`_ids`; the locations, with
    every token's line; the few sentences' multiword tokens), as a list each tree takes its own from.
    Whoever asks for a field nearly always asks it of every tree (pairing, α's trees, the judging
    items), and a file's trees made at once cost a fraction of one by one. A corpus counted from its
    codes (layers, α's forest) makes none of them."""

    __slots__ = ("values", "codes", "bounds", "source", "starts", "comments", "sent_id_of", "sent_ids",
                 "line_offsets", "multiwords", "named", "made")

    def __init__(self, values: np.ndarray, codes: np.ndarray, bounds: np.ndarray, source: str, starts: np.ndarray,
                 comments: Sequence[Optional[str]], sent_id_of, line_offsets: np.ndarray, multiwords: dict,
                 named: dict) -> None:
        self.values, self.codes, self.bounds = values, codes, bounds
        self.source, self.starts, self.comments, self.sent_id_of = source, starts, comments, sent_id_of
        self.sent_ids: Optional[List[Optional[str]]] = None
        self.line_offsets, self.multiwords, self.named = line_offsets, multiwords, named
        self.made: dict = {}

    def column(self, c: int) -> Tuple[str, ...]:
        """The strings of column ``c`` (:data:`CODE_COLUMNS`) of every word of the file (not kept:
        the trees keep their slices, and a file's whole column beside them would double it)."""
        return tuple(self.values[self.codes[:, c]].tolist())

    def sent_id(self, s: int) -> Optional[str]:
        """The ``sent_id`` of sentence ``s`` (0-based), as its location has it (every sentence's
        read from its comment line when one is first asked for)."""
        if self.sent_ids is None:
            self.sent_ids = list(map(self.sent_id_of, self.comments))
            self.comments = ()  # read: the comment lines are not kept beside the ids
        return self.sent_ids[s]

    def field(self, name: str, s: int) -> object:
        """Field ``name`` of the tree of sentence ``s`` (0-based)."""
        made = self.made.get(name)
        if made is None:
            made = self.made[name] = self._every(name)
        return made[s]

    def _every(self, name: str) -> list:
        """Field ``name`` of every tree of the file, in order (forms, heads and what is not annotated
        every tree holds from the start: :meth:`~spacy_agreement.trees.DependencyTree._scanned`)."""
        bounds = self.bounds.tolist()
        n = len(bounds) - 1
        spans = [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:])]
        column = _FIELD_COLUMNS.get(name)
        if column is not None:
            values = self.column(column)
            return [values[x] for x in spans]
        if name == "ids":
            return [_IDS[b - a] for a, b in zip(bounds[:-1], bounds[1:])]
        if name == "location":
            if n:
                self.sent_id(0)  # every sentence's id read
            offsets = tuple(self.line_offsets.tolist())
            return list(map(Location, repeat(self.source, n), range(1, n + 1), repeat(None, n), self.starts.tolist(),
                            self.sent_ids or [], repeat(None, n), [offsets[x] for x in spans],
                            [self.named.get(s, ()) for s in range(n)]))
        if name == "multiword":
            return [self.multiwords.get(s, ()) for s in range(n)]
        raise AttributeError(name)


#: the tree fields that are slices of a file's text columns
_FIELD_COLUMNS = {"forms": FORM, "lemmas": LEMMA, "upos": UPOS, "xpos": XPOS, "feats": FEATS, "deprels": DEPREL,
                  "misc": MISC}


def _trees(scanned: Scanned, row_sentence: np.ndarray, word_rows: np.ndarray, offsets: np.ndarray,
           heads: np.ndarray, stats: Optional[ReadStats], sent_id_of) -> Iterator[DependencyTree]:
    rows, sentences = scanned.rows, scanned.sentences
    strings = scanned.table.strings
    values = np.asarray(list(strings) + [""], dtype=object)  # code -1 (none here) last
    codes = rows["codes"][word_rows]
    underscore = strings.index("_") if "_" in strings else -2  # a relation not annotated yet
    unlabelled_words = np.flatnonzero(codes[:, DEPREL] == underscore)
    unlabelled_of = np.searchsorted(offsets, unlabelled_words, side="right") - 1
    line_starts = np.asarray(sentences["line"], dtype=np.int64)
    line_offsets = (rows["line"][word_rows] - line_starts[row_sentence[word_rows]]).astype(np.int32)
    starts = line_starts.tolist()
    # multiword ranges and empty nodes: the multiword tokens and the ids of the other lines
    extra_rows = np.flatnonzero(rows["kind"] != WORD)
    extras: dict = {}
    for r in extra_rows.tolist():
        extras.setdefault(int(row_sentence[r]), []).append(r)
    kinds, firsts, lasts, lines = rows["kind"], rows["first"], rows["last"], rows["line"]
    all_codes = rows["codes"]
    bounds = offsets.tolist()
    n = len(bounds) - 1
    _ids(int(np.diff(offsets).max(initial=0)))  # the id tuples of every length here made
    # what few sentences have: multiword ranges and empty nodes, relations not annotated; counted per tree
    multiwords: dict = {}
    named: dict = {}
    unlabelled: dict = {}
    counts: dict = {}
    for s, extra in extras.items():
        start, spans, names, ranges = starts[s], [], [], 0
        for r in extra:
            first, last = int(firsts[r]), int(lasts[r])
            if kinds[r] == RANGE:
                spans.append((first, last, values[all_codes[r, FORM]], values[all_codes[r, MISC]]))
                names.append((f"{first}-{last}", int(lines[r]) - start))
                ranges += 1
            else:
                names.append((f"{first}.{last}", int(lines[r]) - start))
        if spans:
            multiwords[s] = tuple(spans)
        named[s] = tuple(names)
        counts[s] = [ranges, len(extra) - ranges, 0]
    for s, w in zip(unlabelled_of.tolist(), unlabelled_words.tolist()):
        unlabelled[s] = unlabelled.get(s, ()) + (w - bounds[s] + 1,)
    for s, tokens in unlabelled.items():
        counts.setdefault(s, [0, 0, 0])[2] = len(tokens)
    # (arrays, not lists: what a file's trees keep for their fields takes little beside them)
    lazy = LazyColumns(values, codes, offsets, scanned.source, line_starts, sentences["sent_id"], sent_id_of,
                       line_offsets, multiwords, named)
    new = DependencyTree._scanned
    words = ScannedWords(codes, heads, scanned.table)
    forms = lazy.column(FORM)
    spans = [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:])]
    trees = list(map(new, [forms[x] for x in spans], [heads[x] for x in spans],
                     [unlabelled.get(s, ()) for s in range(n)], zip(repeat(words), bounds[:-1]),
                     zip(repeat(lazy), range(n))))
    if stats is None:
        yield from trees
        return
    for s, tree in enumerate(trees):  # counted as each tree is given
        if s in counts:
            ranges, empties, tokens = counts[s]
            stats.multiword_ranges += ranges
            stats.empty_nodes += empties
            if tokens:  # ReadStats.count_partial of a tree whose heads are all annotated
                stats.partial_trees += 1
                stats.unlabelled_tokens += tokens
        stats.sentences += 1
        yield tree


def comment_value(line: str, key: str) -> Optional[str]:
    """The value of ``key`` in a comment line, ``# KEY = VALUE``, as ``conllu``'s
    ``parse_comment_line`` reads it for a key it has no parser of its own for (not ``newdoc`` or
    ``newpar``): the name before the first ``=`` and the value after it, both stripped and neither
    empty; ``None`` where the line is not such a comment of ``key``."""
    line = line.strip()
    if not line.startswith("#"):
        return None
    name, equals, value = line[1:].partition("=")
    value = value.strip()
    return value if equals and value and key and name.strip() == key else None


def comment_sent_id(line: Optional[str]) -> Optional[str]:
    """The ``sent_id`` of a comment line as :func:`~.trees.iter_conll` reads it (``conllu``'s rule)."""
    return None if line is None else comment_value(line, "sent_id")


__all__ = ["CODE_COLUMNS", "LazyColumns", "ScannedWords", "TreeCodes", "comment_sent_id", "comment_value",
           "scanned_sources",
           "scanned_trees", "scanned_words", "tree_codes", "trees_from_bytes"]
