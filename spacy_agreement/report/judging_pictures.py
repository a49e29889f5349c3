"""Each analysis of a judging item drawn alone, as the report draws it (:mod:`.svg`), on columns
shared by all of them.

A judging page shows the two analyses of a sentence in an order drawn for each judge, so each
must be a picture of its own (the report's picture of two analyses puts the first above the
words and the second below). :func:`analysis_pictures` lays the analyses out together, as the
report's stacked bands (one band per analysis, arcs or brackets above its own copy of the
words, every word at the same x in every band), and renders each band as a picture of its own:
the two pictures line up word for word whatever their order on the page. What differs between
A and B is marked as the report marks it (red, labels bold: another head or relation, a
bracket the other lacks); the gold, when shown, is drawn without marks. Every string reaches
the pictures through the report's escaper, as in the report.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ..trees import ConstituencyTree, DependencyTree
from .svg import (Arc, DependencyLayout, PhraseLayout, layout_dependency, layout_phrase, render_dependency,
                  render_phrase)
from .svg_parts import MARGIN, Box, WordRow

Tree = Union[DependencyTree, ConstituencyTree]
#: A word's hover text names the band; the bands here have no names (they would tell the sides).
_NAMELESS_TIP = re.compile(r"(<title>|; ): |; not in: (?=</title>)")


def _shift_box(box: Box, dy: float) -> Box:
    return box.shifted(0.0, dy)


def _alone(layout: Union[DependencyLayout, PhraseLayout], band_index: int,
           differs: Sequence[bool]) -> Union[DependencyLayout, PhraseLayout]:
    """Band ``band_index`` of a stacked layout as a layout of its own (its word row only,
    moved to the top of the picture), its marks set by ``differs`` (one flag per arc, or per
    bracket then tag)."""
    band = layout.bands[band_index]
    row = layout.rows[band.row]
    if hasattr(band, "arcs"):
        parts = list(band.arcs)
        tops = [min(a.y_top, a.label_box.y0) for a in parts]
    else:
        parts = list(band.brackets) + list(band.tags)
        tops = [p.label_box.y0 for p in parts]
    top = min(tops + [band.name_box.y0, row.boxes[0].y0])
    bottom = max([b.y1 for b in row.boxes] + [band.name_box.y1])
    dy = MARGIN - top
    moved = []
    for part, flag in zip(parts, differs):
        if type(part) is Arc:  # the usual part, made at once (dataclasses.replace is slow)
            moved.append(Arc(part.dependent, part.head, part.label, part.kind, part.level, bool(flag), part.x_head,
                             part.x_dep, part.y_base + dy, part.y_top + dy, _shift_box(part.label_box, dy)))
            continue
        changes = {"differs": bool(flag), "label_box": _shift_box(part.label_box, dy)}
        if hasattr(part, "y_top"):
            changes.update(y_top=part.y_top + dy, y_base=part.y_base + dy)
        elif hasattr(part, "y"):
            changes.update(y=part.y + dy)
        moved.append(dataclasses.replace(part, **changes))
    new_row = WordRow(row.baseline + dy, tuple(_shift_box(b, dy) for b in row.boxes))
    common = dict(name_box=_shift_box(band.name_box, dy), name_baseline=band.name_baseline + dy, row=0)
    if hasattr(band, "arcs"):
        new_band = dataclasses.replace(band, arcs=tuple(moved), **common)
    else:
        n = len(band.brackets)
        new_band = dataclasses.replace(band, brackets=tuple(moved[:n]), tags=tuple(moved[n:]), **common)
    return dataclasses.replace(layout, height=float(round(bottom - top + 2 * MARGIN)), rows=(new_row,),
                               bands=(new_band,), reference=0)


def _dependency_marks(a: DependencyTree, b: DependencyTree) -> List[bool]:
    heads_a, heads_b = a.heads.tolist(), b.heads.tolist()
    return [heads_a[k] != heads_b[k] or a.deprels[k] != b.deprels[k] for k in range(len(a))]


def _phrase_marks(band, other) -> List[bool]:
    """A bracket or tag of ``band`` that ``other`` lacks (same words, same label)."""
    theirs = {(b.first, b.last, b.label) for b in other.brackets} | {(t.word, t.word, t.label) for t in other.tags}
    return [(b.first, b.last, b.label) not in theirs for b in band.brackets] + \
        [(t.word, t.word, t.label) not in theirs for t in band.tags]


def analysis_pictures(words: Sequence[str], a: Tree, b: Tree, gold: Optional[Tree] = None,
                      marks: bool = True, against_gold: bool = False) -> Dict[str, str]:
    """``{"A": svg, "B": svg}`` (and ``"gold"`` with a gold tree): each analysis of one
    sentence in a picture of its own, on shared columns (module docstring). ``marks=False``
    draws no difference; ``against_gold=True`` (with a gold tree) marks in each analysis where it
    differs from the gold instead of where the two differ (a judging page that shows the gold). The ``<style>`` is left out: put :data:`~.svg_parts.STYLE` in the
    page once."""
    third = gold if gold is not None else a
    if isinstance(a, DependencyTree):
        # stacked bands (the report's picture of two puts the second below the words); without a
        # gold no third band: it could only repeat A's arcs, unmarked, which are no wider than A's own
        trees = [a, b, gold] if gold is not None else [a, b]
        layout = layout_dependency(words, [("", t.heads.tolist(), t.deprels) for t in trees], stacked=True)
        if against_gold and isinstance(gold, DependencyTree):
            flags = [_dependency_marks(a, gold), _dependency_marks(b, gold), [False] * len(a)]
        else:
            differ = _dependency_marks(a, b)
            flags = [differ, differ, [False] * len(differ)]
        render = render_dependency
    else:
        layout = layout_phrase(words, [("", t.parent.tolist(), t.labels) for t in (a, b, third)])
        first, second, last = layout.bands
        if against_gold and gold is not None:
            flags = [_phrase_marks(first, last), _phrase_marks(second, last),
                     [False] * (len(last.brackets) + len(last.tags))]
        else:
            flags = [_phrase_marks(first, second), _phrase_marks(second, first),
                     [False] * (len(last.brackets) + len(last.tags))]
        render = render_phrase
    if not marks:
        flags = [[False] * len(f) for f in flags]
    names = ["A", "B", "gold"] if gold is not None else ["A", "B"]
    return {name: _nameless(render(_alone(layout, k, flags[k]), inline_style=False)) for k, name in enumerate(names)}


def _nameless(svg: str) -> str:
    """The picture's hover texts without the band's (empty) name: :data:`_NAMELESS_TIP` taken
    out. Without a phrase tree's ``; not in:`` its two other forms never overlap each other or
    themselves, so two plain replacements do what the expression does, in a fraction of its time."""
    if "; not in: " in svg:
        return _NAMELESS_TIP.sub(lambda m: m.group(1) or "", svg)
    return svg.replace("<title>: ", "<title>").replace("; : ", "; ")


__all__ = ["analysis_pictures"]
