"""Annotation tools' project exports (a folder, or the ZIP file the tool gives) as a corpus:
one annotator per user, the sentences of each document paired as
:mod:`~spacy_agreement.adapters.matching` pairs them.

Two layouts are read (:func:`detect_layout`; both possibly under one top folder, as a
browser that unpacks a download and a re-zip of that folder make it):

* ``"inception"``: INCEpTION's (and WebAnno's) project export, ``annotation/DOCUMENT/USER.EXT``,
  ``DOCUMENT`` the source document's name (``doc1.txt``), ``EXT`` that of the *secondary
  format* chosen at export (``AUTO``: the source document's format). Beside it:
  ``annotation/DOCUMENT/INITIAL_CAS.EXT`` (the document as imported, always exported),
  ``curation/DOCUMENT/CURATION_USER.EXT`` (the curated result), ``annotation_ser/`` and
  ``curation_ser/`` (serialized CASes), ``source/``, ``log/`` and ``exportedproject*.json``
  (the user guide's *Export* page, ``projects_export.adoc``, and
  ``AnnotationDocumentExporter``/``CurationDocumentExporter`` of inception-project/inception).
  ``INITIAL_CAS`` and ``CURATION_USER`` are not annotators unless named in ``include``
  (``"INITIAL_CAS"``, ``"curation"``). Only CoNLL files are read: a document whose
  annotators' files are in another format is an error saying to export as CoNLL-U.
* ``"arborator"`` (also ``"annotator-folders"``): Arborator-Grew's sample export,
  ``USER/SAMPLE.conllu``, one folder per user (``SampleExportService.content_files_to_zip``
  of Arborator/arborator-backend writes ``"{user}/{sample}.conllu"`` into ``dump.PROJECT.zip``,
  with the ``# user_id``, ``# timestamp`` and ``# validated_by`` comments removed). Its
  pseudo-users are not annotators unless named in ``include``: ``last`` (each sentence's most
  recent tree, a copy of some user's, computed by the backend), ``validated`` (the validated
  tree) and ``base_tree`` (the blind-annotation starting tree). The grew server
  (grew-nlp/arboratorgrew_server) keeps all users' trees of a sample in one file, each marked
  ``# user_id = NAME`` (read by :mod:`~spacy_agreement.adapters.multi_user`); its own
  ``exportProject`` writes only the most recent tree of each sentence, which is no input here.
* ``"flat"``: a flat folder of two or more CoNLL files, one per annotator and text, the annotator
  and the text both in the file name (``NAME-TEXT.conll`` as in the NDT data released with
  Skjærholt (2014), Arborator-Grew's older export ``SAMPLE.USER.conllu``), told apart by which
  files hold the same sentences (:mod:`~spacy_agreement.adapters.flat_folder`, whose
  ``annotator_part`` and ``name_pattern`` settle a folder the rule cannot read). Each text is a
  document. Looked for last: a folder that is an INCEpTION or Arborator-Grew export stays one.

Annotators are sorted by name; documents come in natural order of their names (``doc2``
before ``doc10``), and the items of a document in the order of
:func:`~spacy_agreement.adapters.matching.match_items`, named ``DOCUMENT LABEL``. A document
an annotator lacks makes its sentences missing annotations, listed in the corpus'
``matched_by`` (a :class:`ProjectMatch`: rule, missing, layout, and ``notes`` saying what was
left out and which files were not read). The folder and the ZIP give the same corpus.
"""
from __future__ import annotations

import errno
import io
import os
import zipfile
from dataclasses import dataclass, fields
from typing import Dict, List, Optional, Sequence, Tuple, Union

from .._memory import collection_paused
from ..corpus import Corpus, ReadStats, Tree
from ..errors import BadOptionError, InvalidTreeError, Location, MismatchedCorpusError
from ..trees import DependencyTree
from .conllu import iter_conll
from .conllu.scanned_trees import trees_from_bytes
from .files import CONLL_SUFFIXES
from .flat_folder import place_files
from .matching import ItemMatch, _natural, _text, match_documents

PathLike = Union[str, "os.PathLike[str]"]

