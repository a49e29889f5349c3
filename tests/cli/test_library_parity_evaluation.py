"""Library first (issue 40): ``sa.evaluate``, ``sa.compare``, ``sa.judgments`` and ``sa.judge`` are the
``evaluate``, ``compare``, ``judgments`` and ``judge`` commands. On the same inputs and options, the
command's ``--json`` (run through typer's CliRunner) and the function's ``.to_dict()`` are equal key for
key, signature included: ``evaluate`` on files with the gold's tokens (conll18_ud_eval.py's thirteen
scores beside the package's, ``--convention package`` and ``spacy``) and with other tokens (the
character alignment), ``compare`` with a seed (dependency, other tokens, brackets), ``judgments`` on the
judged fixtures and the data of Plank et al. (2015), ``judge``. The functions' defaults are the commands'
option defaults; ``sa.evaluate`` follows the command (conll18), where the old
``parser_metrics.evaluate`` keeps 0.2's convention; undefined figures warn once per call; the results
show themselves; the old import paths keep working."""
import ast
import inspect
import json
import math
import shutil
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.adapters.conllu.trees import read_conll
from spacy_agreement.cli import app
from spacy_agreement.cli.compare import compare_command
from spacy_agreement.cli.evaluate import evaluate_command
from spacy_agreement.cli.judge import judge_command
from spacy_agreement.cli.judgments import judgments_command
from spacy_agreement.cli._output import tsv_lines

from .. import helpers

from ..report.judging_data import write_systems

DATA = Path(__file__).parents[1] / "data"
CONLL18 = DATA / "conll18"
EVALB = DATA / "evalb"
PLANK = DATA / "plank" / "xx"
SAME = ["case1", "case2", "case3", "case4", "case5", "random"]
OTHER = ["retok1", "retok2", "retok3", "retok4", "retok5"]
#: Options of the commands that only shape what is printed: not parameters of the functions.
PRINTING = {"--json", "--tsv", "--output", "--quiet", "--worst", "--help"}


def pair(name):
    return CONLL18 / f"{name}.gold.conllu", CONLL18 / f"{name}.sys.conllu"


def cli(*args, expect=0):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sa.UndefinedMetricWarning)
        result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == expect, result.output
    return result


def cli_json(*args):
    result = cli(*args, "--json")
    return json.loads(result.stdout)


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sa.UndefinedMetricWarning)
        return function(*args, **kwargs)


def assert_same(printed, data):
    assert list(printed) == list(data)
    for key in printed:
        assert printed[key] == data[key], key


def option_defaults(command):
    return helpers.option_defaults(command, PRINTING)


def as_compared(value):
    return list(value) if isinstance(value, (list, tuple)) else value


@pytest.mark.parametrize("function, command, positional", [
    (sa.evaluate, evaluate_command, ["gold", "system", "args"]),  # args: 0.3's positional settings, deprecated
    (sa.compare, compare_command, ["gold", "systems"]),
    (sa.judgments, judgments_command, ["paths"]),
    (sa.judge, judge_command, ["system_a", "system_b", "args"]),  # args: gold (0.3: the settings, deprecated)
])
def test_function_defaults_are_the_command_defaults(function, command, positional):
    parameters = inspect.signature(function).parameters
    defaults = option_defaults(command)
    assert defaults, command
    assert list(parameters)[:len(positional)] == positional
    for name, default in defaults.items():
        assert name in parameters, f"{function.__name__} lacks {name}"
        parameter = parameters[name]
        if default is ...:  # required by the command (judge --html): optional in the library
            assert parameter.default is None, name
        else:
            assert as_compared(parameter.default) == as_compared(default), (name, parameter.default, default)
        if name not in positional:
            assert parameter.kind == inspect.Parameter.KEYWORD_ONLY, name
    for name in ("settings", "signature"):
        assert parameters[name].kind == inspect.Parameter.KEYWORD_ONLY, name


