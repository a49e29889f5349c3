"""Lineages for the leaf-ancestor metric (Sampson & Babarczy 2003, §2).

The lineage of a terminal element is the sequence of labels of the nodes on the path from
it to the root, Leaf end first, with boundary markers:

(i)  ``[`` immediately before the label of the highest nonterminal *beginning* with the
     element, if there is one;
(ii) ``]`` immediately after the label of the highest nonterminal *ending* with it, if any.

So for ``[S [N1 two [N1 tax revision ] bills ] were passed ]`` the lineage of *two* is
``N1 [ S`` and that of *tax* is ``[ N1 N1 S``.

**Phrase trees** are read with their words as the leaves (``leaves="categories"`` in
:mod:`spacy_agreement.adapters.brackets`). Treebanks in the Penn style put every word under
a part-of-speech preterminal; with ``preterminals="drop"`` those are left out of the
lineages (as EVALB leaves them out of its brackets). ``"auto"`` drops them exactly when
every word is the only child of its node, which is the Penn style; the paper's own
bracketings put words directly under phrases and keep every node.

**Dependency trees** (Sampson 2000 notes the metric applies to them too): the lineage of a
token is its own relation, then its head's, and so on up to the root token. A token node
stands for the phrase it heads, its yield (the token and all its dependents), so a token
"begins" (ends) the phrases of the nodes whose yield has it as leftmost (rightmost) token,
and the markers follow rules (i) and (ii) over those nodes. For non-projective trees the
yield is taken from its leftmost to its rightmost token. Tokens in head cycles get the
lineage up to the point where the cycle repeats.

The paper's claim that the lineages with their markers determine the tree is what
:func:`rebuild` does; it holds for every tree in which each nonterminal dominates at least
one terminal, unary chains included (checked on random trees in the tests), given the
words in their order. Nodes without terminals (empty constituents) have no lineage to
appear in, and a dependency tree is not rebuilt from its lineages (non-projective yields
and the head token's own position are not recorded in them).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Literal, Sequence, Tuple

from ...trees import ConstituencyTree, DependencyTree, children_lists

LEFT, RIGHT = "[", "]"
Preterminals = Literal["auto", "keep", "drop"]


@dataclass(frozen=True)
class Lineages:
    """The terminal elements of one sentence and their lineages (Leaf end first)."""

    words: Tuple[str, ...]
    lineages: Tuple[Tuple[str, ...], ...]

    def __len__(self) -> int:
        return len(self.words)

    def text(self, k: int) -> str:
        """Lineage ``k`` written as in the paper, e.g. ``N1 [ S``."""
        return " ".join(self.lineages[k])


def is_penn_style(tree: ConstituencyTree) -> bool:
    """True when every leaf is the only child of its parent (a preterminal)."""
    kids = children_lists(tree.parent.tolist())
    leaves = [i for i in range(len(tree)) if not kids[i]]
    return bool(leaves) and all(len(kids[tree.parent[i]]) == 1 for i in leaves if tree.parent[i] >= 0)


def _mark(path: List[Tuple[str, bool, bool]]) -> Tuple[str, ...]:
    """Labels Leaf end first with (begins, ends) flags -> lineage with markers (i) and (ii)."""
    highest_begin = max((k for k, (_, b, _) in enumerate(path) if b), default=-1)
    highest_end = max((k for k, (_, _, e) in enumerate(path) if e), default=-1)
    out: List[str] = []
    for k, (label, _, _) in enumerate(path):
        if k == highest_begin:
            out.append(LEFT)
        out.append(label)
        if k == highest_end:
            out.append(RIGHT)
    return tuple(out)


def phrase_lineages(tree: ConstituencyTree, preterminals: Preterminals = "auto") -> Lineages:
    """Lineages of the leaves of a phrase tree whose leaves are the words."""
    if preterminals not in ("auto", "keep", "drop"):
        raise ValueError("preterminals must be 'auto', 'keep' or 'drop'")
    parent = tree.parent.tolist()
    kids = children_lists(parent)
    drop = preterminals == "drop" or (preterminals == "auto" and is_penn_style(tree))
    spans = tree.spans.tolist()
    words: List[str] = []
    lineages: List[Tuple[str, ...]] = []
    for leaf in range(len(tree)):
        if kids[leaf]:
            continue
        index = spans[leaf][0]
        node = parent[leaf]
        path = []
        if drop and node >= 0 and len(kids[node]) == 1:
            node = parent[node]
        while node >= 0:
            first, last = spans[node]
            path.append((tree.labels[node], first == index, last == index))
            node = parent[node]
        words.append(tree.labels[leaf])
        lineages.append(_mark(path))
    return Lineages(tuple(words), tuple(lineages))


def dependency_lineages(tree: DependencyTree) -> Lineages:
    """Lineages of the tokens of a dependency tree (see the module docstring)."""
    n = len(tree)
    heads = tree.heads.tolist()
    lo = list(range(1, n + 1))
    hi = list(range(1, n + 1))
    for k in range(1, n + 1):  # spread each token's position to all its ancestors
        node, seen = heads[k - 1], {k}
        while node != 0 and node not in seen:
            seen.add(node)
            lo[node - 1] = min(lo[node - 1], k)
            hi[node - 1] = max(hi[node - 1], k)
            node = heads[node - 1]
    lineages = []
    for k in range(1, n + 1):
        path, node, seen = [], k, set()
        while node != 0 and node not in seen:
            seen.add(node)
            path.append((tree.deprels[node - 1], lo[node - 1] == k, hi[node - 1] == k))
            node = heads[node - 1]
        lineages.append(_mark(path))
    return Lineages(tree.forms, tuple(lineages))


def rebuild(lineages: Lineages):
    """The tree a set of lineages determines, as nested ``(label, children)`` tuples with the
    words as leaves ``(word, ())``; ``None`` when the lineages are inconsistent.

    Words are read left to right while a stack holds the open nonterminals from the root
    down: the labels above a word's ``[`` continue open nodes, the ``[`` node and those
    below it open at the word, and the ``]`` node and those below it close after it.
    """
    stack: List[list] = []  # open nodes: [label, children]
    roots: List[list] = []
    for word, lineage in zip(lineages.words, lineages.lineages):
        labels = [s for s in lineage if s not in (LEFT, RIGHT)]
        root_first = labels[::-1]
        if LEFT in lineage:
            opened_from = len(labels) - 1 - [s for s in lineage if s != RIGHT].index(LEFT)
        else:
            opened_from = len(labels)
        if RIGHT in lineage:
            closes_from = len(labels) - [s for s in lineage if s != LEFT].index(RIGHT)
        else:
            closes_from = len(labels)
        keep = opened_from  # root_first[:keep] continue open nodes
        if keep != len(stack) or any(stack[d][0] != root_first[d] for d in range(keep)):
            return None
        for d in range(keep, len(labels)):
            node = [root_first[d], []]
            if stack:
                stack[-1][1].append(node)
            else:
                roots.append(node)
            stack.append(node)
        leaf = [word, []]
        if stack:
            stack[-1][1].append(leaf)
        else:
            roots.append(leaf)
        del stack[closes_from:]
    if stack or len(roots) != 1:
        return None

    def freeze(node):
        return (node[0], tuple(freeze(c) for c in node[1]))

    return freeze(roots[0])


def as_tuple(tree: ConstituencyTree):
    """A phrase tree as nested ``(label, children)`` tuples (for comparisons)."""
    kids = children_lists(tree.parent.tolist())

    def build(i):
        return (tree.labels[i], tuple(build(c) for c in kids[i]))

    return build(len(tree) - 1)


def lineage_symbols(lineages: Sequence[Lineages]) -> List[str]:
    """Every distinct symbol of some lineages, markers included."""
    return sorted({s for ls in lineages for lin in ls.lineages for s in lin})


__all__ = ["LEFT", "RIGHT", "Lineages", "as_tuple", "dependency_lineages", "phrase_lineages", "rebuild",
           "is_penn_style"]
