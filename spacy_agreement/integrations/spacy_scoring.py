"""The scorer ``spacy_agreement.syntax_scorer.v1`` in one pass over the examples (what it
reports: :mod:`~spacy_agreement.integrations.spacy_components`, whose names these are too).

spaCy calls a scorer with an iterable of ``Example`` objects. :func:`score_syntax` goes
through it once: each example is checked (parsed? head cycles? same tokens?), scored by
spaCy's parser scores (:class:`SpacyParserCounts`) and converted to a (gold, predicted) pair
of compact trees, and the pairs are scored a batch at a time (:data:`SCORE_BATCH` pairs).
What is kept while the examples go by:

* spaCy's own scores: the counts of ``Scorer.score_spans(examples, "sents")`` and
  ``Scorer.score_deps(examples, "dep")`` (true and false positives and negatives, per label
  too, and spaCy's set of reference token positions with a missing relation), a few integers
  per label: :class:`SpacyParserCounts` counts what those functions count, example by
  example, the same numbers (tests/integrations/test_streaming_scorer.py compares them);
* our metrics: each metric's numerator and denominator summed so far, label counts, and
  the number of sentences with several roots, in one
  :class:`~spacy_agreement.evaluation.dependency.accumulator.DependencyEvaluator` (the one that
  ``evaluate`` feeds, and which chooses between the compiled path and the reference one, sentence
  by sentence, as it does there). The scores are those of ``evaluate`` over the list of all the
  trees, bit for bit;
* counts of examples unparsed, misaligned, with head cycles, and of the tokens concerned;
* with ``leaf_ancestor=True``, one float per scored word (the corpus score is the mean over
  all words, computed as the whole-list function computes it);
* with ``alpha`` on, the compact trees of every example: α is computed over all pairs of
  items at once and needs them all (small numpy arrays and label tuples, not the docs).

No tree outlives its batch otherwise, and no list of examples is built: a one-shot generator
of examples is enough.
"""
from __future__ import annotations

import warnings
from array import array
from itertools import islice
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..adapters.spacy import annotated_columns, doc_analysis, doc_tree, head_cycle_tokens, token_columns
from ..agreement.alpha import alpha as alpha_of
from ..errors import Location, undefined
from ..evaluation.constituency.leaf_ancestor import leaf_ancestor as leaf_ancestor_scores
from ..evaluation.dependency.accumulator import DependencyEvaluator
from ..evaluation.dependency.label_sets import LabelSetWarning
from ..evaluation.dependency.result import EvaluationResult
from ..evaluation.dependency.settings import EvaluationSettings
from ..trees import DependencyTree

SPACY_OWN = ("las", "uas")  # spaCy's parser_score reports dep_las and dep_uas itself
SPACY_PUNCT = frozenset({"p", "punct"})
#: tree pairs scored at a time: what is held of the examples at any moment
SCORE_BATCH = 512


class UnparsedDocWarning(UserWarning):
    """Docs without a dependency parse (``doc.has_annotation("DEP")`` false) or without the
    stored analysis to compare with were skipped: their scores would be made up."""


class MisalignedExampleWarning(UserWarning):
    """Examples whose predicted tokens differ from the reference's were scored through
    spaCy's alignment: reference tokens with no one-to-one predicted token, and predicted
    heads that map to no reference token, counted wrong (:func:`aligned_tree`)."""


class HeadCycleWarning(UserWarning):
    """A parse has tokens caught in head cycles (reaching no root). A parser's own parse has
    none: typically a parser ran over a doc that already had heads and kept some of them
    (``analysis_snapshot`` with ``clear = false`` before it)."""


def unparsed(doc) -> bool:
    """A doc with tokens but no dependency parse: its heads would be made up."""
    return bool(len(doc)) and not doc.has_annotation("DEP")


