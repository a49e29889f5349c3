"""spaCy integration: pipeline components, a registered scorer and corpus-level α over docs.

Components (registered through the ``spacy_factories`` entry point, so
``nlp.add_pipe("syntax_agreement")`` works without importing this package):

* ``analysis_snapshot`` stores the doc's current heads and labels under a name,
  ``doc._.analyses[name]``, so several parsers in one pipeline (or a parser and annotations
  loaded from files) can be compared later. Where a parser follows it in the pipeline, it then
  clears the parse from the doc (``clear = true``, the default; :func:`clear_parse`): spaCy's
  parser keeps the head of every token it leaves unattached, and respects the sentence
  boundaries a doc already has, so a gold doc run through it unchanged comes out as a mixture
  of the gold and the parser's analyses, with head cycles. Cleared, the parser starts from
  the words alone, as in spaCy's own ``nlp.evaluate`` (which parses fresh docs). With
  ``clear = false`` the doc is left as it is, and one :class:`ParseLeakWarning` says so where a
  parser follows; a snapshot that no parser follows never clears (nothing would use a parse
  it removed, and ``syntax_agreement`` needs the current one);
* ``syntax_agreement`` compares the doc's current analysis with stored analyses and writes
  per-sentence scores to ``Span._.agreement`` and per-doc scores to ``Doc._.agreement``
  (a mapping from stored name to scores): LAS, UAS, LA (Plank et al. 2015), the TED distance
  of the Skjærholt (2014) trees summed over the sentences (``ted_distance``; ``ted`` is TED
  accuracy, as in ``evaluate``), and leaf-ancestor scores on dependency lineages (Sampson &
  Babarczy 2003). ``metrics`` chooses among ``ted_distance``, ``leaf_ancestor`` and every
  metric of the parser-metric table (:data:`~spacy_agreement.evaluation.dependency.metrics.PARSER_METRICS`:
  ``las``, ``uas``, ``la``, ``ned``, ``ted``, ...). An undefined score is ``nan`` with an
  :class:`~spacy_agreement.errors.UndefinedMetricWarning`, as everywhere in the package.
  Sentences are converted by :func:`~spacy_agreement.adapters.spacy.doc_tree`: a token whose
  head (in the stored or the current analysis) lies outside its sentence is attached to the
  root, and ``heads_outside_sentence`` (a default metric) counts such tokens, per sentence
  and per doc. ``tokens_in_cycles`` (a default metric too) counts the tokens caught in head
  cycles (reaching no root) in either analysis; a doc whose *current* analysis has any gives
  one :class:`HeadCycleWarning` per component (the first such doc; the component counts them
  all in ``tokens_in_cycles``): a parser's own parse has none, so it was corrupted, as by a
  parser that kept heads the doc came with.

The scorer ``spacy_agreement.syntax_scorer.v1`` (entry point ``spacy_scorers``) can replace
the parser's: it returns spaCy's own parser scores (``dep_las``, ``dep_uas``, sentence
boundaries) and beside them ``dep_<name>`` for every metric of the parser-metric table but LAS
and UAS (spaCy's own; a registered metric appears too): ``dep_la``, ``dep_ned``, ``dep_ted``
(TED accuracy), ``dep_ucp``, ``dep_lcp``,
``dep_las_content``, ``dep_las_function``, ``dep_las_root_weighted``, ``dep_clas``, ``dep_mlas``,
``dep_blex`` (CoNLL 2018, :mod:`~spacy_agreement.evaluation.dependency.ud_labels`; UPOS, features and lemmas the
pipeline does not predict are the reference's), ``dep_leaf_ancestor`` (with ``leaf_ancestor = true``),
``dep_alpha_plain``, ``dep_alpha_diff``, ``dep_alpha_norm``. Like spaCy's own scores, ours
ignore punctuation (labels ``p`` and ``punct``) and compare labels lowercased; but where
spaCy's ``dep_las``/``dep_uas`` are F-scores over arcs (punctuation left out on each side by
its own label), ours are accuracies over the gold tokens (punctuation by the gold label), as
Plank et al. (2015) define them, so they can differ slightly from spaCy's.

Examples whose predicted tokens differ from the reference's are scored through spaCy's own
alignment (``example.alignment``), as spaCy's ``dep_las`` is (:func:`aligned_tree`): every
metric of ours is computed over the *reference* tokens, the predicted analysis carried over
from the predicted token aligned one-to-one with each (a reference token and a predicted
token that the alignment maps only to each other), its head mapped through the alignment. A
reference token with no such token (split or merged by the tokeniser), and a token whose
predicted head maps to no reference token, count as wrong (a wrong head; with no predicted
token, no label either): the predicted tree makes such a token its own head, so the
compared trees (TED, leaf-ancestor, α) leave it out with what hangs below it, as they leave
out any head cycle. One :class:`MisalignedExampleWarning` per call says how many examples
and reference tokens that concerned; ``dep_examples_misaligned`` and ``dep_unaligned_tokens``
count them. ``dep_heads_outside_sentence`` counts the heads re-attached to the root by the
converter (each doc is compared as one tree, so spaCy's heads, always inside the doc, give 0).
``dep_tokens_in_cycles`` counts the predicted tokens caught in head cycles (one
:class:`HeadCycleWarning` per call where there are any).
"""
from __future__ import annotations

