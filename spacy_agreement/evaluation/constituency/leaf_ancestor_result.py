"""What leaf-ancestor (Sampson & Babarczy 2003) gives back: :class:`LeafAncestorResult`, the corpus
scores and the sentences behind them, for both implementations (the compiled loops of
:mod:`.leaf_ancestor_compiled` keep a :class:`~.leaf_ancestor_compiled.Store` and score again what
is asked for later; the reference, :mod:`.leaf_ancestor_reference`, keeps every sentence), and
their counts per sentence (:meth:`LeafAncestorResult.statistics`). Split from :mod:`.leaf_ancestor`,
which says how the scores are made and re-exports every name here.
"""
from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...errors import undefined
from .geig import BracketCounts
from .leaf_ancestor_words import SentenceResult
from .lineage import LEFT, RIGHT

if TYPE_CHECKING:
    from ..unit_counts import UnitCounts

#: the columns of :meth:`LeafAncestorResult.statistics` (GEIG's two for phrase trees only)
STATISTICS = ("leaf_ancestor", "leaf_ancestor_words", "geig_unlabelled", "geig_labelled")


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

    def statistics(self) -> "UnitCounts":
        """The corpus scores' counts per scored sentence (a
        :class:`~spacy_agreement.evaluation.unit_counts.UnitCounts`, units the sentences' places
        in the gold corpus), whose sums give the corpus figures, what ``--ci`` and ``compare``
        resample: leaf-ancestor over sentences (Σ sentence score / Σ 1), over words (Σ word
        scores / Σ words) and, for phrase trees, GEIG's unlabelled and labelled F (2·matched /
        (gold + candidate)). The skipped sentences are set aside with their reasons. Read from
        :meth:`sentence_arrays`, without building the sentences word by word."""
        from ..unit_counts import from_rows, ratio

        names = STATISTICS if self.brackets is not None else STATISTICS[:2]
        arrays = self.sentence_arrays()
        words = arrays["words"].astype(float)
        has = words > 0
        numerators = [np.where(has, np.nan_to_num(arrays["mean"]), 0.0), np.where(has, arrays["sum"], 0.0)]
        denominators = [has.astype(float), words]
        if self.brackets is not None:
            both = (arrays["gold"] + arrays["candidate"]).astype(float)
            numerators += [2.0 * arrays["matched_unlabelled"], 2.0 * arrays["matched_labelled"]]
            denominators += [both, both]
        rows = arrays["index"].tolist()
        labels = {index: self.location(row) for row, index in enumerate(rows)}
        empty = np.zeros((0, len(names)))
        return from_rows(names, rows, np.stack(numerators, axis=1) if rows else empty,
                         np.stack(denominators, axis=1) if rows else empty, [ratio] * len(names), labels,
                         dict(self.set_aside))

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


__all__ = ["STATISTICS", "LeafAncestorResult"]