def aligned_tree(example, reference: DependencyTree, location: Optional[Location] = None
                 ) -> Tuple[DependencyTree, int]:
    """The predicted analysis of an example whose tokens differ from the reference's, as a
    tree over the reference tokens (``reference`` is the reference doc's tree), and the
    number of reference tokens aligned to no single predicted token.

    Through spaCy's alignment (``example.alignment``), a reference token ``i`` and a
    predicted token ``j`` are aligned one-to-one when each is the other's only aligned token.
    Token ``i`` then takes ``j``'s relation (lowercased, as spaCy compares) and ``j``'s head
    mapped to the reference: the root stays the root, a head aligned one-to-one becomes its
    reference token, and a head aligned to none (part of a split or merged token) makes ``i``
    its own head, which every attachment score counts as wrong. A reference token aligned to
    no single predicted token is its own head with the relation ``_``. UPOS, lemmas, features
    and tags are the aligned token's where the prediction annotates them (``_`` for an
    unaligned token), else the reference's; forms and ids are the reference's."""
    predicted = example.predicted
    x2y, y2x = example.alignment.x2y, example.alignment.y2x  # predicted -> reference, reverse
    x_lengths, y_lengths, targets = x2y.lengths.tolist(), y2x.lengths.tolist(), x2y.data.tolist()
    reference_of: Dict[int, int] = {}  # predicted token -> its one-to-one reference token
    start = 0
    for j, length in enumerate(x_lengths):
        if length == 1 and y_lengths[targets[start]] == 1:
            reference_of[j] = targets[start]
        start += length
    predicted_of = {i: j for j, i in reference_of.items()}
    n = len(reference)
    heads, deprels = [], []
    for i in range(n):
        j = predicted_of.get(i)
        if j is None:
            heads.append(i + 1)
            deprels.append("_")
            continue
        token = predicted[j]
        head = token.head.i
        heads.append(0 if head == j else reference_of[head] + 1 if head in reference_of else i + 1)
        deprels.append(token.dep_.lower())
    own = token_columns(predicted)
    annotated = annotated_columns(predicted)
    columns = {name: tuple(values[predicted_of[i]] if i in predicted_of else "_" for i in range(n))
               if annotated[name] else getattr(reference, name) for name, values in own.items()}
    tree = DependencyTree.create(heads, deprels, reference.forms, ids=reference.ids,
                                 location=location or reference.location, **columns)
    return tree, n - len(predicted_of)


# --------------------------------------------------------------------------- spaCy's own scores


def _spacy_dep(token, attr: str) -> str:
    """spaCy's label getter of ``parser_score``: the label in lower case."""
    value = getattr(token, attr)
    return (value if isinstance(value, str) else token.vocab.strings[value]).lower()


