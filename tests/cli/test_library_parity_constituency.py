"""Library first (issue 40): ``sa.evalb`` and ``sa.leaf_ancestor`` are the ``evalb`` and
``leaf-ancestor`` commands. On the same inputs and options, the command's ``--json`` (run through
typer's CliRunner) and the function's ``.to_dict()`` are equal key for key, signature and
bootstrap intervals included, with and without an EVALB parameter file; the functions' defaults
are the commands' option defaults; a library call carries its signature; the results show
themselves (``repr``, ``_repr_html_``)."""
import inspect
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa

from spacy_agreement.cli import app
from spacy_agreement.cli.evalb import evalb_command
from spacy_agreement.cli.leaf_ancestor import leaf_ancestor_command
from spacy_agreement.cli._output import flat, tsv_lines
from spacy_agreement.evaluation.constituency.leaf_ancestor import leaf_ancestor as leaf_ancestor_trees
from spacy_agreement.evaluation.settings import LeafAncestorSettings

from .. import helpers

DATA = Path(__file__).parents[1] / "data"
EVALB = DATA / "evalb"
CONLL = DATA / "conll18"
#: Options of the commands that only shape what is printed: not parameters of the functions.
PRINTING = {"--json", "--tsv", "--output", "--quiet", "--worst", "--words", "--confusion", "--help"}


def cli_json(*args):
    result = CliRunner().invoke(app, [str(a) for a in args] + ["--json"])
    assert result.stdout, result.output
    return result.exit_code, json.loads(result.stdout)


def option_defaults(command):
    return helpers.option_defaults(command, PRINTING)


@pytest.mark.parametrize("function, command", [(sa.evalb, evalb_command), (sa.leaf_ancestor, leaf_ancestor_command)])
def test_function_defaults_are_the_command_defaults(function, command):
    parameters = inspect.signature(function).parameters
    defaults = option_defaults(command)
    assert defaults, command
    for name, default in defaults.items():
        assert name in parameters, f"{function.__name__} lacks {name}"
        parameter = parameters[name]
        assert parameter.default == default, (name, parameter.default, default)
        kind = inspect.Parameter.KEYWORD_ONLY  # the annotations alone are positional (issue 49)
        assert parameter.kind == kind, name
    assert list(parameters)[2] == "args"  # 0.3's settings positionally: deprecated
    assert parameters["args"].kind == inspect.Parameter.VAR_POSITIONAL


# ------------------------------------------------------------------------------------------- evalb

EVALB_CASES = [  # (gold, test, CLI options, function options)
    ("main.gld", "main.tst", [], {}),
    ("main.gld", "main.tst", ["-p", EVALB / "evalb.prm"], {"params": EVALB / "evalb.prm"}),
    ("main.gld", "main.tst", ["-p", EVALB / "debug.prm"], {"params": str(EVALB / "debug.prm")}),
    ("main.gld", "main.tst", ["-p", EVALB / "strict.prm"], {"params": EVALB / "strict.prm"}),  # EVALB gives up
    ("main.gld", "main.tst", ["-p", EVALB / "evalb.prm", "-e", "1", "-c", "5"],
     {"params": EVALB / "evalb.prm", "max_error": 1, "cutoff_len": 5}),
    ("main.gld", "main.tst", ["--ci", "--resamples", "200", "--seed", "3", "--interval", "basic"],
     {"ci": True, "resamples": 200, "seed": 3, "interval": "basic"}),
    ("short.gld", "short.tst", [], {}),
    ("fatal.gld", "fatal.tst", [], {}),
    ("multiline.mrg", "multiline.tst", ["-p", EVALB / "evalb.prm", "--ci", "--resamples", "100"],
     {"params": EVALB / "evalb.prm", "ci": True, "resamples": 100}),
]


