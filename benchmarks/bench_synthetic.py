"""The full synthetic experiment of Skjærholt (2014), §3, timed, beside the paper's numbers.

    python benchmarks/bench_synthetic.py [--data DIR] [--plot DIR] [--uniform]

3 settings x 10 values of p x 10 runs on 100 sentences of the NDT agreement data (the
paper sampled 100 sentences of the Norwegian Dependency Treebank itself; the NDT 3
(Norwegian) agreement file stands in for it here). Not a test: nothing asserts a time.
"""
import argparse
import os
import sys
import time
from pathlib import Path

import spacy_agreement as sa
from spacy_agreement.experiments.synthetic import plot_points, run_experiment

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iaa"
# values the paper states in §3 (percent): (setting, p, measure) -> value
PAPER = {
    ("both", 0.1, "alpha_diff"): 15.8,
    ("both", 1.0, "alpha_norm"): 14.5,
    ("both", 1.0, "las"): 0.9,
    ("both", 1.0, "alpha_plain"): -6.8,
    ("both", 1.0, "alpha_diff"): -246.0,
    ("attach", 1.0, "las"): 23.9,
    ("label", 1.0, "las"): 4.1,
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("SPACY_AGREEMENT_IAA_DATA", DEFAULT_DATA)))
    parser.add_argument("--plot", type=Path)
    parser.add_argument("--uniform", action="store_true", help="also the uniform structural-noise model")
    args = parser.parse_args(argv)
    path = args.data / "ndt" / "odin-norwegian.conll"
    if not path.exists():
        print(f"{path} not found: nothing to measure")
        return 0
    trees = sa.read_conll(path)
    start = time.perf_counter()
    points = run_experiment(trees, sample=100, runs=10, seed=0)
    seconds = time.perf_counter() - start
    print(f"full experiment (3 settings x 10 p x 10 runs, 100 sentences): {seconds:.1f} s")
    if args.uniform:
        start = time.perf_counter()
        points += run_experiment(trees, sample=100, runs=10, seed=0, settings=("both", "attach"), models=("uniform",))
        print(f"uniform structural model (2 settings x 10 p x 10 runs): {time.perf_counter() - start:.1f} s")
    print(f"\n{'setting':<7} {'model':<8} {'p':>4}  {'α plain':>8} {'α diff':>8} {'α norm':>8} {'LAS':>8}   (%)")
    for pt in points:
        print(f"{pt.setting:<7} {pt.model:<8} {pt.p:4.1f}  {100 * pt.alpha_plain:8.1f} {100 * pt.alpha_diff:8.1f} "
              f"{100 * pt.alpha_norm:8.1f} {100 * pt.las:8.1f}")
    print("\nThe paper's stated values beside ours (mean of 10 runs, %):")
    for (setting, p, measure), value in PAPER.items():
        ours = next(getattr(pt, measure) for pt in points if pt.setting == setting and pt.p == p and pt.model == "paper")
        print(f"  {setting:<6} p={p:.1f} {measure:<11} paper {value:7.1f}   ours {100 * ours:7.1f}")
    if args.plot:
        for written in plot_points(points, args.plot):
            print("wrote", written)
    return 0


if __name__ == "__main__":
    sys.exit(main())
