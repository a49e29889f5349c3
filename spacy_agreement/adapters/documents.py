"""The readers of documents that are not corpora of trees, as one registry
(:data:`DOCUMENT_READERS`, a :class:`~spacy_agreement.registry.Registry`): what each input of
``judgments``, ``discourse`` and ``evalb`` is read with. Built in: ``judgments`` (JSON Lines or
the Plank et al. 2015 release folder: :func:`~.judgments_files.read_judgment_records`),
``discourse`` (the discourse JSON: :func:`~.discourse_files.read_discourse_file`) and
``evalb-lines`` (one tree a line as EVALB reads them: :func:`~.evalb_files.file_lines`). A
reader registered under another name is chosen with the ``reader`` argument of
:func:`~spacy_agreement.evaluation.judgments.analysis.load_judgments`,
:func:`~spacy_agreement.evaluation.discourse.arrows.load_discourse` and
:func:`~spacy_agreement.evaluation.constituency.evalb.evaluate_files`; it returns what the built-in one
of that kind returns. Tree corpora have their own registry,
:data:`~spacy_agreement.adapters.files.READERS`."""
from __future__ import annotations

from typing import Any, Callable

from .._lazy import deferred
from ..registry import Registry

DocumentReader = Callable[..., Any]

#: Readers of documents by name (module docstring), each module imported when its reader is first
#: called (the evalb command imports no discourse reader).
DOCUMENT_READERS: Registry = Registry("document reader", dashes=True)
DOCUMENT_READERS.register("judgments", deferred(".judgments_files", "read_judgment_records", __package__), builtin=True)
DOCUMENT_READERS.register("discourse", deferred(".discourse_files", "read_discourse_file", __package__), builtin=True)
DOCUMENT_READERS.register("evalb-lines", deferred(".evalb_files", "file_lines", __package__), builtin=True)
DOCUMENT_READERS.register("dtag-discourse", deferred(".dtag_discourse", "read_dtag_discourse", __package__),
                          builtin=True)  # CDT's discourse files
DOCUMENT_READERS.register("pml-discourse", deferred(".pml_discourse", "read_pml_discourse", __package__),
                          builtin=True)  # PDT's PML t-files


def register_document_reader(name: str, read: DocumentReader) -> DocumentReader:
    """Add a document reader (module docstring); the name's rules are the registry's."""
    return DOCUMENT_READERS.register(name, read)


def read_document(reader: str, path: Any, **options: Any) -> Any:
    """``path`` read by the registered document reader ``reader``."""
    return DOCUMENT_READERS.get(reader)(path, **options)


__all__ = ["DOCUMENT_READERS", "read_document", "register_document_reader"]
