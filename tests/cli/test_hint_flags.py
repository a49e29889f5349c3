"""Every flag the CLI's output names is a flag of the command that prints it (issue 38): a
hint such as "... and 3 more (--worst shows more)" or "(--partial attach compares them)" that
names a flag the command lacks sends the user to nothing.

The strings are read from the source (string constants and f-string parts, not docstrings,
not the --help texts of typer options nor the ``doc=`` of settings): each module whose strings reach a command's output
is mapped to the commands that print them (:data:`PRINTED_BY`; a command's own module
``cli/NAME.py`` is its own), and every ``--flag`` in them must be one of each such command's
options, unless a command name comes before it ("one system: evaluate --ci"). A module with
such strings that is not mapped fails the test, so that a new hint is checked too. A list the
CLI shortens with :func:`~spacy_agreement.report.text.listed`'s default hint names ``--worst``:
every command printing a module that calls it so has ``--worst``."""
import ast
import functools
import re
from pathlib import Path

import pytest
import typer

import spacy_agreement
from spacy_agreement.cli import app
from spacy_agreement.cli._handling import FLAGS
from spacy_agreement.report.text import MORE_HINT

PACKAGE = Path(spacy_agreement.__file__).parent
COMMANDS = {name: cmd for name, cmd in typer.main.get_command(app).commands.items()}

#: Modules whose strings reach the output of commands other than their own (notes, errors,
#: warnings, the text and HTML renderers), with those commands.
PRINTED_BY = {
    "report/text.py": ("alpha", "report"),
    "report/html.py": ("report",),
    "report/layers_text.py": ("layers",),
    "report/layers_html.py": ("report",),
    "report/breakdown_html.py": ("report",),
    "report/comparison_text.py": ("compare",),
    "report/evaluate_text.py": ("evaluate",),
    "report/command_text.py": ("judge",),  # every command's text; its one flag is judge's --key
    "report/leaf_ancestor_text.py": ("leaf-ancestor",),
    "evaluation/constituency/leaf_ancestor_run.py": ("leaf-ancestor",),  # keep_worst= is --worst
    "agreement/layer_values.py": ("layers", "report"),
    "adapters/projects.py": ("alpha", "report", "layers"),
    "adapters/flat_folder.py": ("alpha", "report", "layers"),
    "adapters/annotations.py": ("alpha", "report", "layers"),
    "evaluation/discourse/report.py": ("discourse",),
    "evaluation/conll18/refusals.py": ("evaluate",),
    "evaluation/dependency/metrics.py": ("evaluate", "compare"),
    "evaluation/dependency/label_sets.py": ("evaluate", "compare"),
    "evaluation/judgments/judging_items.py": ("judge",),
    "report/judging_page.py": ("judge",),
    "evaluation/dependency/evaluate_run.py": ("evaluate",),
    "evaluation/conll18/files.py": ("evaluate", "compare"),
    "evaluation/dependency/breakdown_tables.py": ("evaluate", "compare"),
    "evaluation/comparison/compare_run.py": ("compare",),
    "evaluation/judgments/judgments_run.py": ("judgments",),
}
#: Modules of the CLI shared by every command, whose flags are each command's own or said of a parameter.
SHARED = {"cli/_options.py", "cli/_handling.py", "cli/_output.py", "cli/_registry.py", "cli/_settings_options.py",
          "cli/_warning_lines.py", "cli/_intervals.py", "cli/_breakdown_options.py", "cli/__init__.py",
          "cli/__main__.py", "evaluation/constituency/geig.py", "limits.py",
          "report/flags.py"}  # the table of every command's flags (in_flags), moved from cli/_handling.py
#: Flags a command prints but lacks, known and left to the module's owners: (module, command) -> flags.
#: compare runs parser_metrics.evaluate, whose RootCaseWarning says "--fold-root-case" (evaluate's flag).
KNOWN_GAPS: dict = {}
FLAG = re.compile(r"(?<![\w-])(?<!(?:alpha|ayers|eport|luate|mpare|evalb|estor|ments|ourse|hetic| demo|judge) )"
                  r"--[a-z][a-z0-9-]*")


def flags_of(command):
    return {o for p in command.params for o in (*p.opts, *p.secondary_opts) if o.startswith("--")}


def _help_and_docstrings(tree):
    """Ids of the nodes that are docstrings or inside typer.Option/Argument calls and help= values."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "Option", "Argument"):
            skip.update(id(sub) for sub in ast.walk(node))
        if isinstance(node, ast.keyword) and node.arg in ("help", "doc"):  # --help, a setting's documentation
            skip.update(id(sub) for sub in ast.walk(node.value))
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id.endswith("_HELP")
                                                for t in node.targets):
            skip.update(id(sub) for sub in ast.walk(node.value))
    return skip


@functools.lru_cache(maxsize=None)
def printed_flags():
    """{module: (flags its output strings name, whether it calls listed() with the default hint)}."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _help_and_docstrings(tree)
        flags = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                flags.update(FLAG.findall(node.value))
        more = any(isinstance(node, ast.Call) and getattr(node.func, "id", "") == "listed"
                   and not any(k.arg == "hint" for k in node.keywords) for node in ast.walk(tree))
        if flags or more:
            found[module] = (flags, more)
    return found


def commands_of(module):
    if module in PRINTED_BY:
        return PRINTED_BY[module]
    if module.startswith("cli/"):
        name = module[4:-3].replace("_", "-")
        if name in COMMANDS:
            return (name,)
    return None


def test_the_hint_of_a_shortened_list_names_worst():
    assert "--worst" in MORE_HINT


@pytest.mark.parametrize("module", sorted(printed_flags()))
def test_every_flag_the_output_names_is_an_option_of_the_command(module):
    flags, more = printed_flags()[module]
    if module in SHARED:
        return
    commands = commands_of(module)
    assert commands is not None, f"{module} prints {sorted(flags)}: add it to PRINTED_BY with its commands"
    if more:
        flags = flags | {"--worst"}
    for command in commands:
        lacking = flags - flags_of(COMMANDS[command])
        known = KNOWN_GAPS.get((module, command), set())
        assert known <= lacking, f"{module}: {sorted(known - lacking)} fixed for {command}: leave it out of KNOWN_GAPS"
        assert not lacking - known, \
            f"{module}: `spacy-agreement {command}` prints {sorted(lacking - known)} but has no such option"


def test_every_parameter_said_as_a_flag_is_a_flag_of_some_command():
    every = set().union(*(flags_of(c) for c in COMMANDS.values()))
    assert not sorted(set(FLAGS.values()) - every)


def test_report_has_worst_and_its_text_shows_more(tmp_path):
    from typer.testing import CliRunner

    from tests.helpers import write_two_annotators

    a, b = write_two_annotators(tmp_path)
    runner = CliRunner()
    shown = runner.invoke(app, ["report", str(a), str(b), "--html", str(tmp_path / "r.html"), "--quiet",
                                "--worst", "1"])
    assert shown.exit_code == 0, shown.output
    hidden = runner.invoke(app, ["report", str(a), str(b), "--html", str(tmp_path / "r.html"), "--quiet"])
    assert "(--worst shows more)" in hidden.stdout
    assert hidden.stdout.count("\n") < shown.stdout.count("\n")


def test_the_pseudo_user_note_names_the_flag_and_the_keyword(tmp_path):
    from spacy_agreement.adapters.projects import load_project
    from tests.adapters.test_projects import arborator_entries, as_folder

    notes = " ".join(load_project(as_folder(tmp_path / "arb", arborator_entries())).matched_by.notes)
    assert "left out last" in notes and "name it with --include (include= in Python)" in notes
