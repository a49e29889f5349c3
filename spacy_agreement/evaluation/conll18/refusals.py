"""What ``conll18_ud_eval.py`` refuses: its ``load_conllu`` (and the text check of its
``evaluate``) as a check that reads a file as the script reads it and says whether, where and
why the script would stop on it.

``evaluate`` under ``--convention conll18`` prints the script's table beside the package's
figures; a file that the script refuses has no such table, so ``evaluate`` refuses it too
(one line: the script's message, the place, and ``--convention package`` to score it by the
package's rules). The compiled readers (the Cython scanner,
:func:`~spacy_agreement.adapters.conllu.column_reader.read_conllu_columns`) refuse at least what the script
refuses, so this check runs only where they failed, to tell a file the script refuses from one
it reads (Zeman et al. 2018, the CoNLL 2018 shared task's evaluation script, version 1.2).

The script (``load_conllu``, file opened as UTF-8 text with universal newlines, each line
stripped of ``\\r\\n``) stops with ``UDError`` on, in the order of the file:

* ``The CoNLL-U line does not contain 10 tab-separated columns at line N: 'LINE'``: a token line
  that is not ten tab-separated columns, which also catches a comment line inside a sentence, a
  line of spaces where the blank line should be, columns split by spaces, a byte-order mark
  before a comment; for the words of a multiword token the same message without the line number
  (a blank line or the end of the file where a word should be);
* ``There is an empty FORM in the CoNLL-U file at line N``: a FORM (of a single word or a
  multiword range) that is empty once its spaces (Unicode Zs) are removed;
* ``Cannot parse multi-word token ID 'ID' at line N``: an id with ``-`` that is not two integers;
* ``Cannot parse word ID 'ID' at line N`` (``\\ufeff1``: a byte-order mark before the first word),
  ``Incorrect word ID 'ID' for word 'FORM', expected 'K' at line N``;
* ``Cannot parse HEAD 'H' at line N`` (``_`` too), ``HEAD cannot be negative at line N``;
* at the blank line ``N`` that ends a sentence: ``HEAD 'H' points outside of the sentence at line
  N``, ``There is a cycle in a sentence at line N``, ``There are K roots in a sentence at line N``
  (two roots; or none: a blank line where a sentence should start, a block of comments or empty
  nodes only);
* ``The CoNLL-U file does not end with empty line``.

It stops without a ``UDError`` (a traceback) on bytes that are not UTF-8 (``UnicodeDecodeError``)
and on a HEAD that is not an integer among a multiword token's words (``ValueError``: those lines
are not checked as they are read). Then, of two files that it reads, ``evaluate`` refuses a pair
whose texts (the tokens' characters without spaces) differ: ``The concatenation of tokens in gold
file and in system file differ!``. Everything else is read: comments before a sentence and
after the last one, empty nodes (any line whose id has a ``.``), the ``b - a + 1`` lines after a
range ``a-b`` as its words whatever their ids.

The script follows heads by recursion: a chain of more than 994 heads not followed before (a
sentence of about 1,000 words) stops it with ``RecursionError``, at Python's default recursion
limit (that of Python 3.11; the check assumes it).
"""
from __future__ import annotations

import os
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable, List, Optional, TextIO, Union

from ...errors import InvalidTreeError, Location, utf8_problem

PathLike = Union[str, "os.PathLike[str]"]

ID, FORM, HEAD = 0, 1, 6
BOM = "\ufeff"
BOM_DETAIL = ("the file starts with a byte-order mark (U+FEFF, the bytes EF BB BF), which the script reads as "
              "a character of line 1; save the file as UTF-8 without it")

#: the calls of the script's process_word that Python's recursion limit (1,000 frames, 6 of them the
#: script's others) lets it nest: a longer chain of heads stops it with RecursionError (Python 3.11)
RECURSION = 994

#: what to do to score a refused file anyway (the three options: conll18's, metric_options.CONVENTIONS)
HINT = ("to score it anyway: --convention package (the package's own rules; with --with-punct --ignore-subtypes "
        "--case-sensitive-root its figures are those of conll18's options)")


