"""Dependency parser evaluation metrics over a gold and a predicted tree of the same tokens
(Plank et al. 2015, §2), per sentence and micro-averaged over a corpus.

* **LAS, UAS, LA** (§2): tokens with the right head and label, the right head, the right label.
* **NED**, neutral edge direction (Schwartz et al. 2011): a predicted edge h → d counts when
  the gold tree has h → d, or the reversed edge d → h, or h is d's gold grandparent.
  ``ned="undirected"`` drops the grandparent case (h → d or d → h in the gold): that is what
  reproduces the English NED of Plank et al. (2015), Table 2 (see benchmarks/plank2015_parity.md).
* **TED accuracy** in the style of Tsarfaty et al. (2011): 1 − TED(g, p) / norm(g, p) over the
  Figure 1 trees of Skjærholt (2014) (labelled nodes, unit costs). ``ted_norm="sum"`` (the
  default, as TedEval) divides by |g| + |p|; ``"max"`` by max(|g|, |p|); ``"gold"`` by |g|. The
  corpus score is 1 − ΣTED / Σnorm ("normalised global error", TedEval's default).
* **UCP, LCP**, unlabelled and labelled complete predications (§2): over the gold verbs (gold
  UPOS in ``verb_upos``) that have at least one non-punctuation dependent, the set of children
  (punctuation excluded, whether or not ``exclude_punct`` is set) must be the same, and for
  LCP their labels too. Verbs without dependents are left out, as in the paper.
* **POS-wise LAS** (§5, Table 6): LAS over content words (gold UPOS ADJ, NOUN, PROPN, VERB)
  and over function words (all others).
* **Root-distance weighted LAS** (§4): LAS in which each token weighs ``weight(depth)``, its
  depth in the gold tree (1 for a token attached to the root). The paper only says "edges
  weighted proportionally to their log-distance to root", motivated by attachments near the
  root mattering more; the default here is ``1 / log2(1 + depth)`` (1, 0.63, 0.5, ... so
  edges near the root weigh most). ``"log"`` gives the literal reading ``log2(1 + depth)``,
  or pass any function of the depth. Tokens in a gold head cycle get depth ``len(sentence)``.

* **CLAS, MLAS, BLEX** (Zeman et al. 2018, the CoNLL 2018 shared task): F1 over content
  words, see :mod:`spacy_agreement.evaluation.dependency.ud_labels` (what a correct word is, defined there;
  the options below do not apply to them). In the table their count is
  (2·correct, gold + system content words), so that numerator / denominator is the script's F1.

**One table.** :data:`PARSER_METRICS` maps each name to a :class:`Metric`: a display name, a
per-sentence ``count(gold, pred, ctx) -> (numerator, denominator)``, a
``score(numerator, denominator)`` (default: the ratio) and a description. ``ctx``, a
:class:`SentenceContext`, holds what the metrics of one sentence share, computed once: the
punctuation mask, the scored tokens, the (subtype-stripped) labels, head and label matches,
gold depths, gold verbs, the CLAS/MLAS/BLEX counts. Counts are summed over sentences and
scored once (micro-average). Every consumer reads the table: :func:`evaluate` (the CLI's
``evaluate``, text and JSON), the spaCy scorer (``dep_<name>``), the spaCy component and
:mod:`~spacy_agreement.evaluation.judgments.analysis` (``--metric``). :func:`register_metric` adds
one; it then appears in all of them.

**Undefined values** (a denominator of 0: UCP without a gold verb that has a dependent, any
metric when every token is excluded) follow the library's policy: ``nan`` and one
:class:`~spacy_agreement.errors.UndefinedMetricWarning` per call naming every undefined value
(:func:`~spacy_agreement.errors.warns_once`): the corpus scores of :func:`evaluate`, the scores
of :func:`sentence_scores`. The per-sentence rows
of :attr:`EvaluationResult.sentences` hold ``nan`` where a sentence has nothing to count,
without a warning each (a breakdown, not a result: UCP is undefined in every sentence without
a verb).

**Labels as compared.** A predicted label goes through ``label_map`` (a map from the
parser's scheme to the gold's, e.g. ClearNLP ``dobj`` → UD ``obj``;
:func:`~.label_sets.read_label_map`), then the root relation is compared case-insensitively
(``ROOT``, spaCy's, equals UD's ``root``; ``fold_root_case=False`` compares it as written, as
``conll18_ud_eval.py`` does), then subtypes are dropped with ``ignore_subtypes``. Every metric
sees the labels so normalised, TED and CLAS/MLAS/BLEX included. Before scoring,
:func:`evaluate` checks the label sets (:func:`label_check`): when more than 5% of the gold
tokens (and at least 20) carry labels the predictions never use, one
:class:`~.label_sets.LabelSetWarning` names them and the most frequent gold→predicted pairs.
The result has attachment per label (``per_label``: precision, recall, F, as spaCy's
``dep_las_per_type``) and lists predictions with several roots where the gold has one
(``multi_root``: a pipeline that split the sentence).

Part-of-speech sets default to UD tags; for other tag sets (e.g. CDT's ``VA`` verbs) set
``verb_upos`` and ``content_upos``. Options apply uniformly to every metric
(:class:`EvaluationSettings`): punctuation can be
excluded; a gold token is punctuation by any of the ``punct_rules``: ``"upos"`` (gold UPOS in
``punct_upos``), ``"label"`` (gold label in ``punct_labels``) and ``"form"`` (the CoNLL-07
``eval.pl`` rule, :func:`is_punct_form`: the form is Unicode punctuation characters only, which
Plank et al. 2015 follow). The default is ``{"upos", "label"}``; the paper's figures need
``{"form"}`` (the only rule that works for treebanks without UD tags and labels). For TED excluded
tokens are removed from both trees (their children move up to their head, an edit
distance "delete"). Label subtypes can be ignored (``nmod:poss`` → ``nmod``).

Gold and prediction must have the same tokens (count, and forms where both are known):
otherwise :class:`~spacy_agreement.errors.MismatchedCorpusError` names the sentence, unless
``skip_mismatched=True``, which counts and lists the skipped sentences.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from ...agreement.accuracy import ScoresByName, token_mismatch
from ...agreement.deltas import tree_edit_distance
from ...registry import Registry
from ...errors import BadOptionError, MismatchedCorpusError, ResourceLimitError, undefined, warns_once
from ...trees import DependencyTree
from .label_sets import (WARN_SHARE, WARN_TOKENS, LabelSetCheck, LabelSetWarning, LabelTable, RootCaseWarning,  # noqa: F401
                         check_label_sets, root_case_tokens)
# the options live beside the metrics; imported here under their old names too
from .settings import (CONTENT_UPOS, NED_VARIANTS, PUNCT_RULES, EvaluationSettings, Weight,  # noqa: F401
                             contract, gold_depths, is_punct_form, punct_mask)
from .ud_labels import UDScores, ud_counts
from .column_evaluation import evaluate_batches, tree_batches
from .token_metrics import FAST_METRICS, spacy_attachment_counts

class SentenceContext:
    """What the metrics of one sentence share, computed once: built by :func:`sentence_counts`
    and passed to every :class:`Metric`'s ``count``. Lists are 0-based by token; heads are
    1-based positions (0 = root). The costlier parts (depths, verbs, CLAS/MLAS/BLEX counts)
    are computed on first use."""

    def __init__(self, gold: DependencyTree, pred: DependencyTree, options: EvaluationSettings,
                 compared: Optional[Tuple[DependencyTree, DependencyTree]] = None):
        #: the trees with their labels as compared (:meth:`EvaluationSettings.normalise`;
        #: ``compared`` when the caller has them already)
        self.gold, self.pred = compared or (options.normalise(gold), options.normalise(pred, predicted=True))
        self._given = (gold, pred)  # the labels as written (spaCy's F over arcs reads them its own way)
        self.options = options
        self.n = len(gold)
        #: gold punctuation by the options' rules (whether or not it is excluded)
        self.punct: np.ndarray = punct_mask(gold, options)
        #: the tokens that count: all, or all but punctuation with ``exclude_punct``; never a
        #: token that the gold or the prediction has not annotated (HEAD ``_``)
        self.scored: np.ndarray = ~self.punct if options.exclude_punct else np.ones(self.n, dtype=bool)
        #: whether either tree is partial: its whole-tree metrics (TED, LCP/UCP, CLAS/MLAS/BLEX)
        #: are left out, its token metrics use the tokens both annotated
        self.partial: bool = bool(gold.unannotated or pred.unannotated)
        #: the tokens that would count but are not annotated on one side
        self.unannotated: int = 0
        if self.partial:
            both = gold.annotated_mask() & pred.annotated_mask()
            self.unannotated = int(np.count_nonzero(self.scored & ~both))
            self.scored = self.scored & both
        #: 0-based positions of the scored tokens, in order
        self.tokens: List[int] = np.flatnonzero(self.scored).tolist()
        self.gold_heads: List[int] = gold.heads.tolist()
        self.pred_heads: List[int] = pred.heads.tolist()
        self.gold_labels: List[str] = list(self.gold.deprels)
        self.pred_labels: List[str] = list(self.pred.deprels)
        self.head_ok: List[bool] = [g == p for g, p in zip(self.gold_heads, self.pred_heads)]
        self.label_ok: List[bool] = [g == p for g, p in zip(self.gold_labels, self.pred_labels)]
        #: metrics this sentence was left out of because it is too large for them (resource limits)
        self.limits: List[str] = []

    def attached(self, k: int) -> bool:
        """Token ``k`` (0-based) has the right head and label (LAS)."""
        return self.head_ok[k] and self.label_ok[k]

    @cached_property
    def spacy_attachment(self) -> Dict[str, Tuple[float, float]]:
        """LAS and UAS of the sentence as spaCy's F over arcs (``attachment="spacy"``):
        :func:`~.token_metrics.spacy_attachment_counts` over this sentence, each side's
        punctuation by its own columns (:meth:`~.metric_options.EvaluationSettings.arc_punct`).
        A token either side has not annotated (HEAD ``_``) is in neither set: spaCy leaves out a
        reference token whose relation is missing and the predicted token aligned with it (a
        parsed doc has no unannotated token; the fast path sees no partial tree)."""
        o = self.options
        sides = []
        for tree, predicted in zip(self._given, (False, True)):
            label = {x: o.arc_label(x, predicted) for x in set(tree.deprels)}
            arc = [label[x] for x in tree.deprels]
            kept = np.ones(self.n, dtype=bool)
            if o.exclude_punct:
                kept = ~np.fromiter((o.arc_punct(f, u, a) for f, u, a in zip(tree.forms, tree.upos, arc)),
                                    dtype=bool, count=self.n)
            sides.append((arc, kept))
        annotated = self._given[0].annotated_mask() & self._given[1].annotated_mask()
        (g_arc, g_kept), (p_arc, p_kept) = sides
        las, uas = spacy_attachment_counts(
            np.zeros(self.n, dtype=np.int64), 1, np.arange(1, self.n + 1), np.asarray(self.gold_heads, dtype=np.int64),
            np.asarray(self.pred_heads, dtype=np.int64), np.asarray([a == b for a, b in zip(g_arc, p_arc)], dtype=bool),
            g_kept & annotated, p_kept & annotated)
        return {"las": (float(las[0][0]), float(las[1][0])), "uas": (float(uas[0][0]), float(uas[1][0]))}

    @cached_property
    def depths(self) -> np.ndarray:
        """Gold depth of each token (:func:`gold_depths`)."""
        return gold_depths(self.gold)

    @cached_property
    def verbs(self) -> List[int]:
        """The scored gold verbs (1-based) with at least one non-punctuation gold dependent:
        the items of UCP and LCP."""
        with_dependent = {h for c, h in enumerate(self.gold_heads) if not self.punct[c]}
        return [v for v in range(1, self.n + 1)
                if v in with_dependent and self.gold.upos[v - 1] in self.options.verb_upos and self.scored[v - 1]]

    @cached_property
    def _dependents(self) -> Tuple[Dict[int, set], Dict[int, set]]:
        """(position, label) of the non-punctuation dependents of every head, gold and
        predicted, in one linear pass."""
        out: Tuple[Dict[int, set], Dict[int, set]] = ({}, {})
        for side, heads, labels in ((0, self.gold_heads, self.gold_labels), (1, self.pred_heads, self.pred_labels)):
            for c, h in enumerate(heads):
                if not self.punct[c]:
                    out[side].setdefault(h, set()).add((c + 1, labels[c]))
        return out

    def children(self, v: int, gold: bool = True) -> set:
        """(position, label) of the non-punctuation dependents of ``v`` in the gold tree or
        the prediction."""
        return self._dependents[0 if gold else 1].get(v, set())

    @cached_property
    def ud(self) -> UDScores:
        """CLAS/MLAS/BLEX counts of the sentence (:func:`~.ud_metrics.ud_counts`)."""
        return ud_counts(self.gold, self.pred)


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


def _over_tokens(ok: Callable[[SentenceContext, int], float]) -> Count:
    def count(gold: DependencyTree, pred: DependencyTree, ctx: SentenceContext) -> Tuple[float, float]:
        return float(sum(ok(ctx, k) for k in ctx.tokens)), float(len(ctx.tokens))
    return count


def _attachment(labelled: bool) -> Count:
    """LAS (``labelled``) or UAS: the accuracy over the scored tokens, or with
    ``attachment="spacy"`` spaCy's F over arcs (:attr:`SentenceContext.spacy_attachment`)."""
    accuracy = _over_tokens(SentenceContext.attached if labelled else lambda ctx, k: ctx.head_ok[k])

    def count(gold: DependencyTree, pred: DependencyTree, ctx: SentenceContext) -> Tuple[float, float]:
        if ctx.options.attachment == "spacy":
            return ctx.spacy_attachment["las" if labelled else "uas"]
        return accuracy(gold, pred, ctx)
    return count


