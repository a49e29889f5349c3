"""Packaging: the stub of the Cython core matches the built extension, one version, a LICENSE,
the installed metadata (SPDX license, Python 3.10-3.13, project URLs), the wheel builds, and a
source build without a C compiler ending with one line that says so."""
import ast
import inspect
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest

import spacy_agreement as sa
from spacy_agreement import _core

ROOT = Path(__file__).resolve().parents[1]  # the checkout (or a copy of it without the package)
SUPPORTED = ["3.10", "3.11", "3.12", "3.13"]  # CPython versions: classifiers, cibuildwheel, requires-python
STUB = Path(_core.__file__).with_name("_core.pyi")  # the installed stub beside the installed extension
# Cython adds these to every module; they are not part of the kernels' interface
CYTHON_ARTIFACTS = {"__test__"}


def _public_runtime_names():
    return {name for name, value in vars(_core).items()
            if not name.startswith("_") and not inspect.ismodule(value)}


def _stub_defs():
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    functions, names = {}, set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            functions[node.name] = node
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return functions, {n for n in names if not n.startswith("_")}


def _stub_parameters(node: ast.FunctionDef):
    args = node.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + [ast.literal_eval(d) for d in args.defaults]
    return [(a.arg, d) for a, d in zip(positional, defaults)]


def test_stub_covers_every_public_name_of_the_core():
    assert STUB.is_file(), f"no stub shipped beside {_core.__file__}"
    _, stub_names = _stub_defs()
    runtime = _public_runtime_names()
    assert runtime - stub_names == set(), "public names of _core without a stub in _core.pyi"
    assert stub_names - runtime == set(), "names in _core.pyi that _core does not have"


def test_stub_signatures_match_the_core():
    """Parameter names, order and defaults of every stubbed function equal the extension's
    (Cython 3 functions carry their signature; no mypy needed)."""
    functions, _ = _stub_defs()
    assert functions
    for name, node in functions.items():
        runtime = inspect.signature(getattr(_core, name))
        expected = [(p.name, None if p.default is inspect.Parameter.empty else p.default)
                    for p in runtime.parameters.values()]
        assert _stub_parameters(node) == expected, name
        assert not node.args.vararg and not node.args.kwarg and not node.args.kwonlyargs, name


@pytest.mark.slow
def test_mypy_stubtest_accepts_the_stub(tmp_path):
    """``mypy.stubtest`` on the stub (the package's own modules are replaced by an empty stub
    so that only ``_core`` is checked, not the typing of the rest of the package)."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install 'spacy-agreement[test]'): "
                                       "stubtest NOT run; the signature check above still ran")
    package = tmp_path / "stubs" / "spacy_agreement"
    package.mkdir(parents=True)
    (package / "__init__.pyi").write_text("")
    shutil.copy(STUB, package / "_core.pyi")
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\ncache_dir = {tmp_path / 'cache'}\n")
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text("".join(f"spacy_agreement._core.{name}\n" for name in sorted(CYTHON_ARTIFACTS)))
    env = dict(os.environ, MYPYPATH=str(tmp_path / "stubs"))
    done = subprocess.run([sys.executable, "-m", "mypy.stubtest", "spacy_agreement._core",
                           "--mypy-config-file", str(config), "--allowlist", str(allowlist)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_version_is_the_distributions():
    assert sa.__version__ == metadata.version("spacy-agreement")


def test_license_is_mit():
    dist = metadata.distribution("spacy-agreement")
    files = [f for f in (dist.files or []) if Path(str(f)).name.startswith("LICENSE")]
    texts = [f.read_text() for f in files]
    repo_license = Path(__file__).resolve().parents[1] / "LICENSE"
    if repo_license.is_file():
        texts.append(repo_license.read_text(encoding="utf-8"))
    assert texts, "no LICENSE file in the distribution or the checkout"
    assert all(t.startswith("MIT License") for t in texts)


def test_ci_runs_the_readmes_test_command():
    """.ci/run runs exactly the test command of the README's set-up section (the whole suite)."""
    root = Path(__file__).resolve().parents[1]
    readme, ci = root / "README.md", root / ".ci" / "run"
    if not (readme.is_file() and ci.is_file()):
        pytest.skip("not run from a checkout: README.md and .ci/run not found")
    commands = [line for line in readme.read_text(encoding="utf-8").splitlines() if line.startswith("bash .ci/")]
    assert commands == ["bash .ci/wheel --runslow"], "one run of the whole suite, against the built wheel"
    assert ci.read_text(encoding="utf-8").rstrip("\n").splitlines()[-1] == commands[0]
    # .ci/wheel: installed with no compiler reachable, the demo run, the sources named for the tests needing them
    wheel = (root / ".ci" / "wheel").read_text(encoding="utf-8")
    for step in ("auditwheel repair", "CC=/nonexistent/cc", "spacy-agreement demo",
                 'export SPACY_AGREEMENT_SOURCES="$root"', 'pytest "$@"'):
        assert step in wheel, step