import math
import warnings
from array import array
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import registry

# doc_analysis: importable from here too
from ..adapters.spacy import doc_analysis, doc_tree, head_cycle_tokens
from ..agreement.alpha import AlphaResult, alpha
from ..agreement.layers import LayersResult, agreement_by_layer
from ..agreement.settings import ALPHA_METHODS
from ..corpus import Corpus
from ..errors import BadOptionError, Location, undefined
from ..evaluation.constituency.leaf_ancestor import leaf_ancestor as leaf_ancestor_scores
from ..agreement.deltas import tree_edit_distance
from ..evaluation.dependency.metrics import PARSER_METRICS, Counts, EvaluationSettings, sentence_counts
from ..trees import DependencyTree
# the scorer and what it shares with the components (spacy_scoring), importable from here too
from .spacy_scoring import (SPACY_OWN, SPACY_PUNCT, HeadCycleWarning, MisalignedExampleWarning,  # noqa: F401
                            SpacyParserCounts, UnparsedDocWarning, aligned_tree, score_syntax, spacy_parser_scores,
                            unparsed)

DEFAULT_METRICS = ("las", "uas", "la", "ted_distance", "leaf_ancestor", "heads_outside_sentence", "tokens_in_cycles")
# beside those of the parser-metric table; heads_outside_sentence counts what the converter re-attached,
# tokens_in_cycles the tokens in head cycles
COMPONENT_METRICS = ("ted_distance", "leaf_ancestor", "heads_outside_sentence", "tokens_in_cycles")


class ParseLeakWarning(UserWarning):
    """``analysis_snapshot`` with ``clear = false`` left a parse on a doc that a parser then
    parses: the parser keeps the heads of the tokens it leaves unattached and the sentence
    boundaries, so its output mixes both analyses."""


def clear_parse(doc):
    """Remove the dependency parse from ``doc``, in place, and return it: every token its own
    head with no relation, no sentence boundaries, no children (``doc.has_annotation("DEP")``
    and ``doc.has_annotation("SENT_START")`` false), as in a doc made from its words
    (``nlp.make_doc``); its other annotations and ``doc._`` are kept. A parser then parses it
    from the words alone."""
    n = len(doc)
    if not n:
        return doc
    # every token its own head with some relation: Doc.from_array recomputes the children and
    # edges (each token a one-word tree); then the relations and sentence starts are unset, the
    # first token's start kept as a new Doc sets it
    roots = np.zeros((n, 2), dtype=np.uint64)
    roots[:, 1] = doc.vocab.strings.add("dep")
    doc.from_array(["HEAD", "DEP"], roots)
    unset = np.zeros((n, 2), dtype=np.uint64)
    unset[0, 1] = 1
    doc.from_array(["DEP", "SENT_START"], unset)
    return doc


