"""spaCy ``DocBin`` files (``.spacy``) as input: a spaCy team needs no CoNLL export.

Two ways to hold several analyses of the same docs:

* **one file per annotator** (:func:`load_docbin_files`; like one CoNLL file per annotator):
  the files hold the same docs in the same order, and each doc's current parse is that
  file's analysis. Every file must hold as many docs as the others, and doc ``d`` as many
  tokens in every file (:class:`~spacy_agreement.errors.MismatchedCorpusError` otherwise).
* **one file holding several analyses per doc** (:func:`load_docbin_analyses`), stored by
  the ``analysis_snapshot`` component (``doc._.analyses[key] = (heads, labels)``, heads as
  absolute token indices; a ``DocBin`` keeps them only when saved with
  ``DocBin(store_user_data=True)``). The annotators are the stored keys, in the order they
  first appear, and the doc's current parse as ``"current"`` (``"current parse"`` where a
  key is named ``current``) -- unless it is a copy of one stored analysis: when some key
  holds exactly the current parse in every doc that has one (a snapshot taken after the last
  parser), the current parse is left out, for counted twice it would agree with itself.
  ``include_current`` decides otherwise.

The items are sentences, named ``doc D sentence S``. Analyses of one doc may split it into
sentences differently (sentence boundaries come from the parse in spaCy), so the sentences of
a doc are the same for every annotator: the finest split that no arc of any analysis of the
doc crosses. Where all analyses agree on the sentences (the usual case) these are spaCy's
``doc.sents``; where one parser joins what another splits, the item is the joined stretch,
with two roots in the splitting analysis. Each tree's
:class:`~spacy_agreement.errors.Location` names the file and the doc
(``"a.spacy, doc 3"``) and the sentence in the doc: errors read
``a.spacy, doc 3: sentence 2, token 4: message``.

A doc without a parse (``doc.has_annotation("DEP")`` false; for stored analyses, a doc
lacking the key) is a missing annotation of each of its sentences, counted in the
annotator's :attr:`~spacy_agreement.corpus.ReadStats.failed_parses` (a doc that no
annotator parsed gives no item). A file that is not a ``DocBin``, holds no docs, or whose
docs have no analysis at all is an :class:`~spacy_agreement.errors.InvalidTreeError` naming
the file, on one line.

The ``spacy`` reader, registered by this module (:func:`read_docbin`, in
:data:`~spacy_agreement.adapters.files.READERS`), gives the trees of one file's current parses in
order, for what reads one file at a time through the registry
(:func:`~spacy_agreement.adapters.files.read_trees`, annotator directories with ``--dirs``):
there each doc is split by its own parse, and a doc without a parse is one
missing sentence per ``doc.sents`` when it has sentence boundaries, else one. The CLI's
``alpha`` and ``report`` read ``.spacy`` files with :func:`load_docbin`: one file is
:func:`load_docbin_analyses`, several are :func:`load_docbin_files`.

spaCy is imported only when a file is read (sniffing a file's format needs only ``zlib``).
"""
from __future__ import annotations

import os
import zlib
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..corpus import Corpus, ReadStats, Tree
from ..errors import BadOptionError, InvalidTreeError, Location, MismatchedCorpusError
from .matching import ItemMatch
from .files import DOCBIN_SUFFIXES, annotator_names, check_parallel_paths, check_same_lengths
from .spacy import doc_analysis, doc_tree

PathLike = Union[str, "os.PathLike[str]"]
#: ``(heads, labels)`` of every token of a doc, heads as absolute token indices.
Analysis = Tuple[np.ndarray, Tuple[str, ...]]

#: Where ``doc._.analyses`` lives in ``doc.user_data`` (what ``DocBin(store_user_data=True)`` saves).
ANALYSES_KEY = ("._.", "analyses", None, None)
CURRENT = "current"


# --------------------------------------------------------------------------- the file


