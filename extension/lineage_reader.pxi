# The bracketed-tree reader of spacy_agreement._lineage (included by _lineage.pyx): one pass that
# finds how the file is split into sentences (Scanner) and one that reads the sentences into
# compact postorder arrays (Batch, parse_units), as spacy_agreement.adapters.brackets reads them
# with leaves="categories" and missing=True (nltk's Tree.fromstring on each sentence).

DEF NLTK_MAX_DEPTH = 500  # nltk.tree.tree.MAX_TREE_DEPTH: nltk refuses len(stack) > 500

cdef unsigned char CLS[256]  # 0 token byte, 1 blank, 2 line end, 3 '(', 4 ')', 5 may start a Unicode blank, 6 '\\'
cdef int _c
for _c in range(256):
    CLS[_c] = 0
for _c in (9, 11, 12, 28, 29, 30, 31, 32):
    CLS[_c] = 1
CLS[10] = CLS[13] = 2
CLS[40] = 3
CLS[41] = 4
CLS[0xC2] = CLS[0xE1] = CLS[0xE2] = CLS[0xE3] = 5
CLS[92] = 6


cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int la_ctz64(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #else
    static inline int la_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    #define LA_ONES 0x0101010101010101ULL
    #define LA_HIGH 0x8080808080808080ULL
    """
    int la_ctz64(unsigned long long x) nogil
    const uint64_t ONES "LA_ONES"
    const uint64_t HIGH "LA_HIGH"


cdef inline uint64_t _stops(uint64_t x) noexcept nogil:
    """The bytes of 8 (little-endian) that may end a token: below 0x21, '(' or ')', '\\' or
    0x80 and above; exact up to the first one (bytes past it may be flagged wrongly)."""
    cdef uint64_t paren = (x | ONES) ^ (ONES * 0x29)
    cdef uint64_t slash = x ^ (ONES * 0x5C)
    return (((x - ONES * 0x21) & ~x) | ((paren - ONES) & ~paren) | ((slash - ONES) & ~slash) | x) & HIGH


cdef inline const unsigned char* _token_end(const unsigned char* q, const unsigned char* end) noexcept nogil:
    """The end of the token at q (nltk's [^\\s()]+); NULL at a \\( or \\) escape. Eight bytes
    at a time (on little-endian machines) up to the first that may end it, then as the byte says."""
    cdef unsigned char cl
    cdef uint64_t x, m
    while q < end:
        if _LITTLE_ENDIAN and q + 8 <= end:
            memcpy(&x, q, 8)
            m = _stops(x)
            if m == 0:
                q += 8
                continue
            q += la_ctz64(m) >> 3
        cl = CLS[q[0]]
        if cl == 0:
            q += 1
        elif cl == 5:
            if ws_len(q, end):
                return q
            q += 1
        elif cl == 6:
            if q + 1 < end and (q[1] == 40 or q[1] == 41):
                return NULL
            q += 1
        else:
            return q
    return q


cdef inline int ws_len(const unsigned char* p, const unsigned char* end) noexcept nogil:
    """Bytes of the Unicode whitespace character (Python's str.isspace) at p, or 0."""
    cdef unsigned char c = p[0]
    if c == 32 or (9 <= c <= 13) or (28 <= c <= 31):
        return 1
    if c < 0x80:
        return 0
    if c == 0xC2 and p + 1 < end and (p[1] == 0x85 or p[1] == 0xA0):
        return 2
    if p + 2 >= end:
        return 0
    if c == 0xE1 and p[1] == 0x9A and p[2] == 0x80:
        return 3
    if c == 0xE2:
        if p[1] == 0x80 and ((0x80 <= p[2] <= 0x8A) or p[2] == 0xA8 or p[2] == 0xA9 or p[2] == 0xAF):
            return 3
        if p[1] == 0x81 and p[2] == 0x9F:
            return 3
    if c == 0xE3 and p[1] == 0x80 and p[2] == 0x80:
        return 3
    return 0


cdef class Scanner:
    """First pass over a bracket file, fed in blocks that end after a ``\\n``: whether it is
    one tree a line (every line balanced, one tree on each non-blank line: a line is a
    sentence and a blank line a failed parse) or trees spread over lines (the trees are the
    sentences), how many sentences each reading gives and the last one that is not a failed
    parse (a blank line, or a tree without words such as ``()`` or ``(())``). ``mode()`` is
    1 (lines), 2 (trees) or 0 (the file is malformed: the Python reader says how)."""

    cdef int64_t lines, last_line, chunks, last_chunk
    cdef int64_t line_depth, depth
    cdef bint line_has, line_neg, line_multi, one_per_line, line_outside, tree_bad
    cdef int line_chunks
    cdef bint lc_text, lc_reopen, lc_closed, tc_text, tc_reopen, tc_closed
    cdef bint pending_line

    def __cinit__(self):
        self.one_per_line = True
        self.last_line = -1
        self.last_chunk = -1

    cdef void _end_line(self) noexcept:
        if self.line_depth != 0 or self.line_neg:
            self.one_per_line = False
        if self.line_chunks > 1:
            self.line_multi = True
        if self.line_chunks == 1 and (self.lc_text or self.lc_reopen):
            self.last_line = self.lines
        self.lines += 1
        self.line_depth = 0
        self.line_neg = False
        self.line_chunks = 0
        self.pending_line = False

    def feed(self, const unsigned char[::1] buf):
        cdef Py_ssize_t i = 0, n = buf.shape[0]
        cdef const unsigned char* p
        cdef const unsigned char* end
        cdef unsigned char c
        cdef int w
        if n == 0:
            return
        p = &buf[0]
        end = p + n
        while p < end:
            c = p[0]
            if CLS[c] == 1:
                self.pending_line = True
                p += 1
                continue
            if CLS[c] == 0 or CLS[c] == 6:
                if self.line_depth <= 0:
                    self.line_outside = True
                else:
                    self.lc_text = True
                if self.depth == 0:
                    self.tree_bad = True
                else:
                    self.tc_text = True
                self.pending_line = True
                p += 1
                while p < end and (CLS[p[0]] == 0 or CLS[p[0]] == 6):
                    p += 1
                continue
            if c == 10 or c == 13:
                if c == 13 and p + 1 < end and p[1] == 10:
                    p += 1
                self._end_line()
                p += 1
                continue
            self.pending_line = True
            if c == 40:  # (
                if self.line_depth == 0:
                    self.line_chunks += 1
                    self.lc_text = self.lc_reopen = self.lc_closed = False
                elif self.lc_closed:
                    self.lc_reopen = True
                self.line_depth += 1
                if self.depth == 0:
                    self.chunks += 1
                    self.tc_text = self.tc_reopen = self.tc_closed = False
                elif self.tc_closed:
                    self.tc_reopen = True
                self.depth += 1
                p += 1
            elif c == 41:  # )
                self.line_depth -= 1
                if self.line_depth < 0:
                    self.line_neg = True
                self.lc_closed = True
                self.depth -= 1
                if self.depth < 0:
                    self.tree_bad = True
                    self.depth = 0
                self.tc_closed = True
                if self.depth == 0 and (self.tc_text or self.tc_reopen):
                    self.last_chunk = self.chunks - 1
                p += 1
            else:
                w = ws_len(p, end)
                if w:
                    p += w
                    continue
                if self.line_depth <= 0:
                    self.line_outside = True
                else:
                    self.lc_text = True
                if self.depth == 0:
                    self.tree_bad = True
                else:
                    self.tc_text = True
                p += 1

    def finish(self):
        """The reading: (mode, sentences, index of the last present sentence or -1)."""
        if self.pending_line:
            self._end_line()
        if self.one_per_line and not self.line_outside and not self.line_multi:
            return 1, self.lines, self.last_line
        if (not self.one_per_line or self.line_multi) and not self.tree_bad and self.depth == 0:
            return 2, self.chunks, self.last_chunk
        return 0, 0, -1


cdef struct Node:
    int32_t parent  # index in the sentence, -1 at the root
    int32_t label  # Vocab id
    int32_t nkids
    int32_t first  # first and last leaf (word index) under the node
    int32_t last
    int32_t strip  # the label's id cut at its first - or = (Vocab.strip), -1: look it up


cdef struct Frame:
    int32_t label
    int32_t strip
    int32_t first
    int32_t kids  # where the node's children start on the stack of finished nodes


cdef class Batch:
    """Sentences read from a bracket file (or taken from trees) as postorder arrays: for each
    node (:c:type:`Node`) its parent (-1 at the root), label id (:class:`Vocab`), number of
    children and first and last leaf; for each sentence its first node, line, byte offset in
    its file, unlabelled outer brackets and whether it is present (0: a failed parse)."""

    cdef I64Vec node_off, line, start, stop
    cdef I32Vec outer, present, penn
    cdef bint tree_penn  # whether the tree _parse_tree read last is Penn style
    cdef Node* nodes
    cdef Py_ssize_t nn, ncap
    cdef I32Vec kidstack
    cdef Frame* frames
    cdef Py_ssize_t fcap

    def __cinit__(self):
        i64_push(&self.node_off, 0)

    def __dealloc__(self):
        free(self.node_off.data); free(self.line.data); free(self.start.data); free(self.stop.data)
        free(self.outer.data); free(self.present.data); free(self.penn.data)
        free(self.nodes); free(self.kidstack.data); free(self.frames)

    def clear(self):
        self.node_off.size = 1
        self.line.size = self.start.size = self.stop.size = 0
        self.outer.size = self.present.size = self.penn.size = 0
        self.nn = 0

    def __len__(self):
        return self.present.size

    cdef int _end_sentence(self, int64_t line, int64_t start, int64_t stop, int32_t outer,
                           int32_t present, bint penn=False) except -1 nogil:
        """The sentence whose nodes were added last; ``penn``: every leaf is the only child
        of its parent (lineage.is_penn_style)."""
        i64_push(&self.node_off, self.nn)
        i32_push(&self.penn, penn)
        i64_push(&self.line, line)
        i64_push(&self.start, start)
        i64_push(&self.stop, stop)
        i32_push(&self.outer, outer)
        i32_push(&self.present, present)
        return 0

    cdef int _grow_nodes(self, Py_ssize_t need) except -1 nogil:
        _grow(<void**>&self.nodes, &self.ncap, need, sizeof(Node))
        return 0

    cdef inline int _node(self, int32_t label, int32_t nkids, int32_t first, int32_t last,
                          int32_t strip=-1) except -1 nogil:
        cdef Node* n
        if self.nn == self.ncap:
            self._grow_nodes(self.nn + 1)
        n = &self.nodes[self.nn]
        n.parent = -1
        n.label = label
        n.nkids = nkids
        n.first = first
        n.last = last
        n.strip = strip
        self.nn += 1
        return 0

    def add_missing(self, int64_t line=0):
        """A failed parse (no tree)."""
        self._end_sentence(line, 0, 0, 0, 0)

    def add_tree(self, const int32_t[::1] labels, const int32_t[::1] parent, const int32_t[::1] spans,
                 int32_t outer, int64_t line=0):
        """A tree given as postorder arrays (label ids, parents, spans as 2n first/last leaf)."""
        cdef Py_ssize_t n = labels.shape[0], i, base = self.nn
        cdef int32_t p
        if parent.shape[0] != n or spans.shape[0] != 2 * n or n == 0:
            raise ValueError("labels, parent and spans (2 per node) must describe a non-empty tree")
        for i in range(n):
            self._node(labels[i], 0, spans[2 * i], spans[2 * i + 1])
        for i in range(n):
            p = parent[i]
            if p >= 0:
                if p <= i or p >= n:
                    self.nn = base
                    raise ValueError("parents must follow their children (postorder)")
                self.nodes[base + i].parent = p
                self.nodes[base + p].nkids += 1
            elif i != n - 1:
                self.nn = base
                raise ValueError("only the last node may be the root")
        self._end_sentence(line, 0, 0, outer, 1, _penn_style(self, base, self.nn))

    def sentence(self, Py_ssize_t k):
        """Sentence ``k`` as (present, line, outer, label ids, parents, nkids, first, last)."""
        if k < 0 or k >= self.present.size:
            raise IndexError(k)
        cdef Py_ssize_t a = self.node_off.data[k], b = self.node_off.data[k + 1], i
        return (bool(self.present.data[k]), self.line.data[k], self.outer.data[k],
                [self.nodes[i].label for i in range(a, b)], [self.nodes[i].parent for i in range(a, b)],
                [self.nodes[i].nkids for i in range(a, b)], [self.nodes[i].first for i in range(a, b)],
                [self.nodes[i].last for i in range(a, b)])

    def node_counts(self):
        """Nodes per sentence (int64 array)."""
        out = np.empty(self.present.size, dtype=np.int64)
        cdef int64_t[::1] o = out
        cdef Py_ssize_t k
        for k in range(self.present.size):
            o[k] = self.node_off.data[k + 1] - self.node_off.data[k]
        return out

    def lines(self):
        out = np.empty(self.line.size, dtype=np.int64)
        cdef int64_t[::1] o = out
        cdef Py_ssize_t k
        for k in range(self.line.size):
            o[k] = self.line.data[k]
        return out

    def byte_range(self, Py_ssize_t k):
        """(start, stop) of sentence ``k`` in the buffer it was read from."""
        return self.start.data[k], self.stop.data[k]

    cdef int _parse_tree(self, Vocab vocab, const unsigned char* p0, const unsigned char* end,
                         Py_ssize_t* used, int64_t* newlines) except -2 nogil:
        """One tree from the '(' at p0 with nltk's tokens: '(' and the label after it (after
        blanks), ')', and words. Returns 1 (read; used = bytes), 0 (the buffer ends inside the
        tree), -1 (malformed or beyond nltk's depth: the Python reader gives the error)."""
        cdef const unsigned char* p = p0
        cdef const unsigned char* q
        cdef Py_ssize_t base = self.nn, depth = 0, kids, k, root
        cdef int64_t nl = 0, n_leaves = 0
        cdef int w
        cdef unsigned char c, cl
        cdef Py_ssize_t idx, j
        cdef int32_t lab, outer
        cdef Frame* fr
        cdef Node* nd
        cdef int32_t* ks
        cdef bint penn = True
        self.kidstack.size = 0
        while True:
            if p >= end:
                self.nn = base
                return 0
            c = p[0]
            cl = CLS[c]
            if cl == 1:
                p += 1
                continue
            if cl == 3:  # '(' then blanks, then the label if any
                p += 1
                while p < end:
                    if CLS[p[0]] == 0:
                        break
                    if p[0] == 10 or p[0] == 13:
                        if p[0] == 13 and p + 1 < end and p[1] == 10:
                            p += 1
                        nl += 1
                        p += 1
                        continue
                    w = ws_len(p, end)
                    if not w:
                        break
                    p += w
                lab = vocab.intern_token(&p, end)
                if lab < 0:
                    self.nn = base
                    return -1  # nltk keeps \( and \) in tokens: left to the Python reader
                if depth == self.fcap:
                    _grow(<void**>&self.frames, &self.fcap, depth + 1, sizeof(Frame))
                fr = &self.frames[depth]
                fr.label = lab
                fr.strip = vocab.strip.data[lab]
                fr.first = <int32_t>n_leaves
                fr.kids = <int32_t>self.kidstack.size
                depth += 1
                if depth >= NLTK_MAX_DEPTH:
                    self.nn = base
                    return -1
            elif cl == 4:  # ')'
                if depth == 0:
                    self.nn = base
                    return -1
                depth -= 1
                p += 1
                fr = &self.frames[depth]
                k = fr.kids
                kids = self.kidstack.size - k
                idx = self.nn - base
                if n_leaves >= 2147483000 or idx >= 2147483000:
                    with gil:
                        raise MemoryError("a tree of over 2**31 nodes")
                if kids == 0:
                    self._node(fr.label, 0, <int32_t>n_leaves, <int32_t>n_leaves)
                    n_leaves += 1
                else:
                    self._node(fr.label, <int32_t>kids, fr.first, <int32_t>(n_leaves - 1), fr.strip)
                    nd = self.nodes + base
                    ks = self.kidstack.data
                    for j in range(k, self.kidstack.size):
                        nd[ks[j]].parent = <int32_t>idx
                        if kids != 1 and nd[ks[j]].nkids == 0:
                            penn = False
                self.kidstack.size = k
                i32_push(&self.kidstack, <int32_t>idx)
                if depth == 0:
                    break
            elif cl == 2:
                if c == 13 and p + 1 < end and p[1] == 10:
                    p += 1
                nl += 1
                p += 1
            else:
                if cl == 5:
                    w = ws_len(p, end)
                    if w:
                        p += w
                        continue
                if depth == 0:
                    self.nn = base
                    return -1
                lab = vocab.intern_token(&p, end)
                if lab < 0:
                    self.nn = base
                    return -1  # nltk keeps \( and \) in tokens: left to the Python reader
                idx = self.nn - base
                self._node(lab, 0, <int32_t>n_leaves, <int32_t>n_leaves)
                n_leaves += 1
                i32_push(&self.kidstack, <int32_t>idx)
        # the unlabelled outer brackets ( (S ...) ): the root's only child, in postorder just before it
        root = self.nn - 1
        outer = 0
        while self.nodes[root].label == 2 and self.nodes[root].nkids == 1:
            root -= 1
            outer += 1
        self.nn = root + 1
        self.nodes[root].parent = -1
        used[0] = p - p0
        newlines[0] = nl
        self.tree_penn = penn
        return 1 + outer

    cdef void _truncate(self, Py_ssize_t size) noexcept nogil:
        self.nn = size


def parse_units(Batch batch, Vocab vocab, const unsigned char[::1] buf, Py_ssize_t pos, int mode, bint eof,
                Py_ssize_t max_units, int64_t line, int64_t base_offset):
    """Read up to ``max_units`` sentences from ``buf[pos:]`` into ``batch``: lines (mode 1) or
    trees (mode 2), as the first pass (:class:`Scanner`) found the file; ``line`` is the
    file line at ``pos`` and ``base_offset`` the file offset of ``buf``. Stops before a
    sentence the buffer does not hold whole (unless ``eof``). Returns (sentences read, new
    pos, new line, ok); ``ok`` is False on a malformed sentence, which is left unread."""
    cdef Py_ssize_t n = buf.shape[0], used = 0, count = 0
    cdef const unsigned char* b
    cdef const unsigned char* p
    cdef const unsigned char* end
    cdef const unsigned char* eol
    cdef const unsigned char* next_line
    cdef const unsigned char* start
    cdef int64_t nl = 0
    cdef int r, w
    cdef int64_t tree_line
    if n == 0 or pos >= n:
        return 0, pos, line, True
    cdef const unsigned char* fail = NULL  # the start of a malformed sentence, left unread
    with nogil:
        b = &buf[0]
        p = b + pos
        end = b + n
        while count < max_units and p < end:
            if mode == 1:
                eol = p
                while eol < end and eol[0] != 10 and eol[0] != 13:
                    eol += 1
                if (eol >= end or (eol[0] == 13 and eol + 1 >= end)) and not eof:
                    break  # the line (or its \r\n) may go on in the next block
                next_line = eol
                if next_line < end:
                    if next_line[0] == 13 and next_line + 1 < end and next_line[1] == 10:
                        next_line += 1
                    next_line += 1
                start = p
                while p < eol:
                    w = ws_len(p, eol)
                    if not w:
                        break
                    p += w
                if p == eol:
                    batch._end_sentence(line, start - b + base_offset, next_line - b + base_offset, 0, 0)
                else:
                    if p[0] != 40:
                        fail = start
                        break
                    r = batch._parse_tree(vocab, p, eol, &used, &nl)
                    if r <= 0:
                        fail = start
                        break
                    p += used
                    while p < eol:
                        w = ws_len(p, eol)
                        if not w:
                            fail = start
                            break
                        p += w
                    if fail != NULL:
                        break
                    batch._end_sentence(line, start - b + base_offset, next_line - b + base_offset, r - 1,
                                        _present(batch), batch.tree_penn)
                line += 1
                p = next_line
                count += 1
            else:
                start = p
                tree_line = line
                while p < end:  # blanks and blank lines between trees
                    if p[0] == 13 and p + 1 >= end and not eof:
                        p = end
                        break
                    if p[0] == 10 or p[0] == 13:
                        if p[0] == 13 and p + 1 < end and p[1] == 10:
                            p += 1
                        tree_line += 1
                        p += 1
                        continue
                    w = ws_len(p, end)
                    if not w:
                        break
                    p += w
                if p >= end:
                    if eof:
                        line = tree_line
                    else:
                        p = start
                    break
                if p[0] != 40:
                    fail = start
                    break
                r = batch._parse_tree(vocab, p, end, &used, &nl)
                if r == 0:
                    if eof:
                        fail = start
                        break
                    p = start
                    break
                if r < 0:
                    fail = start
                    break
                batch._end_sentence(tree_line, p - b + base_offset, p + used - b + base_offset, r - 1,
                                    _present(batch), batch.tree_penn)
                p += used
                line = tree_line + nl
                count += 1
    if fail != NULL:
        return count, fail - b, line, False
    return count, p - b, line, True


cdef int32_t _present(Batch batch) except -1 nogil:
    """Whether the tree just read has words: inside its outer brackets, ``()`` is a failed
    parse (EVALB's skip); its nodes are dropped."""
    cdef Py_ssize_t base = batch.node_off.data[batch.node_off.size - 1]
    if batch.nn - base == 1 and batch.nodes[base].label == 2:
        batch._truncate(base)
        return 0
    return 1
