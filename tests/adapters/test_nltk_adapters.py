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
    assert scores["sentences_scored"] == 2 and scores["alpha_plain"] == pytest.approx(0.0)


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


# French with a multiword token (du = de le), lemmas, features and XPOS; the parse differs
# in a lemma, a feature, a functional child's relation and a content word's head
GOLD_CONLLU = """# sent_id = 1
# text = Il parle du chat.
1\tIl\til\tPRON\tCLS\tGender=Masc|Number=Sing|Person=3\t2\tnsubj\t_\t_
2\tparle\tparler\tVERB\tV\tMood=Ind|Number=Sing|Person=3|Tense=Pres\t0\troot\t_\t_
3-4\tdu\t_\t_\t_\t_\t_\t_\t_\t_
3\tde\tde\tADP\tP\t_\t5\tcase\t_\t_
4\tle\tle\tDET\tDET\tDefinite=Def|Gender=Masc|Number=Sing\t5\tdet\t_\t_
5\tchat\tchat\tNOUN\tNC\tGender=Masc|Number=Sing\t2\tobl\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\tPONCT\t_\t2\tpunct\t_\t_

# sent_id = 2
# text = Elle mange une pomme verte.
1\tElle\telle\tPRON\tCLS\tGender=Fem|Number=Sing|Person=3\t2\tnsubj\t_\t_
2\tmange\tmanger\tVERB\tV\tMood=Ind|Number=Sing|Person=3|Tense=Pres\t0\troot\t_\t_
3\tune\tun\tDET\tDET\tDefinite=Ind|Gender=Fem|Number=Sing\t4\tdet\t_\t_
4\tpomme\tpomme\tNOUN\tNC\tGender=Fem|Number=Sing\t2\tobj\t_\t_
5\tverte\tvert\tADJ\tADJ\tGender=Fem|Number=Sing\t4\tamod\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\tPONCT\t_\t2\tpunct\t_\t_
"""
PARSED_CONLLU = """# sent_id = 1
# text = Il parle du chat.
1\tIl\til\tPRON\tCLS\tGender=Masc|Number=Sing|Person=3\t2\tnsubj\t_\t_
2\tparle\tparle\tVERB\tV\tMood=Ind|Number=Sing|Person=3|Tense=Pres\t0\troot\t_\t_
3-4\tdu\t_\t_\t_\t_\t_\t_\t_\t_
3\tde\tde\tADP\tP\t_\t5\tcase\t_\t_
4\tle\tle\tDET\tDET\tDefinite=Ind|Gender=Masc|Number=Sing\t5\tdet\t_\t_
5\tchat\tchat\tNOUN\tNC\tGender=Masc|Number=Sing\t2\tobl\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\tPONCT\t_\t2\tpunct\t_\t_

# sent_id = 2
# text = Elle mange une pomme verte.
1\tElle\telle\tPRON\tCLS\tGender=Fem|Number=Sing|Person=3\t2\tnsubj\t_\t_
2\tmange\tmanger\tVERB\tV\tMood=Ind|Number=Sing|Person=3|Tense=Pres\t0\troot\t_\t_
3\tune\tun\tDET\tDET\tDefinite=Ind|Gender=Fem|Number=Sing\t4\tdet\t_\t_
4\tpomme\tpomme\tNOUN\tNC\tGender=Fem\t2\tobj\t_\t_
5\tverte\tvert\tADJ\tADJ\tGender=Fem|Number=Sing\t2\tamod\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\tPONCT\t_\t2\tpunct\t_\t_
"""


def graphs_of(conllu):
    """NLTK's DependencyGraphs of CoNLL-U text (comments dropped; NLTK skips the range lines)."""
    return [DependencyGraph("\n".join(line for line in block.splitlines() if not line.startswith("#")),
                            cell_separator="\t", top_relation_label="root")
            for block in conllu.strip().split("\n\n")]


def test_dependency_graph_keeps_lemmas_tags_and_features():
    tree = sa.from_dependency_graph(graphs_of(GOLD_CONLLU)[0])
    assert tree.forms == ("Il", "parle", "de", "le", "chat", ".")
    assert tree.lemmas[1] == "parler" and tree.upos[3] == "DET" and tree.xpos[4] == "NC"
    assert tree.feats[0] == "Gender=Masc|Number=Sing|Person=3" and tree.feats[2] == "_"
    again = sa.from_dependency_graph(sa.to_dependency_graph(tree))
    for column in ("forms", "lemmas", "upos", "xpos", "feats", "deprels"):
        assert getattr(again, column) == getattr(tree, column), column
    assert again.heads.tolist() == tree.heads.tolist()
    read = sa.parse_conll(GOLD_CONLLU)[0]  # the same columns as the CoNLL-U reader gives
    for column in ("forms", "lemmas", "upos", "xpos", "feats", "deprels"):
        assert getattr(read, column) == getattr(tree, column), column
    # a tree built without the optional columns gives "_" for them, as NLTK writes
    bare = sa.from_dependency_graph(sa.to_dependency_graph(sa.DependencyTree.create([2, 0], ["nsubj", "root"])))
    assert bare.lemmas == ("_", "_") and bare.feats == ("_", "_") and bare.xpos == ("_", "_")


def test_score_dependency_graphs_equals_evaluate_on_the_conllu_files(tmp_path):
    """MLAS and BLEX (and every other metric) of NLTK graphs are those of the CLI's evaluate
    on the same parses written as CoNLL-U."""
    import json

    from typer.testing import CliRunner

    from spacy_agreement.cli import app

    gold, parsed = tmp_path / "gold.conllu", tmp_path / "parsed.conllu"
    gold.write_text(GOLD_CONLLU + "\n", encoding="utf-8")  # a blank line after the last sentence, as
    parsed.write_text(PARSED_CONLLU + "\n", encoding="utf-8")  # conll18_ud_eval.py (evaluate's default) requires
    result = CliRunner().invoke(app, ["evaluate", str(gold), str(parsed), "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    cli = json.loads(result.output)
    ours = sa.score_nltk_trees(graphs_of(GOLD_CONLLU), graphs_of(PARSED_CONLLU), alpha="off")
    # sentence 1: "parle" has the wrong lemma (BLEX), "chat"'s det child the wrong feature (MLAS);
    # sentence 2: "pomme" the wrong features (MLAS), "verte" the wrong head (all three)
    assert cli["clas"] == pytest.approx(2 * 6 / 14) and cli["blex"] == pytest.approx(2 * 5 / 14)
    assert cli["mlas"] == pytest.approx(2 * 4 / 14)
    metrics = [key for key, value in cli.items() if isinstance(value, float) and key in ours]
    assert {"las", "uas", "clas", "mlas", "blex"} <= set(metrics)
    for key in metrics:
        assert ours[key] == pytest.approx(cli[key], nan_ok=True), key
