"""``conll18_ud_eval.py``'s thirteen scores of two CoNLL-U files read a block at a time: the
files cut where the script's alignment of the whole files is the alignment of the pieces.

The script walks the words of both files through the characters of the text (the tokens'
characters without whitespace, :mod:`.aligned`). A *synchronisation point* is a character
offset ``P`` where

* both files end a sentence (so no token, multiword token or sentence of either file spans it),
* the last token before ``P`` is, in both files, a single word (not a multiword token) with
  the same span.

The script's walk then pairs those two last words with each other, and both sides stand at
their first word after ``P`` with nothing carried over: a multiword span cannot start before
``P`` and reach past it (its end is the end of a multiword token before ``P``), and no word
before ``P`` is left behind for a multiword span after ``P`` to take (the one way the script's
walk carries words across an offset where both files are at a sentence boundary: a side that
reaches a multiword token at ``P`` while the other still has words before ``P`` draws those
into the span's longest common subsequence). Every score is a count over words, tokens or
sentences that lie wholly on one side of ``P``, heads and functional children stay within a
sentence, so the counts of the whole are the sums of the counts of the pieces, and the scores
those of the script to the last digit.

:class:`AlignedStream` is fed blocks of either file (:class:`~.streaming.Block`), keeps the
sentences since the last synchronisation point, and at the last such point among them reads
them as columns (:func:`~spacy_agreement.adapters.conllu.scan.conllu_columns_from_scan`) and adds them to
the family's accumulator (:class:`~.accumulator.AlignedEvaluator`, :attr:`AlignedStream.evaluator`:
it aligns and scores them and keeps only the counts, unless it was made to keep their counts per
gold sentence). What it
holds: the counts, and the scanned rows since the last synchronisation point (with the same
tokens in both files, each block ends at one; with other sentence splits, they come as often
as both files end a sentence at the same character after a word they both have). Files that
never meet at such a point are held whole, then scored at once: the whole-file memory of
:func:`~.alignment.evaluate_aligned`, no more.

A piece that the columns reader refuses, or whose texts differ, raises
:class:`~.streaming.Unscannable`: the caller reads the files whole, with the readers and the
checks that name the file, sentence and token of the problem. So does a sentence of more than
:data:`~.aligned_refusals.RECURSION` lines, whose chain of heads may be too deep for the script
(the caller checks it whole).
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np

from ... import _conllu
from ...adapters.conllu.column_reader import PathLike
from ...adapters.conllu.scan import Scanned, StringArrays, conllu_columns_from_scan
from .accumulator import AlignedEvaluator
from .scores import AlignedScores
from .refusals import RECURSION
from ..dependency.streaming import BLOCK, Block, ScanStream, Unscannable, join_scanned, split_scanned


def sentence_ends(scanned: Scanned, lengths: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Per sentence of a scanned piece: the character offset where it ends (from the piece's
    start), and the length of its last token where that token is a single word (0 for a
    multiword token or a sentence without tokens: never a synchronisation point)."""
    rows, sentences = scanned.rows, scanned.sentences
    kind, first, last = rows["kind"], rows["first"].astype(np.int64), rows["last"].astype(np.int64)
    n_rows, n_sent = len(kind), len(sentences["line"])
    is_range = kind == 1
    covered = np.zeros(n_rows + 1, dtype=bool)  # the words of a multiword token (the rows after its range)
    ranges = np.flatnonzero(is_range)
    sizes = np.maximum(last[ranges] - first[ranges] + 1, 0)
    if len(ranges) and sizes.sum():
        starts = np.repeat(ranges + 1 - np.cumsum(np.append(0, sizes[:-1])), sizes) + np.arange(int(sizes.sum()))
        covered[np.minimum(starts, n_rows)] = True
    token_rows = np.flatnonzero(is_range | ((kind == 0) & ~covered[:n_rows]))
    row_sentence = np.repeat(np.arange(n_sent), np.diff(sentences["rows"]))
    token_sentence = row_sentence[token_rows]
    length = lengths[rows["codes"][token_rows, 0]]
    ends = np.cumsum(np.bincount(token_sentence, weights=length, minlength=n_sent)).astype(np.int64)
    last_token = np.searchsorted(token_sentence, np.arange(n_sent), side="right") - 1
    has = (last_token >= 0) & (token_sentence[np.maximum(last_token, 0)] == np.arange(n_sent)) if len(token_rows) \
        else np.zeros(n_sent, dtype=bool)
    safe = has.copy()
    safe[has] = ~is_range[token_rows[last_token[has]]]
    last_length = np.zeros(n_sent, dtype=np.int64)
    last_length[safe] = length[last_token[safe]]
    return ends, last_length


class Beside:
    """An :class:`AlignedStream` fed alongside the identical-tokens evaluation (the conll18
    scores beside the package's): a piece it cannot score stops it (``failed``) without
    stopping the evaluation; the caller then scores the files whole, as before (that says why
    the script would refuse them)."""

    def __init__(self, table: "_conllu.StringTable", gold_source: str, system_source: str):
        self.stream: Optional[AlignedStream] = AlignedStream(table, gold_source, system_source)

    def __call__(self, gold: Block, system: Block) -> None:
        if self.stream is not None:
            try:
                self.stream.push_both(gold, system)
            except Unscannable:
                self.stream = None

    def scores(self) -> Optional[AlignedScores]:
        """The scores, or ``None`` when the stream failed."""
        try:
            return self.stream.scores() if self.stream is not None else None
        except Unscannable:
            return None


