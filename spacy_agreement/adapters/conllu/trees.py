"""CoNLL-U and CoNLL-X (10-column) files into :class:`DependencyTree`s, through ``conllu``.

Both formats have ten tab-separated columns with the token id first, the form second,
the (coarse) part of speech fourth, the head seventh and the relation eighth, so one
reader serves both. What is read:

* **Multi-word token ranges** (CoNLL-U ids like ``3-4``) are surface tokens that carry no
  head; the syntactic words inside them are read, the range line is not part of the tree
  (it is kept beside it, :attr:`DependencyTree.multiword`, with its form and MISC).
* The MISC column is kept as text (:attr:`DependencyTree.misc`): :func:`space_after` reads
  ``SpaceAfter=No`` from it, as ``spacy convert`` does.
* **Empty nodes** (ids like ``5.1``) belong to the enhanced graph, not the basic tree;
  they are left out of the tree.
* Both are counted in :class:`ReadStats` so nothing disappears unseen.
* **Partial annotations**: a token whose HEAD is ``_`` (or whose DEPREL is ``_`` where other
  tokens of the sentence have relations) is not annotated yet, as INCEpTION's CoNLL-U writer
  and Arborator-Grew's samples write it: it is read, listed in
  :attr:`DependencyTree.unannotated` and counted (``ReadStats.partial_trees``), never an error.
* Comment lines are metadata; sentences are separated by blank lines. Comments after the last
  sentence are no sentence (``conll18_ud_eval.py`` reads them too); a block of comments between
  two sentences is an empty sentence, an error.

Errors (a head out of range, a line with the wrong number of columns, an empty sentence, a
byte-order mark at the start of the file (named),
and with ``cycles="raise"`` a token that is its own head, a sentence without a root or
another head cycle) name the file, the line of the token (or of the sentence's first
line), the 1-based sentence number with its ``sent_id`` and the token id:
``file:LINE: sentence N (sent_id X), token M: message``. The file is split into
sentences here, counting lines, and each line is parsed with ``conllu``.

The streaming evaluation reads the same trees as flat arrays (:class:`TreeColumns`), built from the
compiled scanner's rows (:func:`tree_columns_from_scan`; :mod:`~.scan`) where the file is plain
CoNLL-U, by :func:`iter_conll` where it is not.
"""
from __future__ import annotations

import io
import os
import re
from typing import Any, Callable, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import conllu
from conllu.exceptions import ParseException
from conllu.parser import DEFAULT_FIELD_PARSERS, parse_comment_line, parse_id_value, parse_line

import numpy as np

from ..._memory import collection_paused
from ...corpus import ReadStats
from ...errors import InvalidTreeError, Location, not_utf8
from ...trees import DependencyTree
from .scan import scan_file, worth_scanning
from .scanned_trees import comment_sent_id as _comment_sent_id, scanned_trees

FIELDS = ("id", "form", "lemma", "upos", "xpos", "feats", "head", "deprel", "deps", "misc")
# Columns we do not use are kept as raw strings, so a CoNLL-X FEATS value such as "sg|nom"
# (no "=") cannot make an otherwise good file unreadable.
_RAW = {name: (lambda line, i: line[i]) for name in ("lemma", "xpos", "feats", "deps", "misc")}


class _ColumnCountError(Exception):
    def __init__(self, token: str, count: int):
        self.token, self.count = token, count


def _parse_id(line: List[str], i: int):
    # conllu fills a short line with fewer fields and ignores extra columns: check here
    if len(line) != len(FIELDS):
        raise _ColumnCountError(line[0], len(line))
    return parse_id_value(line[i])


_PARSERS = {**_RAW, "id": _parse_id}
# what conllu.parse_token_and_metadata builds from _PARSERS for every sentence, built once
_LINE_PARSERS = {**DEFAULT_FIELD_PARSERS, **_PARSERS}
_COLUMN_SPLIT = re.compile(r"\t| {2,}")  # conllu's column separators


