# Included by _core.pyx (one extension module): the combined-row Zhang–Shasha of zs_rows.h
# (one tree against a batch of trees, all keyroot tables side by side in one vectorised row):
# per-tree layouts, the kernel variant chosen at run time, and the calls the other parts use.
from libc.stdlib cimport calloc, malloc, free

cdef extern from "zs_rows.h" nogil:
    enum:
        ZSR_GROUP
        ZSR_MAX_NODES
        ZSR_CAP
        ZSR_STRIDE
        ZSR_PAD
    ctypedef struct zsr_forest:
        const int32_t* lab
        const int32_t* lml
        const int32_t* kr
        const int64_t* off
        const int64_t* kro
        const int32_t* rec
        const int64_t* rec_off
        const int32_t* blk
        const int64_t* blk_off
    ctypedef struct zsr_batch:
        pass
    ctypedef struct zsr_work:
        int32_t* td
        int32_t* fd
    int64_t zsr_width(const int32_t* lml, const int32_t* kr, int64_t nk)
    int32_t zsr_levels(const int32_t* lml, const int32_t* kr, int64_t nk, int32_t* level, int32_t* st_start,
                       int32_t* st_level)
    int64_t zsr_record_ints(int64_t W, int32_t nlev)
    void zsr_build_tree(const int32_t* lab, const int32_t* lml, const int32_t* kr, int64_t n, int64_t nk,
                        int32_t* out, int32_t* scratch)
    int64_t zsr_build_blocks(const int32_t* rec, const int64_t* rec_off, int64_t n_trees, zsr_batch* B,
                             const int32_t** recs, int32_t* mem, int64_t* blk_off)
    int zsr_available()
    int zsr_variant()
    int zsr_forced
    void zsr_group(int variant, const zsr_forest* F0, const zsr_forest* F1, const int64_t* cost_l,
                   const int64_t* cost_r, int64_t i0, int g, int64_t n_trees, zsr_work* w, int32_t* dist)
    int32_t zsr_one(int variant, const int32_t* alab, const int32_t* alml, const int32_t* akr, int64_t an,
                    int64_t ank, const int32_t* blab, const int32_t* blml, const int32_t* bkr, int64_t bn,
                    int64_t bnk, zsr_work* w)
    void zsr_pairs(int variant, const zsr_forest* F, const int64_t* left, const int64_t* right,
                   const int64_t* order, int64_t n_pairs, zsr_work* w, int32_t* dist)

#: The unit-cost kernels, slowest first: ``classic`` is the per-keyroot-pair Zhang–Shasha of
#: zhang_shasha.pxi (the reference); the others are the combined-row kernel of zs_rows.h in
#: portable C, AVX2 and AVX-512. All give the same distances.
ROW_KERNELS = ("classic", "scalar", "avx2", "avx512")
#: Rows of the pair triangle the row kernel runs together (zsr_group): expected_sums_rows polls
#: for Ctrl-C and reports progress after each such group.
ROW_GROUP = ZSR_GROUP
cdef Py_ssize_t _GROUP_TREES = 50000
#: Forests of more trees than this run fewer rows per group (:func:`row_group`): a group's pairs
#: stay under ``ROW_GROUP * ROW_GROUP_TREES`` (about half a second here), so Ctrl-C is still
#: served within a second.
ROW_GROUP_TREES = _GROUP_TREES


def row_group(Py_ssize_t n_trees):
    """Rows per group of :func:`expected_sums_rows` for a forest of ``n_trees`` trees:
    ``ROW_GROUP`` up to ``ROW_GROUP_TREES`` trees, fewer above (at least one)."""
    return _row_group(n_trees)