@dataclass(frozen=True)
class ScriptRefusal:
    """Why ``conll18_ud_eval.py`` stops on a file (module docstring): ``reason`` its message
    as it prints it (``UDError``'s text, or ``ValueError: ...`` where it stops with a
    traceback), ``location`` the place in our terms (file, line, sentence, ``sent_id``, token),
    ``detail`` what that is, said plainly (``head cycle 1 -> 3 -> 1``, a byte-order mark, ...)."""

    reason: str
    location: Location
    detail: Optional[str] = None
    crash: bool = False  # not a UDError: the script stops with a traceback
    text: bool = False  # both files read, their texts differ (the script's ``evaluate``)

    def message(self, package_refuses: Optional[str] = None) -> str:
        """The one line (without the location): the script's reason, what it is, and how to
        score the file anyway (or, ``package_refuses``, why the package's own reading refuses
        it too)."""
        reason = " ".join(self.reason.split("\n"))
        how = "stops on" if self.crash else "refuses"
        text = f"conll18_ud_eval.py {how} {'these files' if self.text else 'this file'} ({reason})"
        if self.detail:
            text += f": {self.detail}"
        if package_refuses is None:
            return f"{text}; {HINT}"
        if self.detail and (self.detail in package_refuses
                            or self.detail == BOM_DETAIL and "byte-order mark" in package_refuses):  # said already
            return f"{text}; --convention package refuses it too"
        return f"{text}; --convention package refuses it too ({package_refuses})"

    def error(self, package_refuses: Optional[str] = None) -> "ScriptRefusalError":
        return ScriptRefusalError(self.message(package_refuses), self.location, refusal=self)


class ScriptRefusalError(InvalidTreeError):
    """A file (or pair) that ``conll18_ud_eval.py`` refuses, under ``--convention conll18``."""

    def __init__(self, message: str, location: Optional[Location] = None, refusal: Optional[ScriptRefusal] = None):
        super().__init__(message, location)
        self.refusal = refusal


class _Loaded:
    """What the check keeps of a file the script reads: its text (for the pair's text check)
    and where each sentence starts in it (offset, first line, ``sent_id``)."""

    def __init__(self, source: str, text: str, starts: List[int], lines: List[int], sent_ids: List[Optional[str]]):
        self.source, self.text, self.starts, self.lines, self.sent_ids = source, text, starts, lines, sent_ids

    def location(self, offset: int) -> Location:
        """The sentence holding character ``offset`` of the text."""
        s = max(0, bisect_right(self.starts, offset) - 1)
        if not self.starts:
            return Location(self.source)
        return Location(self.source, s + 1, None, self.lines[s], self.sent_ids[s])


def _spaceless(form: str) -> str:
    return "".join(c for c in form if unicodedata.category(c) != "Zs")


def _columns_detail(line: str, first_line: bool, in_multiword: Optional[str] = None) -> Optional[str]:
    """What a line that is not ten tab-separated columns is, said plainly."""
    if first_line and line.startswith(BOM):
        return BOM_DETAIL
    if in_multiword is not None:
        return in_multiword
    if line.startswith("#"):
        return "a comment line inside a sentence (comments come before its first word)"
    if not line.strip():
        return "a line of white space where a blank line should end the sentence"
    count = line.count("\t") + 1
    if count == 1 and len(line.split()) >= 2:
        return "columns separated by spaces, not tabs"
    return f"{count} tab-separated column{'s' if count > 1 else ''}"


def script_refusal(path: PathLike, name: Optional[str] = None) -> Optional[ScriptRefusal]:
    """Why ``conll18_ud_eval.py`` would refuse the CoNLL-U file ``path``, or ``None`` when it
    reads it (module docstring)."""
    found = _load(path, name)
    return found if isinstance(found, ScriptRefusal) else None


def pair_refusal(gold: PathLike, system: Optional[PathLike]) -> Optional[ScriptRefusal]:
    """Why ``conll18_ud_eval.py GOLD SYSTEM`` would stop, or ``None`` when it scores the pair:
    the gold read first, then the system file, then their texts compared, as the script does
    (only the gold without ``system``)."""
    first = _load(gold)
    if isinstance(first, ScriptRefusal) or system is None:
        return first if isinstance(first, ScriptRefusal) else None
    second = _load(system)
    if isinstance(second, ScriptRefusal):
        return second
    if first.text == second.text:
        return None
    g, s = first.text, second.text
    at = next((k for k, (a, b) in enumerate(zip(g, s)) if a != b), min(len(g), len(s)))
    reason = ("The concatenation of tokens in gold file and in system file differ!\n"
              f"First 20 differing characters in gold file: '{g[at:at + 20]}' and system file: '{s[at:at + 20]}'")
    return ScriptRefusal(reason, first.location(at), f"{second.source} is not the gold's text (from character "
                         f"{at + 1} of the text without spaces on): no alignment can pair their words", text=True)


