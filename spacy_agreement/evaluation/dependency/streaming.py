"""``evaluate`` of two CoNLL-U files in flat memory: gold and prediction read in step, a block
of sentences at a time.

:class:`ScanStream` reads a file with the Cython scanner (:func:`spacy_agreement._conllu.scan`)
a chunk of bytes at a time (:data:`READ`, cut after a blank line) and hands out blocks of
whole sentences (:class:`Block`: the scanned rows of ``n`` sentences and the number of the
sentences before them, so that every message names the sentence by its number in the file
and its line). What it holds: the chunk being cut, and the scanned sentences read but not yet
handed out (less than one chunk's worth beyond the block asked for). Codes go into one
:class:`~spacy_agreement._conllu.StringTable`, shared by both files: it holds every distinct
text value once, so it grows with the vocabulary, not with the corpus.

:func:`identical_batches` gives the blocks of two files with the same tokens: block by block,
each pair of blocks checked (same number of sentences, same tokens: the messages of
:func:`column_problems`), for the compiled path of
:class:`~.accumulator.DependencyEvaluator` (``sa.evaluate`` feeds it the blocks, nothing kept
per sentence but the lines of the sentences skipped, with several roots or over the limits;
with ``keep_counts`` (``--ci``) each sentence's counts, a float array, and its name, packed);
:func:`evaluate_identical` is the same over :func:`~.column_evaluation.evaluate_batches`.
Sentences are paired by position, as the whole-file evaluation pairs them, and a pair whose
tokens differ is never scored as if they matched: without ``skip_mismatched`` it stops the
stream (:class:`TokensDiffer`, the caller aligns the files through their characters), with it
the pair is skipped and listed.

:class:`Unscannable` says that a block needs the Python readers (the scanner stops on anything
but plain CoNLL-U; a head outside its sentence, a relation ``_``, a sentence without words): the
caller then evaluates the files whole, as before, through the readers that name the file, the
sentence and the token of the problem.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import numpy as np

from ... import _conllu
from ..._background import Background
from ...adapters.conllu.trees import TreeColumns, tree_columns_from_scan
from ...adapters.conllu.column_reader import PathLike, Scanned, join_scanned

#: bytes read at a time (each chunk cut after its last blank line)
READ = 1 << 20
#: sentences per block: the temporaries of a block (columns, layers) stay a few MB
BLOCK = 2048


class Unscannable(Exception):
    """A file (or one of its blocks) that the fast readers leave to the Python readers; the
    caller evaluates the files whole, through those readers (they name the problem)."""


class TokensDiffer(Exception):
    """Gold and prediction differ in sentences or tokens (and mismatches are not skipped): the
    caller aligns the files through their characters instead."""


@dataclass(frozen=True)
class Block:
    """``n`` whole sentences of a file, scanned: ``scanned`` their rows (lines absolute),
    ``base`` the number of sentences of the file before them."""

    scanned: Scanned
    base: int

    def __len__(self) -> int:
        return len(self.scanned.sentences["line"])


def _slice(rows: dict, sentences: dict, a: int, b: int) -> Tuple[dict, dict]:
    """Sentences ``a:b`` of scanned rows (views, not copies)."""
    offsets = sentences["rows"]
    r0, r1 = int(offsets[a]), int(offsets[b])
    return ({key: value[r0:r1] for key, value in rows.items()},
            {"rows": offsets[a:b + 1] - r0, "line": sentences["line"][a:b], "sent_id": sentences["sent_id"][a:b]})


def split_scanned(scanned: Scanned, at: int) -> Tuple[Scanned, Scanned]:
    """The sentences before ``at`` and from ``at`` on."""
    n = len(scanned.sentences["line"])
    head, tail = _slice(scanned.rows, scanned.sentences, 0, at), _slice(scanned.rows, scanned.sentences, at, n)
    return (Scanned(scanned.source, scanned.table, *head), Scanned(scanned.source, scanned.table, *tail))


class ScanStream:
    """A CoNLL-U file read by the Cython scanner, block by block (module docstring). Raises
    :class:`Unscannable` where :func:`~spacy_agreement.adapters.conllu.column_reader.scan_file` would
    give ``None`` (the same chunks, the same checks: ``\\r``, bad UTF-8, anything the scanner
    stops on, an empty file).

    ``apart``: the file is scanned into a table of its own, so that it can be read on another
    thread while ``table`` is used (:func:`identical_batches`); :meth:`shared` then gives a
    block's codes in ``table``."""

    def __init__(self, path: PathLike, table: "_conllu.StringTable", name: Optional[str] = None,
                 read_size: int = READ, apart: bool = False):
        self.source = name or os.fspath(path)
        self.shared_table = table
        self.table = _conllu.StringTable() if apart else table
        self._remap = np.zeros(0, dtype=np.int32)  # codes in the shared table of this table's codes
        self.read_size = read_size
        self.sentences = 0  # handed out so far
        self._handle = open(path, "rb")
        self._rest = b""
        self._line = 1
        self._eof = False
        self._parts: List[Tuple[dict, dict]] = []  # scanned, not handed out (the first from sentence _at)
        self._at = 0
        self._buffered = 0

    def __enter__(self) -> "ScanStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self._handle.close()
        self._parts = []

    def _read(self) -> None:
        while True:
            block = self._handle.read(self.read_size)
            data = self._rest + block
            if not block:
                cut = len(data)
                self._eof = True
            else:
                cut = data.rfind(b"\n\n") + 2
                if cut < 2:
                    self._rest = data
                    continue
            chunk, self._rest = data[:cut], data[cut:]
            if b"\r" in chunk:
                raise Unscannable(self.source)
            try:
                stop, rows, sentences = _conllu.scan(chunk, self.table, self._line, check_utf8=True)
            except (UnicodeDecodeError, OverflowError):
                raise Unscannable(self.source) from None
            if stop is not None:
                raise Unscannable(self.source)
            self._line += chunk.count(b"\n")
            n = len(sentences["line"])  # type: ignore[arg-type]
            if n:
                self._parts.append((rows, sentences))
                self._buffered += n
            return

    def take(self, n: int) -> Optional[Block]:
        """The next ``n`` sentences (fewer at the end of the file), ``None`` past the end."""
        while self._buffered < n and not self._eof:
            self._read()
        if not self._buffered:
            if not self.sentences:
                raise Unscannable(self.source)  # an empty file: the readers say what they say about it
            return None
        pieces, need = [], n
        while need and self._parts:
            rows, sentences = self._parts[0]
            total = len(sentences["line"])
            stop = min(total, self._at + need)
            pieces.append(_slice(rows, sentences, self._at, stop))
            need -= stop - self._at
            if stop == total:
                self._parts.pop(0)
                self._at = 0
            else:
                self._at = stop
        rows, sentences = join_scanned(pieces)
        block = Block(Scanned(self.source, self.table, rows, sentences), self.sentences)
        self._buffered -= len(block)
        self.sentences += len(block)
        return block

    @property
    def apart(self) -> bool:
        """Whether the file is scanned into a table of its own."""
        return self.table is not self.shared_table

    def shared(self, block: Block) -> Block:
        """A block taken from a stream read ``apart``, its codes in the shared table: the values
        this stream met since the last call added to it, in the order they were met (so the
        codes are those a scan into the shared table would have given, right after the other
        stream's block)."""
        if not self.apart:
            return block
        if len(self.table) > len(self._remap):
            self._remap = np.concatenate([self._remap, self.table.merge_into(self.shared_table, len(self._remap))])
        rows = dict(block.scanned.rows)
        codes = rows["codes"]
        rows["codes"] = np.where(codes >= 0, self._remap[np.maximum(codes, 0)], -1).astype(np.int32, copy=False)
        return Block(Scanned(self.source, self.shared_table, rows, block.scanned.sentences), block.base)


