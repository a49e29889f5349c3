"""Faults a newcomer met in the command line (issue 27), each with the test that failed before
its fix: GEIG over no sentence is n/a, leaf-ancestor's worst sentences lowest first and never
perfect, every truncated list says how many more, "most disagreement" names items by the
corpus' names and ranks by δnorm, the example report writes outside the checkout, option
errors are one line with exit code 2, --help without typer's internals, --format conllu,
evalb on a CoNLL file is one line."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import COMMANDS, app
from ..helpers import conll, one_line_error

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
WIDE = {"COLUMNS": "250"}


def tagged(rows):
    """One CoNLL sentence from ``(head, relation)`` pairs: the root a VERB, word 2 a DET, the
    rest NOUNs, so that every score of evaluate is defined (UCP and LCP need verbs, the
    content/function LAS content and function words)."""
    def upos(k, head):
        return "VERB" if head == 0 else "DET" if k == 2 else "NOUN"

    return "".join(f"{k}\tw{k}\t_\t{upos(k, h)}\t_\t_\t{h}\t{r}\t_\t_\n"
                   for k, (h, r) in enumerate(rows, 1)) + "\n"


def sentence(rows, sent_id=None):
    """One CoNLL-U sentence, with a ``# sent_id`` comment when given."""
    return (f"# sent_id = {sent_id}\n" if sent_id else "") + conll(rows)


# --------------------------------------------------------------------------- 1. GEIG over no sentence

def test_leaf_ancestor_geig_over_no_valid_sentence_is_na(tmp_path):
    gold, cand = tmp_path / "g.mrg", tmp_path / "c.mrg"
    gold.write_text("(S (NP (DT a)) (VP (VB b)))\n(S (X y))\n", encoding="utf-8")
    cand.write_text("(S (NP (DT c)) (VP (VB b)))\n(S (X z))\n", encoding="utf-8")  # every word differs: errors
    with pytest.warns(sa.UndefinedMetricWarning) as seen:
        result = runner.invoke(app, ["leaf-ancestor", str(gold), str(cand)])
    assert result.exit_code == 0, result.output
    assert "GEIG unlabelled F n/a, labelled F n/a (2 error sentences" in result.stdout
    assert any("geig" in str(w.message) for w in seen)
    assert any(line.startswith("warning: geig") and "undefined" in line for line in result.stderr.splitlines())
    with pytest.warns(sa.UndefinedMetricWarning):
        values = json.loads(runner.invoke(app, ["leaf-ancestor", str(gold), str(cand), "--json"]).stdout)
    assert values["geig_unlabelled"] is None and values["geig_labelled"] is None


# --------------------------------------------------------------------------- 2. the lowest-scoring sentences

def test_leaf_ancestor_lists_the_lowest_first_and_never_a_perfect_sentence(tmp_path):
    gold, cand = tmp_path / "g.mrg", tmp_path / "c.mrg"
    right = "(S (NP (DT the) (NN w{k})) (VP (VBZ barks) (ADVP (RB now))))"
    slightly = "(S (NP (DT the) (NN w{k})) (VP (VBZ barks) (RB now)))"  # one bracket missing
    badly = "(S (NP (DT the) (NN w{k}) (VP (VBZ barks) (ADVP (RB now)))))"  # the VP inside the NP
    plan = [right, slightly, right, badly, slightly]
    gold.write_text("".join(right.format(k=k) + "\n" for k in range(len(plan))), encoding="utf-8")
    cand.write_text("".join(t.format(k=k) + "\n" for k, t in enumerate(plan)), encoding="utf-8")
    text = runner.invoke(app, ["leaf-ancestor", str(gold), str(cand), "--worst", "10"]).stdout
    shown = re.findall(r"^\S+:(\d+): sentence (\d+)$", text, re.M)
    assert [int(k) for _, k in shown] == [4, 2, 5], text  # lowest first, ties in file order, no perfect one
    assert "the 3 sentence(s) with the lowest leaf-ancestor score" in text
    two = runner.invoke(app, ["leaf-ancestor", str(gold), str(cand), "--worst", "2"]).stdout
    assert [int(k) for _, k in re.findall(r"^\S+:(\d+): sentence (\d+)$", two, re.M)] == [4, 2]
    assert "... and 1 more" in two
    perfect = runner.invoke(app, ["leaf-ancestor", str(gold), str(gold)]).stdout
    assert not re.search(r"^\S+:\d+: sentence \d+$", perfect, re.M), perfect  # nothing to show word by word
    assert "lowest leaf-ancestor score" not in perfect


# --------------------------------------------------------------------------- 4. truncated lists say how many more

