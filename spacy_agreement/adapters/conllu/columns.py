"""A CoNLL-U file's token and word columns as a character-based word alignment needs them
(:class:`ConlluColumns`: surface tokens with their character spans, syntactic words with the token
each belongs to, the word columns), and the checks both readers of them share: the one root and no
head cycle of every sentence (:func:`check_cycles`).

Two readers build them, with the same result: the Python reader, line by line
(:mod:`~spacy_agreement.adapters.conllu.column_reader`, whose docstring says what is read and what
is refused, as ``conll18_ud_eval.py`` reads a file) and the compiled scanner
(:func:`~spacy_agreement.adapters.conllu.scan.conllu_columns_from_scan`).

The columns are columnar (numpy arrays of offsets and heads, lists of the text columns, whose
repeated values are one interned string each), for the whole file at once: the alignment runs
over the characters of the whole file, whose sentence boundaries need not agree with the other
file's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from ...errors import InvalidTreeError, Location


@dataclass(frozen=True)
class SentenceColumns:
    """One sentence of :class:`ConlluColumns`, as plain Python values (for inspection and tests;
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
class ScannedText:
    """What the scanner's :class:`ConlluColumns` make their strings from when first read (an
    evaluation that compares codes never makes them): each token's FORM code and each word's
    codes of its text columns (``token_codes``, ``word_codes``: the scanned rows' columns, in the
    table of the columns' ``code_table``), ``values``
    and ``spaceless`` (each code's text as written and without its spaces, ``""`` last for -1),
    each token's first and last word id, which words belong to a multiword token (their FORM as
    written, a single word's without spaces) and each sentence's ``# sent_id`` comment line as
    read (``None`` for none)."""

    token_codes: np.ndarray
    word_codes: np.ndarray
    values: np.ndarray
    spaceless: np.ndarray
    token_first: np.ndarray
    token_last: np.ndarray
    word_covered: np.ndarray
    sent_id_lines: List[Optional[str]]

    def text(self) -> str:
        return "".join(self.spaceless[self.token_codes].tolist())

    def token_ids(self, multiword: np.ndarray) -> List[str]:
        first = self.token_first
        numbers = np.asarray([str(k) for k in range(int(first.max(initial=0)) + 1)], dtype=object)
        ids = numbers[first]
        multi = np.flatnonzero(multiword)
        if len(multi):
            ids[multi] = [f"{a}-{b}" for a, b in zip(first[multi].tolist(), self.token_last[multi].tolist())]
        return ids.tolist()

    def forms(self) -> List[str]:
        codes = self.word_codes[:, 0]
        return np.where(self.word_covered, self.values[codes], self.spaceless[codes]).tolist()

    def column(self, k: int) -> List[str]:
        """Column ``k`` of the scanned rows' codes (1 LEMMA, 2 UPOS, 3 XPOS, 4 FEATS, 5 DEPREL)
        as strings."""
        return self.values[self.word_codes[:, k]].tolist()

    def sent_ids(self) -> List[Optional[str]]:
        return [None if line is None else parse_sent_id(line) for line in self.sent_id_lines]


@dataclass(frozen=True, eq=False)
class ConlluColumns:
    """The tokens, words and sentences of one CoNLL-U file, columnar (the reading:
    :mod:`~spacy_agreement.adapters.conllu.column_reader`).

    Character offsets are into :attr:`text`, the whitespace-free characters of the whole file.
    Per token (in file order): ``token_start``/``token_end`` (its span), ``token_multiword``
    (a range line), ``token_ids`` (the id as written, ``3-4`` or ``5``), ``token_lines``
    (1-based file line). Per word (in file order): ``word_token`` (index of its token),
    ``word_lines``, the columns ``forms`` (as written), ``lemmas``, ``upos``, ``xpos``,
    ``feats``, ``deprels`` and ``heads`` (0 = root, else the id of the head in the sentence);
    the scanner's reading passes ``None`` for ``text``, ``token_ids``, ``sent_ids`` and the
    word columns but ``heads`` (each made when first read, from ``scanned_text``; the fields
    are ``_text`` and so on, the names are properties). ``word_codes``, ``code_table`` and
    ``code_values`` let the scores compare codes instead of strings (``None``: they compare
    the strings).
    Per sentence: ``sentence_start``/``sentence_end`` (character span), ``sentence_tokens`` and
    ``sentence_words`` (offsets, one longer than the sentences: sentence ``s`` has words
    ``sentence_words[s]:sentence_words[s + 1]``), ``sentence_lines`` (the first line of its
    block: first comment or token line) and ``sent_ids``. ``empty_nodes`` counts the skipped
    empty-node lines."""

    source: str
    _text: Optional[str]
    token_start: np.ndarray
    token_end: np.ndarray
    token_multiword: np.ndarray
    _token_ids: Optional[List[str]]
    token_lines: np.ndarray
    word_token: np.ndarray
    word_lines: np.ndarray
    _forms: Optional[List[str]]
    _lemmas: Optional[List[str]]
    _upos: Optional[List[str]]
    _xpos: Optional[List[str]]
    _feats: Optional[List[str]]
    heads: np.ndarray
    _deprels: Optional[List[str]]
    sentence_start: np.ndarray
    sentence_end: np.ndarray
    sentence_tokens: np.ndarray
    sentence_words: np.ndarray
    sentence_lines: np.ndarray
    _sent_ids: Optional[List[Optional[str]]]
    empty_nodes: int = 0
    #: from the scanner: each word's string codes (the columns of the scanned rows, int32) in
    #: ``code_table``, and ``code_values`` (each code's text, ``""`` last for -1); ``None`` else
    word_codes: Optional[np.ndarray] = field(default=None, repr=False)
    code_table: Any = field(default=None, repr=False)
    code_values: Optional[np.ndarray] = field(default=None, repr=False)
    #: from the scanner: what :attr:`text`, :attr:`token_ids`, :attr:`forms` and :attr:`sent_ids`
    #: are made from when first read (given as ``None``); ``None`` else
    scanned_text: Optional["ScannedText"] = field(default=None, repr=False)

    def __len__(self) -> int:
        """The number of sentences."""
        return len(self.sentence_lines)

    def _made(self, name: str, make: Callable[[], Any]) -> Any:
        """A column given as ``None`` by the scanner's reading, made when first asked for (most
        runs compare the codes and never need the strings) and kept."""
        values = getattr(self, name)
        if values is None:
            values = make()
            object.__setattr__(self, name, values)
        return values

    def _text_column(self, name: str, k: int) -> List[str]:
        return self._made(name, lambda: self._scanned().column(k))

    def _scanned(self) -> "ScannedText":
        assert self.scanned_text is not None, "a column given as None without the scanner's text"
        return self.scanned_text

    @property
    def text(self) -> str:
        """The characters of the whole file: every token's FORM, spaces removed, concatenated."""
        return self._made("_text", lambda: self._scanned().text())

    @property
    def token_ids(self) -> List[str]:
        return self._made("_token_ids", lambda: self._scanned().token_ids(self.token_multiword))

    @property
    def forms(self) -> List[str]:
        return self._made("_forms", lambda: self._scanned().forms())

    @property
    def sent_ids(self) -> List[Optional[str]]:
        return self._made("_sent_ids", lambda: self._scanned().sent_ids())

    def same_text(self, other: "ConlluColumns") -> bool:
        """Whether both have the same :attr:`text`: at once where both were scanned into one
        table with the same FORM codes token by token (the same strings), else by the strings."""
        mine, theirs = self.scanned_text, other.scanned_text
        if (mine is not None and theirs is not None and self.code_table is not None
                and self.code_table is other.code_table and np.array_equal(mine.token_codes, theirs.token_codes)):
            return True
        return self.text == other.text

    @property
    def lemmas(self) -> List[str]:
        return self._text_column("_lemmas", 1)

    @property
    def upos(self) -> List[str]:
        return self._text_column("_upos", 2)

    @property
    def xpos(self) -> List[str]:
        return self._text_column("_xpos", 3)

    @property
    def feats(self) -> List[str]:
        return self._text_column("_feats", 4)

    @property
    def deprels(self) -> List[str]:
        return self._text_column("_deprels", 5)

    @property
    def n_tokens(self) -> int:
        return len(self.token_start)

    @property
    def n_words(self) -> int:
        return len(self.word_token)

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

    def sentence(self, sentence: int) -> SentenceColumns:
        """Sentence ``sentence`` (0-based) as a :class:`SentenceColumns`."""
        t0, t1 = int(self.sentence_tokens[sentence]), int(self.sentence_tokens[sentence + 1])
        w0, w1 = int(self.sentence_words[sentence]), int(self.sentence_words[sentence + 1])
        c0, c1 = int(self.sentence_start[sentence]), int(self.sentence_end[sentence])
        return SentenceColumns(
            self.sentence_location(sentence), self.text[c0:c1], tuple(self.token_ids[t0:t1]),
            tuple((int(a) - c0, int(b) - c0) for a, b in zip(self.token_start[t0:t1], self.token_end[t0:t1])),
            tuple(bool(m) for m in self.token_multiword[t0:t1]),
            tuple(int(t) - t0 for t in self.word_token[w0:w1]), tuple(self.forms[w0:w1]), tuple(self.lemmas[w0:w1]),
            tuple(self.upos[w0:w1]), tuple(self.xpos[w0:w1]), tuple(self.feats[w0:w1]),
            tuple(int(h) for h in self.heads[w0:w1]), tuple(self.deprels[w0:w1]))

    def sentences(self) -> Iterable[SentenceColumns]:
        for s in range(len(self)):
            yield self.sentence(s)


def first_cycle(heads: Sequence[int]) -> Optional[List[int]]:
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


def parse_sent_id(line: str) -> Optional[str]:
    """The value of a ``# sent_id = X`` comment (else ``None``)."""
    if line.startswith("# sent_id ="):  # nearly every such line: the same value, found at once
        return line[11:].strip()
    body = line[1:].strip()
    if not body.startswith("sent_id"):
        return None
    key, sep, value = body.partition("=")
    if not sep or key.strip() != "sent_id":
        return None
    return value.strip()


def check_cycles(columns: ConlluColumns) -> None:
    """A head cycle beside the one root is an error (the first in the file): every word must
    reach the root. Found for the whole file at once by the compiled walk
    (:func:`spacy_agreement._conllu.first_unreachable`: the heads are in range, both readers
    checked them)."""
    from ... import _conllu

    if not columns.n_words:
        return
    stuck = _conllu.first_unreachable(np.ascontiguousarray(columns.heads, dtype=np.int32),
                                      np.ascontiguousarray(columns.sentence_words, dtype=np.int64))
    if stuck < 0:
        return
    sentence = int(np.searchsorted(columns.sentence_words, stuck, side="right")) - 1
    w0, w1 = int(columns.sentence_words[sentence]), int(columns.sentence_words[sentence + 1])
    cycle = first_cycle(columns.heads[w0:w1].tolist())
    assert cycle is not None
    where = columns.sentence_location(sentence)
    raise InvalidTreeError(f"head cycle {' -> '.join(map(str, cycle))}",
                           where.at_token(cycle[0], int(columns.word_lines[w0 + cycle[0] - 1])))


#: 0.3's names (``adapters.conllu_words``), until 0.5: "layers" are annotation layers only
SentenceLayers = SentenceColumns
ConlluLayers = ConlluColumns

__all__ = ["ConlluColumns", "ScannedText", "SentenceColumns", "check_cycles", "first_cycle", "parse_sent_id"]
