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
command's ``--format`` pick it up. :data:`READERS` is a
:class:`~spacy_agreement.registry.Registry` of kind ``"reader"`` (names may hold ``-``).
Built in: ``conll`` (CoNLL-U and CoNLL-X) and ``bracket`` (one bracketed tree a line, or Penn
Treebank ``.mrg`` trees over several lines), registered here, and ``spacy`` (``DocBin`` files,
``.spacy``), registered by :mod:`~spacy_agreement.adapters.docbin` itself, which builds on
the pairing of files here (:func:`check_parallel_paths`, :func:`annotator_names`,
:func:`check_same_lengths`) and is imported with the package :mod:`spacy_agreement.adapters`,
so it is there before any reader is looked up. Every module of ``adapters/`` that reads a
file of trees (judgments, discourse documents) reads it through :func:`read_trees`.

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

import dataclasses
import errno
import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

from ..corpus import Corpus, ReadStats, Tree, family_of
from ..errors import BadOptionError, MismatchedCorpusError
from .._lazy import deferred
from .._memory import collection_paused
from ..registry import Registry
from .brackets import read_brackets, trim_trailing_failures
from .matching import match_documents, match_items, present
from .conllu import read_conll

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


def _writes_no_keys(name: str) -> Tuple[str, ...]:
    return ()  # a reader writes no output key: only its name must be new


#: The input formats by name, in registration order (``--format`` lists them so). Guessing a
#: file's format asks the most recently registered reader first, the built-in ``conll`` last.
READERS: "Registry[Reader]" = Registry("reader", keys=_writes_no_keys, dashes=True)


def register_reader(name: str, suffixes: Sequence[str], sniff: Callable[[PathLike], bool],
                    read: Callable[..., List[Optional[Tree]]], family: Optional[str] = None,
                    description: str = "", builtin: bool = False) -> Reader:
    """Add an input format (see the module docstring); every loader and command picks it up.
    A name that is not an identifier (letters, digits, ``_``, ``-``) or is taken is a
    :class:`~spacy_agreement.registry.RegistryError` (a ``ValueError``); ``builtin=True`` is
    for the formats of this package, which cannot be removed."""
    if family not in (None, "dependency", "constituency"):
        raise ValueError(f"family must be 'dependency' or 'constituency', got {family!r}")
    reader = Reader(tuple(s.lower() for s in suffixes), sniff, read, family, description or name)
    return READERS.register(name, reader, builtin=builtin)


def unregister_reader(name: str) -> None:
    """Remove a registered format (a built-in one is a
    :class:`~spacy_agreement.registry.RegistryError`, a ``ValueError``)."""
    READERS.unregister(name)


def reader_names() -> Tuple[str, ...]:
    """The registered format names, in registration order: the choices of ``--format``."""
    return READERS.names()


def get_reader(name: str) -> Reader:
    """The reader of a format name (:class:`~spacy_agreement.errors.BadOptionError` naming the
    choices for an unknown one)."""
    reader = READERS.find(name)
    if reader is None:
        raise BadOptionError(f"unknown format {name!r}: use {' or '.join(map(repr, READERS))}")
    return reader


register_reader("conll", CONLL_SUFFIXES, _sniff_conll, _read_conll, "dependency", "CoNLL", builtin=True)
register_reader("bracket", BRACKET_SUFFIXES, _sniff_bracket, _read_bracket, "constituency", "bracketed trees",
                builtin=True)
#: the suffixes of spaCy's DocBins and of Perseus treebank XML
DOCBIN_SUFFIXES = (".spacy",)
PERSEUS_SUFFIXES = (".xml",)
# their readers (adapters/docbin.py, adapters/perseus_xml.py) are imported when they are first called
register_reader("spacy", DOCBIN_SUFFIXES, deferred(".docbin", "sniff_docbin", __package__),
                deferred(".docbin", "read_docbin", __package__), "dependency", "spaCy DocBin", builtin=True)
register_reader("perseus", PERSEUS_SUFFIXES, deferred(".perseus_xml", "sniff_perseus", __package__),
                deferred(".perseus_xml", "read_perseus", __package__), "dependency", "Perseus treebank XML",
                builtin=True)


def guess_format(path: PathLike) -> Format:
    """The format of a file from its content: the first reader, newest first, whose ``sniff``
    recognises it (``"bracket"`` when the first non-blank character is ``(``, as in EVALB's
    .gld/.tst or Penn .mrg files of any name; ``"conll"`` for any other content). An empty
    file, or one that cannot be read here, goes by its suffix (.tree/.mrg/.trees/.ptb are
    bracketed; CoNLL when no suffix matches) so that reading it reports the real problem."""
    for name in reversed(READERS.names()):
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
                                 "give each annotator once, or allow_duplicates=True", option="allow_duplicates")
        seen[resolved] = os.fspath(path)


def check_parallel_paths(paths: Sequence[PathLike], allow_duplicates: bool = False) -> None:
    """What every loader of one file per annotator checks first: at least two files
    (:class:`BadOptionError`), each given once unless ``allow_duplicates`` (:func:`check_distinct`)."""
    if len(paths) < 2:
        raise BadOptionError("at least two files are needed to measure agreement")
    if not allow_duplicates:
        check_distinct(paths, "file")


