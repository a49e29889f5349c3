"""A CoNLL-U file read into its token and word columns (:class:`~.columns.ConlluColumns`) as a
character-based word alignment needs them: surface tokens with their character spans, syntactic
words with the token each belongs to, and the word columns.

This is the reading of the CoNLL 2018 shared task's ``conll18_ud_eval.py`` (Zeman et al. 2018,
"CoNLL 2018 Shared Task: Multilingual Parsing from Raw Text to Universal Dependencies", the
section on evaluation; the script's ``load_conllu``), which aligns a system file to the gold
through the characters of the text rather than through token positions
(:mod:`spacy_agreement.evaluation.conll18.alignment`). What is read, in the script's terms:

* **The text** is every surface token's FORM, concatenated, with the characters of Unicode
  category Zs (spaces) removed, so that a token ``New York`` is the characters ``NewYork``
  and two files that tokenise the same text differently have the same characters.
* **Tokens** are the lines of multiword ranges (``3-4 du``) and of single words (``5 livre``);
  each has a span ``[start, end)`` over the text of the whole file. A token whose FORM is
  empty once the spaces are removed is an error.
* **Words** are the syntactic words (ids ``1..n``): those of a range are the lines that follow
  it, and they share its span; a single word is its own token. Their columns are kept as
  written (FORM, LEMMA, UPOS, XPOS, FEATS, DEPREL as text, HEAD as an integer); the metrics
  normalise them (universal features, relation without subtype).
* **Empty nodes** (``5.1``) are skipped, as the script skips them, and counted
  (:attr:`ConlluColumns.empty_nodes`). DEPS and MISC are not read.
* **Sentences** are blank-line separated blocks; a sentence's span covers its tokens.
  Comment lines (``#``) come before a sentence's first token line; ``# sent_id = X`` is kept
  for error messages.

Lines are split at tabs only (spaces belong to the column), as the script splits them. What the
script refuses is refused, with one :class:`~spacy_agreement.errors.InvalidTreeError` naming
file, line, sentence (and ``sent_id``) and token (``file:LINE: sentence N (sent_id X), token M:
message``):

* a line that is not 10 tab-separated columns (a blank line inside a multiword token's words,
  a line of spaces, the file ending inside a range), a comment line inside a sentence, a file
  whose last sentence is not closed by a blank line, an empty sentence (two blank lines in a
  row: the script reads an empty sentence there and refuses it, having no root);
* a word id that is not the next one, a range id that is not ``a-b`` of integers, a HEAD that
  is not an integer, below 0 or above the sentence's length, a head cycle, and a sentence with
  no word or more than one word attached to the root (0). Errors come in the order of the file,
  except a cycle in a sentence that has one root: those are looked for once the whole file is
  read (for all sentences at once) and the first is reported.

Where the script reads a malformed file without complaint this reader is stricter, and says so:
the script takes the ``b - a + 1`` lines after a range ``a-b`` as its words whatever their ids
(an empty node there becomes a word, a range ``4-3`` has none); here they must be the words
``a..b``, with ``a`` the next word id. On valid CoNLL-U the two read the same. Everything the
script accepts otherwise is accepted: several blocks of comments, trailing comments, any DEPS
and MISC, HEAD and DEPREL as the words have them (``root`` written ``ROOT``, relations outside
UD), a range of one word (``3-3``). The file must be UTF-8 (the first bad byte is named).

The columns are arrays over the whole file at once (:mod:`~.columns`). A path is read by the
compiled scanner (:mod:`~.scan`) where it can, else by the Python reader here, one pass over the
lines, linear in the file; both give the same columns, and the Python reader names the errors.
"""
from __future__ import annotations

import io
import os
from sys import intern
from typing import Iterable, List, Optional, Union

import numpy as np

