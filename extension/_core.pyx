# cython: language_level=3
"""Cython core of spacy-agreement: Zhang–Shasha tree edit distance over forests.

Trees come as flat postorder arrays (see ``spacy_agreement.trees.OrderedTree``):

* ``labels``   int32 label id of each node,
* ``lml``      int32 index of the leftmost leaf descendant of each node (tree-local),
* ``keyroots`` int32 keyroots of the tree in increasing order (tree-local),

and a *forest* concatenates many trees with ``offsets`` (int64, ``n_trees + 1``) into
the node arrays and ``kr_offsets`` into the keyroot array.

Every ``def`` function validates its arrays in O(total nodes) before it releases the
GIL, so no input can make a kernel read or write out of bounds: bad input raises
``ValueError`` naming the tree. The kernels themselves touch no Python objects.

Zhang, K. and Shasha, D. (1989). Simple fast algorithms for the editing distance
between trees and related problems. SIAM J. Comput. 18(6):1245-1262.
"""
import numpy as np

cimport cython
from libc.math cimport fabs
from libc.stdint cimport int32_t, int64_t


# --------------------------------------------------------------------------- kernel

cdef inline double _min3(double a, double b, double c) noexcept nogil:
    if b < a:
        a = b
    if c < a:
        a = c
    return a


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


# ----------------------------------------------------------------------- validation

def derive_lml_keyroots(const int32_t[::1] parent):
    """Leftmost-leaf and keyroot arrays of one postorder tree given by its parent array.

    ``parent[i]`` is the postorder index of node ``i``'s parent and ``-1`` for the root,
    which must be the last node. Raises ``ValueError`` when the array is not a tree in
    postorder (every subtree a contiguous run of indices ending at its root).
    """
    cdef Py_ssize_t n = parent.shape[0], i
    cdef int32_t pi
    lml_arr = np.empty(n, dtype=np.int32)
    size_arr = np.ones(n, dtype=np.int64)
    cdef int32_t[::1] lml = lml_arr
    cdef int64_t[::1] size = size_arr
    if n == 0:
        return lml_arr, np.empty(0, dtype=np.int32)
    for i in range(n):
        lml[i] = <int32_t>i
    if parent[n - 1] != -1:
        raise ValueError("the last node in postorder must be the root (parent -1)")
    for i in range(n - 1):
        pi = parent[i]
        if pi <= i or pi >= n:
            raise ValueError(f"node {i} has parent {pi}: not a tree in postorder")
    for i in range(n):
        if i - lml[i] + 1 != size[i]:
            raise ValueError(f"the subtree of node {i} is not contiguous: not a tree in postorder")
        if i < n - 1:
            pi = parent[i]
            size[pi] += size[i]
            if lml[i] < lml[pi]:
                lml[pi] = lml[i]
    # keyroots: for every distinct leftmost leaf, the highest node having it
    last_arr = np.full(n, -1, dtype=np.int32)
    cdef int32_t[::1] last = last_arr
    for i in range(n):
        last[lml[i]] = <int32_t>i
    kr = np.sort(last_arr[last_arr >= 0]).astype(np.int32)
    return lml_arr, kr


def validate_forest(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                    const int32_t[::1] keyroots, const int64_t[::1] kr_offsets,
                    Py_ssize_t n_labels=-1):
    """Check forest arrays so the kernels can trust them; raise ``ValueError`` naming the tree.

    Checks the offsets, that every ``lml`` entry lies in ``[start of its subtree, node]`` with
    the subtree contiguous, that every keyroot is a node of its tree, and (when
    ``n_labels >= 0``) that every label id indexes a cost matrix of that size.
    """
    cdef Py_ssize_t n_trees = offsets.shape[0] - 1, t, i, k, lo, hi, klo, khi, x, li
    if offsets.shape[0] < 1 or kr_offsets.shape[0] != offsets.shape[0]:
        raise ValueError("offsets and kr_offsets must both have n_trees + 1 entries")
    if offsets[0] != 0 or kr_offsets[0] != 0:
        raise ValueError("offsets must start at 0")
    if offsets[n_trees] != labels.shape[0] or labels.shape[0] != lml.shape[0]:
        raise ValueError("labels, lml and offsets disagree on the number of nodes")
    if kr_offsets[n_trees] != keyroots.shape[0]:
        raise ValueError("keyroots and kr_offsets disagree on the number of keyroots")
    for t in range(n_trees):
        lo = offsets[t]
        hi = offsets[t + 1]
        klo = kr_offsets[t]
        khi = kr_offsets[t + 1]
        if hi < lo or khi < klo:
            raise ValueError(f"tree {t}: offsets are not increasing")
        if (hi > lo) != (khi > klo):
            raise ValueError(f"tree {t}: a non-empty tree needs keyroots and an empty one none")
        for i in range(hi - lo):
            li = lml[lo + i]
            if li < 0 or li > i:
                raise ValueError(f"tree {t}: leftmost leaf of node {i} out of range")
            # every node inside the subtree [li, i] must have its own subtree inside it
            for x in range(li, i):
                if lml[lo + x] < li:
                    raise ValueError(f"tree {t}: subtrees of nodes {x} and {i} overlap")
            if n_labels >= 0 and (labels[lo + i] < 0 or labels[lo + i] >= n_labels):
                raise ValueError(f"tree {t}: label id {labels[lo + i]} of node {i} outside the cost matrix")
        if hi > lo and keyroots[khi - 1] != hi - lo - 1:
            raise ValueError(f"tree {t}: the root must be the last keyroot")
        for k in range(klo, khi):
            if keyroots[k] < 0 or keyroots[k] >= hi - lo:
                raise ValueError(f"tree {t}: keyroot {keyroots[k]} is not a node")
            if k > klo and keyroots[k] <= keyroots[k - 1]:
                raise ValueError(f"tree {t}: keyroots must be strictly increasing")


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


