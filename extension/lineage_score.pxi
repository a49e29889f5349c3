# Lineages, their weighted Levenshtein distances, GEIG bracket counts and the error configurations
# of spacy_agreement._lineage (included by _lineage.pyx).

cdef Py_ssize_t MEMO_INTS = 1 << 21  # int32s the memo of Features holds at most (8 MiB)


def memo_limit(limit=None):
    """The most int32s the memo of :class:`Features` holds before it starts again (the
    tests make it small); sets it to ``limit`` if given. Returns the limit before."""
    global MEMO_INTS
    cdef Py_ssize_t before = MEMO_INTS
    if limit is not None:
        MEMO_INTS = max(<Py_ssize_t>limit, 0)
    return before


cdef struct Bracket:
    int32_t start
    int32_t end
    int32_t label


cdef int _cmp_bracket(const void* x, const void* y) noexcept nogil:
    cdef const Bracket* a = <const Bracket*>x
    cdef const Bracket* b = <const Bracket*>y
    if a.start != b.start:
        return -1 if a.start < b.start else 1
    if a.end != b.end:
        return -1 if a.end < b.end else 1
    if a.label != b.label:
        return -1 if a.label < b.label else 1
    return 0


cdef bint _penn_style(Batch t, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """Every leaf is the only child of its parent (lineage.is_penn_style)."""
    cdef const Node* nd = t.nodes + a
    cdef Py_ssize_t i
    cdef int32_t p
    cdef bint any_leaf = False
    for i in range(b - a):
        if nd[i].nkids == 0:
            any_leaf = True
            p = nd[i].parent
            if p >= 0 and nd[p].nkids != 1:
                return False
    return any_leaf


cdef int _lineages_walk(Batch t, Py_ssize_t a, Py_ssize_t b, bint drop, I32Vec* syms, I32Vec* off,
                        I32Vec* words) except -1 nogil:
    """:func:`_lineages` by a walk up from each leaf: for any parent array (parents after their
    children) where the subtrees need not be contiguous."""
    cdef const Node* nd = t.nodes + a
    cdef Py_ssize_t i, k, hb, he, m, no = 1, nw = 0
    cdef int32_t node, v, index
    cdef int32_t* out
    syms.size = 0
    i32_reserve(off, b - a + 1)
    i32_reserve(words, b - a)
    off.data[0] = 0
    for i in range(b - a):
        if nd[i].nkids != 0:
            continue
        words.data[nw] = nd[i].label
        nw += 1
        index = nd[i].first
        node = nd[i].parent
        if drop and node >= 0 and nd[node].nkids == 1:
            node = nd[node].parent
        m = 0
        hb = he = -1
        v = node
        while v >= 0:  # the highest nodes beginning and ending with the leaf, and the lineage's length
            if nd[v].first == index:
                hb = m
            if nd[v].last == index:
                he = m
            m += 1
            v = nd[v].parent
        i32_reserve(syms, syms.size + m + 2)
        out = syms.data + syms.size
        v = node
        k = 0
        while v >= 0:
            if k == hb:
                out[0] = 0
                out += 1
            out[0] = nd[v].label
            out += 1
            if k == he:
                out[0] = 1
                out += 1
            k += 1
            v = nd[v].parent
        syms.size = out - syms.data
        if syms.size >= 2147483000:
            with gil:
                raise MemoryError("lineages of over 2**31 symbols")
        off.data[no] = <int32_t>syms.size
        no += 1
    off.size = no
    words.size = nw
    return 0


cdef inline void _reverse32(int32_t* v, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i = 0, j = n - 1
    cdef int32_t tmp
    while i < j:
        tmp = v[i]
        v[i] = v[j]
        v[j] = tmp
        i += 1
        j -= 1


cdef int _lineages(Batch t, Py_ssize_t a, Py_ssize_t b, bint drop, I32Vec* syms, I32Vec* off,
                   I32Vec* words, I32Vec* path) except -1 nogil:
    """The lineage of every leaf of tree [a, b), Leaf end first, with the boundary markers of
    rules (i) and (ii): '[' (id 0) before the label of the highest node beginning with the
    leaf, ']' (id 1) after that of the highest node ending with it.

    One walk through the nodes from the root (postorder backwards: each node after its parent,
    the leaves right to left) with the path from the root on a stack of (node, label, first,
    last): each leaf's lineage is written root first, the markers before the first node from
    the root ending with the leaf and after the first beginning with it, and the whole is
    reversed at the end. A tree whose subtrees are not contiguous goes to :func:`_lineages_walk`."""
    cdef const Node* nd = t.nodes + a
    cdef Py_ssize_t n = b - a, i, j, top = 0, m, nw = 0, size
    cdef int32_t p, index
    cdef int32_t* st
    cdef int32_t* out
    cdef int32_t* o
    cdef bint found_b, found_e
    i32_reserve(path, 4 * n)
    i32_reserve(off, n + 1)
    i32_reserve(words, n)
    st = path.data
    syms.size = 0
    off.data[0] = 0
    for i in range(n - 1, -1, -1):
        p = nd[i].parent
        while top > 0 and st[4 * (top - 1)] != p:
            top -= 1
        if (top == 0) != (p < 0):  # the parent is not on the path
            return _lineages_walk(t, a, b, drop, syms, off, words)
        if nd[i].nkids != 0:
            st[4 * top] = <int32_t>i
            st[4 * top + 1] = nd[i].label
            st[4 * top + 2] = nd[i].first
            st[4 * top + 3] = nd[i].last
            top += 1
            continue
        words.data[nw] = nd[i].label
        index = nd[i].first
        m = top
        if drop and m > 0 and nd[st[4 * (m - 1)]].nkids == 1:
            m -= 1
        i32_reserve(syms, syms.size + m + 2)
        out = syms.data + syms.size
        found_b = found_e = False
        for j in range(m):
            if not found_e and st[4 * j + 3] == index:
                out[0] = 1
                out += 1
                found_e = True
            out[0] = st[4 * j + 1]
            out += 1
            if not found_b and st[4 * j + 2] == index:
                out[0] = 0
                out += 1
                found_b = True
        syms.size = out - syms.data
        if syms.size >= 2147483000:
            with gil:
                raise MemoryError("lineages of over 2**31 symbols")
        nw += 1
        off.data[nw] = <int32_t>syms.size
    size = syms.size
    _reverse32(syms.data, size)
    _reverse32(words.data, nw)
    _reverse32(off.data, nw + 1)
    o = off.data
    for i in range(nw + 1):
        o[i] = <int32_t>(size - o[i])
    off.size = nw + 1
    words.size = nw
    return 0


cdef inline int32_t _sub2(int32_t x, int32_t y, int cost, const int32_t* first) noexcept nogil:
    """Replacing x by y, in half units: 0 for the same symbol; 0.5 (1) for labels sharing
    their first character with the first-char costs; else 2 (4), a delete plus an insert."""
    if x == y:
        return 0
    if cost == 1 and x > 1 and y > 1 and first[x] == first[y] and first[x] != -1:
        return 1
    return 4


cdef int64_t _distance2(const int32_t* s, Py_ssize_t ns, const int32_t* t, Py_ssize_t nt, int cost,
                        const int32_t* first, I32Vec* row) except -1 nogil:
    """Twice the weighted Levenshtein distance (insert or delete 1, replace by the costs).
    A common start or end is matched for free first: with one cost for every insertion
    and deletion and 0 for equal symbols, matching them is always optimal."""
    cdef Py_ssize_t i, j
    cdef int64_t diag, up, best, v
    cdef int32_t* r
    while ns and nt and s[0] == t[0]:
        s += 1; t += 1; ns -= 1; nt -= 1
    while ns and nt and s[ns - 1] == t[nt - 1]:
        ns -= 1; nt -= 1
    if ns == 0 or nt == 0:
        return 2 * (ns + nt)
    i32_reserve(row, nt + 1)
    r = row.data
    for j in range(nt + 1):
        r[j] = <int32_t>(2 * j)
    for i in range(1, ns + 1):
        diag = r[0]
        r[0] = <int32_t>(2 * i)
        for j in range(1, nt + 1):
            up = r[j]
            best = up + 2
            v = r[j - 1] + 2
            if v < best:
                best = v
            v = diag + _sub2(s[i - 1], t[j - 1], cost, first)
            if v < best:
                best = v
            diag = up
            r[j] = <int32_t>best
    return r[nt]


cdef inline bint _bracket_less(const Bracket* x, const Bracket* y) noexcept nogil:
    if x.start != y.start:
        return x.start < y.start
    if x.end != y.end:
        return x.end < y.end
    return x.label < y.label


cdef int _brackets(Batch t, Py_ssize_t a, Py_ssize_t b, int32_t outer, bint penn, Vocab vocab,
                   I32Vec* out, Py_ssize_t n_leaves, I32Vec* cnt) except -1 nogil:
    """GEIG's brackets as geig.py counts them without EVALB parameters (EVALB's rules with its
    default settings): the outer brackets, then every node with children but a Penn-style
    preterminal, as (first word, last word + 1, label cut at its first - or =), sorted.
    ``n_leaves``: the tree's words. In postorder the brackets that begin at one word come
    deepest (shortest) first: placed by their first word (a counting sort, in order), only
    those of one span are left to order by label (an insertion sort, which also orders
    whatever a tree of another shape gives)."""
    cdef const Node* nd = t.nodes + a
    cdef Py_ssize_t i, j, k, n = 0, st
    cdef int32_t* c
    cdef Bracket* br
    cdef Bracket x
    cdef int32_t outer_label = 2  # the empty label, which has no - or = to cut at
    cdef bint in_range = True
    i32_reserve(out, 3 * (outer + (b - a)))
    i32_reserve(cnt, n_leaves + 2)
    c = cnt.data
    memset(c, 0, (n_leaves + 2) * sizeof(int32_t))
    br = <Bracket*>out.data
    for i in range(b - a):  # how many begin at each word
        if nd[i].nkids == 0 or (penn and nd[i].nkids == 1 and nd[i - 1].nkids == 0):
            continue
        if nd[i].first < 0 or nd[i].first >= n_leaves:
            in_range = False
            break
        c[nd[i].first + 1] += 1
        n += 1
    if in_range and n_leaves > 0:
        c[1] += outer
        for k in range(n_leaves):
            c[k + 1] += c[k]
        for i in range(b - a):
            if nd[i].nkids == 0 or (penn and nd[i].nkids == 1 and nd[i - 1].nkids == 0):
                continue
            j = c[nd[i].first]
            c[nd[i].first] += 1
            br[j].start = nd[i].first
            br[j].end = nd[i].last + 1
            br[j].label = nd[i].strip if nd[i].strip >= 0 else vocab.strip.data[nd[i].label]
        for k in range(outer):
            j = c[0]
            c[0] += 1
            br[j].start = 0
            br[j].end = <int32_t>n_leaves
            br[j].label = outer_label
        n += outer
    else:
        n = 0
        for k in range(outer):
            br[n].start = 0
            br[n].end = <int32_t>n_leaves
            br[n].label = outer_label
            n += 1
        for i in range(b - a):
            if nd[i].nkids == 0 or (penn and nd[i].nkids == 1 and nd[i - 1].nkids == 0):
                continue
            br[n].start = nd[i].first
            br[n].end = nd[i].last + 1
            br[n].label = nd[i].strip if nd[i].strip >= 0 else vocab.strip.data[nd[i].label]
            n += 1
    out.size = 3 * n
    for i in range(1, n):  # insertion sort: nothing to move but brackets of one span
        if not _bracket_less(&br[i], &br[i - 1]):
            continue
        x = br[i]
        j = i
        while j > 0 and _bracket_less(&x, &br[j - 1]):
            br[j] = br[j - 1]
            j -= 1
        br[j] = x
    return 0


cdef void _match(const I32Vec* g, const I32Vec* c, int64_t* unlabelled, int64_t* labelled) noexcept nogil:
    """Matched brackets: each at most once, by span (unlabelled) and by span and label."""
    cdef Py_ssize_t i = 0, j = 0, ng = g.size // 3, nc = c.size // 3
    cdef const Bracket* x = <const Bracket*>g.data
    cdef const Bracket* y = <const Bracket*>c.data
    cdef int cmp
    unlabelled[0] = labelled[0] = 0
    while i < ng and j < nc:
        cmp = _cmp_bracket(&x[i], &y[j])
        if cmp == 0:
            labelled[0] += 1
            i += 1; j += 1
        elif cmp < 0:
            i += 1
        else:
            j += 1
    i = j = 0
    while i < ng and j < nc:
        if x[i].start == y[j].start and x[i].end == y[j].end:
            unlabelled[0] += 1
            i += 1; j += 1
        elif x[i].start < y[j].start or (x[i].start == y[j].start and x[i].end < y[j].end):
            i += 1
        else:
            j += 1


cdef struct FeatAcc:
    int64_t count
    double s  # the compensated running sum (Neumaier) and its compensation
    double c
    int32_t npend
    double lanes[8]  # numpy's pairwise sum of the first 128 values: 8 lanes, 8 pending
    double pend[8]


cdef struct MemoSlot:
    uint64_t hash
    int32_t off  # the record's offset in Features.mrec, -1: an empty slot


cdef inline void _acc_add(FeatAcc* a, double x) noexcept nogil:
    """One more value of a feature (see :class:`Features`)."""
    cdef double t
    cdef int i
    a.count += 1
    t = a.s + x  # the compensated running sum (Neumaier)
    if fabs(a.s) >= fabs(x):
        a.c += (a.s - t) + x
    else:
        a.c += (x - t) + a.s
    a.s = t
    if a.count > 128:
        return  # beyond 128 values the mean is the compensated sum's
    a.pend[a.npend] = x
    a.npend += 1
    if a.npend == 8:
        if a.count == 8:
            for i in range(8):
                a.lanes[i] = a.pend[i]
        else:
            for i in range(8):
                a.lanes[i] += a.pend[i]
        a.npend = 0


cdef class Features:
    """Error configurations (§7) summed word by word: for each gold label of a lineage
    (kind 0), pair of consecutive lineage symbols (kind 1) and parent label (kind 2; kind 3:
    none), how many words have it and their scores' sum. The sum is numpy's pairwise sum
    (what the pure-Python np.mean gave) up to 128 words, and a compensated sum beyond,
    where numpy's order of additions depends on the final count.

    A word's features depend on its gold lineage alone: each distinct lineage's list of
    features (each once, in the order they are first met) is kept in a memo (cleared when
    it grows past :func:`memo_limit`), so a word seen before costs a look-up and one addition
    per feature."""

    cdef I32Vec kind, fa, fb
    cdef I64Vec stamp
    cdef FeatAcc* acc
    cdef Py_ssize_t acc_cap
    cdef I32Vec by_label, by_parent
    cdef uint64_t* keys
    cdef int32_t* vals
    cdef Py_ssize_t kcap, kn
    cdef int64_t serial
    # the memo: records [n, number of features, the lineage's n symbols, its features] one after
    # the other in mrec, found through an open-addressing table of (hash tag, record offset)
    cdef I32Vec mrec
    cdef MemoSlot* mtab
    cdef Py_ssize_t mcap, mcount

    def __cinit__(self):
        self.kcap = 1024
        self.keys = <uint64_t*>malloc(self.kcap * sizeof(uint64_t))
        self.vals = <int32_t*>malloc(self.kcap * sizeof(int32_t))
        self.mcap = 4096
        self.mtab = <MemoSlot*>malloc(self.mcap * sizeof(MemoSlot))
        if self.keys == NULL or self.vals == NULL or self.mtab == NULL:
            raise MemoryError()
        memset(self.vals, 0xff, self.kcap * sizeof(int32_t))
        memset(self.mtab, 0xff, self.mcap * sizeof(MemoSlot))

    def __dealloc__(self):
        free(self.kind.data); free(self.fa.data); free(self.fb.data)
        free(self.stamp.data); free(self.acc)
        free(self.by_label.data); free(self.by_parent.data); free(self.keys); free(self.vals)
        free(self.mrec.data); free(self.mtab)

    def __len__(self):
        return self.kind.size

    cdef int32_t _new(self, int kind, int32_t a, int32_t b) except -1 nogil:
        cdef int32_t f = <int32_t>self.kind.size
        cdef Py_ssize_t cap
        cdef void* p
        if f >= self.acc_cap:
            cap = 2 * self.acc_cap if self.acc_cap else 256
            p = realloc(self.acc, cap * sizeof(FeatAcc))
            if p == NULL:
                with gil:
                    raise MemoryError()
            self.acc = <FeatAcc*>p
            self.acc_cap = cap
        memset(&self.acc[f], 0, sizeof(FeatAcc))
        i32_push(&self.kind, kind); i32_push(&self.fa, a); i32_push(&self.fb, b)
        i64_push(&self.stamp, -1)
        return f

    cdef int32_t _dense(self, I32Vec* table, int kind, int32_t a) except -1 nogil:
        while table.size <= a:
            i32_push(table, -1)
        if table.data[a] < 0:
            table.data[a] = self._new(kind, a, -1)
        return table.data[a]

    cdef int32_t _pair(self, int32_t a, int32_t b) except -1 nogil:
        cdef uint64_t key = (<uint64_t><uint32_t>a << 32) | <uint32_t>b
        cdef uint64_t h = key * 0x9E3779B97F4A7C15ULL
        cdef Py_ssize_t idx = <Py_ssize_t>((h >> 20) & <uint64_t>(self.kcap - 1)), k
        cdef uint64_t* keys
        cdef int32_t* vals
        while self.vals[idx] != -1:
            if self.keys[idx] == key:
                return self.vals[idx]
            idx = (idx + 1) & (self.kcap - 1)
        cdef int32_t f = self._new(1, a, b)
        self.keys[idx] = key
        self.vals[idx] = f
        self.kn += 1
        if 2 * self.kn > self.kcap:  # grow and rehash
            keys = <uint64_t*>malloc(2 * self.kcap * sizeof(uint64_t))
            vals = <int32_t*>malloc(2 * self.kcap * sizeof(int32_t))
            if keys == NULL or vals == NULL:
                free(keys); free(vals)
                with gil:
                    raise MemoryError()
            memset(vals, 0xff, 2 * self.kcap * sizeof(int32_t))
            for k in range(self.kcap):
                if self.vals[k] != -1:
                    h = self.keys[k] * 0x9E3779B97F4A7C15ULL
                    idx = <Py_ssize_t>((h >> 20) & <uint64_t>(2 * self.kcap - 1))
                    while vals[idx] != -1:
                        idx = (idx + 1) & (2 * self.kcap - 1)
                    keys[idx] = self.keys[k]
                    vals[idx] = self.vals[k]
            free(self.keys); free(self.vals)
            self.keys, self.vals = keys, vals
            self.kcap *= 2
        return f

    cdef inline int _collect(self, int32_t f) except -1 nogil:
        """Feature ``f`` into the record being built, once per word."""
        if self.stamp.data[f] != self.serial:
            self.stamp.data[f] = self.serial
            i32_push(&self.mrec, f)
        return 0

    cdef int _memo_grow(self) except -1 nogil:
        cdef Py_ssize_t cap = 2 * self.mcap, k, idx
        cdef MemoSlot* tab = <MemoSlot*>malloc(cap * sizeof(MemoSlot))
        if tab == NULL:
            with gil:
                raise MemoryError()
        memset(tab, 0xff, cap * sizeof(MemoSlot))
        for k in range(self.mcap):
            if self.mtab[k].off != -1:
                idx = <Py_ssize_t>(self.mtab[k].hash & <uint64_t>(cap - 1))
                while tab[idx].off != -1:
                    idx = (idx + 1) & (cap - 1)
                tab[idx] = self.mtab[k]
        free(self.mtab)
        self.mtab, self.mcap = tab, cap
        return 0

    cdef int add_word(self, const int32_t* lin, Py_ssize_t n, double score) except -1 nogil:
        cdef Py_ssize_t i, idx, a, nf
        cdef int32_t parent = -1
        cdef uint64_t h = <uint64_t>n * 0x9E3779B97F4A7C15ULL
        cdef uint64_t w
        cdef const int32_t* rec
        cdef MemoSlot* e
        i = 0
        while i + 1 < n:  # two symbols a multiplication
            w = (<uint64_t><uint32_t>lin[i] << 32) | <uint32_t>lin[i + 1]
            h = (h ^ w) * 0xD6E8FEB86659FD93ULL
            i += 2
        if i < n:
            h = (h ^ <uint32_t>lin[i]) * 0xD6E8FEB86659FD93ULL
        h ^= h >> 32
        idx = <Py_ssize_t>(h & <uint64_t>(self.mcap - 1))
        while True:
            e = &self.mtab[idx]
            if e.off == -1:
                break
            if e.hash == h:
                rec = self.mrec.data + e.off
                if rec[0] == n:
                    for i in range(n):
                        if rec[2 + i] != lin[i]:
                            break
                    else:
                        nf = rec[1]
                        rec += 2 + n
                        for i in range(nf):
                            _acc_add(&self.acc[rec[i]], score)
                        return 0
            idx = (idx + 1) & (self.mcap - 1)
        # a lineage not in the memo: its features, in the order they are first met
        if self.mrec.size + 3 * n + 3 > MEMO_INTS:  # full: start again
            self.mrec.size = 0
            self.mcount = 0
            memset(self.mtab, 0xff, self.mcap * sizeof(MemoSlot))
            idx = <Py_ssize_t>(h & <uint64_t>(self.mcap - 1))
        a = self.mrec.size
        i32_reserve(&self.mrec, a + n + 2)
        self.mrec.data[a] = <int32_t>n
        for i in range(n):
            self.mrec.data[a + 2 + i] = lin[i]
        self.mrec.size = a + 2 + n
        self.serial += 1
        for i in range(n):
            if lin[i] > 1:
                self._collect(self._dense(&self.by_label, 0, lin[i]))
                if parent < 0:
                    parent = lin[i]
        for i in range(n - 1):
            self._collect(self._pair(lin[i], lin[i + 1]))
        if n:
            if parent >= 0:
                self._collect(self._dense(&self.by_parent, 2, parent))
            else:
                self._collect(self._dense(&self.by_parent, 3, 0))
        nf = self.mrec.size - (a + 2 + n)
        self.mrec.data[a + 1] = <int32_t>nf
        self.mtab[idx].hash = h
        self.mtab[idx].off = <int32_t>a
        for i in range(a + 2 + n, self.mrec.size):
            _acc_add(&self.acc[self.mrec.data[i]], score)
        self.mcount += 1
        if 2 * self.mcount > self.mcap:
            self._memo_grow()
        return 0

    def add_log(self, WordLog log):
        """The words of ``log``, in order, as if each had been added as it was scored."""
        cdef Py_ssize_t i
        with nogil:
            for i in range(log.scores.size):
                self.add_word(log.syms.data + log.off.data[i], log.off.data[i + 1] - log.off.data[i],
                              log.scores.data[i])

    cdef double _mean(self, Py_ssize_t f) noexcept:
        cdef const FeatAcc* a = &self.acc[f]
        cdef int64_t n = a.count
        cdef double res
        cdef int i
        if n > 128:
            return (a.s + a.c) / n
        if n < 8:
            res = 0.0
            for i in range(a.npend):
                res += a.pend[i]
            return res / n
        res = ((a.lanes[0] + a.lanes[1]) + (a.lanes[2] + a.lanes[3])) + ((a.lanes[4] + a.lanes[5]) + (a.lanes[6] + a.lanes[7]))
        for i in range(a.npend):
            res += a.pend[i]
        return res / n

    def rows(self, int64_t min_count=1):
        """(kind, a, b, count, mean) of every feature seen ``min_count`` times, first seen first."""
        out = []
        cdef Py_ssize_t f
        for f in range(self.kind.size):
            if self.acc[f].count >= min_count and self.acc[f].count > 0:
                out.append((self.kind.data[f], self.fa.data[f], self.fb.data[f], self.acc[f].count, self._mean(f)))
        return out


cdef class WordLog:
    """The scored words of a batch as :class:`Features` takes them (each word's gold lineage
    and score, in order), for :meth:`Features.add_log` to add later, on another thread."""

    cdef I32Vec syms
    cdef I64Vec off
    cdef F64Vec scores

    def __cinit__(self):
        i64_push(&self.off, 0)

    def __dealloc__(self):
        free(self.syms.data); free(self.off.data); free(self.scores.data)

    def __len__(self):
        return self.scores.size

    def clear(self):
        self.syms.size = self.scores.size = 0
        self.off.size = 1

    cdef int add(self, const int32_t* lin, Py_ssize_t n, double score) except -1 nogil:
        cdef Py_ssize_t i
        i32_reserve(&self.syms, self.syms.size + n)
        for i in range(n):
            self.syms.data[self.syms.size + i] = lin[i]
        self.syms.size += n
        i64_push(&self.off, self.syms.size)
        f64_push(&self.scores, score)
        return 0


cdef class Scores:
    """The scores of the sentences of a batch (:meth:`clear` between batches): each scored
    word's score, and for each scored sentence its first word, the pairwise sum and mean of
    its word scores (as np.sum and np.mean give them) and its GEIG counts (gold, candidate,
    matched unlabelled, labelled)."""

    cdef F64Vec words, sums, means
    cdef I64Vec word_off
    cdef I32Vec gold, cand, mu, ml

    def __cinit__(self):
        i64_push(&self.word_off, 0)

    def __dealloc__(self):
        free(self.words.data); free(self.sums.data); free(self.means.data); free(self.word_off.data)
        free(self.gold.data); free(self.cand.data); free(self.mu.data); free(self.ml.data)

    def __len__(self):
        return self.sums.size

    def clear(self):
        """Forget every sentence (the memory is kept for the next batch)."""
        self.words.size = self.sums.size = self.means.size = 0
        self.word_off.size = 1
        self.gold.size = self.cand.size = self.mu.size = self.ml.size = 0

    def last_means(self, Py_ssize_t n):
        """The means of the last ``n`` scored sentences (a copy)."""
        if n < 0 or n > self.means.size:
            raise IndexError(n)
        out = np.empty(n, dtype=np.float64)
        if n:
            memcpy(<void*>cnp.PyArray_DATA(out), self.means.data + self.means.size - n, n * sizeof(double))
        return out

    def arrays(self):
        """Copies: (word scores, word offsets, sums, means, gold, candidate, matched
        unlabelled, matched labelled brackets)."""
        return (_f64(&self.words), _i64(&self.word_off), _f64(&self.sums), _f64(&self.means),
                _i32(&self.gold), _i32(&self.cand), _i32(&self.mu), _i32(&self.ml))


cdef object _f64(F64Vec* v):
    out = np.empty(v.size, dtype=np.float64)
    if v.size:
        memcpy(<void*>cnp.PyArray_DATA(out), v.data, v.size * sizeof(double))
    return out


cdef object _i64(I64Vec* v):
    out = np.empty(v.size, dtype=np.int64)
    if v.size:
        memcpy(<void*>cnp.PyArray_DATA(out), v.data, v.size * sizeof(int64_t))
    return out


cdef object _i32(I32Vec* v):
    out = np.empty(v.size, dtype=np.int32)
    if v.size:
        memcpy(<void*>cnp.PyArray_DATA(out), v.data, v.size * sizeof(int32_t))
    return out


cdef class _Scratch:
    cdef I32Vec gs, go, gw, cs, co, cw, path, row, gb, cb, cnt

    def __dealloc__(self):
        free(self.gs.data); free(self.go.data); free(self.gw.data); free(self.cs.data); free(self.co.data)
        free(self.cw.data); free(self.path.data); free(self.row.data); free(self.gb.data); free(self.cb.data)
        free(self.cnt.data)


cdef bint _drop(Batch t, Py_ssize_t k, int pre) noexcept nogil:
    """Whether sentence ``k``'s preterminals are left out of its lineages."""
    return pre == 2 or (pre == 0 and t.penn.data[k])


def score_batch(Batch gold, Batch cand, Vocab vocab, int cost, int pre, const uint8_t[::1] skip,
                Scores scores, Features features, int64_t[:, ::1] status, WordLog log=None):
    """Score sentence pairs ``k`` of two batches (same length). ``cost``: 0 exact, 1 first-char;
    ``pre``: preterminals 0 auto, 1 keep, 2 drop; ``skip[k]``: too large (set aside).
    ``status[k]`` gets (code, a, b, c): 0 scored (a: its row in ``scores``); 1 no gold tree;
    2 no candidate tree; 3 too large; 4 word counts differ (a gold, b candidate); 5 word a
    (1-based) differs (b gold id, c candidate id). ``features`` (or None) sums the gold
    configurations of the scored words, or ``log`` (if given) keeps them for it."""
    cdef Py_ssize_t n = len(gold), k, ga, gb, ca, cb, w, nw, i
    cdef _Scratch x = _Scratch()
    cdef int64_t d2, total, mu, ml
    cdef double score
    cdef bint gdrop, cdrop
    cdef Py_ssize_t first_word
    if len(cand) != n or skip.shape[0] != n or status.shape[0] != n or status.shape[1] != 4:
        raise ValueError("batches, skip and status must have one row per sentence")
    cdef bint has_features = features is not None, has_log = log is not None
    cdef const int32_t* first = vocab.first.data
    with nogil:  # no Python object: the reader may fill the next batches meanwhile (nothing of the
        # vocabulary is read here but the first characters of labels, for the first-char costs)
        for k in range(n):
            status[k, 0] = status[k, 1] = status[k, 2] = status[k, 3] = 0
            if not gold.present.data[k]:
                status[k, 0] = 1
                continue
            if not cand.present.data[k]:
                status[k, 0] = 2
                continue
            if skip[k]:
                status[k, 0] = 3
                continue
            ga, gb = gold.node_off.data[k], gold.node_off.data[k + 1]
            ca, cb = cand.node_off.data[k], cand.node_off.data[k + 1]
            gdrop = _drop(gold, k, pre)
            cdrop = _drop(cand, k, pre)
            _lineages(gold, ga, gb, gdrop, &x.gs, &x.go, &x.gw, &x.path)
            _lineages(cand, ca, cb, cdrop, &x.cs, &x.co, &x.cw, &x.path)
            if x.gw.size != x.cw.size:
                status[k, 0] = 4
                status[k, 1] = x.gw.size
                status[k, 2] = x.cw.size
                continue
            nw = x.gw.size
            for w in range(nw):
                if x.gw.data[w] != x.cw.data[w]:
                    status[k, 0] = 5
                    status[k, 1] = w + 1
                    status[k, 2] = x.gw.data[w]
                    status[k, 3] = x.cw.data[w]
                    break
            if status[k, 0]:
                continue
            first_word = scores.words.size
            for w in range(nw):
                total = (x.go.data[w + 1] - x.go.data[w]) + (x.co.data[w + 1] - x.co.data[w])
                d2 = _distance2(x.gs.data + x.go.data[w], x.go.data[w + 1] - x.go.data[w],
                                x.cs.data + x.co.data[w], x.co.data[w + 1] - x.co.data[w], cost, first,
                                &x.row)
                score = 1.0 - (<double>d2 * 0.5) / <double>total if total else 1.0
                f64_push(&scores.words, score)
                if has_log:
                    log.add(x.gs.data + x.go.data[w], x.go.data[w + 1] - x.go.data[w], score)
                elif has_features:
                    features.add_word(x.gs.data + x.go.data[w], x.go.data[w + 1] - x.go.data[w], score)
            status[k, 1] = scores.sums.size
            score = _pairwise(scores.words.data + first_word, nw) if nw else 0.0
            f64_push(&scores.sums, score)
            f64_push(&scores.means, score / nw if nw else NAN)
            i64_push(&scores.word_off, scores.words.size)
            _brackets(gold, ga, gb, gold.outer.data[k], gdrop, vocab, &x.gb, nw, &x.cnt)
            _brackets(cand, ca, cb, cand.outer.data[k], cdrop, vocab, &x.cb, nw, &x.cnt)
            _match(&x.gb, &x.cb, &mu, &ml)
            i32_push(&scores.gold, <int32_t>(x.gb.size // 3))
            i32_push(&scores.cand, <int32_t>(x.cb.size // 3))
            i32_push(&scores.mu, <int32_t>mu)
            i32_push(&scores.ml, <int32_t>ml)


def tree_lineages(Batch t, Py_ssize_t k, int pre):
    """Sentence ``k`` of a batch: its words' ids and each word's lineage as a list of ids."""
    if k < 0 or k >= len(t) or not t.present.data[k]:
        raise IndexError(k)
    cdef _Scratch x = _Scratch()
    cdef Py_ssize_t a = t.node_off.data[k], b = t.node_off.data[k + 1], w, i
    _lineages(t, a, b, _drop(t, k, pre), &x.gs, &x.go, &x.gw, &x.path)
    words = [x.gw.data[w] for w in range(x.gw.size)]
    lineages = [[x.gs.data[i] for i in range(x.go.data[w], x.go.data[w + 1])] for w in range(x.gw.size)]
    return words, lineages
