"""Partial annotations (issue 25): tokens written with HEAD ``_`` (INCEpTION's CoNLL-U writer,
Arborator-Grew's samples) are read as not annotated yet, never an error. α takes a partial tree
as a missing annotation (default) or compares it with those tokens on the root labelled
``unannotated``; the accuracies and ``evaluate`` compare the tokens both sides annotated and
report coverage. Each number is checked against the same corpus built by hand (the tree
removed, or written out complete), never against the code under test."""
import json

import numpy as np
import pytest
from typer.testing import CliRunner

from spacy_agreement.adapters.conllu import parse_conll
from spacy_agreement.adapters.files import load_parallel_files
from spacy_agreement.agreement.accuracy import pairwise_attachment
from spacy_agreement.agreement.alpha import alpha
from spacy_agreement.cli import app
from spacy_agreement.corpus import Corpus, ReadStats
from spacy_agreement.errors import UndefinedMetricWarning
from spacy_agreement.adapters.conllu import read_conll
from spacy_agreement.evaluation.dependency.metrics import evaluate

runner = CliRunner()

ROW = "{}\t{}\t_\tX\t_\t_\t{}\t{}\t_\t_\n"


def sentence(rows, sent_id=None):
    head = f"# sent_id = {sent_id}\n" if sent_id else ""
    return head + "".join(ROW.format(k, f"w{k}", h, r) for k, (h, r) in enumerate(rows, 1)) + "\n"


FULL = [
    [(2, "nsubj"), (0, "root"), (2, "obj")],
    [(0, "root"), (1, "amod")],
    [(2, "det"), (3, "nsubj"), (0, "root"), (3, "obl")],
]
OTHER = [
    [(2, "nsubj"), (0, "root"), (2, "iobj")],
    [(0, "root"), (1, "nmod")],
    [(2, "det"), (3, "nsubj"), (0, "root"), (1, "obl")],
]
# the third annotator left tokens 3 of sentence 1 and 2, 4 of sentence 3 unattached
PARTIAL = [
    [(2, "nsubj"), (0, "root"), ("_", "_")],
    [(0, "root"), (1, "amod")],
    [(2, "det"), ("_", "_"), (0, "root"), ("_", "_")],
]


def corpus_text(sentences):
    return "".join(sentence(rows, f"s{k}") for k, rows in enumerate(sentences, 1))


def test_head_underscore_is_read_as_unannotated():
    stats = ReadStats()
    trees = read_conll(__import__("io").StringIO(corpus_text(PARTIAL)), "p.conllu", stats=stats)
    assert [t.unannotated for t in trees] == [(3,), (), (2, 4)]
    assert trees[0].heads.tolist() == [2, 0, 0] and trees[0].deprels[2] == "_"
    assert trees[0].annotated_mask().tolist() == [True, True, False]
    assert (stats.partial_trees, stats.unannotated_tokens) == (2, 3)
    attached = trees[2].attached()
    assert attached.unannotated == () and attached.deprels == ("det", "unannotated", "root", "unannotated")
    assert attached.heads.tolist() == [2, 0, 0, 0]


def test_relation_underscore_is_an_unannotated_relation_however_many_tokens_have_it():
    """One rule for DEPREL _ (issue 38): the relation is not annotated, the head is kept, in a
    labelled sentence and in an unlabelled one alike."""
    labelled_gap = parse_conll(sentence([(2, "nsubj"), (0, "root"), (2, "_")]))[0]
    assert labelled_gap.unannotated == () and labelled_gap.unlabelled == (3,)
    assert labelled_gap.heads.tolist() == [2, 0, 2] and labelled_gap.partial
    assert labelled_gap.annotated_mask().tolist() == [True, True, True]
    assert labelled_gap.labelled_mask().tolist() == [True, True, False]
    unlabelled = parse_conll(sentence([(2, "_"), (0, "_"), (2, "_")]))[0]
    assert unlabelled.unannotated == () and unlabelled.unlabelled == (1, 2, 3)
    assert unlabelled.heads.tolist() == [2, 0, 2]
    attached = unlabelled.attached()
    assert attached.deprels == ("unannotated",) * 3 and attached.heads.tolist() == [2, 0, 2]
    assert not attached.partial


