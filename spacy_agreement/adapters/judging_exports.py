"""The exports and the key of a blind judging page (0.4, issue 51; the page is
:mod:`spacy_agreement.report.judging_page`).

* An **export** (``judgments-NAME.jsonl``) is JSON Lines: a first line ``{"spacy_agreement_judgments":
  "0.4", "page", "judge", "exported"}``, then one answer per line, ``{"page", "item", "judge",
  "choice", "comment", "ms"}``, the choice in display order (:data:`PAGE_CHOICES`): no tree, no
  system. An export with no answer is the first line alone (and a 0-byte file reads as no answer).
* The **key** (``PAGE.key.json``) is one JSON object: ``spacy_agreement_judging_key`` (the version),
  ``page``, ``systems`` ``{"A": file, "B": file}``, ``gold`` (file or null), ``show_gold``,
  ``ties``, ``marks``, ``signature``, ``order`` (the per-judge order's rule and seed) and
  ``items``, one ``{"id", "first", "a", "b", "gold"}`` per item: ``first`` is the system shown as
  analysis 1, the trees as :func:`~.judgments_files.tree_json` writes them.

:func:`key_records` maps the answers back to the systems through the key and gives the records
that :func:`~spacy_agreement.evaluation.judgments.analysis.make_item` checks, as for 0.3's exports.
"""
from __future__ import annotations

import json
import os
import warnings
from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Sequence, Tuple, Union

from ..errors import JudgmentError, Location
from .judgments_files import JudgmentRecord, _utf8_lines, json_tree

PathLike = Union[str, "os.PathLike[str]"]


#: The first line of a page's export names its format with this key (its value: the version, "0.4").
EXPORT_MARK = "spacy_agreement_judgments"
#: The key of a judging page names its format with this key.
KEY_MARK = "spacy_agreement_judging_key"
#: What a judge may answer on a page since 0.4: analysis 1 or 2 (display order), equally good, skip.
PAGE_CHOICES = ("1", "2", "tie", "skip")


class PageAnswer(NamedTuple):
    """One answer of a page's export (0.4): the page, the item, the judge as written, the choice in
    display order (:data:`PAGE_CHOICES`), the comment, the time spent (ms), where it was read."""

    page: str
    item: str
    judge: str
    choice: str
    comment: str
    ms: int
    location: Location


def export_kind(path: PathLike) -> str:
    """``"page"`` for an export of a judging page since 0.4 (a first line naming
    :data:`EXPORT_MARK`, or lines with ``choice``), ``"empty"`` for an empty file, ``"items"``
    for anything else (JSON Lines of items with trees and ``judgments``, as 0.3 exported them;
    a folder)."""
    if os.path.isdir(path):
        return "items"
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if not line.strip():
                continue
            try:
                first = json.loads(line)
            except ValueError:
                return "items"
            if isinstance(first, dict) and (EXPORT_MARK in first or ("choice" in first and "item" in first)):
                return "page"
            return "items"
    return "empty"


def file_pages(path: PathLike) -> List[str]:
    """The page id a JSON Lines file of judgments names: the ``page`` of its first line that has
    one (an export is of one page: 0.4's first line names it, 0.3's exports name it on every
    line), so that only the start of the file is read; a folder or a file without one: none."""
    if os.path.isdir(path):
        return []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if '"page"' not in line:
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and isinstance(record.get("page"), str):
                return [record["page"]]
    return []


def read_page_export(path: PathLike) -> Iterator[PageAnswer]:
    """The answers of a page's export (0.4; :mod:`spacy_agreement.report.judging_page`), one per
    line after the first (the file's header); an empty file or a header alone: no answer."""
    name = os.fspath(path)
    header: Dict[str, Any] = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(_utf8_lines(handle, path), start=1):
            if not line.strip():
                continue
            location = Location(name, None, line=number)
            try:
                record = json.loads(line)
            except (ValueError, RecursionError) as exc:
                raise JudgmentError(f"not JSON: {exc}", location) from None
            if not isinstance(record, dict):
                raise JudgmentError("each line must be a JSON object", location)
            if EXPORT_MARK in record:
                header = record
                continue
            missing = [k for k in ("item", "judge", "choice") if k not in record]
            if missing:
                raise JudgmentError(f"an answer without {', '.join(missing)}", location)
            choice = str(record["choice"]).strip().lower()
            if choice not in PAGE_CHOICES:
                raise JudgmentError(f"item {record['item']!r}: unknown choice {record['choice']!r} (the page writes "
                                    f"{', '.join(PAGE_CHOICES)})", location)
            page = record.get("page", header.get("page"))
            if not isinstance(page, str):
                raise JudgmentError("an answer without the page's id ('page')", location)
            ms = record.get("ms", 0)
            yield PageAnswer(page, str(record["item"]), str(record["judge"]), choice, str(record.get("comment") or ""),
                             int(ms) if isinstance(ms, (int, float)) else 0, location)


