"""α's bootstrap interval (:func:`spacy_agreement.agreement.estimate.bootstrap_interval`: items
resampled, De held fixed, Hayes & Krippendorff 2007) covers the true α as often as it says, on
synthetic annotations whose α is known.

The annotations: each item has a true tree T drawn uniformly from K distinct trees, and each of
two annotators gives T with probability r, else a tree drawn uniformly from the K, independently
of everything else. Two annotations of one item are then equal (δ = 0) with probability r² (both
gave T), and otherwise distributed as two independent uniform draws; two annotations of
different items are always two independent uniform draws. So, for every δ, the population's
Do = (1 − r²) D̄ and De = D̄, with D̄ the mean δ² of two independent uniform draws, and
α = 1 − Do / De = r², whatever the trees."""
import math
import warnings

import numpy as np
import pytest

import spacy_agreement as sa
from spacy_agreement.agreement.estimate import bootstrap_interval

HEADS = [[0, 1, 1, 1], [2, 0, 2, 2], [0, 1, 2, 3], [3, 3, 0, 3], [2, 0, 4, 2], [0, 1, 1, 3], [4, 4, 4, 0],
         [2, 3, 0, 3]]
LABELS = [["root", "a", "b", "c"], ["a", "root", "b", "c"], ["root", "a", "a", "b"], ["b", "c", "root", "a"],
          ["a", "root", "c", "b"], ["root", "b", "a", "a"], ["c", "c", "a", "root"], ["a", "b", "root", "c"]]
TREES = [sa.DependencyTree.create(h, l) for h, l in zip(HEADS, LABELS)]


def annotations(rng, items, r):
    """Two annotators' trees of ``items`` items under the model of the module docstring."""
    truth = rng.integers(0, len(TREES), items)
    return [[TREES[t] if rng.random() < r else TREES[int(rng.integers(0, len(TREES)))] for _ in range(2)]
            for t in truth]


def test_the_model_has_the_alpha_it_claims():
    """The exact α of a large sample is r² (the model is right), to its sampling error: α̂'s standard
    deviation is about 0.065 at 100 items (measured over 1,000 samples), so about 0.0065 at 10,000
    items; 4 of them is 0.026."""
    rng = np.random.default_rng(5)
    result = sa.alpha(annotations(rng, 10_000, 0.8))
    for kind in ("plain", "diff", "norm"):
        assert abs(result.alphas[kind] - 0.64) <= 0.026, kind


@pytest.mark.slow
def test_the_95_percent_interval_covers_the_true_alpha_95_percent_of_the_time():
    """400 samples of 100 items (r = 0.8, α = 0.64), a 95% interval from 1,000 resamples each: the
    share that covers α is binomial, with standard deviation sqrt(0.95 · 0.05 / 400) = 0.0109 if
    the interval is right, so it lies within 3 of them, [0.917, 0.983], but for 0.3% of seeds (a
    longer run of 1,000 samples gave 0.942). An interval that ignores the sampling error (too
    narrow) or says nothing (too wide) falls outside: 0.917 is what a 92% interval would give on
    average, 0.983 a 98.5% one."""
    rng = np.random.default_rng(2024)
    samples, true_alpha = 400, 0.64
    covered = {"plain": 0, "diff": 0, "norm": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sa.UndefinedMetricWarning)
        for k in range(samples):
            result = bootstrap_interval(sa.alpha(annotations(rng, 100, math.sqrt(true_alpha))), samples=1000, seed=k)
            for kind in covered:
                covered[kind] += result.low[kind] <= true_alpha <= result.high[kind]
    tolerance = 3 * math.sqrt(0.95 * 0.05 / samples)
    for kind, count in covered.items():
        assert abs(count / samples - 0.95) <= tolerance, (kind, count / samples)
