"""Leaf-ancestor and GEIG through the compiled loops of :mod:`spacy_agreement._lineage`,
streamed sentence by sentence in flat memory.

Sentences go through in batches of compact postorder arrays (from bracket files, read as
:func:`~spacy_agreement.adapters.brackets.read_brackets` reads them with
``leaves="categories"`` and ``missing=True``, or from :class:`ConstituencyTree` lists); a
batch's trees and scores are dropped once it is counted. What the :class:`Engine` keeps in
memory of a corpus, however large (its :class:`Store`):

* counts and totals: sentences and words scored, sentences below 100%, GEIG's bracket counts;
* the error configurations (Sampson & Babarczy 2003, §7): one row a gold label or label pair seen;
* the ``keep_worst`` lowest-scoring sentences, a bounded heap of their places (byte ranges in
  the files, or index in the tree lists) and word scores, rebuilt word by word at the end;
* the reasons sentences were skipped: the first ``keep_skipped`` and a count (all by default);
* only with ``keep_rows`` (bootstrap intervals need them): about 60 bytes per scored sentence
  (:data:`ROWS`: gold index, words, sum and mean of its word scores, GEIG counts, line).

The corpus means must be numpy's pairwise sums (np.mean, bit for bit, as the pure-Python path
and the output of earlier versions give them), and numpy's order of additions depends on
the final count: the word scores and sentence means go, 8 bytes each, to
:class:`PairwiseSum` (in memory up to 1 MiB, beyond in an unnamed temporary file) and are
summed in that order once the count is known, reading 512 KiB at a time.

A sentence's words and lineages are built only when asked for: by ``emit(row, sentence)``,
called for each scored sentence as it is scored (the CLI's ``--words`` and ``--json`` write
them as they come), and for the worst sentences at the end. Anything else
(``result.sentences``, per-sentence arrays without ``keep_rows``, more worst sentences than
kept) scores the source again (:meth:`FileSource.replay`).

Every number is the reference's, the pure-Python implementation (:mod:`.leaf_ancestor_reference`;
tests/evaluation/test_leaf_ancestor_fast.py compares the two): the word scores, sentence and
corpus means (numpy's pairwise sums, bit for bit), GEIG, skipped sentences and their reasons. The one exception: the mean
score of an error configuration seen more than 128 times is a compensated sum where numpy's
pairwise order depends on the final count (it may differ in the last bit).

A file the compiled reader cannot read (malformed, not UTF-8, ``\\(`` escapes, nesting
beyond nltk's limit) raises :class:`FallBack`: the caller reads it with the Python reader,
which names the file, line and token of the problem.
"""
from __future__ import annotations

import heapq
import os
import tempfile
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ... import _lineage
from ..._background import Background
from ...errors import Location, MismatchedCorpusError, ResourceLimitError
from ...trees import ConstituencyTree
from .leaf_ancestor_stream import FallBack, NotLines, file_batches, line_batches, read_unit, scan
from .leaf_ancestor_words import SentenceResult, _lineage_limit, make_sentence

BLOCK = 1 << 20
BATCH = 1024
SPOOL = 1 << 20  # bytes of values PairwiseSum keeps in memory before it moves them to a temporary file
#: files of one tree a line: the next batches read on a second thread while the compiled loop scores these
READ_AHEAD = True
COSTS = {"exact": 0, "first-char": 1}
PRETERMINALS = {"auto": 0, "keep": 1, "drop": 2}
#: the per-sentence arrays of ``keep_rows``, in :meth:`Scores.arrays` order but for the first two and the last
ROWS = ("index", "words", "sum", "mean", "gold", "candidate", "matched_unlabelled", "matched_labelled", "line")
Emit = Callable[[int, SentenceResult], None]