LAYOUTS = ("inception", "arborator", "flat")
_ALIASES = {"annotator-folders": "arborator"}
#: Users of each layout that are not annotators unless named in ``include``, and what they are.
PSEUDO_USERS: Dict[str, Dict[str, str]] = {
    "inception": {"INITIAL_CAS": "the document as imported, before annotation",
                  "CURATION_USER": "the curated result, curation/"},
    "arborator": {"last": "each sentence's most recent tree, a copy of some user's",
                  "validated": "the validated trees", "base_tree": "the blind-annotation starting trees"},
}
_INCLUDE_NAMES = {"curation": "CURATION_USER"}
_LOOKED_FOR = ("looked for INCEpTION's annotation/DOCUMENT/USER.conllu (a project export with the secondary "
               "format CoNLL-U), Arborator-Grew's USER/SAMPLE.conllu (one folder per annotator, as its "
               "sample export writes) and a flat folder of two or more CoNLL files, one per annotator and text "
               "(NAME-TEXT.conll, SAMPLE.USER.conllu), each possibly under one top folder")


@dataclass(frozen=True)
class ProjectMatch(ItemMatch):
    """:class:`~spacy_agreement.adapters.matching.ItemMatch` of a project export, with its
    ``layout``; its ``notes`` say which pseudo-users were left out and which files not read."""

    layout: str = ""


class _Export:
    """The files of a folder or a ZIP file by path relative to it (``/``-separated; hidden
    files and ``__MACOSX/`` left out), and how to read one."""

    def __init__(self, path: PathLike):
        self.path = os.fspath(path)
        self.zip: Optional[zipfile.ZipFile] = None
        if os.path.isdir(self.path):
            found = [os.path.relpath(os.path.join(d, f), self.path).replace(os.sep, "/")
                     for d, _, files in os.walk(self.path) for f in files]
        elif zipfile.is_zipfile(self.path):
            self.zip = zipfile.ZipFile(self.path)
            found = [n for n in self.zip.namelist() if not n.endswith("/")]
        elif os.path.exists(self.path):
            raise MismatchedCorpusError(f"{self.path}: neither a folder nor a ZIP file; {_LOOKED_FOR}")
        else:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), self.path)
        self.files = sorted(f for f in found
                            if not any(p.startswith(".") or p == "__MACOSX" for p in f.split("/")))
        self.top = ""

    def strip_top(self) -> bool:
        """Look inside the one top folder, if every file is in the same one."""
        tops = {f.split("/", 1)[0] for f in self.files}
        if len(tops) != 1 or any("/" not in f for f in self.files):
            return False
        self.top += tops.pop() + "/"
        self.files = [f.split("/", 1)[1] for f in self.files]
        return True

    def name(self, rel: str) -> str:
        if self.zip is not None:
            return f"{self.path}:{self.top}{rel}"
        return os.path.join(self.path, *(self.top + rel).split("/"))

    def trees(self, rel: str, single_root: bool, stats: ReadStats, cycles: str) -> List[DependencyTree]:
        if self.zip is None:
            with collection_paused():  # many small objects and no cycle among them (_memory)
                return list(iter_conll(self.name(rel), None, single_root, stats, cycles))
        data = self.zip.read(self.top + rel)
        with collection_paused():  # many small objects and no cycle among them (_memory)
            scanned = trees_from_bytes(data, self.name(rel), single_root, cycles, stats)  # the compiled reading
            if scanned is not None:
                return list(scanned)
        try:  # what the scanner leaves: read as open() reads a file (UTF-8, universal newlines), errors named
            return list(iter_conll(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"), self.name(rel),
                                   single_root, stats, cycles))
        except UnicodeDecodeError as exc:  # found again in the whole member, as errors.not_utf8 does in a file
            found = _decode_error(data) or exc
            at = f": byte 0x{data[found.start]:02x} at byte {found.start} of the file" if found is not exc else ""
            raise InvalidTreeError(f"not UTF-8 text ({found.reason}{at})",
                                   Location(self.name(rel), line=data.count(b"\n", 0, found.start) + 1)) from None

    def close(self) -> None:
        if self.zip is not None:
            self.zip.close()


def _decode_error(data: bytes) -> Optional[UnicodeDecodeError]:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc
    return None


def _is_conll(name: str) -> bool:
    return name.lower().endswith(CONLL_SUFFIXES)


