"""spaCy integration: pipeline components, a registered scorer and corpus-level α over docs.

Components (registered through the ``spacy_factories`` entry point, so
``nlp.add_pipe("syntax_agreement")`` works without importing this package):

* ``analysis_snapshot`` stores the doc's current heads and labels under a name,
  ``doc._.analyses[name]``, so several parsers in one pipeline (or a parser and annotations
  loaded from files) can be compared later;
* ``syntax_agreement`` compares the doc's current analysis with stored analyses and writes
  per-sentence scores to ``Span._.agreement`` and per-doc scores to ``Doc._.agreement``
  (a mapping from stored name to scores): LAS, UAS, LA (Plank et al. 2015), the TED distance
  of the Skjærholt (2014) trees, and leaf-ancestor scores on dependency lineages (Sampson &
  Babarczy 2003). ``metrics`` chooses among ``las``, ``uas``, ``la``, ``ted``,
  ``leaf_ancestor``.

The scorer ``spacy_agreement.syntax_scorer.v1`` (entry point ``spacy_scorers``) can replace
the parser's: it returns spaCy's own parser scores (``dep_las``, ``dep_uas``, sentence
boundaries) and beside them ``dep_la``, ``dep_ned``, ``dep_ted``, ``dep_ucp``, ``dep_lcp``,
``dep_las_content``, ``dep_las_function``, ``dep_las_root_weighted``, ``dep_clas``, ``dep_mlas``,
``dep_blex`` (CoNLL 2018, :mod:`~spacy_agreement.evaluation.ud_metrics`; UPOS, features and lemmas the
pipeline does not predict are the reference's), ``dep_leaf_ancestor``,
``dep_alpha_plain``, ``dep_alpha_diff``, ``dep_alpha_norm``. Like spaCy's own scores, ours
ignore punctuation (labels ``p`` and ``punct``) and compare labels lowercased; but where
spaCy's ``dep_las``/``dep_uas`` are F-scores over arcs (punctuation left out on each side by
its own label), ours are accuracies over the gold tokens (punctuation by the gold label), as
Plank et al. (2015) define them, so they can differ slightly from spaCy's. Examples
whose tokenisation differs from the gold are aligned with spaCy's alignment: spaCy's own
``dep_las``/``dep_uas`` handle them, ``dep_la`` falls back to the tokens aligned one-to-one
when no example has the gold tokenisation, and the tree measures (TED, UCP/LCP,
leaf-ancestor, α) skip such examples;
``dep_unaligned_tokens`` and ``dep_examples_misaligned`` count what was left out.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import replace
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np
from spacy.language import Language
from spacy.util import registry

from ..adapters.spacy import token_columns
from ..agreement.alpha import AlphaResult, alpha
from ..corpus import Corpus
from ..errors import Location, UndefinedMetricWarning
from ..evaluation.leaf_ancestor import leaf_ancestor
from ..evaluation.parser_metrics import EvaluationOptions, evaluate
from ..trees import DependencyTree

DEFAULT_METRICS = ("las", "uas", "la", "ted", "leaf_ancestor")
SPACY_PUNCT = frozenset({"p", "punct"})


def _register_extensions() -> None:
    from spacy.tokens import Doc, Span

    if not Doc.has_extension("analyses"):
        Doc.set_extension("analyses", default=None)
    if not Doc.has_extension("agreement"):
        Doc.set_extension("agreement", default=None)
    if not Span.has_extension("agreement"):
        Span.set_extension("agreement", default=None)


def doc_analysis(doc) -> Tuple[np.ndarray, Tuple[str, ...]]:
    """The doc's current analysis, compactly: absolute head indices and labels."""
    heads = np.fromiter((t.head.i for t in doc), dtype=np.int32, count=len(doc))
    return heads, tuple(t.dep_ for t in doc)


def tree_of(doc, start: int, end: int, heads: np.ndarray, deps: Sequence[str], name: str = "<doc>",
            number: Optional[int] = None) -> Tuple[DependencyTree, int]:
    """The tree of tokens ``start:end`` under an analysis; a head outside the span becomes the
    root (counted in the second value), as a sentence must be a tree."""
    local = []
    outside = 0
    for i in range(start, end):
        h = int(heads[i])
        if h == i:
            local.append(0)
        elif start <= h < end:
            local.append(h - start + 1)
        else:
            local.append(0)
            outside += 1
    forms = [t.text for t in doc[start:end]]
    upos = [t.pos_ or "_" for t in doc[start:end]]
    tree = DependencyTree.create(local, list(deps[start:end]), forms, upos, location=Location(name, number))
    return tree, outside


class AnalysisSnapshot:
    """Store the current heads and labels of every token under ``name``."""

    def __init__(self, nlp, name: str = "analysis_snapshot", key: str = "snapshot"):
        _register_extensions()
        self.name = name
        self.key = key

    def __call__(self, doc):
        if doc._.analyses is None:
            doc._.analyses = {}
        doc._.analyses[self.key] = doc_analysis(doc)
        return doc


