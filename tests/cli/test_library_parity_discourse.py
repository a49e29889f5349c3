"""Library first (issue 40): ``sa.discourse`` is the ``discourse`` command. On the same files and
options, the command's ``--json`` (run through typer's CliRunner) and the function's
``.to_dict()`` are equal key for key, signature included (the JSON interchange format, CDT's DTAG
files, PDT's PML files, several texts); documents already read give the same; the function's
defaults are the command's; the result shows itself."""
import inspect
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.cli.discourse import discourse_command
from spacy_agreement.cli._output import tsv_lines
from spacy_agreement.evaluation.discourse.arrows import load_discourse

pytestmark = pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # kappa of one type: nan

ROOT = Path(__file__).parents[2]
DATA = ROOT / "tests" / "data" / "discourse"
EXAMPLE = ROOT / "examples" / "discourse_example.json"
DTAG = sorted((DATA / "dtag").glob("*.tag"))
PML = [DATA / "pml" / "ann1" / "doc.t", DATA / "pml" / "ann2" / "doc.t"]
PRINTING = {"--json", "--tsv", "--output", "--quiet", "--confusion", "--help"}

OPTIONS = [  # (CLI options, function options)
    ([], {}),
    (["--skip-both-ends", "--ranges", "node"], {"skip_both_ends": True, "ranges": "node"}),
    (["--text-connectives", "aside", "--lists", "--skip-empty"],
     {"text_connectives": "aside", "lists": True, "skip_empty": True}),
]


def several_texts(tmp_path):
    for name in ("anna", "ben"):
        for text in ("0001", "0002"):
            shutil.copy(DATA / "dtag" / f"0001-da-disc-{name}.tag", tmp_path / f"{text}-da-disc-{name}.tag")
    shutil.copy(DATA / "dtag" / "0001-da-disc-cara.tag", tmp_path / "0003-da-disc-cara.tag")
    return sorted(tmp_path.iterdir())


def assert_parity(files, args, options):
    result = CliRunner().invoke(app, ["discourse", *map(str, files), *args, "--json"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    run = sa.discourse(*files, **options)
    data = run.to_dict()
    assert list(printed) == list(data)
    for key in printed:
        assert printed[key] == data[key], key
    assert data["signature"] == run.signature == run.settings.signature()
    tsv = CliRunner().invoke(app, ["discourse", *map(str, files), *args, "--tsv"])
    assert tsv.stdout == tsv_lines(data) + "\n"
    return run, data


@pytest.mark.parametrize("args, options", OPTIONS)
@pytest.mark.parametrize("files", [[EXAMPLE], DTAG, PML], ids=["json", "dtag", "pml"])
def test_discourse_json_is_the_function(files, args, options):
    run, data = assert_parity(files, args, options)
    assert not run.corpus and "pairs" in data


@pytest.mark.parametrize("args, options", OPTIONS[:2])
def test_discourse_json_is_the_function_over_several_texts(tmp_path, args, options):
    run, data = assert_parity(several_texts(tmp_path), args, options)
    assert run.corpus and [t["text"] for t in data["texts"]] == ["0001-da", "0002-da"]


def test_one_path_documents_and_the_reader_option():
    by_files = sa.discourse(*DTAG).to_dict()
    assert sa.discourse(*[load_discourse(p, "dtag-discourse") for p in DTAG]).to_dict() == by_files
    with pytest.warns(DeprecationWarning, match=r"discourse\(a, b, ...\)"):
        assert sa.discourse([load_discourse(p, "dtag-discourse") for p in DTAG]).to_dict() == by_files
    assert sa.discourse(*DTAG, reader="dtag-discourse").to_dict() == by_files
    assert sa.discourse(str(EXAMPLE)).to_dict() == sa.discourse(EXAMPLE).to_dict()
    assert sa.discourse(load_discourse(EXAMPLE)).to_dict() == sa.discourse(EXAMPLE).to_dict()


def test_settings_and_signature_given_back():
    run = sa.discourse(*DTAG, skip_both_ends=True, ranges="node")
    assert run.signature.startswith("discourse|skip2:yes|ranges:node|")
    assert sa.discourse(*DTAG, signature=run.signature).to_dict() == run.to_dict()
    assert sa.discourse(*DTAG, settings=sa.DiscourseSettings(skip_both_ends=True, ranges="node")).to_dict() == \
        run.to_dict()
    with pytest.warns(DeprecationWarning, match="settings positionally"):  # 0.3's call, kept for a release
        assert sa.discourse(DTAG, run.signature).to_dict() == run.to_dict()
    result = CliRunner().invoke(app, ["discourse", *map(str, DTAG), "--signature", run.signature, "--json"])
    assert json.loads(result.stdout) == run.to_dict()
    with pytest.raises(sa.errors.BadOptionError, match="lists"):  # as --signature with another --lists
        sa.discourse(*DTAG, signature=run.signature, lists=True)


def test_function_defaults_are_the_command_defaults():
    parameters = inspect.signature(sa.discourse).parameters
    assert list(parameters)[:2] == ["annotators", "settings"]
    assert parameters["annotators"].kind == inspect.Parameter.VAR_POSITIONAL
    found = 0
    for parameter in inspect.signature(discourse_command).parameters.values():
        decls = getattr(parameter.default, "param_decls", None)
        if not decls:
            continue
        long = next(d for d in decls if d.startswith("--"))
        if long in PRINTING:
            continue
        name = long[2:].replace("-", "_")
        assert name in parameters, name
        assert parameters[name].default == parameter.default.default, name
        assert parameters[name].kind == inspect.Parameter.KEYWORD_ONLY, name
        found += 1
    assert found == 7


def test_discourse_result_shows_itself(tmp_path):
    run = sa.discourse(DTAG)
    text = repr(run)
    means = run.means()
    assert "\n" not in text and text.startswith("DiscourseRun(F1 on relations: strict ")
    assert text.endswith(run.signature + ")") and f"{100 * means['strict']['f1_relations']:.2f}" in text
    html = run._repr_html_()
    assert "F1 on relations" in html and "discourse|" in html and "3 pair(s)" in html
    corpus = sa.discourse(several_texts(tmp_path))
    assert "2 texts" in repr(corpus) and "2 texts" in corpus._repr_html_()
