"""Generate a synthetic set of human judgments between two parses, with known judges.

    python examples/make_judgments.py OUT.jsonl [--items 300] [--seed 0]

Each item has a random gold dependency tree (UD-style labels and UPOS) and two parses A and
B made from it by random reattachments and relabellings, A and B with different amounts of
noise. The *true* preference is the parse with the higher LAS (ties broken by UAS, then at
random). Judges answer the true preference with their own accuracy and flip a coin
otherwise. ``JUDGES`` below gives their accuracies, so a good item-response model must
rank ``expert`` and ``careful`` above ``hasty`` and ``random``.
"""
import argparse
import json
import sys

import numpy as np

from spacy_agreement.experiments.perturb import dominated

JUDGES = {"expert": 0.95, "careful": 0.85, "hasty": 0.6, "random": 0.5}
LABELS = ["nsubj", "obj", "obl", "amod", "det", "case", "advmod", "conj", "cc", "nmod"]
UPOS = ["NOUN", "VERB", "ADJ", "DET", "ADP", "ADV", "PROPN", "PRON"]


def random_tree(rng, n):
    """Heads of a random tree over n tokens (each token attaches to an earlier-placed one)."""
    order = rng.permutation(n) + 1
    heads = [0] * n
    placed = [0]
    for token in order:
        heads[token - 1] = int(rng.choice(placed))
        placed.append(int(token))
    return heads




def perturb(rng, heads, labels, p):
    heads, labels = list(heads), list(labels)
    n = len(heads)
    for k in range(1, n + 1):
        if rng.random() < p:
            labels[k - 1] = str(rng.choice(LABELS))
        if rng.random() < p:
            below = dominated(heads, k)
            allowed = [h for h in range(0, n + 1) if not below[h]]
            heads[k - 1] = int(rng.choice(allowed))
    return heads, labels


def las(gold, pred):
    return np.mean([g == p and gl == pl for g, p, gl, pl in zip(gold[0], pred[0], gold[1], pred[1])])


def uas(gold, pred):
    return np.mean([g == p for g, p in zip(gold[0], pred[0])])


def generate(items=300, seed=0):
    """The items as JSON-ready dicts, and the true preference of each."""
    rng = np.random.default_rng(seed)
    records, truth = [], []
    for i in range(items):
        n = int(rng.integers(4, 16))
        heads = random_tree(rng, n)
        labels = [str(rng.choice(LABELS)) for _ in range(n)]
        upos = [str(rng.choice(UPOS)) for _ in range(n)]
        upos[heads.index(0)] = "VERB"
        while True:
            a = perturb(rng, heads, labels, float(rng.uniform(0.05, 0.4)))
            b = perturb(rng, heads, labels, float(rng.uniform(0.05, 0.4)))
            key_a = (las((heads, labels), a), uas((heads, labels), a))
            key_b = (las((heads, labels), b), uas((heads, labels), b))
            if key_a != key_b:
                break
        best = "A" if key_a > key_b else "B"
        judgments = {}
        for judge, accuracy in JUDGES.items():
            if rng.random() < 0.1 and judge != "expert":
                continue  # judges skip some items
            right = rng.random() < accuracy
            judgments[judge] = best if right else ("B" if best == "A" else "A")
        tree = lambda h, l: {"heads": h, "deprels": l, "upos": upos}  # noqa: E731
        records.append({"id": f"s{i + 1}", "gold": tree(heads, labels), "a": tree(*a), "b": tree(*b),
                        "judgments": judgments})
        truth.append(best)
    return records, truth


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--items", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    records, _ = generate(args.items, args.seed)
    with open(args.output, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")
    print(f"wrote {len(records)} items judged by {', '.join(f'{j} ({a:.0%})' for j, a in JUDGES.items())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
