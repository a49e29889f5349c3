# EVALB's rows and main loop (included by _evalb.pyx): the per-sentence table kept compactly,
# formatted with EVALB's printf formats, and the loop over the line pairs of two files.

cdef extern from *:
    """
    #include <math.h>
    /* An int right-aligned in at least `width` characters (printf's %<width>d) for v >= 0. */
    static inline char *evalb_put_int(char *p, int v, int width) {
        char digits[12];
        int k = 0;
        unsigned int u = (unsigned int)v;
        do { digits[k++] = (char)('0' + u % 10); u /= 10; } while (u);
        for (; width > k; width--) *p++ = ' ';
        while (k) *p++ = digits[--k];
        return p;
    }

    /* printf's %6.2f of y >= 0, or NULL where this cannot be sure to give printf's digits: printf
     * rounds the exact binary value of y to nearest (ties to even); z = 100 y is within a few
     * units in the last place of 100 times that value, so its nearest integer is the same
     * wherever z lies farther than 1e-6 from a half (closer, or y negative, huge or not a number:
     * NULL, and the row goes to snprintf). */
    static inline char *evalb_put_fixed2(char *p, double y) {
        double z, f, frac;
        long long n;
        char digits[24];
        int k = 0, width = 6;
        if (!(y >= 0.0) || y > 1e7) return NULL;  /* z < 2^30: half an ulp of z is under 1e-7 */
        z = y * 100.0;
        f = floor(z);
        frac = z - f;
        if (fabs(frac - 0.5) < 1e-6) return NULL;
        n = (long long)f + (frac > 0.5);
        digits[k++] = (char)('0' + n % 10); n /= 10;
        digits[k++] = (char)('0' + n % 10); n /= 10;
        digits[k++] = '.';
        do { digits[k++] = (char)('0' + n % 10); n /= 10; } while (n);
        for (; width > k; width--) *p++ = ' ';
        while (k) *p++ = digits[--k];
        return p;
    }

    /* EVALB's row: printf("%4d  %3d    %d  %6.2f %6.2f   %3d    %3d  %3d    %3d   %4d  %4d   %6.2f\\n"),
     * written digit by digit (printf's own formatting took a sixth of the run), snprintf where
     * a figure may round differently (evalb_put_fixed2) or a number is negative. */
    static int evalb_format_row(char *out, size_t size, const int *r) {
        double recall = r[4] > 0 ? 100.0 * r[3] / r[4] : 0.0;
        double precision = r[5] > 0 ? 100.0 * r[3] / r[5] : 0.0;
        double tags = r[7] > 0 ? 100.0 * r[8] / r[7] : 0.0;
        char *p = out;
        int k, fast = size >= 256;
        for (k = 0; k < 9; k++) fast &= r[k] >= 0;
        if (fast) {
            p = evalb_put_int(p, r[0], 4); *p++ = ' '; *p++ = ' ';
            p = evalb_put_int(p, r[1], 3); memcpy(p, "    ", 4); p += 4;
            p = evalb_put_int(p, r[2], 1); *p++ = ' '; *p++ = ' ';
            p = evalb_put_fixed2(p, recall);
            if (p != NULL) { *p++ = ' '; p = evalb_put_fixed2(p, precision); }
            if (p != NULL) {
                memcpy(p, "   ", 3); p += 3;
                p = evalb_put_int(p, r[3], 3); memcpy(p, "    ", 4); p += 4;
                p = evalb_put_int(p, r[4], 3); *p++ = ' '; *p++ = ' ';
                p = evalb_put_int(p, r[5], 3); memcpy(p, "    ", 4); p += 4;
                p = evalb_put_int(p, r[6], 3); memcpy(p, "   ", 3); p += 3;
                p = evalb_put_int(p, r[7], 4); *p++ = ' '; *p++ = ' ';
                p = evalb_put_int(p, r[8], 4); memcpy(p, "   ", 3); p += 3;
                p = evalb_put_fixed2(p, tags);
            }
            if (p != NULL) {
                *p++ = '\\n';
                *p = 0;
                return (int)(p - out);
            }
        }
        return snprintf(out, size, "%4d  %3d    %d  %6.2f %6.2f   %3d    %3d  %3d    %3d   %4d  %4d   %6.2f\\n",
                        r[0], r[1], r[2], recall, precision, r[3], r[4], r[5], r[6], r[7], r[8], tags);
    }
    """
    int evalb_format_row(char* out, size_t size, const int* r) noexcept

cdef enum:
    ROW_TEXT = 256  # more than a row can take (12 numbers of at most 11 characters and the blanks)
    N_TOTALS = 12   # the fields of evalb.Totals, in its order


