"""Every annotator input as the annotation tools and the reference tools write it, behind one
call (:func:`load_annotations`), so that every command that takes annotators (``alpha``,
``report``) accepts all of them. Each kind of input is a source registered in
:data:`ANNOTATION_SOURCES` (:class:`AnnotationSource`: ``recognises(paths, options)`` and
``load(paths, options)``, ``options`` a :class:`LoadOptions`), and the first source that
recognises the paths reads them. The sources are tried in this order (:func:`source_order`):
the sources registered with :func:`register_annotation_source` first, the latest first (a new
source wins over the built-in ones, as a new reader of :mod:`~spacy_agreement.adapters.files`
does), then the built-in ones:

1. ``annotator-folders``: several folders (``dirs=True``), below;
2. ``project``, ``prodigy``, ``multi-user``: one path holding several annotators, below;
3. ``docbin``: ``.spacy`` files (one holding several analyses, or one annotator each);
4. ``parallel-files``: two or more files, one annotator each.

One path that no source recognises is an error that says what one path may hold.
What the paths are decides the source:

* **one path** holding several annotators:

  - a folder or a ``.zip`` file: a project export (:mod:`~spacy_agreement.adapters.projects`:
    INCEpTION / WebAnno ``annotation/DOCUMENT/USER.conllu``, Arborator-Grew ``USER/SAMPLE.conllu``),
    else a flat folder of per-annotator files of several texts, the annotator and the text both
    in the file name (``NAME-TEXT.conll``, ``SAMPLE.USER.conllu``: told apart by which files
    hold the same sentences, :mod:`~spacy_agreement.adapters.flat_folder`);
  - a Prodigy ``db-out`` JSON Lines file (:mod:`~spacy_agreement.adapters.prodigy`);
  - a CoNLL-U file whose trees name their annotator in a comment, ``# user_id = NAME`` by
    default (:mod:`~spacy_agreement.adapters.multi_user`, the Arborator-Grew server's file);
  - a spaCy ``DocBin`` holding several stored analyses per doc (:mod:`~spacy_agreement.adapters.docbin`);

* **several files**, one annotator each, in any registered format
  (:func:`~spacy_agreement.adapters.files.load_parallel_files`; ``.spacy`` files:
  :func:`~spacy_agreement.adapters.docbin.load_docbin`);
* **several folders** (``dirs=True``, the CLI's ``--dirs``), one annotator each: files named
  ``PREFIX-NAME.conll`` as the code released with Skjærholt (2014) wants them
  (:func:`~spacy_agreement.adapters.files.load_annotator_dirs`), else CoNLL files of any name,
  the files of one name being one document
  (:func:`~spacy_agreement.adapters.projects.load_annotator_folders`).

In every case the annotations of a sentence are paired by identity
(:mod:`~spacy_agreement.adapters.matching`), and the corpus says how (``matched_by``).
"""
from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Tuple, Union

from ..corpus import Corpus
from ..errors import BadOptionError
from ..registry import Registry
from .docbin import load_docbin
from .files import READERS, _annotator_files, guess_format, load_annotator_dirs, load_parallel_files
from .multi_user import USER_KEY, has_user_ids, load_multi_user
from .prodigy import is_prodigy_jsonl, load_prodigy
from .projects import load_annotator_folders, load_project

PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True)
class LoadOptions:
    """The options of :func:`load_annotations`, as every source receives them (each reads those
    it knows)."""

    dirs: bool = False
    fmt: Optional[str] = None
    single_root: bool = False
    cycles: str = "drop"
    allow_duplicates: bool = False
    user_key: str = USER_KEY
    include: Sequence[str] = ()
    layout: Optional[str] = None
    annotator_key: Optional[str] = None
    annotator_part: Optional[str] = None
    name_pattern: Optional[str] = None


@dataclass(frozen=True)
class AnnotationSource:
    """One kind of annotator input: ``recognises(paths, options) -> bool`` says whether the
    paths are of this kind (quickly: it looks, it does not read them all), ``load(paths,
    options) -> Corpus`` reads them; ``description`` names the kind in messages."""

    recognises: Callable[[List[PathLike], LoadOptions], bool]
    load: Callable[[List[PathLike], LoadOptions], Corpus]
    description: str = ""