# --- one version, said the same way by every way in -------------------------------------------

def _script(name: str):
    """The console script ``name`` of the environment under test (beside its python first)."""
    paths = [sysconfig.get_path("scripts"), str(Path(sys.executable).parent), os.environ.get("PATH", "")]
    return shutil.which(name, path=os.pathsep.join(paths))


def _released_version_in_changelog() -> str:
    changelog = ROOT / "CHANGELOG.md"
    if not changelog.is_file():
        pytest.skip("not run from a checkout: CHANGELOG.md not found")
    headings = re.findall(r"^## (\S+)", changelog.read_text(encoding="utf-8"), flags=re.MULTILINE)
    released = [h for h in headings if h.lower() != "unreleased"]
    assert released, "CHANGELOG.md names no released version"
    return released[0]


@pytest.mark.parametrize("command", [
    ["spacy-agreement", "-V"],
    ["spacy-agreement", "--version"],
    ["-m", "spacy_agreement", "--version"],
    ["-m", "spacy_agreement", "-V"],
    ["-m", "spacy_agreement.cli", "--version"],
], ids=" ".join)
def test_every_way_in_prints_the_one_version(command):
    if command[0] == "-m":
        command = [sys.executable, *command]
    else:
        script = _script(command[0])
        if script is None:
            pytest.skip(f"console script {command[0]} not found beside {sys.executable}")
        command = [script, *command[1:]]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"spacy-agreement {sa.__version__}\n"


