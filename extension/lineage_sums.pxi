# numpy's pairwise summation of float64 for spacy_agreement._lineage (included by _lineage.pyx): over an
# array (a sentence's word scores), and over values read back in order from a file, their count known
# only at the end (a corpus's word scores and sentence means: evaluation/leaf_ancestor_fast.PairwiseSum).


cdef double _pairwise(const double* a, Py_ssize_t n) noexcept nogil:
    """numpy's pairwise summation of float64 (what np.sum and np.mean add up), bit for bit."""
    cdef double r0, r1, r2, r3, r4, r5, r6, r7, res
    cdef Py_ssize_t i, n2
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i]
        return res
    if n <= 128:
        r0 = a[0]; r1 = a[1]; r2 = a[2]; r3 = a[3]; r4 = a[4]; r5 = a[5]; r6 = a[6]; r7 = a[7]
        i = 8
        while i < n - (n % 8):
            r0 += a[i]; r1 += a[i + 1]; r2 += a[i + 2]; r3 += a[i + 3]
            r4 += a[i + 4]; r5 += a[i + 5]; r6 += a[i + 6]; r7 += a[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise(a, n2) + _pairwise(a + n2, n - n2)


def pairwise_sum(const double[::1] values):
    """numpy's pairwise sum of ``values`` (for the tests)."""
    if values.shape[0] == 0:
        return 0.0
    return _pairwise(&values[0], values.shape[0])


cdef class _Stream:
    """float64 values read in order from ``read(nbytes)`` (a file's read), through a buffer."""

    cdef object read
    cdef char* buf
    cdef Py_ssize_t cap, pos, end  # in bytes

    def __cinit__(self, read):
        self.read = read
        self.cap = 1 << 19
        self.buf = <char*>malloc(self.cap)
        if self.buf == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.buf)

    cdef const double* take(self, Py_ssize_t n) except NULL:
        """The next ``n`` values (n <= 128), contiguous in the buffer."""
        cdef Py_ssize_t need = n * <Py_ssize_t>sizeof(double), got
        cdef const double* out
        cdef bytes data
        if self.end - self.pos < need:
            memmove(self.buf, self.buf + self.pos, self.end - self.pos)
            self.end -= self.pos
            self.pos = 0
            while self.end < need:
                data = self.read(self.cap - self.end)
                got = len(data)
                if got == 0:
                    raise EOFError("fewer values than counted")
                memcpy(self.buf + self.end, <const char*>data, got)
                self.end += got
        out = <const double*>(self.buf + self.pos)
        self.pos += need
        return out


cdef double _pairwise_stream(_Stream s, Py_ssize_t n) except? -1.0:
    """_pairwise over the next ``n`` values of ``s``: numpy's split (halves rounded down to a
    multiple of 8, blocks of at most 128), the blocks read one after the other."""
    cdef double left, right
    cdef Py_ssize_t n2
    if n <= 128:
        return _pairwise(s.take(n), n) if n else 0.0
    n2 = n // 2
    n2 -= n2 % 8
    left = _pairwise_stream(s, n2)  # in order: the values come as the stream gives them
    right = _pairwise_stream(s, n - n2)
    return left + right


def pairwise_stream(read, Py_ssize_t n):
    """numpy's pairwise sum (np.sum, bit for bit) of ``n`` float64 values read in order, in
    native byte order, from ``read(nbytes)`` (a binary file's read), holding 512 KiB at a time."""
    if n < 0:
        raise ValueError(n)
    return _pairwise_stream(_Stream(read), n)
