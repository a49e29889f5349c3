"""Files of human judgments of parses (Plank et al. 2015) read into trees and preferences.

Two inputs, read by :func:`read_judgment_records` (a folder or a file):

* **JSON Lines**, one item per line (:func:`read_jsonl_records`)::

      {"id": "en-17",
       "gold": {"heads": [2, 0, 2], "deprels": ["nsubj", "root", "obj"], "upos": [...], "forms": [...]},
       "a": {...}, "b": {...},
       "judgments": {"judge1": "A", "judge2": "B"}}

  A tree may also be given as CoNLL-U text (a string), and a phrase-structure tree as an
  object with its bracketed text, ``{"brackets": "(S (NP (DT the) (NN dog)) (VP (VBZ barks)))"}``
  (:func:`tree_json` writes either). ``upos`` and ``forms`` are optional; so is ``gold``
  (absent or ``null``: an item without gold, judged only, whose metrics cannot be computed).
  A preference is ``"A"``, ``"B"`` or ``"tie"`` (no preference). The export of a judging page
  (:mod:`spacy_agreement.report.judging_page`) is such a file, one line per judged item, with
  ``comments`` (judge -> text) and ``shown_first`` (judge -> the system the judge saw first)
  besides, which are kept (comments) or passed over (the rest).
* **a language folder of the released data** (``CoNLL2015/datapackage/<lang>/``,
  :func:`read_datapackage_records`): ``gold.conll``, ``parser1.conll``, ``parser2.conll``
  (parallel CoNLL files, read through the reader registry: the built-in ``conll`` reader
  streamed by :func:`~spacy_agreement.adapters.conllu.iter_conll`) and ``annotated.csv``, one row per
  sentence, one column per judge, each cell the colour of the parse the judge preferred
  (:data:`DATAPACKAGE_COLOURS`; an empty cell: not judged).

What comes out is one :class:`JudgmentRecord` per item, in order: the trees and the judges'
raw preferences, with the item's :class:`~spacy_agreement.errors.Location`. What a
preference may be and that the parses match the gold is checked where the records become
items (:func:`spacy_agreement.evaluation.judgments.analysis.make_item`;
:func:`~spacy_agreement.evaluation.judgments.analysis.load_judgments` does both). The records are
yielded one at a time, so an item is checked before the next line is read and the first
error in the file is the one reported. Problems of the files themselves are a
:class:`~spacy_agreement.errors.JudgmentError` naming the file, the item and the line.

Several files at once (:func:`merge_judgment_records`: the exports of several judges, or of one
judge twice) are merged by item id: an item's judgments are those of every file that has it,
a judge's judgment in a later file replaces the same judge's in an earlier one (a warning
says how many items, and how many of them changed), and an item whose analyses differ from
one file to another is an error naming both.

Memory: nothing is kept from one record to the next (merging keeps every item). A JSON Lines file is read line by
line; a release folder is read in two passes: the first counts the sentences of each CoNLL
file and the rows of ``annotated.csv`` without building a tree (files of different lengths
are an error before any item is yielded), the second reads the three CoNLL files and the
table in step, one sentence of each at a time (an unreadable sentence is therefore reported
when its item is reached, after the items before it).
"""
from __future__ import annotations

import contextlib
import csv
import json
import os
import warnings
from typing import (Any, Dict, Iterable, Iterator, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union,
                    cast)

from ..errors import BadOptionError, JudgmentError, Location, not_utf8
from ..trees import ConstituencyTree, DependencyTree
from . import files
from .brackets import parse_brackets, to_nltk
from .conllu.trees import _blocks, iter_conll, parse_conll

PathLike = Union[str, "os.PathLike[str]"]

#: The CoNLL files (without ``.conll``) of parse A and parse B in a release folder: in the
#: released data ``parser1`` is Malt and ``parser2`` MST.
DATAPACKAGE_PARSES = ("parser1", "parser2")
#: The cell values of ``annotated.csv`` meaning A and B (blue is parser1: this reproduces the
#: paper's Tables 2 and 5).
DATAPACKAGE_COLOURS = ("blue", "red")


Tree = Union[DependencyTree, ConstituencyTree]


