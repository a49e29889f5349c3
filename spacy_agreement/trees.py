"""The compact tree representation: dependency and phrase trees, and the ordered trees
(postorder numpy arrays) that the Cython core compares.

* :class:`DependencyTree` keeps the token columns (id, form, head, deprel, upos; lemma,
  feats, xpos and misc when known) and the multiword tokens of CoNLL-U.
* :class:`ConstituencyTree` keeps a phrase-structure tree as postorder arrays of
  category labels and parents, words dropped (Skjærholt 2014, §2: "we remove the leaf
  nodes in the case of phrase structure trees"), so preterminals become the leaves.
* :class:`OrderedTree` is what tree edit distance needs: ``int32`` label ids from a
  shared :class:`~spacy_agreement.vocab.LabelVocab`, parent, leftmost-leaf and keyroot
  arrays in postorder.
* :class:`~spacy_agreement.forest.Forest` (its own module) concatenates many ordered trees into flat
  arrays with offsets.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Dict, List, Literal, Optional, Sequence, Tuple

import numpy as np

from . import _core
from .errors import InvalidTreeError, Location
from .vocab import LabelVocab

CyclePolicy = Literal["drop", "raise"]
#: The relation of an unannotated token in :meth:`DependencyTree.attached`.
UNANNOTATED = "unannotated"


def children_lists(parent: Sequence[int]) -> List[List[int]]:
    """``out[i]`` lists the children of node ``i`` (in order) given a parent array (-1 = root)."""
    kids: List[List[int]] = [[] for _ in range(len(parent))]
    for i, p in enumerate(parent):
        if p >= 0:
            kids[p].append(i)
    return kids


@dataclass(frozen=True, eq=False)
class OrderedTree:
    """An ordered labelled tree as postorder arrays (the root is the last node).

    ``labels`` are ids in the vocabulary the tree was built with; ``lml[i]`` is the
    leftmost leaf below node ``i`` and ``keyroots`` the Zhang–Shasha keyroots, increasing.
    """

    labels: np.ndarray
    parent: np.ndarray
    lml: np.ndarray
    keyroots: np.ndarray

    @classmethod
    def from_parents(cls, labels: np.ndarray, parent: np.ndarray) -> "OrderedTree":
        labels = np.ascontiguousarray(labels, dtype=np.int32)
        parent = np.ascontiguousarray(parent, dtype=np.int32)
        if labels.shape != parent.shape:
            raise ValueError("labels and parent must have the same length")
        lml, keyroots = _core.derive_lml_keyroots(parent)
        return cls(labels, parent, lml, keyroots)

    @property
    def size(self) -> int:
        """|x|: the number of nodes."""
        return int(self.labels.shape[0])

    @property
    def keyroot_cost(self) -> int:
        """Σ over keyroots of their subtree sizes: a Zhang–Shasha pair costs the product of
        the two trees' values in DP cells."""
        return int((self.keyroots - self.lml[self.keyroots] + 1).sum())

    def mirrored(self) -> "OrderedTree":
        """The same tree with every node's children in reverse order (same edit distances
        when both trees of a pair are mirrored)."""
        if self.size == 0:
            return self
        kids = children_lists(self.parent.tolist())
        order: List[int] = []
        stack = [(self.size - 1, 0)]
        while stack:  # postorder of the mirrored tree: children right to left
            node, k = stack.pop()
            children = kids[node]
            if k < len(children):
                stack.append((node, k + 1))
                stack.append((children[len(children) - 1 - k], 0))
            else:
                order.append(node)
        position = np.empty(self.size, dtype=np.int32)
        position[order] = np.arange(self.size, dtype=np.int32)
        old_parent = self.parent[order]
        parent = np.where(old_parent >= 0, position[np.maximum(old_parent, 0)], -1).astype(np.int32)
        return OrderedTree.from_parents(self.labels[order], parent)

    def __len__(self) -> int:
        return self.size


