"""Quick start: agreement between annotators from Python.

Run: python examples/quickstart.py [ANNOTATOR_FILE ...]
Without arguments it uses the example annotations shipped with the package.
"""
import sys
from importlib import resources

import spacy_agreement as sa


def main(paths):
    # 1. Trees built in Python: two annotators disagree on one label of one sentence.
    a = sa.DependencyTree.create(heads=[2, 0, 2], deprels=["nsubj", "root", "obj"])
    b = sa.DependencyTree.create(heads=[2, 0, 2], deprels=["nsubj", "root", "iobj"])
    print("TED between the two analyses:", sa.tree_edit_distance(a, b))
    print("alpha over three items (None = missing):", sa.alpha([[a, b], [a, a], [b, None]]).alpha_plain)

    # 2. Files: parallel files, one annotator each, or annotator directories.
    if paths:
        corpus = sa.load_parallel_files(paths)
    else:
        base = resources.files("spacy_agreement") / "data" / "demo" / "dependency"
        with resources.as_file(base) as folder:
            corpus = sa.load_annotator_dirs(sorted(p for p in folder.iterdir() if p.is_dir()))
    result = sa.alpha(corpus)
    accuracy = sa.pairwise_accuracy(corpus)
    print(f"{len(corpus.annotators)} annotators, {result.items} items, {result.annotations} annotations")
    print(f"alpha plain {result.alpha_plain:.3f}  diff {result.alpha_diff:.3f}  norm {result.alpha_norm:.3f}")
    print(f"LAS {accuracy.las:.3f}  UAS {accuracy.uas:.3f}  LA {accuracy.la:.3f}")
    print("most disagreement (mean squared delta-norm, as the report ranks):", result.worst_items(3, kind="norm"))

    # 3. Partial credit: confusing subtypes of a relation (nsubj vs nsubj:pass) costs half.
    def cost(x, y):
        return 0.0 if x == y else 0.5 if x.split(":")[0] == y.split(":")[0] else 1.0

    print("alpha plain with label costs:", round(sa.alpha(corpus, label_cost=cost).alpha_plain, 3))


if __name__ == "__main__":
    main(sys.argv[1:])
