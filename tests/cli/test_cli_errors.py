"""The CLI's one error handler and one output writer: bad input (and bad option values) is
exit code 1 and one line naming the file; a bug is a traceback, not a "bad input" line; every
command writes to --output and keeps stderr clean with --quiet; one number formatter."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_agreement.cli import COMMANDS, app
from spacy_agreement.errors import AgreementError, BadOptionError
from spacy_agreement.report.format import number, percent
from ..helpers import command_args, conll, invoke_bound_by_permissions, one_line_error, write_two_annotators


runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def files(tmp_path):
    return write_two_annotators(tmp_path)


# --------------------------------------------------------------------------- the number formatter

def test_one_number_formatter():
    assert percent(0.8773) == "87.73" and percent(0.904, width=6) == " 90.40" and percent(1.0, width=6) == "100.00"
    assert percent(-0.125) == "-12.50" and percent(0.95, 0) == "95"
    assert percent(math.nan, width=6) == "   n/a" and percent(None) == "n/a"
    assert number(0.58333, 3, width=6) == " 0.583" and number(float("nan"), 2, width=6) == "   n/a"
    assert number(-0.25, 2) == "-0.25"


def test_text_outputs_show_undefined_as_na(tmp_path):
    gold = tmp_path / "g.conll"
    gold.write_text(conll([(0, "root"), (1, "x")]), encoding="utf-8")  # no verb: UCP and LCP undefined
    with pytest.warns(Warning):
        result = runner.invoke(app, ["evaluate", str(gold), str(gold)])
    assert result.exit_code == 0, result.output
    assert "  UCP                   n/a" in result.stdout and "  LAS                100.00" in result.stdout


# --------------------------------------------------------------------------- input errors: one line naming the file

def test_input_that_is_not_utf8_names_the_file(tmp_path, files):
    a, _ = files
    bad = tmp_path / "latin1.conll"
    bad.write_bytes(conll([(0, "root"), (1, "x")]).replace("w1", "w\u00e9").encode("latin-1"))
    for args in (["alpha", str(a), str(bad)], ["evaluate", str(a), str(bad)], ["synthetic", str(bad)]):
        one_line_error(runner.invoke(app, args), str(bad), "not UTF-8")


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_missing_file_and_directory_name_the_path(tmp_path, files):
    a, _ = files
    one_line_error(runner.invoke(app, ["evaluate", str(a), str(tmp_path / "nope.conll")]), "nope.conll")
    one_line_error(runner.invoke(app, ["leaf-ancestor", str(a), str(tmp_path)]), str(tmp_path))
    one_line_error(runner.invoke(app, ["alpha", str(a), str(a), "--allow-duplicates", "--json",
                                       "-o", str(tmp_path / "no" / "out.json")]), "out.json")


def test_unreadable_file_names_the_file(files):
    """A file without read permission (as root: in a process without root's power to read it)."""
    a, b = files
    b.chmod(0)
    try:
        one_line_error(invoke_bound_by_permissions(app, ["alpha", str(a), str(b)]), str(b), "Permission denied")
    finally:
        b.chmod(0o644)


@pytest.mark.parametrize("args, message", [
    (["evaluate", "{a}", "{b}", "--punct", "bogus"], "unknown punctuation rule"),
    (["evaluate", "{a}", "{b}", "--ned", "sideways"], "unknown NED variant"),
    (["evaluate", "{a}", "{b}", "--ted-norm", "median"], "unknown TED normalisation"),
    (["evaluate", "{a}", "{b}", "--verb-tags", ","], "no tags"),
    (["evaluate", "{a}"], "give either a predicted file or --model"),
    (["alpha", "{a}", "{b}", "--backend", "tpu"], "unknown backend"),
    (["alpha", "{a}", "{b}", "--sample-pairs", "10", "--bootstrap", "10"], "--bootstrap needs the exact alpha"),
    (["alpha", "{a}"], "one path holds one annotator here"),
    (["synthetic", "{a}", "--json", "--tsv"], "exclude each other"),
    (["leaf-ancestor", "{a}", "{b}", "--json", "--tsv"], "exclude each other"),
    (["demo", "--json", "--tsv"], "exclude each other"),
])
def test_bad_option_values_are_one_line(files, args, message):
    a, b = files
    one_line_error(runner.invoke(app, [arg.format(a=a, b=b) for arg in args]), message)


def test_judgments_bad_options_are_one_line(tmp_path):
    item = {"id": "s1", "gold": {"heads": [0, 1], "deprels": ["root", "x"]},
            "a": {"heads": [0, 1], "deprels": ["root", "x"]}, "b": {"heads": [0, 1], "deprels": ["root", "y"]},
            "judgments": {"j1": "A", "j2": "A"}}
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps(item) + "\n", encoding="utf-8")
    one_line_error(runner.invoke(app, ["judgments", str(path), "--ties", "sometimes"]), "ties must be")
    one_line_error(runner.invoke(app, ["judgments", str(path), "--metric", "nonsense"]), "nonsense")
    one_line_error(runner.invoke(app, ["judgments", str(tmp_path), "--parses", "only-one"]), "--parses takes 2")


