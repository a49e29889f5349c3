"""Parser metrics (Plank et al. 2015, §2) on hand-built trees worked out on paper, and
LAS/UAS/LA against a slow independent implementation on random trees."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spacy_agreement as sa
from spacy_agreement.errors import MismatchedCorpusError
from spacy_agreement.evaluation.dependency.metrics import (
    EvaluationSettings,
    complete_predications,
    contract,
    evaluate,
    gold_depths,
    neutral_edge_direction,
    sentence_scores,
    ted_accuracy,
)

from ..strategies import dependency_heads

FORMS = ["The", "dog", "chased", "a", "cat", "in", "parks", "."]
UPOS = ["DET", "NOUN", "VERB", "DET", "NOUN", "ADP", "NOUN", "PUNCT"]
#          The  dog  chased  a  cat  in  parks  .
GOLD_H = [2, 3, 0, 5, 3, 7, 3, 3]
GOLD_L = ["det", "nsubj", "root", "det", "obj", "case", "obl", "punct"]


def tree(heads, labels, upos=UPOS, forms=FORMS):
    return sa.DependencyTree.create(heads, labels, forms=forms, upos=upos)


GOLD = tree(GOLD_H, GOLD_L)
# prediction: "parks" attached to "cat" as nmod (head wrong, label wrong),
# "a" labelled "nummod" (head right, label wrong), "." attached to "parks" (head wrong)
PRED = tree([2, 3, 0, 5, 3, 7, 5, 7], ["det", "nsubj", "root", "nummod", "obj", "case", "nmod", "punct"])


def test_las_uas_la_worked_example():
    s = sentence_scores(GOLD, PRED)
    # heads right: The dog chased a cat in (6 of 8); labels right: all but a, parks (6 of 8)
    # head and label right: The dog chased cat in (5 of 8)
    assert s["uas"] == 6 / 8 and s["la"] == 6 / 8 and s["las"] == 5 / 8


def test_punctuation_excluded_by_upos_or_label():
    s = sentence_scores(GOLD, PRED, EvaluationSettings(exclude_punct=True))
    assert s["uas"] == 6 / 7 and s["las"] == 5 / 7
    by_label_only = EvaluationSettings(exclude_punct=True, punct_upos=frozenset())
    assert sentence_scores(GOLD, PRED, by_label_only)["uas"] == 6 / 7


def test_ignore_label_subtypes():
    gold = tree(GOLD_H, [*GOLD_L[:6], "obl:tmod", "punct"])
    pred = tree(GOLD_H, [*GOLD_L[:6], "obl", "punct"])
    assert sentence_scores(gold, pred)["las"] == 7 / 8
    assert sentence_scores(gold, pred, EvaluationSettings(ignore_subtypes=True))["las"] == 1.0
    assert ted_accuracy(gold, pred, ignore_subtypes=True) == 1.0


def test_ned_counts_reversed_edges_and_grandparents():
    # gold: 1 <- 2 <- 3 (root): "a b c" with heads [2, 3, 0]
    gold = sa.DependencyTree.create([2, 3, 0], ["x", "y", "root"])
    # token 1 attached to its grandparent 3: NED-correct; token 2 correct; token 3 correct
    assert neutral_edge_direction(gold, sa.DependencyTree.create([3, 3, 0], ["x", "y", "root"])) == 1.0
    # reversed edge: 2 -> 1 instead of 1 -> 2 (token 2 headed by 1): token 2's predicted head 1 is
    # its gold dependent (reversed edge, counts); token 1 headed by 3 = its grandparent (counts)
    assert neutral_edge_direction(gold, sa.DependencyTree.create([3, 1, 0], ["x", "y", "root"])) == 1.0
    # token 3 headed by 1 (1 is neither 3's head, its dependent, nor its grandparent) and 1 made root
    # token 1 -> root: root is 1's great-grandparent: wrong; token 2 -> 3 right; token 3 -> 1: wrong
    assert neutral_edge_direction(gold, sa.DependencyTree.create([0, 3, 1], ["x", "y", "root"])) == 1 / 3
    # UAS of that last one for comparison
    assert sentence_scores(gold, sa.DependencyTree.create([0, 3, 1], ["x", "y", "root"]), metrics=("uas",))["uas"] == 1 / 3


def test_ted_accuracy_normalisations():
    # PRED needs 3 relabels + 2 moves; TED over Figure 1 trees (9 nodes each):
    # "a" relabel (1); "parks" moved under "cat" and relabelled, "." moved under "parks"
    ted = sa.tree_edit_distance(GOLD, PRED)
    assert ted_accuracy(GOLD, PRED) == pytest.approx(1 - ted / 18)
    assert ted_accuracy(GOLD, PRED, ted_norm="max") == pytest.approx(1 - ted / 9)
    assert ted_accuracy(GOLD, GOLD) == 1.0
    one = sa.DependencyTree.create([0, 1], ["root", "obj"])
    other = sa.DependencyTree.create([0, 1], ["root", "iobj"])
    assert ted_accuracy(one, other) == pytest.approx(1 - 1 / 6)


def test_complete_predications():
    # one verb, "chased": gold children {dog:nsubj, cat:obj, parks:obl} (punct "." excluded)
    # PRED: children {dog, cat} (parks moved away): UCP 0, LCP 0
    assert complete_predications(GOLD, PRED) == (0.0, 0.0)
    # same children, one relabelled: UCP 1, LCP 0
    relabel = tree(GOLD_H, ["det", "nsubj", "root", "det", "iobj", "case", "obl", "punct"])
    assert complete_predications(GOLD, relabel) == (1.0, 0.0)
    corpus = evaluate([GOLD, GOLD], [relabel, PRED])  # the compiled corpus path: per verb, the same
    assert (corpus.ucp, corpus.lcp) == (0.5, 0.0)
    # punctuation children do not count: moving "." elsewhere keeps UCP and LCP
    moved_punct = tree([2, 3, 0, 5, 3, 7, 3, 7], GOLD_L)
    assert complete_predications(GOLD, moved_punct) == (1.0, 1.0)
    # no verb: undefined for the sentence
    noun = sa.DependencyTree.create([0], ["root"], upos=["NOUN"])
    with pytest.warns(sa.UndefinedMetricWarning) as record:  # one warning per call, naming every undefined value
        assert all(math.isnan(v) for v in complete_predications(noun, noun))
    assert [w.message.metrics for w in record] == [("ucp", "lcp")]
    assert str(record[0].message) == ("ucp and lcp are undefined: no scored gold verb with a non-punctuation "
                                      "dependent; returning nan")


def test_content_and_function_las():
    s = sentence_scores(GOLD, PRED)
    # content (ADJ NOUN PROPN VERB): dog chased cat parks -> dog chased cat right: 3/4
    # function: The a in . -> The in right: 2/4
    assert s["las_content"] == 3 / 4 and s["las_function"] == 2 / 4


def test_root_distance_weighting():
    assert gold_depths(GOLD).tolist() == [3, 2, 1, 3, 2, 3, 2, 2]
    s = sentence_scores(GOLD, PRED, EvaluationSettings(root_weight=lambda d: 1.0 / d))
    weights = [1 / 3, 1 / 2, 1, 1 / 3, 1 / 2, 1 / 3, 1 / 2, 1 / 2]
    correct = [1, 1, 1, 0, 1, 1, 0, 0]
    assert s["las_root_weighted"] == pytest.approx(sum(w * c for w, c in zip(weights, correct)) / sum(weights))
    uniform = sentence_scores(GOLD, PRED, EvaluationSettings(root_weight="uniform"))
    assert uniform["las_root_weighted"] == pytest.approx(5 / 8)


def test_root_distance_weighting_default_inverse_log():
    """The default weight ``inverse-log``, 1/log2(1 + d) for a gold depth d (the root's dependent at
    d = 1 weighs 1), worked by hand: depths [3, 2, 1, 3, 2, 3, 2, 2], LAS-correct
    The dog chased cat in. Numerator 1 (chased) + 2/log2 3 (dog, cat) + 2/log2 4 (The, in); the
    denominator 1 + 4/log2 3 + 3/log2 4. The compiled corpus path and the per-sentence path both
    call the settings' weight, so only a value written here catches a wrong weight."""
    expected = (1 + 2 / math.log2(3) + 2 / 2) / (1 + 4 / math.log2(3) + 3 / 2)
    assert expected == pytest.approx(0.649292, abs=1e-6)  # 1/log2(2 + d) gives 0.6353
    assert sentence_scores(GOLD, PRED)["las_root_weighted"] == pytest.approx(expected, rel=1e-12)
    assert evaluate([GOLD], [PRED]).las_root_weighted == pytest.approx(expected, rel=1e-12)
    log = sentence_scores(GOLD, PRED, EvaluationSettings(root_weight="log"))["las_root_weighted"]
    assert log == pytest.approx((1 + 2 * math.log2(3) + 2 * 2) / (1 + 4 * math.log2(3) + 3 * 2), rel=1e-12)


