"""Reading annotation files: the registry of input formats and the corpus loaders.

A format is a :class:`Reader` registered under a name in :data:`READERS`:

* ``suffixes``: the file name endings of the format (annotator directories are searched
  for them; a file whose content says nothing goes by them);
* ``sniff(path) -> bool``: whether the file's content is in this format;
* ``read(path, **options) -> list``: the trees of the file in order, ``None`` for a sentence
  that is there but failed to parse (a missing annotation). Every command passes the same
  options to every reader (``single_root``, ``cycles``, ``stats``, ``leaves``, ``missing``):
  a reader takes those it knows and ignores the rest.

Registering one (:func:`register_reader`) is the one change a new format needs: the loaders
(:func:`load_parallel_files`, :func:`load_annotator_dirs`), :func:`read_trees` and every
command's ``--format`` pick it up. Built in: ``conll`` (CoNLL-U and CoNLL-X), ``bracket``
(one bracketed tree a line, or Penn Treebank ``.mrg`` trees over several lines) and ``spacy``
(``DocBin`` files, ``.spacy``: :mod:`~spacy_agreement.adapters.docbin`, which also loads one
file holding several stored analyses per doc).

Loading a corpus:

* parallel files, one annotator each, with the same sentences in the same order
  (:func:`load_parallel_files`), or
* annotator directories in the convention of the code released with Skjærholt (2014)
  (:func:`load_annotator_dirs`): a directory per annotator, named by its basename,
  holding files ``PREFIX-NAME.conll`` (or ``.conllu``, ``.tree``); files with the same
  ``PREFIX`` across directories hold the same sentences; an annotator may lack a file,
  and then has no annotation of its sentences (a missing annotation).
"""
from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

from ..corpus import Corpus, ReadStats, Tree, family_of
from ..errors import BadOptionError, MismatchedCorpusError
from .brackets import read_brackets, trim_trailing_failures
from .conll import read_conll
from .docbin import DOCBIN_SUFFIXES, read_docbin, sniff_docbin

PathLike = Union[str, "os.PathLike[str]"]
#: A reader's name, a key of :data:`READERS` (``"conll"``, ``"bracket"``, or a registered one).
Format = str

CONLL_SUFFIXES = (".conll", ".conllu", ".conllx")
BRACKET_SUFFIXES = (".tree", ".mrg", ".trees", ".ptb")


@dataclass(frozen=True)
class Reader:
    """An input format: see the module docstring. ``family`` is the family of tree it gives
    (``"dependency"`` or ``"constituency"``; ``None``: from the trees read); ``description``
    names the format in messages."""

    suffixes: Tuple[str, ...]
    sniff: Callable[[PathLike], bool]
    read: Callable[..., List[Optional[Tree]]]
    family: Optional[str] = None
    description: str = ""


def first_content(path: PathLike, size: int = 4096) -> bytes:
    """The start of a file from its first non-blank byte (the rest of a block of ``size``
    bytes; empty for an empty, blank or unreadable file): what a ``sniff`` looks at."""
    try:
        with open(path, "rb") as handle:
            while True:
                block = handle.read(size)
                if not block:
                    return b""
                text = block.lstrip()
                if text:
                    return text
    except OSError:
        return b""


def _sniff_bracket(path: PathLike) -> bool:
    return first_content(path).startswith(b"(")


def _sniff_conll(path: PathLike) -> bool:
    # the catch-all, asked last: any content that is not bracketed is read as CoNLL, so
    # that reading it reports the real problem
    start = first_content(path)
    return bool(start) and not start.startswith(b"(")


def _read_conll(path: PathLike, *, single_root: bool = False, stats: Optional[ReadStats] = None,
                cycles: str = "drop", **_: Any) -> List[Optional[Tree]]:
    return list(read_conll(path, single_root=single_root, stats=stats, cycles=cycles))  # type: ignore[arg-type]


