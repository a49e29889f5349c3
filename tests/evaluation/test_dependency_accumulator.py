"""One accumulator for the dependency metrics (issue 40, item 2): fed pair by pair, a list of
pairs, blocks of columns, through ``evaluate``, the spaCy scorer and ``score_nltk_trees``, it
gives the same numbers, the ones worked out by hand below; the result supplies its own
per-sentence statistics, which sum to the corpus figures; the compiled and the reference path
are chosen in one place (:func:`compiled_path_applies`), which every entry point follows."""
from __future__ import annotations

import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from spacy_agreement import read_conll
from spacy_agreement.errors import BadOptionError, Location, MismatchedCorpusError, UndefinedMetricWarning
from spacy_agreement.evaluation.dependency import DependencyEvaluator, accumulator, column_evaluation
from spacy_agreement.evaluation.dependency.column_evaluation import tree_batches
from spacy_agreement.evaluation.dependency.label_sets import LabelSetWarning, RootCaseWarning
from spacy_agreement.evaluation.dependency.metrics import (compiled_path_applies, evaluate, fast_path_applies,
                                                           register_metric, unregister_metric)
from spacy_agreement.evaluation.dependency.settings import EvaluationSettings
from spacy_agreement.evaluation.dependency.streaming import ScanStream, identical_batches
from spacy_agreement.trees import DependencyTree

#: 60 generated sentences with the same tokens on both sides (tests/data/conll18/README.md)
GOLD_FILE = str(Path(__file__).resolve().parent.parent / "data" / "conll18" / "random.gold.conllu")
SYS_FILE = str(Path(__file__).resolve().parent.parent / "data" / "conll18" / "random.sys.conllu")


def tree(heads, labels, forms, upos, sentence):
    return DependencyTree.create(heads, labels, forms=forms, upos=upos,
                                 location=Location("example.conllu", sentence=sentence))


# --- the example, by hand -------------------------------------------------------------------------
#
# 1 "She reads books ."   gold heads 2 0 2 2, nsubj root obj punct; predicted heads 2 0 2 3, nsubj root
#   iobj punct: heads right 1-3, labels right 1, 2, 4, both right 1, 2.
# 2 "Dogs bark"           gold heads 2 0 (nsubj root); predicted 0 1 (root nsubj): nothing right; for
#   NED "bark" → "Dogs" is the gold edge reversed, and "Dogs" attached to the root is attached to its
#   gold grandparent (Schwartz et al.).
# 3 "a b" against "a c"   other tokens: skipped with skip_mismatched (a MismatchedCorpusError without).
# 4 "It rained today"     gold heads 2 0 2 (expl root obl); predicted 2 0 0 (expl root root): tokens
#   1, 2 right; "today" attached to the root, its gold grandparent (NED, Schwartz et al.); two roots
#   in the prediction, one in the gold.
#
# Every token scored (no punctuation excluded), sentences 1, 2, 4: 9 tokens.
#   LAS (2 + 0 + 2) / 9, UAS (3 + 0 + 2) / 9, LA (3 + 0 + 2) / 9,
#   NED (3 + 2 + 3) / 9 (in sentence 1 "." is attached to "books", neither its gold head, dependent nor
#   grandparent),
#   UCP, LCP over the verbs with a non-punctuation dependent, "reads", "bark", "rained": "reads" has
#   its dependents 1 and 3 but "books" as iobj (UCP right, LCP wrong); "bark" has none, "rained" lost
#   "today": UCP 1/3, LCP 0/3.
# With punctuation excluded by its label (the spaCy scorer's default) "." leaves: 8 tokens, LA 4/8,
# NED 8/8, UCP and LCP the same.

GOLD = [
    tree([2, 0, 2, 2], ["nsubj", "root", "obj", "punct"], ["She", "reads", "books", "."],
         ["PRON", "VERB", "NOUN", "PUNCT"], 1),
    tree([2, 0], ["nsubj", "root"], ["Dogs", "bark"], ["NOUN", "VERB"], 2),
    tree([2, 0], ["nsubj", "root"], ["a", "b"], ["NOUN", "VERB"], 3),
    tree([2, 0, 2], ["expl", "root", "obl"], ["It", "rained", "today"], ["PRON", "VERB", "NOUN"], 4),
]
PRED = [
    tree([2, 0, 2, 3], ["nsubj", "root", "iobj", "punct"], ["She", "reads", "books", "."],
         ["PRON", "VERB", "NOUN", "PUNCT"], 1),
    tree([0, 1], ["root", "nsubj"], ["Dogs", "bark"], ["NOUN", "VERB"], 2),
    tree([2, 0], ["nsubj", "root"], ["a", "c"], ["NOUN", "VERB"], 3),
    tree([2, 0, 0], ["expl", "root", "root"], ["It", "rained", "today"], ["PRON", "VERB", "NOUN"], 4),
]
SKIP = EvaluationSettings(skip_mismatched=True)
BY_HAND = {"las": Fraction(4, 9), "uas": Fraction(5, 9), "la": Fraction(5, 9), "ned": Fraction(8, 9),
           "ucp": Fraction(1, 3), "lcp": Fraction(0, 3)}
