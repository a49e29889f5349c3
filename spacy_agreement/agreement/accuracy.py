"""Uncorrected agreement beside α, as in Table 2 of Skjærholt (2014).

For dependency trees: labelled attachment (LAS), unlabelled attachment (UAS) and label
accuracy (LA). For phrase trees: the Jaccard similarity of the sets of labelled brackets
(§4.2; every node of the word-less tree is a bracket ``(first leaf, last leaf, label)``).

For more than two annotators the score is the pairwise average of eq. (3), weighted by
sentence length:

    LASp(X) = 1 / Σ_i |x_i1| · Σ_i |x_i1| · Λ(X_i) / (|X_i|(|X_i| − 1)/2),
    Λ(X_i) = Σ_{c < c'} LAS(x_ic, x_ic')

which for two annotators is the usual token-level (micro-averaged) score. |x_i1| is the
number of tokens (for phrase trees, of leaves of the compared tree).

Attachment scores assume the annotations of an item have the same tokens. Items whose
annotations differ in their number of tokens, or in a token's form where both forms are
known, are excluded from LAS/UAS/LA and counted (``items_mismatched``), as the paper did
(Table 2, notes a–c).

The Jaccard similarity is defined for any two trees, so by default every item with two or
more annotations is scored, weighted by the leaf count of its first annotation, and the
items whose annotations differ in leaf count are only counted (``items_mismatched``) and
listed: the paper excluded sentences from LAS only (Table 2 has no exclusion note for SSD).
``exclude_mismatched=True`` leaves them out of Jaccard too (the behaviour of the released
``syn-agreement.py``).

Partial annotations (heads not annotated yet, HEAD ``_``:
:attr:`~spacy_agreement.trees.DependencyTree.unannotated`; relations not annotated yet,
DEPREL ``_``: :attr:`~spacy_agreement.trees.DependencyTree.unlabelled`) are compared on what
both annotations of a pair annotated: UAS on the tokens both gave a head, LAS and LA on the
tokens both gave a head and a relation (an unlabelled analysis scores UAS alone; its
relations are not disagreements). An item's pairs then give Σ counts / Σ compared tokens,
weighted by the mean number of compared tokens, per score (which is eq. (3) again when
every token is annotated, and the micro-average over compared tokens for two annotators);
``coverage`` is the share of the token comparisons whose heads could be compared,
``label_coverage`` that of relations.

With ``strict=True`` annotations with different tokens raise
:class:`~spacy_agreement.errors.MismatchedCorpusError` for either score. Items with fewer
than two annotations are not pairable and are counted apart.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..corpus import Corpus
from ..errors import MismatchedCorpusError, undefined
from ..trees import ConstituencyTree, DependencyTree
from ..vocab import compared_label


class ScoresByName:
    """Read a result's ``scores`` entries as attributes: ``result.las``."""

    def __getattr__(self, name: str) -> float:
        scores = self.__dict__.get("scores", {})
        if name in scores:
            return scores[name]
        raise AttributeError(name)


@dataclass
class AccuracyResult(ScoresByName):
    """Length-weighted mean pairwise scores (eq. 3) and what was left out.

    ``items_mismatched`` counts the items whose annotations differ in their tokens (listed
    in ``mismatched``); ``mismatched_scored`` says whether they are in the scores (Jaccard
    by default) or left out (attachment scores). ``coverage`` is the share of token
    comparisons made (below 1 where annotations are partial: unannotated tokens are not
    compared), ``label_coverage`` the share whose relations were compared (LAS, LA);
    ``tokens_unannotated`` counts the tokens of the scored annotations without a head,
    ``tokens_unlabelled`` those with a head but no relation (DEPREL ``_``).
    """

    scores: Dict[str, float]
    tokens: int
    items: int
    items_mismatched: int
    items_unpairable: int
    mismatched: List[str] = field(default_factory=list)
    mismatched_scored: bool = False
    coverage: float = 1.0
    tokens_unannotated: int = 0
    label_coverage: float = 1.0
    tokens_unlabelled: int = 0

    def to_dict(self) -> Dict[str, Any]:
        return {
            **self.scores,
            "accuracy_tokens": self.tokens,
            "accuracy_items": self.items,
            "items_mismatched": self.items_mismatched,
            "items_mismatched_scored": self.mismatched_scored,
            "accuracy_coverage": self.coverage,
            "tokens_unannotated": self.tokens_unannotated,
            "accuracy_label_coverage": self.label_coverage,
            "tokens_unlabelled": self.tokens_unlabelled,
        }