class JudgmentRecord(NamedTuple):
    """One item as read: a gold tree (or ``None``), parses A and B, each judge's preference as
    written, where the item is, and the judges' comments (``make_item(*record)`` checks it)."""

    id: str
    gold: Optional[Tree]
    a: Tree
    b: Tree
    judgments: Mapping[str, str]
    location: Location
    comments: Mapping[str, str] = {}


def _utf8_lines(handle, path):
    """The lines of an open text file; a byte that is not UTF-8 is an error naming the file and line."""
    try:
        yield from handle
    except UnicodeDecodeError as exc:
        raise not_utf8(path, exc) from None


def json_tree(value: Any, id: str, name: str, location: Location) -> Tree:
    """The tree ``name`` (``gold``, ``a``, ``b``) of item ``id`` from its JSON value: CoNLL-U
    text of one sentence, an object with ``heads`` and ``deprels`` (``forms`` and ``upos``
    optional), or an object with ``brackets``, the bracketed text of a phrase-structure tree."""
    if value is None:
        raise JudgmentError(f"item {id!r} has no {name!r} parse", location)
    if isinstance(value, Mapping) and "brackets" in value:
        if not isinstance(value["brackets"], str):
            raise JudgmentError(f"item {id!r}: {name!r} brackets must be a string", location)
        trees = parse_brackets(value["brackets"], name=f"{location.source}[{id}].{name}")
        if len(trees) != 1 or trees[0] is None:
            raise JudgmentError(f"item {id!r}: {name!r} must hold one bracketed tree, found {len(trees)}", location)
        return trees[0]
    if isinstance(value, str):
        trees = parse_conll(value, name=f"{location.source}[{id}].{name}")
        if len(trees) != 1:
            raise JudgmentError(f"item {id!r}: {name!r} must hold one sentence, found {len(trees)}", location)
        return trees[0]
    if isinstance(value, Mapping) and "heads" in value and "deprels" in value:
        for column in ("heads", "deprels", "forms", "upos"):  # forms and upos may be left out
            found = value.get(column)
            if not isinstance(found, (list, tuple)) and (found is not None or column in ("heads", "deprels")):
                raise JudgmentError(f"item {id!r}: {name!r} {column} must be a JSON array, got "
                                    f"{type(found).__name__} {found!r:.40}", location)
        return DependencyTree.create(value["heads"], value["deprels"], value.get("forms"), value.get("upos"),
                                     location=Location(f"{location.source}[{id}].{name}", location.sentence,
                                                       line=location.line))
    raise JudgmentError(f"item {id!r}: {name!r} must be CoNLL-U text or an object with heads and deprels", location)


def read_datapackage_records(
    folder: PathLike,
    parses: Sequence[str] = DATAPACKAGE_PARSES,
    colours: Sequence[str] = DATAPACKAGE_COLOURS,
    gold: str = "gold",
    judgments_file: str = "annotated.csv",
) -> Iterator[JudgmentRecord]:
    """The items of one language folder of the Plank et al. (2015) release (module
    docstring): ``parses`` names the CoNLL files (without ``.conll``) of parse A and parse B,
    ``colours`` the cell values that mean A and B. Judges are named ``judge1``, ``judge2``, ...
    by column; a first row with no colour in it is taken as a header of judge names."""
    if len(parses) != 2 or len(colours) != 2:
        raise BadOptionError("give two parses (A and B) and two colours (meaning A and B)")
    meaning = {str(colours[0]).strip().lower(): "A", str(colours[1]).strip().lower(): "B"}
    if len(meaning) != 2:
        raise BadOptionError(f"the two colours must differ, got {list(colours)}")
    base = os.fspath(folder)
    names = list(dict.fromkeys((gold, *parses)))  # a file named twice is counted once, as before
    conll = {name: os.path.join(base, f"{name}.conll") for name in names}
    # a first pass counts (reads no tree): a file of another length is an error before any item
    counts = {f"{name}.conll": _sentence_count(path) for name, path in conll.items()}
    table = os.path.join(base, judgments_file)
    first, rows = _table_shape(table)
    judges: List[str] = []
    first_line = 1
    if rows and any(first) and not any(cell.lower() in meaning for cell in first):
        judges = [cell or f"judge{k}" for k, cell in enumerate(first, start=1)]
        rows, first_line = rows - 1, 2
    if len(set(counts.values())) != 1 or rows != counts[f"{gold}.conll"]:
        listed = ", ".join(f"{name} {n}" for name, n in counts.items())
        raise JudgmentError(f"different numbers of sentences: {listed}, {judgments_file} {rows} rows",
                            Location(base))
    label = os.path.basename(os.path.normpath(base)) or "item"
    with contextlib.ExitStack() as stack:
        handle = stack.enter_context(open(table, encoding="utf-8", newline=""))
        cells = csv.reader(_utf8_lines(handle, table))
        if first_line == 2:
            next(cells)
        sentences = zip(*(stack.enter_context(contextlib.closing(_trees(conll[name])))
                          for name in (gold, *parses)))
        for k, (row, (gold_tree, a, b)) in enumerate(zip(cells, sentences)):
            if k == rows:
                break
            location = Location(table, k + 1, line=k + first_line)  # row k is sentence k + 1
            judged: Dict[str, str] = {}
            for column, cell in enumerate(cell.strip() for cell in row):
                if not cell:
                    continue
                if cell.lower() not in meaning:
                    raise JudgmentError(f"column {column + 1}: unknown colour {cell!r} (expected "
                                        f"{' or '.join(map(repr, colours))})", location)
                judge = judges[column] if column < len(judges) else f"judge{column + 1}"
                judged[judge] = meaning[cell.lower()]
            yield JudgmentRecord(f"{label}-{k + 1}", gold_tree, a, b, judged, location)


