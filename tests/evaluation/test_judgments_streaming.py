"""``judgments`` streams: the items are read, checked and scored one at a time, and the analysis
keeps per item only numbers (the metrics' differences, the judges' preferences), never the
trees. The figures are those of the whole-list analysis, compared here with a slow reference
written out below (the analysis as it was before it streamed: every item kept in a list; the test
of each ρ against LAS's from its definition, tests/evaluation/test_judgments.py fisher_z_test)."""
import gc
import json
import math
import types
import warnings
import weakref
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.errors import JudgmentError, UndefinedMetricWarning
from spacy_agreement.evaluation.judgments.analysis import (DEFAULT_METRICS, JudgmentAnalysis, analyse_judgments,
                                                  cohen_kappa, fleiss_kappa, format_analysis, iter_judgments,
                                                  load_judgments, make_item)
from spacy_agreement.evaluation.judgments.mace import mace
from spacy_agreement.evaluation.dependency.metrics import EvaluationSettings, sentence_scores
from spacy_agreement.trees import DependencyTree

PLANK_FIXTURE = Path(__file__).resolve().parents[1] / "data" / "plank" / "xx"
LABELS = ["nsubj", "obj", "root", "amod", "punct"]
UPOS = ["NOUN", "VERB", "ADJ", "PUNCT", "PRON"]


# --- the reference: every item in a list, every statistic over the list ------------------------

def reference_analysis(items, metrics=DEFAULT_METRICS, options=None, ties="half", mace_restarts=10, seed=0,
                       kappa="cohen", check_forms=True):
    from scipy.stats import spearmanr

    from tests.evaluation.test_judgments import fisher_z_test

    from spacy_agreement.evaluation.judgments.analysis import PREFERENCES, _spearman

    options = options or EvaluationSettings()
    items = list(items)
    judges = sorted({j for item in items for j in item.judgments})
    diffs = {m: np.empty(len(items)) for m in metrics}
    for i, item in enumerate(items):
        score_a = sentence_scores(item.gold, item.a, options, check_forms, metrics, warn=False)
        score_b = sentence_scores(item.gold, item.b, options, check_forms, metrics, warn=False)
        for m in metrics:
            diffs[m][i] = score_a[m] - score_b[m]
    preferences = {m: ["A" if d > 0 else "B" if d < 0 else "tie" for d in np.nan_to_num(diffs[m], nan=0.0)]
                   for m in metrics}
    agreement = {}
    for m in metrics:
        per_judge = []
        for judge in judges:
            hits = []
            for item, pref in zip(items, preferences[m]):
                if judge not in item.judgments:
                    continue
                if pref == "tie":
                    if ties == "half":
                        hits.append(0.5)
                    elif ties in ("a", "b"):
                        hits.append(float(item.judgments[judge] == ties.upper()))
                    continue
                hits.append(float(pref == item.judgments[judge]))
            if hits:
                per_judge.append(float(np.mean(hits)))
        agreement[m] = float(np.mean(per_judge)) if per_judge else math.nan
    pair_agreement, cohen, pairs = [], [], []
    for j1, j2 in combinations(judges, 2):
        shared = [(it.judgments[j1], it.judgments[j2]) for it in items if j1 in it.judgments and j2 in it.judgments]
        if shared:
            pair_agreement.append(float(np.mean([a == b for a, b in shared])))
            cohen.append(cohen_kappa([a for a, _ in shared], [b for _, b in shared]))
            pairs.append((j1, j2, len(shared), pair_agreement[-1], cohen[-1]))
        else:
            pairs.append((j1, j2, 0, math.nan, math.nan))
    # issue 51: the items won by A and by B per judge and by the judges' majority, the sign test written out
    wins = {j: {"A": sum(it.judgments.get(j) == "A" for it in items), "B": sum(it.judgments.get(j) == "B" for it in items),
                "tie": sum(it.judgments.get(j) == "tie" for it in items), "skip": 0} for j in judges}
    margins = [sum(v == "A" for v in it.judgments.values()) - sum(v == "B" for v in it.judgments.values())
               for it in items]
    wins["overall"] = {"A": sum(m > 0 for m in margins), "B": sum(m < 0 for m in margins),
                       "tie": sum(m == 0 and bool(it.judgments) for m, it in zip(margins, items)), "skip": 0}
    sign = {who: sign_test(c["A"], c["A"] + c["B"]) for who, c in wins.items()}
    judge_agreement = float(np.mean(pair_agreement)) if pair_agreement else math.nan
    if kappa == "cohen":
        valid = [k for k in cohen if not math.isnan(k)]
        kappa_value = float(np.mean(valid)) if valid else math.nan
    else:
        kappa_value = fleiss_kappa([list(it.judgments.values()) for it in items])
    correlations = {(m1, m2): _spearman(spearmanr, diffs[m1], diffs[m2]) for m1, m2 in combinations(metrics, 2)}
    votes = np.array([sum(+1 if v == "A" else -1 for v in it.judgments.values()) for it in items], dtype=float)
    human = {"majority": np.sign(votes)}
    fitted = None
    if judges and any(it.judgments for it in items):
        fitted = mace([it.judgments for it in items], labels=PREFERENCES, restarts=mace_restarts, seed=seed)
        human["mace"] = fitted.posterior[:, 0] - fitted.posterior[:, 1]
    human_corr = {}
    n = len(items)
    for aggregation, values in human.items():
        table = {m: {"rho": _spearman(spearmanr, values, diffs[m])} for m in metrics}
        base = table.get("las", {}).get("rho", math.nan)
        defined = {m: sum(not (math.isnan(v) or math.isnan(d)) for v, d in zip(values, diffs[m])) for m in metrics}
        for m in metrics:
            rho = table[m]["rho"]
            if m == "las" or min(defined[m], defined.get("las", 0)) <= 3 or math.isnan(rho) or math.isnan(base) or \
                    abs(rho) >= 1 or abs(base) >= 1:
                table[m]["z_vs_las"], table[m]["p_vs_las"] = math.nan, math.nan
                continue
            table[m]["z_vs_las"], table[m]["p_vs_las"] = fisher_z_test(rho, defined[m], base, defined["las"])
        human_corr[aggregation] = table
    judge_items = {j: sum(j in it.judgments for it in items) for j in judges}
    judge_ties = {j: sum(it.judgments.get(j) == "tie" for it in items) for j in judges}
    judge_comments = {j: sum(j in it.comments for it in items) for j in judges}
    return JudgmentAnalysis(tuple(metrics), judges, preferences, {m: preferences[m].count("tie") for m in metrics},
                            agreement, judge_agreement, kappa_value, kappa, correlations, human_corr, fitted, n, diffs,
                            judge_items, judge_ties, judge_comments, "", wins, sign, pairs)