def test_python_m_runs_the_cli():
    done = subprocess.run([sys.executable, "-m", "spacy_agreement", "--help"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "alpha" in done.stdout and "evaluate" in done.stdout


def test_the_version_is_the_changelogs_latest_release():
    assert sa.__version__ == metadata.version("spacy-agreement") == _released_version_in_changelog()


def test_the_version_is_written_once():
    """Only spacy_agreement/_version.py assigns __version__; pyproject.toml reads it from there."""
    package = Path(sa.__file__).parent
    writers = [p.relative_to(package).as_posix() for p in package.rglob("*.py")
               if re.search(r"^__version__\s*=", p.read_text(encoding="utf-8"), flags=re.MULTILINE)]
    assert writers == ["_version.py"]
    pyproject = _pyproject()
    assert "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "spacy_agreement._version.__version__"}


# --- the installed distribution's metadata (needs a reinstall after pyproject.toml changes) ----

def test_installed_metadata_license_is_an_spdx_expression():
    meta = metadata.metadata("spacy-agreement")
    assert meta.get("License-Expression") == "MIT"
    assert meta.get("License") is None, "the whole license text as License: use license = 'MIT' (SPDX)"
    assert "LICENSE" in (meta.get_all("License-File") or [])


def test_installed_metadata_python_versions():
    meta = metadata.metadata("spacy-agreement")
    assert meta.get("Requires-Python") == ">=3.10"
    classifiers = meta.get_all("Classifier") or []
    said = sorted((c.rsplit(" :: ", 1)[1] for c in classifiers
                   if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)), key=lambda v: int(v[2:]))
    assert said == SUPPORTED
    for classifier in ("Operating System :: OS Independent", "Intended Audience :: Science/Research",
                       "Programming Language :: Cython", "Development Status :: 4 - Beta"):
        assert classifier in classifiers
    assert not any(c.startswith("License ::") for c in classifiers), "the SPDX expression says the license"


def test_installed_metadata_project_urls():
    meta = metadata.metadata("spacy-agreement")
    urls = dict(entry.split(", ", 1) for entry in meta.get_all("Project-URL") or [])
    assert set(urls) >= {"Homepage", "Documentation", "Changelog", "Issues"}
    assert all(url.startswith("https://") for url in urls.values())


def test_installed_metadata_docs_extra():
    meta = metadata.metadata("spacy-agreement")
    assert {"docs", "test"} <= set(meta.get_all("Provides-Extra") or [])
    docs = [r for r in meta.get_all("Requires-Dist") or [] if 'extra == "docs"' in r]
    assert {re.match(r"[\w-]+", r).group() for r in docs} == {"mkdocs", "mkdocs-material", "mkdocstrings"}


# --- pyproject.toml: wheels for the versions said, and the docs extra -------------------------

def _pyproject():
    try:
        import tomllib
    except ImportError:  # Python 3.10: tomli, the same parser (the test extra has it there)
        import tomli as tomllib
    path = ROOT / "pyproject.toml"
    if not path.is_file():
        pytest.skip("not run from a checkout: pyproject.toml not found")
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_pyproject_builds_wheels_for_the_versions_it_supports():
    pyproject = _pyproject()
    project, wheels = pyproject["project"], pyproject["tool"]["cibuildwheel"]
    assert project["requires-python"] == f">={SUPPORTED[0]}"
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert wheels["build"].split() == [f"cp{v.replace('.', '')}-*" for v in SUPPORTED]
    for skipped in ("*-musllinux_*", "pp*", "*-win32", "*-manylinux_i686"):
        assert skipped in wheels["skip"].split()
    assert wheels["test-extras"] == ["test"] and "pytest" in wheels["test-command"]
    assert wheels["manylinux-x86_64-image"] == "manylinux_2_28"
    assert wheels["macos"]["environment"]["SPACY_AGREEMENT_NO_OPENMP"] == "1"
    setuptools = [r for r in pyproject["build-system"]["requires"] if r.startswith("setuptools")]
    assert setuptools == ["setuptools>=77"], "an SPDX license expression needs setuptools>=77 to build"


def test_pyproject_test_extra_has_every_reference_the_tests_compare_with():
    """The independent references (scikit-learn's and NLTK's κ, statsmodels' Fleiss κ and Holm,
    zss and apted's tree edit distances) come with the test extra, so that no comparison
    disappears where one is missing."""
    test = _pyproject()["project"]["optional-dependencies"]["test"]
    names = {re.match(r"[\w-]+", r).group().lower() for r in test}
    assert {"scikit-learn", "statsmodels", "zss", "apted", "hypothesis", "pytest", "html5lib"} <= names


def test_pyproject_has_a_docs_extra():
    docs = _pyproject()["project"]["optional-dependencies"]["docs"]
    assert {re.match(r"[\w-]+", r).group() for r in docs} == {"mkdocs", "mkdocs-material", "mkdocstrings"}


# --- a source build without a C compiler --------------------------------------------------------

@pytest.mark.slow
def test_a_source_build_without_a_compiler_says_so_in_one_line(tmp_path):
    """``pip wheel`` of the sources with CC pointing nowhere: the build's last line says that a C
    compiler is needed and that wheels exist (not a compiler traceback)."""
    sources = Path(os.environ.get("SPACY_AGREEMENT_SOURCES", ROOT))  # .ci/wheel names them (the wheel's run)
    if not ((sources / "setup.py").is_file() and (sources / "extension").is_dir()
            and (sources / "spacy_agreement").is_dir()):
        pytest.skip("not run from a checkout: setup.py and the sources not found (SPACY_AGREEMENT_SOURCES)")
    source = tmp_path / "src"
    source.mkdir()
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE", "CHANGELOG.md"):
        shutil.copy2(sources / name, source / name)
    ignore = shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "*.html")
    shutil.copytree(sources / "extension", source / "extension", ignore=ignore)  # with _core.c: no re-cythonizing
    shutil.copytree(sources / "spacy_agreement", source / "spacy_agreement", ignore=ignore)
    env = dict(os.environ, CC="/nonexistent/cc", PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path / "out"),
                           str(source)], capture_output=True, text=True, env=env, timeout=900)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    lines = [line.strip() for line in output.splitlines()]
    said = [i for i, line in enumerate(lines) if line.startswith("spacy-agreement: building the Cython core")]
    assert said, output[-3000:]
    message = lines[said[-1]]
    assert "needs a C compiler ('/nonexistent/cc' not found)" in message
    assert "wheels" in message and "CPython 3.10-3.13" in message
    assert lines[said[-1] + 1] == "[end of output]", "the message is the build's last line"
    assert "Traceback" not in output
