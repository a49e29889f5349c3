"""The package's layers and its import graph, read from the source of every module.

* Importing the package is quick: nltk, spaCy, scipy, matplotlib, dask and typer are imported
  only where they are used (issue: `import spacy_agreement` took 1.8 s, nearly all nltk).
* No import cycle (issue "one registry, no import cycle"): the graph counts every import of
  every module, at the top, inside functions and methods, relative or absolute; only imports
  under ``if TYPE_CHECKING:`` are left out, for they never run. The package ``__init__``
  modules are modules like any other here: a module that imports its own package (``from .
  import __version__``) is in a cycle with it.
* The layers: adapters only convert (they import no metric, report, command, integration or
  experiment); the data model (trees, vocab, corpus, errors, registry, limits) imports no
  adapter and nothing above it. Evaluation may import adapters (files are read there and
  handed to the metrics as trees), never the reverse.

The graph and the cycle search live here, not in the package (:func:`import_graph`,
:func:`import_cycles`), and a test shows that they find a cycle made on purpose.
"""
import ast
import importlib.machinery
import pathlib
import subprocess
import sys
from typing import Dict, List, Optional, Tuple

import spacy_agreement

HEAVY = ("nltk", "spacy", "scipy", "matplotlib", "dask", "distributed", "typer", "thinc", "tqdm")
PACKAGE = pathlib.Path(spacy_agreement.__file__).resolve().parent

#: The data model: it imports none of the layers above it.
DATA_MODEL = ("trees", "forest", "vocab", "corpus", "errors", "registry", "limits")
ABOVE_DATA_MODEL = ("adapters", "agreement", "evaluation", "report", "cli", "integrations", "experiments")
#: What the adapters must not import: they only convert.
ABOVE_ADAPTERS = ("agreement", "evaluation", "report", "cli", "integrations", "experiments")

Graph = Dict[str, Dict[str, int]]  # module -> {imported module of the package: line of the first such import}


# --------------------------------------------------------------------------- the graph


def package_modules(root: pathlib.Path) -> Dict[str, Tuple[Optional[pathlib.Path], bool]]:
    """``{dotted name: (source file or None, is a package)}`` of every module under ``root`` (a
    package folder): ``.py`` sources, and compiled extensions (or their ``.pyi`` stubs) as
    modules that import nothing of the package."""
    modules: Dict[str, Tuple[Optional[pathlib.Path], bool]] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    compiled = tuple(importlib.machinery.EXTENSION_SUFFIXES) + (".pyi",)
    for path in sorted(root.rglob("*")):
        for suffix in compiled:
            if path.name.endswith(suffix) and path.is_file():
                parts = path.relative_to(root.parent).parts
                name = ".".join((*parts[:-1], path.name[: -len(suffix)].split(".")[0]))
                modules.setdefault(name, (None, False))
    return modules


def _type_checking_only(node: ast.AST, parents: Dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node`` sits in the body of an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.If) and child in parent.body:
            test = parent.test
            if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                    isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
                return True
        child, parent = parent, parents.get(parent)
    return False


def _known(name: str, modules) -> Optional[str]:
    """The module ``name`` or, for a name inside a module (``pkg.mod.attr``), that module; None
    for a name outside the package."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imported_modules(node: ast.AST, module: str, is_package: bool, modules) -> List[str]:
    """The modules of the package that one ``import`` or ``from ... import`` statement imports.

    ``import a.b`` imports ``a.b``; ``from .mod import name`` imports ``mod`` and, where
    ``name`` is a submodule of ``mod``, that submodule too; ``from . import name`` (no module
    after the dots) imports the submodule ``name``, or the package itself where ``name`` is
    an attribute of it. Relative names are resolved against the module's package."""
    if isinstance(node, ast.Import):
        found = [_known(alias.name, modules) for alias in node.names]
        return [m for m in found if m]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        package = module if is_package else module.rpartition(".")[0]
        parts = package.split(".")
        base = ".".join(parts[: len(parts) - (node.level - 1)])
        target = f"{base}.{node.module}" if node.module else base
    else:
        target = node.module or ""
    out = []
    if node.module and _known(target, modules):
        out.append(_known(target, modules))
    for alias in node.names:
        submodule = f"{target}.{alias.name}"
        if submodule in modules:
            out.append(submodule)
        elif not node.module and _known(target, modules):
            out.append(_known(target, modules))
    return [m for m in out if m]


def import_graph(root: pathlib.Path) -> Graph:
    """The import graph of the package in folder ``root``, from the syntax tree of every
    module: every import statement anywhere in a module (functions, methods, ``try``, class
    bodies) except under ``if TYPE_CHECKING:``."""
    modules = package_modules(root)
    graph: Graph = {name: {} for name in modules}
    for name, (path, is_package) in modules.items():
        if path is None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or _type_checking_only(node, parents):
                continue
            for target in imported_modules(node, name, is_package, modules):
                if target != name:
                    graph[name].setdefault(target, node.lineno)
    return graph


