"""One CoNLL-U file holding several annotators' trees of each sentence, each tree marked with a
comment naming its annotator (Arborator-Grew's server keeps every user's tree so, with
``# user_id = NAME``): split by that comment into one annotator each, the annotations of a
sentence then paired by ``sent_id`` (else as :mod:`~spacy_agreement.adapters.matching` says).

>>> text = ("# sent_id = s1\\n# user_id = ann\\n1\\ta\\t_\\tX\\t_\\t_\\t0\\troot\\t_\\t_\\n\\n"
...         "# sent_id = s1\\n# user_id = bob\\n1\\ta\\t_\\tX\\t_\\t_\\t0\\troot\\t_\\t_\\n\\n")
>>> import io
>>> corpus = load_multi_user(io.StringIO(text), name="multi.conllu")
>>> corpus.annotators, corpus.names, corpus.matched_by.rule
(('ann', 'bob'), ['s1'], 'sent_id')
"""
from __future__ import annotations

import io
import os
from typing import Dict, List, Optional, Sequence, Union

import numpy as np
from conllu.parser import DEFAULT_METADATA_PARSERS, parse_comment_line

from .._memory import collection_paused
from ..corpus import Corpus, ReadStats
from ..errors import InvalidTreeError, Location, MismatchedCorpusError
from .conllu.scanned_trees import comment_value, trees_from_bytes
from .conllu.trees import iter_conll
from .matching import match_columns

#: The comment naming a tree's annotator in Arborator-Grew's multi-user files.
USER_KEY = "user_id"

PathLike = Union[str, "os.PathLike[str]"]


def user_ids(text: str, key: str = USER_KEY, block_lines: Optional[Sequence[int]] = None,
             data: Optional[bytes] = None) -> List[Optional[str]]:
    """For each sentence of CoNLL-U text, in order, the value of its (last) ``# KEY = VALUE``
    comment (``None`` where there is none). Sentences are the blocks of non-blank lines (a line of
    white space only is blank), as every reader of the package cuts them; only the comment lines that
    hold ``KEY`` are parsed (``conllu``'s ``parse_comment_line``). The lines are those a file gives
    (cut at ``"\\n"`` only), each line's block found on arrays, not line by line.

    ``block_lines``, where the blocks are known (the compiled scanner's sentences): the 1-based line
    each block starts on; then only the lines that hold ``KEY`` are looked at, found in ``data`` (the
    text's UTF-8 bytes, made when not given)."""
    if block_lines is not None and key and "\n" not in key:
        return _user_ids_in_lines(text.encode("utf-8") if data is None else data, key, block_lines)
    lines = text.split("\n")
    n = len(lines)
    blank = np.fromiter(map(str.isspace, lines), dtype=bool, count=n)  # what strip() would empty
    blank |= np.fromiter(map(len, lines), dtype=np.int64, count=n) == 0
    starts = ~blank
    starts[1:] &= blank[:-1]  # a block's first line: not blank, after a blank line or first
    block = np.cumsum(starts) - 1
    out: List[Optional[str]] = [None] * int(starts.sum())
    for k in [k for k, line in enumerate(lines) if key in line]:  # a comment's name is a part of its text
        _take(out, int(block[k]), lines[k], key)
    return out


def _take(out: List[Optional[str]], block: int, line: str, key: str) -> None:
    """``out[block]`` set to the value of ``key`` in ``line`` where the line is such a comment."""
    line = line.strip()
    if not line or line[0] != "#":
        return
    if key not in DEFAULT_METADATA_PARSERS:  # newdoc, newpar: conllu's own parsers
        found = comment_value(line, key)
        if found is not None:
            out[block] = found
        return
    for name, value in parse_comment_line(line):
        if name == key:
            out[block] = str(value)