def _plain_number(text: str) -> bool:
    """Whether ``text`` is what conllu's ID_SINGLE and INTEGER both read as a number ≥ 0:
    ASCII digits without a leading zero (0 itself allowed)."""
    return text.isascii() and text.isdigit() and (text[0] != "0" or text == "0")


def _quick_token(line: str) -> Optional[conllu.Token]:
    """``parse_line(line, FIELDS, _LINE_PARSERS)`` for the line nearly every file is made of
    (ten tab-separated columns, a word id and a head that are plain numbers or ``_``), without
    its per-field calls; None for any other line, which then goes to conllu."""
    if "  " in line:  # conllu also splits at two spaces
        return None
    columns = line.split("\t")
    if len(columns) != 10 or not _plain_number(columns[0]):
        return None
    head = columns[6]
    if head == "_":
        value = None
    elif _plain_number(head):
        value = int(head)
    else:
        return None
    return conllu.Token(id=int(columns[0]), form=columns[1], lemma=columns[2], upos=columns[3], xpos=columns[4],
                        feats=columns[5], head=value, deprel=columns[7], deps=columns[8], misc=columns[9])
_GLOBAL_COLUMNS = "# global.columns = "

PathLike = Union[str, "os.PathLike[str]"]


def _quick_columns(token_rows: Sequence[Tuple[int, str]]) -> Optional[List[List[str]]]:
    """The ten columns of every token line of a sentence where each is the plain line of
    :func:`_quick_token` (word ids ``1, 2, 3, ...``, heads plain numbers or ``_``), read without
    building conllu's tokens; None where any line is not, which then goes the general way."""
    rows = []
    for position, (_, line) in enumerate(token_rows, start=1):
        if "  " in line:
            return None
        columns = line.split("\t")
        if len(columns) != 10 or columns[0] != str(position):
            return None
        head = columns[6]
        if head != "_" and not _plain_number(head):
            return None
        rows.append(columns)
    return rows


def _quick_tree(rows: List[List[str]], location: Location, lines: Sequence[int], single_root: bool) -> DependencyTree:
    """:func:`from_conllu` of the tokens :func:`_quick_columns` read: the same tree, location and checks."""
    start = location.line if location.line is not None else lines[0]
    location = Location(location.source, location.sentence, location.token, start, location.sent_id,
                        location.token_line, tuple([line - start for line in lines]), ())
    columns = list(zip(*rows))
    return DependencyTree.create(
        heads=[None if head == "_" else int(head) for head in columns[6]], deprels=columns[7], forms=columns[1],
        upos=columns[3], ids=[int(i) for i in columns[0]], location=location, single_root=single_root,
        lemmas=columns[2], feats=columns[5], xpos=columns[4], misc=columns[9], multiword=[], partial=True)


def _raw_feats(value):
    # our reader keeps FEATS as text; a TokenList parsed by conllu's defaults has a dict
    if value.__class__ is str:
        return value
    if isinstance(value, dict):
        return "|".join(f"{k}={v}" if v else str(k) for k, v in value.items()) or None
    return value


