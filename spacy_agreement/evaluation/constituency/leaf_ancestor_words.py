"""The word-by-word results of leaf-ancestor (Sampson & Babarczy 2003): a word's score with its
gold and candidate lineages, and a sentence's words with its GEIG bracket counts. Shared by the
reference (:mod:`.leaf_ancestor_reference`) and the compiled loops (:mod:`.leaf_ancestor_compiled`),
which build them (:func:`make_sentence`) only for the sentences a user looks at, as it scores
them; and the estimate of a sentence too deep to score, which both apply."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ... import limits
from ...errors import undefined
from ...limits import depths, lineage_cost
from ...trees import ConstituencyTree, DependencyTree, children_lists
from .geig import BracketCounts


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


def make_sentence(text: Tuple[Sequence[str], Sequence[Tuple[str, ...]], Sequence[Tuple[str, ...]]],
                  scores: Sequence[float], counts: Tuple[int, int, int, int], location: str,
                  index: int) -> SentenceResult:
    """A scored sentence of the compiled path word by word: ``text`` its words and gold and
    candidate lineages, ``scores`` its word scores, ``counts`` its GEIG brackets (gold,
    candidate, matched unlabelled, labelled)."""
    words, gold, cand = text
    return SentenceResult([WordScore(w, s, g, c) for w, s, g, c in zip(words, scores, gold, cand)],
                          BracketCounts(*counts), location, index)


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


__all__ = ["SentenceResult", "WordScore", "make_sentence"]