def fold_root_case(label: str) -> str:
    """The default label comparison of every attachment score (:class:`AlphaSettings` and
    ``EvaluationSettings``, ``fold_root_case=True``): ``ROOT`` and ``Root`` are ``root``."""
    return compared_label(label)


def attachment_counts(a: DependencyTree, b: DependencyTree,
                      label: Optional[Callable[[str], str]] = None) -> Tuple[int, int, int]:
    """Tokens with the same head and label, the same head, the same label (same tokens
    assumed), labels compared through ``label`` (default :func:`fold_root_case`, as
    ``evaluate``'s default; ``str`` compares them as written). Heads are compared where
    both trees have one, relations where both have head and relation
    (:attr:`~spacy_agreement.trees.DependencyTree.unannotated`,
    :attr:`~spacy_agreement.trees.DependencyTree.unlabelled`): :func:`compared_tokens`
    counts those."""
    label = label or fold_root_case
    same_head = a.heads == b.heads
    if a.deprels == b.deprels:  # equal relations compare equal through any label function
        same_label = np.ones(len(a), dtype=bool)
    else:
        same_label = np.fromiter((x == y or label(x) == label(y) for x, y in zip(a.deprels, b.deprels)), dtype=bool,
                                 count=len(a))
    if a.partial or b.partial:
        same_head = same_head & a.annotated_mask() & b.annotated_mask()
        same_label = same_label & a.labelled_mask() & b.labelled_mask()
    return int(np.count_nonzero(same_head & same_label)), int(np.count_nonzero(same_head)), int(
        np.count_nonzero(same_label)
    )


def compared_tokens(a: DependencyTree, b: DependencyTree) -> Tuple[int, int]:
    """The tokens whose relations and whose heads both trees annotated (all of them unless
    one is partial)."""
    if not (a.partial or b.partial):
        return len(a), len(a)
    return (int(np.count_nonzero(a.labelled_mask() & b.labelled_mask())),
            int(np.count_nonzero(a.annotated_mask() & b.annotated_mask())))


def bracket_jaccard(a: ConstituencyTree, b: ConstituencyTree) -> float:
    """|A ∩ B| / |A ∪ B| of the labelled bracket sets of two phrase trees."""
    x, y = a.brackets(), b.brackets()
    union = len(x | y)
    return len(x & y) / union if union else 1.0


def token_mismatch(a: Union[DependencyTree, ConstituencyTree], b) -> Optional[str]:
    """Why two annotations do not share their tokens, or ``None`` when they do."""
    if isinstance(a, DependencyTree):
        n_a, n_b, unit = len(a), len(b), "tokens"
        forms_a, forms_b = a.forms, b.forms
    else:
        n_a, n_b, unit = a.n_leaves, b.n_leaves, "leaves"
        forms_a, forms_b = a.words or (), b.words or ()
    if n_a != n_b:
        return f"{n_a} {unit} against {n_b}"
    if forms_a == forms_b:  # the same words (nearly every item): nothing to look for
        return None
    if len(forms_a) == len(forms_b):
        for k, (x, y) in enumerate(zip(forms_a, forms_b), start=1):
            if x != y and x != "_" and y != "_":
                return f"token {k} is {x!r} against {y!r}"
    return None


