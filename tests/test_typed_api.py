"""The typed API (issue 49): ``mypy --strict`` passes on a program calling every public function and
reading its results' figures (examples/typed_api.py), and fails on the same program with a
misspelt result attribute or a misspelt option, which the old ``__getattr__`` forwarding let
through as ``Any``. The program itself runs too."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "typed_api.py"


def mypy(tmp_path: Path, source: str) -> subprocess.CompletedProcess:
    script = tmp_path / "typed_api.py"
    script.write_text(source, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    import spacy_agreement

    home = Path(spacy_agreement.__file__).resolve().parent.parent
    if "site-packages" not in home.parts and "dist-packages" not in home.parts:
        env["MYPYPATH"] = str(home)  # an editable install: its import hook is invisible to mypy
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental",
                           "--cache-dir", os.devnull, str(script)], capture_output=True, text=True, env=env,
                          timeout=600, cwd=tmp_path)


@pytest.fixture(scope="module")
def source() -> str:
    return EXAMPLE.read_text(encoding="utf-8")


def test_the_typed_example_passes_mypy_strict(tmp_path, source):
    done = mypy(tmp_path, source)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


#: (what the example says, the same misspelt, what mypy must say of it): every one in one mypy run
MISSPELT = [
    ("run.las:.4f", "run.lass:.4f", '"EvaluateRun" has no attribute "lass"'),
    ("agreement.alpha_plain:.4f", "agreement.alpha_plian:.4f", '"AlphaResult" has no attribute "alpha_plian"'),
    ("brackets.score:.4f", "brackets.scor:.4f", '"EvalbRun" has no attribute "scor"'),
    ("lineages.leaf_ancestor:.4f", "lineages.leaf_ancestr:.4f", '"LeafAncestorRun" has no attribute "leaf_ancestr"'),
    ("sa.evaluate(ANNA, BEN, no_punct=True)", "sa.evaluate(ANNA, BEN, no_punc=True)", 'keyword argument "no_punc"'),
    ("sa.evalb(TREES_A, TREES_B)", "sa.evalb(TREES_A, TREES_B, max_eror=3)", 'keyword argument "max_eror"'),
]


def test_a_misspelt_attribute_or_option_fails_mypy(tmp_path, source):
    wrong = source
    for right, misspelt, _ in MISSPELT:
        assert right in wrong, right
        wrong = wrong.replace(right, misspelt, 1)
    done = mypy(tmp_path, wrong)
    assert done.returncode == 1, done.stdout
    for _, _, said in MISSPELT:
        assert said in done.stdout, said
    assert f"Found {len(MISSPELT)} errors" in done.stdout, done.stdout


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_the_typed_example_runs(capsys):
    import runpy

    runpy.run_path(str(EXAMPLE), run_name="__main__")
    out = capsys.readouterr().out
    assert "alpha plain 0.8553" in out and "EVALB F 0.9333" in out