def _streamed() -> bool:
    """Whether the reader registry's ``conll`` reader is the built-in one, which
    :func:`~.conllu.iter_conll` streams (a reader registered in its place gives lists)."""
    return files.get_reader("conll").read is files._read_conll


def _trees(path: PathLike) -> Iterator[DependencyTree]:
    """The trees of a CoNLL file through the reader registry, one at a time where the reader
    is the built-in one."""
    if _streamed():
        yield from iter_conll(path)
    else:
        yield from cast(List[DependencyTree], files.read_trees(path, "conll"))


def _sentence_count(path: PathLike) -> int:
    """The number of sentences of a CoNLL file (blocks of lines, as :func:`~.conllu.iter_conll`
    yields one tree per block), without reading the trees."""
    if not _streamed():
        return len(files.read_trees(path, "conll"))
    with open(path, encoding="utf-8") as handle:
        try:
            return sum(1 for _ in _blocks(handle))
        except UnicodeDecodeError as exc:  # the file named, and the line of the bad byte
            raise not_utf8(path, exc) from None


def _table_shape(table: PathLike) -> Tuple[List[str], int]:
    """The first row of ``annotated.csv`` (cells stripped) and its number of rows up to the
    last one with a cell (trailing empty rows are not sentences); one pass, no row kept."""
    first: List[str] = []
    rows = last = 0
    with open(table, encoding="utf-8", newline="") as handle:
        for row in csv.reader(_utf8_lines(handle, table)):
            cells = [cell.strip() for cell in row]
            if rows == 0:
                first = cells
            rows += 1
            if any(cells):
                last = rows
    return first, last


def read_jsonl_records(path: PathLike) -> Iterator[JudgmentRecord]:
    """The items of a JSON Lines file (module docstring), one per non-blank line; an item
    without an ``id`` is named ``line N``."""
    name = os.fspath(path)
    count = 0
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(_utf8_lines(handle, path), start=1):
            if not line.strip():
                continue
            location = Location(name, count + 1, line=number)  # item number, file line
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise JudgmentError(f"not JSON: {exc.msg}", location) from None
            except (ValueError, RecursionError) as exc:  # a number of over 4300 digits, arrays nested too deep
                raise JudgmentError(f"not JSON that can be read: {exc}", location) from None
            if not isinstance(record, dict):
                raise JudgmentError("each line must be a JSON object", location)
            id = str(record.get("id", f"line {number}"))
            judgments = record.get("judgments")
            if not isinstance(judgments, Mapping):
                raise JudgmentError(f"item {id!r} has no 'judgments' object", location)
            comments = record.get("comments") or {}
            if not isinstance(comments, Mapping) or not all(isinstance(c, str) for c in comments.values()):
                raise JudgmentError(f"item {id!r}: 'comments' must be an object of judge -> text", location)
            gold = None if record.get("gold") is None else json_tree(record["gold"], id, "gold", location)
            a, b = (json_tree(record.get(key), id, key, location) for key in ("a", "b"))
            count += 1
            yield JudgmentRecord(id, gold, a, b, judgments, location, comments)


