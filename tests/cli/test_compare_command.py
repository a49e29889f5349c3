"""``spacy-agreement compare`` and ``--ci`` (issue 29): dependency (the same tokens, and other
tokens through the character alignment) and bracketed systems, text and JSON, the signature
given back, one-line errors."""
import json
import random
import re
import shutil

import pytest
from typer.testing import CliRunner

from spacy_agreement.cli import app

from ..evaluation.test_unit_counts import _bracket_files

runner = CliRunner()
#: CDT has several roots in a sentence, which conll18_ud_eval.py refuses and evaluate under its default convention
#: (conll18) with it: conll18's options under the package's rules (compare's figures)
AS_COMPARE = ("--convention", "package", "--with-punct", "--ignore-subtypes", "--case-sensitive-root")
#: CDT has no VERB tags and no content UPOS: evaluate says UCP, LCP and LAS content are undefined
pytestmark = pytest.mark.filterwarnings("ignore::spacy_agreement.errors.UndefinedMetricWarning")


def perturbed(source, target, rate, seed, field=7, values=("dobj", "subj", "nobj")):
    """A copy of a CoNLL file with a share of its labels changed (a worse system)."""
    rng = random.Random(seed)
    out = []
    for line in source.read_text(encoding="utf-8").split("\n"):
        cols = line.split("\t")
        if len(cols) >= 8 and rng.random() < rate:
            cols[field] = rng.choice([v for v in values if v != cols[field]])
        out.append("\t".join(cols))
    target.write_text("\n".join(out), encoding="utf-8")
    return target


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result


@pytest.fixture
def systems(iaa, tmp_path):
    gold = iaa / "cdt" / "da-lotte.conll"
    a = tmp_path / "a.conll"
    shutil.copy(iaa / "cdt" / "da-morten.conll", a)
    b = perturbed(a, tmp_path / "b.conll", 0.08, seed=1)
    c = tmp_path / "c.conll"
    shutil.copy(a, c)
    return gold, a, b, c


def test_compare_two_dependency_systems_json(systems):
    gold, a, b, _ = systems
    result = run("compare", gold, a, b, "--json", "--quiet", "--shuffles", "2000", "--resamples", "500")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    las = data["pairs"][0]["metrics"]["las"]
    assert data["pairs"][0]["a"] == "a.conll" and data["pairs"][0]["b"] == "b.conll"
    assert las["difference"] < 0 and las["ci_low"] <= las["difference"] <= las["ci_high"] < 0
    assert las["p_value_randomization"] < 0.01 and las["p_value_bootstrap"] < 0.01
    assert data["pairs"][0]["metrics"]["uas"]["p_value_randomization"] == 1.0  # only labels changed
    sys_a = data["systems"]["a.conll"]["las"]
    assert sys_a["ci_low"] <= sys_a["value"] <= sys_a["ci_high"]
    assert data["signature"].startswith("compare|boot:500|seed:1|level:0.95|method:percentile|ar:2000|mc:holm")
    assert data["evaluation_signature"].startswith("evaluate|")
    assert data["alignment"] == "identical" and data["units"] == 162
    assert "ucp" in data["metrics_not_defined"]  # CDT has no VERB tags: said, not a column of n/a

    # the same numbers as evaluate for each system
    evaluated = json.loads(run("evaluate", gold, b, "--json", "--quiet", *AS_COMPARE).stdout)
    assert data["systems"]["b.conll"]["las"]["value"] == pytest.approx(evaluated["las"])


def test_compare_text_three_systems_holm(systems):
    gold, a, b, c = systems
    result = run("compare", gold, a, b, c, "--quiet", "--shuffles", "1000", "--resamples", "300",
                 "--metric", "las", "--metric", "uas")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "3 systems against" in text and "162 sentences compared" in text
    assert "b.conll − a.conll (p-values adjusted over 3 pairs, Holm):" in text
    assert re.search(r"^\s+LAS\s+-\d+\.\d\d\s+\[-\d+\.\d\d, -\d+\.\d\d\]\s+(<0\.0001|0\.\d{4})\s+0\.\d{4}$", text,
                     re.M), text
    assert re.search(r"c\.conll − a\.conll.*\n.*\n\s+LAS\s+\+0\.00\s+\[\+0\.00, \+0\.00\]\s+1\.0000\s+1\.0000", text)
    assert "signature: compare|" in text and "\nsignature (evaluation): evaluate|" in text


def test_the_signature_given_back_gives_the_same_numbers(systems, tmp_path):
    gold, a, b, _ = systems
    first = run("compare", gold, a, b, "--json", "--quiet", "--shuffles", "500", "--resamples", "200",
                "--seed", "5", "--metric", "las")
    saved = tmp_path / "first.json"
    saved.write_text(first.stdout)
    again = run("compare", gold, a, b, "--json", "--quiet", "--signature", saved, "--metric", "las")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["pairs"] == json.loads(first.stdout)["pairs"]
    assert "seed:5" in json.loads(again.stdout)["signature"]


