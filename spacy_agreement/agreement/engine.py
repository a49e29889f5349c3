"""The all-pairs sums behind α at corpus scale.

α needs the expected disagreement over all pairs of pairable annotations, so its cost grows
with the square of the corpus (Skjærholt 2014, footnote 8: 7.5 hours for the PCEDT). Here:

* **Deduplication.** Identical trees (same labels and shape, and the same size |x|) are at
  distance 0 from each other, so the expected sum runs over *distinct* trees weighted by
  their counts: Σ_{a<b} 2 c_a c_b δ²(a, b). Short sentences and agreeing annotators repeat
  a lot.
* **Orientation.** With unit costs each pair is computed in the orientation (as given, or
  both trees mirrored) of fewer DP cells. The distinct trees are ordered by the ratio of
  their two costs, so that in every row the mirrored pairs are one run and the others
  another, and the combined-row kernel meets whole blocks of trees laid out once
  (:func:`oriented`).
* **Threads.** The rows of the pair triangle are computed by the Cython kernel with OpenMP
  threads, one DP buffer per thread, no allocation per pair: memory O(trees + threads × n²),
  never O(pairs).
* **One parallel region.** All rows go to the kernel in one call (dynamic schedule; the
  triangle's last rows are its shortest, so the threads meet once, at the end, with little
  to wait for). The calling thread polls between its rows: a progress bar follows,
  and Ctrl-C stops the sums within about one row's time, however big the corpus
  (``KeyboardInterrupt`` raised once the running rows are done). Earlier versions cut the
  rows into chunks of about a tenth of a second each, one call each: the threads waited
  for each other at every chunk's end (a tenth of the time on two cores).
* **Dask.** ``backend="dask"`` sends the same row chunks as tasks to a ``dask.distributed``
  cluster (a ``LocalCluster`` by default, or a scheduler address), the forest scattered
  once to the workers (optional extra ``dask``).

The observed disagreement only needs the pairs within items and is computed exactly with
the pair kernel. All paths give the same α up to floating-point summation order.
"""
from __future__ import annotations

import os
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from .. import _core
from ..errors import BadOptionError
from ..trees import Forest, OrderedTree
from .deltas import squared_delta_values


def default_threads() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def deduplicate(trees: Sequence[OrderedTree], sizes: Sequence[int]) -> Tuple[List[int], np.ndarray, np.ndarray]:
    """Distinct trees (by labels, shape and size): their indices in ``trees`` sorted by
    decreasing number of nodes, the count of each, and for every tree its distinct index."""
    index: Dict[Tuple[bytes, bytes, int], int] = {}
    first: List[int] = []
    counts: List[int] = []
    of_tree = np.empty(len(trees), dtype=np.int64)
    for t, (tree, size) in enumerate(zip(trees, sizes)):
        key = (tree.labels.tobytes(), tree.parent.tobytes(), int(size))
        k = index.get(key)
        if k is None:
            k = index[key] = len(first)
            first.append(t)
            counts.append(0)
        counts[k] += 1
        of_tree[t] = k
    order = sorted(range(len(first)), key=lambda k: -trees[first[k]].size)
    rank = np.empty(len(first), dtype=np.int64)
    rank[order] = np.arange(len(first))
    return [first[k] for k in order], np.asarray([counts[k] for k in order], dtype=np.float64), rank[of_tree]


def row_chunks(n: int, chunks: int) -> List[Tuple[int, int]]:
    """Row ranges of the pair triangle with about equal numbers of pairs each."""
    if n < 2:
        return []
    remaining = np.arange(n - 1, -1, -1, dtype=np.float64)  # pairs in row i: n - 1 - i
    cumulative = np.cumsum(remaining)
    total = cumulative[-1]
    chunks = max(1, min(chunks, n - 1))
    bounds = np.searchsorted(cumulative, np.linspace(0, total, chunks + 1)[1:-1], side="left") + 1
    edges = [0, *sorted(set(int(b) for b in bounds if 0 < b < n)), n]
    return [(a, b) for a, b in zip(edges[:-1], edges[1:]) if b > a]


def tree_costs(forest: Forest, mirror: Optional[Mirror] = None) -> np.ndarray:
    """Each tree's Zhang–Shasha cost (Σ of its keyroot subtree sizes; a pair costs about the
    product of its two trees' values in DP cells): the cheaper orientation with ``mirror``."""
    if mirror is not None:
        return np.minimum(mirror.cost_left, mirror.cost_right).astype(np.float64)
    # from the flat arrays: a keyroot k of tree t covers k - lml[k] + 1 nodes
    tree_of_kr = np.repeat(np.arange(len(forest)), np.diff(forest.kr_offsets))
    nodes = forest.offsets[tree_of_kr] + forest.keyroots
    spans = (forest.keyroots - forest.lml[nodes] + 1).astype(np.float64)
    return np.bincount(tree_of_kr, weights=spans, minlength=len(forest)).astype(np.float64)


