"""Corpora of annotations: items (sentences), each annotated by some of the annotators.

A :class:`Corpus` is what the agreement metrics take: the data model only, no file I/O.
Build one in Python from trees (:meth:`Corpus.from_items`), or load one from files with
:func:`~spacy_agreement.adapters.files.load_parallel_files` or
:func:`~spacy_agreement.adapters.files.load_annotator_dirs` (also ``spacy_agreement.load_*``).
This module imports no adapter (the adapters import it), so the 0.1 names
``spacy_agreement.corpus.load_parallel_files``, ``load_annotator_dirs``, ``guess_format``,
``CONLL_SUFFIXES``, ``BRACKET_SUFFIXES`` and ``Format`` are gone: use
``spacy_agreement.adapters.files`` (or ``spacy_agreement.load_*``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .trees import ConstituencyTree, DependencyTree

Tree = Union[DependencyTree, ConstituencyTree]


@dataclass
class ReadStats:
    """What a reader saw besides the trees: multi-word token ranges and empty nodes (CoNLL-U),
    failed parses (bracketed files: a blank line or a tree without words where others have a
    tree; read as a missing annotation), partial trees (heads or relations not annotated yet:
    HEAD ``_``, DEPREL ``_``) with their tokens without a head and relations not annotated."""

    sentences: int = 0
    multiword_ranges: int = 0
    empty_nodes: int = 0
    failed_parses: int = 0
    partial_trees: int = 0
    unannotated_tokens: int = 0
    unlabelled_tokens: int = 0

    def count_partial(self, tree: Any) -> None:
        """Count ``tree`` if it is partial (:attr:`~spacy_agreement.trees.DependencyTree.partial`):
        every reader of annotations calls this, so that one rule counts what was left out."""
        if getattr(tree, "partial", False):
            self.partial_trees += 1
            self.unannotated_tokens += len(tree.unannotated)
            self.unlabelled_tokens += len(tree.unlabelled)


@dataclass
class Corpus:
    """Annotations of items by annotators.

    ``items[k]`` maps annotator name to that annotator's tree of item ``k`` (an absent
    annotator is a missing annotation); ``names[k]`` says where item ``k`` comes from.
    All trees are of one ``family``: ``"dependency"`` or ``"constituency"`` (``kind`` is the
    0.1 name of the same attribute).
    """

    annotators: Tuple[str, ...]
    items: List[Dict[str, Tree]]
    names: List[str]
    family: str
    read_stats: Dict[str, ReadStats] = field(default_factory=dict)
    #: how the annotations were paired into items (an ``ItemMatch`` of
    #: :mod:`spacy_agreement.adapters.matching`: rule and the items some annotators lack), or None
    matched_by: Any = None

    def __post_init__(self) -> None:
        if len(self.items) != len(self.names):
            raise ValueError("one name per item is needed")
        families = {type(t) for item in self.items for t in item.values()}
        if len(families) > 1:
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
        family = family_of(t for item in built for t in item.values())
        return cls(tuple(seen), built, list(names or [f"item {k + 1}" for k in range(len(built))]), family)

    def __len__(self) -> int:
        return len(self.items)

    @property
    def kind(self) -> str:
        """The 0.1 name of :attr:`family`."""
        return self.family

    @property
    def n_annotations(self) -> int:
        return sum(len(item) for item in self.items)


def family_of(trees) -> str:
    """The family of the first tree (``"dependency"`` or ``"constituency"``); dependency for none."""
    for tree in trees:
        return "dependency" if isinstance(tree, DependencyTree) else "constituency"
    return "dependency"