def test_every_truncated_list_says_how_many_more(tmp_path):
    gold, pred = tmp_path / "g.conllu", tmp_path / "p.conllu"
    gold.write_text(tagged([(0, "root"), (1, "x"), (1, "y")]) * 13, encoding="utf-8")
    pred.write_text(tagged([(0, "root"), (0, "x"), (1, "z")]) * 13, encoding="utf-8")  # two roots, a new label
    # several roots: the package's rules (conll18_ud_eval.py, evaluate's default, refuses them)
    text = runner.invoke(app, ["evaluate", str(gold), str(pred), "--worst", "10", "--convention", "package"]).stdout
    assert "13 sentence(s) with several roots" in text
    assert "  ... and 3 more" in text, text
    assert len(re.findall(r"^  \S+:\d+: sentence \d+", text, re.M)) == 10
    few = runner.invoke(app, ["evaluate", str(gold), str(pred), "--worst", "13", "--convention", "package"]).stdout
    assert "more" not in few.replace("several", "")  # nothing left out, nothing said
    # alpha: the items some annotators lack, the head cycles, the items that differ most
    a, b = tmp_path / "a.conllu", tmp_path / "b.conllu"
    a.write_text("".join(sentence([(0, "root"), (1, "x")], f"s{k}") for k in range(8)), encoding="utf-8")
    b.write_text("".join(sentence([(2, "root"), (1, "x")] if k % 2 else [(0, "root"), (1, "y")], f"s{k}")
                         for k in range(6)), encoding="utf-8")
    alpha_text = runner.invoke(app, ["alpha", str(a), str(b), "--worst", "1"]).stdout
    assert "missing: s6: lacks b\n  ... and 1 more" in alpha_text, alpha_text
    assert re.search(r"cycle: .*\n  \.\.\. and 2 more", alpha_text), alpha_text
    assert re.search(r"most disagreement .*\n\s+[\d.]+  \S+\n  \.\.\. and 5 more", alpha_text), alpha_text


def test_no_truncation_is_left_without_its_count():
    """Every slice of a listed sequence in the CLI's and the text report's modules goes through
    the one helper that says how many more (grep, as the issue asks)."""
    root = Path(sa.__file__).resolve().parent
    sources = [*sorted((root / "cli").glob("*.py")), root / "report" / "text.py"]
    owned_elsewhere = {"layers.py", "__init__.py", "__main__.py"}
    for path in sources:
        if path.name in owned_elsewhere:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            # [:worst], [:k], [:max(...)], [:5], [:10]: a list cut short ([:1] and [:2] cut strings)
            assert not re.search(r"\[:\s*(worst\b|k\]|max\(|[3-9]\]|\d\d+\])", line), \
                f"{path.name}:{number}: {line.strip()}"


# --------------------------------------------------------------------------- 5. most disagreement

def test_most_disagreement_names_items_by_sent_id_and_ranks_by_norm(tmp_path):
    a, b = tmp_path / "a.conllu", tmp_path / "b.conllu"
    long_gold = [(0, "root")] + [(1, "x")] * 9
    long_other = [(0, "root"), (1, "y"), (1, "y")] + [(1, "x")] * 7  # two labels of ten: TED 2, δnorm small
    short_gold, short_other = [(0, "root"), (1, "x")], [(0, "root"), (1, "y")]  # one of two: TED 1, δnorm large
    a.write_text(sentence(long_gold, "long") + sentence(short_gold, "short") + sentence(short_gold, "same"),
                 encoding="utf-8")
    # the second annotator's file has no sent_ids: items are paired by position, named "sentence N"
    b.write_text(conll(long_other) + conll(short_other) + conll(short_gold), encoding="utf-8")
    text = runner.invoke(app, ["alpha", str(a), str(b)]).stdout
    block = text.split("most disagreement", 1)[1].split("\n\n", 1)[0]
    heading, *rows = block.splitlines()
    assert "δnorm" in heading, heading
    names = [row.split(None, 1)[1] for row in rows]
    assert names == ["sentence 2 (sent_id short)", "sentence 1 (sent_id long)"], block
    values = json.loads(runner.invoke(app, ["alpha", str(a), str(b), "--json"]).stdout)
    assert values["items_matched_by"] == "position"


def test_most_disagreement_ranks_as_the_report_does():
    from spacy_agreement.report.html import DEFAULT_RANKING
    from spacy_agreement.report.text import RANKING

    assert RANKING == DEFAULT_RANKING


# --------------------------------------------------------------------------- 6. the example report

