# Lineages, their weighted Levenshtein distances, GEIG bracket counts and the error configurations
# of spacy_agreement._lineage (included by _lineage.pyx).

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


cdef bint _penn_style(Batch t, Py_ssize_t a, Py_ssize_t b) noexcept:
    """Every leaf is the only child of its parent (lineage.is_penn_style)."""
    cdef Py_ssize_t i
    cdef int32_t p
    cdef bint any_leaf = False
    for i in range(a, b):
        if t.nkids.data[i] == 0:
            any_leaf = True
            p = t.parent.data[i]
            if p >= 0 and t.nkids.data[a + p] != 1:
                return False
    return any_leaf


cdef int _lineages(Batch t, Py_ssize_t a, Py_ssize_t b, bint drop, I32Vec* syms, I32Vec* off,
                   I32Vec* words, I32Vec* path) except -1:
    """The lineage of every leaf of tree [a, b), Leaf end first, with the boundary markers of
    rules (i) and (ii): '[' (id 0) before the label of the highest node beginning with the
    leaf, ']' (id 1) after that of the highest node ending with it."""
    cdef Py_ssize_t i, k, hb, he, m
    cdef int32_t node, index
    syms.size = 0
    off.size = 0
    words.size = 0
    i32_push(off, 0)
    for i in range(a, b):
        if t.nkids.data[i] != 0:
            continue
        i32_push(words, t.label.data[i])
        index = t.first_leaf.data[i]
        node = t.parent.data[i]
        if drop and node >= 0 and t.nkids.data[a + node] == 1:
            node = t.parent.data[a + node]
        path.size = 0
        hb = he = -1
        while node >= 0:
            k = path.size
            i32_push(path, node)
            if t.first_leaf.data[a + node] == index:
                hb = k
            if t.last_leaf.data[a + node] == index:
                he = k
            node = t.parent.data[a + node]
        m = path.size
        i32_reserve(syms, syms.size + m + 2)
        for k in range(m):
            if k == hb:
                syms.data[syms.size] = 0
                syms.size += 1
            syms.data[syms.size] = t.label.data[a + path.data[k]]
            syms.size += 1
            if k == he:
                syms.data[syms.size] = 1
                syms.size += 1
        if syms.size >= 2147483000:
            raise MemoryError("lineages of over 2**31 symbols")
        i32_push(off, <int32_t>syms.size)
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
                        const int32_t* first, I32Vec* row) except -1:
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


cdef int _brackets(Batch t, Py_ssize_t a, Py_ssize_t b, int32_t outer, bint penn, Vocab vocab,
                   I32Vec* out) except -1:
    """GEIG's brackets as geig.py counts them without EVALB parameters (EVALB's rules with its
    default settings): the outer brackets, then every node with children but a Penn-style
    preterminal, as (first word, last word + 1, label cut at its first - or =), sorted."""
    cdef Py_ssize_t i, k, n = 0
    cdef int32_t n_leaves = 0
    cdef Bracket* br
    out.size = 0
    for i in range(a, b):
        if t.nkids.data[i] == 0:
            n_leaves += 1
    for k in range(outer):
        i32_push(out, 0); i32_push(out, n_leaves); i32_push(out, vocab.strip.data[2])
    for i in range(a, b):
        if t.nkids.data[i] == 0:
            continue
        if penn and t.nkids.data[i] == 1 and t.nkids.data[i - 1] == 0:
            continue
        i32_push(out, t.first_leaf.data[i])
        i32_push(out, t.last_leaf.data[i] + 1)
        i32_push(out, vocab.strip.data[t.label.data[i]])
    n = out.size // 3
    if n > 1:
        qsort(out.data, n, sizeof(Bracket), _cmp_bracket)
    return 0


cdef void _match(const I32Vec* g, const I32Vec* c, int64_t* unlabelled, int64_t* labelled) noexcept:
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