class SpacyParserCounts:
    """spaCy's parser scores (``spacy.pipeline.dep_parser.parser_score``: ``sents_p/r/f``,
    ``dep_uas``, ``dep_las``, ``dep_las_per_type``) counted one example at a time (:meth:`add`),
    as ``Scorer.score_spans(examples, "sents")`` and ``Scorer.score_deps(examples, "dep")``
    count them over the whole list: the same loops, so the same numbers, without going
    through the examples twice. ``kwargs`` are those a scorer is called with (spaCy's
    ``getter``, ``head_attr``, ``head_getter``, ``ignore_labels``, ``missing_values``,
    ``labeled``, ``allow_overlap``). With a ``label_map`` or ``ignore_subtypes`` in
    ``options``, predicted labels are compared through them (:meth:`EvaluationSettings.label
    <spacy_agreement.evaluation.dependency.settings.EvaluationSettings.label>`), reference labels
    with ``ignore_subtypes``; kept: the counts (integers per label) and, as spaCy keeps it,
    the set of reference positions whose relation is missing."""

    def __init__(self, options: Optional[EvaluationSettings] = None, **kwargs: Any):
        from spacy.scorer import MISSING_VALUES, PRFScore  # lazy, as the rest of spaCy here

        self._prf = PRFScore
        self.span_getter: Callable = kwargs.get("getter", getattr)
        self.labeled = kwargs.get("labeled", True)
        self.allow_overlap = kwargs.get("allow_overlap", False)
        self.spans, self.spans_per_type = PRFScore(), {}  # type: ignore[var-annotated]
        user_getter = kwargs.get("getter")
        mapped = options is not None and bool(options.label_map or options.ignore_subtypes)
        if user_getter is not None:
            self.gold_getter = self.pred_getter = user_getter
        elif mapped:
            assert options is not None
            self.gold_getter = lambda token, attr: options.label(_spacy_dep(token, attr))
            self.pred_getter = lambda token, attr: options.label(_spacy_dep(token, attr), predicted=True)
        else:
            self.gold_getter = self.pred_getter = _spacy_dep
        self.head_attr = kwargs.get("head_attr", "head")
        self.head_getter: Callable = kwargs.get("head_getter", getattr)
        self.ignore_labels = kwargs.get("ignore_labels", tuple(SPACY_PUNCT))
        self.missing_values = kwargs.get("missing_values", MISSING_VALUES)
        self.unlabelled, self.labelled = PRFScore(), PRFScore()
        self.per_dep: Dict[str, Any] = {}
        self.missing_indices: set = set()  # as in score_deps: over all examples so far

    def add(self, example) -> None:
        self._add_sents(example)
        self._add_deps(example)

    def _add_sents(self, example) -> None:  # Scorer.score_spans(..., "sents", has_annotation=has_sents)
        pred_doc, gold_doc, getter = example.predicted, example.reference, self.span_getter
        if not gold_doc.has_annotation("SENT_START"):
            return
        pred_annotated = pred_doc.has_annotation("SENT_START")
        labels = {k.label_ for k in getter(gold_doc, "sents")}
        if pred_annotated:
            labels |= {k.label_ for k in getter(pred_doc, "sents")}
        gold_per_type: Dict[str, set] = {label: set() for label in labels}
        for label in labels:
            if label not in self.spans_per_type:
                self.spans_per_type[label] = self._prf()
        gold_spans, pred_spans = set(), set()
        for span in getter(gold_doc, "sents"):
            gold_span = (span.label_, span.start, span.end - 1) if self.labeled else (span.start, span.end - 1)
            gold_spans.add(gold_span)
            gold_per_type[span.label_].add(gold_span)
        pred_per_type: Dict[str, set] = {label: set() for label in labels}
        if pred_annotated:
            for span in example.get_aligned_spans_x2y(getter(pred_doc, "sents"), self.allow_overlap):
                pred_span = (span.label_, span.start, span.end - 1) if self.labeled else (span.start, span.end - 1)
                pred_spans.add(pred_span)
                pred_per_type[span.label_].add(pred_span)
        if self.labeled:
            for k, v in self.spans_per_type.items():
                if k in pred_per_type:
                    v.score_set(pred_per_type[k], gold_per_type[k])
        self.spans.score_set(pred_spans, gold_spans)

    def _add_deps(self, example) -> None:  # Scorer.score_deps(..., "dep")
        gold_doc, pred_doc, align = example.reference, example.predicted, example.alignment
        head_getter, head_attr, ignore = self.head_getter, self.head_attr, self.ignore_labels
        gold_deps = set()
        gold_per_dep: Dict[str, set] = {}
        for gold_i, token in enumerate(gold_doc):
            dep = self.gold_getter(token, "dep")
            head = head_getter(token, head_attr)
            if dep not in self.missing_values:
                if dep not in ignore:
                    gold_deps.add((gold_i, head.i, dep))
                    if dep not in self.per_dep:
                        self.per_dep[dep] = self._prf()
                    gold_per_dep.setdefault(dep, set()).add((gold_i, head.i, dep))
            else:
                self.missing_indices.add(gold_i)
        pred_deps = set()
        pred_per_dep: Dict[str, set] = {}
        lengths = align.x2y.lengths
        for token in pred_doc:
            if token.orth_.isspace():
                continue
            gold_i = align.x2y[token.i][0] if lengths[token.i] == 1 else None
            if gold_i in self.missing_indices:
                continue
            dep = self.pred_getter(token, "dep")
            head = head_getter(token, head_attr)
            if dep not in ignore and token.orth_.strip():
                gold_head = align.x2y[head.i][0] if lengths[head.i] == 1 else None
                if gold_i is None or gold_head is None:  # None is indistinct: counted, not put in a set
                    self.unlabelled.fp += 1
                    self.labelled.fp += 1
                else:
                    pred_deps.add((gold_i, gold_head, dep))
                    if dep not in self.per_dep:
                        self.per_dep[dep] = self._prf()
                    pred_per_dep.setdefault(dep, set()).add((gold_i, gold_head, dep))
        self.labelled.score_set(pred_deps, gold_deps)
        for dep, score in self.per_dep.items():
            score.score_set(pred_per_dep.get(dep, set()), gold_per_dep.get(dep, set()))
        self.unlabelled.score_set({item[:2] for item in pred_deps}, {item[:2] for item in gold_deps})

    def scores(self) -> Dict[str, Any]:
        """What ``parser_score`` returns for the examples added so far."""
        out: Dict[str, Any] = {"sents_p": None, "sents_r": None, "sents_f": None}
        if len(self.spans) > 0:
            out.update(sents_p=self.spans.precision, sents_r=self.spans.recall, sents_f=self.spans.fscore)
        if len(self.unlabelled) > 0:
            out.update(dep_uas=self.unlabelled.fscore, dep_las=self.labelled.fscore,
                       dep_las_per_type={k: v.to_dict() for k, v in self.per_dep.items()})
        else:
            out.update(dep_uas=None, dep_las=None, dep_las_per_type=None)
        return out