cdef class _TextOut:
    """Rows formatted into a buffer, handed to ``write`` every 64 KiB (all kept when ``write`` is None)."""

    cdef bytearray buf
    cdef Py_ssize_t pos
    cdef object write

    def __cinit__(self, write):
        self.write = write
        self.buf = bytearray(FLUSH + ROW_TEXT)
        self.pos = 0

    cdef int row(self, const int* r) except -1:
        if PyByteArray_GET_SIZE(self.buf) - self.pos < ROW_TEXT:
            self.room(ROW_TEXT)
        self.pos += evalb_format_row(PyByteArray_AS_STRING(self.buf) + self.pos, ROW_TEXT, r)
        if self.write is not None and self.pos >= FLUSH:
            self.flush()
        return 0

    cdef int extra_row(self, result) except -1:
        text = result.row() + "\n" + (result.debug + "\n" if result.debug else "")
        self.raw(text.encode("latin-1"))
        return 0

    cdef int raw(self, bytes data) except -1:
        cdef Py_ssize_t n = PyBytes_GET_SIZE(data)
        if PyByteArray_GET_SIZE(self.buf) - self.pos < n:
            self.room(n)
        memmove(PyByteArray_AS_STRING(self.buf) + self.pos, PyBytes_AS_STRING(data), n)
        self.pos += n
        if self.write is not None and self.pos >= FLUSH:
            self.flush()
        return 0

    cdef int room(self, Py_ssize_t n) except -1:
        PyByteArray_Resize(self.buf, max(2 * PyByteArray_GET_SIZE(self.buf), self.pos + n))
        return 0

    cdef int flush(self) except -1:
        if self.pos and self.write is not None:
            data = PyBytes_FromStringAndSize(PyByteArray_AS_STRING(self.buf), self.pos)
            self.pos = 0
            self.write(data)
        return 0

    cdef bytes take(self):
        data = PyBytes_FromStringAndSize(PyByteArray_AS_STRING(self.buf), self.pos)
        self.pos = 0
        return data


cdef class SentenceRows:
    """EVALB's per-sentence table, 9 ``int`` a sentence (id, length, status, matched, gold and
    test brackets, crossing, words, correct tags), read as a sequence of
    ``SentenceResult(...)`` made on demand. A sentence the Python port scored (an error, a
    ``DEBUG`` listing) is kept as its ``SentenceResult`` too, messages and all.
    ``SentenceRows(result_class)``: the class to make (``evalb.SentenceResult``)."""

    cdef int* rows
    cdef Py_ssize_t n, cap
    cdef dict extra
    cdef object factory

    def __cinit__(self, factory):
        self.factory = factory
        self.extra = {}
        self.rows = NULL
        self.n = self.cap = 0

    def __dealloc__(self):
        free(self.rows)

    cdef int add(self, const int* row) except -1:
        cdef int* grown
        cdef Py_ssize_t k
        if self.n == self.cap:
            self.cap = 2 * self.cap if self.cap else 1024
            grown = <int*>realloc(self.rows, self.cap * N_FIELDS * sizeof(int))
            if grown == NULL:
                raise MemoryError("evalb: no memory left for the sentence rows")
            self.rows = grown
        for k in range(N_FIELDS):
            self.rows[self.n * N_FIELDS + k] = row[k]
        self.n += 1
        return 0

    def append(self, result):
        """A row the Python port scored (``SentenceResult``), kept as it is."""
        cdef int row[N_FIELDS]
        values = (result.id, result.length, result.status, result.matched, result.gold_brackets,
                  result.test_brackets, result.crossing, result.words, result.correct_tags)
        for k in range(N_FIELDS):
            row[k] = values[k]
        self.extra[self.n] = result
        self.add(row)

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        cdef int* r
        cdef Py_ssize_t k
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.n))]
        k = index.__index__()
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError("sentence index out of range")
        if k in self.extra:
            return self.extra[k]
        r = self.rows + k * N_FIELDS
        return self.factory(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8])

    def __iter__(self):
        for i in range(self.n):
            yield self[i]

    def text(self, Py_ssize_t start=0, stop=None):
        """The rows ``start:stop`` as EVALB prints them (each line ending in ``\\n``, a
        ``DEBUG`` listing after its row), Latin-1 bytes."""
        cdef Py_ssize_t k, end = self.n if stop is None else min(<Py_ssize_t>stop, self.n)
        cdef _TextOut out = _TextOut(None)
        for k in range(max(start, 0), end):
            if k in self.extra:
                out.extra_row(self.extra[k])
            else:
                out.row(self.rows + k * N_FIELDS)
        return out.take()


    def __reduce__(self):
        """Pickled as its factory, its rows' bytes and the rows the Python port kept: a result
        holding it pickles (``pickle.dumps(sa.evalb(...))``)."""
        cdef Py_ssize_t size = self.n * N_FIELDS * sizeof(int)
        data = PyBytes_FromStringAndSize(<char*>self.rows, size) if size else b""
        return (_restored_rows, (self.factory, data, dict(self.extra)))


