"""One accumulator per evaluation family (issue 40, item 2): EVALB's ``Evaluator``, leaf-ancestor's
``LeafAncestorEvaluator`` and conll18's ``AlignedEvaluator``, each fed a pair at a time or by
blocks or files, each giving a result that supplies its own counts per sentence
(``statistics()``, sacrebleu's pattern: a metric's per-segment statistics and a score from their
sum), what ``--ci`` and ``compare`` resample.

For each family: the accumulator fed pair by pair and by files (or blocks) gives what the
command's function gives (``sa.evalb``, ``sa.leaf_ancestor``, ``evaluate_aligned``), to the byte
where there is text; ``statistics()`` sums to the corpus figures, computed here from the result's
own totals; and, while they exist, it equals the old conversions of
``spacy_agreement.evaluation.unit_counts`` row for row."""
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

import spacy_agreement as sa
from spacy_agreement.adapters.conllu.column_reader import read_conllu_columns
from spacy_agreement.adapters.files import read_trees
from spacy_agreement.errors import AgreementError, MismatchedCorpusError
from spacy_agreement.evaluation import unit_counts  # noqa: F401

from . import unit_counts_reference
from spacy_agreement.evaluation.conll18 import AlignedEvaluator, aligned_evaluation
from spacy_agreement.evaluation.conll18.alignment import METRICS, evaluate_aligned
from spacy_agreement.evaluation.conll18.streaming import evaluate_aligned_streamed
from spacy_agreement.evaluation.constituency import leaf_ancestor_compiled as compiled_loops
from spacy_agreement.evaluation.constituency.evalb import (EvalbAbort, EvalbSettings, Evaluator, evaluate_files,
                                                           file_lines, format_report)
from spacy_agreement.evaluation.constituency.leaf_ancestor import (LeafAncestorEvaluator, leaf_ancestor,
                                                                   leaf_ancestor_files, leaf_ancestor_reference)

DATA = Path(__file__).resolve().parents[1] / "data"
EVALB = DATA / "evalb"
CONLL18 = DATA / "conll18"
EVALB_CASES = [  # stem of EVALB's own output, gold, test, parameter file
    ("main.evalb", "main.gld", "main.tst", "evalb.prm"),
    ("main.default", "main.gld", "main.tst", None),
    ("main.debug", "main.gld", "main.tst", "debug.prm"),
    ("main.strict", "main.gld", "main.tst", "strict.prm"),  # EVALB gives up (MAX_ERROR)
    ("short.default", "short.gld", "short.tst", None),
    ("fatal.default", "fatal.gld", "fatal.tst", None),
    ("multiline.evalb", "multiline.mrg", "multiline.tst", "evalb.prm"),
]
CONLL18_PAIRS = sorted(p.name[:-len(".gold.conllu")] for p in CONLL18.glob("*.gold.conllu"))


def old(name):
    """An old conversion of unit_counts, kept in the tests as the reference (unit_counts_reference.py)."""
    return getattr(unit_counts_reference, name)


def same_counts(a, b):
    """Two UnitCounts row for row: metrics, units, both columns, labels and the units set aside."""
    assert a.metrics == b.metrics
    assert np.array_equal(a.units, b.units)
    assert np.array_equal(a.numerators, b.numerators) and a.numerators.dtype == b.numerators.dtype
    assert np.array_equal(a.denominators, b.denominators) and a.denominators.dtype == b.denominators.dtype
    assert dict(a.labels) == dict(b.labels)
    assert dict(a.set_aside) == dict(b.set_aside)


# ------------------------------------------------------------------------------------------ EVALB


def evalb_params(prm):
    return EvalbSettings.read(EVALB / prm) if prm else EvalbSettings()


