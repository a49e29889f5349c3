"""spaCy integration: components, the registered scorer from Python and from a config, a real
parser trained inside the test and evaluated end to end through the CLI, α over docs."""
import json
import math
import random
import warnings
from importlib import resources

import pytest

spacy = pytest.importorskip("spacy")
from spacy.tokens import Doc  # noqa: E402
from spacy.training import Example  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

import spacy_agreement as sa  # noqa: E402
from spacy_agreement.cli import app  # noqa: E402
from spacy_agreement.integrations.spacy_components import (UnparsedDocWarning, alpha_over_docs,  # noqa: E402
                                                            make_syntax_scorer, score_syntax)


def demo_trees():
    base = resources.files("spacy_agreement") / "data" / "demo" / "dependency" / "anna"
    with resources.as_file(base) as folder:
        return [t for path in sorted(folder.glob("*.conllu")) for t in sa.read_conll(path)], sorted(folder.glob("*.conllu"))


def doc_of(vocab, tree):
    heads = [i if h == 0 else h - 1 for i, h in enumerate(tree.heads.tolist())]
    deps = ["ROOT" if h == 0 else d for h, d in zip(tree.heads.tolist(), tree.deprels)]  # spaCy's root label
    return Doc(vocab, words=list(tree.forms), heads=heads, deps=deps, pos=list(tree.upos))


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A real spaCy parser trained for a few iterations on the demo sentences."""
    random.seed(0)
    spacy.util.fix_random_seed(0)
    trees, files = demo_trees()
    nlp = spacy.blank("en")
    nlp.add_pipe("parser", config={"min_action_freq": 1,  # a tiny training set: keep every action
                                   "scorer": {"@scorers": "spacy_agreement.syntax_scorer.v1", "alpha": "auto",
                                              "leaf_ancestor": True}})
    examples = [Example(Doc(nlp.vocab, words=list(t.forms)), doc_of(nlp.vocab, t)) for t in trees]
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(25):
        random.shuffle(examples)
        nlp.update(examples, sgd=optimizer, drop=0.0)
    path = tmp_path_factory.mktemp("model") / "parser"
    nlp.to_disk(path)
    gold = tmp_path_factory.mktemp("gold") / "gold.conllu"
    gold.write_text(sa.adapters.write_conll(trees), encoding="utf-8")
    return nlp, examples, path, gold


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # no POS: UCP, LCP undefined
def test_nlp_evaluate_with_registered_scorer(trained):
    nlp, examples, _, _ = trained
    scores = nlp.evaluate(examples)
    for key in ("dep_las", "dep_uas", "dep_la", "dep_ned", "dep_ted", "dep_ucp", "dep_lcp", "dep_las_content",
                "dep_leaf_ancestor", "dep_alpha_plain", "dep_alpha_diff", "dep_alpha_norm"):
        assert key in scores, key
    # spaCy's own dep_las, and ours computed independently the same way (punct ignored, lowercased labels)
    from spacy.pipeline.dep_parser import parser_score

    predicted = [Example(nlp(Doc(nlp.vocab, words=[t.text for t in eg.reference])), eg.reference) for eg in examples]
    assert scores["dep_las"] == pytest.approx(parser_score(predicted)["dep_las"])
    # our own accuracies over gold tokens (punctuation by gold label) on the same predictions
    from spacy_agreement.evaluation.parser_metrics import EvaluationOptions, evaluate

    def lowered(span):
        tree = sa.from_span(span)
        return sa.DependencyTree.create(tree.heads.tolist(), [d.lower() for d in tree.deprels], tree.forms)

    ours = evaluate([lowered(eg.reference[:]) for eg in predicted], [lowered(eg.predicted[:]) for eg in predicted],
                    EvaluationOptions(exclude_punct=True, punct_upos=frozenset(), punct_labels=frozenset({"p", "punct"})))
    assert ours.la == pytest.approx(scores["dep_la"]) and ours.ned == pytest.approx(scores["dep_ned"])


def test_scorer_from_a_config_file():
    config = spacy.util.load_config_from_str("""
[nlp]
lang = "en"
pipeline = ["parser"]

[components]

[components.parser]
factory = "parser"

