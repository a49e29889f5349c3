"""Bracketed phrase-structure trees (strings, files, NLTK ``Tree``s) into
:class:`ConstituencyTree`s.

Two styles of bracketing exist and a tree string alone cannot always tell them apart:

* **words** (lexicalised, Penn Treebank style), ``(S (NP (DT the) (NN dog)) (VP (VBZ barks)))``:
  the strings at the bottom are words. They are dropped and the preterminals (``DT``,
  ``NN``, ...) become the leaves of the compared tree.
* **categories** (delexicalised, the style of Skjærholt's phrase-structure data),
  ``(S (NP P) (VP V (NP D N)))``: the strings at the bottom are categories and stay as leaves.

``leaves="auto"`` (the default) decides per file, or per tree for a single tree: when
every bottom string is the only child of its bracket the input is read as **words**,
otherwise as **categories**. A delexicalised file whose every category leaf happens to be
an only child (``(S (NP P) (VP V))``) is ambiguous: pass ``leaves="categories"``.

The empty outer bracket of Penn Treebank files, ``( (S ...) )``, is not a node of the tree;
it is remembered (``outer_brackets``) because EVALB counts it as a bracket.

A tree read from a file or text knows the line it starts on (``location.line``), and
errors name it: ``file:LINE: sentence N: message``.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterable, List, Literal, Optional, Sequence, Tuple, Union

import numpy as np

from ..errors import InvalidTreeError, Location, not_utf8
from ..trees import ConstituencyTree

if TYPE_CHECKING:
    import nltk

LeafStyle = Literal["auto", "words", "categories"]


def _tree_class():
    """``nltk.Tree``, imported on first use (importing nltk takes over a second)."""
    from nltk import Tree  # lazy: import time

    return Tree
PathLike = Union[str, "os.PathLike[str]"]


def _is_lexicalised(tree: nltk.Tree) -> bool:
    """True when every string below ``tree`` is the only child of its bracket."""
    Tree = _tree_class()
    stack = [tree]
    while stack:
        node = stack.pop()
        strings = sum(1 for child in node if not isinstance(child, Tree))
        if strings and len(node) > 1:
            return False
        stack.extend(child for child in node if isinstance(child, Tree))
    return True


def _strip_outer(tree: nltk.Tree) -> Tuple[nltk.Tree, int]:
    """The tree inside its unlabelled outer brackets, and how many there were."""
    outer, Tree = 0, _tree_class()
    while tree.label() == "" and len(tree) == 1 and isinstance(tree[0], Tree):
        tree, outer = tree[0], outer + 1
    return tree, outer


def from_nltk(tree: nltk.Tree, leaves: LeafStyle = "auto", location: Optional[Location] = None) -> ConstituencyTree:
    """An NLTK ``Tree`` as a :class:`ConstituencyTree` (words dropped, see the module doc)."""
    location = location or Location()
    Tree = _tree_class()
    if not isinstance(tree, Tree):
        raise InvalidTreeError(f"expected an nltk.Tree, got {type(tree).__name__}", location)
    tree, outer = _strip_outer(tree)
    if tree.label() == "" and len(tree) == 0:
        raise InvalidTreeError("empty tree '()'", location)
    if leaves == "auto":
        leaves = "words" if _is_lexicalised(tree) else "categories"
    keep_strings = leaves == "categories"
    labels: List[str] = []
    parents: List[int] = []
    spans: List[Tuple[int, int]] = []
    words: List[str] = []
    # iterative postorder; each frame: (node, child index, index of first child node, first leaf)
    pending_children: List[List[int]] = []
    stack: List[list] = [[tree, 0, 0]]
    pending_children.append([])
    n_leaves = 0
    while stack:
        frame = stack[-1]
        node, k, first_leaf = frame
        if isinstance(node, Tree) and k < len(node):
            frame[1] += 1
            child = node[k]
            if isinstance(child, Tree) or keep_strings:
                stack.append([child, 0, n_leaves])
                pending_children.append([])
            else:
                words.append(str(child))
            continue
        stack.pop()
        children = pending_children.pop()
        index = len(labels)
        if isinstance(node, Tree):
            label = node.label()
            if not isinstance(label, str):
                label = str(label)
        else:
            label = str(node)
        if not children:  # a leaf of the compared tree
            spans.append((n_leaves, n_leaves))
            n_leaves += 1
        else:
            spans.append((first_leaf, n_leaves - 1))
        labels.append(label)
        parents.append(-1)
        for child_index in children:
            parents[child_index] = index
        if pending_children:
            pending_children[-1].append(index)
    if not labels:
        raise InvalidTreeError("empty tree", location)
    return ConstituencyTree(
        tuple(labels),
        np.asarray(parents, dtype=np.int32),
        np.asarray(spans, dtype=np.int32).reshape(-1, 2),
        tuple(words) if words else None,
        location,
        outer,
    )


def split_brackets(text: str, name: str = "<string>", first_line: int = 1) -> List[Tuple[str, int]]:
    """Split text into its top-level bracketed trees, with the line each starts on.

    Raises :class:`InvalidTreeError` on unbalanced brackets or text outside brackets,
    naming the tree number and line. ``first_line`` is the line of the start of ``text`` in
    its file (for a piece of a file).
    """
    trees: List[Tuple[str, int]] = []
    depth = 0
    start = -1
    line = first_line
    start_line = first_line
    for pos, char in enumerate(text):
        if char == "\n":
            line += 1
        elif char == "(":
            if depth == 0:
                start, start_line = pos, line
            depth += 1
        elif char == ")":
            if depth == 0:
                # most likely one ')' too many closing the tree just read
                raise InvalidTreeError("unbalanced ')'", Location(name, max(len(trees), 1), line=line))
            depth -= 1
            if depth == 0:
                trees.append((text[start : pos + 1], start_line))
        elif depth == 0 and not char.isspace():
            raise InvalidTreeError(
                f"text outside brackets: {text[pos:pos + 20]!r}", Location(name, len(trees) + 1, line=line)
            )
    if depth:
        raise InvalidTreeError(
            f"unbalanced '(': {depth} bracket(s) opened in this tree never closed",
            Location(name, len(trees) + 1, line=start_line),
        )
    return trees


def _one_tree_per_line(text: str) -> bool:
    """Whether every line's brackets balance on that line (EVALB's one tree a line)."""
    for line in text.split("\n"):
        depth = 0
        for char in line:
            depth += (char == "(") - (char == ")")
            if depth < 0:
                return False
        if depth:
            return False
    return True


def split_bracket_sentences(text: str, name: str = "<string>") -> List[Optional[Tuple[str, int]]]:
    """The sentences of a bracketed text with their line, ``None`` for a failed parse.

    In a file of one tree a line (what EVALB reads, and what parsers write), every line is a
    sentence and a blank line is a sentence the parser failed on, as in EVALB (a blank line
    at the end is one too: :func:`trim_trailing_failures` cuts such lines off where another
    file has no sentence there). Otherwise (trees spread over lines, as in the
    Penn Treebank's ``.mrg``, or several trees on a line) the trees are the sentences and
    blank lines only separate them.
    """
    if not _one_tree_per_line(text):
        return list(split_brackets(text, name))
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    out: List[Optional[Tuple[str, int]]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            out.append(None)
            continue
        try:
            chunks = split_brackets(line, name, number)
        except InvalidTreeError as exc:  # a line is a sentence: name that one
            raise InvalidTreeError(exc.message, Location(name, len(out) + 1, line=number)) from None
        if len(chunks) != 1:
            return list(split_brackets(text, name))
        out.append((chunks[0][0], number))
    return out


def trim_trailing_failures(*columns: List[Optional[object]]) -> List[List[Optional[object]]]:
    """Parallel sentence lists whose lengths differ only by failed parses (``None``) at the
    end (a file that ends in blank lines) cut to the same length; others unchanged."""
    shortest = min((len(c) for c in columns), default=0)
    return [c[:shortest] if all(t is None for t in c[shortest:]) else c for c in columns]


def _parse_chunk(chunk: str, line: int, name: str, number: int) -> nltk.Tree:
    try:
        return _tree_class().fromstring(chunk)
    except ValueError as exc:
        raise InvalidTreeError(f"malformed tree: {exc}", Location(name, number, line=line)) from None


def parse_brackets(text: str, leaves: LeafStyle = "auto", name: str = "<string>",
                   missing: bool = False) -> List[Optional[ConstituencyTree]]:
    """All bracketed trees in ``text`` (one per line, or spread over lines).

    With ``missing=True`` the result has one entry per sentence as
    :func:`split_bracket_sentences` finds them, ``None`` for a failed parse: a blank line in
    a file of one tree a line, or a tree without words such as ``()`` or ``(())`` (EVALB's
    "skip"); sentence numbers count them. By default blank lines are separators and a tree
    without words is an error.
    """
    if not missing:
        chunks = split_brackets(text, name)
        parsed = [_parse_chunk(chunk, line, name, k) for k, (chunk, line) in enumerate(chunks, start=1)]
        return from_nltk_trees(parsed, leaves, name, [line for _, line in chunks])
    sentences = split_bracket_sentences(text, name)
    parsed_or_none: List[Optional[nltk.Tree]] = []
    for k, entry in enumerate(sentences, start=1):
        tree = None if entry is None else _parse_chunk(entry[0], entry[1], name, k)
        if tree is not None:
            inner = _strip_outer(tree)[0]
            if inner.label() == "" and len(inner) == 0:
                tree = None
        parsed_or_none.append(tree)
    present = [t for t in parsed_or_none if t is not None]
    if leaves == "auto":
        leaves = "words" if all(_is_lexicalised(_strip_outer(t)[0]) for t in present) else "categories"
    return [None if t is None or entry is None else from_nltk(t, leaves, Location(name, k, line=entry[1]))
            for k, (t, entry) in enumerate(zip(parsed_or_none, sentences), start=1)]


def read_brackets(path: PathLike, leaves: LeafStyle = "auto", missing: bool = False) -> List[Optional[ConstituencyTree]]:
    """All trees of a bracketed file; ``leaves`` is decided once for the whole file;
    ``missing`` as in :func:`parse_brackets`."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except UnicodeDecodeError as exc:  # the file named, and the line of the bad byte
        raise not_utf8(path, exc) from None
    return parse_brackets(text, leaves, os.fspath(path), missing)


def to_nltk(tree: ConstituencyTree) -> nltk.Tree:
    """The tree back as an NLTK ``Tree``: with its words (``tree.words``, one per leaf of the
    word-less tree, left to right) as the leaves under the preterminals,
    ``(S (NP (DT the) (NN dog)) ...)``, as it was read; a tree without words has its leaves
    as ``Tree``s without children, ``(S (NP (D ) (N )) ...)``, and so has one whose words do
    not fall one to a leaf (``(NP the dog)`` read as words)."""
    Tree = _tree_class()
    parent = tree.parent.tolist()
    children: List[list] = [[] for _ in range(len(tree))]
    inner = set(parent)
    leaves = [i for i in range(len(tree)) if i not in inner]  # postorder: left to right
    words = tree.words if tree.words is not None and len(tree.words) == len(leaves) else None
    word_of = dict(zip(leaves, words)) if words is not None else {}
    built: List[Optional[nltk.Tree]] = [None] * len(tree)
    for i, (label, up) in enumerate(zip(tree.labels, parent)):
        if i in word_of:
            children[i].append(word_of[i])
        built[i] = Tree(label, children[i])
        if up >= 0:
            children[up].append(built[i])
    return built[-1]


def from_nltk_trees(trees: Iterable[nltk.Tree], leaves: LeafStyle = "auto", name: str = "<nltk>",
                    lines: Optional[Sequence[int]] = None) -> List[ConstituencyTree]:
    """Many NLTK trees, ``leaves`` decided once for all of them as for a file; ``lines``,
    when known, are the file lines the trees start on (for their locations)."""
    trees = list(trees)
    if leaves == "auto":
        leaves = "words" if all(_is_lexicalised(_strip_outer(t)[0]) for t in trees) else "categories"
    if lines is None:
        return [from_nltk(t, leaves, Location(name, k)) for k, t in enumerate(trees, start=1)]
    return [from_nltk(t, leaves, Location(name, k, line=line))
            for k, (t, line) in enumerate(zip(trees, lines), start=1)]


__all__: Sequence[str] = [
    "from_nltk", "from_nltk_trees", "parse_brackets", "read_brackets", "split_bracket_sentences", "split_brackets",
    "to_nltk", "trim_trailing_failures",
]