cdef int _row_group(Py_ssize_t n_trees) noexcept nogil:
    if n_trees <= _GROUP_TREES:
        return ZSR_GROUP
    return <int>max(1, ZSR_GROUP * _GROUP_TREES // n_trees)
cdef bint _rows_on = True


def row_kernels():
    """The unit-cost kernels this CPU can run (names of :data:`ROW_KERNELS`)."""
    return list(ROW_KERNELS[:zsr_available() + 2])


def row_kernel():
    """The unit-cost kernel in use: the best the CPU offers unless :func:`use_row_kernel` chose."""
    return ROW_KERNELS[zsr_variant() + 1] if _rows_on else "classic"


def use_row_kernel(name="auto"):
    """Use the unit-cost kernel ``name`` (one of :func:`row_kernels`, or ``"auto"`` for the
    best); returns the name used before. For tests and benchmarks: every kernel gives the
    same distances."""
    global _rows_on, zsr_forced
    before = row_kernel()
    if name == "auto":
        _rows_on, zsr_forced = True, -1
    elif name in row_kernels():
        _rows_on = name != "classic"
        zsr_forced = max(-1, ROW_KERNELS.index(name) - 1)
    else:
        raise ValueError(f"unknown or unavailable kernel {name!r}: this CPU offers {', '.join(row_kernels())}")
    return before


@cython.auto_pickle(False)
cdef class RowLayouts:
    """Per-tree column layouts of one validated forest for the combined-row kernel (built by
    :func:`row_layouts`, opaque), and the forest cut into blocks of consecutive trees laid
    out once for all rows. Trees over ``ZSR_MAX_NODES`` nodes or ``ZSR_CAP`` columns have
    none: their pairs go to the classic kernel."""
    cdef object records, rec_offsets, blocks, blk_offsets, arrays
    cdef readonly Py_ssize_t max_rows, n_trees, n_blocks
    #: columns of the stored blocks (padding included) and of their trees' own layouts: a
    #: keyroot subtree met again within a block is laid out once (zs_layout.h, batches)
    cdef readonly Py_ssize_t n_block_columns, n_tree_columns

    def covers(self, labels, lml, offsets, keyroots, kr_offsets):
        """Whether these layouts were built from exactly this forest."""
        return len(self.arrays) == 5 and all(np.array_equal(np.asarray(a), b) for a, b in zip(
            (labels, lml, offsets, keyroots, kr_offsets), self.arrays))

    def __reduce__(self):
        # built once, then sent to dask workers: they arrive whole, never rebuilt there
        return _restore_layouts, (self.records, self.rec_offsets, self.blocks, self.blk_offsets, self.arrays,
                                  self.max_rows, self.n_trees, self.n_blocks, self.n_block_columns,
                                  self.n_tree_columns)


def _restore_layouts(records, rec_offsets, blocks, blk_offsets, arrays, max_rows, n_trees, n_blocks,
                     n_block_columns=0, n_tree_columns=0):
    """A pickled :class:`RowLayouts` (see ``RowLayouts.__reduce__``)."""
    cdef RowLayouts layouts = RowLayouts()
    layouts.records, layouts.rec_offsets, layouts.blocks, layouts.blk_offsets = records, rec_offsets, blocks, blk_offsets
    layouts.arrays, layouts.max_rows, layouts.n_trees, layouts.n_blocks = arrays, max_rows, n_trees, n_blocks
    layouts.n_block_columns, layouts.n_tree_columns = n_block_columns, n_tree_columns
    return layouts


def row_layouts(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                const int32_t[::1] keyroots, const int64_t[::1] kr_offsets, bint blocks=True):
    """:class:`RowLayouts` of a forest (validated here), for :func:`expected_sums_rows`;
    ``blocks=False`` leaves out the stored blocks (what scattered pairs use)."""
    validate_forest(labels, lml, offsets, keyroots, kr_offsets, -1)
    return _build_layouts(labels, lml, offsets, keyroots, kr_offsets, blocks)


cdef RowLayouts _build_layouts(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                               const int32_t[::1] keyroots, const int64_t[::1] kr_offsets, bint blocks,
                               wanted=None, bint checkable=True):
    """:func:`row_layouts` of a forest its caller has validated (without the blocks unless
    ``blocks``: rows of all pairs meet whole blocks, scattered pairs do not), with records
    only for the trees ``wanted`` (a bool per tree; None: all) meets as the batch side.
    ``max_rows`` is the size of the largest tree that can be the row side (zsr_rows_fit).
    Without ``checkable`` the layouts keep no copy of the forest for ``covers`` (they must
    not leave the caller)."""
    cdef Py_ssize_t n_trees = offsets.shape[0] - 1, t, n, nk, total = 0, biggest = 0
    cdef bint every = wanted is None
    cdef const uint8_t[::1] want = np.zeros(1, dtype=np.uint8) if every else \
        np.ascontiguousarray(wanted, dtype=np.bool_).view(np.uint8)
    cdef int64_t a0, k0, W
    cdef int32_t nlev
    rec_off_arr = np.full(n_trees, -1, dtype=np.int64)
    cdef int64_t[::1] rec_off = rec_off_arr
    scratch_arr = np.empty(4 * max(1, _max_size(offsets)), dtype=np.int32)
    cdef int32_t[::1] scratch = scratch_arr
    for t in range(n_trees):
        a0, k0 = offsets[t], kr_offsets[t]
        n, nk = offsets[t + 1] - a0, kr_offsets[t + 1] - k0
        if n < 1 or n > ZSR_MAX_NODES:
            continue
        if n > biggest:
            biggest = n
        if not every and not want[t]:
            continue
        W = zsr_width(&lml[a0], &keyroots[k0], nk)
        if W > ZSR_CAP:
            continue
        nlev = zsr_levels(&lml[a0], &keyroots[k0], nk, &scratch[0], &scratch[n], &scratch[2 * n])
        rec_off[t] = total
        total += zsr_record_ints(W, nlev)
    records_arr = np.zeros(max(1, total), dtype=np.int32)
    cdef int32_t[::1] records = records_arr
    for t in range(n_trees):
        if rec_off[t] >= 0:
            a0, k0 = offsets[t], kr_offsets[t]
            zsr_build_tree(&labels[a0], &lml[a0], &keyroots[k0], offsets[t + 1] - a0, kr_offsets[t + 1] - k0,
                           &records[rec_off[t]], &scratch[0])
    cdef RowLayouts layouts = RowLayouts()
    layouts.records, layouts.rec_offsets = records_arr, rec_off_arr
    layouts.blocks, layouts.blk_offsets = None, None
    layouts.n_blocks = 0
    if blocks and n_trees:
        layouts.blocks, layouts.blk_offsets = _build_blocks(records_arr, rec_off_arr)
        layouts.n_blocks = int(np.count_nonzero(layouts.blk_offsets >= 0))
        starts = layouts.blk_offsets[layouts.blk_offsets >= 0]
        layouts.n_block_columns = int(layouts.blocks[starts].sum())
        inside = rec_off_arr >= 0
        layouts.n_tree_columns = int(records_arr[rec_off_arr[inside]].sum())
    layouts.arrays = () if not checkable else (
        np.array(labels, copy=True), np.array(lml, copy=True), np.array(offsets, copy=True),
        np.array(keyroots, copy=True), np.array(kr_offsets, copy=True))
    layouts.max_rows, layouts.n_trees = biggest, n_trees
    return layouts


cdef tuple _build_blocks(const int32_t[::1] records, const int64_t[::1] rec_off):
    """The stored blocks of zsr_build_blocks and each tree's block offset (-1: no block starts there)."""
    cdef int64_t n_trees = rec_off.shape[0], total
    blk_off_arr = np.full(n_trees, -1, dtype=np.int64)
    cdef int64_t[::1] blk_off = blk_off_arr
    cdef zsr_batch* B = <zsr_batch*>calloc(1, sizeof(zsr_batch))
    cdef const int32_t** recs = <const int32_t**>malloc(ZSR_CAP * sizeof(int32_t*))
    cdef int32_t[::1] mem
    try:
        if B == NULL or recs == NULL:
            raise MemoryError()
        total = zsr_build_blocks(&records[0], &rec_off[0], n_trees, B, recs, NULL, &blk_off[0])
        mem_arr = np.zeros(max(1, total), dtype=np.int32)
        mem = mem_arr
        zsr_build_blocks(&records[0], &rec_off[0], n_trees, B, recs, &mem[0], &blk_off[0])
    finally:
        free(B)
        free(recs)
    return mem_arr, blk_off_arr


cdef zsr_forest _zsr_forest(RowLayouts layouts, const int32_t[::1] labels, const int32_t[::1] lml,
                            const int64_t[::1] offsets, const int32_t[::1] keyroots,
                            const int64_t[::1] kr_offsets):
    cdef zsr_forest f
    cdef const int32_t[::1] rec = layouts.records
    cdef const int64_t[::1] rec_off = layouts.rec_offsets
    f.lab, f.lml, f.kr, f.off, f.kro = &labels[0], &lml[0], &keyroots[0], &offsets[0], &kr_offsets[0]
    f.rec, f.rec_off = &rec[0], &rec_off[0]
    f.blk, f.blk_off = NULL, NULL
    cdef const int32_t[::1] blk
    cdef const int64_t[::1] blk_off
    if layouts.blocks is not None:
        blk, blk_off = layouts.blocks, layouts.blk_offsets
        f.blk, f.blk_off = &blk[0], &blk_off[0]
    return f


@cython.auto_pickle(False)
cdef class _RowWork:
    """Per-thread buffers of the combined-row kernel (C memory, freed with the object)."""
    cdef zsr_work** works
    cdef int n
    cdef Py_ssize_t max_rows

    def __cinit__(self, int n_threads, Py_ssize_t max_rows):
        cdef int t
        self.n = n_threads
        self.max_rows = max_rows
        if n_threads < 1:
            return
        self.works = <zsr_work**>malloc(n_threads * sizeof(zsr_work*))
        if self.works == NULL:
            raise MemoryError()
        for t in range(n_threads):
            self.works[t] = NULL
        for t in range(n_threads):
            self.works[t] = <zsr_work*>calloc(1, sizeof(zsr_work))
            if self.works[t] == NULL:
                raise MemoryError()
            self.works[t].td = <int32_t*>malloc(max(1, max_rows) * ZSR_STRIDE * sizeof(int32_t))
            self.works[t].fd = <int32_t*>malloc((max(1, max_rows) * ZSR_STRIDE + ZSR_PAD) * sizeof(int32_t))
            if self.works[t].td == NULL or self.works[t].fd == NULL:
                raise MemoryError()

    def __dealloc__(self):
        cdef int t
        if self.works != NULL:
            for t in range(self.n):
                if self.works[t] != NULL:
                    free(self.works[t].td)
                    free(self.works[t].fd)
                    free(self.works[t])
            free(self.works)


def row_work_bytes(Py_ssize_t rows):
    """Bytes of one thread's combined-row kernel buffers when its largest row side has
    ``rows`` nodes (none beyond ZSR_MAX_NODES: bigger trees go to the classic kernel)."""
    rows = min(max(rows, 1), ZSR_MAX_NODES)
    return <Py_ssize_t>sizeof(zsr_work) + (2 * rows * ZSR_STRIDE + ZSR_PAD) * <Py_ssize_t>sizeof(int32_t)


#: One single-thread _RowWork kept between calls of the pair kernel (its buffers are large
#: and calls are many): taken and given back under the GIL, so never shared by two calls.
_spare_work = []


cdef _RowWork _take_work(Py_ssize_t max_rows):
    if _spare_work and (<_RowWork>_spare_work[0]).max_rows >= max_rows:
        return _spare_work.pop()
    return _RowWork(1, max(max_rows, 64))


cdef void _give_back_work(_RowWork work):
    if not _spare_work or (<_RowWork>_spare_work[0]).max_rows < work.max_rows:
        _spare_work[:] = [work]


cdef RowLayouts _checked_layouts(layouts, labels, lml, offsets, keyroots, kr_offsets):
    """``layouts`` if it was built from this (validated) forest, new ones if ``None``; else
    ValueError."""
    if layouts is None:
        return _build_layouts(labels, lml, offsets, keyroots, kr_offsets, True)
    if not isinstance(layouts, RowLayouts) or not layouts.covers(labels, lml, offsets, keyroots, kr_offsets):
        raise ValueError("the row layouts were not built from this forest")
    return layouts


def _pairs_by_rows(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                   const int32_t[::1] keyroots, const int64_t[::1] kr_offsets,
                   const int64_t[::1] left, const int64_t[::1] right):
    """Unit-cost distances of validated pairs with the combined-row kernel: int32, -1 where
    the classic kernel must compute the pair (a tree too big for the layouts).

    Batches are as wide as the pairs allow: each pair goes to the batch of whichever of its
    trees is in more pairs (the distance is symmetric), and each batch is computed in the
    orientation (as given, or all its trees mirrored) of fewer DP cells for the batch as a
    whole, which keeps nearly all of the per-pair choice's saving without halving batches."""
    cdef Py_ssize_t n_pairs = left.shape[0], n_trees = offsets.shape[0] - 1, k, t, a, b
    out_arr = np.full(n_pairs, -1, dtype=np.int32)
    if n_pairs == 0 or not _rows_on:
        return out_arr
    m_labels, m_lml, m_keyroots, m_kr_offsets, cost_left_arr, cost_right_arr = _mirror_forest(
        labels, lml, offsets, keyroots, kr_offsets)
    cdef const int64_t[::1] cost_left = cost_left_arr
    cdef const int64_t[::1] cost_right = cost_right_arr
    degree_arr = np.zeros(n_trees, dtype=np.int64)
    sum_left_arr = np.zeros(n_trees, dtype=np.float64)
    sum_right_arr = np.zeros(n_trees, dtype=np.float64)
    rows_arr = np.empty(n_pairs, dtype=np.int64)
    cols_arr = np.empty(n_pairs, dtype=np.int64)
    start_arr = np.zeros(2 * n_trees + 1, dtype=np.int64)  # counting sort by (side, row)
    order_arr = np.empty(n_pairs, dtype=np.int64)
    wanted_arr = np.zeros((2, n_trees), dtype=np.bool_)
    cdef int64_t[::1] degree = degree_arr, rows = rows_arr, cols = cols_arr, start = start_arr, order = order_arr
    cdef double[::1] sum_left = sum_left_arr, sum_right = sum_right_arr
    side_arr = np.zeros(n_trees, dtype=np.uint8)  # 1: the batch of this row tree is mirrored
    cdef uint8_t[:, ::1] wanted = wanted_arr.view(np.uint8)
    cdef uint8_t[::1] side_of = side_arr
    cdef int32_t[::1] out = out_arr
    cdef int64_t side_begin[3]
    with nogil:
        for k in range(n_pairs):
            degree[left[k]] += 1
            degree[right[k]] += 1
        for k in range(n_pairs):
            a, b = left[k], right[k]
            if degree[b] > degree[a]:
                a, b = b, a
            rows[k], cols[k] = a, b
            sum_left[a] += cost_left[b]
            sum_right[a] += cost_right[b]
        for a in range(n_trees):
            side_of[a] = cost_right[a] * sum_right[a] < cost_left[a] * sum_left[a]
        for k in range(n_pairs):
            a = rows[k]
            start[a + n_trees * side_of[a] + 1] += 1
            wanted[side_of[a], cols[k]] = 1
        for t in range(2 * n_trees):
            start[t + 1] += start[t]
        side_begin[0], side_begin[1], side_begin[2] = 0, start[n_trees], n_pairs
        for k in range(n_pairs):
            t = rows[k] + n_trees * side_of[rows[k]]
            order[start[t]] = k
            start[t] += 1
    cdef _RowWork work = None
    cdef zsr_work* w = NULL
    cdef int variant = zsr_variant()
    cdef zsr_forest f
    cdef RowLayouts layouts
    cdef int side
    for side in range(2):
        if side_begin[side] == side_begin[side + 1]:
            continue
        if side:
            layouts = _build_layouts(m_labels, m_lml, offsets, m_keyroots, m_kr_offsets, False, wanted_arr[1], False)
            f = _zsr_forest(layouts, m_labels, m_lml, offsets, m_keyroots, m_kr_offsets)
        else:
            layouts = _build_layouts(labels, lml, offsets, keyroots, kr_offsets, False, wanted_arr[0], False)
            f = _zsr_forest(layouts, labels, lml, offsets, keyroots, kr_offsets)
        if work is None:
            work = _take_work(layouts.max_rows)
            w = work.works[0]
        with nogil:
            zsr_pairs(variant, &f, &rows[0], &cols[0], &order[side_begin[side]],
                      side_begin[side + 1] - side_begin[side], w, &out[0])
    if work is not None:
        _give_back_work(work)
    return out_arr
