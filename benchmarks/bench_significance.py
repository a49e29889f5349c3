"""Approximate randomization and the paired bootstrap at the size of a treebank (issue 42), beside
SciPy's own resampling (the 0.3 code path) in the same run.

    python benchmarks/bench_significance.py [--sentences 16000] [--shuffles 10000] [--metrics 13]
                                            [--repeats 3] [--seed 1]

Two systems' counts per gold sentence are made up with the shape of a conll18 evaluation (13
metrics; per sentence 5-40 gold words, each correct with probability 0.80 for A and 0.805 for B).
Timed in-process, `--repeats` times each, median (and all runs) printed, with the peak of memory
the numpy arrays took (tracemalloc):

* ours: `randomization_test` (SciPy's shuffles drawn by `comparison.randomization`), and
  `bootstrap` (the paired bootstrap, SciPy's `bootstrap` over sentence indices);
* the reference: 0.3's call of `scipy.stats.permutation_test(permutation_type="samples")` with the
  same statistic and seed.

The p-values of ours and the reference must be equal, number for number: the script exits with
status 1 when they are not.
"""
import argparse
import statistics
import sys
import time
import tracemalloc

import numpy as np


def systems(n, m, seed):
    from spacy_agreement.evaluation.unit_counts import from_rows, ratio

    rng = np.random.default_rng(seed)
    den = rng.integers(5, 41, size=(n, m)).astype(float)
    names = [f"metric{k}" for k in range(m)]
    return tuple(from_rows(names, range(n), rng.binomial(den.astype(int), p).astype(float), den, [ratio] * m)
                 for p in (0.80, 0.805))


def scipy_randomization(a, b, shuffles, seed):
    """0.3's randomization_test: SciPy permutes each sentence's pair of analyses."""
    from scipy import stats

    n = len(a)
    diff_num, diff_den = b.numerators - a.numerators, b.denominators - a.denominators
    sa, sd, sb, se = a.numerators.sum(0), a.denominators.sum(0), b.numerators.sum(0), b.denominators.sum(0)

    def statistic(x, y, axis=-1):
        swapped = (np.asarray(x) >= n).astype(float)
        mn, md = swapped @ diff_num, swapped @ diff_den
        with np.errstate(all="ignore"):
            d = np.abs(a.values(sb - mn, se - md) - a.values(sa + mn, sd + md))
        return np.where(np.isnan(d), np.inf, d)

    key = "rng" if "rng" in __import__("inspect").signature(stats.permutation_test).parameters else "random_state"
    with np.errstate(all="ignore"):
        res = stats.permutation_test((np.arange(n), np.arange(n) + n), statistic, permutation_type="samples",
                                     vectorized=True, n_resamples=shuffles, alternative="greater",
                                     batch=max(1, 4_000_000 // n), **{key: seed})
    return {m: float(min(1.0, p)) for m, p in zip(a.metrics, np.ravel(res.pvalue))}


def timed(function, repeats):
    walls, peak, value = [], 0, None
    for _ in range(repeats):
        tracemalloc.start()
        start = time.perf_counter()
        value = function()
        walls.append(time.perf_counter() - start)
        peak = max(peak, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return statistics.median(walls), walls, peak / 2 ** 20, value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sentences", type=int, default=16000)
    parser.add_argument("--shuffles", type=int, default=10000)
    parser.add_argument("--metrics", type=int, default=13)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import platform

    import scipy

    import spacy_agreement
    from spacy_agreement.evaluation.comparison.significance import IntervalSettings, bootstrap, randomization_test

    a, b = systems(args.sentences, args.metrics, args.seed)
    print(f"date {time.strftime('%Y-%m-%d')}, {platform.platform()}, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"spacy-agreement {spacy_agreement.__version__}")
    print(f"{args.sentences} sentences, {args.metrics} metrics, {args.shuffles} shuffles/resamples, "
          f"median of {args.repeats}")
    randomization_test(a, b, 10, args.seed)  # imports and first calls out of the timing
    rows = [("approximate randomization, ours", lambda: randomization_test(a, b, args.shuffles, args.seed)),
            ("approximate randomization, scipy.stats.permutation_test (0.3)",
             lambda: scipy_randomization(a, b, args.shuffles, args.seed)),
            ("paired bootstrap, ours (scipy.stats.bootstrap over sentences)",
             lambda: bootstrap({"a": a, "b": b}, IntervalSettings(resamples=args.shuffles, seed=args.seed),
                               [("a", "b")]))]
    results = {}
    for name, function in rows:
        median, walls, peak, value = timed(function, args.repeats)
        results[name] = (median, value)
        print(f"{name:<64} {median:6.2f} s  (runs {', '.join(f'{w:.2f}' for w in walls)}; arrays' peak {peak:.0f} MiB)")
    ours, theirs = results[rows[0][0]], results[rows[1][0]]
    same = ours[1] == theirs[1]
    print(f"ratio ours / scipy: {ours[0] / theirs[0]:.2f}; p-values equal: {same} "
          f"({', '.join(f'{p:.4g}' for p in list(ours[1].values())[:4])}, ...)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
