"""The leaf-ancestor metric (Sampson & Babarczy 2003) with error location.

Each terminal element is scored by how similar its candidate lineage c is to its gold
lineage g (:mod:`spacy_agreement.evaluation.constituency.lineage`):

    score = 1 − Lv(c, g) / (len(c) + len(g))                         (§4)

where Lv is a weighted Levenshtein distance: inserting or deleting a symbol costs 1,
replacing label a by label b costs cost(a, b) in [0, 2] (2 = "entirely different", as a
delete plus an insert). Cost schemes:

* ``"exact"``: 0 for equal symbols, 2 otherwise (the Parseval-style default);
* ``"first-char"``: 0.5 when two different labels share their first character, as in the
  paper's experiment (NP for N1), 2 otherwise;
* any function ``cost(a, b)`` or mapping ``{(a, b): cost}`` (other pairs: exact).

Boundary markers are symbols like the labels: replacing ``[`` by a label costs 2 in both
built-in schemes. The cost function is turned into one dense matrix over the symbol ids
before the Cython kernel runs.

Scores: per word; per sentence, the mean of its words (§2); per corpus both the mean over
sentences (``leaf_ancestor``) and the mean over all words (``leaf_ancestor_words``); ``la`` and
``la_words`` are the 0.1 names, kept as attribute aliases (in output keys ``la`` is label
accuracy, a parser metric). A score over no word or no sentence (every sentence skipped) is
``nan`` with an :class:`~spacy_agreement.errors.UndefinedMetricWarning`, and so is GEIG with no bracket to
compare (EVALB prints ``-nan``). Lineages are kept with the
scores, so errors can be shown where they are (§7): the worst words and stretches of a
sentence, and across a corpus the gold configurations (labels and lineage n-grams) most
often found with low word scores.

The two implementations, the same numbers: the *compiled* loops
(:mod:`.leaf_ancestor_compiled`, phrase trees with the built-in costs, files streamed) and the
*reference* in Python (:mod:`.leaf_ancestor_reference`, everything else, and what the compiled
loops are tested against). Both are reached through the family's accumulator,
:class:`~.leaf_ancestor_accumulator.LeafAncestorEvaluator` (pairs, batches or files in, a
:class:`~.leaf_ancestor_result.LeafAncestorResult` out, whose
:meth:`~.leaf_ancestor_result.LeafAncestorResult.statistics` are its counts per sentence), which
:func:`leaf_ancestor` and :func:`leaf_ancestor_files` call. This module re-exports every public
name of those.
"""
from __future__ import annotations

import os
from typing import Optional, Sequence, Union

from ...errors import MismatchedCorpusError
from ...report.format import percent
from ...trees import ConstituencyTree, DependencyTree
from .geig import EvalbSettings
from .leaf_ancestor_accumulator import LeafAncestorEvaluator
from .leaf_ancestor_reference import (CostScheme, cost_function, exact_cost, first_char_cost,  # noqa: F401
                                      leaf_ancestor_reference, score_lineages)
from .leaf_ancestor_result import STATISTICS, LeafAncestorResult  # noqa: F401
from .leaf_ancestor_words import SentenceResult, WordScore  # noqa: F401  (re-exported)
from .lineage import Preterminals

leaf_ancestor_python = leaf_ancestor_reference  # the old name