def spacy_parser_scores(examples: Iterable[Any], options: EvaluationSettings, **kwargs: Any) -> Dict[str, Any]:
    """spaCy's own parser scores (``parser_score``'s); with a label map or ``ignore_subtypes``,
    with labels compared through them. The examples are gone through once
    (:class:`SpacyParserCounts`): a generator is enough."""
    counts = SpacyParserCounts(options, **kwargs)
    for example in examples:
        counts.add(example)
    return counts.scores()


# --------------------------------------------------------------------------- our metrics, streamed


class TreeScores:
    """The corpus scores of :func:`~spacy_agreement.evaluation.dependency.accumulator.evaluate`
    (the fields the scorer reports: scores, the unseen gold label share, sentences with several
    roots, the signature) of (gold, predicted) pairs handed over in batches, counted by one
    :class:`~spacy_agreement.evaluation.dependency.accumulator.DependencyEvaluator` (which
    chooses the compiled or the reference path; nothing kept per sentence), and with
    ``leaf_ancestor`` the leaf-ancestor score over all words. :meth:`run` goes through the
    batches once; warnings are not given there but by :meth:`scores`, so the caller gives its
    own first, as the whole-list scorer did."""

    def __init__(self, options: EvaluationSettings, leaf_ancestor: bool = False):
        self.options = options
        self.accumulator = DependencyEvaluator(options, keep_rows=False)
        self.chosen = list(self.accumulator.metrics)
        self.leaf_ancestor = leaf_ancestor
        self.words = array("d")  # leaf-ancestor score of every scored word
        self.pairs = 0
        self.result: Optional[EvaluationResult] = None

    def run(self, batches: Iterable[Tuple[List[DependencyTree], List[DependencyTree]]]) -> None:
        for golds, preds in batches:
            self.pairs += len(golds)
            if self.leaf_ancestor:
                result = leaf_ancestor_scores(golds, preds)
                self.words.extend(w.score for s in result.sentences for w in s.words)
                del result
            self.accumulator.add_trees(golds, preds)
            del golds, preds  # before the next batch is made: one batch of trees at a time
        self.result = self.accumulator.result(warn=False)

    @property
    def fields(self) -> Dict[str, Any]:
        """What the scorer reads of the result: the summed counts, the label check, how many
        predictions have several roots."""
        assert self.result is not None
        return {"counts": self.result.counts.values, "label_check": self.result.label_check,
                "multi_root": len(self.result.multi_root)}

    def scores(self) -> Dict[str, Any]:
        """The ``dep_*`` keys of our metrics, warnings given here (LabelSetWarning silenced:
        during ``spacy train`` an untrained model uses few labels, its share is a score)."""
        assert self.result is not None
        out: Dict[str, Any] = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LabelSetWarning)
            self.accumulator.label_warnings(stacklevel=3)  # at the caller of score_syntax
            scores = self.result.counts.scores()
        out["dep_unseen_gold_label_share"] = self.result.label_check.share
        for key, value in scores.items():
            if key not in SPACY_OWN:
                out[f"dep_{key}"] = value
        if self.leaf_ancestor:
            out["dep_leaf_ancestor"] = (float(np.mean(np.frombuffer(self.words, dtype=np.float64))) if self.words
                                        else undefined("leaf_ancestor_words", "no word was scored"))
        out["dep_sentences_multi_root"] = len(self.result.multi_root)
        return out


