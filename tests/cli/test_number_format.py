"""One way of printing numbers (issue 27): every text output prints scores, accuracies, F, α and κ
as percentages with two decimals (``87.73``, ``-12.50``; ``n/a`` where undefined), through one
function (:func:`spacy_agreement.report.format.percent`); JSON and TSV keep fractions. evalb's text
(EVALB's bytes) and the conll18_ud_eval.py table of ``evaluate`` keep their own formats, which are
percentages with two decimals already."""
import json
import math
import re

import pytest
from typer.testing import CliRunner

from spacy_agreement.cli import COMMANDS, app
from spacy_agreement.report.format import percent
from ..helpers import command_args, write_two_annotators

runner = CliRunner()

#: The commands that print scores, each with (text pattern, JSON path) pairs of its main figures:
#: a pattern's groups are the printed percentages, the paths the fractions they print.
FIGURES = {
    "alpha": [(r"^\s+alpha plain\s+(-?[\d.]+)$", ["alpha_plain"]), (r"^\s+alpha diff\s+(-?[\d.]+)$", ["alpha_diff"]),
              (r"^\s+alpha norm\s+(-?[\d.]+)$", ["alpha_norm"]), (r"^\s+LAS\s+(-?[\d.]+)$", ["las"]),
              (r"^\s+UAS\s+(-?[\d.]+)$", ["uas"]), (r"^\s+LA\s+(-?[\d.]+)$", ["la"])],
    "report": [(r"^\s+alpha plain\s+(-?[\d.]+)$", ["alpha_plain"]), (r"^\s+LAS\s+(-?[\d.]+)$", ["las"])],
    "layers": [(r"^\s+head\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+\d+\s+\d+$",
                ["layers.head.alpha", "layers.head.observed", "layers.head.cohen_kappa", "layers.head.fleiss_kappa"]),
               (r"^\s+deprel\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+\d+\s+\d+$",
                ["layers.deprel.alpha", "layers.deprel.observed", "layers.deprel.cohen_kappa",
                 "layers.deprel.fleiss_kappa"])],
    "evaluate": [(r"^\s+LAS\s+([\d.]+)$", ["las"]), (r"^\s+UAS\s+([\d.]+)$", ["uas"]), (r"^\s+LA\s+([\d.]+)$", ["la"]),
                 (r"^\s+TED\s+([\d.]+)$", ["ted"]), (r"^\s+CLAS\s+([\d.]+)$", ["clas"]),
                 (r"^\s+root\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+\d+\s+\d+$",
                  ["per_label.root.precision", "per_label.root.recall", "per_label.root.f"])],
    "compare": [(r"^\s+LAS\s+\+([\d.]+)  \[", ["pairs.0.metrics.las.difference"])],
    "judgments": [(r"raw agreement (-?[\d.]+)%", ["judge_agreement"]), (r"Cohen's kappa (-?[\d.]+)%", ["kappa"])],
    "synthetic": [(r"^both\s+paper\s+0\.1\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)$",
                   ["points.0.alpha_plain", "points.0.alpha_diff", "points.0.alpha_norm", "points.0.accuracy"])],
    "leaf-ancestor": [(r"^corpus: leaf-ancestor ([\d.]+)% \(mean over sentences\), ([\d.]+)% \(mean over words\)",
                       ["leaf_ancestor", "leaf_ancestor_words"]),
                      (r"^GEIG unlabelled F ([\d.]+)%, labelled F ([\d.]+)%", ["geig_unlabelled", "geig_labelled"]),
                      (r"^leaf-ancestor ([\d.]+)%\s+GEIG unlabelled ([\d.]+)%\s+labelled ([\d.]+)%$",
                       ["sentences.0.leaf_ancestor", "sentences.0.geig_unlabelled", "sentences.0.geig_labelled"]),
                      (r"^\s*([\d.]+)\s+a\s+NP", ["sentences.0.words.0.score"])],
    "discourse": [(r"^F1 on relations\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$",
                   ["strict.f1_relations", "skip.f1_relations", "connective.f1_relations"]),
                  (r"^agreement on types\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$",
                   ["strict.agreement_types", "skip.agreement_types", "connective.agreement_types"]),
                  (r"^Cohen's kappa on types\s+n/a\s+([\d.]+)\s+([\d.]+)$",
                   ["skip.kappa_types", "connective.kappa_types"])],
    "demo": [(r"^\s+alpha plain\s+(-?[\d.]+)$", ["dependency.alpha_plain"]),
             (r"^\s+LAS\s+(-?[\d.]+)$", ["dependency.las"]), (r"^\s+Jaccard\s+(-?[\d.]+)$", ["phrase.jaccard"])],
}

#: A score written as a fraction: ``0.934``, ``-0.25`` (three or four decimals after a leading 0).
FRACTION = re.compile(r"(?<![\w.])-?[01]\.\d{3,4}(?![\d%])")
#: Lines whose numbers are not scores: distances (mean squared δ), seconds, DP cells, the signature.
NOT_SCORES = re.compile(r"^\s+\d\.\d{4}\s{2}|DP cells|^signature|^alpha: "
                        r"|(<0\.0001|\d\.\d{4})\s+(<0\.0001|\d\.\d{4})$")  # compare's p-values