def test_the_top_level_names():
    for name in ("evaluate", "compare", "judgments", "judge", "judging_page", "EvaluateRun", "CompareRun",
                 "JudgmentsRun", "JudgingPage", "EvaluationSettings", "ComparisonSettings", "JudgmentSettings",
                 "JudgingSettings"):
        assert name in sa.__all__ and hasattr(sa, name), name
    from spacy_agreement.report.judging_page import judging_page

    assert sa.judging_page is judging_page and sa.judge.__module__ == judging_page.__module__


# ------------------------------------------------------------------------------------------- evaluate

SAME_OPTIONS = [([], {}), (["--convention", "package"], {"convention": "package"}),
                (["--convention", "spacy"], {"convention": "spacy"})]


@pytest.mark.parametrize("name", SAME)
@pytest.mark.parametrize("args, options", SAME_OPTIONS, ids=["conll18", "package", "spacy"])
def test_evaluate_json_is_the_function_on_the_same_tokens(name, args, options):
    gold, system = pair(name)
    printed = cli_json("evaluate", gold, system, *args)
    run = quietly(sa.evaluate, gold, system, **options)
    data = run.to_dict()
    assert_same(printed, data)
    assert data["alignment"] == run.alignment == "identical"
    assert data["signature"] == run.signature == run.settings.signature()
    assert f"conv:{options.get('convention', 'conll18')}" in run.signature
    assert ("las_f1" in data) == (not options)  # conll18's table beside the metrics under conll18 only
    if not options:
        assert data["las"] == pytest.approx(data["las_f1"], abs=1e-12)


@pytest.mark.parametrize("name", OTHER)
@pytest.mark.parametrize("args, options", [([], {}), (["--skip-mismatched"], {"skip_mismatched": True}),
                                           (["--convention", "package", "--skip-mismatched"],
                                            {"convention": "package", "skip_mismatched": True}),
                                           (["--convention", "spacy", "--skip-mismatched"],
                                            {"convention": "spacy", "skip_mismatched": True})],
                         ids=["conll18", "skip", "package", "spacy"])
def test_evaluate_json_is_the_function_on_other_tokens(name, args, options):
    gold, system = pair(name)
    printed = cli_json("evaluate", gold, system, *args)
    run = quietly(sa.evaluate, str(gold), str(system), **options)  # paths as str or Path
    data = run.to_dict()
    assert_same(printed, data)
    if not options:  # the raw-text alignment, which only the command could reach before
        assert run.alignment == data["alignment"] == "characters" and data["signature"] == run.signature
        assert data["las"] == data["las_f1"] == run.las and run.aligned.las.f1 == run.las
    else:
        assert run.alignment == "identical" and data["sentences_skipped"] > 0


@pytest.mark.parametrize("name", ["retok1", "retok3"])
def test_other_tokens_with_another_convention_is_the_commands_error(name):
    gold, system = pair(name)
    result = cli("evaluate", gold, system, "--convention", "package", expect=1)
    with pytest.raises(sa.errors.BadOptionError) as caught:
        sa.evaluate(gold, system, convention="package")
    assert "--fold-root-case" in str(caught.value) and "--keep-subtypes" in result.output


@pytest.mark.parametrize("name, args, options", [
    ("case1", ["--ci", "--resamples", "60", "--seed", "3", "--interval", "basic"],
     {"ci": True, "resamples": 60, "seed": 3, "interval": "basic"}),
    ("case3", ["--breakdown", "all", "--ci", "--resamples", "40"], {"breakdown": "all", "ci": True, "resamples": 40}),
    ("case2", ["--no-punct", "--punct", "form", "--keep-subtypes", "--fold-root-case", "--ned", "undirected"],
     {"no_punct": True, "punct": "form", "ignore_subtypes": False, "case_sensitive_root": False, "ned": "undirected"}),
    ("case4", ["--strict", "--ted-norm", "max", "--verb-tags", "VERB,AUX", "--punct-label", "punct",
               "--punct-label", "dep"],
     {"strict": True, "ted_norm": "max", "verb_tags": "VERB,AUX", "punct_label": ["punct", "dep"]}),
    ("retok2", ["--ci", "--resamples", "40", "--breakdown", "direction,upos"],
     {"ci": True, "resamples": 40, "breakdown": "direction,upos"}),
    ("retok4", ["--ignore-forms", "--skip-mismatched", "--convention", "conll07"],
     {"ignore_forms": True, "skip_mismatched": True, "convention": "conll07"}),
])
def test_evaluate_json_is_the_function_with_options(name, args, options):
    gold, system = pair(name)
    printed = cli_json("evaluate", gold, system, *args)
    data = quietly(sa.evaluate, gold, system, **options).to_dict()
    assert_same(printed, data)
    assert ("ci" in data) == bool(options.get("ci")) and ("breakdowns" in data) == bool(options.get("breakdown"))
    tsv = cli("evaluate", gold, system, *args, "--tsv")
    assert tsv.stdout == tsv_lines(data) + "\n"


