"""What an evaluation keeps while the corpus goes by (:class:`CorpusCounts`), and the compiled
path that counts a block of sentences as arrays (:meth:`CorpusCounts.add_block`,
:mod:`.token_metrics`). :class:`~.accumulator.DependencyEvaluator` feeds it, through this
path or sentence by sentence through the reference definitions (:mod:`.metrics`), and the
figures are the same bit for bit (tests/evaluation/test_column_evaluation.py compares the two
on generated trees).

What is kept: each metric's numerator and denominator summed so far (left to right:
:func:`~spacy_agreement._conllu.running_sum` carried from block to block, a Python ``+=`` for
a sentence counted by the reference path, so the sums of the whole, bit for bit), label counts
(one integer per distinct label or label pair), and the lists of sentences skipped, with several
roots or over the limits (the JSON output lists them all: one line per such sentence, none for
the others). Each metric's counts per sentence (a float array, sentences × metrics: the
per-sentence rows of :attr:`~.result.EvaluationResult.sentences`) are kept only with
``keep_rows`` or ``keep_counts`` (the intervals resample them; each sentence's name kept packed,
:class:`PackedLabels`); without either, nothing per sentence is kept and memory does not grow
with the corpus (the streamed ``evaluate`` of :mod:`.streaming`, the spaCy scorer). No Python
object per token outlives its block.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ... import _conllu
from ...errors import BadOptionError, Location, MismatchedCorpusError
from .label_sets import LabelSetCheck, LabelTable, root_case_tokens
from .settings import EvaluationSettings
from .token_metrics import BatchCounts, CodeProperties, SentenceScores, TreeColumns, batch_counts, form_rule_problem
from .ud_labels import UDScores

#: one batch: gold and predicted columns (all sentences of the batch) and the token problem of
#: each sentence whose tokens differ (index in the batch, message), ``None`` for the others
Batch = Tuple[TreeColumns, TreeColumns, Dict[int, str]]


def where(location: Any, number: int) -> str:
    """A sentence as messages name it: its location, or ``sentence N`` (1-based) without one."""
    return str(location) if location.sentence is not None else f"sentence {number}"


class _Labels:
    """Label counts: by code for blocks of columns, by string for the sentences counted one by
    one; merged when asked for."""

    def __init__(self) -> None:
        self.gold: Counter = Counter()
        self.predicted: Counter = Counter()
        self.correct: Counter = Counter()
        self.check_gold: Counter = Counter()
        self.check_predicted: set = set()
        self.check_pairs: Counter = Counter()
        self.root_case = 0
        self.scored = LabelTable()  # the reference path's, by string
        self.pair_gold: Counter = Counter()
        self.pair_predicted: set = set()
        self.pair_pairs: Counter = Counter()

    def add(self, counts: BatchCounts, props: CodeProperties) -> None:
        g, p, right = counts.label_codes
        self.gold.update(dict(zip(*_unique(g))))
        self.predicted.update(dict(zip(*_unique(p))))
        self.correct.update(dict(zip(*_unique(g[right]))))

    def add_check(self, g: np.ndarray, p: np.ndarray, props: CodeProperties) -> None:
        self.check_gold.update(dict(zip(*_unique(g))))
        self.check_predicted.update(_unique(p)[0])
        pair = g.astype(np.int64) << 32 | p.astype(np.int64)
        self.check_pairs.update(dict(zip(*_unique(pair))))
        rootish = props["rootish"]
        self.root_case += int(np.count_nonzero((g != p) & rootish[g] & rootish[p]))

    def add_pair(self, gold: Sequence[str], predicted: Sequence[str]) -> None:
        """The labels (as compared) of one sentence counted by the reference path."""
        self.pair_gold.update(gold)
        self.pair_predicted.update(predicted)
        self.pair_pairs.update(zip(gold, predicted))
        self.root_case += root_case_tokens([(gold, predicted)])

    def table(self, strings: List[str]) -> LabelTable:
        def named(counts: Counter, more: Counter) -> Counter:
            out = Counter({strings[c]: n for c, n in counts.items() if n})
            out.update(more)
            return out
        return LabelTable(named(self.gold, self.scored.gold), named(self.predicted, self.scored.predicted),
                          named(self.correct, self.scored.correct))

    def check(self, strings: List[str]) -> LabelSetCheck:
        """:func:`~.label_sets.check_label_sets` from the counts."""
        gold = Counter({strings[c]: n for c, n in self.check_gold.items()})
        gold.update(self.pair_gold)
        predicted = {strings[c] for c in self.check_predicted} | self.pair_predicted
        pairs = Counter({(strings[k >> 32], strings[k & 0xFFFFFFFF]): n for k, n in self.check_pairs.items()})
        pairs.update(self.pair_pairs)
        unseen = {label: n for label, n in gold.items() if label not in predicted}
        check = LabelSetCheck(sum(gold.values()), sum(unseen.values()))
        check.unseen_labels = sorted(unseen.items(), key=lambda x: (-x[1], x[0]))
        check.pairs = sorted(((g, p, n) for (g, p), n in pairs.items() if g in unseen),
                             key=lambda x: (-x[2], x[0], x[1]))
        return check


def _unique(values: np.ndarray) -> Tuple[List[int], List[int]]:
    codes, counts = np.unique(values, return_counts=True)
    return codes.tolist(), counts.tolist()


class CorpusCounts:
    """The counts of one evaluation so far (module docstring): ``metrics`` (name →
    :class:`~.metric_registry.Metric`) in order, text values coded in ``table``. The compiled
    path adds a block (:meth:`add_block`); the reference path adds a sentence's labels
    (``labels.add_pair``), then the sentence (:meth:`add_sentence`) or what stops it
    (:meth:`mismatch`, :meth:`fail`). The first failure (tokens that differ without
    ``skip_mismatched``, an option a sentence cannot honour) is kept and raised by
    :meth:`fields`, after the label check has seen every sentence."""

    def __init__(self, table: "_conllu.StringTable", options: EvaluationSettings, metrics: Dict[str, Any],
                 keep_rows: bool = True, keep_counts: bool = False):
        self.table, self.options, self.metrics = table, options, metrics
        self.chosen = list(metrics)
        self.keep_rows, self.keep_counts = keep_rows or keep_counts, keep_counts
        self.props = CodeProperties(table, options)
        self.labels = _Labels()
        width = len(self.chosen)
        self.num_sums, self.den_sums = [0.0] * width, [0.0] * width
        self._chunks: List[Tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # units, numerators, denominators
        self._rows: List[Tuple[int, List[float], List[float]]] = []  # the reference path's, not yet in a chunk
        self.where_of = PackedLabels()
        self.sentences = 0  # pairs seen: the next is sentence number sentences + 1
        self.scored = 0
        self.skipped: List[str] = []
        self.set_aside: Dict[int, str] = {}
        self.multi_root: List[str] = []
        self.over_limits: List[str] = []
        self.partial: List[str] = []
        self.ud = np.zeros(5, dtype=np.int64)
        self.tokens = self.verbs = self.unannotated = 0
        self.failure: Optional[Exception] = None
        self._with_ud = any(m in ("clas", "mlas", "blex") for m in self.chosen)
        #: the last block's tree edit distances (still computed beside the next block's work), its
        #: sums and its sentences over the limits: added before anything else is counted or read
        self._unfinished: Optional[Callable[[], None]] = None

    def _finish(self) -> None:
        """The last block's tree edit distances, sums and sentences over the limits in."""
        if self._unfinished is not None:
            done, self._unfinished = self._unfinished, None
            done()

    def fail(self, error: Exception) -> None:
        """Keep the first failure."""
        if self.failure is None:
            self.failure = error

    def mismatch(self, location: Location, problem: str) -> None:
        """A sentence whose tokens differ (the reference path): skipped and listed with
        ``skip_mismatched``, else the failure."""
        if self.options.skip_mismatched:
            self.skipped.append(f"{location}: {problem}")
            self.set_aside[self.sentences] = self.skipped[-1]
        else:
            self.fail(MismatchedCorpusError(f"gold and prediction differ in tokens: {problem}", location))
        self.sentences += 1

    def add_sentence(self, gold: Any, pred: Any, ctx: Any, values: Dict[str, List[float]]) -> None:
        """One sentence counted by the reference path: its trees, its
        :class:`~.sentence_context.SentenceContext` and its counts (``Counts.values``), summed
        left to right."""
        self._finish()
        number = self.sentences + 1
        numerators = [values[m][0] for m in self.chosen]
        denominators = [values[m][1] for m in self.chosen]
        for k in range(len(self.chosen)):
            self.num_sums[k] += numerators[k]
            self.den_sums[k] += denominators[k]
        if self.keep_rows:
            self._rows.append((self.sentences, numerators, denominators))
        if self.keep_counts:
            self.where_of.add(self.sentences, where(gold.location, number))
        self.scored += 1
        scored, tokens = self.labels.scored, ctx.tokens  # LabelTable.add of each scored token, at once
        gold_labels, pred_labels, head_ok, label_ok = ctx.gold_labels, ctx.pred_labels, ctx.head_ok, ctx.label_ok
        scored.gold.update([gold_labels[k] for k in tokens])
        scored.predicted.update([pred_labels[k] for k in tokens])
        scored.correct.update([gold_labels[k] for k in tokens if head_ok[k] and label_ok[k]])
        self.over_limits.extend(f"{where(gold.location, number)}: {note}" for note in ctx.limits)
        pred_roots = ctx.pred_heads.count(0) - len(pred.unannotated)  # an unannotated token is no root
        if pred_roots > 1 and ctx.gold_heads.count(0) - len(gold.unannotated) == 1:
            self.multi_root.append(f"{where(pred.location, number)}: {pred_roots} roots in the prediction, 1 in the gold")
        if ctx.partial:
            self.partial.append(f"{where(gold.location, number)}: {len(gold.unannotated)} gold and "
                                f"{len(pred.unannotated)} predicted token(s) not annotated (left out of the "
                                "whole-tree metrics)")
            self.unannotated += ctx.unannotated
        self.tokens += len(ctx.tokens)
        self.verbs += len(ctx.verbs) if not ctx.partial else 0
        if self._with_ud:
            ud = ctx.ud
            self.ud += (ud.gold, ud.system, ud.clas_correct, ud.mlas_correct, ud.blex_correct)
        self.sentences += 1

    def _flush_rows(self) -> None:
        if self._rows:
            units = np.asarray([u for u, _, _ in self._rows], dtype=np.int64)
            width = len(self.chosen)
            num = np.asarray([n for _, n, _ in self._rows], dtype=float).reshape(len(units), width)
            den = np.asarray([d for _, _, d in self._rows], dtype=float).reshape(len(units), width)
            self._chunks.append((units, num, den))
            self._rows = []

    def add_block(self, gold: TreeColumns, pred: TreeColumns, problems: Mapping[int, str]) -> None:
        """A block of sentences counted by the compiled path (:func:`~.token_metrics.batch_counts`;
        its tree edit distances come in when the next block, sentence or :meth:`fields` does)."""
        self._finish()
        self._flush_rows()
        props, options, base = self.props, self.options, self.sentences
        props.update()
        n = len(gold)
        self.sentences += n
        good = np.asarray([s for s in range(n) if s not in problems], dtype=np.int64)
        if len(good) < n:
            g_cols, p_cols = gold.select(good), pred.select(good)
        else:
            g_cols, p_cols = gold, pred
        self.labels.add_check(props["compared_gold"][g_cols.deprel], props["compared_pred"][p_cols.deprel], props)
        if self.failure is not None:
            return
        for s in sorted(problems):
            if not options.skip_mismatched:
                self.failure = MismatchedCorpusError(f"gold and prediction differ in tokens: {problems[s]}",
                                                     gold.where(s))
                break
        bad_forms = form_rule_problem(g_cols, props)
        if bad_forms is not None:
            location = g_cols.where(bad_forms)
            problem = BadOptionError(f"{location}: the 'form' punctuation rule needs word forms, and this sentence "
                                     "has none")
            if self.failure is None or int(good[bad_forms]) < _first(problems):
                self.failure = problem
        if self.failure is not None:
            return
        for s in sorted(problems):
            self.skipped.append(f"{gold.where(s)}: {problems[s]}")
            self.set_aside[base + s] = self.skipped[-1]
        counts = batch_counts(g_cols, p_cols, props, self.chosen, later=True)
        self.labels.add(counts, props)
        self.scored += len(good)
        if self.keep_rows:
            self._chunks.append((base + good, counts.numerators, counts.denominators))
        self.tokens += counts.tokens
        self.verbs += counts.verbs
        self.ud += counts.ud
        for s in counts.multi_root:
            number = base + int(good[s]) + 1
            pred_roots = int(np.count_nonzero(p_cols.heads[p_cols.offsets[s]:p_cols.offsets[s + 1]] == 0))
            self.multi_root.append(f"{where(p_cols.where(s), number)}: {pred_roots} roots in the prediction, "
                                   "1 in the gold")

        def finish() -> None:  # the tree edit distances in, then the block's sums and sentences over the limits
            counts.finish()
            for k in range(len(self.chosen)):
                self.num_sums[k] = _conllu.running_sum(np.ascontiguousarray(counts.numerators[:, k]), self.num_sums[k])
                self.den_sums[k] = _conllu.running_sum(np.ascontiguousarray(counts.denominators[:, k]),
                                                       self.den_sums[k])
            for s, note in counts.limits:
                self.over_limits.append(f"{where(g_cols.where(s), base + int(good[s]) + 1)}: {note}")

        self._unfinished = finish
        if self.keep_counts:
            for s in range(len(good)):
                self.where_of.add(base + int(good[s]), where(g_cols.where(s), base + int(good[s]) + 1))

    def check(self) -> Tuple[LabelSetCheck, int]:
        """The label-set check of every sentence so far, and the tokens whose root relation
        differs only by its case (what :func:`~.label_sets.label_warnings` warns about)."""
        return self.labels.check(self.table.strings), self.labels.root_case

    def fields(self, check: LabelSetCheck) -> Dict[str, Any]:
        """The fields of an :class:`~.result.EvaluationResult` (``counts`` as a dict of summed
        (numerator, denominator)); raises the first failure. Without rows kept, ``sentences``
        is a :class:`SentenceCount` (how many were scored)."""
        self._finish()
        if self.failure is not None:
            raise self.failure
        self._flush_rows()
        chosen = self.chosen
        width = len(chosen)
        num = np.concatenate([c[1] for c in self._chunks]) if self._chunks else np.zeros((0, width))
        den = np.concatenate([c[2] for c in self._chunks]) if self._chunks else np.zeros((0, width))
        rows: Sequence[Dict[str, float]] = SentenceCount(self.scored)
        if self.keep_rows:
            metrics = self.metrics  # what the rows keep: not these counts
            rows = SentenceScores(chosen, num, den, lambda m, a, b: metrics[m].value(a, b, warn=False))
        statistics = None
        if self.keep_counts:
            from .result import dependency_statistics

            units = np.concatenate([c[0] for c in self._chunks]) if self._chunks else np.zeros(0, np.int64)
            statistics = dependency_statistics(units, num, den, [self.metrics[m] for m in chosen], self.where_of,
                                               self.set_aside)
        return dict(sentences=rows, counts={m: [self.num_sums[k], self.den_sums[k]] for k, m in enumerate(chosen)},
                    skipped=self.skipped, ud=UDScores(*(int(x) for x in self.ud)), tokens=self.tokens,
                    verbs=self.verbs, labels=self.labels.table(self.table.strings), label_check=check,
                    multi_root=self.multi_root, over_limits=self.over_limits, partial=self.partial,
                    tokens_unannotated=self.unannotated, settings=self.options, unit_counts=statistics)