def sign_test(k, n):
    """The two-sided sign test from its definition: under p = 1/2, the probability of an outcome
    no more likely than k of n."""
    if n == 0:
        return math.nan
    probs = [math.comb(n, i) / 2 ** n for i in range(n + 1)]
    return min(1.0, sum(p for p in probs if p <= probs[k] * (1 + 1e-7)))


# --- generated items: sparse judges in varying order, ties, items nobody judged ------------------

def random_tree(rng, n, base=None, noise=0.0):
    if base is None:
        heads = [0] + [int(rng.integers(1, k + 1)) for k in range(1, n)]  # token k+1 attaches to an earlier one
        labels = [LABELS[int(rng.integers(len(LABELS)))] for _ in range(n)]
        upos = [UPOS[int(rng.integers(len(UPOS)))] for _ in range(n)]
        return DependencyTree.create(heads, labels, [f"w{k}" for k in range(n)], upos)
    heads, labels = base.heads.tolist(), list(base.deprels)
    for k in range(1, n):
        if rng.random() < noise:
            heads[k] = int(rng.integers(1, k + 1))
        if rng.random() < noise:
            labels[k] = LABELS[int(rng.integers(len(LABELS)))]
    return DependencyTree.create(heads, labels, list(base.forms), list(base.upos))


def generated_records(count, seed):
    rng = np.random.default_rng(seed)
    judges = ["j1", "j2", "j3", "j4", "j5"]
    records = []
    for i in range(count):
        n = int(rng.integers(2, 9))
        gold = random_tree(rng, n)
        a = random_tree(rng, n, gold, rng.random() * 0.5)
        b = a if rng.random() < 0.15 else random_tree(rng, n, gold, rng.random() * 0.5)  # some ties
        said = {}
        for judge in rng.permutation(judges).tolist():  # judges in a different order per item
            if rng.random() < 0.7:
                said[judge] = "A" if rng.random() < 0.5 else "b"
        if i % 17 == 5:
            said = {}  # nobody judged this one
        records.append({"id": f"s{i}", "judgments": said,
                        **{name: {"heads": t.heads.tolist(), "deprels": list(t.deprels), "forms": list(t.forms),
                                  "upos": list(t.upos)} for name, t in (("gold", gold), ("a", a), ("b", b))}})
    return records