[components.parser.scorer]
@scorers = "spacy_agreement.syntax_scorer.v1"
alpha = "off"
""")
    nlp = spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
    ref = Doc(nlp.vocab, words=["I", "saw", "him", "."], heads=[1, 1, 1, 1], deps=["nsubj", "ROOT", "obj", "punct"])
    pred = Doc(nlp.vocab, words=["I", "saw", "him", "."], heads=[1, 1, 1, 2], deps=["nsubj", "ROOT", "iobj", "punct"])
    with pytest.warns(sa.UndefinedMetricWarning) as record:  # no POS tags: nan, one warning per value
        scores = nlp.get_pipe("parser").scorer([Example(pred, ref)])
    undefined = sorted(str(w.message).split()[0] for w in record if w.category is sa.UndefinedMetricWarning)
    assert undefined == ["las_content", "lcp", "ucp"]
    assert all(math.isnan(scores[f"dep_{key}"]) for key in undefined)
    assert scores["dep_las"] == pytest.approx(2 / 3) and scores["dep_la"] == pytest.approx(2 / 3)
    assert "dep_alpha_plain" not in scores and scores["dep_ted"] < 1
    # how the numbers were computed: the scorer's conventions (punctuation by label, excluded)
    assert scores["dep_signature"].startswith("evaluate|xpunct:yes|") and "|prules:label|" in scores["dep_signature"]


def test_scorer_counts_tokenisation_differences():
    nlp = spacy.blank("en")
    ref = Doc(nlp.vocab, words=["I", "ca", "n't", "go"], heads=[3, 3, 3, 3], deps=["nsubj", "aux", "neg", "ROOT"])
    pred = Doc(nlp.vocab, words=["I", "can't", "go"], heads=[2, 2, 2], deps=["nsubj", "aux", "ROOT"])
    scores = score_syntax([Example(pred, ref)])
    assert scores["dep_examples_misaligned"] == 1 and scores["dep_unaligned_tokens"] == 2
    assert scores["dep_la"] == pytest.approx(2 / 4)


def test_components_from_python_and_alpha_over_docs():
    nlp = spacy.blank("en")
    nlp.add_pipe("analysis_snapshot", config={"key": "annotator1"})
    nlp.add_pipe("syntax_agreement", config={"compare_with": ["annotator1"], "metrics": ["las", "ted_distance"]})
    docs = []
    for deps in (["nsubj", "ROOT", "obj", "punct"], ["nsubj", "ROOT", "iobj", "punct"]):
        doc = Doc(nlp.vocab, words=["I", "saw", "him", "."], heads=[1, 1, 1, 1], deps=["nsubj", "ROOT", "obj", "punct"])
        doc = nlp.get_pipe("analysis_snapshot")(doc)
        for token, dep in zip(doc, deps):
            token.dep_ = dep
        docs.append(nlp.get_pipe("syntax_agreement")(doc))
    assert docs[0]._.agreement["annotator1"] == {"las": 1.0, "ted_distance": 0.0}
    assert docs[1]._.agreement["annotator1"]["las"] == 0.75
    assert list(docs[1].sents)[0]._.agreement["annotator1"]["ted_distance"] == 1.0
    result = alpha_over_docs(docs, ["annotator1"])
    assert result.items == 2 and result.annotations == 4
    expected = sa.alpha([[sa.from_span(d[:]) for _ in range(1)] + [sa.from_span(d[:])] for d in docs[:0]] or
                        [[sa.DependencyTree.create([2, 0, 2, 2], ["nsubj", "ROOT", "obj", "punct"]),
                          sa.DependencyTree.create([2, 0, 2, 2], deps)]
                         for deps in (["nsubj", "ROOT", "obj", "punct"], ["nsubj", "ROOT", "iobj", "punct"])])
    assert result.alpha_plain == pytest.approx(expected.alpha_plain)
    nlp2 = spacy.blank("en")
    nlp2.add_pipe("syntax_agreement", config={"compare_with": ["other"]})
    component = nlp2.get_pipe("syntax_agreement")
    with pytest.warns(UnparsedDocWarning, match="no stored analysis 'other'"):
        component(docs[0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # counted, not warned again
        component(docs[1])
    assert component.skipped_docs == 2


@pytest.mark.slow
def test_trained_parser_through_the_cli(trained):
    _, _, path, gold = trained
    result = CliRunner().invoke(app, ["evaluate", "--model", str(path), str(gold), "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["sentences"] == 8 and out["tokens"] == sum(len(t) for t in demo_trees()[0])
    assert 0.5 < out["las"] <= out["uas"] <= 1.0 and 0 <= out["ted"] <= 1
    missing = CliRunner().invoke(app, ["evaluate", "--model", str(path / "nope"), str(gold)])
    assert missing.exit_code == 1 and "cannot load" in missing.output


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # no VERB: UCP/LCP undefined
def test_scorer_punctuation_rules_and_tag_sets():
    """The scorer's ``punct`` (label / upos / form, Plank et al. 2015's CoNLL-07 rule) and
    ``verb_tags`` options, hand-counted on one sentence whose guillemet is labelled ``dep``."""
    nlp = spacy.blank("en")
    words = ["«", "Go", "home", "»"]
    ref = Doc(nlp.vocab, words=words, heads=[1, 1, 1, 1], deps=["dep", "ROOT", "obj", "punct"],
              pos=["PUNCT", "AUX", "NOUN", "PUNCT"])
    pred = Doc(nlp.vocab, words=words, heads=[2, 1, 1, 1], deps=["dep", "ROOT", "obj", "punct"],
               pos=["PUNCT", "AUX", "NOUN", "PUNCT"])
    example = [Example(pred, ref)]
    # by label only "»" is punctuation: "«" counts (wrong head), so NED sees 2 of 3
    by_label = score_syntax(example)
    with pytest.warns(sa.UndefinedMetricWarning, match="(ucp|lcp) is undefined"):
        by_form = score_syntax(example, punct="form")
    assert by_label["dep_la"] == 1.0
    assert by_label["dep_ned"] == pytest.approx(2 / 3)  # "«" → "home": neither gold edge nor reversed/grandparent
    assert by_form["dep_ned"] == 1.0  # "«" and "»" are punctuation by their form
    # UCP counts the tags named as verbs: "AUX" is not among the default ("VERB")
    assert math.isnan(by_form["dep_ucp"])
    with_tags = score_syntax(example, punct="form", verb_tags=["AUX"])
    assert with_tags["dep_ucp"] == 1.0  # children of "Go" without punctuation: {home} on both sides
    with pytest.raises(ValueError, match="unknown punctuation rule"):
        make_syntax_scorer(punct="form,commas")


def test_docs_without_a_parse_are_skipped_counted_and_warned_once():
    """A text that came with no parse has no analysis: no made-up scores (issue 15)."""
    nlp = spacy.blank("en")
    nlp.add_pipe("analysis_snapshot", config={"key": "gold"})
    nlp.add_pipe("syntax_agreement", config={"compare_with": ["gold"]})
    with pytest.warns(UnparsedDocWarning) as record:
        docs = [nlp("no parse here"), nlp("nor here")]
    skipped = [w for w in record if w.category is UnparsedDocWarning]
    # one warning per component for all its skipped docs
    assert sorted(str(w.message).split(":")[0] for w in skipped) == ["analysis_snapshot", "syntax_agreement"]
    assert nlp.get_pipe("analysis_snapshot").skipped_docs == 2
    assert nlp.get_pipe("syntax_agreement").skipped_docs == 2
    assert all(doc._.agreement is None and not doc._.analyses for doc in docs)
    parsed = Doc(nlp.vocab, words=["I", "saw", "him"], heads=[1, 1, 1], deps=["nsubj", "ROOT", "obj"])
    assert nlp(parsed)._.agreement["gold"]["las"] == 1.0


def test_scorer_skips_unparsed_predictions_and_counts_them():
    nlp = spacy.blank("en")
    ref = Doc(nlp.vocab, words=["I", "saw", "him"], heads=[1, 1, 1], deps=["nsubj", "ROOT", "obj"])
    good = Doc(nlp.vocab, words=["I", "saw", "him"], heads=[1, 1, 1], deps=["nsubj", "ROOT", "obj"])
    bare = Doc(nlp.vocab, words=["I", "saw", "him"])
    with pytest.warns(UnparsedDocWarning, match="1 of 2 example"):
        scores = score_syntax([Example(good, ref), Example(bare, ref)])
    assert scores["dep_examples_unparsed"] == 1 and scores["dep_las"] == 1.0 and scores["dep_la"] == 1.0
    with_alpha = score_syntax([Example(good, ref)] * 3, alpha="auto")
    assert with_alpha["dep_alpha_method"] == "exact"
    assert with_alpha["dep_alpha_signature"].startswith("alpha|") and "method:exact" in with_alpha["dep_alpha_signature"]
