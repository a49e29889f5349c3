"""CLAS, MLAS and BLEX (Zeman et al. 2018, CoNLL 2018 shared task): a sentence worked out
on paper, and the module against a slow reference written here from the definitions, on
random gold and predicted trees."""
import json
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spacy_agreement as sa
from spacy_agreement.errors import MismatchedCorpusError
from spacy_agreement.evaluation.dependency.metrics import evaluate
from spacy_agreement.evaluation.dependency.ud_labels import (
    UDScores,
    blex,
    clas,
    mlas,
    parse_feats,
    ud_scores,
    universal_feats,
)

# ---------------------------------------------------------------- worked example
#         id form    lemma  upos   feats                              head deprel
GOLD_CONLLU = """\
1\tThe\tthe\tDET\tDefinite=Def|PronType=Art\t2\tdet
2\tdog\t_\tNOUN\tNumber=Sing\t3\tnsubj
3\tchased\tchase\tVERB\tMood=Ind|Tense=Past|VerbForm=Fin\t0\troot
4\ta\ta\tDET\tDefinite=Ind|PronType=Art\t5\tdet
5\tcat\tcat\tNOUN\tNumber=Sing\t3\tobj
6\tin\tin\tADP\t_\t7\tcase
7\tparks\tpark\tNOUN\tNumber=Plur\t3\tobl
8\t.\t.\tPUNCT\t_\t3\tpunct
"""
PRED_CONLLU = """\
1\tThe\tthe\tDET\tPronType=Art|Definite=Def\t2\tdet
2\tdog\thound\tNOUN\tNumber=Sing\t3\tnsubj:pass
3\tchased\tchased\tVERB\tMood=Ind|Tense=Past|VerbForm=Fin\t0\troot
4\ta\ta\tDET\tDefinite=Ind|PronType=Dem\t5\tdet
5\tcat\tcat\tNOUN\tNumber=Sing|Foo=Bar\t3\tobj
6\tin\tin\tADP\t_\t5\tcase
7\tparks\tpark\tNOUN\tNumber=Plur\t5\tnmod
8\t.\t.\tPUNCT\t_\t3\tdep
"""


def conllu(block):
    """Ten columns: XPOS, DEPS and MISC ``_``."""
    rows = [line.split("\t") for line in block.strip("\n").split("\n")]
    return "\n".join("\t".join(r[:4] + ["_"] + r[4:] + ["_", "_"]) for r in rows) + "\n\n"


def test_worked_example():
    # Content words: gold dog chased cat parks (4); predicted the same and "." as dep (5).
    # CLAS: dog (nsubj:pass is nsubj), chased, cat right; parks has the wrong head -> 3.
    # MLAS: dog (its det child "The" the same, feature order ignored) and chased (no
    #   functional children on either side) right; cat's det child "a" has other features
    #   (and "in" became its child) -> 2. Cat's own Foo=Bar is not a universal feature.
    # BLEX: dog (gold lemma "_" matches anything), cat right; chased has lemma "chased" -> 2.
    gold = sa.parse_conll(conllu(GOLD_CONLLU))
    pred = sa.parse_conll(conllu(PRED_CONLLU))
    result = ud_scores(gold, pred)
    assert (result.gold, result.system) == (4, 5)
    assert (result.clas_correct, result.mlas_correct, result.blex_correct) == (3, 2, 2)
    assert result.precision("clas") == 3 / 5 and result.recall("clas") == 3 / 4
    assert result.clas == pytest.approx(2 / 3)
    assert result.mlas == pytest.approx(4 / 9) and result.blex == pytest.approx(4 / 9)
    assert clas(gold[0], pred[0]) == result.clas and mlas(gold[0], pred[0]) == result.mlas
    assert blex(gold[0], pred[0]) == result.blex
    out = result.to_dict()
    assert out["clas"] == result.clas and out["clas_precision"] == 0.6 and out["content_words_gold"] == 4
    # through evaluate(): corpus scores, per-sentence scores, counts
    evaluated = evaluate(gold, pred)
    assert evaluated.scores["clas"] == result.clas and evaluated.mlas == result.mlas
    assert evaluated.sentences[0]["blex"] == result.blex and evaluated.ud == result
    assert {"clas", "mlas", "blex"} <= set(evaluated.to_dict())
    # identical trees score 1
    assert ud_scores(gold, gold).to_dict()["mlas"] == 1.0


def test_columns_read_and_kept():
    tree = sa.parse_conll(conllu(GOLD_CONLLU))[0]
    assert tree.lemmas[:3] == ("the", "_", "chase")
    assert tree.feats[0] == "Definite=Def|PronType=Art" and tree.feats[5] == "_"
    assert tree.xpos == ("_",) * 8
    # trees built without the columns still work (all "_")
    bare = sa.DependencyTree.create([2, 0], ["det", "root"])
    assert bare.lemmas == ("_", "_") and bare.feats == ("_", "_")
    assert ud_scores([bare], [bare]).clas == 1.0
    with pytest.raises(sa.InvalidTreeError):
        sa.DependencyTree.create([2, 0], ["det", "root"], lemmas=["x"])


