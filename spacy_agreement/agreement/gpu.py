"""Exact α's all-pairs sums on a CUDA GPU: the optional backend ``"gpu"`` (extra ``gpu``).

The expected disagreement of α needs every pair of distinct annotations, so its cost grows
with the square of the corpus (38.7 million pairs for a PCEDT-sized agreement set, five
billion for a 100,000-tree treebank). Here every pair (i, j > i) of the deduplicated forest
is one CUDA thread running Zhang–Shasha (Zhang & Shasha 1989) on the same compact arrays
the CPU kernels use (labels, leftmost leaves, keyroots, offsets), written with Numba CUDA:

* **No pair list.** A launch covers a run of pair numbers of the triangle; each thread
  finds its row ``i`` by binary search in the rows' first pair numbers and ``j`` from the
  rest, so the host never holds a pair list, for all pairs or for a batch.
* **Tables in global memory, pairs interleaved.** Each thread keeps its tree-distance and
  forest-distance tables (``m × m`` and ``(m + 1)²`` entries for the largest tree of ``m``
  nodes) in slots ``slot * stride + thread``, so that neighbouring threads touch
  neighbouring words. Unit costs use int16 tables (distances stay below 2 m), int32 past
  16,383 nodes; a label-cost matrix float64 ones, as the CPU kernel does.
* **Batches sized to the device.** A launch runs as many threads as the tables of
  ``device_bytes`` hold (by default half of the free device memory, at most
  :data:`DEFAULT_DEVICE_BYTES`), each thread's tables sized for the largest tree its launch
  can meet (with the trees by decreasing size, as α orders them, the launches of the later
  rows, with smaller trees, run more threads), until every pair is done.
* **Sums on the device.** Each thread adds ``2 c_i c_j δ²`` for δplain, δdiff and δnorm
  (:mod:`spacy_agreement.agreement.deltas`, ``_core.KERNEL_DELTAS`` order) into its
  block's shared-memory sum, and each block adds its three sums into the result with one
  atomic add each. The distances are exact integers with unit costs, so the δplain and
  δdiff sums equal the CPU kernel's exactly; δnorm's equal them to rounding (the order of
  the additions differs).
* **Compiled once per machine.** The kernel and its device functions are compiled with
  Numba's disk cache (``cuda.jit(cache=True)``): the first process compiles them (several
  seconds) and writes the result to ``NUMBA_CACHE_DIR``, the ``__pycache__`` beside this
  file or ``~/.cache/numba``, whichever is writable first; a later process loads it (the
  cache is keyed by the source file, the argument types, the GPU's compute capability and
  the numba-cuda version). Where no folder is writable each process compiles, as before.

Without the extra the backend raises an ``ImportError`` naming ``numba`` (the CLI answers it
with the extra to install); without a usable GPU a
:class:`~spacy_agreement.errors.BadOptionError` saying why. ``NUMBA_ENABLE_CUDASIM=1``
runs the same kernel in Numba's CUDA simulator on the CPU (slowly): the tests use it where
no GPU is present.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from ..errors import BadOptionError
from ..trees import Forest

#: Device memory for the per-pair tables of one launch when the device has that much to spare.
DEFAULT_DEVICE_BYTES = 4 << 30
#: Threads per block (a multiple of the 32-thread warp).
THREADS_PER_BLOCK = 128
#: Largest tree (nodes) whose unit-cost distances fit int16 tables (a distance is at most m + n).
INT16_MAX_NODES = 16_383

_kernels: Dict[int, Callable[..., Any]] = {}
#: numba.cuda and numba.float64 once imported, and the device functions once compiled: module
#: globals, as the kernels must see them (the CUDA simulator swaps a kernel's global ``cuda``
#: for its own, not a closure's; and a disk-cached kernel may close over plain values only).
cuda: Any = None
float64: Any = None
_relabel: Any = None
_ted: Any = None


def cuda_module() -> Any:
    """``numba.cuda``, or an ``ImportError`` naming ``numba`` (the extra ``gpu`` is missing),
    or a :class:`BadOptionError` when no CUDA GPU can be used."""
    try:
        from numba import cuda
    except ImportError as exc:
        raise ImportError(f"backend='gpu' needs Numba CUDA ({exc}): pip install 'spacy-agreement[gpu]'",
                          name="numba") from exc
    try:
        available = bool(cuda.is_available())
    except Exception as exc:  # a broken driver or toolkit reports itself here
        raise BadOptionError(f"backend=\"gpu\": CUDA cannot be used here ({' '.join(str(exc).split())})", option="backend") from exc
    if not available:
        raise BadOptionError('backend="gpu": no CUDA GPU is usable here (no device, or no NVIDIA driver); '
                             "use another backend", option="backend")
    return cuda


def _jit(function: Callable[..., Any], device: bool = False) -> Any:
    """``cuda.jit`` with Numba's disk cache (``cache=True``): a later process loads the
    compiled kernel instead of compiling it again. The cache goes to ``NUMBA_CACHE_DIR`` when
    set, else to the ``__pycache__`` beside this file, else to the user's cache folder
    (``~/.cache/numba``); where none is writable the kernel is compiled in every process, as
    without the cache. The simulator takes the option and ignores it."""
    try:
        return cuda.jit(function, device=device, cache=True)
    except (OSError, RuntimeError):  # "cannot cache function ...: no locator available"
        return cuda.jit(function, device=device)


def _relabel_cost(label_a, label_b, cost, n_labels):
    """Relabelling cost: 0/1 with unit costs (``n_labels == 0``, ``cost`` an integer array,
    so that the tables' arithmetic stays integer) or ``cost[label_a * n_labels + label_b]``
    (``cost`` float64, the tables' arithmetic float64)."""
    if n_labels == 0:
        return 0 if label_a == label_b else 1
    return cost[label_a * n_labels + label_b]


def _ted_distance(labels, lml, keyroots, a0, an, ka, nka, b0, bn, kb, nkb, cost, n_labels, td, fd, stride, t):
    """Zhang–Shasha of trees A (nodes a0.., keyroots ka..) and B: insert and delete 1,
    relabel 0/1 (unit) or cost[label_a * n_labels + label_b]; tables interleaved."""
    if an == 0:
        return bn
    if bn == 0:
        return an
    w = bn + 1
    for ia in range(nka):
        i = keyroots[ka + ia]
        li = lml[a0 + i]
        mi = i - li + 1
        for ib in range(nkb):
            j = keyroots[kb + ib]
            lj = lml[b0 + j]
            mj = j - lj + 1
            for dj in range(mj + 1):
                fd[dj * stride + t] = dj
            for di in range(1, mi + 1):
                x = li + di - 1
                row = di * w
                prev = row - w
                fd[row * stride + t] = di
                x_on_path = lml[a0 + x] == li
                p = (lml[a0 + x] - li) * w
                for dj in range(1, mj + 1):
                    y = lj + dj - 1
                    best = fd[(prev + dj) * stride + t] + 1
                    cand = fd[(row + dj - 1) * stride + t] + 1
                    if cand < best:
                        best = cand
                    if x_on_path and lml[b0 + y] == lj:
                        sub = _relabel(labels[a0 + x], labels[b0 + y], cost, n_labels)
                        cand = fd[(prev + dj - 1) * stride + t] + sub
                        if cand < best:
                            best = cand
                        td[(x * bn + y) * stride + t] = best
                    else:
                        cand = fd[(p + lml[b0 + y] - lj) * stride + t] + td[(x * bn + y) * stride + t]
                        if cand < best:
                            best = cand
                    fd[(row + dj) * stride + t] = best
    return td[((an - 1) * bn + bn - 1) * stride + t]


def _sums_function(tpb: int) -> Callable[..., Any]:
    """The kernel's Python function for blocks of ``tpb`` threads (the shared-memory sums'
    size must be a compile-time constant: it is the one value the function closes over, so
    that Numba's disk cache can key it)."""

    def sums(labels, lml, offsets, keyroots, kr_offsets, sizes, counts, row_first, n_rows, first, n_pairs, cost,
             n_labels, td, fd, stride, out):
        t = cuda.grid(1)
        local = cuda.threadIdx.x
        part = cuda.shared.array(shape=(3, tpb), dtype=float64)
        part[0, local] = 0.0
        part[1, local] = 0.0
        part[2, local] = 0.0
        if t < n_pairs:
            g = first + t
            lo = 0
            hi = n_rows - 1
            while lo < hi:  # the last row whose first pair number is <= g
                mid = (lo + hi + 1) // 2
                if row_first[mid] <= g:
                    lo = mid
                else:
                    hi = mid - 1
            i = lo
            j = i + 1 + (g - row_first[i])
            d = float64(_ted(labels, lml, keyroots, offsets[i], offsets[i + 1] - offsets[i], kr_offsets[i],
                             kr_offsets[i + 1] - kr_offsets[i], offsets[j], offsets[j + 1] - offsets[j],
                             kr_offsets[j], kr_offsets[j + 1] - kr_offsets[j], cost, n_labels, td, fd, stride, t))
            weight = 2.0 * counts[i] * counts[j]
            na = float64(sizes[i])
            nb = float64(sizes[j])
            diff = d - abs(na - nb)
            norm = d / (na + nb) if na + nb > 0 else 0.0
            part[0, local] = weight * d * d
            part[1, local] = weight * diff * diff
            part[2, local] = weight * norm * norm
        cuda.syncthreads()
        step = tpb // 2
        while step > 0:
            if local < step:
                part[0, local] += part[0, local + step]
                part[1, local] += part[1, local + step]
                part[2, local] += part[2, local + step]
            cuda.syncthreads()
            step //= 2
        if local == 0:
            cuda.atomic.add(out, 0, part[0, 0])
            cuda.atomic.add(out, 1, part[1, 0])
            cuda.atomic.add(out, 2, part[2, 0])

    return sums


def _kernel(threads_per_block: int) -> Callable[..., Any]:
    """The sums kernel for blocks of ``threads_per_block`` threads: one dispatcher, compiled
    at its first launch for unit costs (an integer ``cost``, integer tables) or a label-cost
    matrix (float64), or loaded from Numba's disk cache when an earlier process compiled it."""
    global cuda, float64, _relabel, _ted
    if threads_per_block in _kernels:
        return _kernels[threads_per_block]
    cuda = cuda_module()
    from numba import float64

    if _ted is None:
        _relabel = _jit(_relabel_cost, device=True)
        _ted = _jit(_ted_distance, device=True)
    _kernels[threads_per_block] = _jit(_sums_function(threads_per_block))
    return _kernels[threads_per_block]


def kernel_cache(threads_per_block: int = THREADS_PER_BLOCK) -> Optional[Tuple[str, int, int]]:
    """Where the kernel's disk cache lies and how many of this process's compilations it
    answered (hits) and did not (misses): ``(folder, hits, misses)``, or ``None`` when the
    kernel is not cached (the simulator, no writable folder)."""
    stats = getattr(_kernel(threads_per_block), "stats", None)
    if stats is None or not stats.cache_path:
        return None
    return stats.cache_path, sum(stats.cache_hits.values()), sum(stats.cache_misses.values())


def _launch(kernel: Any, blocks: int, threads_per_block: int, args: Tuple[Any, ...]) -> None:
    """One launch. Numba's advice on small grids is left out (the grid is as large as the pairs
    need); a kernel Numba cannot compile (numba-cuda 0.30.4 with numpy 2.5, where
    ``np.row_stack`` is gone, say) is a :class:`BadOptionError` naming both versions."""
    import warnings

    try:
        with warnings.catch_warnings():
            # NumbaPerformanceWarning, a class of numba's or numba-cuda's own depending on the version
            warnings.filterwarnings("ignore", message=r".*Grid size .* under-utilization")
            try:
                kernel[blocks, threads_per_block](*args)
            except OSError:
                # the cache folder, writable when the kernel was made, is not any more: compile
                # without the cache (a launch that failed here has not run)
                disable = getattr(getattr(kernel, "_cache", None), "disable", None)
                if disable is None:
                    raise
                disable()
                kernel[blocks, threads_per_block](*args)
    except (AttributeError, ImportError, TypeError) as exc:
        if getattr(kernel, "overloads", None):  # compiled already: not a compiler fault
            raise
        raise BadOptionError(
            f'backend="gpu": Numba CUDA {_version("numba-cuda")} cannot compile the kernel with numpy '
            f'{np.__version__} ({type(exc).__name__}: {exc}); pip install "numpy<2.5" or a newer numba-cuda',
            option="backend") from exc


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "(version unknown)"


def table_dtype(max_nodes: int, unit: bool) -> np.dtype:
    """The tables' type: int16 for unit costs up to :data:`INT16_MAX_NODES` nodes, int32
    beyond, float64 with a label-cost matrix."""
    if not unit:
        return np.dtype(np.float64)
    return np.dtype(np.int16) if max_nodes <= INT16_MAX_NODES else np.dtype(np.int32)


def _table_elements(max_nodes: int) -> int:
    """Table entries of one thread: tree distances m × m and forest distances (m + 1)²."""
    return max_nodes * max_nodes + (max_nodes + 1) * (max_nodes + 1)


def threads_per_launch(max_nodes: int, itemsize: int, device_bytes: int, n_pairs: int,
                       threads_per_block: int = THREADS_PER_BLOCK) -> int:
    """Threads of one launch: as many as ``device_bytes`` of tables hold (whole blocks, at
    least one), no more than the pairs need."""
    per_thread = _table_elements(max_nodes) * itemsize
    fit = max(1, int(device_bytes) // per_thread // threads_per_block) * threads_per_block
    needed = -(-int(n_pairs) // threads_per_block) * threads_per_block
    return max(threads_per_block, min(fit, needed))


def expected_sums_gpu(forest: Forest, sizes: np.ndarray, counts: np.ndarray, cost: Optional[np.ndarray] = None,
                      device_bytes: Optional[int] = None, threads_per_block: int = THREADS_PER_BLOCK,
                      progress: bool = False) -> np.ndarray:
    """Σ over ordered pairs of distinct trees of ``c_i c_j δ²`` for δplain, δdiff and δnorm
    (the sums of :func:`spacy_agreement.agreement.engine.expected_sums`), on the GPU.

    ``cost``: a square label-cost matrix (unit costs when ``None``); ``device_bytes``: the
    device memory the tables of one launch may take (see the module docstring);
    ``threads_per_block``: a power of two. ``progress`` shows a bar counting pairs."""
    if threads_per_block < 1 or threads_per_block & (threads_per_block - 1):
        raise BadOptionError(f"threads_per_block must be a power of two, not {threads_per_block}")
    cuda_api = cuda_module()
    n = len(forest)
    out = np.zeros(3)
    if n < 2:
        return out
    unit = cost is None
    # unit costs: an integer cost array, so that the kernel's tables stay integer
    cost_arr = np.zeros(1, dtype=np.int32) if unit else np.ascontiguousarray(cost, dtype=np.float64)
    n_labels = 0 if unit else int(cost_arr.shape[0])
    if not unit and forest.labels.size and (forest.labels.min() < 0 or forest.labels.max() >= n_labels):
        raise ValueError("a label id lies outside the cost matrix")
    # row i's pairs join tree i to later trees, so a launch from row i on needs tables for the
    # largest tree from i on: with the trees by decreasing size, as alpha orders them, later
    # launches run more threads in the same memory
    largest_from = np.maximum.accumulate(np.diff(forest.offsets)[::-1])[::-1]
    max_nodes = max(1, int(largest_from[0]))
    dtype = table_dtype(max_nodes, unit)
    n_pairs = n * (n - 1) // 2
    rows = np.arange(n - 1, dtype=np.int64)
    row_first = np.concatenate([[0], np.cumsum(n - 1 - rows)[:-1]]).astype(np.int64)
    if device_bytes is None:
        free, _ = cuda_api.current_context().get_memory_info()
        # (the simulator reports unbounded memory)
        device_bytes = int(min(DEFAULT_DEVICE_BYTES, free / 2))
    biggest_launch = threads_per_launch(max_nodes, dtype.itemsize, device_bytes, n_pairs, threads_per_block)
    elements = max(_table_elements(max_nodes) * biggest_launch,
                   min(int(device_bytes) // dtype.itemsize, _table_elements(max_nodes) * n_pairs))
    kernel = _kernel(threads_per_block)
    arrays = [cuda_api.to_device(np.ascontiguousarray(a)) for a in (
        forest.labels, forest.lml, forest.offsets, forest.keyroots, forest.kr_offsets,
        np.asarray(sizes, dtype=np.int64), np.asarray(counts, dtype=np.float64), row_first)]
    cost_dev = cuda_api.to_device(cost_arr.ravel())
    tables = cuda_api.device_array(elements, dtype=dtype)
    out_dev = cuda_api.to_device(out)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=n_pairs, desc="alpha (gpu)", unit="pairs", unit_scale=True, smoothing=0, leave=False)
    try:
        first = 0
        while first < n_pairs:
            m = max(1, int(largest_from[int(np.searchsorted(row_first, first, side="right")) - 1]))
            stride = threads_per_launch(m, dtype.itemsize, elements * dtype.itemsize, n_pairs - first,
                                        threads_per_block)
            count = min(stride, n_pairs - first)
            td = tables[:m * m * stride]
            fd = tables[m * m * stride:_table_elements(m) * stride]
            _launch(kernel, -(-count // threads_per_block), threads_per_block,
                    (*arrays[:7], arrays[7], n - 1, first, count, cost_dev, n_labels, td, fd, stride, out_dev))
            cuda_api.synchronize()
            first += count
            if bar is not None:
                bar.update(count)
    finally:
        if bar is not None:
            bar.close()
    return out_dev.copy_to_host()
