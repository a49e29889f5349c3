"""The judging page's dependency pictures of many items at once, drawn by the compiled loops of
``spacy_agreement._drawing``: the same pictures as :func:`.judging_pictures.analysis_pictures`
draws one item at a time, byte for byte.

What depends on a string is worked out here once per distinct word and label (what the picture
shows of it, its escaped text, its estimated width: :func:`.svg_parts.text_width`); the
compiled loops place the arcs and write the pictures from integers and floats. An item the loops
do not take is drawn by :func:`.judging_pictures.analysis_pictures` (the reference path), in its
place: a word or label with bidirectional controls (the escaper isolates the whole hover text,
not each piece of it), analyses that are not all dependency trees of the item's words, heads
out of range.
"""
from __future__ import annotations

import json
from itertools import chain
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ..trees import DependencyTree
from .escape import _BIDI, text
from .judging_pictures import _nameless, analysis_pictures
from .svg_parts import DIFF_SIZE, LABEL_SIZE, MAX_LABEL, MAX_WORD, WORD_SIZE, _clean, _shown, text_width


class PictureStrings:
    """What the compiled loops need of each distinct word and label, worked out once for all the
    batches of a page (:func:`dependency_pictures` ``strings=``): the escaped UTF-8 texts they copy,
    each once, and per word and label (as written) its row of :meth:`words` and :meth:`labels`."""

    def __init__(self) -> None:
        self.texts: List[bytes] = []
        self._ids: Dict[str, int] = {}
        self._words: Dict[str, tuple] = {}
        self._labels: Dict[str, tuple] = {}

    def id(self, value: str) -> int:
        k = self._ids.get(value)
        if k is None:
            k = self._ids[value] = len(self.texts)
            self.texts.append(text(value).encode("utf-8"))
        return k

    def _word(self, word: str) -> tuple:
        clean = _clean(word)
        if _BIDI.search(clean) is not None:
            return _UNDRAWN
        shown, cut = _shown(clean, MAX_WORD)
        return text_width(shown, WORD_SIZE), self.id(shown), self.id(clean) if cut else -1, self.id(clean)

    def _label(self, label: str) -> tuple:
        clean = _clean(label)
        if _BIDI.search(clean) is not None:
            return _UNDRAWN
        shown, cut = _shown(clean, MAX_LABEL)
        return (text_width(shown, LABEL_SIZE), text_width(shown, DIFF_SIZE, True), self.id(shown),
                self.id(clean) if cut else -1)

    def words(self, raw: Sequence[str]) -> np.ndarray:
        """Per distinct word (as written): text width of what is shown, the shown text, the whole
        word where it is shortened (else -1), an id equal for equal (cleaned) words; NaN where the
        loops cannot draw it (bidirectional controls)."""
        return self._rows(raw, self._words, self._word)

    def labels(self, raw: Sequence[str]) -> np.ndarray:
        """Per distinct label (as written): text widths of what is shown (plain, and bold at the size of
        a label that differs), the shown text, the whole label where it is shortened (else -1); NaN
        where the loops cannot draw it."""
        return self._rows(raw, self._labels, self._label)

    @staticmethod
    def _rows(raw: Sequence[str], known: Dict[str, tuple], work_out: Any) -> np.ndarray:
        rows = []
        for value in raw:
            row = known.get(value)
            if row is None:
                row = known[value] = work_out(value)
            rows.append(row)
        return np.array(rows, dtype=float).reshape(len(raw), 4)


_UNDRAWN = (np.nan,) * 4


def _codes(values: List[str], index: Dict[str, int]) -> np.ndarray:
    """Each value's number in ``index``, the values not in it numbered as they first come."""
    for value in dict.fromkeys(values):
        if value not in index:
            index[value] = len(index)
    return np.fromiter(map(index.__getitem__, values), dtype=np.int32, count=len(values))


def _differ(heads: np.ndarray, labels: np.ndarray, x: int, y: int) -> np.ndarray:
    return (heads[x] != heads[y]) | (labels[x] != labels[y])


def _same_shape(words: Sequence[str], trees: Sequence[object]) -> bool:
    n = len(words)
    return n > 0 and all(type(tree) is DependencyTree and len(tree) == n for tree in trees)


def _json_inside(svg: str) -> bytes:
    return json.dumps(svg, ensure_ascii=False)[1:-1].encode("utf-8")


