"""The README and the docs site run as written (issues 15, 27 and 40).

* Every ```bash and ```python block of README.md and of every page under docs/ runs, in a folder
  holding the files the examples name (docs/hooks.py ``make_sandbox``: the package's demo annotations,
  the repository's test data, and ``examples/``), except the set-up blocks (``pip install``, ``.ci/wheel``),
  which are what CI itself runs, and the blocks marked ``<!-- no-run: WHY -->`` on the line before them (data the
  reader supplies, a GPU, a pipeline to download), which must compile; a python block may print no
  warning. The python blocks of the docs run in the quick run (a few seconds each), the rest with
  ``--runslow``.
* Every ``spacy-agreement COMMAND ...`` example of the guides and the home page, for the commands that
  are functions (``sa.alpha``, ... ``sa.judge``), has the Python call ``sa.COMMAND(`` beside it.
* The API reference is generated from ``spacy_agreement.__all__`` (docs/hooks.py ``API_FAMILIES``): every
  top-level name, as ``spacy_agreement.NAME``, and below the top level only the few of ``API_BELOW_TOP``;
  a name missing from the table fails the build. The guides name no stale or deprecated module path, and
  no module path where a top-level name exists.
* The site builds with ``mkdocs build --strict``: broken links and references fail it, and so does a
  sample command that fails (each ``<!-- run: COMMAND -->`` is run at build time and its output shown).
* The conventions page lists every signature field (generated from the code at build time).
"""
import html
import importlib
import importlib.util
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
#: the guides and the home page: every command example there has its Python call beside it
GUIDES = [DOCS / "index.md", *sorted((DOCS / "guides").glob("*.md"))]
#: a fenced bash or python block, maybe marked not to be run (``<!-- no-run: WHY -->`` just before it)
BLOCK = re.compile(r"^(?:<!-- no-run: (?P<why>.+?) -->\n\n?)?```(?P<language>bash|python)\n(?P<code>.*?)^```",
                   re.M | re.S)


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def blocks(pages=PAGES, language=None, runnable=True):
    """``(where, language, code)`` of the fenced bash and python blocks of ``pages`` (``where`` is
    ``page:line``): those to run (``runnable``), or those marked ``<!-- no-run: WHY -->`` (``False``),
    or all (``None``); set-up blocks (``pip install``, ``.ci/``) never."""
    found = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            if "pip install" in m.group("code") or ".ci/" in m.group("code") \
                    or language not in (None, m.group("language")):
                continue
            if runnable is None or runnable == (m.group("why") is None):
                line = text.count("\n", 0, m.start("language")) + 1
                found.append((f"{page.relative_to(ROOT).as_posix()}:{line}", m.group("language"), m.group("code")))
    return found


def run_python(where, code, cwd):
    """Run one python block as a reader would, alone, in ``cwd``; it must succeed without a warning."""
    env = dict(os.environ, NO_COLOR="1")
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, f"{where}: python block failed\n{done.stderr[-3000:]}"
    assert "Warning" not in done.stderr, f"{where}: the example prints a warning\n{done.stderr[-3000:]}"


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    return _hooks().make_sandbox(tmp_path_factory.mktemp("examples"))


# the python blocks of docs/ run in the quick run (test_docs_python_block_runs), the rest here
SLOW_BLOCKS = blocks([ROOT / "README.md"], "python") + blocks(PAGES, "bash")
DOCS_PYTHON = blocks(sorted(DOCS.rglob("*.md")), "python")


@pytest.mark.slow
@pytest.mark.parametrize("where, language, code", SLOW_BLOCKS, ids=[w for w, _, _ in SLOW_BLOCKS])
def test_block_runs(where, language, code, sandbox):
    env = dict(os.environ, NO_COLOR="1")
    if language == "python":
        run_python(where, code, sandbox)
        return
    for command in [c for c in code.splitlines() if c.strip() and not c.lstrip().startswith("#")]:
        done = subprocess.run(["bash", "-c", command], cwd=sandbox, capture_output=True, text=True, env=env,
                              timeout=300)
        assert done.returncode == 0, f"{where}: {command!r} failed\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("where, language, code", DOCS_PYTHON, ids=[w for w, _, _ in DOCS_PYTHON])
def test_docs_python_block_runs(where, language, code, sandbox):
    """The Python of the guides runs as written, each block alone, on the files the commands beside
    it read (the sandbox holds them, and ``examples/``)."""
    run_python(where, code, sandbox)


