"""The synthetic noise experiments of Skjærholt (2014), §3 (Figures 3–5).

Sample ``sample`` sentences of a corpus, take them as correct, perturb them
(:mod:`spacy_agreement.experiments.perturb`) and compute αplain, αdiff, αnorm and an uncorrected score
between the original and the perturbed corpus (each sentence an item with two
annotations), for p = 0.1, 0.2, ..., 1.0 and ``runs`` runs per point, in three settings:

* ``"both"``:   p_relabel = p_reattach = p (Figure 3),
* ``"label"``:  p_relabel = p, p_reattach = 0 (Figure 4),
* ``"attach"``: p_relabel = 0, p_reattach = p (Figure 5).

The uncorrected score (``accuracy``) is LAS for dependency trees and the labelled-bracket
Jaccard similarity for phrase trees (as in Table 2); ``accuracy_name`` says which (``"las"`` or
``"jaccard"``; in 0.1 the field was ``las`` whatever it held, still readable as an alias). Each
point reports the mean (what the paper plots) and the median over runs. ``models=("paper", "uniform")`` adds the uniform
structural-noise model; points carry their ``model``. Sampling and noise come from one
numpy ``Generator`` seeded by ``seed``.
"""
from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..agreement.accuracy import pairwise_accuracy
from ..agreement.alpha import alpha
from ..corpus import Corpus
from ..signature import Settings, setting
from ..errors import AgreementError, BadOptionError, UndefinedMetricWarning
from .perturb import perturb_dependency, perturb_phrase
from ..trees import ConstituencyTree, DependencyTree

SETTINGS = ("both", "label", "attach")
P_VALUES = tuple(round(0.1 * k, 1) for k in range(1, 11))
MEASURES = ("alpha_plain", "alpha_diff", "alpha_norm", "accuracy")


@dataclass
class Point:
    """Mean and median of every measure over the runs of one setting, p and model."""

    setting: str
    p: float
    model: str
    runs: int
    alpha_plain: float
    alpha_diff: float
    alpha_norm: float
    accuracy: float  # LAS (dependency trees) or labelled-bracket Jaccard (phrase trees): see accuracy_name
    alpha_plain_median: float
    alpha_diff_median: float
    alpha_norm_median: float
    accuracy_median: float
    accuracy_name: str = "las"  # "las" or "jaccard"

    @property
    def las(self) -> float:
        """The 0.1 name of :attr:`accuracy` (which is Jaccard for phrase trees)."""
        return self.accuracy

    @property
    def las_median(self) -> float:
        """The 0.1 name of :attr:`accuracy_median`."""
        return self.accuracy_median

    def to_dict(self) -> Dict[str, Union[str, float, int]]:
        return asdict(self)


def _noise(setting: str, p: float):
    return {"both": (p, p), "label": (p, 0.0), "attach": (0.0, p)}[setting]