def dependency_pictures(items: Sequence[tuple], marks: bool = True, against_gold: bool = False,
                        as_json: bool = False, strings: Optional[PictureStrings] = None) -> List[Dict[str, Any]]:
    """``[analysis_pictures(words, a, b, gold, marks, against_gold) for words, a, b, gold in items]``
    (``gold`` None where not shown), the dependency items drawn by the compiled loops.
    ``as_json=True``: each picture as the inside of a JSON string, UTF-8 (what
    ``json.dumps(svg, ensure_ascii=False)[1:-1]`` writes), for a page that embeds them."""
    from .._drawing import dependency_pictures as draw

    out: List[Optional[Dict[str, str]]] = [None] * len(items)
    with_gold = bool(items) and items[0][3] is not None
    n_bands = 3 if with_gold else 2
    candidates = [k for k, (words, a, b, gold) in enumerate(items)
                  if (gold is not None) == with_gold and _same_shape(words, (a, b, gold) if with_gold else (a, b))]
    strings = strings if strings is not None else PictureStrings()
    fast: List[int] = []
    if candidates:
        sizes = np.fromiter((len(items[k][0]) for k in candidates), dtype=np.int64, count=len(candidates))
        ends = np.cumsum(sizes)
        total = int(ends[-1])
        word_index: Dict[str, int] = {}
        word_codes = _codes(list(chain.from_iterable(items[k][0] for k in candidates)), word_index)
        word = strings.words(list(word_index))[word_codes]
        label_index: Dict[str, int] = {}  # labels as written: the marks compare them so
        label_ids = np.empty((n_bands, total), dtype=np.int32)
        heads = np.empty((n_bands, total), dtype=np.int64)  # checked before they are made int32
        for band in range(n_bands):
            heads[band] = np.concatenate([items[k][1 + band].heads for k in candidates])
            label_ids[band] = _codes(list(chain.from_iterable(items[k][1 + band].deprels for k in candidates)),
                                     label_index)
        label = strings.labels(list(label_index))[label_ids]  # (band, token, 4)
        bad = np.isnan(word[:, 0]) | np.isnan(label[:, :, 0]).any(axis=0)
        bad |= ((heads < 0) | (heads > np.repeat(sizes, sizes))).any(axis=0)
        bad_item = np.add.reduceat(bad, ends - sizes) > 0
        fast = [k for k, b in zip(candidates, bad_item.tolist()) if not b]
        if bad_item.any():
            keep = ~np.repeat(bad_item, sizes)
            heads, word, label, label_ids = heads[:, keep], word[keep], label[:, keep], label_ids[:, keep]
            sizes = sizes[~bad_item]
    if fast:
        offsets = np.zeros(len(fast) + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        total = int(offsets[-1])
        heads = np.ascontiguousarray(heads, dtype=np.int32)
        word_width = np.ascontiguousarray(word[:, 0])
        word_shown, word_title, word_key = (np.ascontiguousarray(word[:, c], dtype=np.int32) for c in (1, 2, 3))
        plain, bold = np.ascontiguousarray(label[:, :, 0]), np.ascontiguousarray(label[:, :, 1])
        label_shown, label_title = (np.ascontiguousarray(label[:, :, c], dtype=np.int32) for c in (2, 3))
        # report.svg._dependency_differs (reference 0): what the layout places as differing
        layout_bold = np.zeros((n_bands, total), dtype=bool)
        for band in range(1, n_bands):
            layout_bold[band] = _differ(heads, label_ids, band, 0)
            layout_bold[0] |= layout_bold[band]
        flags = np.zeros_like(layout_bold)
        if marks:
            if against_gold and with_gold:
                flags[0], flags[1] = _differ(heads, label_ids, 0, 2), _differ(heads, label_ids, 1, 2)
            else:
                flags[0] = flags[1] = _differ(heads, label_ids, 0, 1)
        drawn, raw = draw(strings.texts, offsets, word_width, word_shown, word_title, word_key, heads, plain, bold,
                          label_shown, label_title, layout_bold.view(np.uint8), flags.view(np.uint8), as_json)
        names = ("A", "B", "gold")
        for i, band in raw:  # a "; not in: " in a word or label: the hover texts by the regular expression
            drawn[i][band] = _nameless(drawn[i][band])
            if as_json:
                drawn[i][band] = _json_inside(drawn[i][band])
        for k, pictures in zip(fast, drawn):
            out[k] = dict(zip(names, pictures))
    for k, (words, a, b, gold) in enumerate(items):
        if out[k] is None:  # the reference path, which also raises what it raises
            out[k] = analysis_pictures(words, a, b, gold, marks, against_gold)
            if as_json:
                out[k] = {name: _json_inside(svg) for name, svg in out[k].items()}
    return out  # type: ignore[return-value]


__all__ = ["PictureStrings", "dependency_pictures"]