def import_cycles(graph: Graph) -> List[List[str]]:
    """One cycle ``[a, b, ..., a]`` through every group of modules that import each other
    (each strongly connected component of more than one module), sorted; empty for none."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack = set()
    components: List[List[str]] = []

    for start in sorted(graph):  # Tarjan's algorithm, iteratively (no recursion limit)
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in graph:
                    continue
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return sorted(_a_cycle(graph, component) for component in components)


def _a_cycle(graph: Graph, component: List[str]) -> List[str]:
    """A shortest cycle through the first module of a strongly connected component."""
    members, first = set(component), component[0]
    previous: Dict[str, str] = {}
    frontier = [first]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph[node]):
                if succ not in members:
                    continue
                if succ == first:
                    path = [node]
                    while path[-1] != first:
                        path.append(previous[path[-1]])
                    return [first, *reversed(path[:-1]), first]
                if succ not in previous:
                    previous[succ] = node
                    following.append(succ)
        frontier = following
    raise AssertionError(f"no cycle through {first}")  # a strongly connected component has one


def describe(graph: Graph, cycle: List[str]) -> str:
    """``a -> b (a line 3) -> a (b line 7)``."""
    steps = [cycle[0]] + [f"{b} ({a} line {graph[a][b]})" for a, b in zip(cycle, cycle[1:])]
    return " -> ".join(steps)


def _layer(module: str) -> str:
    """The first name under the package: ``adapters`` for ``spacy_agreement.adapters.files``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


# --------------------------------------------------------------------------- the tests


