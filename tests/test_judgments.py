"""Metrics against human judgments (Plank et al. 2015): kappas, MACE, the analyses, bad input."""
import importlib.util
import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.judgments import (
    JudgmentError,
    analyse_judgments,
    cohen_kappa,
    fleiss_kappa,
    load_judgments,
    make_item,
)
from spacy_agreement.mace import mace

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load_generator():
    spec = importlib.util.spec_from_file_location("make_judgments", EXAMPLES / "make_judgments.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cohen_kappa_worked_example():
    # observed 4/5; chance (3/5)(2/5) + (2/5)(3/5) = 12/25
    assert cohen_kappa(list("AABBA"), list("ABBBA")) == pytest.approx((0.8 - 0.48) / 0.52)


def test_fleiss_kappa_textbook_example():
    # Fleiss (1971) style example: 10 subjects, 14 raters, 5 categories, kappa = 0.210
    table = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
             [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    items = [[str(c) for c, count in enumerate(row) for _ in range(count)] for row in table]
    assert round(fleiss_kappa(items), 3) == 0.210


def test_mace_recovers_the_good_and_bad_judges():
    generator = load_generator()
    records, truth = generator.generate(items=300, seed=1)
    fitted = mace([r["judgments"] for r in records], labels=["A", "B"], seed=0)
    competence = fitted.competence
    assert competence["expert"] > competence["hasty"] and competence["expert"] > competence["random"]
    assert competence["careful"] > competence["hasty"] > competence["random"] - 0.05
    assert min(competence["expert"], competence["careful"]) > 0.5 > max(competence["hasty"], competence["random"])
    # the model's labels beat the average judge
    accuracy = sum(p == t for p, t in zip(fitted.predicted(), truth)) / len(truth)
    assert accuracy > 0.9


def small_item(id, judgments, a_heads=(2, 0, 2), b_heads=(3, 0, 2)):
    gold = sa.DependencyTree.create([2, 0, 2], ["nsubj", "root", "obj"], upos=["PRON", "VERB", "NOUN"])
    a = sa.DependencyTree.create(list(a_heads), ["nsubj", "root", "obj"], upos=["PRON", "VERB", "NOUN"])
    b = sa.DependencyTree.create(list(b_heads), ["nsubj", "root", "obj"], upos=["PRON", "VERB", "NOUN"])
    return make_item(id, gold, a, b, judgments)


def test_metric_agreement_with_judges_worked_example():
    # LAS prefers A on items 1-3 and ties on item 4 (A and B equal)
    items = [
        small_item("1", {"x": "A", "y": "A"}),
        small_item("2", {"x": "A", "y": "B"}),
        small_item("3", {"x": "B", "y": "B"}),
        small_item("4", {"x": "A", "y": "B"}, b_heads=(2, 0, 2)),
    ]
    result = analyse_judgments(items, metrics=("las", "uas"))
    assert result.preferences["las"] == ["A", "A", "A", "tie"]
    assert result.ties["las"] == 1
    # judge x: 1, 1, 0, 0.5 -> 0.625; judge y: 1, 0, 0, 0.5 -> 0.375; mean 0.5
    assert result.metric_judge_agreement["las"] == pytest.approx(0.5)
    skipped = analyse_judgments(items, metrics=("las", "uas"), ties="skip")
    assert skipped.metric_judge_agreement["las"] == pytest.approx((2 / 3 + 1 / 3) / 2)
    # judges agree on items 1 and 3: raw 0.5; two judges -> Cohen's kappa
    assert result.judge_agreement == 0.5 and result.kappa_kind == "cohen"
    assert result.kappa == pytest.approx(cohen_kappa(list("AABA"), list("ABBB")))


def test_analysis_on_generated_judgments(tmp_path):
    generator = load_generator()
    path = tmp_path / "judgments.jsonl"
    assert generator.main([str(path), "--items", "200", "--seed", "3"]) == 0
    items = load_judgments(path)
    result = analyse_judgments(items)
    assert result.items == 200 and result.kappa_kind == "fleiss"
    # the truth is "higher LAS wins", so LAS agrees with the good judges and correlates best
    table = result.human_correlations["mace"]
    assert table["las"]["rho"] > 0.5
    assert table["las"]["rho"] >= max(table[m]["rho"] for m in result.metrics if m != "las") - 1e-12
    assert result.metric_judge_agreement["las"] > result.judge_agreement
    assert math.isnan(table["las"]["p_vs_las"]) and 0 <= table["lcp"]["p_vs_las"] <= 1
    assert -1 <= result.metric_correlations[("las", "uas")] <= 1
    cli = CliRunner().invoke(app, ["judgments", str(path), "--json"])
    assert cli.exit_code == 0, cli.output
    out = json.loads(cli.output)
    assert out["items"] == 200 and "rho_mace_las" in out and "mace_competence_expert" in out


@pytest.mark.parametrize(
    "record, message",
    [
        ({"id": "s1", "gold": {"heads": [0], "deprels": ["root"]}, "a": {"heads": [0], "deprels": ["root"]},
          "b": {"heads": [0], "deprels": ["root"]}, "judgments": {"x": "C"}}, "unknown preference 'C'"),
        ({"id": "s2", "gold": {"heads": [0], "deprels": ["root"]}, "a": {"heads": [0], "deprels": ["root"]},
          "judgments": {"x": "A"}}, "has no 'b' parse"),
        ({"id": "s3", "gold": {"heads": [0], "deprels": ["root"]}, "a": {"heads": [0, 1], "deprels": ["root", "x"]},
          "b": {"heads": [0], "deprels": ["root"]}, "judgments": {"x": "A"}}, "parse A has 2 tokens, gold has 1"),
    ],
)
def test_bad_judgment_items_name_the_item(tmp_path, record, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(JudgmentError) as err:
        load_judgments(path)
    assert message in str(err.value) and record["id"] in str(err.value) and str(path) in str(err.value)
    cli = CliRunner().invoke(app, ["judgments", str(path)])
    assert cli.exit_code == 1 and message in cli.output