def annotator_names(paths: Sequence[PathLike], annotators: Optional[Sequence[str]] = None) -> List[str]:
    """The annotators of one file each: ``annotators`` when given (one per file, else a
    :class:`BadOptionError`), else the file names without their extension; where names repeat,
    the paths; where paths repeat too (``allow_duplicates``), the names numbered."""
    sources = [os.fspath(p) for p in paths]
    names = list(annotators) if annotators else [os.path.splitext(os.path.basename(s))[0] for s in sources]
    if len(names) != len(sources):
        raise BadOptionError(f"{len(names)} annotator names for {len(sources)} files")
    if len(set(names)) != len(names):
        names = list(sources)
    if len(set(names)) != len(names):  # the same path twice (allow_duplicates): number them
        names = [f"{name} ({k})" for k, name in enumerate(names, 1)]
    return names


def check_same_lengths(paths: Sequence[PathLike], columns: Sequence[Sequence[Any]], unit: str = "sentences") -> None:
    """:class:`MismatchedCorpusError` naming the first file and the first one whose column
    (sentences, docs: ``unit``) is not as long as the first file's."""
    first = columns[0]
    for path, column in zip(paths[1:], columns[1:]):
        if len(column) != len(first):
            raise MismatchedCorpusError(
                f"{os.fspath(paths[0])} has {len(first)} {unit} but {os.fspath(path)} has {len(column)}")


def _file_key(path: PathLike) -> Optional[str]:
    """The real path of a regular file (what a file given twice has twice), else None (a pipe,
    standard input: read as often as given)."""
    try:
        return os.path.realpath(path) if os.path.isfile(path) else None
    except (TypeError, ValueError, OSError):
        return None


def load_parallel_files(
    paths: Sequence[PathLike],
    fmt: Optional[Format] = None,
    annotators: Optional[Sequence[str]] = None,
    single_root: bool = False,
    cycles: str = "drop",
    allow_duplicates: bool = False,
) -> Corpus:
    """One annotator per file; the annotations of a sentence are paired by ``sent_id``, else by
    position when the files are parallel, else by text (:mod:`~spacy_agreement.adapters.matching`):
    reordered files and sentences some annotators lack are items with missing annotations.

    Annotators are named by the file names without their extension unless given. The
    format is read from the content unless given (:func:`guess_format`); ``cycles="raise"``
    makes self-headed tokens, rootless sentences and other head cycles errors
    (:func:`~spacy_agreement.adapters.conllu.iter_conll`). The same file given twice is an
    error (:func:`check_distinct`) unless ``allow_duplicates``.
    """
    check_parallel_paths(paths, allow_duplicates)
    if fmt is None:
        guessed = {guess_format(p) for p in paths}
        if len(guessed) > 1:
            found = [READERS[n].description or n for n in reversed(READERS.names()) if n in guessed]
            raise MismatchedCorpusError(
                f"the files mix {' and '.join(found)} ({', '.join(os.fspath(p) for p in paths)}): give fmt", option="fmt")
        fmt = guessed.pop()
    reader = get_reader(fmt)
    names = annotator_names(paths, annotators)
    stats = {name: ReadStats() for name in names}
    with collection_paused():  # a corpus of small objects without cycles (_memory)
        read: List[Any] = []
        first_read: Dict[Optional[str], int] = {}  # a file given twice (allow_duplicates) is read once
        for p, n in zip(paths, names):
            key = _file_key(p) if allow_duplicates else None
            if key in first_read:
                same = first_read[key]
                read.append(list(read[same]))
                stats[n] = dataclasses.replace(stats[names[same]])
                continue
            read.append(reader.read(p, single_root=single_root, stats=stats[n], cycles=cycles))
            if key is not None:
                read[-1] = list(read[-1])
                first_read[key] = len(read) - 1
        columns = cast(List[List[Optional[Tree]]], trim_trailing_failures(*read))
        matched, labels, how = match_items(columns, names, paths)  # by sent_id, position or text
        items, item_names = [], []
        for label, entry in zip(labels, matched):
            item = present(entry, stats)
            if item:
                items.append(item)
                item_names.append(label)
    return Corpus(tuple(names), items, item_names, _family(reader, items), stats, matched_by=how)


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
                raise NotADirectoryError(errno.ENOTDIR, "not a directory (annotator directories expected)", d)
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

    def document(prefix: str) -> Tuple[str, List[str], Callable[[str], List[Optional[Tree]]], Callable[[str], str]]:
        present = [n for n in names if prefix in files[n]]
        raw = [reader.read(files[n][prefix], single_root=single_root, stats=stats[n], cycles=cycles) for n in present]
        read = dict(zip(present, trim_trailing_failures(*raw)))
        return prefix.rstrip("-_.") or prefix, present, read.__getitem__, lambda n: files[n][prefix]

    items, item_names, how = match_documents((document(p) for p in prefixes), names, stats, what="files of prefix")
    return Corpus(tuple(names), items, item_names, _family(reader, items), stats, matched_by=how)


__all__ = [
    "BRACKET_SUFFIXES", "CONLL_SUFFIXES", "READERS", "Format", "Reader", "annotator_names", "check_distinct",
    "check_parallel_paths", "check_same_lengths", "first_content", "get_reader", "guess_format",
    "load_annotator_dirs", "load_parallel_files", "read_trees", "reader_names", "register_reader",
    "unregister_reader",
]
