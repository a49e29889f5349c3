"""NLTK dependency graphs (``nltk.parse.DependencyGraph``) to and from :class:`DependencyTree`s,
and scoring of NLTK-parsed trees against gold trees in one call."""
from __future__ import annotations

import warnings
from typing import Any, Dict, Optional, Sequence, Union

import nltk
from nltk.parse import DependencyGraph

from ..errors import InvalidTreeError, Location, UndefinedMetricWarning
from ..trees import DependencyTree


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
    roots = {rel for head, rel in zip(tree.heads, tree.deprels) if head == 0}
    return DependencyGraph("\n".join(lines), top_relation_label=next(iter(roots), "ROOT"))


def score_nltk_trees(gold: Sequence[Union[nltk.Tree, DependencyGraph]],
                     predicted: Sequence[Union[nltk.Tree, DependencyGraph]], **options: Any) -> Dict[str, Any]:
    """Every metric for NLTK-parsed trees against gold trees, in one call.

    Phrase trees (``nltk.Tree``): leaf-ancestor (``la``, ``la_words``), GEIG labelled and
    unlabelled F, α between gold and parse, bracket Jaccard. Dependency graphs: the parser
    metrics of :mod:`spacy_agreement.evaluation.parser_metrics` and α. ``options`` go to the
    leaf-ancestor scorer (``cost``, ``evalb``) or to ``EvaluationOptions``.
    """
    from ..agreement.accuracy import pairwise_accuracy
    from ..agreement.alpha import alpha
    from ..corpus import Corpus

    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold trees but {len(predicted)} parses")
    if not gold:
        raise ValueError("no trees to score")
    if isinstance(gold[0], DependencyGraph):
        from ..evaluation.parser_metrics import EvaluationOptions, evaluate

        g = [from_dependency_graph(t, Location("gold", k)) for k, t in enumerate(gold, 1)]
        p = [from_dependency_graph(t, Location("parsed", k)) for k, t in enumerate(predicted, 1)]
        out: Dict[str, Any] = evaluate(g, p, EvaluationOptions(**options)).to_dict()
    else:
        from .brackets import from_nltk_trees
        from ..evaluation.leaf_ancestor import leaf_ancestor

        words_g = from_nltk_trees(gold, leaves="categories", name="gold")
        words_p = from_nltk_trees(predicted, leaves="categories", name="parsed")
        out = leaf_ancestor(words_g, words_p, **options).to_dict(sentences=False)
        # α and Jaccard compare the trees without their words (Skjærholt 2014, §2)
        g = from_nltk_trees(gold, name="gold")
        p = from_nltk_trees(predicted, name="parsed")
        out["jaccard"] = pairwise_accuracy(Corpus.from_items([[a, b] for a, b in zip(g, p)])).scores["jaccard"]
    with warnings.catch_warnings():  # undefined α is reported as nan in the result
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        result = alpha([[a, b] for a, b in zip(g, p)])
    out.update(alpha_plain=result.alpha_plain, alpha_diff=result.alpha_diff, alpha_norm=result.alpha_norm)
    return out
