"""Chance-corrected agreement on categories: Cohen's κ (two coders) and Fleiss' κ (several).

Undefined κ (no items; chance agreement 1, every judgment in one category) is ``nan`` with an
:class:`~spacy_agreement.errors.UndefinedMetricWarning`, the library's one policy."""
from __future__ import annotations

from typing import Hashable, Sequence

import numpy as np

from ..errors import undefined
from .nominal import coded_cohen_kappa, coded_fleiss_kappa


def _codes(*columns: Sequence[Hashable]) -> np.ndarray:
    """Each value as the number of its category (categories in order of first appearance)."""
    numbers: dict = {}
    return np.array([[numbers.setdefault(v, len(numbers)) for v in column] for column in columns], dtype=np.int64)


def cohen_kappa(x: Sequence[Hashable], y: Sequence[Hashable]) -> float:
    """Cohen's (1960) κ of two coders over the same items: (Ao − Ae) / (1 − Ae) with
    Ae = Σ_k P(k | coder 1) P(k | coder 2). ``nan`` with an ``UndefinedMetricWarning`` when
    undefined (no items, or Ae = 1). Computed by :func:`~.nominal.coded_cohen_kappa`."""
    if len(x) != len(y):
        raise ValueError("both coders must label the same items")
    if len(x) == 0:
        return undefined("Cohen's kappa", "no items")
    codes = _codes(x, y)
    return coded_cohen_kappa(codes[0], codes[1])


def fleiss_kappa(items: Sequence[Sequence[Hashable]]) -> float:
    """Fleiss' (1971) κ; items may have different numbers (≥ 2) of judgments (items with
    fewer are left out): P_i = (Σ_j n_ij² − n_i) / (n_i (n_i − 1)), p_j over all judgments.
    ``nan`` with an ``UndefinedMetricWarning`` when undefined (no item with two judgments, or
    P_e = 1). Computed by :func:`~.nominal.coded_fleiss_kappa`."""
    items = [list(i) for i in items if len(i) >= 2]
    if not items:
        return undefined("Fleiss' kappa", "no item with two or more judgments")
    width = max(len(i) for i in items)
    numbers: dict = {}
    codes = np.full((width, len(items)), -1, dtype=np.int64)
    for u, item in enumerate(items):
        codes[:len(item), u] = [numbers.setdefault(v, len(numbers)) for v in item]
    return coded_fleiss_kappa(codes, len(numbers))
