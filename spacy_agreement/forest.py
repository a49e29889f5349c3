"""Many ordered trees in flat arrays (:class:`Forest`, what the Cython core's batch kernels
read), and :func:`dependency_forest`, which builds one from many dependency trees at once."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, List, Sequence, Tuple

import numpy as np

from .vocab import LabelVocab

if TYPE_CHECKING:
    from .trees import DependencyTree, OrderedTree


@dataclass(frozen=True, eq=False)
class Forest:
    """Many ordered trees in flat arrays: tree ``t`` has nodes ``offsets[t]:offsets[t+1]``
    and keyroots ``kr_offsets[t]:kr_offsets[t+1]`` (tree-local indices)."""

    labels: np.ndarray
    lml: np.ndarray
    offsets: np.ndarray
    keyroots: np.ndarray
    kr_offsets: np.ndarray

    @classmethod
    def from_trees(cls, trees: Sequence[OrderedTree]) -> "Forest":
        sizes = np.fromiter((t.size for t in trees), dtype=np.int64, count=len(trees))
        kr_sizes = np.fromiter((t.keyroots.shape[0] for t in trees), dtype=np.int64, count=len(trees))

        def cat(arrays: List[np.ndarray]) -> np.ndarray:
            return np.ascontiguousarray(np.concatenate(arrays) if arrays else np.empty(0), dtype=np.int32)

        offsets = np.zeros(len(trees) + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        kr_offsets = np.zeros(len(trees) + 1, dtype=np.int64)
        np.cumsum(kr_sizes, out=kr_offsets[1:])
        return cls(
            cat([t.labels for t in trees]),
            cat([t.lml for t in trees]),
            offsets,
            cat([t.keyroots for t in trees]),
            kr_offsets,
        )

    def __len__(self) -> int:
        return int(self.offsets.shape[0] - 1)

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.offsets)

    def arrays(self) -> Tuple[np.ndarray, ...]:
        return self.labels, self.lml, self.offsets, self.keyroots, self.kr_offsets

    def take(self, order: Sequence[int]) -> "Forest":
        """The forest of trees ``order[0], order[1], ...`` of this one (tree-local arrays copied)."""
        order = np.asarray(order, dtype=np.int64)

        def gather(values: np.ndarray, offsets: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
            lengths = np.diff(offsets)[order]
            new = np.zeros(len(order) + 1, dtype=np.int64)
            np.cumsum(lengths, out=new[1:])
            index = np.repeat(offsets[:-1][order] - new[:-1], lengths) + np.arange(new[-1], dtype=np.int64)
            return np.ascontiguousarray(values[index]), new

        labels, offsets = gather(self.labels, self.offsets)
        lml, _ = gather(self.lml, self.offsets)
        keyroots, kr_offsets = gather(self.keyroots, self.kr_offsets)
        return Forest(labels, lml, offsets, keyroots, kr_offsets)


def dependency_forest(trees: Sequence[DependencyTree], vocab: LabelVocab) -> Tuple[Forest, np.ndarray]:
    """The :meth:`DependencyTree.to_ordered` trees of many dependency trees (``cycles="drop"``) as
    one :class:`Forest`, built at once by the compiled builder
    (:func:`spacy_agreement._conllu.dependency_forest`) instead of tree by tree, and the tokens each
    tree dropped (head cycles). The same forest to the last array, and the same ``vocab``: labels are
    added to it in the order the trees one by one would add them (postorder, tree after tree)."""
    from . import _conllu

    n = len(trees)
    lengths = np.fromiter((len(t) for t in trees), dtype=np.int64, count=n)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    total = int(offsets[-1])
    heads = np.concatenate([t.heads for t in trees]).astype(np.int32) if n else np.zeros(0, dtype=np.int32)
    names: Dict[str, int] = {"": 0}  # the root's label, as in the vocabulary
    found = names.setdefault
    temporary = np.fromiter((found(d, len(names)) for t in trees for d in t.deprels), dtype=np.int32, count=total)
    labels, lml, tree_offsets, keyroots, kr_offsets = _conllu.dependency_forest(
        np.ascontiguousarray(heads), temporary, np.ones(total, dtype=np.int8), offsets)
    # the vocabulary's ids in order of first appearance in postorder, as to_ordered adds them
    seen, first = np.unique(labels, return_index=True)
    by_name = list(names)
    remap = np.zeros(len(names), dtype=np.int32)
    for k in seen[np.argsort(first, kind="stable")].tolist():
        if k:
            remap[k] = vocab.add(by_name[k])
    forest = Forest(np.ascontiguousarray(remap[labels]), lml, tree_offsets, keyroots, kr_offsets)
    return forest, lengths - (np.diff(tree_offsets) - 1)
