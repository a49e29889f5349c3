"""GEIG (Parseval) bracket scores, EVALB-compatible (Sampson & Babarczy 2003, §1 and §3).

GEIG/unlabelled (Black et al. 1991) matches brackets by word span; GEIG/labelled (Collins
1997, the EVALB default) by span and label. Precision, recall and F = 2PR / (P + R) per
sentence, and for a corpus EVALB's micro-average (matches, gold and candidate brackets
summed over sentences).

The way EVALB (Sekine & Collins 1997) counts, followed here:

* every nonterminal node is a bracket, **the root included**; part-of-speech preterminals
  (nodes whose only child is a word) are not brackets when the trees are in the Penn style
  (``preterminals`` as in :mod:`spacy_agreement.lineage`);
* brackets are a multiset: a bracket matches at most one bracket of the other tree;
* labels are compared after removing function tags (``NP-SBJ`` → ``NP``, ``NP=2`` → ``NP``;
  labels starting with ``-`` such as ``-NONE-`` are left whole), then ``EQ_LABEL`` classes;
* ``DELETE_LABEL`` on a part-of-speech label deletes its words (they do not count in spans)
  and on a phrase label deletes those brackets; brackets left empty disappear;
* gold and candidate must have the same words (up to ``EQ_WORD``), or the sentence is an
  error naming the position. ``DELETE_LABEL_FOR_LENGTH`` words do not count towards the
  sentence length that EVALB's length cutoff uses (reported as ``length``).
"""
from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Tuple, Union

from .errors import MismatchedCorpusError
from .lineage import Preterminals, is_penn_style
from .trees import ConstituencyTree, children_lists


@dataclass(frozen=True)
class EvalbParams:
    """The parts of an EVALB parameter file that change what is counted."""

    delete_labels: FrozenSet[str] = frozenset()
    delete_labels_for_length: FrozenSet[str] = frozenset()
    eq_labels: Tuple[FrozenSet[str], ...] = ()
    eq_words: Tuple[FrozenSet[str], ...] = ()

    @classmethod
    def read(cls, path: Union[str, "os.PathLike[str]"]) -> "EvalbParams":
        """Read ``DELETE_LABEL``, ``DELETE_LABEL_FOR_LENGTH``, ``EQ_LABEL`` and ``EQ_WORD``
        lines; other settings (DEBUG, MAX_ERROR, CUTOFF_LEN, LABELED) and comments are skipped."""
        delete, delete_len, eq_l, eq_w = set(), set(), [], []
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                parts = line.split()
                if not parts or parts[0].startswith("#"):
                    continue
                key, values = parts[0].upper(), parts[1:]
                if key == "DELETE_LABEL":
                    delete.update(values)
                elif key == "DELETE_LABEL_FOR_LENGTH":
                    delete_len.update(values)
                elif key == "EQ_LABEL" and len(values) >= 2:
                    eq_l.append(frozenset(values))
                elif key == "EQ_WORD" and len(values) >= 2:
                    eq_w.append(frozenset(values))
        return cls(frozenset(delete), frozenset(delete_len), tuple(eq_l), tuple(eq_w))

    def label(self, label: str) -> str:
        if not label.startswith("-"):
            for sep in ("-", "="):
                if sep in label:
                    label = label.split(sep, 1)[0] or label
        for group in self.eq_labels:
            if label in group:
                return min(group)
        return label

    def word(self, word: str) -> str:
        for group in self.eq_words:
            if word in group:
                return min(group)
        return word


