"""Leaf-ancestor and GEIG (Sampson & Babarczy 2003): the paper's examples word by word, the
lineage round trip, the weighted Levenshtein kernel against a slow reference, bad input."""
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement import _core
from spacy_agreement.cli import app
from spacy_agreement.evaluation.constituency.geig import EvalbSettings, bracket_counts
from spacy_agreement.evaluation.constituency.leaf_ancestor import first_char_cost, leaf_ancestor
from spacy_agreement.evaluation.constituency.lineage import as_tuple, dependency_lineages, phrase_lineages, rebuild

from ..strategies import labelled_trees


def paper(text):
    """The paper's bracket notation ``[S a [NP b c ] ]`` as a phrase tree with words as leaves."""
    return sa.parse_brackets(text.replace("[", "(").replace(" ]", ")"), leaves="categories")[0]


EXAMPLE_1 = ("[S [N1 two [N1 tax revision ] bills ] were passed ]", "[S [NP two tax revision bills ] were passed ]")
EXAMPLE_1_WORDS = [
    (0.917, "two", "N1 [ S", "NP [ S"),
    (0.583, "tax", "[ N1 N1 S", "NP S"),
    (0.583, "revision", "N1 ] N1 S", "NP S"),
    (0.917, "bills", "N1 ] S", "NP ] S"),
    (1.000, "were", "S", "S"),
    (1.000, "passed", "S ]", "S ]"),
]
# The corrected version: the bracket before "and reduce" is S in the gold standard.
EXAMPLE_11 = (
    "[S however , [NP the jury ] said [S it believes [S [NP these two offices ] should be combined [VP to achieve "
    "[N1 greater efficiency ] [S and reduce [NP the cost [PP of administration ] ] ] ] ] ] ]",
    "[S however , [NP the jury ] said [S it believes [NP these two ] [S offices should be combined [VP to [VP "
    "achieve [N1 greater efficiency ] [VP and reduce [NP the cost [PP of administration ] ] ] ] ] ] ] ]",
)
EXAMPLE_11_WORDS = [
    (1.000, "however", "[ S", "[ S"), (1.000, ",", "S", "S"), (1.000, "the", "[ NP S", "[ NP S"),
    (1.000, "jury", "NP ] S", "NP ] S"), (1.000, "said", "S", "S"), (1.000, "it", "[ S S", "[ S S"),
    (1.000, "believes", "S S", "S S"), (0.667, "these", "NP [ S S S", "[ NP S S"),
    (0.750, "two", "NP S S S", "NP ] S S"), (0.667, "offices", "NP ] S S S", "[ S S S"),
    (1.000, "should", "S S S", "S S S"), (1.000, "be", "S S S", "S S S"), (1.000, "combined", "S S S", "S S S"),
    (1.000, "to", "[ VP S S S", "[ VP S S S"), (0.800, "achieve", "VP S S S", "[ VP VP S S S"),
    (0.923, "greater", "[ N1 VP S S S", "[ N1 VP VP S S S"), (0.923, "efficiency", "N1 ] VP S S S", "N1 ] VP VP S S S"),
    (0.769, "and", "[ S VP S S S", "[ VP VP VP S S S"), (0.727, "reduce", "S VP S S S", "VP VP VP S S S"),
    (0.800, "the", "[ NP S VP S S S", "[ NP VP VP VP S S S"), (0.769, "cost", "NP S VP S S S", "NP VP VP VP S S S"),
    (0.824, "of", "[ PP NP S VP S S S", "[ PP NP VP VP VP S S S"),
    (0.824, "administration", "PP NP S VP S S S ]", "PP NP VP VP VP S S S ]"),
]


@pytest.mark.parametrize("example, words, triplet", [
    (EXAMPLE_1, EXAMPLE_1_WORDS, (0.800, 0.400, 0.833)),
    (EXAMPLE_11, EXAMPLE_11_WORDS, (0.762, 0.667, 0.889)),
])
def test_worked_examples_word_by_word(example, words, triplet):
    result = leaf_ancestor([paper(example[0])], [paper(example[1])], cost="first-char")
    sentence = result.sentences[0]
    assert [(round(w.score, 3), w.word, " ".join(w.gold_lineage), " ".join(w.candidate_lineage))
            for w in sentence.words] == words
    geig = sentence.geig()
    assert (round(geig["geig_unlabelled"], 3), round(geig["geig_labelled"], 3), round(sentence.la, 3)) == triplet


