# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The judging page's compiled parts: its dependency pictures, many sentences at once
(spacy_agreement.report.judging_drawing), and the trees' JSON texts of its id and key
(:func:`tree_texts`, for spacy_agreement.report.judging_payload).

:func:`dependency_pictures` lays out each sentence's analyses as the report's stacked bands
(``report.svg.layout_dependency(..., stacked=True)``: word columns as wide as their text, a gap
widened where a label of an arc joining neighbours would not fit, arcs placed by nesting level and
raised until their labels are free, root and self stubs above everything under them) and renders
each band as a picture of its own (``report.judging_pictures._alone`` and ``report.svg.render_dependency``),
byte for byte as those Python functions write them: the same floating-point operations in the same
order (the module is compiled without contracting them into fused multiply-adds), coordinates
written as ``report.svg_parts._n`` writes them (rounded to one decimal, half to even on the exact
binary value, an integer without ``.0``).

Everything that depends on a string is measured and escaped by the caller once per distinct string
(text widths, what is shown of a long word, the escaped text): the loops here see integers and
floats only, and copy the strings' escaped UTF-8 from a table. Any input out of range raises
``ValueError`` before anything is drawn; nothing reads or writes out of bounds.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.math cimport ceil, fabs, fma, nearbyint
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdio cimport snprintf
from libc.stdlib cimport free, malloc, qsort, realloc
from libc.string cimport memchr, memcmp, memcpy, memmove, strlen

import numpy as np

# the sizes of report.svg_parts (px)
DEF WORD_SIZE = 13
DEF LABEL_SIZE = 10
DEF DIFF_SIZE = 11
DEF UNIT = 16
DEF WORD_PAD = 9
DEF MIN_COLUMN = 20
DEF LABEL_PAD = 4
DEF MARGIN = 6
DEF BAND_GAP = 12
DEF NAME_GAP = 12
DEF NAME_SIZE = 12
DEF WORD_HEIGHT = 17     # round(WORD_SIZE * 1.3)
DEF WORD_BASELINE = 12   # round(WORD_SIZE * 0.95)


# --- output -------------------------------------------------------------------------------------
cdef struct Out:
    char *buf
    Py_ssize_t len
    Py_ssize_t cap
    int failed


cdef inline void out_reserve(Out *o, Py_ssize_t extra) noexcept nogil:
    cdef Py_ssize_t want
    cdef char *grown
    if o.failed or o.len + extra <= o.cap:
        return
    want = o.cap * 2 if o.cap else 4096
    while want < o.len + extra:
        want *= 2
    grown = <char *>realloc(o.buf, want)
    if grown == NULL:
        o.failed = 1
        return
    o.buf = grown
    o.cap = want


cdef inline void put(Out *o, const char *s, Py_ssize_t n) noexcept nogil:
    out_reserve(o, n)
    if o.failed:
        return
    memcpy(o.buf + o.len, s, n)
    o.len += n


cdef inline void puts_(Out *o, const char *s) noexcept nogil:
    put(o, s, strlen(s))  # inlined: the compiler counts a literal's length


cdef void put_int(Out *o, int64_t v) noexcept nogil:
    cdef char tmp[24]
    cdef int i = 23
    cdef int negative = v < 0
    cdef uint64_t u = <uint64_t>(-v) if negative else <uint64_t>v
    tmp[i] = 0
    while True:
        i -= 1
        tmp[i] = <char>(48 + u % 10)
        u //= 10
        if u == 0:
            break
    if negative:
        i -= 1
        tmp[i] = 45
    put(o, tmp + i, 23 - i)



