"""The fast path of :func:`~spacy_agreement.evaluation.dependency.metrics.evaluate`: the corpus
in batches of sentences as arrays (:mod:`.token_metrics`), counts accumulated batch by batch.

What is kept while the corpus goes by: each metric's numerator and denominator summed so
far (left to right, :func:`~spacy_agreement._conllu.running_sum` carried from batch to batch:
the sums of the whole, bit for bit), label counts (one integer per distinct label or label
pair), and the lists of sentences skipped, with several roots or over the limits (the JSON
output lists them all: one line per such sentence, none for the others). Each metric's counts
per sentence (a float array, sentences × metrics: the per-sentence rows of
:attr:`~.parser_metrics.EvaluationResult.sentences`) are kept only with ``keep_rows`` (the
default: :func:`~.parser_metrics.evaluate` returns the rows) or ``keep_counts`` (the
intervals resample them; each sentence's name kept packed, :class:`PackedLabels`); without
either, nothing per sentence is kept and memory does not grow with the corpus (the streamed
``evaluate`` of :mod:`.streaming`). No Python object per token outlives its batch. The figures are those of the per-sentence path, bit for bit
(tests/evaluation/test_column_evaluation.py compares the two on generated trees).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ... import _conllu
from ...errors import BadOptionError, MismatchedCorpusError
from .label_sets import LabelSetCheck, LabelTable
from .settings import EvaluationSettings
from .token_metrics import (BatchCounts, CodeProperties, SentenceScores, TreeColumns, batch_counts,
                            form_rule_problem)
from .ud_labels import UDScores

#: one batch: gold and predicted columns (all sentences of the batch) and the token problem of
#: each sentence whose tokens differ (index in the batch, message), ``None`` for the others
Batch = Tuple[TreeColumns, TreeColumns, Dict[int, str]]


def _where(location: Any, number: int) -> str:
    return str(location) if location.sentence is not None else f"sentence {number}"


class _Labels:
    """Label counts by code, summed over batches."""

    def __init__(self) -> None:
        self.gold: Counter = Counter()
        self.predicted: Counter = Counter()
        self.correct: Counter = Counter()
        self.check_gold: Counter = Counter()
        self.check_predicted: set = set()
        self.check_pairs: Counter = Counter()
        self.root_case = 0

    def add(self, counts: BatchCounts, props: CodeProperties) -> None:
        g, p, right = counts.label_codes
        self.gold.update(dict(zip(*_unique(g))))
        self.predicted.update(dict(zip(*_unique(p))))
        self.correct.update(dict(zip(*_unique(g[right]))))

    def add_check(self, g: np.ndarray, p: np.ndarray, props: CodeProperties) -> None:
        self.check_gold.update(dict(zip(*_unique(g))))
        self.check_predicted.update(np.unique(p).tolist())
        pair = g.astype(np.int64) << 32 | p.astype(np.int64)
        self.check_pairs.update(dict(zip(*_unique(pair))))
        rootish = props["rootish"]
        self.root_case += int(np.count_nonzero((g != p) & rootish[g] & rootish[p]))

    def table(self, strings: List[str]) -> LabelTable:
        def named(counts: Counter) -> Counter:
            return Counter({strings[c]: n for c, n in counts.items() if n})
        return LabelTable(named(self.gold), named(self.predicted), named(self.correct))

    def check(self, strings: List[str]) -> LabelSetCheck:
        """:func:`~.label_sets.check_label_sets` from the counts."""
        gold = {strings[c]: n for c, n in self.check_gold.items()}
        predicted = {strings[c] for c in self.check_predicted}
        unseen = {label: n for label, n in gold.items() if label not in predicted}
        check = LabelSetCheck(sum(gold.values()), sum(unseen.values()))
        check.unseen_labels = sorted(unseen.items(), key=lambda x: (-x[1], x[0]))
        pairs = ((strings[k >> 32], strings[k & 0xFFFFFFFF], n) for k, n in self.check_pairs.items())
        check.pairs = sorted(((g, p, n) for g, p, n in pairs if g in unseen), key=lambda x: (-x[2], x[0], x[1]))
        return check


def _unique(values: np.ndarray) -> Tuple[List[int], List[int]]:
    codes, counts = np.unique(values, return_counts=True)
    return codes.tolist(), counts.tolist()


def evaluate_batches(batches: Iterable[Batch], table: "_conllu.StringTable", options: EvaluationSettings,
                     metrics: Dict[str, Any], keep_counts: bool = False,
                     label_warnings: Optional[Callable[[LabelSetCheck, int], None]] = None,
                     result: Callable[..., Any] = dict, keep_rows: bool = True) -> Any:
    """The evaluation of a corpus given in batches (:data:`Batch`), ``metrics`` (name →
    :class:`~.parser_metrics.Metric`, all built-in) in order: ``result(**fields)`` of the
    fields of :class:`~.parser_metrics.EvaluationResult` (``counts`` as a dict of summed
    (numerator, denominator)). ``keep_rows=False`` (with ``keep_counts=False``) keeps nothing
    per sentence: ``sentences`` is then a :class:`SentenceCount` (how many were scored).
    ``batches`` may be a generator that reads the files as it goes: an exception it raises
    comes out of here unchanged."""
    chosen = list(metrics)
    props = CodeProperties(table, options)
    labels = _Labels()
    numerators: List[np.ndarray] = []
    denominators: List[np.ndarray] = []
    units: List[np.ndarray] = []
    where_of = PackedLabels()
    width = len(chosen)
    num_sums, den_sums = [0.0] * width, [0.0] * width
    scored = 0
    skipped: List[str] = []
    set_aside: Dict[int, str] = {}
    multi_root: List[str] = []
    over_limits: List[str] = []
    ud = np.zeros(5, dtype=np.int64)
    tokens = verbs = 0
    failure: Optional[Exception] = None
    base = 0
    for gold, pred, problems in batches:
        props.update()
        n = len(gold)
        good = np.asarray([s for s in range(n) if s not in problems], dtype=np.int64)
        if len(good) < n:
            g_cols, p_cols = gold.select(good), pred.select(good)
        else:
            g_cols, p_cols = gold, pred
        labels.add_check(props["compared_gold"][g_cols.deprel], props["compared_pred"][p_cols.deprel], props)
        if failure is not None:
            base += n
            continue
        for s in sorted(problems):
            if not options.skip_mismatched:
                failure = MismatchedCorpusError(f"gold and prediction differ in tokens: {problems[s]}",
                                                gold.where(s))
                break
        bad_forms = form_rule_problem(g_cols, props)
        if bad_forms is not None:
            location = g_cols.where(bad_forms)
            problem = BadOptionError(f"{location}: the 'form' punctuation rule needs word forms, and this sentence "
                                     "has none")
            if failure is None or int(good[bad_forms]) < _first(problems):
                failure = problem
        if failure is not None:
            base += n
            continue
        for s in sorted(problems):
            skipped.append(f"{gold.where(s)}: {problems[s]}")
            set_aside[base + s] = skipped[-1]
        counts = batch_counts(g_cols, p_cols, props, chosen)
        labels.add(counts, props)
        for k in range(width):
            num_sums[k] = _conllu.running_sum(np.ascontiguousarray(counts.numerators[:, k]), num_sums[k])
            den_sums[k] = _conllu.running_sum(np.ascontiguousarray(counts.denominators[:, k]), den_sums[k])
        scored += len(good)
        if keep_rows or keep_counts:
            numerators.append(counts.numerators)
            denominators.append(counts.denominators)
            units.append(base + good)
        tokens += counts.tokens
        verbs += counts.verbs
        ud += counts.ud
        for s in counts.multi_root:
            number = base + int(good[s]) + 1
            location = p_cols.where(s)
            pred_roots = int(np.count_nonzero(p_cols.heads[p_cols.offsets[s]:p_cols.offsets[s + 1]] == 0))
            multi_root.append(f"{_where(location, number)}: {pred_roots} roots in the prediction, 1 in the gold")
        for s, note in counts.limits:
            over_limits.append(f"{_where(g_cols.where(s), base + int(good[s]) + 1)}: {note}")
        if keep_counts:
            for s in range(len(good)):
                where_of.add(base + int(good[s]), _where(g_cols.where(s), base + int(good[s]) + 1))
        base += n
    check = labels.check(table.strings)
    if label_warnings is not None:
        label_warnings(check, labels.root_case)
    if failure is not None:
        raise failure
    num = np.concatenate(numerators) if numerators else np.zeros((0, width))
    den = np.concatenate(denominators) if denominators else np.zeros((0, width))
    total = {m: [num_sums[k], den_sums[k]] for k, m in enumerate(chosen)}
    rows: Sequence[Dict[str, float]] = SentenceCount(scored)
    if keep_rows or keep_counts:
        rows = SentenceScores(chosen, num, den, lambda m, a, b: metrics[m].value(a, b, warn=False))
    unit_counts = None
    if keep_counts:
        from ..unit_counts import dependency_unit_counts_arrays

        unit_counts = dependency_unit_counts_arrays(
            np.concatenate(units) if units else np.zeros(0, np.int64), num, den, chosen,
            [metrics[m].score for m in chosen], where_of, set_aside)
    ud_scores = UDScores(*(int(x) for x in ud))
    return result(sentences=rows, counts=total, skipped=skipped, ud=ud_scores, tokens=tokens, verbs=verbs,
                  labels=labels.table(table.strings), label_check=check, multi_root=multi_root,
                  over_limits=over_limits, settings=options, unit_counts=unit_counts)


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
