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
"""
from __future__ import annotations

from collections import defaultdict
import os
from dataclasses import dataclass
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ... import _core
from ...errors import BadOptionError, InvalidTreeError, MismatchedCorpusError, ResourceLimitError, undefined
from ...report.format import percent
from .geig import BracketCounts, EvalbSettings, bracket_counts
from . import leaf_ancestor_compiled as fast
from .leaf_ancestor_words import SentenceResult, WordScore, _lineage_limit  # noqa: F401  (SentenceResult, WordScore: re-exported)
from .lineage import LEFT, RIGHT, Lineages, Preterminals, dependency_lineages, phrase_lineages
from ...trees import ConstituencyTree, DependencyTree, children_lists
from ...vocab import LabelVocab

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


class LeafAncestorResult:
    """Corpus scores and the sentences behind them.

    A result of the compiled path keeps only what
    :class:`~spacy_agreement.evaluation.constituency.leaf_ancestor_compiled.Store` says (counts, sums, the worst
    sentences kept, per-sentence arrays only when asked for); ``sentences`` (each word with
    its lineages), per-sentence arrays and more worst sentences than kept are computed by
    scoring the trees or files again, on first use. ``skipped`` may hold only the first
    reasons (``keep_skipped``); ``skipped_count`` counts them all."""

    def __init__(self, sentences: Optional[Sequence[SentenceResult]] = None, brackets: Optional[BracketCounts] = None,
                 cost: str = "exact", extra: Optional[Dict[str, float]] = None, skipped: Optional[List[str]] = None,
                 set_aside: Optional[Dict[int, str]] = None, store=None, source=None,
                 skipped_count: Optional[int] = None):
        self._sentences = list(sentences) if sentences is not None else None
        self.brackets = brackets
        self.cost = cost
        self.extra: Dict[str, float] = dict(extra or {})
        self.skipped: List[str] = list(skipped or [])
        self.skipped_count = len(self.skipped) if skipped_count is None else skipped_count
        #: the skipped sentences by position in the gold corpus (0-based), with the reason
        self.set_aside: Dict[int, str] = dict(set_aside or {})
        self._store, self._source = store, source

    def __repr__(self) -> str:
        return (f"LeafAncestorResult({self.sentences_scored} sentences, {self.skipped_count} skipped, "
                f"cost={self.cost!r})")

    @property
    def sentences(self) -> List[SentenceResult]:
        """Every scored sentence word by word (built from the trees or files on first use)."""
        if self._sentences is None:
            built: List[SentenceResult] = []
            self._source.replay(emit=lambda row, sentence: built.append(sentence))
            self._sentences = built
        return self._sentences

    @sentences.setter
    def sentences(self, value: Sequence[SentenceResult]) -> None:
        self._sentences, self._store = list(value), None

    @property
    def sentences_scored(self) -> int:
        return self._store.sentences if self._store is not None else len(self.sentences)

    @property
    def words_scored(self) -> int:
        return self._store.words if self._store is not None else sum(len(s.words) for s in self.sentences)

    def _rows(self) -> Dict[str, np.ndarray]:
        st = self._store
        if st.rows is None:
            st.rows = self._source.replay(keep_rows=True, keep_skipped=0).store().rows
        return st.rows

    def sentence_arrays(self) -> Dict[str, np.ndarray]:
        """Per scored sentence, in order: ``index`` (in the gold corpus), ``words`` (how many),
        ``sum`` and ``mean`` of the word scores, ``gold``, ``candidate``,
        ``matched_unlabelled`` and ``matched_labelled`` brackets (zeros without GEIG)."""
        if self._store is not None:
            return {key: value for key, value in self._rows().items() if key != "line"}
        sentences = self.sentences
        scores = [np.asarray([w.score for w in s.words], dtype=np.float64) for s in sentences]
        counts = [s.brackets or BracketCounts() for s in sentences]
        return {"index": np.asarray([s.index for s in sentences], dtype=np.int64),
                "words": np.asarray([len(x) for x in scores], dtype=np.int64),
                "sum": np.asarray([float(np.sum(x)) for x in scores]),
                "mean": np.asarray([float(np.mean(x)) if len(x) else np.nan for x in scores]),
                **{key: np.asarray([getattr(b, attr) for b in counts], dtype=np.int64) for key, attr in
                   (("gold", "gold"), ("candidate", "candidate"), ("matched_unlabelled", "matched_unlabelled"),
                    ("matched_labelled", "matched_labelled"))}}

    def location(self, row: int) -> str:
        """Where scored sentence ``row`` (0-based, among the scored) is."""
        if self._store is not None:
            rows = self._rows()
            return self._source.location(int(rows["index"][row]), int(rows["line"][row]))
        return self.sentences[row].location

    @property
    def leaf_ancestor(self) -> float:
        """Mean over sentences of the sentence scores."""
        if self._store is not None:
            if not self._store.sentences:
                return undefined("leaf_ancestor", "no sentence was scored")
            return self._store.mean_sum / self._store.sentences  # np.mean: the pairwise sum over the count
        if not self.sentences:
            return undefined("leaf_ancestor", "no sentence was scored")
        return float(np.mean([s.leaf_ancestor for s in self.sentences]))

    @property
    def leaf_ancestor_words(self) -> float:
        """Mean over all words of the corpus."""
        if self._store is not None:
            if not self._store.words:
                return undefined("leaf_ancestor_words", "no word was scored")
            return self._store.word_sum / self._store.words
        scores = [w.score for s in self.sentences for w in s.words]
        if not len(scores):
            return undefined("leaf_ancestor_words", "no word was scored")
        return float(np.mean(scores))

    la = leaf_ancestor  # the 0.1 names
    la_words = leaf_ancestor_words

    def worst(self, k: Optional[int] = None) -> Tuple[int, List[Tuple[int, SentenceResult]]]:
        """How many scored sentences are below a perfect score, and the ``k`` lowest (all
        without ``k``), lowest first, ties in file order, with their 1-based rank among the
        scored sentences."""
        if self._store is not None:
            count, kept = self._store.below, self._store.worst or []
            if k is not None and len(kept) >= min(max(k, 0), count):
                return count, self._source.worst(self._store, max(k, 0))
            means = self._rows()["mean"]
            below = np.nonzero(means < 1.0)[0]
            order = below[np.lexsort((below, means[below]))]
            rows = order.tolist() if k is None else order[:max(k, 0)].tolist()
            built: Dict[int, SentenceResult] = {}
            if rows:
                self._source.replay(emit=built.__setitem__, select=set(rows), keep_skipped=0)
            return count, [(row + 1, built[row]) for row in rows]
        ranked = [(i, s) for i, s in enumerate(self.sentences, start=1) if s.words and s.leaf_ancestor < 1.0]
        ranked.sort(key=lambda pair: (pair[1].leaf_ancestor, pair[0]))
        return len(ranked), ranked if k is None else ranked[:max(k, 0)]

    def to_dict(self, sentences: bool = True) -> Dict[str, object]:
        out: Dict[str, object] = {"leaf_ancestor": self.leaf_ancestor, "leaf_ancestor_words": self.leaf_ancestor_words,
                                  "sentences_skipped": self.skipped_count}
        if self.brackets is not None:
            geig = self.brackets.scores()
            out["geig_unlabelled"] = geig["geig_unlabelled"]
            out["geig_labelled"] = geig["geig_labelled"]
            out["error_sentences"] = self.brackets.errors  # EVALB's counts of the two kinds of skipped sentence
            out["skip_sentences"] = self.brackets.skipped
        if sentences:
            out["skipped"] = list(self.skipped)  # where and why, as the text lists them
            out["sentences"] = [s.to_dict() for s in self.sentences]
        return out

    def error_configurations(self, n: int = 2, min_count: int = 3,
                             k: Optional[int] = 10) -> List[Tuple[str, int, float]]:
        """Gold configurations most often found with low word scores (§7): for every gold
        label of a word's lineage and every run of ``n`` consecutive gold lineage symbols,
        how many words have it and their mean score; those seen at least ``min_count``
        times, lowest mean score first: the first ``k`` (every one with ``k=None``). The
        paper leaves the choice of configurations open; these are one reading of its §7."""
        if self._store is not None and self._store.features is not None and n == 2:
            rows = [row for row in self._store.features if row[1] >= min_count]
        else:
            stats: Dict[str, List[float]] = defaultdict(list)
            for sentence in self.sentences:
                for w in sentence.words:
                    labels = [s for s in w.gold_lineage if s not in (LEFT, RIGHT)]
                    features = {f"label {lab}" for lab in labels}
                    for size in range(2, n + 1):
                        for i in range(len(w.gold_lineage) - size + 1):
                            features.add("lineage " + " ".join(w.gold_lineage[i:i + size]))
                    if w.gold_lineage:
                        features.add(f"parent {labels[0]}" if labels else "parent -")
                    for feature in features:
                        stats[feature].append(w.score)
            rows = [(f, len(v), float(np.mean(v))) for f, v in stats.items() if len(v) >= min_count]
        rows.sort(key=lambda r: (r[2], -r[1]))
        return rows if k is None else rows[:k]


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


def _result(engine, cost: CostScheme, source) -> LeafAncestorResult:
    store = engine.store()
    counts = None
    if engine.any_tree:
        counts = BracketCounts(*store.brackets, engine.failed, engine.errors)
    name = cost if isinstance(cost, str) else "custom"
    return LeafAncestorResult(None, counts, name, skipped=engine.skipped, set_aside=engine.set_aside, store=store,
                              source=source, skipped_count=engine.skipped_count)


def _compiled(cost: CostScheme, evalb: Optional[EvalbSettings], preterminals) -> bool:
    """Whether the compiled loops compute this: the built-in costs, no EVALB parameters."""
    return (evalb is None and isinstance(cost, str) and cost in fast.COSTS and isinstance(preterminals, str)
            and preterminals in fast.PRETERMINALS)


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
    counts and sums (the sentences word by word are scored again when asked for); dependency trees, cost functions and EVALB parameters through the
    pure-Python lineages of :mod:`~spacy_agreement.evaluation.constituency.lineage`. Same numbers.
    """
    if len(gold) != len(candidate):
        raise MismatchedCorpusError(f"{len(gold)} gold sentences but {len(candidate)} candidate sentences")
    if _compiled(cost, evalb, preterminals) and all(t is None or isinstance(t, ConstituencyTree)
                                                    for t in (*gold, *candidate)):
        engine = fast.score_trees(gold, candidate, cost, preterminals, strict, keep_worst=10)
        return _result(engine, cost, fast.TreeSource(gold, candidate, cost, preterminals))
    return leaf_ancestor_python(gold, candidate, cost, evalb, preterminals, strict)


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
    arrays (:meth:`LeafAncestorResult.sentence_arrays`, for bootstrap intervals) only with
    ``keep_rows``; the first ``keep_skipped`` reasons for skipping a sentence (all without it,
    and only then ``set_aside``). ``sink.add(sentence)`` gets every scored sentence word by
    word, in order, as it is scored (``sink.reset()`` first forgets those given, where the
    compiled reader leaves a file to the Python reader after all).

    Otherwise (or for a file the compiled reader leaves to the Python reader: a malformed one
    gets its error naming file, line and token) the trees are read whole."""
    if _compiled(cost, evalb, preterminals):
        emit = (lambda row, sentence: sink.add(sentence)) if sink is not None else None
        try:
            engine, modes, _ = fast.score_files(gold, candidate, cost, preterminals, strict, keep_worst,
                                                keep_rows=keep_rows, keep_skipped=keep_skipped, emit=emit)
        except fast.FallBack:
            if sink is not None:
                sink.reset()
        else:
            return _result(engine, cost, fast.FileSource(gold, candidate, modes, cost, preterminals))
    from ...adapters.brackets import read_brackets, trim_trailing_failures

    gold_trees, cand_trees = trim_trailing_failures(read_brackets(gold, "categories", missing=True),
                                                    read_brackets(candidate, "categories", missing=True))
    result = leaf_ancestor(gold_trees, cand_trees, cost, evalb, preterminals, strict)
    if sink is not None:
        for sentence in result.sentences:
            sink.add(sentence)
    return result


def leaf_ancestor_python(
    gold: Sequence[Optional[Union[ConstituencyTree, DependencyTree]]],
    candidate: Sequence[Optional[Union[ConstituencyTree, DependencyTree]]],
    cost: CostScheme = "exact",
    evalb: Optional[EvalbSettings] = None,
    preterminals: Preterminals = "auto",
    strict: bool = False,
) -> LeafAncestorResult:
    """:func:`leaf_ancestor` in pure Python, sentence by sentence: lineages
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