cdef class Features:
    """Error configurations (§7) summed word by word: for each gold label of a lineage
    (kind 0), pair of consecutive lineage symbols (kind 1) and parent label (kind 2; kind 3:
    none), how many words have it and their scores' sum. The sum is numpy's pairwise sum
    (what the pure-Python np.mean gave) up to 128 words, and a compensated sum beyond,
    where numpy's order of additions depends on the final count."""

    cdef I32Vec kind, fa, fb, npend
    cdef I64Vec count, stamp
    cdef F64Vec acc  # 18 per feature: 8 lanes, 8 pending, sum, compensation
    cdef I32Vec by_label, by_parent
    cdef uint64_t* keys
    cdef int32_t* vals
    cdef Py_ssize_t kcap, kn
    cdef int64_t serial

    def __cinit__(self):
        self.kcap = 1024
        self.keys = <uint64_t*>malloc(self.kcap * sizeof(uint64_t))
        self.vals = <int32_t*>malloc(self.kcap * sizeof(int32_t))
        if self.keys == NULL or self.vals == NULL:
            raise MemoryError()
        memset(self.vals, 0xff, self.kcap * sizeof(int32_t))

    def __dealloc__(self):
        free(self.kind.data); free(self.fa.data); free(self.fb.data); free(self.npend.data)
        free(self.count.data); free(self.stamp.data); free(self.acc.data)
        free(self.by_label.data); free(self.by_parent.data); free(self.keys); free(self.vals)

    def __len__(self):
        return self.kind.size

    cdef int32_t _new(self, int kind, int32_t a, int32_t b) except -1:
        cdef int32_t f = <int32_t>self.kind.size
        cdef int i
        i32_push(&self.kind, kind); i32_push(&self.fa, a); i32_push(&self.fb, b); i32_push(&self.npend, 0)
        i64_push(&self.count, 0); i64_push(&self.stamp, -1)
        for i in range(18):
            f64_push(&self.acc, 0.0)
        return f

    cdef int32_t _dense(self, I32Vec* table, int kind, int32_t a) except -1:
        while table.size <= a:
            i32_push(table, -1)
        if table.data[a] < 0:
            table.data[a] = self._new(kind, a, -1)
        return table.data[a]

    cdef int32_t _pair(self, int32_t a, int32_t b) except -1:
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

    cdef void _add(self, int32_t f, double x) noexcept:
        cdef double* s
        cdef double t, bp
        cdef int i
        if self.stamp.data[f] == self.serial:
            return  # once per word
        self.stamp.data[f] = self.serial
        s = self.acc.data + 18 * <Py_ssize_t>f
        self.count.data[f] += 1
        s[8 + self.npend.data[f]] = x
        self.npend.data[f] += 1
        if self.npend.data[f] == 8:
            if self.count.data[f] == 8:
                for i in range(8):
                    s[i] = s[8 + i]
            else:
                for i in range(8):
                    s[i] += s[8 + i]
            self.npend.data[f] = 0
        t = s[16] + x  # the compensated running sum (Neumaier)
        if fabs(s[16]) >= fabs(x):
            s[17] += (s[16] - t) + x
        else:
            s[17] += (x - t) + s[16]
        s[16] = t

    cdef int add_word(self, const int32_t* lin, Py_ssize_t n, double score) except -1:
        cdef Py_ssize_t i
        cdef int32_t parent = -1
        self.serial += 1
        for i in range(n):
            if lin[i] > 1:
                self._add(self._dense(&self.by_label, 0, lin[i]), score)
                if parent < 0:
                    parent = lin[i]
        for i in range(n - 1):
            self._add(self._pair(lin[i], lin[i + 1]), score)
        if n:
            if parent >= 0:
                self._add(self._dense(&self.by_parent, 2, parent), score)
            else:
                self._add(self._dense(&self.by_parent, 3, 0), score)
        return 0

    cdef double _mean(self, Py_ssize_t f) noexcept:
        cdef int64_t n = self.count.data[f]
        cdef const double* s = self.acc.data + 18 * f
        cdef double res
        cdef int i
        if n > 128:
            return (s[16] + s[17]) / n
        if n < 8:
            res = 0.0
            for i in range(self.npend.data[f]):
                res += s[8 + i]
            return res / n
        res = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))
        for i in range(self.npend.data[f]):
            res += s[8 + i]
        return res / n

    def rows(self, int64_t min_count=1):
        """(kind, a, b, count, mean) of every feature seen ``min_count`` times, first seen first."""
        out = []
        cdef Py_ssize_t f
        for f in range(self.kind.size):
            if self.count.data[f] >= min_count and self.count.data[f] > 0:
                out.append((self.kind.data[f], self.fa.data[f], self.fb.data[f], self.count.data[f], self._mean(f)))
        return out


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
    cdef I32Vec gs, go, gw, cs, co, cw, path, row, gb, cb

    def __dealloc__(self):
        free(self.gs.data); free(self.go.data); free(self.gw.data); free(self.cs.data); free(self.co.data)
        free(self.cw.data); free(self.path.data); free(self.row.data); free(self.gb.data); free(self.cb.data)