def _restored_rows(factory, bytes data, dict extra):
    """A :class:`SentenceRows` back from what :meth:`SentenceRows.__reduce__` gave (a whole
    number of rows of ``N_FIELDS`` ints; anything else is a ``ValueError``, never a crash)."""
    cdef SentenceRows rows = SentenceRows(factory)
    cdef Py_ssize_t row_size = N_FIELDS * sizeof(int)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data) // row_size
    if PyBytes_GET_SIZE(data) % row_size:
        raise ValueError("not the rows of a SentenceRows: a partial row")
    if n:
        rows.rows = <int*>realloc(NULL, n * row_size)
        if rows.rows == NULL:
            raise MemoryError("evalb: no memory left for the sentence rows")
        memcpy(rows.rows, PyBytes_AS_STRING(data), n * row_size)
        rows.n = rows.cap = n
    for k, result in extra.items():
        if not 0 <= k < n:
            raise ValueError("not the rows of a SentenceRows: a kept row past the last")
        rows.extra[k] = result
    return rows


_Sequence.register(SentenceRows)


def format_row(values):
    """One row of 9 integers (id, length, status, matched, gold and test brackets, crossing,
    words, correct tags) as the compiled path writes it, Latin-1 bytes: for the tests, which
    compare it with ``SentenceResult.row()`` (printf's formats)."""
    cdef int row[N_FIELDS]
    cdef char text[ROW_TEXT]
    cdef int n
    for k in range(N_FIELDS):
        row[k] = values[k]
    n = evalb_format_row(text, ROW_TEXT, row)
    return PyBytes_FromStringAndSize(text, n)


cdef inline void tally(long long* t, const int* r) noexcept:
    """``evalb.Totals.add`` for a row scored here (status 0 or 2)."""
    t[0] += 1
    if r[2] == STATUS_SKIP:
        t[2] += 1
        return
    t[3] += r[4]
    t[4] += r[5]
    t[5] += r[3]
    t[6] += r[4] == r[5] and r[5] == r[3]
    t[7] += r[7]
    t[8] += r[6]
    t[9] += r[6] == 0
    t[10] += r[6] <= 2
    t[11] += r[8]


def run_files(Scorer scorer, LineReader gold, LineReader test, evaluator, SentenceRows rows=None, write=None):
    """EVALB's main loop over the line pairs of two files.

    Pairs are scored by ``scorer``; a pair it leaves to the Python port (an error) goes to
    ``evaluator.read_and_score(gold_line, test_line, line=N)`` (``evalb.Evaluator``: messages,
    ``MAX_ERROR``, its ``EvalbAbort``, which ends the loop), as does a gold line without test
    line. Rows go to ``rows`` (when given) and, formatted, to ``write`` (when given) in
    blocks. The totals of the pairs scored here are added to the evaluator's at the end
    (``evaluator.merge(all, cutoff)``, lists in ``Totals``' field order), whether the run
    ends or aborts. Returns ``(lines read, whether the test file has lines left)``, the
    latter None when the gold file had more lines."""
    cdef const char* g
    cdef const char* t
    cdef Py_ssize_t gn, tn
    cdef int row[N_FIELDS]
    cdef long long totals[2 * N_TOTALS]
    cdef int line = 0, k, cutoff = scorer.cutoff_len
    cdef _TextOut out = _TextOut(write) if write is not None else None
    for k in range(2 * N_TOTALS):
        totals[k] = 0
    try:
        while gold.take(&g, &gn):
            line += 1
            if not test.take(&t, &tn):
                evaluator.read_and_score(PyBytes_FromStringAndSize(g, gn).decode("latin-1"), None, line=line)
                return line, None
            if scorer.pair(g, gn, t, tn, row):
                row[0] = line
                tally(totals, row)
                if row[1] <= cutoff:
                    tally(totals + N_TOTALS, row)
                if rows is not None:
                    rows.add(row)
                if out is not None:
                    out.row(row)
                continue
            result = evaluator.read_and_score(PyBytes_FromStringAndSize(g, gn).decode("latin-1"),
                                   PyBytes_FromStringAndSize(t, tn).decode("latin-1"), line=line)
            if out is not None and result is not None:
                out.extra_row(result)
        return line, bool(test.take(&t, &tn))
    finally:
        evaluator.merge([totals[k] for k in range(N_TOTALS)], [totals[N_TOTALS + k] for k in range(N_TOTALS)])
        if out is not None:
            out.flush()
