"""Issue 30: discourse agreement on real annotation files, the DTAG discourse files of the
Copenhagen Dependency Treebank and PDT's PML t-files (fixtures written for these tests in
tests/data/discourse/, modelled on the public schemas and files), hand-computed figures,
the accounting of links (scored + set aside = links in the file), several annotators and texts."""
import json
import math
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_agreement.adapters.dtag_discourse import parse_label, read_dtag_discourse
from spacy_agreement.cli import app
from spacy_agreement.errors import DiscourseError, UndefinedMetricWarning
from spacy_agreement.evaluation.discourse.arrows import (corpus_agreement, discourse_agreement, load_discourse,
                                                  merge_documents)
from spacy_agreement.evaluation.settings import DiscourseSettings

DATA = Path(__file__).resolve().parents[1] / "data" / "discourse"
DTAG = [DATA / "dtag" / f"0001-da-disc-{name}.tag" for name in ("anna", "ben", "cara")]
PML = [DATA / "pml" / name / "doc.t" for name in ("ann1", "ann2")]
pytestmark = pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")


def dtag_document(files=DTAG):
    return merge_documents([load_discourse(f, "dtag-discourse") for f in files])


def pml_document():
    return merge_documents([load_discourse(f, "pml-discourse") for f in PML])


@pytest.mark.parametrize("label, expected", [
    ("CONJ:add/og", {"type": "CONJ:add", "connective_text": "og", "implicit": False, "secondary": False, "marks": []}),
    ("CAUSE:reas/(fordi)/ATTR", {"type": "CAUSE:reas", "connective_text": "fordi", "implicit": True,
                                 "secondary": False, "marks": ["ATTR"]}),
    ("[+CONJ:elab/ATTR1]", {"type": "CONJ:elab", "connective_text": None, "implicit": False, "secondary": True,
                            "marks": ["+", "ATTR1"]}),
    ("JOINT", {"type": "JOINT", "connective_text": None, "implicit": False, "secondary": False, "marks": []}),
])
def test_dtag_labels(label, expected):
    assert parse_label(label) == expected


def test_dtag_reader_words_trees_and_arcs_across_sentences():
    data = read_dtag_discourse(DTAG[1])
    assert [list(t.forms) for t in data.sentences] == [["Vi", "er", "."], ["Derfor", "går", "vi", "."],
                                                       ["Men", "det", "regner", "."]]
    assert list(data.sentences[1].heads) == [2, 0, 2, 2]  # syntax of the file; discourse arcs are not heads
    records = data.annotators["ben"]
    assert [(r["start"], r["target"], r["type"]) for r in records] == [
        ([1, 2], [0, 1], "TELIC:cons"), ([2, 2], [1, 2], "CONJ:elab"), ([2, 3], [1, 2], "CONTR:sbj")]
    assert data.text == "0001-da"


def test_dtag_three_annotators_hand_computed():
    """anna = cara: går→er derfor, regner→går men, and an arc to "</s>"; ben: går→Vi derfor
    (one level below er), regner→går (men) implicit, det→går without connective."""
    result = discourse_agreement(dtag_document())
    tables = {(a, b): t for a, b, t in result.pairs}
    ab = tables[("anna", "ben")]
    assert ab["strict"]["f1_relations"] == pytest.approx(2 * 1 / 5)  # regner→går only, 2 + 3 relations
    assert ab["strict"]["f1_types"] == 0 and ab["strict"]["f1_connectives"] == 0  # CONTR:dir/sbj, men/(men)
    assert ab["skip"]["f1_relations"] == pytest.approx(4 / 5) and ab["skip"]["f1_types"] == pytest.approx(2 / 5)
    # types among the 2 skip pairs: anna TELIC:cons CONTR:dir, ben TELIC:cons CONTR:sbj: Ao = 1/2, Ae = 1/4
    assert ab["skip"]["kappa_types"] == pytest.approx((0.5 - 0.25) / 0.75)
    # connective: ben's det→går has none (set aside): 2 + 2; "derfor" joins sentences 0 and 1 in both
    assert ab["connective"]["f1_relations"] == pytest.approx(0.5) and ab["connective"]["f1_nodes"] == 0
    assert tables[("anna", "cara")]["strict"]["f1_relations"] == 1.0
    assert result.means()["strict"]["f1_relations"] == pytest.approx((0.4 + 1.0 + 0.4) / 3)
    # the types of the agreeing pairs, first annotator of each pair / second, summed over the pairs
    assert result.confusion()["strict"] == [["CONTR:dir", "CONTR:dir", 1], ["CONTR:dir", "CONTR:sbj", 1],
                                            ["CONTR:sbj", "CONTR:dir", 1], ["TELIC:cons", "TELIC:cons", 1]]