def assigns_parse(nlp, name: str) -> bool:
    """Whether the pipeline component ``name`` sets heads or relations: a dependency parser,
    or a component whose factory declares ``token.head`` or ``token.dep`` in ``assigns``."""
    from spacy.pipeline import DependencyParser  # lazy, as the rest of spaCy here

    try:
        assigns = set(nlp.get_pipe_meta(name).assigns)
    except (KeyError, ValueError, AttributeError):
        assigns = set()
    return bool(assigns & {"token.head", "token.dep"}) or isinstance(nlp.get_pipe(name), DependencyParser)


def _skip_once(component: Any, what: str) -> None:
    """Count a skipped doc on ``component`` and warn the first time only."""
    component.skipped_docs += 1
    if component.skipped_docs == 1:
        warnings.warn(f"{component.name}: {what}; skipped (this and later such docs are counted in "
                      "skipped_docs)", UnparsedDocWarning, stacklevel=3)


def component_metric_choices() -> Tuple[str, ...]:
    """What the ``syntax_agreement`` component's ``metrics`` accepts."""
    return (*PARSER_METRICS, *COMPONENT_METRICS)


def _register_extensions() -> None:
    if not Doc.has_extension("analyses"):
        Doc.set_extension("analyses", default=None)
    if not Doc.has_extension("agreement"):
        Doc.set_extension("agreement", default=None)
    if not Span.has_extension("agreement"):
        Span.set_extension("agreement", default=None)


class AnalysisSnapshot:
    """Store the current heads and labels of every token under ``key``, then, where a parser
    follows in ``nlp``'s pipeline and ``clear`` is true, remove the parse from the doc
    (:func:`clear_parse`) so that the parser starts from the words alone; ``cleared_docs``
    counts those docs. With ``clear=False`` the doc keeps its parse: where a parser follows,
    one :class:`ParseLeakWarning` says that it will see the heads (it keeps some and makes
    head cycles). A snapshot that no parser follows (the last parser's, or one used outside a
    pipeline) leaves the doc as it is. A doc without a dependency parse stores nothing: it is
    counted in ``skipped_docs`` (one :class:`UnparsedDocWarning` for the first)."""

    def __init__(self, nlp, name: str = "analysis_snapshot", key: str = "snapshot", clear: bool = True):
        _register_extensions()
        self.nlp = nlp
        self.name = name
        self.key = key
        self.clear = bool(clear)
        self.skipped_docs = 0
        self.cleared_docs = 0
        self._leak_warned = False

    def parsers_after(self) -> List[str]:
        """The components after this one in ``nlp``'s pipeline that set heads or relations
        (:func:`assigns_parse`); none where this one is not in the pipeline."""
        names = list(getattr(self.nlp, "pipe_names", ()))
        if self.name not in names:
            return []
        return [n for n in names[names.index(self.name) + 1:] if assigns_parse(self.nlp, n)]

    def __call__(self, doc):
        if unparsed(doc):
            _skip_once(self, "a doc without a dependency parse has no analysis to store")
            return doc
        if doc._.analyses is None:
            doc._.analyses = {}
        doc._.analyses[self.key] = doc_analysis(doc)
        parsers = self.parsers_after()
        if parsers and self.clear:
            clear_parse(doc)
            self.cleared_docs += 1
        elif parsers and not self._leak_warned and len(doc):
            self._leak_warned = True
            warnings.warn(f"{self.name}: clear=False, so {parsers[0]!r} parses docs that keep their heads and "
                          "sentence boundaries: it keeps the heads of the tokens it leaves unattached (head cycles); "
                          "clear=True parses the words alone (warned once)", ParseLeakWarning, stacklevel=2)
        return doc