def _batched(pairs: Iterator[Tuple[DependencyTree, DependencyTree]], size: int
             ) -> Iterator[Tuple[List[DependencyTree], List[DependencyTree]]]:
    while True:
        chunk = list(islice(pairs, size))
        if not chunk:
            return
        golds, preds = [g for g, _ in chunk], [p for _, p in chunk]
        del chunk
        yield golds, preds
        del golds, preds


class _ExampleStream:
    """The examples of one scorer call gone through once: per example the checks and
    counts of :func:`score_syntax` and spaCy's own scores, and the (gold, predicted) trees."""

    def __init__(self, spacy_counts: SpacyParserCounts):
        self.spacy = spacy_counts
        self.total = self.skipped = self.parsed = 0
        self.in_cycles = self.with_cycles = 0
        self.misaligned = self.unaligned = self.outside = 0

    def pairs(self, examples: Iterable) -> Iterator[Tuple[DependencyTree, DependencyTree]]:
        for eg in examples:
            self.total += 1
            ref, pred = eg.reference, eg.predicted
            if unparsed(pred):
                self.skipped += 1
                continue
            self.parsed += 1
            k = self.parsed
            cycles = int(head_cycle_tokens(doc_analysis(pred)[0]).size)
            self.in_cycles += cycles
            self.with_cycles += bool(cycles)
            self.spacy.add(eg)
            # each doc is one tree; a head outside it is re-attached to the root and counted
            # labels lowered as spaCy compares them; lemmas and features for MLAS/BLEX: what the
            # pipeline does not predict is the reference's
            gold_tree, out_gold = doc_tree(ref, 0, len(ref), location=Location("example", k), heads_outside="root",
                                           lowercase=True)
            if [t.text for t in ref] != [t.text for t in pred]:
                self.misaligned += 1
                pred_tree, missing = aligned_tree(eg, gold_tree)  # over the reference tokens
                self.unaligned += missing
                out_pred = 0
            else:
                pred_tree, out_pred = doc_tree(pred, 0, len(pred), location=Location("example", k),
                                               heads_outside="root", lowercase=True, fallback=gold_tree)
            self.outside += out_gold + out_pred
            yield gold_tree, pred_tree

    def warn(self) -> None:
        """The scorer's warnings, once per call, as the whole-list scorer gave them."""
        if self.skipped:
            warnings.warn(f"{self.skipped} of {self.total} example(s) have no dependency parse in the prediction; "
                          "skipped (dep_examples_unparsed)", UnparsedDocWarning, stacklevel=3)
        if self.in_cycles:
            warnings.warn(f"{self.in_cycles} predicted token(s) of {self.with_cycles} of {self.parsed} example(s) "
                          "are in head cycles (reach no root), which no parser makes from words alone: was the parse "
                          "run over docs that already had heads? scored as they are (dep_tokens_in_cycles)",
                          HeadCycleWarning, stacklevel=3)

    def warn_misaligned(self) -> None:
        if self.misaligned:
            warnings.warn(f"{self.misaligned} of {self.parsed} example(s) have predicted tokens that differ from the "
                          f"reference: scored over the reference tokens through spaCy's alignment, with the "
                          f"{self.unaligned} reference token(s) aligned to no single predicted token, and heads that "
                          "map to none, counted wrong and left out of the compared trees (dep_examples_misaligned, "
                          "dep_unaligned_tokens)", MisalignedExampleWarning, stacklevel=3)