def test_every_link_is_scored_or_set_aside_with_its_reason():
    for document in (dtag_document(), pml_document()):
        result = discourse_agreement(document)
        for name, by_measure in result.accounting.items():
            in_file = len(document.annotators[name]) + sum(document.set_aside[name].values())
            for measure, acc in by_measure.items():
                assert acc["scored"] + sum(acc["set_aside"].values()) == acc["links"] == in_file, (name, measure)
    dtag = discourse_agreement(dtag_document()).accounting
    assert dtag["anna"]["strict"] == {"links": 3, "scored": 2, "set_aside": {"endpoint is not a word": 1}}
    assert dtag["ben"]["connective"] == {"links": 3, "scored": 2, "set_aside": {"no connective": 1}}
    aside = discourse_agreement(dtag_document(), settings=DiscourseSettings(text_connectives="aside"))
    assert aside.accounting["anna"]["connective"]["set_aside"] == {"endpoint is not a word": 1,
                                                                   "connective known by text only": 2}
    assert math.isnan(aside.means()["connective"]["f1_relations"])


def test_pml_reader_and_hand_computed_figures():
    """ann1: t-1-1→t-0-1 opp (Ale: a-1-1 + t-1-2), a list link, t-1-3 without target;
    ann2: t-1-1→t-0-2 (a child of t-0-1) with the same connective, t-1-3→t-0-1 negated
    reason with a target range of two trees and no connective."""
    document = pml_document()
    ann1, ann2 = document.annotators["ann1"], document.annotators["ann2"]
    assert [r.link for r in ann1] == ["discourse", "discourse", "list"]
    opp = next(r for r in ann1 if r.type == "opp")
    assert opp.connective == frozenset({(1, 1), "a-1-1"}) and opp.connective_text == "Ale"  # from .a and .m
    negated = next(r for r in ann2 if r.type == "reason")
    assert negated.negated and negated.label == "reason-neg" and negated.target_extent == ("range", 0, 1)
    assert document.notes == {"ann2": {"a-connectors not checked (no .a file)": 1}}
    result = discourse_agreement(document)
    means = result.means()
    assert means["strict"]["f1_relations"] == 0
    assert means["skip"]["f1_relations"] == pytest.approx(2 / 3)
    assert means["connective"]["f1_relations"] == 1.0 and means["connective"]["f1_nodes"] == 0
    assert result.accounting["ann1"]["strict"]["set_aside"] == {"list link": 1, "no target node": 1}
    with_lists = discourse_agreement(document, settings=DiscourseSettings(lists=True))
    assert with_lists.accounting["ann1"]["strict"]["scored"] == 2


def test_range_ends_exact_or_by_node(tmp_path):
    sentences = [{"tokens": ["a", "b"], "heads": [0, 1]}, {"tokens": ["c"], "heads": [0]}, {"tokens": ["d"], "heads": [0]}]
    rel = {"start": [2, 1], "target": [1, 1], "connective": [[2, 1]], "type": "reason"}
    path = tmp_path / "doc.json"
    path.write_text(json.dumps({"sentences": sentences, "annotators": {
        "A": [{**rel, "target_range": [0, 1]}], "B": [rel]}}), encoding="utf-8")
    document = load_discourse(path)
    assert discourse_agreement(document).means()["strict"]["f1_relations"] == 0  # Figure 5: a range disagreement
    by_node = discourse_agreement(document, settings=DiscourseSettings(ranges="node"))
    assert by_node.means()["strict"]["f1_relations"] == 1.0