def read_judging_key(path: PathLike) -> Dict[str, Any]:
    """The key of a judging page (``PAGE.key.json``, written by ``judge --html``), checked."""
    name = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as handle:
            key = json.load(handle)
    except ValueError as exc:
        raise JudgmentError(f"not the key of a judging page (not JSON: {exc})", Location(name)) from None
    if not isinstance(key, dict) or KEY_MARK not in key or not isinstance(key.get("items"), list) \
            or not isinstance(key.get("page"), str):
        raise JudgmentError("not the key of a judging page (judge --html PAGE.html writes PAGE.key.json)",
                            Location(name))
    for k, item in enumerate(key["items"], start=1):
        if not isinstance(item, dict) or item.get("first") not in ("A", "B") or "id" not in item:
            raise JudgmentError(f"item {k} of the key has no 'id' or no 'first' (A or B)", Location(name, k))
    return key


def key_records(keys: Sequence[Tuple[str, Dict[str, Any]]], answers: Iterable[Tuple[str, PageAnswer]],
                prefix: bool = False) -> Tuple[List[JudgmentRecord], Dict[str, Dict[str, int]], int]:
    """The judged items of pages whose ``keys`` (``(path, key)`` each) are given, from the
    ``answers`` of their exports (``(file, answer)`` each): each choice mapped back to the
    systems through the key (``"1"`` is the item's ``first``), judges compared as
    :func:`~spacy_agreement.report.judging_page.normal_judge` (named as first written), a
    judge's answer in a later file replacing one in an earlier file (a warning says how many).
    ``prefix``: item ids as ``PAGE:ID`` (several pages). Returns the records (items with at least
    one answer other than skip, in the key's order), per judge ``{"skip": n, "ms": total,
    "answers": n}``, and the number of items answered only by skips. An answer to an item the key lacks is an error."""
    by_page = {key["page"]: (path, key) for path, key in keys}
    names: Dict[str, str] = {}
    latest: Dict[Tuple[str, str, str], Tuple[str, PageAnswer]] = {}
    replaced: Dict[Tuple[str, str, str], int] = {}
    known: Dict[str, set] = {page: {str(item["id"]) for item in key["items"]} for page, (_, key) in by_page.items()}
    for source, answer in answers:
        if answer.page not in by_page:
            raise JudgmentError(f"an answer of page {answer.page}, and the key given is of page "
                                f"{', '.join(by_page)}", answer.location)
        if answer.item not in known[answer.page]:
            raise JudgmentError(f"item {answer.item!r} is not in the key of page {answer.page}", answer.location)
        judge = answer.judge.strip().lower()
        names.setdefault(judge, answer.judge.strip())
        slot = (answer.page, answer.item, judge)
        before = latest.get(slot)
        if before is not None and before[0] != source:
            triple = (names[judge], before[0], source)
            replaced[triple] = replaced.get(triple, 0) + 1
        latest[slot] = (source, answer)
    for (judge, earlier, later), count in replaced.items():
        warnings.warn(f"judge {judge!r}: the answers to {count} item(s) in {later} replace those in {earlier}",
                      UserWarning, stacklevel=2)
    stats: Dict[str, Dict[str, int]] = {}
    per_item: Dict[Tuple[str, str], List[PageAnswer]] = {}
    for (page, item, judge), (_, answer) in latest.items():
        per_item.setdefault((page, item), []).append(answer)
        one = stats.setdefault(names[judge], {"skip": 0, "ms": 0, "answers": 0})
        one["answers"] += 1
        one["ms"] += max(0, answer.ms)
        one["skip"] += answer.choice == "skip"
    records: List[JudgmentRecord] = []
    skipped_items = 0
    for page, (path, key) in by_page.items():
        for k, entry in enumerate(key["items"], start=1):
            given = per_item.get((page, str(entry["id"])))
            if not given:
                continue
            first = entry["first"]
            side = {"1": first, "2": "B" if first == "A" else "A", "tie": "tie"}
            judged = {names[a.judge.strip().lower()]: side[a.choice] for a in given if a.choice != "skip"}
            if not judged:
                skipped_items += 1
                continue
            comments = {names[a.judge.strip().lower()]: a.comment for a in given if a.comment.strip()}
            where = Location(os.fspath(path), k)
            item_id = f"{page}:{entry['id']}" if prefix else str(entry["id"])
            gold = None if entry.get("gold") is None else json_tree(entry["gold"], item_id, "gold", where)
            a, b = (json_tree(entry.get(x), item_id, x, where) for x in ("a", "b"))
            records.append(JudgmentRecord(item_id, gold, a, b, judged, where, comments))
    return records, stats, skipped_items


__all__ = ["EXPORT_MARK", "KEY_MARK", "PAGE_CHOICES", "PageAnswer", "export_kind", "file_pages", "key_records",
            "read_judging_key", "read_page_export"]