#: A percentage with other than two decimals (``93.4``, ``93.400``) in a score table.
ONE_DECIMAL = re.compile(r"(?<![\w.])-?\d{1,3}\.\d(?![\d])")


@pytest.fixture
def files(tmp_path):
    return write_two_annotators(tmp_path)


def _at(data, path):
    for key in path.split("."):
        data = data[int(key)] if isinstance(data, list) else data[key]
    return data


def _json(command, stdout):
    if command == "demo":  # one object per corpus, one a line
        dependency, phrase = map(json.loads, stdout.splitlines())
        return {"dependency": dependency, "phrase": phrase}
    return json.loads(stdout)


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning", "ignore::RuntimeWarning")
@pytest.mark.parametrize("command", sorted(FIGURES))
def test_scores_print_as_percentages_with_two_decimals(command, tmp_path, files):
    args = command_args(command, tmp_path, files)
    if command == "leaf-ancestor":
        args = [*args, "--words"]  # every sentence word by word: the first one's figures are in the JSON
    data = _json(command, runner.invoke(app, [command, *args, "--json"]).stdout)
    result = runner.invoke(app, [command, *args])
    assert result.exit_code == 0, result.output
    text = result.stdout
    for pattern, paths in FIGURES[command]:
        found = re.search(pattern, text, re.M)
        assert found, f"{command}: {pattern!r} not in:\n{text}"
        fractions = [_at(data, path) for path in paths]
        assert all(isinstance(v, float) and -20 <= v <= 1 for v in fractions), (command, paths, fractions)  # JSON: fractions
        assert list(found.groups()) == [f"{100 * v:.2f}" for v in fractions], (command, pattern, fractions)
        assert [float(v) for v in found.groups()] == [round(100 * v, 2) for v in fractions]
    for line in text.splitlines():
        if NOT_SCORES.search(line):
            continue
        assert not FRACTION.search(line), f"{command}: a fraction in {line!r}"
        assert not ONE_DECIMAL.search(line) or " paper " in line, f"{command}: one decimal in {line!r}"


def test_every_command_that_prints_scores_is_checked():
    assert set(FIGURES) == set(COMMANDS) - {"evalb", "judge"}  # evalb prints EVALB's bytes; judge no score


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_evalb_and_the_conll18_table_keep_their_formats(tmp_path, files):
    text = runner.invoke(app, ["evalb", *command_args("evalb", tmp_path, files)]).stdout
    assert "Bracketing FMeasure       =  83.33" in text and "   1    2    0   66.67  66.67" in text
    text = runner.invoke(app, ["evaluate", *command_args("evaluate", tmp_path, files)]).stdout
    assert "LAS        |     44.44 |     44.44 |     44.44 |     44.44" in text


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_alpha_intervals_are_percentages(files):
    a, b = files
    result = runner.invoke(app, ["alpha", str(a), str(b), "--bootstrap", "50", "--json"])
    data = json.loads(result.stdout)
    text = runner.invoke(app, ["alpha", str(a), str(b), "--bootstrap", "50"]).stdout
    line = next(line for line in text.splitlines() if line.startswith("alpha norm: "))
    assert line.startswith(f"alpha norm: {100 * data['alpha_norm']:.2f}% (95% interval "
                           f"{100 * data['alpha_norm_low']:.2f}% .. {100 * data['alpha_norm_high']:.2f}%, "), line
    assert not FRACTION.search(line)


def test_the_html_report_prints_alpha_in_percent(tmp_path, files):
    args = command_args("report", tmp_path, files)
    data = json.loads(runner.invoke(app, ["report", *args, "--json"]).stdout)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    for kind in ("plain", "diff", "norm"):
        shown = re.search(rf"α {kind}</td><td>([^<]+)</td>", page).group(1)
        assert shown == f"{100 * data[f'alpha_{kind}']:.2f}"
    assert re.search(r"<td class='name'>a / b</td><td>4</td><td>([\d.]+)</td><td>(-?[\d.]+)</td>", page).groups() == (
        f"{100 * data['las']:.2f}", f"{100 * data['alpha_plain']:.2f}")
    assert "value (%)" in page and "α plain (%)" in page
    assert not re.search(r"<td>[+-]?0\.\d{3}</td>", page)  # no α as a fraction left
    assert re.search(r"mean δnorm² 0\.\d{3}<", page)  # distances stay as they are


@pytest.mark.parametrize("value, digits, width, sign, shown", [
    (0.8773, 2, 0, False, "87.73"), (-0.125, 2, 0, False, "-12.50"), (1.0, 2, 7, False, " 100.00"),
    (0.95, 0, 0, False, "95"), (0.5, 2, 0, True, "50.00%"), (None, 2, 6, False, "   n/a"),
    (math.nan, 2, 0, True, "n/a"),
])
def test_the_one_formatter(value, digits, width, sign, shown):
    assert percent(value, digits, width, sign) == shown