def row_work(costs: np.ndarray) -> np.ndarray:
    """Estimated DP cells of each row ``i`` of the pair triangle (its pairs ``(i, j > i)``)."""
    costs = np.asarray(costs, dtype=np.float64)
    after = np.cumsum(costs[::-1])[::-1] - costs  # Σ_{j > i} costs[j]
    return costs * after


def work_chunks(work: np.ndarray, budget: float, min_rows: int = 1) -> List[Tuple[int, int]]:
    """Row ranges of the pair triangle covering every row once, each of about ``budget``
    estimated cells (``work``: per row, :func:`row_work`) and at least ``min_rows`` rows (a
    row is never split: one over the budget is a chunk of ``min_rows`` rows)."""
    n = len(work)
    if n < 2:
        return []
    budget = max(float(budget), 1.0)
    min_rows = max(1, int(min_rows))
    cumulative = np.cumsum(np.asarray(work, dtype=np.float64))
    ranges: List[Tuple[int, int]] = []
    start = 0
    while start < n - 1:  # the last row has no pairs: it joins the chunk before it
        done = cumulative[start - 1] if start else 0.0
        end = int(np.searchsorted(cumulative, done + budget, side="right"))
        end = min(max(end, start + min_rows), n)
        if end >= n - 1:
            end = n
        ranges.append((start, end))
        start = end
    return ranges


def chunk_pairs(n: int, start: int, end: int) -> int:
    """How many pairs ``(i, j > i)`` of ``n`` trees the rows ``start <= i < end`` hold."""
    rows = end - start
    return rows * (n - 1) - (start + end - 1) * rows // 2


class Mirror(NamedTuple):
    """A forest mirrored (every tree's children in reverse order: the same distances), as the
    kernels take it: its label, leftmost-leaf and keyroot arrays (the offsets are the
    original forest's), and each tree's Zhang–Shasha cost in DP cells as given
    (``cost_left``) and mirrored (``cost_right``)."""

    labels: np.ndarray
    lml: np.ndarray
    keyroots: np.ndarray
    kr_offsets: np.ndarray
    cost_left: np.ndarray
    cost_right: np.ndarray


def mirror_arrays(trees: Sequence[OrderedTree]) -> Mirror:
    """The mirrored forest's arrays and each tree's Zhang–Shasha cost in both orientations,
    so the kernel can take the cheaper one per pair (Pawlik & Augsten's left/right path
    choice, at the level of whole trees): ``_core.mirror_forest`` of the trees' forest."""
    return Mirror(*_core.mirror_forest(*Forest.from_trees(trees).arrays()))


def oriented(forest: Forest, sizes: np.ndarray, counts: np.ndarray, cost: Optional[np.ndarray],
             forest_trees: Optional[Sequence[OrderedTree]]) -> Tuple[Forest, np.ndarray, np.ndarray, Optional[Mirror]]:
    """``(forest, sizes, counts, mirror)`` for the all-pairs sums: with unit costs and the
    trees given, their mirror (:func:`mirror_arrays`) and all of it reordered by increasing
    ratio of right to left Zhang–Shasha cost. A pair is mirrored when the product of its
    trees' right costs is below that of their left costs, so in that order the trees a row
    mirrors are those before some point and the sums (symmetric in the pairs) are unchanged.
    Otherwise the arguments as they are, without a mirror."""
    if forest_trees is None or cost is not None or not len(forest):
        return forest, sizes, counts, None
    labels, lml, keyroots, kr_offsets, left, right = _core.mirror_forest(*forest.arrays())
    order = np.argsort(right / np.maximum(left, 1), kind="stable")
    mirrored = Forest(labels, lml, forest.offsets, keyroots, kr_offsets).take(order)
    mirror = Mirror(mirrored.labels, mirrored.lml, mirrored.keyroots, mirrored.kr_offsets,
                    np.ascontiguousarray(left[order]), np.ascontiguousarray(right[order]))
    return (forest.take(order), np.ascontiguousarray(sizes[order]), np.ascontiguousarray(counts[order]), mirror)