class AlignedStream:
    """The counts of ``conll18_ud_eval.py`` summed over the pieces between synchronisation
    points (module docstring). :meth:`push` a block of either file as it is read,
    :meth:`scores` at the end."""

    def __init__(self, table: "_conllu.StringTable", gold_source: str, system_source: str,
                 evaluator: Optional[AlignedEvaluator] = None):
        self.arrays = StringArrays(table)  # the table's values as arrays, extended as it grows
        self.sources = (gold_source, system_source)
        self.pending: Tuple[List[Scanned], List[Scanned]] = ([], [])
        self.ends: Tuple[List[np.ndarray], List[np.ndarray]] = ([], [])  # from the pending start
        self.last: Tuple[List[np.ndarray], List[np.ndarray]] = ([], [])
        self.chars = [0, 0]  # pending characters per side
        self.done = [0, 0]  # characters scored
        #: the family's accumulator, fed the pieces (nothing kept per sentence unless it was asked to)
        self.evaluator = evaluator if evaluator is not None else AlignedEvaluator(False, gold_source, system_source)

    def read(self, side: int) -> int:
        """Characters read of a side (scored and pending)."""
        return self.done[side] + self.chars[side]

    def push(self, side: int, block: Optional[Block]) -> None:
        """A block of the gold (``side`` 0) or the system file (1); then the pending sentences
        up to the last synchronisation point are scored."""
        if block is not None and len(block):
            self._add(side, block)
            self._cut()

    def push_both(self, gold: Block, system: Block) -> None:
        """A block of each file (the same sentences: the identical-tokens path)."""
        self._add(0, gold)
        self._add(1, system)
        self._cut()

    def _add(self, side: int, block: Block) -> None:
        if len(block) and int(np.diff(block.scanned.sentences["rows"]).max()) > RECURSION:
            raise Unscannable(self.sources[side])  # a sentence whose heads the script may not follow: read whole
        ends, last = sentence_ends(block.scanned, self.arrays.update().lengths)
        if not len(ends):
            return
        self.pending[side].append(block.scanned)
        self.ends[side].append(ends + self.chars[side])
        self.last[side].append(last)
        self.chars[side] += int(ends[-1])

    def _cut(self) -> None:
        if not self.pending[0] or not self.pending[1]:
            return
        g_ends, s_ends = np.concatenate(self.ends[0]), np.concatenate(self.ends[1])
        if g_ends[-1] > s_ends[-1]:
            g_ends = g_ends[:np.searchsorted(g_ends, s_ends[-1], side="right")]
        else:
            s_ends = s_ends[:np.searchsorted(s_ends, g_ends[-1], side="right")]
        _, gi, si = np.intersect1d(g_ends, s_ends, return_indices=True)  # a sentence without characters repeats an end
        if not len(gi):
            return
        g_last, s_last = np.concatenate(self.last[0])[gi], np.concatenate(self.last[1])[si]
        safe = np.flatnonzero((g_last > 0) & (g_last == s_last))
        if not len(safe):
            return
        self._score(int(gi[safe[-1]]) + 1, int(si[safe[-1]]) + 1)

    def _take(self, side: int, n: int) -> Scanned:
        """The first ``n`` pending sentences of a side (the rest stays pending)."""
        parts = self.pending[side]
        joined = Scanned(parts[0].source, parts[0].table,
                         *join_scanned([(p.rows, p.sentences) for p in parts]))
        head, tail = split_scanned(joined, n)
        ends, last = np.concatenate(self.ends[side]), np.concatenate(self.last[side])
        used = int(ends[n - 1])
        self.done[side] += used
        self.chars[side] -= used
        if len(tail.sentences["line"]):
            self.pending[side][:] = [tail]
            self.ends[side][:] = [ends[n:] - used]
            self.last[side][:] = [last[n:]]
        else:
            self.pending[side].clear()
            self.ends[side].clear()
            self.last[side].clear()
        return head

    def _score(self, n_gold: int, n_system: int) -> None:
        gold = conllu_columns_from_scan(self._take(0, n_gold), self.arrays)
        system = conllu_columns_from_scan(self._take(1, n_system), self.arrays)
        if gold is None or system is None or not gold.same_text(system):
            raise Unscannable(self.sources[0])  # the whole-file readers name the problem
        self.evaluator.add(gold, system)

    def scores(self) -> AlignedScores:
        """The scores of everything pushed (what is still pending scored at once)."""
        if self.pending[0] or self.pending[1]:
            if not self.pending[0] or not self.pending[1]:
                raise Unscannable(self.sources[0])  # one file has text the other has not
            self._score(sum(len(p.sentences["line"]) for p in self.pending[0]),
                        sum(len(p.sentences["line"]) for p in self.pending[1]))
        return self.evaluator.result()


def evaluate_aligned_streamed(gold: PathLike, system: PathLike, block: int = BLOCK,
                              evaluator: Optional[AlignedEvaluator] = None) -> Tuple[AlignedScores, int, int]:
    """``conll18_ud_eval.py`` on two CoNLL-U files read a block at a time (module docstring):
    the scores, and how many sentences each file has. The side behind in characters is read
    next, so that the pending sentences of either side stay near one block where the files
    meet often. Raises :class:`~.streaming.Unscannable` where the files must be read whole.
    ``evaluator``: the :class:`AlignedEvaluator` the pieces go to (one that keeps no counts per
    sentence by default)."""
    table = _conllu.StringTable()
    with ScanStream(gold, table) as g_stream, ScanStream(system, table) as s_stream:
        stream = AlignedStream(table, g_stream.source, s_stream.source, evaluator)
        streams, finished = (g_stream, s_stream), [False, False]
        while not all(finished):
            side = 0 if finished[1] or (not finished[0] and stream.read(0) <= stream.read(1)) else 1
            piece = streams[side].take(block)
            if piece is None:
                finished[side] = True
            else:
                stream.push(side, piece)
        return stream.scores(), g_stream.sentences, s_stream.sentences