def pair_by_pair(gold, test, params, compiled=True):
    """EVALB's loop written out: every line pair to Evaluator.add, the end of either file told to result()."""
    evaluator = Evaluator(params, compiled)
    gold_lines, test_lines = file_lines(gold), file_lines(test)
    try:
        for k, gold_line in enumerate(gold_lines):
            test_line = test_lines[k] if k < len(test_lines) else None
            evaluator.add(gold_line, test_line)
            if test_line is None:
                break
        return evaluator.result(test_left=len(test_lines) > len(gold_lines))
    except EvalbAbort:
        return evaluator.result()


@pytest.mark.parametrize("stem, gold, test, prm", EVALB_CASES, ids=[c[0] for c in EVALB_CASES])
def test_evalb_pair_by_pair_and_by_files_print_what_evalb_prints(stem, gold, test, prm):
    expected = (EVALB / f"{stem}.rsl").read_bytes()  # the compiled EVALB's own output
    run = sa.evalb(EVALB / gold, EVALB / test, params=EVALB / prm if prm else None)
    assert (run.text() + "\n").encode("latin-1") == expected
    params = evalb_params(prm)
    for compiled in (True, False):
        by_pairs = pair_by_pair(EVALB / gold, EVALB / test, params, compiled)
        by_files = Evaluator(params, compiled).add_files(EVALB / gold, EVALB / test)
        for report in (by_pairs, by_files):
            assert (format_report(report) + "\n").encode("latin-1") == expected
            assert report.messages == run.report.messages and report.aborted == run.report.aborted
            assert report.to_dict() == run.report.to_dict()


def test_evalb_result_closes_the_run_and_old_names_still_work():
    evaluator = Evaluator(evalb_params("evalb.prm"))
    report = evaluator.add_files(EVALB / "main.gld", EVALB / "main.tst")
    assert evaluator.result() is report and evaluator.finish() is report
    with pytest.raises(AgreementError):
        evaluator.add_files(EVALB / "main.gld", EVALB / "main.tst")
    from spacy_agreement.evaluation.constituency.evalb import compiled_scorer, fast_scorer

    assert fast_scorer is compiled_scorer
    old_name = evaluate_files(EVALB / "main.gld", EVALB / "main.tst", evalb_params("evalb.prm"), fast=False)
    assert format_report(old_name) == format_report(report)


@pytest.mark.parametrize("stem, gold, test, prm", [c for c in EVALB_CASES if c[0] not in ("main.strict", "fatal.default")],
                         ids=[c[0] for c in EVALB_CASES if c[0] not in ("main.strict", "fatal.default")])
def test_evalb_statistics_sum_to_the_all_summary(stem, gold, test, prm):
    report = evaluate_files(EVALB / gold, EVALB / test, evalb_params(prm))
    counts = report.statistics()
    t = report.all  # EVALB's own totals, counted sentence by sentence as it reads them
    expected = {"recall": t.matched / t.gold_brackets, "precision": t.matched / t.test_brackets,
                "fmeasure": 2 * t.matched / (t.gold_brackets + t.test_brackets),
                "complete_match": t.complete_sentences / t.valid_sentences,
                "average_crossing": t.crossing / t.valid_sentences,
                "no_crossing": t.no_crossing_sentences / t.valid_sentences,
                "two_or_less_crossing": t.two_or_less_crossing_sentences / t.valid_sentences,
                "tagging_accuracy": t.correct_tags / t.words}
    assert counts.corpus() == pytest.approx(expected)
    printed = t.scores()  # what EVALB prints, in percent (F from recall and precision)
    for metric in ("recall", "precision", "fmeasure", "tagging_accuracy"):
        assert 100 * counts.corpus()[metric] == pytest.approx(printed[metric])
    left_out = [k for k, s in enumerate(report.sentences) if s.status != 0]
    assert sorted(counts.set_aside) == left_out
    assert len(counts) + len(left_out) == t.sentences
    same_counts(counts, old("evalb_unit_counts")(report))