def from_conllu(
    sentence: conllu.TokenList,
    location: Optional[Location] = None,
    single_root: bool = False,
    stats: Optional[ReadStats] = None,
    lines: Optional[Sequence[int]] = None,
) -> DependencyTree:
    """One ``conllu`` sentence (``TokenList``) as a :class:`DependencyTree`.

    ``lines``, when known, are the file lines of the entries of ``sentence`` in order
    (multiword ranges and empty nodes included): the tree's location then finds the line
    of every token (:attr:`Location.token_lines`), relative to ``location.line`` (the first
    of ``lines`` when that is not set)."""
    location = location or Location()
    words = []
    multiword: List[Tuple[int, int, str, Optional[str]]] = []
    word_lines: List[int] = []
    extra_offsets: List[Tuple[str, int]] = []
    start = location.line if location.line is not None else lines[0] if lines else 0
    for k, token in enumerate(sentence):
        line = lines[k] if lines is not None else None
        if "id" not in token or "head" not in token or "deprel" not in token:  # id: a global.columns without ID
            raise InvalidTreeError(
                f"line has {len(token)} columns, expected 10", location.at_token(token.get("id", "?"), line)
            )
        tid = token["id"]
        if isinstance(tid, tuple):
            empty_node = len(tid) == 3 and tid[1] == "."
            if not empty_node and len(tid) == 3:
                multiword.append((tid[0], tid[2], token.get("form") or "_", _raw_feats(token.get("misc"))))
            if stats is not None:
                if empty_node:
                    stats.empty_nodes += 1
                else:
                    stats.multiword_ranges += 1
            if line is not None:
                extra_offsets.append(("".join(map(str, tid)), line - start))
            continue
        if not isinstance(tid, int):
            raise InvalidTreeError(f"token id {tid!r} is not a number", location.at_token(tid, line))
        words.append(token)
        if line is not None:
            word_lines.append(line)
    for position, token in enumerate(words, start=1):
        if token["id"] != position:
            raise InvalidTreeError(
                f"token ids must run 1, 2, 3, ...; found {token['id']} at position {position}",
                location.at_token(token["id"], word_lines[position - 1] if lines is not None else None),
            )
    if lines:
        location = Location(location.source, location.sentence, location.token, start, location.sent_id,
                            location.token_line, tuple([line - start for line in word_lines]), tuple(extra_offsets))
    get = dict.get  # conllu's Token.get only adds the upostag/xpostag aliases, asked for by t.get
    return DependencyTree.create(
        heads=[t["head"] for t in words],
        deprels=[t["deprel"] for t in words],
        forms=[t["form"] for t in words],
        upos=[t["upos"] for t in words],
        ids=[t["id"] for t in words],
        location=location,
        single_root=single_root,
        lemmas=[get(t, "lemma") for t in words],
        feats=[_raw_feats(get(t, "feats")) for t in words],  # raw text, parsed where used (ud_metrics)
        xpos=[t.get("xpos") for t in words],
        misc=[_raw_feats(get(t, "misc")) for t in words],  # raw text, as FEATS
        multiword=multiword,
        partial=True,
    )


def space_after(tree: DependencyTree) -> List[bool]:
    """Whether a space follows each word of a CoNLL-U sentence, as ``spacy convert`` sets a
    ``Doc``'s ``spaces``: none where the MISC column has ``SpaceAfter=No``; inside a
    multiword token none between its words, and after its last word as the MISC of the range
    line says. A tree without MISC (another format) has a space after every word."""
    n = len(tree)
    misc = tree.misc if len(tree.misc) == n else ("_",) * n

    def says_no_space(text: str) -> bool:  # (the substring first: most MISC texts lack it)
        return "SpaceAfter=No" in text and "SpaceAfter=No" in text.split("|")

    spaces = [not says_no_space(m) for m in misc]
    for first, last, _, range_misc in tree.multiword:
        spaces[first - 1:last - 1] = [False] * (last - first)
        spaces[last - 1] = not says_no_space(range_misc)
    return spaces


def surface_tokens(tree: DependencyTree) -> List[Tuple[str, int, int]]:
    """The surface tokens of a sentence in order, as ``(form, first, last)`` over the 1-based
    word positions: a multiword token's form over its words, every other word on its own."""
    forms = tree.forms
    if not tree.multiword:
        return [(form, k, k) for k, form in enumerate(forms, 1)]
    starts = {first: (form, last) for first, last, form, _ in tree.multiword}
    out: List[Tuple[str, int, int]] = []
    k, n = 1, len(forms)
    while k <= n:
        form, last = starts.get(k, (forms[k - 1], k))
        out.append((form, k, last))
        k = last + 1
    return out


