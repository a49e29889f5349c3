"""How much Zhang–Shasha DP work real treebank trees cost, and what choosing the better of
the left-path and right-path decompositions per pair would save.

Zhang–Shasha fills, for every pair of keyroots (k1, k2), a table of |T1(k1)| × |T2(k2)|
cells, so a pair costs L1 × L2 cells with L = Σ over keyroots of subtree sizes. Mirroring
both trees (reversing every node's children) leaves the edit distance unchanged and swaps
left paths for right paths, so a pair can instead cost R1 × R2 with R computed on the
mirrored trees. APTED (Pawlik & Augsten) generalises this choice to every subtree.

    python benchmarks/bench_cells.py [--data DIR] [--corpus DIR]
"""
import argparse
import os
import sys
from pathlib import Path

import numpy as np

import spacy_agreement as sa
from spacy_agreement import LabelVocab
from spacy_agreement.trees import OrderedTree, children_lists

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iaa"


def keyroot_cost(tree: OrderedTree) -> int:
    sizes = tree.keyroots - tree.lml[tree.keyroots] + 1
    return int(sizes.sum())


def mirrored(tree: OrderedTree) -> OrderedTree:
    kids = children_lists(tree.parent.tolist())
    labels, parents = [], []

    def visit(node):
        ids = [visit(c) for c in reversed(kids[node])]
        index = len(labels)
        labels.append(int(tree.labels[node]))
        parents.append(-1)
        for i in ids:
            parents[i] = index
        return index

    sys.setrecursionlimit(10000)
    visit(tree.size - 1)
    return OrderedTree.from_parents(np.array(labels), np.array(parents))


def report(name, trees):
    left = np.array([keyroot_cost(t) for t in trees], dtype=float)
    right = np.array([keyroot_cost(mirrored(t)) for t in trees], dtype=float)
    i, j = np.triu_indices(len(trees), k=1)
    zs = float((left[i] * left[j]).sum())
    best = float(np.minimum(left[i] * left[j], right[i] * right[j]).sum())
    nodes = np.array([t.size for t in trees], dtype=float)
    squares = float((nodes[i] * nodes[j]).sum())
    print(f"{name:<28} {len(trees):6d} trees  ZS cells {zs:10.3g} ({zs / squares:4.2f} x n1*n2)  "
          f"best of left/right {best:10.3g}  saving {100 * (1 - best / zs):4.1f}%")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("SPACY_AGREEMENT_IAA_DATA", DEFAULT_DATA)))
    parser.add_argument("--corpus", type=Path, help="annotator directories of a synthetic corpus")
    args = parser.parse_args(argv)
    vocab = LabelVocab()
    for path in sorted(args.data.glob("*/*.conll")):
        report(path.name, [t.to_ordered(vocab)[0] for t in sa.read_conll(path)])
    if args.corpus:
        corpus = sa.load_annotator_dirs(sorted(p for p in args.corpus.iterdir() if p.is_dir()))
        report("synthetic PCEDT-scale", [t.to_ordered(vocab)[0] for it in corpus.items for t in it.values()][:3000])
    return 0


if __name__ == "__main__":
    sys.exit(main())
