"""``judgments --key`` without a browser (issue 51): the key maps the choices of a page's exports
back to the systems; judge names compared case-insensitively; an empty export does not fail the
batch; exports of different pages (0.3's too) refused together unless --allow-mixed; the page id
changes with every option that changes the study; the sentence from ``# text``."""
import json
import warnings

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.report.judging_page import judging_page, key_path

from ..report.judging_data import DIFFERING, write_systems

runner = CliRunner()


def page_and_key(tmp_path, **options):
    gold, malt, mst = write_systems(tmp_path)
    page = judging_page(malt, mst, gold, **options)
    key = tmp_path / f"{page.page_id}.key.json"
    page.write_key(key)
    return page, key


def write_export(path, page_id, judge, choices, header=True):
    lines = [{"spacy_agreement_judgments": "0.4", "page": page_id, "judge": judge}] if header else []
    lines += [{"page": page_id, "item": item, "judge": judge, "choice": choice, "comment": "", "ms": 5}
              for item, choice in choices.items()]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_key_maps_choices_back_and_names_are_one_judge_whatever_the_case(tmp_path):
    page, key = page_and_key(tmp_path)
    side = dict(zip(DIFFERING, page.sides))
    one = write_export(tmp_path / "a.jsonl", page.page_id, "Alice", {"s1": "1", "s2": "2", "s3": "skip"})
    two = write_export(tmp_path / "b.jsonl", page.page_id, " alice ", {"s4": "1", "s5": "tie"})
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    result = runner.invoke(app, ["judgments", str(one), str(empty), str(two), "--key", str(key), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["judges"] == 1 and out["items"] == 4
    other = {"A": "B", "B": "A"}
    expected = [side["s1"], other[side["s2"]], side["s4"]]
    assert (out["won_by_A_Alice"], out["won_by_B_Alice"]) == (expected.count("A"), expected.count("B"))
    assert (out["ties_Alice"], out["skips_Alice"], out["judge_ms_Alice"]) == (1, 1, 25)
    assert out["won_by_A_overall"] == expected.count("A") and out["ties_overall"] == 1
    assert out["skips_overall"] == 1  # s3: skipped by every judge who saw it


def test_page_id_changes_with_every_option_of_the_study(tmp_path):
    gold, malt, mst = write_systems(tmp_path)
    ids = {judging_page(malt, mst, gold, **options).page_id
           for options in ({}, {"ties": False}, {"show_gold": True}, {"no_marks": True}, {"in_order": True},
                           {"seed": 3})}
    assert len(ids) == 6
    assert judging_page(malt, mst, gold).page_id == judging_page(malt, mst, gold).page_id


def test_exports_of_different_pages_are_refused_unless_allowed(tmp_path):
    page, key = page_and_key(tmp_path)
    other, other_key = page_and_key(tmp_path, ties=False)
    one = write_export(tmp_path / "a.jsonl", page.page_id, "ann", {"s1": "1"})
    two = write_export(tmp_path / "b.jsonl", other.page_id, "bo", {"s1": "2"})
    refused = runner.invoke(app, ["judgments", str(one), str(two), "--key", str(key)])
    assert refused.exit_code == 1 and page.page_id in refused.output and other.page_id in refused.output
    assert "a.jsonl" in refused.output and "b.jsonl" in refused.output
    # 0.3's exports name their page too
    old = []
    for name, page_id in (("old1.jsonl", "p1"), ("old2.jsonl", "p2")):
        entry = page.key["items"][0]
        line = {"id": entry["id"], "gold": entry["gold"], "a": entry["a"], "b": entry["b"],
                "judgments": {name: "A"}, "page": page_id}
        (tmp_path / name).write_text(json.dumps(line) + "\n", encoding="utf-8")
        old.append(str(tmp_path / name))
    refused = runner.invoke(app, ["judgments", *old])
    assert refused.exit_code == 1 and "p1" in refused.output and "p2" in refused.output
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert runner.invoke(app, ["judgments", *old, "--allow-mixed"]).exit_code == 0
        run = sa.judgments(one, two, key=[key, other_key], allow_mixed=True)
    assert run.analysis.items == 2 and run.analysis.judges == ["ann", "bo"]


def test_without_the_key_it_says_how_to_give_it(tmp_path):
    page, key = page_and_key(tmp_path)
    one = write_export(tmp_path / "a.jsonl", page.page_id, "ann", {"s1": "1"})
    result = runner.invoke(app, ["judgments", str(one)])
    assert result.exit_code == 1 and "--key PAGE.key.json" in result.output and "judge --html" in result.output
    assert key_path("study/page.html") == "study/page.key.json"


def test_the_sentence_is_its_text(tmp_path):
    lines = ["# sent_id = q1", "# text = Hello, world!",
             "1\tHello\t_\tINTJ\t_\t_\t0\troot\t_\tSpaceAfter=No", "2\t,\t_\tPUNCT\t_\t_\t3\tpunct\t_\t_",
             "3\tworld\t_\tNOUN\t_\t_\t1\tvocative\t_\tSpaceAfter=No", "4\t!\t_\tPUNCT\t_\t_\t1\tpunct\t_\t_"]
    a = tmp_path / "a.conllu"
    a.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    b = tmp_path / "b.conllu"
    b.write_text("\n".join(lines).replace("1\tvocative", "1\tobj") + "\n\n", encoding="utf-8")
    from ..report.test_judging_page import page_data

    page = judging_page(a, b)
    assert page_data(page.html)["items"][0]["text"] == "Hello, world!"