class SyntaxAgreement:
    """Compare the doc's current analysis with stored analyses, per sentence and per doc."""

    def __init__(self, nlp, name: str = "syntax_agreement", compare_with: Sequence[str] = ("snapshot",),
                 metrics: Sequence[str] = DEFAULT_METRICS, exclude_punct: bool = False):
        _register_extensions()
        choices = component_metric_choices()
        unknown = set(metrics) - set(choices)
        if unknown:
            raise BadOptionError(f"unknown metrics {sorted(unknown)}; choose from {', '.join(choices)}")
        self.name = name
        self.compare_with = list(compare_with)
        self.metrics = list(metrics)
        self.options = EvaluationSettings(exclude_punct=exclude_punct)
        self.skipped_docs = 0
        self.tokens_in_cycles = 0  # in the current analyses of all docs so far
        self.docs_with_cycles = 0

    def _check_cycles(self, heads) -> None:
        """Count the tokens of the current analysis in head cycles; warn at the first doc."""
        count = int(head_cycle_tokens(heads).size)
        if not count:
            return
        self.tokens_in_cycles += count
        self.docs_with_cycles += 1
        if self.docs_with_cycles == 1:
            warnings.warn(f"{self.name}: {count} token(s) of a doc's current analysis are in head cycles (reach no "
                          "root), which no parser makes from words alone: was the parse run over a doc that already "
                          "had heads? (analysis_snapshot clear=True before the parser); scored as they are, this and "
                          "later such tokens counted in tokens_in_cycles", HeadCycleWarning, stacklevel=3)

    def __call__(self, doc):
        stored = doc._.analyses or {}
        if unparsed(doc):
            _skip_once(self, "a doc without a dependency parse has no analysis to compare")
            return doc
        absent = [key for key in self.compare_with if key not in stored]
        if absent:
            _skip_once(self, f"no stored analysis {absent[0]!r} on a doc (stored: {sorted(stored)}); add an "
                       "analysis_snapshot with that key earlier in the pipeline, over parsed docs")
            return doc
        current = doc_analysis(doc)
        self._check_cycles(current[0])
        doc_scores: Dict[str, Dict[str, float]] = {}
        sents = list(doc.sents) if doc.has_annotation("DEP") or doc.has_annotation("SENT_START") else [doc[:]]
        for sent in sents:
            if sent._.agreement is None:
                sent._.agreement = {}
        for key in self.compare_with:
            golds, preds, outside, cycles = [], [], [], []
            for number, sent in enumerate(sents, start=1):
                # a head outside the sentence is re-attached to the root and counted (in either analysis)
                gold, out_gold = doc_tree(doc, sent.start, sent.end, stored[key], location=Location("<doc>", number),
                                          heads_outside="root")
                pred, out_pred = doc_tree(doc, sent.start, sent.end, current, location=Location("<doc>", number),
                                          heads_outside="root")
                golds.append(gold)
                preds.append(pred)
                outside.append(out_gold + out_pred)
                if "tokens_in_cycles" in self.metrics:  # in either analysis, as heads_outside_sentence
                    cycles.append(int(gold.unreachable_tokens().size + pred.unreachable_tokens().size))
            per_sentence, doc_scores[key] = self._scores(golds, preds)
            for metric, counts in (("heads_outside_sentence", outside), ("tokens_in_cycles", cycles)):
                if metric in self.metrics:
                    for scores, count in zip(per_sentence, counts):
                        scores[metric] = count
                    doc_scores[key][metric] = sum(counts)
            for sent, scores in zip(sents, per_sentence):
                sent._.agreement[key] = scores
        doc._.agreement = doc_scores
        return doc

    def _scores(self, golds: List[DependencyTree], preds: List[DependencyTree]
                ) -> Tuple[List[Dict[str, float]], Dict[str, float]]:
        """The scores of each sentence and of the doc; every measure is computed once per
        sentence (TED and leaf-ancestor too) and the doc's are summed from the sentences'."""
        rows: List[Dict[str, float]] = [{} for _ in golds]
        out: Dict[str, float] = {}
        table = [m for m in self.metrics if m in PARSER_METRICS]
        teds: List[float] = []
        if table:
            total = Counts()
            for m in table:
                total.add(m, 0.0, 0.0)
            for row, g, p in zip(rows, golds, preds):
                counts = sentence_counts(g, p, self.options, table)
                total.merge(counts)
                row.update(counts.scores())
                if "ted" in counts.values and not (self.options.exclude_punct or self.options.ignore_subtypes):
                    teds.append(counts.values["ted"][0])  # TED of the whole trees: ted_distance needs no other
            out.update(total.scores())
        if "ted_distance" in self.metrics:
            if len(teds) != len(golds):
                teds = [tree_edit_distance(g, p) for g, p in zip(golds, preds)]
            for row, ted in zip(rows, teds):
                row["ted_distance"] = float(ted)
            out["ted_distance"] = float(sum(teds))
        if "leaf_ancestor" in self.metrics:
            result = leaf_ancestor_scores(golds, preds)
            if len(result.sentences) == len(golds):
                for row, sentence in zip(rows, result.sentences):
                    row["leaf_ancestor"] = sentence.leaf_ancestor
            else:  # a sentence was skipped: score each on its own
                for row, g, p in zip(rows, golds, preds):
                    row["leaf_ancestor"] = leaf_ancestor_scores([g], [p]).leaf_ancestor_words
            out["leaf_ancestor"] = result.leaf_ancestor_words
        return rows, out

    def score(self, examples: Iterable, **kwargs) -> Dict[str, float]:
        """Mean LAS of the predicted docs against their first stored analysis (``agreement_las``;
        ``nan`` with an ``UndefinedMetricWarning`` when no doc has one). The examples are gone
        through once; kept: each doc's LAS (one float64 a doc, for the mean as numpy takes it)."""
        defined = array("d")
        for eg in examples:
            scores = eg.predicted._.agreement or {}
            if self.compare_with and self.compare_with[0] in scores:
                value = scores[self.compare_with[0]].get("las", math.nan)
                if not math.isnan(value):
                    defined.append(value)
        if not defined:
            return {"agreement_las": undefined("agreement_las", "no doc has a LAS against "
                                               f"{self.compare_with[0] if self.compare_with else 'a stored analysis'}")}
        return {"agreement_las": float(np.mean(np.frombuffer(defined, dtype=np.float64)))}


