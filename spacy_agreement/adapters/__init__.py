"""Adapters: they only convert outside formats into the compact trees of
:mod:`spacy_agreement.trees`; no metric knows where a tree came from. The input formats of
files are a registry (:data:`~spacy_agreement.adapters.files.READERS`): :mod:`.files` registers
the four built-in ones, ``conll``, ``bracket``, ``spacy`` (read by :mod:`.docbin`) and ``perseus``
(Perseus / Arethusa treebank XML, read by :mod:`.perseus_xml`), the last two imported when first
called, so every built-in reader is there whichever adapter is imported first.
:func:`~.annotations.load_annotations` reads every annotator input the tools write (parallel
files, annotator folders, project exports as folders or ZIPs, flat folders of per-annotator
files of several texts, Prodigy JSONL, multi-user CoNLL-U, DocBins), each a source registered in
:data:`~.annotations.ANNOTATION_SOURCES`, tried in order. CoNLL-U (and CoNLL-X) is read in
:mod:`.conllu`: as trees, as the token and word columns of the CoNLL 2018 alignment, and by the
compiled scanner."""
from .._moved import install as _install_moved

# 0.3's module paths here (``adapters.conll``, ...) resolve from the moment the package is imported,
# before ``spacy_agreement`` itself is done importing (docs: Renamed between versions)
_install_moved()

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

#: every public name -> its module, imported on first use (PEP 562): reading one format does not
#: import the others
_EXPORTS = {
    "from_nltk": ".brackets",
    "from_nltk_trees": ".brackets",
    "parse_brackets": ".brackets",
    "read_brackets": ".brackets",
    "to_nltk": ".brackets",
    "ReadStats": ".conllu",
    "from_conllu": ".conllu",
    "iter_conll": ".conllu",
    "parse_conll": ".conllu",
    "read_conll": ".conllu",
    "write_conll": ".conllu",
    "READERS": ".files",
    "Reader": ".files",
    "guess_format": ".files",
    "load_annotator_dirs": ".files",
    "load_parallel_files": ".files",
    "read_trees": ".files",
    "reader_names": ".files",
    "register_reader": ".files",
    "unregister_reader": ".files",
    "load_docbin": ".docbin",
    "read_perseus": ".perseus_xml",
    "DOCUMENT_READERS": ".documents",
    "read_document": ".documents",
    "register_document_reader": ".documents",
    "from_dependency_graph": ".nltk_graph",
    "to_dependency_graph": ".nltk_graph",
    "load_multi_user": ".multi_user",
    "load_prodigy": ".prodigy",
    "load_annotator_folders": ".projects",
    "load_project": ".projects",
    "ANNOTATION_SOURCES": ".annotations",
    "AnnotationSource": ".annotations",
    "LoadOptions": ".annotations",
    "load_annotations": ".annotations",
    "register_annotation_source": ".annotations",
    "unregister_annotation_source": ".annotations",
    "from_doc": ".spacy",
    "from_span": ".spacy",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # the same names for type checkers and the API reference (griffe), which read imports
    from .brackets import from_nltk, from_nltk_trees, parse_brackets, read_brackets, to_nltk
    from .conllu import ReadStats, from_conllu, iter_conll, parse_conll, read_conll, write_conll
    from .files import (READERS, Reader, guess_format, load_annotator_dirs, load_parallel_files, read_trees,
        reader_names, register_reader, unregister_reader)
    from .docbin import load_docbin
    from .perseus_xml import read_perseus
    from .documents import DOCUMENT_READERS, read_document, register_document_reader
    from .nltk_graph import from_dependency_graph, to_dependency_graph
    from .multi_user import load_multi_user
    from .prodigy import load_prodigy
    from .projects import load_annotator_folders, load_project
    from .annotations import (ANNOTATION_SOURCES, AnnotationSource, LoadOptions, load_annotations,
        register_annotation_source, unregister_annotation_source)
    from .spacy import from_doc, from_span


__all__ = [
    "ANNOTATION_SOURCES",
    "AnnotationSource",
    "DOCUMENT_READERS",
    "READERS",
    "ReadStats",
    "Reader",
    "from_conllu",
    "from_dependency_graph",
    "from_doc",
    "from_nltk",
    "from_nltk_trees",
    "from_span",
    "LoadOptions",
    "guess_format",
    "iter_conll",
    "load_annotations",
    "load_annotator_dirs",
    "load_annotator_folders",
    "load_docbin",
    "load_multi_user",
    "load_parallel_files",
    "load_prodigy",
    "load_project",
    "parse_brackets",
    "parse_conll",
    "read_brackets",
    "read_document",
    "read_conll",
    "read_perseus",
    "read_trees",
    "reader_names",
    "register_annotation_source",
    "register_document_reader",
    "register_reader",
    "to_dependency_graph",
    "to_nltk",
    "unregister_annotation_source",
    "unregister_reader",
    "write_conll",
]