@pytest.mark.parametrize("gold, test, args, options", EVALB_CASES)
def test_evalb_json_is_the_function(gold, test, args, options):
    code, printed = cli_json("evalb", EVALB / gold, EVALB / test, *args)
    run = sa.evalb(EVALB / gold, EVALB / test, **options)
    data = run.to_dict()
    assert list(printed) == list(data)
    for key in printed:
        assert printed[key] == data[key], key
    assert data["signature"] == run.settings.signature() == run.signature
    assert code == (1 if run.aborted else 0)
    assert ("ci" in data) == (options.get("ci", False) and not run.aborted)
    tsv = CliRunner().invoke(app, [str(a) for a in ("evalb", EVALB / gold, EVALB / test, *args, "--tsv")])
    assert tsv.stdout == tsv_lines(run.to_dict(sentences=False)) + "\n"


def test_evalb_params_object_settings_and_signature_given_back():
    params = sa.EvalbSettings.read(EVALB / "evalb.prm")
    by_path = sa.evalb(EVALB / "main.gld", EVALB / "main.tst", params=EVALB / "evalb.prm").to_dict()
    assert sa.evalb(EVALB / "main.gld", EVALB / "main.tst", params=params).to_dict() == by_path
    assert sa.evalb(EVALB / "main.gld", EVALB / "main.tst", params).to_dict() == by_path  # settings=
    signature = by_path["signature"]
    assert sa.evalb(EVALB / "main.gld", EVALB / "main.tst", signature).to_dict() == by_path  # no file needed
    code, printed = cli_json("evalb", EVALB / "main.gld", EVALB / "main.tst", "--signature", signature)
    assert printed == by_path
    with pytest.raises(sa.errors.BadOptionError, match="cutoff_len"):
        sa.evalb(EVALB / "main.gld", EVALB / "main.tst", params, cutoff_len=5)


def test_evalb_keeps_evaluate_files_and_the_old_import_paths():
    from spacy_agreement.cli.evalb import check_bracketed, looks_like_conll  # compare's
    from spacy_agreement.evaluation.constituency.evalb import evaluate_files

    report = evaluate_files(EVALB / "main.gld", EVALB / "main.tst", sa.EvalbSettings())
    run = sa.evalb(EVALB / "main.gld", EVALB / "main.tst")
    assert report.to_dict() == {k: v for k, v in run.to_dict().items() if k != "signature"}
    assert run.all.matched == report.all.matched and run.text().splitlines()[-1].startswith("Tagging accuracy")
    assert looks_like_conll(CONLL / "case1.gold.conllu") and check_bracketed(EVALB / "main.gld") is None
    with pytest.raises(sa.InvalidTreeError, match="looks like CoNLL"):
        sa.evalb(CONLL / "case1.gold.conllu", EVALB / "main.tst")


def test_evalb_result_shows_itself():
    run = sa.evalb(EVALB / "main.gld", EVALB / "main.tst", params=EVALB / "evalb.prm")
    text = repr(run)
    assert "\n" not in text and text.startswith("EvalbRun(F ") and text.endswith(run.signature + ")")
    assert f"{run.scores()['fmeasure']:.2f}" in text
    html = run._repr_html_()
    assert "Bracketing FMeasure" in html and "<table>" in html and "evalb|" in html
    aborted = sa.evalb(EVALB / "main.gld", EVALB / "main.tst", params=EVALB / "strict.prm")
    assert "aborted" in repr(aborted) and "aborted" in aborted._repr_html_()


# ----------------------------------------------------------------------------------- leaf-ancestor

def bracket_pair(tmp_path: Path, n: int = 24):
    """Gold and candidate bracket files of ``n`` sentences with differences, a failed parse
    (blank line) and a sentence whose words differ."""
    rng = random.Random(n)
    words = "the cat sat on a mat with dog".split()
    gold, cand = [], []
    for k in range(n):
        w = rng.sample(words, 4)
        gold.append(f"(S (NP (DT {w[0]}) (NN {w[1]})) (VP (VBD {w[2]}) (NP (NN {w[3]}))))")
        cand.append([f"(S (NP (DT {w[0]})) (VP (NN {w[1]}) (VBD {w[2]}) (NN {w[3]})))", gold[-1],
                     f"(S (NP (DT {w[0]}) (NN {w[1]}) (VBD {w[2]})) (ADVP (RB {w[3]})))"][k % 3])
    cand[5], cand[7] = "(S (NP (DT x) (NN y)))", ""
    paths = tmp_path / "gold.mrg", tmp_path / "cand.mrg"
    paths[0].write_text("\n".join(gold) + "\n", encoding="utf-8")
    paths[1].write_text("\n".join(cand) + "\n", encoding="utf-8")
    return paths