def _ned_ok(ctx: SentenceContext, k: int) -> bool:
    h, d, gold_head = ctx.pred_heads[k], k + 1, ctx.gold_heads[k]
    reversed_edge = h != 0 and ctx.gold_heads[h - 1] == d
    grandparent = ctx.options.ned == "schwartz" and gold_head != 0 and ctx.gold_heads[gold_head - 1] == h
    return h == gold_head or reversed_edge or grandparent


def _pos_group(content: bool) -> Count:
    def count(gold: DependencyTree, pred: DependencyTree, ctx: SentenceContext) -> Tuple[float, float]:
        correct = total = 0.0
        for k in ctx.tokens:
            if (gold.upos[k] in ctx.options.content_upos) == content:
                correct += ctx.attached(k)
                total += 1
        return correct, total
    return count


def _root_weighted(gold: DependencyTree, pred: DependencyTree, ctx: SentenceContext) -> Tuple[float, float]:
    correct = total = 0.0
    for k in ctx.tokens:
        w = ctx.options.weight(int(ctx.depths[k]))
        correct += w * float(ctx.attached(k))
        total += w
    return correct, total


def _predications(labelled: bool) -> Count:
    def count(gold: DependencyTree, pred: DependencyTree, ctx: SentenceContext) -> Tuple[float, float]:
        if ctx.partial:  # a predication needs every dependent annotated
            return 0.0, 0.0
        right = 0.0
        for v in ctx.verbs:
            g, p = ctx.children(v, gold=True), ctx.children(v, gold=False)
            right += g == p if labelled else {c for c, _ in g} == {c for c, _ in p}
        return right, float(len(ctx.verbs))
    return count