def test_contract_moves_dependents_up():
    # drop "in" (token 6): nothing depends on it; drop "cat" (5): "a" moves up to "chased"
    keep = [True, True, True, True, False, True, True, True]
    import numpy as np

    small = contract(GOLD, np.array(keep))
    assert small.heads.tolist() == [2, 3, 0, 3, 6, 3, 3]
    assert small.forms == ("The", "dog", "chased", "a", "in", "parks", ".")


def test_corpus_micro_average_and_mismatch():
    short = sa.DependencyTree.create([0, 1], ["root", "obj"], forms=["Go", "home"], upos=["VERB", "NOUN"])
    wrong = sa.DependencyTree.create([0, 1], ["root", "nsubj"], forms=["Go", "home"], upos=["VERB", "NOUN"])
    result = evaluate([GOLD, short], [PRED, wrong])
    assert result.las == pytest.approx((5 + 1) / 10)
    assert result.to_dict()["tokens_scored"] == 10 and result.to_dict()["verbs"] == 2
    other = sa.DependencyTree.create([0, 1], ["root", "obj"], forms=["Go", "away"],
                                     location=sa.Location("pred.conll", 2))
    with pytest.raises(MismatchedCorpusError, match="token 2 is 'home' against 'away'"):
        evaluate([GOLD, short], [PRED, other])
    skipped = evaluate([GOLD, short], [PRED, other], skip_mismatched=True)
    assert len(skipped.skipped) == 1 and skipped.las == 5 / 8


