"""The start of a command: ``spacy-agreement evalb`` loads its own command and what it needs, not
the other commands, spaCy, scipy or the α kernel (issue 42: the whole command is timed against
the compiled EVALB); the registries still hold every built-in entry, in the same order, whichever
module was imported first, and a signature of any computation still reads. Each check runs in a
fresh interpreter (imports are per process)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BRACKETS = ROOT / "examples" / "data"


def _python(code: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=300)


#: after the command has run: the modules it imported, as JSON on stderr's last line
RUN_AND_LIST = """
import atexit, json, sys
atexit.register(lambda: sys.stderr.write("\\n" + json.dumps(sorted(sys.modules)) + "\\n"))
sys.argv = ["spacy-agreement", *sys.argv[1:]]
from spacy_agreement.cli import main
main()
"""


def _modules_of(*args: str) -> set:
    done = _python(RUN_AND_LIST, *args)
    assert done.returncode == 0, done.stderr[-3000:]
    return set(json.loads(done.stderr.strip().splitlines()[-1])), done.stdout


def _bracket_file(tmp_path: Path) -> Path:
    path = tmp_path / "one.gld"
    path.write_text("(TOP (S (NP (DT The) (NN cat)) (VP (VBD sat))))\n(TOP (S (NP (PRP It)) (VP (VBD ran))))\n")
    return path


@pytest.mark.parametrize("command", ["evalb", "leaf-ancestor"])
def test_a_bracket_command_loads_itself_alone(tmp_path, command):
    path = _bracket_file(tmp_path)
    modules, out = _modules_of(command, str(path), str(path))
    assert "100.00" in out or "1.0" in out  # it ran and scored
    own = "spacy_agreement.cli." + command.replace("-", "_")
    assert own in modules
    others = {"spacy_agreement.cli." + name for name in ("alpha", "evaluate", "compare", "judge", "report", "demo")}
    assert not modules & others, modules & others
    heavy = ("spacy", "scipy", "nltk", "spacy_agreement.agreement.alpha")
    if command == "evalb":  # EVALB's lines: not even the tree readers
        heavy += ("numpy", "conllu", "spacy_agreement.adapters.files", "spacy_agreement.trees", "spacy_agreement._core")
    for name in heavy:
        assert name not in modules, name


CONLLU = ("# sent_id = a\n1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_\n"
          "3\tsat\tsit\tVERB\tVBD\tTense=Past\t0\troot\t_\tSpaceAfter=No\n4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n")


@pytest.mark.parametrize("same_tokens", [True, False])
def test_evaluate_loads_no_masked_arrays_xml_or_statistics(tmp_path, same_tokens):
    """``evaluate`` of CoNLL-U files (issue 42's rows): numpy's masked arrays (which a plain
    ``np.unique`` imports), the XML parser (the Perseus reader's; sniffing a file needs none),
    the α family's distances (the per-sentence path's) and the heavy libraries stay unloaded."""
    gold, system = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    gold.write_text(CONLLU)
    system.write_text(CONLLU.replace("2\tdet", "3\tdet") if same_tokens else
                      CONLLU.replace("3\tsat\tsit", "3\ts\tsit").replace("4\t.\t.", "4\tat.\t."))
    modules, out = _modules_of("evaluate", str(gold), str(system))
    assert "LAS" in out or "Tokens" in out
    for name in ("numpy.ma", "xml.etree", "spacy", "scipy", "nltk", "spacy_agreement.agreement.alpha",
                 "spacy_agreement.agreement.deltas"):
        assert name not in modules, name


def test_help_and_a_mistyped_command_still_list_every_command():
    from spacy_agreement.cli import COMMAND_MODULES

    done = _python(RUN_AND_LIST, "--help")
    assert done.returncode == 0, done.stderr
    assert all(name in done.stdout for name in COMMAND_MODULES)
    typo = _python(RUN_AND_LIST, "evalbb")
    assert typo.returncode == 2 and "no such command 'evalbb'" in typo.stderr


def test_a_commands_help_and_the_version():
    done = _python(RUN_AND_LIST, "evalb", "--help")
    assert done.returncode == 0 and "--params" in done.stdout
    version = _python(RUN_AND_LIST, "--version")
    assert version.returncode == 0 and version.stdout.startswith("spacy-agreement ")


@pytest.mark.parametrize("first", ["spacy_agreement.adapters.files", "spacy_agreement.adapters.docbin",
                                   "spacy_agreement.adapters.perseus_xml", "spacy_agreement"])
def test_every_built_in_reader_whichever_module_comes_first(first):
    done = _python(f"import {first}\nfrom spacy_agreement.adapters.files import READERS\nprint(list(READERS))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['conll',", "'bracket',", "'spacy',", "'perseus']"]


def test_a_reader_registered_before_the_built_in_ones_load_comes_after_them():
    code = """
from spacy_agreement.adapters.files import READERS, register_reader
register_reader("mine", (".mine",), lambda path: False, lambda path, **_: [])
print(list(READERS))
"""
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['conll', 'bracket', 'spacy', 'perseus', 'mine']"


def test_document_readers_load_on_first_call(tmp_path):
    code = """
import sys
from spacy_agreement.adapters.documents import DOCUMENT_READERS, read_document
assert "spacy_agreement.adapters.judgments_files" not in sys.modules
lines = read_document("evalb-lines", sys.argv[1])
print(len(lines), "spacy_agreement.adapters.evalb_files" in sys.modules,
      "spacy_agreement.adapters.judgments_files" in sys.modules)
"""
    done = _python(code, str(_bracket_file(tmp_path)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "True", "False"]


def test_the_package_names_load_on_first_use():
    code = """
import sys, spacy_agreement
assert "spacy_agreement.agreement.alpha" not in sys.modules
from spacy_agreement import alpha, evalb, Corpus
import spacy_agreement.agreement.alpha_run as run
assert alpha is run.alpha and "alpha" in dir(spacy_agreement)
print("ok")
"""
    done = _python(code)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_a_signature_of_any_computation_reads_in_a_fresh_process():
    code = """
import sys
from spacy_agreement.signature import computations, settings_class
assert "spacy_agreement.experiments.synthetic" not in sys.modules
print(settings_class("synthetic|x").computation, [name for name, _ in computations()][:3])
"""
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["synthetic", "['alpha',", "'layers',", "'evaluate']"]


@pytest.mark.parametrize("package", ["spacy_agreement", "spacy_agreement.adapters"])
def test_the_lazy_names_and_the_static_imports_are_the_same(package):
    """The names loaded on first use (``_EXPORTS``) are imported under ``TYPE_CHECKING`` too, from
    the same modules: what type checkers and the API reference (griffe) read."""
    import ast
    import importlib

    module = importlib.import_module(package)
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    static = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imported in node.body:
                for alias in imported.names:
                    static[alias.name] = "." * imported.level + imported.module
    assert static == module._EXPORTS
