# EVALB's sentence structures (included by _evalb.pyx): its s_terminal and s_bracket arrays, grown
# as needed instead of fixed at 200. Words and labels are spans of the line being read (or of the
# parameter file's labels), never copied.

ctypedef struct Span:
    const char* text
    Py_ssize_t n

ctypedef struct Labels:  # a list of labels: DELETE_LABEL, ...; EQ_LABEL/EQ_WORD as pairs in a row
    Span* items
    int n
    int cap
    unsigned char first[256]  # 1 for the first byte of a label: a quick "not in"
    bint has_empty

ctypedef struct Word:  # EVALB's s_terminal: a kept word and its tag
    const char* word
    const char* label
    Py_ssize_t word_len
    Py_ssize_t label_len

ctypedef struct Bracket:  # EVALB's s_bracket: words [start, end), label, result
    const char* label
    Py_ssize_t label_len
    int start
    int end
    int result

ctypedef struct Sentence:
    Word* words
    Bracket* brackets
    int* stack  # open brackets
    int wn, bn, sn
    int wcap, bcap, scap
    int length  # words not in DELETE_LABEL_FOR_LENGTH (deleted ones included)


cdef void* grow(void* data, int* cap, int need, size_t size) except NULL:
    """``data`` with room for ``need`` items (doubling); MemoryError when none is left."""
    cdef Py_ssize_t n = cap[0] if cap[0] > 0 else 16
    cdef void* out = NULL
    while n < need:
        n *= 2
    if n <= 0x7fffffff:
        out = realloc(data, n * size)
    if out == NULL:
        raise MemoryError("evalb: no memory left for a sentence's words or brackets")
    cap[0] = <int>n
    return out


cdef void sentence_init(Sentence* s) noexcept:
    s.words = NULL
    s.brackets = NULL
    s.stack = NULL
    s.wn = s.bn = s.sn = 0
    s.wcap = s.bcap = s.scap = 0
    s.length = 0


cdef void sentence_free(Sentence* s) noexcept:
    free(s.words)
    free(s.brackets)
    free(s.stack)
    sentence_init(s)


cdef inline int sentence_word(Sentence* s, const char* word, Py_ssize_t wn, const char* label, Py_ssize_t ln) except -1:
    if s.wn == s.wcap:
        s.words = <Word*>grow(s.words, &s.wcap, s.wn + 1, sizeof(Word))
    s.words[s.wn].word = word
    s.words[s.wn].word_len = wn
    s.words[s.wn].label = label
    s.words[s.wn].label_len = ln
    s.wn += 1
    return 0


cdef inline int sentence_open(Sentence* s, const char* label, Py_ssize_t ln) except -1:
    """A bracket opens at the next word: EVALB's push."""
    if s.bn == s.bcap:
        s.brackets = <Bracket*>grow(s.brackets, &s.bcap, s.bn + 1, sizeof(Bracket))
    if s.sn == s.scap:
        s.stack = <int*>grow(s.stack, &s.scap, s.sn + 1, sizeof(int))
    s.brackets[s.bn].label = label
    s.brackets[s.bn].label_len = ln
    s.brackets[s.bn].start = s.wn
    s.brackets[s.bn].end = -1
    s.brackets[s.bn].result = 9
    s.stack[s.sn] = s.bn
    s.sn += 1
    s.bn += 1
    return 0


cdef void labels_init(Labels* labels) noexcept:
    cdef int k
    labels.items = NULL
    labels.n = labels.cap = 0
    labels.has_empty = False
    for k in range(256):
        labels.first[k] = 0


cdef int labels_add(Labels* labels, const char* text, Py_ssize_t n) except -1:
    if labels.n == labels.cap:
        labels.items = <Span*>grow(labels.items, &labels.cap, labels.n + 1, sizeof(Span))
    labels.items[labels.n].text = text
    labels.items[labels.n].n = n
    labels.n += 1
    if n > 0:
        labels.first[<unsigned char>text[0]] = 1
    else:
        labels.has_empty = True
    return 0


cdef inline bint span_equal(const char* a, Py_ssize_t an, const char* b, Py_ssize_t bn) noexcept:
    return an == bn and (an == 0 or (a[0] == b[0] and (an == 1 or memcmp(a + 1, b + 1, an - 1) == 0)))


cdef inline bint labels_has(Labels* labels, const char* text, Py_ssize_t n) noexcept:
    """``text`` is one of ``labels`` (Python's ``in`` on a tuple: exact equality)."""
    cdef int k
    if n > 0:
        if labels.first[<unsigned char>text[0]] == 0:
            return False
    elif not labels.has_empty:
        return False
    for k in range(labels.n):
        if span_equal(labels.items[k].text, labels.items[k].n, text, n):
            return True
    return False


cdef inline bint pair_equal(Labels* pairs, const char* a, Py_ssize_t an, const char* b, Py_ssize_t bn) noexcept:
    """``(a, b)`` or ``(b, a)`` is one of the pairs (EVALB's EQ_LABEL / EQ_WORD tables)."""
    cdef int k
    cdef Span* x
    for k in range(0, pairs.n, 2):
        x = &pairs.items[k]
        if ((span_equal(x[0].text, x[0].n, a, an) and span_equal(x[1].text, x[1].n, b, bn))
                or (span_equal(x[0].text, x[0].n, b, bn) and span_equal(x[1].text, x[1].n, a, an))):
            return True
    return False
