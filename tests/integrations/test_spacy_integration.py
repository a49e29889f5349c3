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
    from spacy_agreement.evaluation.dependency.metrics import EvaluationSettings, evaluate

    def lowered(span):
        tree = sa.from_span(span)
        return sa.DependencyTree.create(tree.heads.tolist(), [d.lower() for d in tree.deprels], tree.forms)

    ours = evaluate([lowered(eg.reference[:]) for eg in predicted], [lowered(eg.predicted[:]) for eg in predicted],
                    EvaluationSettings(exclude_punct=True, punct_upos=frozenset(), punct_labels=frozenset({"p", "punct"})))
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
    with pytest.warns(sa.UndefinedMetricWarning) as record:  # no POS tags: nan, one warning naming the values
        scores = nlp.get_pipe("parser").scorer([Example(pred, ref)])
    undefined = sorted(name for w in record if w.category is sa.UndefinedMetricWarning for name in w.message.metrics)
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
    from spacy_agreement.integrations.spacy_components import MisalignedExampleWarning

    with pytest.warns((MisalignedExampleWarning, sa.UndefinedMetricWarning)) as seen:  # no UPOS: UCP, LCP undefined
        scores = score_syntax([Example(pred, ref)])
    assert any(w.category is MisalignedExampleWarning and "1 of 1 example" in str(w.message) for w in seen)
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
    assert out["sentences_scored"] == 8 and out["tokens_scored"] == sum(len(t) for t in demo_trees()[0])
    assert 0.5 < out["las"] <= out["uas"] <= 1.0 and 0 <= out["ted"] <= 1
    missing = CliRunner().invoke(app, ["evaluate", "--model", str(path / "nope"), str(gold)])
    assert missing.exit_code == 1 and "cannot load" in missing.output


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_the_pipeline_on_the_raw_text_is_scored_through_the_alignment(trained, tmp_path):
    """``--from-text``: the pipeline tokenises and splits the gold's text itself; its parses
    are saved as CoNLL-U that conll18_ud_eval.py reads (the package's reader of what the script
    accepts reads them) and scored through the character alignment."""
    from spacy_agreement.adapters.conllu.column_reader import read_conllu_columns
    from spacy_agreement.evaluation.conll18.alignment import evaluate_aligned

    _, _, path, gold = trained
    saved = tmp_path / "parses.conllu"
    result = CliRunner().invoke(app, ["evaluate", "--model", str(path), str(gold), "--from-text", "--json",
                                      "--quiet", "--save-parses", str(saved)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["alignment"] == "characters" and out["tokens_gold"] == sum(len(t) for t in demo_trees()[0])
    layers = read_conllu_columns(saved)  # raises where the script would refuse the file
    assert all(layers.heads[k] >= 0 for k in range(layers.n_words))
    again = evaluate_aligned(gold, saved).to_dict()
    for key in ("las_f1", "uas_f1", "words_f1", "sentences_f1", "tokens_f1"):
        assert again[key] == out[key]
    assert 0 < out["uas_f1"] <= 1 and "conv:conll18" in out["signature"]
    text = CliRunner().invoke(app, ["evaluate", "--model", str(path), str(gold), "--from-text", "--quiet"]).stdout
    assert "Metric     | Precision |" in text and "the pipeline's own" in text
    wrong = CliRunner().invoke(app, ["evaluate", str(gold), "--from-text"])
    assert wrong.exit_code == 1 and "--model" in wrong.output


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
    with pytest.warns(sa.UndefinedMetricWarning, match="ucp and lcp are undefined"):
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
    with pytest.warns((UnparsedDocWarning, sa.UndefinedMetricWarning)) as seen:  # no UPOS: UCP, LCP undefined
        scores = score_syntax([Example(good, ref), Example(bare, ref)])
    assert any(w.category is UnparsedDocWarning and "1 of 2 example" in str(w.message) for w in seen)
    assert scores["dep_examples_unparsed"] == 1 and scores["dep_las"] == 1.0 and scores["dep_la"] == 1.0
    with pytest.warns(sa.UndefinedMetricWarning):  # three identical analyses: alpha undefined, and UCP, LCP
        with_alpha = score_syntax([Example(good, ref)] * 3, alpha="auto")
    assert with_alpha["dep_alpha_method"] == "exact"
    assert with_alpha["dep_alpha_signature"].startswith("alpha|") and "method:exact" in with_alpha["dep_alpha_signature"]


def spaced_gold_conllu():
    """The demo sentences as UD writes them (no space before the final full stop) and one
    more with a multiword token ("cannot" = "can" + "not") and a sentence-final SpaceAfter=No."""
    blocks = []
    for tree in demo_trees()[0]:
        lines = [f"# sent_id = {tree.location.sent_id}",
                 f"# text = {' '.join(tree.forms[:-1])}{tree.forms[-1]}"]
        for k, (form, upos, head, rel) in enumerate(zip(tree.forms, tree.upos, tree.heads.tolist(), tree.deprels), 1):
            misc = "SpaceAfter=No" if k == len(tree) - 1 else "_"
            lines.append("\t".join([str(k), form, "_", upos, "_", "_", str(head), rel, "_", misc]))
        blocks.append("\n".join(lines) + "\n")
    blocks.append("# sent_id = mwt-1\n# text = She cannot go.\n"
                  "1\tShe\tshe\tPRON\t_\t_\t4\tnsubj\t_\t_\n"
                  "2-3\tcannot\t_\t_\t_\t_\t_\t_\t_\t_\n"
                  "2\tcan\tcan\tAUX\t_\t_\t4\taux\t_\t_\n"
                  "3\tnot\tnot\tPART\t_\t_\t4\tadvmod\t_\t_\n"
                  "4\tgo\tgo\tVERB\t_\t_\t0\troot\t_\tSpaceAfter=No\n"
                  "5\t.\t.\tPUNCT\t_\t_\t4\tpunct\t_\tSpaceAfter=No\n")
    return "\n".join(blocks) + "\n"  # ends with an empty line, as conll18_ud_eval.py requires


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_evaluate_model_gives_spacy_evaluate_gold_preproc(trained, tmp_path):
    """``evaluate --model`` parses what ``spacy evaluate --gold-preproc`` parses (the gold words
    with the gold's spacing, as ``spacy convert`` makes them) and states spaCy's own figures."""
    import subprocess
    import sys

    from spacy.training import Corpus

    from spacy_agreement.integrations.spacy_parse import parse_with_pipeline

    nlp, _, path, _ = trained
    gold = tmp_path / "gold.conllu"
    gold.write_text(spaced_gold_conllu(), encoding="utf-8")
    converted = tmp_path / "converted"
    converted.mkdir()
    run = lambda *args: subprocess.run([sys.executable, "-m", "spacy", *map(str, args)],  # noqa: E731
                                       capture_output=True, text=True, timeout=300)
    done = run("convert", gold, converted, "--converter", "conllu")
    assert done.returncode == 0, done.stdout + done.stderr
    metrics = tmp_path / "metrics.json"
    done = run("evaluate", path, converted / "gold.spacy", "--gold-preproc", "--output", metrics)
    assert done.returncode == 0, done.stdout + done.stderr
    spacy_scores = json.loads(metrics.read_text(encoding="utf-8"))
    result = CliRunner().invoke(app, ["evaluate", str(gold), "--model", str(path), "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    ours = json.loads(result.stdout)
    assert ours["spacy_las"] == pytest.approx(spacy_scores["dep_las"], abs=1e-9)  # the file has 10 digits
    assert ours["spacy_uas"] == pytest.approx(spacy_scores["dep_uas"], abs=1e-9)
    # to the last digit: what spacy evaluate --gold-preproc computes, in this process
    examples = list(Corpus(converted / "gold.spacy", gold_preproc=True)(nlp))
    exact = nlp.evaluate(examples)
    assert (ours["spacy_las"], ours["spacy_uas"]) == (exact["dep_las"], exact["dep_uas"])
    # the same input as spaCy's: words and the spaces between them (spacy convert adds one after
    # the last word of every sentence but the last of its doc)
    trees = sa.read_conll(gold)
    docs = []
    parse_with_pipeline(nlp, trees, docs_out=docs)
    theirs = [eg.predicted for eg in Corpus(converted / "gold.spacy", gold_preproc=True)(nlp)]
    assert len(theirs) == len(docs) == 9
    for doc, their in zip(docs, theirs):
        assert doc.text.rstrip() == their.text.rstrip()
    assert docs[0].text.rstrip() == "Rain fell." and docs[-1].text == "She cannot go."  # not "can not go ."
    # the converted DocBin as gold: its spacing is kept too
    result = CliRunner().invoke(app, ["evaluate", str(converted / "gold.spacy"), "--model", str(path), "--json",
                                      "--quiet"])
    assert result.exit_code == 0, result.output
    from_docbin = json.loads(result.stdout)
    assert (from_docbin["spacy_las"], from_docbin["spacy_uas"]) == (exact["dep_las"], exact["dep_uas"])
    assert from_docbin["las"] == ours["las"]


@pytest.mark.slow
def test_saved_parses_are_valid_conllu_with_the_gold_tokens_and_one_root(trained, tmp_path):
    """``--save-parses`` writes what conll18_ud_eval.py reads: the gold scheme's root relation
    (not spaCy's ROOT), one root per sentence, the gold's multiword tokens and text."""
    _, _, path, _ = trained
    gold = tmp_path / "gold.conllu"
    gold.write_text(spaced_gold_conllu(), encoding="utf-8")
    saved = tmp_path / "parses.conllu"
    result = CliRunner().invoke(app, ["evaluate", str(gold), "--model", str(path), "--json", "--quiet",
                                      "--save-parses", str(saved)])
    assert result.exit_code == 0, result.output
    live = json.loads(result.stdout)
    text = saved.read_text(encoding="utf-8")
    assert text.endswith("\n\n")  # conll18_ud_eval.py requires the file to end with an empty line
    assert "2-3\tcannot\t" in text and "# text = She cannot go." in text and "ROOT" not in text
    parses = sa.read_conll(saved, single_root=True, cycles="raise")  # strict: one root, no cycle
    golds = sa.read_conll(gold)
    assert [p.forms for p in parses] == [g.forms for g in golds]
    assert [p.location.sent_id for p in parses] == [g.location.sent_id for g in golds]
    assert all(rel == "root" for p in parses for head, rel in zip(p.heads.tolist(), p.deprels) if head == 0)
    assert parses[-1].multiword == ((2, 3, "cannot", "_"),)
    again = CliRunner().invoke(app, ["evaluate", str(gold), str(saved), "--json"])
    assert again.exit_code == 0, again.output
    if live["sentences_multi_root"] == 0:  # the file is the live run, but for re-rooted sentences
        assert json.loads(again.stdout)["las"] == live["las"]


def test_write_parses_gives_a_split_sentence_one_root():
    from spacy_agreement.integrations.spacy_parse import write_parses

    gold = sa.parse_conll("# sent_id = s1\n"
                          "1\tIt\tit\tPRON\t_\t_\t2\tnsubj\t_\t_\n"
                          "2\trained\train\tVERB\t_\t_\t0\troot\t_\tSpaceAfter=No\n"
                          "3\t;\t;\tPUNCT\t_\t_\t5\tpunct\t_\t_\n"
                          "4\tit\tit\tPRON\t_\t_\t5\tnsubj\t_\t_\n"
                          "5\tstopped\tstop\tVERB\t_\t_\t2\tparataxis\t_\t_\n")
    split = sa.DependencyTree.create([2, 0, 2, 5, 0], ["nsubj", "root", "punct", "nsubj", "root"],
                                     gold[0].forms, ids=gold[0].ids)
    rerooted = []
    text = write_parses([split], gold, rerooted)
    assert rerooted == ["s1"] and "# text = It rained; it stopped" in text
    tree = sa.parse_conll(text, single_root=True)[0]
    assert tree.heads.tolist() == [2, 0, 2, 5, 2] and tree.deprels[4] == "parataxis"
    assert tree.misc[1] == "SpaceAfter=No"


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # no POS: UCP, LCP undefined
def test_scorer_scores_misaligned_examples_through_the_alignment_and_warns_once():
    """A tokenisation that differs: the tree metrics are scored over the reference tokens
    through spaCy's alignment (a head that maps to nothing is wrong), with one warning."""
    from spacy_agreement.integrations.spacy_components import MisalignedExampleWarning, aligned_tree

    nlp = spacy.blank("en")
    words = ["I", "ca", "n't", "go", "home"]
    ref = Doc(nlp.vocab, words=words, heads=[3, 3, 3, 3, 3], deps=["nsubj", "aux", "advmod", "ROOT", "obj"])
    # "I" attached to "can't", which is no single reference token: a wrong head
    pred = Doc(nlp.vocab, words=["I", "can't", "go", "home"], heads=[1, 2, 2, 2], deps=["nsubj", "aux", "ROOT", "obj"])
    example = Example(pred, ref)
    tree, unaligned = aligned_tree(example, sa.from_span(ref[:]))
    assert unaligned == 2 and tree.forms == tuple(words)
    assert tree.heads.tolist() == [1, 2, 3, 0, 4] and tree.deprels == ("nsubj", "_", "_", "root", "obj")
    with pytest.warns(MisalignedExampleWarning) as record:
        scores = score_syntax([example, example, Example(ref, ref)])
    misaligned = [w for w in record if w.category is MisalignedExampleWarning]
    assert len(misaligned) == 1 and "\n" not in str(misaligned[0].message)
    assert str(misaligned[0].message).startswith("2 of 3 example(s)") and " 4 reference token(s)" in str(
        misaligned[0].message)
    assert scores["dep_examples_misaligned"] == 2 and scores["dep_unaligned_tokens"] == 4
    # LA: 3 of 5 labels right in each misaligned example, 5 of 5 in the aligned one
    assert scores["dep_la"] == pytest.approx(11 / 15)
    # CLAS (content relations nsubj, advmod, root, obj): gold 4 per example; system 3 / 3 / 4;
    # right: go and home in each misaligned example, all four in the aligned one
    assert scores["dep_clas"] == pytest.approx(2 * 8 / (12 + 10))
    assert 0 < scores["dep_ted"] < 1 and scores["dep_las"] < 1  # dep_las: spaCy's own, over the alignment