def _load(path: PathLike, name: Optional[str] = None) -> Union[ScriptRefusal, _Loaded]:
    source = name or os.fspath(path)
    with open(path, encoding="utf-8") as handle:  # as the script opens it: universal newlines
        try:
            return _read(handle, source)
        except UnicodeDecodeError as exc:
            problem = utf8_problem(path)  # the line and the byte in the file
            line = problem.location.line if problem is not None and problem.location is not None else None
            detail = problem.message if problem is not None else None
            return ScriptRefusal(f"UnicodeDecodeError: {exc}", Location(source, line=line), detail, crash=True)


def _read(handle: TextIO, source: str) -> Union[ScriptRefusal, _Loaded]:
    """``load_conllu`` of the script, line for line, keeping what names the place."""
    characters: List[str] = []
    starts: List[int] = []  # per sentence: its first character, first line and sent_id
    start_lines: List[int] = []
    sent_ids: List[Optional[str]] = []
    length = 0
    words: List[List[str]] = []  # the columns of the words of the sentence being read
    word_lines: List[int] = []
    multiword: List[Optional[str]] = []  # per word, the range it belongs to
    sentences = 0
    sentence_start: Optional[int] = None  # the index of the sentence's first word (None: between sentences)
    block_line: Optional[int] = None
    sent_id: Optional[str] = None
    first_line = sentence_line = 0
    line_idx = 0

    def where(line: int, token: Optional[str] = None) -> Location:
        return Location(source, sentences or None, token, first_line or None, sent_id, line)

    def refuse(reason: str, line: int, detail: Optional[str] = None, token: Optional[str] = None,
               crash: bool = False) -> ScriptRefusal:
        return ScriptRefusal(reason, where(line, token), detail, crash)

    while True:
        raw = handle.readline()
        line_idx += 1
        if not raw:
            break
        line = raw.rstrip("\r\n")
        if sentence_start is None:
            if line.startswith("#"):
                if block_line is None:
                    block_line = line_idx
                body = line[1:].strip()
                if body.startswith("sent_id"):
                    key, sep, value = body.partition("=")
                    if sep and key.strip() == "sent_id":
                        sent_id = value.strip()
                continue
            sentences += 1
            first_line = block_line or line_idx
            starts.append(length)
            start_lines.append(first_line)
            sent_ids.append(sent_id)
            block_line = None
            sentence_start = 0
            words, word_lines, multiword = [], [], []
        if not line:
            found = _close(words, word_lines, multiword, line_idx, refuse)
            if found is not None:
                return found
            sentence_start, sent_id = None, None
            continue
        columns = line.split("\t")
        if len(columns) != 10:
            return refuse("The CoNLL-U line does not contain 10 tab-separated columns at line {}: '{}'".format(
                line_idx, line), line_idx, _columns_detail(line, line_idx == 1))
        if "." in columns[ID]:
            continue
        form = _spaceless(columns[FORM])
        if not form:
            return refuse("There is an empty FORM in the CoNLL-U file at line %d" % line_idx, line_idx,
                          f"FORM {columns[FORM]!r} is empty once its spaces are removed", columns[ID])
        characters.append(form)
        length += len(form)
        if "-" in columns[ID]:
            try:
                start, end = map(int, columns[ID].split("-"))
            except Exception:
                return refuse("Cannot parse multi-word token ID '{}' at line {}".format(columns[ID], line_idx),
                              line_idx, "a multiword token's id is two integers a-b", columns[ID])
            for k in range(start, end + 1):
                word_line = handle.readline().rstrip("\r\n")
                line_idx += 1
                word_columns = word_line.split("\t")
                if len(word_columns) != 10:
                    missing = (f"word {k} of multiword token {columns[ID]} is missing (found "
                               + ("a blank line or the end of the file)" if not word_line else "this line)"))
                    return refuse("The CoNLL-U line does not contain 10 tab-separated columns: '{}'".format(word_line),
                                  line_idx, _columns_detail(word_line, False, missing))
                words.append(word_columns)
                word_lines.append(line_idx)
                multiword.append(columns[ID])
        else:
            try:
                word_id = int(columns[ID])
            except Exception:
                return refuse("Cannot parse word ID '{}' at line {}".format(columns[ID], line_idx), line_idx,
                              BOM_DETAIL if line_idx == 1 and line.startswith(BOM) else None,
                              None if line.startswith(BOM) else columns[ID])
            if word_id != len(words) + 1:
                return refuse("Incorrect word ID '{}' for word '{}', expected '{}' at line {}".format(
                    columns[ID], form, len(words) + 1, line_idx), line_idx,
                    "word ids run 1, 2, ... in each sentence (a multiword token's words included)", columns[ID])
            try:
                head_id = int(columns[HEAD])
            except Exception:
                return refuse("Cannot parse HEAD '{}' at line {}".format(columns[HEAD], line_idx), line_idx,
                              "HEAD _ (a word not annotated yet)" if columns[HEAD] == "_" else None, columns[ID])
            if head_id < 0:
                return refuse("HEAD cannot be negative at line %d" % line_idx, line_idx, None, columns[ID])
            words.append(columns)
            word_lines.append(line_idx)
            multiword.append(None)
    if sentence_start is not None:
        return refuse("The CoNLL-U file does not end with empty line", line_idx - 1,
                      "the last sentence is not closed by a blank line")
    return _Loaded(source, "".join(characters), starts, start_lines, sent_ids)


