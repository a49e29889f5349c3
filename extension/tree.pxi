# Included by _core.pyx (one extension module): tree structure (dependency postorder, leftmost
# leaves and keyroots).
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


# -------------------------------------------------------------- mirrored forests

cdef int64_t _mirror_tree(const int32_t* lab, const int32_t* lml, int64_t n, int32_t* mlab, int32_t* mlml,
                          int32_t* mkr, int32_t* stack, int32_t* last) noexcept nogil:
    """Writes the tree with every node's children reversed (its postorder is the original
    preorder backwards); returns its number of keyroots. stack and last hold n ints."""
    cdef int64_t top = 1, pos = 0, nk = 0, v, c, k, new
    stack[0] = <int32_t>(n - 1)
    while top > 0:  # preorder, children left to right: push them right to left
        top -= 1
        v = stack[top]
        new = n - 1 - pos
        pos += 1
        mlab[new] = lab[v]
        mlml[new] = <int32_t>(new - (v - lml[v]))
        c = v - 1
        while c >= lml[v]:
            stack[top] = <int32_t>c
            top += 1
            c = lml[c] - 1
    for k in range(n):
        last[mlml[k]] = <int32_t>k  # the highest node of each leftmost leaf: a keyroot
    for k in range(n):
        if last[mlml[k]] == k:
            mkr[nk] = <int32_t>k
            nk += 1
    return nk


def mirror_forest(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                  const int32_t[::1] keyroots, const int64_t[::1] kr_offsets):
    """Every tree of a forest with its children reversed (same distances when both trees of a
    pair are mirrored): ``(labels, lml, keyroots, kr_offsets, cost_left, cost_right)`` of
    the mirrored forest (its offsets are the given ones), with each tree's Zhang–Shasha cost
    (Σ of its keyroot subtree sizes) as given and mirrored, as
    :func:`spacy_agreement.agreement.engine.mirror_arrays` returns them."""
    validate_forest(labels, lml, offsets, keyroots, kr_offsets, -1)
    return _mirror_forest(labels, lml, offsets, keyroots, kr_offsets)


cdef tuple _mirror_forest(const int32_t[::1] labels, const int32_t[::1] lml, const int64_t[::1] offsets,
                          const int32_t[::1] keyroots, const int64_t[::1] kr_offsets):
    """:func:`mirror_forest` of a forest its caller has validated."""
    cdef Py_ssize_t n_trees = offsets.shape[0] - 1, t, total = labels.shape[0], m = _max_size(offsets)
    mlab_arr = np.empty(total, dtype=np.int32)
    mlml_arr = np.empty(total, dtype=np.int32)
    mkr_arr = np.empty(total, dtype=np.int32)
    mkro_arr = np.zeros(n_trees + 1, dtype=np.int64)
    left_arr = np.zeros(n_trees, dtype=np.int64)
    right_arr = np.zeros(n_trees, dtype=np.int64)
    scratch_arr = np.empty(2 * max(m, 1), dtype=np.int32)
    cdef int32_t[::1] mlab = mlab_arr, mlml = mlml_arr, mkr = mkr_arr, scratch = scratch_arr
    cdef int64_t[::1] mkro = mkro_arr, left = left_arr, right = right_arr
    cdef int64_t a0, n, nk, k, kr_at = 0
    with nogil:
        for t in range(n_trees):
            a0 = offsets[t]
            n = offsets[t + 1] - a0
            mkro[t] = kr_at
            if n == 0:
                continue
            nk = _mirror_tree(&labels[a0], &lml[a0], n, &mlab[a0], &mlml[a0], &mkr[kr_at], &scratch[0],
                              &scratch[m])
            for k in range(kr_offsets[t], kr_offsets[t + 1]):
                left[t] += keyroots[k] - lml[a0 + keyroots[k]] + 1
            for k in range(kr_at, kr_at + nk):
                right[t] += mkr[k] - mlml[a0 + mkr[k]] + 1
            kr_at += nk
        mkro[n_trees] = kr_at
    return mlab_arr, mlml_arr, mkr_arr[:kr_at].copy(), mkro_arr, left_arr, right_arr
