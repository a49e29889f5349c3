"""The compiled CoNLL-U scanner (:func:`spacy_agreement._conllu.scan`) over a file, and what is
built from its rows: :func:`scan_file` reads a file in blocks into :class:`Scanned` rows and
sentences, their text columns as codes of a :class:`~spacy_agreement._conllu.StringTable` shared by
the files read with it; :class:`StringArrays` holds that table's values as numpy arrays, kept up to
date as the table grows; :func:`conllu_columns_from_scan` makes the
:class:`~.columns.ConlluColumns` of the CoNLL 2018 alignment from the rows (the trees of the
evaluation: :func:`~.trees.tree_columns_from_scan`).

A reader of many blocks keeps one :class:`StringArrays`
(:mod:`spacy_agreement.evaluation.conll18.streaming`), so that each block costs its own size, not the
size of the table (the vocabulary read so far). The scanner leaves to the Python readers anything
but plain CoNLL-U with ``\\n`` line ends in valid UTF-8 (``None``: they read it and name the errors).
"""
from __future__ import annotations

import io
import os
import unicodedata
from dataclasses import dataclass
from typing import Any, BinaryIO, List, Optional, Tuple, Union

import numpy as np

from ...errors import InvalidTreeError
from .columns import ConlluColumns, ScannedText, check_cycles

PathLike = Union[str, "os.PathLike[str]"]


def remove_spaces(form: str) -> str:
    """``form`` without its characters of Unicode category Zs (the script's rule for the text:
    ``New York`` → ``NewYork``; a no-break space goes too, a tab or newline cannot occur)."""
    if " " not in form and form.isprintable():  # printable: no Zs other than the ASCII space
        return form
    return "".join(c for c in form if unicodedata.category(c) != "Zs")


class StringArrays:
    """``values`` (each code's text), ``spaceless`` (the same without its spaces, as the
    text of the script counts it: :func:`remove_spaces`), both object arrays
    one longer than the table (``""`` last: code -1, an empty node's), and ``lengths`` (int64,
    the length of each spaceless value)."""

    def __init__(self, table: Any):
        self.table = table
        self.values = np.asarray([""], dtype=object)
        self.spaceless = np.asarray([""], dtype=object)
        self.lengths = np.zeros(0, dtype=np.int64)

    def update(self) -> "StringArrays":
        """Extended to the values added to the table since the last call."""
        strings = self.table.strings
        old, new = len(self.lengths), len(strings)
        if new > old:
            added = strings[old:new]
            spaceless = [remove_spaces(x) for x in added]
            self.values = np.concatenate([self.values[:old], np.asarray(added + [""], dtype=object)])
            self.spaceless = np.concatenate([self.spaceless[:old], np.asarray(spaceless + [""], dtype=object)])
            self.lengths = np.concatenate([self.lengths, np.fromiter(map(len, spaceless), dtype=np.int64,
                                                                     count=len(spaceless))])
        return self


@dataclass(frozen=True, eq=False)
class Scanned:
    """A CoNLL-U file read by the Cython scanner (:func:`spacy_agreement._conllu.scan`):
    its rows and sentences, codes in ``table`` (shared by the files read with it)."""

    source: str
    table: object
    rows: dict
    sentences: dict


#: bytes read at a time by :func:`scan_file` (the file is scanned block by block, each block
#: ending with a sentence)
BLOCK = 1 << 24


#: Files (and tool exports' members) smaller than this many bytes are read by the Python reader: for
#: a file of a sentence or two the scanner's setup costs more than it saves (130 µs a file against 65
#: for a one-sentence file; even at about 4 KB), and the columns its trees keep would outlive their use
#: (a corpus of one sentence per file, thousands of files: each file's table and columns kept).
SCAN_FROM_BYTES = 4096


def worth_scanning(path: PathLike) -> bool:
    """Whether a file is big enough for the compiled scanner (:data:`SCAN_FROM_BYTES`); one whose
    size cannot be known (a pipe) is scanned, as any file was."""
    try:
        return os.path.getsize(path) >= SCAN_FROM_BYTES or not os.path.isfile(path)
    except OSError:
        return True


def scan_file(path: PathLike, table: Optional[object] = None, name: Optional[str] = None) -> Optional[Scanned]:
    """The file read by the Cython scanner in blocks, or ``None`` where the scanner leaves
    it to the Python readers (anything but plain CoNLL-U with ``\\n`` line ends, valid
    UTF-8: they read it and give the errors)."""
    with open(path, "rb") as handle:
        return _scan_blocks(handle, table, name or os.fspath(path))


def scan_bytes(data: bytes, name: str, table: Optional[object] = None) -> Optional[Scanned]:
    """:func:`scan_file` of a file's bytes already in memory (a member of a tool's ZIP export, a
    multi-user file's text encoded), ``name`` naming it in the trees' locations."""
    return _scan_blocks(io.BytesIO(data), table, name)