def _writes_no_keys(name: str) -> Tuple[str, ...]:
    return ()  # a source writes no output key: only its name must be new


#: The sources of annotator input by name, built-in first (:func:`source_order` gives the order
#: they are tried in).
ANNOTATION_SOURCES: "Registry[AnnotationSource]" = Registry("annotation source", keys=_writes_no_keys, dashes=True)


def register_annotation_source(name: str, recognises: Callable[[List[PathLike], LoadOptions], bool],
                               load: Callable[[List[PathLike], LoadOptions], Corpus], description: str = "",
                               builtin: bool = False) -> AnnotationSource:
    """Add a kind of annotator input: :func:`load_annotations` (and every command that takes
    annotators) tries it before the built-in sources and the sources registered before it. A
    name that is not an identifier (letters, digits, ``_``, ``-``) or is taken is a
    :class:`~spacy_agreement.registry.RegistryError` (a ``ValueError``)."""
    return ANNOTATION_SOURCES.register(name, AnnotationSource(recognises, load, description or name), builtin=builtin)


def unregister_annotation_source(name: str) -> None:
    """Remove a registered source (a built-in one is a
    :class:`~spacy_agreement.registry.RegistryError`)."""
    ANNOTATION_SOURCES.unregister(name)


def source_order() -> Tuple[str, ...]:
    """The names of the sources in the order :func:`load_annotations` tries them: the
    registered ones, the latest first, then the built-in ones in their order (module docstring)."""
    names = ANNOTATION_SOURCES.names()
    added = [n for n in names if not ANNOTATION_SOURCES.is_builtin(n)]
    return tuple(reversed(added)) + tuple(n for n in names if ANNOTATION_SOURCES.is_builtin(n))


# --------------------------------------------------------------------------- the built-in sources


def _is_export(path: PathLike) -> bool:
    return os.path.isdir(path) or (os.path.isfile(path) and zipfile.is_zipfile(path))


def _one_path(paths: List[PathLike], options: LoadOptions) -> bool:
    return not options.dirs and len(paths) == 1


def _folders_recognised(paths: List[PathLike], options: LoadOptions) -> bool:
    return options.dirs


def _load_folders(paths: List[PathLike], o: LoadOptions) -> Corpus:
    """Skjærholt's ``PREFIX-NAME.conll`` annotator directories where their files are there (or
    another format is asked for), else folders of CoNLL files of any name."""
    folders = [os.path.normpath(os.fspath(d)) for d in paths]
    named = all(os.path.isdir(d) for d in folders) and any(
        _annotator_files(d, r.suffixes) for d in folders for n, r in READERS.items() if o.fmt in (None, n))
    if named or o.fmt not in (None, "conll") or not all(os.path.isdir(d) for d in folders):
        return load_annotator_dirs(paths, o.fmt, single_root=o.single_root, cycles=o.cycles,
                                   allow_duplicates=o.allow_duplicates)
    return load_annotator_folders(folders, single_root=o.single_root, cycles=o.cycles)


def _project_recognised(paths: List[PathLike], options: LoadOptions) -> bool:
    return _one_path(paths, options) and _is_export(paths[0]) and options.fmt in (None, "conll")


def _load_project(paths: List[PathLike], o: LoadOptions) -> Corpus:
    return load_project(paths[0], o.layout, o.include, single_root=o.single_root, cycles=o.cycles,
                        annotator_part=o.annotator_part, name_pattern=o.name_pattern)


def _prodigy_recognised(paths: List[PathLike], options: LoadOptions) -> bool:
    return _one_path(paths, options) and options.fmt is None and is_prodigy_jsonl(paths[0])


def _load_prodigy(paths: List[PathLike], o: LoadOptions) -> Corpus:
    return load_prodigy(paths[0], o.annotator_key, single_root=o.single_root, cycles=o.cycles)


def _multi_user_recognised(paths: List[PathLike], options: LoadOptions) -> bool:
    return _one_path(paths, options) and (options.fmt or guess_format(paths[0])) == "conll" and \
        has_user_ids(paths[0], options.user_key)


def _load_multi_user(paths: List[PathLike], o: LoadOptions) -> Corpus:
    return load_multi_user(paths[0], o.user_key, single_root=o.single_root, cycles=o.cycles)