def _pairwise(
    corpus: Corpus,
    score_pair: Callable[[Any, Any], Sequence[float]],
    keys: Sequence[str],
    size: Callable[[Any], int],
    strict: bool,
    exclude_mismatched: bool = True,
    compared_of: Optional[Callable[[Any, Any], Sequence[int]]] = None,
) -> AccuracyResult:
    """The scores of eq. (3). ``compared_of(x, y)``, for partial annotations, gives per key
    the tokens the pair's score is over (:func:`compared_tokens` expanded to ``keys``);
    ``score_pair`` gives the pair's counts divided by the item's size."""
    totals = np.zeros(len(keys))
    weights = np.zeros(len(keys))
    tokens = items = unpairable = unannotated = unlabelled = 0
    compared = labels_compared = comparisons = 0.0
    mismatched: List[str] = []
    for name, item in zip(corpus.names, corpus.items):
        trees = [item[a] for a in corpus.annotators if a in item]
        if len(trees) < 2:
            unpairable += 1
            continue
        problem = next((p for x, y in combinations(trees, 2) if (p := token_mismatch(x, y))), None)
        if problem is not None:
            if strict:
                raise MismatchedCorpusError(f"annotations have different tokens: {problem}", trees[0].location)
            mismatched.append(f"{name}: {problem}")
            if exclude_mismatched:
                continue
        length = size(trees[0])
        pairs = list(combinations(trees, 2))
        partial = [t for t in trees if getattr(t, "partial", False)]
        comparisons += length * len(pairs)
        if partial and compared_of is not None:  # counts over what both annotated (module docstring)
            unannotated += sum(len(t.unannotated) for t in partial)
            unlabelled += sum(len(t.unlabelled) for t in partial)
            made = np.array([compared_of(x, y) for x, y in pairs], dtype=np.float64)
            compared += made[:, keys.index("uas")].sum()
            labels_compared += made[:, keys.index("las")].sum()
            if not made.any():
                continue
            counts = np.array([score_pair(x, y) for x, y in pairs], dtype=np.float64) * length
            totals += counts.sum(axis=0) / len(pairs)
            tokens += length
            weights += made.sum(axis=0) / len(pairs)
            items += 1
            continue
        pair_scores = np.array([score_pair(x, y) for x, y in pairs], dtype=np.float64)
        compared += length * len(pairs)
        labels_compared += length * len(pairs)
        totals += length * (pair_scores[0] if len(pairs) == 1 else pair_scores.mean(axis=0))  # the mean of one: itself
        tokens += length
        weights += length
        items += 1
    scores = {k: float(v / w) if w else undefined(k, "no comparable tokens", stacklevel=3)
              for k, v, w in zip(keys, totals, weights)}
    return AccuracyResult(scores, tokens, items, len(mismatched), unpairable, mismatched,
                          mismatched_scored=not exclude_mismatched,
                          coverage=float(compared / comparisons) if comparisons else 1.0, tokens_unannotated=unannotated,
                          label_coverage=float(labels_compared / comparisons) if comparisons else 1.0,
                          tokens_unlabelled=unlabelled)


def pairwise_attachment(corpus: Corpus, strict: bool = False,
                        label: Optional[Callable[[str], str]] = None) -> AccuracyResult:
    """LAS, UAS and LA (keys ``las``, ``uas``, ``la``) between annotators, eq. (3); labels
    compared through ``label`` (:func:`attachment_counts`: by default the root relation's
    case is folded, as ``evaluate`` does, so that both give one LAS on the same files)."""

    def score(a: DependencyTree, b: DependencyTree) -> Tuple[float, float, float]:
        las, uas, la = attachment_counts(a, b, label)
        n = len(a)
        return las / n, uas / n, la / n

    def compared(a: DependencyTree, b: DependencyTree) -> Tuple[int, int, int]:
        labels, heads = compared_tokens(a, b)
        return labels, heads, labels

    counted = _scanned_attachment(corpus, label)
    if counted is not None:
        return counted
    return _pairwise(corpus, score, ("las", "uas", "la"), len, strict, compared_of=compared)