def _ted(gold: DependencyTree, pred: DependencyTree, ctx: SentenceContext) -> Tuple[float, float]:
    """(TED, normaliser) over the Figure 1 trees (labels as compared), punctuation contracted when excluded."""
    options = ctx.options
    if ctx.partial:  # the distance between whole trees: a partial one has none
        return 0.0, 0.0
    g_tree, p_tree = gold, pred
    if options.exclude_punct:
        g_tree, p_tree = contract(gold, ctx.scored), contract(pred, ctx.scored)
    size_g, size_p = len(g_tree) + 1, len(p_tree) + 1
    try:
        ted = tree_edit_distance(g_tree, p_tree)
    except ResourceLimitError as exc:  # left out of TED and counted, the other metrics stand
        ctx.limits.append(f"ted: {exc.message}")
        return 0.0, 0.0
    norm = {"sum": size_g + size_p, "max": max(size_g, size_p), "gold": size_g}.get(options.ted_norm)
    if norm is None:
        raise BadOptionError(f"unknown TED normalisation {options.ted_norm!r}: 'sum', 'max' or 'gold'")
    return ted, norm


def _ud(metric: str) -> Count:
    def count(gold: DependencyTree, pred: DependencyTree, ctx: SentenceContext) -> Tuple[float, float]:
        if ctx.partial:  # CLAS/MLAS/BLEX pair every content word's attachment: whole trees only
            return 0.0, 0.0
        ud = ctx.ud
        return 2 * ud.correct(metric), ud.system + ud.gold  # F1 = 2·correct / (gold + system)
    return count


