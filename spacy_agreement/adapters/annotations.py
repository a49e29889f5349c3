"""Every annotator input as the annotation tools and the reference tools write it, behind one
call (:func:`load_annotations`), so that every command that takes annotators (``alpha``,
``report``) accepts all of them. What the paths are decides the reader:

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
from typing import Optional, Sequence, Union

from ..corpus import Corpus
from ..errors import BadOptionError
from .docbin import load_docbin
from .files import READERS, _annotator_files, guess_format, load_annotator_dirs, load_parallel_files
from .multi_user import USER_KEY, has_user_ids, load_multi_user
from .prodigy import is_prodigy_jsonl, load_prodigy
from .projects import load_annotator_folders, load_project

PathLike = Union[str, "os.PathLike[str]"]


def _is_export(path: PathLike) -> bool:
    return os.path.isdir(path) or (os.path.isfile(path) and zipfile.is_zipfile(path))


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
    """The corpus of ``paths`` read as the module docstring says. ``user_key``: the comment
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
    if dirs:
        folders = [os.path.normpath(os.fspath(d)) for d in paths]
        named = all(os.path.isdir(d) for d in folders) and any(
            _annotator_files(d, r.suffixes) for d in folders for n, r in READERS.items() if fmt in (None, n))
        if named or fmt not in (None, "conll") or not all(os.path.isdir(d) for d in folders):
            return load_annotator_dirs(paths, fmt, single_root=single_root, cycles=cycles,
                                       allow_duplicates=allow_duplicates)
        return load_annotator_folders(folders, single_root=single_root, cycles=cycles)
    if len(paths) == 1:
        path = paths[0]
        if _is_export(path) and fmt in (None, "conll"):
            return load_project(path, layout, include, single_root=single_root, cycles=cycles,
                                annotator_part=annotator_part, name_pattern=name_pattern)
        if fmt is None and is_prodigy_jsonl(path):
            return load_prodigy(path, annotator_key, single_root=single_root, cycles=cycles)
        if (fmt or guess_format(path)) == "conll" and has_user_ids(path, user_key):
            return load_multi_user(path, user_key, single_root=single_root, cycles=cycles)
    if all((fmt or guess_format(p)) == "spacy" for p in paths):
        return load_docbin(paths, single_root=single_root, cycles=cycles, allow_duplicates=allow_duplicates)
    if len(paths) == 1:
        raise BadOptionError(
            f"{os.fspath(paths[0])}: one path holds one annotator here: give two or more files (one annotator each), "
            f"or one path holding several: a project export (a folder or a .zip: INCEpTION's annotation/DOCUMENT/"
            f"USER.conllu, Arborator-Grew's USER/SAMPLE.conllu), a flat folder of files NAME-TEXT.conll (one per "
            f"annotator and text), a Prodigy JSONL file, a CoNLL-U file whose "
            f"trees carry '# {user_key} = NAME', or a .spacy file with stored analyses")
    return load_parallel_files(paths, fmt, single_root=single_root, cycles=cycles, allow_duplicates=allow_duplicates)


__all__ = ["load_annotations"]