def _read_pair(gold: ScanStream, pred: ScanStream, n: int) -> Tuple[Optional[Block], Optional[Block]]:
    return gold.take(n), pred.take(n)


def block_columns(block: Block) -> TreeColumns:
    """The words of a block as :class:`TreeColumns` (``where`` naming each sentence by its
    number in the file), or :class:`Unscannable` where the tree readers must read the file."""
    columns = tree_columns_from_scan(block.scanned, first=block.base)
    if columns is None:
        raise Unscannable(block.scanned.source)
    return columns


def column_problems(gold: TreeColumns, pred: TreeColumns, table: "_conllu.StringTable",
                    check_forms: bool) -> Dict[int, str]:
    """Why sentence ``s`` of the gold and the prediction do not have the same tokens (the
    messages of :func:`~.sentence_context.token_problem`), for the sentences that differ (the
    columns hold the same number of sentences)."""
    g_len, p_len = gold.lengths, pred.lengths
    problems = {int(s): f"{g_len[s]} tokens against {p_len[s]}" for s in np.flatnonzero(g_len != p_len)}
    if not check_forms:
        return problems
    sentence = np.repeat(np.arange(len(g_len)), g_len)
    rows = np.flatnonzero((g_len == p_len)[sentence])  # the gold rows of the sentences of equal length
    p_rows = rows - gold.offsets[:-1][sentence[rows]] + pred.offsets[:-1][sentence[rows]]
    underscore = table.code("_")
    g_form, p_form = gold.form[rows], pred.form[p_rows]
    differ = rows[(g_form != p_form) & (g_form != underscore) & (p_form != underscore)]
    strings = table.strings
    for row in differ.tolist():
        s = int(sentence[row])
        if s in problems:
            continue
        k = row - int(gold.offsets[s])
        problems[s] = (f"token {k + 1} is {strings[gold.form[row]]!r} against "
                       f"{strings[pred.form[row - gold.offsets[s] + pred.offsets[s]]]!r}")
    return problems


