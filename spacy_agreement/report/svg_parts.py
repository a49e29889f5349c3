"""The parts the report's SVG drawings share (:mod:`spacy_agreement.report.svg` says what is drawn
and how): sizes and the style block, text widths and escaping, label boxes and how labels are
raised until they are free, word columns, the band and layout records, and the pieces of
rendering every drawing uses (the ``<svg>`` element, labels, names, words, score colours)."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import List, Optional, Sequence, Tuple

import numpy as np

from .escape import text
from .format import percent

# --- sizes (px) ---------------------------------------------------------------------------
WORD_SIZE = 13           # words
LABEL_SIZE = 10          # labels of agreeing arcs and brackets, tags
DIFF_SIZE = 11           # labels that differ (bold)
NAME_SIZE = 12           # annotator names (bold)
UNIT = 16                # height of one level
WORD_PAD = 9             # a word column is its text plus this
MIN_COLUMN = 20          # and never narrower
LABEL_PAD = 4            # a label's box is its text plus this (2 each side)
MARGIN = 6
BAND_GAP = 12            # between stacked bands
NAME_GAP = 12            # between the names and the picture
MAX_WORD = 30            # characters shown of a word, a label, a name; the rest in a <title>
MAX_LABEL = 20
MAX_NAME = 20

STYLE = (
    "svg.sa-parse text{text-anchor:middle}"
    "svg.sa-parse .name{text-anchor:start;font-weight:bold;font-size:12px;fill:#333}"
    "svg.sa-parse .word{font-size:13px;fill:#111}"
    "svg.sa-parse .arc,svg.sa-parse .bracket{fill:none;stroke:#c4c4c4}"
    "svg.sa-parse .differs.arc,svg.sa-parse .differs.bracket{stroke:#d62728;stroke-width:1.6}"
    "svg.sa-parse .self{stroke-dasharray:3 2}"
    "svg.sa-parse .label,svg.sa-parse .tag{font-size:10px;fill:#8c8c8c;paint-order:stroke;stroke:#fff;"
    "stroke-width:3px;stroke-linejoin:round}"
    "svg.sa-parse .differs.label,svg.sa-parse .differs.tag{font-size:11px;font-weight:bold;fill:#d62728}"
)

_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


# --- text -----------------------------------------------------------------------------------
def _clean(value: object) -> str:
    """The string with every character XML 1.0 does not allow (controls, lone surrogates)
    replaced by U+FFFD, so the SVG stays well-formed XML."""
    s = str(value)
    if s.isascii() and s.isprintable():  # the usual word or label: nothing to replace
        return s
    return _NOT_XML.sub("\ufffd", s)


def _shown(value: object, limit: int) -> Tuple[str, bool]:
    """What the picture shows of a string (at most ``limit`` characters) and whether it was
    shortened."""
    s = _clean(value)
    if len(s) <= limit:
        return s, False
    return s[:limit - 1] + "\u2026", True


# Helvetica's advance widths (thousandths of an em; Arial and Liberation Sans share them) for
# printable ASCII, from the Adobe font metrics
_HELVETICA = dict(zip(
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~",
    [278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278] + [556] * 10
    + [278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
       722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556,
       556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556,
       500, 722, 500, 500, 500, 334, 260, 334, 584]))
_SAFETY = 1.08  # room for a sans-serif wider than Helvetica (DejaVu Sans) and for rounding


def _char_em(ch: str) -> float:
    w = _HELVETICA.get(ch)
    if w is not None:
        return w / 1000
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Cf", "Mn", "Me"):
        return 0.0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 1.0
    parts = unicodedata.normalize("NFKD", ch)  # é as e and a combining accent, ﬁ as f i
    if parts != ch:
        return sum(_char_em(c) for c in parts)
    return 0.75 if ch.isupper() else 0.6


@lru_cache(maxsize=1 << 16)  # words, labels and coordinates recur from sentence to sentence
def text_width(s: str, size: float, bold: bool = False) -> float:
    """Estimated width in px of ``s`` at font size ``size`` in the picture's sans-serif:
    Helvetica's widths for ASCII (8 % added for wider fonts), an accented letter as its base
    letter, 1 em for wide (East Asian) characters, nothing for combining marks and format
    characters, 0.6 em (0.75 for capitals) for anything else; bold 8 % wider."""
    em = sum(_char_em(ch) for ch in s)
    return em * size * _SAFETY * (1.08 if bold else 1.0)


@lru_cache(maxsize=1 << 16)
def _n(v: float) -> str:
    """A coordinate as written: an integer, or one decimal."""
    r = round(float(v), 1)
    return str(int(r)) if r == int(r) else f"{r:.1f}"


# --- geometry ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Box:
    """An axis-aligned box, ``x0 <= x1``, ``y0 <= y1`` (y down, as in SVG)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: "Box") -> bool:
        """Whether the two boxes share more than an edge."""
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def shifted(self, dx: float, dy: float) -> "Box":
        return Box(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)


