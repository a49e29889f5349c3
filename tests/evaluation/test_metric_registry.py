"""The parser-metric table: a metric defined once (``register_metric``) appears in ``evaluate``
(library, CLI text and JSON), the spaCy scorer (``dep_<name>``), the spaCy component and
``judgments --metric``; the one policy for undefined results (nan + one
``UndefinedMetricWarning`` per undefined value) in every metric family; unambiguous names."""
import json
import math
import warnings

import numpy as np
import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.errors import UndefinedMetricWarning, ratio, undefined
from spacy_agreement.evaluation.dependency import metrics as pm
from spacy_agreement.evaluation.judgments.analysis import analyse_judgments, cohen_kappa, fleiss_kappa, make_item
from spacy_agreement.evaluation.constituency.leaf_ancestor import leaf_ancestor

runner = CliRunner()


def root_accuracy(gold, pred, ctx):
    """Test-only metric: of the gold roots, how many have the right head (the root) in the prediction."""
    roots = [k for k, head in enumerate(ctx.gold_heads) if head == 0]
    return sum(ctx.head_ok[k] for k in roots), len(roots)


@pytest.fixture
def root_metric():
    metric = pm.register_metric("root_accuracy", "root accuracy", root_accuracy,
                                description="gold roots attached to the root (test plugin)",
                                undefined_when="no gold root")
    yield metric
    pm.unregister_metric("root_accuracy")


def conll(rows):
    lines = [f"{k}\tw{k}\tw\t{upos}\t_\t_\t{head}\t{rel}\t_\t_" for k, (head, rel, upos) in enumerate(rows, 1)]
    return "\n".join(lines) + "\n\n"


GOLD = [[(2, "nsubj", "PRON"), (0, "root", "VERB"), (2, "obj", "NOUN")],
        [(0, "root", "VERB"), (1, "obj", "NOUN")]]
PRED = [[(2, "nsubj", "PRON"), (0, "root", "VERB"), (2, "obj", "NOUN")],   # root right
        [(2, "obj", "VERB"), (0, "root", "NOUN")]]                          # root wrong


def trees(sentences):
    return [sa.DependencyTree.create([h for h, _, _ in s], [r for _, r, _ in s],
                                     [f"w{k}" for k in range(1, len(s) + 1)], [u for _, _, u in s])
            for s in sentences]


def test_builtin_table():
    assert pm.metric_names()[:13] == ("las", "uas", "la", "ned", "ted", "ucp", "lcp", "las_content", "las_function",
                                      "las_root_weighted", "clas", "mlas", "blex")
    assert all(isinstance(m, pm.Metric) and m.description for m in pm.PARSER_METRICS.values())
    assert pm.display_name("las_content") == "LAS content" and pm.display_name("ted") == "TED"
    assert list(pm.METRICS) == list(pm.PARSER_METRICS)  # METRICS is a live view of the table
    with pytest.raises(ValueError, match="taken"):
        pm.register_metric("las", "LAS", root_accuracy)
    with pytest.raises(ValueError, match="taken"):
        pm.register_metric("tokens", "tokens", root_accuracy)  # a key of evaluate's JSON
    pm.unregister_metric("las")  # built-in metrics stay
    assert "las" in pm.PARSER_METRICS