def evaluate_batches(batches: Iterable[Batch], table: "_conllu.StringTable", options: EvaluationSettings,
                     metrics: Dict[str, Any], keep_counts: bool = False,
                     label_warnings: Optional[Callable[[LabelSetCheck, int], None]] = None,
                     result: Callable[..., Any] = dict, keep_rows: bool = True) -> Any:
    """A corpus given in blocks of columns (:data:`Batch`) counted by the compiled path alone,
    ``metrics`` (name → :class:`~.metric_registry.Metric`, all built-in) in order:
    ``result(**fields)`` of the fields of :class:`~.result.EvaluationResult` (``counts`` as a
    dict of summed (numerator, denominator)), ``label_warnings(check, root_case)`` called
    before a failure is raised. :class:`~.accumulator.DependencyEvaluator` is the entry point
    that chooses the path; this is what it does with blocks. ``batches`` may be a generator
    that reads the files as it goes: an exception it raises comes out of here unchanged."""
    counts = CorpusCounts(table, options, metrics, keep_rows, keep_counts)
    for gold, pred, problems in batches:
        counts.add_block(gold, pred, problems)
    check, root_case = counts.check()
    if label_warnings is not None:
        label_warnings(check, root_case)
    return result(**counts.fields(check))


class SentenceCount(Sequence):
    """The per-sentence rows of an evaluation that kept none (``keep_rows=False``): how many
    sentences were scored, and nothing else (an item is an error saying so)."""

    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index: Any) -> Any:
        raise IndexError("the per-sentence scores were not kept (a streamed evaluation keeps only the corpus "
                         "counts): evaluate with keep_rows=True")

    def __repr__(self) -> str:
        return f"SentenceCount({self.n} sentences, rows not kept)"


