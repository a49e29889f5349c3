"""The one result type of α (:class:`AlphaResult`) for every δ and estimator, and the one
place Do/De and α = 1 − Do/De are assembled from the sums over pairs
(:func:`alphas_from_sums`; Skjærholt 2014, §2)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .._display import ShowsAsCommandText, no_attribute
from ..errors import undefined
from .accuracy import AccuracyResult
from .settings import AlphaSettings

if TYPE_CHECKING:
    from ..corpus import Corpus

#: Keys an :class:`AlphaResult` (with the accuracies beside it) writes whatever its δ: a δ
#: whose keys (``alpha_<name>``, ...) would be one of them cannot be registered.
RESULT_KEYS = frozenset({"alpha_method", "items", "annotations", "items_unpairable", "annotations_unpairable",
                         "cycle_tokens", "trees_partial", "tokens_attached", "confidence", "samples", "alpha_cells", "alpha_budget", "alpha_seconds",
                         "signature"})


@dataclass
class AlphaResult(ShowsAsCommandText):
    """α for each δ (``alphas``, also ``result["plain"]`` and ``result.alpha_plain``), the
    disagreements behind them and what was skipped.

    ``method`` says how De was obtained: ``"exact"`` (all pairs), ``"sampled pairs"`` or
    ``"bootstrap over items (De fixed)"``; estimates carry a ``confidence`` interval
    (``low``, ``high``) from ``samples`` draws. ``item_disagreement[u, k]`` is the mean
    squared δ number k (in the order of ``alphas``) between the annotations of item u.

    A result of :func:`spacy_agreement.alpha` (the ``alpha`` command's function) also carries
    the inputs: ``accuracy`` (LAS/UAS/LA or bracket Jaccard and their counts, also
    ``result.las``, ``result.jaccard``) and the ``corpus`` it was computed on (annotators, how
    the items were matched, what the readers set aside); its :meth:`to_dict` is then what
    ``alpha --json`` prints. With ``method="off"`` (``--alpha off``) ``alphas`` is empty,
    ``method`` is ``"off"`` and ``items``/``annotations`` count the corpus. A result of the
    engine (:func:`spacy_agreement.agreement.alpha.alpha`) has neither: :meth:`to_dict` is
    α's part alone (:meth:`alpha_dict`).
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
    #: the accuracies beside α (:func:`spacy_agreement.alpha`; ``None`` from the engine)
    accuracy: Optional[AccuracyResult] = field(default=None, repr=False)
    #: the corpus read from the inputs (:func:`spacy_agreement.alpha`; ``None`` from the engine)
    corpus: Optional["Corpus"] = field(default=None, repr=False, compare=False)

    @property
    def signature(self) -> str:
        """How these numbers were computed (:mod:`spacy_agreement.signature`)."""
        return self.settings.signature()

    @property
    def computed(self) -> bool:
        """Whether α was computed (not ``method="off"``)."""
        return self.method != "off"

    def __getitem__(self, kind: str) -> float:
        return self.alphas[kind]

    if not TYPE_CHECKING:  # type checkers see the typed properties alone: a misspelt name is an error there
        def __getattr__(self, name: str) -> float:
            if name.startswith("__"):
                raise AttributeError(name)
            if name.startswith("alpha_") and name[6:] in self.__dict__.get("alphas", {}):
                return self.alphas[name[6:]]
            accuracy = self.__dict__.get("accuracy")
            if accuracy is not None and name in accuracy.scores:  # result.las, result.jaccard
                return accuracy.scores[name]
            raise no_attribute(self, name, dir(self))

    def __dir__(self) -> List[str]:
        accuracy = self.__dict__.get("accuracy")
        return sorted(set(object.__dir__(self)) | {f"alpha_{k}" for k in self.__dict__.get("alphas", {})}
                      | set(accuracy.scores if accuracy is not None else ()))

    def _alpha_of(self, kind: str) -> float:
        if kind not in self.alphas:
            raise no_attribute(self, f"alpha_{kind}", dir(self))
        return self.alphas[kind]

    def _accuracy_of(self, name: str) -> float:
        accuracy = self.accuracy
        if accuracy is None or name not in accuracy.scores:
            raise no_attribute(self, name, dir(self))
        return float(accuracy.scores[name])

    @property
    def alpha_plain(self) -> float:
        """α over δplain (Skjærholt 2014, eq. 4: the unnormalised tree edit distance)."""
        return self._alpha_of("plain")

    @property
    def alpha_diff(self) -> float:
        """α over δdiff (Skjærholt 2014, eq. 5: the distance less the difference in size)."""
        return self._alpha_of("diff")

    @property
    def alpha_norm(self) -> float:
        """α over δnorm (Skjærholt 2014, eq. 6: the distance over the sum of the sizes)."""
        return self._alpha_of("norm")

    @property
    def las(self) -> float:
        """The pairwise labelled attachment score (dependency trees; eq. 3), a fraction."""
        return self._accuracy_of("las")

    @property
    def uas(self) -> float:
        """The pairwise unlabelled attachment score (dependency trees), a fraction."""
        return self._accuracy_of("uas")

    @property
    def la(self) -> float:
        """The pairwise label accuracy (dependency trees), a fraction."""
        return self._accuracy_of("la")

    @property
    def jaccard(self) -> float:
        """The bracket Jaccard of phrase-structure trees (Skjærholt 2014, §4.2), a fraction."""
        return self._accuracy_of("jaccard")

    @property
    def score(self) -> float:
        """The headline figure: α over δplain (the table's first row), else the result's only α,
        else (``method="off"``) LAS or bracket Jaccard."""
        if "plain" in self.alphas:
            return self.alphas["plain"]
        if self.alphas:
            return next(iter(self.alphas.values()))
        scores = self.accuracy.scores if self.accuracy is not None else {}
        return float(scores.get("las", scores.get("jaccard", float("nan"))))

    def __repr__(self) -> str:
        """One line: α of each δ, the accuracies, the items and the signature."""
        parts = [f"alpha {k} {_percent(v)}" for k, v in self.alphas.items()] if self.computed else ["alpha off"]
        if self.accuracy is not None:
            names = {"las": "LAS", "uas": "UAS", "la": "LA", "jaccard": "Jaccard"}
            parts += [f"{names.get(k, k)} {_percent(v)}" for k, v in self.accuracy.scores.items()]
        where = f"{self.items} items, {self.annotations} annotations"
        if self.corpus is not None:
            where += f", {len(self.corpus.annotators)} annotators"
        how = self.method + (f", {_percent(self.confidence, 0)}% interval" if self.confidence is not None else "")
        return f"AlphaResult({', '.join(parts)}; {where}; {how}; signature {self.signature})"

    def _headline_html(self) -> str:
        """A compact table for a notebook: α, the accuracies, the items of most disagreement, the signature."""
        from ..report.agreement_tables import alpha_table

        return alpha_table(self)

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
        """A flat dict in the style of spaCy's scorers: with the inputs (a result of
        :func:`spacy_agreement.alpha`) what ``alpha --json`` prints for them, key for key
        (:func:`run_summary` and the signature); else α's part alone (:meth:`alpha_dict`)."""
        if self.accuracy is None or self.corpus is None:
            return self.alpha_dict()
        from ..evaluation.command_results import json_safe  # undefined figures as None, as --json writes them

        out = run_summary(self.corpus, self if self.computed else None, self.accuracy)
        out["signature"] = self.signature
        return json_safe(out)

    def alpha_dict(self) -> Dict[str, Any]:
        """α's part of :meth:`to_dict`: each δ's α, Do and De, the counts of skips, the
        interval and cost of an estimate, and the signature."""
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


def _percent(value: Optional[float], digits: int = 2) -> str:
    """A fraction as a percentage for :meth:`AlphaResult.__repr__` (``n/a`` if undefined)."""
    if value is None or math.isnan(value):
        return "n/a"
    return f"{100 * value:.{digits}f}"


def run_summary(corpus: "Corpus", result: Optional[AlphaResult], accuracy: AccuracyResult) -> Dict[str, Any]:
    """The flat dict of ``alpha --json`` but its signature: α (with ``alpha_method``;
    ``"off"`` when ``result`` is ``None``, not computed), the accuracies, every count of
    skips, what the readers counted and how the items were matched."""
    out: Dict[str, Any] = {"tree_family": corpus.family, "annotators": len(corpus.annotators)}
    out.update(result.alpha_dict() if result is not None else {"alpha_method": "off"})
    out.pop("signature", None)  # the caller adds the signature of the whole run (α and accuracies)
    out.update(accuracy.to_dict())
    out["items_unpairable_accuracy"] = accuracy.items_unpairable
    out["multiword_ranges"] = sum(s.multiword_ranges for s in corpus.read_stats.values())
    out["empty_nodes"] = sum(s.empty_nodes for s in corpus.read_stats.values())
    out["failed_parses"] = sum(s.failed_parses for s in corpus.read_stats.values())
    if result is not None:
        out["partial_trees"] = list(result.partial_trees)
    if corpus.matched_by is not None:  # how the annotations were paired into items, what some lack
        out.update(corpus.matched_by.to_dict())
        out["items_missing"] = list(corpus.matched_by.missing)
        out["resegmented"] = list(corpus.matched_by.resegmented)
        out["input_notes"] = list(corpus.matched_by.notes)
    return out


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