def test_evalb_statistics_equal_the_old_conversion_on_a_compiled_and_a_reference_run():
    for compiled in (True, False):
        report = evaluate_files(EVALB / "main.gld", EVALB / "main.tst", evalb_params("evalb.prm"), compiled=compiled)
        same_counts(report.statistics(), old("evalb_unit_counts")(report))
    kept_none = evaluate_files(EVALB / "main.gld", EVALB / "main.tst", keep_sentences=False)
    with pytest.raises(AgreementError):
        kept_none.statistics()


def test_sa_evalb_ci_resamples_the_reports_statistics():
    run = sa.evalb(EVALB / "main.gld", EVALB / "main.tst", params=EVALB / "evalb.prm", ci=True, resamples=50)
    from spacy_agreement.evaluation.command_results import bootstrap_intervals

    again = bootstrap_intervals(run.report.statistics(), 50, 1, 0.95, "percentile")
    assert run.intervals.to_dict() == again.to_dict()


# ------------------------------------------------------------------------------------------ leaf-ancestor


def bracket_files(tmp_path, n=40, seed=3):
    """A gold file of small trees and a candidate with labels and attachments changed, a failed
    parse (a blank line) and a sentence whose words differ (an error sentence)."""
    rng = random.Random(seed)
    gold, cand = [], []
    for k in range(n):
        words = [f"w{k}x{i}" for i in range(rng.randint(2, 7))]
        tags = [rng.choice(["NN", "VB", "DT", "JJ"]) for _ in words]
        leaves = [f"({t} {w})" for t, w in zip(tags, words)]
        cut = rng.randint(1, len(words) - 1)
        gold.append(f"(S (NP {' '.join(leaves[:cut])}) (VP {' '.join(leaves[cut:])}))")
        label = rng.choice(["NP", "ADJP", "NP"])
        cut2 = max(1, min(len(words) - 1, cut + rng.choice([-1, 0, 0, 1])))
        cand.append(f"(S ({label} {' '.join(leaves[:cut2])}) (VP {' '.join(leaves[cut2:])}))")
    cand[5] = ""  # a failed parse
    cand[11] = cand[11].replace("w11x0", "other")  # words that differ
    (tmp_path / "gold.mrg").write_text("\n".join(gold) + "\n")
    (tmp_path / "cand.mrg").write_text("\n".join(cand) + "\n")
    return tmp_path / "gold.mrg", tmp_path / "cand.mrg"


def same_leaf_ancestor(a, b):
    assert a.leaf_ancestor == b.leaf_ancestor and a.leaf_ancestor_words == b.leaf_ancestor_words  # to the bit
    assert a.brackets == b.brackets and a.skipped == b.skipped and a.set_aside == b.set_aside
    assert a.sentences_scored == b.sentences_scored and a.words_scored == b.words_scored
    for key, values in a.sentence_arrays().items():
        assert np.array_equal(values, b.sentence_arrays()[key], equal_nan=True), key
    same_counts(a.statistics(), b.statistics())


@pytest.mark.parametrize("batch", [3, 1024])
def test_leaf_ancestor_pair_by_pair_by_batches_and_by_files_give_sa_leaf_ancestor(tmp_path, monkeypatch, batch):
    monkeypatch.setattr(compiled_loops, "BATCH", batch)  # batches of 3: pairs fed across their edges
    gold_path, cand_path = bracket_files(tmp_path)
    run = sa.leaf_ancestor(gold_path, cand_path)
    options = {"leaves": "categories", "missing": True}
    gold, cand = read_trees(gold_path, "bracket", **options), read_trees(cand_path, "bracket", **options)
    by_pairs = LeafAncestorEvaluator()
    for g, c in zip(gold, cand):
        by_pairs.add(g, c)
    by_batches = LeafAncestorEvaluator()
    for first in range(0, len(gold), 7):
        by_batches.add_trees(gold[first:first + 7], cand[first:first + 7])
    by_files = LeafAncestorEvaluator()
    by_files.add_files(gold_path, cand_path)
    reference = LeafAncestorEvaluator(compiled=False)
    reference.add_trees(gold, cand)
    assert reference.result()._store is None and by_pairs.result()._store is not None
    for evaluator in (by_pairs, by_batches, by_files, reference):
        same_leaf_ancestor(evaluator.result(), run.result)
    assert [s.leaf_ancestor for s in by_pairs.result().sentences] == [s.leaf_ancestor for s in run.result.sentences]
    same_leaf_ancestor(leaf_ancestor(gold, cand), run.result)
    same_leaf_ancestor(leaf_ancestor_files(gold_path, cand_path), run.result)