def test_import_loads_no_heavy_dependency():
    code = ("import sys, spacy_agreement; "
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "", f"imported at package import: {loaded}"


def test_the_package_has_no_import_cycle():
    graph = import_graph(PACKAGE)
    assert "spacy_agreement.adapters.files" in graph and "spacy_agreement._core" in graph
    assert "spacy_agreement.adapters.files" in graph["spacy_agreement.adapters.docbin"]  # imports in the graph
    cycles = import_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(describe(graph, c) for c in cycles)


def _write(folder: pathlib.Path, files: Dict[str, str]) -> pathlib.Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def test_the_cycle_check_finds_a_cycle_made_on_purpose(tmp_path):
    """Two modules that import each other only inside functions are a cycle; a third that
    imports one of them under TYPE_CHECKING only is not in it; a subpackage's ``from ..x
    import y`` resolves to the submodule ``x.y``."""
    root = _write(tmp_path, {
        "toy/__init__.py": "",
        "toy/one.py": "def f():\n    from . import two\n    return two.g\n",
        "toy/two.py": "class G:\n    def g(self):\n        from .one import f\n        return f\n",
        "toy/three.py": ("from typing import TYPE_CHECKING\nimport toy.one\nif TYPE_CHECKING:\n"
                         "    from .sub.four import x\n"),
        "toy/sub/__init__.py": "",
        "toy/sub/four.py": "x = 1\ndef h():\n    from ..one import f\n    from .. import three\n",
    }) / "toy"
    graph = import_graph(root)
    assert graph["toy.one"] == {"toy.two": 2}
    assert graph["toy.two"] == {"toy.one": 3}
    assert graph["toy.three"] == {"toy.one": 2}  # not toy.sub.four: TYPE_CHECKING only
    assert graph["toy.sub.four"] == {"toy.one": 3, "toy.three": 4}
    assert import_cycles(graph) == [["toy.one", "toy.two", "toy.one"]]
    assert describe(graph, ["toy.one", "toy.two", "toy.one"]) == "toy.one -> toy.two (toy.one line 2) -> toy.one (toy.two line 3)"

    # closing a longer loop through a subpackage and the package __init__ is caught too
    (root / "three.py").write_text("def k():\n    from .sub import four\n", encoding="utf-8")
    (root / "__init__.py").write_text("from .sub.four import x\n", encoding="utf-8")
    (root / "sub" / "four.py").write_text("x = 1\ndef h():\n    from toy import x as y\n", encoding="utf-8")
    cycles = import_cycles(import_graph(root))
    assert cycles == [["toy", "toy.sub.four", "toy"], ["toy.one", "toy.two", "toy.one"]]


def test_adapters_only_convert():
    """The adapters import no metric, report, command, integration or experiment (every import
    counted, in functions too): scoring NLTK parses lives in integrations, and what evaluation
    reads from files is read by adapters and handed over."""
    graph = import_graph(PACKAGE)
    wrong = [f"{module} imports {target} (line {line})" for module, targets in sorted(graph.items())
             if _layer(module) == "adapters" for target, line in sorted(targets.items())
             if _layer(target) in ABOVE_ADAPTERS]
    assert not wrong, "\n".join(wrong)


def test_the_data_model_imports_no_layer_above_it():
    graph = import_graph(PACKAGE)
    model = [f"spacy_agreement.{name}" for name in DATA_MODEL]
    assert all(m in graph for m in model)
    wrong = [f"{module} imports {target} (line {line})" for module in model
             for target, line in sorted(graph[module].items()) if _layer(target) in ABOVE_DATA_MODEL]
    assert not wrong, "\n".join(wrong)


def test_corpus_is_the_data_model_only():
    """Corpus is data: its module reads no file and imports no adapter (the loaders and the
    reader registry live in adapters/files.py; 0.1's ``corpus.load_*`` would need a cycle and
    are gone), and the package-level names still resolve."""
    import spacy_agreement as sa
    import spacy_agreement.adapters.files as files
    import spacy_agreement.corpus as corpus

    tree = ast.parse(pathlib.Path(corpus.__file__).read_text(encoding="utf-8"))
    assert not any(isinstance(n, ast.Name) and n.id == "open" for n in ast.walk(tree))
    assert not any(_layer(t) == "adapters" for t in import_graph(PACKAGE)["spacy_agreement.corpus"])
    assert sa.load_parallel_files is files.load_parallel_files
    assert sa.load_annotator_dirs is files.load_annotator_dirs
    assert not hasattr(corpus, "load_annotator_dirs")


def test_evaluation_reads_its_files_through_adapters():
    """Judgments, discourse documents and EVALB's bracket lines are read in adapters/ (the
    CoNLL and bracketed trees through the reader registry); the evaluation modules open no
    file themselves, and their loaders are the adapters' readers plus the checks of items."""
    from spacy_agreement.adapters import evalb_files
    from spacy_agreement.evaluation.constituency import evalb
    from spacy_agreement.evaluation.discourse import arrows as discourse
    from spacy_agreement.evaluation.judgments import analysis as judgments

    for module in (discourse, evalb, judgments):
        tree = ast.parse(pathlib.Path(module.__file__).read_text(encoding="utf-8"))
        assert not any(isinstance(n, ast.Name) and n.id == "open" for n in ast.walk(tree)), module.__name__
    graph = import_graph(PACKAGE)
    assert "spacy_agreement.adapters.judgments_files" in graph["spacy_agreement.evaluation.judgments.analysis"]
    assert "spacy_agreement.adapters.discourse_files" in graph["spacy_agreement.evaluation.discourse.arrows"]
    for module in ("judgments_files", "discourse_files"):
        assert "spacy_agreement.adapters.files" in graph[f"spacy_agreement.adapters.{module}"]  # read_trees
    assert evalb.file_lines is evalb_files.file_lines


def test_no_command_module_imports_another():
    """A CLI command module (``cli/NAME.py`` registering ``spacy-agreement NAME``) imports no other
    command module (issue 40): what commands share lives in the CLI's shared modules, the private
    ones named with a leading underscore (``cli/_annotations.py``), or in the library."""
    graph = import_graph(PACKAGE)
    cli = PACKAGE / "cli"
    commands = {f"spacy_agreement.cli.{path.stem}" for path in cli.glob("*.py")
                if any(line.startswith('@command("') for line in path.read_text(encoding="utf-8").splitlines())}
    assert "spacy_agreement.cli.alpha" in commands and "spacy_agreement.cli.report" in commands
    wrong = [f"{module} imports {target} (line {line})" for module in sorted(commands)
             for target, line in sorted(graph[module].items()) if target in commands and target != module]
    assert not wrong, "\n".join(wrong)


FAMILIES = ("dependency", "conll18", "constituency", "discourse", "judgments", "comparison")
#: what every family shares, at the top of ``evaluation/``
EVALUATION_SHARED = {"__init__.py", "command_results.py", "settings.py", "unit_counts.py"}
#: modules over the limit while they are split (issue 40); must only shrink
TOO_LONG_FOR_NOW: set = set()


def test_evaluation_is_one_sub_package_per_family():
    """``evaluation/`` holds the families as sub-packages (issue 40) and only the modules they
    share; each family names its public objects in ``__all__`` and every one resolves."""
    import importlib

    evaluation = PACKAGE / "evaluation"
    assert {p.name for p in evaluation.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(FAMILIES)
    assert {p.name for p in evaluation.glob("*.py")} == EVALUATION_SHARED
    for family in FAMILIES:
        package = importlib.import_module(f"spacy_agreement.evaluation.{family}")
        assert package.__all__, family
        assert all(getattr(package, name) is not None for name in package.__all__), family


def test_no_module_is_over_500_lines():
    """Small modules with names that say what they are (DEVELOPERS.md, issue 40)."""
    lengths = {str(p.relative_to(PACKAGE)): len(p.read_text(encoding="utf-8").splitlines())
               for p in PACKAGE.rglob("*.py")}
    long = {path: n for path, n in lengths.items() if n > 500}
    assert set(long) <= TOO_LONG_FOR_NOW, long
    assert TOO_LONG_FOR_NOW <= set(lengths), "a module of the allowance is gone: take it off the list"
    assert not TOO_LONG_FOR_NOW  # issue 40: every module split


def test_command_modules_are_short_and_shared_cli_modules_private():
    """A CLI command module is option parsing and formatting over the library's function (under
    ~250 lines); the modules the commands share are the CLI's private ones (a leading underscore)."""
    cli = PACKAGE / "cli"
    for path in cli.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        is_command = any(line.startswith('@command("') for line in text.splitlines())
        if is_command:
            assert len(text.splitlines()) <= 250, path.name
        else:
            assert path.name.startswith("_"), f"cli/{path.name} is shared by the commands: name it cli/_{path.name}"