def _result_keys() -> frozenset:
    """Keys an :class:`EvaluationResult` writes beside the metrics (``to_json`` too), and
    names the spaCy integration uses: a metric may not write one of them."""
    return _RESERVED | frozenset(EvaluationResult([], [], Counts()).to_json()) if _RESERVED_READY else _RESERVED


#: The parser metrics by name (:class:`~spacy_agreement.registry.Registry`): a name is the
#: metric's key in every output, so one that a result writes already is refused.
PARSER_METRICS: Registry = Registry("metric", reserved=lambda: _result_keys())
_RESERVED_READY = False


def register_metric(name: str, display_name: str, count: Count, score: Optional[Score] = None,
                    description: str = "", undefined_when: str = "no token to score",
                    _builtin: bool = False) -> Metric:
    """Add a metric to :data:`PARSER_METRICS` (see the module docstring): it then appears in
    :func:`evaluate` (and the CLI's ``evaluate``, text and JSON), in the spaCy scorer as
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


# keys of EvaluationResult.to_dict beside the metrics, and names the spaCy integration uses
_RESERVED = frozenset({"tokens", "verbs", "sentences", "sentences_skipped", "ted_distance", "leaf_ancestor",
                       "heads_outside_sentence",
                       # the names conll18_ud_eval.py gives its metrics (the aligned evaluation's keys)
                       "words", "upos", "xpos", "ufeats", "alltags", "lemmas"})

for _name, _display, _count, _score, _description, _undefined in (
    ("las", "LAS", _attachment(True), None,
     "labelled attachment score: tokens with the right head and label (Plank et al. 2015, §2); with "
     "attachment='spacy', spaCy's F over labelled arcs", None),
    ("uas", "UAS", _attachment(False), None,
     "unlabelled attachment score: tokens with the right head; with attachment='spacy', spaCy's F over arcs", None),
    ("la", "LA", _over_tokens(lambda ctx, k: ctx.label_ok[k]), None,
     "label accuracy: tokens with the right label", None),
    ("ned", "NED", _over_tokens(_ned_ok), None,
     "neutral edge direction (Schwartz et al. 2011): the right head, or the edge reversed, or the "
     "gold grandparent (not with ned='undirected')", None),
    ("ted", "TED", _ted, lambda error, norm: 1.0 - error / norm,
     "TED accuracy 1 − ΣTED/Σnorm over the Figure 1 trees (Tsarfaty et al. 2011); sentences too large for "
     "the tree edit distance tables (spacy_agreement.limits) are left out and listed in over_limits",
     "no sentence within the tree edit distance limits"),
    ("ucp", "UCP", _predications(False), None,
     "unlabelled complete predications: gold verbs whose dependents are all right",
     "no scored gold verb with a non-punctuation dependent"),
    ("lcp", "LCP", _predications(True), None,
     "labelled complete predications: gold verbs whose dependents and their labels are all right",
     "no scored gold verb with a non-punctuation dependent"),
    ("las_content", "LAS content", _pos_group(True), None,
     "LAS over content words (gold UPOS in content_upos; Plank et al. 2015, Table 6)", "no content word to score"),
    ("las_function", "LAS function", _pos_group(False), None,
     "LAS over function words (the other tokens)", "no function word to score"),
    ("las_root_weighted", "LAS root-weighted", _root_weighted, None,
     "LAS with each token weighted by root_weight(gold depth) (Plank et al. 2015, §4)", None),
    ("clas", "CLAS", _ud("clas"), None,
     "content-word LAS, F1 (Zeman et al. 2018)", "no content word in the gold tree or the prediction"),
    ("mlas", "MLAS", _ud("mlas"), None,
     "morphology-aware LAS, F1 (Zeman et al. 2018)", "no content word in the gold tree or the prediction"),
    ("blex", "BLEX", _ud("blex"), None,
     "bilexical dependency score, F1 (Zeman et al. 2018)", "no content word in the gold tree or the prediction"),
):
    register_metric(_name, _display, _count, _score, _description, _undefined or "no token to score", _builtin=True)

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


@dataclass
class EvaluationResult(ScoresByName):
    """Corpus scores (micro-averaged), per-sentence scores, attachment per label, the
    label-set check and what was skipped or odd (predictions with several roots where the
    gold has one)."""

    scores: Dict[str, float]
    sentences: Sequence[Dict[str, float]]  # a list, or SentenceScores (computed on demand)
    counts: Counts
    skipped: List[str] = field(default_factory=list)
    ud: UDScores = field(default_factory=UDScores)  # counts behind clas, mlas, blex (precision, recall)
    tokens: int = 0  # scored tokens
    verbs: int = 0  # gold verbs with a dependent (UCP/LCP items)
    labels: LabelTable = field(default_factory=LabelTable)  # attachment per label (scored tokens)
    label_check: LabelSetCheck = field(default_factory=LabelSetCheck)
    multi_root: List[str] = field(default_factory=list)  # predictions with several roots, gold with one
    over_limits: List[str] = field(default_factory=list)  # sentences too large for a metric (TED), left out of it
    #: sentences where the gold or the prediction has tokens not annotated (HEAD ``_``): their
    #: token metrics use the tokens both annotated, their whole-tree metrics leave them out
    partial: List[str] = field(default_factory=list)
    tokens_unannotated: int = 0  # tokens that would be scored but one side has not annotated
    settings: EvaluationSettings = field(default_factory=EvaluationSettings)  # how the numbers were computed
    #: each metric's counts per sentence (``evaluate(..., keep_counts=True)``): what the
    #: bootstrap intervals and the significance tests resample (:mod:`.unit_counts`)
    unit_counts: Any = None

    @property
    def signature(self) -> str:
        """The settings' signature (:mod:`spacy_agreement.signature`)."""
        return self.settings.signature()

    @property
    def per_label(self) -> Dict[str, Dict[str, float]]:
        """Precision, recall and F of attachment for each label (:class:`~.label_sets.LabelTable`)."""
        return self.labels.rows()

    def to_dict(self) -> Dict[str, float]:
        """The flat scores and counts (what spaCy-style consumers read)."""
        out: Dict[str, float] = dict(self.scores)
        out["tokens_scored"] = self.tokens  # counts: not a metric's name (conll18's tokens, sentences are metrics)
        out["verbs"] = self.verbs
        out["sentences_scored"] = len(self.sentences)
        out["sentences_skipped"] = len(self.skipped)
        out["sentences_multi_root"] = len(self.multi_root)
        out["sentences_over_limits"] = len(self.over_limits)
        out["sentences_partial"] = len(self.partial)
        out["tokens_unannotated"] = self.tokens_unannotated
        out["token_coverage"] = (self.tokens / (self.tokens + self.tokens_unannotated)
                                 if self.tokens + self.tokens_unannotated else 1.0)
        out["unseen_gold_label_share"] = self.label_check.share
        out["signature"] = self.signature  # type: ignore[assignment]
        return out

    def to_json(self) -> Dict[str, object]:
        """:meth:`to_dict` with the details: per-label attachment, the label-set check, the
        sentences skipped and those whose prediction has several roots."""
        out: Dict[str, object] = dict(self.to_dict())
        out.update(self.label_check.to_dict())
        out["per_label"] = self.per_label
        out["multi_root"] = list(self.multi_root)
        out["over_limits"] = list(self.over_limits)
        out["partial"] = list(self.partial)
        out["skipped"] = list(self.skipped)
        return out

    def table(self) -> List[Tuple[str, str, float]]:
        """(key, display name, score) of every metric, in table order: what a text report shows."""
        return [(key, display_name(key), value) for key, value in self.scores.items()]