def _guess(files: Sequence[str], layouts: Sequence[str]) -> Optional[str]:
    """The first of ``layouts`` the files fit: INCEpTION's folders (or its project file), else
    CoNLL files one folder down (in two folders or more, or with no file beside the one folder:
    a single folder is rather the top folder of a flat one), else two CoNLL files or more at the top."""
    parts = [f.split("/") for f in files]
    for layout in layouts:
        if layout == "inception" and (
                any(len(p) == 3 and p[0] in ("annotation", "annotation_ser", "curation", "curation_ser") for p in parts)
                or any(len(p) == 1 and p[0].startswith("exportedproject") and p[0].endswith(".json") for p in parts)):
            return layout
        folders = {p[0] for p in parts if len(p) == 2 and _is_conll(p[1])}
        if layout == "arborator" and folders and (
                len(folders) > 1 or "flat" not in layouts or any(len(p) != 2 for p in parts)
                or _guess(["/".join(p[1:]) for p in parts], ("flat",)) is None):
            return layout
        if layout == "flat" and sum(len(p) == 1 and _is_conll(p[0]) for p in parts) >= 2:
            return layout
    return None


def _layout_of(export: _Export, layouts: Sequence[str] = LAYOUTS) -> str:
    """The layout of the files, looked for at the top, then inside the one top folder there is."""
    found = _guess(export.files, layouts)
    if found is None and export.strip_top():
        found = _guess(export.files, layouts)
    if found is None:
        shown = ", ".join(export.files[:5]) + (", ..." if len(export.files) > 5 else "")
        what = "a project export" if len(layouts) > 1 else f"a project export of layout {layouts[0]!r}"
        raise MismatchedCorpusError(f"{export.path}: not {what}: {_LOOKED_FOR}; found "
                                    f"{len(export.files)} file(s){': ' + shown if shown else ''}")
    return found


def detect_layout(path: PathLike) -> str:
    """The layout of a project export, a folder or a ``.zip`` file: ``"inception"`` or
    ``"arborator"`` (module docstring); a :class:`MismatchedCorpusError` naming the path and
    the layouts looked for when neither fits."""
    export = _Export(path)
    try:
        return _layout_of(export)
    finally:
        export.close()


def _files(export: _Export, layout: str, keep: set, notes: List[str]) -> Dict[str, Dict[str, str]]:
    """``{document: {annotator: relative path}}`` of the CoNLL files to read, noting the rest."""
    out: Dict[str, Dict[str, str]] = {}
    other: Dict[str, str] = {}  # a document's first annotator file in another format
    left: Dict[str, int] = {}
    ignored: List[str] = []
    pseudo = PSEUDO_USERS[layout]
    for rel in export.files:
        parts = rel.split("/")
        if layout == "inception" and len(parts) == 3 and parts[0] in ("annotation", "curation"):
            folder, doc, base = parts
            user = os.path.splitext(base)[0]
            if folder == "curation" and user != "CURATION_USER":
                user = ""
        elif layout == "arborator" and len(parts) == 2:
            (user, base), doc = parts, os.path.splitext(parts[1])[0]
        else:
            user = ""
        if user in pseudo and user not in keep:
            left[user] = left.get(user, 0) + 1
        elif not user or not _is_conll(base):
            ignored.append(rel)
            if user and layout == "inception":
                other.setdefault(doc, rel)
        elif user in out.setdefault(doc, {}):
            raise MismatchedCorpusError(f"{export.name(out[doc][user])} and {export.name(rel)}: two files of "
                                        f"{user!r} for document {doc!r}")
        else:
            out[doc][user] = rel
    for doc, rel in other.items():
        if not out.get(doc):
            raise MismatchedCorpusError(f"{export.name(rel)}: document {doc!r} is exported as "
                                        f"{os.path.splitext(rel)[1] or 'a file without extension'}, not CoNLL-U: "
                                        "export the project again with the secondary format CoNLL-U")
    for user, count in sorted(left.items()):
        notes.append(f"left out {user} ({pseudo[user]}; {count} file(s)): name it with --include (include= in "
                     "Python) to count it as an annotator")
    if ignored:
        shown = ", ".join(ignored[:3]) + (", ..." if len(ignored) > 3 else "")
        notes.append(f"{len(ignored)} file(s) not read (not CoNLL, or not where annotations are): {shown}")
    return {doc: users for doc, users in out.items() if users}