BY_HAND_NO_PUNCT = {"la": Fraction(4, 8), "ned": Fraction(8, 8), "ucp": Fraction(1, 3), "lcp": Fraction(0, 3)}


def assert_by_hand(scores, expected=BY_HAND):
    for metric, value in expected.items():
        assert scores[metric] == float(value), metric  # n / d as Python divides it: to the last digit


def same(a, b):
    """Two results equal to the last digit: scores, counts, every field of the JSON, the rows."""
    assert a.counts.values == b.counts.values
    for key in a.scores:
        assert a.scores[key] == b.scores[key] or (math.isnan(a.scores[key]) and math.isnan(b.scores[key])), key
    x, y = a.to_json(), b.to_json()
    assert x.keys() == y.keys()
    for key in x:
        assert x[key] == y[key] or (x[key] != x[key] and y[key] != y[key]), key
    assert a.ud == b.ud and a.tokens == b.tokens and a.verbs == b.verbs


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        warnings.simplefilter("ignore", LabelSetWarning)
        warnings.simplefilter("ignore", RootCaseWarning)
        yield


def test_the_example_by_hand_through_evaluate():
    result = evaluate(GOLD, PRED, SKIP)
    assert_by_hand(result.scores)
    assert result.tokens == 9 and result.verbs == 3 and len(result.sentences) == 3
    assert result.skipped == ["example.conllu: sentence 3: token 2 is 'b' against 'c'"]
    assert result.multi_root == ["example.conllu: sentence 4: 2 roots in the prediction, 1 in the gold"]
    assert result.counts.values["las"] == [4.0, 9.0] and result.counts.values["ucp"] == [1.0, 3.0]
    with pytest.raises(MismatchedCorpusError, match="token 2 is 'b' against 'c'"):
        evaluate(GOLD, PRED)


@pytest.mark.parametrize("batch", [1, 2, 4096])
def test_pair_by_pair_equals_evaluate(batch):
    acc = DependencyEvaluator(SKIP, batch=batch)
    for g, p in zip(GOLD, PRED):
        acc.add(g, p)
    assert acc.sentences == 4
    result = acc.result()
    assert_by_hand(result.scores)
    same(result, evaluate(GOLD, PRED, SKIP))
    assert result.sentences == evaluate(GOLD, PRED, SKIP).sentences


def test_blocks_of_columns_equal_evaluate(tmp_path):
    acc = DependencyEvaluator(SKIP)
    for block in tree_batches(GOLD, PRED, acc.table, lambda g, p: accumulator.token_problem(g, p, True), size=2):
        acc.add_block(*block)
    same(acc.result(), evaluate(GOLD, PRED, SKIP))
    # and from files, read a block at a time (what sa.evaluate does with CoNLL-U files)
    gold, pred = read_conll(GOLD_FILE), read_conll(SYS_FILE)
    acc = DependencyEvaluator(keep_rows=False)
    with ScanStream(GOLD_FILE, acc.table) as g, ScanStream(SYS_FILE, acc.table) as p:
        for block in identical_batches(g, p, True, False, block=7):
            acc.add_block(*block)
    streamed, whole = acc.result(), evaluate(gold, pred)
    assert streamed.counts.values == whole.counts.values and streamed.to_json() == whole.to_json()
    assert len(streamed.sentences) == len(whole.sentences)


def test_spacy_scorer_feeds_the_same_accumulator():
    spacy = pytest.importorskip("spacy")
    from spacy.tokens import Doc
    from spacy.training import Example

    from spacy_agreement.integrations.spacy_scoring import score_syntax

    vocab = spacy.blank("en").vocab

    def doc(t):
        heads = [h - 1 if h else i for i, h in enumerate(t.heads.tolist())]
        return Doc(vocab, words=list(t.forms), heads=heads, pos=list(t.upos),
                   deps=["ROOT" if h == 0 else d for h, d in zip(t.heads.tolist(), t.deprels)])

    pairs = [(g, p) for k, (g, p) in enumerate(zip(GOLD, PRED)) if k != 2]  # the same tokens
    scores = score_syntax([Example(doc(p), doc(g)) for g, p in pairs])
    assert_by_hand({m: scores[f"dep_{m}"] for m in BY_HAND_NO_PUNCT}, BY_HAND_NO_PUNCT)
    assert scores["dep_sentences_multi_root"] == 1
    options = EvaluationSettings(exclude_punct=True, punct_labels=frozenset({"p", "punct"}), punct_rules="label")
    expected = evaluate([g for g, _ in pairs], [p for _, p in pairs], options)
    for metric, value in expected.scores.items():
        if metric not in ("las", "uas"):  # spaCy's own dep_las, dep_uas stand
            assert scores[f"dep_{metric}"] == value or (math.isnan(value) and math.isnan(scores[f"dep_{metric}"]))


