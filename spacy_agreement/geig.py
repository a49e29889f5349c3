"""GEIG (Parseval) bracket scores, counted by EVALB's own rules (Sampson & Babarczy 2003, §1 and §3).

GEIG/unlabelled (Black et al. 1991) matches brackets by word span; GEIG/labelled (Collins
1997, the EVALB default) by span and label. Precision, recall and F = 2PR / (P + R) per
sentence, and for a corpus EVALB's micro-average (matches, gold and candidate brackets
summed over sentences).

Every count goes through :mod:`spacy_agreement.evalb`, the reimplementation of Sekine &
Collins' EVALB, so that ``leaf-ancestor --evalb-params`` and ``evalb`` give the same
numbers: labelled counts are EVALB's with ``LABELED 1``, unlabelled ones with ``LABELED 0``,
whatever the parameter file says. In short:

* every nonterminal node is a bracket, the root included, and so is the unlabelled outer
  bracket of ``( (S ...) )`` when the bracket text is scored (:func:`file_bracket_counts`;
  trees read with :func:`~spacy_agreement.parse_brackets` have lost it);
  part-of-speech preterminals are not brackets in Penn-style trees (``preterminals`` as in
  :mod:`spacy_agreement.lineage`); in other trees each word is a bare terminal;
* brackets are matched greedily, each at most once; labels lose function tags and indices
  (everything from the first ``-`` or ``=``) before ``DELETE_LABEL`` and ``EQ_LABEL`` apply;
* words tagged with a ``DELETE_LABEL`` (traces, punctuation) are removed *before* gold and
  candidate words are compared, so gold ``-NONE-`` traces against a candidate without them
  are fine; ``QUOTE_LABEL`` repairs apply as in EVALB;
* words that still differ raise :class:`MismatchedCorpusError` (EVALB's error sentence); a
  candidate left without words is EVALB's skip: it counts nothing (``skipped``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple, Union

from .errors import Location, MismatchedCorpusError
from .evalb import ERROR, SKIP, EvalbParams, SentenceBuilder, read_sentence, score_sentence
from .lineage import Preterminals, is_penn_style
from .trees import ConstituencyTree, children_lists

__all__ = ["BracketCounts", "EvalbParams", "bracket_counts", "file_bracket_counts", "text_bracket_counts"]


@dataclass
class BracketCounts:
    """Matches and bracket totals, unlabelled and labelled; ``skipped`` counts sentences
    EVALB skips (no candidate word left), which add nothing."""

    gold: int = 0
    candidate: int = 0
    matched_unlabelled: int = 0
    matched_labelled: int = 0
    skipped: int = 0

    def add(self, other: "BracketCounts") -> None:
        self.gold += other.gold
        self.candidate += other.candidate
        self.matched_unlabelled += other.matched_unlabelled
        self.matched_labelled += other.matched_labelled
        self.skipped += other.skipped

    def scores(self) -> Dict[str, float]:
        def prf(matched: int) -> Tuple[float, float, float]:
            p = matched / self.candidate if self.candidate else (1.0 if not self.gold else 0.0)
            r = matched / self.gold if self.gold else (1.0 if not self.candidate else 0.0)
            return p, r, (2 * p * r / (p + r) if p + r else 0.0)

        pu, ru, fu = prf(self.matched_unlabelled)
        pl, rl, fl = prf(self.matched_labelled)
        return {"geig_unlabelled": fu, "geig_labelled": fl, "precision_unlabelled": pu,
                "recall_unlabelled": ru, "precision_labelled": pl, "recall_labelled": rl}


def _tree_builder(tree: ConstituencyTree, params: EvalbParams, preterminals: Preterminals) -> SentenceBuilder:
    """Walk a tree (words as leaves) into EVALB's reader: a preterminal of a Penn-style
    tree is ``(TAG word)``; any other leaf a terminal with an empty tag."""
    parent = tree.parent.tolist()
    kids = children_lists(parent)
    penn = preterminals == "drop" or (preterminals == "auto" and is_penn_style(tree))
    builder = SentenceBuilder(params)
    stack = [(node, False) for node in reversed(range(len(tree))) if parent[node] < 0]
    while stack:
        node, done = stack.pop()
        if done:
            builder.close()
        elif not kids[node]:
            builder.terminal("", tree.labels[node])
        elif penn and len(kids[node]) == 1 and not kids[kids[node][0]]:
            builder.terminal(tree.labels[node], tree.labels[kids[node][0]])
        else:
            builder.open(tree.labels[node])
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(kids[node]))
    return builder


def _counts(make, params: EvalbParams, location: Location) -> BracketCounts:
    """Score twice (LABELED 1 and 0) on fresh copies (``make()`` gives gold, candidate)."""
    out = BracketCounts()
    for labeled in (1, 0):
        gold, cand = make()
        result = score_sentence(gold, cand, params.with_options(labeled=labeled))
        if result.status == SKIP:
            return BracketCounts(skipped=1)
        if result.status == ERROR:
            if gold.wn != cand.wn:
                raise MismatchedCorpusError(f"{gold.wn} words in gold, {cand.wn} in the candidate", location)
            k = next(i for i in range(gold.wn) if not params.word_equal(gold.term(i)[0], cand.term(i)[0]))
            raise MismatchedCorpusError(f"word {k + 1} is {gold.term(k)[0]!r} in gold but "
                                        f"{cand.term(k)[0]!r} in the candidate", location.at_token(k + 1))
        out.gold, out.candidate = result.gold_brackets, result.test_brackets
        if labeled:
            out.matched_labelled = result.matched
        else:
            out.matched_unlabelled = result.matched
    return out


def bracket_counts(gold: ConstituencyTree, candidate: ConstituencyTree, params: Optional[EvalbParams] = None,
                   preterminals: Preterminals = "auto") -> BracketCounts:
    """GEIG counts for one sentence as EVALB counts them; raises
    :class:`MismatchedCorpusError` naming the first position where the words differ."""
    params = params or EvalbParams()
    return _counts(lambda: (_tree_builder(gold, params, preterminals).finish(),
                            _tree_builder(candidate, params, preterminals).finish()), params, candidate.location)


def text_bracket_counts(gold: str, candidate: str, params: Optional[EvalbParams] = None,
                        location: Optional[Location] = None) -> Optional[BracketCounts]:
    """GEIG counts of two bracketed sentences read as EVALB reads a line (outer bracket
    counted); None when a sentence is not in EVALB's ``(TAG word)`` form."""
    params = params or EvalbParams()
    problems: List[str] = []

    def error(message: str) -> None:
        problems.append(message)
        if len(problems) > 1:
            raise ValueError(message)  # EVALB would repeat this error until it gives up

    def make():
        try:
            sentences = read_sentence(" ".join(gold.split("\n")), params, error), \
                read_sentence(" ".join(candidate.split("\n")), params, error)
        except ValueError:
            sentences = None
        if problems:
            raise _NotEvalb()
        return sentences

    try:
        return _counts(make, params, location or Location())
    except _NotEvalb:
        return None