# (GEIG/unlabelled, GEIG/labelled, LA) of the paper's other numbered examples
EXAMPLES = {
    2: ("[S it is not [NP a mess [S you can make sense of ] ] ]",
        "[S it is not [NP a mess [S you can make sense ] ] of ]", (0.333, 0.333, 0.952)),
    3: ("[S yes , [S for they deal [PP with distress ] ] ]",
        "[T yes , [PP for they deal [PP with distress ] ] ]", (1.0, 0.333, 0.262)),
    4: ("[S then he began [VP to speak [PP about [NP the tension [PP in art ] [PP between [NP the mess [N1 and form ] ] ] ] ] ] ]",
        "[S then he began [VP to speak [PP about [NP the tension ] ] [PP in [N1 art [PP between [NP the mess ] ] [N1 and form ] ] ] ] ]",
        (0.353, 0.353, 0.921)),
    5: ("[S Alusik then moved Cooke across [PP with [NP a line drive [PP to left ] ] ] ]",
        "[S Alusik then moved Cooke across [PP with [NP a line drive ] ] [PP to left ] ]", (0.500, 0.500, 0.942)),
    6: ("[S [NP their heads ] were [PP in [NP the air ] ] sniffing ]",
        "[S [NP their heads ] were [PP in [NP the air sniffing ] ] ]", (0.500, 0.500, 0.932)),
    7: ("[S [NP its ribs ] showed , [S it was [NP a yellow nondescript color ] ] , [S it suffered [PP from [NP a variety "
        "[PP of sores ] ] ] ] , [S hair had scabbed [PP off [NP its body ] ] [PP in patches ] ] ]",
        "[T [S [NP its ribs ] showed ] , [S it was [NP a yellow nondescript color ] ] , [S it suffered [PP from [NP a "
        "variety [PP of sores ] ] ] ] , [S hair had scabbed off [NP its body ] [PP in patches ] ] ]",
        (0.917, 0.833, 0.589)),
    8: ("[S [S when [NP the crowd ] was asked [S whether it wanted [VP to wait [NP one more term ] [VP to make [NP the "
        "race ] ] ] ] ] , it voted no – [S and there were [NP no dissents ] ] ]",
        "[T [S [PP when [NP the crowd ] was asked [PP whether it wanted [VP to wait [NP one more term ] [VP to make [NP "
        "the race ] ] ] ] ] , it voted no ] – [S and there were [NP no dissents ] ] ]",
        (0.952, 0.667, 0.543)),
    # 9C prints "n’t" with a typographic apostrophe where 9G has "n't": the same word
    9: ("[S [S we wo +n't know [NP the full amount ] [S until we get [NP a full report ] ] ] , Wagner said ]",
        "[T [S we wo +n't know [NP the full amount ] [PP until we get [NP a full report ] ] ] , [S Wagner said ] ]",
        (0.909, 0.545, 0.531)),
    10: ("[S [S [NP her husband ] was lying [PP on [NP the kitchen floor ] ] ] , police said ]",
         "[T [S [NP her husband ] was lying [PP on [NP the kitchen floor ] ] ] , [S police said ] ]",
         (0.909, 0.727, 0.627)),
}


@pytest.mark.parametrize("number", sorted(EXAMPLES))
def test_numbered_examples_triplets(number):
    gold, candidate, triplet = EXAMPLES[number]
    sentence = leaf_ancestor([paper(gold)], [paper(candidate)], cost="first-char").sentences[0]
    geig = sentence.geig()
    got = (round(geig["geig_unlabelled"], 3), round(geig["geig_labelled"], 3), round(sentence.la, 3))
    assert got == tuple(round(x, 3) for x in triplet)


