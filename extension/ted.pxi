# Included by _core.pyx (one extension module): tree edit distance of one pair and of many pairs.
# -------------------------------------------------------------------------- kernels

def tree_edit_distance(const int32_t[::1] labels1, const int32_t[::1] lml1, const int32_t[::1] keyroots1,
                       const int32_t[::1] labels2, const int32_t[::1] lml2, const int32_t[::1] keyroots2,
                       cost=None):
    """Zhang–Shasha edit distance between two postorder trees (see module docstring); with
    unit costs the combined-row kernel (rows.pxi) where both trees fit it."""
    cost_arr = _check_costs(cost)
    cdef Py_ssize_t n_labels = -1 if cost_arr is None else cost_arr.shape[0]
    cdef Py_ssize_t n1 = labels1.shape[0], n2 = labels2.shape[0], nl = 0, nk1 = keyroots1.shape[0]
    cdef Py_ssize_t nk2 = keyroots2.shape[0]
    cdef const int32_t* e = NULL
    if lml1.shape[0] != n1 or lml2.shape[0] != n2:
        raise ValueError("labels, lml and offsets disagree on the number of nodes")
    _validate_tree(&labels1[0] if n1 else e, &lml1[0] if n1 else e, n1, &keyroots1[0] if nk1 else e, nk1,
                   n_labels, 0)
    _validate_tree(&labels2[0] if n2 else e, &lml2[0] if n2 else e, n2, &keyroots2[0] if nk2 else e, nk2,
                   n_labels, 0)
    cdef int32_t fast = -1
    cdef _RowWork work
    if cost_arr is None and _rows_on and 1 <= n1 <= ZSR_MAX_NODES and 1 <= n2 <= ZSR_MAX_NODES:
        work = _take_work(n1)
        fast = zsr_one(zsr_variant(), &labels1[0], &lml1[0], &keyroots1[0], n1, nk1,
                       &labels2[0], &lml2[0], &keyroots2[0], n2, nk2, work.works[0])
        _give_back_work(work)
        if fast >= 0:
            return <double>fast
    cdef double[::1] td = np.empty(max(n1 * n2, 1), dtype=np.float64)
    cdef double[::1] fd = np.empty((n1 + 1) * (n2 + 1), dtype=np.float64)
    cdef const double* cptr = _cost_ptr(cost_arr, &nl)
    cdef double result
    with nogil:
        result = _zhang_shasha(
            &labels1[0] if n1 else e, &lml1[0] if n1 else e, &keyroots1[0] if n1 else e, n1, nk1,
            &labels2[0] if n2 else e, &lml2[0] if n2 else e, &keyroots2[0] if n2 else e, n2, nk2,
            cptr, nl, &td[0], &fd[0])
    return result


cdef inline Py_ssize_t _max_size(const int64_t[::1] offsets) noexcept:
    cdef Py_ssize_t t, m = 0
    for t in range(offsets.shape[0] - 1):
        if offsets[t + 1] - offsets[t] > m:
            m = offsets[t + 1] - offsets[t]
    return m


def forest_ted_pairs(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                     const int32_t[::1] keyroots, const int64_t[::1] kr_offsets,
                     const int64_t[::1] left, const int64_t[::1] right, cost=None):
    """Edit distances of the tree pairs ``(left[k], right[k])`` of one forest, as float64."""
    cost_arr = _check_costs(cost)
    validate_forest(labels, lml, offsets, keyroots, kr_offsets,
                    -1 if cost_arr is None else cost_arr.shape[0])
    cdef Py_ssize_t n_trees = offsets.shape[0] - 1, k, n_pairs = left.shape[0], nl = 0
    if right.shape[0] != n_pairs:
        raise ValueError("left and right must have the same length")
    for k in range(n_pairs):
        if left[k] < 0 or left[k] >= n_trees or right[k] < 0 or right[k] >= n_trees:
            raise ValueError(f"pair {k} names a tree outside the forest")
    cdef Py_ssize_t m = _max_size(offsets)
    cdef double[::1] td = np.empty(max(m * m, 1), dtype=np.float64)
    cdef double[::1] fd = np.empty((m + 1) * (m + 1), dtype=np.float64)
    out_arr = np.zeros(n_pairs, dtype=np.float64)
    cdef double[::1] out = out_arr
    cdef int[::1] tdi = np.empty(max(m * m, 1), dtype=np.intc)
    cdef int[::1] fdi = np.empty((m + 1) * (m + 1), dtype=np.intc)
    cdef const double* cptr = _cost_ptr(cost_arr, &nl)
    if labels.shape[0] == 0:
        return out_arr
    # unit costs: the combined-row kernel, pairs batched by left tree; -1 left to the classic one
    cdef int32_t[::1] rows = _pairs_by_rows(labels, lml, offsets, keyroots, kr_offsets, left, right) \
        if cptr == NULL else np.full(n_pairs, -1, dtype=np.int32)
    with nogil:
        for k in range(n_pairs):
            if rows[k] >= 0:
                out[k] = <double>rows[k]
            elif cptr == NULL:
                out[k] = <double>_forest_pair_unit(&labels[0], &lml[0], &offsets[0], &keyroots[0], &kr_offsets[0],
                                                   left[k], right[k], &tdi[0], &fdi[0])
            else:
                out[k] = _forest_pair(&labels[0], &lml[0], &offsets[0], &keyroots[0], &kr_offsets[0],
                                      left[k], right[k], cptr, nl, &td[0], &fd[0])
    return out_arr
