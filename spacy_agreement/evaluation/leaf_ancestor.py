"""The leaf-ancestor metric (Sampson & Babarczy 2003) with error location.

Each terminal element is scored by how similar its candidate lineage c is to its gold
lineage g (:mod:`spacy_agreement.evaluation.lineage`):

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
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _core
from ..errors import BadOptionError, InvalidTreeError, MismatchedCorpusError, ResourceLimitError, undefined
from .. import limits
from ..limits import depths, lineage_cost
from ..report.format import percent
from .geig import BracketCounts, EvalbParams, bracket_counts
from .lineage import LEFT, RIGHT, Lineages, Preterminals, dependency_lineages, phrase_lineages
from ..trees import ConstituencyTree, DependencyTree, children_lists
from ..vocab import LabelVocab

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


@dataclass
class WordScore:
    word: str
    score: float
    gold_lineage: Tuple[str, ...]
    candidate_lineage: Tuple[str, ...]

    def to_dict(self) -> Dict[str, object]:
        return {"word": self.word, "score": self.score, "gold_lineage": " ".join(self.gold_lineage),
                "candidate_lineage": " ".join(self.candidate_lineage)}


@dataclass
class SentenceResult:
    """Leaf-ancestor and GEIG scores of one sentence, word by word."""

    words: List[WordScore]
    brackets: Optional[BracketCounts] = None
    location: str = ""
    index: int = -1  # the sentence's position in the gold corpus (0-based)

    @property
    def leaf_ancestor(self) -> float:
        """The sentence score: the mean of its word scores."""
        if not self.words:
            return undefined("leaf_ancestor", f"{self.location or 'a sentence'} has no word")
        return float(np.mean([w.score for w in self.words]))

    la = leaf_ancestor  # the 0.1 name

    def geig(self) -> Dict[str, float]:
        return self.brackets.scores() if self.brackets is not None else {}

    def worst_words(self, k: int = 3) -> List[Tuple[int, WordScore]]:
        """The ``k`` lowest-scored words (1-based positions), worst first."""
        order = sorted(range(len(self.words)), key=lambda i: (self.words[i].score, i))
        return [(i + 1, self.words[i]) for i in order[:k] if self.words[i].score < 1.0]

    def stretches(self, threshold: float = 1.0) -> List[Tuple[int, int, float]]:
        """Maximal runs of consecutive words scoring below ``threshold``, as (first, last
        1-based position, total loss Σ(1 − score)), largest loss first."""
        runs, start = [], None
        for i, w in enumerate(self.words + [WordScore("", 1.0, (), ())]):
            if w.score < threshold and start is None:
                start = i
            elif w.score >= threshold and start is not None:
                runs.append((start + 1, i, sum(1 - x.score for x in self.words[start:i])))
                start = None
        return sorted(runs, key=lambda r: -r[2])

    def to_dict(self) -> Dict[str, object]:
        out: Dict[str, object] = {"leaf_ancestor": self.leaf_ancestor}
        out.update({k: v for k, v in self.geig().items() if k.startswith("geig_")})
        out["words"] = [w.to_dict() for w in self.words]
        return out


@dataclass
class LeafAncestorResult:
    """Corpus scores and the sentences behind them."""

    sentences: List[SentenceResult]
    brackets: Optional[BracketCounts] = None
    cost: str = "exact"
    extra: Dict[str, float] = field(default_factory=dict)
    skipped: List[str] = field(default_factory=list)
    #: the skipped sentences by position in the gold corpus (0-based), with the reason
    set_aside: Dict[int, str] = field(default_factory=dict)

    @property
    def leaf_ancestor(self) -> float:
        """Mean over sentences of the sentence scores."""
        if not self.sentences:
            return undefined("leaf_ancestor", "no sentence was scored")
        return float(np.mean([s.leaf_ancestor for s in self.sentences]))

    @property
    def leaf_ancestor_words(self) -> float:
        """Mean over all words of the corpus."""
        scores = [w.score for s in self.sentences for w in s.words]
        if not scores:
            return undefined("leaf_ancestor_words", "no word was scored")
        return float(np.mean(scores))

    la = leaf_ancestor  # the 0.1 names
    la_words = leaf_ancestor_words

    def to_dict(self, sentences: bool = True) -> Dict[str, object]:
        out: Dict[str, object] = {"leaf_ancestor": self.leaf_ancestor, "leaf_ancestor_words": self.leaf_ancestor_words,
                                  "sentences_skipped": len(self.skipped)}
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
        times, lowest mean score first: the first ``k`` (every one with ``k=None``)."""
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


def _evalb_words(tree: Union[ConstituencyTree, DependencyTree], params: Optional[EvalbParams]):
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


def _word_depths(tree: Union[ConstituencyTree, DependencyTree]) -> List[int]:
    """The length of each word's lineage (its depth), in linear time."""
    if isinstance(tree, DependencyTree):
        return depths([h - 1 for h in tree.heads.tolist()])
    parent = tree.parent.tolist()
    node_depth = depths(parent)
    return [d for d, kids in zip(node_depth, children_lists(parent)) if not kids]


def _lineage_limit(gold: Union[ConstituencyTree, DependencyTree],
                   candidate: Union[ConstituencyTree, DependencyTree]) -> Optional[str]:
    """Why a sentence is too large for leaf-ancestor scoring (its lineages or their
    Levenshtein tables over :data:`~spacy_agreement.limits.MAX_LINEAGE_SYMBOLS` /
    :data:`~spacy_agreement.limits.MAX_LINEAGE_CELLS`), or ``None``. Estimated from the
    depths alone, before any lineage is built."""
    if max(len(gold), len(candidate)) <= 500:  # nodes: at most 5·10⁵ labels and 1.25·10⁸ cells, within the limits
        return None
    symbols, cells = lineage_cost(_word_depths(gold), _word_depths(candidate))
    if symbols > limits.MAX_LINEAGE_SYMBOLS or cells > limits.MAX_LINEAGE_CELLS:
        return (f"too deep for leaf-ancestor scoring: its lineages hold {symbols:,.0f} labels and their comparison "
                f"{cells:,.0f} cells, over the limits of {limits.MAX_LINEAGE_SYMBOLS:,} and "
                f"{limits.MAX_LINEAGE_CELLS:,}")
    return None


def leaf_ancestor(
    gold: Sequence[Optional[Union[ConstituencyTree, DependencyTree]]],
    candidate: Sequence[Optional[Union[ConstituencyTree, DependencyTree]]],
    cost: CostScheme = "exact",
    evalb: Optional[EvalbParams] = None,
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
    """
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