def label_check(compared: Sequence[Tuple[DependencyTree, DependencyTree]],
                warn_share: float = WARN_SHARE) -> LabelSetCheck:
    """How well the predicted labels cover the gold ones, over (gold, prediction) pairs whose
    labels are as compared (:meth:`EvaluationSettings.normalise`), every token; a
    :class:`~.label_sets.LabelSetWarning` (one line) when the share of gold tokens whose
    label the predictions never use is above ``warn_share`` (and at least
    :data:`~.label_sets.WARN_TOKENS` tokens)."""
    check = check_label_sets((g.deprels, p.deprels) for g, p in compared)
    label_warnings(check, root_case_tokens((g.deprels, p.deprels) for g, p in compared), warn_share, stacklevel=5)
    return check


def label_warnings(check: LabelSetCheck, root_case: int, warn_share: float = WARN_SHARE, stacklevel: int = 3) -> None:
    """The warnings of :func:`label_check`: a :class:`~.label_sets.LabelSetWarning` when too
    many gold labels are never predicted, a :class:`~.label_sets.RootCaseWarning` when
    ``root_case`` tokens differ only by the case of the root relation."""
    if check.share > warn_share and check.unseen_tokens >= WARN_TOKENS:
        warnings.warn(check.message(), LabelSetWarning, stacklevel=stacklevel)
    if root_case:
        warnings.warn(f"{root_case} token(s) differ from the gold only by the case of the root relation (ROOT against "
                      "root) and count as wrong labels, as conll18_ud_eval.py counts them; compare it "
                      "case-insensitively with --fold-root-case (fold_root_case=True)", RootCaseWarning,
                      stacklevel=stacklevel)


