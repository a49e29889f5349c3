"""The command line: demo, alpha on files and annotator directories, JSON keys."""
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from spacy_agreement.cli import COMMANDS, app

runner = CliRunner()


def test_demo_runs_on_shipped_data():
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "alpha plain" in result.output and "LAS" in result.output and "Jaccard" in result.output
    assert "1 item(s) with fewer than two annotations" in result.output


def test_demo_json_values():
    result = runner.invoke(app, ["demo", "--json"])
    assert result.exit_code == 0
    decoder = json.JSONDecoder()
    text = result.output.strip()
    dep, end = decoder.raw_decode(text)
    phrase, _ = decoder.raw_decode(text[end:].strip())
    assert dep["annotators"] == 3 and dep["items"] == 7 and dep["annotations"] == 18
    assert dep["items_unpairable"] == 1 and dep["annotations_unpairable"] == 1
    assert 0 < dep["alpha_plain"] < 1 and 0 < dep["las"] < 1
    assert phrase["tree_family"] == "constituency" and "jaccard" in phrase and "las" not in phrase


def test_alpha_json_on_parallel_files(tmp_path):
    a = tmp_path / "a.tree"
    b = tmp_path / "b.tree"
    a.write_text("(S (NP P) (VP V (NP D N)))\n(S (NP P) (VP V))\n(S (NP D N) (VP V))\n", encoding="utf-8")
    b.write_text("(S (NP P) (VP V (NP D A N)))\n(S (NP P) (VP V))\n(S (NP D N) (VP V (NP P)))\n", encoding="utf-8")
    result = runner.invoke(app, ["alpha", "--format", "bracket", str(a), str(b), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    for key in ("alpha_plain", "alpha_diff", "alpha_norm", "items", "annotations", "jaccard",
                "items_unpairable", "annotations_unpairable", "cycle_tokens", "items_mismatched"):
        assert key in out
    assert out["items"] == 3 and out["annotations"] == 6
    # sentences 1 and 3 differ in their leaf counts (4 against 5, 3 against 4): Jaccard is
    # defined for them, so they are scored and counted (Skjærholt 2014, §4.2); by hand,
    # J = 4/13, 1 and 4/10, weighted by the first annotation's 4, 2 and 3 leaves
    assert out["items_mismatched"] == 2 and out["items_mismatched_scored"] is True
    assert out["jaccard"] == pytest.approx((4 * 4 / 13 + 2 * 1 + 3 * 0.4) / 9)


def test_alpha_dirs_and_output_file(tmp_path):
    good = "1\tA\t_\tX\t_\t_\t2\tsubj\t_\t_\n2\tB\t_\tX\t_\t_\t0\troot\t_\t_\n\n"
    other = "1\tA\t_\tX\t_\t_\t2\tobj\t_\t_\n2\tB\t_\tX\t_\t_\t0\troot\t_\t_\n\n"
    for name, text in (("ann1", good + good), ("ann2", good + other), ("ann3", good + good)):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"f1-{name}.conll").write_text(text, encoding="utf-8")
    (tmp_path / "ann1" / "f2-ann1.conll").write_text(good, encoding="utf-8")
    target = tmp_path / "out.json"
    dirs = [str(tmp_path / n) for n in ("ann1", "ann2", "ann3")]
    result = runner.invoke(app, ["alpha", "--dirs", *dirs, "--json", "--output", str(target)])
    assert result.exit_code == 0, result.output
    out = json.loads(target.read_text())
    assert out["items"] == 2 and out["annotations"] == 6
    assert out["items_unpairable"] == 1 and out["annotations_unpairable"] == 1
    # pairwise LAS of eq. (3): item 1 agrees fully, item 2 has 1/3 of its pairs at LAS 1/2
    assert abs(out["las"] - (2 * 1 + 2 * (1 + 0.5 + 0.5) / 3) / 4) < 1e-12


def test_console_script_help():
    completed = subprocess.run(
        [sys.executable, "-c", "from spacy_agreement.cli import main; main()", "--help"],
        capture_output=True, text=True, check=False,
    )
    assert completed.returncode == 0
    assert all(name in completed.stdout for name in COMMANDS)
