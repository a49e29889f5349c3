# Included by _core.pyx (one extension module): the Zhang–Shasha kernels.
# --------------------------------------------------------------------------- kernel

cdef double _zhang_shasha(
    const int32_t* lab1, const int32_t* lml1, const int32_t* kr1, Py_ssize_t n1, Py_ssize_t nk1,
    const int32_t* lab2, const int32_t* lml2, const int32_t* kr2, Py_ssize_t n2, Py_ssize_t nk2,
    const double* cost, Py_ssize_t n_labels,
    double* td, double* fd,
) noexcept nogil:
    """Tree edit distance between two validated postorder trees.

    Insert and delete cost 1; relabelling costs ``cost[a * n_labels + b]`` when ``cost``
    is not NULL, else 0 for equal labels and 1 otherwise. ``td`` holds ``n1 * n2`` and
    ``fd`` ``(n1 + 1) * (n2 + 1)`` doubles, owned by the caller and reused across pairs.
    """
    cdef Py_ssize_t a, b, i, j, li, lj, x, y, di, dj, p, q, w, mi, mj
    cdef double sub, best
    if n1 == 0:
        return <double>n2
    if n2 == 0:
        return <double>n1
    w = n2 + 1
    for a in range(nk1):
        i = kr1[a]
        li = lml1[i]
        mi = i - li + 1
        for b in range(nk2):
            j = kr2[b]
            lj = lml2[j]
            mj = j - lj + 1
            fd[0] = 0.0
            for di in range(1, mi + 1):
                fd[di * w] = fd[(di - 1) * w] + 1.0
            for dj in range(1, mj + 1):
                fd[dj] = fd[dj - 1] + 1.0
            for di in range(1, mi + 1):
                x = li + di - 1
                for dj in range(1, mj + 1):
                    y = lj + dj - 1
                    best = fd[(di - 1) * w + dj] + 1.0
                    if fd[di * w + dj - 1] + 1.0 < best:
                        best = fd[di * w + dj - 1] + 1.0
                    if lml1[x] == li and lml2[y] == lj:
                        if cost != NULL:
                            sub = cost[lab1[x] * n_labels + lab2[y]]
                        elif lab1[x] == lab2[y]:
                            sub = 0.0
                        else:
                            sub = 1.0
                        if fd[(di - 1) * w + dj - 1] + sub < best:
                            best = fd[(di - 1) * w + dj - 1] + sub
                        fd[di * w + dj] = best
                        td[x * n2 + y] = best
                    else:
                        p = lml1[x] - li
                        q = lml2[y] - lj
                        if fd[p * w + q] + td[x * n2 + y] < best:
                            best = fd[p * w + q] + td[x * n2 + y]
                        fd[di * w + dj] = best
    return td[(n1 - 1) * n2 + (n2 - 1)]


cdef int _zhang_shasha_unit(
    const int32_t* lab1, const int32_t* lml1, const int32_t* kr1, Py_ssize_t n1, Py_ssize_t nk1,
    const int32_t* lab2, const int32_t* lml2, const int32_t* kr2, Py_ssize_t n2, Py_ssize_t nk2,
    int* td, int* fd,
) noexcept nogil:
    """:func:`_zhang_shasha` with unit costs in integer arithmetic, the tests of the inner
    loop hoisted: the hot path of α (same DP, same result)."""
    cdef Py_ssize_t a, b, i, j, li, lj, x, y, di, dj, p, w, mi, mj, row, prev
    cdef int best, cand, lab_x
    cdef bint x_on_path
    if n1 == 0:
        return <int>n2
    if n2 == 0:
        return <int>n1
    w = n2 + 1
    for a in range(nk1):
        i = kr1[a]
        li = lml1[i]
        mi = i - li + 1
        for b in range(nk2):
            j = kr2[b]
            lj = lml2[j]
            mj = j - lj + 1
            for dj in range(mj + 1):
                fd[dj] = <int>dj
            for di in range(1, mi + 1):
                x = li + di - 1
                row = di * w
                prev = row - w
                fd[row] = <int>di
                x_on_path = lml1[x] == li
                lab_x = lab1[x]
                p = (lml1[x] - li) * w
                for dj in range(1, mj + 1):
                    y = lj + dj - 1
                    best = fd[prev + dj] + 1
                    cand = fd[row + dj - 1] + 1
                    if cand < best:
                        best = cand
                    if x_on_path and lml2[y] == lj:
                        cand = fd[prev + dj - 1] + (0 if lab_x == lab2[y] else 1)
                        if cand < best:
                            best = cand
                        td[x * n2 + y] = best
                    else:
                        cand = fd[p + lml2[y] - lj] + td[x * n2 + y]
                        if cand < best:
                            best = cand
                    fd[row + dj] = best
    return td[(n1 - 1) * n2 + (n2 - 1)]


cdef inline double _forest_pair(
    const int32_t* labels, const int32_t* lml, const int64_t* offsets,
    const int32_t* keyroots, const int64_t* kr_offsets, Py_ssize_t a, Py_ssize_t b,
    const double* cost, Py_ssize_t n_labels, double* td, double* fd,
) noexcept nogil:
    """TED between trees ``a`` and ``b`` of a validated forest."""
    return _zhang_shasha(
        labels + offsets[a], lml + offsets[a], keyroots + kr_offsets[a],
        offsets[a + 1] - offsets[a], kr_offsets[a + 1] - kr_offsets[a],
        labels + offsets[b], lml + offsets[b], keyroots + kr_offsets[b],
        offsets[b + 1] - offsets[b], kr_offsets[b + 1] - kr_offsets[b],
        cost, n_labels, td, fd)


cdef inline int _forest_pair_unit(
    const int32_t* labels, const int32_t* lml, const int64_t* offsets,
    const int32_t* keyroots, const int64_t* kr_offsets, Py_ssize_t a, Py_ssize_t b,
    int* td, int* fd,
) noexcept nogil:
    return _zhang_shasha_unit(
        labels + offsets[a], lml + offsets[a], keyroots + kr_offsets[a],
        offsets[a + 1] - offsets[a], kr_offsets[a + 1] - kr_offsets[a],
        labels + offsets[b], lml + offsets[b], keyroots + kr_offsets[b],
        offsets[b + 1] - offsets[b], kr_offsets[b + 1] - kr_offsets[b],
        td, fd)