@dataclass(frozen=True, eq=False)
class DependencyTree:
    """A dependency analysis of one sentence as token columns.

    ``heads`` are 1-based token positions with 0 for the root; ``ids`` keep the token ids
    as written in the source (for messages). Built only through :meth:`create`, which
    checks the columns. ``lemmas``, ``feats`` (the FEATS column as raw text, e.g.
    ``"Case=Nom|Number=Sing"``), ``xpos`` and ``misc`` (the MISC column as raw text, e.g.
    ``"SpaceAfter=No"``) are optional: ``"_"`` per token when not known, and empty tuples on
    a tree built without them. ``multiword`` keeps the CoNLL-U multiword tokens (surface
    tokens over several words, ``du`` = ``de le``) as ``(first, last, form, misc)``: the
    1-based positions of their first and last words, the surface form and the MISC text of
    the range line; they are not nodes of the tree (:func:`~spacy_agreement.adapters.conllu.trees.space_after`
    and the writer of ``evaluate --save-parses`` read them).
    """

    forms: Tuple[str, ...]
    heads: np.ndarray
    deprels: Tuple[str, ...]
    upos: Tuple[str, ...]
    ids: Tuple[str, ...]
    location: Location = field(default_factory=Location)
    lemmas: Tuple[str, ...] = ()
    feats: Tuple[str, ...] = ()
    xpos: Tuple[str, ...] = ()
    misc: Tuple[str, ...] = ()
    multiword: Tuple[Tuple[int, int, str, str], ...] = ()
    unannotated: Tuple[int, ...] = ()
    unlabelled: Tuple[int, ...] = ()

    @classmethod
    def _scanned(cls, forms: Tuple[str, ...], heads: np.ndarray, unlabelled: Tuple[int, ...], scan: object,
                 lazy: Tuple[object, int]) -> "DependencyTree":
        """A tree the compiled scanner read, checked as :meth:`create` checks trees: its ``forms``,
        ``heads`` and what is not annotated (what pairing and every count look at; the scanner
        leaves a head ``_`` to the Python reader: nothing is :attr:`unannotated`), ``scan`` kept as its ``_scan`` (what
        :func:`~spacy_agreement.adapters.conllu.scanned_trees.scanned_words` finds), and its other
        fields made when first asked for by ``lazy`` (``(columns, sentence)``:
        :class:`~spacy_agreement.adapters.conllu.scanned_trees.LazyColumns`), so that a corpus
        counted from its codes makes no other column of strings, and no location, per tree."""
        tree = cls.__new__(cls)
        attributes = tree.__dict__
        attributes["forms"] = forms
        attributes["heads"] = heads
        attributes["unannotated"] = ()
        attributes["unlabelled"] = unlabelled
        attributes["_scan"] = scan
        attributes["_lazy"] = lazy
        return tree

    @classmethod
    def create(
        cls,
        heads: Sequence[Optional[int]],
        deprels: Sequence[Optional[str]],
        forms: Optional[Sequence[Optional[str]]] = None,
        upos: Optional[Sequence[Optional[str]]] = None,
        ids: Optional[Sequence[object]] = None,
        location: Optional[Location] = None,
        single_root: bool = False,
        lemmas: Optional[Sequence[Optional[str]]] = None,
        feats: Optional[Sequence[Optional[str]]] = None,
        xpos: Optional[Sequence[Optional[str]]] = None,
        misc: Optional[Sequence[Optional[str]]] = None,
        multiword: Optional[Sequence[Tuple[int, int, str, str]]] = None,
        partial: bool = False,
    ) -> "DependencyTree":
        """Check and store one sentence. Raises :class:`InvalidTreeError` naming the token.

        A head must be a token number in ``0..n``. A token that is its own head, and a
        sentence in which no token attaches to the root, are accepted: like any head cycle
        they are malformed but real (annotation tools write them, and the reference tools
        read them), and they are dealt with where trees are compared
        (:meth:`to_ordered`: such tokens drop out of the tree and are counted, or raise
        with ``cycles="raise"``); accuracies score them as they are.

        Missing values (``None``) in ``forms``, ``deprels``, ``upos``, ``lemmas``, ``feats``,
        ``xpos`` and ``misc`` (or a whole column left out) become ``"_"``, as
        written in CoNLL files. A multiword token must span words of ``1..n`` (one word too: ``1-1``, which conll18_ud_eval.py accepts).
        With ``single_root=True`` exactly one token may attach to the root (the UD rule);
        otherwise several may (CoNLL-X treebanks do this).

        With ``partial=True`` (how every annotation reader builds trees) the one rule for
        what an annotator left out: a head ``None`` (HEAD ``_``) is a token not annotated
        yet (:attr:`unannotated`: attached to the root with the relation ``"_"``, not
        counting against ``single_root``), and a relation ``None`` or ``"_"`` of a token
        with a head is a relation not annotated yet (:attr:`unlabelled`), however many
        tokens of the sentence have one: an unlabelled analysis (heads only) is not an
        analysis whose every relation is ``_``. Attachment scores compare heads where both
        annotations have them and relations where both have them; α takes a tree with
        either as a partial tree (:func:`~spacy_agreement.agreement.pairable.pairable_trees`).
        Without ``partial`` a head ``None`` is an error and ``_`` is a relation like any other.
        """
        location = location or Location()
        n = len(heads)
        if n == 0:
            raise InvalidTreeError("empty sentence (no tokens)", location)
        ids_t = tuple(str(i) for i in ids) if ids is not None else tuple(str(i) for i in range(1, n + 1))
        columns = {"deprel": deprels, "form": forms, "upos": upos, "id": ids_t, "lemma": lemmas, "feats": feats,
                   "xpos": xpos, "misc": misc}
        for name, column in columns.items():
            if column is not None and len(column) != n:
                raise InvalidTreeError(f"{len(column)} values in column {name} for {n} heads", location)
        heads_arr = np.empty(n, dtype=np.int32)
        missing: List[int] = []
        unlabelled: List[int] = []
        if partial:
            missing = [k for k, head in enumerate(heads) if head is None]
            unset = set(missing)
            unlabelled = [k for k in range(n) if k not in unset and (deprels is None or deprels[k] in (None, "_"))]
            if missing:
                heads = [0 if k in unset else h for k, h in enumerate(heads)]
                deprels = ["_" if k in unset else d for k, d in enumerate(deprels or ["_"] * n)]
        for k, head in enumerate(heads):
            if head is None or isinstance(head, bool) or not isinstance(head, (int, np.integer)):
                raise InvalidTreeError(f"head {head!r} is not a token number", location.at_token(ids_t[k]))
            if not 0 <= head <= n:
                raise InvalidTreeError(f"head {head} out of range 0..{n}", location.at_token(ids_t[k]))
            heads_arr[k] = head
        roots = np.flatnonzero(heads_arr == 0)
        if missing:
            roots = np.setdiff1d(roots, missing)
        if single_root and roots.size > 1:
            raise InvalidTreeError(
                f"{roots.size} tokens attach to the root where one is required", location.at_token(ids_t[roots[1]])
            )

        def text(column: Optional[Sequence[Optional[str]]]) -> Tuple[str, ...]:
            if column is None:
                return ("_",) * n
            values = tuple(column)
            if all(v.__class__ is str for v in values):  # as read from a file: kept as they are
                return values
            return tuple("_" if v is None else str(v) for v in values)

        spans = []
        for first, last, form, extra in multiword or ():
            if not (isinstance(first, int) and isinstance(last, int) and 1 <= first <= last <= n):
                raise InvalidTreeError(f"multiword token {first}-{last} ({form!r}) does not span words of 1..{n}",
                                       location.at_token(f"{first}-{last}"))
            spans.append((first, last, str(form), "_" if extra is None else str(extra)))
        heads_arr.flags.writeable = False
        return cls(text(forms), heads_arr, text(deprels), text(upos), ids_t, location, text(lemmas), text(feats),
                   text(xpos), text(misc), tuple(spans), tuple(k + 1 for k in missing),
                   tuple(k + 1 for k in unlabelled))

    def __len__(self) -> int:
        return len(self.heads)

    def __getattr__(self, name: str) -> object:
        # only for what is not set: a field of a tree read through the compiled scanner, made from
        # its file's columns when first asked for and kept (adapters.conllu.scanned_trees.LazyColumns)
        lazy = self.__dict__.get("_lazy")
        if lazy is None or name not in _FIELD_NAMES:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        value = self.__dict__[name] = lazy[0].field(name, lazy[1])
        return value

    def __getstate__(self) -> dict:
        # a tree read through the compiled scanner also holds its file's coded words (``_scan``:
        # adapters.conllu.scanned_trees.ScannedWords) and makes its fields when asked (``_lazy``);
        # a copy or a pickle is the tree alone, every field made
        if "_lazy" in self.__dict__:
            for name in _FIELD_NAMES:
                getattr(self, name)
        return {k: v for k, v in self.__dict__.items() if k not in ("_scan", "_lazy")}

    @property
    def partial(self) -> bool:
        """Whether some head or relation is not annotated yet (:attr:`unannotated`,
        :attr:`unlabelled`)."""
        return bool(self.unannotated or self.unlabelled)

    def annotated_mask(self) -> np.ndarray:
        """``True`` for each token whose head is annotated (not in :attr:`unannotated`)."""
        mask = np.ones(len(self), dtype=bool)
        if self.unannotated:
            mask[np.asarray(self.unannotated) - 1] = False
        return mask

    def labelled_mask(self) -> np.ndarray:
        """``True`` for each token whose head and relation are annotated (in neither
        :attr:`unannotated` nor :attr:`unlabelled`)."""
        mask = self.annotated_mask()
        if self.unlabelled:
            mask[np.asarray(self.unlabelled) - 1] = False
        return mask

    def attached(self, label: str = UNANNOTATED) -> "DependencyTree":
        """The tree made complete: every unannotated token attached to the root with the
        relation ``label``, and every relation not annotated (:attr:`unlabelled`) ``label``
        on the head the annotator gave (so that comparing it with an annotated tree counts
        each as a disagreement); the tree itself when it is complete."""
        if not self.partial:
            return self
        deprels = list(self.deprels)
        for k in self.unannotated + self.unlabelled:
            deprels[k - 1] = label
        return replace(self, deprels=tuple(deprels), unannotated=(), unlabelled=())

    @property
    def annotation_size(self) -> int:
        """|x| of δdiff and δnorm (Skjærholt 2014, §2): the tokens plus the artificial root,
        whether or not some tokens drop out of the compared tree through a head cycle."""
        return len(self) + 1

    def unreachable_tokens(self) -> np.ndarray:
        """1-based positions of the tokens caught in head cycles (not reachable from the root)."""
        tokens, _, _ = _core.dependency_postorder(self.heads)
        reached = np.zeros(len(self) + 1, dtype=bool)
        reached[tokens] = True
        return np.flatnonzero(~reached[1:]) + 1

    def cycle_error(self) -> InvalidTreeError:
        """The error that names the first token not reachable from the root, and why."""
        unreachable = self.unreachable_tokens()
        if unreachable.size == 0:
            raise ValueError("the tree has no head cycle")
        if not np.any(self.heads == 0):
            return InvalidTreeError(
                "no token attaches to the root (head 0): the whole sentence is a head cycle",
                self.location.at_token(self.ids[int(unreachable[0]) - 1]))
        self_headed = unreachable[self.heads[unreachable - 1] == unreachable]
        if self_headed.size:
            return InvalidTreeError("token is its own head", self.location.at_token(self.ids[int(self_headed[0]) - 1]))
        return InvalidTreeError(
            f"token is in a head cycle ({unreachable.size} tokens unreachable from the root)",
            self.location.at_token(self.ids[int(unreachable[0]) - 1]))

    def to_ordered(self, vocab: LabelVocab, cycles: CyclePolicy = "drop") -> Tuple[OrderedTree, int]:
        """The Figure 1 tree of Skjærholt (2014) and the number of tokens dropped.

        A node per token labelled with its relation, an artificial root labelled ``""``,
        children in token order. The tree is built by walking down from the root, as the
        paper's code did, so tokens caught in a head cycle are not in it: with
        ``cycles="drop"`` they are left out and counted, with ``cycles="raise"`` the first
        of them raises :class:`InvalidTreeError`.
        """
        tokens, parent, n_dropped = _core.dependency_postorder(self.heads)
        if n_dropped and cycles == "raise":
            raise self.cycle_error()
        labels = np.fromiter(
            (0 if t == 0 else vocab.add(self.deprels[t - 1]) for t in tokens.tolist()),
            dtype=np.int32,
            count=tokens.shape[0],
        )
        return OrderedTree.from_parents(labels, parent), int(n_dropped)


