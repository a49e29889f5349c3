"""Chance-corrected agreement on categories: Cohen's κ (two coders) and Fleiss' κ (several).

Undefined κ (no items; chance agreement 1, every judgment in one category) is ``nan`` with an
:class:`~spacy_agreement.errors.UndefinedMetricWarning`, the library's one policy."""
from __future__ import annotations

from typing import Hashable, Sequence

import numpy as np

from ..errors import undefined

_ONE_CATEGORY = "expected (chance) agreement is 1: every judgment is in one category"


def cohen_kappa(x: Sequence[Hashable], y: Sequence[Hashable]) -> float:
    """Cohen's (1960) κ of two coders over the same items: (Ao − Ae) / (1 − Ae) with
    Ae = Σ_k P(k | coder 1) P(k | coder 2). ``nan`` with an ``UndefinedMetricWarning`` when
    undefined (no items, or Ae = 1)."""
    if len(x) != len(y):
        raise ValueError("both coders must label the same items")
    n = len(x)
    if n == 0:
        return undefined("Cohen's kappa", "no items")
    labels = set(x) | set(y)
    observed = sum(a == b for a, b in zip(x, y)) / n
    expected = sum((list(x).count(v) / n) * (list(y).count(v) / n) for v in labels)
    if expected == 1:
        return undefined("Cohen's kappa", _ONE_CATEGORY)
    return (observed - expected) / (1 - expected)


def fleiss_kappa(items: Sequence[Sequence[Hashable]]) -> float:
    """Fleiss' (1971) κ; items may have different numbers (≥ 2) of judgments (items with
    fewer are left out): P_i = (Σ_j n_ij² − n_i) / (n_i (n_i − 1)), p_j over all judgments.
    ``nan`` with an ``UndefinedMetricWarning`` when undefined (no item with two judgments, or
    P_e = 1)."""
    items = [list(i) for i in items if len(i) >= 2]
    if not items:
        return undefined("Fleiss' kappa", "no item with two or more judgments")
    labels = sorted({v for i in items for v in i}, key=repr)
    counts = np.array([[i.count(v) for v in labels] for i in items], dtype=float)
    raters = counts.sum(axis=1)
    p_i = ((counts ** 2).sum(axis=1) - raters) / (raters * (raters - 1))
    p_j = counts.sum(axis=0) / raters.sum()
    p_e = float((p_j ** 2).sum())
    if p_e == 1:
        return undefined("Fleiss' kappa", _ONE_CATEGORY)
    return float((p_i.mean() - p_e) / (1 - p_e))
