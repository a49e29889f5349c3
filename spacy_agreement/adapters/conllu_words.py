"""A CoNLL-U file's layers as a character-based word alignment needs them: surface tokens with
their character spans, syntactic words with the token each belongs to, and the word columns.

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
  (:attr:`ConlluLayers.empty_nodes`). DEPS and MISC are not read.
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

The layers are columnar (numpy arrays of offsets and heads, lists of the text columns, whose
repeated values are one interned string each), for the whole file at once: the alignment runs
over the characters of the whole file, whose sentence boundaries need not agree with the other
file's. Reading is one pass over the lines, linear in the file.
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass
from sys import intern
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..errors import InvalidTreeError, Location, not_utf8
from .string_arrays import StringArrays, remove_spaces  # noqa: F401 (remove_spaces: re-exported)

PathLike = Union[str, "os.PathLike[str]"]

#: the CoNLL-U columns this reader keeps, by position
ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL = range(8)
COLUMNS = 10


@dataclass(frozen=True)
class SentenceLayers:
    """One sentence of :class:`ConlluLayers`, as plain Python values (for inspection and tests;
    the alignment reads the columnar arrays). Token spans are offsets into :attr:`text`, the
    sentence's own characters; ``word_tokens[k]`` is the token (0-based, in this sentence) of
    word ``k + 1``; ``heads`` are ids (0 = root)."""

    location: Location
    text: str
    token_ids: Tuple[str, ...]
    token_spans: Tuple[Tuple[int, int], ...]
    multiword: Tuple[bool, ...]
    word_tokens: Tuple[int, ...]
    forms: Tuple[str, ...]
    lemmas: Tuple[str, ...]
    upos: Tuple[str, ...]
    xpos: Tuple[str, ...]
    feats: Tuple[str, ...]
    heads: Tuple[int, ...]
    deprels: Tuple[str, ...]


@dataclass(frozen=True, eq=False)
class ConlluLayers:
    """The tokens, words and sentences of one CoNLL-U file (module docstring), columnar.

    Character offsets are into :attr:`text`, the whitespace-free characters of the whole file.
    Per token (in file order): ``token_start``/``token_end`` (its span), ``token_multiword``
    (a range line), ``token_ids`` (the id as written, ``3-4`` or ``5``), ``token_lines``
    (1-based file line). Per word (in file order): ``word_token`` (index of its token),
    ``word_lines``, the columns ``forms`` (as written), ``lemmas``, ``upos``, ``xpos``,
    ``feats``, ``deprels`` and ``heads`` (0 = root, else the id of the head in the sentence).
    Per sentence: ``sentence_start``/``sentence_end`` (character span), ``sentence_tokens`` and
    ``sentence_words`` (offsets, one longer than the sentences: sentence ``s`` has words
    ``sentence_words[s]:sentence_words[s + 1]``), ``sentence_lines`` (the first line of its
    block: first comment or token line) and ``sent_ids``. ``empty_nodes`` counts the skipped
    empty-node lines."""

    source: str
    text: str
    token_start: np.ndarray
    token_end: np.ndarray
    token_multiword: np.ndarray
    token_ids: List[str]
    token_lines: np.ndarray
    word_token: np.ndarray
    word_lines: np.ndarray
    forms: List[str]
    lemmas: List[str]
    upos: List[str]
    xpos: List[str]
    feats: List[str]
    heads: np.ndarray
    deprels: List[str]
    sentence_start: np.ndarray
    sentence_end: np.ndarray
    sentence_tokens: np.ndarray
    sentence_words: np.ndarray
    sentence_lines: np.ndarray
    sent_ids: List[Optional[str]]
    empty_nodes: int = 0

    def __len__(self) -> int:
        """The number of sentences."""
        return len(self.sent_ids)

    @property
    def n_tokens(self) -> int:
        return len(self.token_ids)

    @property
    def n_words(self) -> int:
        return len(self.forms)

    @property
    def multiword_tokens(self) -> int:
        """How many tokens are multiword ranges."""
        return int(self.token_multiword.sum())

    @property
    def word_sentence(self) -> np.ndarray:
        """The sentence (0-based) of each word."""
        return np.repeat(np.arange(len(self), dtype=np.int64), np.diff(self.sentence_words))

    @property
    def word_ids(self) -> np.ndarray:
        """The id (1-based, in its sentence) of each word."""
        return np.arange(self.n_words, dtype=np.int64) - self.sentence_words[:-1][self.word_sentence] + 1

    @property
    def head_words(self) -> np.ndarray:
        """The head of each word as an index into the file's words; -1 for the root."""
        first = self.sentence_words[:-1][self.word_sentence]
        heads = self.heads.astype(np.int64)
        return np.where(heads > 0, first + heads - 1, -1)

    def token_sentence(self, token: int) -> int:
        """The sentence (0-based) of token ``token`` (an index into the tokens)."""
        return int(np.searchsorted(self.sentence_tokens, token, side="right")) - 1

    def sentence_location(self, sentence: int) -> Location:
        """Where sentence ``sentence`` (0-based) is: file, number (1-based), line, ``sent_id``."""
        return Location(self.source, sentence + 1, None, int(self.sentence_lines[sentence]), self.sent_ids[sentence])

    def token_location(self, token: int) -> Location:
        """Where token ``token`` (an index into the tokens) is: its sentence, id and line."""
        where = self.sentence_location(self.token_sentence(token))
        return where.at_token(self.token_ids[token], int(self.token_lines[token]))

    def word_location(self, word: int) -> Location:
        """Where word ``word`` (an index into the words) is: its sentence, id and line."""
        sentence = int(np.searchsorted(self.sentence_words, word, side="right")) - 1
        where = self.sentence_location(sentence)
        return where.at_token(word - int(self.sentence_words[sentence]) + 1, int(self.word_lines[word]))

    def sentence(self, sentence: int) -> SentenceLayers:
        """Sentence ``sentence`` (0-based) as a :class:`SentenceLayers`."""
        t0, t1 = int(self.sentence_tokens[sentence]), int(self.sentence_tokens[sentence + 1])
        w0, w1 = int(self.sentence_words[sentence]), int(self.sentence_words[sentence + 1])
        c0, c1 = int(self.sentence_start[sentence]), int(self.sentence_end[sentence])
        return SentenceLayers(
            self.sentence_location(sentence), self.text[c0:c1], tuple(self.token_ids[t0:t1]),
            tuple((int(a) - c0, int(b) - c0) for a, b in zip(self.token_start[t0:t1], self.token_end[t0:t1])),
            tuple(bool(m) for m in self.token_multiword[t0:t1]),
            tuple(int(t) - t0 for t in self.word_token[w0:w1]), tuple(self.forms[w0:w1]), tuple(self.lemmas[w0:w1]),
            tuple(self.upos[w0:w1]), tuple(self.xpos[w0:w1]), tuple(self.feats[w0:w1]),
            tuple(int(h) for h in self.heads[w0:w1]), tuple(self.deprels[w0:w1]))

    def sentences(self) -> Iterable[SentenceLayers]:
        for s in range(len(self)):
            yield self.sentence(s)