LEAF_CASES = [  # (CLI options, function options)
    ([], {}),
    (["--costs", "first-char"], {"costs": "first-char"}),
    (["--evalb-params", EVALB / "evalb.prm"], {"evalb_params": EVALB / "evalb.prm"}),
    (["--evalb-params", EVALB / "evalb.prm", "--costs", "first-char"],
     {"evalb_params": sa.EvalbSettings.read(EVALB / "evalb.prm"), "costs": "first-char"}),
    (["--ci", "--resamples", "100", "--seed", "2"], {"ci": True, "resamples": 100, "seed": 2}),
    (["--format", "bracket", "--ci", "--resamples", "100", "--evalb-params", EVALB / "evalb.prm"],
     {"format": "bracket", "ci": True, "resamples": 100, "evalb_params": EVALB / "evalb.prm"}),
]


def assert_leaf_parity(gold, candidate, args, options):
    code, printed = cli_json("leaf-ancestor", gold, candidate, *args)
    assert code == 0
    run = sa.leaf_ancestor(gold, candidate, **options)
    data = run.to_dict()
    assert list(printed) == list(data)
    for key in printed:
        assert printed[key] == data[key], key
    assert data["signature"] == run.signature == run.settings.signature()
    tsv = CliRunner().invoke(app, [str(a) for a in ("leaf-ancestor", gold, candidate, *args, "--tsv")])
    assert tsv.stdout == tsv_lines(run.to_dict(sentences=False)) + "\n"
    return run, data


@pytest.mark.parametrize("args, options", LEAF_CASES)
def test_leaf_ancestor_json_is_the_function_on_bracket_files(tmp_path, args, options):
    gold, candidate = bracket_pair(tmp_path)
    run, data = assert_leaf_parity(gold, candidate, args, options)
    assert data["sentences_skipped"] == 2 and len(data["skipped"]) == 2 and data["sentences"]
    assert ("ci" in data) == options.get("ci", False)


@pytest.mark.parametrize("args, options", LEAF_CASES[:3])
def test_leaf_ancestor_json_is_the_function_on_the_evalb_fixtures(args, options):
    assert_leaf_parity(EVALB / "multiline.mrg", EVALB / "multiline.tst", args, options)


@pytest.mark.parametrize("args, options", [([], {}), (["--costs", "first-char", "--strict"],
                                                      {"costs": "first-char", "strict": True}),
                                           (["--format", "conllu", "--ci", "--resamples", "50"],
                                            {"format": "conllu", "ci": True, "resamples": 50})])
def test_leaf_ancestor_json_is_the_function_on_conll(args, options):
    run, data = assert_leaf_parity(CONLL / "case1.gold.conllu", CONLL / "case1.sys.conllu", args, options)
    assert "geig_labelled" not in data  # dependency trees: no GEIG


def test_leaf_ancestor_on_annotator_trees(iaa, tmp_path):
    """Two annotators' derivation trees of the same 30 sentences (SSD, Skjærholt 2014), one file
    each, trees spread over lines: some sentences scored, others skipped (their lexical types,
    the leaves, differ)."""
    first, second = (iaa / "ssd" / "ssd.emily2"), (iaa / "ssd" / "ssd.woodley")
    items = [(p, second / p.name.replace("emily2", "woodley")) for p in sorted(first.glob("*.tree"))]
    items = [(a, b) for a, b in items if b.exists()][:30]
    gold, candidate = tmp_path / "emily2.tree", tmp_path / "woodley.tree"
    for path, column in ((gold, 0), (candidate, 1)):
        path.write_text("".join(pair[column].read_text(encoding="utf-8").strip() + "\n" for pair in items),
                        encoding="utf-8")
    for args, options in LEAF_CASES[:2]:
        run, data = assert_leaf_parity(gold, candidate, args, options)
        assert data["sentences_scored"] > 5 and data["sentences_skipped"] > 5