def test_unannotated_tokens_are_not_roots_for_single_root():
    tree = parse_conll(sentence([(2, "nsubj"), (0, "root"), ("_", "_"), ("_", "_")]), single_root=True)[0]
    assert tree.unannotated == (3, 4)


def write(tmp_path, name, sentences):
    path = tmp_path / name
    path.write_text(corpus_text(sentences), encoding="utf-8")
    return path


def by_hand(tmp_path, third):
    """The corpus of FULL, OTHER and ``third`` (``None`` for a missing annotation) built from
    complete trees, without any partial tree."""
    a = parse_conll(corpus_text(FULL))
    b = parse_conll(corpus_text(OTHER))
    items = [{"a": x, "b": y, **({"c": z} if z is not None else {})} for x, y, z in zip(a, b, third)]
    return Corpus(("a", "b", "c"), items, ["s1", "s2", "s3"], "dependency")


def test_alpha_takes_a_partial_tree_as_a_missing_annotation(tmp_path):
    corpus = load_parallel_files([write(tmp_path, "a.conllu", FULL), write(tmp_path, "b.conllu", OTHER),
                                  write(tmp_path, "c.conllu", PARTIAL)])
    result = alpha(corpus, method="exact")
    complete = parse_conll(corpus_text(PARTIAL))[1]
    expected = alpha(by_hand(tmp_path, [None, complete, None]), method="exact")
    assert result.alphas == expected.alphas
    assert result.partial_trees == ["s1 (c): 1 of 3 token(s) not annotated", "s3 (c): 2 of 4 token(s) not annotated"]
    assert result.to_dict()["trees_partial"] == 2
    assert result.settings.partial == "missing" and "|partial:missing|" in result.signature


def test_alpha_attach_compares_unannotated_tokens_on_the_root(tmp_path):
    corpus = load_parallel_files([write(tmp_path, "a.conllu", FULL), write(tmp_path, "b.conllu", OTHER),
                                  write(tmp_path, "c.conllu", PARTIAL)])
    result = alpha(corpus, method="exact", partial="attach")
    written = [[(0, "unannotated") if h == "_" else (h, r) for h, r in rows] for rows in PARTIAL]
    expected = alpha(by_hand(tmp_path, parse_conll(corpus_text(written))), method="exact")
    assert result.alphas == expected.alphas and result.partial_trees == []
    assert "|partial:attach|" in result.signature
    assert result.alphas != alpha(corpus, method="exact").alphas


def test_accuracies_compare_the_tokens_both_annotated(tmp_path):
    corpus = load_parallel_files([write(tmp_path, "a.conllu", FULL), write(tmp_path, "c.conllu", PARTIAL)])
    result = pairwise_attachment(corpus)
    # by hand: compared tokens 2 + 2 + 2 = 6 of 9; LAS agreements: s1 2, s2 2, s3 2 (det, root)
    assert result.scores["las"] == pytest.approx(6 / 6)
    assert result.coverage == pytest.approx(6 / 9) and result.tokens_unannotated == 3
    other = load_parallel_files([write(tmp_path, "b.conllu", OTHER), write(tmp_path, "c.conllu", PARTIAL)])
    # s1: tokens 1-2 agree; s2: root agrees, amod/nmod differ; s3: det, root agree
    assert pairwise_attachment(other).scores["las"] == pytest.approx(5 / 6)
    assert pairwise_attachment(other).scores["uas"] == pytest.approx(6 / 6)