@pytest.fixture(scope="module")
def judged_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("judgments") / "items.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in generated_records(120, 7)), encoding="utf-8")
    return path


def same(x, y):
    """Equal, nan equal to nan, floats bit for bit."""
    return json.dumps(x, sort_keys=True, default=repr) == json.dumps(y, sort_keys=True, default=repr)


def assert_identical(streamed, reference):
    """The same analysis: every figure bit for bit, but the test against LAS, which the reference
    computes from its definition (log instead of atanh, erfc instead of the normal's tail), to
    rounding."""
    ours, theirs = streamed.to_dict(), reference.to_dict()
    tested = [k for k in theirs if k.startswith(("z_vs_las_", "p_vs_las_", "sign_test_p_"))]
    assert tested and same({k: v for k, v in ours.items() if k not in tested},
                           {k: v for k, v in theirs.items() if k not in tested})
    for key in tested:
        assert (math.isnan(ours[key]) and math.isnan(theirs[key])) or \
            ours[key] == pytest.approx(theirs[key], rel=1e-9, abs=1e-15), key
    assert format_analysis(streamed) == format_analysis(reference)
    assert streamed.preferences == reference.preferences and streamed.ties == reference.ties
    assert streamed.judges == reference.judges and streamed.items == reference.items
    for m in reference.metrics:
        np.testing.assert_array_equal(streamed.differences[m], reference.differences[m])
    if reference.mace is not None:
        np.testing.assert_array_equal(streamed.mace.posterior, reference.mace.posterior)


@pytest.mark.parametrize("ties", ["half", "skip", "a", "b"])
@pytest.mark.parametrize("kappa", ["cohen", "fleiss"])
def test_streamed_analysis_is_the_whole_list_analysis(judged_file, ties, kappa):
    items = load_judgments(judged_file)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        reference = reference_analysis(items, ties=ties, kappa=kappa, mace_restarts=2)
        streamed = analyse_judgments(iter_judgments(judged_file), ties=ties, kappa=kappa, mace_restarts=2)
        from_list = analyse_judgments(items, ties=ties, kappa=kappa, mace_restarts=2)
    assert_identical(streamed, reference)
    assert_identical(from_list, reference)


def test_generated_judgments_of_the_examples_script(tmp_path):
    from tests.evaluation.test_judgments import load_generator

    path = tmp_path / "judgments.jsonl"
    assert load_generator().main([str(path), "--items", "80", "--seed", "5"]) == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        assert_identical(analyse_judgments(iter_judgments(path), mace_restarts=2),
                         reference_analysis(load_judgments(path), mace_restarts=2))