def tree_batch(trees: Sequence[Optional[ConstituencyTree]], vocab):
    """Trees (``None``: a failed parse) as a batch."""
    batch = _lineage.Batch()
    for tree in trees:
        if tree is None:
            batch.add_missing()
            continue
        labels = np.fromiter((vocab.id(label) for label in tree.labels), dtype=np.int32, count=len(tree.labels))
        batch.add_tree(labels, np.ascontiguousarray(tree.parent, dtype=np.int32),
                       np.ascontiguousarray(tree.spans, dtype=np.int32).reshape(-1), int(tree.outer_brackets))
    return batch


def batch_tree(batch, k: int, vocab, location: Location) -> ConstituencyTree:
    """Sentence ``k`` of a batch back as a :class:`ConstituencyTree` (for the limits check)."""
    _, _, outer, labels, parent, _, first, last = batch.sentence(k)
    return ConstituencyTree(vocab.strings(labels), np.asarray(parent, dtype=np.int32),
                            np.stack([np.asarray(first, dtype=np.int32), np.asarray(last, dtype=np.int32)], axis=1),
                            None, location, outer)


class PairwiseSum:
    """numpy's pairwise sum of float64 values that come batch by batch, their number known
    only at the end: the values are kept, 8 bytes each, in memory up to :data:`SPOOL` bytes,
    beyond that in an unnamed temporary file (or in memory where none can be made), and
    :meth:`total` reads them back in order, 512 KiB at a time."""

    def __init__(self) -> None:
        self.count, self.size = 0, 0
        self.chunks: List[np.ndarray] = []
        self.file = None

    def add(self, values: np.ndarray) -> None:
        values = np.ascontiguousarray(values, dtype=np.float64)
        if not len(values):
            return
        self.count += len(values)
        if self.file is not None:
            self.file.write(values.data)
            return
        self.chunks.append(values)
        self.size += values.nbytes
        if self.size > SPOOL:
            try:
                self.file = tempfile.TemporaryFile(prefix="leaf-ancestor-")
            except OSError:
                self.size = -(1 << 62)  # no temporary file: keep them in memory
                return
            for chunk in self.chunks:
                self.file.write(chunk.data)
            self.chunks = []

    def total(self) -> float:
        """The sum (0.0 for none), as np.sum of every value added gives it; closes the file."""
        if self.file is None:
            return _lineage.pairwise_sum(np.concatenate(self.chunks)) if self.chunks else 0.0
        try:
            self.file.flush()
            self.file.seek(0)
            return _lineage.pairwise_stream(self.file.read, self.count)
        finally:
            self.file.close()


@dataclass
class Store:
    """A corpus as leaf-ancestor keeps it (see the module's docstring): counts, the sums of
    the sentence means and of the word scores (numpy's pairwise sums), GEIG's four totals,
    the error configurations, the worst sentences' heap entries (lowest first) and, with
    ``keep_rows``, the per-sentence arrays of :data:`ROWS`."""

    sentences: int
    words: int
    below: int  # sentences scored below 100%
    mean_sum: float
    word_sum: float
    brackets: Tuple[int, int, int, int]  # gold, candidate, matched unlabelled, matched labelled
    features: Optional[list] = None  # (feature text, count, mean) rows in first-seen order
    worst: Optional[list] = None  # (-mean, -row, index, place, word scores, GEIG counts), lowest first
    rows: Optional[Dict[str, np.ndarray]] = None


