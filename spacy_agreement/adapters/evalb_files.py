"""Bracket files as EVALB (Sekine & Collins 1997) reads them: lines of text, not trees.

:mod:`spacy_agreement.evaluation.constituency.evalb` reproduces EVALB number for number, and EVALB scores
the raw text of each line with its own tokenizer (bytes as Latin-1 characters, only ASCII
blanks separating them, a blank line a sentence of its own). So these files are not read
through the reader registry (:func:`~spacy_agreement.adapters.files.read_trees` parses trees
and would lose what EVALB counts); :func:`file_lines` gives the lines EVALB would read.
"""
from __future__ import annotations

import os
from typing import List, Optional, Union

PathLike = Union[str, "os.PathLike[str]"]

#: C's ``isspace()`` in the C locale: what separates EVALB's tokens (the same as
#: :data:`spacy_agreement.evaluation.constituency.evalb_params.BLANK`).
BLANK = " \t\n\v\f\r"


def file_lines(path: PathLike) -> List[str]:
    """The sentences of a bracket file, whatever its suffix, as EVALB reads them: one per
    line (blank lines included). A file whose trees are spread over several lines, as in
    the Penn Treebank's ``.mrg`` files, which EVALB cannot read, is read one tree a line
    (what ``tgrep -wn '/.*/' | tgrep_proc.prl`` would make of it)."""
    with open(path, "rb") as handle:
        text = handle.read().decode("latin-1")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return _join_trees(text) or lines


def _join_trees(text: str) -> Optional[List[str]]:
    depth, trees, start, multi = 0, [], 0, False
    for pos, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = pos
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return None
            if depth == 0:
                trees.append(" ".join(text[start:pos + 1].split("\n")))
        elif ch == "\n":
            multi = multi or depth > 0
        elif depth == 0 and ch not in BLANK:
            return None
    return trees if multi and depth == 0 else None


def line_reader(path: PathLike):
    """The lines of :func:`file_lines`, read by the compiled reader in blocks
    (``spacy_agreement._evalb.LineReader``: byte spans, no Python object per line): the file
    itself, or the lines :func:`file_lines` joins when its trees are spread over lines."""
    from .. import _evalb

    if _evalb.needs_joining(path):  # a tree spread over lines (.mrg): joined here, one tree a line
        return _evalb.LineReader(lines=[line.encode("latin-1") for line in file_lines(path)])
    return _evalb.LineReader(path)


__all__ = ["BLANK", "file_lines", "line_reader"]
