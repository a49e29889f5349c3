"""``judgments`` on the exports of judging pages (issue 41): several files merged by item, a
judge's later export replacing the earlier one (and saying so), "no preference" answers,
comments, items without gold."""
import json

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.errors import BadOptionError, JudgmentError
from spacy_agreement.evaluation.judgments.analysis import analyse_judgments, cohen_kappa, iter_judgments, load_judgments

runner = CliRunner()
GOLD = {"forms": ["I", "saw", "it"], "heads": [2, 0, 2], "deprels": ["nsubj", "root", "obj"]}
A = {"forms": ["I", "saw", "it"], "heads": [2, 0, 2], "deprels": ["nsubj", "root", "obj"]}  # = gold
B = {"forms": ["I", "saw", "it"], "heads": [3, 0, 2], "deprels": ["nsubj", "root", "obj"]}


def export(path, judge, answers, gold=True, comments=None, b=B):
    """A judging page's export: one line per item, ``answers`` {id: "A" | "B" | "tie"}."""
    lines = []
    for id, answer in answers.items():
        line = {"id": id, "text": "I saw it", "a": A, "b": b, "judgments": {judge: answer},
                "shown_first": {judge: "A"}, "systems": {"A": "malt.conllu", "B": "mst.conllu"}, "page": "p1"}
        if gold:
            line["gold"] = GOLD
        if comments and id in comments:
            line["comments"] = {judge: comments[id]}
        lines.append(json.dumps(line))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_several_judges_exports_are_merged_by_item(tmp_path):
    ann = export(tmp_path / "judgments-ann.jsonl", "ann", {"s1": "A", "s2": "A", "s3": "B", "s4": "A"},
                 comments={"s3": "B has it right"})
    bo = export(tmp_path / "judgments-bo.jsonl", "bo", {"s2": "A", "s3": "tie", "s4": "B", "s5": "A"})
    items = list(iter_judgments([ann, bo]))
    assert [item.id for item in items] == ["s1", "s2", "s3", "s4", "s5"]
    assert items[2].judgments == {"ann": "B", "bo": "tie"} and items[2].comments == {"ann": "B has it right"}
    result = analyse_judgments(items, metrics=("las", "uas"), mace_restarts=1)
    assert result.judge_items == {"ann": 4, "bo": 4} and result.judge_ties == {"ann": 0, "bo": 1}
    assert result.judge_comments == {"ann": 1, "bo": 0}
    # three items both judged (s2, s3, s4): agreement on s2 only; "tie" a category of its own
    assert result.judge_agreement == pytest.approx(1 / 3)
    assert result.kappa == pytest.approx(cohen_kappa(["A", "B", "A"], ["A", "tie", "B"]))
    # LAS prefers A (= gold) everywhere; bo's "no preference" on s3 is not counted against it:
    # ann agrees on 3 of 4, bo on 2 of 3 -> (3/4 + 2/3) / 2
    assert result.metric_judge_agreement["las"] == pytest.approx((3 / 4 + 2 / 3) / 2)
    assert set(result.mace.competence) == {"ann", "bo"}


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # one judge: no κ
def test_a_judges_second_export_replaces_the_first_and_says_so(tmp_path):
    first = export(tmp_path / "judgments-ann.jsonl", "ann", {"s1": "A", "s2": "B"})
    second = export(tmp_path / "judgments-ann (1).jsonl", "ann", {"s1": "A", "s2": "A", "s3": "tie"},
                    comments={"s2": "changed my mind"})
    with pytest.warns(UserWarning, match=r"judge 'ann': the judgments of 2 item\(s\) in .*judgments-ann \(1\)\.jsonl "
                                         r"replace those in .*judgments-ann\.jsonl \(1 changed\)"):
        items = list(iter_judgments([first, second]))
    assert [(i.id, i.judgments) for i in items] == [("s1", {"ann": "A"}), ("s2", {"ann": "A"}), ("s3", {"ann": "tie"})]
    assert items[1].comments == {"ann": "changed my mind"}
    result = runner.invoke(app, ["judgments", str(first), str(second), "--metric", "las"])
    assert result.exit_code == 0, result.output
    assert "warning: judge 'ann': the judgments of 2 item(s)" in result.output
    assert "judged: ann 3 items, 1 tie, 1 comment" in result.stdout


def test_exports_of_other_analyses_under_one_id_are_an_error(tmp_path):
    first = export(tmp_path / "a.jsonl", "ann", {"s1": "A"})
    other = export(tmp_path / "b.jsonl", "bo", {"s1": "A"}, b={**B, "deprels": ["nsubj", "root", "iobj"]})
    with pytest.raises(JudgmentError, match=r"item 's1': parse B differs from the one in .*a\.jsonl"):
        list(iter_judgments([first, other]))
    result = runner.invoke(app, ["judgments", str(first), str(other)])
    assert result.exit_code == 1 and "parse B differs" in result.output
    with pytest.raises(BadOptionError, match="the same judgments file is given twice"):
        list(iter_judgments([first, first]))


def test_items_without_gold_are_analysed_for_the_judges_alone(tmp_path):
    ann = export(tmp_path / "judgments-ann.jsonl", "ann", {"s1": "A", "s2": "B", "s3": "A"}, gold=False)
    bo = export(tmp_path / "judgments-bo.jsonl", "bo", {"s1": "A", "s2": "A", "s3": "A"}, gold=False)
    result = runner.invoke(app, ["judgments", str(ann), str(bo)])
    assert result.exit_code == 0, result.output
    assert "no metric tables: the items have no gold tree (make the judging page with judge --gold" in result.stdout
    assert "between judges: raw agreement 66.67%" in result.stdout
    data = json.loads(runner.invoke(app, ["judgments", str(ann), str(bo), "--json"]).stdout)
    assert data["items"] == 3 and "agreement_las" not in data and data["metrics_left_out"].startswith("the items")
    # a file where some items have gold and a later one has none
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(export(tmp_path / "x.jsonl", "ann", {"s1": "A"}).read_text()
                     + export(tmp_path / "y.jsonl", "ann", {"s2": "A"}, gold=False).read_text(), encoding="utf-8")
    with pytest.raises(JudgmentError, match="item 's2' has no gold tree, and the items before it have one"):
        analyse_judgments(iter_judgments(mixed), mace_restarts=1)


def test_tie_is_a_preference_other_values_are_not(tmp_path):
    path = export(tmp_path / "j.jsonl", "ann", {"s1": "TIE", "s2": "a"})
    assert [i.judgments for i in load_judgments(path)] == [{"ann": "tie"}, {"ann": "A"}]
    bad = export(tmp_path / "bad.jsonl", "ann", {"s1": "none"})
    with pytest.raises(JudgmentError, match=r"unknown preference 'none' \(use A, B or tie\)"):
        load_judgments(bad)
    item = sa.DependencyTree.create([2, 0], ["nsubj", "root"])
    with pytest.raises(JudgmentError, match="dependency trees or all phrase-structure"):
        from spacy_agreement.evaluation.judgments.analysis import make_item

        make_item("x", None, item, sa.parse_brackets("(S (NP (N a)) (V b))")[0], {})