def sentence_text(tree: DependencyTree) -> str:
    """The sentence's text from its surface tokens and :func:`space_after` (what a CoNLL-U
    ``# text`` line holds; no space after the last token)."""
    spaces = space_after(tree)
    return "".join(form + (" " if spaces[last - 1] else "") for form, _, last in surface_tokens(tree)).rstrip(" ")


def _bom(number: int, line: str) -> Optional[str]:
    """The message for line 1 starting with a byte-order mark (else ``None``)."""
    if number == 1 and line.startswith("\ufeff"):
        return ("the file starts with a byte-order mark (U+FEFF, the bytes EF BB BF), read as a character of line 1: "
                "save the file as UTF-8 without it")
    return None


def _blocks(handle: Iterable[str]) -> Iterator[List[Tuple[int, str]]]:
    """The sentences of a CoNLL file as lists of (1-based line number, stripped line); blank
    (or white-space only) lines separate sentences, as in ``conllu.parse_incr``."""
    block: List[Tuple[int, str]] = []
    for number, line in enumerate(handle, start=1):
        line = line.strip()
        if line:
            block.append((number, line))
        elif block:
            yield block
            block = []
    if block:
        yield block


def iter_conll(
    source: Union[PathLike, io.TextIOBase],
    name: Optional[str] = None,
    single_root: bool = False,
    stats: Optional[ReadStats] = None,
    cycles: str = "drop",
) -> Iterator[DependencyTree]:
    """Stream the trees of a CoNLL-U or CoNLL-X file (a path or an open text file).

    Tokens that are their own head, sentences with no token attached to the root and other
    head cycles are read (they are real: annotation tools write them, and the reference
    tools read them); where trees are compared such tokens drop out and are counted. With
    ``cycles="raise"`` (the CLI's ``--strict``) the first of them is an
    :class:`InvalidTreeError` naming file, sentence and token.
    """
    if cycles not in ("drop", "raise"):
        raise ValueError(f"cycles must be 'drop' or 'raise', not {cycles!r}")
    if isinstance(source, (str, os.PathLike)):
        name = name or os.fspath(source)
        trees = None
        if worth_scanning(source):  # plain CoNLL-U: the compiled scanner's columns
            scanned = scan_file(source, name=name)
            trees = scanned_trees(scanned, single_root, cycles, stats) if scanned is not None else None
        if trees is not None:
            yield from trees
            return
        with open(source, encoding="utf-8") as handle:
            try:
                yield from iter_conll(handle, name, single_root, stats, cycles)
            except UnicodeDecodeError as exc:  # the file named, and the line of the bad byte
                raise not_utf8(source, exc) from None
        return
    name = str(name or getattr(source, "name", "<input>"))
    fields: Sequence[str] = FIELDS
    comments_only: Optional[Location] = None  # a block of comments after a sentence: an error unless it ends the file
    for number, block in enumerate(_blocks(source), start=1):
        if comments_only is not None:
            raise InvalidTreeError("empty sentence (no tokens)", comments_only)
        # comments first, then the tokens, as conllu.parse_incr does
        metadata = conllu.Metadata()
        token_rows: List[Tuple[int, str]] = []
        for line_number, line in block:
            if line[0] != "#":
                token_rows.append((line_number, line))
                continue
            if line.startswith(_GLOBAL_COLUMNS):  # CoNLL-U Plus: columns for the rest of the file
                fields = [column.lower() for column in line.split("=", 1)[1].strip().split()] or FIELDS
            for key, value in parse_comment_line(line):
                metadata[key] = value
        sent_id = metadata.get("sent_id")
        sent_id = None if sent_id is None else str(sent_id)
        if not token_rows and number > 1:  # comments after the last sentence are none (conll18_ud_eval.py reads them)
            comments_only = Location(name, number, None, block[0][0], sent_id)
            continue
        quick = fields is FIELDS
        rows = _quick_columns(token_rows) if quick and token_rows else None
        if rows is not None:  # plain lines, nearly every file: no conllu token objects
            if stats is not None:
                stats.sentences += 1
            tree = _quick_tree(rows, Location(name, number, None, block[0][0], sent_id),
                               [line_number for line_number, _ in token_rows], single_root)
            if stats is not None:
                stats.count_partial(tree)
            if cycles == "raise" and tree.unreachable_tokens().size:
                raise tree.cycle_error()
            yield tree
            continue
        tokens = []
        for line_number, line in token_rows:
            token = _quick_token(line) if quick else None
            if token is not None:
                tokens.append(token)
                continue
            try:
                tokens.append(parse_line(line, fields, _LINE_PARSERS))
            except ParseException as exc:
                columns = _COLUMN_SPLIT.split(line)
                token = columns[0] if len(columns) > 1 else None
                raise InvalidTreeError(_bom(line_number, line) or f"malformed line: {exc}",
                                       Location(name, number, token, block[0][0], sent_id, line_number)) from None
            except _ColumnCountError as exc:
                raise InvalidTreeError(_bom(line_number, line) or f"line has {exc.count} columns, expected {len(FIELDS)}",
                                       Location(name, number, exc.token, block[0][0], sent_id, line_number)) from None
        if stats is not None:
            stats.sentences += 1
        sentence = conllu.TokenList(tokens, metadata, default_fields=fields)
        tree = from_conllu(sentence, Location(name, number, None, block[0][0], sent_id), single_root, stats,
                           [line_number for line_number, _ in token_rows])
        if stats is not None:
            stats.count_partial(tree)
        if cycles == "raise" and tree.unreachable_tokens().size:
            raise tree.cycle_error()
        yield tree