def test_evaluate_label_map_as_a_file_or_a_mapping(tmp_path):
    gold, system = pair("case2")
    mapping = tmp_path / "map.tsv"
    mapping.write_text("nsubj\tobj\nobj\tnsubj\n", encoding="utf-8")
    printed = cli_json("evaluate", gold, system, "--label-map", mapping, "--convention", "conll07")
    by_file = quietly(sa.evaluate, gold, system, label_map=mapping, convention="conll07").to_dict()
    by_dict = quietly(sa.evaluate, gold, system, label_map={"nsubj": "obj", "obj": "nsubj"},
                      convention="conll07").to_dict()
    assert_same(printed, by_file)
    assert by_dict == by_file and "lmap:none" not in by_file["signature"]


def test_evaluate_settings_object_and_signature_given_back():
    gold, system = pair("case3")
    first = quietly(sa.evaluate, gold, system, convention="plank2015")
    signature = first.signature
    assert quietly(sa.evaluate, gold, system, signature).to_dict() == first.to_dict()
    assert quietly(sa.evaluate, gold, system, first.settings).to_dict() == first.to_dict()
    assert_same(cli_json("evaluate", gold, system, "--signature", signature), first.to_dict())
    with pytest.raises(sa.errors.BadOptionError, match="ted_norm"):
        sa.evaluate(gold, system, first.settings, ted_norm="gold")


def test_evaluate_takes_trees_with_the_commands_defaults():
    gold, system = pair("case1")
    g, s = read_conll(gold), read_conll(system)
    files, trees = quietly(sa.evaluate, gold, system), quietly(sa.evaluate, g, s)
    assert trees.signature == files.signature and "conv:conll18" in trees.signature
    # the trees are written to files and read as paths are (issue 49): conll18's table beside them too
    assert trees.scores == files.scores and trees.aligned is not None
    assert trees.to_dict() == files.to_dict()
    package = quietly(sa.evaluate, g, s, convention="package").to_dict()
    assert package == quietly(sa.evaluate, gold, system, convention="package").to_dict()
    # trees over other tokens: written to files, they are aligned by their characters as the files are
    gold_other, system_other = pair("retok1")
    by_trees = quietly(sa.evaluate, read_conll(gold_other), read_conll(system_other))
    assert by_trees.alignment == "characters"
    assert by_trees.scores == quietly(sa.evaluate, gold_other, system_other).scores


def test_the_old_evaluate_keeps_its_defaults_and_the_command_follows_conll18(tmp_path):
    """On a file with subtypes the old library call (0.2's convention) and the command differ; the
    top-level function is the command; each says so in its signature."""
    from spacy_agreement.evaluation.dependency.metrics import EvaluationSettings, evaluate

    gold, system = pair("case2")
    g, s = read_conll(gold), read_conll(system)
    assert any(":" in label for tree in g for label in tree.deprels)  # subtypes
    old = quietly(evaluate, g, s)
    new = quietly(sa.evaluate, gold, system)
    assert "conv:package" in old.signature and "conv:conll18" in new.signature
    assert EvaluationSettings() == EvaluationSettings.for_convention("package")
    assert quietly(evaluate, g, s, EvaluationSettings.for_convention("conll18")).scores == new.scores
    assert cli_json("evaluate", gold, system)["las"] == new.las
    assert cli_json("evaluate", gold, system, "--convention", "package")["las"] == old.las


