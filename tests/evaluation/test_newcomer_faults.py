"""Faults a newcomer met in the library (issue 27), each with the test that failed before its
fix: GEIG over no bracket is undefined (nan and UndefinedMetricWarning, as EVALB prints
``-nan``), not 1.0, in leaf_ancestor and score_nltk_trees; to_nltk gives the words back."""
import math

import nltk
import pytest

import spacy_agreement as sa
from spacy_agreement.adapters import to_nltk
from spacy_agreement.evaluation.constituency.geig import BracketCounts
from spacy_agreement.evaluation.constituency.leaf_ancestor import leaf_ancestor


def test_geig_of_no_bracket_is_undefined():
    with pytest.warns(sa.UndefinedMetricWarning, match="geig is undefined"):
        scores = BracketCounts(skipped=1, errors=2).scores()
    assert all(math.isnan(v) for v in scores.values()), scores
    assert set(scores) >= {"geig_unlabelled", "geig_labelled", "precision_labelled", "recall_unlabelled"}


def test_geig_still_zero_when_nothing_matches_and_one_when_all_do():
    assert BracketCounts(gold=3, candidate=2).scores()["geig_labelled"] == 0.0
    assert BracketCounts(gold=2, candidate=2, matched_labelled=2, matched_unlabelled=2).scores()["geig_labelled"] == 1


def test_leaf_ancestor_with_every_sentence_an_error_has_undefined_geig():
    gold = sa.parse_brackets("(S (NP (DT a)) (VP (VB b)))\n(S (X y))", leaves="categories")
    cand = sa.parse_brackets("(S (NP (DT c)) (VP (VB b)))\n(S (X z))", leaves="categories")
    with pytest.warns(sa.UndefinedMetricWarning) as seen:
        out = leaf_ancestor(gold, cand).to_dict(sentences=False)
    assert math.isnan(out["geig_labelled"]) and math.isnan(out["geig_unlabelled"])
    assert out["error_sentences"] == 2
    assert {w.message.metric for w in seen} >= {"geig", "leaf_ancestor", "leaf_ancestor_words"}


def test_score_nltk_trees_with_no_valid_sentence_is_undefined():
    gold = [nltk.Tree.fromstring("(S (NP (DT a)) (VP (VB b)))")]
    parsed = [nltk.Tree.fromstring("(S (NP (DT c)) (VP (VB b)))")]
    with pytest.warns(sa.UndefinedMetricWarning) as seen:
        scores = sa.score_nltk_trees(gold, parsed, alpha="off")
    assert {w.message.metric for w in seen} == {"geig", "leaf_ancestor", "leaf_ancestor_words"}
    assert math.isnan(scores["geig_labelled"]) and math.isnan(scores["geig_unlabelled"])
    assert math.isnan(scores["leaf_ancestor"])


def test_to_nltk_gives_the_words_back():
    text = "(S (NP (DT the) (NN dog)) (VP (VBZ barks)))"
    tree = sa.from_nltk(nltk.Tree.fromstring(text))
    assert tree.words == ("the", "dog", "barks")
    assert to_nltk(tree) == nltk.Tree.fromstring(text)
    read = sa.parse_brackets("( (S (NP (PRP It)) (VP (VBD waited))) )")[0]
    assert to_nltk(read) == nltk.Tree.fromstring("(S (NP (PRP It)) (VP (VBD waited)))")


def test_to_nltk_of_a_tree_without_words_keeps_its_leaves():
    tree = sa.parse_brackets("(S (NP P) (VP V (NP D N)))")[0]
    assert tree.words is None
    assert to_nltk(tree) == nltk.Tree.fromstring("(S (NP (P )) (VP (V ) (NP (D ) (N ))))")
    assert sa.tree_edit_distance(tree, sa.from_nltk(to_nltk(tree), leaves="categories")) == 0