def test_a_registered_metric_appears_everywhere(root_metric, tmp_path):
    # the library: evaluate (corpus and per sentence), sentence_scores
    result = pm.evaluate(trees(GOLD), trees(PRED))
    assert result.root_accuracy == 0.5 and [s["root_accuracy"] for s in result.sentences] == [1.0, 0.0]
    assert list(result.scores)[-1] == "root_accuracy" and ("root_accuracy", "root accuracy", 0.5) in result.table()
    assert pm.sentence_scores(trees(GOLD)[1], trees(PRED)[1], metrics=("root_accuracy",)) == {"root_accuracy": 0.0}
    # the CLI's evaluate, JSON and text
    gold, pred = tmp_path / "g.conllu", tmp_path / "p.conllu"
    gold.write_text("".join(conll(s) for s in GOLD), encoding="utf-8")
    pred.write_text("".join(conll(s) for s in PRED), encoding="utf-8")
    out = runner.invoke(app, ["evaluate", str(gold), str(pred), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["root_accuracy"] == 0.5
    text = runner.invoke(app, ["evaluate", str(gold), str(pred)]).stdout
    # the row of the metric (shown by its display name once the CLI reads it from the table)
    assert any(("root accuracy" in line or "ROOT_ACCURACY" in line) and "50.0" in line for line in text.splitlines())
    # judgments: a valid --metric choice with no other change
    items = tmp_path / "items.jsonl"
    with items.open("w", encoding="utf-8") as handle:
        for k, (votes, b_heads) in enumerate([("AA", [2, 0, 2]), ("AB", [0, 1, 2]), ("BB", [2, 0, 2]),
                                             ("AA", [0, 1, 1])], 1):
            tree = lambda heads: {"heads": heads, "deprels": ["nsubj", "root", "obj"],  # noqa: E731
                                  "upos": ["PRON", "VERB", "NOUN"]}
            handle.write(json.dumps({"id": str(k), "gold": tree([2, 0, 2]), "a": tree([2, 0, 2]), "b": tree(b_heads),
                                     "judgments": {"j1": votes[0], "j2": votes[1]}}) + "\n")
    judged = runner.invoke(app, ["judgments", str(items), "--metric", "las", "--metric", "root_accuracy", "--json"])
    assert judged.exit_code == 0, judged.output
    values = json.loads(judged.stdout)
    assert values["ties_root_accuracy"] == 2 and "agreement_root_accuracy" in values
    assert "root accuracy" in runner.invoke(app, ["judgments", str(items), "--metric", "root_accuracy"]).stdout


def test_a_registered_metric_in_the_spacy_scorer_and_component(root_metric):
    spacy = pytest.importorskip("spacy")
    from spacy.tokens import Doc
    from spacy.training import Example

    from spacy_agreement.integrations.spacy_components import score_syntax

    nlp = spacy.blank("en")
    pos = ["PRON", "VERB", "PRON", "PUNCT"]
    ref = Doc(nlp.vocab, words=["I", "saw", "him", "."], heads=[1, 1, 1, 1], deps=["nsubj", "ROOT", "obj", "punct"],
              pos=pos)
    pred = Doc(nlp.vocab, words=["I", "saw", "him", "."], heads=[1, 2, 2, 2], deps=["nsubj", "obj", "ROOT", "punct"],
               pos=pos)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # e.g. no content word for CLAS here
        scores = score_syntax([Example(pred, ref)])
    assert scores["dep_root_accuracy"] == 0.0
    assert "dep_las" in scores and scores["dep_la"] == pytest.approx(1 / 3)  # spaCy's own dep_las kept
    # the component takes any metric of the table, plus ted_distance and leaf_ancestor
    nlp.add_pipe("analysis_snapshot", config={"key": "gold"})
    nlp.add_pipe("syntax_agreement", config={"compare_with": ["gold"],
                                             "metrics": ["root_accuracy", "ted", "ted_distance"]})
    doc = nlp.get_pipe("analysis_snapshot")(ref)
    scores = nlp.get_pipe("syntax_agreement")(doc)._.agreement["gold"]
    assert {k: scores[k] for k in ("root_accuracy", "ted", "ted_distance")} == {"root_accuracy": 1.0, "ted": 1.0,
                                                                               "ted_distance": 0.0}
    with pytest.raises(ValueError, match="unknown metrics"):
        nlp.add_pipe("syntax_agreement", name="other", config={"metrics": ["nope"]})


def test_one_metric_wrappers_compute_only_their_metric():
    calls = []
    pm.register_metric("spy", "spy", lambda g, p, ctx: calls.append(1) or (1, 1))
    try:
        g = sa.DependencyTree.create([2, 0], ["nsubj", "root"], upos=["PRON", "VERB"])
        assert pm.ted_accuracy(g, g) == 1.0 and pm.neutral_edge_direction(g, g) == 1.0
        assert pm.complete_predications(g, g) == (1.0, 1.0)
        assert calls == []
        pm.sentence_scores(g, g)  # every metric
        assert calls == [1]
    finally:
        pm.unregister_metric("spy")
    for removed in ("labelled_attachment_score", "unlabelled_attachment_score", "label_accuracy"):
        assert not hasattr(pm, removed)  # no callers, not public: sentence_scores(..., metrics=(name,))


# --- one policy for undefined results ------------------------------------------------------------


def undefined_names(record):
    """The names of the undefined values the warnings of ``record`` name (one warning may name several)."""
    return [name for w in record if issubclass(w.category, UndefinedMetricWarning) for name in w.message.metrics]


def test_the_helper():
    with pytest.warns(UndefinedMetricWarning, match=r"^x is undefined: why; returning nan$"):
        assert math.isnan(undefined("x", "why"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ratio(1, 4, "x") == 0.25
    with pytest.warns(UndefinedMetricWarning, match="nothing to count"):
        assert math.isnan(ratio(0, 0, "x"))


def test_parser_metrics_warn_once_per_call():
    # one sentence, all punctuation: with exclude_punct every token-based metric is undefined,
    # and UCP, LCP (no verb); TED (the empty trees agree) and CLAS ("root" is content) are defined
    gold = sa.DependencyTree.create([0, 1], ["root", "punct"], forms=["!", "!"], upos=["PUNCT", "PUNCT"])
    options = pm.EvaluationSettings(exclude_punct=True, punct_labels=frozenset({"punct", "root"}))
    with pytest.warns(UndefinedMetricWarning) as record:
        result = pm.evaluate([gold, gold], [gold, gold], options)
    nan = [k for k, v in result.scores.items() if math.isnan(v)]
    assert len(record) == 1 and record[0].filename == __file__  # one warning, at the call
    assert undefined_names(record) == nan  # every undefined corpus score, once, in the table's order
    assert set(nan) == set(pm.metric_names()) - {"ted", "clas", "mlas", "blex"} and result.ted == result.clas == 1.0
    assert all(math.isnan(s["las"]) for s in result.sentences)  # the per-sentence rows: nan, no more warnings
    with pytest.warns(UndefinedMetricWarning) as record:
        one = pm.sentence_scores(gold, gold, options, metrics=("las", "ucp", "ted"))
    assert len(record) == 1 and undefined_names(record) == ["las", "ucp"] and one["ted"] == 1.0
    with warnings.catch_warnings():  # defined values: no warning at all
        warnings.simplefilter("error")
        full = sa.DependencyTree.create([2, 0, 2], ["nsubj", "root", "obj"], upos=["PRON", "VERB", "NOUN"])
        assert all(not math.isnan(v) for v in pm.evaluate([full], [full]).scores.values())


def test_kappa_warns_when_undefined():
    with pytest.warns(UndefinedMetricWarning) as record:
        assert math.isnan(cohen_kappa([], []))
        assert math.isnan(cohen_kappa(list("AAA"), list("AAA")))  # chance agreement 1
        assert math.isnan(fleiss_kappa([["A"], ["B"]]))  # no item with two judgments
        assert math.isnan(fleiss_kappa([["A", "A"], ["A", "A"]]))
    assert undefined_names(record) == ["Cohen's kappa", "Cohen's kappa", "Fleiss' kappa", "Fleiss' kappa"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cohen_kappa(list("AB"), list("AB")) == 1.0


def test_judgments_kappa_warns_once_and_pairs_are_not_noise():
    gold = sa.DependencyTree.create([2, 0, 2], ["nsubj", "root", "obj"], upos=["PRON", "VERB", "NOUN"])
    other = sa.DependencyTree.create([0, 1, 2], ["nsubj", "root", "obj"], upos=["PRON", "VERB", "NOUN"])
    items = [make_item(str(k), gold, gold, other, {"x": "A", "y": "A"}) for k in range(4)]
    with pytest.warns(UndefinedMetricWarning) as record:  # both judges always say A: κ undefined
        result = analyse_judgments(items, metrics=("las",), mace_restarts=1)
    assert math.isnan(result.kappa) and undefined_names(record) == ["Cohen's kappa"]


def test_leaf_ancestor_warns_and_keeps_names_apart():
    a = sa.parse_brackets("(S (NP (DT a)) (VP (VB b)))", leaves="categories")[0]
    with pytest.warns(UndefinedMetricWarning) as record:  # every sentence skipped: nothing scored
        result = leaf_ancestor([a], [None])
        values = result.to_dict()
    # GEIG too: no bracket compared (issue 27)
    assert undefined_names(record) == ["leaf_ancestor", "leaf_ancestor_words", "geig"]
    assert math.isnan(values["leaf_ancestor"]) and math.isnan(values["leaf_ancestor_words"])
    assert math.isnan(values["geig_labelled"]) and math.isnan(values["geig_unlabelled"])
    scored = leaf_ancestor([a], [a])
    keys = scored.to_dict()
    assert keys["leaf_ancestor"] == keys["leaf_ancestor_words"] == 1.0 and "la" not in keys
    assert scored.la == scored.leaf_ancestor and scored.la_words == scored.leaf_ancestor_words  # 0.1 aliases
    assert "leaf_ancestor" in keys["sentences"][0] and scored.sentences[0].la == 1.0


def test_spacy_component_score_is_nan_not_none():
    spacy = pytest.importorskip("spacy")
    from spacy.tokens import Doc
    from spacy.training import Example

    nlp = spacy.blank("en")
    component = nlp.add_pipe("syntax_agreement", config={"compare_with": ["gold"]})
    doc = Doc(nlp.vocab, words=["a"])
    with pytest.warns(UndefinedMetricWarning, match="agreement_las is undefined"):
        value = component.score([Example(doc, doc)])["agreement_las"]
    assert value is not None and math.isnan(value)


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # identical trees: alpha undefined
def test_nltk_scoring_keys_do_not_collide():
    nltk = pytest.importorskip("nltk")
    tree = nltk.Tree.fromstring("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))")
    scores = sa.score_nltk_trees([tree], [tree])
    assert scores["leaf_ancestor"] == 1.0 and "la" not in scores  # "la" is label accuracy (dependency graphs)
    assert np.isfinite(scores["geig_labelled"])