class _NotEvalb(Exception):
    pass


def file_bracket_counts(gold: Union[str, "os.PathLike[str]"], candidate: Union[str, "os.PathLike[str]"],
                        params: Optional[EvalbParams] = None) -> Optional[List[BracketCounts]]:
    """GEIG counts of two bracket files tree by tree (trees split as
    :func:`~spacy_agreement.read_brackets` splits them), from their text, so that the outer
    ``( ... )`` counts as in EVALB; None when a tree is not in EVALB's ``(TAG word)`` form."""
    from .adapters.brackets import split_brackets

    chunks: List[Sequence[Tuple[str, int]]] = []
    for path in (gold, candidate):
        with open(path, encoding="utf-8") as handle:
            chunks.append(split_brackets(handle.read(), str(path)))
    if len(chunks[0]) != len(chunks[1]):
        raise MismatchedCorpusError(f"{len(chunks[0])} gold sentences but {len(chunks[1])} candidate sentences")
    out = []
    for number, ((g, _), (c, _)) in enumerate(zip(*chunks), start=1):
        counts = text_bracket_counts(g, c, params, Location(str(candidate), number))
        if counts is None:
            return None
        out.append(counts)
    return out


def count_from_files(result, gold: Union[str, "os.PathLike[str]"], candidate: Union[str, "os.PathLike[str]"],
                     params: Optional[EvalbParams] = None) -> bool:
    """Replace the bracket counts of a leaf-ancestor ``result`` (per sentence and in total)
    by :func:`file_bracket_counts` of the files it was read from; False (nothing changed)
    when the files are not in EVALB's form."""
    counts = file_bracket_counts(gold, candidate, params)
    if counts is None or len(counts) != len(result.sentences):
        return False
    result.brackets = BracketCounts()
    for sentence, count in zip(result.sentences, counts):
        sentence.brackets = count
        result.brackets.add(count)
    return True