def test_undefined_metrics_warn_once_per_call():
    tree = sa.DependencyTree.create([2, 0, 2], ["nsubj", "root", "obj"], forms=["a", "b", "c"],
                                    upos=["PRON", "NOUN", "NOUN"])
    from spacy_agreement.evaluation.dependency.metrics import evaluate

    with pytest.warns(sa.UndefinedMetricWarning) as record:
        run = sa.evaluate([tree], [tree])
    record = [w for w in record if w.category is sa.UndefinedMetricWarning]
    assert len(record) == 1 and record[0].filename == __file__  # one warning, at the call
    assert record[0].message.metrics == ("ucp", "lcp") and math.isnan(run.ucp) and math.isnan(run.lcp)
    with pytest.warns(sa.UndefinedMetricWarning) as record:
        evaluate([tree], [tree])  # the old call too
    record = [w for w in record if w.category is sa.UndefinedMetricWarning]
    assert len(record) == 1 and record[0].message.metrics == ("ucp", "lcp")
    gold, system = pair("retok5")  # nothing aligned: the script's content-word scores undefined
    with pytest.warns(sa.UndefinedMetricWarning) as record:
        run = sa.evaluate(gold, system)
        data = run.to_dict()
    record = [w for w in record if w.category is sa.UndefinedMetricWarning]
    assert len(record) == 1 and {"clas_f1", "blex_f1"} <= set(record[0].message.metrics)
    assert data["clas_f1"] is None
    with warnings.catch_warnings():  # defined everywhere: no warning
        warnings.simplefilter("error")
        sa.evaluate(*pair("case1")).to_dict()


