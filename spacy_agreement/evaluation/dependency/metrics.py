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

**One table.** :data:`PARSER_METRICS` (:mod:`.metric_registry`) maps each name to a
:class:`Metric`: a display name, a per-sentence ``count(gold, pred, ctx) -> (numerator,
denominator)``, a ``score(numerator, denominator)`` (default: the ratio) and a description.
``ctx``, a :class:`SentenceContext` (:mod:`.sentence_context`), holds what the metrics of one
sentence share, computed once: the punctuation mask, the scored tokens, the (subtype-stripped)
labels, head and label matches, gold depths, gold verbs, the CLAS/MLAS/BLEX counts. Counts are
summed over sentences and scored once (micro-average). Every consumer reads the table:
:func:`evaluate` (the CLI's ``evaluate``, text and JSON), the spaCy scorer (``dep_<name>``), the
spaCy component and :mod:`~spacy_agreement.evaluation.judgments.analysis` (``--metric``).
:func:`register_metric` adds one; it then appears in all of them.

**Two implementations, one accumulator.** The definitions here are the *reference*
implementation, sentence by sentence; the built-in metrics also have a *compiled* one over the
columns of many sentences (:mod:`.token_metrics`), equal to the last digit. Every corpus
evaluation goes through :class:`~.accumulator.DependencyEvaluator` (pairs, lists of pairs or
blocks of columns in; an :class:`~.result.EvaluationResult` out), which chooses the path in one
place (:func:`~.accumulator.compiled_path_applies`). :func:`evaluate` is that accumulator fed
two lists of trees; it, the accumulator and the result are defined in :mod:`.accumulator` and
:mod:`.result` and importable from here too.

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

from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from ..._lazy import lazy_exports
from ...agreement.accuracy import token_mismatch  # noqa: F401
from ...errors import BadOptionError, MismatchedCorpusError, ResourceLimitError, warns_once
from ...trees import DependencyTree
from .label_sets import (WARN_SHARE, WARN_TOKENS, LabelSetCheck, LabelSetWarning, LabelTable, RootCaseWarning,  # noqa: F401
                         check_label_sets, label_check, label_warnings, root_case_tokens)
from .metric_registry import (METRICS, PARSER_METRICS, Count, Counts, Metric, Score, _ratio, _selected,  # noqa: F401
                              display_name, get_metric, metric_names, register_metric, sentence_counts,
                              unregister_metric)
from .result import EvaluationResult  # noqa: F401
from .sentence_context import SentenceContext, token_problem
# the options live beside the metrics; imported here under their old names too
from .settings import (CONTENT_UPOS, NED_VARIANTS, PUNCT_RULES, EvaluationSettings, Weight,  # noqa: F401
                       contract, gold_depths, is_punct_form, punct_mask)
from .token_metrics import COMPILED_METRICS, FAST_METRICS, spacy_attachment_counts  # noqa: F401
from .ud_labels import UDScores, ud_counts  # noqa: F401

#: defined in the modules above the metrics (they build on them), importable from here on first use
__getattr__, __dir__ = lazy_exports(__name__, {name: f"{__package__}.{where}" for name, where in {
    "evaluate": "accumulator",
    "DependencyEvaluator": "accumulator",
    "compiled_path_applies": "accumulator",
    "fast_path_applies": "accumulator:compiled_path_applies",  # the name before "compiled"
    "evaluate_columns": "accumulator",
    "evaluate_batches": "column_evaluation",
    "tree_batches": "column_evaluation",
}.items()})


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


def tree_edit_distance(a: DependencyTree, b: DependencyTree, *args: Any, **kwargs: Any) -> float:
    """:func:`spacy_agreement.agreement.deltas.tree_edit_distance` (the α family's module, loaded
    on the first call: the compiled path, which the ``evaluate`` command runs, never needs it)."""
    from ...agreement.deltas import tree_edit_distance as ted

    return ted(a, b, *args, **kwargs)


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
