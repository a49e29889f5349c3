"""Tree edit distance and Krippendorff's α on the CDT (da) agreement data, side by side with
the peers: zss, apted and edist (TED per pair), NLTK's AnnotationTask (α with a TED distance).

    python benchmarks/bench_ted.py [--pairs 2000] [--quick] [--data DIR]

Every peer gets the same trees (the Skjærholt 2014 Figure 1 form: an artificial root ε
over the tokens with head 0, nodes labelled with relations, children in token order) and
its TED is checked against ours on every timed pair before anything is timed. NLTK's α is
checked against ours as well. Not a test: nothing here asserts a speed.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from importlib import metadata
from pathlib import Path

import numpy as np

import spacy_agreement as sa
from spacy_agreement import LabelVocab, _core
from spacy_agreement.agreement.alpha import alpha as alpha_only  # α alone (sa.alpha adds the accuracies)
from spacy_agreement.trees import Forest

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iaa"


# ------------------------------------------------------------------ tree conversions

def children_lists(tree):
    """(labels, children) in preorder of an OrderedTree: children[i] lists i's children."""
    n = tree.size
    kids = [[] for _ in range(n)]
    for i, p in enumerate(tree.parent.tolist()):
        if p >= 0:
            kids[p].append(i)
    order = []
    stack = [n - 1]
    while stack:  # preorder, children left to right
        node = stack.pop()
        order.append(node)
        stack.extend(reversed(kids[node]))
    index = {node: k for k, node in enumerate(order)}
    labels = tree.labels.tolist()
    return [labels[v] for v in order], [[index[c] for c in kids[v]] for v in order]


def to_zss(labels, adj):
    import zss

    nodes = [zss.Node(str(lab)) for lab in labels]
    for i, kids in enumerate(adj):
        for c in kids:
            nodes[i].addkid(nodes[c])
    return nodes[0]


def to_apted(labels, adj):
    from apted.helpers import Tree

    def text(i):
        return "{" + f"L{labels[i]}" + "".join(text(c) for c in adj[i]) + "}"

    return Tree.from_text(text(0))


def peers():
    import zss
    from apted import APTED
    from edist.ted import standard_ted

    return {
        "zss": (to_zss, lambda a, b: zss.simple_distance(a, b)),
        "apted": (to_apted, lambda a, b: APTED(a, b).compute_edit_distance()),
        "edist": (lambda labels, adj: (labels, adj), lambda a, b: standard_ted(a[0], a[1], b[0], b[1])),
    }


# ---------------------------------------------------------------------------- timing

def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return min(times), value


def machine():
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = []
    for pkg in ("spacy-agreement", "numpy", "zss", "apted", "edist", "nltk", "krippendorff"):
        try:
            versions.append(f"{pkg} {metadata.version(pkg)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{pkg} (not installed)")
    return (
        f"date {datetime.date.today()}, {platform.platform()}, CPU {cpu}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}\n{', '.join(versions)}"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="NLTK's α on a subset, extrapolated")
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("SPACY_AGREEMENT_IAA_DATA", DEFAULT_DATA)))
    args = parser.parse_args(argv)
    files = [args.data / "cdt" / "da-lotte.conll", args.data / "cdt" / "da-morten.conll"]
    if not all(f.exists() for f in files):
        print(f"CDT (da) data not found under {args.data}: nothing to measure")
        return 0
    print(machine())
    corpus = sa.load_parallel_files(files)
    trees = [item[a] for item in corpus.items for a in corpus.annotators]
    vocab = LabelVocab()
    ordered = [t.to_ordered(vocab)[0] for t in trees]
    forest = Forest.from_trees(ordered)
    rng = np.random.default_rng(0)
    left = rng.integers(0, len(ordered), args.pairs).astype(np.int64)
    right = rng.integers(0, len(ordered), args.pairs).astype(np.int64)
    print(f"\nCDT (da): {len(corpus)} sentences x 2 annotators, {len(ordered)} trees, "
          f"{int(forest.sizes.mean())} nodes on average, max {int(forest.sizes.max())}")

    # ---- TED per pair
    # best of 10 for our sub-millisecond runs, of 3 for edist's (tens of ms), one run of the
    # pure-Python peers (seconds each): the minimum over runs is the least disturbed by noise
    ours_batch, ours = best_of(lambda: _core.forest_ted_pairs(*forest.arrays(), left, right), repeat=10)
    ours_single, _ = best_of(lambda: [
        _core.tree_edit_distance(ordered[a].labels, ordered[a].lml, ordered[a].keyroots,
                                 ordered[b].labels, ordered[b].lml, ordered[b].keyroots)
        for a, b in zip(left.tolist(), right.tolist())], repeat=10)
    rows = [("spacy-agreement (forest kernel)", ours_batch), ("spacy-agreement (one call per pair)", ours_single)]
    plain = [children_lists(t) for t in ordered]
    for name, (convert, distance) in peers().items():
        converted = [convert(*p) for p in plain]
        pairs = list(zip(left.tolist(), right.tolist()))
        seconds, values = best_of(lambda: [distance(converted[a], converted[b]) for a, b in pairs],
                                  repeat=3 if name == "edist" else 1)
        wrong = int(np.count_nonzero(np.asarray(values, dtype=float) != ours))
        rows.append((f"{name} (disagreements with ours: {wrong})", seconds))
    print(f"\nTED on {args.pairs} random pairs (best of runs)")
    print(f"  {'implementation':<48} {'µs/pair':>10} {'x ours':>8}")
    for name, seconds in rows:
        print(f"  {name:<48} {1e6 * seconds / args.pairs:10.2f} {seconds / ours_batch:8.1f}")

    # ---- one full α (three deltas at once)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        result = alpha_only(corpus)
        times.append(time.perf_counter() - start)
    ours_alpha = statistics.median(times)
    print(f"\nOne α on CDT (da), all three δ, {len(ordered)} annotations")
    print(f"  spacy-agreement: {ours_alpha:.3f} s  (αplain {result.alpha_plain:.6f})")

    from nltk.metrics.agreement import AnnotationTask
    import zss

    zss_trees = [to_zss(*p) for p in plain]
    n_items = len(corpus) if not args.quick else 40
    data = []
    for k in range(n_items):
        for c in range(2):
            data.append((f"c{c}", f"i{k}", 2 * k + c))

    def ted_distance(a, b):
        return float(zss.simple_distance(zss_trees[a], zss_trees[b])) ** 2

    start = time.perf_counter()
    nltk_alpha = AnnotationTask(data=data, distance=ted_distance).alpha()
    nltk_seconds = time.perf_counter() - start
    if args.quick:
        scaled = nltk_seconds * (len(corpus) / n_items) ** 2
        print(f"  NLTK AnnotationTask + zss: {nltk_seconds:.2f} s on {n_items} items, "
              f"extrapolated (quadratic) to {scaled:.1f} s for all {len(corpus)}: {scaled / ours_alpha:.0f}x ours")
    else:
        same = abs(nltk_alpha - result.alpha_plain) < 1e-9
        print(f"  NLTK AnnotationTask + zss: {nltk_seconds:.1f} s  (αplain {nltk_alpha:.6f}, "
              f"{'equal to ours' if same else 'DIFFERENT from ours'}): {nltk_seconds / ours_alpha:.0f}x ours")
    print("  krippendorff package: takes value matrices with a fixed level of measurement, not a "
          "distance over structured values, so it cannot compute α over trees (not timed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
