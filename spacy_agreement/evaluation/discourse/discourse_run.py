"""``spacy-agreement discourse`` as one function: :func:`discourse` measures agreement on
discourse arrows (Mírovský, Mladová & Zikánová 2010) between the annotators of one text or of
several, from files or from documents already read, and returns a :class:`DiscourseRun` that
carries its settings (:class:`~spacy_agreement.DiscourseSettings`) and
signature; its :meth:`~DiscourseRun.to_dict` is what ``discourse --json`` prints.

The measures (strict §3.1, skip §3.2, connective §3.3) are
:func:`~spacy_agreement.evaluation.discourse.arrows.discourse_agreement` (one text) and
:func:`~spacy_agreement.evaluation.discourse.arrows.corpus_agreement` (several, each pair's counts
pooled), which keep their signatures.
"""
from __future__ import annotations

import os
import warnings
from typing import Any, Dict, List, Optional, Sequence, Union

from ..command_results import CommandRun, html_table, json_safe, percent_text, resolve_settings
from .arrows import CorpusAgreement, DiscourseAgreement, corpus_agreement, discourse_agreement, load_discourse, \
    merge_documents
from .model import MEASURES, DiscourseDocument
from ..settings import DiscourseSettings

PathLike = Union[str, "os.PathLike[str]"]


def reader_for(path: PathLike, reader: Optional[str]) -> str:
    """``reader``, or the one the file's name calls for (``discourse`` for JSON and anything else)."""
    if reader:
        return reader
    name = os.fspath(path)
    if name.endswith(".tag"):
        return "dtag-discourse"
    if name.endswith(".t") or name.endswith(".t.gz"):
        return "pml-discourse"
    return "discourse"


def texts_of(files: Sequence[Any], reader: Optional[str]) -> Dict[str, DiscourseDocument]:
    """The files read and merged per text (JSON files are one text, as before); documents given
    in Python (a :class:`~spacy_agreement.evaluation.discourse.model.DiscourseDocument`, or a
    spaCy ``Doc`` carrying relations) are merged per text too."""
    groups: Dict[str, List[DiscourseDocument]] = {}
    for item in files:
        if isinstance(item, (str, os.PathLike)):
            chosen = reader_for(item, reader)
            document = load_discourse(item, chosen)
            key = "" if chosen == "discourse" else document.text
        else:
            document = _document(item)
            key = document.text or document.source
        groups.setdefault(key, []).append(document)
    return {key or docs[0].source: merge_documents(docs) for key, docs in groups.items()}


def _document(item: Any) -> DiscourseDocument:
    if isinstance(item, DiscourseDocument):
        return item
    if type(item).__module__.startswith("spacy"):
        from .arrows import document_from_doc

        return document_from_doc(item)
    raise TypeError(f"discourse takes files, DiscourseDocuments or spaCy Docs, not {type(item).__name__}")


def discourse_settings(settings: Union[None, str, DiscourseSettings] = None, skip_both_ends: bool = False,
                       ranges: str = "exact", text_connectives: str = "sentences", lists: bool = False,
                       skip_empty: bool = False) -> DiscourseSettings:
    """The settings of one call: the options, and ``settings`` (settings, or a signature given
    back) as ``--signature`` applies them."""
    built = DiscourseSettings(skip_both_ends=skip_both_ends, ranges=ranges, text_connectives=text_connectives,
                              lists=lists, skip_empty=skip_empty)
    return resolve_settings(settings, built)


class DiscourseRun(CommandRun):
    """One ``discourse`` run: :attr:`agreement` (one text's
    :class:`~spacy_agreement.evaluation.discourse.arrows.DiscourseAgreement`, or several texts'
    :class:`~spacy_agreement.evaluation.discourse.arrows.CorpusAgreement`, whose attributes this
    object also answers: ``means()``, ``pairs``, ``confusion()``, ...) and the settings it ran
    with (:attr:`settings`). :meth:`to_dict` is ``discourse --json``."""

    WRAPS = "agreement"

    def __init__(self, agreement: Union[DiscourseAgreement, CorpusAgreement], settings: DiscourseSettings):
        self.agreement, self.settings = agreement, settings


    @property
    def corpus(self) -> bool:
        """Whether several texts were compared (:class:`~spacy_agreement.evaluation.discourse.arrows.CorpusAgreement`)."""
        return isinstance(self.agreement, CorpusAgreement)

    def to_dict(self) -> Dict[str, Any]:
        """What ``discourse --json`` prints (an undefined figure is None, JSON's null)."""
        return json_safe({**self.agreement.to_dict(), "signature": self.signature})

    def _means(self) -> Dict[str, Dict[str, float]]:
        with warnings.catch_warnings():  # an undefined figure is said where it is computed, not in a repr
            warnings.simplefilter("ignore")
            return self.agreement.means()

    def _pairs(self) -> int:
        return len(self.agreement.pooled()) if self.corpus else len(self.agreement.pairs)

    @property
    def score(self) -> float:
        """The headline figure: F1 on relations under strict agreement (Mírovský et al. 2010, §3.1),
        a fraction (``nan`` when undefined)."""
        value = self.to_dict()["strict"]["f1_relations"]
        return float("nan") if value is None else float(value)

    def __repr__(self) -> str:
        means = self._means()
        figures = ", ".join(f"{m} {percent_text(means[m]['f1_relations'])}" for m in MEASURES)
        texts = f", {len(self.agreement.texts)} texts" if self.corpus else ""
        return f"DiscourseRun(F1 on relations: {figures}; {self._pairs()} pair(s){texts}; {self.signature})"

    def _headline_html(self) -> str:
        means = self._means()
        rows = [("(%)", " / ".join(MEASURES))]
        keys = (("F1 on relations", "f1_relations", "f1_relations"), ("F1 on relations + types", "f1_types", "f1_types"),
                ("agreement on types", "agreement_types", "agreement_types"),
                ("Cohen's kappa on types", "kappa_types", "kappa_types"))
        for label, key, conn_key in keys:
            rows.append((label, " / ".join(percent_text(means[m][conn_key if m == "connective" else key])
                                           for m in MEASURES)))
        texts = f", {len(self.agreement.texts)} texts" if self.corpus else ""
        return html_table(f"discourse agreement: {self._pairs()} pair(s) of annotators{texts}", rows, self.signature)


