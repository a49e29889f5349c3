"""Leaf-ancestor and GEIG through the compiled loops of :mod:`spacy_agreement._lineage`,
streamed sentence by sentence in flat memory.

Sentences go through in batches of compact postorder arrays (from bracket files, read as
:func:`~spacy_agreement.adapters.brackets.read_brackets` reads them with
``leaves="categories"`` and ``missing=True``, or from :class:`ConstituencyTree` lists); what
is kept of a corpus is one float64 per scored word and a few numbers per scored sentence
(:class:`Store`): the corpus scores, GEIG and the error configurations (Sampson & Babarczy
2003, §7) are computed from them, and a sentence's words and lineages are rebuilt only when
asked for (the worst sentences of the text output, ``result.sentences``).

Every number is the pure-Python implementation's (tests/evaluation/test_leaf_ancestor_fast.py
keeps it as the reference): the word scores, sentence and corpus means (numpy's pairwise
sums, bit for bit), GEIG, skipped sentences and their reasons. The one exception: the mean
score of an error configuration seen more than 128 times is a compensated sum where numpy's
pairwise order depends on the final count (it may differ in the last bit).

A file the compiled reader cannot read (malformed, not UTF-8, ``\\(`` escapes, nesting
beyond nltk's limit) raises :class:`FallBack`: the caller reads it with the Python reader,
which names the file, line and token of the problem.
"""
from __future__ import annotations

import codecs
import heapq
import os
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from .. import _lineage
from .. import limits
from ..errors import Location, MismatchedCorpusError, ResourceLimitError
from ..trees import ConstituencyTree

BLOCK = 1 << 20
BATCH = 2048
COSTS = {"exact": 0, "first-char": 1}
PRETERMINALS = {"auto": 0, "keep": 1, "drop": 2}


class FallBack(Exception):
    """The compiled reader cannot read a file; the Python reader will say why (or read it)."""


def _read_block(handle) -> bytes:
    """A block that does not end between the ``\\r`` and ``\\n`` of a line end."""
    data = handle.read(BLOCK)
    while data.endswith(b"\r"):
        more = handle.read(1)
        if not more:
            break
        data += more
    return data


def scan(path) -> Tuple[int, int, int]:
    """The first pass: (mode 1 lines or 2 trees, sentences, last present sentence or -1)
    after checking UTF-8; :class:`FallBack` when the file is malformed."""
    scanner = _lineage.Scanner()
    decoder = codecs.getincrementaldecoder("utf-8")()
    with open(path, "rb") as handle:
        while True:
            data = _read_block(handle)
            try:
                decoder.decode(data, final=not data)
            except UnicodeDecodeError:
                raise FallBack(path) from None
            if not data:
                break
            scanner.feed(data)
    mode, count, last = scanner.finish()
    if mode == 0:
        raise FallBack(path)
    return mode, count, last


class FileStream:
    """Sentences of one bracket file, read batch by batch (:func:`_lineage.parse_units`)."""

    def __init__(self, path, mode: int, vocab):
        self.path, self.mode, self.vocab = path, mode, vocab
        self.handle = open(path, "rb")
        self.buf, self.pos, self.base, self.line, self.eof = b"", 0, 0, 1, False

    def close(self) -> None:
        self.handle.close()

    def read(self, batch, k: int) -> int:
        """Up to ``k`` more sentences into ``batch`` (fewer only at the end of the file)."""
        got = 0
        while got < k:
            n, self.pos, self.line, ok = _lineage.parse_units(batch, self.vocab, self.buf, self.pos, self.mode,
                                                               self.eof, k - got, self.line, self.base)
            got += n
            if not ok:
                raise FallBack(self.path)
            if got == k or (self.eof and self.pos >= len(self.buf)) or (self.eof and n == 0):
                break
            data = _read_block(self.handle)
            self.base += self.pos
            self.buf, self.pos = self.buf[self.pos:] + data, 0
            self.eof = not data
        return got


def read_unit(path, mode: int, start: int, stop: int, line: int, vocab):
    """One sentence again, from its bytes in the file, as a one-sentence batch."""
    with open(path, "rb") as handle:
        handle.seek(start)
        data = handle.read(stop - start)
    batch = _lineage.Batch()
    _lineage.parse_units(batch, vocab, data, 0, mode, True, 1, line, start)
    return batch


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