def test_corpus_averages_and_error_location():
    pairs = [EXAMPLE_1, EXAMPLE_11] + [EXAMPLES[k][:2] for k in (2, 3)]
    result = leaf_ancestor([paper(g) for g, _ in pairs], [paper(c) for _, c in pairs], cost="first-char")
    las = [s.la for s in result.sentences]
    assert result.la == pytest.approx(np.mean(las))
    scores = [w.score for s in result.sentences for w in s.words]
    assert result.la_words == pytest.approx(np.mean(scores))
    # example 11: the worst words are these/offices, and the worst stretch is these two offices
    eleven = result.sentences[1]
    assert [w.word for _, w in eleven.worst_words(2)] == ["these", "offices"]
    # stretches: achieve .. administration loses 1.64, these two offices 0.917
    assert [(f, l) for f, l, _ in eleven.stretches()] == [(15, 23), (8, 10)]
    assert eleven.stretches()[1][2] == pytest.approx((1 - 2 / 3) + 0.25 + (1 - 2 / 3))
    rows = result.error_configurations(n=2, min_count=2)
    assert rows and all(count >= 2 for _, count, _ in rows)
    assert rows == sorted(rows, key=lambda r: (r[2], -r[1]))
    geig = result.to_dict(sentences=False)
    assert 0 < geig["geig_labelled"] < geig["geig_unlabelled"] < 1
    # the reference path keeps its sentences: its corpus figure is their mean too (not their median:
    # the four sentence scores here have a different mean and median)
    from spacy_agreement.evaluation.constituency.leaf_ancestor_reference import leaf_ancestor_reference

    reference = leaf_ancestor_reference([paper(g) for g, _ in pairs], [paper(c) for _, c in pairs], cost="first-char")
    sentence_means = [float(np.mean([w.score for w in s.words])) for s in reference.sentences]
    assert np.mean(sentence_means) != pytest.approx(np.median(sentence_means))
    assert reference.leaf_ancestor == pytest.approx(np.mean(sentence_means), rel=1e-12)
    assert reference.leaf_ancestor == pytest.approx(result.la, rel=1e-12)


def test_exact_costs_give_no_partial_credit():
    gold, cand = paper(EXAMPLE_1[0]), paper(EXAMPLE_1[1])
    exact = leaf_ancestor([gold], [cand], cost="exact").sentences[0]
    # revision: N1 ] N1 S against NP S: replace N1 by NP (2) or delete+insert; best 1 - 4/6
    assert round(exact.words[2].score, 3) == round(1 - 4 / 6, 3)
    custom = leaf_ancestor([gold], [cand], cost={("N1", "NP"): 0.5, ("NP", "N1"): 0.5}).sentences[0]
    assert [round(w.score, 3) for w in custom.words] == [w[0] for w in EXAMPLE_1_WORDS]


def test_penn_style_drops_preterminals_and_root_bracket_counts():
    gold = sa.parse_brackets("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))", leaves="categories")[0]
    cand = sa.parse_brackets("(S (NP (DT the)) (VP (NN dog) (VBZ barks)))", leaves="categories")[0]
    lineages = phrase_lineages(gold)
    assert lineages.words == ("the", "dog", "barks") and lineages.text(0) == "NP [ S"
    counts = bracket_counts(gold, cand)
    # gold S(0-2) NP(0-1) VP(2-2); candidate S(0-2) NP(0-0) VP(1-2): only S matches
    assert (counts.gold, counts.candidate, counts.matched_labelled) == (3, 3, 1)


def test_evalb_parameter_file(tmp_path):
    params_file = tmp_path / "COLLINS.prm"
    params_file.write_text("DEBUG 0\nDELETE_LABEL TOP\nDELETE_LABEL ,\nDELETE_LABEL_FOR_LENGTH -NONE-\n"
                           "EQ_LABEL ADVP PRT\n", encoding="utf-8")
    params = EvalbSettings.read(params_file)
    gold = sa.parse_brackets("(TOP (S (NP-SBJ (NN it)) (, ,) (VP (VBD ran) (ADVP (RB off)))))", leaves="categories")[0]
    cand = sa.parse_brackets("(TOP (S (NP (NN it)) (, ,) (VP (VBD ran) (PRT (RP off)))))", leaves="categories")[0]
    counts = bracket_counts(gold, cand, params)
    # TOP deleted; "," deleted with its word; NP-SBJ = NP; ADVP = PRT: S NP VP ADVP all match
    assert (counts.gold, counts.candidate, counts.matched_labelled, counts.matched_unlabelled) == (4, 4, 4, 4)
    without = bracket_counts(gold, cand)
    assert without.matched_labelled == 4 and without.gold == 5  # TOP counted, ADVP != PRT, NP-SBJ = NP


