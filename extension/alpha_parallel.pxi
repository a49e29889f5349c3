# Included by _core.pyx (one extension module): alpha parallel.
# ------------------------------------------------------------ parallel all-pairs sums (α)



def expected_sums_rows(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                       const int32_t[::1] keyroots, const int64_t[::1] kr_offsets,
                       const int64_t[::1] sizes, const double[::1] counts,
                       Py_ssize_t row_start, Py_ssize_t row_end, int n_threads=1, cost=None, mirror=None):
    """Σ over rows ``row_start <= i < row_end`` and all ``j > i`` of ``2 c_i c_j δ²(i, j)`` for
    δplain, δdiff and δnorm: the expected-disagreement sum of α over *distinct* trees with
    multiplicities ``counts`` (identical trees are at distance 0 and add nothing). The rows are
    split over ``n_threads`` OpenMP threads with one DP buffer each; no allocation per pair.
    Callers pass rows in chunks to show progress and to stay interruptible.

    ``mirror`` = ``(labels, lml, keyroots, kr_offsets, left_cost, right_cost)`` of the same
    forest with every node's children reversed, and each tree's Zhang–Shasha cost (Σ of its
    keyroot subtree sizes) in both orientations: with unit costs each pair is then computed
    in the orientation with fewer DP cells (mirroring both trees keeps their distance).
    """
    cost_arr = _check_costs(cost)
    validate_forest(labels, lml, offsets, keyroots, kr_offsets,
                    -1 if cost_arr is None else cost_arr.shape[0])
    cdef Py_ssize_t n_trees = offsets.shape[0] - 1, i, j, nl = 0, m = _max_size(offsets), t
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
    acc_arr = np.zeros((n_threads, 3), dtype=np.float64)
    cdef double[:, ::1] td = td_arr
    cdef double[:, ::1] fd = fd_arr
    cdef int[:, ::1] tdi = tdi_arr
    cdef int[:, ::1] fdi = fdi_arr
    cdef double[:, ::1] acc = acc_arr
    cdef const double* cptr = _cost_ptr(cost_arr, &nl)
    cdef double d, dd, dn, w
    cdef int tid
    if labels.shape[0] == 0 or row_start == row_end:
        return acc_arr.sum(axis=0)
    with nogil:
        for i in prange(row_start, row_end, num_threads=n_threads, schedule="dynamic"):
            tid = threadid()
            for j in range(i + 1, n_trees):
                if use_mirror and cost_right[i] * cost_right[j] < cost_left[i] * cost_left[j]:
                    d = <double>_forest_pair_unit(&m_labels[0], &m_lml[0], &offsets[0], &m_keyroots[0],
                                                  &m_kr_offsets[0], i, j, &tdi[tid, 0], &fdi[tid, 0])
                elif cptr == NULL:
                    d = <double>_forest_pair_unit(&labels[0], &lml[0], &offsets[0], &keyroots[0], &kr_offsets[0],
                                                  i, j, &tdi[tid, 0], &fdi[tid, 0])
                else:
                    d = _forest_pair(&labels[0], &lml[0], &offsets[0], &keyroots[0], &kr_offsets[0],
                                     i, j, cptr, nl, &td[tid, 0], &fd[tid, 0])
                w = 2.0 * counts[i] * counts[j]
                dd = d - fabs(<double>(sizes[i] - sizes[j]))
                if sizes[i] + sizes[j] > 0:
                    dn = d / <double>(sizes[i] + sizes[j])
                else:
                    dn = 0.0
                acc[tid, 0] += w * d * d
                acc[tid, 1] += w * dd * dd
                acc[tid, 2] += w * dn * dn
    return acc_arr.sum(axis=0)