class Engine:
    """Scores batches of sentence pairs and keeps what :class:`Store` says, the skipped
    sentences (in order, with their reasons) and the worst ``keep_worst`` sentences' places.
    ``emit(row, sentence)`` (optional) gets each scored sentence word by word as it is scored,
    or with ``select`` only the rows (0-based among the scored) in it."""

    def __init__(self, cost: str, preterminals: str, strict: bool, keep_worst: int = 0, keep_rows: bool = False,
                 keep_skipped: Optional[int] = None, emit: Optional[Emit] = None, select=None):
        self.vocab = _lineage.Vocab()
        self.cost, self.pre, self.preterminals = COSTS[cost], PRETERMINALS[preterminals], preterminals
        self.strict, self.keep_worst, self.keep_skipped = strict, max(keep_worst, 0), keep_skipped
        self.emit, self.select = emit, select
        self.scores, self.features = _lineage.Scores(), _lineage.Features()
        self.skipped: List[str] = []
        self.set_aside: Dict[int, str] = {}  # every skipped sentence, when every reason is kept
        self.skipped_count = self.failed = self.errors = 0
        self.sentences = self.words = self.below = 0
        self.brackets = [0, 0, 0, 0]
        self.mean_sum, self.word_sum = PairwiseSum(), PairwiseSum()
        self.rows: Optional[Dict[str, list]] = {name: [] for name in ROWS} if keep_rows else None
        self.heap: list = []
        self.any_tree = False
        self.logs, self.flip, self.pending = (_lineage.WordLog(), _lineage.WordLog()), 0, None

    def _flush(self) -> None:
        """The words kept for the error configurations added to them (see :meth:`add`)."""
        if self.pending is not None:
            pending, self.pending = self.pending, None
            self.features.add_log(pending)

    def _skip(self, index: int, message: str) -> None:
        self.skipped_count += 1
        if self.keep_skipped is None:
            self.set_aside[index] = message
        if self.keep_skipped is None or len(self.skipped) < self.keep_skipped:
            self.skipped.append(message)

    def add(self, gb, cb, first_index: int, locate, trees=None, ranges=None,
            during: Optional[Callable[[], None]] = None) -> None:
        """Score one pair of batches; ``locate(side, k)`` is sentence ``k``'s Location (side 0
        gold, 1 candidate); ``trees(k)`` its two trees (for the limits check); ``ranges``
        (for file sources) gives the byte ranges and lines kept for the worst sentences;
        ``during()`` runs on another thread while the compiled loop scores them (which reads
        nothing of the vocabulary but with the first-char costs: then it runs before)."""
        n = len(gb)
        g_nodes, c_nodes = gb.node_counts(), cb.node_counts()
        if not self.any_tree and (g_nodes.any() or c_nodes.any()):
            self.any_tree = True
        skip = np.zeros(n, dtype=np.uint8)
        reasons: Dict[int, str] = {}
        for k in np.nonzero(np.maximum(g_nodes, c_nodes) > 500)[0].tolist():
            if g_nodes[k] and c_nodes[k]:
                reason = _lineage_limit(*trees(k))  # the same estimate as the reference
                if reason:
                    skip[k], reasons[k] = 1, reason
        status = np.zeros((n, 4), dtype=np.int64)
        self.scores.clear()
        if during is not None and self.cost == 0:
            # the other thread reads on and adds the words of the batch before to the error configurations
            log, pending = self.logs[self.flip], self.pending
            self.flip ^= 1
            log.clear()

            def work() -> None:
                try:
                    if pending is not None:
                        self.features.add_log(pending)
                finally:  # the reading goes on; a failure above is raised once the batch is scored
                    during()

            worker = Background(work, name="leaf-ancestor reader")
            try:
                _lineage.score_batch(gb, cb, self.vocab, self.cost, self.pre, skip, self.scores, None, status, log)
            finally:
                worker.wait()
            worker.result()
            self.pending = log
        else:
            self._flush()
            if during is not None:
                during()
            _lineage.score_batch(gb, cb, self.vocab, self.cost, self.pre, skip, self.scores, self.features, status)
        for k in np.nonzero(status[:, 0])[0].tolist():
            self._skip(first_index + k, self._reason(status[k].tolist(), k, first_index, locate, c_nodes, reasons))
        scored = np.nonzero(status[:, 0] == 0)[0]
        if not len(scored):
            return
        words, word_off, sums, means, gold, cand, mu, ml = self.scores.arrays()
        base = self.sentences  # the row of this batch's first scored sentence
        self.sentences += len(scored)
        self.words += len(words)
        self.below += int(np.count_nonzero(means < 1.0))
        for i, counts in enumerate((gold, cand, mu, ml)):
            self.brackets[i] += int(counts.sum())
        self.mean_sum.add(means)
        self.word_sum.add(words)
        if self.rows is not None:
            lines = cb.lines()[scored] if ranges is not None else np.zeros(len(scored), dtype=np.int64)
            for name, values in zip(ROWS, (scored + first_index, np.diff(word_off), sums, means, gold, cand, mu, ml,
                                           lines)):
                self.rows[name].append(values)
        if self.keep_worst:
            self._keep_worst(means, scored, base, first_index, words, word_off, (gold, cand, mu, ml), ranges)
        if self.emit is not None:
            for j, k in enumerate(scored.tolist()):
                if self.select is None or base + j in self.select:
                    counts = (int(gold[j]), int(cand[j]), int(mu[j]), int(ml[j]))
                    self.emit(base + j, make_sentence(
                        sentence_words(gb, cb, k, self.preterminals, self.vocab),
                        words[word_off[j]:word_off[j + 1]].tolist(), counts, str(locate(1, k)), first_index + k))

    def _reason(self, code: Sequence[int], k: int, first_index: int, locate, c_nodes, reasons) -> str:
        """Why sentence ``k`` of the batch was skipped (its status row ``code``); raises with ``strict``."""
        code, a, b, c = code
        if code in (1, 2):
            where = locate(1, k) if code == 1 and len(c_nodes) and c_nodes[k] else (
                locate(0, k) if code == 2 else f"sentence {first_index + k + 1}")
            self.failed += 1
            return f"{where}: no {'gold tree' if code == 1 else 'parse'} (failed parse)"
        if code == 3:
            if self.strict:
                raise ResourceLimitError(reasons[k], locate(1, k))
            self.failed += 1
            return f"{locate(1, k)}: {reasons[k]}"
        if code == 4:
            exc = MismatchedCorpusError(f"{a} words in gold, {b} in the candidate", locate(1, k))
        else:
            exc = MismatchedCorpusError(f"word {a} is {self.vocab.string(b)!r} in gold but "
                                        f"{self.vocab.string(c)!r} in the candidate", locate(1, k).at_token(a))
        if self.strict:
            raise exc
        self.errors += 1
        return str(exc)

    def _keep_worst(self, means, ks, base: int, first_index: int, words, word_off, counts, ranges) -> None:
        chosen = np.nonzero(means < 1.0)[0]
        if len(self.heap) >= self.keep_worst:
            chosen = chosen[means[chosen] < -self.heap[0][0]]
        for j in chosen.tolist():
            k = int(ks[j])
            entry = (-float(means[j]), -(base + j), first_index + k, ranges(k) if ranges is not None else None,
                     words[word_off[j]:word_off[j + 1]].copy(), tuple(int(c[j]) for c in counts))
            if len(self.heap) < self.keep_worst:
                heapq.heappush(self.heap, entry)
            elif entry > self.heap[0]:  # the row (unique) decides: the arrays are never compared
                heapq.heapreplace(self.heap, entry)

    def store(self) -> Store:
        self._flush()
        vocab = self.vocab

        def text(kind, a, b):
            if kind == 0:
                return f"label {vocab.string(a)}"
            if kind == 1:
                return f"lineage {vocab.string(a)} {vocab.string(b)}"
            return f"parent {vocab.string(a)}" if kind == 2 else "parent -"

        features = [(text(kind, a, b), count, mean) for kind, a, b, count, mean in self.features.rows()]
        rows = None
        if self.rows is not None:
            empty = {"index": np.int64, "words": np.int64, "line": np.int64, "sum": np.float64, "mean": np.float64}
            rows = {name: np.concatenate(parts) if parts else np.zeros(0, dtype=empty.get(name, np.int32))
                    for name, parts in self.rows.items()}
        return Store(self.sentences, self.words, self.below, self.mean_sum.total(), self.word_sum.total(),
                     tuple(self.brackets), features, sorted(self.heap, reverse=True), rows)