def _docbin_recognised(paths: List[PathLike], options: LoadOptions) -> bool:
    return not options.dirs and all((options.fmt or guess_format(p)) == "spacy" for p in paths)


def _load_docbin(paths: List[PathLike], o: LoadOptions) -> Corpus:
    return load_docbin(paths, single_root=o.single_root, cycles=o.cycles, allow_duplicates=o.allow_duplicates)


def _parallel_recognised(paths: List[PathLike], options: LoadOptions) -> bool:
    return not options.dirs and len(paths) > 1


def _load_parallel(paths: List[PathLike], o: LoadOptions) -> Corpus:
    return load_parallel_files(paths, o.fmt, single_root=o.single_root, cycles=o.cycles,
                               allow_duplicates=o.allow_duplicates)


for _name, _recognises, _load, _description in (
        ("annotator-folders", _folders_recognised, _load_folders, "annotator folders (dirs=True)"),
        ("project", _project_recognised, _load_project, "a project export (a folder or a .zip) or a flat folder"),
        ("prodigy", _prodigy_recognised, _load_prodigy, "a Prodigy JSONL file"),
        ("multi-user", _multi_user_recognised, _load_multi_user, "a multi-user CoNLL-U file"),
        ("docbin", _docbin_recognised, _load_docbin, "spaCy DocBin (.spacy) files"),
        ("parallel-files", _parallel_recognised, _load_parallel, "parallel files, one annotator each")):
    register_annotation_source(_name, _recognises, _load, _description, builtin=True)


# --------------------------------------------------------------------------- the one call


def load_annotations(
    paths: Sequence[PathLike],
    dirs: bool = False,
    fmt: Optional[str] = None,
    single_root: bool = False,
    cycles: str = "drop",
    allow_duplicates: bool = False,
    user_key: str = USER_KEY,
    include: Sequence[str] = (),
    layout: Optional[str] = None,
    annotator_key: Optional[str] = None,
    annotator_part: Optional[str] = None,
    name_pattern: Optional[str] = None,
) -> Corpus:
    """The corpus of ``paths`` read by the first source that recognises them (module
    docstring). ``user_key``: the comment
    naming each tree's annotator in a multi-user CoNLL-U file; ``include``, ``layout``: of a
    project export, ``annotator_part`` (``"first"``: ``NAME-TEXT``, ``"last"``: ``TEXT-NAME``)
    and ``name_pattern`` (a regular expression with the groups ``annotator`` and ``text``): of
    a flat folder (:func:`~spacy_agreement.adapters.projects.load_project`);
    ``annotator_key``: the field naming the annotator of a Prodigy task (default
    ``_annotator_id``, else ``_session_id``)."""
    paths = list(paths)
    if not paths:
        raise BadOptionError("no input: give annotation files, folders or a project export")
    if (annotator_part is not None or name_pattern is not None) and (
            dirs or len(paths) != 1 or not _is_export(paths[0]) or fmt not in (None, "conll")):
        raise BadOptionError("annotator_part and name_pattern read the file names of a flat folder of per-annotator "
                             "files, given as one path", option=("annotator_part", "name_pattern"))
    options = LoadOptions(dirs, fmt, single_root, cycles, allow_duplicates, user_key, include, layout, annotator_key,
                          annotator_part, name_pattern)
    for name in source_order():
        source = ANNOTATION_SOURCES[name]
        if source.recognises(paths, options):
            return source.load(paths, options)
    raise BadOptionError(
        f"{os.fspath(paths[0])}: one path holds one annotator here: give two or more files (one annotator each), "
        f"or one path holding several: a project export (a folder or a .zip: INCEpTION's annotation/DOCUMENT/"
        f"USER.conllu, Arborator-Grew's USER/SAMPLE.conllu), a flat folder of files NAME-TEXT.conll (one per "
        f"annotator and text), a Prodigy JSONL file, a CoNLL-U file whose "
        f"trees carry '# {user_key} = NAME', or a .spacy file with stored analyses")


__all__ = ["ANNOTATION_SOURCES", "AnnotationSource", "LoadOptions", "load_annotations", "register_annotation_source",
           "source_order", "unregister_annotation_source"]