@warns_once
def evaluate(
    gold: Sequence[DependencyTree],
    pred: Sequence[DependencyTree],
    options: Optional[EvaluationSettings] = None,
    skip_mismatched: Optional[bool] = None,
    check_forms: Optional[bool] = None,
    metrics: Optional[Sequence[str]] = None,
    keep_counts: bool = False,
) -> EvaluationResult:
    """Every metric of :data:`PARSER_METRICS` (or those named in ``metrics``) for a corpus of
    gold and predicted trees, sentence by sentence. ``check_forms=False`` compares only the
    number of tokens (for a parser that rewrote forms, e.g. numbers as ``<num>``; the form
    punctuation rule reads the gold forms). An undefined corpus score is ``nan``, and one
    :class:`~spacy_agreement.errors.UndefinedMetricWarning` names every undefined score of the
    call; per-sentence rows hold ``nan`` without a warning (module docstring).

    This is the evaluation of trees as 0.2 defined it: ``options`` default to
    :class:`EvaluationSettings` ``()``, the package's convention (``conv:package``: subtypes
    kept, the root case folded), which its signature names. ``spacy-agreement evaluate`` and
    :func:`spacy_agreement.evaluate` (files or trees, conll18's convention by default, the
    character alignment for other tokens) are the command. ``options`` are the settings (their
    ``skip_mismatched`` and ``check_forms`` unless given here) and go into the result, whose
    ``signature`` says how its numbers were computed. ``keep_counts=True`` keeps each
    sentence's counts in ``unit_counts`` (:class:`~.unit_counts.UnitCounts`, for intervals and
    significance tests)."""
    options = options or EvaluationSettings()
    if skip_mismatched is not None or check_forms is not None:
        options = replace(options, **{k: v for k, v in (("skip_mismatched", skip_mismatched),
                                                        ("check_forms", check_forms)) if v is not None})
    skip_mismatched, check_forms = options.skip_mismatched, options.check_forms
    chosen = [m.name for m in _selected(metrics)]
    with_ud = any(m in ("clas", "mlas", "blex") for m in chosen)
    if len(gold) != len(pred):
        source = lambda trees: trees[0].location.source if len(trees) else "<empty>"  # noqa: E731
        raise MismatchedCorpusError(
            f"{len(gold)} gold sentences ({source(gold)}) but {len(pred)} predicted ({source(pred)})"
        )
    if fast_path_applies(chosen) and not any(t.unannotated for t in gold) and not any(t.unannotated for t in pred):
        from ... import _conllu

        table = _conllu.StringTable()
        return evaluate_columns(tree_batches(gold, pred, table, lambda g, p: token_problem(g, p, check_forms)),
                                table, options, chosen, keep_counts, stacklevel=7)  # past warns_once
    # labels as compared, once for the label-set check and the metrics
    compared = [(options.normalise(g), options.normalise(p, predicted=True)) for g, p in zip(gold, pred)]
    problems = [token_problem(g, p, check_forms) for g, p in zip(gold, pred)]
    # the label sets of the sentences scored: those whose tokens differ are skipped, their labels not paired
    checked = label_check([pair for pair, problem in zip(compared, problems) if problem is None])
    total, ud, labels = Counts(), UDScores(), LabelTable()
    for m in chosen:
        total.add(m, 0.0, 0.0)
    per_sentence: List[Dict[str, float]] = []
    skipped: List[str] = []
    multi_root: List[str] = []
    over_limits: List[str] = []
    partial: List[str] = []
    tokens = verbs = unannotated = 0
    rows: List[Tuple[int, Dict[str, List[float]]]] = []
    labels_at: Dict[int, str] = {}
    set_aside: Dict[int, str] = {}
    for number, ((g, p), pair, problem) in enumerate(zip(zip(gold, pred), compared, problems), start=1):
        if problem is not None:
            if not skip_mismatched:
                raise MismatchedCorpusError(f"gold and prediction differ in tokens: {problem}", g.location)
            skipped.append(f"{g.location}: {problem}")
            set_aside[number - 1] = skipped[-1]
            continue
        ctx = SentenceContext(g, p, options, compared=pair)
        counts = sentence_counts(g, p, options, chosen, ctx)
        total.merge(counts)
        for k in ctx.tokens:
            labels.add(ctx.gold_labels[k], ctx.pred_labels[k], ctx.attached(k))
        over_limits.extend(f"{g.location if g.location.sentence is not None else f'sentence {number}'}: {note}"
                           for note in ctx.limits)
        pred_roots = ctx.pred_heads.count(0) - len(p.unannotated)  # an unannotated token is no root
        if pred_roots > 1 and ctx.gold_heads.count(0) - len(g.unannotated) == 1:
            where = p.location if p.location.sentence is not None else f"sentence {number}"
            multi_root.append(f"{where}: {pred_roots} roots in the prediction, 1 in the gold")
        if ctx.partial:
            where = g.location if g.location.sentence is not None else f"sentence {number}"
            partial.append(f"{where}: {len(g.unannotated)} gold and {len(p.unannotated)} predicted token(s) not "
                           "annotated (left out of the whole-tree metrics)")
            unannotated += ctx.unannotated
        tokens += len(ctx.tokens)
        verbs += len(ctx.verbs) if not ctx.partial else 0
        if with_ud:
            ud = ud + ctx.ud
        per_sentence.append(counts.scores(warn=False))
        if keep_counts:
            rows.append((number - 1, counts.values))
            labels_at[number - 1] = str(g.location) if g.location.sentence is not None else f"sentence {number}"
    unit_counts = None
    if keep_counts:
        from ..unit_counts import dependency_unit_counts

        unit_counts = dependency_unit_counts(rows, chosen, [get_metric(m).score for m in chosen], labels_at,
                                             set_aside)
    return EvaluationResult(total.scores(), per_sentence, total, skipped, ud, tokens, verbs, labels, checked,
                            multi_root, over_limits, partial, unannotated, options, unit_counts)