def test_cli_reads_dtag_files_one_per_annotator_with_signature():
    result = CliRunner().invoke(app, ["discourse", *map(str, DTAG), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["strict"]["f1_relations"] == pytest.approx(0.6) and len(out["pairs"]) == 3
    assert out["pairs"][0]["annotators"] == ["anna", "ben"] and out["pairs"][0]["strict"]["f1_relations"] == 0.4
    assert out["links"]["ben"]["connective"]["set_aside"] == {"no connective": 1}
    assert out["signature"].startswith("discourse|skip2:no|ranges:exact|textconn:sentences|lists:no|empty:no|v:")
    text = CliRunner().invoke(app, ["discourse", *map(str, PML), "--confusion"])
    assert text.exit_code == 0, text.output
    assert "1 list link" in text.output and "signature: discourse|" in text.output


def test_cli_several_texts_per_text_and_pooled(tmp_path):
    for name in ("anna", "ben"):
        for text in ("0001", "0002"):
            shutil.copy(DATA / "dtag" / f"0001-da-disc-{name}.tag", tmp_path / f"{text}-da-disc-{name}.tag")
    shutil.copy(DATA / "dtag" / "0001-da-disc-cara.tag", tmp_path / "0003-da-disc-cara.tag")
    files = sorted(str(p) for p in tmp_path.iterdir())
    out = json.loads(CliRunner().invoke(app, ["discourse", *files, "--json"]).output)
    assert [t["text"] for t in out["texts"]] == ["0001-da", "0002-da"]
    assert out["skipped_texts"] == [{"text": "0003-da", "why": "1 annotator(s)"}]
    pooled = out["pairs"][0]
    assert pooled["texts"] == 2 and pooled["strict"]["relations_a"] == 4 and pooled["strict"]["agreeing"] == 2
    assert out["strict"]["f1_relations"] == pytest.approx(0.4)  # 2 * 2 / (4 + 6)
    assert out["links"]["strict"]["links"] == 12 and out["links"]["strict"]["scored"] == 10


def test_empty_annotator_files_left_out_with_skip_empty(tmp_path):
    empty = tmp_path / "0001-da-disc-dora.tag"
    empty.write_text("\n".join(line for line in DTAG[0].read_text(encoding="utf-8").split("\n")), encoding="utf-8")
    text = empty.read_text(encoding="utf-8")
    for label in ("TELIC&3a;cons/derfor", "CONTR&3a;dir/men", "JOINT"):
        text = text.replace(label, "dep")
    empty.write_text(text, encoding="utf-8")
    document = dtag_document([DTAG[0], DTAG[1], empty])
    assert len(discourse_agreement(document).pairs) == 3
    kept = discourse_agreement(document, settings=DiscourseSettings(skip_empty=True))
    assert len(kept.pairs) == 1 and kept.left_out == ["dora"]


@pytest.mark.parametrize("content, message", [
    ('<s>\n<W in="x:subj" out="">a</W>\n</s>\n', ":2: word 'a': in= holds 'x:subj', which is not OFFSET:LABEL"),
    ('<s>\n<W in="9:CONJ" out="">a</W>\n</s>\n', ":2: word 'a': the arc '9:CONJ' points to line 11, outside the file"),
])
def test_dtag_errors_name_file_line_and_word(tmp_path, content, message):
    path = tmp_path / "0009-da-disc-x.tag"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DiscourseError) as err:
        read_dtag_discourse(path)
    assert str(err.value).startswith(str(path)) and message in str(err.value)


def test_pml_errors_name_the_file(tmp_path):
    bad = tmp_path / "doc.t"
    bad.write_text("<tdata><trees>", encoding="utf-8")
    with pytest.raises(DiscourseError, match=r"doc\.t:1: not PML \(XML\)"):
        load_discourse(bad, "pml-discourse")
    group = tmp_path / "g.t"
    group.write_text(PML[0].read_text(encoding="utf-8").replace("<start_range>0</start_range>\n<discourse_type>reason",
                                                               "<start_range>group</start_range>\n<start_group_id>7"
                                                               "</start_group_id>\n<discourse_type>reason"),
                     encoding="utf-8")
    with pytest.raises(DiscourseError, match="t-node t-1-3: a link's start_group_id '7' names a group no node has"):
        load_discourse(group, "pml-discourse")


def test_corpus_needs_a_text_with_two_annotators():
    with pytest.raises(DiscourseError, match="no text has two or more annotators"):
        corpus_agreement([("0001-da", load_discourse(DTAG[0], "dtag-discourse"))])
