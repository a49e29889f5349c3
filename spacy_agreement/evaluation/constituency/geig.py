"""GEIG (Parseval) bracket scores, counted by EVALB's own rules (Sampson & Babarczy 2003, §1 and §3).

GEIG/unlabelled (Black et al. 1991) matches brackets by word span; GEIG/labelled (Collins
1997, the EVALB default) by span and label. Precision, recall and F = 2PR / (P + R) per
sentence, and for a corpus EVALB's micro-average (matches, gold and candidate brackets
summed over sentences).

Every count goes through :mod:`spacy_agreement.evaluation.constituency.evalb`, the reimplementation of Sekine &
Collins' EVALB, so that ``leaf-ancestor --evalb-params`` and ``evalb`` give the same
numbers: labelled counts are EVALB's with ``LABELED 1``, unlabelled ones with ``LABELED 0``,
whatever the parameter file says. In short:

* every nonterminal node is a bracket, the root included, and so is the unlabelled outer
  bracket of ``( (S ...) )`` (kept by the reader as ``ConstituencyTree.outer_brackets``);
  part-of-speech preterminals are not brackets in Penn-style trees (``preterminals`` as in
  :mod:`spacy_agreement.evaluation.constituency.lineage`); in other trees each word is a bare terminal;
* brackets are matched greedily, each at most once; labels lose function tags and indices
  (everything from the first ``-`` or ``=``) before ``DELETE_LABEL`` and ``EQ_LABEL`` apply;
* words tagged with a ``DELETE_LABEL`` (traces, punctuation) are removed *before* gold and
  candidate words are compared, so gold ``-NONE-`` traces against a candidate without them
  are fine; ``QUOTE_LABEL`` repairs apply as in EVALB;
* words that still differ raise :class:`MismatchedCorpusError` (EVALB's error sentence); a
  candidate left without words is EVALB's skip: it counts nothing (``skipped``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from ...errors import MismatchedCorpusError, undefined
from .evalb_params import EvalbSettings
from .evalb_reference import SentenceBuilder, score_sentence
from .evalb_report import ERROR, SKIP
from .lineage import Preterminals, is_penn_style
from ...trees import ConstituencyTree, children_lists

__all__ = ["BracketCounts", "EvalbSettings", "bracket_counts"]


@dataclass
class BracketCounts:
    """Matches and bracket totals, unlabelled and labelled; ``skipped`` and ``errors`` count
    the sentences EVALB skips (no candidate word left) and reports as errors (different
    words), which add nothing."""

    gold: int = 0
    candidate: int = 0
    matched_unlabelled: int = 0
    matched_labelled: int = 0
    skipped: int = 0
    errors: int = 0

    def add(self, other: "BracketCounts") -> None:
        self.gold += other.gold
        self.candidate += other.candidate
        self.matched_unlabelled += other.matched_unlabelled
        self.matched_labelled += other.matched_labelled
        self.skipped += other.skipped
        self.errors += other.errors

    def scores(self) -> Dict[str, float]:
        """Precision, recall and F, unlabelled and labelled. With no bracket on either side
        (no sentence scored: every one skipped or an error, or none with a bracket) nothing
        was compared: every score is undefined, ``nan`` with one
        :class:`~spacy_agreement.errors.UndefinedMetricWarning` (EVALB prints ``-nan``)."""
        if not self.gold and not self.candidate:
            nan = undefined("geig", "no bracket to compare (no sentence scored, or none with a bracket)")
            return {key: nan for key in ("geig_unlabelled", "geig_labelled", "precision_unlabelled",
                                         "recall_unlabelled", "precision_labelled", "recall_labelled")}

        def prf(matched: int) -> Tuple[float, float, float]:
            p = matched / self.candidate if self.candidate else 0.0  # brackets on the other side only: 0
            r = matched / self.gold if self.gold else 0.0
            return p, r, (2 * p * r / (p + r) if p + r else 0.0)

        pu, ru, fu = prf(self.matched_unlabelled)
        pl, rl, fl = prf(self.matched_labelled)
        return {"geig_unlabelled": fu, "geig_labelled": fl, "precision_unlabelled": pu,
                "recall_unlabelled": ru, "precision_labelled": pl, "recall_labelled": rl}


def _tree_builder(tree: ConstituencyTree, params: EvalbSettings, preterminals: Preterminals) -> SentenceBuilder:
    """Walk a tree (words as leaves) into EVALB's reader: a preterminal of a Penn-style
    tree is ``(TAG word)``; any other leaf a terminal with an empty tag."""
    parent = tree.parent.tolist()
    kids = children_lists(parent)
    penn = preterminals == "drop" or (preterminals == "auto" and is_penn_style(tree))
    builder = SentenceBuilder(params)
    for _ in range(tree.outer_brackets):  # ( (S ...) ): EVALB counts the unlabelled bracket
        builder.open("")
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
    for _ in range(tree.outer_brackets):
        builder.close()
    return builder


def bracket_counts(gold: ConstituencyTree, candidate: ConstituencyTree, params: Optional[EvalbSettings] = None,
                   preterminals: Preterminals = "auto") -> BracketCounts:
    """GEIG counts for one sentence as EVALB counts them (scored twice, with ``LABELED`` 1
    and 0, each on a fresh reading: EVALB's scoring changes what it reads); raises
    :class:`MismatchedCorpusError` naming the first position where the words differ."""
    params = params or EvalbSettings()
    location = candidate.location
    out = BracketCounts()
    for labeled in (1, 0):
        g, c = (_tree_builder(t, params, preterminals).finish() for t in (gold, candidate))
        result = score_sentence(g, c, params.with_options(labeled=labeled))
        if result.status == SKIP:
            return BracketCounts(skipped=1)
        if result.status == ERROR:
            if g.wn != c.wn:
                raise MismatchedCorpusError(f"{g.wn} words in gold, {c.wn} in the candidate", location)
            k = next(i for i in range(g.wn) if not params.word_equal(g.term(i)[0], c.term(i)[0]))
            raise MismatchedCorpusError(f"word {k + 1} is {g.term(k)[0]!r} in gold but "
                                        f"{c.term(k)[0]!r} in the candidate", location.at_token(k + 1))
        out.gold, out.candidate = result.gold_brackets, result.test_brackets
        if labeled:
            out.matched_labelled = result.matched
        else:
            out.matched_unlabelled = result.matched
    return out