def test_words_must_match():
    # sentence by sentence, as EVALB: a sentence whose words differ is skipped and listed
    result = leaf_ancestor([paper("[S a b ]"), paper("[S a b ]"), paper("[S a b ]")],
                           [paper("[S a x ]"), paper("[S a b c ]"), paper("[S a b ]")])
    assert len(result.sentences) == 1 and result.la == 1.0
    assert "word 2 is 'b' in gold but 'x' in the candidate" in result.skipped[0]
    assert "2 words in gold, 3" in result.skipped[1]
    assert result.brackets.errors == 2 and result.to_dict()["sentences_skipped"] == 2
    with pytest.raises(sa.MismatchedCorpusError, match="word 2 is 'b' in gold but 'x' in the candidate"):
        leaf_ancestor([paper("[S a b ]")], [paper("[S a x ]")], strict=True)
    with pytest.raises(sa.MismatchedCorpusError, match="2 words in gold, 3"):
        leaf_ancestor([paper("[S a b ]")], [paper("[S a b c ]")], strict=True)


def test_traces_and_deleted_words_leave_the_lineages_with_evalb_params():
    """Gold with -NONE- traces against a parse without them (the usual WSJ case): with EVALB
    parameters the deleted words leave the lineages, as EVALB removes them before comparing."""
    params = EvalbSettings.parse("DELETE_LABEL -NONE-\nDELETE_LABEL ,\n")
    gold = sa.parse_brackets("( (S (NP-SBJ-1 (DT The) (NN dog)) (VP (VBD was) (VP (VBN seen) (NP (-NONE- *-1))))"
                             " (, ,)) )", leaves="categories")
    cand = sa.parse_brackets("(S (NP (DT The) (NN dog)) (VP (VBD was) (VP (VBN seen))))", leaves="categories")
    with_params = leaf_ancestor(gold, cand, evalb=params)
    assert not with_params.skipped and len(with_params.sentences[0].words) == 4
    # the lineages of the four words are those of the trees without the trace, its NP and the comma
    pruned = sa.parse_brackets("(S (NP-SBJ-1 (DT The) (NN dog)) (VP (VBD was) (VP (VBN seen))))",
                               leaves="categories")
    assert with_params.la == leaf_ancestor(pruned, cand).la
    # GEIG as EVALB: outer bracket, S, NP, VP, VP in gold (the trace's NP is deleted), 4 in the parse
    assert (with_params.brackets.gold, with_params.brackets.candidate) == (5, 4)
    # without parameters nothing is deleted: the words differ and the sentence is skipped
    assert leaf_ancestor(gold, cand).skipped


def test_dependency_lineages():
    # The dog chased a cat: det nsubj root det obj
    tree = sa.DependencyTree.create([2, 3, 0, 5, 3], ["det", "nsubj", "root", "det", "obj"],
                                    forms=["The", "dog", "chased", "a", "cat"])
    lineages = dependency_lineages(tree)
    # yields: The {1}, dog {1-2}, chased {1-5}, a {4}, cat {4-5}
    assert [lineages.text(k) for k in range(5)] == [
        "det ] nsubj [ root", "nsubj ] root", "root", "det ] [ obj root", "obj root ]"]
    other = sa.DependencyTree.create([3, 3, 0, 5, 3], ["det", "nsubj", "root", "det", "obj"],
                                     forms=["The", "dog", "chased", "a", "cat"])
    result = leaf_ancestor([tree], [other])
    assert result.sentences[0].words[2].score == 1.0 and result.sentences[0].words[0].score < 1.0
    assert result.brackets is None and "geig_labelled" not in result.to_dict(sentences=False)