def test_leaf_ancestor_statistics_sum_to_the_corpus_scores(tmp_path):
    gold_path, cand_path = bracket_files(tmp_path)
    result = sa.leaf_ancestor(gold_path, cand_path).result
    counts = result.statistics()
    corpus = counts.corpus()
    sentences = result.sentences  # word by word: the corpus figures from the result's own sentences
    words = [w.score for s in sentences for w in s.words]
    b = result.brackets
    assert corpus["leaf_ancestor"] == pytest.approx(np.mean([s.leaf_ancestor for s in sentences]))
    assert corpus["leaf_ancestor_words"] == pytest.approx(np.mean(words))
    assert corpus["geig_unlabelled"] == pytest.approx(2 * b.matched_unlabelled / (b.gold + b.candidate))
    assert corpus["geig_labelled"] == pytest.approx(2 * b.matched_labelled / (b.gold + b.candidate))
    printed = result.to_dict(sentences=False)
    for metric in counts.metrics:
        assert corpus[metric] == pytest.approx(printed[metric])
    assert sorted(counts.set_aside) == [5, 11] and len(counts) == 38
    same_counts(counts, old("leaf_ancestor_unit_counts")(result))


def test_leaf_ancestor_statistics_of_dependency_trees_and_the_reference(tmp_path):
    gold_path, cand_path = bracket_files(tmp_path, seed=8)
    options = {"leaves": "categories", "missing": True}
    gold, cand = read_trees(gold_path, "bracket", **options), read_trees(cand_path, "bracket", **options)
    convert = old("leaf_ancestor_unit_counts")
    for result in (leaf_ancestor_reference(gold, cand, cost="first-char"), leaf_ancestor(gold, cand, cost=lambda a, b: 0.0 if a == b else 1.0)):
        same_counts(result.statistics(), convert(result))
    conll = [t for t in sa.read_conll(DATA / "conll18" / "case3.gold.conllu")]
    pred = [t for t in sa.read_conll(DATA / "conll18" / "case3.gold.conllu")]
    result = leaf_ancestor(conll, pred)
    assert result.brackets is None and result.statistics().metrics == ("leaf_ancestor", "leaf_ancestor_words")
    same_counts(result.statistics(), convert(result))


def test_sa_leaf_ancestor_ci_resamples_the_results_statistics(tmp_path):
    gold_path, cand_path = bracket_files(tmp_path)
    run = sa.leaf_ancestor(gold_path, cand_path, ci=True, resamples=50)
    from spacy_agreement.evaluation.command_results import bootstrap_intervals

    again = bootstrap_intervals(run.result.statistics(), 50, 1, 0.95, "percentile")
    assert run.intervals.to_dict() == again.to_dict()


def test_the_leaf_ancestor_evaluator_takes_no_pair_after_its_result(tmp_path):
    gold_path, cand_path = bracket_files(tmp_path)
    evaluator = LeafAncestorEvaluator()
    evaluator.add_files(gold_path, cand_path)
    assert evaluator.result() is evaluator.result()
    with pytest.raises(AgreementError):
        evaluator.add(None, None)
    with pytest.raises(MismatchedCorpusError):
        LeafAncestorEvaluator().add_trees([None], [])


# ------------------------------------------------------------------------------------------ conll18


def conll18_columns(name):
    return (read_conllu_columns(CONLL18 / f"{name}.gold.conllu"), read_conllu_columns(CONLL18 / f"{name}.sys.conllu"))