def score_files(gold_path, cand_path, cost: str = "exact", preterminals: str = "auto", strict: bool = False,
                keep_worst: int = 0, restart: Optional[Callable[[], None]] = None, **options):
    """Leaf-ancestor of two bracket files, streamed: the :class:`Engine` (``options``: its
    ``keep_rows``, ``keep_skipped``, ``emit``, ``select``) after the last batch, the two modes
    and the number of sentences. Raises :class:`FallBack` for a file the compiled reader
    cannot read, and :class:`MismatchedCorpusError` for different sentence counts (after
    cutting failed parses off the end of the longer file, as
    :func:`~spacy_agreement.adapters.brackets.trim_trailing_failures`).

    Files of one tree a line are read in one pass (:func:`~.leaf_ancestor_stream.line_batches`);
    where that does not go through, the first pass (:func:`~.leaf_ancestor_stream.scan`) decides
    and the files are scored again from the start: what ``emit`` got is then taken back by
    ``restart()`` (without it, with ``emit``, the first pass always comes first)."""
    names = (os.fspath(gold_path), os.fspath(cand_path))
    if options.get("emit") is None or restart is not None:
        engine = Engine(cost, preterminals, strict, keep_worst, **options)
        try:
            count = _score_batches(engine, names, line_batches(gold_path, cand_path, engine.vocab, BATCH, BLOCK,
                                                               ahead=READ_AHEAD))
            return engine, (1, 1), count
        except FallBack:
            raise  # not UTF-8: the first pass says so before anything is scored
        except NotLines as failed:
            if failed.why == "parse":  # the first pass decides what the failing line is
                (g_mode, count), c_mode = _counts(gold_path, cand_path, restart if engine.sentences else None)
                if g_mode == c_mode == 1 and failed.index < count:
                    raise FallBack(names[failed.side]) from None  # read line by line, it fails there too
        except Exception:  # an error the first pass may come before: scored again, it says
            pass
        if engine.sentences and restart is not None:
            restart()
    (g_mode, count), c_mode = _counts(gold_path, cand_path)
    engine = Engine(cost, preterminals, strict, keep_worst, **options)
    _score_batches(engine, names, file_batches(gold_path, cand_path, (g_mode, c_mode), count, engine.vocab, BATCH,
                                               BLOCK))
    return engine, (g_mode, c_mode), count