def to_paper_tree(tree, counter):
    """A random labelled tree with fresh words w0, w1, ... as leaves."""
    label, children = tree
    if not children:
        word = f"w{counter[0]}"
        counter[0] += 1
        return (word, ())
    return (label, tuple(to_paper_tree(c, counter) for c in children))


def to_text(tree):
    label, children = tree
    return label if not children else f"({label} {' '.join(to_text(c) for c in children)})"


@settings(max_examples=400, deadline=None)
@given(labelled_trees(labels=["A", "B", "C"], max_nodes=14))
def test_lineages_determine_their_tree(tree):
    if not tree[1]:
        return  # a lone word has no lineage to speak of
    words_tree = to_paper_tree(tree, [0])
    phrase = sa.parse_brackets(to_text(words_tree), leaves="categories")[0]
    lineages = phrase_lineages(phrase, preterminals="keep")
    assert rebuild(lineages) == as_tuple(phrase)


def slow_levenshtein(a, b, cost):
    rows = [[0.0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        for j in range(len(b) + 1):
            if i == 0 or j == 0:
                rows[i][j] = float(i + j)
                continue
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost[a[i - 1]][b[j - 1]])
    return rows[len(a)][len(b)]


@settings(max_examples=500, deadline=None)
@given(st.integers(1, 6).flatmap(lambda k: st.tuples(
    st.lists(st.integers(0, k - 1), max_size=12), st.lists(st.integers(0, k - 1), max_size=12),
    st.lists(st.lists(st.floats(0, 2), min_size=k, max_size=k), min_size=k, max_size=k))))
def test_weighted_levenshtein_kernel_matches_reference(case):
    a, b, cost = case
    symbols = np.array(a + b, dtype=np.int32)
    offsets = np.array([0, len(a), len(a) + len(b)], dtype=np.int64)
    got = _core.levenshtein_pairs(symbols, offsets, np.array([0]), np.array([1]), np.array(cost))
    assert got[0] == pytest.approx(slow_levenshtein(a, b, cost), abs=1e-9)
    plain = _core.levenshtein_pairs(symbols, offsets, np.array([0]), np.array([1]))
    unit = [[0.0 if i == j else 1.0 for j in range(len(cost))] for i in range(len(cost))]
    assert plain[0] == slow_levenshtein(a, b, unit)


def test_first_char_costs():
    assert first_char_cost("NP", "N1") == 0.5 and first_char_cost("NP", "VP") == 2.0
    assert first_char_cost("[", "]") == 2.0 and first_char_cost("S", "S") == 0.0


def test_cli_leaf_ancestor_json_and_table(tmp_path):
    gold = tmp_path / "gold.mrg"
    cand = tmp_path / "cand.mrg"
    gold.write_text("\n".join(t[0].replace("[", "(").replace(" ]", ")") for t in (EXAMPLE_1, EXAMPLE_11)) + "\n",
                    encoding="utf-8")
    cand.write_text("\n".join(t[1].replace("[", "(").replace(" ]", ")") for t in (EXAMPLE_1, EXAMPLE_11)) + "\n",
                    encoding="utf-8")
    result = CliRunner().invoke(app, ["leaf-ancestor", str(gold), str(cand), "--costs", "first-char", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert {"leaf_ancestor", "leaf_ancestor_words", "geig_unlabelled", "geig_labelled", "sentences"} <= set(out)
    first = out["sentences"][0]
    assert round(first["leaf_ancestor"], 3) == 0.833 and round(first["geig_labelled"], 3) == 0.4
    assert first["words"][1] == {"word": "tax", "score": pytest.approx(0.5833, abs=1e-4),
                                 "gold_lineage": "[ N1 N1 S", "candidate_lineage": "NP S"}
    table = CliRunner().invoke(app, ["leaf-ancestor", str(gold), str(cand), "--costs", "first-char"])
    assert table.exit_code == 0 and  " 58.33   tax" in table.output
    bad = tmp_path / "bad.mrg"
    bad.write_text("(S (NP a b) c)\n(S (NP a b) d\n", encoding="utf-8")
    error = CliRunner().invoke(app, ["leaf-ancestor", str(gold), str(bad)])
    assert error.exit_code == 1 and f"{bad}:2: sentence 2: " in error.output