@registry.scorers("spacy_agreement.syntax_scorer.v1")
def make_syntax_scorer(punct_labels: Sequence[str] = tuple(sorted(SPACY_PUNCT)), alpha: str = "off",
                       alpha_budget: Optional[float] = None, leaf_ancestor: bool = False, punct: str = "label",
                       verb_tags: Optional[List[str]] = None, content_tags: Optional[List[str]] = None,
                       label_map: Optional[Dict[str, str]] = None, ignore_subtypes: bool = False,
                       ) -> Callable[..., Dict[str, Any]]:
    """The registered scorer ``spacy_agreement.syntax_scorer.v1`` (options: :func:`score_syntax`)."""
    EvaluationSettings(punct_rules=punct)  # check the rules early
    if alpha not in ALPHA_METHODS:
        raise BadOptionError(f"unknown alpha method {alpha!r}: {', '.join(ALPHA_METHODS)}")

    def scorer(examples: Iterable, **kwargs) -> Dict[str, Any]:
        return score_syntax(examples, punct_labels=punct_labels, alpha=alpha, alpha_budget=alpha_budget,
                            leaf_ancestor=leaf_ancestor, punct=punct, verb_tags=verb_tags, content_tags=content_tags, label_map=label_map,
                            ignore_subtypes=ignore_subtypes, **kwargs)

    return scorer


