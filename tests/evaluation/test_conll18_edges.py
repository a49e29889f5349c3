"""``evaluate`` at the edges of what ``conll18_ud_eval.py`` reads (issue 38, item 6).

Under ``--convention conll18`` (the default) a pair that the script refuses is refused: exit 1,
one line with the script's message, the place (file, line, sentence) and ``--convention
package`` (the way to score it anyway, or that the package refuses it too), on every path
(the same tokens, streamed or whole; other tokens, aligned through the characters; ``--json``;
``--breakdown``, ``--ci``) and with or without ``-q``. What the script accepts is accepted, and
its table is the script's to the last digit. Under ``--convention package`` the package's own
rules stand.

The fixtures and the script's verdicts: ``tests/data/conll18/refused/`` (``expected.json``, from
``generate_refused.py`` run with the real script; its README).
"""
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from spacy_agreement.adapters.conllu.column_reader import read_conllu_columns
from spacy_agreement.cli import app
from spacy_agreement.errors import AgreementError
from spacy_agreement.evaluation.conll18.refusals import pair_refusal, script_refusal

from ..helpers import one_line_error

DATA = Path(__file__).resolve().parents[1] / "data" / "conll18" / "refused"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
PAIRS = ("gold-X", "X-gold", "X-X", "X-retok", "retok-X")
#: read by the script, refused by the package's readers (stricter on malformed multiword tokens)
STRICTER = {"range_word_ids"}
#: refused by the package's own readers too (under --convention package)
PACKAGE_REFUSES = {"columns_one_space", "nine_columns", "head_not_integer", "head_negative", "head_out_of_range",
                   "word_id_not_integer", "word_id_skipped", "range_id", "range_words_missing", "empty_node_columns",
                   "bom", "bom_before_word", "not_utf8", "comments_only", "empty_nodes_only", "range_word_ids"}

runner = CliRunner()


def files(name, pair):
    return [str(DATA / (f"{name}.conllu" if side == "X" else f"{side}.conllu")) for side in pair.split("-")]


def one_line(message):
    return " ".join(message.split("\n"))


def invoke(*args):
    return runner.invoke(app, ["evaluate", *args])


CASES = [(name, pair) for name in EXPECTED for pair in PAIRS]


def test_the_fixtures_are_there():
    assert len(EXPECTED) >= 35
    refused = {n for n, e in EXPECTED.items() if e["pairs"]["gold-X"]["refused"]}
    accepted = set(EXPECTED) - refused
    assert {"cycle", "two_roots", "head_underscore", "comment_inside", "columns_two_spaces", "bom"} <= refused
    assert {"comment_after_last", "crlf", "range_of_one_word"} <= accepted
    for name in accepted:
        for suffix in ("conllu", "conll18.txt", "conll18.counts.txt"):
            assert (DATA / f"{name}.{suffix}").is_file(), (name, suffix)


# ------------------------------------------------------------------------------ the check itself


@pytest.mark.parametrize("name,pair", CASES)
def test_the_check_gives_the_scripts_verdict_and_message(name, pair):
    expected = EXPECTED[name]["pairs"][pair]
    refusal = pair_refusal(*files(name, pair))
    assert (refusal.reason if refusal is not None else None) == (expected["message"] if expected["refused"] else None)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_check_names_the_line_of_the_defect(name):
    refusal = script_refusal(DATA / f"{name}.conllu")
    if refusal is None:
        return
    assert refusal.location.source.endswith(f"{name}.conllu")
    assert refusal.location.file_line == EXPECTED[name]["line"], str(refusal.location)
    assert "\n" not in refusal.message()


GOOD = ("# sent_id = s1\n1-2\tAb\t_\t_\t_\t_\t_\t_\t_\t_\n1\tA\ta\tNOUN\tNN\t_\t3\tnsubj\t_\t_\n"
        "2\tb\tb\tAUX\tVB\t_\t3\taux\t_\t_\n3\tc\tc\tVERB\tVB\t_\t0\troot\t_\t_\n3.1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n# sent_id = s2\n1\tOk\tok\tINTJ\t_\t_\t0\troot\t_\t_\n"
        "2\t!\t!\tPUNCT\t_\t_\t1\tpunct\t_\t_\n\n")