def slow_scores(gold, pred):
    n = len(gold[0])
    las = sum(1 for k in range(n) if gold[0][k] == pred[0][k] and gold[1][k] == pred[1][k]) / n
    uas = sum(1 for k in range(n) if gold[0][k] == pred[0][k]) / n
    la = sum(1 for k in range(n) if gold[1][k] == pred[1][k]) / n
    return las, uas, la


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.integers(1, 9).flatmap(lambda n: st.tuples(dependency_heads(n, min_tokens=n), dependency_heads(n, min_tokens=n))))
def test_las_uas_la_match_slow_reference(pair):
    (gh, gl), (ph, pl) = pair
    s = sentence_scores(sa.DependencyTree.create(gh, gl), sa.DependencyTree.create(ph, pl),
                        metrics=("las", "uas", "la", "ned"))
    assert (s["las"], s["uas"], s["la"]) == pytest.approx(slow_scores((gh, gl), (ph, pl)))
    assert s["uas"] <= s["ned"] <= 1.0 and s["las"] <= min(s["uas"], s["la"])


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # CDT: no UD verbs, UCP undefined
def test_cli_evaluate_on_cdt_gives_table2_las(iaa):
    import json

    from typer.testing import CliRunner

    from spacy_agreement.cli import app

    gold, pred = iaa / "cdt/da-lotte.conll", iaa / "cdt/da-morten.conll"
    refused = CliRunner().invoke(app, ["evaluate", str(gold), str(pred), "--json"])  # CDT has several roots
    assert refused.exit_code == 1 and "There are 2 roots in a sentence at line 99" in refused.stderr
    # conll18's options, the package's rules (several roots read)
    result = CliRunner().invoke(app, ["evaluate", str(gold), str(pred), "--json", "--convention", "package",
                                      "--with-punct", "--ignore-subtypes", "--case-sensitive-root"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert round(100 * out["las"], 1) == 90.4  # Skjærholt (2014), Table 2, CDT (da)
    assert out["las"] <= out["uas"] and out["las"] <= out["la"] and out["uas"] <= out["ned"]
    for key in ("las", "uas", "la", "ned", "ted", "ucp", "lcp", "las_content", "las_function", "tokens_scored"):
        assert key in out
    wrong = CliRunner().invoke(app, ["evaluate", str(gold), str(iaa / "ndt/odin-danish.conll"), "--convention",
                                     "package"])
    assert wrong.exit_code == 1 and "the gold (162 sentences)" in wrong.output and "not the same text" in wrong.output


# --- Plank et al. (2015) conventions: the CoNLL-07 form rule for punctuation, V_verb ---------


@pytest.mark.parametrize("form, expected", [
    (".", True), ("«", True), ("»", True), ("—", True), ("…", True), ("¿", True), ("''", True), ("--", True),
    ("„", True), ("$", False), ("+", False), ("a.", False), ("1", False), ("", False), ("<num>", False),
])
def test_form_punctuation_rule(form, expected):
    from spacy_agreement.evaluation.dependency.metrics import is_punct_form

    assert is_punct_form(form) is expected


def test_form_rule_finds_punctuation_without_ud_tags_or_labels():
    # a CDT-style sentence: punctuation tagged XP and labelled pnct, neither UPOS PUNCT nor "punct"
    forms = ["Han", "kom", "«", "hjem", "»", "…"]
    gold = sa.DependencyTree.create([2, 0, 4, 2, 4, 2], ["subj", "ROOT", "pnct", "mod", "pnct", "pnct"],
                                    forms=forms, upos=["PP", "VA", "XP", "RG", "XP", "XP"])
    pred = sa.DependencyTree.create([2, 0, 2, 2, 2, 4], ["subj", "ROOT", "pnct", "mod", "pnct", "pnct"],
                                    forms=forms, upos=["PP", "VA", "XP", "RG", "XP", "XP"])
    default = sentence_scores(gold, pred, EvaluationSettings(exclude_punct=True), metrics=("uas",))
    assert default["uas"] == 3 / 6  # nothing is punctuation by UPOS PUNCT or label punct
    form = EvaluationSettings(exclude_punct=True, punct_rules=frozenset({"form"}), verb_upos=frozenset({"VA", "VE"}))
    s = sentence_scores(gold, pred, form, metrics=("uas", "las", "ucp", "lcp"))
    assert s["uas"] == 1.0 and s["las"] == 1.0
    # the verb "kom": children {Han, hjem} in both (the « » … moved around it do not count)
    assert (s["ucp"], s["lcp"]) == (1.0, 1.0)
    with pytest.raises(ValueError, match="unknown punctuation rule"):
        EvaluationSettings(punct_rules=frozenset({"xpos"}))
    no_forms = sa.DependencyTree.create([0], ["root"])
    with pytest.raises(ValueError, match="needs word forms"):
        sentence_scores(no_forms, no_forms, form)


def test_complete_predications_count_only_verbs_with_dependents():
    # V_verb = gold verbs with at least one non-punctuation dependent (Plank et al. 2015, §2)
    #   "Komm !"  : the verb's only dependent is "!": not a predication, UCP/LCP undefined
    komm = sa.DependencyTree.create([0, 1], ["root", "punct"], forms=["Komm", "!"], upos=["VERB", "PUNCT"])
    with pytest.warns(sa.UndefinedMetricWarning, match="no scored gold verb"):
        assert all(math.isnan(v) for v in complete_predications(komm, komm))
    #   "Er lief — schnell": gold children of "lief" {Er, schnell}; the prediction moves "schnell"
    forms, upos = ["Er", "lief", "—", "schnell"], ["PRON", "VERB", "PUNCT", "ADV"]
    gold = sa.DependencyTree.create([2, 0, 2, 2], ["nsubj", "root", "punct", "advmod"], forms=forms, upos=upos)
    wrong = sa.DependencyTree.create([2, 0, 2, 1], ["nsubj", "root", "punct", "advmod"], forms=forms, upos=upos)
    # corpus: two verbs counted (lief twice: gold vs gold, gold vs wrong), "Komm" left out
    result = evaluate([komm, gold, gold], [komm, gold, wrong])
    assert result.to_dict()["verbs"] == 2 and result.ucp == 0.5 and result.lcp == 0.5
    # a verb whose children are all punctuation in the gold but that gets a real dependent in
    # the prediction is still left out (V_verb is defined on the gold tree)
    grabby = sa.DependencyTree.create([0, 1], ["root", "punct"], forms=["Komm", "!"], upos=["VERB", "PUNCT"])
    with pytest.warns(sa.UndefinedMetricWarning, match="ucp and lcp are undefined"):
        assert math.isnan(complete_predications(komm, grabby)[0])


def test_ned_undirected_variant_drops_grandparents():
    gold = sa.DependencyTree.create([2, 3, 0], ["x", "y", "root"])
    grandparent = sa.DependencyTree.create([3, 3, 0], ["x", "y", "root"])
    assert neutral_edge_direction(gold, grandparent) == 1.0
    assert neutral_edge_direction(gold, grandparent, ned="undirected") == 2 / 3
    reversed_edge = sa.DependencyTree.create([3, 1, 0], ["x", "y", "root"])
    # token 2 headed by its gold dependent 1 (reversed: counts); token 1 headed by 3, its gold
    # grandparent (counts only in Schwartz's NED)
    assert neutral_edge_direction(gold, reversed_edge, ned="undirected") == 2 / 3


def test_check_forms_off_compares_token_counts_only():
    gold = sa.DependencyTree.create([0, 1], ["root", "nummod"], forms=["Seite", "150"])
    pred = sa.DependencyTree.create([0, 1], ["root", "nummod"], forms=["Seite", "<num>"])
    with pytest.raises(MismatchedCorpusError):
        evaluate([gold], [pred])
    assert evaluate([gold], [pred], check_forms=False, metrics=("las",)).las == 1.0
