# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""CoNLL-U lines into columns, and the corpus-wide loops of the dependency metrics.

* :func:`scan` reads a block of CoNLL-U (bytes, whole sentences) into columnar arrays: one
  row per word, multiword range or empty node (its kind, ids, head, line and the codes of
  its text columns in a :class:`StringTable`), and per sentence the offsets of its rows,
  its first line and its ``sent_id`` comment. It reads only the plain CoNLL-U that every
  reader of the package reads alike (tab-separated, ten columns, integer heads, words
  ``1..n`` with ranges over the words that follow them); on anything else it stops and
  returns the line where it stopped, and the caller reads the file with the Python reader,
  which gives the error (file, line, token) or reads the odd file its own way. No input
  makes it read or write out of bounds.
* :func:`dependency_forest` builds the Figure 1 trees of Skjærholt (2014) of many
  sentences at once (the postorder forest that ``spacy_agreement._core.forest_ted_pairs``
  takes), as ``_core.dependency_postorder`` and ``derive_lml_keyroots`` build one, with
  the excluded tokens contracted away (their dependents moved up to the nearest kept
  ancestor, as ``metric_options.contract`` does).
* :func:`tree_depths` is ``limits.depths`` over many sentences (depth 1 under the root,
  the sentence's length in or under a cycle, as ``metric_options.gold_depths``).
* :func:`first_unreachable` finds the first word of many sentences that no chain of heads
  leads to the root from (a head cycle: ``columns.check_cycles``).
* :func:`segment_sums` adds values sentence by sentence, left to right, as the
  per-sentence loops of ``parser_metrics`` added them (the same floating-point sums).
"""
import numpy as np

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memchr, memcmp, memcpy

# row kinds
DEF WORD = 0
DEF RANGE = 1
DEF EMPTY = 2
DEF COLUMNS = 10


cdef class StringTable:
    """Every distinct text value read, once: ``strings[code]`` is the value of a code. Gold
    and prediction read with one table share codes (equal codes, equal strings)."""

    cdef int32_t* slots
    cdef int64_t capacity
    cdef char* arena
    cdef int64_t arena_used, arena_size
    cdef int64_t* starts
    cdef int32_t* lengths
    cdef uint64_t* hashes
    cdef int64_t count, room
    cdef public list strings

    def __cinit__(self):
        self.capacity = 1 << 12
        self.slots = <int32_t*>malloc(self.capacity * sizeof(int32_t))
        self.arena_size = 1 << 16
        self.arena = <char*>malloc(self.arena_size)
        self.room = 1 << 10
        self.starts = <int64_t*>malloc(self.room * sizeof(int64_t))
        self.lengths = <int32_t*>malloc(self.room * sizeof(int32_t))
        self.hashes = <uint64_t*>malloc(self.room * sizeof(uint64_t))
        if not self.slots or not self.arena or not self.starts or not self.lengths or not self.hashes:
            raise MemoryError()
        cdef int64_t k
        for k in range(self.capacity):
            self.slots[k] = -1
        self.arena_used = 0
        self.count = 0
        self.strings = []

    def __dealloc__(self):
        free(self.slots)
        free(self.arena)
        free(self.starts)
        free(self.lengths)
        free(self.hashes)

    def __len__(self):
        return self.count

    def code(self, str value):
        """The code of ``value`` (added when new)."""
        data = value.encode("utf-8")
        return self._code(PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data))

    cdef int _grow_slots(self) except -1 nogil:
        cdef int64_t new_capacity = self.capacity * 2
        cdef int32_t* slots = <int32_t*>malloc(new_capacity * sizeof(int32_t))
        if not slots:
            with gil:
                raise MemoryError()
        free(self.slots)
        self.slots = slots
        self.capacity = new_capacity
        return self._rebuild_slots()

    cdef int32_t _code(self, const char* p, Py_ssize_t n) except -2:
        """The code of the ``n`` bytes at ``p``, the string of a new one decoded at once (a
        bad byte raises and adds nothing)."""
        cdef int64_t before = self.count
        cdef int32_t k = self._code_nogil(p, n)
        if self.count > before:
            self._decode_new(before)
        return k

    cdef int32_t _code_nogil(self, const char* p, Py_ssize_t n) except -2 nogil:
        """:meth:`_code` without the GIL: a new value's bytes are added to the table, its
        string is not (:meth:`_decode_new` adds the strings of the codes from ``before`` on,
        with the GIL, and takes them all back if one is not UTF-8)."""
        cdef uint64_t h = 1469598103934665603ULL
        cdef Py_ssize_t i
        cdef int64_t at, k
        cdef void* grown
        for i in range(n):
            h = (h ^ <unsigned char>p[i]) * 1099511628211ULL
        at = <int64_t>(h & <uint64_t>(self.capacity - 1))
        while True:
            k = self.slots[at]
            if k < 0:
                break
            if self.hashes[k] == h and self.lengths[k] == n and memcmp(self.arena + self.starts[k], p, n) == 0:
                return <int32_t>k
            at = (at + 1) & (self.capacity - 1)
        if n > 0x7fffffff or self.count >= 0x7ffffffe:
            with gil:
                raise OverflowError("a text value or the number of distinct values is too large")
        if self.count == self.room:
            grown = realloc(self.starts, 2 * self.room * sizeof(int64_t))
            if not grown:
                with gil:
                    raise MemoryError()
            self.starts = <int64_t*>grown
            grown = realloc(self.lengths, 2 * self.room * sizeof(int32_t))
            if not grown:
                with gil:
                    raise MemoryError()
            self.lengths = <int32_t*>grown
            grown = realloc(self.hashes, 2 * self.room * sizeof(uint64_t))
            if not grown:
                with gil:
                    raise MemoryError()
            self.hashes = <uint64_t*>grown
            self.room *= 2
        while self.arena_used + n > self.arena_size:
            grown = realloc(self.arena, 2 * self.arena_size)
            if not grown:
                with gil:
                    raise MemoryError()
            self.arena = <char*>grown
            self.arena_size *= 2
        memcpy(self.arena + self.arena_used, p, n)
        k = self.count
        self.starts[k] = self.arena_used
        self.lengths[k] = <int32_t>n
        self.hashes[k] = h
        self.arena_used += n
        self.count += 1
        self.slots[at] = <int32_t>k
        if 2 * self.count > self.capacity:
            self._grow_slots()
        return <int32_t>k

    cdef int _decode_new(self, int64_t before) except -1:
        """The strings of codes ``before..count-1`` (added by :meth:`_code_nogil`) appended to
        :attr:`strings`; where one is not UTF-8, those codes are taken out of the table again
        (as if never added) and the error is raised."""
        cdef int64_t k
        try:
            for k in range(len(self.strings), self.count):
                self.strings.append(PyUnicode_DecodeUTF8(self.arena + self.starts[k], self.lengths[k], "strict"))
        except BaseException:
            self._truncate(before)
            raise
        return 0

    cdef int _truncate(self, int64_t before) except -1:
        """The codes from ``before`` on taken out again (as if never added)."""
        del self.strings[before:]
        if self.count > before:
            self.arena_used = self.starts[before]
            self.count = before
            self._rebuild_slots()
        return 0

    cdef int _rebuild_slots(self) except -1 nogil:
        """The hash slots made again from the codes ``0..count-1``."""
        cdef int64_t k, at
        for k in range(self.capacity):
            self.slots[k] = -1
        for k in range(self.count):
            at = <int64_t>(self.hashes[k] & <uint64_t>(self.capacity - 1))
            while self.slots[at] >= 0:
                at = (at + 1) & (self.capacity - 1)
            self.slots[at] = <int32_t>k
        return 0

    def shrink(self):
        """The table's storage cut down to what it holds (it still takes new values, growing as
        before): a file's own table stays alive as long as the trees read from it, and a
        one-sentence file's table would otherwise keep the room made for a treebank's (about
        100 KB; 26,000 files of a corpus of one sentence per file, 300 MB)."""
        cdef int64_t capacity = 16, k
        cdef int64_t room = self.count if self.count > 16 else 16
        cdef int64_t arena_size = self.arena_used if self.arena_used > 64 else 64
        cdef void* grown
        while capacity < 2 * self.count + 2:
            capacity *= 2
        if arena_size < self.arena_size:
            grown = realloc(self.arena, arena_size)
            if grown:
                self.arena = <char*>grown
                self.arena_size = arena_size
        if room < self.room:
            grown = realloc(self.starts, room * sizeof(int64_t))
            if grown:
                self.starts = <int64_t*>grown
            grown = realloc(self.lengths, room * sizeof(int32_t))
            if grown:
                self.lengths = <int32_t*>grown
            grown = realloc(self.hashes, room * sizeof(uint64_t))
            if grown:
                self.hashes = <uint64_t*>grown
            self.room = room  # each of the three holds at least room entries (a failed realloc keeps more)
        if capacity < self.capacity:
            grown = malloc(capacity * sizeof(int32_t))
            if grown:
                free(self.slots)
                self.slots = <int32_t*>grown
                self.capacity = capacity
                self._rebuild_slots()

    def merge_into(self, StringTable other, int64_t start=0):
        """The codes in ``other`` of this table's codes ``start..`` (added to ``other`` where
        new, in this table's order), as an int32 array: what makes the codes of a file
        scanned with a table of its own (on another thread) those of the shared table."""
        cdef int64_t k, n = self.count
        out = np.empty(max(n - start, 0), dtype=np.int32)
        cdef int32_t[::1] codes = out
        cdef int64_t before = other.count
        for k in range(start, n):
            codes[k - start] = other._code_nogil(self.arena + self.starts[k], self.lengths[k])
        if other.count > before:
            other._decode_new(before)
        return out


cdef inline bint _digits(const char* p, Py_ssize_t n, int64_t* out) noexcept nogil:
    """A decimal integer without sign or leading zero (``0`` itself allowed), below 2**31."""
    cdef int64_t v = 0
    cdef Py_ssize_t i
    if n <= 0 or n > 9 or (p[0] == c'0' and n > 1):
        return False
    for i in range(n):
        if p[i] < c'0' or p[i] > c'9':
            return False
        v = v * 10 + (p[i] - c'0')
    out[0] = v
    return True


cdef inline bint _two(const char* p, Py_ssize_t n, char sep, int64_t* a, int64_t* b) noexcept nogil:
    cdef const char* s = <const char*>memchr(p, sep, n)
    if s == NULL:
        return False
    return _digits(p, s - p, a) and _digits(s + 1, n - (s - p) - 1, b)


cdef class _Columns:
    """Growable int columns of the scan (one row per entry)."""
    cdef public object kind, first, last, head, line, codes
    cdef int64_t n, room

    def __init__(self, int64_t room):
        self.room = max(room, 16)
        self.n = 0
        self.kind = np.empty(self.room, dtype=np.int8)
        self.first = np.empty(self.room, dtype=np.int32)
        self.last = np.empty(self.room, dtype=np.int32)
        self.head = np.empty(self.room, dtype=np.int32)
        self.line = np.empty(self.room, dtype=np.int64)
        self.codes = np.empty((self.room, 7), dtype=np.int32)

    cdef grow(self):
        self.room *= 2
        self.kind = np.resize(self.kind, self.room)
        self.first = np.resize(self.first, self.room)
        self.last = np.resize(self.last, self.room)
        self.head = np.resize(self.head, self.room)
        self.line = np.resize(self.line, self.room)
        self.codes = np.resize(self.codes, (self.room, 7))


cdef inline bint _has(const char* p, Py_ssize_t n, const char* word, Py_ssize_t m) noexcept nogil:
    """Whether the ``m`` bytes ``word`` occur in the ``n`` bytes at ``p``."""
    cdef Py_ssize_t i
    for i in range(n - m + 1):
        if p[i] == word[0] and memcmp(p + i, word, m) == 0:
            return True
    return False


cdef Py_ssize_t _utf8_error(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """Where the ``n`` bytes at ``p`` stop being well-formed UTF-8 (the byte sequences of
    Table 3-7 of the Unicode Standard, what Python's strict decoder accepts), ``-1`` if they
    never do. ASCII is skipped eight bytes at a time."""
    cdef Py_ssize_t i = 0
    cdef uint64_t word
    cdef unsigned char c, lo, hi
    cdef int more, k
    while i < n:
        if i + 8 <= n:
            memcpy(&word, p + i, 8)
            if (word & 0x8080808080808080ULL) == 0:
                i += 8
                continue
        c = p[i]
        if c < 0x80:
            i += 1
            continue
        lo, hi = 0x80, 0xBF
        if 0xC2 <= c <= 0xDF:
            more = 1
        elif 0xE0 <= c <= 0xEF:
            more = 2
            if c == 0xE0:
                lo = 0xA0
            elif c == 0xED:
                hi = 0x9F
        elif 0xF0 <= c <= 0xF4:
            more = 3
            if c == 0xF0:
                lo = 0x90
            elif c == 0xF4:
                hi = 0x8F
        else:
            return i
        if i + more >= n:  # the sequence is cut off
            return i
        if p[i + 1] < lo or p[i + 1] > hi:
            return i
        for k in range(2, more + 1):
            if p[i + k] < 0x80 or p[i + k] > 0xBF:
                return i
        i += more + 1
    return -1


def utf8_error(bytes data):
    """Where ``data`` stops being well-formed UTF-8 (:func:`bytes.decode` would raise there),
    ``None`` if it never does."""
    cdef const unsigned char* p = <const unsigned char*>PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data), at
    with nogil:
        at = _utf8_error(p, n)
    return None if at < 0 else at


cdef struct SentenceLog:
    # per sentence: the offset of its first row (one more entry: the rows so far), its first
    # line, and where its sent_id comment is in the block (start -1: none) and how long
    int64_t* rows
    int64_t* line
    int64_t* sid_start
    int64_t* sid_length
    int64_t n, room


cdef int _log_grow(SentenceLog* log) noexcept nogil:
    """Room for twice as many sentences; 0 where memory ran out (the arrays are left as they were)."""
    cdef int64_t room = 2 * log.room
    cdef void* grown
    grown = realloc(log.rows, (room + 1) * sizeof(int64_t))
    if not grown:
        return 0
    log.rows = <int64_t*>grown
    grown = realloc(log.line, room * sizeof(int64_t))
    if not grown:
        return 0
    log.line = <int64_t*>grown
    grown = realloc(log.sid_start, room * sizeof(int64_t))
    if not grown:
        return 0
    log.sid_start = <int64_t*>grown
    grown = realloc(log.sid_length, room * sizeof(int64_t))
    if not grown:
        return 0
    log.sid_length = <int64_t*>grown
    log.room = room
    return 1


def scan(bytes data, StringTable table, int64_t first_line=1, bint check_utf8=False):
    """Read whole sentences of plain CoNLL-U (module docstring) into columns.

    Returns ``(stop, rows, sentences)``. ``stop`` is ``None`` when every line was read, else
    the (absolute) line where the scan stopped: something the fast reader does not take
    (the caller reads the file with the Python reader). ``rows`` is a dict of arrays, one
    entry per word, range or empty node: ``kind`` (0 word, 1 range, 2 empty node),
    ``first``/``last`` (word id twice; a range's first and last word; an empty node's two
    numbers), ``head`` (-1 but for words), ``line`` and ``codes`` (int32, shape (n, 7):
    FORM, LEMMA, UPOS, XPOS, FEATS, DEPREL, MISC in ``table``; -1 for an empty node's).
    ``sentences`` is a dict: ``rows`` (offsets, one more than the sentences), ``line``
    (first line of the block), ``sent_id`` (the text of its ``sent_id`` comment line or
    ``None``).

    The lines are read without the GIL (another thread may scan another file into another
    table meanwhile: :meth:`StringTable.merge_into`); the strings of the new values and the
    ``sent_id`` texts are decoded at the end, a value that is not UTF-8 raising
    :class:`UnicodeDecodeError` then. A scan that raises leaves the table as it was. With
    ``check_utf8``, the whole of ``data`` is checked first (without the GIL): where it is not
    UTF-8, the :class:`UnicodeDecodeError` of ``data.decode("utf-8")`` is raised and nothing is
    read."""
    cdef const char* base = PyBytes_AS_STRING(data)
    cdef Py_ssize_t size = PyBytes_GET_SIZE(data), pos = 0, end, n, k, t
    cdef const char* p
    cdef const char* tab
    cdef Py_ssize_t starts[COLUMNS + 1]
    cdef int64_t number = first_line - 1, a, b, h, expected = 1, range_last = 0
    cdef bint in_sentence = False, has_tokens = False
    cdef int64_t block_line = -1, sid_start = -1, sid_length = 0, stop_line = -1, before = table.count
    cdef int kind
    cdef int32_t code
    cdef int column, failed = 0  # 1 out of memory, 2 not UTF-8
    cdef _Columns cols = _Columns(size // 40 + 16)
    cdef int8_t[::1] kinds = cols.kind
    cdef int32_t[::1] firsts = cols.first, lasts = cols.last, heads = cols.head
    cdef int64_t[::1] lines = cols.line
    cdef int32_t[:, ::1] codes = cols.codes
    cdef SentenceLog log
    log.room = 64
    log.n = 0
    log.rows = <int64_t*>malloc((log.room + 1) * sizeof(int64_t))
    log.line = <int64_t*>malloc(log.room * sizeof(int64_t))
    log.sid_start = <int64_t*>malloc(log.room * sizeof(int64_t))
    log.sid_length = <int64_t*>malloc(log.room * sizeof(int64_t))
    try:
        if not log.rows or not log.line or not log.sid_start or not log.sid_length:
            raise MemoryError()
        log.rows[0] = 0
        with nogil:
            if check_utf8 and _utf8_error(<const unsigned char*>base, size) >= 0:
                failed = 2
                pos = size  # nothing read
            while pos < size:
                p = base + pos
                tab = <const char*>memchr(p, c'\n', size - pos)
                end = (tab - base) if tab != NULL else size
                n = end - pos
                number += 1
                pos = end + 1
                if n == 0:  # blank line: the end of a sentence (never two in a row, never before one)
                    if not has_tokens or range_last >= expected:
                        stop_line = number
                        break
                    if log.n == log.room and not _log_grow(&log):
                        failed = 1
                        break
                    log.rows[log.n + 1] = cols.n
                    log.line[log.n] = block_line
                    log.sid_start[log.n] = sid_start
                    log.sid_length[log.n] = sid_length
                    log.n += 1
                    in_sentence = has_tokens = False
                    block_line = sid_start = -1
                    expected = 1
                    range_last = 0
                    continue
                if p[0] == c' ' or p[0] == c'\t' or p[n - 1] == c' ' or p[n - 1] == c'\t' or p[n - 1] == c'\r':
                    stop_line = number
                    break
                if not in_sentence:
                    in_sentence = True
                    block_line = number
                if p[0] == c'#':
                    if has_tokens or (n >= 16 and memcmp(p, b"# global.columns", 16) == 0):
                        stop_line = number
                        break
                    if _has(p, n, b"sent_id", 7):
                        if sid_start >= 0:  # two sent_id comments: left to the readers
                            stop_line = number
                            break
                        sid_start = p - base
                        sid_length = n
                    continue
                # a token line: ten tab-separated columns, none empty, no run of two spaces
                starts[0] = 0
                column = 1
                for k in range(n):
                    if p[k] == c'\t':
                        if column == COLUMNS:
                            column += 1
                            break
                        starts[column] = k + 1
                        column += 1
                    elif p[k] == c' ' and k + 1 < n and p[k + 1] == c' ':
                        column = -1
                        break
                if column != COLUMNS:
                    stop_line = number
                    break
                starts[COLUMNS] = n + 1
                for k in range(COLUMNS):
                    if starts[k + 1] - 1 - starts[k] <= 0:
                        column = -1
                if column != COLUMNS:
                    stop_line = number
                    break
                if _digits(p, starts[1] - 1, &a):
                    kind = WORD
                    b = a
                    if a != expected:
                        stop_line = number
                        break
                    expected += 1
                    if not _digits(p + starts[6], starts[7] - 1 - starts[6], &h):
                        stop_line = number
                        break
                elif _two(p, starts[1] - 1, c'-', &a, &b):
                    kind = RANGE
                    h = -1
                    if a != expected or b < a or range_last >= expected:
                        stop_line = number
                        break
                    range_last = b
                elif _two(p, starts[1] - 1, c'.', &a, &b):
                    kind = EMPTY
                    h = -1
                    if range_last >= expected:  # inside a range's words
                        stop_line = number
                        break
                else:
                    stop_line = number
                    break
                has_tokens = True
                if cols.n == cols.room:
                    with gil:
                        cols.grow()
                        kinds = cols.kind
                        firsts = cols.first
                        lasts = cols.last
                        heads = cols.head
                        lines = cols.line
                        codes = cols.codes
                t = cols.n
                kinds[t] = <int8_t>kind
                firsts[t] = <int32_t>a
                lasts[t] = <int32_t>b
                heads[t] = <int32_t>h
                lines[t] = number
                for column in range(7):
                    if kind == EMPTY:
                        code = -1
                    else:
                        k = column + 1 if column < 5 else column + 2  # FORM..FEATS, then DEPREL, MISC
                        if column == 6:
                            k = 9
                        code = table._code_nogil(p + starts[k], starts[k + 1] - 1 - starts[k])
                    codes[t, column] = code
                cols.n += 1
            if stop_line < 0 and failed == 0 and in_sentence:  # the last sentence is not closed by a blank line
                stop_line = number
        if failed == 2:
            data.decode("utf-8")  # raises the decoder's own error
            raise AssertionError("the UTF-8 check and the decoder disagree")  # never: both follow Table 3-7
        if failed:
            raise MemoryError()
        table._decode_new(before)
        sent_ids = [None if log.sid_start[k] < 0 else
                    PyUnicode_DecodeUTF8(base + log.sid_start[k], log.sid_length[k], "strict") for k in range(log.n)]
        m = cols.n
        rows = {"kind": cols.kind[:m], "first": cols.first[:m], "last": cols.last[:m], "head": cols.head[:m],
                "line": cols.line[:m], "codes": cols.codes[:m]}
        sentences = {"rows": np.asarray(<int64_t[:log.n + 1]>log.rows).copy(),
                     "line": np.asarray(<int64_t[:log.n]>log.line).copy() if log.n else np.zeros(0, dtype=np.int64),
                     "sent_id": sent_ids}
    except BaseException:
        table._truncate(before)  # a scan that raises adds nothing
        raise
    finally:
        free(log.rows)
        free(log.line)
        free(log.sid_start)
        free(log.sid_length)
    return (None if stop_line < 0 else stop_line), rows, sentences


cdef int _check_sentences(const int32_t[::1] heads, const int64_t[::1] offsets) except -1:
    """``ValueError`` unless ``offsets`` increase from 0 or more up to the number of words and
    every head is 0 (the root) or a word of its own sentence."""
    cdef Py_ssize_t n_sent = offsets.shape[0] - 1, s
    cdef int64_t k
    if n_sent < 0 or offsets[n_sent] != heads.shape[0]:
        raise ValueError("offsets must end at the number of tokens")
    for s in range(n_sent):
        if offsets[s] > offsets[s + 1] or offsets[s] < 0:
            raise ValueError("offsets must increase")
    for s in range(n_sent):
        for k in range(offsets[s], offsets[s + 1]):
            if heads[k] < 0 or heads[k] > offsets[s + 1] - offsets[s]:
                raise ValueError(f"sentence {s + 1}: head {heads[k]} out of range")
    return 0


cdef int64_t _depths(const int32_t* heads, int64_t length, int64_t* depth, int8_t* state, int64_t* path) noexcept nogil:
    """The depth of each word of one sentence (heads checked): 1 under the root, 0 on or under a
    head cycle; each word is walked once (``state``: 0 unseen, 1 on the walk, 2 done). Returns
    the first word at depth 0, -1 for none."""
    cdef int64_t k, node, top, j, base, first = -1
    cdef bint reachable
    for k in range(length):
        top = 0
        node = k
        while node != -1 and state[node] == 0:
            state[node] = 1
            path[top] = node
            top += 1
            node = heads[node] - 1
        if node == -1:
            base = 0
            reachable = True
        elif state[node] == 2:
            base = depth[node]
            reachable = depth[node] > 0
        else:  # back on the walk: a cycle
            base = 0
            reachable = False
        for j in range(top):
            node = path[top - 1 - j]
            depth[node] = base + j + 1 if reachable else 0
            state[node] = 2
        if first < 0 and depth[k] == 0:
            first = k
    return first


cdef int64_t _sentence_depths(const int32_t[::1] heads, const int64_t[::1] offsets, int64_t[::1] depth,
                              bint first_only) except -2:
    """:func:`_depths` sentence by sentence into ``depth`` (heads checked): a word on or under a
    cycle gets its sentence's length; with ``first_only``, stop at the first such word and
    return it (an index into ``heads``; -1 for none)."""
    cdef Py_ssize_t n_sent = offsets.shape[0] - 1, s
    cdef int64_t o, length, k, first, total = heads.shape[0]
    state_arr = np.zeros(max(total, 1), dtype=np.int8)
    path_arr = np.empty(max(total, 1), dtype=np.int64)
    cdef int8_t[::1] state = state_arr
    cdef int64_t[::1] path = path_arr
    with nogil:
        for s in range(n_sent):
            o = offsets[s]
            length = offsets[s + 1] - o
            if length == 0:
                continue
            first = _depths(&heads[o], length, &depth[o], &state[o], &path[0])
            if first >= 0 and first_only:
                return o + first
            for k in range(length):
                if depth[o + k] == 0:
                    depth[o + k] = length
    return -1


def tree_depths(const int32_t[::1] heads, const int64_t[::1] offsets):
    """Depth of every token of many sentences (``heads`` 1-based in their sentence, 0 the
    root; sentence ``s`` is ``offsets[s]:offsets[s + 1]``): 1 under the root, the sentence's
    length for a token in or under a head cycle (``metric_options.gold_depths``). A head out
    of its sentence is a ``ValueError``."""
    _check_sentences(heads, offsets)
    out_arr = np.zeros(max(heads.shape[0], 1), dtype=np.int64)
    _sentence_depths(heads, offsets, out_arr, False)
    return out_arr[:heads.shape[0]]


def first_unreachable(const int32_t[::1] heads, const int64_t[::1] offsets):
    """The first word (an index into ``heads``) of many sentences that does not reach its
    sentence's root by its heads (``heads`` 1-based in their sentence, 0 the root; sentence
    ``s`` is ``offsets[s]:offsets[s + 1]``): a word on or under a head cycle; -1 when every
    word reaches the root (``columns.check_cycles``). Each word is walked once. A head out of
    its sentence is a ``ValueError``."""
    _check_sentences(heads, offsets)
    return _sentence_depths(heads, offsets, np.zeros(max(heads.shape[0], 1), dtype=np.int64), True)


def segment_sums(const double[::1] values, const int64_t[::1] offsets):
    """``out[s]`` = the values of segment ``s`` added left to right from 0.0 (the sum a
    Python loop over the tokens gives, bit for bit)."""
    cdef Py_ssize_t n_seg = offsets.shape[0] - 1, s
    cdef int64_t k
    cdef double acc
    if n_seg < 0:
        raise ValueError("offsets must not be empty")
    for s in range(n_seg):
        if offsets[s] < 0 or offsets[s] > offsets[s + 1] or offsets[s + 1] > values.shape[0]:
            raise ValueError("offsets must increase within the values")
    out_arr = np.zeros(max(n_seg, 0), dtype=np.float64)
    cdef double[::1] out = out_arr
    with nogil:
        for s in range(n_seg):
            acc = 0.0
            for k in range(offsets[s], offsets[s + 1]):
                acc = acc + values[k]
            out[s] = acc
    return out_arr


def running_sum(const double[::1] values, double start=0.0):
    """The values added left to right from ``start`` (as a Python ``+=`` loop): a sum carried
    from block to block (``start`` the sum so far) is the sum of the whole, bit for bit."""
    cdef double acc = start
    cdef Py_ssize_t k
    for k in range(values.shape[0]):
        acc = acc + values[k]
    return acc


def dependency_forest(const int32_t[::1] heads, const int32_t[::1] labels, const int8_t[::1] keep,
                      const int64_t[::1] offsets):
    """The Figure 1 trees of many sentences as one postorder forest.

    ``heads`` are 1-based in their sentence (0 the root), ``labels`` the label id of each
    token (id 0 is the root's label), ``keep`` which tokens stay: the others are contracted
    away, their dependents attached to the nearest kept ancestor (or the root), and the kept
    tokens renumbered in order. Each tree is built by walking down from its root, children
    in token order, so tokens in a head cycle drop out (``_core.dependency_postorder``).
    Returns ``(labels, lml, offsets, keyroots, kr_offsets)`` for
    ``_core.forest_ted_pairs``."""
    cdef Py_ssize_t n_sent = offsets.shape[0] - 1, s, k, i
    cdef int64_t total = heads.shape[0], o, n, m, h, steps, top, node, pos, nk
    if n_sent < 0 or offsets[n_sent] != total or labels.shape[0] != total or keep.shape[0] != total:
        raise ValueError("heads, labels and keep must have one value per token, offsets end at their length")
    for s in range(n_sent):
        if offsets[s] < 0 or offsets[s] > offsets[s + 1]:
            raise ValueError("offsets must increase")
        for k in range(offsets[s], offsets[s + 1]):
            if heads[k] < 0 or heads[k] > offsets[s + 1] - offsets[s]:
                raise ValueError(f"sentence {s + 1}: head {heads[k]} out of range")
    out_offsets = np.zeros(n_sent + 1, dtype=np.int64)
    kr_offsets = np.zeros(n_sent + 1, dtype=np.int64)
    cdef int64_t[::1] oo = out_offsets, ko = kr_offsets
    cdef int64_t kept_total = 0, kept_here
    for s in range(n_sent):  # nodes: the kept tokens (all when none is kept) and the root
        kept_here = 0
        for k in range(offsets[s], offsets[s + 1]):
            kept_here += keep[k] != 0
        kept_total += kept_here if kept_here > 0 else offsets[s + 1] - offsets[s]
    out_labels = np.empty(kept_total + n_sent, dtype=np.int32)
    out_lml = np.empty(kept_total + n_sent, dtype=np.int32)
    out_kr = np.empty(kept_total + n_sent, dtype=np.int32)
    cdef int32_t[::1] ol = out_labels, oml = out_lml, okr = out_kr
    cdef int64_t longest = 1
    for s in range(n_sent):
        longest = max(longest, offsets[s + 1] - offsets[s] + 1)
    cdef int32_t[::1] index = np.empty(longest, dtype=np.int32)
    cdef int32_t[::1] new_head = np.empty(longest, dtype=np.int32)
    cdef int32_t[::1] token_of = np.empty(longest, dtype=np.int32)
    cdef int64_t[::1] start = np.empty(longest + 1, dtype=np.int64)
    cdef int64_t[::1] fill = np.empty(longest + 1, dtype=np.int64)
    cdef int32_t[::1] child = np.empty(longest, dtype=np.int32)
    cdef int32_t[::1] stack = np.empty(longest, dtype=np.int32)
    cdef int64_t[::1] nxt = np.empty(longest, dtype=np.int64)
    cdef int32_t[::1] order = np.empty(longest, dtype=np.int32)
    cdef int32_t[::1] pos_of = np.empty(longest, dtype=np.int32)
    cdef int32_t[::1] parent = np.empty(longest, dtype=np.int32)
    cdef int64_t[::1] sub = np.empty(longest, dtype=np.int64)
    cdef int32_t[::1] last = np.empty(longest, dtype=np.int32)
    cdef int64_t w = 0, kw = 0
    with nogil:
        for s in range(n_sent):
            o = offsets[s]
            n = offsets[s + 1] - o
            # contraction (metric_options.contract): new 1-based ids of kept tokens, their heads
            m = 0
            for k in range(n):
                if keep[o + k]:
                    m += 1
                    index[k] = <int32_t>m
                    token_of[m - 1] = <int32_t>k
                else:
                    index[k] = 0
            for i in range(m):
                k = token_of[i]
                h = heads[o + k]
                steps = 0
                while h != 0 and not keep[o + h - 1] and steps <= n:
                    h = heads[o + h - 1]
                    steps += 1
                new_head[i] = 0 if (h == 0 or not keep[o + h - 1]) else index[h - 1]
            if m == 0:  # contract() keeps the tree as it is when nothing is kept
                m = n
                for i in range(n):
                    token_of[i] = <int32_t>i
                    new_head[i] = heads[o + i]
            # children by head, in token order (dependency_postorder)
            for i in range(m + 2):
                start[i] = 0
            for i in range(m):
                start[new_head[i] + 1] += 1
            for i in range(m + 1):
                start[i + 1] += start[i]
            for i in range(m + 1):
                fill[i] = start[i]
            for i in range(m):
                h = new_head[i]
                child[fill[h]] = <int32_t>(i + 1)
                fill[h] += 1
            for i in range(m + 1):
                nxt[i] = start[i]
            stack[0] = 0
            top = 1
            pos = 0
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
            # parents in postorder, labels, leftmost leaves, keyroots (derive_lml_keyroots)
            for i in range(pos):
                node = order[i]
                if node == 0:
                    parent[i] = -1
                    ol[w + i] = 0
                else:
                    parent[i] = pos_of[new_head[node - 1]]
                    ol[w + i] = labels[o + token_of[node - 1]]
                oml[w + i] = <int32_t>i
                sub[i] = 1
            for i in range(pos - 1):
                sub[parent[i]] += sub[i]
                if oml[w + i] < oml[w + parent[i]]:
                    oml[w + parent[i]] = oml[w + i]
            for i in range(pos):
                last[i] = -1
            for i in range(pos):
                last[oml[w + i]] = <int32_t>i
            nk = 0
            for i in range(pos):  # keyroots: the highest node of each leftmost leaf, increasing
                if last[oml[w + i]] == i:
                    okr[kw + nk] = <int32_t>i
                    nk += 1
            w += pos
            kw += nk
            oo[s + 1] = w
            ko[s + 1] = kw
    return out_labels[:w].copy(), out_lml[:w].copy(), out_offsets, out_kr[:kw].copy(), kr_offsets