def row_layouts(arrays: Tuple[np.ndarray, ...], mirror: Optional[Mirror]) -> Tuple[object, object]:
    """The combined-row kernel's layouts of the forest (and of its mirror), built once for
    all the chunks of one α instead of once per chunk."""
    offsets = arrays[2]
    mirrored = None if mirror is None else _core.row_layouts(mirror.labels, mirror.lml, offsets, mirror.keyroots,
                                                             mirror.kr_offsets)
    return _core.row_layouts(*arrays), mirrored


class PreparedForest(NamedTuple):
    """What the all-pairs kernels take, set up once per α for every backend: the forest,
    sizes and counts in :func:`oriented` order, its :class:`Mirror` (unit costs) and the
    combined-row kernel's layouts of both (:func:`row_layouts`)."""

    forest: Forest
    sizes: np.ndarray
    counts: np.ndarray
    mirror: Optional[Mirror]
    layouts: Optional[Tuple[object, object]]


def prepared(forest: Forest, sizes: np.ndarray, counts: np.ndarray, cost: Optional[np.ndarray],
             forest_trees: Optional[Sequence[OrderedTree]]) -> PreparedForest:
    """The orientation and layouts of the all-pairs sums (:class:`PreparedForest`): one
    setup for the threads and the dask backends."""
    forest, sizes, counts, mirror = oriented(forest, sizes, counts, cost, forest_trees)
    layouts = row_layouts(forest.arrays(), mirror) if cost is None else None
    return PreparedForest(forest, sizes, counts, mirror, layouts)


def expected_sums(forest: Forest, sizes: np.ndarray, counts: np.ndarray, cost: Optional[np.ndarray] = None,
                  n_threads: Optional[int] = None, progress: bool = False, chunks: int = 1,
                  forest_trees: Optional[Sequence[OrderedTree]] = None,
                  chunk_cells: Optional[float] = None) -> np.ndarray:
    """Σ over ordered pairs of distinct pairable annotations of δ², for the built-in δ of the
    Cython kernels (``_core.KERNEL_DELTAS``, in that order).

    With ``forest_trees`` (the trees of ``forest``) and unit costs, each pair is computed in
    whichever orientation (as given, or both trees mirrored) costs fewer DP cells. By default
    all rows go to the kernel in one call, which polls for Ctrl-C and feeds the progress bar
    between groups of ``_core.row_group(n)`` rows (``progress`` shows a bar counting pairs).
    ``chunks`` (at least that many calls of about equal estimated work) and ``chunk_cells`` (at
    most that many cells per thread in one call, :func:`work_chunks`) cut it into several
    calls: the same sums to the last bit, only the threads wait for each other at every call's
    end."""
    n_threads = n_threads or default_threads()
    forest, sizes, counts, mirror, layouts = prepared(forest, sizes, counts, cost, forest_trees)
    arrays = forest.arrays()
    n = len(forest)
    work = row_work(tree_costs(forest, mirror))
    budget = float(work.sum()) / max(1, chunks)  # one chunk, all rows, by default
    if chunk_cells is not None:
        budget = min(budget, chunk_cells * n_threads)
    ranges = work_chunks(work, budget, min_rows=n_threads)
    bar = None
    if progress:
        from tqdm import tqdm

        # pairs, not rows (rows shrink along the triangle); smoothing=0: the ETA from the average rate
        bar = tqdm(total=n * (n - 1) // 2, desc="alpha", unit="pairs", unit_scale=True, smoothing=0,
                   leave=False)
    # every row's sums, added up once at the end: the same to the last bit whatever the threads
    # and chunks (and the same as the dask backend's)
    rows = np.zeros((n, len(_core.KERNEL_DELTAS)))
    try:
        for start, end in ranges:
            rows[start:end] = _core.expected_sums_rows(*arrays, sizes, counts, start, end, n_threads, cost, mirror,
                                                       layouts, per_row=True,
                                                       progress=None if bar is None else bar.update)
    finally:
        if bar is not None:
            bar.close()
    return rows.sum(axis=0)


#: Seconds to wait for a dask scheduler given by address before giving up.
SCHEDULER_TIMEOUT = 5.0