def test_feats_parsing_is_tolerant():
    assert parse_feats("Case=Nom|Number=Sing") == {"Case": "Nom", "Number": "Sing"}
    assert parse_feats("sg|nom") == {"sg": "", "nom": ""}
    assert parse_feats("_") == {} and parse_feats(None) == {}
    assert universal_feats("Number=Sing|Case=Xyz|Number[psor]=Plur|Foo=Bar|sg") == ("Case=Xyz", "Number=Sing")
    # a CoNLL-X file with such features reads and scores
    text = "1\tx\tx\tN\tN\tsg|nom\t0\tROOT\t_\t_\n\n"
    tree = sa.parse_conll(text)[0]
    assert tree.feats == ("sg|nom",)
    with pytest.warns(sa.UndefinedMetricWarning, match="clas is undefined"):
        assert math.isnan(ud_scores([tree], [tree]).clas)  # "ROOT" is not a UD relation


def test_mismatched_tokens():
    gold = sa.parse_conll(conllu(GOLD_CONLLU))
    short = [sa.DependencyTree.create([0], ["root"], forms=["x"])]
    with pytest.raises(MismatchedCorpusError):
        ud_scores(gold, short)
    assert ud_scores(gold, short, skip_mismatched=True) == UDScores()


def test_cli_json_and_text(tmp_path):
    from typer.testing import CliRunner

    from spacy_agreement.cli import app

    (tmp_path / "g.conllu").write_text(conllu(GOLD_CONLLU), encoding="utf-8")
    (tmp_path / "p.conllu").write_text(conllu(PRED_CONLLU), encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(app, ["evaluate", str(tmp_path / "g.conllu"), str(tmp_path / "p.conllu"), "--json"])
    assert out.exit_code == 0, out.output
    values = json.loads(out.stdout)
    assert values["clas"] == pytest.approx(2 / 3) and values["mlas"] == values["blex"] == pytest.approx(4 / 9)
    text = runner.invoke(app, ["evaluate", str(tmp_path / "g.conllu"), str(tmp_path / "p.conllu")])
    assert text.exit_code == 0 and "CLAS" in text.output and "MLAS" in text.output and "BLEX" in text.output


# ---------------------------------------------------------------- reference
# Written from the definitions of Zeman et al. (2018, §2), without the module.
REF_CONTENT = set(
    "nsubj obj iobj csubj ccomp xcomp obl vocative expl dislocated advcl advmod discourse nmod appos "
    "nummod acl amod conj fixed flat compound list parataxis orphan goeswith reparandum root dep".split()
)
REF_FUNCTION = set("aux cop mark det clf case cc".split())
REF_FEATURES = set(
    "PronType NumType Poss Reflex Foreign Abbr Gender Animacy Number Case Definite Degree VerbForm Mood "
    "Tense Aspect Voice Evident Polarity Person Polite".split()
)


def ref_relation(label):
    return label[: label.index(":")] if ":" in label else label


def ref_features(feats):
    """Multiset of the universal feature=value items."""
    kept = Counter()
    for item in feats.split("|"):
        name = item[: item.index("=")] if "=" in item else item
        if name in REF_FEATURES:
            kept[item] += 1
    return kept


def ref_words(sentence):
    """Each word as a dict; ``sentence`` is a list of (head, deprel, upos, feats, lemma)."""
    words = []
    for position, (head, deprel, upos, feats, lemma) in enumerate(sentence, start=1):
        words.append({"id": position, "head": head, "rel": ref_relation(deprel), "upos": upos,
                      "feats": ref_features(feats), "lemma": lemma})
    for word in words:
        word["content"] = word["rel"] in REF_CONTENT
        # the functional children: words whose head is this word and whose relation is functional
        word["children"] = [(c["id"], c["rel"], c["upos"], c["feats"]) for c in words
                            if c["head"] == word["id"] and c["rel"] in REF_FUNCTION]
    return words


def reference(gold_corpus, pred_corpus):
    """{metric: (correct, gold content words, system content words)} over aligned words."""
    totals = {m: [0, 0, 0] for m in ("clas", "mlas", "blex")}
    for gold_sentence, pred_sentence in zip(gold_corpus, pred_corpus):
        gold_words, pred_words = ref_words(gold_sentence), ref_words(pred_sentence)
        for metric in totals:
            totals[metric][1] += sum(w["content"] for w in gold_words)
            totals[metric][2] += sum(w["content"] for w in pred_words)
        for g in gold_words:
            p = next(w for w in pred_words if w["id"] == g["id"])  # same tokens: aligned by position
            if not g["content"]:
                continue
            attached = g["head"] == p["head"] and g["rel"] == p["rel"]
            totals["clas"][0] += attached
            totals["mlas"][0] += attached and g["upos"] == p["upos"] and g["feats"] == p["feats"] and sorted(
                g["children"], key=lambda c: c[0]) == sorted(p["children"], key=lambda c: c[0])
            totals["blex"][0] += attached and (g["lemma"] == "_" or g["lemma"] == p["lemma"])
    return totals


def ref_f1(correct, gold, system):
    """2PR/(P+R); 0 when nothing is correct, undefined when neither side has content words."""
    if gold + system == 0:
        return math.nan
    if correct == 0:
        return 0.0
    precision, recall = correct / system, correct / gold
    return 2 * precision * recall / (precision + recall)


RELATIONS = ["nsubj", "obj", "obl", "nmod", "nmod:poss", "amod", "root", "conj", "advmod", "acl:relcl",
             "det", "det:predet", "case", "aux", "aux:pass", "cop", "mark", "cc", "cc:preconj", "clf",
             "punct", "dobj", "_", "ROOT"]
UPOS = ["NOUN", "VERB", "DET", "ADP", "AUX", "PUNCT", "_"]
FEATURE_ITEMS = ["Number=Sing", "Number=Plur", "Case=Nom", "Case=Xyz", "Gender=Masc,Fem", "Number[psor]=Sing",
                 "Foo=Bar", "sg", "Number", "Tense=Past", "PronType=Art"]
LEMMAS = ["_", "dog", "Dog", "run", "the"]


@st.composite
def feats_values(draw):
    items = draw(st.lists(st.sampled_from(FEATURE_ITEMS), max_size=3))
    return "|".join(items) if items else "_"


@st.composite
def sentence_pairs(draw):
    n = draw(st.integers(1, 9))

    def column(values):
        return [draw(values) for _ in range(n)]

    cycles = draw(st.booleans())
    if cycles:  # anything in range, self-heads and rootless sentences included
        gold_heads = column(st.integers(0, n))
    else:
        order = draw(st.permutations(range(1, n + 1)))
        gold_heads, attached = [0] * n, [0]
        for token in order:
            gold_heads[token - 1] = draw(st.sampled_from(attached))
            attached.append(token)
    gold = list(zip(gold_heads, column(st.sampled_from(RELATIONS)), column(st.sampled_from(UPOS)),
                    column(feats_values()), column(st.sampled_from(LEMMAS))))
    # the prediction: each value kept or redrawn, so that both matches and errors occur
    keep = draw(st.floats(0.3, 1.0))
    strategies = (st.integers(0, n), st.sampled_from(RELATIONS), st.sampled_from(UPOS), feats_values(),
                  st.sampled_from(LEMMAS))
    pred = []
    for row in gold:
        pred.append(tuple(value if draw(st.floats(0, 1)) < keep else draw(strategy)
                          for value, strategy in zip(row, strategies)))
    return gold, pred


def as_tree(sentence):
    heads, deprels, upos, feats, lemmas = zip(*sentence)
    return sa.DependencyTree.create(list(heads), deprels, upos=upos, feats=feats, lemmas=lemmas)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(sentence_pairs(), min_size=1, max_size=4))
