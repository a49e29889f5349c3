"""Counts per sentence (spacy_agreement.evaluation.unit_counts): summed over every sentence
they give each evaluation's own corpus figures, so that a resample of the sentences is scored
as the metric defines it."""
import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_agreement.adapters.conllu.column_reader import read_conllu_columns
from spacy_agreement.adapters.files import read_trees
from spacy_agreement.evaluation.conll18.alignment import evaluate_aligned
from spacy_agreement.evaluation.constituency.evalb import evaluate_files
from spacy_agreement.evaluation.constituency.leaf_ancestor import leaf_ancestor
from spacy_agreement.evaluation.dependency.settings import EvaluationSettings
from spacy_agreement.evaluation.dependency.metrics import evaluate
from .unit_counts_reference import (aligned_unit_counts, evalb_unit_counts,
                                                    leaf_ancestor_unit_counts)
from spacy_agreement.trees import DependencyTree

from ..strategies import dependency_heads

DATA = Path(__file__).resolve().parents[1] / "data"
CONLL18 = sorted((DATA / "conll18").glob("*.sys.conllu"))


def same(a, b):
    return (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("system", CONLL18, ids=lambda p: p.name.split(".")[0])
def test_aligned_counts_sum_to_the_scripts_f1(system):
    gold = read_conllu_columns(system.with_name(system.name.replace(".sys.", ".gold.")))
    layers = read_conllu_columns(system)
    scores = evaluate_aligned(gold, layers)
    counts = aligned_unit_counts(gold, layers)
    assert len(counts) == len(gold)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for metric, value in counts.corpus().items():
            assert same(value, scores.metric(metric).f1), metric


def _trees(heads_lists, labels):
    trees = []
    for n, heads in enumerate(heads_lists):
        words = [f"w{k}" for k in range(len(heads))]
        rels = [labels[(n + k) % len(labels)] if h else "root" for k, h in enumerate(heads)]
        trees.append(DependencyTree.create(list(heads), rels, words, upos=["VERB" if k % 3 == 0 else "NOUN"
                                                                          for k in range(len(heads))]))
    return trees


same_length = st.integers(1, 9).flatmap(lambda n: st.tuples(dependency_heads(max_tokens=n, min_tokens=n),
                                                           dependency_heads(max_tokens=n, min_tokens=n)))


@settings(max_examples=25, deadline=None)
@given(st.lists(same_length, min_size=1, max_size=8))
def test_dependency_counts_sum_to_evaluates_scores(pairs):
    gold = [g[0] for g, _ in pairs]
    pred = [p[0] for _, p in pairs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = evaluate(_trees(gold, ["nsubj", "obj", "punct"]), _trees(pred, ["nsubj", "obl", "punct"]),
                          EvaluationSettings(), keep_counts=True)
        corpus = result.unit_counts.corpus()
    for metric, value in result.scores.items():
        assert same(corpus[metric], value), metric
    assert len(result.unit_counts) == len(gold)


def test_dependency_counts_on_cdt_and_skipped_sentences(iaa):
    gold = read_trees(iaa / "cdt" / "da-lotte.conll")
    pred = read_trees(iaa / "cdt" / "da-morten.conll")
    pred[3] = gold[4]  # another sentence at position 4: its tokens differ
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = evaluate(gold, pred, EvaluationSettings(skip_mismatched=True), keep_counts=True)
        corpus = result.unit_counts.corpus()
    assert list(result.unit_counts.set_aside) == [3]
    assert 3 not in result.unit_counts.units and len(result.unit_counts) == len(gold) - 1
    for metric, value in result.scores.items():
        assert same(corpus[metric], value), metric


def test_evalb_counts_sum_to_evalbs_totals():
    report = evaluate_files(DATA / "evalb" / "main.gld", DATA / "evalb" / "main.tst")
    counts = evalb_unit_counts(report)
    totals = report.all.scores()
    corpus = counts.corpus()
    for metric in ("recall", "precision", "fmeasure", "complete_match", "no_crossing", "two_or_less_crossing",
                   "tagging_accuracy"):
        assert corpus[metric] * 100 == pytest.approx(totals[metric]), metric
    assert corpus["average_crossing"] == pytest.approx(totals["average_crossing"])
    errors = [k for k, s in enumerate(report.sentences) if s.status != 0]
    assert sorted(counts.set_aside) == errors and errors


def _bracket_files(tmp_path, n=30, seed=0):
    """A gold file of small trees and a candidate with some labels and attachments changed."""
    rng = random.Random(seed)
    gold, cand = [], []
    for k in range(n):
        words = [f"w{k}x{i}" for i in range(rng.randint(2, 6))]
        tags = [rng.choice(["NN", "VB", "DT"]) for _ in words]
        leaves = [f"({t} {w})" for t, w in zip(tags, words)]
        cut = rng.randint(1, len(words) - 1)
        gold.append(f"(S (NP {' '.join(leaves[:cut])}) (VP {' '.join(leaves[cut:])}))")
        label = rng.choice(["NP", "ADJP"])
        cut2 = max(1, min(len(words) - 1, cut + rng.choice([-1, 0, 0, 1])))
        cand.append(f"(S ({label} {' '.join(leaves[:cut2])}) (VP {' '.join(leaves[cut2:])}))")
    (tmp_path / "gold.mrg").write_text("\n".join(gold) + "\n")
    (tmp_path / "cand.mrg").write_text("\n".join(cand) + "\n")
    return tmp_path / "gold.mrg", tmp_path / "cand.mrg"


def test_leaf_ancestor_counts_sum_to_its_corpus_scores(tmp_path):
    gold_path, cand_path = _bracket_files(tmp_path)
    options = {"leaves": "categories", "missing": True}
    result = leaf_ancestor(read_trees(gold_path, "bracket", **options), read_trees(cand_path, "bracket", **options))
    counts = leaf_ancestor_unit_counts(result)
    corpus = counts.corpus()
    geig = result.brackets.scores()
    assert corpus["leaf_ancestor"] == pytest.approx(result.leaf_ancestor)
    assert corpus["leaf_ancestor_words"] == pytest.approx(result.leaf_ancestor_words)
    assert corpus["geig_labelled"] == pytest.approx(geig["geig_labelled"])
    assert corpus["geig_unlabelled"] == pytest.approx(geig["geig_unlabelled"])
    assert list(counts.units) == list(range(30))
