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

from dataclasses import dataclass
from typing import List, Sequence, Tuple

import numpy as np

from .escape import text
from .svg_parts import (BAND_GAP, DIFF_SIZE, LABEL_PAD, LABEL_SIZE, MARGIN, MAX_LABEL, MAX_NAME, MAX_WORD, NAME_GAP,
                        NAME_SIZE, STYLE, UNIT, WORD_SIZE, Band, Box, Layout, WordRow, _check_reference, _clean,
                        _columns, _Item, _label_text, _n, _name_text, _raise_until_free, _shown, _svg_open,
                        _word_texts, score_colour, text_width)
from .svg_phrase import (Bracket, PhraseBand, PhraseLayout, Tag, layout_phrase, phrase_svg, phrase_svg_from_trees,
                         render_phrase)


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
class DependencyBand(Band):
    """One annotator's arcs."""

    arcs: Tuple[Arc, ...]


@dataclass(frozen=True)
class DependencyLayout(Layout):
    bands: Tuple[DependencyBand, ...]
    reference: int


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
                      reference: int = 0, *, stacked: bool = False) -> DependencyLayout:
    """The geometry of :func:`dependency_svg` (see there for the arguments); ``stacked=True``
    stacks two analyses as it stacks more (one band each, arcs above their own copy of the words)
    instead of drawing the second below the words."""
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

    if len(checked) == 2 and not stacked:
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
