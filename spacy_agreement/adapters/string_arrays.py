"""The values of a :class:`~spacy_agreement._conllu.StringTable` as numpy arrays, kept up to
date as the table grows: what :func:`~.conllu_words.layers_from_scan` indexes by code. A
reader of many blocks keeps one (:mod:`spacy_agreement.evaluation.conll18.streaming`), so that
each block costs its own size, not the size of the table (the vocabulary read so far)."""
from __future__ import annotations

import unicodedata
from typing import Any

import numpy as np


def remove_spaces(form: str) -> str:
    """``form`` without its characters of Unicode category Zs (the script's rule for the text:
    ``New York`` → ``NewYork``; a no-break space goes too, a tab or newline cannot occur)."""
    if " " not in form and form.isprintable():  # printable: no Zs other than the ASCII space
        return form
    return "".join(c for c in form if unicodedata.category(c) != "Zs")


class StringArrays:
    """``values`` (each code's text), ``spaceless`` (the same without its spaces, as the
    text of the script counts it: :func:`remove_spaces`), both object arrays
    one longer than the table (``""`` last: code -1, an empty node's), and ``lengths`` (int64,
    the length of each spaceless value)."""

    def __init__(self, table: Any):
        self.table = table
        self.values = np.asarray([""], dtype=object)
        self.spaceless = np.asarray([""], dtype=object)
        self.lengths = np.zeros(0, dtype=np.int64)

    def update(self) -> "StringArrays":
        """Extended to the values added to the table since the last call."""
        strings = self.table.strings
        old, new = len(self.lengths), len(strings)
        if new > old:
            added = strings[old:new]
            spaceless = [remove_spaces(x) for x in added]
            self.values = np.concatenate([self.values[:old], np.asarray(added + [""], dtype=object)])
            self.spaceless = np.concatenate([self.spaceless[:old], np.asarray(spaceless + [""], dtype=object)])
            self.lengths = np.concatenate([self.lengths, np.fromiter(map(len, spaceless), dtype=np.int64,
                                                                     count=len(spaceless))])
        return self