def looks_like_docbin(path: PathLike) -> bool:
    """Whether the file starts as a ``DocBin`` does: zlib-compressed msgpack of a map whose
    first key is ``version`` (or ``attrs``). Reads a few hundred bytes; no spaCy."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(512)
    except OSError:
        return False
    if len(head) < 2 or head[0] & 0x0F != 8 or (head[0] * 256 + head[1]) % 31:
        return False  # not a zlib header
    try:
        start = zlib.decompressobj().decompress(head, 32)
    except zlib.error:
        return False
    return bool(start) and 0x80 <= start[0] <= 0x8F and (b"version" in start or b"attrs" in start)


def sniff_docbin(path: PathLike) -> bool:
    """The ``spacy`` reader's sniff: a ``DocBin`` by content, or any file named ``*.spacy``
    (so that reading one that is not a ``DocBin`` says so)."""
    return os.fspath(path).lower().endswith(DOCBIN_SUFFIXES) or looks_like_docbin(path)


def read_docs(path: PathLike) -> List[Any]:
    """The docs of a ``DocBin`` file, with their user data (stored analyses). A file that is
    not a ``DocBin``, or holds no doc, is an :class:`InvalidTreeError` naming it."""
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    with open(path, "rb") as handle:  # a missing or unreadable file is the OSError it is
        data = handle.read()
    where = Location(os.fspath(path))
    try:
        docs = list(DocBin(store_user_data=True).from_bytes(data).get_docs(Vocab()))
    except Exception as exc:  # zlib, msgpack, spaCy: whatever garbage raises
        if isinstance(exc, (MemoryError, RecursionError)):
            raise
        raise InvalidTreeError("not a spaCy DocBin file (.spacy: zlib-compressed msgpack as DocBin.to_disk "
                               f"writes); {type(exc).__name__} reading it", where) from None
    if not docs:
        raise InvalidTreeError("the DocBin holds no docs", where)
    return docs


# --------------------------------------------------------------------------- analyses of a doc


def current_analysis(doc) -> Optional[Analysis]:
    """The doc's current parse as ``(heads, labels)``; ``None`` without one (no DEP annotation)."""
    if not len(doc) or not doc.has_annotation("DEP"):
        return None
    return doc_analysis(doc)


def stored_analyses(doc, where: Location) -> Dict[str, Analysis]:
    """The analyses stored on a doc (``doc._.analyses``, read from its user data, so the
    extension need not be registered), checked: one head and one label per token, heads
    token indices of the doc."""
    stored = doc.user_data.get(ANALYSES_KEY) if doc.user_data else None
    if not stored:
        return {}
    if not isinstance(stored, dict):
        raise InvalidTreeError(f"doc._.analyses is a {type(stored).__name__}, not a dict of (heads, labels)", where)
    n = len(doc)
    out: Dict[str, Analysis] = {}
    for key, value in stored.items():
        try:
            heads_in, labels_in = value
            heads = np.asarray(heads_in, dtype=np.int64).reshape(-1)
            labels = tuple(str(label) for label in labels_in)
        except (TypeError, ValueError):
            raise InvalidTreeError(f"stored analysis {key!r} is not a pair (heads, labels)", where) from None
        if len(heads) != n or len(labels) != n:
            raise InvalidTreeError(f"stored analysis {key!r} has {len(heads)} heads and {len(labels)} labels for "
                                   f"{n} tokens", where)
        bad = np.flatnonzero((heads < 0) | (heads >= n))
        if bad.size:
            raise InvalidTreeError(f"stored analysis {key!r}: head {int(heads[bad[0]])} is not a token of the doc "
                                   f"(0..{n - 1})", where.at_token(int(bad[0]) + 1))
        out[str(key)] = (heads, labels)
    return out


def sentence_spans(n: int, heads: Sequence[Any]) -> List[Tuple[int, int]]:
    """``(start, end)`` of the sentences of a doc of ``n`` tokens under some analyses (each
    an array of absolute heads): the finest split into stretches that no arc of any analysis
    crosses. For one projective parse these are spaCy's ``doc.sents``."""
    if n == 0:
        return []
    blocked = np.zeros(n + 2, dtype=np.int64)  # blocked[b] > 0: an arc crosses the boundary before token b
    tokens = np.arange(n)
    for analysis_heads in heads:
        h = np.asarray(analysis_heads, dtype=np.int64)
        np.add.at(blocked, np.minimum(tokens, h) + 1, 1)
        np.add.at(blocked, np.maximum(tokens, h) + 1, -1)
    cover = np.cumsum(blocked)
    starts = [0] + [int(b) for b in np.flatnonzero(cover[1:n] == 0) + 1]
    return list(zip(starts, starts[1:] + [n]))


def _analyses_equal(a: Analysis, b: Analysis) -> bool:
    return len(a[0]) == len(b[0]) and bool(np.array_equal(a[0], b[0])) and tuple(a[1]) == tuple(b[1])


def _tree(doc, span: Tuple[int, int], analysis: Analysis, location: Location, single_root: bool,
          cycles: str) -> Tree:
    tree, _ = doc_tree(doc, span[0], span[1], analysis, location=location, heads_outside="root",
                       single_root=single_root)
    if cycles == "raise" and tree.unreachable_tokens().size:
        raise tree.cycle_error()
    return tree


