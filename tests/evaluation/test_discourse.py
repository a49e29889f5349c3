"""Discourse arrows (Mírovský et al. 2010): hand-worked values on the example document
(Figures 2–5), Cohen's κ, several annotators, bad input."""
import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_agreement.cli import app
from spacy_agreement.evaluation.discourse.arrows import (
    DiscourseDocument,
    DiscourseError,
    Relation,
    compare_pair,
    discourse_agreement,
    document_from_doc,
    load_discourse,
    merge_documents,
    nodes_agree,
    set_relations,
)
from spacy_agreement.agreement.kappa import cohen_kappa
from spacy_agreement.errors import UndefinedMetricWarning

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "discourse_example.json"


@pytest.fixture(scope="module")
def document():
    return load_discourse(EXAMPLE)


def test_figure_situations(document):
    a, b = document.annotators["A"], document.annotators["B"]
    fig2, fig3, fig4, fig5, same = zip(a, b)
    # Figure 2: one-level difference at the target: agrees when skipping, not strictly
    assert not nodes_agree(document, *fig2, "strict") and nodes_agree(document, *fig2, "skip")
    # Figure 3: two-level difference at the start, Figure 4: reversed arrow, Figure 5: range
    for pair in (fig3, fig4, fig5):
        assert not nodes_agree(document, *pair, "strict") and not nodes_agree(document, *pair, "skip")
        assert pair[0].connective == pair[1].connective
    assert nodes_agree(document, *same, "strict")


def test_hand_worked_tables(document):
    a, b = document.annotators["A"], document.annotators["B"]
    with pytest.warns(UndefinedMetricWarning, match="Cohen's kappa is undefined"):
        strict = compare_pair(document, a, b, "strict")
    # only the last relation agrees: M = 1 of 5 + 5
    assert strict["f1_relations"] == strict["f1_types"] == strict["f1_connectives"] == pytest.approx(0.2)
    assert strict["agreement_types"] == strict["agreement_connectives"] == 1.0
    assert math.isnan(strict["kappa_types"])  # one category: chance agreement is 1
    skip = compare_pair(document, a, b, "skip")
    assert skip["f1_relations"] == skip["f1_types_connectives"] == pytest.approx(0.4)
    assert skip["kappa_types"] == 1.0
    conn = compare_pair(document, a, b, "connective")
    assert conn["f1_relations"] == 1.0 and conn["f1_types"] == pytest.approx(0.8)
    assert conn["f1_nodes"] == conn["f1_types_nodes"] == pytest.approx(0.2)
    assert conn["agreement_types"] == pytest.approx(0.8) and conn["agreement_nodes"] == pytest.approx(0.2)
    # types of the 5 pairs: A opp reason opp reason conj, B opp reason conc reason conj
    # Ao = 0.8; Ae = 2/5*1/5 + 2/5*2/5 + 1/5*1/5 = 0.28; kappa = 0.52 / 0.72
    assert conn["kappa_types"] == pytest.approx(0.52 / 0.72)


def test_cohen_kappa_textbook_and_slow_reference():
    # a 2x2 table with 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: kappa = 0.4
    x = ["yes"] * 25 + ["no"] * 25
    y = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert cohen_kappa(x, y) == pytest.approx(0.4)
    import random

    rng = random.Random(3)
    for _ in range(50):
        n = rng.randint(2, 30)
        a = [rng.choice("pqr") for _ in range(n)]
        b = [rng.choice("pqr") for _ in range(n)]
        labels = set(a) | set(b)
        ao = sum(u == v for u, v in zip(a, b)) / n
        ae = sum(a.count(k) * b.count(k) for k in labels) / n / n
        expected = (ao - ae) / (1 - ae) if ae != 1 else math.nan
        got = cohen_kappa(a, b)
        assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(expected)


@pytest.mark.filterwarnings("ignore:Cohen's kappa is undefined:spacy_agreement.UndefinedMetricWarning")  # one category: nan
def test_matching_is_one_to_one_and_prefers_exact(document):
    # two of B's relations could pair with A's one under skipping; the exact one is chosen
    a = [Relation((1, 3), (0, 2), frozenset({(1, 1)}), "opposition")]
    b = [Relation((1, 3), (0, 5), frozenset({(1, 1)}), "concession"),
         Relation((1, 3), (0, 2), frozenset({(1, 1)}), "opposition")]
    skip = compare_pair(document, a, b, "skip")
    assert skip["agreeing"] == 1 and skip["agreement_types"] == 1.0
    assert skip["f1_relations"] == pytest.approx(2 / 3)
    # the exact pair is preferred even over a one-level pair of the same type: A's target "know"
    # (0, 2) is B's first's, and the parent of B's second's, "I" (0, 1)
    a = [Relation((1, 3), (0, 2), frozenset({(1, 1)}), "reason")]
    b = [Relation((1, 3), (0, 2), frozenset({(1, 1)}), "opposition"),
         Relation((1, 3), (0, 1), frozenset({(1, 1)}), "reason")]
    assert nodes_agree(document, a[0], b[1], "skip")
    skip = compare_pair(document, a, b, "skip")
    assert skip["agreeing"] == 1 and skip["agreement_types"] == 0.0