def fast_path_applies(metrics: Sequence[str]) -> bool:
    """Whether every chosen metric is a built-in one, computed over arrays
    (:mod:`.column_evaluation`; a registered metric's ``count`` is called per sentence)."""
    return all(m in FAST_METRICS and get_metric(m).builtin for m in metrics)


def evaluate_columns(batches: Any, table: Any, options: EvaluationSettings, chosen: Sequence[str],
                     keep_counts: bool = False, stacklevel: int = 5) -> EvaluationResult:
    """:func:`evaluate` of a corpus in batches of columns
    (:func:`~.column_evaluation.evaluate_batches`): the fast path."""
    def result(counts: Dict[str, List[float]], **fields: Any) -> EvaluationResult:
        total = Counts(counts)
        return EvaluationResult(total.scores(), counts=total, **fields)

    return evaluate_batches(batches, table, options, {m: get_metric(m) for m in chosen}, keep_counts,
                            lambda check, root_case: label_warnings(check, root_case, stacklevel=stacklevel),
                            result)


def token_problem(gold: DependencyTree, pred: DependencyTree, check_forms: bool) -> Optional[str]:
    """Why a gold and a predicted sentence do not have the same tokens (their forms too with
    ``check_forms``), or ``None`` when they do."""
    if check_forms:
        return token_mismatch(gold, pred)
    return None if len(gold) == len(pred) else f"{len(gold)} tokens against {len(pred)}"