def _check_cycles(cycles: str) -> None:
    if cycles not in ("drop", "raise"):
        raise ValueError(f"cycles must be 'drop' or 'raise', not {cycles!r}")


def _doc_items(d: int, docs: Dict[str, Any], analyses: Dict[str, Optional[Analysis]], sources: Dict[str, str],
               stats: Dict[str, ReadStats], single_root: bool, cycles: str,
               items: List[Dict[str, Tree]], names: List[str]) -> None:
    """Append the items (sentences) of doc ``d`` under every annotator's analysis (``None``:
    none, a missing annotation of each sentence, counted)."""
    present = {name: a for name, a in analyses.items() if a is not None}
    if not present:
        return
    n = len(next(iter(docs.values())))
    for k, span in enumerate(sentence_spans(n, [a[0] for a in present.values()]), start=1):
        item: Dict[str, Tree] = {}
        for name, analysis in analyses.items():
            if analysis is None:
                stats[name].failed_parses += 1
                continue
            item[name] = _tree(docs[name], span, analysis, Location(f"{sources[name]}, doc {d}", k), single_root,
                               cycles)
            stats[name].sentences += 1
        items.append(item)
        names.append(f"doc {d} sentence {k}")


# --------------------------------------------------------------------------- loaders


def load_docbin_analyses(path: PathLike, single_root: bool = False, cycles: str = "drop",
                         include_current: Optional[bool] = None) -> Corpus:
    """A corpus from ONE ``.spacy`` file holding several analyses per doc (see the module
    docstring): the annotators are the stored keys and, with ``include_current=None``, the
    current parse as ``"current"`` unless a key holds a copy of it in every doc; ``True`` or
    ``False`` includes or leaves out the current parse regardless. ``cycles="raise"`` makes
    head cycles errors, as in :func:`~spacy_agreement.adapters.files.load_parallel_files`.
    Fewer than two analyses is a :class:`BadOptionError` naming the file."""
    _check_cycles(cycles)
    source = os.fspath(path)
    docs = read_docs(path)
    stored: List[Dict[str, Analysis]] = []
    current: List[Optional[Analysis]] = []
    keys: List[str] = []
    for d, doc in enumerate(docs, start=1):
        stored.append(stored_analyses(doc, Location(f"{source}, doc {d}")))
        current.append(current_analysis(doc))
        keys.extend(k for k in stored[-1] if k not in keys)
    if not keys:
        parsed = sum(c is not None for c in current)
        raise InvalidTreeError(
            f"no analyses stored in doc._.analyses ({parsed} of {len(docs)} docs have a current parse): save the "
            "DocBin with store_user_data=True after the analysis_snapshot component(s), or give one .spacy file "
            "per annotator", Location(source))
    with_parse = [(s, c) for s, c in zip(stored, current) if c is not None]
    copies = [k for k in keys if with_parse and all(k in s and _analyses_equal(s[k], c) for s, c in with_parse)]
    if include_current is None:
        include_current = not copies
    include_current = include_current and bool(with_parse)
    current_name = CURRENT if CURRENT not in keys else "current parse"
    annotators = keys + ([current_name] if include_current else [])
    if len(annotators) < 2:
        why = (f"; the current parse is a copy of {copies[0]!r}" if copies else
               "; no doc has a current parse" if not with_parse else "")
        raise BadOptionError(f"one analysis ({annotators[0]!r}{why}): at least two are needed to measure agreement",
                             Location(source))
    stats = {name: ReadStats() for name in annotators}
    items: List[Dict[str, Tree]] = []
    names: List[str] = []
    for d, (doc, s, c) in enumerate(zip(docs, stored, current), start=1):
        analyses: Dict[str, Optional[Analysis]] = {k: s.get(k) for k in keys}
        if include_current:
            analyses[current_name] = c
        _doc_items(d, {name: doc for name in annotators}, analyses, {name: source for name in annotators}, stats,
                   single_root, cycles, items, names)
    # the analyses stored on one doc: the same sentences by construction, paired in order
    return Corpus(tuple(annotators), items, names, "dependency", stats, matched_by=ItemMatch("position"))


