"""Every number says how it was computed: each command's JSON carries the signature of its
settings (with the version), and the signature given back (``--signature``, as a string or a
saved JSON file) computes the same numbers on the same files. Also: the signature format,
its errors (the docs' conventions page lists every field: tests/test_docs.py)."""
import json
import re
from contextlib import nullcontext
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.agreement.settings import AlphaSettings
from spacy_agreement.cli import app
from spacy_agreement.errors import BadOptionError
from spacy_agreement.evaluation.constituency.evalb_params import EvalbSettings
from spacy_agreement.evaluation.dependency.settings import EvaluationSettings
from spacy_agreement.evaluation.settings import DiscourseSettings, JudgmentSettings, LeafAncestorSettings
from spacy_agreement.signature import Digest, settings_class

runner = CliRunner()
HERE = Path(__file__).parent
DEMO = Path(sa.__file__).parent / "data" / "demo"
DEPENDENCY = [str(DEMO / "dependency" / name) for name in ("anna", "ben", "cleo")]
PHRASE = [str(DEMO / "phrase" / "annotator-a.tree"), str(DEMO / "phrase" / "annotator-b.tree")]
PLANK = HERE / "data" / "plank" / "xx"
EVALB = HERE / "data" / "evalb"
DISCOURSE = HERE.parent / "examples" / "discourse_example.json"