def test_leaf_ancestor_library_call_carries_the_signature(tmp_path):
    gold, candidate = bracket_pair(tmp_path)
    params = sa.EvalbSettings.read(EVALB / "evalb.prm")
    run = sa.leaf_ancestor(gold, candidate, costs="first-char", evalb_params=params)
    assert run.settings == LeafAncestorSettings(cost="first-char", evalb=params)
    assert run.signature == LeafAncestorSettings(cost="first-char", evalb=params).signature()
    assert run.signature.startswith("leaf-ancestor|cost:first-char|evalb:sha256:")
    # the signature given back (the EVALB parameters must be given: a digest names them)
    again = sa.leaf_ancestor(gold, candidate, run.signature, evalb_params=EVALB / "evalb.prm")
    assert again.to_dict() == run.to_dict()
    code, printed = cli_json("leaf-ancestor", gold, candidate, "--signature", run.signature, "--evalb-params",
                             EVALB / "evalb.prm")
    assert printed == run.to_dict()
    assert sa.leaf_ancestor(gold, candidate, LeafAncestorSettings(cost="first-char", evalb=params)).to_dict() \
        == run.to_dict()
    with pytest.raises(sa.errors.BadOptionError, match="cost"):  # as --signature with another --costs
        sa.leaf_ancestor(gold, candidate, "leaf-ancestor|cost:exact", costs="first-char")
    with pytest.raises(sa.errors.BadOptionError, match="costs"):
        sa.leaf_ancestor(gold, candidate, costs="nearest")


def test_leaf_ancestor_on_trees_is_the_old_function_with_a_signature(tmp_path):
    gold, candidate = bracket_pair(tmp_path)
    gold_trees = sa.read_brackets(gold, "categories", missing=True)
    cand_trees = sa.read_brackets(candidate, "categories", missing=True)
    old = leaf_ancestor_trees(gold_trees, cand_trees, cost="first-char")
    run = sa.leaf_ancestor(gold_trees, cand_trees, costs="first-char")
    files = sa.leaf_ancestor(gold, candidate, costs="first-char").to_dict()
    data = run.to_dict()
    assert data["gold"] is None and data["candidate"] is None
    assert {k: v for k, v in data.items() if k not in ("gold", "candidate", "sentences")} == \
        {k: v for k, v in files.items() if k not in ("gold", "candidate", "sentences")}
    assert [s["words"] for s in data["sentences"]] == [s["words"] for s in files["sentences"]]
    assert run.leaf_ancestor == old.leaf_ancestor and run.sentences_scored == old.sentences_scored
    assert data["signature"] == LeafAncestorSettings(cost="first-char").signature()


def test_leaf_ancestor_on_nltk_trees():
    nltk = pytest.importorskip("nltk")
    gold = [nltk.Tree.fromstring("(S (NP (D the) (N cat)) (VP (V sat)))")]
    cand = [nltk.Tree.fromstring("(S (NP (D the)) (VP (N cat) (V sat)))")]
    run = sa.leaf_ancestor(gold, cand)
    trees = sa.leaf_ancestor(sa.parse_brackets("(S (NP (D the) (N cat)) (VP (V sat)))", leaves="categories"),
                             sa.parse_brackets("(S (NP (D the)) (VP (N cat) (V sat)))", leaves="categories"))
    assert run.leaf_ancestor == trees.leaf_ancestor and run.to_dict()["geig_labelled"] == \
        trees.to_dict()["geig_labelled"]


def test_leaf_ancestor_result_shows_itself(tmp_path):
    gold, candidate = bracket_pair(tmp_path)
    run = sa.leaf_ancestor(gold, candidate)
    text = repr(run)
    data = run.to_dict(sentences=False)
    assert "\n" not in text and text.startswith("LeafAncestorRun(leaf-ancestor ") and text.endswith(run.signature + ")")
    assert f"{100 * data['leaf_ancestor']:.2f}" in text and f"{100 * data['geig_labelled']:.2f}" in text
    html = run._repr_html_()
    assert "GEIG labelled F" in html and "lowest:" in html and "leaf-ancestor|cost:exact" in html
    assert flat(data) == flat(json.loads(json.dumps(data)))