def load_docbin_files(paths: Sequence[PathLike], annotators: Optional[Sequence[str]] = None,
                      single_root: bool = False, cycles: str = "drop", allow_duplicates: bool = False) -> Corpus:
    """A corpus from one ``.spacy`` file per annotator (see the module docstring): annotators
    are named by the file names without extension unless given; the same file twice is an
    error unless ``allow_duplicates`` (as in :func:`~spacy_agreement.adapters.files.load_parallel_files`).
    A file in which no doc has a parse is an :class:`InvalidTreeError` naming it. The files
    are paired as :func:`~spacy_agreement.adapters.files.load_parallel_files` pairs them (the
    same checks and annotator names); the items are the sentences of each doc (module docstring)."""
    _check_cycles(cycles)
    check_parallel_paths(paths, allow_duplicates)
    sources = [os.fspath(p) for p in paths]
    names = annotator_names(paths, annotators)
    columns = [read_docs(p) for p in paths]
    check_same_lengths(paths, columns, "docs")
    parses: List[List[Optional[Analysis]]] = []
    for source, column in zip(sources, columns):
        parses.append([current_analysis(doc) for doc in column])
        if all(p is None for p in parses[-1]):
            raise InvalidTreeError(f"no doc has a dependency parse (doc.has_annotation('DEP') is false for all "
                                   f"{len(column)})", Location(source))
    stats = {name: ReadStats() for name in names}
    items: List[Dict[str, Tree]] = []
    item_names: List[str] = []
    for d in range(len(columns[0])):
        docs = {name: column[d] for name, column in zip(names, columns)}
        lengths = {source: len(column[d]) for source, column in zip(sources, columns)}
        if len(set(lengths.values())) > 1:
            detail = ", ".join(f"{source}: {n}" for source, n in lengths.items())
            raise MismatchedCorpusError(f"doc {d + 1} has different numbers of tokens ({detail})")
        analyses = {name: parse[d] for name, parse in zip(names, parses)}
        _doc_items(d + 1, docs, analyses, dict(zip(names, sources)), stats, single_root, cycles, items, item_names)
    # docs paired by position, checked to have the same tokens (a DocBin has no sent_ids)
    return Corpus(tuple(names), items, item_names, "dependency", stats, matched_by=ItemMatch("position"))


def load_docbin(paths: Sequence[PathLike], single_root: bool = False, cycles: str = "drop",
                allow_duplicates: bool = False) -> Corpus:
    """``.spacy`` input of ``alpha`` and ``report``: one file holds several analyses per doc
    (:func:`load_docbin_analyses`), several are one annotator each (:func:`load_docbin_files`)."""
    if len(paths) == 1:
        return load_docbin_analyses(paths[0], single_root=single_root, cycles=cycles)
    return load_docbin_files(paths, single_root=single_root, cycles=cycles, allow_duplicates=allow_duplicates)


# --------------------------------------------------------------------------- the registered reader


def read_docbin(path: PathLike, *, single_root: bool = False, stats: Optional[ReadStats] = None,
                cycles: str = "drop", **_: Any) -> List[Optional[Tree]]:
    """The ``spacy`` reader of the registry: the trees of the docs' current parses, sentence by
    sentence (each doc split by its own parse, :func:`sentence_spans`); a doc without a parse
    is ``None`` (a missing annotation) for each of its ``doc.sents`` when it has sentence
    boundaries, else one ``None``. A file in which no doc has a parse is an error."""
    _check_cycles(cycles)
    source = os.fspath(path)
    docs = read_docs(path)
    trees: List[Optional[Tree]] = []
    parsed = 0
    for d, doc in enumerate(docs, start=1):
        if not len(doc):
            continue
        analysis = current_analysis(doc)
        if analysis is None:
            trees.extend([None] * (len(list(doc.sents)) if doc.has_annotation("SENT_START") else 1))
            continue
        parsed += 1
        for k, span in enumerate(sentence_spans(len(doc), [analysis[0]]), start=1):
            trees.append(_tree(doc, span, analysis, Location(f"{source}, doc {d}", k), single_root, cycles))
            if stats is not None:
                stats.sentences += 1
    if not parsed:
        raise InvalidTreeError(f"no doc has a dependency parse (doc.has_annotation('DEP') is false for all "
                               f"{len(docs)})", Location(source))
    return trees


# the ``spacy`` input format, registered by adapters/files.py (spaCy imported on reading only, not on sniffing)


__all__ = [
    "ANALYSES_KEY", "CURRENT", "DOCBIN_SUFFIXES", "current_analysis", "load_docbin", "load_docbin_analyses",
    "load_docbin_files", "looks_like_docbin", "read_docbin", "read_docs", "sentence_spans", "sniff_docbin",
    "stored_analyses",
]