def test_project_report_example_writes_outside_the_checkout(tmp_path):
    done = subprocess.run([sys.executable, str(EXAMPLES / "project_report.py")], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == []  # nothing in the working directory
    written = Path(re.search(r"wrote (\S+\.html)", done.stdout).group(1))
    assert written.is_file() and written.parent != tmp_path and written.parent != EXAMPLES.parent
    shutil.rmtree(written.parent)
    target = tmp_path / "out" / "page.html"
    done = subprocess.run([sys.executable, str(EXAMPLES / "project_report.py"), str(target)], capture_output=True,
                          text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert target.is_file() and f"wrote {target}" in done.stdout


# --------------------------------------------------------------------------- 7. option errors: one line, exit 2

def run_cli(args, capsys):
    """The console script's way of running the app (:func:`~spacy_agreement.cli._handling.run`):
    its exit code and stderr lines."""
    from spacy_agreement.cli._handling import run

    with pytest.raises(SystemExit) as done:
        run(app, args=args, prog_name="spacy-agreement")
    err = capsys.readouterr().err
    return done.value.code, [line for line in err.splitlines() if line.strip()]


@pytest.mark.parametrize("args, line", [
    (["alpha", "{a}", "{b}", "--alpha", "exakt"], "error: --alpha: 'exakt' is not one of auto, exact, sampled, off"),
    (["alpha", "{a}", "{b}", "--threads", "x"], "error: --threads: 'x' is not an integer"),
    (["alpha", "{a}", "{b}", "--worst", "1.5"], "error: --worst: '1.5' is not an integer"),
    (["alpha", "{a}", "{b}", "--alpha-budget", "lots"], "error: --alpha-budget: 'lots' is not a number"),
    (["alpha", "{a}", "{b}", "--max-memory", "0"], "error: --max-memory: '0' is below the minimum 0.001"),
    (["evaluate", "{a}", "{b}", "--format", "xml"], "error: --format: 'xml' is not a registered format"),
    (["leaf-ancestor", "{a}", "{b}", "--costs", "cheap"], "error: --costs: 'cheap' is not one of exact, first-char"),
    (["alpha", "{a}", "{b}", "--bogus"], "error: no such option: --bogus"),
    (["alpha", "{a}", "{b}", "--alpha"], "error: option '--alpha' requires an argument"),
    (["alpha"], "error: missing argument 'PATHS'"),
    (["nosuch"], "error: no such command 'nosuch'"),
])
def test_option_errors_are_one_line_and_exit_code_2(tmp_path, capsys, args, line):
    a = tmp_path / "a.conllu"
    a.write_text(conll([(0, "root"), (1, "x")]), encoding="utf-8")
    code, lines = run_cli([arg.format(a=a, b=a) for arg in args], capsys)
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith(line), lines[0]
    assert not re.search(r"Value error|parse_\w+|Input should|╭|Usage:|Try '", lines[0]), lines[0]


def test_run_keeps_exit_codes_help_and_bad_input(tmp_path, capsys):
    from spacy_agreement.cli._handling import run

    a = tmp_path / "a.conllu"
    a.write_text(tagged([(0, "root"), (1, "x")]), encoding="utf-8")
    code, lines = run_cli(["alpha", str(a)], capsys)  # bad input: exit code 1, one line of its own
    assert code == 1 and len(lines) == 1 and "one path holds one annotator here" in lines[0]
    with pytest.raises(SystemExit) as done:
        run(app, args=["--version"], prog_name="spacy-agreement")
    assert done.value.code in (0, None) and capsys.readouterr().out.startswith("spacy-agreement ")
    with pytest.raises(SystemExit) as done:
        run(app, args=["evaluate", str(a), str(a), "--json"], prog_name="spacy-agreement")
    assert done.value.code in (0, None) and json.loads(capsys.readouterr().out)["las"] == 1.0
    with pytest.raises(SystemExit) as done:
        run(app, args=["alpha", "--help"], prog_name="spacy-agreement")
    assert done.value.code in (0, None) and "--alpha" in capsys.readouterr().out


def test_option_errors_are_one_line_in_a_real_process(tmp_path):
    a = tmp_path / "a.conllu"
    a.write_text(conll([(0, "root"), (1, "x")]), encoding="utf-8")
    code = ("import sys; from spacy_agreement.cli import app; from spacy_agreement.cli._handling import run\n"
            "run(app, prog_name='spacy-agreement')")
    done = subprocess.run([sys.executable, "-c", code, "alpha", str(a), str(a), "--alpha", "exakt"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "error: --alpha: 'exakt' is not one of auto, exact, sampled, off"


# --------------------------------------------------------------------------- 8. --help

def tidy_app(markup="rich"):
    """The app as cli/__init__.py is to build it: the group a registry.Group, every command a
    registry.Command (``markup``: typer's rich help, or None for click's plain one)."""
    from spacy_agreement.cli._registry import Command, Group

    tidy = typer.Typer(cls=Group, add_completion=False, no_args_is_help=True, rich_markup_mode=markup)
    for name, function in COMMANDS.items():
        tidy.command(name, cls=Command)(function)

    @tidy.callback()
    def _app(version: bool = typer.Option(False, "--version", metavar="", help="Print the version and exit.")):
        """How far do two or more syntactic analyses of the same text agree?"""

    return tidy


@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_shows_metavars_not_python_types(command):
    text = runner.invoke(app, [command, "--help"], env=WIDE).stdout
    options = text.split("Options", 1)[1]
    options = "\n".join(line for line in options.splitlines() if "--help" not in line)  # typer's own flag
    for leaked in ("<bool>", "<str>", "<int>", "<float>", "<path>", "<list[", "default: ("):
        assert leaked not in options, (command, leaked, options)
    for markup in ("rich", None):
        tidy = tidy_app(markup)
        for args in ([command, "--help"], ["--help"]):
            shown = runner.invoke(tidy, args, env=WIDE).stdout
            assert "Usage:" in shown and not re.search(r"<(bool|list\[\w+\]|path|str|int|float)>", shown), shown


def test_help_paragraphs_are_wrapped_not_broken_where_the_docstring_breaks():
    from spacy_agreement.cli._registry import Command

    command = Command(name="report", callback=COMMANDS["report"], help=COMMANDS["report"].__doc__)
    assert command.context_settings["max_content_width"] >= 120  # click's own limit is 80
    assert "\n" not in command.short_help and all("\n" not in p for p in command.help.split("\n\n"))
    listing = runner.invoke(tidy_app(), ["--help"], env={"COLUMNS": "200"}).stdout
    assert re.search(r"judgments\s+Which metric .*\(Plank et al\. 2015, Tables 1, 3-5\)\.", listing), listing
    code = ("import typer; from spacy_agreement.cli import COMMANDS; from spacy_agreement.cli._registry import "
            "Command, Group\napp = typer.Typer(cls=Group, rich_markup_mode=None)\n"
            "for name, function in COMMANDS.items(): app.command(name, cls=Command)(function)\n"
            "app(prog_name='spacy-agreement')")
    wide = {**os.environ, "COLUMNS": "200"}
    plain = subprocess.run([sys.executable, "-c", code, "report", "--help"], capture_output=True, text=True, env=wide)
    widths = [len(line) for line in plain.stdout.splitlines()]
    assert plain.returncode == 0 and 100 < max(widths) <= 120, plain.stdout  # click's formatter: 80 at most


def test_metavars_of_the_shared_options():
    text = runner.invoke(app, ["alpha", "--help"], env=WIDE).stdout
    assert re.search(r"--format\s+FORMAT", text) and re.search(r"--output\s+-o\s+FILE", text)
    assert re.search(r"--alpha\s+\[auto\|exact\|sampled\|off\]", text), text
    assert re.search(r"--worst\s+N\b", text) and re.search(r"--max-memory\s+GIB", text)
    assert "--alpha-seconds decides" in text  # said in the help, not as a default in parentheses


# --------------------------------------------------------------------------- 9. --format conllu

@pytest.mark.parametrize("name", ["conllu", "conllx", "CoNLL-U"])
def test_format_conllu_and_conllx_name_the_conll_reader(tmp_path, name):
    gold = tmp_path / "g.txt"
    gold.write_text(tagged([(0, "root"), (1, "x")]), encoding="utf-8")
    result = runner.invoke(app, ["evaluate", str(gold), str(gold), "--format", name, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["las"] == 1.0
    alpha = runner.invoke(app, ["alpha", str(gold), str(gold), "--allow-duplicates", "--format", name, "--json",
                                "--alpha", "off"])
    assert alpha.exit_code == 0, alpha.output


# --------------------------------------------------------------------------- 10. evalb on CoNLL

def test_evalb_on_a_conll_file_is_one_line(tmp_path):
    mrg = tmp_path / "g.mrg"
    mrg.write_text("(S (NP (DT a)) (VP (VB b)))\n", encoding="utf-8")
    data = tmp_path / "p.conllu"
    data.write_text("# sent_id = 1\n" + conll([(0, "root"), (1, "x")]) * 6, encoding="utf-8")
    line = one_line_error(runner.invoke(app, ["evalb", str(mrg), str(data)]), str(data), "not bracketed trees",
                          "CoNLL")
    assert "Reading sentence" not in line
    assert runner.invoke(app, ["evalb", str(mrg), str(data)]).stdout == ""
    one_line_error(runner.invoke(app, ["evalb", str(data), str(mrg)]), str(data), "CoNLL")