def _read_bracket(path: PathLike, *, leaves: str = "auto", missing: bool = True, **_: Any) -> List[Optional[Tree]]:
    return list(read_brackets(path, leaves=leaves, missing=missing))  # type: ignore[arg-type]


#: The input formats by name, in registration order (``--format`` lists them so). Guessing a
#: file's format asks the most recently registered reader first, the built-in ``conll`` last.
READERS: Dict[str, Reader] = {
    "conll": Reader(CONLL_SUFFIXES, _sniff_conll, _read_conll, "dependency", "CoNLL"),
    "bracket": Reader(BRACKET_SUFFIXES, _sniff_bracket, _read_bracket, "constituency", "bracketed trees"),
    # spaCy DocBin: the docs' current parses, sentence by sentence (spaCy imported on reading only)
    "spacy": Reader(DOCBIN_SUFFIXES, sniff_docbin, read_docbin, "dependency", "spaCy DocBin"),
}
_BUILT_IN = frozenset(READERS)


def register_reader(name: str, suffixes: Sequence[str], sniff: Callable[[PathLike], bool],
                    read: Callable[..., List[Optional[Tree]]], family: Optional[str] = None,
                    description: str = "") -> Reader:
    """Add an input format (see the module docstring); every loader and command picks it up."""
    if not name or name in READERS:
        raise ValueError(f"a reader named {name!r} exists already" if name else "a reader needs a name")
    if family not in (None, "dependency", "constituency"):
        raise ValueError(f"family must be 'dependency' or 'constituency', got {family!r}")
    reader = Reader(tuple(s.lower() for s in suffixes), sniff, read, family, description or name)
    READERS[name] = reader
    return reader


def unregister_reader(name: str) -> None:
    """Remove a registered format (the built-in ones stay)."""
    if name in _BUILT_IN:
        raise ValueError(f"{name!r} is built in")
    READERS.pop(name, None)


def reader_names() -> Tuple[str, ...]:
    """The registered format names, in registration order: the choices of ``--format``."""
    return tuple(READERS)


def get_reader(name: str) -> Reader:
    """The reader of a format name (:class:`~spacy_agreement.errors.BadOptionError` naming the
    choices for an unknown one)."""
    try:
        return READERS[name]
    except KeyError:
        raise BadOptionError(f"unknown format {name!r}: use {' or '.join(map(repr, READERS))}") from None


def guess_format(path: PathLike) -> Format:
    """The format of a file from its content: the first reader, newest first, whose ``sniff``
    recognises it (``"bracket"`` when the first non-blank character is ``(``, as in EVALB's
    .gld/.tst or Penn .mrg files of any name; ``"conll"`` for any other content). An empty
    file, or one that cannot be read here, goes by its suffix (.tree/.mrg/.trees/.ptb are
    bracketed; CoNLL when no suffix matches) so that reading it reports the real problem."""
    for name in reversed(list(READERS)):
        if READERS[name].sniff(path):
            return name
    lowered = os.fspath(path).lower()
    for name, reader in READERS.items():
        if reader.suffixes and lowered.endswith(reader.suffixes):
            return name
    return "conll"


def read_trees(path: PathLike, fmt: Optional[Format] = None, **options: Any) -> List[Optional[Tree]]:
    """The trees of one file in format ``fmt`` (default: :func:`guess_format`); ``options`` go
    to the reader, which ignores those it does not know. ``None`` marks a failed parse."""
    return get_reader(fmt or guess_format(path)).read(path, **options)


def _family(reader: Reader, items: Sequence[Dict[str, Tree]]) -> str:
    """The reader's family of tree, or (for a reader that does not say) that of the trees read."""
    return reader.family or family_of(t for item in items for t in item.values())