@pytest.mark.filterwarnings("ignore:Cohen's kappa is undefined:spacy_agreement.UndefinedMetricWarning")  # one category: nan
def test_three_annotators_pairs_and_means(document):
    doc = DiscourseDocument(document.sentences, dict(document.annotators), document.source)
    doc.annotators["C"] = list(document.annotators["A"])
    result = discourse_agreement(doc)
    assert [(a, b) for a, b, _ in result.pairs] == [("A", "B"), ("A", "C"), ("B", "C")]
    means = result.means()
    assert means["strict"]["f1_relations"] == pytest.approx((0.2 + 1.0 + 0.2) / 3)
    out = result.to_dict()
    # issue 30: the links scored and set aside per annotator, the files and the confusion of types are added
    assert set(out) == {"strict", "skip", "connective", "pairs", "links", "files", "confusion"}
    assert len(out["pairs"]) == 3


def write(tmp_path, data):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


SENTENCES = [{"tokens": ["But", "it", "rained"], "heads": [3, 3, 0]}, {"tokens": ["So", "we", "left"], "heads": [3, 3, 0]}]


@pytest.mark.parametrize("relation, message", [
    ({"start": [1, 9], "target": [0, 3], "connective": [[1, 1]], "type": "reason"}, "start node [1, 9] does not exist"),
    ({"start": [1, 3], "target": [4, 1], "connective": [[1, 1]], "type": "reason"}, "names sentence 4"),
])
def test_bad_relations_name_annotator_relation_and_node(tmp_path, relation, message):
    path = write(tmp_path, {"sentences": SENTENCES, "annotators": {"ann1": [relation]}})
    with pytest.raises(DiscourseError) as err:
        load_discourse(path)
    assert message in str(err.value) and "'ann1'" in str(err.value) and "relation 1" in str(err.value)


def test_a_relation_without_connective_is_accepted_and_set_aside_by_the_connective_measure(tmp_path):
    """Issue 30: "has no connective" is no longer an error; strict and skip score the relation,
    the connective-based measure counts it as set aside."""
    rel = {"start": [1, 3], "target": [0, 3], "connective": [], "type": "reason"}
    path = write(tmp_path, {"sentences": SENTENCES, "annotators": {"A": [rel], "B": [rel]}})
    document = load_discourse(path)
    with pytest.warns(UndefinedMetricWarning):
        result = discourse_agreement(document)
    means = result.means()
    assert means["strict"]["f1_relations"] == 1.0 and means["strict"]["f1_connectives"] == 1.0
    assert math.isnan(means["connective"]["f1_relations"])  # nothing to score
    assert result.accounting["A"]["connective"] == {"links": 1, "scored": 0, "set_aside": {"no connective": 1}}


