# Included by _core.pyx (one extension module): pqgram.
# --------------------------------------------------------------------- pq-gram distance

cdef inline double _pq_distance(const int64_t* a, Py_ssize_t na, const int64_t* b, Py_ssize_t nb) noexcept nogil:
    """1 − 2|A ∩ B| / (|A| + |B|) for two sorted bags of pq-gram ids."""
    cdef Py_ssize_t i = 0, j = 0, common = 0
    if na + nb == 0:
        return 0.0
    while i < na and j < nb:
        if a[i] == b[j]:
            common += 1
            i += 1
            j += 1
        elif a[i] < b[j]:
            i += 1
        else:
            j += 1
    return 1.0 - 2.0 * common / <double>(na + nb)


def pqgram_pairs(const int64_t[::1] grams, const int64_t[::1] offsets, const int64_t[::1] left,
                 const int64_t[::1] right):
    """pq-gram distances of the profile pairs ``(left[k], right[k])`` (sorted id bags)."""
    cdef Py_ssize_t n = offsets.shape[0] - 1, k, n_pairs = left.shape[0]
    _check_bags(grams, offsets)
    if right.shape[0] != n_pairs:
        raise ValueError("left and right must have the same length")
    for k in range(n_pairs):
        if left[k] < 0 or left[k] >= n or right[k] < 0 or right[k] >= n:
            raise ValueError(f"pair {k} names a profile that does not exist")
    out_arr = np.zeros(n_pairs, dtype=np.float64)
    cdef double[::1] out = out_arr
    cdef int64_t dummy = 0
    cdef const int64_t* base = &grams[0] if grams.shape[0] else &dummy
    with nogil:
        for k in range(n_pairs):
            out[k] = _pq_distance(base + offsets[left[k]], offsets[left[k] + 1] - offsets[left[k]],
                                  base + offsets[right[k]], offsets[right[k] + 1] - offsets[right[k]])
    return out_arr


cdef _check_bags(const int64_t[::1] grams, const int64_t[::1] offsets):
    cdef Py_ssize_t n = offsets.shape[0] - 1, s, k
    if offsets.shape[0] < 1 or offsets[0] != 0 or offsets[n] != grams.shape[0]:
        raise ValueError("offsets must run from 0 to the number of pq-grams")
    for s in range(n):  # all offsets first: with both ends checked, every one is in range
        if offsets[s + 1] < offsets[s]:
            raise ValueError(f"profile {s}: offsets are not increasing")
    for s in range(n):
        for k in range(offsets[s] + 1, offsets[s + 1]):
            if grams[k] < grams[k - 1]:
                raise ValueError(f"profile {s} is not sorted")


def pqgram_expected_rows(const int64_t[::1] grams, const int64_t[::1] offsets, const double[::1] counts,
                         Py_ssize_t row_start, Py_ssize_t row_end, int n_threads=1):
    """Σ over rows i and j > i of 2 c_i c_j δpq(i, j)², threaded like :func:`expected_sums_rows`."""
    cdef Py_ssize_t n = offsets.shape[0] - 1, i, j
    _check_bags(grams, offsets)
    if counts.shape[0] != n or row_start < 0 or row_end > n or row_start > row_end or n_threads < 1:
        raise ValueError("counts, rows or threads out of range")
    acc_arr = np.zeros(max(n_threads, 1), dtype=np.float64)
    cdef double[::1] acc = acc_arr
    cdef double d
    cdef int64_t dummy = 0
    cdef const int64_t* base = &grams[0] if grams.shape[0] else &dummy
    with nogil:
        for i in prange(row_start, row_end, num_threads=n_threads, schedule="dynamic"):
            for j in range(i + 1, n):
                d = _pq_distance(base + offsets[i], offsets[i + 1] - offsets[i],
                                 base + offsets[j], offsets[j + 1] - offsets[j])
                acc[threadid()] += 2.0 * counts[i] * counts[j] * d * d
    return float(acc_arr.sum())
