"""Bracket files read for leaf-ancestor's compiled loops (:mod:`.leaf_ancestor_compiled`), a
block at a time, into batches of compact postorder arrays (:func:`spacy_agreement._lineage.parse_units`).

Two ways through a pair of files:

* :func:`file_batches`, after the first pass (:func:`scan`) has found how each file is split
  into sentences (one tree a line, or trees over lines), how many there are and that the
  file is UTF-8;
* :func:`line_batches`, in one pass: both files read as one tree a line, UTF-8 checked block
  by block as they are read. It gives what :func:`file_batches` gives where both files are
  one tree a line with as many lines (what the first pass would have found: a file that
  parses line by line is one that :class:`~spacy_agreement._lineage.Scanner` calls one tree
  a line, with that many sentences), and raises :class:`NotLines` as soon as that is not so
  (a line that is no whole tree, or one file longer than the other): the caller then takes
  the first way (:func:`~.leaf_ancestor_compiled.score_files`).

A file the compiled reader cannot read (malformed, not UTF-8, ``\\(`` escapes, nesting beyond
nltk's limit) raises :class:`FallBack`: the caller reads it with the Python reader, which names
the file, line and token of the problem.
"""
from __future__ import annotations

import codecs
from typing import Callable, Dict, Iterator, Optional, Tuple

from ... import _lineage


class FallBack(Exception):
    """The compiled reader cannot read a file; the Python reader will say why (or read it)."""


class NotUTF8(FallBack):
    """A file is not UTF-8."""


class NotLines(Exception):
    """:func:`line_batches` cannot go on: ``why`` is ``"parse"`` (a line of file ``side``
    (0 gold, 1 candidate) is no whole tree, or the compiled reader cannot read it) or
    ``"count"`` (one file has more lines than the other); ``index``: the failing line's
    sentence (0-based)."""

    def __init__(self, why: str, side: int = -1, index: int = -1):
        super().__init__(why, side, index)
        self.why, self.side, self.index = why, side, index


def read_block(handle, size: int) -> bytes:
    """A block of about ``size`` bytes that does not end between the ``\\r`` and ``\\n`` of a line end."""
    data = handle.read(size)
    while data.endswith(b"\r"):
        more = handle.read(1)
        if not more:
            break
        data += more
    return data


def scan(path, block: int) -> Tuple[int, int, int]:
    """The first pass: (mode 1 lines or 2 trees, sentences, last present sentence or -1)
    after checking UTF-8; :class:`FallBack` when the file is malformed."""
    scanner = _lineage.Scanner()
    decoder = codecs.getincrementaldecoder("utf-8")()
    with open(path, "rb") as handle:
        while True:
            data = read_block(handle, block)
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
    """Sentences of one bracket file, read batch by batch (:func:`_lineage.parse_units`);
    with ``check``, each block is checked to be UTF-8 as it is read (:class:`FallBack`)."""

    def __init__(self, path, mode: int, vocab, block: int, check: bool = False):
        self.path, self.mode, self.vocab, self.block = path, mode, vocab, block
        self.decoder = codecs.getincrementaldecoder("utf-8")() if check else None
        self.handle = open(path, "rb")
        self.buf, self.pos, self.base, self.line, self.eof = b"", 0, 0, 1, False

    def close(self) -> None:
        self.handle.close()

    def _next_block(self) -> bytes:
        data = read_block(self.handle, self.block)
        decoder = self.decoder
        if decoder is not None and not (data and data.isascii() and not decoder.getstate()[0]):
            try:
                decoder.decode(data, final=not data)
            except UnicodeDecodeError:
                raise NotUTF8(self.path) from None
        return data

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
            data = self._next_block()
            self.base += self.pos
            self.buf, self.pos = (self.buf[self.pos:] + data if self.pos < len(self.buf) else data), 0
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


def file_batches(gold_path, cand_path, modes: Tuple[int, int], count: int, vocab, size: int, block: int
                 ) -> Iterator[Tuple[object, object, int]]:
    """Both files batch by batch (``size`` sentences), in step, as the first pass found them
    (``modes``, ``count``): (gold batch, candidate batch, index of the first). The two
    batches are the same objects each time, cleared: valid until the next is asked for."""
    streams = [FileStream(gold_path, modes[0], vocab, block), FileStream(cand_path, modes[1], vocab, block)]
    batches = [_lineage.Batch(), _lineage.Batch()]
    try:
        done = 0
        while done < count:
            k = min(size, count - done)
            for batch in batches:
                batch.clear()
            got = [s.read(b, k) for s, b in zip(streams, batches)]
            if got != [k, k]:
                raise FallBack(gold_path)  # the first pass counted otherwise: let the Python reader decide
            yield batches[0], batches[1], done
            done += k
    finally:
        for s in streams:
            s.close()


def line_batches(gold_path, cand_path, vocab, size: int, block: int, ahead: bool = False
                 ) -> Iterator[Tuple[object, object, int, Optional[Callable[[], None]]]]:
    """Both files batch by batch as :func:`file_batches` gives them where both are one tree
    a line (mode 1) with as many lines, in one pass (module docstring); :class:`NotLines`
    where they are not, :class:`FallBack` for a file that is not UTF-8.

    Each pair comes with ``read_ahead``: with ``ahead``, a callable that reads the next pair
    into a second pair of batches (what it raises is raised when the next pair is asked
    for), for the consumer to run on another thread while it scores this pair (nothing of
    the vocabulary may be read meanwhile: the reader adds to it); else None."""
    streams = [FileStream(gold_path, 1, vocab, block, check=True), FileStream(cand_path, 1, vocab, block, check=True)]
    pairs = [[_lineage.Batch(), _lineage.Batch()], [_lineage.Batch(), _lineage.Batch()]]

    def fill(batches, done: int) -> int:
        got = []
        for side in (0, 1):
            batches[side].clear()
            try:
                got.append(streams[side].read(batches[side], size))
            except NotUTF8:
                raise
            except FallBack:
                raise NotLines("parse", side, done + len(batches[side])) from None
        if got[0] != got[1]:
            raise NotLines("count")
        return got[0]

    try:
        done, cur = 0, 0
        got = fill(pairs[cur], done)
        while got:
            ahead_box: Dict[str, object] = {}

            def read_ahead(box=ahead_box, batches=pairs[1 - cur], first=done + got) -> None:
                try:
                    box["got"] = fill(batches, first)
                except BaseException as exc:  # raised in the consumer's thread, in its turn
                    box["error"] = exc

            yield pairs[cur][0], pairs[cur][1], done, (read_ahead if ahead and got == size else None)
            done += got
            if got < size:
                break
            if "error" in ahead_box:
                raise ahead_box["error"]  # type: ignore[misc]
            got = ahead_box["got"] if "got" in ahead_box else fill(pairs[1 - cur], done)  # type: ignore[assignment]
            cur = 1 - cur
    finally:
        for s in streams:
            s.close()