def _first_cycle(heads: Sequence[int]) -> Optional[List[int]]:
    """The first head cycle of a sentence (heads 1-based, 0 = root, all in range), as the ids
    on it from the smallest and back to it; ``None`` when every word reaches the root."""
    n = len(heads)
    state = [0] * (n + 1)  # 0 unseen, 1 on the current path, 2 reaches the root
    state[0] = 2
    for start in range(1, n + 1):
        path = []
        k = start
        while state[k] == 0:
            state[k] = 1
            path.append(k)
            k = heads[k - 1]
        if state[k] == 1:  # back on the current path: a cycle through k
            cycle = path[path.index(k):]
            first = cycle.index(min(cycle))
            return cycle[first:] + cycle[:first] + [min(cycle)]
        for j in path:
            state[j] = 2
    return None


def _sent_id(line: str) -> Optional[str]:
    """The value of a ``# sent_id = X`` comment (else ``None``)."""
    body = line[1:].strip()
    if not body.startswith("sent_id"):
        return None
    key, sep, value = body.partition("=")
    if not sep or key.strip() != "sent_id":
        return None
    return value.strip()


def _column_problem(line: str, count: int) -> str:
    what = "an empty line" if not line else f"{count} tab-separated column" + ("s" if count > 1 else "")
    hint = " (a byte-order mark starts the file)" if line.startswith("\ufeff") else ""
    return f"line has {what}, expected {COLUMNS}{hint}"


def _read(handle: Iterable[str], source: str) -> ConlluLayers:
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
            cycle = _first_cycle(sentence)
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
                    found = _sent_id(line)
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
    layers = ConlluLayers(
        source, "".join(pieces), token_start, token_end, np.asarray(token_multiword, dtype=bool), token_ids,
        np.asarray(token_lines, dtype=i64), np.asarray(word_token, dtype=i64), np.asarray(word_lines, dtype=i64),
        forms, lemmas, upos, xpos, feats, np.asarray(heads, dtype=i64), deprels, sentence_start,
        sentence_end, sentence_tokens_array, np.asarray(sentence_words, dtype=i64),
        np.asarray(sentence_lines, dtype=i64), sent_ids, empty_nodes)
    _check_cycles(layers)
    return layers


