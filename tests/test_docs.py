"""The README and the docs site run as written (issues 15 and 27).

* Every ```bash and ```python block of README.md and of every page under docs/ runs, in a folder
  holding the files the examples name (docs/hooks.py ``make_sandbox``), except the set-up blocks
  (``pip install``), which are what CI itself runs; a python block may print no warning.
* The site builds with ``mkdocs build --strict``: broken links and references fail it, and so does a
  sample command that fails (each ``<!-- run: COMMAND -->`` is run at build time and its output shown).
* The conventions page lists every signature field (generated from the code at build time).
"""
import html
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
BLOCK = re.compile(r"^```(bash|python)\n(.*?)^```", re.M | re.S)


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def blocks(pages=PAGES):
    found = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        found += [(f"{page.relative_to(ROOT).as_posix()}:{text.count(chr(10), 0, m.start()) + 1}", m.group(1),
                   m.group(2)) for m in BLOCK.finditer(text) if "pip install" not in m.group(2)]
    return found


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    return _hooks().make_sandbox(tmp_path_factory.mktemp("examples"))


@pytest.mark.slow
@pytest.mark.parametrize("where, language, code", blocks(), ids=[w for w, _, _ in blocks()])
def test_block_runs(where, language, code, sandbox):
    env = dict(os.environ, NO_COLOR="1")
    if language == "python":
        done = subprocess.run([sys.executable, "-c", code], cwd=sandbox, capture_output=True, text=True, env=env,
                              timeout=300)
        assert done.returncode == 0, f"{where}: python block failed\n{done.stderr[-3000:]}"
        assert "Warning" not in done.stderr, f"{where}: the example prints a warning\n{done.stderr[-3000:]}"
        return
    for command in [c for c in code.splitlines() if c.strip() and not c.lstrip().startswith("#")]:
        done = subprocess.run(["bash", "-c", command], cwd=sandbox, capture_output=True, text=True, env=env,
                              timeout=300)
        assert done.returncode == 0, f"{where}: {command!r} failed\n{done.stderr[-3000:]}"


CONSOLE = re.compile(r"^```console\n\$ (.*?)\n(.*?)^```", re.M | re.S)
TIMING = re.compile(r"about [\d.e+-]+ s here")  # the kernel's speed on the machine that ran it


@pytest.mark.slow
@pytest.mark.parametrize("command, shown", CONSOLE.findall((ROOT / "README.md").read_text(encoding="utf-8")),
                         ids=lambda v: v.split(" ")[1] if v.startswith("spacy-agreement") else None)
def test_the_readmes_sample_output_is_what_the_command_prints(command, shown, sandbox):
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1")
    done = subprocess.run(["bash", "-c", command], cwd=sandbox, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert TIMING.sub("", (done.stdout + done.stderr).rstrip()) == TIMING.sub("", shown.rstrip()), command


def test_the_readme_and_the_guides_have_runnable_examples():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(CONSOLE.findall(readme)) >= 3, "README: three commands with their output"
    assert [language for _, language, _ in blocks([ROOT / "README.md"])].count("python") >= 1
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in DOCS.rglob("*.md"):
        assert page.relative_to(DOCS).as_posix() in nav, f"{page} is not in the site's navigation"
    for guide in (DOCS / "guides").glob("*.md"):
        text = guide.read_text(encoding="utf-8")
        assert "<!-- run: " in text or "```python" in text, f"{guide.name}: no sample output"


def test_the_conventions_page_lists_every_signature_field():
    from spacy_agreement.signature import COMPUTATIONS, signature_table

    assert "<!-- signature-table -->" in (DOCS / "conventions.md").read_text(encoding="utf-8")
    table = _hooks()._signature_table()
    assert set(COMPUTATIONS.names()) >= {"alpha", "layers", "evaluate", "leaf-ancestor", "evalb", "discourse",
                                         "judgments", "synthetic"}
    for computation, key, field, default, doc in signature_table():
        assert doc, f"{computation}.{field} has no description"
        assert f"| `{computation}` | `{key}` | `{field}` |" in table


@pytest.mark.slow
def test_docs_build_in_strict_mode(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed: pip install -e '.[docs]'")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]

    def text(page):
        return html.unescape(re.sub(r"<[^>]+>", "", (tmp_path / "site" / page / "index.html").read_text("utf-8")))

    guide = text("guides/annotation-teams")
    assert "$ spacy-agreement alpha annotator1.conll annotator2.conll" in guide and "signature: alpha|" in guide
    assert "partial" in text("conventions") and "deprel_same_head" in text("conventions")
