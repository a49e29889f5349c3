"""CLAS, MLAS and BLEX: the content-word parsing scores of the CoNLL 2018 shared task.

Zeman et al. (2018), "CoNLL 2018 Shared Task: Multilingual Parsing from Raw Text to
Universal Dependencies" (CoNLL 2018 Shared Task proceedings), in the section on evaluation
metrics, define three scores beside LAS that look
only at *content words*, the words attached by a content relation:

* **CLAS** (content-word LAS): a content word is right when its head and its relation are.
* **MLAS** (morphology-aware LAS): as CLAS, and also its UPOS and universal features, and
  its *functional children*, each with the same head (the word), relation, UPOS and
  universal features.
* **BLEX** (bilexical dependency score): as CLAS, and also its lemma.

Each is an F1 score, ``F1 = 2PR / (P + R)``: precision over the content words of the
prediction, recall over the content words of the gold tree; a word counts as correct when
it is a gold content word and everything the score compares is equal. The choices, those
of the shared task's ``conll18_ud_eval.py``, whose numbers these equal to the last digit on
identical tokenisation (F1 is computed as ``2·correct / (gold + system)``, the same
value as 2PR/(P+R) but the same floating-point operations as the script):

* Relations are compared by their universal part: ``nmod:poss`` counts as ``nmod``
  (for every score here, whatever the subtype option of :mod:`.metrics` says).
* Content relations: nsubj obj iobj csubj ccomp xcomp obl vocative expl dislocated advcl
  advmod discourse nmod appos nummod acl amod conj fixed flat compound list parataxis
  orphan goeswith reparandum root dep. Functional relations: aux cop mark det clf case cc.
  Any other relation (punct, or a label outside UD such as spaCy's English ``dobj``) is
  neither: its words are never scored and are not functional children.
* Universal features are those of the 21 universal feature names (PronType, NumType, Poss,
  Reflex, Foreign, Abbr, Gender, Animacy, Number, Case, Definite, Degree, VerbForm, Mood,
  Tense, Aspect, Voice, Evident, Polarity, Person, Polite); other names, including layered
  ones such as ``Number[psor]``, are dropped. Values are not checked: ``Case=Xyz`` is kept
  and compared. A FEATS value is split at ``|``; an item without ``=`` (CoNLL-X style
  ``sg|nom``) is kept whole and is universal only if it is itself a universal name. The
  kept items are compared as a multiset, order ignored; ``_`` is no features.
* The functional children of a word are the words attached to it by a functional relation,
  compared as a list in token order of (position, relation, UPOS, universal features).
* Lemma ``_`` in the gold tree means "not annotated": any predicted lemma matches it.
  Otherwise lemmas are compared exactly (case-sensitive), and a predicted ``_`` is wrong.
* Heads are compared as token positions; the root has head 0. Trees with several roots or
  head cycles (which the script refuses to read) are scored as they are.

Tokenisation: the script aligns gold and system words through the characters of the text,
so that words missing on one side lower recall or precision. Here gold and prediction must
have the *same tokens* (the ``evaluate`` contract), so word ``k`` of one is word ``k`` of
the other. Sentences whose tokens differ raise
:class:`~spacy_agreement.errors.MismatchedCorpusError`, or with ``skip_mismatched=True``
are left out entirely (their words count in neither precision nor recall, where the script
would count the unaligned words as errors).

Undefined values are ``nan`` with an :class:`~spacy_agreement.errors.UndefinedMetricWarning`
(the library's policy; the script prints 0 there): precision without a content word in the
prediction, recall without one in the gold, F1 without one on either side.

The three scores are also rows of the parser-metric table
(:data:`~spacy_agreement.evaluation.dependency.metrics.PARSER_METRICS`, count
``(2·correct, gold + system)``), which is how :func:`~.accumulator.evaluate`, the spaCy
scorer and the judgments analysis read them; :class:`UDScores` keeps the counts behind them
for precision and recall. The
options of :class:`~spacy_agreement.evaluation.dependency.metrics.EvaluationSettings` (punctuation,
subtypes) do not apply to these scores.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, List, Optional, Sequence, Tuple

from ...agreement.accuracy import token_mismatch
from ...errors import MismatchedCorpusError, ratio
from ...trees import DependencyTree

CONTENT_DEPRELS = frozenset({
    "nsubj", "obj", "iobj", "csubj", "ccomp", "xcomp", "obl", "vocative", "expl", "dislocated",
    "advcl", "advmod", "discourse", "nmod", "appos", "nummod", "acl", "amod", "conj", "fixed", "flat",
    "compound", "list", "parataxis", "orphan", "goeswith", "reparandum", "root", "dep",
})
FUNCTIONAL_DEPRELS = frozenset({"aux", "cop", "mark", "det", "clf", "case", "cc"})
UNIVERSAL_FEATURES = frozenset({
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy", "Number", "Case",
    "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice", "Evident", "Polarity", "Person",
    "Polite",
})
UD_METRICS = ("clas", "mlas", "blex")


def universal_deprel(label: str) -> str:
    """The universal part of a relation: ``nmod:poss`` → ``nmod``."""
    return label.split(":", 1)[0]


def feature_items(feats: Optional[str]) -> Tuple[str, ...]:
    """The items of a FEATS value as written (``"Case=Nom|Number=Sing"`` → two items);
    ``_``, ``None`` and empty items give nothing."""
    if not feats or feats == "_":
        return ()
    return tuple(item for item in feats.split("|") if item and item != "_")


def parse_feats(feats: Optional[str]) -> Dict[str, str]:
    """A FEATS value as a dict, ``"A=B|C=D"`` → ``{"A": "B", "C": "D"}``. Tolerant of
    CoNLL-X values: an item without ``=`` maps to ``""`` (``"sg|nom"`` → ``{"sg": "", "nom": ""}``)."""
    out: Dict[str, str] = {}
    for item in feature_items(feats):
        name, _, value = item.partition("=")
        out[name] = value
    return out


@lru_cache(maxsize=1 << 16)
def universal_feats(feats: Optional[str]) -> Tuple[str, ...]:
    """The items of a FEATS value whose name is a universal feature, sorted (remembered for
    the last 65,536 values: a corpus has a few thousand, each met again block after block)."""
    return tuple(sorted(item for item in feature_items(feats) if item.split("=", 1)[0] in UNIVERSAL_FEATURES))


@dataclass(frozen=True)
class UDScores:
    """Counts behind CLAS, MLAS and BLEX and the scores: ``gold``/``system`` are the content
    words of the gold tree and of the prediction (the same for the three scores),
    ``correct`` the words each score counts right. Add two with ``+``."""

    gold: int = 0
    system: int = 0
    clas_correct: int = 0
    mlas_correct: int = 0
    blex_correct: int = 0

    def __add__(self, other: "UDScores") -> "UDScores":
        return UDScores(self.gold + other.gold, self.system + other.system, self.clas_correct + other.clas_correct,
                        self.mlas_correct + other.mlas_correct, self.blex_correct + other.blex_correct)

    def correct(self, metric: str) -> int:
        if metric not in UD_METRICS:
            raise ValueError(f"unknown metric {metric!r}: one of {', '.join(UD_METRICS)}")
        return getattr(self, f"{metric}_correct")

    def precision(self, metric: str) -> float:
        return ratio(self.correct(metric), self.system, f"{metric}_precision", "no content word in the prediction")

    def recall(self, metric: str) -> float:
        return ratio(self.correct(metric), self.gold, f"{metric}_recall", "no content word in the gold tree")

    def f1(self, metric: str) -> float:
        """2PR/(P+R), computed as ``2·correct / (gold + system)`` (as conll18_ud_eval.py)."""
        return ratio(2 * self.correct(metric), self.system + self.gold, metric,
                     "no content word in the gold tree or the prediction")

    @property
    def clas(self) -> float:
        return self.f1("clas")

    @property
    def mlas(self) -> float:
        return self.f1("mlas")

    @property
    def blex(self) -> float:
        return self.f1("blex")

    def scores(self) -> Dict[str, float]:
        """The three F1 scores, keyed ``clas``, ``mlas``, ``blex``."""
        return {m: self.f1(m) for m in UD_METRICS}

    def to_dict(self) -> Dict[str, float]:
        """F1, precision, recall and counts of each score, flat."""
        out: Dict[str, float] = {}
        for m in UD_METRICS:
            out[m] = self.f1(m)
            out[f"{m}_precision"] = self.precision(m)
            out[f"{m}_recall"] = self.recall(m)
            out[f"{m}_correct"] = self.correct(m)
        out["content_words_gold"] = self.gold
        out["content_words_system"] = self.system
        return out


def _column(tree: DependencyTree, name: str) -> Tuple[str, ...]:
    values = getattr(tree, name, ())
    return values if len(values) == len(tree) else ("_",) * len(tree)


class _Words:
    """What the scores compare, per token of one tree (0-based lists)."""

    def __init__(self, tree: DependencyTree):
        n = len(tree)
        self.heads: List[int] = tree.heads.tolist()
        self.deprels = [universal_deprel(d) for d in tree.deprels]
        self.upos = tree.upos
        self.feats = [universal_feats(f) for f in _column(tree, "feats")]
        self.lemmas = _column(tree, "lemmas")
        self.content = [d in CONTENT_DEPRELS for d in self.deprels]
        children: List[List[tuple]] = [[] for _ in range(n + 1)]
        for k in range(n):
            if self.heads[k] and self.deprels[k] in FUNCTIONAL_DEPRELS:
                children[self.heads[k]].append((k + 1, self.deprels[k], self.upos[k], self.feats[k]))
        self.functional_children = children[1:]


def ud_counts(gold: DependencyTree, pred: DependencyTree) -> UDScores:
    """CLAS/MLAS/BLEX counts of one sentence; token ``k`` of ``gold`` is token ``k`` of
    ``pred`` (same tokens assumed, only the number of tokens is checked)."""
    if len(gold) != len(pred):
        raise ValueError(f"gold has {len(gold)} tokens but prediction {len(pred)}")
    g, p = _Words(gold), _Words(pred)
    clas = mlas = blex = 0
    for k in range(len(gold)):
        if not g.content[k]:
            continue
        if g.heads[k] != p.heads[k] or g.deprels[k] != p.deprels[k]:
            continue
        clas += 1
        if (g.upos[k] == p.upos[k] and g.feats[k] == p.feats[k]
                and g.functional_children[k] == p.functional_children[k]):
            mlas += 1
        if g.lemmas[k] == "_" or g.lemmas[k] == p.lemmas[k]:
            blex += 1
    return UDScores(sum(g.content), sum(p.content), clas, mlas, blex)


def ud_scores(gold: Sequence[DependencyTree], pred: Sequence[DependencyTree],
              skip_mismatched: bool = False) -> UDScores:
    """CLAS, MLAS and BLEX of a corpus (micro-averaged: counts summed over sentences).

    Gold and prediction must have the same sentences with the same tokens; a sentence
    whose tokens differ raises :class:`MismatchedCorpusError`, or with
    ``skip_mismatched=True`` is left out of every count.
    """
    if len(gold) != len(pred):
        raise MismatchedCorpusError(f"{len(gold)} gold sentences but {len(pred)} predicted")
    total = UDScores()
    for g, p in zip(gold, pred):
        problem = token_mismatch(g, p)
        if problem is not None:
            if skip_mismatched:
                continue
            raise MismatchedCorpusError(f"gold and prediction differ in tokens: {problem}", g.location)
        total = total + ud_counts(g, p)
    return total


def clas(gold: DependencyTree, pred: DependencyTree) -> float:
    """CLAS F1 of one sentence (Zeman et al. 2018)."""
    return ud_scores([gold], [pred]).clas


def mlas(gold: DependencyTree, pred: DependencyTree) -> float:
    """MLAS F1 of one sentence (Zeman et al. 2018)."""
    return ud_scores([gold], [pred]).mlas


def blex(gold: DependencyTree, pred: DependencyTree) -> float:
    """BLEX F1 of one sentence (Zeman et al. 2018)."""
    return ud_scores([gold], [pred]).blex
