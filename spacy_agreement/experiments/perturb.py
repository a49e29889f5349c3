"""Random perturbations of trees for the synthetic experiments of Skjærholt (2014), §3.

Dependency trees (the paper's procedure):

1. each token, with probability ``p_relabel``, gets a label drawn uniformly from the labels
   used in the corpus (possibly its own: at p = 1 some labels survive by chance, which is
   why the paper's LAS at p_relabel = 1 is 4.1% and not 0);
2. each token, with probability ``p_reattach``, gets a new head drawn uniformly from the
   tokens it does not dominate in the tree as modified so far, the artificial root
   included (its current head too: a reattachment may leave the edge as it was).

Tokens are visited in the post-order of the original tree (children before their head,
siblings left to right). The result is always a tree: every token reaches the artificial
root and there is no cycle. Several tokens may end up attached to the root, as the paper's
sampler allows ("assigning ... the root as its new head").

``model="uniform"`` is a second structural-noise model, beyond the paper: the heads of the
tokens chosen for reattachment are resampled *jointly* so that the tree is uniform among
all trees that keep the other tokens' heads (Wilson's algorithm, loop-erased random walks;
at p = 1 a uniform random tree over the sentence). The paper notes that its own sampler is
biased towards trees shaped like the source.

Phrase trees (the paper's future work): label noise replaces the category of each internal
node (nonterminal; the preterminal leaves keep theirs) with probability ``p_relabel`` by one
drawn uniformly from the nonterminal categories of the corpus. Structural noise visits the
internal non-root nodes in postorder and, with probability ``p_reattach``, moves one of its
constituent boundaries by one child: its first child leaves it for its parent (left boundary
moves right), or its left sibling joins it (left boundary moves left), or the same on the
right, chosen uniformly among the moves possible. Word order is kept, no node is created or
removed, and a node never loses its last child.

All functions take a numpy ``Generator`` and are reproducible for a seed.
"""
from __future__ import annotations

from typing import List, Literal, Sequence

import numpy as np

from ..trees import ConstituencyTree, DependencyTree, children_lists

Model = Literal["paper", "uniform"]


def postorder_tokens(heads: Sequence[int]) -> List[int]:
    """Token ids (1-based) in postorder of the tree: children first, siblings left to right."""
    n = len(heads)
    children: List[List[int]] = [[] for _ in range(n + 1)]
    for k, h in enumerate(heads, start=1):
        children[h].append(k)
    order: List[int] = []
    stack = [(0, 0)]
    while stack:
        node, i = stack.pop()
        if i < len(children[node]):
            stack.append((node, i + 1))
            stack.append((children[node][i], 0))
        elif node != 0:
            order.append(node)
    return order


def dominated(heads: Sequence[int], token: int) -> List[bool]:
    """``out[h]`` is True when token ``h`` (0 = the root) lies in the subtree of ``token``."""
    n = len(heads)
    out = [False] * (n + 1)
    out[token] = True
    for k in range(1, n + 1):  # walk up from every token; paths are short
        path = []
        node = k
        while node != 0 and not out[node] and node not in path:
            path.append(node)
            node = heads[node - 1]
        if node != 0 and out[node]:
            for p in path:
                out[p] = True
    return out


def _uniform_heads(rng: np.random.Generator, heads: List[int], free: List[int]) -> List[int]:
    """Wilson's algorithm: heads of the ``free`` tokens resampled uniformly among the trees
    that keep every other token's head."""
    n = len(heads)
    is_free = [False] * (n + 1)
    for t in free:
        is_free[t] = True
    in_tree = [False] * (n + 1)
    in_tree[0] = True
    nxt = [0] * (n + 1)
    new_heads = list(heads)
    for start in range(1, n + 1):
        u = start
        while not in_tree[u]:
            if is_free[u]:
                v = int(rng.integers(0, n))  # uniform over the n nodes other than u
                nxt[u] = v if v < u else v + 1
            else:
                nxt[u] = heads[u - 1]
            u = nxt[u]
        u = start
        while not in_tree[u]:
            in_tree[u] = True
            new_heads[u - 1] = nxt[u]
            u = nxt[u]
    return new_heads


