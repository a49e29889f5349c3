"""The compiled EVALB path (spacy_agreement._evalb) against the Python port, which is the reference
(tests/evaluation/test_evalb.py holds both to EVALB's own output on the fixtures).

Every comparison is of the whole output: the rows and summaries as EVALB prints them, the messages
and whether the run aborted. Inputs: the fixtures under every parameter file, random trees with
random damage (hypothesis), and hostile lines (unbalanced, empty, NUL and other odd bytes, very long).
"""
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from spacy_agreement import _evalb
from spacy_agreement.cli import app
from spacy_agreement.evaluation.constituency.evalb import (HEADER, EvalbSettings, SentenceResult, evaluate, evaluate_files,
                                              compiled_scorer, format_report, format_rows, format_summary)

DATA = Path(__file__).parents[1] / "data" / "evalb"
PRMS = [None, "evalb.prm", "strict.prm", "debug.prm"]
PAIRS = [("main.gld", "main.tst"), ("short.gld", "short.tst"), ("fatal.gld", "fatal.tst"),
         ("multiline.mrg", "multiline.tst"), ("main.tst", "main.gld")]
COLLINS = EvalbSettings.parse("MAX_ERROR 10\nCUTOFF_LEN 40\nLABELED 1\nDELETE_LABEL TOP\nDELETE_LABEL -NONE-\n"
                            "DELETE_LABEL ,\nDELETE_LABEL :\nDELETE_LABEL ``\nDELETE_LABEL ''\nDELETE_LABEL .\n"
                            "DELETE_LABEL_FOR_LENGTH -NONE-\nEQ_LABEL ADVP PRT\n")
# every parameter the compiled path reads: EQ_LABEL making a label equal to a deleted one, EQ_WORD,
# QUOTE_LABEL, an empty DELETE_LABEL_FOR_LENGTH match, unlabelled scoring
ODD = EvalbSettings(max_error=20, cutoff_len=3, delete_labels=("X", "-NONE-", ""), delete_labels_for_length=("Y", ""),
                  quote_labels=("Q",), eq_labels=(("A", "X"), ("B", "C")), eq_words=(("a", "b"),))
UNLABELLED = COLLINS.with_options(labeled=0)


def params_of(prm):
    return EvalbSettings.read(DATA / prm) if prm else EvalbSettings()


def outcome(report):
    return format_report(report), report.messages, report.aborted, report.to_dict()


@pytest.mark.parametrize("prm", PRMS)
@pytest.mark.parametrize("gold, test", PAIRS)
def test_fixtures_compiled_and_python_agree(gold, test, prm):
    params = params_of(prm)
    compiled = evaluate_files(DATA / gold, DATA / test, params)
    reference = evaluate_files(DATA / gold, DATA / test, params, compiled=False)
    assert outcome(compiled) == outcome(reference)
    if params.debug == 0:  # the compiled loop ran, its rows kept compactly
        assert isinstance(compiled.sentences, _evalb.SentenceRows)


def test_scorer_numbers():
    scorer = _evalb.Scorer(COLLINS)
    gold = b"(TOP (S (NP-SBJ (DT the) (NN dog)) (VP (VBD saw) (NP (PRP him)) (PRT (RP up))) (. .)))"
    test = b"(TOP (S (NP (DT the)) (VP (NN dog) (VBD saw) (NP (PRP him)) (ADVP (RP up))) (. .)))"
    # length 6 (the deleted "." counts), status 0; brackets over the 5 kept words (TOP deleted): gold S 0-5,
    # NP(-SBJ) 0-2, VP 2-5, NP 3-4, PRT 4-5; test S 0-5, NP 0-1, VP 1-5, NP 3-4, ADVP 4-5: matched S, NP 3-4
    # and ADVP = PRT (EQ_LABEL); test VP 1-5 crosses gold NP 0-2; 5 words, 5 tags right
    assert scorer.score(gold, test) == (6, 0, 3, 5, 5, 1, 5, 5)
    assert scorer.score(gold, b"(TOP (. .))") == (6, 2, 0, 0, 0, 0, 0, 0)  # no word left: a skip
    assert scorer.score(gold, test.replace(b"dog", b"cat")) is None  # words differ: the Python port reports it
    assert scorer.score(gold, test[:-1]) is None  # unbalanced
    assert scorer.score(b"(S (A a b))", b"(S (A a))") is None  # more than two elements
    assert scorer.score(gold + b"\0 junk", test) == scorer.score(gold, test)  # a line ends at NUL


