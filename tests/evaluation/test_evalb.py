"""The evalb command and module against EVALB's own output (Sekine & Collins).

The ``*.rsl`` and ``*.err`` files in tests/data/evalb were produced by the C program
(evalb.c, 2006 version, ``gcc -O2``) on the fixtures next to them:
``evalb [-p PRM] GOLD TEST > CASE.rsl 2> CASE.err``. ``multiline.evalb.rsl`` was made from
``multiline.mrg`` written one tree a line, since EVALB cannot read trees spread over lines.
Set SPACY_AGREEMENT_EVALB_SRC to an evalb.c to compile it and compare again.
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.evaluation.constituency.evalb import EvalbSettings, evaluate, evaluate_files, file_lines, format_report
from spacy_agreement.evaluation.constituency.geig import bracket_counts

DATA = Path(__file__).parents[1] / "data" / "evalb"

# (expected output stem, gold, test, parameter file or None, EVALB's exit status)
CASES = [
    ("main.evalb", "main.gld", "main.tst", "evalb.prm", 0),
    ("main.default", "main.gld", "main.tst", None, 0),
    ("main.debug", "main.gld", "main.tst", "debug.prm", 0),
    ("main.strict", "main.gld", "main.tst", "strict.prm", 1),
    ("short.default", "short.gld", "short.tst", None, 0),
    ("fatal.default", "fatal.gld", "fatal.tst", None, 1),
    ("multiline.evalb", "multiline.mrg", "multiline.tst", "evalb.prm", 0),
]


def run_module(gold, test, prm):
    params = EvalbSettings.read(DATA / prm) if prm else EvalbSettings()
    report = evaluate_files(DATA / gold, DATA / test, params)
    return params, report


@pytest.mark.parametrize("stem, gold, test, prm, status", CASES, ids=[c[0] for c in CASES])
def test_same_output_as_evalb(stem, gold, test, prm, status):
    params, report = run_module(gold, test, prm)
    assert (format_report(report) + "\n").encode("latin-1") == (DATA / f"{stem}.rsl").read_bytes()
    assert list(params.warnings) + report.messages == (DATA / f"{stem}.err").read_text().splitlines()
    assert report.aborted == bool(status)


@pytest.mark.parametrize("stem, gold, test, prm, status", CASES[:5], ids=[c[0] for c in CASES[:5]])
def test_cli_output_is_diffable(tmp_path, stem, gold, test, prm, status):
    out = tmp_path / "out.rsl"
    args = ["evalb", str(DATA / gold), str(DATA / test), "--output", str(out)] + (["-p", str(DATA / prm)] if prm else [])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == status
    assert out.read_bytes() == (DATA / f"{stem}.rsl").read_bytes()


def test_sentence_statuses_and_json():
    _, report = run_module("main.gld", "main.tst", "evalb.prm")
    rows = {s.id: s for s in report.sentences}
    # 1: outer "( ... )" counted, gold-only trace and "." deleted before the words are compared
    assert (rows[1].status, rows[1].matched, rows[1].gold_brackets, rows[1].words) == (0, 7, 7, 6)
    assert rows[2].matched == 4 and rows[2].correct_tags == 2  # PRT = ADVP; RP/RB differ
    assert rows[3].status == 0 and rows[3].words == 5  # QUOTE_LABEL: "'" put back in the test
    assert rows[4].crossing == 1
    assert [rows[k].status for k in (5, 6, 7, 8, 11)] == [1, 1, 2, 2, 1]
    assert rows[11].matched == 2  # unbalanced: an error, though its numbers are shown
    assert rows[9].length == 14 and report.cutoff.sentences == 13
    out = json.loads(json.dumps(report.to_dict()))
    assert out["all"]["error_sentences"] == 3 and out["all"]["skip_sentences"] == 2
    assert round(out["all"]["fmeasure"], 4) == 0.8974 and out["cutoff_len"] == 10  # fractions (issue 49)
    assert out["sentences"][4]["errors"] == ["Length unmatch (2|3)"]


def test_cli_json_and_exit_status():
    result = CliRunner().invoke(app, ["evalb", str(DATA / "main.gld"), str(DATA / "main.tst"), "-p",
                                      str(DATA / "strict.prm"), "--json"])
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["aborted"] and len(out["sentences"]) == 9
    plain = CliRunner().invoke(app, ["evalb", str(DATA / "main.gld"), str(DATA / "main.tst"), "-p",
                                     str(DATA / "strict.prm"), "-e", "10", "-c", "3", "--json"])
    assert plain.exit_code == 0 and json.loads(plain.stdout)["cutoff_len"] == 3
    missing = CliRunner().invoke(app, ["evalb", str(DATA / "nothing.gld"), str(DATA / "main.tst")])
    assert missing.exit_code == 1 and "nothing.gld" in missing.output


def test_empty_input_and_parameter_parsing():
    report = evaluate([], [])
    assert format_report(report).splitlines()[-6] == "Bracketing FMeasure       =   -nan"
    params = EvalbSettings.parse("DELETE_LABEL a b\nLABELED\nX\n# DEBUG 1\nEQ_WORD  x  y \n")
    assert params.delete_labels == ("a b",) and params.labeled == 0 and params.eq_words == (("x", "y"),)
    assert params.warnings == ("Empty value in parameter file (2)",)
    # EVALB's word_comp and label_comp: equal, or a pair given, in either order (not transitive)
    params = EvalbSettings.parse("EQ_WORD colour color\nEQ_LABEL ADVP PRT\nEQ_LABEL PRT RP\n")
    assert params.word_equal("colour", "color") and params.word_equal("color", "colour")
    assert params.label_equal("PRT", "ADVP") and params.label_equal("ADVP", "PRT")
    assert not params.label_equal("ADVP", "RP") and not params.word_equal("color", "colr")


def test_multiline_files_are_read_one_tree_a_line():
    assert len(file_lines(DATA / "multiline.mrg")) == 2
    assert len(file_lines(DATA / "main.gld")) == 14  # the blank line is a sentence


def test_geig_counts_are_evalbs():
    """GEIG counted from trees (what leaf-ancestor and score_nltk_trees use) equals the evalb
    command sentence by sentence, the outer ``( ... )`` of .mrg files included."""
    params = EvalbSettings.read(DATA / "evalb.prm")
    gold, test = (DATA / "main.gld").read_text().splitlines(), (DATA / "main.tst").read_text().splitlines()

    def counts(k, p=params):
        trees = [sa.parse_brackets(t, leaves="categories")[0] for t in (gold[k], test[k])]
        return bracket_counts(*trees, p)

    # sentence 1: the outer bracket counts; the gold-only trace is deleted, no word error
    first = counts(0)
    assert (first.gold, first.candidate, first.matched_labelled) == (7, 7, 7)
    second = counts(1, params.with_options(eq_labels=()))
    assert (second.matched_labelled, second.matched_unlabelled) == (3, 4)
    with pytest.raises(sa.MismatchedCorpusError, match="word 1 is 'dogs'"):
        counts(5)
    report = evaluate_files(DATA / "main.gld", DATA / "main.tst", params)
    scored = [k for k, s in enumerate(report.sentences) if s.status == 0]
    assert len(scored) >= 8
    for k in scored:  # main.tst also has a malformed line, an error for EVALB and for the tree reader
        c = counts(k)
        s = report.sentences[k]
        assert (c.gold, c.candidate, c.matched_labelled) == (s.gold_brackets, s.test_brackets, s.matched)
    report = evaluate_files(DATA / "multiline.mrg", DATA / "multiline.tst", params)
    golds = sa.read_brackets(DATA / "multiline.mrg", leaves="categories", missing=True)
    tests = sa.read_brackets(DATA / "multiline.tst", leaves="categories", missing=True)
    assert len(golds) == len(tests) == len(report.sentences) == 2
    for g, t, s in zip(golds, tests, report.sentences):
        c = bracket_counts(g, t, params)
        assert (c.gold, c.candidate, c.matched_labelled) == (s.gold_brackets, s.test_brackets, s.matched)


def test_leaf_ancestor_geig_equals_evalb(tmp_path):
    gold, test = tmp_path / "gold.mrg", tmp_path / "test.mrg"
    gold.write_text("( (S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB loudly)))) )\n"
                    "( (S (NP (PRP He)) (VP (VBD gave) (PRT (RP up)))) )\n")
    test.write_text("( (S (NP (DT the)) (VP (NN dog) (VBZ barks) (ADVP (RB loudly)))) )\n"
                    "( (S (NP (PRP He)) (VP (VBD gave) (ADVP (RP up)))) )\n")
    result = CliRunner().invoke(app, ["leaf-ancestor", str(gold), str(test), "--json"])
    geig = json.loads(result.stdout)["geig_labelled"]
    evalb = CliRunner().invoke(app, ["evalb", str(gold), str(test), "--json"])
    assert geig == pytest.approx(json.loads(evalb.stdout)["all"]["fmeasure"])


@pytest.mark.skipif(not os.environ.get("SPACY_AGREEMENT_EVALB_SRC"), reason="SPACY_AGREEMENT_EVALB_SRC is not set")
def test_against_compiled_evalb(tmp_path):
    source = Path(os.environ["SPACY_AGREEMENT_EVALB_SRC"])
    compiler = shutil.which("gcc") or shutil.which("cc") or shutil.which("clang")
    if not source.is_file() or compiler is None:
        pytest.skip(f"no evalb.c at {source}" if not source.is_file() else "no C compiler found")
    binary = tmp_path / "evalb"
    build = subprocess.run([compiler, "-O2", "-w", "-fcommon", "-o", str(binary), str(source)], capture_output=True)
    if build.returncode != 0:
        pytest.skip(f"evalb.c does not compile: {build.stderr.decode(errors='replace')[:200]}")
    lines = tmp_path / "multiline.gld"
    lines.write_text("\n".join(file_lines(DATA / "multiline.mrg")) + "\n", encoding="latin-1")
    for stem, gold, test, prm, status in CASES:
        gold_path = lines if gold.endswith(".mrg") else DATA / gold
        args = [str(binary)] + (["-p", str(DATA / prm)] if prm else []) + [str(gold_path), str(DATA / test)]
        done = subprocess.run(args, capture_output=True)
        params, report = run_module(gold, test, prm)
        assert (format_report(report) + "\n").encode("latin-1") == done.stdout, stem
        assert done.returncode == status, stem
