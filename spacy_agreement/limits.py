"""Bounds on time and memory for pathological input (issue 17): before any quadratic
structure is allocated, its size is estimated and held against a limit, so that a 100,000-
token sentence gives one line naming the file, the sentence and the memory it would need,
never a ``MemoryError`` traceback or a run that does not end.

* **Tree edit distance tables.** Zhang–Shasha keeps two (m+1)×(n+1) tables per pair; the
  all-pairs kernels keep one set per thread, sized for the largest tree. :func:`check_ted`
  compares their bytes with :func:`max_memory` (default 8 GiB, room on a 24 GiB machine;
  ``SPACY_AGREEMENT_MAX_MEMORY`` in GiB, the CLI's ``--max-memory``, or
  :func:`memory_limit`). Over it, :class:`~spacy_agreement.errors.ResourceLimitError`.
* **Leaf-ancestor lineages.** A word's lineage is its path to the root, and its score a
  Levenshtein table of the two paths: O(depth) memory and O(depth²) time per word, which a
  chain of 100,000 tokens turns into 5·10⁹ symbols. :func:`lineage_cost` gives the symbols
  and cells of a sentence from the depths alone (linear time);
  :data:`MAX_LINEAGE_CELLS` bounds them and the sentence is skipped (and counted) beyond.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator, List, Optional, Sequence

import numpy as np

from . import _core
from .errors import Location, ResourceLimitError

GIB = 1 << 30
#: The memory the tree edit distance tables may take unless told otherwise.
DEFAULT_MAX_MEMORY = 8 * GIB
#: Levenshtein cells (Σ over words of gold depth × candidate depth) per leaf-ancestor sentence.
MAX_LINEAGE_CELLS = 500_000_000
#: Lineage symbols (Σ of depths over words) per leaf-ancestor sentence.
MAX_LINEAGE_SYMBOLS = 50_000_000

_limit: Optional[int] = None


def max_memory() -> int:
    """The limit in bytes: :func:`memory_limit`'s, else ``SPACY_AGREEMENT_MAX_MEMORY`` (GiB), else 8 GiB."""
    if _limit is not None:
        return _limit
    value = os.environ.get("SPACY_AGREEMENT_MAX_MEMORY")
    return int(float(value) * GIB) if value else DEFAULT_MAX_MEMORY


@contextmanager
def memory_limit(gib: Optional[float]) -> Iterator[None]:
    """Hold the tables to ``gib`` GiB inside the block (``None``: leave the limit as it is)."""
    global _limit
    previous = _limit
    if gib is not None:
        if not gib > 0:
            raise ValueError("the memory limit must be a positive number of GiB")
        _limit = int(gib * GIB)
    try:
        yield
    finally:
        _limit = previous


def size_text(n_bytes: float) -> str:
    """Bytes as a readable amount (``74.5 GiB``)."""
    for unit, scale in (("GiB", GIB), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.1f} {unit}"
    return f"{int(n_bytes)} bytes"


def ted_table_bytes(m: int, n: int, threads: int = 1, kernels: int = 2) -> int:
    """Bytes of the Zhang–Shasha tables for trees of ``m`` and ``n`` nodes: a tree-distance
    and a forest-distance table per kernel (the float one, and the integer one of the
    all-pairs paths, ``kernels=2``, which also keep the combined-row kernel's buffers,
    ``_core.row_work_bytes``), per thread."""
    if kernels == 1:
        return int(threads) * (m * n + (m + 1) * (n + 1)) * 8
    return int(threads) * ((m * n + (m + 1) * (n + 1)) * 12 + _core.row_work_bytes(max(m, n)))


def check_ted(m: int, n: int, where: Optional[Location] = None, threads: int = 1, kernels: int = 2,
              what: str = "the tree edit distance", limit: Optional[int] = None) -> None:
    """Raise :class:`ResourceLimitError` when the tables for trees of ``m`` and ``n`` nodes
    (on ``threads`` threads) would exceed :func:`max_memory` (``limit`` bytes where given:
    the limit a caller read before handing the work to another thread)."""
    needed = ted_table_bytes(m, n, threads, kernels)
    limit = max_memory() if limit is None else limit
    if needed > limit:
        threads_text = f" on {threads} threads" if threads > 1 else ""
        raise ResourceLimitError(
            f"{what} of trees of {m:,} and {n:,} nodes needs {size_text(needed)} of tables{threads_text}, over the "
            f"limit of {size_text(limit)} (spacy_agreement.limits.memory_limit(), or SPACY_AGREEMENT_MAX_MEMORY in GiB)",
            where, option="memory_limit")


def check_forest(sizes: Sequence[int], locations: Sequence[object], threads: int = 1) -> None:
    """:func:`check_ted` for the all-pairs kernels over trees of ``sizes`` (tables sized for
    the largest, per thread), naming the largest tree."""
    if not len(sizes):
        return
    biggest = int(np.argmax(sizes))
    where = locations[biggest] if biggest < len(locations) else None
    m = int(sizes[biggest])
    check_ted(m, m, where if isinstance(where, Location) else None, threads)


def depths(parent: Sequence[int]) -> List[int]:
    """Depth of every node from 0-based parent indices (-1 above a top node): 1 for a top
    node, in linear time (each node is walked once); 0 for nodes in or under a cycle."""
    n = len(parent)
    depth = [0] * n
    state = [0] * n  # 0 new, 1 on the current path, 2 done
    for start in range(n):
        path = []
        node = start
        while node != -1 and state[node] == 0:
            state[node] = 1
            path.append(node)
            node = parent[node]
        if node == -1:
            base, reachable = 0, True
        elif state[node] == 2:
            base, reachable = depth[node], depth[node] > 0
        else:  # back on the current path: a cycle
            base, reachable = 0, False
        for k, p in enumerate(reversed(path), start=1):
            depth[p] = base + k if reachable else 0
            state[p] = 2
    return depth


def lineage_cost(gold_depths: Sequence[int], candidate_depths: Sequence[int]) -> tuple:
    """(symbols, cells) of a leaf-ancestor sentence: Σ of the lineage lengths on both sides
    and Σ over words of their product (the Levenshtein tables)."""
    g = np.asarray(gold_depths, dtype=np.float64)
    c = np.asarray(candidate_depths, dtype=np.float64)
    return float(g.sum() + c.sum()), float(g @ c) if len(g) == len(c) else float(g.sum() * c.max(initial=0))
