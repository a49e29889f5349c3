"""``--convention spacy`` gives the LAS and UAS of ``spacy evaluate --gold-preproc`` (issue 38,
item 7): spaCy's F over arcs (``Scorer.score_deps``), punctuation left out of the gold arcs by
the gold label and of the predicted arcs by the predicted label, labels lowercased; checked by
hand on a small case and against spaCy's scorer on the parses of a parser trained here, whose
predictions label words ``punct`` that the gold does not and punctuation otherwise."""
import json
import math
import random
import warnings

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.adapters import write_conll
from spacy_agreement.cli import app
from spacy_agreement.evaluation.dependency.metrics import Counts, EvaluationSettings, evaluate, sentence_counts

spacy = pytest.importorskip("spacy")
from spacy.tokens import Doc  # noqa: E402
from spacy.training import Example  # noqa: E402

from spacy_agreement.integrations.spacy_parse import gold_doc_words, parse_with_pipeline  # noqa: E402

runner = CliRunner()
# trees without part-of-speech tags: UCP, LCP and content-word LAS are undefined (nan, warned); a
# half-trained parser uses few of the gold's labels; conll18 counts ROOT against root wrong (warned)
pytestmark = [pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning"),
              pytest.mark.filterwarnings("ignore::spacy_agreement.evaluation.dependency.label_sets.LabelSetWarning"),
              pytest.mark.filterwarnings("ignore::spacy_agreement.evaluation.dependency.label_sets.RootCaseWarning")]

SPACY = EvaluationSettings.for_convention("spacy")


def tree(heads, deprels, forms):
    return sa.DependencyTree.create(heads, deprels, forms)


def spacy_doc(vocab, t):
    """A reference (or predicted) doc of a tree as ``spacy convert`` makes it: the root its own
    head, labels as written."""
    heads = [h - 1 if h else k for k, h in enumerate(t.heads.tolist())]
    return Doc(vocab, **gold_doc_words(t), heads=heads, deps=list(t.deprels))


def printed(x):
    return f"{100 * x:.2f}"


def same_as_spacy(ours, theirs):
    """spaCy's F is 2PR / (P + R), ours 2·tp / (|gold| + |pred|): the same number, which may
    differ in the last bit of the double, never in a printed digit."""
    return math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=0.0) and printed(ours) == printed(theirs)


# ---------------------------------------------------------------- by hand

WORDS = ["Well", ",", "she", "left", "-", "fast", "."]
GOLD = [tree([4, 1, 4, 0, 6, 4, 4], ["discourse", "punct", "nsubj", "root", "punct", "advmod", "punct"], WORDS),
        tree([2, 0, 2], ["expl", "root", "punct"], ["It", "rained", "."])]
PRED = [
    # Well: a word labelled punct (no predicted arc); ",": punctuation labelled dep (a predicted arc, wrong);
    # she: head right, label wrong; left: ROOT = root; "-": punctuation labelled cc (a predicted arc, right
    # head, not in the gold); fast: wrong head; ".": PUNCT lowercased is punctuation
    tree([4, 4, 4, 0, 6, 3, 4], ["punct", "dep", "obj", "ROOT", "cc", "advmod", "PUNCT"], WORDS),
    # rained is its own head: spaCy's root (its head is itself), so the root arc is right
    tree([2, 2, 2], ["expl", "root", "punct"], ["It", "rained", "."]),
]
# sentence 1: gold arcs Well, she, left, fast (4); predicted arcs ",", she, left, "-", fast (5);
# in both with the same head: she, left (2); with the same label too: left (1).
# sentence 2: gold arcs It, rained (2); predicted the same (2); both right (2, 2).
# UAS = 2·(2 + 2) / (4 + 5 + 2 + 2) = 8/13 (P = 4/7, R = 4/6); LAS = 2·(1 + 2) / 13 = 6/13.
HAND_UAS, HAND_LAS = 8 / 13, 6 / 13


def test_spacy_convention_is_spacys_f_over_arcs_by_hand():
    result = evaluate(GOLD, PRED, SPACY)
    assert result.scores["uas"] == pytest.approx(HAND_UAS, rel=1e-15)
    assert result.scores["las"] == pytest.approx(HAND_LAS, rel=1e-15)
    assert "att:spacy" in result.signature and "plabels:p,punct" in result.signature
    # the per-sentence path (a registered metric, the spaCy component) counts the same
    total = Counts()
    for g, p in zip(GOLD, PRED):
        total.merge(sentence_counts(g, p, SPACY, ("las", "uas")))
    assert total.values == {"las": [6.0, 13.0], "uas": [8.0, 13.0]}
    # spaCy's own scorer on the same docs
    from spacy.pipeline.dep_parser import parser_score

    vocab = spacy.blank("en").vocab
    theirs = parser_score([Example(spacy_doc(vocab, p), spacy_doc(vocab, g)) for g, p in zip(GOLD, PRED)])
    assert same_as_spacy(result.scores["uas"], theirs["dep_uas"])
    assert same_as_spacy(result.scores["las"], theirs["dep_las"])
    # what the convention gave before: accuracy over the gold's non-punctuation words (3/4 + 1/2 heads right)
    accuracy = evaluate(GOLD, PRED, EvaluationSettings.for_convention("spacy", attachment="accuracy"))
    assert accuracy.scores["uas"] == pytest.approx(4 / 6) and accuracy.scores["las"] == pytest.approx(2 / 6)