@warns_once
def sentence_scores(gold: DependencyTree, pred: DependencyTree,
                    options: Optional[EvaluationSettings] = None, check_forms: bool = True,
                    metrics: Optional[Sequence[str]] = None, warn: bool = True) -> Dict[str, float]:
    """Each metric (or those in ``metrics``) for one sentence: ``nan`` where a metric has
    nothing to count (e.g. UCP without verbs), with one
    :class:`~spacy_agreement.errors.UndefinedMetricWarning` naming them all unless ``warn=False``
    (for callers that handle ``nan`` themselves)."""
    problem = token_problem(gold, pred, check_forms)
    if problem is not None:
        raise MismatchedCorpusError(f"gold and prediction differ in tokens: {problem}", gold.location)
    return sentence_counts(gold, pred, options or EvaluationSettings(), metrics).scores(warn)


@warns_once
def neutral_edge_direction(gold: DependencyTree, pred: DependencyTree, **options) -> float:
    """NED of one sentence (Schwartz et al. 2011, as used by Plank et al. 2015)."""
    return sentence_scores(gold, pred, EvaluationSettings(**options), metrics=("ned",))["ned"]


@warns_once
def ted_accuracy(gold: DependencyTree, pred: DependencyTree, **options) -> float:
    """TED accuracy of one sentence (Tsarfaty et al. 2011; normalisation in the module doc)."""
    return sentence_scores(gold, pred, EvaluationSettings(**options), metrics=("ted",))["ted"]


@warns_once
def complete_predications(gold: DependencyTree, pred: DependencyTree, **options) -> Tuple[float, float]:
    """(UCP, LCP) of one sentence (Plank et al. 2015, §2)."""
    scores = sentence_scores(gold, pred, EvaluationSettings(**options), metrics=("ucp", "lcp"))
    return scores["ucp"], scores["lcp"]


_RESERVED_READY = True  # EvaluationResult exists: its keys are reserved from now on
