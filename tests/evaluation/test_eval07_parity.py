"""``evaluate --convention conll07`` against the CoNLL 2007 shared task's ``eval07.pl`` on committed fixtures.

tests/data/eval07/ holds CoNLL-X pairs ``NAME.gold.conll`` / ``NAME.sys.conll`` (same tokens
and sentences on both sides) and the script's verbatim output on each pair:
``NAME.eval07.txt`` (``-q``: punctuation scored, the script's default) and
``NAME.eval07-p.txt`` (``-q -p``: tokens whose gold form is all Unicode punctuation left
out). How they were made: tests/data/eval07/README.md.

The script prints each score as ``X / Y * 100 = Z %``. With ``--convention conll07`` (labels
as written: subtypes kept, ``ROOT`` is not ``root``; punctuation scored) LAS, UAS and LA must
be exactly the fractions ``X / Y`` and ``tokens_scored`` must be ``Y``; with ``--no-punct``
added (conll07's punctuation rule is the form rule) the same against the ``-p`` output.
"""
import json
import re
import runpy
from fractions import Fraction
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "eval07"
CASES = sorted(p.name[: -len(".gold.conll")] for p in DATA.glob("*.gold.conll"))
# the script's label for each score -> the key in evaluate's JSON
SCORES = {"Labeled   attachment score": "las", "Unlabeled attachment score": "uas", "Label accuracy score": "la"}
LINE = re.compile(r"^  (?P<name>[A-Za-z ]+?):\s+(?P<x>\d+) / (?P<y>\d+) \* 100 = (?P<z>\d+\.\d\d) %$")
OUTPUTS = {False: "eval07.txt", True: "eval07-p.txt"}  # excluding punctuation -> output file
# case2 and random have ROOT/Root against root on purpose: the package warns that they count
# as wrong labels, which is what eval07.pl does
pytestmark = pytest.mark.filterwarnings("ignore::spacy_agreement.evaluation.dependency.label_sets.RootCaseWarning")


def script_scores(case, no_punct):
    """``{key: (X, Y, "Z")}`` of the script's output for ``case``, as printed."""
    lines = (DATA / f"{case}.{OUTPUTS[no_punct]}").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3, f"{case}: not the -q output of eval07.pl"
    scores = {}
    for line in lines:
        match = LINE.match(line)
        assert match, f"{case}: unexpected line {line!r}"
        scores[SCORES[match["name"]]] = (int(match["x"]), int(match["y"]), match["z"])
    assert set(scores) == set(SCORES.values())
    return scores


def cli_values(case, *extra):
    from typer.testing import CliRunner

    from spacy_agreement.cli import app

    gold, sys_ = DATA / f"{case}.gold.conll", DATA / f"{case}.sys.conll"
    out = CliRunner().invoke(app, ["evaluate", str(gold), str(sys_), "--convention", "conll07", "--json", *extra])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def as_fraction(value, denominator):
    """The fraction of denominator at most ``denominator`` that a float score is (exact:
    fractions with such denominators are far further apart than a float's rounding)."""
    return Fraction(value).limit_denominator(denominator)


def test_fixtures_are_there():
    assert {"case1", "case2", "case3", "case4", "random"} <= set(CASES), CASES
    for case in CASES:
        for suffix in ("sys.conll", *OUTPUTS.values()):
            assert (DATA / f"{case}.{suffix}").is_file(), f"{case}.{suffix} missing"


def sentences(path):
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    assert blocks[-1] == "", f"{path.name}: must end with a blank line"
    return [[line.split("\t") for line in block.split("\n")] for block in blocks[:-1]]


@pytest.mark.parametrize("case", CASES)
def test_fixture_pairs_are_what_eval07_reads(case):
    """10 tab-separated columns, no comment, multiword or empty-node lines, numbered tokens,
    the same forms on both sides, one root and no cycle in the gold."""
    gold, system = sentences(DATA / f"{case}.gold.conll"), sentences(DATA / f"{case}.sys.conll")
    assert len(gold) == len(system)
    for g, s in zip(gold, system):
        for rows in (g, s):
            assert all(len(row) == 10 for row in rows), rows
            assert [row[0] for row in rows] == [str(k) for k in range(1, len(rows) + 1)]
            assert all(row[6].isdigit() and int(row[6]) <= len(rows) for row in rows)
        assert [row[1] for row in g] == [row[1] for row in s]
        heads = [int(row[6]) for row in g]
        assert heads.count(0) == 1
        for token in range(1, len(heads) + 1):
            seen = set()
            while token:
                assert token not in seen, (case, g)
                seen.add(token)
                token = heads[token - 1]


@pytest.mark.parametrize("no_punct", [False, True], ids=["punct-scored", "no-punct"])
@pytest.mark.parametrize("case", CASES)
def test_cli_matches_eval07(case, no_punct):
    expected = script_scores(case, no_punct)
    values = cli_values(case, *(["--no-punct"] if no_punct else []))
    total = {y for _, y, _ in expected.values()}
    assert len(total) == 1
    (total,) = total
    assert values["tokens_scored"] == total
    got = {key: as_fraction(values[key], total) for key in expected}
    assert got == {key: Fraction(x, y) for key, (x, y, _) in expected.items()}
    # and as the script prints them
    assert {key: "{:.2f}".format(100 * values[key]) for key in expected} == {k: z for k, (_, _, z) in expected.items()}


def test_the_printed_percentages_are_the_fractions():
    """The parsing above reads what the script computed: Z is X / Y to 2 decimals."""
    for case in CASES:
        for no_punct in OUTPUTS:
            for x, y, z in script_scores(case, no_punct).values():
                assert "{:.2f}".format(100 - (y - x) * 100.0 / y) == z


@pytest.mark.parametrize("case", CASES)
def test_punctuation_is_left_out_in_every_pair(case):
    """Every pair has punctuation by form (the -p totals are smaller), and all of its
    tokens are scored by default."""
    assert script_scores(case, True)["las"][1] < script_scores(case, False)["las"][1]
    tokens = sum(len(s) for s in sentences(DATA / f"{case}.gold.conll"))
    assert script_scores(case, False)["las"][1] == tokens


def test_the_fixtures_tell_the_conventions_apart():
    """The pairs decide what they are meant to: folding the root case (case2), dropping
    subtypes (case1, random) or excluding punctuation by UPOS/label instead of by form
    (case3) would move the figures off the script's."""
    las = script_scores("case2", False)["las"]
    assert as_fraction(cli_values("case2", "--fold-root-case")["las"], las[1]) != Fraction(las[0], las[1])
    for case in ("case1", "random"):
        las = script_scores(case, False)["las"]
        assert as_fraction(cli_values(case, "--ignore-subtypes")["las"], las[1]) != Fraction(las[0], las[1])
    expected = script_scores("case3", True)["las"][1]
    assert cli_values("case3", "--no-punct", "--punct", "upos,label")["tokens_scored"] != expected


def test_generator_writes_the_committed_random_pair(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(DATA / "generate_random_case.py"), run_name="__main__")
    for side in ("gold", "sys"):
        assert (tmp_path / f"random.{side}.conll").read_bytes() == (DATA / f"random.{side}.conll").read_bytes()