def sent_id_of(tree: object) -> Optional[str]:
    """The ``sent_id`` of a tree's location (``None`` where it has none), without making the
    location of a tree read through the compiled scanner that has not made it yet."""
    attributes = getattr(tree, "__dict__", {})
    lazy = attributes.get("_lazy")
    if lazy is not None and "location" not in attributes:
        return lazy[0].sent_id(lazy[1])
    return getattr(getattr(tree, "location", None), "sent_id", None)


_FIELD_NAMES = frozenset(f.name for f in fields(DependencyTree))
# a field's default is a class attribute, which a tree making its fields when asked would give
# instead (__getattr__ is asked only for what neither the instance nor its class has): __init__
# keeps the defaults of its own
for _name in _FIELD_NAMES & set(vars(DependencyTree)):
    delattr(DependencyTree, _name)


@dataclass(frozen=True, eq=False)
class ConstituencyTree:
    """A phrase-structure tree without its words, as postorder arrays.

    ``labels[i]`` is the category of node ``i``, ``parent[i]`` its parent (-1 for the root,
    the last node), ``spans[i]`` the first and last leaf (0-based, over the leaves of this
    word-less tree) it covers. ``words`` keeps the dropped words when the tree had any.
    ``outer_brackets`` counts the unlabelled brackets that wrapped the tree in its file,
    ``( (S ...) )`` in Penn Treebank files: they are not nodes of the compared tree, but
    EVALB counts them as brackets (:mod:`spacy_agreement.evaluation.constituency.geig`).
    """

    labels: Tuple[str, ...]
    parent: np.ndarray
    spans: np.ndarray
    words: Optional[Tuple[str, ...]] = None
    location: Location = field(default_factory=Location)
    outer_brackets: int = 0

    @property
    def n_leaves(self) -> int:
        return int(self.spans[-1, 1]) + 1 if len(self.labels) else 0

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def annotation_size(self) -> int:
        """|x| of δdiff and δnorm (Skjærholt 2014, §2: "the difference in length between the
        two sentences"): the sentence length, i.e. the leaves of the word-less tree."""
        return self.n_leaves

    def to_ordered(self, vocab: LabelVocab, cycles: CyclePolicy = "drop") -> Tuple[OrderedTree, int]:
        """The tree compared by TED: the categories, words removed. Never drops nodes."""
        return OrderedTree.from_parents(vocab.ids(self.labels), self.parent), 0

    def brackets(self) -> frozenset:
        """The set of labelled brackets ``(first_leaf, last_leaf, label)``, one per node."""
        return frozenset(zip(self.spans[:, 0].tolist(), self.spans[:, 1].tolist(), self.labels))

    def without_leaves(self, drop: Sequence[bool]) -> "ConstituencyTree":
        """The tree without the leaves marked in ``drop`` (one flag per node, read for the
        leaves) and without the nodes left covering no leaf, as EVALB deletes ``-NONE-``
        traces. Postorder, labels and the outer brackets are kept; spans are renumbered."""
        parent = self.parent.tolist()
        kids = children_lists(parent)
        n = len(self.labels)
        keep = [False] * n
        for node in range(n):  # postorder: children come before their parent
            keep[node] = (not drop[node]) if not kids[node] else any(keep[c] for c in kids[node])
        if not any(keep):
            raise InvalidTreeError("no leaf left after deletion", self.location)
        new_index = np.cumsum(keep) - 1
        labels, parents, spans, leaf = [], [], [], 0
        first = [0] * n
        for node in range(n):
            if not keep[node]:
                continue
            if kids[node]:
                first_leaf = min(first[c] for c in kids[node] if keep[c])
                spans.append((first_leaf, leaf - 1))
            else:
                first_leaf = leaf
                spans.append((leaf, leaf))
                leaf += 1
            first[node] = first_leaf
            labels.append(self.labels[node])
            parents.append(int(new_index[parent[node]]) if parent[node] >= 0 else -1)
        words = self.words
        if words is not None:  # one word per leaf of the word-less tree, left to right
            leaf_kept = [keep[node] for node in range(n) if not kids[node]]
            words = tuple(w for w, k in zip(words, leaf_kept) if k)
        return ConstituencyTree(tuple(labels), np.asarray(parents, dtype=np.int32),
                                np.asarray(spans, dtype=np.int32).reshape(-1, 2), words, self.location,
                                self.outer_brackets)


# the forest of many ordered trees moved to its own module; imported from here as before
from .forest import Forest, dependency_forest  # noqa: E402
