# Included by _core.pyx (one extension module): the disagreement sums of α (serial and parallel).
# ------------------------------------------------------------ parallel all-pairs sums (α)



def expected_sums_rows(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                       const int32_t[::1] keyroots, const int64_t[::1] kr_offsets,
                       const int64_t[::1] sizes, const double[::1] counts,
                       Py_ssize_t row_start, Py_ssize_t row_end, int n_threads=1, cost=None, mirror=None,
                       layouts=None, bint per_row=False, progress=None):
    """Σ over rows ``row_start <= i < row_end`` and all ``j > i`` of ``2 c_i c_j δ²(i, j)`` for
    each δ of ``KERNEL_DELTAS`` (in that order): the expected-disagreement sum of α over *distinct* trees with
    multiplicities ``counts`` (identical trees are at distance 0 and add nothing). The rows are
    split over ``n_threads`` OpenMP threads with one DP buffer each; no allocation per pair;
    each row's sums are kept apart and added in row order, so the result does not depend on
    the number of threads or their timing. ``per_row`` returns them unadded (one line per
    row): a caller adding all rows at once gets the same sums however it chunked them.
    The first thread (the calling one) polls for signals after each of its groups of rows
    (:func:`row_group` rows, which the row kernel runs together): Ctrl-C stops the sums within
    about a group's time (``KeyboardInterrupt`` raised once the running rows are
    done), and ``progress``, if given, is called there with the number of pairs finished
    since its last call (all calls together add up to the pairs of the rows). One call over
    all rows therefore needs no chunks: the threads meet once, at the end.

    ``mirror`` = ``(labels, lml, keyroots, kr_offsets, left_cost, right_cost)`` of the same
    forest with every node's children reversed, and each tree's Zhang–Shasha cost (Σ of its
    keyroot subtree sizes) in both orientations: with unit costs each pair is then computed
    in the orientation with fewer DP cells (mirroring both trees keeps their distance).

    With unit costs the pairs go to the combined-row kernel (rows.pxi, zs_rows.h) in batches,
    one tree against many; ``layouts`` = ``(row_layouts(forest), row_layouts(mirrored forest)
    or None)`` saves building them on every call (checked against the arrays).
    """
    cost_arr = _check_costs(cost)
    validate_forest(labels, lml, offsets, keyroots, kr_offsets,
                    -1 if cost_arr is None else cost_arr.shape[0])
    cdef Py_ssize_t n_trees = offsets.shape[0] - 1, nl = 0, m = _max_size(offsets)
    cdef const int32_t[::1] m_labels = labels
    cdef const int32_t[::1] m_lml = lml
    cdef const int32_t[::1] m_keyroots = keyroots
    cdef const int64_t[::1] m_kr_offsets = kr_offsets
    cdef const int64_t[::1] cost_left = sizes
    cdef const int64_t[::1] cost_right = sizes
    cdef bint use_mirror = mirror is not None and cost is None
    if use_mirror:
        m_labels, m_lml, m_keyroots, m_kr_offsets, cost_left, cost_right = mirror
        validate_forest(m_labels, m_lml, offsets, m_keyroots, m_kr_offsets, -1)
        if cost_left.shape[0] != n_trees or cost_right.shape[0] != n_trees:
            raise ValueError("mirror costs must have one entry per tree")
    if sizes.shape[0] != n_trees or counts.shape[0] != n_trees:
        raise ValueError("sizes and counts must have one entry per tree")
    if row_start < 0 or row_end > n_trees or row_start > row_end:
        raise ValueError("rows out of range")
    if n_threads < 1:
        raise ValueError("n_threads must be at least 1")
    td_arr = np.empty((n_threads, max(m * m, 1)), dtype=np.float64)
    fd_arr = np.empty((n_threads, (m + 1) * (m + 1)), dtype=np.float64)
    tdi_arr = np.empty((n_threads, max(m * m, 1)), dtype=np.intc)
    fdi_arr = np.empty((n_threads, (m + 1) * (m + 1)), dtype=np.intc)
    # one accumulator per row, added up in row order at the end: the sums do not depend on
    # which thread took which row (with one per thread, δnorm's last bit did)
    # (16 doubles a row: no cache line holds two rows' sums, so threads never write into a line
    # another thread writes)
    acc_arr = np.zeros((row_end - row_start, 16), dtype=np.float64)
    cdef double[:, ::1] td = td_arr
    cdef double[:, ::1] fd = fd_arr
    cdef int[:, ::1] tdi = tdi_arr
    cdef int[:, ::1] fdi = fdi_arr
    cdef double[:, ::1] acc = acc_arr
    cdef const double* cptr = _cost_ptr(cost_arr, &nl)
    cdef int tid
    cdef int64_t pairs = _pairs_in_rows(n_trees, row_start, row_end)
    if labels.shape[0] == 0 or row_start == row_end:
        if progress is not None and pairs > 0:
            progress(pairs)
        return acc_arr[:, :N_KERNEL_DELTAS] if per_row else acc_arr[:, :N_KERNEL_DELTAS].sum(axis=0)
    # pairs finished per thread (8 apart: one cache line each), summed by the polling thread;
    # stop[0] set: a signal handler raised (or progress did), the other rows are skipped
    done_arr = np.zeros(8 * n_threads, dtype=np.int64)
    cdef int64_t[::1] done = done_arr
    stop_arr = np.zeros(1, dtype=np.int32)
    cdef int32_t[::1] stop = stop_arr
    reported_arr = np.zeros(1, dtype=np.int64)
    cdef int64_t[::1] reported = reported_arr
    cdef list raised = []
    # the combined-row kernel (unit costs): distances of a row into dist[tid], -1 = classic
    cdef bint rows = cptr == NULL and _rows_on
    # lay0 and lay1 own the records f0 and f1 point into: both stay referenced to the end
    cdef RowLayouts lay0 = None, lay1 = None
    cdef zsr_forest f0, f1
    cdef zsr_forest* f1p = NULL
    cdef int variant = zsr_variant()
    cdef Py_ssize_t max_rows = 0
    if rows:
        layouts = (None, None) if layouts is None else layouts
        lay0 = _checked_layouts(layouts[0], labels, lml, offsets, keyroots, kr_offsets)
        f0 = _zsr_forest(lay0, labels, lml, offsets, keyroots, kr_offsets)
        max_rows = lay0.max_rows
        if use_mirror:
            lay1 = _checked_layouts(layouts[1], m_labels, m_lml, offsets, m_keyroots, m_kr_offsets)
            f1 = _zsr_forest(lay1, m_labels, m_lml, offsets, m_keyroots, m_kr_offsets)
            max_rows = max(max_rows, lay1.max_rows)
            f1p = &f1
    work = _RowWork(n_threads if rows else 0, max_rows)
    cdef zsr_work** works = (<_RowWork>work).works
    # rows go to the threads in groups of consecutive rows (zsr_group: one pass over the stored
    # blocks for the group; row_group: fewer rows per group in a very big forest), the distances
    # of a group's rows in dist[tid, k]
    cdef int group = _row_group(n_trees), size, gk
    cdef Py_ssize_t n_groups = (row_end - row_start + group - 1) // group, g, i0
    dist_arr = np.full((n_threads, ZSR_GROUP, n_trees), -1, dtype=np.int32)
    cdef int32_t[:, :, ::1] dist = dist_arr
    with nogil:
        for g in prange(n_groups, num_threads=n_threads, schedule="dynamic"):
            if stop[0]:
                continue
            tid = threadid()
            i0 = row_start + g * group
            size = <int>(row_end - i0 if row_end - i0 < group else group)
            if rows:
                zsr_group(variant, &f0, f1p, &cost_left[0], &cost_right[0], i0, size, n_trees, works[tid],
                          &dist[tid, 0, 0])
            for gk in range(size):
                _row_sums(i0 + gk, n_trees, rows, use_mirror, &dist[tid, gk, 0], &labels[0], &lml[0], &offsets[0],
                          &keyroots[0], &kr_offsets[0], &m_labels[0], &m_lml[0], &m_keyroots[0], &m_kr_offsets[0],
                          &cost_left[0], &cost_right[0], &sizes[0], &counts[0], cptr, nl, &td[tid, 0], &fd[tid, 0],
                          &tdi[tid, 0], &fdi[tid, 0], &acc[i0 + gk - row_start, 0])
                done[8 * tid] += n_trees - 1 - (i0 + gk)
            if tid == 0:
                with gil:
                    reported[0] = _poll(progress, done_arr, reported[0], raised)
                    if raised:
                        stop[0] = 1
    if raised:
        raise raised[0]
    if progress is not None and pairs > reported[0]:
        progress(pairs - reported[0])
    return acc_arr[:, :N_KERNEL_DELTAS] if per_row else acc_arr[:, :N_KERNEL_DELTAS].sum(axis=0)


