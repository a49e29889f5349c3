"""A synthetic corpus at the scale of the PCEDT agreement data (Skjærholt 2014, Table 1 and
footnote 8): about 8,800 annotations of 3,531 sentences, 2-6 annotators per sentence.

Sentence lengths follow a log-normal shaped like a real treebank's (mean about 17 tokens,
long tail, capped at 120); trees are grown by attaching each token mostly to a near
neighbour (short, mostly projective dependencies, as in real treebanks), labels from a
skewed distribution over 40 relations. Annotators copy a reference tree and disagree the
way real annotators do: a few relabellings and a few reattachments per sentence.

    python benchmarks/make_pcedt_scale.py OUT_DIR [--sentences 3531] [--seed 0]

writes one CoNLL file per annotator in the annotator-directory layout
(OUT_DIR/annN/pcedt-annN.conll); sentences an annotator did not annotate are missing files'
sentences, so every annotator file holds the same sentences: a sentence's absent
annotators get an empty entry only through separate file prefixes (one prefix per block
of 50 sentences).
"""
import argparse
import sys
from pathlib import Path

import numpy as np

from spacy_agreement.experiments.perturb import dominated

LABELS = [f"rel{k}" for k in range(40)]
WEIGHTS = 1.0 / np.arange(1, 41) ** 1.1
WEIGHTS /= WEIGHTS.sum()


def reference_tree(rng, n):
    heads = [0] * n
    root = int(rng.integers(0, n))
    for k in range(n):
        if k == root:
            continue
        while True:
            offset = int(rng.geometric(0.45)) * (1 if rng.random() < 0.5 else -1)
            h = k + offset
            if 0 <= h < n and h != k:
                break
        heads[k] = h + 1
    # break cycles by attaching cycle members to the root token
    for k in range(n):
        seen, node = set(), k + 1
        while node != 0 and node not in seen:
            seen.add(node)
            node = heads[node - 1]
        if node != 0:
            heads[k] = root + 1 if k != root else 0
    heads[root] = 0
    labels = list(rng.choice(LABELS, size=n, p=WEIGHTS))
    return heads, labels




def annotate(rng, heads, labels):
    heads, labels = list(heads), list(labels)
    n = len(heads)
    for k in range(1, n + 1):
        if rng.random() < 0.05:
            labels[k - 1] = str(rng.choice(LABELS, p=WEIGHTS))
        if rng.random() < 0.04 and heads[k - 1] != 0:
            below = dominated(heads, k)
            near = [h for h in range(max(1, k - 4), min(n, k + 4) + 1) if not below[h]]
            if near:
                heads[k - 1] = int(rng.choice(near))
    return heads, labels


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sentences", type=int, default=3531)
    parser.add_argument("--annotators", type=int, default=11)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    names = [f"ann{k + 1}" for k in range(args.annotators)]
    blocks = {}
    annotations = 0
    for block_start in range(0, args.sentences, 50):
        count = int(rng.choice([2] * 8 + [3, 6]))  # 2.5 annotators per sentence on average, 2 to 6
        who = sorted(rng.choice(len(names), size=count, replace=False).tolist())
        for s in range(block_start, min(block_start + 50, args.sentences)):
            n = int(min(120, max(2, round(rng.lognormal(2.7, 0.55)))))
            heads, labels = reference_tree(rng, n)
            for a in who:
                blocks.setdefault((block_start, a), []).append(annotate(rng, heads, labels))
                annotations += 1
    for (block_start, a), sentences in blocks.items():
        folder = args.out / names[a]
        folder.mkdir(parents=True, exist_ok=True)
        lines = []
        for heads, labels in sentences:
            for k, (h, lab) in enumerate(zip(heads, labels), start=1):
                lines.append(f"{k}\tw{k}\t_\tX\t_\t_\t{h}\t{lab}\t_\t_")
            lines.append("")
        (folder / f"b{block_start:05d}-{names[a]}.conll").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {annotations} annotations of {args.sentences} sentences by {len(names)} annotators to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
