"""Packaging: the stub of the Cython core matches the built extension, one version, a LICENSE."""
import ast
import inspect
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import spacy_agreement as sa
from spacy_agreement import _core

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
    commands = [line for line in readme.read_text(encoding="utf-8").splitlines()
                if line.startswith("pip install -e '.[test]'")]
    assert len(commands) == 1 and "--runslow" in commands[0]
    assert ci.read_text(encoding="utf-8").rstrip("\n").splitlines()[-1] == commands[0]
