# Bracket files read in blocks (included by _evalb.pyx): the lines EVALB reads, as
# spacy_agreement.adapters.evalb_files.file_lines gives them, without a Python object per line.


cdef class LineReader:
    """The lines of a bracket file, one at a time, as byte spans (no ``\\n``; a last line
    without ``\\n`` is a line, an empty file has none: ``file_lines``' rule).

    ``LineReader(path)`` reads the file in blocks of 1 MiB (a line longer than the block
    grows it); ``LineReader(lines=[...])`` gives the ``bytes`` of a list (the lines of a
    multi-line ``.mrg`` file, joined one tree a line by ``file_lines``). A span is valid
    until the next call."""

    cdef object handle
    cdef bytearray buf
    cdef Py_ssize_t begin, end
    cdef bint eof
    cdef list lines
    cdef Py_ssize_t index
    cdef bytes current
    cdef readonly object path

    def __init__(self, path=None, lines=None):
        self.path = path
        if lines is not None:
            self.lines = list(lines)
            for line in self.lines:
                if not isinstance(line, bytes):
                    raise TypeError(f"LineReader: lines must be bytes, not {type(line).__name__}")
            self.eof = True
        else:
            self.handle = open(path, "rb", buffering=0)
            self.buf = bytearray(BLOCK)
        self.begin = self.end = self.index = 0

    def close(self):
        if self.handle is not None:
            self.handle.close()
            self.handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    cdef int _fill(self) except -1:
        """Move the unread bytes to the front and read a block after them."""
        cdef char* data = PyByteArray_AS_STRING(self.buf)
        cdef Py_ssize_t size = PyByteArray_GET_SIZE(self.buf)
        if self.begin > 0:
            memmove(data, data + self.begin, self.end - self.begin)
            self.end -= self.begin
            self.begin = 0
        if self.end == size:  # a line longer than the buffer
            PyByteArray_Resize(self.buf, 2 * size)
        view = memoryview(self.buf)[self.end:]
        try:
            got = self.handle.readinto(view)
        finally:
            view.release()
        if not got:
            self.eof = True
            self.close()
        else:
            self.end += got
        return 0

    cdef int take(self, const char** line, Py_ssize_t* n) except -1:
        """1 and the next line in ``line``/``n``, 0 at the end of the file."""
        cdef char* data
        cdef const char* nl
        if self.lines is not None:
            if self.index >= len(self.lines):
                return 0
            self.current = <bytes>self.lines[self.index]
            self.index += 1
            line[0] = PyBytes_AS_STRING(self.current)
            n[0] = PyBytes_GET_SIZE(self.current)
            return 1
        while True:
            data = PyByteArray_AS_STRING(self.buf)
            nl = <const char*>memchr(data + self.begin, b'\n', self.end - self.begin)
            if nl != NULL:
                line[0] = data + self.begin
                n[0] = nl - (data + self.begin)
                self.begin = nl - data + 1
                return 1
            if self.eof:
                if self.end > self.begin:
                    line[0] = data + self.begin
                    n[0] = self.end - self.begin
                    self.begin = self.end
                    return 1
                return 0
            self._fill()

    def __iter__(self):
        """The lines as ``bytes`` (for tests and the rare Python uses)."""
        cdef const char* line
        cdef Py_ssize_t n
        while self.take(&line, &n):
            yield PyBytes_FromStringAndSize(line, n)


cdef signed char JOIN_DEPTH[256]  # needs_joining: ( and ) change the depth; text; newlines
cdef unsigned char JOIN_TEXT[256]
cdef unsigned char JOIN_NEWLINE[256]
for _c in range(256):
    JOIN_DEPTH[_c] = 1 if _c == 40 else (-1 if _c == 41 else 0)
    JOIN_TEXT[_c] = CLASS[_c] == 0
    JOIN_NEWLINE[_c] = _c == 10


cdef extern from *:
    """
    /* The depth change of n bytes: ( less ) (a loop the compiler vectorises). */
    static long long evalb_bracket_balance(const unsigned char *p, size_t n) {
        long long s = 0;
        size_t i = 0;
        while (i < n) {  /* in runs of at most 2^24 bytes, so that an int sum cannot overflow */
            size_t end = n - i > ((size_t)1 << 24) ? i + ((size_t)1 << 24) : n;
            int t = 0;
            for (; i < end; i++) t += (p[i] == 40) - (p[i] == 41);
            s += t;
        }
        return s;
    }

    /* 1 where every line break of these n bytes comes at depth 0 (``depth``: the depth at their
     * start in, at their end out), 0 at the first that does not. */
    static int evalb_breaks_at_depth0(const unsigned char *p, size_t n, long long *depth) {
        const unsigned char *end = p + n, *nl;
        while ((nl = (const unsigned char *)memchr(p, 10, (size_t)(end - p))) != NULL) {
            *depth += evalb_bracket_balance(p, (size_t)(nl - p));
            if (*depth != 0) return 0;
            p = nl + 1;
        }
        *depth += evalb_bracket_balance(p, (size_t)(end - p));
        return 1;
    }
    """
    long long evalb_bracket_balance(const unsigned char* p, size_t n) nogil
    int evalb_breaks_at_depth0(const unsigned char* p, size_t n, long long* depth) nogil


def needs_joining(path) -> bool:
    """Whether ``file_lines`` joins the file's lines. ``False`` at once where every line break
    comes at depth 0 (the depth at a break is the sum of the lines' ( less ) before it, whatever
    the depth between: then no break is inside a tree, the common file of a tree a line),
    counted a line at a time without a branch per byte; else ``_needs_joining_exact``."""
    cdef long long depth = 0
    cdef Py_ssize_t n
    with open(path, "rb", buffering=0) as handle:
        block = bytearray(BLOCK)
        while True:
            n = handle.readinto(block) or 0
            if n == 0:
                return False
            if not evalb_breaks_at_depth0(<const unsigned char*>PyByteArray_AS_STRING(block), n, &depth):
                break
    return _needs_joining_exact(path)


def _needs_joining_exact(path) -> bool:
    """Whether ``file_lines`` joins the file's lines (trees spread over lines, as in the Penn
    Treebank's ``.mrg``): every bracket balanced, nothing but blanks outside the trees, and a
    line break inside a tree. The same test as ``evalb_files._join_trees``, in blocks, without
    a branch per byte (a block is checked once it is scanned)."""
    cdef Py_ssize_t depth = 0, k, n
    cdef int multi = 0, negative = 0, outside = 0, inside
    cdef const unsigned char* data
    cdef unsigned char c
    with open(path, "rb", buffering=0) as handle:
        block = bytearray(BLOCK)
        while True:
            n = handle.readinto(block) or 0
            if n == 0:
                break
            data = <const unsigned char*>PyByteArray_AS_STRING(block)
            for k in range(n):
                c = data[k]
                inside = depth > 0
                outside |= JOIN_TEXT[c] & (inside ^ 1)  # text outside a tree (before its "(" counts)
                multi |= JOIN_NEWLINE[c] & inside
                depth += JOIN_DEPTH[c]
                negative |= depth < 0
            if negative or outside:
                return False
    return multi != 0 and depth == 0