PIECES = ["\t", "\n", " ", "  ", "#", "1", "2", "0", "-", ".", "_", "\r", "\ufeff", "\u00a0", "-1", "99", "1-2",
          "\n\n", "3.1", "\t3\t", "\t0\t", "\t_\t", "\t1\t", "# c\n"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=12), cut=st.integers(0, len(GOOD)))
def test_the_table_reader_refuses_at_least_what_the_check_refuses(pieces, cut, tmp_path):
    """What the fast paths rely on: a file that the reader of the table reads (the scanner or
    the Python reader), the script reads (so only their failures need the check)."""
    path = tmp_path / "x.conllu"
    path.write_text(GOOD[:cut] + "".join(pieces) + GOOD[cut:], encoding="utf-8", newline="")
    try:
        read_conllu_columns(path)
    except AgreementError:
        return
    assert script_refusal(path) is None


def test_the_script_reads_every_line_end_alike(tmp_path):
    lines = GOOD.split("\n")
    for end in ("\n", "\r\n", "\r"):
        path = tmp_path / "x.conllu"
        path.write_text(end.join(lines), encoding="utf-8", newline="")
        assert script_refusal(path) is None
    path.write_text(GOOD.replace("\t3\tnsubj", "\t1\tnsubj"), encoding="utf-8")
    assert "cycle" in script_refusal(path).reason and script_refusal(path).detail == "head cycle 1 -> 1"


# ------------------------------------------------------------------------------ evaluate


def check_refused(result, name, pair, expected):
    line = one_line_error(result)
    assert result.stdout == "", result.stdout
    assert one_line(expected["message"]) in line, line
    if name in PACKAGE_REFUSES:
        assert "--convention package refuses it too" in line, line
    elif "concatenation of tokens" not in expected["message"] or name == "forms_underscore" and pair == "gold-X":
        assert "to score it anyway: --convention package" in line, line
    return line


@pytest.mark.parametrize("name,pair", CASES)
def test_evaluate_refuses_what_the_script_refuses_and_prints_its_table_otherwise(name, pair):
    expected = EXPECTED[name]["pairs"][pair]
    gold, system = files(name, pair)
    plain, quiet, as_json = invoke(gold, system), invoke(gold, system, "-q"), invoke(gold, system, "--json")
    if name in STRICTER and expected["refused"] is False and "X" in pair:
        for result in (plain, quiet, as_json):  # the package's readers refuse it, naming the line
            assert f"{name}.conllu:{EXPECTED[name]['line']}:" in one_line_error(result)
        return
    if expected["refused"]:
        for result in (plain, quiet, as_json):
            line = check_refused(result, name, pair, expected)
            if "concatenation of tokens" in expected["message"]:
                assert line.startswith(gold + ":"), line
            else:  # the file and the line of the defect, the sentence
                assert line.startswith(f"{DATA / name}.conllu:{EXPECTED[name]['line']}:"), line
                assert "sentence " in line or name == "not_utf8", line
        return
    assert plain.exit_code == quiet.exit_code == as_json.exit_code == 0, (plain.output, quiet.output)
    assert "not computed" not in plain.stderr + quiet.stderr + as_json.stderr
    table = expected["table"].rstrip("\n")
    assert table in plain.stdout and table in quiet.stdout, plain.stdout
    values = json.loads(as_json.stdout)
    for row in table.splitlines()[2:]:
        metric, *cells = [cell.strip() for cell in row.split("|")]
        key = metric.lower()
        for cell, field in zip(cells, ("precision", "recall", "f1", "aligned_accuracy")):
            if cell:
                assert f"{100 * values[f'{key}_{field}']:.2f}" == cell, (key, field)


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if n not in STRICTER and
                                       not EXPECTED[n]["pairs"]["gold-X"]["refused"]))