def _close(words: List[List[str]], lines: List[int], multiword: List[Optional[str]], line_idx: int,
           refuse: Callable[..., ScriptRefusal]) -> Optional[ScriptRefusal]:
    """The script's checks at the blank line ``line_idx`` that ends a sentence: heads in the
    sentence, no cycle, one root, in its order (its ``process_word`` walks up from each word
    in turn, a word's head parsed when it is reached)."""
    n = len(words)
    UNSEEN, ON_PATH, DONE = 0, 1, 2
    state = [UNSEEN] * n
    root = [False] * n
    for start in range(n):
        path: List[int] = []
        k = start
        while True:
            if len(path) >= RECURSION:  # the script's process_word called once more than Python allows
                return refuse("RecursionError: maximum recursion depth exceeded in comparison", lines[start],
                              f"a chain of more than {RECURSION} heads from word {start + 1}, which the script "
                              "follows by recursion, past Python's limit", str(start + 1), crash=True)
            if state[k] == ON_PATH:
                cycle = path[path.index(k):] + [k]
                ids = " -> ".join(str(j + 1) for j in cycle)
                return refuse("There is a cycle in a sentence at line %d" % line_idx, lines[k],
                              f"head cycle {ids}", str(k + 1))
            if state[k] == DONE:
                break
            text = words[k][HEAD]
            try:
                head = int(text)
            except ValueError as exc:  # a word of a multiword token: not checked as it was read
                return refuse(f"ValueError: {exc}", lines[k], f"the HEAD of word {k + 1} (of multiword token "
                              f"{multiword[k]}) is not an integer", str(k + 1), crash=True)
            if head < 0 or head > n:
                return refuse("HEAD '{}' points outside of the sentence at line {}".format(text, line_idx), lines[k],
                              f"HEAD {text} of word {k + 1}: the sentence has words 1..{n}, 0 for the root",
                              str(k + 1))
            if head == 0:
                root[k] = True
                state[k] = DONE
                break
            state[k] = ON_PATH
            path.append(k)
            k = head - 1
        for j in path:
            state[j] = DONE
    roots = [k + 1 for k in range(n) if root[k]]
    if len(roots) != 1:
        if not roots:
            return refuse("There are 0 roots in a sentence at line %d" % line_idx, line_idx,
                          "no word between this blank line and the one before (a sentence of comments or empty "
                          "nodes only, or two blank lines in a row)")
        return refuse("There are %d roots in a sentence at line %d" % (len(roots), line_idx), lines[roots[1] - 1],
                      f"words {', '.join(map(str, roots))} are attached to the root (0); a sentence has one",
                      str(roots[1]))
    return None