def _label_box(cx: float, cy: float, label: str, bold: bool) -> Box:
    size = DIFF_SIZE if bold else LABEL_SIZE
    w = text_width(label, size, bold) + LABEL_PAD
    h = size + 3
    return Box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


@dataclass
class _Item:
    """An arc, root stub or bracket being placed, in band coordinates (y = height above the
    base line, in px, up)."""

    key: int
    first: int          # word span, 0-based, inclusive
    last: int
    seg: Tuple[float, float]    # x range of the horizontal line at the top (a point for a stub)
    cx: float           # label centre
    label: str
    bold: bool
    level: int = 0
    box: Box = Box(0.0, 0.0, 0.0, 0.0)

    def place(self, level: int) -> None:
        self.level = level
        self.box = _label_box(self.cx, level * UNIT, self.label, self.bold)


def _conflicts(item: _Item, placed: Sequence[_Item], crossing: bool) -> bool:
    """Whether ``item`` at its level overlaps a placed one: label boxes overlapping (any level),
    a label box over the top line of another at the same level, or (``crossing``) two spans
    crossing at the same level (their top lines would run on top of each other)."""
    box = item.box
    x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
    level, first, last = item.level, item.first, item.last
    s0, s1 = item.seg
    y = level * UNIT
    on_line = y0 < y < y1  # the label box across its own level's line
    for p in placed:
        other = p.box
        if x0 < other.x1 and other.x0 < x1 and y0 < other.y1 and other.y0 < y1:  # Box.overlaps
            return True
        if p.level != level:
            continue
        p0, p1 = p.seg
        if crossing:
            if first < p.last and p.first < last:
                return True
        elif s0 < p1 and p0 < s1:
            return True
        if on_line and x0 < p1 - 1 and p0 + 1 < x1:
            return True
        if other.x0 < s1 - 1 and s0 + 1 < other.x1:
            return True
    return False


def _raise_until_free(item: _Item, level: int, placed: List[_Item], crossing: bool) -> None:
    item.place(level)
    while _conflicts(item, placed, crossing):
        item.place(item.level + 1)
    placed.append(item)


def _columns(widths: Sequence[float], extra_gaps: Sequence[float]) -> Tuple[List[float], List[float]]:
    """Word centres (integers, from 0) and column widths: each column as wide as its text plus
    padding, the gap after word ``i`` widened by ``extra_gaps[i]``."""
    cols = [max(MIN_COLUMN, float(np.ceil(w + WORD_PAD))) for w in widths]
    xs: List[float] = []
    x = cols[0] / 2 if cols else 0.0
    for i, c in enumerate(cols):
        if i:
            x += (cols[i - 1] + c) / 2 + extra_gaps[i - 1]
        xs.append(float(round(x)))
    return xs, cols


# --- records every drawing has ---------------------------------------------------------------------
@dataclass(frozen=True)
class WordRow:
    """A row of the words: the text baseline and each word's box."""

    baseline: float
    boxes: Tuple[Box, ...]


@dataclass(frozen=True)
class Band:
    """One annotator's analysis, drawn ``above`` or below the word row ``row``, with its name."""

    name: str
    above: bool
    row: int
    name_box: Box
    name_baseline: float