def test_rows_are_a_sequence_of_results():
    report = evaluate_files(DATA / "main.gld", DATA / "main.tst", params_of("evalb.prm"))
    rows, reference = report.sentences, evaluate_files(DATA / "main.gld", DATA / "main.tst", params_of("evalb.prm"),
                                                  compiled=False).sentences
    assert len(rows) == len(reference) == 14 and bool(rows)
    assert list(rows) == reference and rows[-1] == reference[-1] and rows[2:5] == reference[2:5]
    assert rows[4].errors == ["Length unmatch (2|3)"]  # an error row: the Python port's result, kept whole
    assert (rows[8].id, rows[8].length, rows[8].matched, rows[8].gold_brackets) == (9, 14, 7, 8)
    with pytest.raises(IndexError):
        rows[14]
    assert rows.text(3, 5).decode("latin-1") == format_rows(reference[3:5])


def test_streamed_rows_and_unkept_sentences():
    params = params_of("evalb.prm")
    blocks = []
    report = evaluate_files(DATA / "main.gld", DATA / "main.tst", params, keep_sentences=False, write=blocks.append)
    reference = evaluate_files(DATA / "main.gld", DATA / "main.tst", params, compiled=False)
    assert len(report.sentences) == 0 and report.to_dict(sentences=False) == reference.to_dict(sentences=False)
    assert HEADER + b"".join(blocks).decode("latin-1") + format_summary(report) == format_report(reference)


def test_debug_and_non_latin1_parameters_take_the_python_path():
    assert compiled_scorer(EvalbSettings(debug=1)) is None
    assert compiled_scorer(EvalbSettings(delete_labels=("\u2014",))) is None
    report = evaluate(["(S (A \u2014))"], ["(S (B \u2014))"], EvalbSettings())
    assert report.sentences[0].correct_tags == 0 and report.all.matched == 1


def test_line_reader_is_file_lines(tmp_path):
    from spacy_agreement.adapters.evalb_files import file_lines, line_reader

    cases = {"plain": b"(A a)\n\n(B b)\r\n(C c)", "newline": b"(A a)\n", "empty": b"", "blank": b"\n",
             "long": b"(S " + b"(X x) " * 300000 + b")\n(A a)\n", "mrg": b"( (S\n  (A a)))\n\n((B b))\n"}
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with line_reader(path) as reader:
            assert [line.decode("latin-1") for line in reader] == file_lines(path), name
    assert _evalb.needs_joining(tmp_path / "mrg") and not _evalb.needs_joining(tmp_path / "plain")


# ------------------------------------------------------------------ random inputs

LABELS = ["S", "NP", "VP", "PP", "ADVP", "PRT", "NP-SBJ", "X", "A", "B", "C", "-NONE-", "TOP", ""]
TAGS = ["DT", "NN", "VB", ",", ".", "-NONE-", "Q", "X", "Y", "''", "POS", "A"]
WORDS = ["a", "b", "dog", "'", '"', "/", "0", "x\xe9"]


@st.composite
def trees(draw, depth=0):
    if depth > 3 or draw(st.integers(0, 3)) == 0:
        return f"({draw(st.sampled_from(TAGS))} {draw(st.sampled_from(WORDS))})"
    kids = draw(st.lists(trees(depth + 1), min_size=0 if depth else 1, max_size=4))
    return f"({draw(st.sampled_from(LABELS))} {' '.join(kids)})"


def damaged(line, cuts):
    """A tree line with random damage: dropped or doubled brackets, odd bytes, blanks."""
    for kind, at in cuts:
        at = at % (len(line) + 1)
        line = line[:at] + {"open": "(", "close": ")", "nul": "\0", "odd": "\x85\xa0\x0b", "tab": "\t\r",
                            "drop": "", "text": " w "}[kind] + line[at + (kind == "drop"):]
    return line


@st.composite
def bracketed(draw, words, depth=0):
    """One random bracketing of ``words`` (random labels and tags): pairs with the same words."""
    if len(words) == 1 and draw(st.booleans()):
        return f"({draw(st.sampled_from(TAGS))} {words[0]})"
    if len(words) == 1 or depth > 3:
        return " ".join(f"({draw(st.sampled_from(TAGS))} {w})" for w in words)
    cuts = sorted(draw(st.sets(st.integers(1, len(words) - 1), max_size=3)))
    parts = [words[a:b] for a, b in zip([0] + cuts, cuts + [len(words)])]
    return f"({draw(st.sampled_from(LABELS))} {' '.join(draw(bracketed(p, depth + 1)) for p in parts)})"


