"""An item-response model of annotators in the spirit of MACE (Hovy et al. 2013).

Generative story: every item i has a true label T_i drawn uniformly from K labels. Annotator
j is *competent* with probability θ_j: then it gives the true label; otherwise it "spams"
and draws its label from its own distribution ξ_j. So

    P(A_ij = a | T_i = t) = θ_j · [a = t] + (1 − θ_j) · ξ_j(a).

Parameters are fitted by EM (Hovy et al. fit the same model by EM, optionally with
variational Bayes; we use EM with Beta(``prior``, ``prior``) smoothing of θ and additive
smoothing of ξ, which keeps θ away from 0 and 1 on small data). Several random restarts,
the one with the highest log-likelihood kept; a seed makes it reproducible. Annotators may
skip items (missing annotations).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

import numpy as np


@dataclass
class MaceResult:
    """Competence θ per annotator, the posterior over labels per item and the fit."""

    labels: List[str]
    annotators: List[str]
    competence: Dict[str, float]
    posterior: np.ndarray  # items x labels
    log_likelihood: float

    def predicted(self) -> List[str]:
        return [self.labels[k] for k in self.posterior.argmax(axis=1)]


def mace(
    annotations: Sequence[Dict[str, str]],
    labels: Optional[Sequence[str]] = None,
    restarts: int = 10,
    iterations: int = 200,
    prior: float = 2.0,
    smoothing: float = 0.01,
    seed: int = 0,
    tol: float = 1e-9,
) -> MaceResult:
    """Fit the model to ``annotations``: one mapping annotator → label per item."""
    annotators = sorted({a for item in annotations for a in item})
    labels = list(labels) if labels is not None else sorted({v for item in annotations for v in item.values()})
    if not annotators or len(labels) < 2:
        raise ValueError("MACE needs at least one annotator and two labels")
    n_items, n_ann, k = len(annotations), len(annotators), len(labels)
    ann_index = {a: j for j, a in enumerate(annotators)}
    label_index = {v: c for c, v in enumerate(labels)}
    # observed[i, j] = label id or -1 when annotator j did not annotate item i
    observed = np.full((n_items, n_ann), -1, dtype=np.int64)
    for i, item in enumerate(annotations):
        for a, v in item.items():
            if v not in label_index:
                raise ValueError(f"item {i}: label {v!r} is not one of {labels}")
            observed[i, ann_index[a]] = label_index[v]
    seen = observed >= 0
    onehot = np.zeros((n_items, n_ann, k))
    ii, jj = np.nonzero(seen)
    onehot[ii, jj, observed[ii, jj]] = 1.0
    rng = np.random.default_rng(seed)
    best: Optional[MaceResult] = None
    for _ in range(max(1, restarts)):
        theta = rng.uniform(0.5, 0.95, n_ann)
        xi = rng.dirichlet(np.ones(k), n_ann)
        previous = -np.inf
        for _ in range(iterations):
            # P(A_ij | T_i = t) for every item, annotator, t; 1 where not annotated
            spam = (1.0 - theta)[None, :, None] * (onehot * xi[None, :, :]).sum(axis=2, keepdims=True)
            like = theta[None, :, None] * onehot + spam  # items x annotators x t
            like = np.where(seen[:, :, None], like, 1.0)
            log_joint = np.log(like).sum(axis=1) - np.log(k)  # items x t
            norm = np.logaddexp.reduce(log_joint, axis=1)
            posterior = np.exp(log_joint - norm[:, None])
            log_likelihood = float(norm.sum())
            # expected competence: P(S_ij = 0 | A_ij, T_i = t) = θ[a = t] / like
            competent = np.where(seen[:, :, None], theta[None, :, None] * onehot / like, 0.0)
            competent = (competent * posterior[:, None, :]).sum(axis=2)  # items x annotators
            counts = seen.sum(axis=0)
            theta = (competent.sum(axis=0) + prior - 1.0 + 1e-12) / (counts + 2.0 * (prior - 1.0) + 2e-12)
            theta = np.clip(theta, 1e-6, 1 - 1e-6)
            spam_weight = np.where(seen, 1.0 - competent, 0.0)
            xi = (spam_weight[:, :, None] * onehot).sum(axis=0) + smoothing
            xi /= xi.sum(axis=1, keepdims=True)
            if abs(log_likelihood - previous) < tol:
                break
            previous = log_likelihood
        if best is None or log_likelihood > best.log_likelihood:
            best = MaceResult(labels, annotators, dict(zip(annotators, theta.tolist())), posterior, log_likelihood)
    assert best is not None
    return best
