# Included by _core.pyx (one extension module): levenshtein.
# ------------------------------------------------------- weighted Levenshtein (leaf-ancestor)

cdef double _levenshtein(const int32_t* a, Py_ssize_t na, const int32_t* b, Py_ssize_t nb,
                         const double* cost, Py_ssize_t n_labels, double* row) noexcept nogil:
    """Edit distance of two symbol strings: insert and delete cost 1, replacing a by b costs
    ``cost[a * n_labels + b]`` (0/1 by equality when ``cost`` is NULL). ``row`` holds nb + 1."""
    cdef Py_ssize_t i, j
    cdef double diagonal, above, best, sub
    for j in range(nb + 1):
        row[j] = <double>j
    for i in range(1, na + 1):
        diagonal = row[0]
        row[0] = <double>i
        for j in range(1, nb + 1):
            above = row[j]
            if cost != NULL:
                sub = cost[a[i - 1] * n_labels + b[j - 1]]
            elif a[i - 1] == b[j - 1]:
                sub = 0.0
            else:
                sub = 1.0
            best = diagonal + sub
            if above + 1.0 < best:
                best = above + 1.0
            if row[j - 1] + 1.0 < best:
                best = row[j - 1] + 1.0
            row[j] = best
            diagonal = above
    return row[nb]


def levenshtein_pairs(const int32_t[::1] symbols, const int64_t[::1] offsets,
                      const int64_t[::1] left, const int64_t[::1] right, cost=None):
    """Weighted Levenshtein distances of the string pairs ``(left[k], right[k])``; string s is
    ``symbols[offsets[s]:offsets[s + 1]]``. Validated before the GIL is released."""
    cost_arr = _check_costs(cost)
    cdef Py_ssize_t n_strings = offsets.shape[0] - 1, k, s, n_pairs = left.shape[0], longest = 0, nl = 0
    if offsets.shape[0] < 1 or offsets[0] != 0 or offsets[n_strings] != symbols.shape[0]:
        raise ValueError("offsets must run from 0 to the number of symbols")
    for s in range(n_strings):
        if offsets[s + 1] < offsets[s]:
            raise ValueError(f"string {s}: offsets are not increasing")
        if offsets[s + 1] - offsets[s] > longest:
            longest = offsets[s + 1] - offsets[s]
    if cost_arr is not None:
        for k in range(symbols.shape[0]):
            if symbols[k] < 0 or symbols[k] >= cost_arr.shape[0]:
                raise ValueError(f"symbol id {symbols[k]} outside the cost matrix")
    if right.shape[0] != n_pairs:
        raise ValueError("left and right must have the same length")
    for k in range(n_pairs):
        if left[k] < 0 or left[k] >= n_strings or right[k] < 0 or right[k] >= n_strings:
            raise ValueError(f"pair {k} names a string that does not exist")
    out_arr = np.zeros(n_pairs, dtype=np.float64)
    cdef double[::1] out = out_arr
    cdef double[::1] row = np.empty(longest + 1, dtype=np.float64)
    cdef const double* cptr = _cost_ptr(cost_arr, &nl)
    cdef const int32_t* base = &symbols[0] if symbols.shape[0] else NULL
    cdef int32_t dummy = 0
    if base == NULL:
        base = &dummy
    with nogil:
        for k in range(n_pairs):
            out[k] = _levenshtein(base + offsets[left[k]], offsets[left[k] + 1] - offsets[left[k]],
                                  base + offsets[right[k]], offsets[right[k] + 1] - offsets[right[k]],
                                  cptr, nl, &row[0])
    return out_arr
