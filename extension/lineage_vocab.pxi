# Growable C arrays and the string vocabulary of spacy_agreement._lineage (included by _lineage.pyx).

cdef struct I32Vec:
    int32_t* data
    Py_ssize_t size
    Py_ssize_t cap

cdef struct I64Vec:
    int64_t* data
    Py_ssize_t size
    Py_ssize_t cap

cdef struct F64Vec:
    double* data
    Py_ssize_t size
    Py_ssize_t cap


cdef int _grow(void** data, Py_ssize_t* cap, Py_ssize_t need, size_t item) except -1 nogil:
    cdef Py_ssize_t new_cap = cap[0] * 2 if cap[0] else 64
    cdef void* p
    while new_cap < need:
        new_cap *= 2
    p = realloc(data[0], <size_t>new_cap * item)
    if p == NULL:
        with gil:
            raise MemoryError()
    data[0] = p
    cap[0] = new_cap
    return 0


cdef inline int i32_push(I32Vec* v, int32_t x) except -1 nogil:
    if v.size == v.cap:
        _grow(<void**>&v.data, &v.cap, v.size + 1, sizeof(int32_t))
    v.data[v.size] = x
    v.size += 1
    return 0


cdef inline int i32_reserve(I32Vec* v, Py_ssize_t need) except -1 nogil:
    if need > v.cap:
        _grow(<void**>&v.data, &v.cap, need, sizeof(int32_t))
    return 0


cdef inline int i64_push(I64Vec* v, int64_t x) except -1 nogil:
    if v.size == v.cap:
        _grow(<void**>&v.data, &v.cap, v.size + 1, sizeof(int64_t))
    v.data[v.size] = x
    v.size += 1
    return 0


cdef inline int f64_push(F64Vec* v, double x) except -1 nogil:
    if v.size == v.cap:
        _grow(<void**>&v.data, &v.cap, v.size + 1, sizeof(double))
    v.data[v.size] = x
    v.size += 1
    return 0