def _present(item: Dict[str, Optional[Tree]], stats: Dict[str, ReadStats]) -> Dict[str, Tree]:
    """The annotations of an item that are there. A failed parse (``None``: a blank line or a
    tree without words in a bracketed file, as EVALB reads them) is a missing annotation,
    counted in the annotator's :class:`ReadStats`; a line that is blank in every file is
    not a sentence and gives an empty item, which the callers leave out."""
    present = {n: t for n, t in item.items() if t is not None}
    if present:
        for n, t in item.items():
            if t is None:
                stats[n].failed_parses += 1
    return present


def check_distinct(paths: Sequence[PathLike], what: str = "file") -> None:
    """:class:`BadOptionError` naming the first path given twice (also through another
    relative path or a symbolic link: paths are compared resolved). The same annotation
    twice agrees with itself and inflates agreement; callers let it through with
    ``allow_duplicates``."""
    seen: Dict[str, str] = {}
    for path in paths:
        resolved = os.path.realpath(os.fspath(path))
        if resolved in seen:
            same = "" if seen[resolved] == os.fspath(path) else f" (as {seen[resolved]} and {os.fspath(path)})"
            raise BadOptionError(f"{os.fspath(path)}: the same {what} is given twice{same}; "
                                 "give each annotator once, or --allow-duplicates")
        seen[resolved] = os.fspath(path)


def load_parallel_files(
    paths: Sequence[PathLike],
    fmt: Optional[Format] = None,
    annotators: Optional[Sequence[str]] = None,
    single_root: bool = False,
    cycles: str = "drop",
    allow_duplicates: bool = False,
) -> Corpus:
    """One annotator per file; every file must have the same number of sentences.

    Annotators are named by the file names without their extension unless given. The
    format is read from the content unless given (:func:`guess_format`); ``cycles="raise"``
    makes self-headed tokens, rootless sentences and other head cycles errors
    (:func:`~spacy_agreement.adapters.conll.iter_conll`). The same file given twice is an
    error (:func:`check_distinct`) unless ``allow_duplicates``.
    """
    if len(paths) < 2:
        raise BadOptionError("at least two files are needed to measure agreement")
    if not allow_duplicates:
        check_distinct(paths, "file")
    if fmt is None:
        guessed = {guess_format(p) for p in paths}
        if len(guessed) > 1:
            found = [READERS[n].description or n for n in reversed(list(READERS)) if n in guessed]
            raise MismatchedCorpusError(
                f"the files mix {' and '.join(found)} ({', '.join(os.fspath(p) for p in paths)}): give --format")
        fmt = guessed.pop()
    reader = get_reader(fmt)
    names = list(annotators) if annotators else [os.path.splitext(os.path.basename(p))[0] for p in paths]
    if len(set(names)) != len(names):
        names = [os.fspath(p) for p in paths]
    if len(set(names)) != len(names):  # the same path twice (allow_duplicates): number them
        names = [f"{name} ({k})" for k, name in enumerate(names, 1)]
    stats = {name: ReadStats() for name in names}
    read: List[Any] = [reader.read(p, single_root=single_root, stats=stats[n], cycles=cycles)
                       for p, n in zip(paths, names)]
    columns = cast(List[List[Optional[Tree]]], trim_trailing_failures(*read))
    first = columns[0]
    for path, column in zip(paths[1:], columns[1:]):
        if len(column) != len(first):
            raise MismatchedCorpusError(
                f"{os.fspath(paths[0])} has {len(first)} sentences but {os.fspath(path)} has {len(column)}"
            )
    items, item_names = [], []
    for k in range(len(first)):
        item = _present({n: col[k] for n, col in zip(names, columns)}, stats)
        if item:
            items.append(item)
            item_names.append(f"sentence {k + 1}")
    return Corpus(tuple(names), items, item_names, _family(reader, items), stats)