class PackedLabels(Mapping):
    """Sentence number → its name in messages (``file:line (sent_id ...)``), packed: the names
    as UTF-8 in one growing byte buffer, their keys and ends in numpy arrays (a few dozen bytes
    a sentence, no Python object per sentence). Keys are added in increasing order."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._keys = np.zeros(1024, dtype=np.int64)
        self._ends = np.zeros(1025, dtype=np.int64)
        self._n = 0

    def add(self, key: int, label: str) -> None:
        if self._n == len(self._keys):
            self._keys = np.resize(self._keys, 2 * self._n)
            self._ends = np.resize(self._ends, 2 * self._n + 1)
        self._data += label.encode("utf-8")
        self._keys[self._n] = key
        self._ends[self._n + 1] = len(self._data)
        self._n += 1

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[int]:
        return iter(self._keys[:self._n].tolist())

    def __getitem__(self, key: object) -> str:
        at = int(np.searchsorted(self._keys[:self._n], key)) if isinstance(key, (int, np.integer)) else self._n
        if at == self._n or self._keys[at] != key:
            raise KeyError(key)
        return self._data[self._ends[at]:self._ends[at + 1]].decode("utf-8")


def _first(problems: Dict[int, str]) -> int:
    return min(problems) if problems else 1 << 62


def tree_batches(gold: Sequence[Any], pred: Sequence[Any], table: "_conllu.StringTable",
                 problem: Callable[[Any, Any], Optional[str]], size: int = 4096) -> Iterable[Batch]:
    """Batches of :class:`~spacy_agreement.trees.DependencyTree` pairs as columns."""
    from .token_metrics import columns_from_trees

    for start in range(0, len(gold), size):
        g, p = gold[start:start + size], pred[start:start + size]
        problems = {}
        for k, (a, b) in enumerate(zip(g, p)):
            found = problem(a, b)
            if found is not None:
                problems[k] = found
        if problems:  # the sentences whose tokens differ take no part: leave them out of the columns
            keep = [k for k in range(len(g)) if k not in problems]
            g_cols = columns_from_trees([g[k] for k in keep], table)
            p_cols = columns_from_trees([p[k] for k in keep], table)
            yield _expand(g_cols, keep, len(g), g), _expand(p_cols, keep, len(g), p), problems
        else:
            yield columns_from_trees(g, table), columns_from_trees(p, table), problems


def _expand(columns: TreeColumns, keep: List[int], n: int, trees: Sequence[Any]) -> TreeColumns:
    """Columns of ``n`` sentences from those of the ``keep`` ones (the others empty)."""
    lengths = np.zeros(n, dtype=np.int64)
    lengths[keep] = columns.lengths
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return TreeColumns(offsets, columns.heads, columns.form, columns.upos, columns.deprel, columns.lemma,
                       columns.feats, lambda s: trees[s].location)