def leaf_ancestor(
    gold: Sequence[Optional[Union[ConstituencyTree, DependencyTree]]],
    candidate: Sequence[Optional[Union[ConstituencyTree, DependencyTree]]],
    cost: CostScheme = "exact",
    evalb: Optional[EvalbSettings] = None,
    preterminals: Preterminals = "auto",
    strict: bool = False,
) -> LeafAncestorResult:
    """Leaf-ancestor scores (and GEIG for phrase trees) of parallel gold and candidate trees.

    Phrase trees must be read with their words as leaves (``leaves="categories"``). With
    EVALB parameters (``evalb``), GEIG is counted by EVALB's rules and the words whose part
    of speech is a ``DELETE_LABEL`` (traces, punctuation) are left out of the lineages too,
    so a gold file with ``-NONE-`` traces can be scored against parses without them.

    Different sentence counts raise :class:`~spacy_agreement.errors.MismatchedCorpusError`.
    Sentences are scored one by one, as EVALB does: a sentence whose words differ (after the
    deletions) is an error sentence and one without a tree on a side (``None``, a failed
    parse: ``read_brackets(..., missing=True)``) a skip; both are left out, listed in
    ``skipped`` and counted in GEIG's ``errors`` and ``skipped``. ``strict=True`` raises
    :class:`~spacy_agreement.errors.MismatchedCorpusError` on the first sentence whose words
    differ, naming the sentence and position. A sentence too deep to score (a chain of
    100,000 tokens: 5·10⁹ lineage labels) is skipped with the reason, or with ``strict``
    a :class:`~spacy_agreement.errors.ResourceLimitError` (:mod:`spacy_agreement.limits`).

    Phrase trees with the built-in costs and without EVALB parameters go through the
    compiled loops (:mod:`~spacy_agreement.evaluation.constituency.leaf_ancestor_compiled`), which keep only
    counts and sums (the sentences word by word are scored again when asked for); dependency
    trees, cost functions and EVALB parameters through the reference
    (:func:`~.leaf_ancestor_reference.leaf_ancestor_reference`). Same numbers. Both through the
    family's accumulator, :class:`~.leaf_ancestor_accumulator.LeafAncestorEvaluator`.
    """
    if len(gold) != len(candidate):
        raise MismatchedCorpusError(f"{len(gold)} gold sentences but {len(candidate)} candidate sentences")
    evaluator = LeafAncestorEvaluator(cost, evalb, preterminals, strict)
    evaluator.add_trees(gold, candidate)
    return evaluator.result()


def leaf_ancestor_files(gold: Union[str, "os.PathLike[str]"], candidate: Union[str, "os.PathLike[str]"],
                        cost: CostScheme = "exact", evalb: Optional[EvalbSettings] = None,
                        preterminals: Preterminals = "auto", strict: bool = False, keep_worst: int = 10,
                        keep_rows: bool = False, keep_skipped: Optional[int] = None, sink=None
                        ) -> LeafAncestorResult:
    """:func:`leaf_ancestor` of two bracket files (one tree a line, or trees spread over
    lines; a blank line or ``()`` is a failed parse), read as
    ``read_brackets(path, leaves="categories", missing=True)`` and
    :func:`~spacy_agreement.adapters.brackets.trim_trailing_failures` read them.

    With the built-in costs and no EVALB parameters the files are streamed through the
    compiled reader in memory that does not grow with the corpus
    (:mod:`~spacy_agreement.evaluation.constituency.leaf_ancestor_compiled` says what is kept): the
    ``keep_worst`` lowest-scoring sentences' places, to show them word by word; per-sentence
    arrays (:meth:`~.leaf_ancestor_result.LeafAncestorResult.sentence_arrays`, for bootstrap intervals) only with
    ``keep_rows``; the first ``keep_skipped`` reasons for skipping a sentence (all without it,
    and only then ``set_aside``). ``sink.add(sentence)`` gets every scored sentence word by
    word, in order, as it is scored (``sink.reset()`` first forgets those given, where the
    compiled reader leaves a file to the Python reader after all).

    Otherwise (or for a file the compiled reader leaves to the Python reader: a malformed one
    gets its error naming file, line and token) the trees are read whole. Through the family's
    accumulator, :meth:`~.leaf_ancestor_accumulator.LeafAncestorEvaluator.add_files`."""
    evaluator = LeafAncestorEvaluator(cost, evalb, preterminals, strict, keep_worst, keep_rows, keep_skipped, sink)
    evaluator.add_files(gold, candidate)
    return evaluator.result()


def format_sentence(sentence: SentenceResult) -> str:
    """A per-word display like the paper's tables under a header naming the columns: score,
    word, gold lineage : candidate lineage; then the sentence's scores (in %)."""
    width = max((len(w.word) for w in sentence.words), default=4) + 2
    lines = [f"{'score %':<9}{'word':<{width}} gold lineage : candidate lineage"]
    lines += [f"{percent(w.score, width=6)}   {w.word:<{width}} {' '.join(w.gold_lineage)} : {' '.join(w.candidate_lineage)}"
              for w in sentence.words]
    summary = f"leaf-ancestor {percent(sentence.leaf_ancestor, sign=True)}"
    geig = sentence.geig()
    if geig:
        summary += (f"   GEIG unlabelled {percent(geig['geig_unlabelled'], sign=True)}   "
                    f"labelled {percent(geig['geig_labelled'], sign=True)}")
    return "\n".join(lines + [summary])