def _check_cycles(layers: ConlluLayers) -> None:
    """A head cycle beside the one root is an error (the first in the file): every word must
    reach the root. Found for the whole file at once by doubling the steps up the heads."""
    if not layers.n_words:
        return
    up = layers.head_words
    longest = int(np.diff(layers.sentence_words).max())
    steps = 1
    while steps < longest:
        up = np.where(up >= 0, up[np.maximum(up, 0)], -1)
        steps *= 2
    up = np.where(up >= 0, up[np.maximum(up, 0)], -1)
    stuck = np.flatnonzero(up >= 0)
    if not len(stuck):
        return
    sentence = int(np.searchsorted(layers.sentence_words, stuck[0], side="right")) - 1
    w0, w1 = int(layers.sentence_words[sentence]), int(layers.sentence_words[sentence + 1])
    cycle = _first_cycle(layers.heads[w0:w1].tolist())
    assert cycle is not None
    where = layers.sentence_location(sentence)
    raise InvalidTreeError(f"head cycle {' -> '.join(map(str, cycle))}",
                           where.at_token(cycle[0], int(layers.word_lines[w0 + cycle[0] - 1])))


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


def scan_file(path: PathLike, table: Optional[object] = None, name: Optional[str] = None) -> Optional[Scanned]:
    """The file read by the Cython scanner in blocks, or ``None`` where the scanner leaves
    it to the Python readers (anything but plain CoNLL-U with ``\\n`` line ends, valid
    UTF-8: they read it and give the errors)."""
    from .. import _conllu

    table = table if table is not None else _conllu.StringTable()
    parts: List[Tuple[dict, dict]] = []
    line = 1
    rest = b""
    with open(path, "rb") as handle:
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
                chunk.decode("utf-8")
                stop, rows, sentences = _conllu.scan(chunk, table, line)
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
    return Scanned(name or os.fspath(path), table, *join_scanned(parts))


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


def layers_from_scan(scanned: Scanned, arrays: Optional[Any] = None) -> Optional[ConlluLayers]:
    """:class:`ConlluLayers` from a scanned file, or ``None`` when the file breaks a rule of this reader (the
    Python reader then names the error); ``arrays``: :class:`~.string_arrays.StringArrays`, kept by a caller."""

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
    token_forms = spaceless[token_form_codes]
    length = arrays.lengths[token_form_codes]
    if (length == 0).any():
        return None
    token_rows = np.flatnonzero(token_row)
    numbers = [str(k) for k in range(int(last.max(initial=0)) + 1)]  # one string per id, shared by the sentences
    token_ids = [f"{a}-{b}" if r else numbers[a] for a, b, r in
                 zip(first[token_rows].tolist(), last[token_rows].tolist(), is_range[token_rows].tolist())]
    word_token = (np.cumsum(token_row) - 1)[word_rows].astype(np.int64)
    word_forms = np.where(covered[word_rows], table[codes[word_rows, 0]], spaceless[codes[word_rows, 0]])

    def column(k: int) -> List[str]:
        return table[codes[word_rows, k]].tolist()

    token_end = np.cumsum(length, dtype=np.int64)
    token_start = token_end - length
    sentence_tokens = np.zeros(n_sent + 1, dtype=np.int64)
    np.cumsum(tokens_per, out=sentence_tokens[1:])
    sentence_start = np.append(token_start, 0)[sentence_tokens[:-1]]
    sentence_end = np.append(0, token_end)[sentence_tokens[1:]]
    sent_ids = [None if line is None else _sent_id(line) for line in sentences["sent_id"]]
    layers = ConlluLayers(
        scanned.source, "".join(token_forms.tolist()), token_start, token_end, is_range[token_rows].copy(),
        token_ids, lines[token_rows].astype(np.int64), word_token, lines[word_rows].astype(np.int64),
        word_forms.tolist(), column(1), column(2), column(3), column(4), heads, column(5), sentence_start,
        sentence_end, sentence_tokens, sentence_words, sentences["line"].astype(np.int64), sent_ids,
        int(np.count_nonzero(kind == 2)))
    try:
        _check_cycles(layers)
    except InvalidTreeError:
        return None
    return layers


def read_conllu_layers(source: Union[PathLike, io.TextIOBase], name: Optional[str] = None,
                       scanned: Optional[Scanned] = None) -> ConlluLayers:
    """The layers of a CoNLL-U file (a path or an open text file), read as
    ``conll18_ud_eval.py`` reads it (module docstring). ``name`` names the source in errors
    (default: the path, or the open file's name). A path is read by the Cython scanner
    (``scanned``, when the caller has scanned it already) unless it holds something only the
    Python reader takes or refuses: that reader then reads it and names the error."""
    if isinstance(source, (str, os.PathLike)):
        name = name or os.fspath(source)
        if scanned is None or scanned.source != name:
            scanned = scan_file(source, name=name)
        layers = layers_from_scan(scanned) if scanned is not None else None
        if layers is not None:
            return layers
        with open(source, encoding="utf-8") as handle:  # universal newlines, as the script's open
            try:
                return _read(handle, name)
            except UnicodeDecodeError as exc:
                raise not_utf8(source, exc) from None
    return _read(source, str(name or getattr(source, "name", "<input>")))


def parse_conllu_layers(text: str, name: str = "<string>") -> ConlluLayers:
    """The layers of CoNLL-U text (:func:`read_conllu_layers`)."""
    return _read(io.StringIO(text, newline=None), name)
