"""A flat folder of per-annotator files of several texts, given as one path: which part of
each file's name is the annotator and which the text (:func:`place_files`; the folder is
read by :func:`~spacy_agreement.adapters.projects.load_project`, layout ``"flat"``).

The layouts this reads: the NDT data released with Skjærholt (2014), ``odin-danish.conll``,
``thor-danish.conll``, ``odin-swedish.conll`` ... (``NAME-TEXT``), Arborator-Grew's older
export ``SAMPLE.USER.conllu`` (``TEXT.NAME``), and any other name of two parts joined by one
of :data:`SEPARATORS` (``-``, ``_``, ``.``), the annotator first or last.

The rule. The files are first told apart by their sentences: two files hold the same text
when at least :data:`SAME_TEXT_SHARE` of the smaller file's sentences (their words joined
without whitespace; the ``# sent_id`` where the words are not known) are in the other, and
the texts are the groups of files so linked. The files of one text are different annotators'
(an annotator's files of different texts hold different sentences), so the part of the name
that the files of one text share is the text and the rest the annotator:

* the names are read ``NAME-TEXT`` (annotator first) when every text of two or more files
  has one: the longest end of the names after a separator that all its files share, each
  leaving a name before it; ``TEXT-NAME`` (annotator last) likewise with the longest start;
* a text held by one file only is placed by the annotators the other texts name (the name
  starts or ends with one of them), else by its one separator, if it has one;
* texts must have distinct names.

When one reading places every file, it is taken. When both do and they make the same
annotators (the same files of each annotator), the one with the shorter annotator names is
taken (a single text: ``ndt-odin-danish``, ``ndt-thor-danish`` are annotators ``ndt-odin``
and ``ndt-thor`` of text ``danish``). Files that all hold the same sentences and share no
part of their names are one text, named after the folder, each file one annotator (a folder
of ``anna.conllu``, ``ben.conllu``). Anything else is a :class:`MismatchedCorpusError` naming
the files that could not be placed and the options that settle it: ``annotator_part``
(``"first"``: ``NAME-TEXT``, ``"last"``: ``TEXT-NAME``; a text of one file is split at its
first or last separator) or ``name_pattern``, a regular expression with the groups
``annotator`` and ``text`` that every file's name without its extension (else its whole name)
must match, which then decides alone (alternatives of a pattern may name theirs ``annotator2``,
``text2`` ...: the first group of each that matched is taken). Such folders: every text annotated by one file only
(no two files hold the same sentences), names split differently (``odin-danish``,
``swedish-thor``), or both readings placing every file with other annotators.
"""
from __future__ import annotations

import os
import re
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from ..errors import BadOptionError, MismatchedCorpusError

#: The characters that join the annotator and the text in a file name.
SEPARATORS = "-_."
#: The values of ``annotator_part``: the annotator is the name's first part (``NAME-TEXT``) or last (``TEXT-NAME``).
ANNOTATOR_PARTS = ("first", "last")
#: Two files hold the same text when at least this share of the smaller one's sentences are in the other.
SAME_TEXT_SHARE = 0.5
#: How each reading names the files, in messages.
READINGS = {"first": "NAME-TEXT", "last": "TEXT-NAME"}
#: The options that settle a folder the rule cannot read (said as flags by the CLI).
SETTLE = ("give annotator_part (first: the annotator is the first part of the name, NAME-TEXT; last: TEXT-NAME) or "
          "name_pattern, a regular expression with the groups (?P<annotator>...) and (?P<text>...) matched against "
          "each file name without its extension (e.g. '(?P<annotator>[^-]+)-(?P<text>.+)')")

#: A file's place: (text, annotator).
Place = Tuple[str, str]


def _shown(files: Sequence[str], most: int = 6) -> str:
    files = sorted(files)
    return ", ".join(files[:most]) + (f" and {len(files) - most} more" if len(files) > most else "")


def same_text_groups(keys: Dict[str, Set[str]]) -> List[List[str]]:
    """The files (keys of ``keys``, each file's sentence keys) grouped by the texts they hold
    (module docstring): each group sorted, groups in the order of their first file."""
    parent = {f: f for f in keys}

    def root(f: str) -> str:
        while parent[f] != f:
            parent[f] = parent[parent[f]]
            f = parent[f]
        return f

    holders: Dict[str, List[str]] = {}
    for f in sorted(keys):
        for key in keys[f]:
            holders.setdefault(key, []).append(f)
    shared: Dict[Tuple[str, str], int] = {}
    for files in holders.values():
        for i, a in enumerate(files):
            for b in files[i + 1:]:
                shared[a, b] = shared.get((a, b), 0) + 1
    for (a, b), count in shared.items():
        if count >= SAME_TEXT_SHARE * min(len(keys[a]), len(keys[b])):
            parent[root(b)] = root(a)
    groups: Dict[str, List[str]] = {}
    for f in sorted(keys):
        groups.setdefault(root(f), []).append(f)
    return list(groups.values())


