"""NLTK: DependencyGraph both ways, Tree both ways, scoring NLTK-parsed trees in one call."""
import math

import nltk
import pytest
from nltk.parse import DependencyGraph

import spacy_agreement as sa

CONLL = "I\tPRON\t2\tnsubj\nsaw\tVERB\t0\troot\nhim\tPRON\t2\tobj\n.\tPUNCT\t2\tpunct\n"


def test_dependency_graph_round_trip():
    graph = DependencyGraph(CONLL, top_relation_label="root")
    tree = sa.from_dependency_graph(graph)
    assert tree.heads.tolist() == [2, 0, 2, 2] and tree.deprels == ("nsubj", "root", "obj", "punct")
    assert tree.forms == ("I", "saw", "him", ".") and tree.upos[1] == "VERB"
    again = sa.from_dependency_graph(sa.to_dependency_graph(tree))
    assert again.heads.tolist() == tree.heads.tolist() and again.deprels == tree.deprels
    assert sa.tree_edit_distance(tree, again) == 0


def test_score_dependency_graphs():
    gold = DependencyGraph(CONLL, top_relation_label="root")
    parsed = DependencyGraph(CONLL.replace("obj", "iobj"), top_relation_label="root")
    scores = sa.score_nltk_trees([gold, gold], [parsed, gold])
    assert scores["las"] == pytest.approx(7 / 8) and scores["uas"] == 1.0
    # items (gold, parse) and (gold, gold): Do = 2/4, De = 6/12, so alpha is exactly 0
    assert scores["sentences"] == 2 and scores["alpha_plain"] == pytest.approx(0.0)


def test_score_phrase_trees():
    gold = [nltk.Tree.fromstring("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))"),
            nltk.Tree.fromstring("(S (NP (PRP it)) (VP (VBD ran) (ADVP (RB away))))")]
    parsed = [nltk.Tree.fromstring("(S (NP (DT the)) (VP (NN dog) (VBZ barks)))"), gold[1]]
    scores = sa.score_nltk_trees(gold, parsed, cost="exact")
    assert scores["leaf_ancestor"] < 1 and scores["geig_labelled"] < 1
    # first: gold S NP(0-1) VP(2) against S NP(0) VP(1-2): 1 match of 3; second: 4 of 4 -> F = 5/7
    assert scores["geig_unlabelled"] == pytest.approx(5 / 7)
    assert scores["jaccard"] < 1 and not math.isnan(scores["alpha_plain"])
    with pytest.raises(ValueError, match="2 gold trees but 1 parses"):
        sa.score_nltk_trees(gold, parsed[:1])
