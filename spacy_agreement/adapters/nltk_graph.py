"""NLTK dependency graphs (``nltk.parse.DependencyGraph``) to and from :class:`DependencyTree`s.
(Scoring NLTK parses in one call: :mod:`spacy_agreement.integrations.nltk_scoring`.)

The token columns are kept both ways, as NLTK stores them in a node: ``word`` is the form,
``lemma`` the lemma, ``ctag`` the UPOS (the fourth CoNLL column), ``tag`` the XPOS (the
fifth), ``feats`` the FEATS text and ``rel`` the relation. So MLAS and BLEX of graphs read
from CoNLL-U (``DependencyGraph(text)`` on the ten columns) are those of the same file read by
``evaluate``. NLTK fills what a shorter format lacks: from its 3/4/7-column formats ``ctag``
and ``tag`` are the one tag column, and from 3/4 columns ``lemma`` is the word; these are read
as NLTK has them. A value that is unset or empty is ``"_"``."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..errors import InvalidTreeError, Location
from ..trees import DependencyTree

if TYPE_CHECKING:
    from nltk.parse import DependencyGraph


def from_dependency_graph(graph: DependencyGraph, location: Optional[Location] = None) -> DependencyTree:
    """The tokens of an NLTK ``DependencyGraph`` (address 0 is its artificial TOP node), with
    their lemmas, UPOS (``ctag``, else ``tag``), XPOS (``tag``) and features."""
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

    def column(key: str):
        return [node.get(key) or "_" for node in nodes]

    return DependencyTree.create(
        heads, column("rel"), column("word"), [n.get("ctag") or n.get("tag") or "_" for n in nodes], addresses,
        location, lemmas=column("lemma"), feats=column("feats"), xpos=column("tag"))


def to_dependency_graph(tree: DependencyTree) -> DependencyGraph:
    """An NLTK ``DependencyGraph`` of a tree (root relation as in the tree), written through
    NLTK's ten-column (CoNLL) reader, tab-separated: form, lemma, UPOS (``ctag``), XPOS
    (``tag``), features, head and relation come back unchanged from
    :func:`from_dependency_graph`."""
    n = len(tree)

    def column(values):
        return values if len(values) == n else ("_",) * n  # a tree built without the column

    lines = ["\t".join((str(k), form, lemma, upos, xpos, feats, str(int(head)), rel, "_", "_"))
             for k, (form, lemma, upos, xpos, feats, head, rel) in enumerate(zip(
                 tree.forms, column(tree.lemmas), tree.upos, column(tree.xpos), column(tree.feats), tree.heads,
                 tree.deprels), start=1)]
    from nltk.parse import DependencyGraph  # lazy: import time

    roots = {rel for head, rel in zip(tree.heads, tree.deprels) if head == 0}
    return DependencyGraph("\n".join(lines), cell_separator="\t", top_relation_label=next(iter(roots), "ROOT"))
