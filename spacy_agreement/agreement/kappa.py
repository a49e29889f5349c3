"""Chance-corrected agreement on categories: Cohen's κ (two coders) and Fleiss' κ (several)."""
from __future__ import annotations

import math
from typing import Hashable, Sequence

import numpy as np


def cohen_kappa(x: Sequence[Hashable], y: Sequence[Hashable]) -> float:
    """Cohen's (1960) κ of two coders over the same items: (Ao − Ae) / (1 − Ae) with
    Ae = Σ_k P(k | coder 1) P(k | coder 2). ``nan`` when undefined (no items, or Ae = 1)."""
    if len(x) != len(y):
        raise ValueError("both coders must label the same items")
    n = len(x)
    if n == 0:
        return math.nan
    labels = set(x) | set(y)
    observed = sum(a == b for a, b in zip(x, y)) / n
    expected = sum((list(x).count(v) / n) * (list(y).count(v) / n) for v in labels)
    return math.nan if expected == 1 else (observed - expected) / (1 - expected)


def fleiss_kappa(items: Sequence[Sequence[Hashable]]) -> float:
    """Fleiss' (1971) κ; items may have different numbers (≥ 2) of judgments (items with
    fewer are left out): P_i = (Σ_j n_ij² − n_i) / (n_i (n_i − 1)), p_j over all judgments."""
    items = [list(i) for i in items if len(i) >= 2]
    if not items:
        return math.nan
    labels = sorted({v for i in items for v in i}, key=repr)
    counts = np.array([[i.count(v) for v in labels] for i in items], dtype=float)
    raters = counts.sum(axis=1)
    p_i = ((counts ** 2).sum(axis=1) - raters) / (raters * (raters - 1))
    p_j = counts.sum(axis=0) / raters.sum()
    p_e = float((p_j ** 2).sum())
    return math.nan if p_e == 1 else float((p_i.mean() - p_e) / (1 - p_e))