@dataclass
class BracketCounts:
    """Matches and bracket totals, unlabelled and labelled."""

    gold: int = 0
    candidate: int = 0
    matched_unlabelled: int = 0
    matched_labelled: int = 0

    def add(self, other: "BracketCounts") -> None:
        self.gold += other.gold
        self.candidate += other.candidate
        self.matched_unlabelled += other.matched_unlabelled
        self.matched_labelled += other.matched_labelled

    def scores(self) -> Dict[str, float]:
        def prf(matched: int) -> Tuple[float, float, float]:
            p = matched / self.candidate if self.candidate else (1.0 if not self.gold else 0.0)
            r = matched / self.gold if self.gold else (1.0 if not self.candidate else 0.0)
            return p, r, (2 * p * r / (p + r) if p + r else 0.0)

        pu, ru, fu = prf(self.matched_unlabelled)
        pl, rl, fl = prf(self.matched_labelled)
        return {"geig_unlabelled": fu, "geig_labelled": fl, "precision_unlabelled": pu,
                "recall_unlabelled": ru, "precision_labelled": pl, "recall_labelled": rl}


@dataclass
class EvalbTree:
    """A tree as EVALB sees it: kept words and labelled spans over them."""

    words: List[str]
    brackets: List[Tuple[int, int, str]]
    length: int
    deleted_positions: List[int] = field(default_factory=list)


def evalb_view(tree: ConstituencyTree, params: Optional[EvalbParams] = None,
               preterminals: Preterminals = "auto") -> EvalbTree:
    """The words and brackets EVALB counts for a phrase tree whose leaves are the words."""
    params = params or EvalbParams()
    parent = tree.parent.tolist()
    kids = children_lists(parent)
    penn = preterminals == "drop" or (preterminals == "auto" and is_penn_style(tree))
    leaves = [i for i in range(len(tree)) if not kids[i]]
    tag_of = {leaf: tree.labels[parent[leaf]] if penn and parent[leaf] >= 0 else None for leaf in leaves}
    kept: Dict[int, int] = {}
    words: List[str] = []
    deleted: List[int] = []
    length = 0
    for position, leaf in enumerate(leaves):
        tag = tag_of[leaf]
        if tag is None or tag not in params.delete_labels_for_length:
            length += 1
        if tag is not None and (tag in params.delete_labels or params.label(tag) in params.delete_labels):
            deleted.append(position)
            continue
        kept[leaf] = len(words)
        words.append(tree.labels[leaf])
    # span of every node over kept words, bottom-up (postorder)
    lo: Dict[int, int] = {}
    hi: Dict[int, int] = {}
    for node in range(len(tree)):
        if not kids[node]:
            if node in kept:
                lo[node] = hi[node] = kept[node]
            continue
        covered = [c for c in kids[node] if c in lo]
        if covered:
            lo[node] = min(lo[c] for c in covered)
            hi[node] = max(hi[c] for c in covered)
    brackets = []
    for node in range(len(tree)):
        if not kids[node] or node not in lo:
            continue
        if penn and len(kids[node]) == 1 and not kids[kids[node][0]]:
            continue  # a part-of-speech preterminal
        label = tree.labels[node]
        if label in params.delete_labels or params.label(label) in params.delete_labels:
            continue
        brackets.append((lo[node], hi[node], params.label(label)))
    return EvalbTree(words, brackets, length, deleted)


def bracket_counts(gold: ConstituencyTree, candidate: ConstituencyTree, params: Optional[EvalbParams] = None,
                   preterminals: Preterminals = "auto") -> BracketCounts:
    """GEIG counts for one sentence; raises :class:`MismatchedCorpusError` naming the first
    position where the words differ."""
    params = params or EvalbParams()
    g = evalb_view(gold, params, preterminals)
    c = evalb_view(candidate, params, preterminals)
    if len(g.words) != len(c.words):
        raise MismatchedCorpusError(f"{len(g.words)} words in gold, {len(c.words)} in the candidate",
                                    candidate.location)
    for k, (a, b) in enumerate(zip(g.words, c.words), start=1):
        if params.word(a) != params.word(b):
            raise MismatchedCorpusError(f"word {k} is {a!r} in gold but {b!r} in the candidate",
                                        candidate.location.at_token(k))
    labelled = Counter(g.brackets) & Counter(c.brackets)
    unlabelled = Counter((a, b) for a, b, _ in g.brackets) & Counter((a, b) for a, b, _ in c.brackets)
    return BracketCounts(len(g.brackets), len(c.brackets), sum(unlabelled.values()), sum(labelled.values()))