def discourse(*annotators: Union[PathLike, DiscourseDocument, Any, Sequence[Any]],
              settings: Union[None, str, DiscourseSettings] = None, signature: Optional[str] = None,
              reader: Optional[str] = None,
              skip_both_ends: bool = False, ranges: str = "exact", text_connectives: str = "sentences",
              lists: bool = False, skip_empty: bool = False) -> DiscourseRun:
    """``spacy-agreement discourse FILES...``: agreement on discourse arrows (Mírovský, Mladová &
    Zikánová 2010): strict (§3.1, Table 1), one-level skipping (§3.2, Table 2) and
    connective-based (§3.3, Table 3), F1, agreement and Cohen's κ on types, for every pair of
    annotators and their means.

    ``annotators``: a file or several, each its own argument (``.json`` the interchange format, one file may hold every
    annotator; a DTAG ``.tag`` or PML ``.t``/``.t.gz`` file per annotator; ``reader`` chooses
    the document reader of every file, by default by suffix), or documents already read
    (:class:`~spacy_agreement.evaluation.discourse.model.DiscourseDocument`, spaCy ``Doc``\\ s
    carrying relations). Files of one text are compared together; files of several texts give
    each text's figures and the corpus's, each annotator pair's counts pooled.
    ``skip_both_ends`` allows a one-level skip at both ends at once; ``ranges`` ``"exact"`` or
    ``"node"``; ``text_connectives`` ``"sentences"`` or ``"aside"``; ``lists`` scores PML list
    links; ``skip_empty`` leaves out annotator files without any discourse link. ``settings``: a
    :class:`~spacy_agreement.DiscourseSettings` or a signature given back
    (``--signature``).

    Parameters
    ----------
    *annotators
        The annotators' files (or one file holding them all), each its own argument, or documents
        already read (0.3's one list still works, with a ``DeprecationWarning``).
    settings
        A settings object of the command (keyword-only), whose fields an option given otherwise than
        by default must not contradict (an error naming the option).
    signature
        A signature given back (as ``--signature``: the signature, or a saved ``--json`` output).
    **options
        The command's long options (``-`` as ``_``) with its defaults (see above).

    Returns
    -------
    DiscourseRun
        Strict, one-level-skip and connective-based agreement per annotator pair and their means;
        ``.score`` is F1 on relations under strict agreement, ``str()`` the command's text,
        ``to_dict()`` its ``--json``.

    Raises
    ------
    spacy_agreement.DiscourseError
        Malformed discourse annotation: an unknown node, a missing connective, different documents.
    spacy_agreement.EmptyInputError
        An empty file.

    Examples
    --------
    >>> import json, os, tempfile
    >>> import spacy_agreement as sa
    >>> document = {"sentences": [{"tokens": ["It", "rained", "."], "heads": [2, 0, 2]},
    ...                           {"tokens": ["So", "we", "stayed", "."], "heads": [3, 3, 0, 3]}],
    ...             "annotators": {name: [{"start": [1, 3], "target": [0, 2], "connective": [[1, 1]],
    ...                                    "type": "reason"}] for name in ("A", "B")}}
    >>> path = os.path.join(tempfile.mkdtemp(), "two.json")
    >>> _ = open(path, "w").write(json.dumps(document))
    >>> sa.discourse(path).score
    1.0
    """
    from ..._calling import deprecated, looks_like_signature, positional_settings

    given = list(annotators)
    if not given:
        raise TypeError("discourse() needs the annotators' files or documents: discourse(a, b, ...)")
    if len(given) > 1 and (isinstance(given[-1], DiscourseSettings) or looks_like_signature(given[-1])):
        deprecated("discourse(files, settings) with the settings positionally", "discourse(..., settings=...)")
        if settings is not None or signature is not None:
            raise TypeError("discourse() got settings positionally and as a keyword: give settings= alone")
        settings = given.pop()
    if len(given) == 1 and isinstance(given[0], Sequence) and not isinstance(given[0], (str, os.PathLike)):
        deprecated("discourse([a, b, ...]) with the files in one list", "discourse(a, b, ...)")
        given = list(given[0])
    settings = positional_settings("discourse", (), settings, signature, DiscourseSettings)
    from ...adapters.objects import check_not_empty

    for k, item in enumerate(given, start=1):
        if isinstance(item, (str, os.PathLike)):
            check_not_empty(item, f"annotator {k}")
    chosen = discourse_settings(settings, skip_both_ends, ranges, text_connectives, lists, skip_empty)
    items = given
    texts = texts_of(items, reader)
    if len(texts) == 1:
        (document,) = texts.values()
        return DiscourseRun(discourse_agreement(document, settings=chosen), chosen)
    return DiscourseRun(corpus_agreement(sorted(texts.items()), chosen), chosen)


__all__ = ["DiscourseRun", "discourse", "discourse_settings", "reader_for", "texts_of"]