def _graphs(trees):
    from nltk.parse import DependencyGraph

    return [DependencyGraph("\n".join(f"{f}\t{u}\t{h}\t{d}" for f, u, h, d in
                                      zip(t.forms, t.upos, t.heads.tolist(), t.deprels)), top_relation_label="root")
            for t in trees]


def test_score_nltk_trees_feeds_the_same_accumulator():
    pytest.importorskip("nltk")
    from spacy_agreement.integrations.nltk_scoring import score_nltk_trees

    golds, preds = [t for k, t in enumerate(GOLD) if k != 2], [t for k, t in enumerate(PRED) if k != 2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # nltk: a graph with two roots
        scores = score_nltk_trees(_graphs(golds), _graphs(preds), alpha="off")
    assert_by_hand(scores)
    expected = evaluate(golds, preds).to_dict()
    assert {k: v for k, v in scores.items() if k in expected} == expected


def test_statistics_sum_to_the_corpus_figures():
    gold, pred = read_conll(GOLD_FILE), read_conll(SYS_FILE)
    for options in (EvaluationSettings(), EvaluationSettings.for_convention("conll07")):
        result = evaluate(gold, pred, options, keep_counts=True)
        stats = result.statistics()
        assert stats is result.unit_counts and stats.metrics == tuple(result.scores)
        assert len(stats) == len(result.sentences) == len(gold)
        assert list(stats.units) == list(range(len(gold)))
        corpus = stats.corpus()
        for k, metric in enumerate(stats.metrics):
            numerator, denominator = result.counts.values[metric]
            assert math.isclose(stats.numerators[:, k].sum(), numerator, rel_tol=1e-12), metric
            assert stats.denominators[:, k].sum() == pytest.approx(denominator, rel=1e-12)
            assert corpus[metric] == pytest.approx(result.scores[metric], rel=1e-12, nan_ok=True), metric
            if metric in ("las", "uas", "la", "ned", "ucp", "lcp", "clas", "mlas", "blex"):  # whole numbers
                assert stats.numerators[:, k].sum() == numerator and corpus[metric] == result.scores[metric]
    acc = DependencyEvaluator(SKIP, keep_counts=True)
    for g, p in zip(GOLD, PRED):
        acc.add(g, p)
    stats = acc.result().statistics()
    assert list(stats.units) == [0, 1, 3] and list(stats.set_aside) == [2]  # the skipped sentence is set aside
    assert stats.corpus()["las"] == float(BY_HAND["las"])
    with pytest.raises(BadOptionError, match="keep_counts=True"):
        evaluate(GOLD, PRED, SKIP).statistics()


def test_compiled_and_reference_paths_mix_in_one_corpus():
    """Pairs added one by one go through the compiled path, partial ones through the reference
    path, into the same counts: the figures are those of the reference path alone (what evaluate
    does with a corpus holding a partial tree), bit for bit."""
    gold, pred = list(read_conll(GOLD_FILE)), list(read_conll(SYS_FILE))
    partial = DependencyTree.create([2, 0, None, 2], ["nsubj", "root", None, "punct"], forms=["a", "b", "c", "."],
                                    upos=["PRON", "VERB", "NOUN", "PUNCT"], partial=True)
    whole = DependencyTree.create([2, 0, 2, 2], ["nsubj", "root", "obj", "punct"], forms=["a", "b", "c", "."],
                                  upos=["PRON", "VERB", "NOUN", "PUNCT"])
    gold[10:10], pred[10:10] = [whole, whole], [partial, whole]
    for options in (EvaluationSettings(), EvaluationSettings.for_convention("plank2015")):
        acc = DependencyEvaluator(options, keep_counts=True, batch=64)
        for g, p in zip(gold, pred):
            acc.add(g, p)
        mixed, reference = acc.result(), evaluate(gold, pred, options, keep_counts=True)
        same(mixed, reference)
        assert mixed.sentences == reference.sentences and len(mixed.partial) == 1
        u, v = mixed.statistics(), reference.statistics()
        assert (u.units == v.units).all() and (u.numerators == v.numerators).all() and u.labels == v.labels


def test_the_path_is_chosen_in_one_place(monkeypatch):
    """Every entry point asks compiled_path_applies; when it says no, the compiled loops never run
    and the figures are the same."""
    spacy = pytest.importorskip("spacy")
    pytest.importorskip("nltk")
    from spacy.training import Example

    from spacy_agreement.integrations.nltk_scoring import score_nltk_trees
    from spacy_agreement.integrations.spacy_scoring import score_syntax

    gold, pred = read_conll(GOLD_FILE), read_conll(SYS_FILE)
    nlp = spacy.blank("en")

    def doc(t):
        from spacy.tokens import Doc

        heads = [h - 1 if h else i for i, h in enumerate(t.heads.tolist())]
        return Doc(nlp.vocab, words=list(t.forms), heads=heads, pos=list(t.upos),
                   deps=["ROOT" if h == 0 else d for h, d in zip(t.heads.tolist(), t.deprels)])

    examples = [Example(doc(p), doc(g)) for g, p in zip(gold, pred)]
    golds, preds = [t for k, t in enumerate(GOLD) if k != 2], [t for k, t in enumerate(PRED) if k != 2]

    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return (evaluate(gold, pred, keep_counts=True), score_syntax(examples),
                    score_nltk_trees(_graphs(golds), _graphs(preds), alpha="off"))

    compiled = run()
    asked = []

    def never(metrics, partial=False):
        asked.append(tuple(metrics))
        return False

    def forbidden(*args, **kwargs):
        raise AssertionError("the compiled path ran")

    monkeypatch.setattr(accumulator, "compiled_path_applies", never)
    monkeypatch.setattr(column_evaluation, "batch_counts", forbidden)
    reference = run()
    assert len(asked) >= 3  # evaluate, the spaCy scorer, score_nltk_trees
    same(compiled[0], reference[0])
    assert compiled[0].sentences == reference[0].sentences
    assert (compiled[0].statistics().numerators == reference[0].statistics().numerators).all()
    for a, b in zip(compiled[1:], reference[1:]):
        assert a.keys() == b.keys()
        for key in a:
            assert a[key] == b[key] or (a[key] != a[key] and b[key] != b[key]), key
    monkeypatch.setattr(accumulator, "compiled_path_applies", lambda metrics, partial=False: True)
    with pytest.raises(AssertionError, match="the compiled path ran"):
        evaluate(gold, pred)


def test_what_the_choice_says():
    assert compiled_path_applies(["las", "ted", "clas"]) and not compiled_path_applies(["las"], partial=True)
    assert fast_path_applies is compiled_path_applies  # the name before "compiled"
    register_metric("first_ok", "first", lambda g, p, ctx: (float(ctx.head_ok[0]), 1.0))
    try:
        assert not compiled_path_applies(["las", "first_ok"]) and compiled_path_applies(["las"])
        acc = DependencyEvaluator(SKIP)
        assert not acc.compiled
        block = next(iter(tree_batches(GOLD, PRED, acc.table, lambda g, p: None)))
        with pytest.raises(BadOptionError, match="first_ok"):
            acc.add_block(*block)
        for g, p in zip(GOLD, PRED):
            acc.add(g, p)
        result = acc.result()
        assert_by_hand(result.scores)
        assert result.scores["first_ok"] == 2 / 3  # "She", "It" have their heads, "Dogs" not
    finally:
        unregister_metric("first_ok")


def test_errors_come_with_the_result_after_the_label_warnings():
    acc = DependencyEvaluator()
    for g, p in zip(GOLD, PRED):
        acc.add(g, p, location=Location("mine.conllu", sentence=7))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with pytest.raises(MismatchedCorpusError, match="mine.conllu"):
            acc.result()
    relabelled = [DependencyTree.create(t.heads.tolist(), ["dep"] * len(t), forms=t.forms, upos=t.upos)
                  for t in read_conll(SYS_FILE)]
    acc = DependencyEvaluator()
    acc.add_trees(read_conll(GOLD_FILE), relabelled)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        acc.result()
    assert [w.category for w in seen if w.category is LabelSetWarning] == [LabelSetWarning]
    assert all(w.filename == __file__ for w in seen)  # at the caller of result()
    with pytest.raises(MismatchedCorpusError, match="4 gold sentences"):
        DependencyEvaluator().add_trees(GOLD, PRED[:3])


def test_one_undefined_warning_per_result_at_the_caller():
    acc = DependencyEvaluator(metrics=["las", "ucp"])
    acc.add(GOLD[1], GOLD[1])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert acc.result().scores["las"] == 1.0
    assert not seen  # "bark" has a dependent: UCP is defined
    acc = DependencyEvaluator(EvaluationSettings(exclude_punct=True), metrics=["las", "ucp"])
    acc.add(tree([0], ["punct"], ["!"], ["PUNCT"], 1), tree([0], ["punct"], ["!"], ["PUNCT"], 1))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        scores = acc.result().scores
    assert math.isnan(scores["las"]) and math.isnan(scores["ucp"])
    undefined = [w for w in seen if w.category is UndefinedMetricWarning]
    assert len(undefined) == 1 and undefined[0].filename == __file__
    assert np.isnan(list(scores.values())).all()