def test_every_python_block_compiles_and_says_why_it_is_not_run():
    every = blocks(PAGES, "python", runnable=None)
    assert len(DOCS_PYTHON) >= 15, "the guides' Python examples are run"
    for where, _, code in every:
        compile(code, where, "exec")  # a SyntaxError names the block
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        marks = len(re.findall(r"<!-- no-run", text))
        assert marks == len(re.findall(r"^<!-- no-run: .+? -->\n\n?```python\n", text, re.M)), \
            f"{page.name}: a <!-- no-run: WHY --> mark not right before a python block"


#: the commands that are functions of the same name (``leaf-ancestor`` is ``sa.leaf_ancestor``)
COMMAND_FUNCTIONS = {c: c.replace("-", "_") for c in
                     ("alpha", "layers", "evaluate", "evalb", "leaf-ancestor", "compare", "discourse", "judgments",
                      "judge")}
#: ``spacy-agreement COMMAND`` followed by an argument or option: an example, not the command's name
EXAMPLE = re.compile(r"spacy-agreement (%s)\b(?=[ \t\n]+[^\s`])" % "|".join(
    sorted(map(re.escape, COMMAND_FUNCTIONS), key=len, reverse=True)))
FENCE = re.compile(r"^(```+|~~~+)[^\n]*\n.*?^\1[ \t]*$", re.M | re.S)
BESIDE = 20  # lines before or after an example, within its section


def command_examples(text):
    """``(first line, last line, command)`` of each command example of a page (0-based lines): a
    fenced block's commands (bash, console, text; the python blocks are the calls), a
    ``<!-- run: ... -->`` sample, an inline ```spacy-agreement alpha a b``` in the prose."""
    found = []
    prose = text
    for fence in FENCE.finditer(text):
        first, last = text.count("\n", 0, fence.start()), text.count("\n", 0, fence.end())
        if not fence.group(0).startswith("```python"):
            found += [(first, last, m.group(1)) for m in EXAMPLE.finditer(fence.group(0))]
        prose = prose[:fence.start()] + re.sub(r"[^\n]", " ", fence.group(0)) + prose[fence.end():]
    for run in re.finditer(r"^<!-- run: (.*?) -->$", prose, re.M):
        line = prose.count("\n", 0, run.start())
        found += [(line, line, m.group(1)) for m in EXAMPLE.finditer(run.group(1))]
    prose = re.sub(r"^<!-- run: .*? -->$", "", prose, flags=re.M)
    for span in re.finditer(r"`([^`]+)`", prose):
        first, last = prose.count("\n", 0, span.start()), prose.count("\n", 0, span.end())
        found += [(first, last, m.group(1)) for m in EXAMPLE.finditer(span.group(1))]
    headings = [i for i, line in enumerate(prose.split("\n")) if re.match(r"#{1,6} ", line)]
    return found, headings


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: p.name)
def test_every_command_example_has_the_python_call_beside_it(page):
    """Wherever a guide shows ``spacy-agreement COMMAND ...`` for a command that is a function, the
    same page has ``sa.COMMAND(`` (the brief's rule), and within 20 lines of the example, in the same
    section (the rule the guides follow: the Python right beside the command)."""
    text = page.read_text(encoding="utf-8")
    lines = text.split("\n")
    examples, headings = command_examples(text)
    far = []
    for first, last, command in examples:
        call = f"sa.{COMMAND_FUNCTIONS[command]}("
        assert call in text, f"{page.name} shows spacy-agreement {command} but never {call}...)"
        start = max([h for h in headings if h <= first] + [first - BESIDE, 0])
        end = min([h for h in headings if h > last] + [last + BESIDE + 1, len(lines)])
        if call not in "\n".join(lines[start:end]):
            far.append(f"line {first + 1}: spacy-agreement {command} without {call}...) beside it")
    assert not far, f"{page.name}:\n" + "\n".join(far)


def test_the_command_example_check_can_fail():
    text = "# Page\n\n```bash\nspacy-agreement compare gold.conllu a.conllu b.conllu\n```\n\n" + "text\n" * 30 + \
           "`sa.compare(gold, [a, b])`\n"
    examples, _ = command_examples(text)
    assert [(c, f) for f, _, c in examples] == [("compare", 2)]
    examples, _ = command_examples("Run `spacy-agreement judge a b --html p.html`; `spacy-agreement judgments` reads "
                                   "what comes back.\n<!-- run: spacy-agreement leaf-ancestor g.mrg c.mrg -->\n")
    assert sorted(c for _, _, c in examples) == ["judge", "leaf-ancestor"]