@dataclass(frozen=True)
class Layout:
    """What every drawing has: the words, their columns, the word rows."""

    words: Tuple[str, ...]
    x: Tuple[float, ...]          # word centres, shared by every band
    columns: Tuple[float, ...]    # column widths
    width: float
    height: float
    rows: Tuple[WordRow, ...]


def _check_reference(reference: int, n: int) -> int:
    if n == 0:
        raise ValueError("no analyses to draw")
    if not -n <= reference < n:
        raise ValueError(f"reference {reference} out of range for {n} analyses")
    return reference % n


# --- rendering ----------------------------------------------------------------------------------
def _svg_open(width: float, height: float, kind: str, inline_style: bool, min_scale: float) -> str:
    w, h = _n(width), _n(height)
    least = f";min-width:{_n(round(width * min(1.0, max(0.0, min_scale))))}px" if min_scale > 0 else ""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="sa-parse {kind}" viewBox="0 0 {w} {h}" '
            f'width="100%" style="max-width:{w}px{least};height:auto" data-width="{w}" data-height="{h}" '
            f'font-family="Arial,Helvetica,sans-serif" role="img">')
    return head + (f"<style>{STYLE}</style>" if inline_style else "")


def _label_text(cls: str, cx: float, box: Box, label: str, differs: bool, tip: Optional[str]) -> str:
    """A label or tag centred in its box; a ``<title>`` holds the whole label when it is
    shortened, and ``tip`` (what the annotators made of it) when given."""
    size = DIFF_SIZE if differs else LABEL_SIZE
    y = (box.y0 + box.y1) / 2 + size * 0.35
    shown, cut = _shown(label, MAX_LABEL)
    title = "; ".join(t for t in (label if cut else "", tip or "") if t)
    tip = f"<title>{text(title)}</title>" if title else ""
    return f'<text class="{cls}{" differs" if differs else ""}" x="{_n(cx)}" y="{_n(y)}">{text(shown)}{tip}</text>'


def _name_text(band_name: str, box: Box, baseline: float) -> str:
    shown, cut = _shown(band_name, MAX_NAME)
    tip = f"<title>{text(band_name)}</title>" if cut else ""
    return f'<text class="name" x="{_n(box.x0)}" y="{_n(baseline)}">{text(shown)}{tip}</text>'


def _word_texts(words: Sequence[str], xs: Sequence[float], row: WordRow,
                scores: Optional[Sequence[float]] = None, cols: Sequence[float] = (),
                tips: Optional[Sequence[Optional[str]]] = None) -> List[str]:
    """The words of a row; a ``<title>`` holds the whole word when it is shortened and the
    word's ``tips`` entry (what the annotators made of it) when there is one."""
    out = []
    for i, w in enumerate(words):
        shown, cut = _shown(w, MAX_WORD)
        title = "; ".join(t for t in (w if cut else "", tips[i] if tips else "") if t)
        tip = f"<title>{text(title)}</title>" if title else ""
        word = f'<text class="word" x="{_n(xs[i])}" y="{_n(row.baseline)}">{text(shown)}{tip}</text>'
        if scores is not None:
            v = float(scores[i])
            top = row.boxes[i].y0 - 1
            out.append(f'<g class="scored"><title>{text(w if not cut else shown)}: {percent(v, sign=True)}</title>'
                       f'<rect class="score" x="{_n(xs[i] - cols[i] / 2 + 1)}" y="{_n(top)}" '
                       f'width="{_n(cols[i] - 2)}" height="{_n(row.boxes[i].y1 - top + 2)}" rx="3" '
                       f'fill="{score_colour(v)}"/>{word}</g>')
        else:
            out.append(word)
    return out


def score_colour(score: float) -> str:
    """White at 1, towards red at 0 (the report's colours for leaf-ancestor scores); grey for
    a score that is not a number."""
    if score != score:  # NaN
        return "#dddddd"
    v = max(0.0, min(1.0, score))
    g = int(120 + 135 * v)
    return f"#ff{g:02x}{g:02x}"