def _scan_blocks(handle: BinaryIO, table: Optional[object], name: str) -> Optional[Scanned]:
    from ... import _conllu

    own = table is None  # a table of the file's own, kept by what is read from it: cut down at the end
    table = table if table is not None else _conllu.StringTable()
    parts: List[Tuple[dict, dict]] = []
    line = 1
    rest = b""
    while True:
        block = handle.read(BLOCK)
        data = rest + block
        if not block:
            cut = len(data)
        else:
            cut = data.rfind(b"\n\n") + 2
            if cut < 2:
                rest = data
                continue
        chunk, rest = data[:cut], data[cut:]
        if b"\r" in chunk:
            return None
        try:
            stop, rows, sentences = _conllu.scan(chunk, table, line, check_utf8=True)
        except (UnicodeDecodeError, OverflowError):
            return None
        if stop is not None:
            return None
        parts.append((rows, sentences))
        line += chunk.count(b"\n")
        if not block:
            break
    if not parts or not len(parts[0][1]["line"]) and len(parts) == 1:
        return None  # an empty file: the readers say what they say about it
    if own:
        table.shrink()
    return Scanned(name, table, *join_scanned(parts))


def join_scanned(parts: List[Tuple[dict, dict]]) -> Tuple[dict, dict]:
    """Scanned pieces of consecutive sentences (``(rows, sentences)`` of ``_conllu.scan``) as one."""
    if len(parts) == 1:
        return parts[0]
    rows = {key: np.concatenate([r[key] for r, _ in parts]) for key in parts[0][0]}
    shift = np.cumsum([0] + [len(r["kind"]) for r, _ in parts])
    sentences = {"rows": np.concatenate([parts[0][1]["rows"][:1]] + [s["rows"][1:] + shift[k]
                                                                       for k, (_, s) in enumerate(parts)]),
                 "line": np.concatenate([s["line"] for _, s in parts]),
                 "sent_id": [x for _, s in parts for x in s["sent_id"]]}
    return rows, sentences


def conllu_columns_from_scan(scanned: Scanned, arrays: Optional[StringArrays] = None) -> Optional[ConlluColumns]:
    """:class:`~.columns.ConlluColumns` from a scanned file, or ``None`` when the file breaks a rule of
    the reader (:mod:`~.column_reader`, which then names the error); ``arrays``: :class:`StringArrays`,
    kept by a caller."""

    rows, sentences = scanned.rows, scanned.sentences
    kind, first, last = rows["kind"], rows["first"].astype(np.int64), rows["last"].astype(np.int64)
    codes, lines = rows["codes"], rows["line"]
    n_rows = len(kind)
    sentence_rows = sentences["rows"]
    is_range, is_word = kind == 1, kind == 0
    covered = np.zeros(n_rows + 1, dtype=bool)
    ranges = np.flatnonzero(is_range)
    sizes = last[ranges] - first[ranges] + 1
    if len(ranges):
        covered[np.repeat(ranges + 1 - np.cumsum(np.append(0, sizes[:-1])), sizes) + np.arange(int(sizes.sum()))] = True
    covered = covered[:n_rows]
    token_row = is_range | (is_word & ~covered)
    word_rows = np.flatnonzero(is_word)
    row_sentence = np.repeat(np.arange(len(sentence_rows) - 1), np.diff(sentence_rows))
    word_sentence = row_sentence[word_rows]
    n_sent = len(sentence_rows) - 1
    words_per = np.bincount(word_sentence, minlength=n_sent)
    tokens_per = np.bincount(row_sentence[token_row], minlength=n_sent)
    if n_sent == 0 or (words_per == 0).any():
        return None
    sentence_words = np.zeros(n_sent + 1, dtype=np.int64)
    np.cumsum(words_per, out=sentence_words[1:])
    heads = rows["head"][word_rows].astype(np.int64)
    n_of_word = words_per[word_sentence]
    if (heads > n_of_word).any() or (np.bincount(word_sentence, weights=heads == 0, minlength=n_sent) != 1).any():
        return None
    arrays = (arrays or StringArrays(scanned.table)).update()
    table, spaceless = arrays.values, arrays.spaceless  # one longer than the codes: "" for -1
    token_form_codes = codes[token_row, 0]
    length = arrays.lengths[token_form_codes]
    if (length == 0).any():
        return None
    token_rows = np.flatnonzero(token_row)
    word_token = (np.cumsum(token_row) - 1)[word_rows].astype(np.int64)
    token_end = np.cumsum(length, dtype=np.int64)
    token_start = token_end - length
    sentence_tokens = np.zeros(n_sent + 1, dtype=np.int64)
    np.cumsum(tokens_per, out=sentence_tokens[1:])
    sentence_start = np.append(token_start, 0)[sentence_tokens[:-1]]
    sentence_end = np.append(0, token_end)[sentence_tokens[1:]]
    word_codes = codes[word_rows]
    scanned_text = ScannedText(token_form_codes, word_codes, table, spaceless, first[token_rows], last[token_rows],
                               covered[word_rows], sentences["sent_id"])
    columns = ConlluColumns(
        scanned.source, None, token_start, token_end, is_range[token_rows], None, lines[token_rows].astype(np.int64),
        word_token, lines[word_rows].astype(np.int64), None, None, None, None, None, heads, None, sentence_start,
        sentence_end, sentence_tokens, sentence_words, sentences["line"].astype(np.int64), None,
        int(np.count_nonzero(kind == 2)), word_codes, scanned.table, table, scanned_text)
    try:
        check_cycles(columns)
    except InvalidTreeError:
        return None
    return columns


__all__ = ["BLOCK", "Scanned", "StringArrays", "conllu_columns_from_scan", "join_scanned", "remove_spaces",
           "scan_file", "worth_scanning"]
