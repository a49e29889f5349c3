"""Unlabelled is not a label (issue 38): a DEPREL ``_`` is a relation not annotated, however
many tokens of the sentence have one. Attachment scores compare relations only where both
annotators gave one (UAS still compares the heads), report label coverage, and α takes such a
tree as a partial tree (a missing annotation, or with ``--partial attach`` the relation
``unannotated``, saying how far α moved). Expected values are counted by hand in each test."""
import json
import math
import warnings

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.errors import UndefinedMetricWarning

runner = CliRunner()

# (head, relation) per token
S1 = [(2, "nsubj"), (0, "root"), (2, "obj"), (2, "punct")]
S2 = [(0, "root"), (1, "amod"), (1, "punct")]
S3 = [(2, "det"), (3, "nsubj"), (0, "root"), (3, "obl"), (3, "punct")]


def text(sentences):
    out = ""
    for k, rows in enumerate(sentences, 1):
        out += f"# sent_id = s{k}\n" + "".join(f"{j}\tw{k}_{j}\t_\tX\t_\t_\t{h}\t{r}\t_\t_\n"
                                             for j, (h, r) in enumerate(rows, 1)) + "\n"
    return out


def unlabel(rows):
    return [(h, "_") for h, _ in rows]


def files(tmp_path, first, second):
    a, b = tmp_path / "anna.conllu", tmp_path / "ben.conllu"
    a.write_text(text(first), encoding="utf-8")
    b.write_text(text(second), encoding="utf-8")
    return str(a), str(b)


def run_json(*args):
    result = runner.invoke(app, [*args, "--json", "-q"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_an_unlabelled_sentence_is_not_a_label_disagreement(tmp_path):
    """Otherwise identical files, ben's sentence 2 with heads only: every score is 100 (0.2 and
    0.3 gave LAS and LA 10/12 = 83.33: '_' compared as a relation), 3 of 12 relations not
    compared."""
    a, b = files(tmp_path, [S1, S2, S3], [S1, unlabel(S2), S3])
    values = run_json("alpha", a, b)
    assert (values["las"], values["uas"], values["la"]) == (1.0, 1.0, 1.0)
    assert values["tokens_unlabelled"] == 3 and values["accuracy_label_coverage"] == pytest.approx(9 / 12)
    assert values["accuracy_coverage"] == 1.0 and values["tokens_unannotated"] == 0
    # alpha: ben's sentence 2 is a partial tree, a missing annotation by default
    assert values["trees_partial"] == 1 and values["items_unpairable"] == 1
    assert values["partial_trees"] == ["s2 (ben): 3 of 3 relation(s) not annotated (DEPREL _)"]


def test_uas_uses_the_heads_of_an_unlabelled_analysis(tmp_path):
    """ben gives heads only for sentence 1, one of them wrong (token 4 on 3 instead of 2): UAS
    over 12 tokens is 11/12; LAS and LA over the 8 tokens of sentences 2 and 3, which agree."""
    wrong = unlabel(S1)
    wrong[3] = (3, "_")
    a, b = files(tmp_path, [S1, S2, S3], [wrong, S2, S3])
    values = run_json("alpha", a, b)
    assert values["uas"] == pytest.approx(11 / 12)
    assert values["las"] == 1.0 and values["la"] == 1.0
    assert values["accuracy_label_coverage"] == pytest.approx(8 / 12) and values["tokens_unlabelled"] == 4


def test_one_missing_relation_in_a_labelled_sentence_follows_the_same_rule(tmp_path):
    """One DEPREL _ among labelled tokens: its head is still compared (0.3 dropped the head
    too), its relation is not; another relation differs (obl/obj): LAS = LA = 10/11, UAS 12/12."""
    gap = list(S1)
    gap[0] = (2, "_")
    other = list(S3)
    other[3] = (3, "obj")
    a, b = files(tmp_path, [S1, S2, S3], [gap, S2, other])
    values = run_json("alpha", a, b)
    assert values["uas"] == 1.0
    assert values["las"] == pytest.approx(10 / 11) and values["la"] == pytest.approx(10 / 11)
    assert values["tokens_unlabelled"] == 1


def test_an_unlabelled_corpus_has_no_las(tmp_path):
    a, b = files(tmp_path, [S1, S2], [unlabel(S1), unlabel(S2)])
    corpus = sa.load_parallel_files([a, b])
    with pytest.warns(UndefinedMetricWarning):
        accuracy = sa.pairwise_accuracy(corpus)
    assert math.isnan(accuracy.scores["las"]) and math.isnan(accuracy.scores["la"])
    assert accuracy.scores["uas"] == 1.0 and accuracy.label_coverage == 0.0


def test_partial_attach_says_how_far_alpha_moved(tmp_path):
    """With --partial attach ben's 3 relations become 'unannotated' (3 relabels against anna's
    sentence 2); the output counts them and gives alpha of the missing-value reading beside it."""
    a, b = files(tmp_path, [S1, S2, S3], [S1, unlabel(S2), S3])
    attached = run_json("alpha", a, b, "--partial", "attach")
    missing = run_json("alpha", a, b)
    assert attached["tokens_attached"] == 3 and attached["trees_partial"] == 0
    for kind in ("plain", "diff", "norm"):
        assert attached[f"alpha_{kind}_partial_missing"] == missing[f"alpha_{kind}"]
    # two identical items and one at distance 3: αplain below 1, the missing reading exactly 1
    assert missing["alpha_plain"] == 1.0 and attached["alpha_plain"] < 1.0
    out = runner.invoke(app, ["alpha", a, b, "--partial", "attach"]).stdout
    assert "3 head(s) or relation(s) not annotated compared as 'unannotated' (--partial attach): " \
           "alpha plain" in out and "against 100.00" in out
    assert not any(k.endswith("_partial_missing") or k == "tokens_attached" for k in missing)  # only with attach


def test_layers_leave_unannotated_relations_out(tmp_path):
    """deprel has 12 units with every relation annotated, 9 when ben left sentence 2's out;
    head keeps all 12."""
    a, b = files(tmp_path, [S1, S2, S3], [S1, unlabel(S2), S3])
    corpus = sa.load_parallel_files([a, b])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # one category per layer: κ undefined
        result = sa.agreement_by_layer(corpus, layers=("head", "deprel"), per_feature=False)
    assert result["head"].units == 12 and result["deprel"].units == 9
    assert result["deprel"].disagreeing == 0