cdef void _row_sums(Py_ssize_t i, Py_ssize_t n_trees, bint rows, bint use_mirror, const int32_t* dist,
                    const int32_t* labels, const int32_t* lml, const int64_t* offsets, const int32_t* keyroots,
                    const int64_t* kr_offsets, const int32_t* m_labels, const int32_t* m_lml,
                    const int32_t* m_keyroots, const int64_t* m_kr_offsets, const int64_t* cost_left,
                    const int64_t* cost_right, const int64_t* sizes, const double* counts, const double* cptr,
                    Py_ssize_t nl, double* td, double* fd, int* tdi, int* fdi, double* acc) noexcept nogil:
    """Row i's share of expected_sums_rows: Σ over j > i of 2 c_i c_j δ²(i, j) for every δ into
    acc, the distance from dist[j] where the row kernel gave one (>= 0), else computed here by
    the classic kernel (mirrored where that is cheaper, with the costs cptr where given)."""
    cdef Py_ssize_t j
    cdef double d, dk, w
    cdef int k
    for j in range(i + 1, n_trees):
        if rows and dist[j] >= 0:
            d = <double>dist[j]
        elif use_mirror and cost_right[i] * cost_right[j] < cost_left[i] * cost_left[j]:
            d = <double>_forest_pair_unit(m_labels, m_lml, offsets, m_keyroots, m_kr_offsets, i, j, tdi, fdi)
        elif cptr == NULL:
            d = <double>_forest_pair_unit(labels, lml, offsets, keyroots, kr_offsets, i, j, tdi, fdi)
        else:
            d = _forest_pair(labels, lml, offsets, keyroots, kr_offsets, i, j, cptr, nl, td, fd)
        w = 2.0 * counts[i] * counts[j]
        for k in range(N_KERNEL_DELTAS):
            dk = _delta(k, d, <double>sizes[i], <double>sizes[j])
            acc[k] += w * dk * dk


