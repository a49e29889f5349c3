"""Leaf-ancestor (Sampson & Babarczy 2003) in Python, sentence by sentence: the *reference*
implementation (:mod:`.leaf_ancestor` says what is computed; the compiled loops of
:mod:`.leaf_ancestor_compiled` give the same numbers and are tested against this one). It scores
what the compiled loops do not: dependency trees, cost functions or mappings, EVALB parameters.
Also here: the cost schemes (:func:`exact_cost`, :func:`first_char_cost`, :func:`cost_function`)
and :func:`score_lineages`, the word scores of parallel lineages in one call of the Levenshtein
kernel. Split from :mod:`.leaf_ancestor`, which re-exports every public name here.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ... import _core
from ...errors import BadOptionError, InvalidTreeError, MismatchedCorpusError, ResourceLimitError
from ...trees import ConstituencyTree, DependencyTree, children_lists
from ...vocab import LabelVocab
from .geig import BracketCounts, EvalbSettings, bracket_counts
from .leaf_ancestor_result import LeafAncestorResult
from .leaf_ancestor_words import SentenceResult, WordScore, _lineage_limit
from .lineage import LEFT, RIGHT, Lineages, Preterminals, dependency_lineages, phrase_lineages

CostScheme = Union[str, Callable[[str, str], float], Mapping[Tuple[str, str], float]]


def exact_cost(a: str, b: str) -> float:
    """0 for equal symbols, 2 otherwise."""
    return 0.0 if a == b else 2.0


def first_char_cost(a: str, b: str) -> float:
    """0 for equal symbols, 0.5 for different labels sharing their first character, else 2
    (the cost function of the paper's experiment, §4)."""
    if a == b:
        return 0.0
    if a in (LEFT, RIGHT) or b in (LEFT, RIGHT):
        return 2.0
    return 0.5 if a[:1] == b[:1] else 2.0


def cost_function(scheme: CostScheme) -> Callable[[str, str], float]:
    if scheme == "exact":
        return exact_cost
    if scheme == "first-char":
        return first_char_cost
    if callable(scheme):
        return scheme
    if isinstance(scheme, Mapping):
        table = dict(scheme)
        return lambda a, b: table.get((a, b), exact_cost(a, b))
    raise BadOptionError(f"unknown cost scheme {scheme!r}: 'exact', 'first-char', a function or a mapping")


def score_lineages(gold: Sequence[Lineages], candidate: Sequence[Lineages], cost: CostScheme = "exact",
                   names: Optional[Sequence[str]] = None) -> List[List[WordScore]]:
    """Word scores of parallel sentences (same words), all in one call of the Cython kernel."""
    vocab = LabelVocab()
    symbols: List[int] = []
    offsets = [0]
    for g, c in zip(gold, candidate):
        for lineage in (*g.lineages, *c.lineages):
            symbols.extend(vocab.add(s) for s in lineage)
            offsets.append(len(symbols))
    matrix = vocab.cost_matrix(cost_function(cost), symmetric=False)  # gold to candidate: may be directed
    if matrix is not None and (matrix.max(initial=0) > 2 or matrix.min(initial=0) < 0):
        raise BadOptionError("leaf-ancestor label costs must lie in [0, 2]")
    left, right, index = [], [], 0
    for g, c in zip(gold, candidate):
        n = len(g)
        left.extend(range(index, index + n))
        right.extend(range(index + n, index + 2 * n))
        index += 2 * n
    distances = _core.levenshtein_pairs(np.asarray(symbols, dtype=np.int32), np.asarray(offsets, dtype=np.int64),
                                        np.asarray(left, dtype=np.int64), np.asarray(right, dtype=np.int64), matrix)
    out, k = [], 0
    for g, c in zip(gold, candidate):
        words = []
        for word, gl, cl in zip(g.words, g.lineages, c.lineages):
            total = len(gl) + len(cl)
            words.append(WordScore(word, 1.0 - distances[k] / total if total else 1.0, gl, cl))
            k += 1
        out.append(words)
    return out


def _check_words(gold: Lineages, candidate: Lineages, location) -> None:
    if len(gold) != len(candidate):
        raise MismatchedCorpusError(f"{len(gold)} words in gold, {len(candidate)} in the candidate", location)
    for k, (a, b) in enumerate(zip(gold.words, candidate.words), start=1):
        if a != b:
            raise MismatchedCorpusError(f"word {k} is {a!r} in gold but {b!r} in the candidate", location.at_token(k))


def _evalb_words(tree: Union[ConstituencyTree, DependencyTree], params: Optional[EvalbSettings]):
    """A phrase tree without the words whose part of speech is an EVALB ``DELETE_LABEL``
    (``-NONE-`` traces, punctuation in COLLINS.prm), as EVALB removes them before comparing
    words; other trees as they are."""
    if params is None or not params.delete_labels or not isinstance(tree, ConstituencyTree):
        return tree
    parent = tree.parent.tolist()
    kids = children_lists(parent)
    drop = [not kids[i] and parent[i] >= 0 and len(kids[parent[i]]) == 1
            and tree.labels[parent[i]] in params.delete_labels for i in range(len(tree))]
    return tree.without_leaves(drop) if any(drop) else tree


def leaf_ancestor_reference(
    gold: Sequence[Optional[Union[ConstituencyTree, DependencyTree]]],
    candidate: Sequence[Optional[Union[ConstituencyTree, DependencyTree]]],
    cost: CostScheme = "exact",
    evalb: Optional[EvalbSettings] = None,
    preterminals: Preterminals = "auto",
    strict: bool = False,
) -> LeafAncestorResult:
    """:func:`~.leaf_ancestor.leaf_ancestor` by the reference (pure Python), sentence by sentence: lineages
    (:mod:`~spacy_agreement.evaluation.constituency.lineage`), one call of the Levenshtein kernel for all
    words, GEIG through EVALB's reader (:func:`~spacy_agreement.evaluation.constituency.geig.bracket_counts`).
    For dependency trees, cost functions or mappings and EVALB parameters."""
    if len(gold) != len(candidate):
        raise MismatchedCorpusError(f"{len(gold)} gold sentences but {len(candidate)} candidate sentences")
    skipped: List[str] = []
    set_aside: Dict[int, str] = {}
    pairs, gold_l, cand_l, indices = [], [], [], []
    errors = failed = 0
    for k, (g, c) in enumerate(zip(gold, candidate), start=1):
        if g is None or c is None:
            where = (g or c).location if (g or c) is not None else f"sentence {k}"
            skipped.append(f"{where}: no {'gold tree' if g is None else 'parse'} (failed parse)")
            set_aside[k - 1] = skipped[-1]
            failed += 1
            continue
        try:
            g_kept, c_kept = _evalb_words(g, evalb), _evalb_words(c, evalb)
        except InvalidTreeError:  # nothing left but deleted words: EVALB's skip
            skipped.append(f"{c.location}: no word left after DELETE_LABEL")
            set_aside[k - 1] = skipped[-1]
            failed += 1
            continue
        too_large = _lineage_limit(g_kept, c_kept)
        if too_large:
            if strict:
                raise ResourceLimitError(too_large, c.location)
            skipped.append(f"{c.location}: {too_large}")
            set_aside[k - 1] = skipped[-1]
            failed += 1
            continue
        if isinstance(g, DependencyTree):
            gl, cl = dependency_lineages(g_kept), dependency_lineages(c_kept)
        else:
            gl, cl = phrase_lineages(g_kept, preterminals), phrase_lineages(c_kept, preterminals)
        try:
            _check_words(gl, cl, c.location)
        except MismatchedCorpusError as exc:
            if strict:
                raise
            skipped.append(str(exc))
            set_aside[k - 1] = skipped[-1]
            errors += 1
            continue
        pairs.append((g, c))
        indices.append(k - 1)
        gold_l.append(gl)
        cand_l.append(cl)
    words = score_lineages(gold_l, cand_l, cost)
    sentences, total = [], BracketCounts(skipped=failed, errors=errors)
    phrase = any(isinstance(t, ConstituencyTree) for t in (*gold, *candidate))
    for (g, c), w, index in zip(pairs, words, indices):
        counts = bracket_counts(g, c, evalb, preterminals) if phrase else None
        if counts is not None:
            total.add(counts)
        sentences.append(SentenceResult(w, counts, str(c.location), index))
    name = cost if isinstance(cost, str) else "custom"
    return LeafAncestorResult(sentences, total if phrase else None, name, skipped=skipped, set_aside=set_aside)


__all__ = ["CostScheme", "cost_function", "exact_cost", "first_char_cost", "leaf_ancestor_reference", "score_lineages"]
