"""``evaluate`` against the CoNLL 2018 shared task's ``conll18_ud_eval.py`` on committed fixtures.

tests/data/conll18/ holds pairs ``NAME.gold.conllu`` / ``NAME.sys.conllu`` (same tokens and
sentences on both sides) and the script's verbatim output on each pair: ``NAME.conll18.txt``
(``-v``: precision, recall, F1 as percentages with 2 decimals) and ``NAME.conll18.counts.txt``
(``-c``: correct, gold and system counts). How they were made: tests/data/conll18/README.md.

With ``--ignore-subtypes`` (the script always drops subtypes) and ``--case-sensitive-root``
(the script compares ``ROOT`` as written, so it is not ``root`` and not a content relation),
UAS, LAS, CLAS, MLAS and BLEX must be the script's, to its printed digits, and the F1 values
must equal ``2·correct / (gold + system)`` of its counts.
"""
import json
import math
from contextlib import nullcontext
from pathlib import Path

import pytest

import spacy_agreement as sa
from spacy_agreement.evaluation.dependency.label_sets import RootCaseWarning
from spacy_agreement.evaluation.dependency.metrics import EvaluationSettings, evaluate

DATA = Path(__file__).resolve().parents[1] / "data" / "conll18"
# the pairs of the same tokens; the ``retok*`` pairs (other tokens and sentences) are
# tests/evaluation/test_conll18_aligned.py's, which aligns words as the script does
CASES = sorted(p.name[: -len(".gold.conllu")] for p in DATA.glob("*.gold.conllu") if not p.name.startswith("retok"))


def root_in_capitals(case):
    """A RootCaseWarning where the system writes the root relation in other letters than
    ``root`` (``ROOT``, ``Root``) and the root is compared as written, as the script does."""
    relations = [line.split("\t")[7] for line in (DATA / f"{case}.sys.conllu").read_text(encoding="utf-8").splitlines()
                 if line.count("\t") >= 9]
    return pytest.warns(RootCaseWarning) if any(r.lower() == "root" != r for r in relations) else nullcontext()
METRICS = ("UAS", "LAS", "CLAS", "MLAS", "BLEX")
CONLL18_OPTIONS = EvaluationSettings(ignore_subtypes=True, fold_root_case=False)


def table(path):
    """The rows of a conll18_ud_eval.py table: ``{metric: [column, ...]}`` as printed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[1].startswith("-----------+"), f"{path}: not a -v or -c table"
    rows = {}
    for line in lines[2:]:
        name, *columns = [cell.strip() for cell in line.split("|")]
        rows[name] = columns
    return rows


def script_f1(case):
    """{metric: F1 as printed, e.g. "63.16"}."""
    return {m: table(DATA / f"{case}.conll18.txt")[m][2] for m in METRICS}


def script_counts(case):
    """{metric: (correct, gold, system)}."""
    rows = table(DATA / f"{case}.conll18.counts.txt")
    return {m: tuple(int(rows[m][k]) for k in range(3)) for m in rows}


def printed(value):
    """A score as the script prints it: a percentage with 2 decimals."""
    return "{:.2f}".format(100 * value)


def read(case):
    return sa.read_conll(DATA / f"{case}.gold.conllu"), sa.read_conll(DATA / f"{case}.sys.conllu")


def test_fixtures_are_there():
    assert len(CASES) >= 6, CASES
    for case in CASES:
        for suffix in ("sys.conllu", "conll18.txt", "conll18.counts.txt"):
            assert (DATA / f"{case}.{suffix}").is_file(), f"{case}.{suffix} missing"


@pytest.mark.parametrize("case", CASES)
def test_fixture_pairs_have_the_same_tokens(case):
    """What evaluate requires (and the script checks through its alignment): every token and
    sentence of one side matches the other."""
    counts = script_counts(case)
    for row in ("Tokens", "Sentences", "Words"):
        correct, gold, system = counts[row]
        assert correct == gold == system, (case, row, counts[row])


@pytest.mark.parametrize("case", CASES)
def test_cli_matches_conll18_ud_eval(case):
    from typer.testing import CliRunner

    from spacy_agreement.cli import app

    gold, sys_ = DATA / f"{case}.gold.conllu", DATA / f"{case}.sys.conllu"
    with root_in_capitals(case):
        out = CliRunner().invoke(app, ["evaluate", str(gold), str(sys_), "--json", "--ignore-subtypes",
                                       "--case-sensitive-root"])
    assert out.exit_code == 0, out.output
    values = json.loads(out.stdout)
    expected = script_f1(case)
    got = {m: printed(values[m.lower()]) for m in METRICS}
    assert got == expected


@pytest.mark.parametrize("case", CASES)
def test_library_matches_conll18_ud_eval_counts(case):
    """The library, to the last bit: F1 = 2·correct / (gold + system) of the script's counts
    (for UAS and LAS gold = system = the words, so F1 is the accuracy); and the counts behind
    CLAS, MLAS and BLEX (content words of each side, correct words) are the script's."""
    gold, pred = read(case)
    with root_in_capitals(case):
        result = evaluate(gold, pred, CONLL18_OPTIONS)
    counts = script_counts(case)
    expected_printed = script_f1(case)
    for metric in METRICS:
        correct, n_gold, n_system = counts[metric]
        value = result.scores[metric.lower()]
        assert value == pytest.approx(2 * correct / (n_gold + n_system), rel=1e-15, abs=0), (case, metric)
        assert printed(value) == expected_printed[metric], (case, metric)
    ud = result.ud
    for metric in ("CLAS", "MLAS", "BLEX"):
        assert (ud.correct(metric.lower()), ud.gold, ud.system) == counts[metric], (case, metric)
    # precision and recall too, as printed
    rows = table(DATA / f"{case}.conll18.txt")
    for metric in ("CLAS", "MLAS", "BLEX"):
        precision, recall = rows[metric][0], rows[metric][1]
        assert printed(ud.precision(metric.lower())) == precision, (case, metric)
        assert printed(ud.recall(metric.lower())) == recall, (case, metric)


def test_root_written_in_capitals_is_the_difference_in_case2():
    """case2's system writes ``ROOT``/``Root`` on roots. The script (and
    ``--case-sensitive-root``) counts them as wrong labels and as no content word; the
    package's default folds them into ``root``, so its default LAS and CLAS are higher."""
    gold, pred = read("case2")
    with pytest.warns(RootCaseWarning):  # the point: ROOT against root
        strict = evaluate(gold, pred, CONLL18_OPTIONS)
    default = evaluate(gold, pred, EvaluationSettings(ignore_subtypes=True))
    assert printed(strict.las) == script_f1("case2")["LAS"]
    assert default.las > strict.las and default.clas > strict.clas
    assert not math.isnan(default.mlas)


def test_subtypes_are_the_difference_in_case1():
    """case1 differs in subtypes only on some words (nmod:poss vs nmod:tmod, ...): the script
    ignores them always, the package with ``--ignore-subtypes``; CLAS/MLAS/BLEX always."""
    gold, pred = read("case1")
    with_subtypes = evaluate(gold, pred, EvaluationSettings(fold_root_case=False))
    assert printed(with_subtypes.las) != script_f1("case1")["LAS"]
    assert printed(with_subtypes.clas) == script_f1("case1")["CLAS"]
