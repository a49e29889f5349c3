"""Phrase-structure trees in the report's aligned SVG picture (:func:`phrase_svg`,
:func:`phrase_svg_from_trees`; :mod:`spacy_agreement.report.svg` says what is drawn and how)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..trees import ConstituencyTree
from .escape import text
from .svg_parts import (BAND_GAP, DIFF_SIZE, LABEL_PAD, LABEL_SIZE, MARGIN, MAX_LABEL, MAX_NAME, MAX_WORD, NAME_GAP,
                        NAME_SIZE, UNIT, WORD_SIZE, Band, Box, Layout, WordRow, _check_reference, _clean, _columns,
                        _Item, _label_box, _label_text, _n, _name_text, _raise_until_free, _shown, _svg_open,
                        _word_texts, text_width)

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
