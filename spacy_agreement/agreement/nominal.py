"""Agreement on categories (nominal values) from a coded reliability matrix: Krippendorff's α,
Cohen's κ per pair, Fleiss' κ, the coincidence matrix and category-specific agreement.

The data is ``codes``, an ``int`` array of shape (annotators, units): the category of unit u
given by annotator a as a number ``0 .. V-1``, or ``-1`` where the annotator gave none (a
missing value). Everything here is computed from sparse counts n_uc (annotators giving unit u
the category c), in O(values · log values) time and memory, whatever the number of categories.

* **α** (Krippendorff 2011, *Computing Krippendorff's Alpha-Reliability*, §B, nominal metric):
  over the pairable units (two or more values), o_cc = Σ_u n_uc (n_uc − 1) / (m_u − 1), n_c =
  Σ_u n_uc, n = Σ_c n_c, and α = 1 − (n − 1) (n − Σ_c o_cc) / (n² − Σ_c n_c²). Where its dense
  computation fits (:data:`PACKAGE_CELLS`: units · categories² cells), the ``krippendorff``
  package computes it (:func:`value_alpha`); its coincidence step takes units × categories²
  memory, which a layer with thousands of categories (lemmas, feature bundles) cannot give,
  and there the closed form above, which equals the package to rounding (tests), is used.
  ``engine`` says which.
* **Observed agreement** A_o = Σ_c o_cc / n, α's own (1 − D_o).
* **Cohen's κ** (1960) of two annotators over the units both coded: (A_o − A_e) / (1 − A_e),
  A_e = Σ_c p_1(c) p_2(c) from each annotator's own distribution.
* **Fleiss' κ** (1971) over the units with two or more values, generalised to units coded by
  different numbers of annotators as :func:`spacy_agreement.agreement.kappa.fleiss_kappa` says.
* **Category-specific agreement** of c: o_cc / n_c, the share of c's pairable values whose
  partners in their unit are c too (positive specific agreement, for two annotators
  2 n_cc / (n_c· + n_·c)).

Undefined values (no pairable unit; a single category, so that chance agreement is 1) are
``nan`` with one :class:`~spacy_agreement.errors.UndefinedMetricWarning`, the library's policy.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Tuple

import numpy as np

from ..errors import undefined

#: Cells (units × categories²) up to which the ``krippendorff`` package computes α.
PACKAGE_CELLS = 2_000_000
_ONE_CATEGORY = "expected (chance) agreement is 1: every value is in one category"


@dataclass(frozen=True)
class UnitCounts:
    """The sparse counts of a coded matrix restricted to its pairable units: ``unit`` and
    ``category`` of each nonzero n_uc (``count``), ``coders`` m_u of each pairable unit (by
    position in ``units``, the pairable units' column numbers), and V."""

    units: np.ndarray
    unit: np.ndarray
    category: np.ndarray
    count: np.ndarray
    coders: np.ndarray
    n_categories: int

    @property
    def n(self) -> int:
        return int(self.count.sum())

    def totals(self) -> np.ndarray:
        """n_c: pairable values of each category."""
        return np.bincount(self.category, weights=self.count, minlength=self.n_categories)

    def agreeing(self) -> np.ndarray:
        """o_cc: the diagonal of the coincidence matrix."""
        weights = self.count * (self.count - 1) / (self.coders[self.unit] - 1)
        return np.bincount(self.category, weights=weights, minlength=self.n_categories)


def unit_counts(codes: np.ndarray, n_categories: Optional[int] = None) -> UnitCounts:
    """The sparse n_uc of the pairable units of ``codes`` (module docstring)."""
    codes = np.asarray(codes)
    n_categories = int(codes.max()) + 1 if n_categories is None and codes.size else int(n_categories or 0)
    coded = codes >= 0
    coders_all = coded.sum(axis=0)
    units = np.flatnonzero(coders_all >= 2)
    # each unit's values sorted, units in order: the keys unit·V + c come out sorted, and runs of
    # equal keys are np.unique's counts without its sort of every value
    chosen = codes[:, units]
    if chosen.shape[0] == 2:  # two annotators: the sorted pair without a sort
        sub = np.stack([np.minimum(chosen[0], chosen[1]), np.maximum(chosen[0], chosen[1])], axis=1)
    else:
        sub = np.sort(chosen, axis=0).T
    where = sub >= 0
    unit_of = np.broadcast_to(np.arange(units.size)[:, None], sub.shape)[where]
    keys = unit_of.astype(np.int64) * max(n_categories, 1) + sub[where]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1]))) if keys.size else \
        np.zeros(0, dtype=np.intp)
    found, count = keys[starts], np.diff(np.append(starts, keys.size))
    return UnitCounts(units, (found // max(n_categories, 1)).astype(np.int64),
                      (found % max(n_categories, 1)).astype(np.int64), count.astype(np.float64),
                      coders_all[units].astype(np.float64), n_categories)


def nominal_alpha(codes: np.ndarray, n_categories: Optional[int] = None, name: str = "alpha",
                  counts: Optional[UnitCounts] = None) -> float:
    """Krippendorff's α with the nominal metric by the closed form of the module docstring
    (``counts``: :func:`unit_counts` of ``codes`` where the caller has them)."""
    counts = counts if counts is not None else unit_counts(codes, n_categories)
    n = counts.n
    if n == 0:
        return undefined(name, "no unit has two or more values", stacklevel=3)
    totals = counts.totals()
    expected = n * n - float((totals ** 2).sum())
    if expected == 0:
        return undefined(name, _ONE_CATEGORY, stacklevel=3)
    return float(1 - (n - 1) * (n - counts.agreeing().sum()) / expected)


def value_alpha(codes: np.ndarray, n_categories: Optional[int] = None, name: str = "alpha",
                counts: Optional[UnitCounts] = None) -> Tuple[float, str]:
    """Nominal α and the engine that computed it: ``"krippendorff"`` (the package, on the value
    counts of the pairable units, unanimous units of one category merged: each adds only to
    o_cc and n_c, so merging them changes nothing) where that fits :data:`PACKAGE_CELLS`, else
    ``"closed form"`` (:func:`nominal_alpha`); ``counts`` as there."""
    counts = counts if counts is not None else unit_counts(codes, n_categories)
    n, v = counts.n, counts.n_categories
    totals = counts.totals()
    if n == 0 or n * n - float((totals ** 2).sum()) == 0:
        return nominal_alpha(codes, n_categories, name, counts), "closed form"
    distinct = np.bincount(counts.unit, minlength=counts.units.size)
    split = distinct[counts.unit] > 1  # the values of units where annotators differ
    rows = np.unique(counts.unit[split])
    if (rows.size + v) * v * v > PACKAGE_CELLS:
        return nominal_alpha(codes, n_categories, name, counts), "closed form"
    import krippendorff  # lazy: import time

    matrix = np.zeros((rows.size + v, v))
    position = np.searchsorted(rows, counts.unit[split])
    np.add.at(matrix, (position, counts.category[split]), counts.count[split])
    np.add.at(matrix, (rows.size + counts.category[~split], counts.category[~split]), counts.count[~split])
    matrix = matrix[matrix.sum(axis=1) > 0]
    value = krippendorff.alpha(value_counts=matrix, value_domain=list(range(v)), level_of_measurement="nominal")
    return float(value), "krippendorff"


def observed_agreement(codes: np.ndarray, n_categories: Optional[int] = None,
                       counts: Optional[UnitCounts] = None) -> float:
    """A_o = Σ_c o_cc / n over the pairable units (``nan`` with a warning when there is none);
    ``counts`` as in :func:`nominal_alpha`."""
    counts = counts if counts is not None else unit_counts(codes, n_categories)
    if counts.n == 0:
        return undefined("observed agreement", "no unit has two or more values", stacklevel=3)
    return float(counts.agreeing().sum() / counts.n)


def category_agreement(codes: np.ndarray, n_categories: Optional[int] = None,
                       counts: Optional[UnitCounts] = None) -> np.ndarray:
    """o_cc / n_c for each category (``nan`` for one without pairable values, no warning);
    ``counts`` as in :func:`nominal_alpha`."""
    counts = counts if counts is not None else unit_counts(codes, n_categories)
    totals = counts.totals()
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, counts.agreeing() / np.where(totals > 0, totals, 1), np.nan)


