"""Adapters only convert: CoNLL-U/CoNLL-X, bracketed strings and files, NLTK trees, spaCy Docs."""
import nltk
import numpy as np
import pytest

import spacy_agreement as sa
from spacy_agreement import LabelVocab
from spacy_agreement.adapters import ReadStats, read_conll, to_nltk, write_conll

CONLLU = """# sent_id = 1
# text = I saw the man.
1\tI\tI\tPRON\tPRP\tCase=Nom\t2\tnsubj\t2:nsubj\t_
2\tsaw\tsee\tVERB\tVBD\tTense=Past\t0\troot\t0:root\t_
3-4\tthe man\t_\t_\t_\t_\t_\t_\t_\t_
3\tthe\tthe\tDET\tDT\t_\t4\tdet\t4:det\t_
4\tman\tman\tNOUN\tNN\t_\t2\tobj\t2:obj\t_
4.1\tsaw\tsee\tVERB\tVBD\t_\t_\t_\t2:conj\t_
5\t.\t.\tPUNCT\t.\t_\t2\tpunct\t2:punct\t_

"""

CONLLX = "1\tI\tI\tPR\tPRP\tsg|nom\t2\tSUBJ\t_\t_\n2\tsaw\tsee\tV\tVBD\t_\t0\tPRED\t_\t_\n3\tthe\tthe\tD\tDT\t_\t4\tDET\t_\t_\n4\tman\tman\tN\tNN\t_\t2\tOBJ\t_\t_\n\n"


def labels_postorder(tree, vocab):
    ordered, _ = tree.to_ordered(vocab)
    return [vocab[i] for i in ordered.labels], ordered.parent.tolist()


def test_conllu_multiword_ranges_and_empty_nodes(tmp_path):
    path = tmp_path / "a.conllu"
    path.write_text(CONLLU, encoding="utf-8")
    stats = ReadStats()
    (tree,) = read_conll(path, stats=stats)
    assert tree.forms == ("I", "saw", "the", "man", ".")
    assert tree.heads.tolist() == [2, 0, 4, 2, 2]
    assert tree.deprels == ("nsubj", "root", "det", "obj", "punct")
    assert tree.upos[1] == "VERB"
    assert (stats.sentences, stats.multiword_ranges, stats.empty_nodes) == (1, 1, 1)
    assert str(tree.location) == f"{path}:1: sentence 1 (sent_id 1)"


def test_conllx_and_figure1_transformation():
    # Figure 1 of Skjærholt (2014): "I saw the man" -> ε(PRED(SUBJ, OBJ(DET)))
    (tree,) = sa.parse_conll(CONLLX)
    vocab = LabelVocab()
    labels, parent = labels_postorder(tree, vocab)
    assert labels == ["SUBJ", "DET", "OBJ", "PRED", ""]
    assert parent == [3, 2, 3, 4, -1]


def test_children_in_token_order_and_several_roots():
    # token 3 attaches before token 1 in the file order of heads; several roots are allowed
    tree = sa.DependencyTree.create([0, 0, 2, 2], ["a", "b", "c", "d"])
    labels, parent = labels_postorder(tree, LabelVocab())
    assert labels == ["a", "c", "d", "b", ""]
    assert parent == [4, 3, 3, 4, -1]


def test_write_conll_round_trip():
    trees = sa.parse_conll(CONLLX + CONLLX)
    again = sa.parse_conll(write_conll(trees))
    assert [t.heads.tolist() for t in again] == [t.heads.tolist() for t in trees]
    assert [t.deprels for t in again] == [t.deprels for t in trees]


def test_penn_style_drops_words():
    (tree,) = sa.parse_brackets("( (S (NP (DT the) (NN dog)) (VP (VBZ barks)) (. .)) )")
    assert tree.labels == ("DT", "NN", "NP", "VBZ", "VP", ".", "S")
    assert tree.words == ("the", "dog", "barks", ".")
    assert tree.n_leaves == 4
    assert sorted(tree.brackets()) == sorted(
        [(0, 0, "DT"), (1, 1, "NN"), (0, 1, "NP"), (2, 2, "VBZ"), (2, 2, "VP"), (3, 3, "."), (0, 3, "S")]
    )


def test_delexicalised_style_keeps_categories():
    (tree,) = sa.parse_brackets("(S (NP P) (VP V (NP D N)))")
    assert tree.labels == ("P", "NP", "V", "D", "N", "NP", "VP", "S")
    assert tree.words is None
    assert tree.n_leaves == 4
    # the same tree read explicitly as words would lose the leaves
    (lex,) = sa.parse_brackets("(S (NP P) (VP V (NP D N)))", leaves="words")
    assert lex.labels == ("NP", "NP", "VP", "S")


def test_ambiguous_style_can_be_forced():
    (auto,) = sa.parse_brackets("(S (NP P) (VP V))")
    (cats,) = sa.parse_brackets("(S (NP P) (VP V))", leaves="categories")
    assert auto.labels == ("NP", "VP", "S")
    assert cats.labels == ("P", "NP", "V", "VP", "S")