# -------------------------------------------------------------------------- kernels

def tree_edit_distance(const int32_t[::1] labels1, const int32_t[::1] lml1, const int32_t[::1] keyroots1,
                       const int32_t[::1] labels2, const int32_t[::1] lml2, const int32_t[::1] keyroots2,
                       cost=None):
    """Zhang–Shasha edit distance between two postorder trees (see module docstring)."""
    cost_arr = _check_costs(cost)
    n_labels = -1 if cost_arr is None else cost_arr.shape[0]
    validate_forest(labels1, lml1, np.array([0, labels1.shape[0]], dtype=np.int64),
                    keyroots1, np.array([0, keyroots1.shape[0]], dtype=np.int64), n_labels)
    validate_forest(labels2, lml2, np.array([0, labels2.shape[0]], dtype=np.int64),
                    keyroots2, np.array([0, keyroots2.shape[0]], dtype=np.int64), n_labels)
    cdef Py_ssize_t n1 = labels1.shape[0], n2 = labels2.shape[0], nl = 0
    cdef double[::1] td = np.empty(max(n1 * n2, 1), dtype=np.float64)
    cdef double[::1] fd = np.empty((n1 + 1) * (n2 + 1), dtype=np.float64)
    cdef const double* cptr = _cost_ptr(cost_arr, &nl)
    cdef double result
    cdef const int32_t* e = NULL
    with nogil:
        result = _zhang_shasha(
            &labels1[0] if n1 else e, &lml1[0] if n1 else e, &keyroots1[0] if n1 else e, n1, keyroots1.shape[0],
            &labels2[0] if n2 else e, &lml2[0] if n2 else e, &keyroots2[0] if n2 else e, n2, keyroots2.shape[0],
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
    with nogil:
        for k in range(n_pairs):
            if cptr == NULL:
                out[k] = <double>_forest_pair_unit(&labels[0], &lml[0], &offsets[0], &keyroots[0], &kr_offsets[0],
                                                   left[k], right[k], &tdi[0], &fdi[0])
            else:
                out[k] = _forest_pair(&labels[0], &lml[0], &offsets[0], &keyroots[0], &kr_offsets[0],
                                      left[k], right[k], cptr, nl, &td[0], &fd[0])
    return out_arr


def forest_alpha_sums(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                      const int32_t[::1] keyroots, const int64_t[::1] kr_offsets,
                      const int64_t[::1] item, const int64_t[::1] item_count,
                      const int64_t[::1] sizes, cost=None):
    """Disagreement sums of Krippendorff's α for δplain, δdiff and δnorm in one pass.

    ``item[t]`` is the item of tree ``t`` and ``item_count[u]`` the number of (pairable)
    annotations of item ``u`` (at least 2 for every item that has trees). Every unordered
    pair of trees is compared once. Returns ``(observed, expected, per_item)`` where, for
    the three distances in the order plain, diff, norm,

    * ``expected[d]`` = Σ over ordered pairs of distinct trees of δ²,
    * ``observed[d]`` = Σ_u 1/(m_u − 1) Σ over ordered pairs within item u of δ²,
    * ``per_item[u, d]`` = item u's share of ``observed[d]``.

    δdiff = TED − |n1 − n2| and δnorm = TED / (n1 + n2) (Skjærholt 2014, §2), with
    ``n = sizes[t]``, the size |x| of each annotation (normally its number of nodes).
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
    observed_arr = np.zeros(3, dtype=np.float64)
    expected_arr = np.zeros(3, dtype=np.float64)
    per_item_arr = np.zeros((n_items, 3), dtype=np.float64)
    cdef double[::1] observed = observed_arr
    cdef double[::1] expected = expected_arr
    cdef double[:, ::1] per_item = per_item_arr
    cdef const double* cptr = _cost_ptr(cost_arr, &nl)
    cdef double d, dp, dd, dn, w
    if labels.shape[0] == 0:
        return observed_arr, expected_arr, per_item_arr
    with nogil:
        for i in range(n_trees):
            na = sizes[i]
            for j in range(i + 1, n_trees):
                nb = sizes[j]
                d = _forest_pair(&labels[0], &lml[0], &offsets[0], &keyroots[0], &kr_offsets[0],
                                 i, j, cptr, nl, &td[0], &fd[0])
                dp = d * d
                dd = d - fabs(<double>(na - nb))
                dd = dd * dd
                if na + nb > 0:
                    dn = d / <double>(na + nb)
                    dn = dn * dn
                else:
                    dn = 0.0
                expected[0] += 2.0 * dp
                expected[1] += 2.0 * dd
                expected[2] += 2.0 * dn
                if item[i] == item[j]:
                    u = item[i]
                    w = 2.0 / <double>(item_count[u] - 1)
                    per_item[u, 0] += w * dp
                    per_item[u, 1] += w * dd
                    per_item[u, 2] += w * dn
        for u in range(n_items):
            observed[0] += per_item[u, 0]
            observed[1] += per_item[u, 1]
            observed[2] += per_item[u, 2]
    return observed_arr, expected_arr, per_item_arr


# -------------------------------------------------------------- dependency trees

def dependency_postorder(const int32_t[::1] heads):
    """Postorder of the Skjærholt (2014) Figure 1 tree of a dependency analysis.

    ``heads[k]`` is the 1-based head of token ``k + 1`` (0 = the artificial root). The tree
    is built by walking down from the artificial root, children in token order, so tokens
    caught in a head cycle are not reached and drop out. Returns ``(tokens, parent,
    n_unreachable)``: ``tokens[i]`` is the token id of postorder node ``i`` (0 for the root,
    which comes last) and ``parent[i]`` its parent's postorder index (-1 for the root).
    """
    cdef Py_ssize_t n = heads.shape[0], k, h, top, node, pos = 0
    for k in range(n):
        if heads[k] < 0 or heads[k] > n:
            raise ValueError(f"token {k + 1}: head {heads[k]} out of range 0..{n}")
    start_arr = np.zeros(n + 2, dtype=np.int64)
    cdef int64_t[::1] start = start_arr
    for k in range(n):
        start[heads[k] + 1] += 1
    for h in range(n + 1):
        start[h + 1] += start[h]
    fill_arr = start_arr[:-1].copy()
    cdef int64_t[::1] fill = fill_arr
    child_arr = np.empty(max(n, 1), dtype=np.int32)
    cdef int32_t[::1] child = child_arr
    for k in range(n):  # token order: children come out sorted
        h = heads[k]
        child[fill[h]] = <int32_t>(k + 1)
        fill[h] += 1
    order_arr = np.empty(n + 1, dtype=np.int32)
    pos_of_arr = np.full(n + 1, -1, dtype=np.int32)
    stack_arr = np.empty(n + 1, dtype=np.int32)
    next_arr = np.zeros(n + 1, dtype=np.int64)
    cdef int32_t[::1] order = order_arr, pos_of = pos_of_arr, stack = stack_arr
    cdef int64_t[::1] nxt = next_arr
    stack[0] = 0
    top = 1
    for h in range(n + 1):
        nxt[h] = start[h]
    while top > 0:
        node = stack[top - 1]
        if nxt[node] < start[node + 1]:
            stack[top] = child[nxt[node]]
            nxt[node] += 1
            top += 1
        else:
            order[pos] = <int32_t>node
            pos_of[node] = <int32_t>pos
            pos += 1
            top -= 1
    tokens = order_arr[:pos].copy()
    parent_arr = np.empty(pos, dtype=np.int32)
    cdef int32_t[::1] parent = parent_arr
    for k in range(pos):
        node = order[k]
        parent[k] = -1 if node == 0 else pos_of[heads[node - 1]]
    return tokens, parent_arr, n + 1 - pos


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


# ------------------------------------------------------------ parallel all-pairs sums (α)

from cython.parallel cimport prange, threadid


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
    for s in range(n):
        if offsets[s + 1] < offsets[s]:
            raise ValueError(f"profile {s}: offsets are not increasing")
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
