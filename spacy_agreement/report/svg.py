"""Several analyses of one sentence in one aligned SVG picture, for the adjudication report.

* :func:`dependency_svg`: dependency trees. With two annotators the words sit in one row in
  the middle, the first annotator's arcs above it and the second's below (mirrored); with
  more, one band per annotator, stacked, each with its arcs above its own copy of the words.
  Every band puts a word at the same x, so the analyses line up.
* :func:`phrase_svg` (and :func:`phrase_svg_from_trees` for
  :class:`~spacy_agreement.trees.ConstituencyTree` objects): phrase-structure trees drawn as
  labelled brackets over the words they span, at a height by their level, the leaves of each
  tree (preterminals) as a row of tags next to the words; same arrangement of bands.

What differs from the reference annotator (an arc with another head or label, a bracket the
reference does not have; for the reference itself, what some other annotator does not share)
has the class ``differs`` (red, label bold); the rest is muted (light grey, small labels).

The geometry is computed first (:func:`layout_dependency`, :func:`layout_phrase`: x of the
words, levels, every label's bounding box) and then rendered, so tests can check it:

* a word's column is as wide as its text (plus padding) and x positions are cumulative, so
  long words never collide; a gap between two words widens when a label of an arc joining
  them would not fit;
* an arc's or bracket's height is its nesting level (1 + the highest level strictly inside
  it), not its length, so long arcs do not tower;
* label widths are estimated from the characters (:func:`text_width`: Helvetica's widths
  plus 8 %, 0.6 em for a character it does not know, 1 em for a wide one); a label whose box
  would overlap another's (or the top line of another arc at its level, or an arc it crosses)
  is raised a level until it does not.

The picture is ``width="100%"`` with a ``viewBox`` and ``max-width`` at its natural width: a
long sentence scales down to the page instead of scrolling. It holds only ``svg``, ``style``,
``g``, ``path``, ``rect``, ``text`` and ``title`` elements; classes (``arc``, ``arc differs``,
``label``, ``label differs``, ``word``, ``bracket``, ``tag``, ``name``, ...) carry the style,
from a small ``<style>`` block scoped to ``svg.sa-parse`` (:data:`STYLE`; leave it out with
``inline_style=False`` when the page has it once). Every string from the input goes through
:func:`spacy_agreement.report.escape.text`; characters XML does not allow become U+FFFD, and
very long strings are shortened on the picture, the whole string kept in a ``<title>``.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..trees import ConstituencyTree
from .escape import text

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
    return _NOT_XML.sub("\ufffd", str(value))


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


def text_width(s: str, size: float, bold: bool = False) -> float:
    """Estimated width in px of ``s`` at font size ``size`` in the picture's sans-serif:
    Helvetica's widths for ASCII (8 % added for wider fonts), an accented letter as its base
    letter, 1 em for wide (East Asian) characters, nothing for combining marks and format
    characters, 0.6 em (0.75 for capitals) for anything else; bold 8 % wider."""
    em = sum(_char_em(ch) for ch in s)
    return em * size * _SAFETY * (1.08 if bold else 1.0)


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
    y = item.level * UNIT
    for p in placed:
        if box.overlaps(p.box):
            return True
        if p.level != item.level:
            continue
        if crossing and item.first < p.last and p.first < item.last:
            return True
        if not crossing and item.seg[0] < p.seg[1] and p.seg[0] < item.seg[1]:
            return True
        if box.x0 < p.seg[1] - 1 and p.seg[0] + 1 < box.x1 and box.y0 < y < box.y1:
            return True
        if p.box.x0 < item.seg[1] - 1 and item.seg[0] + 1 < p.box.x1:
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


# --- dependency layout ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Arc:
    """One token's attachment as drawn. ``kind``: ``"arc"`` (head -> dependent), ``"root"``
    (a vertical stub above the word, the label at its top) or ``"self"`` (a token headed by
    itself, drawn as a dashed stub). ``y_top`` is the line at the top, where the label sits;
    ``y_base`` where the lines meet the words."""

    dependent: int       # 1-based
    head: int            # 1-based, 0 for the root
    label: str
    kind: str
    level: int
    differs: bool
    x_head: float
    x_dep: float
    y_base: float
    y_top: float
    label_box: Box


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
class DependencyBand(Band):
    """One annotator's arcs."""

    arcs: Tuple[Arc, ...]


