"""The report's ``plots`` section (:mod:`.html`): histograms of the δ within items and, for three or
more annotators, the pairwise agreement matrix, as PNG (matplotlib); the δ of every pair of
annotations of each item from one forest and one kernel call (:func:`pair_distances`)."""
from __future__ import annotations

import base64
import io
import warnings
from itertools import combinations
from typing import Any, Dict, List, Sequence

import numpy as np

from .. import _core
from ..agreement.deltas import get_delta
from ..corpus import Corpus
from ..limits import check_forest
from ..trees import DependencyTree, Forest, dependency_forest
from ..vocab import LabelVocab


def pair_distances(corpus: Corpus, kinds: Sequence[str]) -> Dict[str, List[float]]:
    """Each δ of ``kinds`` between every two annotations of each item, item by item (the
    annotators' order), unit costs: the TED of every pair at once (one forest, one kernel call),
    each pair's values those of :func:`~spacy_agreement.agreement.deltas.tree_edit_distance` and
    :func:`~spacy_agreement.agreement.deltas.delta_from_ted`."""
    vocab = LabelVocab()
    every: List[Any] = []
    sizes, locations, left, right = [], [], [], []
    for item in corpus.items:
        trees = [item[n] for n in corpus.annotators if n in item]
        first = len(every)
        every.extend(trees)
        for tree in trees:
            sizes.append(tree.annotation_size)
            locations.append(tree.location)
        for i, j in combinations(range(first, len(every)), 2):
            left.append(i)
            right.append(j)
    if not left:
        return {kind: [] for kind in kinds}
    if all(isinstance(t, DependencyTree) for t in every):  # the whole forest at once, the same arrays
        forest = dependency_forest(every, vocab)[0]
    else:
        forest = Forest.from_trees([t.to_ordered(vocab, "drop")[0] for t in every])
    check_forest(forest.sizes.tolist(), locations)
    a, b = np.array(left, dtype=np.int64), np.array(right, dtype=np.int64)
    ted = _core.forest_ted_pairs(*forest.arrays(), a, b, vocab.cost_matrix(None, symmetric=False))
    size = np.array(sizes, dtype=np.int64)
    return {kind: get_delta(kind).values(np.asarray(ted, dtype=np.float64), size[a], size[b]).tolist()
            for kind in kinds}


def plots(corpus: Corpus, names: List[str], matrix: np.ndarray) -> str:
    """Histograms of the δ within items, and for three or more annotators the pairwise
    matrix, as PNG (matplotlib; a note where it is not installed). Names are drawn as text
    into the image (no markup there), TeX off, long ones shortened."""
    try:
        import matplotlib  # lazy: import time (and optional)

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return '<p class="muted">Plots need matplotlib: pip install \'spacy-agreement[plot]\'.</p>'
    distances = pair_distances(corpus, ("plain", "diff", "norm"))
    images = []
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    for ax, (kind, values) in zip(axes, distances.items()):
        ax.hist(values, bins=20, color="#4c72b0")
        ax.set_title(f"δ{kind} between two annotations of an item", fontsize=11)
        ax.set_xlabel(f"δ{kind}", fontsize=11)
        ax.set_ylabel("pairs of annotations", fontsize=11)
        ax.tick_params(labelsize=10)
    images.append(("distance histograms", fig))
    if len(names) >= 3:
        side = max(4.5, 0.55 * len(names) + 2.5)
        fig, ax = plt.subplots(figsize=(side + 1.2, side))
        image = ax.imshow(matrix, vmin=0, vmax=1, cmap="viridis")
        ticks = [n if len(n) <= 30 else n[:29] + "…" for n in names]
        ax.set_xticks(range(len(names)), ticks, rotation=40, ha="right", fontsize=11, parse_math=False)
        ax.set_yticks(range(len(names)), ticks, fontsize=11, parse_math=False)
        ax.set_title("pairwise " + ("LAS" if corpus.family == "dependency" else "Jaccard"), fontsize=12)
        fig.colorbar(image, ax=ax)
        images.append(("pairwise agreement matrix", fig))
    out = []
    for alt, fig in images:
        buffer = io.BytesIO()
        with warnings.catch_warnings():  # a name in a script the font lacks: boxes in the plot, the tables show it
            warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font")
            fig.tight_layout()
            fig.savefig(buffer, format="png", dpi=80)
        plt.close(fig)
        data = base64.b64encode(buffer.getvalue()).decode("ascii")
        out.append(f'<img alt="{alt}" src="data:image/png;base64,{data}" style="max-width:100%"/>')
    return "".join(out)


__all__ = ["pair_distances", "plots"]
