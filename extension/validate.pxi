# Included by _core.pyx (one extension module): input validation before any kernel runs.
# ----------------------------------------------------------------------- validation

def validate_forest(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                    const int32_t[::1] keyroots, const int64_t[::1] kr_offsets,
                    Py_ssize_t n_labels=-1):
    """Check forest arrays so the kernels can trust them; raise ``ValueError`` naming the tree.

    Checks the offsets, that every ``lml`` entry lies in ``[start of its subtree, node]`` with
    the subtree contiguous, that every keyroot is a node of its tree, and (when
    ``n_labels >= 0``) that every label id indexes a cost matrix of that size.
    """
    cdef Py_ssize_t n_trees = offsets.shape[0] - 1, t, lo, klo
    if offsets.shape[0] < 1 or kr_offsets.shape[0] != offsets.shape[0]:
        raise ValueError("offsets and kr_offsets must both have n_trees + 1 entries")
    if offsets[0] != 0 or kr_offsets[0] != 0:
        raise ValueError("offsets must start at 0")
    if offsets[n_trees] != labels.shape[0] or labels.shape[0] != lml.shape[0]:
        raise ValueError("labels, lml and offsets disagree on the number of nodes")
    if kr_offsets[n_trees] != keyroots.shape[0]:
        raise ValueError("keyroots and kr_offsets disagree on the number of keyroots")
    for t in range(n_trees):  # all offsets first: with both ends checked, every one is in range
        if offsets[t + 1] < offsets[t] or kr_offsets[t + 1] < kr_offsets[t]:
            raise ValueError(f"tree {t}: offsets are not increasing")
    for t in range(n_trees):
        lo = offsets[t]
        klo = kr_offsets[t]
        _validate_tree(&labels[lo] if offsets[t + 1] > lo else NULL, &lml[lo] if offsets[t + 1] > lo else NULL,
                       offsets[t + 1] - lo, &keyroots[klo] if kr_offsets[t + 1] > klo else NULL,
                       kr_offsets[t + 1] - klo, n_labels, t)


cdef int _validate_tree(const int32_t* labels, const int32_t* lml, Py_ssize_t n, const int32_t* keyroots,
                        Py_ssize_t nk, Py_ssize_t n_labels, Py_ssize_t t) except -1:
    """:func:`validate_forest`'s checks of tree ``t`` (n nodes, nk keyroots)."""
    cdef Py_ssize_t i, k, x, li
    if (n > 0) != (nk > 0):
        raise ValueError(f"tree {t}: a non-empty tree needs keyroots and an empty one none")
    for i in range(n):
        li = lml[i]
        if li < 0 or li > i:
            raise ValueError(f"tree {t}: leftmost leaf of node {i} out of range")
        # every node inside the subtree [li, i] must have its own subtree inside it
        for x in range(li, i):
            if lml[x] < li:
                raise ValueError(f"tree {t}: subtrees of nodes {x} and {i} overlap")
        if n_labels >= 0 and (labels[i] < 0 or labels[i] >= n_labels):
            raise ValueError(f"tree {t}: label id {labels[i]} of node {i} outside the cost matrix")
    if n > 0 and keyroots[nk - 1] != n - 1:
        raise ValueError(f"tree {t}: the root must be the last keyroot")
    for k in range(nk):
        if keyroots[k] < 0 or keyroots[k] >= n:
            raise ValueError(f"tree {t}: keyroot {keyroots[k]} is not a node")
        if k > 0 and keyroots[k] <= keyroots[k - 1]:
            raise ValueError(f"tree {t}: keyroots must be strictly increasing")
    return 0


cdef const double* _cost_ptr(object cost, Py_ssize_t* n_labels) except? NULL:
    cdef const double[:, ::1] c
    if cost is None:
        n_labels[0] = -1
        return NULL
    c = cost
    if c.shape[0] != c.shape[1]:
        raise ValueError("the label cost matrix must be square")
    n_labels[0] = c.shape[0]
    if c.shape[0] == 0:
        n_labels[0] = 0
        return NULL
    return &c[0, 0]


def _check_costs(cost):
    if cost is None:
        return None
    arr = np.ascontiguousarray(cost, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError("the label cost matrix must be square")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ValueError("label costs must be finite and non-negative")
    return arr