def _common_start(stems: Sequence[str]) -> Optional[str]:
    """The longest start that every stem has followed by a separator and something more."""
    prefix = os.path.commonprefix(list(stems))
    for end in range(len(prefix), 0, -1):
        if all(len(s) > end + 1 and s[end] in SEPARATORS for s in stems) and prefix[end - 1] not in SEPARATORS:
            return prefix[:end]
    return None


def _group_places(stems: Sequence[str], part: str) -> Optional[List[Place]]:
    """The places of the files of one text under a reading: the shared part is the text."""
    if part == "last":
        text = _common_start(stems)
        return None if text is None else [(text, s[len(text) + 1:]) for s in stems]
    text = _common_start([s[::-1] for s in stems])
    return None if text is None else [(text[::-1], s[:len(s) - len(text) - 1]) for s in stems]


def _splits(stem: str, part: str) -> List[Place]:
    """Every way to read one name under a reading, the first separator first."""
    out = []
    for k in range(1, len(stem) - 1):
        if stem[k] in SEPARATORS and stem[k - 1] not in SEPARATORS and stem[k + 1] not in SEPARATORS:
            out.append((stem[k + 1:], stem[:k]) if part == "first" else (stem[:k], stem[k + 1:]))
    return out


def _reading(groups: List[List[str]], stems: Dict[str, str], part: str,
             explicit: bool) -> Tuple[Dict[str, Place], Dict[str, str]]:
    """Every file's place under one reading, and why each file it cannot place is not placed."""
    placed: Dict[str, Place] = {}
    why: Dict[str, str] = {}
    for group in groups:
        if len(group) > 1:
            places = _group_places([stems[f] for f in group], part)
            if places is None:
                why.update((f, "holding the same sentences, no shared part") for f in group)
            else:
                placed.update(zip(group, places))
    known = {annotator for _, annotator in placed.values()}
    for group in groups:
        if len(group) == 1:
            f = group[0]
            splits = _splits(stems[f], part)
            by_known = sorted((p for p in splits if p[1] in known), key=lambda p: -len(p[1]))
            if by_known:
                placed[f] = by_known[0]
            elif len(splits) == 1 or (explicit and splits):
                placed[f] = splits[0] if part == "first" else splits[-1]
            else:
                why[f] = "the only file of its sentences, its name split " + (
                    "nowhere" if not splits else f"{len(splits)} ways")
    text_groups: Dict[str, Set[int]] = {}
    for g, group in enumerate(groups):
        for f in group:
            if f in placed:
                text_groups.setdefault(placed[f][0], set()).add(g)
    for text, found in text_groups.items():
        if len(found) > 1:
            for g in found:
                for f in groups[g]:
                    if placed.get(f, ("",))[0] == text:
                        del placed[f]
                        why[f] = f"text {text!r} also holds other sentences"
    return placed, why


def _annotator_sets(placed: Dict[str, Place]) -> FrozenSet[FrozenSet[str]]:
    by: Dict[str, Set[str]] = {}
    for f, (_, annotator) in placed.items():
        by.setdefault(annotator, set()).add(f)
    return frozenset(frozenset(files) for files in by.values())


def _by_pattern(stems: Dict[str, str], pattern: str, where: str) -> Dict[str, Place]:
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        raise BadOptionError(f"name_pattern {pattern!r} is no regular expression: {exc}", option="name_pattern") from None
    groups = {part: sorted((g for g in compiled.groupindex if re.fullmatch(part + r"\d*", g)), key=len)
              for part in ("annotator", "text")}
    if not groups["annotator"] or not groups["text"]:
        raise BadOptionError(f"name_pattern {pattern!r} needs the groups (?P<annotator>...) and (?P<text>...)",
                             option="name_pattern")
    placed: Dict[str, Place] = {}
    unmatched = []
    for f, stem in stems.items():
        found = compiled.fullmatch(stem) or compiled.fullmatch(os.path.basename(f))
        text, annotator = ((next((v for g in groups[part] if (v := found.group(g))), "") if found else "")
                           for part in ("text", "annotator"))
        if not text or not annotator:
            unmatched.append(f)
        else:
            placed[f] = (text, annotator)
    if unmatched:
        raise MismatchedCorpusError(f"{where}: name_pattern {pattern!r} does not match {len(unmatched)} file name(s) "
                                    f"(each without its extension, else whole): {_shown(unmatched)}",
                                    option="name_pattern")
    return placed


