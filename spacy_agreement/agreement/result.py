"""The one result type of α (:class:`AlphaResult`) for every δ and estimator, and the one
place Do/De and α = 1 − Do/De are assembled from the sums over pairs
(:func:`alphas_from_sums`; Skjærholt 2014, §2)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import undefined
from .settings import AlphaSettings

#: Keys an :class:`AlphaResult` (with the accuracies beside it) writes whatever its δ: a δ
#: whose keys (``alpha_<name>``, ...) would be one of them cannot be registered.
RESULT_KEYS = frozenset({"alpha_method", "items", "annotations", "items_unpairable", "annotations_unpairable",
                         "cycle_tokens", "trees_partial", "tokens_attached", "confidence", "samples", "alpha_cells", "alpha_budget", "alpha_seconds",
                         "signature"})


@dataclass
class AlphaResult:
    """α for each δ (``alphas``, also ``result["plain"]`` and ``result.alpha_plain``), the
    disagreements behind them and what was skipped.

    ``method`` says how De was obtained: ``"exact"`` (all pairs), ``"sampled pairs"`` or
    ``"bootstrap over items (De fixed)"``; estimates carry a ``confidence`` interval
    (``low``, ``high``) from ``samples`` draws. ``item_disagreement[u, k]`` is the mean
    squared δ number k (in the order of ``alphas``) between the annotations of item u.
    """

    alphas: Dict[str, float]
    observed: Dict[str, float]
    expected: Dict[str, float]
    items: int
    annotations: int
    items_unpairable: int = 0
    annotations_unpairable: int = 0
    cycle_tokens: int = 0
    cycle_trees: List[str] = field(default_factory=list)
    partial_trees: List[str] = field(default_factory=list)  # partial trees taken as missing annotations
    attached_tokens: int = 0  # heads and relations not annotated, compared as "unannotated" (partial="attach")
    #: α of each δ had the partial trees been missing annotations (the default reading), beside
    #: an α with ``partial="attach"`` that attached some tokens: how far the choice moved α
    alphas_missing: Dict[str, float] = field(default_factory=dict)
    item_names: List[str] = field(default_factory=list, repr=False)
    item_disagreement: Optional[np.ndarray] = field(default=None, repr=False)
    item_counts: List[int] = field(default_factory=list, repr=False)
    method: str = "exact"
    low: Dict[str, float] = field(default_factory=dict)
    high: Dict[str, float] = field(default_factory=dict)
    confidence: Optional[float] = None
    samples: Optional[int] = None
    cells: Optional[float] = None  # cost of the exact α in DP cells, where a policy chose (agreement.policy)
    budget: Optional[float] = None  # the budget that cost was held against
    seconds: Optional[float] = None  # the estimated seconds of the exact α on this machine, where a policy chose
    settings: AlphaSettings = field(default_factory=AlphaSettings)  # how it was computed (method, δ resolved)

    @property
    def signature(self) -> str:
        """How these numbers were computed (:mod:`spacy_agreement.signature`)."""
        return self.settings.signature()

    def __getitem__(self, kind: str) -> float:
        return self.alphas[kind]

    def __getattr__(self, name: str) -> float:
        if name.startswith("alpha_") and name[6:] in self.__dict__.get("alphas", {}):
            return self.alphas[name[6:]]
        raise AttributeError(name)

    @property
    def alpha(self) -> float:
        """α of the only δ of a single-δ result (e.g. over pq-grams)."""
        if len(self.alphas) != 1:
            raise AttributeError("this result has several alphas: use result[name]")
        return next(iter(self.alphas.values()))

    @property
    def estimate(self) -> Dict[str, float]:
        return self.alphas

    def to_dict(self) -> Dict[str, Any]:
        """A flat dict in the style of spaCy's scorers."""
        out: Dict[str, Any] = {f"alpha_{k}": v for k, v in self.alphas.items()}
        out.update({
            "alpha_method": self.method,
            "items": self.items,
            "annotations": self.annotations,
            "items_unpairable": self.items_unpairable,
            "annotations_unpairable": self.annotations_unpairable,
            "cycle_tokens": self.cycle_tokens,
            "trees_partial": len(self.partial_trees),
        })
        if self.settings.partial == "attach":
            out["tokens_attached"] = self.attached_tokens
            out.update({f"alpha_{k}_partial_missing": v for k, v in self.alphas_missing.items()})
        for kind in self.alphas:
            out[f"observed_{kind}"] = self.observed.get(kind, math.nan)
            out[f"expected_{kind}"] = self.expected.get(kind, math.nan)
            if kind in self.low:
                out[f"alpha_{kind}_low"] = self.low[kind]
                out[f"alpha_{kind}_high"] = self.high[kind]
        if self.confidence is not None:
            out["confidence"] = self.confidence
            out["samples"] = self.samples
        if self.cells is not None:
            out["alpha_cells"] = self.cells
            out["alpha_budget"] = self.budget
        if self.seconds is not None:
            out["alpha_seconds"] = self.seconds
        out["signature"] = self.signature
        return out

    def worst_items(self, k: int = 10, kind: str = "plain") -> List[Tuple[str, float]]:
        """The ``k`` items contributing most to the observed disagreement for δ ``kind``,
        with their mean squared δ between annotations."""
        if self.item_disagreement is None or not len(self.item_names):
            return []
        column = self.item_disagreement[:, list(self.alphas).index(kind)]
        order = np.argsort(-column, kind="stable")[:k]
        return [(self.item_names[i], float(column[i])) for i in order if column[i] > 0]

    def merged(self, other: "AlphaResult") -> "AlphaResult":
        """This result with the δ of ``other`` (same corpus) added, e.g. α over pq-grams."""
        per_item = self.item_disagreement
        if per_item is not None and other.item_disagreement is not None:
            per_item = np.column_stack([per_item, other.item_disagreement])
        return replace(self, alphas={**self.alphas, **other.alphas}, observed={**self.observed, **other.observed},
                       expected={**self.expected, **other.expected}, item_disagreement=per_item)

    def with_interval(self, method: str, low: Dict[str, float], high: Dict[str, float], confidence: float,
                      samples: int, alphas: Optional[Dict[str, float]] = None) -> "AlphaResult":
        """The same result as an estimate with an interval (``alphas`` replaced if given)."""
        return replace(self, alphas=dict(alphas or self.alphas), method=method, low=low, high=high,
                       confidence=confidence, samples=samples)


def alphas_from_sums(observed_sums: Sequence[float], expected_sums: Sequence[float], n: int,
                     names: Sequence[str], stacklevel: int = 3) -> Tuple[Dict[str, float], ...]:
    """Do, De and α = 1 − Do/De for each δ from the sums over pairs (module docstring): the
    one place the ratio is taken and the undefined case (De = 0) warned about."""
    observed: Dict[str, float] = {}
    expected: Dict[str, float] = {}
    alphas: Dict[str, float] = {}
    for k, kind in enumerate(names):
        observed[kind] = float(observed_sums[k] / n) if n else math.nan
        expected[kind] = float(expected_sums[k] / (n * (n - 1))) if n > 1 else math.nan
        if n < 2 or not expected_sums[k] > 0:
            alphas[kind] = undefined(f"alpha_{kind}", f"the expected disagreement is zero over {n} pairable "
                                     "annotations", stacklevel=stacklevel)
        else:
            alphas[kind] = 1.0 - observed[kind] / expected[kind]
    return observed, expected, alphas
