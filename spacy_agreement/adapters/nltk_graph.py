"""NLTK dependency graphs (``nltk.parse.DependencyGraph``) to and from :class:`DependencyTree`s.
(Scoring NLTK parses in one call: :mod:`spacy_agreement.integrations.nltk_scoring`.)"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..errors import InvalidTreeError, Location
from ..trees import DependencyTree

if TYPE_CHECKING:
    from nltk.parse import DependencyGraph


def from_dependency_graph(graph: DependencyGraph, location: Optional[Location] = None) -> DependencyTree:
    """The tokens of an NLTK ``DependencyGraph`` (address 0 is its artificial TOP node)."""
    location = location or Location("<nltk>")
    addresses = sorted(a for a in graph.nodes if a not in (0, None))
    if addresses != list(range(1, len(addresses) + 1)):
        raise InvalidTreeError(f"node addresses must run 1..n, got {addresses[:10]}", location)
    nodes = [graph.nodes[a] for a in addresses]
    heads = []
    for address, node in zip(addresses, nodes):
        if node.get("head") is None:
            raise InvalidTreeError("node has no head", location.at_token(address))
        heads.append(int(node["head"]))
    return DependencyTree.create(
        heads, [n.get("rel") or "_" for n in nodes], [n.get("word") or "_" for n in nodes],
        [n.get("ctag") or n.get("tag") or "_" for n in nodes], addresses, location)


def to_dependency_graph(tree: DependencyTree) -> DependencyGraph:
    """An NLTK ``DependencyGraph`` of a tree (root relation as in the tree)."""
    lines = [f"{form}\t{upos}\t{int(head)}\t{rel}" for form, upos, head, rel in
             zip(tree.forms, tree.upos, tree.heads, tree.deprels)]
    from nltk.parse import DependencyGraph  # lazy: import time

    roots = {rel for head, rel in zip(tree.heads, tree.deprels) if head == 0}
    return DependencyGraph("\n".join(lines), top_relation_label=next(iter(roots), "ROOT"))