@dataclass(frozen=True)
class Layout:
    """What every drawing has: the words, their columns, the word rows."""

    words: Tuple[str, ...]
    x: Tuple[float, ...]          # word centres, shared by every band
    columns: Tuple[float, ...]    # column widths
    width: float
    height: float
    rows: Tuple[WordRow, ...]


@dataclass(frozen=True)
class DependencyLayout(Layout):
    bands: Tuple[DependencyBand, ...]
    reference: int


def _check_reference(reference: int, n: int) -> int:
    if n == 0:
        raise ValueError("no analyses to draw")
    if not -n <= reference < n:
        raise ValueError(f"reference {reference} out of range for {n} analyses")
    return reference % n


def _dependency_differs(analyses: Sequence[Tuple[List[int], List[str]]], reference: int) -> List[List[bool]]:
    n_words = len(analyses[0][0])
    ref_heads, ref_labels = analyses[reference]
    out = []
    for a, (heads, labels) in enumerate(analyses):
        if a != reference:
            out.append([heads[k] != ref_heads[k] or labels[k] != ref_labels[k] for k in range(n_words)])
        else:
            out.append([any(h[k] != ref_heads[k] or l[k] != ref_labels[k] for b, (h, l) in enumerate(analyses)
                            if b != reference) for k in range(n_words)])
    return out


def _place_dependency_band(heads: Sequence[int], labels: Sequence[str], differs: Sequence[bool],
                           xs: Sequence[float]) -> List[_Item]:
    """Levels of one annotator's arcs, then its root and self stubs (band coordinates)."""
    n = len(heads)
    arcs, stubs = [], []
    for k in range(n):
        shown, _ = _shown(labels[k], MAX_LABEL)
        h = heads[k] - 1
        if h < 0 or h == k:
            stubs.append(_Item(k, k, k, (xs[k], xs[k]), xs[k], shown, differs[k]))
        else:
            lo, hi = min(h, k), max(h, k)
            r = min(4.0, (xs[hi] - xs[lo]) / 2)
            arcs.append(_Item(k, lo, hi, (xs[lo] + r, xs[hi] - r), (xs[lo] + xs[hi]) / 2, shown, differs[k]))
    arcs.sort(key=lambda it: (it.last - it.first, it.first, it.key))
    placed: List[_Item] = []
    for it in arcs:
        inside = [p.level for p in placed if it.first <= p.first and p.last <= it.last
                  and (p.first, p.last) != (it.first, it.last)]
        _raise_until_free(it, 1 + max(inside, default=0), placed, crossing=True)
    for it in stubs:  # above every arc that ends at, or passes over, the word
        below = [p.level for p in placed if p.first <= it.first <= p.last]
        _raise_until_free(it, 1 + max(below, default=0), placed, crossing=True)
    return placed


def _validated_dependencies(words: Sequence[str], analyses) -> List[Tuple[str, List[int], List[str]]]:
    n = len(words)
    if n == 0:
        raise ValueError("no words")
    out = []
    for name, heads, labels in analyses:
        heads = [int(h) for h in np.asarray(heads).tolist()]
        labels = list(labels)
        if len(heads) != n or len(labels) != n:
            raise ValueError(f"analysis {name!r}: {len(heads)} heads and {len(labels)} labels for {n} words")
        for k, h in enumerate(heads):
            if not 0 <= h <= n:
                raise ValueError(f"analysis {name!r}: head {h} of token {k + 1} out of range 0..{n}")
        out.append((name, heads, labels))
    return out