def _annotator_files(directory: str, suffixes: Tuple[str, ...]) -> Dict[str, str]:
    """``{PREFIX: path}`` of the files ``PREFIX + NAME + suffix`` of an annotator directory."""
    annotator = os.path.basename(os.path.normpath(directory))
    found: Dict[str, str] = {}
    for entry in sorted(os.listdir(directory)):
        for suffix in suffixes:
            tail = annotator + suffix
            if entry.endswith(tail):
                found[entry[: -len(tail)]] = os.path.join(directory, entry)
    return found


def load_annotator_dirs(
    directories: Sequence[PathLike],
    fmt: Optional[Format] = None,
    single_root: bool = False,
    cycles: str = "drop",
    allow_duplicates: bool = False,
) -> Corpus:
    """A corpus from annotator directories (see the module docstring; ``cycles`` as in
    :func:`load_parallel_files`). The format is the first registered one (``conll``, then
    ``bracket``, ...) with files in the directories, unless given.

    Items are ordered by file prefix, then by sentence. Files with the same prefix must
    hold the same number of sentences (:class:`MismatchedCorpusError` names them). The same
    directory given twice (:func:`check_distinct`; unless ``allow_duplicates``) and a
    directory without a single file of the format are errors naming it.
    """
    dirs = [os.path.normpath(os.fspath(d)) for d in directories]
    if len(dirs) < 2:
        raise BadOptionError("at least two annotator directories are needed")
    for d in dirs:
        if not os.path.isdir(d):
            if os.path.exists(d):
                raise NotADirectoryError(errno.ENOTDIR, "not a directory (--dirs takes annotator directories)", d)
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), d)
    if not allow_duplicates:
        check_distinct(dirs, "directory")
    names = [os.path.basename(d) for d in dirs]
    if len(set(names)) != len(names):
        if not allow_duplicates:
            raise BadOptionError(f"annotator directories must have distinct names, got {names}")
        names = [f"{name} ({k})" for k, name in enumerate(names, 1)]
    if fmt is None:
        fmt = next((n for n, r in READERS.items() if any(_annotator_files(d, r.suffixes) for d in dirs)), "bracket")
    reader = get_reader(fmt)
    files = {name: _annotator_files(d, reader.suffixes) for name, d in zip(names, dirs)}
    for name, d in zip(names, dirs):
        if not files[name]:
            annotator = os.path.basename(d)
            raise MismatchedCorpusError(
                f"{d}: no annotations: no {fmt} file named PREFIX + {annotator!r} + "
                f"{'/'.join(reader.suffixes) or 'a suffix'} (e.g. text1-{annotator}{(*reader.suffixes, '')[0]})")
    prefixes = sorted(set().union(*files.values()))
    stats = {name: ReadStats() for name in names}
    items: List[Dict[str, Tree]] = []
    item_names: List[str] = []
    for prefix in prefixes:
        raw: Dict[str, Any] = {n: reader.read(files[n][prefix], single_root=single_root, stats=stats[n], cycles=cycles)
                               for n in names if prefix in files[n]}
        read = cast(Dict[str, List[Optional[Tree]]], dict(zip(raw, trim_trailing_failures(*raw.values()))))
        lengths = {n: len(trees) for n, trees in read.items()}
        if len(set(lengths.values())) > 1:
            detail = ", ".join(f"{files[n][prefix]}: {k}" for n, k in lengths.items())
            raise MismatchedCorpusError(f"files of prefix {prefix!r} differ in sentence counts ({detail})")
        count = next(iter(lengths.values()))
        for k in range(count):
            item = _present({n: trees[k] for n, trees in read.items()}, stats)
            if item:
                items.append(item)
                item_names.append(f"{prefix.rstrip('-_.') or prefix} sentence {k + 1}")
    return Corpus(tuple(names), items, item_names, _family(reader, items), stats)


__all__ = [
    "BRACKET_SUFFIXES", "CONLL_SUFFIXES", "READERS", "Format", "Reader", "check_distinct", "first_content",
    "get_reader", "guess_format", "load_annotator_dirs", "load_parallel_files", "read_trees", "reader_names",
    "register_reader", "unregister_reader",
]
