"""One converter from a spaCy Doc to a tree (adapters.spacy.doc_tree), with an explicit policy for a
head outside the sentence: raise, or re-attach to the root and count. The component and the scorer
use it and report the count; the component computes TED and leaf-ancestor once per sentence."""
import pytest

spacy = pytest.importorskip("spacy")
from spacy.tokens import Doc  # noqa: E402
from spacy.training import Example  # noqa: E402

import spacy_agreement as sa  # noqa: E402
import spacy_agreement.evaluation.constituency.leaf_ancestor as leaf_ancestor_module  # noqa: E402
import spacy_agreement.evaluation.dependency.metrics as parser_metrics  # noqa: E402
import spacy_agreement.integrations.spacy_components as components  # noqa: E402
from spacy_agreement.adapters.spacy import doc_tree  # noqa: E402
from spacy_agreement.integrations.spacy_components import alpha_over_docs, score_syntax  # noqa: E402

WORDS = ["a", "b", ".", "c", "d", "."]
HEADS = [1, 1, 1, 4, 4, 4]  # two sentences: roots b and d


def _doc(nlp):
    return Doc(nlp.vocab, words=WORDS, heads=HEADS, deps=["x", "ROOT", "p", "x", "ROOT", "p"])


def _outside(doc):
    """A stored analysis of the doc in which token 'a' attaches to 'c', in the next sentence."""
    heads, deps = components.doc_analysis(doc)
    heads = heads.copy()
    heads[0] = 3
    return heads, deps


def test_one_converter_raises_or_reattaches_and_counts():
    nlp = spacy.blank("en")
    doc = _doc(nlp)
    first = list(doc.sents)[0]
    assert doc_tree(doc, first.start, first.end)[0].heads.tolist() == sa.from_span(first).heads.tolist() == [2, 0, 2]
    with pytest.raises(sa.InvalidTreeError, match="lies outside the sentence"):
        doc_tree(doc, first.start, first.end, _outside(doc))
    tree, outside = doc_tree(doc, first.start, first.end, _outside(doc), heads_outside="root")
    assert tree.heads.tolist() == [0, 0, 2] and outside == 1
    with pytest.raises(sa.errors.BadOptionError):
        doc_tree(doc, 0, 3, heads_outside="ignore")


def test_component_reports_heads_outside_sentence():
    nlp = spacy.blank("en")
    nlp.add_pipe("syntax_agreement", config={"compare_with": ["other"]})
    doc = _doc(nlp)
    doc._.analyses = {"other": _outside(doc)}
    doc = nlp.get_pipe("syntax_agreement")(doc)
    first, second = doc.sents
    assert first._.agreement["other"]["heads_outside_sentence"] == 1
    assert second._.agreement["other"]["heads_outside_sentence"] == 0
    assert doc._.agreement["other"]["heads_outside_sentence"] == 1
    counts = {}
    alpha_over_docs([doc], ["other"], counts=counts)
    assert counts == {"other": 1, "current": 0}


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # no tags: UCP, LCP undefined
def test_scorer_reports_heads_outside_sentence():
    nlp = spacy.blank("en")
    scores = score_syntax([Example(_doc(nlp), _doc(nlp))])
    assert scores["dep_heads_outside_sentence"] == 0  # a doc is compared as one tree: no head lies outside it


def _module_if_there(name):
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def test_component_computes_ted_and_leaf_ancestor_once_per_sentence(monkeypatch):
    calls = {"ted": 0, "leaf_ancestor": 0}

    def counting(name, function):
        def counted(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)
        return counted

    monkeypatch.setattr(components, "tree_edit_distance", counting("ted", components.tree_edit_distance))
    monkeypatch.setattr(parser_metrics, "tree_edit_distance", counting("ted", parser_metrics.tree_edit_distance))
    for module in (leaf_ancestor_module, _module_if_there("spacy_agreement.evaluation.constituency."
                                                          "leaf_ancestor_reference")):
        if module is not None and hasattr(module, "score_lineages"):  # where it is defined and where it is called
            monkeypatch.setattr(module, "score_lineages", counting("leaf_ancestor", module.score_lineages))
    nlp = spacy.blank("en")
    nlp.add_pipe("analysis_snapshot", config={"key": "gold"})
    nlp.add_pipe("syntax_agreement", config={"compare_with": ["gold"],
                                             "metrics": ["las", "ted", "ted_distance", "leaf_ancestor"]})
    doc = nlp.get_pipe("analysis_snapshot")(_doc(nlp))
    doc = nlp.get_pipe("syntax_agreement")(doc)
    assert calls == {"ted": 2, "leaf_ancestor": 1}  # two sentences: one TED each, one leaf-ancestor pass
    assert doc._.agreement["gold"] == {"las": 1.0, "ted": 1.0, "ted_distance": 0.0, "leaf_ancestor": 1.0}
    assert [s._.agreement["gold"]["ted_distance"] for s in doc.sents] == [0.0, 0.0]