def test_annotators_over_different_documents(tmp_path):
    one = write(tmp_path, {"sentences": SENTENCES, "annotators": {"A": []}})
    other_dir = tmp_path / "other"
    other_dir.mkdir()
    two = write(other_dir, {"sentences": SENTENCES[:1], "annotators": {"B": []}})
    with pytest.raises(DiscourseError, match="annotator 'B' .* different document"):
        merge_documents([load_discourse(one), load_discourse(two)])


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # one category: kappa nan
def test_one_level_skip_at_both_ends_is_not_a_skip_agreement(tmp_path):
    """Mírovský et al. (2010, §3.2): skipping one tree level means A→C agrees with B→C and D→A
    with D→B (A the parent of B), one skip at the start *or* at the target. B's arrow below differs
    from A's by one level at both ends ("rained"→"it" at the target, "left"→"we" at the start),
    so the default skip measure finds no agreeing pair (F1 0), only ``skip_both_ends`` does (F1 1);
    a one-level difference at one end alone agrees under both."""
    a = {"start": [1, 3], "target": [0, 3], "connective": [[1, 1]], "type": "reason"}
    both = {**a, "start": [1, 2], "target": [0, 2]}
    one_end = {**a, "target": [0, 2]}
    document = load_discourse(write(tmp_path, {"sentences": SENTENCES, "annotators": {"A": [a], "B": [both]}}))
    x, y = document.annotators["A"][0], document.annotators["B"][0]
    assert not nodes_agree(document, x, y, "skip") and nodes_agree(document, x, y, "skip", skip_both_ends=True)
    assert compare_pair(document, [x], [y], "skip")["f1_relations"] == 0.0
    assert compare_pair(document, [x], [y], "skip", skip_both_ends=True)["f1_relations"] == 1.0
    assert discourse_agreement(document).means()["skip"]["f1_relations"] == 0.0
    other = load_discourse(write(tmp_path, {"sentences": SENTENCES, "annotators": {"A": [a], "B": [one_end]}}))
    x, y = other.annotators["A"][0], other.annotators["B"][0]
    assert nodes_agree(other, x, y, "skip") and compare_pair(other, [x], [y], "skip")["f1_relations"] == 1.0
    # one level at the start alone agrees too; with skip_both_ends, both ends must still be near
    start_only = Relation((1, 2), (0, 3), frozenset({(1, 1)}), "reason")
    assert nodes_agree(document, x, start_only, "skip") and not nodes_agree(document, x, start_only, "strict")
    # an end is its node and its extent (ranges="exact"): a near node with another extent is not near
    ranged = Relation((1, 2), (0, 3), frozenset({(1, 1)}), "reason", start_extent=("range", (1, 1), (1, 2)))
    assert not nodes_agree(document, x, ranged, "skip") and nodes_agree(document, x, ranged, "skip", ranges="node")
    far_start = Relation((0, 1), (0, 2), frozenset({(1, 1)}), "reason")  # another sentence's node at the start
    assert not nodes_agree(document, x, far_start, "skip", skip_both_ends=True)
    assert not nodes_agree(document, x, Relation((0, 1), (0, 3), frozenset({(1, 1)}), "reason"), "skip",
                           skip_both_ends=True)


@pytest.mark.filterwarnings("ignore:Cohen's kappa is undefined:spacy_agreement.UndefinedMetricWarning")  # one category: nan
def test_cli_discourse_json_and_conllu_reference(tmp_path):
    result = CliRunner().invoke(app, ["discourse", str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    for key in ("f1_relations", "f1_types", "f1_connectives", "f1_types_connectives", "agreement_types",
                "agreement_connectives", "kappa_types"):
        assert key in out["strict"] and key in out["skip"]
    for key in ("f1_nodes", "f1_types_nodes", "agreement_nodes"):
        assert key in out["connective"]
    assert out["connective"]["f1_relations"] == 1.0 and out["strict"]["kappa_types"] is None
    table = CliRunner().invoke(app, ["discourse", str(EXAMPLE)])
    assert table.exit_code == 0 and "F1 on relations" in table.output
    conllu = tmp_path / "doc.conllu"
    conllu.write_text("1\tBut\t_\t_\t_\t_\t3\tcc\t_\t_\n2\tit\t_\t_\t_\t_\t3\tnsubj\t_\t_\n3\trained\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
                      "1\tSo\t_\t_\t_\t_\t3\tcc\t_\t_\n2\twe\t_\t_\t_\t_\t3\tnsubj\t_\t_\n3\tleft\t_\t_\t_\t_\t0\troot\t_\t_\n\n",
                      encoding="utf-8")
    rel = {"start": [1, 3], "target": [0, 3], "connective": [[1, 1]], "type": "reason"}
    path = write(tmp_path, {"conllu": "doc.conllu", "annotators": {"A": [rel], "B": [rel]}})
    both = CliRunner().invoke(app, ["discourse", str(path), "--json"])
    assert both.exit_code == 0 and json.loads(both.output)["strict"]["f1_relations"] == 1.0
    bad = write(tmp_path, {"sentences": SENTENCES, "annotators": {"A": [{**rel, "start": [1, 7]}]}})
    error = CliRunner().invoke(app, ["discourse", str(bad)])
    assert error.exit_code == 1 and "does not exist" in error.output


@pytest.mark.filterwarnings("ignore:Cohen's kappa is undefined:spacy_agreement.UndefinedMetricWarning")  # no pair: nan
@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # no matched pair there
def test_relations_on_spacy_docs():
    spacy = pytest.importorskip("spacy")
    from spacy.tokens import Doc

    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["But", "it", "rained", "So", "we", "left"], heads=[2, 2, 2, 5, 5, 5],
              deps=["cc", "nsubj", "ROOT", "cc", "nsubj", "ROOT"])
    rel = Relation((1, 3), (0, 3), frozenset({(1, 1)}), "reason")
    set_relations(doc, "A", [rel])
    set_relations(doc, "B", [Relation((1, 3), (0, 2), frozenset({(1, 1)}), "reason")])
    document = document_from_doc(doc)
    assert len(document.sentences) == 2
    result = discourse_agreement(document).means()
    assert result["strict"]["f1_relations"] == 0 and result["skip"]["f1_relations"] == 1.0