def f1_from_counts(scores):
    """Each score's F1 from the result's own counts: 2·correct / (gold + system)."""
    return {m.name: 2 * m.correct / (m.gold + m.system) if m.gold + m.system else float("nan")
            for m in scores.metrics()}


@pytest.mark.parametrize("name", CONLL18_PAIRS)
def test_conll18_by_files_and_by_columns_give_evaluate_aligned(name):
    whole = evaluate_aligned(CONLL18 / f"{name}.gold.conllu", CONLL18 / f"{name}.sys.conllu")
    by_files = AlignedEvaluator()
    by_files.add_files(CONLL18 / f"{name}.gold.conllu", CONLL18 / f"{name}.sys.conllu")
    assert by_files.result() == whole
    assert aligned_evaluation(*conll18_columns(name)) == whole
    counts = by_files.result().statistics()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus, expected = counts.corpus(), f1_from_counts(whole)
    assert corpus == pytest.approx(expected, nan_ok=True)
    assert list(counts.units) == list(range(len(conll18_columns(name)[0])))
    same_counts(counts, old("aligned_unit_counts")(*conll18_columns(name)))


@pytest.mark.parametrize("block", [1, 3])
def test_conll18_by_blocks_gives_the_whole_files_scores_and_statistics(tmp_path, block):
    """Pieces cut where the files meet (:class:`AlignedStream`), each added to one evaluator
    that keeps their counts per sentence: the whole files' scores, and their sentences numbered
    across the pieces as in the whole gold file."""
    for name in ("random", "case3", "retok_random"):
        gold, system = CONLL18 / f"{name}.gold.conllu", CONLL18 / f"{name}.sys.conllu"
        whole = AlignedEvaluator()
        whole.add_files(gold, system)
        evaluator = AlignedEvaluator(gold_source=str(gold), system_source=str(system))
        scores, _, _ = evaluate_aligned_streamed(gold, system, block, evaluator=evaluator)
        assert scores == whole.result()
        assert evaluator.pieces >= 1
        streamed, counts = scores.statistics(), whole.result().statistics()
        assert np.array_equal(streamed.units, counts.units)
        assert np.array_equal(streamed.numerators, counts.numerators)
        assert np.array_equal(streamed.denominators, counts.denominators)


def test_conll18_accumulates_pairs_of_files():
    """Two pairs of files added to one evaluator: every count the sum of the pairs', the second
    pair's gold sentences numbered after the first's."""
    evaluator = AlignedEvaluator()
    first, second = evaluator.add(*conll18_columns("case1")), evaluator.add(*conll18_columns("retok1"))
    total = evaluator.result()
    for name in METRICS:
        a, b, both = first.metric(name), second.metric(name), total.metric(name)
        assert (both.correct, both.gold, both.system) == (a.correct + b.correct, a.gold + b.gold, a.system + b.system)
    counts = total.statistics()
    n1, n2 = len(conll18_columns("case1")[0]), len(conll18_columns("retok1")[0])
    assert list(counts.units) == list(range(n1 + n2))
    one = old("aligned_unit_counts")(*conll18_columns("retok1"))
    assert np.array_equal(counts.numerators[n1:], one.numerators)
    assert counts.labels[n1] == one.labels[0].replace("sentence 1", f"sentence {n1 + 1}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert counts.corpus() == pytest.approx(f1_from_counts(total), nan_ok=True)


def test_the_evaluate_command_resamples_the_aligned_statistics():
    gold, system = CONLL18 / "retok_random.gold.conllu", CONLL18 / "retok_random.sys.conllu"
    run = sa.evaluate(gold, system, ci=True, resamples=50)
    assert run.alignment == "characters"
    from spacy_agreement.evaluation.command_results import bootstrap_intervals

    again = bootstrap_intervals(run.aligned.statistics(), 50, 1, 0.95, "percentile")
    assert run.intervals.to_dict() == again.to_dict()
    unkept = AlignedEvaluator(keep_statistics=False)
    unkept.add(*conll18_columns("case1"))
    with pytest.raises(AgreementError):
        unkept.result().statistics()