def score_syntax(examples: Iterable, *, punct_labels: Sequence[str] = tuple(SPACY_PUNCT),
                 alpha: str = "off", alpha_budget: Optional[float] = None, leaf_ancestor: bool = False,
                 punct: str = "label",
                 verb_tags: Optional[Sequence[str]] = None, content_tags: Optional[Sequence[str]] = None,
                 label_map: Optional[Dict[str, str]] = None, ignore_subtypes: bool = False,
                 **kwargs) -> Dict[str, Any]:
    """spaCy's parser scores plus every metric of this package (see the module docstring of
    :mod:`~spacy_agreement.integrations.spacy_components`).
    ``punct`` chooses the punctuation rule(s), comma-separated: ``label`` (the default, a
    label in ``punct_labels``), ``upos`` (UPOS ``PUNCT``), ``form`` (the CoNLL-07 rule of
    Plank et al. 2015: the token text is Unicode punctuation only); ``verb_tags`` and
    ``content_tags`` are the UPOS tags of verbs (UCP/LCP) and content words (POS-wise LAS).
    ``label_map`` (predicted → gold label, compared in lower case) and ``ignore_subtypes``
    apply to spaCy's ``dep_las``/``dep_uas``/``dep_las_per_type`` too.

    ``leaf_ancestor=True`` adds ``dep_leaf_ancestor`` (off by default, with α, to keep
    ``spacy evaluate`` within 20% of its time with spaCy's own scorer; benchmarks/README.md).
    ``alpha`` (``"off"`` by default, so that evaluation at every step of ``spacy train``
    costs nothing extra) turns on ``dep_alpha_plain``/``_diff``/``_norm`` with the package's
    policy: ``"auto"`` is exact within ``alpha_budget`` DP cells and sampled beyond,
    ``"exact"`` and ``"sampled"`` force either; ``dep_alpha_method`` says which was computed.
    Examples whose predicted doc has no dependency annotation are skipped, counted in
    ``dep_examples_unparsed`` and warned about once. Examples whose predicted tokens differ
    from the reference's are scored through spaCy's alignment (:func:`aligned_tree`), counted
    in ``dep_examples_misaligned`` (``dep_unaligned_tokens``: their reference tokens aligned to
    no single predicted token) and warned about once (:class:`MisalignedExampleWarning`).
    Predicted tokens in head cycles are counted in ``dep_tokens_in_cycles`` and warned about
    once (:class:`HeadCycleWarning`).

    ``examples`` is gone through once, each example converted and scored as it comes (module
    docstring: what is kept); warnings come after the pass, in the order above."""
    base = EvaluationSettings()
    options = EvaluationSettings(
        exclude_punct=True, punct_labels=frozenset(punct_labels),
        punct_rules=punct,
        verb_upos=frozenset(verb_tags) if verb_tags else base.verb_upos,
        content_upos=frozenset(content_tags) if content_tags else base.content_upos,
        label_map={k.lower(): v.lower() for k, v in label_map.items()} if label_map else None,
        ignore_subtypes=ignore_subtypes)
    stream = _ExampleStream(SpacyParserCounts(options, **kwargs))
    trees = TreeScores(options, leaf_ancestor)
    compared: List[List[DependencyTree]] = []  # for α only: the compact trees of every example

    def batches() -> Iterator[Tuple[List[DependencyTree], List[DependencyTree]]]:
        for golds, preds in _batched(stream.pairs(examples), SCORE_BATCH):
            if alpha != "off":  # labels as compared, so that α sees the label map too
                compared.extend([options.normalise(g), options.normalise(p, predicted=True)]
                                for g, p in zip(golds, preds))
            yield golds, preds
            del golds, preds

    trees.run(batches())
    stream.warn()
    scores: Dict[str, Any] = stream.spacy.scores()
    stream.warn_misaligned()
    if trees.pairs:
        scores.update(trees.scores())
        if alpha != "off":  # nan + warning if undefined
            agreement = alpha_of(compared, method=alpha, budget=alpha_budget)
            scores.update({f"dep_{k}": v for k, v in agreement.to_dict().items() if k.startswith("alpha_")})
            scores["dep_alpha_signature"] = agreement.signature
        scores["dep_signature"] = options.signature()
    scores["dep_examples_misaligned"] = stream.misaligned
    scores["dep_examples_unparsed"] = stream.skipped
    scores["dep_unaligned_tokens"] = stream.unaligned
    scores["dep_heads_outside_sentence"] = stream.outside
    scores["dep_tokens_in_cycles"] = stream.in_cycles
    return scores


__all__ = ["HeadCycleWarning", "MisalignedExampleWarning", "SCORE_BATCH", "SPACY_OWN", "SPACY_PUNCT",
           "SpacyParserCounts", "TreeScores", "UnparsedDocWarning", "aligned_tree", "score_syntax",
           "spacy_parser_scores", "unparsed"]