def read_judgment_records(path: PathLike, **datapackage_options: Any) -> Iterator[JudgmentRecord]:
    """The items of a JSON Lines file, or of a folder in the layout of the Plank et al. (2015)
    release (:func:`read_datapackage_records`, which takes the keyword options)."""
    if os.path.isdir(path):
        return read_datapackage_records(path, **datapackage_options)
    return read_jsonl_records(path)


def tree_json(tree: Tree) -> Dict[str, Any]:
    """A tree as :func:`json_tree` reads it back: ``{"forms", "heads", "deprels", "upos"}``
    for a dependency tree (``upos`` left out when not known), ``{"brackets": "(S ...)"}`` for
    a phrase-structure tree (its words under the preterminals, where it has words)."""
    if isinstance(tree, DependencyTree):
        out: Dict[str, Any] = {"forms": list(tree.forms), "heads": tree.heads.tolist(), "deprels": list(tree.deprels)}
        if any(u != "_" for u in tree.upos):
            out["upos"] = list(tree.upos)
        return out
    return {"brackets": " ".join(str(to_nltk(tree)).split())}


def _same_analysis(x: Optional[Tree], y: Optional[Tree]) -> bool:
    """Whether two trees read from two files are the same analysis (gold ``None`` matches
    anything: one export may have the gold and another not)."""
    if x is None or y is None:
        return True
    if isinstance(x, DependencyTree) and isinstance(y, DependencyTree):
        return x.heads.tolist() == y.heads.tolist() and x.deprels == y.deprels and x.forms == y.forms
    if isinstance(x, ConstituencyTree) and isinstance(y, ConstituencyTree):
        return x.brackets() == y.brackets() and x.words == y.words
    return False


def merge_judgment_records(sources: Iterable[Tuple[str, Iterable[JudgmentRecord]]]) -> Iterator[JudgmentRecord]:
    """The items of several files, ``(name, records)`` each, merged by item id (module
    docstring), in the order they are first met: an item's judgments and comments are those
    of every file that has it; where a judge judged an item in two files, the later file's
    judgment (and comment) replaces the earlier one's, and one warning per judge and pair of
    files says how many items were replaced and how many of them changed. The same id with
    other analyses (parse A, B or the gold) in two files is a
    :class:`~spacy_agreement.errors.JudgmentError` naming both."""
    merged: Dict[str, List[Any]] = {}  # id -> [record, judgments, comments, {judge: file}]
    replaced: Dict[Tuple[str, str, str], List[int]] = {}  # (judge, earlier, later) -> [items, changed]
    for name, records in sources:
        for record in records:
            entry = merged.get(record.id)
            if entry is None:
                merged[record.id] = [record, dict(record.judgments), dict(record.comments),
                                     {judge: name for judge in record.judgments}]
                continue
            first = entry[0]
            for key in ("a", "b", "gold"):
                if not _same_analysis(getattr(first, key), getattr(record, key)):
                    raise JudgmentError(f"item {record.id!r}: parse {key if key == 'gold' else key.upper()} differs "
                                        f"from the one in {first.location.source} (item {first.location.sentence}): "
                                        "are these exports of the same page?", record.location)
            if first.gold is None and record.gold is not None:
                entry[0] = first = first._replace(gold=record.gold)
            for judge, value in record.judgments.items():
                if judge in entry[1]:
                    count = replaced.setdefault((judge, entry[3][judge], name), [0, 0])
                    count[0] += 1
                    count[1] += str(entry[1][judge]).strip().lower() != str(value).strip().lower()
                    entry[2].pop(judge, None)
                entry[1][judge] = value
                entry[3][judge] = name
            entry[2].update(record.comments)
    for (judge, earlier, later), (items, changed) in replaced.items():
        warnings.warn(f"judge {judge!r}: the judgments of {items} item(s) in {later} replace those in {earlier} "
                      f"({changed} changed)", UserWarning, stacklevel=2)
    for record, judgments, comments, _ in merged.values():
        yield record._replace(judgments=judgments, comments=comments)


__all__: List[str] = [
    "DATAPACKAGE_COLOURS", "DATAPACKAGE_PARSES", "JudgmentRecord", "json_tree", "merge_judgment_records",
    "read_datapackage_records", "read_judgment_records", "read_jsonl_records", "tree_json",
]