def test_bracket_file_with_multiline_trees(tmp_path):
    path = tmp_path / "x.tree"
    path.write_text("(S\n  (NP P)\n  (VP V (NP D N)))\n(S (NP P) (VP V))\n", encoding="utf-8")
    trees = sa.read_brackets(path)
    assert len(trees) == 2
    # style decided once per file: the second tree keeps its categories too
    assert trees[1].labels == ("P", "NP", "V", "VP", "S")
    assert str(trees[1].location) == f"{path}:4: sentence 2"  # the line the tree starts on


def test_nltk_tree_round_trip():
    tree = nltk.Tree.fromstring("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))")
    converted = sa.from_nltk(tree)
    back = to_nltk(converted)
    assert back == tree  # the words back under their preterminals (issue 27)
    assert sa.tree_edit_distance(converted, sa.from_nltk(back)) == 0
    bare = sa.parse_brackets("(S (NP P) (VP V (NP D N)))")[0]  # no words: leaves without children
    assert to_nltk(bare) == nltk.Tree.fromstring("(S (NP (P )) (VP (V ) (NP (D ) (N ))))")
    assert sa.tree_edit_distance(bare, sa.from_nltk(to_nltk(bare), leaves="categories")) == 0


def test_ted_phrase_trees_figure2_style():
    # only difference: a modifier -> distance counts the inserted nodes
    a = sa.parse_brackets("(S (NP P) (VP V (NP D N)))")[0]
    b = sa.parse_brackets("(S (NP P) (VP V (NP D A N)))")[0]
    assert sa.tree_edit_distance(a, b) == 1
    assert sa.delta(a, b, "diff") == 0
    # |x| is the sentence length (leaves: P V D N against P V D A N), §2 of the paper
    assert sa.delta(a, b, "norm") == pytest.approx(1 / (4 + 5))


def test_figure2_dependency_distances():
    # Skjærholt (2014) Figure 2: the two leftmost trees differ by a modifier: δplain 4, δdiff 0
    left = sa.DependencyTree.create([2, 0, 4, 2], ["SUBJ", "PRED", "DET", "OBJ"])
    mid = sa.DependencyTree.create(
        [2, 0, 4, 2, 4, 5, 8, 6], ["SUBJ", "PRED", "DET", "OBJ", "ATR", "PRED", "DET", "OBJ"]
    )
    assert sa.delta(left, mid, "plain") == 4
    assert sa.delta(left, mid, "diff") == 0
    # ... and the leftmost and rightmost (intransitive) trees too, despite the missing object
    right = sa.DependencyTree.create([2, 0], ["SUBJ", "PRED"])
    assert sa.delta(left, right, "plain") == 2
    assert sa.delta(left, right, "diff") == 0
    assert sa.delta(left, right, "norm") == pytest.approx(2 / 8)


@pytest.fixture(scope="module")
def nlp():
    spacy = pytest.importorskip("spacy")
    return spacy.blank("en")


def make_doc(nlp, words, heads, deps, spaces=None):
    from spacy.tokens import Doc

    return Doc(nlp.vocab, words=words, heads=heads, deps=deps, spaces=spaces)


def test_spacy_doc_and_span(nlp):
    words = ["I", "saw", "him", ".", "He", "left", "."]
    heads = [1, 1, 1, 1, 5, 5, 5]  # absolute token indices, roots point to themselves
    deps = ["nsubj", "ROOT", "obj", "punct", "nsubj", "ROOT", "punct"]
    doc = make_doc(nlp, words, heads, deps)
    trees = sa.from_doc(doc, name="doc1")
    assert len(trees) == 2
    assert trees[0].heads.tolist() == [2, 0, 2, 2]
    assert trees[1].heads.tolist() == [2, 0, 2]
    assert trees[1].forms == ("He", "left", ".")
    assert str(trees[1].location) == "doc1: sentence 2"  # no file line
    span_tree = sa.from_span(doc[4:7])
    assert span_tree.heads.tolist() == trees[1].heads.tolist()


def test_spacy_span_leaking_head_is_an_error(nlp):
    doc = make_doc(nlp, ["I", "saw", "him"], [1, 1, 1], ["nsubj", "ROOT", "obj"])
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.from_span(doc[2:3])
    assert "outside the sentence" in str(err.value)


def test_spacy_unparsed_doc_is_an_error(nlp):
    with pytest.raises(sa.InvalidTreeError):
        sa.from_doc(nlp("no parse here"))


def test_spacy_and_conll_give_the_same_tree(nlp):
    (from_file,) = sa.parse_conll(CONLLX)
    doc = make_doc(nlp, list(from_file.forms), [1, 1, 3, 1], ["SUBJ", "PRED", "DET", "OBJ"])
    (from_spacy,) = sa.from_doc(doc)
    assert sa.tree_edit_distance(from_file, from_spacy) == 0
    assert np.array_equal(from_file.heads, from_spacy.heads)