def read_conll(
    source: Union[PathLike, io.TextIOBase],
    name: Optional[str] = None,
    single_root: bool = False,
    stats: Optional[ReadStats] = None,
    cycles: str = "drop",
) -> List[DependencyTree]:
    """All trees of a CoNLL-U or CoNLL-X file, in order.

    ``single_root=True`` requires exactly one token attached to the root in every
    sentence (the UD rule); by default several are allowed, as in CoNLL-X treebanks.
    ``cycles`` is explained in :func:`iter_conll`.
    """
    with collection_paused():  # many small objects and no cycle among them: see collection_paused
        return list(iter_conll(source, name, single_root, stats, cycles))


def parse_conll(text: str, name: str = "<string>", single_root: bool = False) -> List[DependencyTree]:
    """The trees of CoNLL-U or CoNLL-X text."""
    return read_conll(io.StringIO(text), name, single_root)


def write_conll(trees: Iterable[DependencyTree]) -> str:
    """CoNLL-U text of the given trees (id, form, upos, head, deprel; other columns ``_``),
    every sentence followed by an empty line (the last too, as CoNLL-U and conll18_ud_eval.py
    require)."""
    blocks = []
    for tree in trees:
        lines = [
            "\t".join([str(k), form, "_", upos, "_", "_", str(int(head)), deprel, "_", "_"])
            for k, (form, upos, head, deprel) in enumerate(zip(tree.forms, tree.upos, tree.heads, tree.deprels), 1)
        ]
        blocks.append("\n".join(lines) + "\n\n")
    return "".join(blocks)