def coded_cohen_kappa(x: np.ndarray, y: np.ndarray, name: str = "Cohen's kappa") -> float:
    """Cohen's κ of two rows of codes over the units both coded (module docstring)."""
    both = (x >= 0) & (y >= 0)
    a, b = x[both], y[both]
    n = a.size
    if n == 0:
        return undefined(name, "no unit coded by both", stacklevel=3)
    size = int(max(a.max(), b.max())) + 1
    observed = float(np.count_nonzero(a == b)) / n
    expected = float(np.dot(np.bincount(a, minlength=size), np.bincount(b, minlength=size))) / (n * n)
    if expected == 1:
        return undefined(name, _ONE_CATEGORY, stacklevel=3)
    return (observed - expected) / (1 - expected)


def coded_fleiss_kappa(codes: np.ndarray, n_categories: Optional[int] = None, name: str = "Fleiss' kappa",
                       counts: Optional[UnitCounts] = None) -> float:
    """Fleiss' κ over the units with two or more values (module docstring); ``counts`` as in
    :func:`nominal_alpha`."""
    counts = counts if counts is not None else unit_counts(codes, n_categories)
    if counts.units.size == 0:
        return undefined(name, "no unit with two or more values", stacklevel=3)
    raters = counts.coders
    agree = np.bincount(counts.unit, weights=counts.count ** 2, minlength=counts.units.size)
    p_i = (agree - raters) / (raters * (raters - 1))
    p_j = counts.totals() / raters.sum()
    p_e = float((p_j ** 2).sum())
    if p_e == 1:
        return undefined(name, _ONE_CATEGORY, stacklevel=3)
    return float((p_i.mean() - p_e) / (1 - p_e))


