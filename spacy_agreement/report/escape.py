"""The one door through which strings from the input reach the HTML report.

Every string that may come from the input (words, lemmas, tags, labels, item names, file and
annotator names, the page title, anything built from them) goes into the page through
:func:`text`, both as element content and as a quoted attribute value: markup in the input is
shown as text, never run. Only the report's own template and numbers written by the package's
formatters are written as they are.
"""
from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import List

_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_EMBEDDINGS, _ISOLATES = "\u202a\u202b\u202d\u202e", "\u2066\u2067\u2068"
_PDF, _FSI, _PDI = "\u202c", "\u2068", "\u2069"


def close_bidi(value: str) -> str:
    """``value`` as it is unless it holds bidirectional controls (embeddings, overrides,
    isolates); then isolated (U+2068 ... U+2069) with what it opens closed at its end and the
    closers that match nothing in it (no effect in it) left out: a right-to-left override in a
    name turns only that name around, not the page's text after it."""
    if _BIDI.search(value) is None:
        return value
    kept: List[str] = []
    open_: List[str] = []
    for ch in value:
        if ch in _EMBEDDINGS:
            open_.append(_PDF)
        elif ch in _ISOLATES:
            open_.append(_PDI)
        elif ch == _PDF:
            if not open_ or open_[-1] != _PDF:  # no embedding open in the current isolate
                continue
            open_.pop()
        elif ch == _PDI:
            if _PDI not in open_:  # would close the isolate around the value
                continue
            del open_[len(open_) - 1 - open_[::-1].index(_PDI):]  # and the embeddings opened in it
        kept.append(ch)
    return _FSI + "".join(kept) + "".join(reversed(open_)) + _PDI


def text(value: object) -> str:
    """``value`` (made a string) escaped for HTML and SVG element content and for attribute
    values in double or single quotes: ``&``, ``<``, ``>``, ``"`` and ``'`` become character
    references, so ``a&b`` shows as ``a&b`` once the page is parsed; a value with bidirectional
    controls is isolated (:func:`close_bidi`)."""
    return _escaped(str(value))


@lru_cache(maxsize=1 << 16)  # words and labels recur from sentence to sentence
def _escaped(s: str) -> str:
    return html.escape(close_bidi(s), quote=True)


__all__ = ["close_bidi", "text"]