def test_the_release_folder_streamed_as_the_list(tmp_path):
    options = EvaluationSettings(exclude_punct=True, punct_rules=frozenset({"form"}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for ties in ("half", "b"):
            assert_identical(analyse_judgments(iter_judgments(PLANK_FIXTURE), options=options, ties=ties),
                             reference_analysis(load_judgments(PLANK_FIXTURE), options=options, ties=ties))


def test_cli_prints_the_reference_figures(judged_file):
    from spacy_agreement.evaluation.settings import JudgmentSettings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        reference = reference_analysis(load_judgments(judged_file))
    signature = JudgmentSettings().signature()
    out = CliRunner().invoke(app, ["judgments", str(judged_file), "--json"])
    assert out.exit_code == 0, out.output
    printed = json.loads(out.output)
    assert printed.pop("signature") == signature
    expected = {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in reference.to_dict().items()}
    assert list(printed) == list(expected)
    for key, value in expected.items():  # nan is written null; the test against LAS to rounding
        if key.startswith(("z_vs_las_", "p_vs_las_", "sign_test_p_")) and value is not None:
            assert printed[key] == pytest.approx(value, rel=1e-9, abs=1e-15), key
        else:
            assert json.dumps(printed[key]) == json.dumps(value), key
    text = CliRunner().invoke(app, ["judgments", str(judged_file)])
    assert text.exit_code == 0 and text.output.startswith(format_analysis(reference) + "\n")


# --- one pass, nothing of an item kept ---------------------------------------------------------

class OnePass:
    """Items to be gone through once: ``iter()`` may be called once, ``next()`` fails if called
    again after it said the items were exhausted; it keeps nothing it gave out and remembers
    weak references to the trees, to check that the consumer kept none either."""

    def __init__(self, items):
        self.items, self.started, self.exhausted = items, 0, False
        self.trees = []

    def __iter__(self):
        self.started += 1
        assert self.started == 1, "the items were gone through twice"
        return self

    def __next__(self):
        assert not self.exhausted, "asked for an item after the last"
        gc.collect()
        # every tree handed out before the last item is gone (the consumer's loop variable
        # holds that one until the next item replaces it): the analysis kept none
        assert all(ref() is None for ref in self.trees[:-3]), "a tree outlived its item"
        if not self.items:
            self.exhausted = True
            raise StopIteration
        item = self.items.pop(0)
        self.trees.extend(weakref.ref(t) for t in (item.gold, item.a, item.b))
        return item


def test_items_are_gone_through_once_and_not_kept(judged_file):
    items = load_judgments(judged_file)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        reference = reference_analysis(items, mace_restarts=1)
        source = OnePass(items)
        del items
        streamed = analyse_judgments(source, mace_restarts=1)
    assert source.started == 1 and source.items == []
    assert_identical(streamed, reference)
    gc.collect()
    assert all(ref() is None for ref in source.trees)
    # what the result holds is numbers: no tree anywhere in it
    seen, stack = set(), [streamed]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        assert not isinstance(obj, DependencyTree)
        if isinstance(obj, (type, types.ModuleType, types.FunctionType, np.ndarray)):
            continue  # classes, modules and functions are not the result's data
        stack.extend(gc.get_referents(obj))


def test_an_iterator_of_no_items_is_an_error():
    with pytest.raises(JudgmentError, match="no judgment items"):
        analyse_judgments(iter(()))


# --- the readers yield -------------------------------------------------------------------------

def test_jsonl_items_come_before_a_later_bad_line(tmp_path):
    records = generated_records(3, 1)
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records[:2]) + "not json\n", encoding="utf-8")
    items = iter_judgments(path)
    assert next(items).id == "s0" and next(items).id == "s1"
    with pytest.raises(JudgmentError, match="not JSON"):
        next(items)


def copy_fixture(folder):
    for name in ("gold", "parser1", "parser2"):
        (folder / f"{name}.conll").write_text((PLANK_FIXTURE / f"{name}.conll").read_text("utf-8"), "utf-8")
    (folder / "annotated.csv").write_text((PLANK_FIXTURE / "annotated.csv").read_text("utf-8"), "utf-8")


def test_release_folder_is_read_sentence_by_sentence(tmp_path):
    copy_fixture(tmp_path)
    blocks = (tmp_path / "parser2.conll").read_text("utf-8").strip("\n").split("\n\n")
    blocks[2] = blocks[2].replace("\t", " ", 1)  # sentence 3 of parse B can no longer be read
    (tmp_path / "parser2.conll").write_text("\n\n".join(blocks) + "\n\n", "utf-8")
    items = iter_judgments(tmp_path)
    assert [next(items).id for _ in range(2)] == [f"{tmp_path.name}-1", f"{tmp_path.name}-2"]
    with pytest.raises(sa.InvalidTreeError, match="parser2.conll"):
        next(items)


def test_release_folder_of_different_lengths_fails_before_any_item(tmp_path):
    copy_fixture(tmp_path)
    with open(tmp_path / "annotated.csv", "a", encoding="utf-8") as handle:
        handle.write("blue,red\n")
    items = iter_judgments(tmp_path)
    with pytest.raises(JudgmentError, match=r"different numbers of sentences: gold.conll 3, parser1.conll 3, "
                                            r"parser2.conll 3, annotated.csv 4 rows"):
        next(items)


def test_release_folder_items_as_before(tmp_path):
    # trailing empty rows are not sentences, a header row names the judges
    copy_fixture(tmp_path)
    (tmp_path / "annotated.csv").write_text("ann1,ann2\nblue,red\nred,red\nblue,\n,\n\n", encoding="utf-8")
    items = load_judgments(tmp_path)
    assert [it.judgments for it in items] == [{"ann1": "A", "ann2": "B"}, {"ann1": "B", "ann2": "B"}, {"ann1": "A"}]
    assert [it.id for it in items] == [f"{tmp_path.name}-{k}" for k in (1, 2, 3)]