def test_the_command_prints_the_undefined_values_of_a_call_as_before(tmp_path):
    """One warning per call, and the command's warning lines are those of one warning per value:
    the values of one reason on one line."""
    gold = tmp_path / "g.conllu"
    gold.write_text("1\ta\t_\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tb\t_\tNOUN\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    with pytest.warns(sa.UndefinedMetricWarning):
        result = CliRunner().invoke(app, ["evaluate", str(gold), str(gold)])
    assert result.exit_code == 0 and result.stderr.splitlines() == [
        "warning: ucp and lcp are undefined: no scored gold verb with a non-punctuation dependent; returning nan"]


def test_evaluate_result_shows_itself():
    run = quietly(sa.evaluate, *pair("case1"))
    text = repr(run)
    assert "\n" not in text and text.startswith("EvaluateRun(LAS ") and text.endswith(run.signature + ")")
    assert f"{100 * run.las:.2f}" in text and "tokens" in text
    html = run._repr_html_()
    assert "<table>" in html and "LAS" in html and "evaluate|" in html and "<pre" in html  # with conll18's table
    other = quietly(sa.evaluate, *pair("retok1"))
    assert "characters" in repr(other) and "<pre" in other._repr_html_()


def test_evaluate_keeps_the_old_import_paths(tmp_path):
    from spacy_agreement.cli import evaluate as old
    from spacy_agreement.evaluation.conll18 import files as conll18_files

    for name in ("evaluate_streamed", "aligned_scores", "conll18_beside", "tokens_differ", "text_difference",
                 "check_conll18_options", "conll18_changes", "dependency_trees", "refuse_as_conll18", "aligned_json",
                 "aligned_keys", "format_result", "format_aligned", "CONVENTION_HELP", "load_pipeline",
                 "parse_with_model", "from_raw_text", "aligned_intervals"):
        assert hasattr(old, name), name
    assert old.tokens_differ is conll18_files.tokens_differ and old.aligned_scores is conll18_files.aligned_scores
    gold, system = pair("retok1")
    g, s = read_conll(gold), read_conll(system)
    assert old.tokens_differ(g, s, True) and old.text_difference(g, s, gold, system) is None


def test_compare_imports_no_other_command():
    for module in ("compare", "evaluate", "judgments", "judge"):
        source = (Path(sa.__file__).parent / "cli" / f"{module}.py").read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                assert node.module not in ("evaluate", "evalb", "compare", "judgments", "judge", "alpha", "layers",
                                           "leaf_ancestor", "discourse"), (module, node.module)


# -------------------------------------------------------------------------------------------- compare

def perturbed(source, target, rate, seed, values=("obj", "nsubj", "obl", "nmod")):
    """A copy of a CoNLL file with a share of its labels changed (another system)."""
    import random

    rng = random.Random(seed)
    out = []
    for line in source.read_text(encoding="utf-8").split("\n"):
        cols = line.split("\t")
        if len(cols) >= 8 and cols[0].isdigit() and rng.random() < rate:
            cols[7] = rng.choice([v for v in values if v != cols[7]])
        out.append("\t".join(cols))
    target.write_text("\n".join(out), encoding="utf-8")
    return target


COMPARE_OPTIONS = ["--shuffles", "400", "--resamples", "150", "--seed", "7"]
COMPARE_KEYWORDS = {"shuffles": 400, "resamples": 150, "seed": 7}


@pytest.mark.parametrize("args, options", [
    ([], {}),
    (["--metric", "las", "--metric", "clas", "--interval", "basic", "--confidence", "0.9"],
     {"metric": ["las", "clas"], "interval": "basic", "confidence": 0.9}),
    (["--convention", "package", "--breakdown", "direction", "--correction", "bonferroni"],
     {"convention": "package", "breakdown": "direction", "correction": "bonferroni"}),
])
def test_compare_json_is_the_function_on_dependency_systems(tmp_path, args, options):
    gold = CONLL18 / "random.gold.conllu"
    a = CONLL18 / "random.sys.conllu"
    b = perturbed(gold, tmp_path / "b.conllu", 0.1, seed=1)
    c = perturbed(gold, tmp_path / "c.conllu", 0.2, seed=2)
    printed = cli_json("compare", gold, a, b, c, *COMPARE_OPTIONS, *args)
    run = quietly(sa.compare, gold, [a, b, c], **COMPARE_KEYWORDS, **options)
    data = run.to_dict()
    assert_same(printed, data)
    assert data["alignment"] == run.alignment == "identical" and data["seed"] == 7
    assert data["signature"] == run.signature and data["evaluation_signature"] == run.evaluation_signature
    assert run.pairs[0].a == "random.sys.conllu" and run.pairs[0].b == "b.conllu"


def test_compare_json_is_the_function_on_other_tokens_and_with_the_signature_given_back(tmp_path):
    gold, system = pair("retok1")
    same = shutil.copy(gold, tmp_path / "same.conllu")
    printed = cli_json("compare", gold, system, same, *COMPARE_OPTIONS)
    run = quietly(sa.compare, gold, [system, same], **COMPARE_KEYWORDS)
    assert_same(printed, run.to_dict())
    assert run.alignment == "characters" and run.evaluation_signature.startswith("conll18|")
    again = quietly(sa.compare, gold, [system, same], run.signature)
    assert again.to_dict() == run.to_dict()
    assert_same(cli_json("compare", gold, system, same, "--signature", run.signature), run.to_dict())


@pytest.mark.parametrize("gold, test, args, options", [
    ("main.gld", "main.tst", [], {}),
    ("multiline.mrg", "multiline.tst", ["-p", EVALB / "evalb.prm", "--leaf-ancestor"],
     {"params": EVALB / "evalb.prm", "leaf_ancestor": True})])
def test_compare_json_is_the_function_on_brackets(tmp_path, gold, test, args, options):
    gold, test = EVALB / gold, EVALB / test
    other = tmp_path / "other.tst"
    other.write_text(gold.read_text(encoding="latin-1"), encoding="latin-1")
    printed = cli_json("compare", gold, test, other, *COMPARE_OPTIONS, *args)
    run = quietly(sa.compare, gold, [test, other], **COMPARE_KEYWORDS, **options)
    assert_same(printed, run.to_dict())
    assert run.alignment == "lines"


def test_compare_result_reads_from_python_and_shows_itself(tmp_path):
    gold = CONLL18 / "random.gold.conllu"
    b = perturbed(gold, tmp_path / "b.conllu", 0.3, seed=3)
    notes = []
    run = quietly(sa.compare, gold, [gold, b], metric=["las"], seed=1, shuffles=500, resamples=200, note=notes.append)
    las = run.pair("random.gold.conllu", "b.conllu")
    assert las.difference["las"] < 0 and 0 < las.p_randomization["las"] <= 1
    assert run.values["b.conllu"]["las"] < run.values["random.gold.conllu"]["las"] == 1.0
    assert notes and notes[-1].startswith("comparing 2 systems")
    text = repr(run)
    assert "\n" not in text and text.startswith("CompareRun(2 systems") and text.endswith(run.signature + ")")
    assert "<table>" in run._repr_html_() and "compare|" in run._repr_html_()
    with pytest.raises(sa.errors.BadOptionError, match="two system files"):
        sa.compare(gold, [gold])


# ------------------------------------------------------------------------------------------ judgments

@pytest.mark.parametrize("args, options", [
    ([], {}),
    (["--no-punct", "--punct", "form", "--ned", "undirected"], {"no_punct": True, "punct": "form", "ned": "undirected"}),
    (["--metric", "las", "--metric", "ned", "--kappa", "fleiss", "--ties", "skip", "--seed", "3"],
     {"metric": ["las", "ned"], "kappa": "fleiss", "ties": "skip", "seed": 3}),
])
def test_judgments_json_is_the_function(args, options):
    printed = cli_json("judgments", PLANK, *args)
    run = quietly(sa.judgments, PLANK, **options)
    data = run.to_dict()
    assert_same(printed, data)
    assert data["signature"] == run.signature == run.settings.signature()
    assert quietly(sa.judgments, PLANK, settings=run.signature).to_dict() == data
    assert cli("judgments", PLANK, *args).stdout == run.text() + f"\n\nsignature: {run.signature}\n"


def test_judgments_json_is_the_function_on_the_papers_data(plank_data):
    args = ["--no-punct", "--punct", "form", "--ned", "undirected"]
    printed = cli_json("judgments", plank_data / "en", *args)
    run = quietly(sa.judgments, plank_data / "en", no_punct=True, punct="form", ned="undirected")
    assert_same(printed, run.to_dict())
    assert run.items == 200


def test_judgments_result_shows_itself():
    run = quietly(sa.judgments, PLANK)
    text = repr(run)
    assert "\n" not in text and text.startswith(f"JudgmentsRun({run.items} items") and text.endswith(run.signature + ")")
    assert "<table>" in run._repr_html_() and "judgments|" in run._repr_html_()
    with pytest.raises(sa.errors.BadOptionError, match="--parses"):
        sa.judgments(PLANK, parses="gold")


# ---------------------------------------------------------------------------------------------- judge

def test_judge_json_is_the_function(tmp_path):
    gold, malt, mst = write_systems(tmp_path)
    page_path, again = tmp_path / "page.html", tmp_path / "again.html"
    args = ["--gold", gold, "--items", "3", "--seed", "2", "--layout", "side-by-side", "--no-ties", "--title", "T"]
    printed = cli_json("judge", malt, mst, "--html", page_path, *args)
    page = sa.judge(malt, mst, html=again, gold=gold, items=3, seed=2, layout="side-by-side", no_ties=True, title="T")
    assert_same(printed, page.to_dict())
    assert again.read_text(encoding="utf-8") == page_path.read_text(encoding="utf-8") == page.html
    assert sa.judge(malt, mst, page.signature, gold=gold, layout="side-by-side", title="T").html == page.html
    text = repr(page)
    assert "\n" not in text and text.startswith("JudgingPage(3 items") and text.endswith(page.signature + ")")
    assert len(text) < 300  # not the page
