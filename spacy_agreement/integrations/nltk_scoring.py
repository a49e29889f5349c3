"""Scoring NLTK parses against gold trees in one call (an integration: it converts through
the adapters, then runs the metrics)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Union

from ..adapters.brackets import from_nltk_trees
from ..adapters.nltk_graph import from_dependency_graph
from ..agreement.accuracy import pairwise_accuracy
from ..agreement.alpha import alpha as alpha_of
from ..corpus import Corpus
from ..adapters.objects import kind_of
from ..errors import EmptyInputError, Location, MismatchedCorpusError
from ..evaluation.constituency.leaf_ancestor import leaf_ancestor
from ..evaluation.dependency.metrics import EvaluationSettings, evaluate

if TYPE_CHECKING:
    import nltk
    from nltk.parse import DependencyGraph


def _sentences(trees: Any) -> List[Any]:
    """The sentences given: one NLTK ``Tree`` or ``DependencyGraph`` is one sentence (never
    its subtrees), anything else an iterable of them."""
    if kind_of(trees) in ("nltk_tree", "graph"):
        return [trees]
    return list(trees)


def score_nltk_trees(gold: Sequence[Union[nltk.Tree, DependencyGraph]],
                     predicted: Sequence[Union[nltk.Tree, DependencyGraph]], alpha: str = "auto",
                     alpha_budget: Optional[float] = None, **options: Any) -> Dict[str, Any]:
    """Every metric for NLTK-parsed trees against gold trees, in one call.

    Phrase trees (``nltk.Tree``): leaf-ancestor (``leaf_ancestor``, ``leaf_ancestor_words``), GEIG labelled and
    unlabelled F, α between gold and parse, bracket Jaccard. Dependency graphs: the parser
    metrics of :mod:`spacy_agreement.evaluation.dependency.metrics` (``label_map``,
    ``ignore_subtypes`` and the other ``EvaluationSettings`` apply) and α; the graphs keep their
    lemmas, UPOS (``ctag``), XPOS (``tag``) and features
    (:func:`~spacy_agreement.adapters.nltk_graph.from_dependency_graph`), so MLAS and BLEX, like
    every other metric, are those of ``spacy-agreement evaluate`` on the same parses written as
    CoNLL-U with the same options. ``options`` go to
    the leaf-ancestor scorer (``cost``, ``evalb``) or to ``EvaluationSettings``.

    α follows the package's policy (:mod:`~spacy_agreement.agreement.policy`): ``alpha="auto"``
    computes it exactly when that costs at most ``alpha_budget`` DP cells and estimates it
    from random pairs otherwise (``alpha_method`` says which, with ``alpha_<δ>_low``/``_high``
    when sampled); ``"exact"``, ``"sampled"`` or ``"off"`` choose.
    """
    from nltk.parse import DependencyGraph  # lazy: import time

    gold, predicted = _sentences(gold), _sentences(predicted)
    if len(gold) != len(predicted):
        raise MismatchedCorpusError(f"{len(gold)} gold trees but {len(predicted)} parses")
    if not gold:
        raise EmptyInputError("no trees to score", option="gold")
    if isinstance(gold[0], DependencyGraph):
        g = [from_dependency_graph(t, Location("gold", k)) for k, t in enumerate(gold, 1)]
        p = [from_dependency_graph(t, Location("parsed", k)) for k, t in enumerate(predicted, 1)]
        out: Dict[str, Any] = evaluate(g, p, EvaluationSettings(**options)).to_dict()
    else:
        words_g = from_nltk_trees(gold, leaves="categories", name="gold")
        words_p = from_nltk_trees(predicted, leaves="categories", name="parsed")
        out = leaf_ancestor(words_g, words_p, **options).to_dict(sentences=False)
        # α and Jaccard compare the trees without their words (Skjærholt 2014, §2)
        g = from_nltk_trees(gold, name="gold")
        p = from_nltk_trees(predicted, name="parsed")
        out["jaccard"] = pairwise_accuracy(Corpus.from_items([[a, b] for a, b in zip(g, p)])).scores["jaccard"]
    if alpha == "off":
        out["alpha_method"] = "off"
        return out
    # undefined α: nan and a warning, as everywhere
    result = alpha_of([[a, b] for a, b in zip(g, p)], method=alpha, budget=alpha_budget)
    values = result.to_dict()
    out.update({k: v for k, v in values.items() if k.startswith("alpha_")})
    out["alpha_signature"] = result.signature
    return out