def test_three_annotators_reduce_to_equation_3_on_complete_items(tmp_path):
    corpus = load_parallel_files([write(tmp_path, "a.conllu", FULL), write(tmp_path, "b.conllu", OTHER),
                                  write(tmp_path, "c.conllu", PARTIAL)])
    result = pairwise_attachment(corpus)
    # item weights and pairwise LAS counts, written out: s1 pairs (a,b) 2/3, (a,c) 2/2, (b,c) 2/2 on 3, 2, 2 tokens
    # s2 (complete) pairs 1/2, 2/2, 1/2; s3 pairs 3/4, 2/2, 2/2 over 4, 2, 2 tokens
    las = {"s1": (2 + 2 + 2, 3 + 2 + 2), "s2": (1 + 2 + 1, 2 + 2 + 2), "s3": (3 + 2 + 2, 4 + 2 + 2)}
    weights = {k: d / 3 for k, (_, d) in las.items()}
    total = sum(weights[k] * las[k][0] / las[k][1] for k in las)
    assert result.scores["las"] == pytest.approx(total / sum(weights.values()))
    complete = load_parallel_files([write(tmp_path, "a.conllu", FULL), write(tmp_path, "b.conllu", OTHER)])
    assert pairwise_attachment(complete).coverage == 1.0


def test_evaluate_scores_annotated_tokens_and_leaves_partial_sentences_out_of_whole_tree_metrics():
    gold = parse_conll(corpus_text(FULL))
    pred = parse_conll(corpus_text(PARTIAL))
    with pytest.warns(UndefinedMetricWarning):  # no verb, no content word: UCP, LCP, content LAS
        result = evaluate(gold, pred)
    out = result.to_json()
    assert result.tokens == 6 and out["tokens_unannotated"] == 3 and out["token_coverage"] == pytest.approx(6 / 9)
    assert out["sentences_partial"] == 2 and len(out["partial"]) == 2
    assert result.scores["las"] == pytest.approx(6 / 6)
    # TED over the one complete sentence only (sentence 2 is identical: TED accuracy 1)
    assert result.scores["ted"] == pytest.approx(1.0)
    assert result.multi_root == []  # unannotated tokens on the root are no roots


def test_cli_alpha_and_evaluate_run_on_partial_files(tmp_path):
    a, b, c = write(tmp_path, "a.conllu", FULL), write(tmp_path, "b.conllu", OTHER), write(tmp_path, "c.conllu", PARTIAL)
    result = runner.invoke(app, ["alpha", str(a), str(b), str(c), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["trees_partial"] == 2 and out["tokens_unannotated"] == 3 and out["accuracy_coverage"] < 1
    assert "|partial:missing|" in out["signature"]
    attach = json.loads(runner.invoke(app, ["alpha", str(a), str(b), str(c), "--json", "--partial", "attach"]).stdout)
    assert "|partial:attach|" in attach["signature"] and attach["trees_partial"] == 0
    text = runner.invoke(app, ["alpha", str(a), str(b), str(c)]).stdout
    assert "2 partial tree(s)" in text and "partial: s1 (c): 1 of 3 token(s) not annotated" in text
    with pytest.warns(UndefinedMetricWarning):  # no verb, no content word: UCP, LCP, content LAS
        evaluated = runner.invoke(app, ["evaluate", str(a), str(c), "--convention", "conll07"])
    assert evaluated.exit_code == 0, evaluated.output
    assert "2 sentence(s) partly annotated" in evaluated.stdout and "66.67% coverage" in evaluated.stdout
    with pytest.warns(UndefinedMetricWarning):
        as_json = runner.invoke(app, ["evaluate", str(a), str(c), "--json", "--convention", "package"])
    assert np.isfinite(json.loads(as_json.stdout)["las"])
    refused = runner.invoke(app, ["evaluate", str(a), str(c), "--json"])  # conll18_ud_eval.py refuses HEAD _
    assert refused.exit_code == 1 and "Cannot parse HEAD '_'" in refused.stderr and refused.stdout == ""