class SyntaxAgreement:
    """Compare the doc's current analysis with stored analyses, per sentence and per doc."""

    def __init__(self, nlp, name: str = "syntax_agreement", compare_with: Sequence[str] = ("snapshot",),
                 metrics: Sequence[str] = DEFAULT_METRICS, exclude_punct: bool = False):
        _register_extensions()
        unknown = set(metrics) - set(DEFAULT_METRICS)
        if unknown:
            raise ValueError(f"unknown metrics {sorted(unknown)}; choose from {DEFAULT_METRICS}")
        self.name = name
        self.compare_with = list(compare_with)
        self.metrics = list(metrics)
        self.options = EvaluationOptions(exclude_punct=exclude_punct)

    def __call__(self, doc):
        stored = doc._.analyses or {}
        current = doc_analysis(doc)
        doc_scores: Dict[str, Dict[str, float]] = {}
        sents = list(doc.sents) if doc.has_annotation("DEP") or doc.has_annotation("SENT_START") else [doc[:]]
        for sent in sents:
            if sent._.agreement is None:
                sent._.agreement = {}
        for key in self.compare_with:
            if key not in stored:
                raise KeyError(f"no stored analysis {key!r} on the doc (stored: {sorted(stored)}); "
                               "add an analysis_snapshot with that key earlier in the pipeline")
            golds, preds = [], []
            for number, sent in enumerate(sents, start=1):
                gold, _ = tree_of(doc, sent.start, sent.end, *stored[key], number=number)
                pred, _ = tree_of(doc, sent.start, sent.end, *current, number=number)
                sent._.agreement[key] = self._scores([gold], [pred])
                golds.append(gold)
                preds.append(pred)
            doc_scores[key] = self._scores(golds, preds)
        doc._.agreement = doc_scores
        return doc

    def _scores(self, golds: List[DependencyTree], preds: List[DependencyTree]) -> Dict[str, float]:
        out: Dict[str, float] = {}
        result = evaluate(golds, preds, self.options)
        for m in ("las", "uas", "la"):
            if m in self.metrics:
                out[m] = result.scores[m]
        if "ted" in self.metrics:
            from ..agreement.deltas import tree_edit_distance

            out["ted"] = float(sum(tree_edit_distance(g, p) for g, p in zip(golds, preds)))
        if "leaf_ancestor" in self.metrics:
            out["leaf_ancestor"] = leaf_ancestor(golds, preds).la_words
        return out

    def score(self, examples: Iterable, **kwargs) -> Dict[str, float]:
        """Mean LAS of the predicted docs against their first stored analysis (``agreement_las``)."""
        values = []
        for eg in examples:
            scores = eg.predicted._.agreement or {}
            if self.compare_with and self.compare_with[0] in scores:
                values.append(scores[self.compare_with[0]].get("las", math.nan))
        return {"agreement_las": float(np.nanmean(values)) if values else None}


def _aligned_label_accuracy(example, options: EvaluationOptions) -> Tuple[float, int]:
    """Label accuracy over reference tokens aligned one-to-one to a predicted token (for
    differing tokenisations), and the number of reference tokens left unaligned."""
    align = example.alignment.x2y  # predicted -> reference
    lengths = align.lengths.tolist()
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(int).tolist() if lengths else []
    predicted_of: Dict[int, int] = {}  # reference token -> its one-to-one predicted token
    for i, (n, s) in enumerate(zip(lengths, starts)):
        if n == 1:
            predicted_of.setdefault(int(align.data[s]), i)
    correct = total = unaligned = 0
    for token in example.reference:
        label = token.dep_.lower()
        if options.exclude_punct and options.is_punct(token.text, token.pos_, label):
            continue
        total += 1
        if token.i not in predicted_of:
            unaligned += 1
            continue
        correct += example.predicted[predicted_of[token.i]].dep_.lower() == label
    return (correct / total if total else math.nan), unaligned


