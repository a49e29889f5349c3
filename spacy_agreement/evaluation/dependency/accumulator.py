"""One accumulator for the dependency metrics: :class:`DependencyEvaluator` takes a corpus a
sentence pair at a time (:meth:`~DependencyEvaluator.add`), a list of pairs
(:meth:`~DependencyEvaluator.add_trees`) or a block of columns
(:meth:`~DependencyEvaluator.add_block`), and gives the :class:`~.result.EvaluationResult`
(:meth:`~DependencyEvaluator.result`). Every entry point feeds it:
:func:`~.metrics.evaluate` (trees), ``sa.evaluate`` (two CoNLL-U files read a block at a time,
:mod:`.streaming`), the spaCy scorer (:class:`~spacy_agreement.integrations.spacy_scoring.TreeScores`)
and :func:`~spacy_agreement.integrations.nltk_scoring.score_nltk_trees` (through ``evaluate``).

A metric keeps two implementations: the **reference** one, its definition sentence by sentence
(:class:`~.metric_registry.Metric`'s ``count`` over a :class:`~.sentence_context.SentenceContext`),
and for the built-in metrics a **compiled** one, over the columns of many sentences at once
(:mod:`.token_metrics`), equal to the last digit. Which one counts a sentence is decided here
and only here, by :func:`compiled_path_applies`: the compiled path when every chosen metric is
a built-in one and both trees are annotated in full; the reference path for a registered metric
and for partial trees. Both add to the same counts (:class:`~.column_evaluation.CorpusCounts`),
so a corpus may go through both.

What is not counted is counted as before whichever path runs: a pair whose tokens differ is a
:class:`~spacy_agreement.errors.MismatchedCorpusError`, or skipped and listed with
``skip_mismatched``; a sentence too large for TED is left out of it and listed; partial trees
and predictions with several roots are listed. The first error (tokens that differ, an option
a sentence cannot honour) is raised by :meth:`~DependencyEvaluator.result`, after the
label-set warnings have seen every sentence, as a whole-corpus evaluation gives them.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, List, Mapping, Optional, Sequence, Tuple

from ... import _conllu
from ...errors import AgreementError, BadOptionError, Location, MismatchedCorpusError, warns_once
from ...trees import DependencyTree
from .column_evaluation import CorpusCounts, tree_batches
from .label_sets import LabelSetCheck, label_warnings
# the metrics as registered, the built-in ones included (defined and registered in .metrics)
from .metrics import Counts, _selected, get_metric, sentence_counts
from .result import EvaluationResult
from .sentence_context import SentenceContext, token_problem
from .settings import EvaluationSettings
from .token_metrics import BATCH, COMPILED_METRICS, TreeColumns


def compiled_path_applies(metrics: Sequence[str], partial: bool = False) -> bool:
    """Whether sentences are counted by the compiled path (:mod:`.token_metrics`): every
    metric in ``metrics`` is a built-in one with a compiled implementation, and no tree is
    ``partial`` (tokens not annotated, which only the reference definitions leave out of a
    metric). Otherwise the reference path counts them, sentence by sentence. The one place
    where the choice is made."""
    return not partial and all(m in COMPILED_METRICS and get_metric(m).builtin for m in metrics)


def _partial(*corpora: Sequence[DependencyTree]) -> bool:
    return any(tree.unannotated for trees in corpora for tree in trees)


class DependencyEvaluator:
    """The dependency metrics of a corpus given piece by piece (module docstring).

    ``settings`` (default :class:`EvaluationSettings` ``()``, the package's convention) say
    how tokens are compared, including ``skip_mismatched`` and ``check_forms``; ``metrics``
    chooses among the registered ones (default: all, in the table's order). ``keep_rows``
    keeps each sentence's scores (:attr:`~.result.EvaluationResult.sentences`; without it only
    their number), ``keep_counts`` each sentence's counts
    (:meth:`~.result.EvaluationResult.statistics`, for intervals and significance tests).
    Nothing else grows with the corpus. ``table`` is the string table of the columns given to
    :meth:`add_block` (a new one by default: :attr:`table`); ``batch`` the sentences of
    trees converted to columns at a time.

    >>> gold = DependencyTree.create([2, 0], ["nsubj", "root"], forms=["Dogs", "bark"])
    >>> pred = DependencyTree.create([0, 1], ["root", "nsubj"], forms=["Dogs", "bark"])
    >>> acc = DependencyEvaluator(metrics=["las", "uas"])
    >>> for g, p in [(gold, gold), (gold, pred)]:
    ...     acc.add(g, p)
    >>> acc.result().scores
    {'las': 0.5, 'uas': 0.5}
    """

    def __init__(self, settings: Optional[EvaluationSettings] = None, metrics: Optional[Sequence[str]] = None, *,
                 keep_rows: bool = True, keep_counts: bool = False, table: Optional["_conllu.StringTable"] = None,
                 batch: int = BATCH):
        self.settings = settings or EvaluationSettings()
        #: the metrics counted, in order (their names)
        self.metrics: List[str] = [m.name for m in _selected(metrics)]
        #: the string table of the columns (:meth:`add_block`)
        self.table = table if table is not None else _conllu.StringTable()
        self.batch = batch
        self._counts = CorpusCounts(self.table, self.settings, {m: get_metric(m) for m in self.metrics},
                                    keep_rows, keep_counts)
        self._pending: List[Tuple[DependencyTree, DependencyTree]] = []  # whole pairs for the compiled path
        self._label_check: Optional[Tuple[LabelSetCheck, int]] = None

    @property
    def compiled(self) -> bool:
        """Whether whole trees go through the compiled path (:func:`compiled_path_applies` of
        the metrics): blocks of columns (:meth:`add_block`) need it."""
        return compiled_path_applies(self.metrics)

    @property
    def sentences(self) -> int:
        """The sentence pairs added so far (scored, skipped or set aside)."""
        return self._counts.sentences + len(self._pending)

    # ------------------------------------------------------------------ adding

    def add(self, gold: DependencyTree, pred: DependencyTree, location: Optional[Location] = None) -> None:
        """One sentence pair; ``location`` names it in messages (default: the gold tree's, or
        ``sentence N``). Pairs for the compiled path wait until a batch is full."""
        if location is not None:
            gold, pred = replace(gold, location=location), replace(pred, location=location)
        if compiled_path_applies(self.metrics, bool(gold.unannotated or pred.unannotated)):
            self._pending.append((gold, pred))
            if len(self._pending) >= self.batch:
                self._flush()
        else:
            self._flush()
            self._add_reference(gold, pred)

    def add_trees(self, gold: Sequence[DependencyTree], pred: Sequence[DependencyTree]) -> None:
        """Pairs of trees, gold and prediction in the same order (one path for them all)."""
        if len(gold) != len(pred):
            source = lambda trees: trees[0].location.source if len(trees) else "<empty>"  # noqa: E731
            raise MismatchedCorpusError(
                f"{len(gold)} gold sentences ({source(gold)}) but {len(pred)} predicted ({source(pred)})")
        self._flush()
        if compiled_path_applies(self.metrics, _partial(gold, pred)):
            check_forms = self.settings.check_forms
            for batch in tree_batches(gold, pred, self.table, lambda g, p: token_problem(g, p, check_forms),
                                      size=self.batch):
                self._counts.add_block(*batch)
        else:
            for g, p in zip(gold, pred):
                self._add_reference(g, p)

    def add_block(self, gold: TreeColumns, pred: TreeColumns, problems: Optional[Mapping[int, str]] = None) -> None:
        """A block of sentences as columns (:class:`~spacy_agreement.adapters.conllu.trees.TreeColumns`
        coded in :attr:`table`, the same number of sentences on both sides), counted by the
        compiled path; ``problems``: why sentence ``s`` of the block has other tokens on the two
        sides (:func:`~.streaming.column_problems`), for each such sentence."""
        if not self.compiled:
            raise BadOptionError(f"a registered metric ({', '.join(m for m in self.metrics if not get_metric(m).builtin)})"
                                 " is counted sentence by sentence: add trees (add, add_trees), not columns")
        self._flush()
        self._counts.add_block(gold, pred, problems or {})

    def _flush(self) -> None:
        if self._pending:
            pending, self._pending = self._pending, []
            check_forms = self.settings.check_forms
            golds, preds = [g for g, _ in pending], [p for _, p in pending]
            del pending
            for batch in tree_batches(golds, preds, self.table, lambda g, p: token_problem(g, p, check_forms),
                                      size=self.batch):
                self._counts.add_block(*batch)

    def _add_reference(self, gold: DependencyTree, pred: DependencyTree) -> None:
        """One pair through the reference path: each metric's ``count`` over its context."""
        counts, options = self._counts, self.settings
        problem = token_problem(gold, pred, options.check_forms)
        if problem is not None:
            counts.mismatch(gold.location, problem)
            return
        pair = (options.normalise(gold), options.normalise(pred, predicted=True))  # labels as compared
        counts.labels.add_pair(pair[0].deprels, pair[1].deprels)
        if counts.failure is None:
            try:
                ctx = SentenceContext(gold, pred, options, compared=pair)
                values = sentence_counts(gold, pred, options, self.metrics, ctx).values
            except AgreementError as error:  # raised with the result, after the label check
                counts.fail(error)
            else:
                counts.add_sentence(gold, pred, ctx, values)
                return
        counts.sentences += 1

    # ------------------------------------------------------------------ the result

    @warns_once
    def result(self, stacklevel: int = 1, warn: bool = True) -> EvaluationResult:
        """The :class:`~.result.EvaluationResult` of everything added so far. First the label-set
        warnings (:func:`~.label_sets.label_warnings`, pointing ``stacklevel`` frames above the
        caller: 1 is the caller), then the first error met, if any, is raised; an undefined
        corpus score is ``nan`` with one :class:`~spacy_agreement.errors.UndefinedMetricWarning`
        for the call. ``warn=False`` gives neither warning (:meth:`label_warnings` gives the
        label-set ones later). More may be added afterwards."""
        self._flush()
        self._label_check = self._counts.check()
        if warn:
            label_warnings(*self._label_check, stacklevel=stacklevel + 3)
        fields = self._counts.fields(self._label_check[0])
        total = Counts(fields.pop("counts"))
        return EvaluationResult(total.scores(warn), counts=total, **fields)

    def label_warnings(self, stacklevel: int = 1) -> None:
        """The label-set warnings of the last :meth:`result` (for a caller that gives its own
        warnings first, as the spaCy scorer does), pointing ``stacklevel`` frames above the
        caller (1: the caller)."""
        if self._label_check is not None:
            label_warnings(*self._label_check, stacklevel=stacklevel + 2)


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
    """Every metric of :data:`~.metric_registry.PARSER_METRICS` (or those named in ``metrics``)
    for a corpus of gold and predicted trees: a :class:`DependencyEvaluator` fed the two lists.
    ``check_forms=False`` compares only the number of tokens (for a parser that rewrote forms,
    e.g. numbers as ``<num>``; the form punctuation rule reads the gold forms). An undefined
    corpus score is ``nan``, and one :class:`~spacy_agreement.errors.UndefinedMetricWarning`
    names every undefined score of the call; per-sentence rows hold ``nan`` without a warning
    (:mod:`.metrics`).

    This is the evaluation of trees as 0.2 defined it: ``options`` default to
    :class:`EvaluationSettings` ``()``, the package's convention (``conv:package``: subtypes
    kept, the root case folded), which its signature names. ``spacy-agreement evaluate`` and
    :func:`spacy_agreement.evaluate` (files or trees, conll18's convention by default, the
    character alignment for other tokens) are the command. ``options`` are the settings (their
    ``skip_mismatched`` and ``check_forms`` unless given here) and go into the result, whose
    ``signature`` says how its numbers were computed. ``keep_counts=True`` keeps each
    sentence's counts (:meth:`~.result.EvaluationResult.statistics`, for intervals and
    significance tests)."""
    options = options or EvaluationSettings()
    if skip_mismatched is not None or check_forms is not None:
        options = replace(options, **{k: v for k, v in (("skip_mismatched", skip_mismatched),
                                                        ("check_forms", check_forms)) if v is not None})
    accumulator = DependencyEvaluator(options, metrics, keep_counts=keep_counts)
    accumulator.add_trees(gold, pred)
    return accumulator.result(stacklevel=3)  # the label-set warnings point at the caller of evaluate


def evaluate_columns(batches: Any, table: Any, options: EvaluationSettings, chosen: Sequence[str],
                     keep_counts: bool = False, stacklevel: int = 5) -> EvaluationResult:
    """:func:`evaluate` of a corpus given in blocks of columns
    (:data:`~.column_evaluation.Batch`, coded in ``table``), all counted by the compiled path;
    the label-set warnings point ``stacklevel`` frames up (5: the caller of this function, as
    before)."""
    accumulator = DependencyEvaluator(options, chosen, keep_counts=keep_counts, table=table)
    for block in batches:
        accumulator.add_block(*block)
    return accumulator.result(stacklevel=stacklevel - 3)


__all__ = ["DependencyEvaluator", "compiled_path_applies", "evaluate", "evaluate_columns"]