def confusion_pairs(codes: np.ndarray, n_categories: int) -> np.ndarray:
    """``(V, V)`` counts of (c, k), c ≠ k, over every unordered pair of annotators and the
    units both coded, symmetric: how often one annotator wrote c where another wrote k."""
    out = np.zeros((n_categories, n_categories), dtype=np.int64)
    for i in range(codes.shape[0]):
        for j in range(i + 1, codes.shape[0]):
            both = (codes[i] >= 0) & (codes[j] >= 0) & (codes[i] != codes[j])
            np.add.at(out, (codes[i][both], codes[j][both]), 1)
    return out + out.T


def confused_pairs(codes: np.ndarray, n_categories: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The nonzero cells of :func:`confusion_pairs` above the diagonal, without the ``(V, V)``
    matrix: ``(c, k, count)`` with c < k, ordered by c then k."""
    found = [np.zeros(0, dtype=np.int64)]
    width = max(int(n_categories), 1)
    for i in range(codes.shape[0]):
        for j in range(i + 1, codes.shape[0]):
            x, y = codes[i], codes[j]
            both = (x >= 0) & (y >= 0) & (x != y)
            x, y = x[both].astype(np.int64), y[both].astype(np.int64)
            found.append(np.minimum(x, y) * width + np.maximum(x, y))
    keys, times = distinct_codes(np.concatenate(found), counts=True)
    return keys // width, keys % width, times.astype(np.int64)


#: :func:`distinct_codes` counts values up to this many times their number (plus this) instead of sorting them
_COUNTED = 1 << 16


def distinct_codes(values: np.ndarray, counts: bool = False) -> Any:
    """``np.unique`` of the non-negative values of an integer array (sorted, as int64), and with
    ``counts`` how often each occurs: by one ``bincount`` where the largest value is not far above
    the number of values (every layer's codes, which number its labels), else by ``np.unique``."""
    values = np.asarray(values).ravel()
    values = values[values >= 0].astype(np.int64, copy=False)
    if not values.size:
        empty = np.zeros(0, dtype=np.int64)
        return (empty, empty.copy()) if counts else empty
    if int(values.max()) > 4 * values.size + _COUNTED:
        found = np.unique(values, return_counts=counts)
        return (found[0].astype(np.int64), found[1].astype(np.int64)) if counts else found.astype(np.int64)
    times = np.bincount(values)
    keys = np.flatnonzero(times).astype(np.int64)
    return (keys, times[keys].astype(np.int64)) if counts else keys


def differing_units(codes: np.ndarray) -> np.ndarray:
    """For each unit (column), whether its values (``-1`` none) hold two or more different categories."""
    if not codes.size:
        return np.zeros(codes.shape[1] if codes.ndim == 2 else 0, dtype=bool)
    given = codes >= 0
    high = np.where(given, codes, -1).max(axis=0)
    low = np.where(given, codes, np.iinfo(codes.dtype).max).min(axis=0)
    return given.any(axis=0) & (high > low)


__all__ = ["PACKAGE_CELLS", "UnitCounts", "category_agreement", "coded_cohen_kappa", "coded_fleiss_kappa",
           "confused_pairs", "confusion_pairs", "differing_units", "distinct_codes", "nominal_alpha",
           "observed_agreement", "unit_counts", "value_alpha"]