def _include(include: Sequence[str]) -> set:
    known = {n for users in PSEUDO_USERS.values() for n in users}
    keep = {_INCLUDE_NAMES.get(n, n) for n in include}
    if keep - known:
        raise BadOptionError(f"include: unknown {sorted(keep - known)}: use "
                             f"{', '.join(sorted(known | set(_INCLUDE_NAMES)))}", option="include")
    return keep


def load_project(
    path: PathLike,
    layout: Optional[str] = None,
    include: Sequence[str] = (),
    single_root: bool = False,
    cycles: str = "drop",
    annotator_part: Optional[str] = None,
    name_pattern: Optional[str] = None,
) -> Corpus:
    """The corpus of a project export, a folder or a ``.zip`` file (module docstring): its
    ``layout`` detected unless given (``"inception"``, ``"arborator"``, ``"flat"`` or
    ``"annotator-folders"``); ``include`` names pseudo-users to count as annotators
    (``"INITIAL_CAS"``, ``"curation"``; ``"last"``, ``"validated"``, ``"base_tree"``);
    ``annotator_part`` (``"first"``, ``"last"``) and ``name_pattern`` say how the file names of
    a flat folder read (:mod:`~spacy_agreement.adapters.flat_folder`).
    ``single_root`` and ``cycles`` as in :func:`~spacy_agreement.adapters.conllu.iter_conll`.
    Fewer than two annotators is a :class:`MismatchedCorpusError` naming those found.
    """
    if layout is not None and _ALIASES.get(layout, layout) not in LAYOUTS:
        raise BadOptionError(f"unknown layout {layout!r}: use {', '.join([*LAYOUTS, *_ALIASES])}", option="layout")
    keep = _include(include)
    export = _Export(path)
    try:
        layout = _layout_of(export, (_ALIASES.get(layout, layout),) if layout else LAYOUTS)
        notes: List[str] = []
        if layout == "flat":
            return _flat_corpus(export, notes, single_root, cycles, annotator_part, name_pattern)
        if annotator_part is not None or name_pattern is not None:
            raise BadOptionError(f"{export.path}: annotator_part and name_pattern read the file names of a flat folder "
                                 f"of per-annotator files; this is a project export of layout {layout!r}",
                                 option=("annotator_part", "name_pattern"))
        files = {doc: {user: (export, rel) for user, rel in users.items()}
                 for doc, users in _files(export, layout, keep, notes).items()}
        return _documents_corpus(export.path, files, layout, notes, single_root, cycles)
    finally:
        export.close()


def load_annotator_folders(directories: Sequence[PathLike], single_root: bool = False,
                           cycles: str = "drop") -> Corpus:
    """One folder per annotator (named by the folder) holding CoNLL files of any name: the
    files of one name across folders are one document, its sentences paired as
    :func:`load_project` pairs them (the layout of Arborator-Grew's export, given as the
    annotators' folders). A folder without CoNLL files is an error naming it."""
    names = [os.path.basename(os.path.normpath(os.fspath(d))) for d in directories]
    if len(set(names)) != len(names):
        raise BadOptionError(f"annotator folders must have distinct names, got {names}")
    files: Dict[str, Dict[str, Tuple[_Export, str]]] = {}
    notes: List[str] = []
    exports = [_Export(d) for d in directories]
    try:
        for name, export in zip(names, exports):
            found = [f for f in export.files if "/" not in f and _is_conll(f)]
            if not found:
                raise MismatchedCorpusError(f"{export.path}: no CoNLL file ({'/'.join(CONLL_SUFFIXES)}) in this "
                                            "annotator folder")
            for rel in found:
                files.setdefault(os.path.splitext(rel)[0], {})[name] = (export, rel)
            if len(found) < len(export.files):
                notes.append(f"{export.path}: {len(export.files) - len(found)} file(s) not read (not CoNLL, or in "
                             "a subfolder)")
        return _documents_corpus(", ".join(e.path for e in exports), files, "annotator-folders", notes,
                                 single_root, cycles)
    finally:
        for export in exports:
            export.close()