@Language.factory("analysis_snapshot", default_config={"key": "snapshot", "clear": True})
def make_analysis_snapshot(nlp, name: str, key: str, clear: bool) -> AnalysisSnapshot:
    """``key``: the name the analysis is stored under; ``clear``: remove the parse after storing
    it where a parser follows, so that the parser starts from the words (:class:`AnalysisSnapshot`)."""
    return AnalysisSnapshot(nlp, name, key, clear)


@Language.factory(
    "syntax_agreement",
    default_config={"compare_with": ["snapshot"], "metrics": list(DEFAULT_METRICS), "exclude_punct": False},
    default_score_weights={"agreement_las": None},
)
def make_syntax_agreement(nlp, name: str, compare_with: List[str], metrics: List[str], exclude_punct: bool
                          ) -> SyntaxAgreement:
    return SyntaxAgreement(nlp, name, compare_with, metrics, exclude_punct)


def iter_doc_trees(docs: Iterable, names: Sequence[str], include_current: bool = True, heads_outside: str = "root",
                   counts: Optional[Dict[str, int]] = None) -> Iterator[Dict[str, DependencyTree]]:
    """For every sentence of every doc, its trees under the stored analyses ``names`` (and the
    current analysis as ``"current"``), as compact trees only. A head outside its sentence is
    re-attached to the root and counted per analysis in ``counts`` (or raises:
    ``heads_outside="raise"``; :func:`~spacy_agreement.adapters.spacy.doc_tree`)."""
    for d, doc in enumerate(docs, start=1):
        stored = doc._.analyses or {}
        analyses = {n: stored[n] for n in names if n in stored}
        if include_current:
            analyses["current"] = doc_analysis(doc)
        for number, sent in enumerate(doc.sents, start=1):
            trees = {}
            for n, a in analyses.items():
                trees[n], count = doc_tree(doc, sent.start, sent.end, a, location=Location(f"doc {d}", number),
                                           heads_outside=heads_outside)
                if counts is not None:
                    counts[n] = counts.get(n, 0) + count
            yield trees


def alpha_over_docs(docs: Iterable, names: Sequence[str], include_current: bool = True, heads_outside: str = "root",
                    counts: Optional[Dict[str, int]] = None, **alpha_options) -> AlphaResult:
    """Krippendorff's α between analyses (stored snapshots and the current one) over many
    docs: each sentence is an item, each analysis an annotator. Docs are streamed; only the
    compact trees are kept. ``heads_outside`` and ``counts`` as in :func:`iter_doc_trees`."""
    return alpha(docs_corpus(docs, names, include_current, heads_outside, counts), **alpha_options)


def docs_corpus(docs: Iterable, names: Sequence[str], include_current: bool = True, heads_outside: str = "root",
                counts: Optional[Dict[str, int]] = None) -> Corpus:
    """The analyses of many docs as a corpus: each sentence an item, each analysis (stored
    snapshots, and the current one as ``"current"``) an annotator (:func:`iter_doc_trees`)."""
    items = list(iter_doc_trees(docs, names, include_current, heads_outside, counts))
    annotators = list(names) + (["current"] if include_current else [])
    return Corpus(tuple(annotators), items, [f"sentence {k + 1}" for k in range(len(items))], "dependency")


def layers_over_docs(docs: Iterable, names: Sequence[str], include_current: bool = True,
                     heads_outside: str = "root", **layer_options: Any) -> LayersResult:
    """Per-layer agreement (:func:`~spacy_agreement.agreement.layers.agreement_by_layer`)
    between the analyses of many docs: a snapshot stores heads and relations, so the layers
    are ``head``, ``deprel`` and ``deprel_same_head`` unless ``layers`` says otherwise (the
    other columns are the doc's own, the same in every analysis)."""
    layer_options.setdefault("layers", ("head", "deprel", "deprel_same_head"))
    return agreement_by_layer(docs_corpus(docs, names, include_current, heads_outside), **layer_options)
