"""Corpora of annotations: items (sentences), each annotated by some of the annotators.

A :class:`Corpus` is what the agreement metrics take. Load one from

* parallel files, one annotator each, with the same sentences in the same order
  (:func:`load_parallel_files`), or
* annotator directories in the convention of the code released with Skjærholt (2014)
  (:func:`load_annotator_dirs`): a directory per annotator, named by its basename,
  holding files ``PREFIX-NAME.conll`` (or ``.conllu``, ``.tree``); files with the same
  ``PREFIX`` across directories hold the same sentences; an annotator may lack a file,
  and then has no annotation of its sentences (a missing annotation),
* or build one in Python from trees (:meth:`Corpus.from_items`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

from .adapters.brackets import read_brackets
from .adapters.conll import ReadStats, read_conll
from .errors import MismatchedCorpusError
from .trees import ConstituencyTree, DependencyTree

Tree = Union[DependencyTree, ConstituencyTree]
Format = Literal["conll", "bracket"]
PathLike = Union[str, "os.PathLike[str]"]

CONLL_SUFFIXES = (".conll", ".conllu", ".conllx")
BRACKET_SUFFIXES = (".tree", ".mrg", ".trees", ".ptb")


@dataclass
class Corpus:
    """Annotations of items by annotators.

    ``items[k]`` maps annotator name to that annotator's tree of item ``k`` (an absent
    annotator is a missing annotation); ``names[k]`` says where item ``k`` comes from.
    All trees are of one ``kind``: ``"dependency"`` or ``"constituency"``.
    """

    annotators: Tuple[str, ...]
    items: List[Dict[str, Tree]]
    names: List[str]
    kind: str
    read_stats: Dict[str, ReadStats] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.items) != len(self.names):
            raise ValueError("one name per item is needed")
        kinds = {type(t) for item in self.items for t in item.values()}
        if len(kinds) > 1:
            raise TypeError("a corpus holds either dependency trees or phrase trees, not both")

    @classmethod
    def from_items(
        cls,
        items: Sequence[Union[Sequence[Optional[Tree]], Mapping[str, Optional[Tree]]]],
        annotators: Optional[Sequence[str]] = None,
        names: Optional[Sequence[str]] = None,
    ) -> "Corpus":
        """A corpus from Python trees: each item a sequence (by annotator position; ``None``
        for a missing annotation) or a mapping from annotator name to tree."""
        built: List[Dict[str, Tree]] = []
        seen: List[str] = list(annotators or [])
        for item in items:
            if isinstance(item, Mapping):
                entry = {str(k): v for k, v in item.items() if v is not None}
            else:
                if annotators is None:
                    while len(seen) < len(item):
                        seen.append(f"annotator{len(seen) + 1}")
                elif len(item) > len(seen):
                    raise ValueError(f"an item has {len(item)} annotations for {len(seen)} annotators")
                entry = {seen[c]: tree for c, tree in enumerate(item) if tree is not None}
            for name in entry:
                if name not in seen:
                    seen.append(name)
            built.append(entry)
        kind = _kind_of(t for item in built for t in item.values())
        return cls(tuple(seen), built, list(names or [f"item {k + 1}" for k in range(len(built))]), kind)

    def __len__(self) -> int:
        return len(self.items)

    @property
    def n_annotations(self) -> int:
        return sum(len(item) for item in self.items)


def _kind_of(trees) -> str:
    for tree in trees:
        return "dependency" if isinstance(tree, DependencyTree) else "constituency"
    return "dependency"


def _read(path: PathLike, fmt: Format, single_root: bool, stats: ReadStats, cycles: str = "drop") -> List[Tree]:
    if fmt == "conll":
        return read_conll(path, single_root=single_root, stats=stats, cycles=cycles)
    if fmt == "bracket":
        return read_brackets(path, missing=True)
    raise ValueError(f"unknown format {fmt!r}: use 'conll' or 'bracket'")


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


def guess_format(path: PathLike) -> Format:
    """The format of a file from its content: ``"bracket"`` when its first non-blank
    character is ``(`` (EVALB's .gld/.tst, Penn .mrg, or any name), ``"conll"`` when it is
    anything else. An empty file, or one that cannot be read here, goes by its suffix
    (.tree/.mrg/.trees/.ptb are bracketed) so that reading it reports the real problem."""
    try:
        with open(path, "rb") as handle:
            while True:
                block = handle.read(4096)
                if not block:
                    break
                text = block.lstrip()
                if text:
                    return "bracket" if text.startswith(b"(") else "conll"
    except OSError:
        pass
    return "bracket" if os.fspath(path).lower().endswith(BRACKET_SUFFIXES) else "conll"


def load_parallel_files(
    paths: Sequence[PathLike],
    fmt: Optional[Format] = None,
    annotators: Optional[Sequence[str]] = None,
    single_root: bool = False,
    cycles: str = "drop",
) -> Corpus:
    """One annotator per file; every file must have the same number of sentences.

    Annotators are named by the file names without their extension unless given. The
    format is read from the content unless given (:func:`guess_format`); ``cycles="raise"``
    makes self-headed tokens, rootless sentences and other head cycles errors
    (:func:`~spacy_agreement.adapters.conll.iter_conll`).
    """
    if len(paths) < 2:
        raise ValueError("at least two files are needed to measure agreement")
    if fmt is None:
        formats = {guess_format(p) for p in paths}
        if len(formats) > 1:
            raise ValueError(f"the files mix bracketed trees and CoNLL ({', '.join(map(os.fspath, paths))}): "
                             "give --format")
        fmt = formats.pop()
    names = list(annotators) if annotators else [os.path.splitext(os.path.basename(p))[0] for p in paths]
    if len(set(names)) != len(names):
        names = [os.fspath(p) for p in paths]
    stats = {name: ReadStats() for name in names}
    columns = [_read(p, fmt, single_root, stats[n], cycles) for p, n in zip(paths, names)]
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
    kind = "dependency" if fmt == "conll" else "constituency"
    return Corpus(tuple(names), items, item_names, kind, stats)


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
) -> Corpus:
    """A corpus from annotator directories (see the module docstring; ``cycles`` as in
    :func:`load_parallel_files`).

    Items are ordered by file prefix, then by sentence. Files with the same prefix must
    hold the same number of sentences (:class:`MismatchedCorpusError` names them).
    """
    dirs = [os.path.normpath(os.fspath(d)) for d in directories]
    if len(dirs) < 2:
        raise ValueError("at least two annotator directories are needed")
    for d in dirs:
        if not os.path.isdir(d):
            raise FileNotFoundError(f"{d}: not a directory")
    names = [os.path.basename(d) for d in dirs]
    if len(set(names)) != len(names):
        raise ValueError(f"annotator directories must have distinct names, got {names}")
    if fmt is None:
        has_conll = any(_annotator_files(d, CONLL_SUFFIXES) for d in dirs)
        fmt = "conll" if has_conll else "bracket"
    suffixes = CONLL_SUFFIXES if fmt == "conll" else BRACKET_SUFFIXES
    files = {name: _annotator_files(d, suffixes) for name, d in zip(names, dirs)}
    prefixes = sorted(set().union(*files.values()))
    if not prefixes:
        raise FileNotFoundError(f"no {'/'.join(suffixes)} files named PREFIX + annotator name in {dirs}")
    stats = {name: ReadStats() for name in names}
    items: List[Dict[str, Tree]] = []
    item_names: List[str] = []
    for prefix in prefixes:
        read = {n: _read(files[n][prefix], fmt, single_root, stats[n], cycles) for n in names if prefix in files[n]}
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
    kind = "dependency" if fmt == "conll" else "constituency"
    return Corpus(tuple(names), items, item_names, kind, stats)