def layout_dependency(words: Sequence[str], analyses: Sequence[Tuple[str, Sequence[int], Sequence[str]]],
                      reference: int = 0) -> DependencyLayout:
    """The geometry of :func:`dependency_svg` (see there for the arguments)."""
    checked = _validated_dependencies(words, analyses)
    reference = _check_reference(reference, len(checked))
    n = len(words)
    differs = _dependency_differs([(h, l) for _, h, l in checked], reference)
    shown_words = [_shown(w, MAX_WORD)[0] for w in words]
    widths = [text_width(w, WORD_SIZE) for w in shown_words]
    # widen the gap between two words so that the label of an arc joining them fits
    base_x, cols = _columns(widths, [0.0] * max(0, n - 1))
    extra = [0.0] * max(0, n - 1)
    for a, (_, heads, labels) in enumerate(checked):
        for k in range(n):
            h = heads[k] - 1
            if h >= 0 and abs(h - k) == 1:
                lo = min(h, k)
                need = text_width(_shown(labels[k], MAX_LABEL)[0], DIFF_SIZE if differs[a][k] else LABEL_SIZE,
                                  differs[a][k]) + LABEL_PAD + 10
                extra[lo] = max(extra[lo], need - (base_x[lo + 1] - base_x[lo]))
    xs, cols = _columns(widths, extra)

    placed = [_place_dependency_band(h, l, differs[a], xs) for a, (_, h, l) in enumerate(checked)]
    levels = [max((it.level for it in p), default=0) for p in placed]

    names = [_shown(name, MAX_NAME)[0] for name, _, _ in checked]
    name_w = max(text_width(s, NAME_SIZE, True) for s in names)
    # horizontal shift: every box right of the names
    min_x = min([xs[i] - cols[i] / 2 for i in range(n)] + [it.box.x0 for p in placed for it in p])
    dx = float(round(MARGIN + name_w + NAME_GAP - min_x))
    xs = [x + dx for x in xs]
    word_h = round(WORD_SIZE * 1.3)

    def extent(level: int) -> float:  # room a band needs beyond its base line
        return level * UNIT + (DIFF_SIZE + 3) / 2 + 2

    def row(top: float) -> WordRow:
        boxes = []
        for i, w in enumerate(widths):
            boxes.append(Box(xs[i] - w / 2, top, xs[i] + w / 2, top + word_h))
        return WordRow(top + round(WORD_SIZE * 0.95), tuple(boxes))

    rows: List[WordRow] = []
    bands: List[DependencyBand] = []

    def band(a: int, base: float, above: bool, row_index: int, name_baseline: float) -> DependencyBand:
        name, heads, labels = checked[a]
        sign = -1 if above else 1
        arcs = []
        for it in sorted(placed[a], key=lambda it: it.key):
            k = it.key
            h = heads[k] - 1
            kind = "root" if h < 0 else "self" if h == k else "arc"
            y_top = base + sign * it.level * UNIT
            box = it.box
            # band coordinates (height up) to picture coordinates
            if above:
                box = Box(box.x0 + dx, base - box.y1, box.x1 + dx, base - box.y0)
            else:
                box = Box(box.x0 + dx, base + box.y0, box.x1 + dx, base + box.y1)
            arcs.append(Arc(k + 1, heads[k], _clean(labels[k]), kind, it.level, differs[a][k],
                            xs[h] if h >= 0 else xs[k], xs[k], base, y_top, box))
        nw = text_width(names[a], NAME_SIZE, True)
        name_box = Box(MARGIN, name_baseline - NAME_SIZE, MARGIN + nw, name_baseline + 3)
        return DependencyBand(_clean(name), above, row_index, name_box, name_baseline, tuple(arcs))

    if len(checked) == 2:
        base_a = MARGIN + extent(levels[0])
        top = base_a + 3
        rows.append(row(top))
        base_b = top + word_h + 3
        bands.append(band(0, base_a, True, 0, base_a - 4))
        bands.append(band(1, base_b, False, 0, base_b + NAME_SIZE + 1))
        height = base_b + extent(levels[1]) + MARGIN
    else:
        y: float = MARGIN
        for a in range(len(checked)):
            base = y + extent(levels[a])
            top = base + 3
            rows.append(row(top))
            bands.append(band(a, base, True, a, rows[-1].baseline))
            y = top + word_h + BAND_GAP
        height = y - BAND_GAP + MARGIN
    right = max([xs[i] + cols[i] / 2 for i in range(n)] + [arc.label_box.x1 for b in bands for arc in b.arcs])
    width = float(np.ceil(right + MARGIN))
    return DependencyLayout(tuple(_clean(w) for w in words), tuple(xs), tuple(cols), width, float(np.ceil(height)),
                            tuple(rows), tuple(bands), reference)


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
            out.append(f'<g class="scored"><title>{text(w if not cut else shown)}: {v:.3f}</title>'
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


def _arc_path(arc: Arc) -> str:
    sy = -1 if arc.y_top < arc.y_base else 1
    tip = f"m-3,{5 * sy}l3,{-5 * sy} 3,{5 * sy}"
    if arc.kind != "arc":
        return f"M{_n(arc.x_dep)},{_n(arc.y_top)}V{_n(arc.y_base)}{tip}"
    sx = 1 if arc.x_dep > arc.x_head else -1
    r = min(4.0, abs(arc.x_dep - arc.x_head) / 2)
    return (f"M{_n(arc.x_head)},{_n(arc.y_base)}V{_n(arc.y_top - sy * r)}q0,{_n(sy * r)} {_n(sx * r)},{_n(sy * r)}"
            f"H{_n(arc.x_dep - sx * r)}q{_n(sx * r)},0 {_n(sx * r)},{_n(-sy * r)}V{_n(arc.y_base)}{tip}")


def render_dependency(layout: DependencyLayout, inline_style: bool = True, min_scale: float = 0.0) -> str:
    """The SVG of a :class:`DependencyLayout` (arguments as :func:`dependency_svg`)."""
    words = layout.words
    out = [_svg_open(layout.width, layout.height, "sa-dep", inline_style, min_scale)]
    for band in layout.bands:
        out.append(f'<g class="band" data-annotator="{text(band.name)}">')
        out.append(_name_text(band.name, band.name_box, band.name_baseline))
        for arc in band.arcs:
            cls = "arc" if arc.kind == "arc" else f"arc {arc.kind}"
            out.append(f'<path class="{cls}{" differs" if arc.differs else ""}" data-dep="{arc.dependent}" '
                       f'd="{_arc_path(arc)}"/>')
        for arc in band.arcs:
            cx = (arc.label_box.x0 + arc.label_box.x1) / 2
            out.append(_label_text("label", cx, arc.label_box, arc.label, arc.differs, None))
        out.append("</g>")
    tips = [_dependency_tip(layout, k + 1) if any(band.arcs[k].differs for band in layout.bands) else None
            for k in range(len(words))]
    for row in layout.rows:
        out.append('<g class="words">' + "".join(_word_texts(words, layout.x, row, tips=tips)) + "</g>")
    out.append("</svg>")
    return "".join(out)


def _dependency_tip(layout: DependencyLayout, dependent: int) -> str:
    """Hover text of a word some annotators attach differently: what each made of it, e.g.
    ``A: obl of saw; B: nmod of dog`` (the head's position added where its word occurs twice)."""
    parts = []
    for band in layout.bands:
        arc = band.arcs[dependent - 1]
        name = _shown(band.name, MAX_NAME)[0]
        label = _shown(arc.label, MAX_LABEL)[0]
        if arc.head == 0:
            parts.append(f"{name}: {label} (root)")
        else:
            head = layout.words[arc.head - 1]
            again = f" ({arc.head})" if layout.words.count(head) > 1 else ""
            parts.append(f"{name}: {label} of {_shown(head, MAX_WORD)[0]}{again}")
    return "; ".join(parts)


def dependency_svg(words: Sequence[str], analyses: Sequence[Tuple[str, Sequence[int], Sequence[str]]],
                   reference: int = 0, inline_style: bool = True, min_scale: float = 0.0) -> str:
    """Several dependency analyses of one sentence in one aligned SVG picture.

    ``analyses``: ``(annotator name, heads, labels)`` per annotator, heads 1-based with 0 for
    the root (as :attr:`~spacy_agreement.DependencyTree.heads`), one label per word; the words
    are shared. Two analyses: the first's arcs above the words, the second's below; more: one
    band each, stacked, arcs above their own copy of the words. An arc whose head or label
    differs from ``reference``'s (for the reference: from any other's) has the class
    ``differs``; a root attachment is a vertical stub above the word. Returns the ``<svg>``
    element as a string (``data-width``/``data-height`` give its natural size).
    Raises :class:`ValueError` on mismatched lengths or heads out of range.

    ``inline_style=False`` leaves out the ``<style>`` block (put :data:`STYLE` in the page
    once instead). ``min_scale`` (0 to 1, default 0): the picture shrinks to the page width
    but not below this fraction of its natural width (a ``min-width``; the page then scrolls).
    """
    return render_dependency(layout_dependency(words, analyses, reference), inline_style, min_scale)


# --- phrase layout ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bracket:
    """One inner node of a phrase tree as drawn: a bar over words ``first..last`` (0-based)
    at height ``level``, ticks towards the words, the label on the bar."""

    node: int
    label: str
    first: int
    last: int
    level: int
    differs: bool
    x0: float
    x1: float
    y: float
    label_box: Box


@dataclass(frozen=True)
class Tag:
    """A leaf of a phrase tree (a preterminal or a category leaf) over word ``word``."""

    node: int
    label: str
    word: int
    differs: bool
    label_box: Box


@dataclass(frozen=True)
class PhraseBand(Band):
    """One annotator's brackets and tags."""

    brackets: Tuple[Bracket, ...]
    tags: Tuple[Tag, ...]


@dataclass(frozen=True)
class PhraseLayout(Layout):
    bands: Tuple[PhraseBand, ...]
    scores: Optional[Tuple[float, ...]]
    reference: int


@dataclass
class _Shape:
    """A phrase tree read from its parent array: children in index order, nodes in postorder,
    each node's word span, the leaves left to right."""

    labels: List[str]
    kids: List[List[int]]
    postorder: List[int]
    spans: List[Tuple[int, int]]
    leaves: List[int]

    def brackets(self) -> Set[Tuple[int, int, str]]:
        return {(s[0], s[1], l) for s, l in zip(self.spans, self.labels)}


def _shape(name: object, parent: Sequence[int], labels: Sequence[str]) -> _Shape:
    parent = [int(p) for p in np.asarray(parent).tolist()]
    labels = [str(l) for l in labels]
    n = len(parent)
    if n == 0 or len(labels) != n:
        raise ValueError(f"tree {name!r}: {n} parents and {len(labels)} labels")
    roots = [i for i, p in enumerate(parent) if p < 0]
    if len(roots) != 1:
        raise ValueError(f"tree {name!r}: {len(roots)} roots, one expected")
    if any(p >= n for p in parent):
        raise ValueError(f"tree {name!r}: parent out of range")
    kids: List[List[int]] = [[] for _ in range(n)]
    for i, p in enumerate(parent):
        if p >= 0:
            kids[p].append(i)
    postorder: List[int] = []
    leaves: List[int] = []
    spans: List[Tuple[int, int]] = [(0, 0)] * n
    stack = [(roots[0], 0)]
    seen = 0
    while stack:
        node, k = stack.pop()
        if k == 0:
            seen += 1
            if not kids[node]:
                spans[node] = (len(leaves), len(leaves))
                leaves.append(node)
                postorder.append(node)
                continue
        if k < len(kids[node]):
            stack.append((node, k + 1))
            stack.append((kids[node][k], 0))
        else:
            spans[node] = (spans[kids[node][0]][0], spans[kids[node][-1]][1])
            postorder.append(node)
    if seen != n:
        raise ValueError(f"tree {name!r}: {n - seen} nodes not under the root (a parent cycle)")
    return _Shape(labels, kids, postorder, spans, leaves)


def layout_phrase(words: Sequence[str], trees: Sequence[Tuple[str, Sequence[int], Sequence[str]]],
                  scores: Optional[Sequence[float]] = None, reference: int = 0) -> PhraseLayout:
    """The geometry of :func:`phrase_svg` (see there for the arguments)."""
    n = len(words)
    if n == 0:
        raise ValueError("no words")
    reference = _check_reference(reference, len(trees))
    shapes = [_shape(name, parent, labels) for name, parent, labels in trees]
    for (name, _, _), s in zip(trees, shapes):
        if len(s.leaves) != n:
            raise ValueError(f"tree {name!r} has {len(s.leaves)} leaves for {n} words")
    if scores is not None:
        scores = tuple(float(v) for v in scores)
        if len(scores) != n:
            raise ValueError(f"{len(scores)} scores for {n} words")
    sets = [s.brackets() for s in shapes]
    differs: List[List[bool]] = []
    for t, s in enumerate(shapes):
        if t == reference:
            others = [b for u, b in enumerate(sets) if u != reference]
            differs.append([any((sp[0], sp[1], lab) not in o for o in others) for sp, lab in zip(s.spans, s.labels)])
        else:
            differs.append([(sp[0], sp[1], lab) not in sets[reference] for sp, lab in zip(s.spans, s.labels)])

    def label_w(label: str, bold: bool) -> float:
        return text_width(_shown(label, MAX_LABEL)[0], DIFF_SIZE if bold else LABEL_SIZE, bold) + LABEL_PAD

    shown_words = [_shown(w, MAX_WORD)[0] for w in words]
    widths = [text_width(w, WORD_SIZE) for w in shown_words]
    # a column also holds every tree's tag and the label of a bracket over that word alone
    need = list(widths)
    for t, s in enumerate(shapes):
        for node, (lo, hi) in enumerate(s.spans):
            if lo == hi:
                need[lo] = max(need[lo], label_w(s.labels[node], differs[t][node]) + 2)
    xs, cols = _columns(need, [0.0] * max(0, n - 1))

    placed_all: List[List[_Item]] = []
    for t, s in enumerate(shapes):
        placed: List[_Item] = []
        level_of: Dict[int, int] = {}
        inner = [v for v in s.postorder if s.kids[v]]
        for v in inner:  # children before parents
            lo, hi = s.spans[v]
            x0, x1 = xs[lo] - cols[lo] / 2 + 2, xs[hi] + cols[hi] / 2 - 2
            it = _Item(v, lo, hi, (x0, x1), (x0 + x1) / 2, _shown(s.labels[v], MAX_LABEL)[0], differs[t][v])
            start = 1 + max((level_of[c] for c in s.kids[v] if s.kids[c]), default=0)
            _raise_until_free(it, start, placed, crossing=False)
            level_of[v] = it.level
        placed_all.append(placed)
    levels = [max((it.level for it in p), default=0) for p in placed_all]

    names = [_shown(name, MAX_NAME)[0] for name, _, _ in trees]
    name_w = max(text_width(s, NAME_SIZE, True) for s in names)
    min_x = min([xs[i] - cols[i] / 2 for i in range(n)] + [it.box.x0 for p in placed_all for it in p])
    dx = float(round(MARGIN + name_w + NAME_GAP - min_x))
    xs = [x + dx for x in xs]
    word_h = round(WORD_SIZE * 1.3)
    tag_h = DIFF_SIZE + 3

    def extent(level: int) -> float:
        return tag_h + 3 + level * UNIT + (DIFF_SIZE + 3) / 2 + 2

    def row(top: float) -> WordRow:
        boxes = tuple(Box(xs[i] - w / 2, top, xs[i] + w / 2, top + word_h) for i, w in enumerate(widths))
        return WordRow(top + round(WORD_SIZE * 0.95), boxes)

    def band(t: int, word_edge: float, above: bool, row_index: int, name_baseline: float) -> PhraseBand:
        s = shapes[t]
        sign = -1 if above else 1
        tag_centre = word_edge + sign * (tag_h / 2 + 1)
        base = word_edge + sign * (tag_h + 3)
        tags = []
        for i, v in enumerate(s.leaves):
            box = _label_box(xs[i], tag_centre, _shown(s.labels[v], MAX_LABEL)[0], differs[t][v])
            tags.append(Tag(v, _clean(s.labels[v]), i, differs[t][v], box))
        brackets = []
        for it in placed_all[t]:
            box = it.box
            if above:
                box = Box(box.x0 + dx, base - box.y1, box.x1 + dx, base - box.y0)
            else:
                box = Box(box.x0 + dx, base + box.y0, box.x1 + dx, base + box.y1)
            brackets.append(Bracket(it.key, _clean(s.labels[it.key]), it.first, it.last, it.level, differs[t][it.key],
                                    it.seg[0] + dx, it.seg[1] + dx, base + sign * it.level * UNIT, box))
        nw = text_width(names[t], NAME_SIZE, True)
        name_box = Box(MARGIN, name_baseline - NAME_SIZE, MARGIN + nw, name_baseline + 3)
        return PhraseBand(_clean(trees[t][0]), above, row_index, name_box, name_baseline, tuple(brackets),
                          tuple(tags))

    rows: List[WordRow] = []
    bands: List[PhraseBand] = []
    if len(shapes) == 2:
        top = MARGIN + extent(levels[0])
        rows.append(row(top))
        bottom = top + word_h
        bands.append(band(0, top - 1, True, 0, top - tag_h - 8))
        bands.append(band(1, bottom + 1, False, 0, bottom + tag_h + 8 + NAME_SIZE))
        height = bottom + extent(levels[1]) + MARGIN
    else:
        y: float = MARGIN
        for t in range(len(shapes)):
            top = y + extent(levels[t])
            rows.append(row(top))
            bands.append(band(t, top - 1, True, t, rows[-1].baseline))
            y = top + word_h + BAND_GAP
        height = y - BAND_GAP + MARGIN
    right = max([xs[i] + cols[i] / 2 for i in range(n)] + [b.label_box.x1 for band_ in bands for b in band_.brackets]
                + [g.label_box.x1 for band_ in bands for g in band_.tags])
    return PhraseLayout(tuple(_clean(w) for w in words), tuple(xs), tuple(cols), float(np.ceil(right + MARGIN)),
                        float(np.ceil(height)), tuple(rows), tuple(bands), scores, reference)


def _phrase_tip(layout: PhraseLayout, band: PhraseBand, label: str, first: int, last: int) -> str:
    """Hover text of a differing bracket: its span and whose trees lack it."""
    mine = layout.bands.index(band)
    if mine == layout.reference:
        lacking = [b.name for b in layout.bands if b is not band and not _has(b, label, first, last)]
    else:
        lacking = [layout.bands[layout.reference].name]
    names = ", ".join(_shown(name, MAX_NAME)[0] for name in lacking)
    span = f"word {first + 1}" if first == last else f"words {first + 1}\u2013{last + 1}"
    return f"{_shown(label, MAX_LABEL)[0]} over {span}; not in: {names}"


def _has(band: PhraseBand, label: str, first: int, last: int) -> bool:
    return any((b.first, b.last, b.label) == (first, last, label) for b in band.brackets) or \
        (first == last and any((g.word, g.label) == (first, label) for g in band.tags))


def render_phrase(layout: PhraseLayout, inline_style: bool = True, min_scale: float = 0.0) -> str:
    """The SVG of a :class:`PhraseLayout` (arguments as :func:`phrase_svg`)."""
    out = [_svg_open(layout.width, layout.height, "sa-phrase", inline_style, min_scale)]
    for band in layout.bands:
        out.append(f'<g class="band" data-annotator="{text(band.name)}">')
        out.append(_name_text(band.name, band.name_box, band.name_baseline))
        for b in band.brackets:
            tick = 4 if band.above else -4
            out.append(f'<path class="bracket{" differs" if b.differs else ""}" data-span="{b.first}-{b.last}" '
                       f'd="M{_n(b.x0)},{_n(b.y + tick)}V{_n(b.y)}H{_n(b.x1)}v{tick}"/>')
        for b in band.brackets:
            tip = _phrase_tip(layout, band, b.label, b.first, b.last) if b.differs else None
            cx = (b.label_box.x0 + b.label_box.x1) / 2
            out.append(_label_text("label", cx, b.label_box, b.label, b.differs, tip))
        for g in band.tags:
            tip = _phrase_tip(layout, band, g.label, g.word, g.word) if g.differs else None
            out.append(_label_text("tag", layout.x[g.word], g.label_box, g.label, g.differs, tip))
        out.append("</g>")
    for row in layout.rows:
        out.append('<g class="words">' + "".join(_word_texts(layout.words, layout.x, row, layout.scores,
                                                             layout.columns)) + "</g>")
    out.append("</svg>")
    return "".join(out)


def phrase_svg(words: Sequence[str], trees: Sequence[Tuple[str, Sequence[int], Sequence[str]]],
               scores: Optional[Sequence[float]] = None, reference: int = 0, inline_style: bool = True,
               min_scale: float = 0.0) -> str:
    """Several phrase-structure trees over the same words in one aligned SVG picture.

    ``trees``: ``(annotator name, parent, labels)`` per annotator, as
    :class:`~spacy_agreement.ConstituencyTree` holds them (``parent[i]`` the parent of node
    ``i``, -1 for the root; children in index order); the leaves of each tree (nodes without
    children: preterminals, or the categories of a delexicalised tree), read left to right, are
    the words, one leaf per word. Inner nodes are drawn as labelled brackets, the leaves as
    tags next to the words. Two trees: the first above the words, the second below (root at
    the bottom); more: stacked bands. A bracket ``(first word, last word, label)`` (leaves
    included) that the ``reference`` tree lacks (for the reference: that some other tree
    lacks) has the class ``differs``. ``scores`` (one per word, e.g. leaf-ancestor scores in
    [0, 1]) colour the words from white (1) to red (0), the score in a ``<title>``. Returns the
    ``<svg>`` element as a string. Raises :class:`ValueError` on malformed trees or leaf counts
    other than the number of words. ``inline_style`` and ``min_scale`` as for
    :func:`dependency_svg`.
    """
    return render_phrase(layout_phrase(words, trees, scores, reference), inline_style, min_scale)


def _tree_words(trees: Sequence[Tuple[str, ConstituencyTree]], reference: int) -> List[str]:
    order = [reference] + [k for k in range(len(trees)) if k != reference]
    for k in order:
        words = trees[k][1].words
        if words is not None:
            return list(words)
    return [str(i) for i in range(1, trees[reference][1].n_leaves + 1)]


def phrase_svg_from_trees(trees: Sequence[Tuple[str, ConstituencyTree]], scores: Optional[Sequence[float]] = None,
                          reference: int = 0, words: Optional[Sequence[str]] = None,
                          inline_style: bool = True, min_scale: float = 0.0) -> str:
    """:func:`phrase_svg` of ``(annotator name, ConstituencyTree)`` pairs. The words are
    ``words`` if given, else the reference tree's words (or the first tree's that has any);
    a tree read without words (delexicalised, ``leaves="categories"``) shows the positions
    1, 2, ... in the word row and its categories as the tags."""
    if not trees:
        raise ValueError("no analyses to draw")
    reference = _check_reference(reference, len(trees))
    if words is None:
        words = _tree_words(trees, reference)
    analyses = [(name, t.parent.tolist(), t.labels) for name, t in trees]
    return phrase_svg(words, analyses, scores, reference, inline_style, min_scale)


__all__ = [
    "Arc",
    "Box",
    "Bracket",
    "DependencyBand",
    "DependencyLayout",
    "PhraseBand",
    "PhraseLayout",
    "STYLE",
    "Tag",
    "WordRow",
    "dependency_svg",
    "layout_dependency",
    "layout_phrase",
    "phrase_svg",
    "phrase_svg_from_trees",
    "render_dependency",
    "render_phrase",
    "score_colour",
    "text_width",
]
