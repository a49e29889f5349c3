"""The coded words of trees read through the compiled scanner, gathered for corpus-wide counts
(:class:`ScannedColumns`): which file and word row each compared token is, the files' string tables
merged into one, each column's codes in it. :mod:`~.layer_values` counts the layers from them and
:mod:`~.accuracy` the pairwise attachment scores, instead of every tree's strings token by token."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..trees import DependencyTree
from .nominal import distinct_codes


class ScannedColumns:
    """:meth:`_Columns.raw` read from the coded words that trees read through the compiled scanner
    carry (:class:`~spacy_agreement.adapters.conllu.scanned_trees.ScannedWords`): the codes of the
    units gathered from each file's code columns, the files' string tables merged into one, instead
    of every tree's strings looked up one by one. Used when every compared tree carries them."""

    CODE_COLUMNS = {"form": 0, "lemma": 1, "upos": 2, "xpos": 3, "feats": 4, "deprel": 5, "misc": 6}

    def __init__(self, sources: List[Any], source: np.ndarray, row: np.ndarray) -> None:
        self.sources, self.source, self.row = sources, source, row
        self._merged: Optional[Tuple[List[str], List[np.ndarray]]] = None

    @classmethod
    def of(cls, items: Sequence[Dict[str, DependencyTree]], names: Sequence[str],
           lengths: Sequence[int]) -> Optional["ScannedColumns"]:
        """The units' files and word rows (``-1``: the annotator lacks the item), or ``None`` where a
        compared tree was not read through the scanner (or is partial: its texts are not the codes')."""
        from ..adapters.conllu.scanned_trees import scanned_sources

        which = np.full((len(names), len(items)), -1, dtype=np.int64)
        first = np.zeros((len(names), len(items)), dtype=np.int64)
        present = [(a, i) for a, name in enumerate(names) for i, item in enumerate(items)
                   if item.get(name) is not None]
        found = scanned_sources([items[i][names[a]] for a, i in present])
        if found is None:
            return None
        sources, tree_source, tree_first = found
        if present:
            at = tuple(np.asarray(present, dtype=np.int64).T)
            which[at], first[at] = tree_source, tree_first
        n = np.asarray(lengths, dtype=np.int64)
        offsets = np.concatenate(([0], np.cumsum(n)))
        within = np.arange(int(offsets[-1]), dtype=np.int64) - np.repeat(offsets[:-1], n)
        source = np.repeat(which, n, axis=1)
        row = np.repeat(first, n, axis=1) + within[None, :]
        return cls(sources, source, row)

    def merged(self) -> Tuple[List[str], List[np.ndarray]]:
        """The strings of the files' tables merged into one, and each file's codes in it."""
        if self._merged is None:
            from .. import _conllu

            table = _conllu.StringTable()
            mappings = [words.table.merge_into(table) for words in self.sources]
            self._merged = (table.strings, mappings)
        return self._merged

    def raw(self, column: str) -> Tuple[np.ndarray, List[Optional[str]]]:
        """:meth:`_Columns.raw` of ``column`` (a text column or ``head``)."""
        # the files' columns end to end, each unit's word found at its file's start plus its row:
        # one gather whatever the number of files (a corpus of one sentence per file has thousands)
        sizes = np.fromiter((len(words.heads) for words in self.sources), dtype=np.int64, count=len(self.sources))
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1])) if len(sizes) else sizes
        present = self.source >= 0
        rows = starts[self.source[present]] + self.row[present]
        values = np.full(self.source.shape, -1, dtype=np.int64)
        if column == "head":  # every head annotated: the head word's id as written, its number
            flat = np.concatenate([words.heads for words in self.sources]) if self.sources else np.zeros(0, np.int64)
            strings: Any = None
        else:
            c = self.CODE_COLUMNS[column]
            strings, mappings = self.merged()
            flat = np.concatenate([mapping[words.codes[:, c]] for mapping, words in zip(mappings, self.sources)]) \
                if self.sources else np.zeros(0, np.int64)
        values[present] = flat[rows]
        used = distinct_codes(values)
        lookup = np.zeros(int(used[-1]) + 2 if used.size else 1, dtype=np.int64)
        lookup[used] = np.arange(1, used.size + 1)
        texts: List[Optional[str]] = [None] + ([str(v) for v in used.tolist()] if strings is None
                                               else [strings[v] for v in used.tolist()])
        return np.where(values >= 0, lookup[values], 0), texts


__all__ = ["ScannedColumns"]
