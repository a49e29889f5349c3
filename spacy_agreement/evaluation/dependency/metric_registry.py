"""The metric registry of the dependency family: :class:`Metric` (a per-sentence ``count`` and a
``score`` of summed counts), the table :data:`PARSER_METRICS` that every consumer reads,
:func:`register_metric` to add one, and :class:`Counts`, the summed counts of a sentence or a
corpus. The built-in metrics are defined and registered in :mod:`.metrics`, whose docstring
describes them all.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from ...errors import undefined, warns_once
from ...registry import Registry
from ...trees import DependencyTree
from .sentence_context import SentenceContext
from .settings import EvaluationSettings


Count = Callable[[DependencyTree, DependencyTree, SentenceContext], Tuple[float, float]]
Score = Callable[[float, float], float]


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator


@dataclass(frozen=True)
class Metric:
    """A parser metric: ``count(gold, pred, ctx)`` gives one sentence's (numerator,
    denominator); counts are summed over a corpus and ``score(numerator, denominator)`` turns
    them into the figure (called only with a denominator other than 0; 0 is undefined, see
    :meth:`value`). ``undefined_when`` says in words when the denominator is 0."""

    name: str
    display_name: str
    count: Count
    score: Score = _ratio
    description: str = ""
    undefined_when: str = "no token to score"
    builtin: bool = False

    def value(self, numerator: float, denominator: float, warn: bool = True) -> float:
        """The score of summed counts; ``nan`` when the denominator is 0, with an
        :class:`~spacy_agreement.errors.UndefinedMetricWarning` unless ``warn=False``."""
        if denominator:
            return float(self.score(numerator, denominator))
        return undefined(self.name, self.undefined_when, stacklevel=3) if warn else math.nan


# keys of EvaluationResult.to_dict beside the metrics, and names the spaCy integration uses
_RESERVED = {"tokens", "verbs", "sentences", "sentences_skipped", "ted_distance", "leaf_ancestor",
             "heads_outside_sentence",
             # the names conll18_ud_eval.py gives its metrics (the aligned evaluation's keys)
             "words", "upos", "xpos", "ufeats", "alltags", "lemmas"}


def reserve_names(names: Iterable[str]) -> None:
    """Names a metric may not take from now on: the keys an
    :class:`~.result.EvaluationResult` writes beside the metrics (``to_json`` too), which
    :mod:`.result` reserves when it is defined."""
    _RESERVED.update(names)


def _reserved() -> frozenset:
    """Keys a result writes beside the metrics, and names the spaCy integration uses: a metric
    may not write one of them."""
    return frozenset(_RESERVED)


#: The parser metrics by name (:class:`~spacy_agreement.registry.Registry`): a name is the
#: metric's key in every output, so one that a result writes already is refused.
PARSER_METRICS: Registry = Registry("metric", reserved=_reserved)


def register_metric(name: str, display_name: str, count: Count, score: Optional[Score] = None,
                    description: str = "", undefined_when: str = "no token to score",
                    _builtin: bool = False) -> Metric:
    """Add a metric to :data:`PARSER_METRICS` (see :mod:`.metrics`): it then appears in
    :func:`~.accumulator.evaluate` (and the CLI's ``evaluate``, text and JSON), in the spaCy scorer as
    ``dep_<name>``, in the spaCy component's ``metrics`` and in ``judgments --metric``.
    ``name`` must be new and usable in output keys (letters, digits, ``_``): a name that
    an evaluation result writes already (``sentences_multi_root``, ``signature``, ...) is a
    :class:`~spacy_agreement.registry.RegistryError` (a ``ValueError``)."""
    metric = Metric(name, display_name, count, score or _ratio, description, undefined_when, _builtin)
    return PARSER_METRICS.register(name, metric, builtin=_builtin)


def unregister_metric(name: str) -> None:
    """Remove a metric added with :func:`register_metric` (the built-in ones stay)."""
    if name in PARSER_METRICS and not PARSER_METRICS[name].builtin:
        PARSER_METRICS.unregister(name)


def metric_names() -> Tuple[str, ...]:
    """The registered metrics, built-in first, in the order results list them."""
    return tuple(PARSER_METRICS)


def get_metric(name: str) -> Metric:
    return PARSER_METRICS.get(name)


def display_name(name: str) -> str:
    """How a metric is shown in tables (``"LAS content"``); the key in upper case for a name
    outside the table."""
    metric = PARSER_METRICS.find(name)
    return metric.display_name if metric is not None else name.upper()


#: The metric names (a live view of :data:`PARSER_METRICS`: registered metrics appear in it).
METRICS = PARSER_METRICS  # the names, live (iterating the registry gives its names)


def _selected(metrics: Optional[Iterable[str]]) -> List[Metric]:
    if metrics is None:
        return list(PARSER_METRICS.values())
    return [get_metric(m) for m in metrics]


@dataclass
class Counts:
    """Summed (numerator, denominator) of each metric for one sentence or a corpus."""

    values: Dict[str, List[float]] = field(default_factory=dict)

    def add(self, metric: str, numerator: float, denominator: float) -> None:
        entry = self.values.setdefault(metric, [0.0, 0.0])
        entry[0] += numerator
        entry[1] += denominator

    def merge(self, other: "Counts") -> None:
        for metric, (numerator, denominator) in other.values.items():
            self.add(metric, numerator, denominator)

    @warns_once
    def scores(self, warn: bool = True) -> Dict[str, float]:
        """Each metric's score; undefined ones are ``nan`` with one warning naming them all
        (:func:`~spacy_agreement.errors.warns_once`; none with ``warn=False``)."""
        return {metric: get_metric(metric).value(numerator, denominator, warn)
                for metric, (numerator, denominator) in self.values.items()}


def sentence_counts(gold: DependencyTree, pred: DependencyTree, options: EvaluationSettings,
                    metrics: Optional[Iterable[str]] = None, context: Optional[SentenceContext] = None) -> Counts:
    """Each metric's numerator and denominator for one sentence (tokens assumed equal);
    ``metrics`` chooses (default: every registered one)."""
    ctx = context or SentenceContext(gold, pred, options)
    counts = Counts()
    for metric in _selected(metrics):
        counts.add(metric.name, *metric.count(ctx.gold, ctx.pred, ctx))
    return counts