def run_json(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def without(values, *keys):
    return {k: v for k, v in values.items() if k not in keys}


# each command: its inputs, options that move its numbers away from the defaults, and keys
# that name the files rather than results
COMMANDS = {
    "alpha": (["alpha", "--dirs", *DEPENDENCY], ["--size", "tree", "--delta", "plain", "--delta", "pqgram",
                                                 "--case-sensitive-root", "--alpha", "exact"], ()),
    "alpha-sampled": (["alpha", *PHRASE], ["--sample-pairs", "300", "--seed", "7"], ()),
    "evaluate": (["evaluate", str(PLANK / "gold.conll"), str(PLANK / "parser1.conll")],
                 ["--no-punct", "--punct", "form", "--ignore-subtypes", "--ned", "undirected", "--ted-norm", "max"],
                 ()),
    "leaf-ancestor": (["leaf-ancestor", *PHRASE], ["--costs", "first-char"], ("gold", "candidate")),
    "judgments": (["judgments", str(PLANK)], ["--no-punct", "--ties", "skip", "--metric", "las", "--metric", "uas",
                                              "--kappa", "fleiss"], ()),
    "discourse": (["discourse", str(DISCOURSE)], ["--skip-both-ends"], ()),
    "synthetic": (["synthetic", str(PLANK / "gold.conll"), "--sample", "4", "--runs", "1"], ["--seed", "3"],
                  ("corpus",)),
    "evalb": (["evalb", str(EVALB / "main.gld"), str(EVALB / "main.tst")], ["-p", str(EVALB / "evalb.prm")], ()),
}


def undefined_in(name):
    """The discourse example's Cohen's kappa is undefined (every value in one category): expected."""
    return pytest.warns(sa.UndefinedMetricWarning) if name == "discourse" else nullcontext()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_signature_given_back_reproduces_the_numbers(name, tmp_path):
    base, options, paths = COMMANDS[name]
    with undefined_in(name):
        first = run_json(base + options + ["--json"])
        signature = first["signature"]
        computation = name.split("-sampled")[0]
        assert signature.startswith(computation + "|") and signature.endswith(f"|v:{sa.__version__}")
        default = run_json(base + ["--json"])
        assert default["signature"] != signature  # the options moved the settings
        again = run_json(base + ["--signature", signature, "--json"])
        assert without(again, *paths) == without(first, *paths)
        saved = tmp_path / "run.json"  # a saved JSON output works as well
        saved.write_text(json.dumps(first), encoding="utf-8")
        assert without(run_json(base + ["--signature", str(saved), "--json"]), *paths) == without(first, *paths)
        # the TSV output names it too
        tsv = runner.invoke(app, base + ["--signature", signature, "--tsv"]).stdout
    assert f"signature\t{signature}" in tsv.splitlines() or all(
        line.endswith(f"\t{signature}") for line in tsv.splitlines()[1:])  # synthetic: a column of its table


def test_text_outputs_end_with_the_signature():
    for name, (base, options, _) in COMMANDS.items():
        if name == "evalb":  # EVALB's bytes: the signature is in --json and --tsv only
            continue
        with undefined_in(name):
            text = runner.invoke(app, base + options).stdout
        last = text.strip().splitlines()[-1]
        assert last.startswith("signature: ") and "|v:" in last, name


def test_demo_json_carries_the_signature():
    lines = runner.invoke(app, ["demo", "--json"]).stdout.strip().splitlines()
    assert len(lines) == 2 and all(json.loads(line)["signature"].startswith("alpha|") for line in lines)


def test_every_registered_command_but_the_demo_takes_a_signature():
    from spacy_agreement.cli._registry import COMMANDS

    for name in COMMANDS:
        result = runner.invoke(app, [name, "--help"])
        assert ("--signature" in result.stdout) == (name != "demo"), name


def test_report_json_and_page_carry_the_signature(tmp_path):
    page = tmp_path / "r.html"
    args = ["report", "--dirs", *DEPENDENCY, "--html", str(page), "--json", "--threads", "1"]
    first = run_json(args + ["--size", "tree", "--alpha", "exact"])
    assert "size:tree" in first["signature"] and "method:exact" in first["signature"]
    assert first["signature"] in page.read_text(encoding="utf-8")
    again = run_json(args + ["--signature", first["signature"]])
    assert again == first


def test_an_option_that_disagrees_with_the_signature_is_an_error():
    signature = run_json(["alpha", *PHRASE, "--size", "tree", "--json"])["signature"]
    result = runner.invoke(app, ["alpha", *PHRASE, "--size", "annotation", "--signature", signature])
    assert result.exit_code == 0  # annotation is the default: the signature decides
    # --ned undirected is not the default and the signature says schwartz: a run cannot follow both
    result = runner.invoke(app, ["evaluate", str(PLANK / "gold.conll"), str(PLANK / "parser1.conll"),
                                 "--ned", "undirected", "--signature",
                                 EvaluationSettings(ned="schwartz", ted_norm="max").signature()])
    assert result.exit_code == 1 and "sets ned to 'schwartz'" in result.output and "give one" in result.output


def test_signature_of_another_command_or_with_unknown_fields_is_one_line():
    other = DiscourseSettings().signature()
    result = runner.invoke(app, ["evaluate", str(PLANK / "gold.conll"), str(PLANK / "parser1.conll"),
                                 "--signature", other])
    assert result.exit_code == 1 and "is not one of 'evaluate'" in result.output
    result = runner.invoke(app, ["discourse", str(DISCOURSE), "--signature", "discourse|frobnicate:yes|v:0"])
    assert result.exit_code == 1 and "'frobnicate' is not a setting" in result.output


def test_label_maps_are_digests_and_must_be_given_again(tmp_path):
    mapping = tmp_path / "map.tsv"
    mapping.write_text("nsubj\tnsubj\n", encoding="utf-8")
    files = [str(PLANK / "gold.conll"), str(PLANK / "parser1.conll")]
    first = run_json(["evaluate", *files, "--label-map", str(mapping), "--json"])
    assert re.search(r"\|lmap:sha256:[0-9a-f]{12}\|", first["signature"])
    missing = runner.invoke(app, ["evaluate", *files, "--signature", first["signature"]])
    assert missing.exit_code == 1 and "give the same data" in missing.output
    again = run_json(["evaluate", *files, "--label-map", str(mapping), "--signature", first["signature"], "--json"])
    assert again == first


def test_evalb_signature_carries_the_parameter_file():
    params = EvalbSettings.read(EVALB / "evalb.prm")
    rebuilt = EvalbSettings.from_signature(params.signature())
    assert rebuilt.signature() == params.signature()
    assert rebuilt.delete_labels == params.delete_labels and rebuilt.eq_labels == params.eq_labels


def test_settings_round_trip_through_their_signatures():
    cases = [
        AlphaSettings(deltas=("plain", "norm"), size="tree", method="sampled", sample_pairs=123, seed=4,
                      confidence=0.9, ignore_subtypes=True),
        AlphaSettings(method="exact", bootstrap=200, exclude_mismatched=True),
        EvaluationSettings(exclude_punct=True, punct_rules="form", punct_labels=frozenset({"punct", "p|x,y"}),
                          verb_upos=frozenset({"VA", "VE"}), ned="undirected", fold_root_case=False),
        LeafAncestorSettings(cost="first-char"),
        DiscourseSettings(skip_both_ends=True),
        JudgmentSettings(metrics=("las", "ted"), ties="a", kappa="fleiss", seed=3),
    ]
    for settings in cases:
        text = settings.signature()
        assert settings_class(text) is type(settings)
        assert type(settings).from_signature(text).signature() == text
    with pytest.raises(BadOptionError, match="not a bool"):
        DiscourseSettings.from_signature("discourse|skip2:maybe")
    with pytest.warns(UserWarning, match="made by spacy-agreement 0.0.1"):
        DiscourseSettings.from_signature("discourse|skip2:yes|v:0.0.1")


def test_a_label_cost_table_is_a_digest():
    cost = {("nsubj", "obj"): 0.5}
    text = AlphaSettings(label_cost=cost).signature()
    assert re.search(r"\|cost:sha256:[0-9a-f]{12}\|", text)
    rebuilt = AlphaSettings.from_signature(text)
    assert isinstance(rebuilt.label_cost, Digest)
    assert AlphaSettings(label_cost=cost).merged(text).label_cost == cost
    with pytest.raises(BadOptionError, match="give the same data"):
        AlphaSettings().merged(text)
