"""α at corpus scale: one α over a synthetic PCEDT-scale corpus (about 8,800 annotations of
3,531 sentences, 2-6 annotators each; benchmarks/make_pcedt_scale.py), against the peers.

    python benchmarks/bench_scale.py [--corpus DIR] [--threads N] [--peer-items 40]

This package computes the exact α (all ~38 million pairs, deduplicated, threaded) and the
sampled estimate. The peers cannot run the full corpus in reasonable time: NLTK's
AnnotationTask (with zss, apted or edist as the TED) is run on a subset of items and
extrapolated quadratically to the full corpus, which this script says in its output.
Not a test: nothing asserts a time.
"""
import argparse
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import spacy_agreement as sa
from spacy_agreement.agreement.alpha import alpha as alpha_only  # α alone (sa.alpha adds the accuracies)
from spacy_agreement.agreement.estimate import sampled_alpha

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ted import children_lists, peers  # noqa: E402
from make_pcedt_scale import main as make_corpus  # noqa: E402


def nltk_alpha_seconds(corpus, items, distance_name):
    """Seconds NLTK's AnnotationTask takes for αplain over the first ``items`` items."""
    from nltk.metrics.agreement import AnnotationTask

    convert, distance = peers()[distance_name]
    vocab = sa.LabelVocab()
    data, trees = [], []
    for k, item in enumerate(corpus.items[:items]):
        if len(item) < 2:
            continue
        for annotator, tree in item.items():
            ordered, _ = tree.to_ordered(vocab)
            trees.append(convert(*children_lists(ordered)))
            data.append((annotator, f"i{k}", len(trees) - 1))
    start = time.perf_counter()
    AnnotationTask(data=data, distance=lambda a, b: float(distance(trees[a], trees[b])) ** 2).alpha()
    return time.perf_counter() - start, len(trees)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="annotator directories (default: generate one)")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--peer-items", type=int, default=40)
    args = parser.parse_args(argv)
    if args.corpus is None:
        args.corpus = Path(tempfile.mkdtemp()) / "pcedt-scale"
        make_corpus([str(args.corpus)])
    print(f"{platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    corpus = sa.load_annotator_dirs(sorted(p for p in args.corpus.iterdir() if p.is_dir()))
    n = corpus.n_annotations
    print(f"corpus: {len(corpus)} sentences, {n} annotations, {n * (n - 1) // 2:,} pairs")
    start = time.perf_counter()
    result = alpha_only(corpus, method="exact", n_threads=args.threads, progress=sys.stderr.isatty())
    exact = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"exact alpha (threads, deduplicated): {exact:.1f} s, peak memory {peak:.0f} MiB; "
          f"plain {result.alpha_plain:.5f} diff {result.alpha_diff:.5f} norm {result.alpha_norm:.5f}")
    start = time.perf_counter()
    estimate = sampled_alpha(corpus, pairs=200_000, seed=0)
    print(f"sampled alpha (200,000 pairs): {time.perf_counter() - start:.1f} s; plain {estimate.estimate['plain']:.5f} "
          f"in [{estimate.low['plain']:.5f}, {estimate.high['plain']:.5f}]")
    total_values = n
    for name in ("edist", "zss"):
        seconds, values = nltk_alpha_seconds(corpus, args.peer_items, name)
        scaled = seconds * (total_values / values) ** 2
        print(f"NLTK AnnotationTask + {name}: {seconds:.1f} s on {values} annotations, extrapolated (quadratic) to "
              f"{scaled / 3600:.1f} h for {total_values}: {scaled / exact:,.0f}x ours")
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main())
