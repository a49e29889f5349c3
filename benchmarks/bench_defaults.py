"""What a new user waits for with the default options (issue 15): a parser against gold over
4,000 Penn-Treebank-sized phrase trees through ``score_nltk_trees``, ``spacy-agreement alpha``
and ``spacy-agreement report``, with α by the default policy (exact within the budget of DP
cells, sampled beyond) beside ``--alpha exact`` on a subset, and, when given a spaCy pipeline
and a UD file, ``spacy evaluate`` with spaCy's parser scorer and with ours.

    python benchmarks/bench_defaults.py                       # the PTB-sized part
    python benchmarks/bench_defaults.py --trees 1000          # smaller
    python benchmarks/bench_defaults.py --spacy-model en_core_web_sm --ud en_ewt-ud-dev.conllu

The trees are generated (no treebank is shipped): random phrase trees with a length drawn
around 25 words (PTB's mean), and a "parse" of each with 10% of its brackets relabelled.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

LABELS = ["NP", "VP", "PP", "S", "ADJP", "SBAR"]
TAGS = ["NN", "DT", "VB", "JJ", "IN", "NNS", "RB"]


def phrase_tree(rng: random.Random, words: int):
    from nltk import Tree

    nodes = [Tree(rng.choice(TAGS), [f"w{i}"]) for i in range(words)]
    while len(nodes) > 1:
        k = rng.randint(0, len(nodes) - 2)
        span = rng.choice([2, 2, 3])
        nodes = nodes[:k] + [Tree(rng.choice(LABELS), nodes[k:k + span])] + nodes[k + span:]
    return nodes[0] if nodes[0].label() == "S" else Tree("S", [nodes[0]])


def parse_of(rng: random.Random, tree):
    from nltk import Tree

    out = tree.copy(deep=True)
    for position in out.treepositions():
        node = out[position]
        if isinstance(node, Tree) and len(node) > 1 and rng.random() < 0.1:
            node.set_label(rng.choice(LABELS))
    return out


def timed(label: str, function) -> object:
    start = time.perf_counter()
    value = function()
    print(f"{label:<58} {time.perf_counter() - start:8.2f} s", flush=True)
    return value


def cli(*args: str) -> dict:
    done = subprocess.run(["spacy-agreement", *args, "--json", "--quiet"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def ptb_part(trees: int) -> None:
    from spacy_agreement import score_nltk_trees

    rng = random.Random(0)
    gold = [phrase_tree(rng, max(3, int(rng.gauss(25, 10)))) for _ in range(trees)]
    parsed = [parse_of(rng, t) for t in gold]
    folder = Path(tempfile.mkdtemp())
    for name, data in (("gold.mrg", gold), ("parsed.mrg", parsed)):
        (folder / name).write_text("\n".join(t.pformat(margin=10 ** 9) for t in data) + "\n", encoding="utf-8")
    print(f"{trees} generated PTB-sized trees, gold against a parse ({folder})")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = timed("score_nltk_trees (every metric, default alpha)", lambda: score_nltk_trees(gold, parsed))
    print(f"  alpha_method {out['alpha_method']}, alpha_plain {out['alpha_plain']:.5f} "
          f"[{out['alpha_plain_low']:.5f}, {out['alpha_plain_high']:.5f}], exact cost {out['alpha_cells']:.3g} cells"
          if out["alpha_method"] != "exact" else f"  alpha exact {out['alpha_plain']:.5f}")
    values = timed("spacy-agreement alpha gold.mrg parsed.mrg", lambda: cli("alpha", str(folder / "gold.mrg"),
                                                                             str(folder / "parsed.mrg")))
    print(f"  alpha_method {values['alpha_method']}, alpha_plain {values['alpha_plain']:.5f}")
    timed("spacy-agreement report gold.mrg parsed.mrg --html", lambda: cli(
        "report", str(folder / "gold.mrg"), str(folder / "parsed.mrg"), "--html", str(folder / "r.html")))
    subset = min(trees, 500)
    for name, data in (("gold500.mrg", gold[:subset]), ("parsed500.mrg", parsed[:subset])):
        (folder / name).write_text("\n".join(t.pformat(margin=10 ** 9) for t in data) + "\n", encoding="utf-8")
    exact = timed(f"alpha --alpha exact on the first {subset} items", lambda: cli(
        "alpha", str(folder / "gold500.mrg"), str(folder / "parsed500.mrg"), "--alpha", "exact"))
    sampled = timed(f"alpha --alpha sampled on the first {subset} items", lambda: cli(
        "alpha", str(folder / "gold500.mrg"), str(folder / "parsed500.mrg"), "--alpha", "sampled"))
    print(f"  exact {exact['alpha_plain']:.5f}; sampled {sampled['alpha_plain']:.5f} "
          f"[{sampled['alpha_plain_low']:.5f}, {sampled['alpha_plain_high']:.5f}]")
    shutil.rmtree(folder)


def spacy_part(model: str, ud: Path) -> None:
    import spacy
    from spacy.tokens import Doc, DocBin

    from spacy_agreement.adapters.conllu.trees import read_conll

    folder = Path(tempfile.mkdtemp())
    nlp = spacy.load(model)
    docs = DocBin()
    for tree in read_conll(ud):
        heads = [h - 1 if h else k for k, h in enumerate(tree.heads.tolist())]
        docs.add(Doc(nlp.vocab, words=list(tree.forms), heads=heads, deps=list(tree.deprels), pos=list(tree.upos),
                     lemmas=list(tree.lemmas)))
    docs.to_disk(folder / "gold.spacy")
    nlp.to_disk(folder / "spacy_scorer")
    shutil.copytree(folder / "spacy_scorer", folder / "our_scorer")
    config = folder / "our_scorer" / "config.cfg"
    config.write_text(config.read_text().replace('@scorers = "spacy.parser_scorer.v1"',
                                                 '@scorers = "spacy_agreement.syntax_scorer.v1"'))
    print(f"spacy evaluate {model} on {ud.name} ({len(docs)} sentences), three runs each, alternating")
    times = {"spacy_scorer": [], "our_scorer": []}
    for _ in range(3):
        for name in times:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "spacy", "evaluate", str(folder / name), str(folder / "gold.spacy"),
                            "-o", str(folder / f"{name}.json")], capture_output=True, check=True)
            times[name].append(time.perf_counter() - start)
    best = {name: min(values) for name, values in times.items()}
    for name, value in best.items():
        print(f"{'spacy evaluate, ' + name.replace('_', ' '):<58} {value:8.2f} s (best of 3)")
    print(f"  ours / spaCy's: {best['our_scorer'] / best['spacy_scorer']:.3f}")
    shutil.rmtree(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", type=int, default=4000)
    parser.add_argument("--spacy-model")
    parser.add_argument("--ud", type=Path)
    args = parser.parse_args()
    ptb_part(args.trees)
    if args.spacy_model and args.ud:
        spacy_part(args.spacy_model, args.ud)


if __name__ == "__main__":
    main()