def one_run(originals: Sequence, labels: Sequence[str], p_relabel: float, p_reattach: float,
            rng: np.random.Generator, model: str = "paper") -> Dict[str, float]:
    """α (three δ) and the uncorrected ``accuracy`` (LAS, or Jaccard for phrase trees) between
    ``originals`` and one perturbed copy."""
    if isinstance(originals[0], DependencyTree):
        noisy = [perturb_dependency(t, labels, p_relabel, p_reattach, rng, model) for t in originals]
    else:
        noisy = [perturb_phrase(t, labels, p_relabel, p_reattach, rng) for t in originals]
    corpus = Corpus.from_items([[a, b] for a, b in zip(originals, noisy)], annotators=["original", "noisy"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        result = alpha(corpus)
    accuracy = pairwise_accuracy(corpus)
    score = accuracy.scores["las"] if "las" in accuracy.scores else accuracy.scores["jaccard"]
    return {"alpha_plain": result.alpha_plain, "alpha_diff": result.alpha_diff,
            "alpha_norm": result.alpha_norm, "accuracy": score}


def corpus_labels(trees: Sequence) -> List[str]:
    """The labels noise draws from: relations of dependency trees, or the nonterminal
    categories of phrase trees (labels of nodes that have children)."""
    if isinstance(trees[0], DependencyTree):
        return sorted({lab for t in trees for lab in t.deprels})
    out = set()
    for t in trees:
        has_child = np.zeros(len(t), dtype=bool)
        has_child[t.parent[t.parent >= 0]] = True
        out.update(lab for lab, internal in zip(t.labels, has_child) if internal)
    return sorted(out)


@dataclass(frozen=True)
class SyntheticSettings(Settings):
    """The settings of one synthetic experiment (Skjærholt 2014, §3): what is sampled, how
    often, with which seed and noise models; α itself with the default :class:`AlphaSettings`."""

    computation = "synthetic"

    sample: int = setting(100, key="sample", kind="int", doc="sentences sampled from the corpus")
    runs: int = setting(10, key="runs", kind="int", doc="runs per point")
    seed: int = setting(0, key="seed", kind="int", doc="seed of the sampling and the noise")
    models: Tuple[str, ...] = setting(("paper",), key="models", kind="list",
                                      doc="structural-noise models: paper, uniform")

    def __post_init__(self) -> None:
        object.__setattr__(self, "models", tuple(self.models))


def run_experiment(
    trees: Sequence[Union[DependencyTree, ConstituencyTree]],
    sample: int = 100,
    runs: int = 10,
    seed: int = 0,
    settings: Sequence[str] = SETTINGS,
    p_values: Sequence[float] = P_VALUES,
    models: Sequence[str] = ("paper",),
    progress: bool = False,
) -> List[Point]:
    """Every point of Figures 3–5 (see the module docstring)."""
    if not trees:
        raise AgreementError("the corpus is empty")
    valid = [t for t in trees if not isinstance(t, DependencyTree) or not len(t.unreachable_tokens())]
    if len(valid) < len(trees):
        warnings.warn(f"{len(trees) - len(valid)} sentence(s) with head cycles are not sampled "
                      "(a perturbation needs a tree)", UserWarning, stacklevel=2)
    if len(valid) < 2:
        raise AgreementError("need at least two sentences without head cycles")
    rng = np.random.default_rng(seed)
    chosen = rng.choice(len(valid), size=min(sample, len(valid)), replace=False)
    originals = [valid[i] for i in sorted(chosen.tolist())]
    labels = corpus_labels(valid)
    if isinstance(originals[0], ConstituencyTree) and "uniform" in models:
        raise BadOptionError("the uniform structural model is for dependency trees")
    jobs = [(s, p, m) for s in settings for p in p_values for m in models if not (m == "uniform" and s == "label")]
    iterator = jobs
    if progress:
        from tqdm import tqdm  # lazy: import time

        iterator = tqdm(jobs, desc="synthetic", unit="point")
    points: List[Point] = []
    accuracy_name = "las" if isinstance(originals[0], DependencyTree) else "jaccard"
    for setting, p, model in iterator:
        if setting not in SETTINGS:
            raise BadOptionError(f"unknown setting {setting!r}: one of {SETTINGS}")
        values = [one_run(originals, labels, *_noise(setting, p), rng, model) for _ in range(runs)]
        table = {m: np.array([v[m] for v in values], dtype=float) for m in MEASURES}
        points.append(Point(setting, float(p), model, runs,
                            *(float(np.nanmean(table[m])) for m in MEASURES),
                            *(float(np.nanmedian(table[m])) for m in MEASURES), accuracy_name))
    return points


def points_tsv(points: Sequence[Point], signature: Optional[str] = None) -> str:
    """Every point as tab-separated values with a header (and a last column ``signature``
    holding the experiment's signature in every row, where given)."""
    fields = list(Point.__dataclass_fields__)
    extra = [] if signature is None else [signature]
    rows = ["\t".join(fields + (["signature"] if extra else []))]
    for point in points:
        rows.append("\t".join([str(getattr(point, f)) for f in fields] + extra))
    return "\n".join(rows)


def plot_points(points: Sequence[Point], directory, prefix: str = "synthetic") -> List[str]:
    """One PNG per setting, like Figures 3–5: the three α and LAS against p, solid lines for
    the paper's noise model and dashed for the uniform one; the y axis spans −0.25 to 1 as in
    the paper, so αdiff leaves the chart at high noise (the table has every value). Needs matplotlib (extra ``plot``)."""
    try:
        import matplotlib  # lazy: import time (and optional)

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("plots need matplotlib: pip install 'spacy-agreement[plot]'") from exc
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    titles = {"both": "p_relabel = p_reattach", "label": "p_relabel (p_reattach = 0)",
              "attach": "p_reattach (p_relabel = 0)"}
    names = {"alpha_plain": "α plain", "alpha_diff": "α diff", "alpha_norm": "α norm", "accuracy": "LAS / Jaccard"}
    written = []
    for setting in SETTINGS:
        chosen = [pt for pt in points if pt.setting == setting]
        if not chosen:
            continue
        fig, ax = plt.subplots(figsize=(5.5, 4))
        for i, measure in enumerate(MEASURES):
            for model, style in (("paper", "-"), ("uniform", "--")):
                line = sorted((pt for pt in chosen if pt.model == model), key=lambda pt: pt.p)
                if line:
                    label = names[measure] + ("" if model == "paper" else " (uniform trees)")
                    ax.plot([pt.p for pt in line], [getattr(pt, measure) for pt in line], style,
                            color=f"C{i}", marker="o", markersize=3, label=label)
        ax.set_xlabel(titles[setting])
        ax.set_ylabel("Agreement")
        ax.set_xlim(0, 1)
        ax.set_ylim(-0.25, 1.02)  # as the paper's figures: αdiff leaves the chart below
        ax.axhline(0, color="grey", linewidth=0.5)
        ax.legend(fontsize=7)
        ax.set_title(f"Mean agreement over {chosen[0].runs} runs")
        fig.tight_layout()
        path = directory / f"{prefix}-{setting}.png"
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(str(path))
    return written