def expected_sums_dask(forest: Forest, sizes: np.ndarray, counts: np.ndarray, cost: Optional[np.ndarray] = None,
                       scheduler: Optional[object] = None, chunks: int = 64,
                       forest_trees: Optional[Sequence[OrderedTree]] = None) -> np.ndarray:
    """The same sums computed as tasks on a ``dask.distributed`` cluster.

    ``scheduler`` is a ``distributed.Client``, a scheduler address (one that cannot be
    reached within :data:`SCHEDULER_TIMEOUT` seconds is a
    :class:`~spacy_agreement.errors.BadOptionError`), or ``None`` for a new
    ``LocalCluster`` (closed afterwards). Without the extra ``dask`` an ``ImportError``
    naming the missing module is raised. ``forest_trees`` as for :func:`expected_sums`: each
    task then takes the cheaper orientation of every pair, as the threads backend does."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        # an ImportError naming the missing module: the CLI answers it with the extra to install
        raise ImportError(f"backend='dask' needs dask.distributed ({exc}): pip install 'spacy-agreement[dask]'",
                          name=exc.name or "distributed") from exc
    own_cluster = None
    if isinstance(scheduler, Client):
        client = scheduler
    elif scheduler is None:
        own_cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(own_cluster)
    else:
        try:
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)
        except (OSError, TimeoutError) as exc:  # refused, unreachable, no scheduler there
            raise BadOptionError(f"cannot reach the dask scheduler {scheduler} within {SCHEDULER_TIMEOUT:g} s: "
                                 f"{' '.join(str(exc).split()) or type(exc).__name__}") from exc
    try:
        forest, sizes, counts, mirror, layouts = prepared(forest, sizes, counts, cost, forest_trees)
        # hash=False: keys of this call only (equal data scattered by an earlier call on the same
        # client would share its keys, and that call's release could drop them under this one's tasks)
        arrays = client.scatter(list(forest.arrays()) + [sizes, counts, cost, mirror, layouts], broadcast=True,
                                hash=False)
        futures = [client.submit(_rows_task, *arrays, start, end, pure=False)
                   for start, end in row_chunks(len(forest), chunks)]
        parts = client.gather(futures)  # each chunk's rows, in row order: one sum over all rows
        return (np.concatenate(parts).sum(axis=0) if parts else np.zeros(len(_core.KERNEL_DELTAS)))
    finally:
        if client is not scheduler:
            client.close()
        if own_cluster is not None:
            own_cluster.close()


def _rows_task(labels, lml, offsets, keyroots, kr_offsets, sizes, counts, cost, mirror, layouts, start, end):
    return _core.expected_sums_rows(labels, lml, offsets, keyroots, kr_offsets, sizes, counts, start, end, 1, cost,
                                    mirror, layouts, per_row=True)


def within_item_pairs(item_of: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Every unordered pair ``(left, right)`` of annotations of the same item."""
    left, right = [], []
    order = np.argsort(item_of, kind="stable")
    boundaries = np.flatnonzero(np.diff(item_of[order])) + 1
    for group in np.split(order, boundaries):
        for a in range(len(group)):
            for b in range(a + 1, len(group)):
                left.append(group[a])
                right.append(group[b])
    return np.asarray(left, dtype=np.int64), np.asarray(right, dtype=np.int64)


def observed_sums(forest: Forest, sizes: np.ndarray, item_of: np.ndarray, item_count: np.ndarray,
                  cost: Optional[np.ndarray], names: Sequence[str]) -> np.ndarray:
    """Per item, Σ over ordered pairs within the item of δ² / (m_u − 1), for each δ in
    ``names`` (columns in that order)."""
    left, right = within_item_pairs(item_of)
    per_item = np.zeros((len(item_count), len(names)))
    if not len(left):
        return per_item
    ted = _core.forest_ted_pairs(*forest.arrays(), left, right, cost)
    items = item_of[left]
    weight = 2.0 / (item_count[items] - 1)
    for d, values in enumerate(squared_delta_values(ted, sizes[left], sizes[right], names)):
        np.add.at(per_item[:, d], items, weight * values)
    return per_item


def expected_sums_pairs(forest: Forest, sizes: np.ndarray, counts: np.ndarray, cost: Optional[np.ndarray],
                        names: Sequence[str], chunks: int = 64) -> np.ndarray:
    """Σ over ordered pairs of distinct pairable annotations of δ², for any registered δ
    (:mod:`spacy_agreement.agreement.deltas`): the TEDs of the pairs of distinct trees, a
    chunk of rows at a time, then δ vectorised over the chunk, weighted by the counts."""
    total = np.zeros(len(names))
    n = len(forest)
    for start, end in row_chunks(n, chunks):
        rows = np.arange(start, end, dtype=np.int64)
        per_row = n - 1 - rows
        left = np.repeat(rows, per_row)
        right = (np.arange(per_row.sum(), dtype=np.int64) - np.repeat(np.cumsum(per_row) - per_row, per_row)
                 + left + 1)
        if not len(left):
            continue
        ted = _core.forest_ted_pairs(*forest.arrays(), left, right, cost)
        weight = 2.0 * counts[left] * counts[right]
        total += squared_delta_values(ted, sizes[left], sizes[right], names) @ weight
    return total