@dataclass
class Store:
    """A corpus as leaf-ancestor keeps it: per scored word its score (float64); per scored
    sentence its gold index, first word, word-score sum and mean, GEIG counts and the file
    line of its candidate (for its location)."""

    words: np.ndarray
    word_off: np.ndarray
    sums: np.ndarray
    means: np.ndarray
    gold: np.ndarray
    cand: np.ndarray
    matched_unlabelled: np.ndarray
    matched_labelled: np.ndarray
    index: np.ndarray
    line: np.ndarray
    features: Optional[list] = None  # (feature text, count, mean) rows in first-seen order
    worst: list = field(default_factory=list)  # heap entries of the worst sentences (file sources)


class Engine:
    """Scores batches of sentence pairs and keeps the :class:`Store`, the skipped sentences
    (in order, with their reasons) and the worst ``keep_worst`` sentences' file positions."""

    def __init__(self, cost: str, preterminals: str, strict: bool, keep_worst: int = 0):
        self.vocab = _lineage.Vocab()
        self.cost, self.pre = COSTS[cost], PRETERMINALS[preterminals]
        self.strict, self.keep_worst = strict, max(keep_worst, 0)
        self.scores, self.features = _lineage.Scores(), _lineage.Features()
        self.skipped: List[str] = []
        self.set_aside: Dict[int, str] = {}
        self.failed = self.errors = 0
        self.index: List[np.ndarray] = []
        self.lines: List[np.ndarray] = []
        self.heap: list = []
        self.any_tree = False

    def add(self, gb, cb, first_index: int, locate, trees=None, ranges=None) -> None:
        """Score one pair of batches; ``locate(side, k)`` is sentence ``k``'s Location (side 0
        gold, 1 candidate); ``trees(k)`` its two trees (for the limits check); ``ranges``
        (for file sources) gives the byte ranges and lines kept for the worst sentences."""
        n = len(gb)
        g_nodes, c_nodes = gb.node_counts(), cb.node_counts()
        if not self.any_tree and (g_nodes.any() or c_nodes.any()):
            self.any_tree = True
        skip = np.zeros(n, dtype=np.uint8)
        reasons: Dict[int, str] = {}
        for k in np.nonzero(np.maximum(g_nodes, c_nodes) > 500)[0].tolist():
            if g_nodes[k] and c_nodes[k]:
                g, c = trees(k)
                from .leaf_ancestor_words import _lineage_limit  # the same estimate as the Python path

                reason = _lineage_limit(g, c)
                if reason:
                    skip[k], reasons[k] = 1, reason
        status = np.zeros((n, 4), dtype=np.int64)
        _lineage.score_batch(gb, cb, self.vocab, self.cost, self.pre, skip, self.scores, self.features, status)
        for k in np.nonzero(status[:, 0])[0].tolist():
            code, a, b, c = status[k].tolist()
            index = first_index + k
            if code in (1, 2):
                where = locate(1, k) if code == 1 and len(c_nodes) and c_nodes[k] else (
                    locate(0, k) if code == 2 else f"sentence {index + 1}")
                message = f"{where}: no {'gold tree' if code == 1 else 'parse'} (failed parse)"
                self.failed += 1
            elif code == 3:
                if self.strict:
                    raise ResourceLimitError(reasons[k], locate(1, k))
                message = f"{locate(1, k)}: {reasons[k]}"
                self.failed += 1
            else:
                if code == 4:
                    exc = MismatchedCorpusError(f"{a} words in gold, {b} in the candidate", locate(1, k))
                else:
                    exc = MismatchedCorpusError(f"word {a} is {self.vocab.string(b)!r} in gold but "
                                                f"{self.vocab.string(c)!r} in the candidate",
                                                locate(1, k).at_token(a))
                if self.strict:
                    raise exc
                message = str(exc)
                self.errors += 1
            self.skipped.append(message)
            self.set_aside[index] = message
        scored = np.nonzero(status[:, 0] == 0)[0]
        self.index.append(scored.astype(np.int64) + first_index)
        self.lines.append(cb.lines()[scored] if ranges is not None else np.zeros(len(scored), dtype=np.int64))
        if ranges is not None and self.keep_worst and len(scored):
            self._keep_worst(status[scored, 1], scored, first_index, ranges)

    def _keep_worst(self, rows: np.ndarray, ks: np.ndarray, first_index: int, ranges) -> None:
        means = self.scores.last_means(len(rows))
        chosen = np.nonzero(means < 1.0)[0]
        if len(self.heap) >= self.keep_worst:
            chosen = chosen[means[chosen] < -self.heap[0][0]]
        for j in chosen.tolist():
            k = int(ks[j])
            entry = (-float(means[j]), -int(rows[j]), first_index + k, ranges(k))
            if len(self.heap) < self.keep_worst:
                heapq.heappush(self.heap, entry)
            elif entry > self.heap[0]:
                heapq.heapreplace(self.heap, entry)

    def store(self) -> Store:
        words, word_off, sums, means, gold, cand, mu, ml = self.scores.arrays()
        vocab = self.vocab

        def text(kind, a, b):
            if kind == 0:
                return f"label {vocab.string(a)}"
            if kind == 1:
                return f"lineage {vocab.string(a)} {vocab.string(b)}"
            return f"parent {vocab.string(a)}" if kind == 2 else "parent -"

        features = [(text(kind, a, b), count, mean) for kind, a, b, count, mean in self.features.rows()]
        cat = (lambda parts: np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64))
        return Store(words, word_off, sums, means, gold, cand, mu, ml, cat(self.index), cat(self.lines), features,
                     sorted(self.heap, reverse=True))