def test_compare_other_tokenisations_through_the_alignment(tmp_path):
    from pathlib import Path

    data = Path(__file__).resolve().parents[1] / "data" / "conll18"
    gold, system = data / "retok_random.gold.conllu", data / "retok_random.sys.conllu"
    other = tmp_path / "other.conllu"
    shutil.copy(gold, other)
    result = run("compare", gold, system, other, "--json", "--shuffles", "500", "--resamples", "200")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["alignment"] == "characters" and out["units"] == 60
    assert out["systems"]["other.conllu"]["las"]["value"] == 1.0
    assert out["pairs"][0]["metrics"]["las"]["p_value_randomization"] < 0.01
    assert "conll18_ud_eval.py's character alignment" in result.stderr


def test_compare_bracketed_systems_with_leaf_ancestor(tmp_path):
    gold, cand = _bracket_files(tmp_path, n=40)
    same = tmp_path / "same.mrg"
    shutil.copy(gold, same)
    result = run("compare", gold, cand, same, "--leaf-ancestor", "--json", "--quiet", "--shuffles", "500",
                 "--resamples", "200")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["metrics"][:3] == ["recall", "precision", "fmeasure"] and "geig_labelled" in out["metrics"]
    assert out["systems"]["same.mrg"]["fmeasure"]["value"] == 1.0
    assert out["pairs"][0]["metrics"]["fmeasure"]["difference"] > 0
    text = run("compare", gold, cand, same, "--quiet", "--shuffles", "200", "--resamples", "100").stdout
    assert "Bracket F" in text and "Average crossing" in text


def test_one_system_is_a_one_line_error(systems):
    gold, a, _, _ = systems
    result = run("compare", gold, a)
    assert result.exit_code != 0
    assert "two system files or more" in result.output and len(result.output.strip().splitlines()) == 1


def test_evaluate_evalb_and_leaf_ancestor_with_ci(systems, tmp_path):
    gold, a, b, _ = systems
    out = json.loads(run("evaluate", gold, b, "--json", "--quiet", "--ci", "--resamples", "300", *AS_COMPARE).stdout)
    low, high = out["ci"]["las"]
    assert low <= out["las"] <= high and out["ci_signature"].startswith("ci|boot:300|seed:1")
    text = run("evaluate", gold, b, "--quiet", "--ci", "--resamples", "300", *AS_COMPARE).stdout
    assert "95% bootstrap intervals (percentile, 300 resamples of the sentences):" in text
    assert re.search(r"^\s+LAS\s+\d+\.\d\d\s+\[\d+\.\d\d, \d+\.\d\d\]$", text, re.M)

    g, c = _bracket_files(tmp_path, n=30)
    plain = run("evalb", g, c).stdout
    with_ci = run("evalb", g, c, "--ci", "--resamples", "200").stdout
    assert with_ci.startswith(plain.rstrip("\n"))  # EVALB's bytes first, unchanged
    assert "Bracket F" in with_ci[len(plain):]
    la = json.loads(run("leaf-ancestor", g, c, "--json", "--ci", "--resamples", "200").stdout)
    low, high = la["ci"]["leaf_ancestor"]
    assert low <= la["leaf_ancestor"] <= high


def test_breakdowns_in_evaluate_and_compare(systems, tmp_path):
    gold, a, b, _ = systems
    out = json.loads(run("evaluate", gold, b, "--json", "--quiet", "--breakdown", "direction,depth", *AS_COMPARE).stdout)
    rows = out["breakdowns"]["b.conll"]["direction"]["rows"]
    assert [r["group"] for r in rows][:3] == ["left", "right", "root"]
    assert sum(r["gold"] for r in rows) == out["tokens_scored"]
    # correct gold words over all groups: the LAS numerator
    assert sum(r["correct_gold"] for r in rows) == pytest.approx(out["las"] * out["tokens_scored"])
    text = run("compare", gold, a, b, "--quiet", "--breakdown", "all", "--metric", "las", "--shuffles", "200",
               "--resamples", "100").stdout
    for title in ("By arc length", "By arc direction", "By depth", "By sentence length", "By UPOS", "By relation"):
        assert title.lower() in text.lower(), title
    data = json.loads(run("compare", gold, a, b, "--json", "--quiet", "--breakdown", "deprel", "--metric", "las",
                          "--shuffles", "200", "--resamples", "100").stdout)
    assert set(data["breakdowns"]) == {"a.conll", "b.conll"}
    bad = run("compare", gold, a, b, "--breakdown", "arcs")
    assert bad.exit_code == 1 and "--breakdown 'arcs'" in bad.output
