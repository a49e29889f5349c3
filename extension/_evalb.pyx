# cython: language_level=3
"""EVALB's hot path (Sekine & Collins 1997) in C: reading a line, scoring a sentence pair, the rows.

:mod:`spacy_agreement.evaluation.constituency.evalb` is a step-by-step port of ``evalb.c`` (the 2006 version):
its output is EVALB's, byte for byte. This module does the same work for the sentences that
make up nearly all of a real run, without a Python object per word or bracket:

* :meth:`Scorer.score` reads a gold and a test line as EVALB's ``read_line`` reads them (a
  ``(label word)`` is a word, any other ``(`` opens a bracket; only C's ``isspace`` blanks
  separate tokens; bytes are characters; the line ends at a NUL), applying the parameter
  file's ``DELETE_LABEL`` (words left out) and ``DELETE_LABEL_FOR_LENGTH`` (words not
  counted in the length), then scores the pair as EVALB's ``calc_result``: brackets lose
  everything from their first ``-`` or ``=`` and are dropped when empty or of a deleted
  label (``massage_data``), are matched greedily gold order then test order (labels equal
  or an ``EQ_LABEL`` pair; spans only with ``LABELED 0``), a test bracket crosses when it
  overlaps a kept gold bracket without nesting, and tags are compared word by word. A test
  line without words is EVALB's skip sentence (status 2).
* Whatever EVALB reports as an error is *not* decided here: a reading problem (unbalanced
  brackets, text outside ``(label word)``, a bracket with more than two elements), different
  word counts (where EVALB's ``QUOTE_LABEL`` repair may apply) or different words (``EQ_WORD``
  pairs aside). For those :meth:`Scorer.score` answers ``None`` and the Python port scores
  the pair, messages, ``MAX_ERROR`` and all: one implementation of the rare paths.
* :func:`run_files` is EVALB's main loop over two files read in blocks of 1 MiB: line pairs
  scored here, totals summed in C, rows kept compactly (:class:`SentenceRows`) and/or
  formatted with EVALB's ``printf`` formats and handed to ``write`` in blocks.

Unlike ``evalb.c`` nothing here has a fixed size (it has 5000 bytes a line, 200 words or
brackets): arrays grow as needed, as in the Python port.
"""
from collections.abc import Sequence as _Sequence

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE, PyByteArray_Resize
from libc.stdio cimport snprintf
from libc.stdlib cimport free, realloc
from libc.string cimport memchr, memcmp, memcpy, memmove

cdef enum:
    C_BLANK = 1  # byte classes of EVALB's tokenizer: C's isspace() in the C locale,
    C_PAREN = 2  # and the brackets
    R_UNMATCHED = 0  # bracket results as EVALB writes them (DEBUG listing)
    R_MATCHED = 1
    R_DELETED = 5
    STATUS_OK = 0
    STATUS_SKIP = 2
    N_FIELDS = 9  # a row: id, length, status, matched, gold, test, crossing, words, correct tags
    BLOCK = 1 << 20  # file reads
    FLUSH = 1 << 16  # text handed to write()

cdef unsigned char CLASS[256]
for _c in range(256):
    CLASS[_c] = C_BLANK if chr(_c) in " \t\n\v\f\r" else (C_PAREN if chr(_c) in "()" else 0)

include "evalb_types.pxi"
include "evalb_lines.pxi"


cdef enum:
    MAX_LISTED = 1024  # the most test brackets match_listed lists on its stack


cdef int crossing_bits(Sentence* g, Sentence* t) noexcept:
    """``calc``'s crossing count for g.wn < 64, word positions as bits: a test bracket [s, e) is
    crossed by a kept gold bracket that starts before s and ends inside (s, e), or starts inside
    (s, e) and ends after e."""
    cdef unsigned long long ends_from[65]   # ends of the gold brackets starting at a
    cdef unsigned long long starts_to[65]   # starts of the gold brackets ending at b
    cdef unsigned long long before[65]      # ends of the gold brackets starting before s
    cdef unsigned long long after[65]       # starts of the gold brackets ending after e
    cdef unsigned long long inside
    cdef int i, a, n = g.wn, crossing = 0
    cdef Bracket* b
    for a in range(n + 1):
        ends_from[a] = starts_to[a] = 0
    for i in range(g.bn):
        b = &g.brackets[i]
        if b.result != R_DELETED:
            ends_from[b.start] |= 1ULL << b.end
            starts_to[b.end] |= 1ULL << b.start
    before[0] = 0
    for a in range(1, n + 1):
        before[a] = before[a - 1] | ends_from[a - 1]
    after[n] = 0
    for a in range(n - 1, -1, -1):
        after[a] = after[a + 1] | starts_to[a + 1]
    for i in range(t.bn):
        b = &t.brackets[i]
        if b.result == R_DELETED or b.end - b.start < 2:
            continue
        inside = ((1ULL << b.end) - 1) & ~((1ULL << (b.start + 1)) - 1)
        crossing += ((before[b.start] | after[b.end]) & inside) != 0
    return crossing