cdef void put_n(Out *o, double v) noexcept nogil:
    """``report.svg_parts._n``: ``round(v, 1)`` (the decimal nearest to ``v``'s exact binary value,
    half to even), written as an integer when its decimal is 0, else with one decimal."""
    cdef double p, k, d, e
    cdef int64_t tenths, whole
    cdef char tmp[400]  # the longest "%.1f" of a double: 309 digits, a sign, ".0"
    cdef int n
    if not (fabs(v) < 1e14):  # not a coordinate: the C library's exact conversion
        n = snprintf(tmp, 400, "%.1f", v)
        if n < 0 or n >= 400:  # inf or nan (Python's int() refuses them): as written
            n = 0
        if n >= 2 and tmp[n - 2] == 46 and tmp[n - 1] == 48:  # "X.0" -> "X", "-0" -> "0"
            n -= 2
            if n == 2 and tmp[0] == 45 and tmp[1] == 48:
                put(o, "0", 1)
                return
        put(o, tmp, n)
        return
    p = v * 10.0
    e = fma(v, 10.0, -p)  # 10 v = p + e exactly
    k = nearbyint(p)      # half to even
    d = p - k             # exact
    if d == 0.5 and e > 0:
        k += 1.0
    elif d == -0.5 and e < 0:
        k -= 1.0
    tenths = <int64_t>k
    if tenths % 10 == 0:
        put_int(o, tenths // 10)
        return
    if tenths < 0:
        put(o, "-", 1)
        tenths = -tenths
    whole = tenths // 10
    put_int(o, whole)
    put(o, ".", 1)
    tmp[0] = <char>(48 + tenths % 10)
    put(o, tmp, 1)


cdef inline void put_sep_n(Out *o, const char *sep, double v) noexcept nogil:
    """``sep`` then the coordinate ``v`` (a path's command letters and separators)."""
    puts_(o, sep)
    put_n(o, v)


# --- hover texts without the band's name (report.judging_pictures._nameless) -------------------
cdef inline bint colon_after(const char *s, Py_ssize_t n, Py_ssize_t i, const char *before, Py_ssize_t m) noexcept nogil:
    """Whether ``s[i]`` is the ``:`` of ``before + ": "`` (``before`` ``m`` bytes long)."""
    return i >= m and i + 1 < n and s[i + 1] == 32 and memcmp(s + i - m, before, m) == 0


cdef bint nameless(Out *o) noexcept nogil:
    """The two plain replacements of report.judging_pictures._nameless (``"<title>: "`` -> ``"<title>"``,
    then ``"; : "`` -> ``"; "``) in one pass over the colons; False (nothing done) where the picture
    holds ``"; not in: "`` and needs its regular expression. Each pattern's ``": "`` is dropped where
    the pattern is found in the picture as drawn: neither pattern overlaps itself or the other, and
    taking out the first's ``": "`` makes no new second (what precedes it is ``">"``), so one pass
    finds what the two replacements find one after the other."""
    cdef char *s = o.buf
    cdef Py_ssize_t n = o.len, i, read = 0, write = 0
    cdef char *p = <char *>memchr(s, 58, n) if n else NULL
    while p != NULL:
        i = p - s
        if colon_after(s, n, i, "; not in", 8):
            return False
        p = <char *>memchr(p + 1, 58, n - i - 1) if i + 1 < n else NULL
    p = <char *>memchr(s, 58, n) if n else NULL
    while p != NULL:
        i = p - s
        # the bytes before a colon are read where no byte was moved yet (the last move ends before
        # the previous match's ": ", and both patterns end in ": ")
        if colon_after(s, n, i, "<title>", 7) or colon_after(s, n, i, "; ", 2):
            memmove(s + write, s + read, i - read)
            write += i - read
            read = i + 2
        p = <char *>memchr(p + 1, 58, n - i - 1) if i + 1 < n else NULL
    memmove(s + write, s + read, n - read)
    o.len = write + n - read
    return True


cdef const char *HEX = "0123456789abcdef"
# the short escapes of the control characters (U+0000 to U+001F) that have one; "0": none, \u00XX
cdef const char *SHORT = "00000000btn0fr000000000000000000"


# the bytes a JSON string escapes: the control characters, the quote and the backslash
cdef uint8_t ESCAPED[256]
for _c in range(256):
    ESCAPED[_c] = _c < 0x20 or _c == 34 or _c == 92


cdef void put_json(Out *o, const char *s, Py_ssize_t n) noexcept nogil:
    """``s`` (UTF-8) as the inside of a JSON string, as ``json.dumps(..., ensure_ascii=False)`` writes
    it: quotes and backslashes escaped, control characters as their short escapes or ``\\u00XX``."""
    cdef Py_ssize_t i, run = 0
    cdef unsigned char c
    cdef char tmp[6]
    out_reserve(o, n + n // 8 + 16)
    for i in range(n):
        c = <unsigned char>s[i]
        if not ESCAPED[c]:
            continue
        put(o, s + run, i - run)
        run = i + 1
        tmp[0] = 92  # a backslash, then what it escapes
        if c == 34 or c == 92:
            tmp[1] = <char>c
            put(o, tmp, 2)
        elif SHORT[c] != 48:  # \b \t \n \f \r
            tmp[1] = SHORT[c]
            put(o, tmp, 2)
        else:
            tmp[1] = 117
            tmp[2] = 48
            tmp[3] = 48
            tmp[4] = HEX[c >> 4]
            tmp[5] = HEX[c & 15]
            put(o, tmp, 6)
    put(o, s + run, n - run)


# --- strings ------------------------------------------------------------------------------------
cdef struct Strings:
    const char **text
    Py_ssize_t *size
    Py_ssize_t count


cdef inline void put_string(Out *o, Strings *s, int32_t k) noexcept nogil:
    put(o, s.text[k], s.size[k])


cdef int read_strings(tuple kept, Strings *table) except -1:
    """``table`` pointing into the texts of ``kept`` (bytes only, else TypeError), which the caller
    holds while the loops read them without the GIL and frees ``table.text`` and ``table.size``
    after (NULL where not allocated)."""
    cdef Py_ssize_t k, count = len(kept)
    for text in kept:
        if type(text) is not bytes:
            raise TypeError("strings: bytes only")
    table.count = count
    table.text = <const char **>malloc((count + 1) * sizeof(char *))
    table.size = <Py_ssize_t *>malloc((count + 1) * sizeof(Py_ssize_t))
    if table.text == NULL or table.size == NULL:
        raise MemoryError()
    for k in range(count):
        table.text[k] = PyBytes_AS_STRING(kept[k])
        table.size[k] = PyBytes_GET_SIZE(kept[k])
    return 0


# --- placement (report.svg._place_dependency_band, report.svg_parts._conflicts) -----------------
cdef struct Item:
    int32_t key
    int32_t first
    int32_t last
    double s0
    double s1
    double cx
    double width      # the label's text width plus LABEL_PAD
    int32_t size      # its font size
    int32_t level
    double x0
    double y0
    double x1
    double y1


cdef inline void place(Item *it, int32_t level) noexcept nogil:
    cdef int32_t cy = level * UNIT
    cdef int32_t h = it.size + 3
    it.level = level
    it.x0 = it.cx - it.width / 2
    it.y0 = cy - h / 2.0
    it.x1 = it.cx + it.width / 2
    it.y1 = cy + h / 2.0


cdef bint conflicts(Item *it, Item *placed, Py_ssize_t n_placed) noexcept nogil:
    cdef double x0 = it.x0, y0 = it.y0, x1 = it.x1, y1 = it.y1
    cdef int32_t level = it.level, first = it.first, last = it.last
    cdef double s0 = it.s0, s1 = it.s1
    cdef int32_t y = level * UNIT
    cdef bint on_line = y0 < y and y < y1
    cdef Py_ssize_t j
    cdef Item *p
    for j in range(n_placed):
        p = &placed[j]
        if x0 < p.x1 and p.x0 < x1 and y0 < p.y1 and p.y0 < y1:
            return True
        if p.level != level:
            continue
        if first < p.last and p.first < last:
            return True
        if on_line and x0 < p.s1 - 1 and p.s0 + 1 < x1:
            return True
        if p.x0 < s1 - 1 and s0 + 1 < p.x1:
            return True
    return False


cdef inline void raise_until_free(Item *it, int32_t level, Item *placed, Py_ssize_t *n_placed) noexcept nogil:
    place(it, level)
    while conflicts(it, placed, n_placed[0]):
        place(it, it.level + 1)
    placed[n_placed[0]] = it[0]
    n_placed[0] += 1


cdef int by_span(const void *a, const void *b) noexcept nogil:
    cdef const Item *x = <const Item *>a
    cdef const Item *y = <const Item *>b
    cdef int32_t dx = x.last - x.first, dy = y.last - y.first
    if dx != dy:
        return -1 if dx < dy else 1
    if x.first != y.first:
        return -1 if x.first < y.first else 1
    return -1 if x.key < y.key else (1 if x.key > y.key else 0)


cdef int by_key(const void *a, const void *b) noexcept nogil:
    cdef const Item *x = <const Item *>a
    cdef const Item *y = <const Item *>b
    return -1 if x.key < y.key else (1 if x.key > y.key else 0)


cdef int32_t place_band(const int32_t *heads, const double *plain, const double *bold, const uint8_t *differs,
                        const double *xs, Py_ssize_t n, Item *work, Item *placed) noexcept nogil:
    """One band's items placed (in ``placed``, in key order); its highest level."""
    cdef Py_ssize_t k, j, n_arcs = 0, n_stubs = 0, n_placed = 0
    cdef int32_t h, lo, hi, start, top = 0
    cdef double r
    cdef Item *it
    cdef Item *stubs = work + n  # the second half of the work space
    for k in range(n):
        h = heads[k] - 1
        if h < 0 or h == k:
            it = &stubs[n_stubs]
            n_stubs += 1
            it.first = <int32_t>k
            it.last = <int32_t>k
            it.s0 = xs[k]
            it.s1 = xs[k]
            it.cx = xs[k]
        else:
            it = &work[n_arcs]
            n_arcs += 1
            lo = h if h < k else <int32_t>k
            hi = <int32_t>k if h < k else h
            r = (xs[hi] - xs[lo]) / 2
            if not (r < 4.0):
                r = 4.0
            it.first = lo
            it.last = hi
            it.s0 = xs[lo] + r
            it.s1 = xs[hi] - r
            it.cx = (xs[lo] + xs[hi]) / 2
        it.key = <int32_t>k
        if differs[k]:
            it.width = bold[k] + LABEL_PAD
            it.size = DIFF_SIZE
        else:
            it.width = plain[k] + LABEL_PAD
            it.size = LABEL_SIZE
    qsort(work, n_arcs, sizeof(Item), by_span)
    for k in range(n_arcs):
        it = &work[k]
        start = 0
        for j in range(n_placed):
            if it.first <= placed[j].first and placed[j].last <= it.last and \
                    not (placed[j].first == it.first and placed[j].last == it.last) and placed[j].level > start:
                start = placed[j].level
        raise_until_free(it, start + 1, placed, &n_placed)
    for k in range(n_stubs):
        it = &stubs[k]
        start = 0
        for j in range(n_placed):
            if placed[j].first <= it.first and it.first <= placed[j].last and placed[j].level > start:
                start = placed[j].level
        raise_until_free(it, start + 1, placed, &n_placed)
    for k in range(n_placed):
        if placed[k].level > top:
            top = placed[k].level
    qsort(placed, n_placed, sizeof(Item), by_key)
    return top


cdef void columns(const double *widths, const double *extra, Py_ssize_t n, double *xs, double *cols) noexcept nogil:
    """report.svg_parts._columns."""
    cdef Py_ssize_t i
    cdef double x, c
    for i in range(n):
        c = ceil(widths[i] + WORD_PAD)
        cols[i] = c if c > MIN_COLUMN else MIN_COLUMN
    x = cols[0] / 2 if n else 0.0
    for i in range(n):
        if i:
            x += (cols[i - 1] + cols[i]) / 2 + extra[i - 1]
        xs[i] = nearbyint(x)


# --- one sentence -------------------------------------------------------------------------------
cdef struct Sentence:
    Py_ssize_t n          # words
    Py_ssize_t bands
    Py_ssize_t stride     # between two bands' rows in the per-token arrays
    const double *word_width
    const int32_t *word_shown
    const int32_t *word_title   # -1: the word is shown whole
    const int32_t *word_key     # equal for equal (cleaned) words
    const int32_t *heads
    const double *plain
    const double *bold
    const int32_t *label_shown
    const int32_t *label_title
    const uint8_t *layout_bold  # what the layout marks (label sizes while placing)
    const uint8_t *flags        # what each picture marks


cdef void put_svg(Out *o, Sentence *s, Strings *strings, Item *arcs, double *xs, double base, double dy,
                  double width, double height, double name_baseline, double baseline, Py_ssize_t a) noexcept nogil:
    """One band alone (report.judging_pictures._alone, then report.svg.render_dependency without
    its style block)."""
    cdef Py_ssize_t n = s.n, k, j, count
    cdef const int32_t *heads = s.heads + a * s.stride
    cdef const uint8_t *flags = s.flags + a * s.stride
    cdef const int32_t *label_shown = s.label_shown + a * s.stride
    cdef const int32_t *label_title = s.label_title + a * s.stride
    cdef Item *it
    cdef int32_t h, size
    cdef int sy, sx
    cdef double y_top, y_base, x_head, x_dep, r, cx, y, y0, y1
    puts_(o, '<svg xmlns="http://www.w3.org/2000/svg" class="sa-parse sa-dep" viewBox="0 0 ')
    put_n(o, width)
    put(o, " ", 1)
    put_n(o, height)
    puts_(o, '" width="100%" style="max-width:')
    put_n(o, width)
    puts_(o, 'px;height:auto" data-width="')
    put_n(o, width)
    puts_(o, '" data-height="')
    put_n(o, height)
    puts_(o, '" font-family="Arial,Helvetica,sans-serif" role="img">')
    puts_(o, '<g class="band" data-annotator=""><text class="name" x="6" y="')
    put_n(o, name_baseline + dy)
    puts_(o, '"></text>')
    for k in range(n):
        it = &arcs[k]
        h = heads[k] - 1
        y_base = base + dy
        y_top = (base + (-it.level) * UNIT) + dy
        x_dep = xs[k]
        x_head = xs[h] if h >= 0 else xs[k]
        puts_(o, '<path class="arc')
        if h < 0:
            puts_(o, " root")
        elif h == k:
            puts_(o, " self")
        if flags[k]:
            puts_(o, " differs")
        puts_(o, '" data-dep="')
        put_int(o, k + 1)
        puts_(o, '" d="M')
        sy = -1 if y_top < y_base else 1
        if h < 0 or h == k:
            put_n(o, x_dep)
            put_sep_n(o, ",", y_top)
            put_sep_n(o, "V", y_base)
        else:
            sx = 1 if x_dep > x_head else -1
            r = fabs(x_dep - x_head) / 2
            if not (r < 4.0):
                r = 4.0
            put_n(o, x_head)
            put_sep_n(o, ",", y_base)
            put_sep_n(o, "V", y_top - sy * r)
            put_sep_n(o, "q0,", sy * r)
            put_sep_n(o, " ", sx * r)
            put_sep_n(o, ",", sy * r)
            put_sep_n(o, "H", x_dep - sx * r)
            put_sep_n(o, "q", sx * r)
            put_sep_n(o, ",0 ", sx * r)
            put_sep_n(o, ",", -sy * r)
            put_sep_n(o, "V", y_base)
        puts_(o, "m-3,")
        put_int(o, 5 * sy)
        put(o, "l3,", 3)
        put_int(o, -5 * sy)
        put(o, " 3,", 3)
        put_int(o, 5 * sy)
        puts_(o, '"/>')
    for k in range(n):
        it = &arcs[k]
        y0 = it.y0 + dy
        y1 = it.y1 + dy
        cx = (it.x0 + it.x1) / 2
        size = DIFF_SIZE if flags[k] else LABEL_SIZE
        y = (y0 + y1) / 2 + size * 0.35
        puts_(o, '<text class="label')
        if flags[k]:
            puts_(o, " differs")
        puts_(o, '" x="')
        put_n(o, cx)
        puts_(o, '" y="')
        put_n(o, y)
        puts_(o, '">')
        put_string(o, strings, label_shown[k])
        if label_title[k] >= 0:
            puts_(o, "<title>")
            put_string(o, strings, label_title[k])
            puts_(o, "</title>")
        puts_(o, "</text>")
    puts_(o, '</g><g class="words">')
    for k in range(n):
        puts_(o, '<text class="word" x="')
        put_n(o, xs[k])
        puts_(o, '" y="')
        put_n(o, baseline + dy)
        puts_(o, '">')
        put_string(o, strings, s.word_shown[k])
        if s.word_title[k] >= 0 or flags[k]:
            puts_(o, "<title>")
            if s.word_title[k] >= 0:
                put_string(o, strings, s.word_title[k])
                if flags[k]:
                    put(o, "; ", 2)
            if flags[k]:  # report.svg._dependency_tip of one nameless band
                put(o, ": ", 2)
                put_string(o, strings, label_shown[k])
                h = heads[k]
                if h == 0:
                    puts_(o, " (root)")
                else:
                    puts_(o, " of ")
                    put_string(o, strings, s.word_shown[h - 1])
                    count = 0
                    for j in range(n):
                        if s.word_key[j] == s.word_key[h - 1]:
                            count += 1
                    if count > 1:
                        puts_(o, " (")
                        put_int(o, h)
                        put(o, ")", 1)
            puts_(o, "</title>")
        puts_(o, "</text>")
    puts_(o, "</g></svg>")


cdef int draw(Sentence *s, Strings *strings, Out *outs, double *space, Item *items) noexcept nogil:
    """The sentence's bands, each a picture of its own in ``outs[band]`` (report.svg.layout_dependency
    with ``stacked=True``, then each band alone). 0, or -1 when out of memory."""
    cdef Py_ssize_t n = s.n, B = s.bands, a, k, lo, h
    cdef double *extra = space
    cdef double *xs = space + n
    cdef double *cols = space + 2 * n
    cdef double need, gap, min_x, dx, y, base, top, right, width, height, bottom, t, name_baseline, baseline
    cdef int32_t level
    cdef int32_t *levels = <int32_t *>malloc(B * sizeof(int32_t))
    cdef Item *work = items                 # 2 n items
    cdef Item *placed = items + 2 * n       # B n items, band by band
    cdef Item *p
    if levels == NULL:
        return -1
    # widen the gap between two words so that the label of an arc joining them fits
    for k in range(n - 1 if n else 0):
        extra[k] = 0.0
    columns(s.word_width, extra, n, xs, cols)
    for a in range(B):
        for k in range(n):
            h = s.heads[a * s.stride + k] - 1
            if h >= 0 and (h - k == 1 or k - h == 1):
                lo = h if h < k else k
                if s.layout_bold[a * s.stride + k]:
                    need = s.bold[a * s.stride + k] + LABEL_PAD + 10
                else:
                    need = s.plain[a * s.stride + k] + LABEL_PAD + 10
                gap = need - (xs[lo + 1] - xs[lo])
                if gap > extra[lo]:
                    extra[lo] = gap
    columns(s.word_width, extra, n, xs, cols)
    for a in range(B):
        levels[a] = place_band(s.heads + a * s.stride, s.plain + a * s.stride, s.bold + a * s.stride,
                               s.layout_bold + a * s.stride, xs, n, work, placed + a * n)
    # every box right of the (empty) names
    min_x = xs[0] - cols[0] / 2
    for k in range(1, n):
        t = xs[k] - cols[k] / 2
        if t < min_x:
            min_x = t
    for k in range(B * n):
        if placed[k].x0 < min_x:
            min_x = placed[k].x0
    dx = nearbyint(((MARGIN + 0.0) + NAME_GAP) - min_x)
    for k in range(n):
        xs[k] = xs[k] + dx
    for k in range(B * n):
        placed[k].x0 = placed[k].x0 + dx
        placed[k].x1 = placed[k].x1 + dx
    right = xs[0] + cols[0] / 2
    for k in range(1, n):
        t = xs[k] + cols[k] / 2
        if t > right:
            right = t
    for k in range(B * n):
        if placed[k].x1 > right:
            right = placed[k].x1
    width = ceil(right + MARGIN)
    y = MARGIN
    for a in range(B):
        base = y + ((levels[a] * UNIT + (DIFF_SIZE + 3) / 2.0) + 2)
        top = base + 3
        baseline = top + WORD_BASELINE
        name_baseline = baseline
        # band coordinates (height up) to picture coordinates, then the band alone at the top
        t = name_baseline - NAME_SIZE   # the name's box
        if top < t:
            t = top
        for k in range(n):
            p = &placed[a * n + k]
            p.y0, p.y1 = base - p.y1, base - p.y0
            if base + (-p.level) * UNIT < t:
                t = base + (-p.level) * UNIT
            if p.y0 < t:
                t = p.y0
        bottom = top + WORD_HEIGHT
        if name_baseline + 3 > bottom:
            bottom = name_baseline + 3
        height = nearbyint((bottom - t) + 2 * MARGIN)
        put_svg(&outs[a], s, strings, placed + a * n, xs, base, MARGIN - t, width, height, name_baseline, baseline, a)
        y = top + WORD_HEIGHT + BAND_GAP
    free(levels)
    return 0


def dependency_pictures(list strings, const int64_t[::1] offsets, const double[::1] word_width,
                        const int32_t[::1] word_shown, const int32_t[::1] word_title, const int32_t[::1] word_key,
                        const int32_t[:, ::1] heads, const double[:, ::1] plain, const double[:, ::1] bold,
                        const int32_t[:, ::1] label_shown, const int32_t[:, ::1] label_title,
                        const uint8_t[:, ::1] layout_bold, const uint8_t[:, ::1] flags, bint json=False):
    """Each sentence's analyses, each alone in a picture (module docstring): a list per sentence of
    one ``<svg>`` string per analysis, their hover texts without the band's name as
    ``report.judging_pictures._nameless`` writes them; and the ``(sentence, analysis)`` of the
    pictures left as drawn, where that function needs its regular expression (a word or label holds
    ``"; not in: "``). ``json=True``: each picture as the UTF-8 inside of a JSON string (bytes, as
    ``json.dumps(svg, ensure_ascii=False)[1:-1]``), the pictures left as drawn as ``str``.

    ``strings``: the escaped UTF-8 texts (``bytes``) the other arguments point into. Sentence ``i``
    is tokens ``offsets[i]:offsets[i + 1]`` of the per-token arrays: ``word_width`` (the shown
    word's text width at the word size), ``word_shown`` (its escaped shown text), ``word_title``
    (the whole word, escaped, where it is shortened; else -1), ``word_key`` (equal for equal
    words). One row per analysis in the others: ``heads`` (1-based, 0 the root), ``plain`` and
    ``bold`` (the shown label's text width at the label size, and bold at the size of a label that
    differs), ``label_shown`` and ``label_title`` (as the word's), ``layout_bold`` (the label is
    placed as one that differs), ``flags`` (the picture marks it as one that differs)."""
    cdef Py_ssize_t n_items = offsets.shape[0] - 1, T = word_width.shape[0], B = heads.shape[0]
    cdef tuple kept = tuple(strings)  # the texts held here while their bytes are read without the GIL
    cdef Py_ssize_t i, k, a, n, top = 0, count = len(kept)
    cdef int64_t start, end
    cdef int32_t v, shown, title
    cdef Strings table
    cdef Sentence s
    cdef Out *outs = NULL
    cdef Out escaped
    escaped.buf = NULL
    cdef bint done
    cdef double *space = NULL
    cdef Item *items = NULL
    cdef object text
    cdef list raw = []
    if n_items < 0:
        raise ValueError("offsets: at least one entry (0)")
    if B < 1:
        raise ValueError("no analyses to draw")
    for name, rows in (("heads", (heads.shape[0], heads.shape[1])),
                       ("plain", (plain.shape[0], plain.shape[1])), ("bold", (bold.shape[0], bold.shape[1])),
                       ("label_shown", (label_shown.shape[0], label_shown.shape[1])),
                       ("label_title", (label_title.shape[0], label_title.shape[1])),
                       ("layout_bold", (layout_bold.shape[0], layout_bold.shape[1])),
                       ("flags", (flags.shape[0], flags.shape[1]))):
        if rows[0] != B or rows[1] != T:
            raise ValueError(f"{name}: shape ({rows[0]}, {rows[1]}), not ({B}, {T})")
    for name, size in (("word_shown", word_shown.shape[0]), ("word_title", word_title.shape[0]),
                       ("word_key", word_key.shape[0])):
        if size != T:
            raise ValueError(f"{name}: {size} entries, not {T}")
    if offsets[0] != 0 or offsets[n_items] != T:
        raise ValueError(f"offsets must run from 0 to {T}")
    for i in range(n_items):
        start, end = offsets[i], offsets[i + 1]
        if end <= start:
            raise ValueError(f"sentence {i}: no words")
        n = end - start
        if n > top:
            top = n
        for k in range(start, end):  # plain C comparisons; the message built where one fails
            shown, title = word_shown[k], word_title[k]
            if not (-1 <= shown < count):
                raise ValueError(f"sentence {i}, token {k - start + 1}: string {shown} out of range")
            if not (-1 <= title < count):
                raise ValueError(f"sentence {i}, token {k - start + 1}: string {title} out of range")
            if shown < 0:
                raise ValueError(f"sentence {i}, token {k - start + 1}: no word")
            for a in range(B):
                if not (0 <= heads[a, k] <= n):
                    raise ValueError(f"sentence {i}, analysis {a}: head {heads[a, k]} of token "
                                     f"{k - start + 1} out of range 0..{n}")
                shown, title = label_shown[a, k], label_title[a, k]
                if not (-1 <= shown < count):
                    raise ValueError(f"sentence {i}, token {k - start + 1}: string {shown} out of range")
                if not (-1 <= title < count):
                    raise ValueError(f"sentence {i}, token {k - start + 1}: string {title} out of range")
                if shown < 0:
                    raise ValueError(f"sentence {i}, analysis {a}, token {k - start + 1}: no label")
    table.text = NULL
    table.size = NULL
    outs = <Out *>malloc(B * sizeof(Out))
    space = <double *>malloc((3 * top + 1) * sizeof(double))
    items = <Item *>malloc(((2 + B) * top + 1) * sizeof(Item))
    result = []
    try:
        if outs == NULL or space == NULL or items == NULL:
            raise MemoryError()
        for a in range(B):  # before anything can raise: the buffers the finally clause frees
            outs[a].buf = NULL
            outs[a].len = outs[a].cap = outs[a].failed = 0
        escaped.buf = NULL
        escaped.len = escaped.cap = escaped.failed = 0
        read_strings(kept, &table)
        s.bands = B
        s.stride = T
        for i in range(n_items):
            start = offsets[i]
            s.n = offsets[i + 1] - start
            s.word_width = &word_width[start]
            s.word_shown = &word_shown[start]
            s.word_title = &word_title[start]
            s.word_key = &word_key[start]
            s.heads = &heads[0, start]
            s.plain = &plain[0, start]
            s.bold = &bold[0, start]
            s.label_shown = &label_shown[0, start]
            s.label_title = &label_title[0, start]
            s.layout_bold = &layout_bold[0, start]
            s.flags = &flags[0, start]
            with nogil:
                for a in range(B):
                    outs[a].len = 0
                v = draw(&s, &table, outs, space, items)
                for a in range(B):
                    if outs[a].failed:
                        v = -1
            if v != 0:
                raise MemoryError()
            pictures = []
            for a in range(B):
                with nogil:
                    done = nameless(&outs[a])
                    if done and json:
                        escaped.len = 0
                        put_json(&escaped, outs[a].buf, outs[a].len)
                if escaped.failed:
                    raise MemoryError()
                if not done:
                    raw.append((i, a))
                if done and json:
                    pictures.append(PyBytes_FromStringAndSize(escaped.buf, escaped.len))
                else:
                    pictures.append(PyUnicode_DecodeUTF8(outs[a].buf, outs[a].len, "strict"))
            result.append(pictures)
    finally:
        free(escaped.buf)
        if outs != NULL:
            for a in range(B):
                free(outs[a].buf)
        free(outs)
        free(space)
        free(items)
        free(<void *>table.text)
        free(table.size)
    return result, raw


def coordinate(double v):
    """``v`` as the pictures write a coordinate (``report.svg_parts._n``)."""
    cdef Out o
    o.buf = NULL
    o.len = o.cap = o.failed = 0
    try:
        put_n(&o, v)
        if o.failed:
            raise MemoryError()
        return PyUnicode_DecodeUTF8(o.buf, o.len, "strict")
    finally:
        free(o.buf)
cdef void put_list(Out *o, Strings *s, const int32_t *codes, Py_ssize_t n, const char *sep, Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t k
    put(o, "[", 1)
    for k in range(n):
        if k:
            put(o, sep, m)
        put_string(o, s, codes[k])
    put(o, "]", 1)


cdef void put_ints(Out *o, const int32_t *values, Py_ssize_t n, const char *sep, Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t k
    put(o, "[", 1)
    for k in range(n):
        if k:
            put(o, sep, m)
        put_int(o, values[k])
    put(o, "]", 1)


cdef void put_tree(Out *o, Strings *s, const int32_t *forms, const int32_t *heads, const int32_t *deprels,
                   const int32_t *upos, Py_ssize_t n, bint with_upos, bint spaced) noexcept nogil:
    """``json.dumps(tree_json(tree), ensure_ascii=False)``, spaced (``", "``, ``": "``) or compact."""
    cdef const char *sep = ", " if spaced else ","
    cdef Py_ssize_t m = 2 if spaced else 1
    puts_(o, '{"forms": ' if spaced else '{"forms":')
    put_list(o, s, forms, n, sep, m)
    puts_(o, ', "heads": ' if spaced else ',"heads":')
    put_ints(o, heads, n, sep, m)
    puts_(o, ', "deprels": ' if spaced else ',"deprels":')
    put_list(o, s, deprels, n, sep, m)
    if with_upos:
        puts_(o, ', "upos": ' if spaced else ',"upos":')
        put_list(o, s, upos, n, sep, m)
    put(o, "}", 1)


def tree_texts(list strings, const int64_t[::1] offsets, const int32_t[::1] forms, const int32_t[::1] heads,
               const int32_t[::1] deprels, const int32_t[::1] upos, const uint8_t[::1] with_upos):
    """Each dependency tree as the judging page's id and key write it: ``(spaced, compact)``, UTF-8,
    ``json.dumps(tree_json(tree), ensure_ascii=False)`` and the same with ``separators=(",", ":")``.
    Tree ``i`` is tokens ``offsets[i]:offsets[i + 1]``: ``forms``, ``deprels`` and ``upos`` index
    ``strings`` (each string JSON-encoded, quotes included), ``heads`` its heads; ``with_upos[i]``
    whether its UPOS are written (``tree_json`` writes them where one is not ``_``)."""
    cdef tuple kept = tuple(strings)
    cdef Py_ssize_t n_trees = offsets.shape[0] - 1, T = forms.shape[0], count = len(kept), i, k
    cdef int64_t start, end
    cdef Strings table
    cdef Out o
    cdef bint spaced
    if n_trees < 0 or offsets[0] != 0 or offsets[n_trees] != T:
        raise ValueError(f"offsets must run from 0 to {T}")
    if heads.shape[0] != T or deprels.shape[0] != T or upos.shape[0] != T or with_upos.shape[0] != n_trees:
        raise ValueError("forms, heads, deprels and upos: one entry per token; with_upos: one per tree")
    for i in range(n_trees):
        if offsets[i + 1] < offsets[i]:
            raise ValueError(f"offsets must not decrease (tree {i})")
    for k in range(T):
        if not (0 <= forms[k] < count and 0 <= deprels[k] < count and 0 <= upos[k] < count):
            raise ValueError(f"token {k}: string out of range")
    table.text = NULL
    table.size = NULL
    o.buf = NULL
    o.len = o.cap = o.failed = 0
    result = []
    try:
        read_strings(kept, &table)
        for i in range(n_trees):
            start, end = offsets[i], offsets[i + 1]
            pair = []
            for spaced in (True, False):
                o.len = 0
                put_tree(&o, &table, &forms[start] if end > start else NULL, &heads[start] if end > start else NULL,
                         &deprels[start] if end > start else NULL, &upos[start] if end > start else NULL,
                         end - start, with_upos[i], spaced)
                if o.failed:
                    raise MemoryError()
                pair.append(PyBytes_FromStringAndSize(o.buf, o.len))
            result.append(tuple(pair))
    finally:
        free(o.buf)
        free(<void *>table.text)
        free(table.size)
    return result