def _scanned_attachment(corpus: Corpus, label: Optional[Callable[[str], str]]) -> Optional[AccuracyResult]:
    """:func:`pairwise_attachment` of two annotators from the codes their trees carry when read
    through the compiled scanner (:class:`~.scanned_columns.ScannedColumns`), all items at once;
    ``None`` where :func:`_pairwise` must count item by item: another number of annotators, an item
    one of them lacks, a partial tree, tokens that differ, a tree not read through the scanner.
    The same numbers to the last bit: each item's ``length · (count / length)`` as :func:`_pairwise`
    makes it, summed in the items' order (a cumulative sum is sequential, as its loop is)."""
    from .scanned_columns import ScannedColumns

    if corpus.family != "dependency" or len(corpus.annotators) != 2 or not corpus.items:
        return None
    first, second = corpus.annotators
    lengths = []
    for item in corpus.items:
        x, y = item.get(first), item.get(second)
        if x is None or y is None or x.partial or y.partial or len(x) != len(y):
            return None
        lengths.append(len(x))
    columns = ScannedColumns.of(corpus.items, corpus.annotators, lengths)
    if columns is None:
        return None
    forms, _ = columns.raw("form")
    if not np.array_equal(forms[0], forms[1]):
        return None  # token_mismatch says which: the per-item path lists them
    heads, _ = columns.raw("head")
    relations, texts = columns.raw("deprel")
    compare = label or fold_root_case
    canonical: Dict[str, int] = {}
    folded = np.array([-1] + [canonical.setdefault(compare(t), len(canonical)) for t in texts[1:]], dtype=np.int64)
    same_head = heads[0] == heads[1]
    same_label = folded[relations[0]] == folded[relations[1]]
    n = np.asarray(lengths, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(n)[:-1]))
    per_item = [np.add.reduceat(flags.astype(np.int64), starts) for flags in (same_head & same_label, same_head,
                                                                               same_label)]
    totals = [float(np.cumsum(n * (count / n))[-1]) for count in per_item]
    tokens = int(n.sum())
    weight = float(np.cumsum(n.astype(np.float64))[-1])
    scores = {key: float(total / weight) for key, total in zip(("las", "uas", "la"), totals)}
    return AccuracyResult(scores, tokens, len(lengths), 0, 0, [], mismatched_scored=False, coverage=1.0,
                          tokens_unannotated=0, label_coverage=1.0, tokens_unlabelled=0)


def pairwise_jaccard(corpus: Corpus, strict: bool = False, exclude_mismatched: bool = False) -> AccuracyResult:
    """Mean pairwise Jaccard similarity of labelled brackets (key ``jaccard``), eq. (3)
    weighting by the leaf count of each item's first annotation (Skjærholt 2014, §4.2).

    Items whose annotations differ in leaf count are scored and counted; see the module
    docstring for ``exclude_mismatched``.
    """
    return _pairwise(corpus, lambda a, b: (bracket_jaccard(a, b),), ("jaccard",), lambda t: t.n_leaves, strict,
                     exclude_mismatched)


def pairwise_accuracy(corpus: Corpus, strict: bool = False, exclude_mismatched: bool = False,
                      label: Optional[Callable[[str], str]] = None) -> AccuracyResult:
    """The uncorrected scores that go with the corpus family (attachment or Jaccard).

    ``exclude_mismatched`` applies to Jaccard; attachment scores always leave out items
    whose annotations differ in tokens (they are undefined there). ``label``: how labels
    are compared in attachment scores (:func:`attachment_counts`).
    """
    if corpus.family == "constituency":
        return pairwise_jaccard(corpus, strict, exclude_mismatched)
    return pairwise_attachment(corpus, strict, label)