class _ReadOnce:
    """The files of an export read once, before it is known whose they are (a flat folder):
    ``trees`` gives a file's trees and adds what reading it saw to the annotator's stats."""

    def __init__(self, export: _Export, read: Dict[str, Tuple[List[DependencyTree], ReadStats]]):
        self.export, self.read = export, read

    def trees(self, rel: str, single_root: bool, stats: ReadStats, cycles: str) -> List[DependencyTree]:
        found, seen = self.read[rel]
        for f in fields(ReadStats):
            setattr(stats, f.name, getattr(stats, f.name) + getattr(seen, f.name))
        return found

    def name(self, rel: str) -> str:
        return self.export.name(rel)


def _sentence_key(tree: DependencyTree) -> Optional[str]:
    text = _text(tree)
    if text is not None:
        return text
    sent_id = getattr(tree.location, "sent_id", None)
    return None if sent_id is None else f"\0{sent_id}"


def _flat_corpus(export: _Export, notes: List[str], single_root: bool, cycles: str,
                 annotator_part: Optional[str], name_pattern: Optional[str]) -> Corpus:
    """The corpus of a flat folder (module docstring): every CoNLL file at its top read once,
    placed by :func:`~spacy_agreement.adapters.flat_folder.place_files`, each text a document."""
    rels = [rel for rel in export.files if "/" not in rel and _is_conll(rel)]
    read = {}
    for rel in rels:
        stats = ReadStats()
        read[rel] = (export.trees(rel, single_root, stats, cycles), stats)
    keys = {rel: {k for t in trees if (k := _sentence_key(t)) is not None} for rel, (trees, _) in read.items()}
    stems = {rel: os.path.splitext(rel)[0] for rel in rels}
    where = export.path + (f":{export.top}" if export.zip is not None and export.top else "")
    folder = os.path.basename(os.path.normpath(export.top or export.path))
    if export.zip is not None and not export.top:
        folder = os.path.splitext(folder)[0]
    placed, how = place_files(stems, keys, where, folder, annotator_part, name_pattern)
    once = _ReadOnce(export, read)
    files: Dict[str, Dict[str, Tuple[_ReadOnce, str]]] = {}
    for rel in rels:
        text, annotator = placed[rel]
        if annotator in files.setdefault(text, {}):
            raise MismatchedCorpusError(f"{export.name(files[text][annotator][1])} and {export.name(rel)}: two files "
                                        f"of annotator {annotator!r} for text {text!r}")
        files[text][annotator] = (once, rel)
    annotators = sorted({a for users in files.values() for a in users})
    notes.append(f"flat folder: {len(rels)} file(s) read as {len(files)} text(s) ({', '.join(sorted(files, key=_natural))}) "
                 f"by {len(annotators)} annotator(s) ({', '.join(annotators)}); {how}")
    ignored = [f for f in export.files if f not in read]
    if ignored:
        shown = ", ".join(ignored[:3]) + (", ..." if len(ignored) > 3 else "")
        notes.append(f"{len(ignored)} file(s) not read (not CoNLL, or in a subfolder): {shown}")
    return _documents_corpus(where, files, "flat", notes, single_root, cycles)  # type: ignore[arg-type]


def _documents_corpus(where: str, files: Dict[str, Dict[str, Tuple[_Export, str]]], layout: str,
                      notes: List[str], single_root: bool, cycles: str) -> Corpus:
    """The corpus of ``{document: {annotator: (export, file)}}``: each document's sentences
    paired by :func:`~spacy_agreement.adapters.matching.match_items`, documents in natural order."""
    names = sorted({n for users in files.values() for n in users})
    if len(names) < 2:
        raise MismatchedCorpusError(
            f"{where}: {len(names)} annotator(s) found ({', '.join(names) or 'none'}): at least two are "
            f"needed to measure agreement" + "".join(f"; {n}" for n in notes if n.startswith("left out")))
    stats = {n: ReadStats() for n in names}

    def document(doc: str):  # type: ignore[no-untyped-def]
        users = files[doc]
        return (doc, sorted(users), lambda n: users[n][0].trees(users[n][1], single_root, stats[n], cycles),
                lambda n: users[n][0].name(users[n][1]))

    items, item_names, how = match_documents((document(d) for d in sorted(files, key=_natural)), names, stats, notes)
    return Corpus(tuple(names), items, item_names, "dependency", stats,
                  matched_by=ProjectMatch(how.rule, how.missing, how.notes, how.resegmented, layout=layout))


__all__ = ["LAYOUTS", "PSEUDO_USERS", "ProjectMatch", "detect_layout", "load_annotator_folders", "load_project"]
