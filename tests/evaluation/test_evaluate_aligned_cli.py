"""``spacy-agreement evaluate`` on predictions with other tokens, multiword splits and sentence
boundaries: with no options it prints conll18_ud_eval.py's thirteen scores, its table to the
last printed digit (the script's verbatim outputs are committed beside the fixtures, see
tests/data/conll18/README.md); on identical tokens the same table follows the package's."""
import json
import re
from contextlib import nullcontext
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from .test_conll18_parity import root_in_capitals

runner = CliRunner()
DATA = Path(__file__).resolve().parents[1] / "data" / "conll18"
PAIRS = sorted(p.name[: -len(".gold.conllu")] for p in DATA.glob("*.gold.conllu"))
RETOKENISED = [name for name in PAIRS if name.startswith("retok")]


def table(text):
    """The conll18 table of a text output (from its header to the BLEX line)."""
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("Metric "))
    end = next(k for k, line in enumerate(lines) if line.startswith("BLEX"))
    return "\n".join(lines[start:end + 1])


def script_table(name):
    return table((DATA / f"{name}.conll18.txt").read_text(encoding="utf-8"))


def files(name):
    return [str(DATA / f"{name}.gold.conllu"), str(DATA / f"{name}.sys.conllu")]


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
@pytest.mark.parametrize("name", PAIRS)
def test_evaluate_prints_the_scripts_table(name):
    with root_in_capitals(name) if name not in RETOKENISED else nullcontext():  # aligned: no such warning
        result = runner.invoke(app, ["evaluate", *files(name)])
    assert result.exit_code == 0, result.output
    assert table(result.stdout) == script_table(name)
    assert result.stdout.strip().splitlines()[-1].startswith("signature: evaluate|")


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
@pytest.mark.parametrize("name", RETOKENISED)
def test_json_of_other_tokens_has_every_score_and_the_scripts_f1(name):
    values = json.loads(runner.invoke(app, ["evaluate", *files(name), "--json"]).stdout)
    assert values["alignment"] == "characters" and "conv:conll18" in values["signature"]
    printed = {line.split("|")[0].strip().lower(): [c.strip() for c in line.split("|")[1:]]
               for line in script_table(name).splitlines()[2:]}
    for metric, (precision, recall, f1, aligned) in printed.items():
        for key, text in (("precision", precision), ("recall", recall), ("f1", f1), ("aligned_accuracy", aligned)):
            value = values[f"{metric}_{key}"]
            if text == "":
                assert value is None, (metric, key)
            elif value is None:  # undefined (0/0): the script prints 0.00
                assert text == "0.00", (metric, key)
            else:
                assert f"{100 * value:.2f}" == text, (metric, key, value, text)
    for metric in ("uas", "las", "clas", "mlas", "blex"):
        assert values[metric] == values[f"{metric}_f1"]


def test_the_signature_reproduces_an_aligned_run(tmp_path):
    name = RETOKENISED[0]
    first = json.loads(runner.invoke(app, ["evaluate", *files(name), "--json"]).stdout)
    again = json.loads(runner.invoke(app, ["evaluate", *files(name), "--json", "--signature", first["signature"]]).stdout)
    assert again == first


def test_other_conventions_or_formats_with_other_tokens_are_one_line_errors():
    name = RETOKENISED[0]
    for option in ("--keep-subtypes", "--fold-root-case", "--no-punct"):
        result = runner.invoke(app, ["evaluate", *files(name), option])
        assert result.exit_code == 1 and option in result.output and "--skip-mismatched" in result.output
        assert len([line for line in result.output.splitlines() if line.strip()]) == 1
    with pytest.warns(sa.UndefinedMetricWarning):  # every sentence skipped: nothing scored
        skipped = runner.invoke(app, ["evaluate", *files(name), "--skip-mismatched", "--json"])
    assert skipped.exit_code == 0 and json.loads(skipped.stdout)["sentences_skipped"] > 0


def test_identical_tokens_give_the_package_metrics_and_the_scripts_table():
    values = json.loads(runner.invoke(app, ["evaluate", *files("case1"), "--json"]).stdout)
    assert values["alignment"] == "identical" and values["las"] == pytest.approx(values["las_f1"])
    assert values["uas"] == pytest.approx(values["uas_f1"]) and "ned" in values and "tokens_scored" in values
    # another convention: the package's metrics only
    other = json.loads(runner.invoke(app, ["evaluate", *files("case1"), "--json", "--convention", "conll07"]).stdout)
    assert "las_f1" not in other and "conv:conll07" in other["signature"]
    assert re.search(r"\|sub:no\|", other["signature"]) and re.search(r"\|rootfold:no\|", other["signature"])