def file_batches(gold_path, cand_path, modes: Tuple[int, int], count: int, vocab
                 ) -> Iterator[Tuple[object, object, int]]:
    """Both files batch by batch, in step: (gold batch, candidate batch, index of the first)."""
    streams = [FileStream(gold_path, modes[0], vocab), FileStream(cand_path, modes[1], vocab)]
    try:
        done = 0
        while done < count:
            k = min(BATCH, count - done)
            batches = [_lineage.Batch(), _lineage.Batch()]
            got = [s.read(b, k) for s, b in zip(streams, batches)]
            if got != [k, k]:
                raise FallBack(gold_path)  # the first pass counted otherwise: let the Python reader decide
            yield batches[0], batches[1], done
            done += k
    finally:
        for s in streams:
            s.close()


def score_files(gold_path, cand_path, cost: str = "exact", preterminals: str = "auto", strict: bool = False,
                keep_worst: int = 0):
    """Leaf-ancestor of two bracket files, streamed: the :class:`Engine` after the last batch,
    the two modes and the number of sentences. Raises :class:`FallBack` for a file the compiled reader cannot read,
    and :class:`MismatchedCorpusError` for different sentence counts (after cutting failed
    parses off the end of the longer file, as
    :func:`~spacy_agreement.adapters.brackets.trim_trailing_failures`)."""
    (g_mode, g_count, g_last), (c_mode, c_count, c_last) = scan(gold_path), scan(cand_path)
    shortest = min(g_count, c_count)
    if g_last < shortest:
        g_count = shortest
    if c_last < shortest:
        c_count = shortest
    if g_count != c_count:
        raise MismatchedCorpusError(f"{g_count} gold sentences but {c_count} candidate sentences")
    engine = Engine(cost, preterminals, strict, keep_worst)
    names = (os.fspath(gold_path), os.fspath(cand_path))
    for gb, cb, first in file_batches(gold_path, cand_path, (g_mode, c_mode), g_count, engine.vocab):
        lines = (gb.lines(), cb.lines())

        def locate(side, k, first=first, lines=lines):
            return Location(names[side], first + k + 1, line=int(lines[side][k]))

        def trees(k, first=first, gb=gb, cb=cb, locate=locate):
            return (batch_tree(gb, k, engine.vocab, locate(0, k)), batch_tree(cb, k, engine.vocab, locate(1, k)))

        def ranges(k, gb=gb, cb=cb, lines=lines):
            return (*gb.byte_range(k), int(lines[0][k]), *cb.byte_range(k), int(lines[1][k]))

        engine.add(gb, cb, first, locate, trees, ranges)
    return engine, (g_mode, c_mode), g_count


def score_trees(gold: Sequence[Optional[ConstituencyTree]], candidate: Sequence[Optional[ConstituencyTree]],
                cost: str = "exact", preterminals: str = "auto", strict: bool = False):
    """Leaf-ancestor of parallel phrase trees (same number), batch by batch: the :class:`Engine`."""
    engine = Engine(cost, preterminals, strict)
    for first in range(0, len(gold), BATCH):
        g, c = gold[first:first + BATCH], candidate[first:first + BATCH]
        gb, cb = tree_batch(g, engine.vocab), tree_batch(c, engine.vocab)

        def locate(side, k, g=g, c=c):
            return (g, c)[side][k].location

        engine.add(gb, cb, first, locate, lambda k, g=g, c=c: (g[k], c[k]))
    return engine