cdef class Scorer:
    """EVALB's reading and ``calc_result`` for line pairs, under one parameter file.

    ``Scorer(params)`` takes an :class:`~spacy_agreement.evaluation.constituency.evalb_params.EvalbSettings`
    (its labels as Latin-1 bytes; a label outside Latin-1 can match no byte of a file and is
    rejected with ``ValueError``). The scorer keeps its work arrays between calls; it is not
    safe to share between threads."""

    cdef object _keep  # the bytes the label spans point into
    cdef Labels deleted, deleted_for_length, eq_labels, eq_words
    cdef Labels deleted_brackets  # DELETE_LABEL and the labels EQ_LABEL makes equal to one: massage_data's test
    cdef int labeled
    cdef readonly int cutoff_len
    cdef Sentence gold, test

    def __cinit__(self):
        sentence_init(&self.gold)
        sentence_init(&self.test)
        labels_init(&self.deleted)
        labels_init(&self.deleted_for_length)
        labels_init(&self.eq_labels)
        labels_init(&self.eq_words)
        labels_init(&self.deleted_brackets)

    def __init__(self, params):
        self._keep = []
        self.labeled = params.labeled
        self.cutoff_len = params.cutoff_len
        self._set(&self.deleted, params.delete_labels)
        self._set(&self.deleted_for_length, params.delete_labels_for_length)
        self._set(&self.eq_labels, [x for pair in params.eq_labels for x in pair])
        self._set(&self.eq_words, [x for pair in params.eq_words for x in pair])
        # any(label_equal(label, d) for d in DELETE_LABEL) is: label in this list
        equal = [x for d in params.delete_labels for a, b in params.eq_labels for x, y in ((a, b), (b, a)) if y == d]
        self._set(&self.deleted_brackets, list(params.delete_labels) + equal)

    cdef _set(self, Labels* labels, values):
        labels.n = 0
        for value in values:
            data = value.encode("latin-1")  # UnicodeEncodeError (a ValueError): no byte of a file is it
            self._keep.append(data)
            labels_add(labels, PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data))

    def __dealloc__(self):
        sentence_free(&self.gold)
        sentence_free(&self.test)
        free(self.deleted.items)
        free(self.deleted_for_length.items)
        free(self.eq_labels.items)
        free(self.eq_words.items)
        free(self.deleted_brackets.items)

    def score(self, bytes gold, bytes test):
        """One line pair scored as EVALB scores it: ``(length, status, matched, gold brackets,
        test brackets, crossing, words, correct tags)``, status 0 (scored) or 2 (skip: no test
        word); ``None`` where EVALB would report an error (the Python port then scores it)."""
        cdef int row[N_FIELDS]
        if not self.pair(PyBytes_AS_STRING(gold), PyBytes_GET_SIZE(gold), PyBytes_AS_STRING(test),
                         PyBytes_GET_SIZE(test), row):
            return None
        return tuple(row[k] for k in range(1, N_FIELDS))

    cdef bint pair(self, const char* g, Py_ssize_t gn, const char* t, Py_ssize_t tn, int* row) except -1:
        """Fill ``row`` (a whole row, its id 0); False where the Python port must score the pair."""
        if not self.read(&self.gold, g, gn) or not self.read(&self.test, t, tn):
            return False
        return self.calc(row)

    cdef bint read(self, Sentence* s, const char* line, Py_ssize_t n) except -1:
        """EVALB's ``read_line``: words (deleted ones left out), brackets over word indices,
        the length; False on anything EVALB reports while reading."""
        cdef const unsigned char* text = <const unsigned char*>line
        cdef const void* nul = memchr(line, 0, n)
        cdef Py_ssize_t p = 0, q, start, word
        cdef int top
        if nul != NULL:
            n = <const char*>nul - line
        s.wn = s.bn = s.sn = s.length = 0
        while p < n:
            c = text[p]
            if CLASS[c] == C_BLANK:
                p += 1
            elif c == b'(':
                p += 1
                start = p
                while p < n and CLASS[text[p]] == 0:
                    p += 1
                if p < n and CLASS[text[p]] == C_BLANK:
                    q = p
                    while q < n and CLASS[text[q]] == C_BLANK:
                        q += 1
                    word = q
                    while q < n and CLASS[text[q]] == 0:
                        q += 1
                    if q < n and text[q] == b')':  # (label word)
                        self.terminal(s, line + start, p - start, line + word, q - word)
                        p = q + 1
                        continue
                    if q >= n or text[q] != b'(':
                        return False  # "More than two elements in a bracket"
                sentence_open(s, line + start, p - start)
            elif c == b')':
                if s.sn == 0:
                    return False  # "Bracketing unbalance (too many close bracket)"
                s.sn -= 1
                top = s.stack[s.sn]
                s.brackets[top].end = s.wn
                p += 1
            else:
                return False  # "Reading sentence"
        return s.sn == 0  # else "Bracketing is unbalanced (too many open bracket)"

    cdef inline int terminal(self, Sentence* s, const char* label, Py_ssize_t ln, const char* word,
                             Py_ssize_t wn) except -1:
        if not labels_has(&self.deleted_for_length, label, ln):
            s.length += 1
        if not labels_has(&self.deleted, label, ln):
            sentence_word(s, word, wn, label, ln)
        return 0

    cdef inline bint label_equal(self, const char* a, Py_ssize_t an, const char* b, Py_ssize_t bn) noexcept:
        """EVALB's ``label_comp``: equal, or an ``EQ_LABEL`` pair either way round."""
        return span_equal(a, an, b, bn) or pair_equal(&self.eq_labels, a, an, b, bn)

    cdef int massage(self, Sentence* s) noexcept:
        """EVALB's ``massage_data``: labels cut at the first ``-`` or ``=``, empty brackets and
        deleted labels marked 5; the number of brackets kept."""
        cdef int i, kept = 0
        cdef Py_ssize_t k
        cdef Bracket* b
        for i in range(s.bn):
            b = &s.brackets[i]
            b.result = R_UNMATCHED
            if b.start == b.end:
                b.result = R_DELETED
                continue
            for k in range(b.label_len):
                if b.label[k] == b'-' or b.label[k] == b'=':
                    b.label_len = k
                    break
            if labels_has(&self.deleted_brackets, b.label, b.label_len):
                b.result = R_DELETED
            kept += b.result != R_DELETED
        return kept

    cdef int match_listed(self, Sentence* g, Sentence* t) noexcept:
        """``calc``'s matching (each gold bracket takes the first unmatched test bracket of its
        span and label) with the test brackets listed by start, in order: a gold bracket looks
        only at those of its start (g.wn < 64, t.bn <= MAX_LISTED)."""
        cdef int head[64]
        cdef int following[MAX_LISTED]
        cdef int i, j, matched = 0
        cdef Bracket* gb
        cdef Bracket* tb
        for i in range(g.wn + 1):
            head[i] = -1
        for j in range(t.bn - 1, -1, -1):
            tb = &t.brackets[j]
            if tb.result == R_UNMATCHED:
                following[j] = head[tb.start]
                head[tb.start] = j
        for i in range(g.bn):
            gb = &g.brackets[i]
            if gb.result == R_DELETED:
                continue
            j = head[gb.start]
            while j >= 0:
                tb = &t.brackets[j]
                if (tb.result == R_UNMATCHED and gb.end == tb.end
                        and (self.labeled == 0 or self.label_equal(gb.label, gb.label_len, tb.label, tb.label_len))):
                    gb.result = tb.result = R_MATCHED
                    matched += 1
                    break
                j = following[j]
        return matched

    cdef bint calc(self, int* row) noexcept:
        """EVALB's ``calc_result`` for the sentences read: the row's fields (not its id)."""
        cdef Sentence* g = &self.gold
        cdef Sentence* t = &self.test
        cdef int i, j, crossing = 0, matched = 0, correct = 0
        cdef Bracket* gb
        cdef Bracket* tb
        for i in range(N_FIELDS):
            row[i] = 0
        row[1] = g.length
        if t.wn == 0:
            row[2] = STATUS_SKIP
            return True
        if g.wn != t.wn:
            return False  # "Length unmatch" (after QUOTE_LABEL repairs)
        for i in range(g.wn):
            if not (span_equal(g.words[i].word, g.words[i].word_len, t.words[i].word, t.words[i].word_len)
                    or pair_equal(&self.eq_words, g.words[i].word, g.words[i].word_len, t.words[i].word,
                                  t.words[i].word_len)):
                return False  # "Words unmatch"
        row[4] = self.massage(g)
        row[5] = self.massage(t)
        if g.wn < 64 and t.bn <= MAX_LISTED:
            matched = self.match_listed(g, t)
            crossing = crossing_bits(g, t)
        else:
            for i in range(g.bn):
                gb = &g.brackets[i]
                if gb.result == R_DELETED:
                    continue
                for j in range(t.bn):
                    tb = &t.brackets[j]
                    if (tb.result == R_UNMATCHED and gb.start == tb.start and gb.end == tb.end
                            and (self.labeled == 0 or self.label_equal(gb.label, gb.label_len, tb.label, tb.label_len))):
                        gb.result = tb.result = R_MATCHED
                        matched += 1
                        break
            for j in range(t.bn):
                tb = &t.brackets[j]
                if tb.result == R_DELETED:
                    continue
                for i in range(g.bn):
                    gb = &g.brackets[i]
                    if gb.result != R_DELETED and (
                            (gb.start < tb.start and gb.end > tb.start and gb.end < tb.end)
                            or (gb.start > tb.start and gb.start < tb.end and gb.end > tb.end)):
                        crossing += 1
                        break
        for i in range(g.wn):
            correct += self.label_equal(g.words[i].label, g.words[i].label_len, t.words[i].label, t.words[i].label_len)
        row[3] = matched
        row[6] = crossing
        row[7] = g.wn
        row[8] = correct
        return True


include "evalb_rows.pxi"

del _c