from ...errors import InvalidTreeError, Location, not_utf8
from .columns import ConlluColumns, SentenceColumns, check_cycles, first_cycle, parse_sent_id
from .scan import BLOCK, Scanned, StringArrays, conllu_columns_from_scan, join_scanned, remove_spaces, scan_file

PathLike = Union[str, "os.PathLike[str]"]

#: the CoNLL-U columns this reader keeps, by position
ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL = range(8)
COLUMNS = 10


def _column_problem(line: str, count: int) -> str:
    what = "an empty line" if not line else f"{count} tab-separated column" + ("s" if count > 1 else "")
    hint = " (a byte-order mark starts the file)" if line.startswith("\ufeff") else ""
    return f"line has {what}, expected {COLUMNS}{hint}"


def _read(handle: Iterable[str], source: str) -> ConlluColumns:
    """Read a file line by line (one tight loop: this is the hot path of the alignment)."""
    pieces: List[str] = []  # the tokens' characters
    token_length: List[int] = []
    token_multiword: List[bool] = []
    token_ids: List[str] = []
    token_lines: List[int] = []
    # the words' columns (FORM of a single word without spaces), kept as lists of strings:
    # strings are not tracked by the garbage collector, lists of them per line would be; the
    # columns that repeat are interned (one string per value: less memory, quicker to compare)
    forms: List[str] = []
    lemmas: List[str] = []
    upos: List[str] = []
    xpos: List[str] = []
    feats: List[str] = []
    deprels: List[str] = []
    word_token: List[int] = []
    word_lines: List[int] = []
    heads: List[int] = []
    sentence_tokens, sentence_words = [0], [0]
    sentence_lines: List[int] = []
    sent_ids: List[Optional[str]] = []
    empty_nodes = 0

    def fail(message: str, line: Optional[int] = None, token: Optional[str] = None) -> InvalidTreeError:
        """The error in the sentence being read."""
        return InvalidTreeError(message, Location(source, len(sent_ids), token, sentence_lines[-1], sent_ids[-1], line))

    def parse_head(columns: List[str], number: int) -> int:
        try:
            return int(columns[HEAD])
        except ValueError:
            raise fail(f"cannot parse HEAD {columns[HEAD]!r} (an integer is required)", number, columns[ID]) from None

    def word(columns: List[str], form: str) -> None:
        forms.append(form)
        lemmas.append(intern(columns[LEMMA]))
        upos.append(intern(columns[UPOS]))
        xpos.append(intern(columns[XPOS]))
        feats.append(intern(columns[FEATS]))
        deprels.append(intern(columns[DEPREL]))

    def close(number: int) -> None:
        """Check the sentence just read (heads in range, one root) and close it; cycles are
        looked for once the file is read."""
        w0 = sentence_words[-1]
        n = len(forms) - w0
        if n == 0:
            raise fail("empty sentence: a blank line where a sentence should start (conll18_ud_eval.py "
                       "reads an empty sentence there and refuses it)", number)
        sentence = heads[w0:]
        if min(sentence) < 0 or max(sentence) > n:
            k = next(k for k, h in enumerate(sentence) if h < 0 or h > n)
            raise fail(f"HEAD {sentence[k]} points outside the sentence (words 1..{n}, 0 for the root)",
                       word_lines[w0 + k], str(k + 1))
        if sentence.count(0) != 1:
            cycle = first_cycle(sentence)
            if cycle is not None:  # no root at all, or a cycle beside the roots: the cycle first, as the script
                raise fail(f"head cycle {' -> '.join(map(str, cycle))}", word_lines[w0 + cycle[0] - 1], str(cycle[0]))
            roots = [k + 1 for k, h in enumerate(sentence) if h == 0]
            raise fail(f"{len(roots)} words attached to the root (0): {', '.join(map(str, roots))}; the sentence "
                       "must have one", word_lines[w0 + roots[1] - 1], str(roots[1]))
        sentence_tokens.append(len(token_ids))
        sentence_words.append(len(forms))

    # the appends of the hot path, bound once
    add_form, add_lemma, add_upos, add_xpos, add_feats, add_deprel = (
        forms.append, lemmas.append, upos.append, xpos.append, feats.append, deprels.append)
    add_piece, add_length, add_multiword, add_token_id, add_token_line = (
        pieces.append, token_length.append, token_multiword.append, token_ids.append, token_lines.append)
    add_word_token, add_word_line, add_head = word_token.append, word_lines.append, heads.append
    lines = enumerate(handle, start=1)
    in_sentence = False
    block_line: Optional[int] = None  # first line of the block being read (its first comment)
    sent_id: Optional[str] = None
    number = 0
    expected = 1  # the next word id
    for number, raw in lines:
        line = raw.rstrip("\r\n")
        if not in_sentence:
            if line.startswith("#"):
                if block_line is None:
                    block_line = number
                if "sent_id" in line:
                    found = parse_sent_id(line)
                    if found is not None:
                        sent_id = found
                continue
            sentence_lines.append(block_line if block_line is not None else number)
            sent_ids.append(sent_id)
            in_sentence, block_line, sent_id, expected = True, None, None, 1
        if not line:
            close(number)
            in_sentence = False
            continue
        columns = line.split("\t")
        if len(columns) != COLUMNS:
            if line.startswith("#"):
                raise fail("comment line inside a sentence (comments come before its first word)", number)
            raise fail(_column_problem(line, len(columns)), number, columns[0] if len(columns) > 1 else None)
        tid = columns[ID]
        if "." in tid:  # an empty node: not a word of the basic tree
            empty_nodes += 1
            continue
        form = columns[FORM]
        if " " in form or not form.isprintable():
            form = remove_spaces(form)
            if not form:
                raise fail("empty FORM (the token's characters, spaces removed, are the text)", number, tid)
        if "-" not in tid:  # a single word, its own token
            try:
                word_id = int(tid)
            except ValueError:
                raise fail(f"cannot parse the word id {tid!r}", number, tid) from None
            if word_id != expected:
                raise fail(f"word id {tid} where {expected} is expected", number, tid)
            try:
                head = int(columns[HEAD])
            except ValueError:
                head = parse_head(columns, number)  # raises
            if head < 0:
                raise fail(f"HEAD {columns[HEAD]} is negative", number, tid)
            add_word_token(len(token_ids))
            add_piece(form)
            add_length(len(form))
            add_multiword(False)
            add_token_id(tid)
            add_token_line(number)
            add_form(form)
            add_lemma(intern(columns[LEMMA]))
            add_upos(intern(columns[UPOS]))
            add_xpos(intern(columns[XPOS]))
            add_feats(intern(columns[FEATS]))
            add_deprel(intern(columns[DEPREL]))
            add_word_line(number)
            add_head(head)
            expected += 1
            continue
        parts = tid.split("-")
        try:
            first, last = (int(parts[0]), int(parts[1])) if len(parts) == 2 else (None, None)
        except ValueError:
            first = last = None
        if first is None or last is None:
            raise fail(f"cannot parse the multiword token id {tid!r} (a-b, integers)", number, tid)
        if first != expected or last < first:
            raise fail(f"multiword token {tid} must cover words {expected}..b with b >= {expected}", number, tid)
        token = len(token_ids)
        pieces.append(form)
        token_length.append(len(form))
        token_multiword.append(True)
        token_ids.append(tid)
        token_lines.append(number)
        for k in range(first, last + 1):
            word_number, word_raw = next(lines, (number + 1, ""))
            number = word_number
            word_line = word_raw.rstrip("\r\n")
            if not word_line or word_line.startswith("#"):
                what = "a comment" if word_line else "a blank line or the end of the file"
                raise fail(f"multiword token {tid}: word {k} is missing (found {what})", word_number, tid)
            word_columns = word_line.split("\t")
            if len(word_columns) != COLUMNS:
                raise fail(_column_problem(word_line, len(word_columns)), word_number,
                           word_columns[0] if len(word_columns) > 1 else None)
            word_tid = word_columns[ID]
            try:
                found_id = int(word_tid)
            except ValueError:
                found_id = None
            if found_id != k:
                raise fail(f"multiword token {tid}: word {k} is missing (found id {word_tid!r}; "
                           f"conll18_ud_eval.py would read that line as word {k})", word_number, word_tid)
            word_token.append(token)
            word(word_columns, word_columns[FORM])  # a word of a multiword token keeps its FORM as written
            word_lines.append(word_number)
            heads.append(parse_head(word_columns, word_number))
        expected = last + 1
    if in_sentence:
        raise fail("the file does not end with a blank line (the last sentence is not closed)", number)

    i64 = np.int64
    length = np.asarray(token_length, dtype=i64)
    token_end = np.cumsum(length, dtype=i64)
    token_start = token_end - length
    sentence_tokens_array = np.asarray(sentence_tokens, dtype=i64)
    sentence_start = np.append(token_start, 0)[sentence_tokens_array[:-1]]
    sentence_end = np.append(0, token_end)[sentence_tokens_array[1:]]
    columns = ConlluColumns(
        source, "".join(pieces), token_start, token_end, np.asarray(token_multiword, dtype=bool), token_ids,
        np.asarray(token_lines, dtype=i64), np.asarray(word_token, dtype=i64), np.asarray(word_lines, dtype=i64),
        forms, lemmas, upos, xpos, feats, np.asarray(heads, dtype=i64), deprels, sentence_start,
        sentence_end, sentence_tokens_array, np.asarray(sentence_words, dtype=i64),
        np.asarray(sentence_lines, dtype=i64), sent_ids, empty_nodes)
    check_cycles(columns)
    return columns