def score_syntax(examples: Iterable, *, punct_labels: Sequence[str] = tuple(SPACY_PUNCT),
                 with_alpha: bool = True, punct: str = "label", verb_tags: Optional[Sequence[str]] = None,
                 content_tags: Optional[Sequence[str]] = None, **kwargs) -> Dict[str, Any]:
    """spaCy's parser scores plus every metric of this package (see the module docstring).
    ``punct`` chooses the punctuation rule(s), comma-separated: ``label`` (the default, a
    label in ``punct_labels``), ``upos`` (UPOS ``PUNCT``), ``form`` (the CoNLL-07 rule of
    Plank et al. 2015: the token text is Unicode punctuation only); ``verb_tags`` and
    ``content_tags`` are the UPOS tags of verbs (UCP/LCP) and content words (POS-wise LAS)."""
    from spacy.pipeline.dep_parser import parser_score

    examples = list(examples)
    scores: Dict[str, Any] = dict(parser_score(examples, **kwargs))
    base = EvaluationOptions()
    options = EvaluationOptions(
        exclude_punct=True, punct_labels=frozenset(punct_labels),
        punct_rules=punct,
        verb_upos=frozenset(verb_tags) if verb_tags else base.verb_upos,
        content_upos=frozenset(content_tags) if content_tags else base.content_upos)
    golds, preds, misaligned, unaligned = [], [], 0, 0
    partial_la = []
    for k, eg in enumerate(examples, start=1):
        ref, pred = eg.reference, eg.predicted
        if [t.text for t in ref] != [t.text for t in pred]:
            misaligned += 1
            value, missing = _aligned_label_accuracy(eg, options)
            unaligned += missing
            partial_la.append(value)
            continue
        gold_tree, _ = tree_of(ref, 0, len(ref), *_lowered(ref), name="example", number=k)
        pred_tree, _ = tree_of(pred, 0, len(pred), *_lowered(pred), name="example", number=k)
        # lemmas and features for MLAS/BLEX; what the pipeline does not predict is the reference's
        gold_tree = replace(gold_tree, **token_columns(ref))
        pred_tree = replace(pred_tree, **token_columns(pred, fallback=gold_tree))
        golds.append(gold_tree)
        preds.append(pred_tree)
    if golds:
        result = evaluate(golds, preds, options)
        for key in ("la", "ned", "ted", "ucp", "lcp", "las_content", "las_function", "las_root_weighted",
                    "clas", "mlas", "blex"):
            scores[f"dep_{key}"] = result.scores[key]
        scores["dep_leaf_ancestor"] = leaf_ancestor(golds, preds).la_words
        if with_alpha:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                agreement: AlphaResult = alpha([[g, p] for g, p in zip(golds, preds)])
            scores["dep_alpha_plain"] = agreement.alpha_plain
            scores["dep_alpha_diff"] = agreement.alpha_diff
            scores["dep_alpha_norm"] = agreement.alpha_norm
    scores["dep_examples_misaligned"] = misaligned
    scores["dep_unaligned_tokens"] = unaligned
    if misaligned and not golds:
        scores["dep_la"] = float(np.nanmean(partial_la))
    return scores


def _lowered(doc) -> Tuple[np.ndarray, Tuple[str, ...]]:
    heads, deps = doc_analysis(doc)
    return heads, tuple(d.lower() for d in deps)


@registry.scorers("spacy_agreement.syntax_scorer.v1")
def make_syntax_scorer(punct_labels: Sequence[str] = tuple(sorted(SPACY_PUNCT)), with_alpha: bool = True,
                       punct: str = "label", verb_tags: Optional[List[str]] = None,
                       content_tags: Optional[List[str]] = None) -> Callable[..., Dict[str, Any]]:
    """The registered scorer ``spacy_agreement.syntax_scorer.v1`` (options: :func:`score_syntax`)."""
    EvaluationOptions(punct_rules=punct)  # check the rules early

    def scorer(examples: Iterable, **kwargs) -> Dict[str, Any]:
        return score_syntax(examples, punct_labels=punct_labels, with_alpha=with_alpha, punct=punct,
                            verb_tags=verb_tags, content_tags=content_tags, **kwargs)

    return scorer


@Language.factory("analysis_snapshot", default_config={"key": "snapshot"})
def make_analysis_snapshot(nlp, name: str, key: str) -> AnalysisSnapshot:
    return AnalysisSnapshot(nlp, name, key)


@Language.factory(
    "syntax_agreement",
    default_config={"compare_with": ["snapshot"], "metrics": list(DEFAULT_METRICS), "exclude_punct": False},
    default_score_weights={"agreement_las": None},
)
def make_syntax_agreement(nlp, name: str, compare_with: List[str], metrics: List[str], exclude_punct: bool
                          ) -> SyntaxAgreement:
    return SyntaxAgreement(nlp, name, compare_with, metrics, exclude_punct)


def iter_doc_trees(docs: Iterable, names: Sequence[str], include_current: bool = True
                   ) -> Iterator[Dict[str, DependencyTree]]:
    """For every sentence of every doc, its trees under the stored analyses ``names`` (and the
    current analysis as ``"current"``), as compact trees only."""
    for d, doc in enumerate(docs, start=1):
        stored = doc._.analyses or {}
        analyses = {n: stored[n] for n in names if n in stored}
        if include_current:
            analyses["current"] = doc_analysis(doc)
        for number, sent in enumerate(doc.sents, start=1):
            yield {n: tree_of(doc, sent.start, sent.end, *a, name=f"doc {d}", number=number)[0]
                   for n, a in analyses.items()}


def alpha_over_docs(docs: Iterable, names: Sequence[str], include_current: bool = True, **alpha_options
                    ) -> AlphaResult:
    """Krippendorff's α between analyses (stored snapshots and the current one) over many
    docs: each sentence is an item, each analysis an annotator. Docs are streamed; only the
    compact trees are kept."""
    items = list(iter_doc_trees(docs, names, include_current))
    annotators = list(names) + (["current"] if include_current else [])
    corpus = Corpus(tuple(annotators), items, [f"sentence {k + 1}" for k in range(len(items))], "dependency")
    return alpha(corpus, **alpha_options)