cdef inline uint64_t _fnv(const unsigned char* s, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = 1469598103934665603ULL
    cdef Py_ssize_t i
    for i in range(n):
        h = (h ^ s[i]) * 1099511628211ULL
    return h


cdef struct VSlot:
    uint64_t w0  # the string's first 8 bytes, little-endian, zero past its end
    int32_t id  # -1: an empty slot
    int32_t n  # its length in bytes


cdef bint _LITTLE_ENDIAN
cdef uint32_t _one = 1
_LITTLE_ENDIAN = (<unsigned char*>&_one)[0] == 1


cdef inline uint64_t _head(const unsigned char* s, Py_ssize_t n) noexcept nogil:
    """The first (up to) 8 bytes of s[:n] as a little-endian integer, zero past n."""
    cdef uint64_t w = 0
    cdef Py_ssize_t i
    if n >= 8 and _LITTLE_ENDIAN:
        memcpy(&w, s, 8)
        return w
    for i in range(n if n < 8 else 8):
        w |= (<uint64_t>s[i]) << (8 * i)
    return w


cdef inline uint64_t _vhash(const unsigned char* s, Py_ssize_t n, uint64_t w0) noexcept nogil:
    """The hash of s[:n] whose first 8 bytes are w0 (:func:`_head`)."""
    cdef uint64_t h
    if n > 8:
        return _fnv(s, n)
    h = (w0 * 0x9E3779B97F4A7C15ULL) ^ <uint64_t>n
    h = (h ^ (h >> 32)) * 0xD6E8FEB86659FD93ULL
    return h ^ (h >> 32)


cdef class Vocab:
    """Every distinct string (label or word) of a comparison, interned to an ``int32`` id
    from its UTF-8 bytes in a C hash table, without a Python object per occurrence.
    Ids 0, 1 and 2 are ``[``, ``]`` (the boundary markers of the lineages, Sampson &
    Babarczy 2003, §3: a tree label ``[`` is the same symbol, as in the pure-Python
    lineages) and the empty label. For each string the vocabulary keeps its first
    character (for the ``first-char`` costs) and the id of the string cut at its first
    ``-`` or ``=`` (EVALB's bracket label)."""

    cdef unsigned char* arena
    cdef Py_ssize_t arena_size, arena_cap
    cdef I64Vec offs
    cdef I32Vec lens
    cdef I32Vec first
    cdef I32Vec strip
    cdef VSlot* table
    cdef Py_ssize_t tcap

    def __cinit__(self):
        self.tcap = 1024
        self.table = <VSlot*>malloc(self.tcap * sizeof(VSlot))
        if self.table == NULL:
            raise MemoryError()
        memset(self.table, 0xff, self.tcap * sizeof(VSlot))
        self.intern(<const unsigned char*>b"[", 1)
        self.intern(<const unsigned char*>b"]", 1)
        self.intern(<const unsigned char*>b"", 0)

    def __dealloc__(self):
        free(self.arena)
        free(self.offs.data)
        free(self.lens.data)
        free(self.first.data)
        free(self.strip.data)
        free(self.table)

    def __len__(self):
        return self.lens.size

    cdef int _rehash(self) except -1 nogil:
        cdef Py_ssize_t cap = self.tcap * 2, k, idx, i
        cdef VSlot* table = <VSlot*>malloc(cap * sizeof(VSlot))
        if table == NULL:
            with gil:
                raise MemoryError()
        memset(table, 0xff, cap * sizeof(VSlot))
        for i in range(self.tcap):
            if self.table[i].id == -1:
                continue
            k = self.table[i].id
            idx = <Py_ssize_t>(_vhash(self.arena + self.offs.data[k], self.lens.data[k], self.table[i].w0)
                               & <uint64_t>(cap - 1))
            while table[idx].id != -1:
                idx = (idx + 1) & (cap - 1)
            table[idx] = self.table[i]
        free(self.table)
        self.table = table
        self.tcap = cap
        return 0

    cdef inline int32_t _find(self, const unsigned char* s, Py_ssize_t n, uint64_t w0, Py_ssize_t* slot) noexcept nogil:
        """The id of s[:n] (first 8 bytes w0), or -1 with ``slot`` the free slot for it."""
        cdef Py_ssize_t idx = <Py_ssize_t>(_vhash(s, n, w0) & <uint64_t>(self.tcap - 1))
        cdef VSlot* e
        while True:
            e = &self.table[idx]
            if e.id == -1:
                slot[0] = idx
                return -1
            if e.w0 == w0 and e.n == n and (n <= 8 or memcmp(self.arena + self.offs.data[e.id] + 8, s + 8, n - 8) == 0):
                return e.id
            idx = (idx + 1) & (self.tcap - 1)

    cdef int32_t intern(self, const unsigned char* s, Py_ssize_t n) except -1 nogil:
        cdef uint64_t w0 = _head(s, n)
        cdef Py_ssize_t slot
        cdef int32_t k = self._find(s, n, w0, &slot)
        if k >= 0:
            return k
        return self._add(s, n, w0, slot)

    cdef int32_t intern_token(self, const unsigned char** pp, const unsigned char* end) except -3 nogil:
        """The id of the token at ``pp[0]`` (nltk's [^\\s()]+, maybe empty), ``pp[0]`` moved past
        it; -1 at a \\( or \\) escape (left to the Python reader)."""
        cdef const unsigned char* p = pp[0]
        cdef const unsigned char* q = _token_end(p, end)
        cdef Py_ssize_t n, slot
        cdef uint64_t w0
        cdef int32_t k
        if q == NULL:
            return -1
        n = q - p
        if n < 8 and p + 8 <= end and _LITTLE_ENDIAN:
            memcpy(&w0, p, 8)
            w0 &= (<uint64_t>1 << (8 * n)) - 1
        else:
            w0 = _head(p, n)
        pp[0] = q
        k = self._find(p, n, w0, &slot)
        if k >= 0:
            return k
        return self._add(p, n, w0, slot)

    cdef int32_t _add(self, const unsigned char* s, Py_ssize_t n, uint64_t w0, Py_ssize_t slot) except -1 nogil:
        """A new string s[:n] in free ``slot`` of the table: its id."""
        cdef int32_t new_id, cut_id
        cdef Py_ssize_t p
        cdef int32_t lead
        if self.lens.size >= 2147483000 or n > 2147483000:
            with gil:
                raise MemoryError("too many distinct labels and words")
        new_id = <int32_t>self.lens.size
        if self.arena_size + n > self.arena_cap:
            _grow(<void**>&self.arena, &self.arena_cap, self.arena_size + n, 1)
        if n:
            memcpy(self.arena + self.arena_size, s, n)
        i64_push(&self.offs, self.arena_size)
        self.arena_size += n
        i32_push(&self.lens, <int32_t>n)
        self.table[slot].w0 = w0
        self.table[slot].id = new_id
        self.table[slot].n = <int32_t>n
        # the first character, as its UTF-8 bytes packed in an int (-1: the empty string)
        lead = -1
        if n:
            lead = s[0]
            p = 1
            while p < n and p < 4 and (s[p] & 0xC0) == 0x80:
                lead = (lead << 8) | s[p]
                p += 1
        i32_push(&self.first, lead)
        i32_push(&self.strip, new_id)
        if 2 * self.lens.size > self.tcap:
            self._rehash()
        for p in range(n):  # EVALB: a bracket label loses everything from its first - or =
            if s[p] == 45 or s[p] == 61:
                cut_id = self.intern(s, p)
                self.strip.data[new_id] = cut_id
                break
        return new_id

    def id(self, text):
        """The id of ``text`` (a ``str``), interned if new."""
        cdef bytes data = text.encode("utf-8", "surrogatepass")
        return self.intern(<const unsigned char*>data, len(data))

    def string(self, Py_ssize_t k):
        """The string of id ``k``."""
        if k < 0 or k >= self.lens.size:
            raise IndexError(k)
        if self.lens.data[k] == 0:
            return ""
        return (self.arena + self.offs.data[k])[:self.lens.data[k]].decode("utf-8", "surrogatepass")

    def strings(self, ids):
        """The strings of some ids, as a tuple."""
        return tuple(self.string(k) for k in ids)