def test_spacy_convention_on_two_files_through_the_cli(tmp_path):
    gold, pred = tmp_path / "gold.conllu", tmp_path / "pred.conllu"
    gold.write_text(write_conll(GOLD), encoding="utf-8")
    pred.write_text(write_conll(PRED), encoding="utf-8")
    out = runner.invoke(app, ["evaluate", str(gold), str(pred), "--convention", "spacy", "--json", "--quiet"])
    assert out.exit_code == 0, out.output
    values = json.loads(out.stdout)
    assert values["uas"] == pytest.approx(HAND_UAS, rel=1e-15) and values["las"] == pytest.approx(HAND_LAS, rel=1e-15)
    assert "att:spacy" in values["signature"]
    # the signature given back reproduces them; other conventions still score accuracy over the words
    # (conll18 refuses the self-head, as conll18_ud_eval.py does: conll07, which scores it wrong)
    again = json.loads(runner.invoke(app, ["evaluate", str(gold), str(pred), "--signature", values["signature"],
                                           "--json", "--quiet"]).stdout)
    assert (again["las"], again["uas"]) == (values["las"], values["uas"])
    other = json.loads(runner.invoke(app, ["evaluate", str(gold), str(pred), "--convention", "conll07", "--json",
                                           "--quiet"]).stdout)
    assert other["uas"] == pytest.approx(7 / 10) and "att:accuracy" in other["signature"]
    # --with-punct: no arc left out on either side, F is then accuracy over every word
    every = json.loads(runner.invoke(app, ["evaluate", str(gold), str(pred), "--convention", "spacy", "--with-punct",
                                           "--json", "--quiet"]).stdout)
    assert every["uas"] == pytest.approx(8 / 10)  # rained, its own head, is the root here


def test_spacy_f_reads_labels_as_spacy_does():
    """Lowercased, subtypes kept (``punct:x`` is not punctuation), the label map looked up in
    lower case on the predicted side only."""
    words = ["a", "b", "c"]
    gold = tree([2, 0, 2], ["nmod:poss", "root", "punct:x"], words)
    pred = tree([2, 0, 2], ["NMOD", "Root", "punct:x"], words)
    result = evaluate([gold], [pred], SPACY)
    assert result.scores["uas"] == 1.0 and result.scores["las"] == pytest.approx(2 / 3)
    mapped = evaluate([gold], [pred], EvaluationSettings.for_convention("spacy", label_map={"nmod": "NMOD:POSS"}))
    assert mapped.scores["las"] == 1.0


# ---------------------------------------------------------------- against spaCy's scorer on a trained parser

NOUNS = ["dog", "cat", "man", "woman", "child", "bird"]
VERBS = ["saw", "likes", "took", "found"]


def sentences(rng, n):
    """UD-style sentences with punctuation: [well ,] the N V the N [- fast] [.]"""
    out = []
    for _ in range(n):
        words, heads, labels = [], [], []
        lead = rng.random() < 0.5
        if lead:
            words += ["well", ","]
            heads += [None, 1]
            labels += ["discourse", "punct"]
        s = len(words)
        verb = s + 3
        words += ["the", rng.choice(NOUNS), rng.choice(VERBS), "the", rng.choice(NOUNS)]
        heads += [s + 2, verb, 0, s + 5, verb]
        labels += ["det", "nsubj", "root", "det", "obj"]
        if rng.random() < 0.5:
            words += ["-", "fast"]
            heads += [len(words), verb]
            labels += ["punct", "advmod"]
        if rng.random() < 0.8:
            words.append(".")
            heads.append(verb)
            labels.append("punct")
        out.append(tree([verb if h is None else h for h in heads], labels, words))
    return out


def punct_confusions(gold, parses):
    """(words the prediction labels punct and the gold does not, punctuation it labels otherwise)."""
    pairs = [(g, p) for gt, pt in zip(gold, parses) for g, p in zip(gt.deprels, pt.deprels)]
    return sum(g != "punct" and p == "punct" for g, p in pairs), sum(g == "punct" and p != "punct" for g, p in pairs)