def perturb_dependency(
    tree: DependencyTree,
    labels: Sequence[str],
    p_relabel: float,
    p_reattach: float,
    rng: np.random.Generator,
    model: Model = "paper",
) -> DependencyTree:
    """A noisy copy of ``tree`` (see the module docstring); ``labels`` are the corpus's labels."""
    if not (0 <= p_relabel <= 1 and 0 <= p_reattach <= 1):
        raise ValueError("probabilities must lie in [0, 1]")
    heads = tree.heads.tolist()
    deprels = list(tree.deprels)
    order = postorder_tokens(heads)
    if len(order) != len(heads):
        raise ValueError(f"{tree.location}: the tree has head cycles; perturb valid trees only")
    free: List[int] = []
    for token in order:
        if p_relabel and rng.random() < p_relabel:
            deprels[token - 1] = labels[int(rng.integers(len(labels)))]
        if p_reattach and rng.random() < p_reattach:
            if model == "uniform":
                free.append(token)
                continue
            below = dominated(heads, token)
            candidates = [h for h in range(len(heads) + 1) if not below[h]]
            heads[token - 1] = candidates[int(rng.integers(len(candidates)))]
    if model == "uniform" and free:
        heads = _uniform_heads(rng, heads, free)
    elif model not in ("paper", "uniform"):
        raise ValueError(f"unknown model {model!r}: 'paper' or 'uniform'")
    return DependencyTree.create(heads, deprels, tree.forms, tree.upos, tree.ids, tree.location)


def perturb_phrase(
    tree: ConstituencyTree,
    labels: Sequence[str],
    p_relabel: float,
    p_reattach: float,
    rng: np.random.Generator,
) -> ConstituencyTree:
    """A noisy copy of a phrase tree (see the module docstring); ``labels`` are the corpus's
    nonterminal categories."""
    n = len(tree)
    kids = children_lists(tree.parent.tolist())
    node_labels = list(tree.labels)
    internal = [i for i in range(n) if kids[i]]
    root = n - 1
    if p_reattach:
        parent = tree.parent.tolist()
        for x in internal:
            if x == root or rng.random() >= p_reattach:
                continue
            p = parent[x]
            siblings = kids[p]
            at = siblings.index(x)
            moves = []
            if len(kids[x]) > 1:
                moves += ["first-out", "last-out"]
            if at > 0:
                moves.append("left-in")
            if at < len(siblings) - 1:
                moves.append("right-in")
            if not moves:
                continue
            move = moves[int(rng.integers(len(moves)))]
            if move == "first-out":
                child = kids[x].pop(0)
                siblings.insert(at, child)
            elif move == "last-out":
                child = kids[x].pop()
                siblings.insert(at + 1, child)
            elif move == "left-in":
                child = siblings.pop(at - 1)
                kids[x].insert(0, child)
            else:
                child = siblings.pop(at + 1)
                kids[x].append(child)
            parent[child] = p if move.endswith("out") else x
    if p_relabel and labels:
        for x in internal:
            if rng.random() < p_relabel:
                node_labels[x] = labels[int(rng.integers(len(labels)))]
    # rebuild postorder arrays from the edited child lists
    order: List[int] = []
    stack = [(root, 0)]
    while stack:
        node, i = stack.pop()
        if i < len(kids[node]):
            stack.append((node, i + 1))
            stack.append((kids[node][i], 0))
        else:
            order.append(node)
    position = {node: k for k, node in enumerate(order)}
    new_parent = np.full(n, -1, dtype=np.int32)
    spans = np.zeros((n, 2), dtype=np.int32)
    leaf = 0
    for node in order:
        k = position[node]
        if not kids[node]:
            spans[k] = (leaf, leaf)
            leaf += 1
        else:
            spans[k] = (spans[position[kids[node][0]]][0], spans[position[kids[node][-1]]][1])
        for c in kids[node]:
            new_parent[position[c]] = k
    return ConstituencyTree(tuple(node_labels[v] for v in order), new_parent, spans, tree.words, tree.location)