def test_library_option_errors_are_agreement_errors_and_still_value_errors():
    from spacy_agreement.evaluation.dependency.metrics import EvaluationSettings

    with pytest.raises(BadOptionError) as err:
        EvaluationSettings(ned="sideways")
    assert isinstance(err.value, AgreementError) and isinstance(err.value, ValueError)  # 0.1 callers catch ValueError


def test_library_errors_name_parameters_and_the_cli_says_flags(files):
    from spacy_agreement import load_parallel_files
    from spacy_agreement.cli._handling import in_flags

    a, _ = files
    with pytest.raises(BadOptionError) as err:  # a Python caller reads Python
        load_parallel_files([a, a])
    assert str(err.value).endswith("or allow_duplicates=True") and err.value.option == "allow_duplicates"
    one_line_error(runner.invoke(app, ["alpha", str(a), str(a)]), "given twice", "or --allow-duplicates")
    assert in_flags('leave out method="off", or bootstrap (not /x/bootstrap.conll)', ("method", "bootstrap")) == \
        "leave out --alpha off, or --bootstrap (not /x/bootstrap.conll)"
    assert in_flags("raise spacy_agreement.limits.memory_limit() or budget=1e+09", ("memory_limit", "budget")) == \
        "raise --max-memory or --alpha-budget 1e+09"


def test_a_bug_is_a_traceback_not_a_bad_input_line(files, monkeypatch):
    from spacy_agreement.cli import alpha as alpha_command

    def broken(*args, **kwargs):
        raise ValueError("a bug, not bad input")

    monkeypatch.setattr(alpha_command, "alpha_of_inputs", broken)
    result = runner.invoke(app, ["alpha", *map(str, files)])
    assert isinstance(result.exception, ValueError) and "a bug" in str(result.exception)
    assert "a bug" not in result.stderr  # not turned into a one-line message


def test_a_bug_shows_its_traceback_in_a_real_process(files):
    code = ("import sys; from spacy_agreement.cli import alpha as c\n"
            "def broken(*a, **k): raise ValueError('a bug, not bad input')\n"
            "c.alpha_of_inputs = broken\nfrom spacy_agreement.cli import main\nsys.argv[0] = 'spacy-agreement'\nmain()")
    done = subprocess.run([sys.executable, "-c", code, "alpha", *map(str, files)], capture_output=True, text=True)
    assert done.returncode != 0 and "Traceback" in done.stderr and "ValueError: a bug" in done.stderr


# --------------------------------------------------------------------------- --output and --quiet on every command


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning", "ignore::RuntimeWarning")
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_writes_json_tsv_and_text_to_output_quietly(command, tmp_path, files):
    args = command_args(command, tmp_path, files)
    target = tmp_path / "out.txt"
    for style in ("--json", "--tsv") + (() if command == "report" else ("--text",)):
        flags = [] if style == "--text" else [style]
        result = runner.invoke(app, [command, *args, *flags, "--quiet", "--output", str(target)])
        assert result.exit_code == 0, (style, result.output)
        assert result.stdout == "" and result.stderr == "", (style, result.stdout, result.stderr)
        written = target.read_text(encoding="latin-1" if command == "evalb" else "utf-8")
        assert written.strip(), style
        if style == "--json":
            decoder = json.JSONDecoder(parse_constant=lambda name: pytest.fail(f"{name} in the JSON"))
            decoder.raw_decode(written.strip())
        if style == "--tsv":
            assert all(line.count("\t") >= 1 for line in written.splitlines() if line)
        target.unlink()


def test_python_m_runs_the_cli():
    done = subprocess.run([sys.executable, "-m", "spacy_agreement.cli", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("spacy-agreement ")