def _counts(gold_path, cand_path, restart: Optional[Callable[[], None]] = None) -> Tuple[Tuple[int, int], int]:
    """The first pass over both files: ((gold mode, sentences), candidate mode); raises
    :class:`MismatchedCorpusError` (after ``restart()``) for different sentence counts."""
    (g_mode, g_count, g_last), (c_mode, c_count, c_last) = scan(gold_path, BLOCK), scan(cand_path, BLOCK)
    shortest = min(g_count, c_count)
    if g_last < shortest:
        g_count = shortest
    if c_last < shortest:
        c_count = shortest
    if g_count != c_count:
        if restart is not None:
            restart()
        raise MismatchedCorpusError(f"{g_count} gold sentences but {c_count} candidate sentences")
    return (g_mode, g_count), c_mode


def _score_batches(engine: Engine, names: Tuple[str, str], batches) -> int:
    """Every pair of batches scored by ``engine``; the number of sentences."""
    count = 0
    for gb, cb, first, *ahead in batches:
        lines = (gb.lines(), cb.lines())

        def locate(side, k, first=first, lines=lines):
            return Location(names[side], first + k + 1, line=int(lines[side][k]))

        def trees(k, gb=gb, cb=cb, locate=locate):
            return (batch_tree(gb, k, engine.vocab, locate(0, k)), batch_tree(cb, k, engine.vocab, locate(1, k)))

        def ranges(k, gb=gb, cb=cb, lines=lines):
            return (*gb.byte_range(k), int(lines[0][k]), *cb.byte_range(k), int(lines[1][k]))

        engine.add(gb, cb, first, locate, trees, ranges, ahead[0] if ahead else None)
        count = first + len(gb)
    return count


