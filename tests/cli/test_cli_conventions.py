"""Conventions every command shares, and the CLI bugs fixed with them: strict JSON (no NaN),
--json/--tsv/--output/--quiet everywhere, --json with --tsv refused, --version, pq-gram alpha
kept with --sample-pairs and run on --threads."""
import json
import re

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import COMMANDS, app
from ..helpers import conll, write_two_annotators


runner = CliRunner()


@pytest.fixture
def files(tmp_path):
    return write_two_annotators(tmp_path)


def strict_json(text):
    def no_nan(name):
        raise AssertionError(f"{name} in JSON output")
    return json.loads(text, parse_constant=no_nan)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_has_the_shared_options(command):
    text = runner.invoke(app, [command, "--help"], terminal_width=200).stdout
    for flag in ("--json", "--tsv", "--quiet"):
        assert flag in text, f"{command} lacks {flag}"
    if command != "report":  # the report's output is --html
        assert "--output" in text


def test_json_and_tsv_together_is_an_error(files):
    result = runner.invoke(app, ["alpha", *map(str, files), "--json", "--tsv"])
    assert result.exit_code == 1 and result.stderr.strip() == "--json and --tsv exclude each other: give one"
    result = runner.invoke(app, ["evaluate", *map(str, files), "--json", "--tsv"])
    assert result.exit_code == 1 and "exclude each other" in result.stderr


def test_leaf_ancestor_json_is_strict_json(tmp_path):
    gold, cand = tmp_path / "g.mrg", tmp_path / "c.mrg"
    gold.write_text("(S (NP (DT a)) (VP (VB b)))\n(S (X y))\n", encoding="utf-8")
    cand.write_text("(S (NP (DT a)) (VP (VB b)))\n\n", encoding="utf-8")  # the parser failed on the last one
    result = runner.invoke(app, ["leaf-ancestor", str(gold), str(cand), "--json"])
    assert result.exit_code == 0, result.output
    values = strict_json(result.stdout)
    assert values["sentences_skipped"] == 1
    nothing = tmp_path / "n.mrg"
    nothing.write_text("\n\n", encoding="utf-8")  # every sentence failed: LA over no words is undefined
    with pytest.warns(sa.UndefinedMetricWarning) as seen:
        undefined = runner.invoke(app, ["leaf-ancestor", str(gold), str(nothing), "--json"])
    assert undefined.exit_code == 0, undefined.output
    # both leaf-ancestor means and GEIG (no bracket compared: EVALB's -nan) undefined
    assert {w.message.metric for w in seen} == {"leaf_ancestor", "leaf_ancestor_words", "geig"}
    values = strict_json(undefined.stdout)  # null, not NaN
    assert [v for k, v in values.items() if k.startswith(("la", "leaf_ancestor"))] == [None, None]
    assert values["geig_labelled"] is None and values["geig_unlabelled"] is None


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_nan_is_null_in_json_and_empty_in_tsv(files, tmp_path):
    a, copy = tmp_path / "same1.conll", tmp_path / "same2.conll"
    for path in (a, copy):  # every annotation of every item the same: no expected disagreement, alpha undefined
        path.write_text(conll([(0, "root"), (1, "x")]) * 4, encoding="utf-8")
    result = runner.invoke(app, ["alpha", str(a), str(copy), "--json"])
    values = strict_json(result.stdout)
    assert values["alpha_plain"] is None and values["annotations"] == 8
    tsv = runner.invoke(app, ["alpha", str(a), str(copy), "--tsv"]).stdout
    assert re.search(r"^alpha_plain\t$", tsv, re.M)


def test_pqgram_alpha_stays_with_sampled_pairs_and_uses_the_threads(files, monkeypatch):
    from spacy_agreement.agreement import pqgram

    seen = []
    original = pqgram._core.pqgram_expected_rows

    def recording(*args):
        seen.append(args[-1])
        return original(*args)

    monkeypatch.setattr(pqgram._core, "pqgram_expected_rows", recording)
    result = runner.invoke(app, ["alpha", *map(str, files), "--pqgram", "--sample-pairs", "500", "--json",
                                 "--threads", "1"])
    assert result.exit_code == 0, result.output
    values = strict_json(result.stdout)
    assert "alpha_pqgram" in values and values["alpha_method"] == "sampled pairs"
    assert seen and set(seen) == {1}
    exact = strict_json(runner.invoke(app, ["alpha", *map(str, files), "--pqgram", "--json"]).stdout)
    assert values["alpha_pqgram"] == pytest.approx(exact["alpha_pqgram"])  # pq-gram alpha is exact either way
    text = runner.invoke(app, ["alpha", *map(str, files), "--pqgram", "--sample-pairs", "500"]).stdout
    assert "alpha pqgram" in text and "interval" in text


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"spacy-agreement {sa.__version__}"


def test_quiet_keeps_stderr_clean(tmp_path, files):
    out = tmp_path / "r.html"
    result = runner.invoke(app, ["report", *map(str, files), "--html", str(out), "--quiet"])
    assert result.exit_code == 0 and result.stderr == "" and out.exists()
    loud = runner.invoke(app, ["report", *map(str, files), "--html", str(out)])
    assert "wrote" in loud.stderr
