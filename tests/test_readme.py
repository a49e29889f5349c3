"""The README's examples run as written (issue 15): every ```bash and ```python block is
executed in a folder holding the files the examples name (made from the package's demo data),
except the set-up block (``pip install``), which is what CI itself runs."""
import os
import re
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(r"^```(bash|python)\n(.*?)^```", re.M | re.S)


def blocks():
    text = README.read_text(encoding="utf-8")
    found = [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in BLOCK.finditer(text)]
    return [b for b in found if "pip install" not in b[1]]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    """The files the README names, from the demo data shipped with the package."""
    demo = Path(str(resources.files("spacy_agreement") / "data" / "demo"))
    root = tmp_path_factory.mktemp("readme")
    dependency, phrase = demo / "dependency", demo / "phrase"
    shutil.copy(dependency / "anna" / "news-anna.conllu", root / "annotator1.conll")
    shutil.copy(dependency / "ben" / "news-ben.conllu", root / "annotator2.conll")
    shutil.copy(dependency / "anna" / "news-anna.conllu", root / "gold.conllu")
    shutil.copy(dependency / "ben" / "news-ben.conllu", root / "predicted.conllu")
    shutil.copytree(dependency, root / "data")
    shutil.copy(phrase / "annotator-a.tree", root / "a.tree")
    shutil.copy(phrase / "annotator-b.tree", root / "b.tree")
    shutil.copy(phrase / "annotator-a.tree", root / "gold.mrg")
    shutil.copy(phrase / "annotator-b.tree", root / "candidate.mrg")
    shutil.copy(dependency / "anna" / "story-anna.conllu", root / "corpus.conllu")
    evalb = ROOT / "tests" / "data" / "evalb"
    shutil.copy(evalb / "main.gld", root / "gold.gld")
    shutil.copy(evalb / "main.tst", root / "test.tst")
    shutil.copy(evalb / "evalb.prm", root / "COLLINS.prm")
    os.symlink(ROOT / "examples", root / "examples")
    return root


@pytest.mark.slow
@pytest.mark.parametrize("language, code, line", blocks(), ids=lambda v: str(v) if isinstance(v, int) else None)
def test_readme_block_runs(language, code, line, sandbox):
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    if language == "python":
        done = subprocess.run([sys.executable, "-c", code], cwd=sandbox, capture_output=True, text=True, env=env,
                              timeout=300)
        assert done.returncode == 0, f"README.md:{line}: python block failed\n{done.stderr[-3000:]}"
        return
    for command in [c for c in code.splitlines() if c.strip() and not c.lstrip().startswith("#")]:
        done = subprocess.run(["bash", "-c", command], cwd=sandbox, capture_output=True, text=True, env=env,
                              timeout=300)
        assert done.returncode == 0, f"README.md:{line}: {command!r} failed\n{done.stderr[-3000:]}"


def test_readme_has_runnable_blocks():
    languages = [language for language, _, _ in blocks()]
    assert languages.count("bash") >= 5 and languages.count("python") >= 2