def score_trees(gold: Sequence[Optional[ConstituencyTree]], candidate: Sequence[Optional[ConstituencyTree]],
                cost: str = "exact", preterminals: str = "auto", strict: bool = False, keep_worst: int = 0,
                **options):
    """Leaf-ancestor of parallel phrase trees (same number), batch by batch: the :class:`Engine`."""
    engine = Engine(cost, preterminals, strict, keep_worst, **options)
    for first in range(0, len(gold), BATCH):
        add_tree_batch(engine, gold[first:first + BATCH], candidate[first:first + BATCH], first)
    return engine


def add_tree_batch(engine: Engine, gold: Sequence[Optional[ConstituencyTree]],
                   candidate: Sequence[Optional[ConstituencyTree]], first: int) -> None:
    """One batch of parallel phrase trees (at most :data:`BATCH`; ``first``: the index of its
    first sentence in the corpus) scored by ``engine``."""
    gb, cb = tree_batch(gold, engine.vocab), tree_batch(candidate, engine.vocab)

    def locate(side, k):
        return (gold, candidate)[side][k].location

    engine.add(gb, cb, first, locate, lambda k: (gold[k], candidate[k]))


def sentence_words(gb, cb, k: int, pre: str, vocab) -> Tuple[Tuple[str, ...], List[Tuple[str, ...]],
                                                                List[Tuple[str, ...]]]:
    """Words and gold and candidate lineages of sentence ``k`` of two batches, as strings."""
    code = PRETERMINALS[pre]
    words, gold = _lineage.tree_lineages(gb, k, code)
    _, cand = _lineage.tree_lineages(cb, k, code)
    return (vocab.strings(words), [vocab.strings(lin) for lin in gold], [vocab.strings(lin) for lin in cand])


class TreeSource:
    """Scored sentences again from the trees they were scored from."""

    def __init__(self, gold, candidate, cost: str, preterminals: str):
        self.gold, self.candidate, self.cost, self.pre = gold, candidate, cost, preterminals

    def location(self, index: int, line: int) -> str:
        return str(self.candidate[index].location)

    def replay(self, **options) -> Engine:
        """The trees scored again (``options``: :class:`Engine`'s)."""
        return score_trees(self.gold, self.candidate, self.cost, self.pre, **options)

    def batches(self, index: int, place, vocab):
        return tree_batch([self.gold[index]], vocab), tree_batch([self.candidate[index]], vocab)

    def worst(self, store: Store, k: int) -> List[Tuple[int, SentenceResult]]:
        """The ``k`` worst sentences kept (``store.worst``), word by word, with their 1-based rows."""
        out = []
        for _, row, index, place, scores, counts in store.worst[:k]:
            vocab = _lineage.Vocab()
            gb, cb = self.batches(index, place, vocab)
            out.append((1 - row, make_sentence(sentence_words(gb, cb, 0, self.pre, vocab), scores.tolist(), counts,
                                               self.location(index, place[5] if place else 0), index)))
        return out


class FileSource(TreeSource):
    """Scored sentences again from the two bracket files, read again."""

    def __init__(self, gold_path, cand_path, modes: Tuple[int, int], cost: str, preterminals: str):
        self.paths, self.modes, self.cost, self.pre = (gold_path, cand_path), modes, cost, preterminals

    def location(self, index: int, line: int) -> str:
        return str(Location(os.fspath(self.paths[1]), index + 1, line=line))

    def replay(self, **options) -> Engine:
        """The files scored again (``options``: :class:`Engine`'s)."""
        return score_files(self.paths[0], self.paths[1], self.cost, self.pre, **options)[0]

    def batches(self, index: int, place, vocab):
        gs, ge, gl, cs, ce, cl = place
        return (read_unit(self.paths[0], self.modes[0], gs, ge, gl, vocab),
                read_unit(self.paths[1], self.modes[1], cs, ce, cl, vocab))