@pytest.fixture(scope="module")
def half_trained(tmp_path_factory):
    """A blank ``en`` pipeline with a parser, trained on 30 sentences until its parses of 30
    others confuse punctuation both ways (a word labelled punct, punctuation labelled
    otherwise): about 20 passes, a second or two."""
    rng = random.Random(0)
    spacy.util.fix_random_seed(0)
    train, test = sentences(rng, 30), sentences(random.Random(100), 30)
    nlp = spacy.blank("en")
    nlp.add_pipe("parser", config={"min_action_freq": 1})
    examples = [Example(Doc(nlp.vocab, words=list(t.forms)), spacy_doc(nlp.vocab, t)) for t in train]
    optimizer = nlp.initialize(lambda: examples)
    for passes in range(1, 61):
        rng.shuffle(examples)
        nlp.update(examples, sgd=optimizer, drop=0.0)
        if passes >= 10 and all(punct_confusions(test, parse_with_pipeline(nlp, test))):
            break
    parses = parse_with_pipeline(nlp, test)
    assert all(punct_confusions(test, parses)), "the parser never confused punctuation both ways"
    root = tmp_path_factory.mktemp("spacy-convention")
    nlp.to_disk(root / "pipeline")
    (root / "gold.conllu").write_text(write_conll(test), encoding="utf-8")
    (root / "system.conllu").write_text(write_conll(parses), encoding="utf-8")  # the pipeline's output
    return nlp, test, parses, root


@pytest.mark.slow
def test_spacy_convention_equals_nlp_evaluate_on_a_trained_parser(half_trained):
    nlp, test, parses, root = half_trained
    # what spacy evaluate --gold-preproc computes: the gold words (with the gold spacing) parsed afresh
    examples = [Example(Doc(nlp.vocab, **gold_doc_words(t)), spacy_doc(nlp.vocab, t)) for t in test]
    theirs = nlp.evaluate(examples)
    # the package's old figure (accuracy over the gold's non-punctuation words) is not spaCy's here
    accuracy = evaluate(test, parses, EvaluationSettings.for_convention("spacy", attachment="accuracy"))
    assert printed(accuracy.scores["las"]) != printed(theirs["dep_las"])
    assert same_as_spacy(evaluate(test, parses, SPACY).scores["las"], theirs["dep_las"])
    for args in (["--model", str(root / "pipeline")], [str(root / "system.conllu")]):
        out = runner.invoke(app, ["evaluate", str(root / "gold.conllu"), *args, "--convention", "spacy", "--json",
                                  "--quiet"])
        assert out.exit_code == 0, out.output
        values = json.loads(out.stdout)
        assert same_as_spacy(values["las"], theirs["dep_las"]), (args, values["las"], theirs["dep_las"])
        assert same_as_spacy(values["uas"], theirs["dep_uas"]), (args, values["uas"], theirs["dep_uas"])
        if "--model" in args:  # spaCy's scorer run beside on the same parses: the same figures
            assert same_as_spacy(values["las"], values["spacy_las"]) and values["spacy_las"] == theirs["dep_las"]
    text = runner.invoke(app, ["evaluate", str(root / "gold.conllu"), str(root / "system.conllu"), "--convention",
                               "spacy", "--quiet"]).stdout
    assert f"{printed(theirs['dep_las'])}" in text and f"{printed(theirs['dep_uas'])}" in text


# ---------------------------------------------------------------- against spaCy's scorer on random trees

from hypothesis import given, settings, strategies as st  # noqa: E402

ARC_LABELS = ["punct", "PUNCT", "p", "punct:x", "nsubj", "obj", "nmod:poss", "Nmod:Poss", "root", "ROOT"]


@st.composite
def spacy_trees(draw):
    """A gold and a predicted tree over the same words, each a forest (several roots allowed,
    as a pipeline that split the sentence gives), labels of mixed case and punctuation."""
    n = draw(st.integers(1, 8))

    def one():
        heads = [draw(st.integers(0, k)) for k in range(n)]  # token k+1 on the root or an earlier token
        labels = draw(st.lists(st.sampled_from(ARC_LABELS), min_size=n, max_size=n))
        return tree(heads, labels, [f"w{k}" for k in range(n)])
    return one(), one()


@settings(max_examples=80, deadline=None)
@given(pairs=st.lists(spacy_trees(), min_size=1, max_size=4))
def test_spacy_f_equals_spacys_scorer_on_random_trees(pairs):
    from spacy.pipeline.dep_parser import parser_score

    vocab = spacy.blank("en").vocab
    gold, pred = [g for g, _ in pairs], [p for _, p in pairs]
    theirs = parser_score([Example(spacy_doc(vocab, p), spacy_doc(vocab, g)) for g, p in pairs])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined scores, label sets
        ours = evaluate(gold, pred, SPACY).scores
    if theirs["dep_uas"] is None:  # no arc on either side: undefined
        assert math.isnan(ours["uas"]) and math.isnan(ours["las"])
        return
    assert same_as_spacy(ours["uas"], theirs["dep_uas"]) and same_as_spacy(ours["las"], theirs["dep_las"])