def _resolve(path):
    """The object a dotted path names: the longest importable module, then attributes."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(path)


def _top_level_name(obj):
    import spacy_agreement

    return next((name for name in spacy_agreement.__all__ if getattr(spacy_agreement, name) is obj), None)


def test_the_api_reference_is_every_top_level_name():
    """The reference documents each name of ``spacy_agreement.__all__`` once, as ``spacy_agreement.NAME``
    (mkdocstrings resolves the alias), and below the top level only the few of ``API_BELOW_TOP``, each
    importable and none a top-level name (then the top-level name is to be documented)."""
    import spacy_agreement

    hooks = _hooks()
    page = hooks.api_reference((DOCS / "reference.md").read_text(encoding="utf-8"))
    targets = re.findall(r"^:::\s*(\S+)", page, re.M)
    assert len(targets) == len(set(targets)), "documented twice: " + ", ".join(
        sorted({t for t in targets if targets.count(t) > 1}))
    top = [f"spacy_agreement.{name}" for name in spacy_agreement.__all__]
    missing = [t for t in top if t not in targets]
    assert not missing, "top-level names missing from the API reference: " + ", ".join(missing)
    allowed = [path for paths in hooks.API_BELOW_TOP.values() for path in paths]
    below = [t for t in targets if t not in top]
    assert not set(below) - set(allowed), "the API reference points below the top level: " + ", ".join(
        sorted(set(below) - set(allowed)))
    assert len(allowed) <= 5, "keep the objects below the top level few"
    for path in allowed:
        name = _top_level_name(_resolve(path))
        assert name is None, f"{path} is the top-level sa.{name}: document spacy_agreement.{name} instead"


def test_a_top_level_name_missing_from_the_api_table_fails_the_build(monkeypatch):
    import spacy_agreement

    hooks = _hooks()
    source = (DOCS / "reference.md").read_text(encoding="utf-8")
    monkeypatch.setattr(spacy_agreement, "__all__", [*spacy_agreement.__all__, "brand_new_function"])
    with pytest.raises(RuntimeError, match="brand_new_function"):
        hooks.on_page_markdown(source)
    monkeypatch.undo()
    with pytest.raises(RuntimeError, match="markers"):
        hooks.on_page_markdown(source.replace("<!-- api: errors -->", ""))
    monkeypatch.setitem(hooks.API_FAMILIES, "errors", hooks.API_FAMILIES["errors"] + ("EvaluationOptions",))
    with pytest.raises(RuntimeError, match="EvaluationOptions"):  # a top-level alias, not in __all__
        hooks.on_page_markdown(source)


#: dotted names in the pages that are no Python path (spaCy's registry)
NOT_PATHS = {"spacy_agreement.syntax_scorer.v1"}


@pytest.mark.parametrize("page", [*GUIDES, DOCS / "reference.md"], ids=lambda p: p.name)
def test_the_guides_name_current_paths_and_top_level_names(page):
    """Each ``spacy_agreement.a.b`` a guide names exists, without a deprecation warning (the modules
    that moved in 0.4 keep their old paths for a while), and is no top-level name under another path."""
    wrong = []
    for path in sorted(set(re.findall(r"\bspacy_agreement(?:\.[A-Za-z_]\w*)+", page.read_text(encoding="utf-8")))):
        if path in NOT_PATHS:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            try:
                obj = _resolve(path)
            except (ImportError, AttributeError, DeprecationWarning) as error:
                wrong.append(f"{path}: {type(error).__name__}: {error}")
                continue
        name = _top_level_name(obj)
        if name is not None and path != f"spacy_agreement.{name}":
            wrong.append(f"{path} is sa.{name}: name that")
    assert not wrong, f"{page.name}:\n" + "\n".join(wrong)


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
    import spacy_agreement

    reference = (tmp_path / "site" / "reference" / "index.html").read_text("utf-8")
    rendered = set(re.findall(r'id="(spacy_agreement\.[\w.]+)"', reference))
    assert not {f"spacy_agreement.{name}" for name in spacy_agreement.__all__} - rendered
    assert ":::" not in reference  # every directive rendered
    assert "sa.alpha(" in guide and "sa.compare(" in text("guides/parser-developers")