def identical_batches(gold: ScanStream, pred: ScanStream, check_forms: bool, skip_mismatched: bool,
                      block: int = BLOCK, beside: Optional[Callable[[Block, Block], None]] = None
                      ) -> Iterator[Tuple[TreeColumns, TreeColumns, Dict[int, str]]]:
    """The batches of :func:`~.column_evaluation.evaluate_batches`, ``block`` sentences of
    each file at a time (module docstring); ``beside(gold_block, pred_block)`` sees every pair
    of blocks too (the conll18 scores computed alongside). Where both streams are read
    ``apart``, each next pair of blocks is read on a second thread while this one is scored
    (:class:`~spacy_agreement._background.Background`: the scanner runs without the GIL), its
    codes moved to the shared table (gold first, then prediction: the codes of reading both
    into it in turn) before the next read starts."""
    ahead = gold.apart and pred.apart
    reading = Background(_read_pair, gold, pred, block, name="spacy-agreement reader") if ahead else None
    try:
        while True:
            if reading is not None:
                g, p = reading.result()
                reading = None
                g, p = (None if g is None else gold.shared(g)), (None if p is None else pred.shared(p))
            else:
                g, p = gold.take(block), pred.take(block)
            if g is None and p is None:
                return
            if g is None or p is None or len(g) != len(p):
                # other sentence counts: the tree path says so (skipping) or the characters align them
                raise Unscannable(gold.source) if skip_mismatched else TokensDiffer(gold.source)
            if ahead:
                reading = Background(_read_pair, gold, pred, block, name="spacy-agreement reader")
            g_cols, p_cols = block_columns(g), block_columns(p)
            problems = column_problems(g_cols, p_cols, gold.shared_table, check_forms)
            if problems and not skip_mismatched:
                raise TokensDiffer(gold.source)
            if beside is not None:
                beside(g, p)
            yield g_cols, p_cols, problems
    finally:
        if reading is not None:
            reading.wait()  # before the caller closes the files


def evaluate_identical(gold: PathLike, pred: PathLike, options: Any, metrics: Dict[str, Any],
                       keep_counts: bool = False, block: int = BLOCK,
                       beside: Optional[Callable[[Block, Block], None]] = None,
                       label_warnings: Optional[Callable[..., None]] = None,
                       result: Callable[..., Any] = dict, table: Optional["_conllu.StringTable"] = None) -> Any:
    """:func:`~.column_evaluation.evaluate_batches` of two CoNLL-U files read in step, ``block``
    sentences at a time (module docstring): ``result(**fields)``, nothing kept per sentence
    but with ``keep_counts``. Raises :class:`TokensDiffer` (tokens or sentence counts differ,
    mismatches not skipped) or :class:`Unscannable` (the files need the whole-file readers)."""
    from .column_evaluation import evaluate_batches

    table = table if table is not None else _conllu.StringTable()
    with ScanStream(gold, table, apart=True) as g_stream, ScanStream(pred, table, apart=True) as p_stream:
        batches = identical_batches(g_stream, p_stream, options.check_forms, options.skip_mismatched, block, beside)
        return evaluate_batches(batches, table, options, metrics, keep_counts, label_warnings, result,
                                keep_rows=False)