cdef bint _drop(Batch t, Py_ssize_t a, Py_ssize_t b, int pre) noexcept:
    return pre == 2 or (pre == 0 and _penn_style(t, a, b))


def score_batch(Batch gold, Batch cand, Vocab vocab, int cost, int pre, const uint8_t[::1] skip,
                Scores scores, Features features, int64_t[:, ::1] status):
    """Score sentence pairs ``k`` of two batches (same length). ``cost``: 0 exact, 1 first-char;
    ``pre``: preterminals 0 auto, 1 keep, 2 drop; ``skip[k]``: too large (set aside).
    ``status[k]`` gets (code, a, b, c): 0 scored (a: its row in ``scores``); 1 no gold tree;
    2 no candidate tree; 3 too large; 4 word counts differ (a gold, b candidate); 5 word a
    (1-based) differs (b gold id, c candidate id). ``features`` (or None) sums the gold
    configurations of the scored words."""
    cdef Py_ssize_t n = len(gold), k, ga, gb, ca, cb, w, nw, i
    cdef _Scratch x = _Scratch()
    cdef int64_t d2, total, mu, ml
    cdef double score
    cdef bint gdrop, cdrop
    cdef Py_ssize_t first_word
    if len(cand) != n or skip.shape[0] != n or status.shape[0] != n or status.shape[1] != 4:
        raise ValueError("batches, skip and status must have one row per sentence")
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
        gdrop = _drop(gold, ga, gb, pre)
        cdrop = _drop(cand, ca, cb, pre)
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
                            x.cs.data + x.co.data[w], x.co.data[w + 1] - x.co.data[w], cost, vocab.first.data,
                            &x.row)
            score = 1.0 - (<double>d2 * 0.5) / <double>total if total else 1.0
            f64_push(&scores.words, score)
            if features is not None:
                features.add_word(x.gs.data + x.go.data[w], x.go.data[w + 1] - x.go.data[w], score)
        status[k, 1] = scores.sums.size
        score = _pairwise(scores.words.data + first_word, nw) if nw else 0.0
        f64_push(&scores.sums, score)
        f64_push(&scores.means, score / nw if nw else NAN)
        i64_push(&scores.word_off, scores.words.size)
        _brackets(gold, ga, gb, gold.outer.data[k], gdrop, vocab, &x.gb)
        _brackets(cand, ca, cb, cand.outer.data[k], cdrop, vocab, &x.cb)
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
    _lineages(t, a, b, _drop(t, a, b, pre), &x.gs, &x.go, &x.gw, &x.path)
    words = [x.gw.data[w] for w in range(x.gw.size)]
    lineages = [[x.gs.data[i] for i in range(x.go.data[w], x.go.data[w + 1])] for w in range(x.gw.size)]
    return words, lineages