cdef int64_t _pairs_in_rows(Py_ssize_t n, Py_ssize_t start, Py_ssize_t end):
    """Pairs (i, j > i) of n trees in the rows start <= i < end."""
    cdef int64_t rows = end - start
    return rows * (n - 1) - (start + end - 1) * rows // 2


cdef int64_t _poll(object progress, object done, int64_t reported, list raised) noexcept:
    """expected_sums_rows' first thread between rows (GIL held): Python's signal handlers
    run (Ctrl-C), then progress gets the pairs finished since its last call. An exception of
    either goes to raised (re-raised after the loop); returns the pairs reported so far."""
    cdef int64_t now
    try:
        PyErr_CheckSignals()
        if progress is not None:
            now = int(done.sum())
            if now > reported:
                progress(now - reported)
                reported = now
    except BaseException as exc:  # noqa: B036 -- re-raised by the caller after the loop
        raised.append(exc)
    return reported


def forest_alpha_sums(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                      const int32_t[::1] keyroots, const int64_t[::1] kr_offsets,
                      const int64_t[::1] item, const int64_t[::1] item_count,
                      const int64_t[::1] sizes, cost=None):
    """Disagreement sums of Krippendorff's α for every δ of ``KERNEL_DELTAS`` in one pass.

    ``item[t]`` is the item of tree ``t`` and ``item_count[u]`` the number of (pairable)
    annotations of item ``u`` (at least 2 for every item that has trees). Every unordered
    pair of trees is compared once. Returns ``(observed, expected, per_item)`` where, for
    the three distances in the order plain, diff, norm,

    * ``expected[d]`` = Σ over ordered pairs of distinct trees of δ²,
    * ``observed[d]`` = Σ_u 1/(m_u − 1) Σ over ordered pairs within item u of δ²,
    * ``per_item[u, d]`` = item u's share of ``observed[d]``.

    The δ are those of ``_delta`` (deltas.pxi), with ``sizes[t]`` the size |x| of each
    annotation.
    """
    cost_arr = _check_costs(cost)
    validate_forest(labels, lml, offsets, keyroots, kr_offsets,
                    -1 if cost_arr is None else cost_arr.shape[0])
    cdef Py_ssize_t n_trees = offsets.shape[0] - 1, n_items = item_count.shape[0]
    cdef Py_ssize_t i, j, u, na, nb, nl = 0
    if item.shape[0] != n_trees or sizes.shape[0] != n_trees:
        raise ValueError("item and sizes must give the item and size of every tree")
    for i in range(n_trees):
        if item[i] < 0 or item[i] >= n_items or item_count[item[i]] < 2:
            raise ValueError(f"tree {i}: item id out of range or item with fewer than two annotations")
    cdef Py_ssize_t m = _max_size(offsets)
    cdef double[::1] td = np.empty(max(m * m, 1), dtype=np.float64)
    cdef double[::1] fd = np.empty((m + 1) * (m + 1), dtype=np.float64)
    observed_arr = np.zeros(N_KERNEL_DELTAS, dtype=np.float64)
    expected_arr = np.zeros(N_KERNEL_DELTAS, dtype=np.float64)
    per_item_arr = np.zeros((n_items, N_KERNEL_DELTAS), dtype=np.float64)
    cdef double[::1] observed = observed_arr
    cdef double[::1] expected = expected_arr
    cdef double[:, ::1] per_item = per_item_arr
    cdef const double* cptr = _cost_ptr(cost_arr, &nl)
    cdef double d, dk
    cdef int k
    if labels.shape[0] == 0:
        return observed_arr, expected_arr, per_item_arr
    with nogil:
        for i in range(n_trees):
            na = sizes[i]
            for j in range(i + 1, n_trees):
                nb = sizes[j]
                d = _forest_pair(&labels[0], &lml[0], &offsets[0], &keyroots[0], &kr_offsets[0],
                                 i, j, cptr, nl, &td[0], &fd[0])
                for k in range(N_KERNEL_DELTAS):
                    dk = _delta(k, d, <double>na, <double>nb)
                    dk = dk * dk
                    expected[k] += 2.0 * dk
                    if item[i] == item[j]:
                        u = item[i]
                        per_item[u, k] += 2.0 / <double>(item_count[u] - 1) * dk
        for u in range(n_items):
            for k in range(N_KERNEL_DELTAS):
                observed[k] += per_item[u, k]
    return observed_arr, expected_arr, per_item_arr