def _user_ids_in_lines(data: bytes, key: str, block_lines: Sequence[int]) -> List[Optional[str]]:
    """:func:`user_ids` of blocks starting on ``block_lines``: the lines of ``data`` that hold ``key``
    found by a search of the bytes, their numbers by counting line ends from one to the next, their
    blocks by a binary search."""
    needle = key.encode("utf-8")
    firsts, lasts, numbers = [], [], []
    number, counted = 1, 0  # the number of the line at ``counted``
    at = data.find(needle)
    while at >= 0:
        first = data.rfind(b"\n", 0, at) + 1
        last = data.find(b"\n", at)
        last = len(data) if last < 0 else last
        number += data.count(b"\n", counted, first)
        counted = first
        firsts.append(first)
        lasts.append(last)
        numbers.append(number)
        at = data.find(needle, last + 1)  # the next line that holds the key
    blocks = np.searchsorted(np.asarray(block_lines, dtype=np.int64), np.asarray(numbers, dtype=np.int64),
                             side="right") - 1
    out: List[Optional[str]] = [None] * len(block_lines)
    for a, b, block in zip(firsts, lasts, blocks.tolist()):
        if block >= 0:
            _take(out, block, data[a:b].decode("utf-8"), key)
    return out


def has_user_ids(path: PathLike, key: str = USER_KEY) -> bool:
    """Whether a CoNLL-U file's sentences carry ``# KEY = ...`` comments (read from its start)."""
    try:
        with open(path, encoding="utf-8") as handle:
            head = handle.read(1 << 16)
    except (OSError, UnicodeDecodeError):
        return False
    return any(line.lstrip("# \t").startswith(key) and "=" in line for line in head.splitlines()
               if line.startswith("#"))


def load_multi_user(source: Union[PathLike, io.TextIOBase], key: str = USER_KEY, name: Optional[str] = None,
                    single_root: bool = False, cycles: str = "drop") -> Corpus:
    """The corpus of a file holding several annotators' trees (module docstring): one annotator
    per value of the ``# KEY`` comment, in order of first appearance; every sentence must carry
    one (else an error naming it)."""
    if isinstance(source, io.TextIOBase):
        text, name = source.read(), name or getattr(source, "name", "<input>")
    else:
        with open(source, encoding="utf-8") as handle:
            text = handle.read()
        name = name or os.fspath(source)
    stats = ReadStats()
    with collection_paused():  # many small objects and no cycle among them (_memory)
        try:
            data: Optional[bytes] = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: the Python reader names it
            data = None
        found = trees_from_bytes(data, name, single_root, cycles, stats, scanned=True) if data is not None else None
        if found is not None:  # the scanner's sentences are the blocks
            scanned, trees = found[0], list(found[1])
            users = user_ids(text, key, scanned.sentences["line"], data)
        else:
            trees = list(iter_conll(io.StringIO(text), name, single_root, stats, cycles))
            users = user_ids(text, key)
    if len(trees) != len(users):  # cannot happen: both count the blocks
        raise MismatchedCorpusError(f"{name}: {len(trees)} trees but {len(users)} sentences")
    columns: Dict[str, List] = {}
    for tree, user in zip(trees, users):
        if user is None:
            raise InvalidTreeError(f"no '# {key} = ...' comment: every tree of a multi-user file names its "
                                   "annotator", Location(name, tree.location.sentence, line=tree.location.line,
                                                         sent_id=tree.location.sent_id))
        columns.setdefault(user, []).append(tree)
    if len(columns) < 2:
        raise MismatchedCorpusError(f"{name}: only one annotator ({', '.join(columns)}) in the '# {key}' comments: "
                                    "at least two are needed to measure agreement")
    names = list(columns)
    items, item_names, how = match_columns(columns, name)
    # one file read once: its counts (multiword ranges, empty nodes) go with the first annotator
    read_stats = {n: stats if k == 0 else ReadStats() for k, n in enumerate(names)}
    return Corpus(tuple(names), items, item_names, "dependency", read_stats, matched_by=how)


__all__ = ["USER_KEY", "has_user_ids", "load_multi_user", "user_ids"]