def sentence_words(gb, cb, k: int, pre: str, vocab) -> Tuple[Tuple[str, ...], List[Tuple[str, ...]],
                                                                List[Tuple[str, ...]]]:
    """Words and gold and candidate lineages of sentence ``k`` of two batches, as strings."""
    code = PRETERMINALS[pre]
    words, gold = _lineage.tree_lineages(gb, k, code)
    _, cand = _lineage.tree_lineages(cb, k, code)
    return (vocab.strings(words), [vocab.strings(lin) for lin in gold], [vocab.strings(lin) for lin in cand])


def _sentence(store: Store, row: int, words, gold, cand, location: str, geig: bool):
    """Scored sentence ``row`` as a :class:`~spacy_agreement.evaluation.leaf_ancestor.SentenceResult`."""
    from .geig import BracketCounts
    from .leaf_ancestor_words import SentenceResult, WordScore

    a = int(store.word_off[row])
    scores = store.words[a:a + len(words)].tolist()
    brackets = (BracketCounts(int(store.gold[row]), int(store.cand[row]), int(store.matched_unlabelled[row]),
                              int(store.matched_labelled[row])) if geig else None)
    return SentenceResult([WordScore(w, s, g, c) for w, s, g, c in zip(words, scores, gold, cand)], brackets,
                          location, int(store.index[row]))


class TreeSource:
    """Rebuilds scored sentences from the trees they were scored from."""

    def __init__(self, gold, candidate, preterminals: str, geig: bool):
        self.gold, self.candidate, self.pre, self.geig = gold, candidate, preterminals, geig

    def location(self, store: Store, row: int) -> str:
        return str(self.candidate[int(store.index[row])].location)

    def rows(self, store: Store, rows: Sequence[int]) -> list:
        out = []
        for row in rows:
            index = int(store.index[row])
            vocab = _lineage.Vocab()
            gb, cb = tree_batch([self.gold[index]], vocab), tree_batch([self.candidate[index]], vocab)
            out.append((row + 1, _sentence(store, row, *sentence_words(gb, cb, 0, self.pre, vocab),
                                           self.location(store, row), self.geig)))
        return out

    def sentences(self, store: Store) -> list:
        return [s for _, s in self.rows(store, range(len(store.means)))]


class FileSource:
    """Rebuilds scored sentences from the two bracket files, read again."""

    def __init__(self, gold_path, cand_path, modes: Tuple[int, int], count: int, preterminals: str, geig: bool):
        self.paths, self.modes, self.count, self.pre, self.geig = (gold_path, cand_path), modes, count, preterminals, geig

    def location(self, store: Store, row: int) -> str:
        return str(Location(os.fspath(self.paths[1]), int(store.index[row]) + 1, line=int(store.line[row])))

    def worst(self, store: Store, k: int) -> list:
        out = []
        for _, _, index, (gs, ge, gl, cs, ce, cl) in store.worst[:k]:
            vocab = _lineage.Vocab()
            gb = read_unit(self.paths[0], self.modes[0], gs, ge, gl, vocab)
            cb = read_unit(self.paths[1], self.modes[1], cs, ce, cl, vocab)
            row = int(np.searchsorted(store.index, index))
            out.append((row + 1, _sentence(store, row, *sentence_words(gb, cb, 0, self.pre, vocab),
                                           self.location(store, row), self.geig)))
        return out

    def rows(self, store: Store, rows: Sequence[int]) -> list:
        wanted = sorted(set(int(r) for r in rows))
        built = dict(self._build(store, wanted))
        return [(row + 1, built[row]) for row in rows]

    def sentences(self, store: Store) -> list:
        return [s for _, s in self._build(store, range(len(store.means)))]

    def _build(self, store: Store, rows: Sequence[int]):
        rows = list(rows)
        if not rows:
            return
        vocab = _lineage.Vocab()
        position = 0
        for gb, cb, first in file_batches(self.paths[0], self.paths[1], self.modes, self.count, vocab):
            while position < len(rows) and int(store.index[rows[position]]) < first + len(gb):
                row = rows[position]
                yield row, _sentence(store, row, *sentence_words(gb, cb, int(store.index[row]) - first, self.pre,
                                                                 vocab), self.location(store, row), self.geig)
                position += 1
            if position == len(rows):
                return