class TreeColumns:
    """Sentences' trees as flat arrays: sentence ``s`` is tokens ``offsets[s]:offsets[s + 1]``;
    ``heads`` 1-based in the sentence (0 the root); ``form``, ``upos``, ``deprel``,
    ``lemma``, ``feats`` codes in a shared :class:`~spacy_agreement._conllu.StringTable`;
    ``where(s)`` the :class:`~spacy_agreement.errors.Location` of sentence ``s`` (for messages)."""

    __slots__ = ("offsets", "heads", "form", "upos", "deprel", "lemma", "feats", "where")

    def __init__(self, offsets: np.ndarray, heads: np.ndarray, form: np.ndarray, upos: np.ndarray,
                 deprel: np.ndarray, lemma: np.ndarray, feats: np.ndarray, where: Callable[[int], Location]):
        self.offsets, self.heads = offsets, heads
        self.form, self.upos, self.deprel, self.lemma, self.feats = form, upos, deprel, lemma, feats
        self.where = where

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def take(self, start: int, stop: int) -> "TreeColumns":
        """Sentences ``start:stop`` (the arrays sliced, not copied)."""
        a, b = int(self.offsets[start]), int(self.offsets[stop])
        where = self.where
        return TreeColumns(self.offsets[start:stop + 1] - a, self.heads[a:b], self.form[a:b], self.upos[a:b],
                           self.deprel[a:b], self.lemma[a:b], self.feats[a:b], lambda s: where(s + start))

    def select(self, sentences: np.ndarray) -> "TreeColumns":
        """The sentences at the indices ``sentences`` (increasing), copied."""
        lengths = self.lengths[sentences]
        offsets = np.zeros(len(sentences) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        starts = self.offsets[:-1][sentences]
        rows = (np.repeat(starts - offsets[:-1], lengths) + np.arange(offsets[-1], dtype=np.int64))
        where = self.where
        return TreeColumns(offsets, self.heads[rows], self.form[rows], self.upos[rows], self.deprel[rows],
                           self.lemma[rows], self.feats[rows], lambda s: where(int(sentences[s])))


def tree_columns_from_scan(scanned: Any, first: int = 0) -> Optional[TreeColumns]:
    """The trees of a file read by the compiled scanner
    (:func:`~spacy_agreement.adapters.conllu.scan.scan_file`) as :class:`TreeColumns` (the words of each
    sentence; ranges and empty nodes left out, as :func:`iter_conll` leaves them out of the
    tree), or ``None`` when :func:`iter_conll` must read it: a head outside its sentence (an
    error it names), a relation ``_`` (a partial annotation), a sentence without words.
    ``first``: the sentences of the file before these (a block of a file read a block at a time),
    which their locations' sentence numbers count."""
    import numpy as np

    rows, sentences = scanned.rows, scanned.sentences
    words = np.flatnonzero(rows["kind"] == 0)
    sentence_rows = sentences["rows"]
    n_sent = len(sentence_rows) - 1
    row_sentence = np.repeat(np.arange(n_sent), np.diff(sentence_rows))
    per = np.bincount(row_sentence[words], minlength=n_sent)
    if n_sent == 0 or (per == 0).any():
        return None
    heads = rows["head"][words]
    if (heads > per[row_sentence[words]]).any():
        return None
    codes = rows["codes"][words]
    table = scanned.table
    underscore = table.code("_")
    if (codes[:, 5] == underscore).any():
        return None
    offsets = np.zeros(n_sent + 1, dtype=np.int64)
    np.cumsum(per, out=offsets[1:])
    lines, ids = sentences["line"], sentences["sent_id"]
    source = scanned.source

    def where(s: int) -> Location:
        return Location(source, first + s + 1, None, int(lines[s]), _comment_sent_id(ids[s]))

    return TreeColumns(offsets, np.ascontiguousarray(heads, dtype=np.int32), codes[:, 0].copy(), codes[:, 2].copy(),
                       codes[:, 5].copy(), codes[:, 1].copy(), codes[:, 4].copy(), where)


#: 0.3's name (``spacy_agreement.adapters.conll``, which is this module now), until 0.5
columns_from_scan = tree_columns_from_scan

__all__ = ["FIELDS", "ReadStats", "TreeColumns", "from_conllu", "iter_conll", "parse_conll", "read_conll",
           "sentence_text", "space_after", "surface_tokens", "tree_columns_from_scan", "write_conll"]