def read_conllu_columns(source: Union[PathLike, io.TextIOBase], name: Optional[str] = None,
                        scanned: Optional[Scanned] = None) -> ConlluColumns:
    """The token and word columns of a CoNLL-U file (a path or an open text file), read as
    ``conll18_ud_eval.py`` reads it (module docstring). ``name`` names the source in errors
    (default: the path, or the open file's name). A path is read by the Cython scanner
    (``scanned``, when the caller has scanned it already) unless it holds something only the
    Python reader takes or refuses: that reader then reads it and names the error."""
    if isinstance(source, (str, os.PathLike)):
        name = name or os.fspath(source)
        if scanned is None or scanned.source != name:
            scanned = scan_file(source, name=name)
        columns = conllu_columns_from_scan(scanned) if scanned is not None else None
        if columns is not None:
            return columns
        with open(source, encoding="utf-8") as handle:  # universal newlines, as the script's open
            try:
                return _read(handle, name)
            except UnicodeDecodeError as exc:
                raise not_utf8(source, exc) from None
    return _read(source, str(name or getattr(source, "name", "<input>")))


def parse_conllu_columns(text: str, name: str = "<string>") -> ConlluColumns:
    """The token and word columns of CoNLL-U text (:func:`read_conllu_columns`)."""
    return _read(io.StringIO(text, newline=None), name)


#: 0.3's names (``spacy_agreement.adapters.conllu_words``, which is this module now), until 0.5:
#: "layers" are annotation layers only
ConlluLayers = ConlluColumns
SentenceLayers = SentenceColumns
read_conllu_layers = read_conllu_columns
parse_conllu_layers = parse_conllu_columns
layers_from_scan = conllu_columns_from_scan

__all__ = ["BLOCK", "COLUMNS", "ConlluColumns", "PathLike", "Scanned", "SentenceColumns", "StringArrays",
           "conllu_columns_from_scan", "join_scanned", "parse_conllu_columns", "read_conllu_columns",
           "remove_spaces", "scan_file"]