def test_accepted_edges_print_the_scripts_table_and_counts(name):
    """The accepted edges, stored as the other parity fixtures (``-v`` and ``-c`` output)."""
    from spacy_agreement.evaluation.conll18.alignment import evaluate_aligned, format_conll18_table

    scores = evaluate_aligned(DATA / "gold.conllu", DATA / f"{name}.conllu")
    assert format_conll18_table(scores) + "\n" == (DATA / f"{name}.conll18.txt").read_text(encoding="utf-8")
    assert format_conll18_table(scores, counts=True) + "\n" == \
        (DATA / f"{name}.conll18.counts.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if EXPECTED[n]["pairs"]["X-X"]["refused"]))
def test_under_the_package_convention_the_packages_rules_stand(name):
    """The hint holds: where the line says the package scores the file, it does (the same file
    as gold and system); where it says the package refuses it too, it does."""
    path = str(DATA / f"{name}.conllu")
    result = invoke(path, path, "--convention", "package", "-q")
    assert "conll18_ud_eval.py" not in result.stderr
    if name in PACKAGE_REFUSES:
        one_line_error(result)
    else:
        assert result.exit_code == 0, result.output
        assert "tokens scored" in result.stdout and "AligndAcc" not in result.stdout


@pytest.mark.parametrize("name", ["cycle", "two_roots", "head_underscore", "comment_inside", "columns_two_spaces"])
@pytest.mark.parametrize("options", [["--breakdown", "deprel"], ["--ci", "--resamples", "20"], ["--tsv"]])
def test_every_path_refuses(name, options):
    """The whole-file paths (``--breakdown``, ``--ci``) and other outputs refuse alike."""
    gold, system = files(name, "gold-X")
    line = one_line_error(invoke(gold, system, *options))
    assert one_line(EXPECTED[name]["pairs"]["gold-X"]["message"]) in line and "--convention package" in line


def test_strict_names_the_packages_refusal_too():
    gold, system = files("cycle", "gold-X")
    line = one_line_error(invoke(gold, system, "--strict"))
    assert "There is a cycle in a sentence at line 27" in line
    assert "--convention package refuses it too" in line and "head cycle" in line


def test_comments_after_the_last_sentence_are_read_under_every_convention():
    gold, system = files("comment_after_last", "gold-X")
    for convention in ("conll18", "package", "conll07"):
        result = invoke(gold, system, "--convention", convention, "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["sentences_scored"] == 3


def test_a_block_of_comments_between_sentences_is_still_an_empty_sentence_for_the_package():
    path = str(DATA / "comments_only.conllu")
    line = one_line_error(invoke(path, path, "--convention", "package"))
    assert "empty sentence (no tokens)" in line and "comments_only.conllu:8:" in line


def test_a_byte_order_mark_is_named():
    gold, system = files("bom", "gold-X")
    for convention in ("conll18", "package"):
        line = one_line_error(invoke(gold, system, "--convention", convention))
        assert "byte-order mark (U+FEFF" in line and "bom.conllu:1:" in line


def test_ignore_forms_and_skip_mismatched_say_why_the_table_is_missing_quiet_or_not():
    """Texts the script refuses but the package scores on request: the package's figures, and
    one line on stderr saying why the script's table is missing, also with ``-q``."""
    gold, system = files("forms_underscore", "gold-X")
    for options in (["--skip-mismatched"], ["--ignore-forms"], ["--skip-mismatched", "-q"], ["--ignore-forms", "-q"]):
        result = invoke(gold, system, *options)
        assert result.exit_code == 0, result.output
        assert "tokens scored" in result.stdout and "AligndAcc" not in result.stdout
        assert "conll18_ud_eval.py are not computed" in result.stderr, result.stderr
        assert "refuses the pair: The concatenation of tokens" in result.stderr, result.stderr
        assert len(result.stderr.splitlines()) == 1


def test_the_refusal_is_one_line_on_an_open_stream_too():
    """The check reads a file object as well as a path (the library's use)."""
    from spacy_agreement.evaluation.conll18.refusals import _read

    found = _read(io.StringIO((DATA / "two_roots.conllu").read_text(encoding="utf-8")), "<stream>")
    assert found.reason == "There are 2 roots in a sentence at line 7"
    assert str(found.location) == "<stream>:6: sentence 1 (sent_id en-1), token 4"


def test_the_readers_take_comments_after_the_last_sentence():
    import spacy_agreement as sa

    for name in ("comment_after_last", "comment_after_last_no_newline"):
        assert len(sa.read_conll(DATA / f"{name}.conllu")) == 3
        assert len(read_conllu_columns(DATA / f"{name}.conllu")) == 3