def test_against_reference(pairs):
    gold_corpus = [g for g, _ in pairs]
    pred_corpus = [p for _, p in pairs]
    expected = reference(gold_corpus, pred_corpus)
    result = ud_scores([as_tree(s) for s in gold_corpus], [as_tree(s) for s in pred_corpus])
    for metric, (correct, gold, system) in expected.items():
        assert (result.correct(metric), result.gold, result.system) == (correct, gold, system)
        want = ref_f1(correct, gold, system)
        if math.isnan(want):  # undefined: nan and one warning
            with pytest.warns(sa.UndefinedMetricWarning, match=f"{metric} is undefined"):
                got = result.f1(metric)
            assert math.isnan(got)
        else:
            got = result.f1(metric)
            assert got == pytest.approx(want, rel=1e-12, abs=1e-15)
        if system:
            assert result.precision(metric) == correct / system
        if gold:
            assert result.recall(metric) == correct / gold


def test_spacy_adapter_and_scorer():
    spacy = pytest.importorskip("spacy")
    from spacy.tokens import Doc
    from spacy.training import Example

    from spacy_agreement.adapters.spacy import from_doc
    from spacy_agreement.integrations.spacy_components import make_syntax_scorer

    vocab = spacy.blank("en").vocab
    words = ["The", "dog", "chased", "a", "cat"]
    ref = Doc(vocab, words=words, heads=[1, 2, 2, 4, 2], deps=["det", "nsubj", "ROOT", "det", "obj"],
              lemmas=["the", "dog", "chase", "a", "cat"], pos=["DET", "NOUN", "VERB", "DET", "NOUN"],
              morphs=["Definite=Def", "Number=Sing", "Tense=Past", "Definite=Ind", "Number=Sing"])
    tree = from_doc(ref)[0]
    assert tree.lemmas[2] == "chase" and tree.feats[0] == "Definite=Def" and tree.upos[2] == "VERB"
    # the prediction has no tags or lemmas: the reference's are used, so MLAS = BLEX = CLAS
    pred = Doc(vocab, words=words, heads=[1, 2, 2, 4, 2], deps=["det", "nsubj", "ROOT", "det", "obl"])
    scores = make_syntax_scorer()([Example(pred, ref)])
    assert scores["dep_clas"] == scores["dep_mlas"] == scores["dep_blex"] == pytest.approx(2 / 3)