@st.composite
def same_words(draw):
    words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12))
    return draw(bracketed(words)), draw(bracketed(words))


lines = st.one_of(trees(), st.builds(damaged, trees(), st.lists(st.tuples(st.sampled_from(
    ["open", "close", "nul", "odd", "tab", "drop", "text"]), st.integers(0, 400)), max_size=3)), st.just(""))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.one_of(same_words(), st.tuples(lines, lines)), max_size=8),
       params=st.sampled_from([COLLINS, ODD, UNLABELLED]))
def test_random_lines_compiled_and_python_agree(pairs, params):
    gold, test = [g for g, _ in pairs], [t for _, t in pairs]
    assert outcome(evaluate(gold, test, params)) == outcome(evaluate(gold, test, params, compiled=False))


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(gold=st.lists(lines, max_size=6), test=st.lists(lines, max_size=6), params=st.sampled_from([COLLINS, ODD]))
def test_random_files_compiled_and_python_agree(tmp_path, gold, test, params):
    """The compiled loop over files (blocks, uneven lengths, a last line without newline)."""
    g, t = tmp_path / "g.txt", tmp_path / "t.txt"
    g.write_bytes("\n".join(gold).encode("latin-1"))
    t.write_bytes(("\n".join(test) + "\n").encode("latin-1"))
    assert outcome(evaluate_files(g, t, params)) == outcome(evaluate_files(g, t, params, compiled=False))


def test_same_pair_scored_by_python_when_trees_are_perturbed():
    """A larger random corpus, well formed: every sentence is scored in C, the same as in Python."""
    import random

    rng = random.Random(7)

    def tree(depth=0):
        if depth > 4 or (depth and rng.random() < 0.35):
            return f"({rng.choice(TAGS[:5])} w{rng.randrange(9)})"
        return f"({rng.choice(LABELS[:8])} {' '.join(tree(depth + 1) for _ in range(rng.randint(1, 3)))})"

    gold = [tree() for _ in range(300)]
    test = [g.replace("(NP ", "(VP ", rng.randint(0, 2)).replace("(DT", "(NN", 1) for g in gold]
    compiled, reference = evaluate(gold, test, COLLINS), evaluate(gold, test, COLLINS, compiled=False)
    assert outcome(compiled) == outcome(reference) and reference.all.error_sentences == 0
    assert 0 < compiled.all.matched < compiled.all.gold_brackets


def test_very_long_line_and_many_brackets():
    gold = "(S " + " ".join(f"(NP (NN w{k}))" for k in range(600)) + ")"
    test = gold.replace("(NP (NN w7))", "(VP (NN w7))")
    report = evaluate([gold, "(" * 50000, ")" * 50000], [test, "(A a)", "(A a)"], COLLINS)
    assert outcome(report) == outcome(evaluate([gold, "(" * 50000, ")" * 50000], [test, "(A a)", "(A a)"], COLLINS,
                                               compiled=False))
    assert (report.sentences[0].matched, report.sentences[0].gold_brackets) == (600, 601)


def test_cli_streams_evalbs_bytes(tmp_path):
    args = ["evalb", str(DATA / "main.gld"), str(DATA / "main.tst"), "-p", str(DATA / "evalb.prm")]
    streamed = CliRunner().invoke(app, args)
    assert streamed.exit_code == 0 and streamed.stdout_bytes == (DATA / "main.evalb.rsl").read_bytes()
    aborted = CliRunner().invoke(app, args[:3] + ["-p", str(DATA / "strict.prm")])
    assert aborted.exit_code == 1 and aborted.stdout_bytes == (DATA / "main.strict.rsl").read_bytes()
    with_ci = CliRunner().invoke(app, args + ["--ci", "--resamples", "50"])
    assert with_ci.exit_code == 0 and with_ci.stdout_bytes.startswith((DATA / "main.evalb.rsl").read_bytes() + b"\n")
    as_json = json.loads(CliRunner().invoke(app, args + ["--json"]).stdout)
    assert len(as_json["sentences"]) == 14 and as_json["sentences"][8]["matched"] == 7


def test_sentence_result_factory_order():
    """SentenceRows makes SentenceResult(id, length, status, matched, gold, test, crossing, words, tags)."""
    rows = _evalb.SentenceRows(SentenceResult)
    rows.append(SentenceResult(3, 4, 0, 1, 2, 3, 0, 4, 4))
    assert rows[0] == SentenceResult(3, 4, 0, 1, 2, 3, 0, 4, 4)
    assert rows.text() == (rows[0].row() + "\n").encode()
