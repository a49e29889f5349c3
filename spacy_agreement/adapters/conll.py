"""CoNLL-U and CoNLL-X (10-column) files into :class:`DependencyTree`s, through ``conllu``.

Both formats have ten tab-separated columns with the token id first, the form second,
the (coarse) part of speech fourth, the head seventh and the relation eighth, so one
reader serves both. What is read:

* **Multi-word token ranges** (CoNLL-U ids like ``3-4``) are surface tokens that carry no
  head; the syntactic words inside them are read, the range line is not part of the tree.
* **Empty nodes** (ids like ``5.1``) belong to the enhanced graph, not the basic tree;
  they are left out of the tree.
* Both are counted in :class:`ReadStats` so nothing disappears unseen.
* Comment lines are metadata; sentences are separated by blank lines.

Errors (a head out of range, a line with the wrong number of columns, an empty sentence,
and with ``cycles="raise"`` a token that is its own head, a sentence without a root or
another head cycle) name the file, the 1-based sentence number and the token id.
"""
from __future__ import annotations

import io
import os
from typing import Iterable, Iterator, List, Optional, Union

import conllu
from conllu.exceptions import ParseException
from conllu.parser import parse_id_value

from ..corpus import ReadStats
from ..errors import InvalidTreeError, Location
from ..trees import DependencyTree

FIELDS = ("id", "form", "lemma", "upos", "xpos", "feats", "head", "deprel", "deps", "misc")
# Columns we do not use are kept as raw strings, so a CoNLL-X FEATS value such as "sg|nom"
# (no "=") cannot make an otherwise good file unreadable.
_RAW = {name: (lambda line, i: line[i]) for name in ("lemma", "xpos", "feats", "deps", "misc")}


class _ColumnCountError(Exception):
    def __init__(self, token: str, count: int):
        self.token, self.count = token, count


def _parse_id(line: List[str], i: int):
    # conllu fills a short line with fewer fields and ignores extra columns: check here
    if len(line) != len(FIELDS):
        raise _ColumnCountError(line[0], len(line))
    return parse_id_value(line[i])


_PARSERS = {**_RAW, "id": _parse_id}

PathLike = Union[str, "os.PathLike[str]"]


def _raw_feats(value):
    # our reader keeps FEATS as text; a TokenList parsed by conllu's defaults has a dict
    if isinstance(value, dict):
        return "|".join(f"{k}={v}" if v else str(k) for k, v in value.items()) or None
    return value


def from_conllu(
    sentence: conllu.TokenList,
    location: Optional[Location] = None,
    single_root: bool = False,
    stats: Optional[ReadStats] = None,
) -> DependencyTree:
    """One ``conllu`` sentence (``TokenList``) as a :class:`DependencyTree`."""
    location = location or Location()
    words = []
    for token in sentence:
        if "head" not in token or "deprel" not in token:
            raise InvalidTreeError(
                f"line has {len(token)} columns, expected 10", location.at_token(token.get("id", "?"))
            )
        tid = token["id"]
        if isinstance(tid, tuple):
            if stats is not None:
                if len(tid) == 3 and tid[1] == ".":
                    stats.empty_nodes += 1
                else:
                    stats.multiword_ranges += 1
            continue
        if not isinstance(tid, int):
            raise InvalidTreeError(f"token id {tid!r} is not a number", location.at_token(tid))
        words.append(token)
    for position, token in enumerate(words, start=1):
        if token["id"] != position:
            raise InvalidTreeError(
                f"token ids must run 1, 2, 3, ...; found {token['id']} at position {position}",
                location.at_token(token["id"]),
            )
    return DependencyTree.create(
        heads=[t["head"] for t in words],
        deprels=[t["deprel"] for t in words],
        forms=[t["form"] for t in words],
        upos=[t["upos"] for t in words],
        ids=[t["id"] for t in words],
        location=location,
        single_root=single_root,
        lemmas=[t.get("lemma") for t in words],
        feats=[_raw_feats(t.get("feats")) for t in words],  # raw text, parsed where used (ud_metrics)
        xpos=[t.get("xpos") for t in words],
    )


def iter_conll(
    source: Union[PathLike, io.TextIOBase],
    name: Optional[str] = None,
    single_root: bool = False,
    stats: Optional[ReadStats] = None,
    cycles: str = "drop",
) -> Iterator[DependencyTree]:
    """Stream the trees of a CoNLL-U or CoNLL-X file (a path or an open text file).

    Tokens that are their own head, sentences with no token attached to the root and other
    head cycles are read (they are real: annotation tools write them, and the reference
    tools read them); where trees are compared such tokens drop out and are counted. With
    ``cycles="raise"`` (the CLI's ``--strict``) the first of them is an
    :class:`InvalidTreeError` naming file, sentence and token.
    """
    if cycles not in ("drop", "raise"):
        raise ValueError(f"cycles must be 'drop' or 'raise', not {cycles!r}")
    if isinstance(source, (str, os.PathLike)):
        name = name or os.fspath(source)
        with open(source, encoding="utf-8") as handle:
            yield from iter_conll(handle, name, single_root, stats, cycles)
        return
    name = name or getattr(source, "name", "<input>")
    number = 0
    generator = conllu.parse_incr(source, fields=FIELDS, field_parsers=_PARSERS)
    while True:
        try:
            sentence = next(generator)
        except StopIteration:
            return
        except ParseException as exc:
            raise InvalidTreeError(f"malformed line: {exc}", Location(str(name), number + 1)) from None
        except _ColumnCountError as exc:
            raise InvalidTreeError(
                f"line has {exc.count} columns, expected {len(FIELDS)}", Location(str(name), number + 1, exc.token)
            ) from None
        number += 1
        if stats is not None:
            stats.sentences += 1
        tree = from_conllu(sentence, Location(str(name), number), single_root, stats)
        if cycles == "raise" and tree.unreachable_tokens().size:
            raise tree.cycle_error()
        yield tree


def read_conll(
    source: Union[PathLike, io.TextIOBase],
    name: Optional[str] = None,
    single_root: bool = False,
    stats: Optional[ReadStats] = None,
    cycles: str = "drop",
) -> List[DependencyTree]:
    """All trees of a CoNLL-U or CoNLL-X file, in order.

    ``single_root=True`` requires exactly one token attached to the root in every
    sentence (the UD rule); by default several are allowed, as in CoNLL-X treebanks.
    ``cycles`` is explained in :func:`iter_conll`.
    """
    return list(iter_conll(source, name, single_root, stats, cycles))


def parse_conll(text: str, name: str = "<string>", single_root: bool = False) -> List[DependencyTree]:
    """The trees of CoNLL-U or CoNLL-X text."""
    return read_conll(io.StringIO(text), name, single_root)


def write_conll(trees: Iterable[DependencyTree]) -> str:
    """CoNLL-U text of the given trees (id, form, upos, head, deprel; other columns ``_``)."""
    blocks = []
    for tree in trees:
        lines = [
            "\t".join([str(k), form, "_", upos, "_", "_", str(int(head)), deprel, "_", "_"])
            for k, (form, upos, head, deprel) in enumerate(zip(tree.forms, tree.upos, tree.heads, tree.deprels), 1)
        ]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)