def place_files(stems: Dict[str, str], keys: Dict[str, Set[str]], where: str, folder_name: str = "",
                annotator_part: Optional[str] = None, name_pattern: Optional[str] = None) -> Tuple[Dict[str, Place], str]:
    """``{file: (text, annotator)}`` of the files of a flat folder (module docstring), from
    each file's name without its extension (``stems``) and sentence keys (``keys``), and a
    note saying how the names were read. ``where`` names the folder in errors; a folder of
    one text without name parts names its text ``folder_name``."""
    if annotator_part is not None and annotator_part not in ANNOTATOR_PARTS:
        raise BadOptionError(f"annotator_part must be 'first' or 'last', not {annotator_part!r}", option="annotator_part")
    if annotator_part is not None and name_pattern is not None:
        raise BadOptionError("give annotator_part or name_pattern, not both", option=("annotator_part", "name_pattern"))
    if name_pattern is not None:
        placed = _by_pattern(stems, name_pattern, where)
        return placed, f"names read by name_pattern {name_pattern!r}"
    groups = same_text_groups(keys)
    settle = f": {SETTLE}"
    if all(len(g) == 1 for g in groups) and annotator_part is None:
        raise MismatchedCorpusError(
            f"{where}: a flat folder of per-annotator files, but no two of its {len(stems)} files hold the same "
            f"sentences (is every text annotated by one annotator only?), so which part of the names is the annotator "
            f"cannot be told: could not place {_shown(list(stems))}{settle}", option=("annotator_part", "name_pattern"))
    if len(groups) == 1 and len(stems) > 1 and all(_group_places(list(stems.values()), p) is None
                                                   for p in ANNOTATOR_PARTS):
        text = folder_name or "folder"
        return ({f: (text, stem) for f, stem in stems.items()},
                f"all {len(stems)} files hold the same sentences and their names share no part: one text "
                f"({text!r}), each file one annotator")
    parts = (annotator_part,) if annotator_part else ANNOTATOR_PARTS
    readings = {part: _reading(groups, stems, part, annotator_part is not None) for part in parts}
    good = [part for part in parts if not readings[part][1]]
    if not good:
        best = min(parts, key=lambda p: (len(readings[p][1]), ANNOTATOR_PARTS.index(p)))
        why = readings[best][1]
        reasons = sorted(set(why.values()))
        tried = " or ".join(READINGS[p] for p in parts)
        mixed = len(parts) == 2 and all(any(f in readings[p][0] for p in parts) for f in stems)
        raise MismatchedCorpusError(
            f"{where}: a flat folder of per-annotator files whose names cannot all be read as {tried}"
            + (" (the names are split differently: some texts read one way, some the other)" if mixed else "")
            + f": could not place {_shown(list(why))} ({'; '.join(reasons)}){settle}",
            option=("annotator_part", "name_pattern"))
    if len(good) == 2:
        first, last = (readings[p][0] for p in ANNOTATOR_PARTS)
        if _annotator_sets(first) != _annotator_sets(last):
            differ = [f for f in stems if first[f][1] != last[f][1]
                      and {g for g in stems if first[g][1] == first[f][1]} != {g for g in stems if last[g][1] == last[f][1]}]
            names = {p: sorted({a for _, a in readings[p][0].values()}) for p in ANNOTATOR_PARTS}
            raise MismatchedCorpusError(
                f"{where}: a flat folder of per-annotator files whose names read both as NAME-TEXT (annotators "
                f"{_shown(names['first'], 4)}) and as TEXT-NAME (annotators {_shown(names['last'], 4)}): could not "
                f"place {_shown(differ)}{settle}", option=("annotator_part", "name_pattern"))
        good.sort(key=lambda p: (sum(len(a) for _, a in readings[p][0].values()), ANNOTATOR_PARTS.index(p)))
    part = good[0]
    placed = readings[part][0]
    how = "the part shared by the files holding the same sentences is the text" if annotator_part is None else \
        f"annotator_part={part!r}"
    return placed, f"names read as {READINGS[part]} ({how})"


__all__ = ["ANNOTATOR_PARTS", "SAME_TEXT_SHARE", "SEPARATORS", "place_files", "same_text_groups"]
