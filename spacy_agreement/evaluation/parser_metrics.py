"""Dependency parser evaluation metrics over a gold and a predicted tree of the same tokens
(Plank et al. 2015, §2), per sentence and micro-averaged over a corpus.

* **LAS, UAS, LA** (§2): tokens with the right head and label, the right head, the right label.
* **NED**, neutral edge direction (Schwartz et al. 2011): a predicted edge h → d counts when
  the gold tree has h → d, or the reversed edge d → h, or h is d's gold grandparent.
  ``ned="undirected"`` drops the grandparent case (h → d or d → h in the gold): that is what
  reproduces the English NED of Plank et al. (2015), Table 2 (see benchmarks/plank2015_parity.md).
* **TED accuracy** in the style of Tsarfaty et al. (2011): 1 − TED(g, p) / norm(g, p) over the
  Figure 1 trees of Skjærholt (2014) (labelled nodes, unit costs). ``ted_norm="sum"`` (the
  default, as TedEval) divides by |g| + |p|; ``"max"`` by max(|g|, |p|); ``"gold"`` by |g|. The
  corpus score is 1 − ΣTED / Σnorm ("normalised global error", TedEval's default).
* **UCP, LCP**, unlabelled and labelled complete predications (§2): over the gold verbs (gold
  UPOS in ``verb_upos``) that have at least one non-punctuation dependent, the set of children
  (punctuation excluded, whether or not ``exclude_punct`` is set) must be the same, and for
  LCP their labels too. Verbs without dependents are left out, as in the paper.
* **POS-wise LAS** (§5, Table 6): LAS over content words (gold UPOS ADJ, NOUN, PROPN, VERB)
  and over function words (all others).
* **Root-distance weighted LAS** (§4): LAS in which each token weighs ``weight(depth)``, its
  depth in the gold tree (1 for a token attached to the root). The paper only says "edges
  weighted proportionally to their log-distance to root", motivated by attachments near the
  root mattering more; the default here is ``1 / log2(1 + depth)`` (1, 0.63, 0.5, ... so
  edges near the root weigh most). ``"log"`` gives the literal reading ``log2(1 + depth)``,
  or pass any function of the depth. Tokens in a gold head cycle get depth ``len(sentence)``.

* **CLAS, MLAS, BLEX** (Zeman et al. 2018, the CoNLL 2018 shared task): F1 over content
  words, see :mod:`spacy_agreement.evaluation.ud_metrics` (defined there; the options below do not
  apply to them).

Part-of-speech sets default to UD tags; for other tag sets (e.g. CDT's ``VA`` verbs) set
``verb_upos`` and ``content_upos``. Options apply uniformly to every metric
(:class:`EvaluationOptions`): punctuation can be
excluded; a gold token is punctuation by any of the ``punct_rules``: ``"upos"`` (gold UPOS in
``punct_upos``), ``"label"`` (gold label in ``punct_labels``) and ``"form"`` (the CoNLL-07
``eval.pl`` rule, :func:`is_punct_form`: the form is Unicode punctuation characters only, which
Plank et al. 2015 follow). The default is ``{"upos", "label"}``; the paper's figures need
``{"form"}`` (the only rule that works for treebanks without UD tags and labels). For TED excluded
tokens are removed from both trees (their children move up to their head, an edit
distance "delete"). Label subtypes can be ignored (``nmod:poss`` → ``nmod``).

Gold and prediction must have the same tokens (count, and forms where both are known):
otherwise :class:`~spacy_agreement.errors.MismatchedCorpusError` names the sentence, unless
``skip_mismatched=True``, which counts and lists the skipped sentences.
"""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..agreement.accuracy import ScoresByName, token_mismatch
from ..agreement.deltas import tree_edit_distance
from ..errors import MismatchedCorpusError
from ..trees import DependencyTree
from .ud_metrics import UDScores, ud_counts

CONTENT_UPOS = frozenset({"ADJ", "NOUN", "PROPN", "VERB"})
PUNCT_RULES = ("upos", "label", "form")
NED_VARIANTS = ("schwartz", "undirected")
METRICS = ("las", "uas", "la", "ned", "ted", "ucp", "lcp", "las_content", "las_function", "las_root_weighted")
Weight = Union[str, Callable[[int], float]]


@dataclass(frozen=True)
class EvaluationOptions:
    """Options applied the same way to every metric (see the module docstring)."""

    exclude_punct: bool = False
    punct_upos: FrozenSet[str] = frozenset({"PUNCT"})
    punct_labels: FrozenSet[str] = frozenset({"punct"})
    ignore_subtypes: bool = False
    ted_norm: str = "sum"
    root_weight: Weight = "inverse-log"
    verb_upos: FrozenSet[str] = frozenset({"VERB"})
    content_upos: FrozenSet[str] = CONTENT_UPOS
    punct_rules: FrozenSet[str] = frozenset({"upos", "label"})  # or a string "upos,label"
    ned: str = "schwartz"

    def __post_init__(self) -> None:
        if isinstance(self.punct_rules, str):  # "upos,label", as the CLI and scorer configs write it
            rules = frozenset(r.strip().lower() for r in self.punct_rules.split(",") if r.strip())
            object.__setattr__(self, "punct_rules", rules)
        unknown = set(self.punct_rules) - set(PUNCT_RULES)
        if unknown:
            raise ValueError(f"unknown punctuation rule(s) {sorted(unknown)}: choose from {', '.join(PUNCT_RULES)}")
        if self.ned not in NED_VARIANTS:
            raise ValueError(f"unknown NED variant {self.ned!r}: {' or '.join(NED_VARIANTS)}")

    def label(self, label: str) -> str:
        return label.split(":", 1)[0] if self.ignore_subtypes else label

    def is_punct(self, form: str, upos: str, label: str) -> bool:
        """Whether a gold token is punctuation by any of the ``punct_rules``."""
        rules = self.punct_rules
        return (("upos" in rules and upos in self.punct_upos) or ("label" in rules and label in self.punct_labels)
                or ("form" in rules and is_punct_form(form)))

    def weight(self, depth: int) -> float:
        if callable(self.root_weight):
            return float(self.root_weight(depth))
        if self.root_weight == "inverse-log":
            return 1.0 / math.log2(1 + depth)
        if self.root_weight == "log":
            return math.log2(1 + depth)
        if self.root_weight == "uniform":
            return 1.0
        raise ValueError(f"unknown root weight {self.root_weight!r}: 'inverse-log', 'log', 'uniform' or a function")


@dataclass
class Counts:
    """Numerators and denominators of every metric for one sentence or a corpus."""

    values: Dict[str, List[float]] = field(default_factory=lambda: {m: [0.0, 0.0] for m in METRICS})

    def add(self, metric: str, correct: float, total: float) -> None:
        entry = self.values[metric]
        entry[0] += correct
        entry[1] += total

    def merge(self, other: "Counts") -> None:
        for metric, (correct, total) in other.values.items():
            self.add(metric, correct, total)

    def scores(self) -> Dict[str, float]:
        out = {}
        for metric, (correct, total) in self.values.items():
            if metric == "ted":  # stored as (error, norm)
                out[metric] = 1.0 - correct / total if total else math.nan
            else:
                out[metric] = correct / total if total else math.nan
        return out


def is_punct_form(form: str) -> bool:
    """The CoNLL-07 ``eval.pl`` rule: a form of Unicode punctuation characters only (every
    character's general category starts with ``P``: « » — … ¿ count, $ + do not)."""
    return bool(form) and all(unicodedata.category(ch).startswith("P") for ch in form)


def _is_punct(tree: DependencyTree, options: EvaluationOptions) -> np.ndarray:
    if "form" in options.punct_rules and all(f == "_" for f in tree.forms):
        raise ValueError(f"{tree.location}: the 'form' punctuation rule needs word forms, and this sentence has none")
    return np.fromiter((options.is_punct(f, u, d) for f, u, d in zip(tree.forms, tree.upos, tree.deprels)),
                       dtype=bool, count=len(tree))


def gold_depths(tree: DependencyTree) -> np.ndarray:
    """Depth of each token in the tree (1 = attached to the root); ``len(tree)`` in a cycle."""
    n = len(tree)
    heads = tree.heads.tolist()
    depth = [0] * n
    for k in range(n):
        node, steps = k + 1, 0
        while node != 0 and steps <= n:
            node = heads[node - 1]
            steps += 1
        depth[k] = steps if node == 0 else n
    return np.asarray(depth, dtype=np.int64)


def contract(tree: DependencyTree, keep: np.ndarray) -> DependencyTree:
    """The tree without the tokens where ``keep`` is False: their dependents move up to the
    nearest kept ancestor (or the root), as a tree edit distance "delete" does."""
    heads = tree.heads.tolist()
    index = np.cumsum(keep).tolist()  # new 1-based position of kept token k is index[k-1]
    new_heads = []
    for k in np.flatnonzero(keep).tolist():
        head, steps = heads[k], 0
        while head != 0 and not keep[head - 1] and steps <= len(heads):
            head = heads[head - 1]
            steps += 1
        new_heads.append(0 if head == 0 or not keep[head - 1] else index[head - 1])
    pick = np.flatnonzero(keep).tolist()
    if not pick:
        return tree
    return DependencyTree.create(
        new_heads, [tree.deprels[k] for k in pick], [tree.forms[k] for k in pick],
        [tree.upos[k] for k in pick], [tree.ids[k] for k in pick], tree.location,
    )


def sentence_counts(gold: DependencyTree, pred: DependencyTree, options: EvaluationOptions) -> Counts:
    """Every metric's numerator and denominator for one sentence (tokens assumed equal)."""
    counts = Counts()
    n = len(gold)
    punct = _is_punct(gold, options)
    scored = ~punct if options.exclude_punct else np.ones(n, dtype=bool)
    g_heads, p_heads = gold.heads.tolist(), pred.heads.tolist()
    g_labels = [options.label(x) for x in gold.deprels]
    p_labels = [options.label(x) for x in pred.deprels]
    depths = gold_depths(gold)
    for k in np.flatnonzero(scored).tolist():
        head_ok = g_heads[k] == p_heads[k]
        label_ok = g_labels[k] == p_labels[k]
        las = float(head_ok and label_ok)
        counts.add("las", las, 1)
        counts.add("uas", float(head_ok), 1)
        counts.add("la", float(label_ok), 1)
        group = "las_content" if gold.upos[k] in options.content_upos else "las_function"
        counts.add(group, las, 1)
        w = options.weight(int(depths[k]))
        counts.add("las_root_weighted", w * las, w)
        h, d = p_heads[k], k + 1
        gold_head = g_heads[k]
        reversed_edge = h != 0 and g_heads[h - 1] == d
        grandparent = options.ned == "schwartz" and gold_head != 0 and g_heads[gold_head - 1] == h
        counts.add("ned", float(h == gold_head or reversed_edge or grandparent), 1)
    # complete predications over the gold verbs with at least one non-punctuation dependent
    for v in range(1, n + 1):
        if gold.upos[v - 1] not in options.verb_upos or not scored[v - 1]:
            continue
        g_children = {(c + 1, g_labels[c]) for c in range(n) if g_heads[c] == v and not punct[c]}
        if not g_children:
            continue
        p_children = {(c + 1, p_labels[c]) for c in range(n) if p_heads[c] == v and not punct[c]}
        counts.add("ucp", float({c for c, _ in g_children} == {c for c, _ in p_children}), 1)
        counts.add("lcp", float(g_children == p_children), 1)
    # tree edit distance over the Figure 1 trees (stored as error and normaliser)
    g_tree, p_tree = gold, pred
    if options.exclude_punct:
        g_tree, p_tree = contract(gold, scored), contract(pred, scored)
    if options.ignore_subtypes:
        g_tree = _relabelled(g_tree, options)
        p_tree = _relabelled(p_tree, options)
    ted = tree_edit_distance(g_tree, p_tree)
    size_g, size_p = len(g_tree) + 1, len(p_tree) + 1
    norm = {"sum": size_g + size_p, "max": max(size_g, size_p), "gold": size_g}.get(options.ted_norm)
    if norm is None:
        raise ValueError(f"unknown TED normalisation {options.ted_norm!r}: 'sum', 'max' or 'gold'")
    counts.add("ted", ted, norm)
    return counts


def _relabelled(tree: DependencyTree, options: EvaluationOptions) -> DependencyTree:
    return DependencyTree.create(tree.heads.tolist(), [options.label(x) for x in tree.deprels], tree.forms,
                                 tree.upos, tree.ids, tree.location)


@dataclass
class EvaluationResult(ScoresByName):
    """Corpus scores (micro-averaged), per-sentence scores and what was skipped."""

    scores: Dict[str, float]
    sentences: List[Dict[str, float]]
    counts: Counts
    skipped: List[str] = field(default_factory=list)
    ud: UDScores = field(default_factory=UDScores)  # counts behind clas, mlas, blex

    def to_dict(self) -> Dict[str, float]:
        out: Dict[str, float] = dict(self.scores)
        out["tokens"] = int(self.counts.values["las"][1])
        out["verbs"] = int(self.counts.values["ucp"][1])
        out["sentences"] = len(self.sentences)
        out["sentences_skipped"] = len(self.skipped)
        return out


def evaluate(
    gold: Sequence[DependencyTree],
    pred: Sequence[DependencyTree],
    options: Optional[EvaluationOptions] = None,
    skip_mismatched: bool = False,
    check_forms: bool = True,
) -> EvaluationResult:
    """Every metric of the module for a corpus of gold and predicted trees, sentence by sentence.
    ``check_forms=False`` compares only the number of tokens (for a parser that rewrote forms,
    e.g. numbers as ``<num>``; the form punctuation rule reads the gold forms)."""
    options = options or EvaluationOptions()
    if len(gold) != len(pred):
        source = lambda trees: trees[0].location.source if len(trees) else "<empty>"  # noqa: E731
        raise MismatchedCorpusError(
            f"{len(gold)} gold sentences ({source(gold)}) but {len(pred)} predicted ({source(pred)})"
        )
    total, ud = Counts(), UDScores()
    per_sentence: List[Dict[str, float]] = []
    skipped: List[str] = []
    for number, (g, p) in enumerate(zip(gold, pred), start=1):
        problem = _token_problem(g, p, check_forms)
        if problem is not None:
            if not skip_mismatched:
                raise MismatchedCorpusError(f"gold and prediction differ in tokens: {problem}", g.location)
            skipped.append(f"{g.location}: {problem}")
            continue
        counts = sentence_counts(g, p, options)
        total.merge(counts)
        sentence_ud = ud_counts(g, p)
        ud = ud + sentence_ud
        per_sentence.append({**counts.scores(), **sentence_ud.scores()})
    return EvaluationResult({**total.scores(), **ud.scores()}, per_sentence, total, skipped, ud)


def _token_problem(gold: DependencyTree, pred: DependencyTree, check_forms: bool) -> Optional[str]:
    if check_forms:
        return token_mismatch(gold, pred)
    return None if len(gold) == len(pred) else f"{len(gold)} tokens against {len(pred)}"


def sentence_scores(gold: DependencyTree, pred: DependencyTree,
                    options: Optional[EvaluationOptions] = None, check_forms: bool = True) -> Dict[str, float]:
    """Every metric for one sentence (``nan`` where a metric has nothing to count, e.g. UCP
    without verbs)."""
    problem = _token_problem(gold, pred, check_forms)
    if problem is not None:
        raise MismatchedCorpusError(f"gold and prediction differ in tokens: {problem}", gold.location)
    return sentence_counts(gold, pred, options or EvaluationOptions()).scores()


def labelled_attachment_score(gold: DependencyTree, pred: DependencyTree, **options) -> float:
    """LAS of one sentence (Plank et al. 2015, §2)."""
    return sentence_scores(gold, pred, EvaluationOptions(**options))["las"]


def unlabelled_attachment_score(gold: DependencyTree, pred: DependencyTree, **options) -> float:
    """UAS of one sentence (Plank et al. 2015, §2)."""
    return sentence_scores(gold, pred, EvaluationOptions(**options))["uas"]


def label_accuracy(gold: DependencyTree, pred: DependencyTree, **options) -> float:
    """LA of one sentence (Plank et al. 2015, §2)."""
    return sentence_scores(gold, pred, EvaluationOptions(**options))["la"]


def neutral_edge_direction(gold: DependencyTree, pred: DependencyTree, **options) -> float:
    """NED of one sentence (Schwartz et al. 2011, as used by Plank et al. 2015)."""
    return sentence_scores(gold, pred, EvaluationOptions(**options))["ned"]


def ted_accuracy(gold: DependencyTree, pred: DependencyTree, **options) -> float:
    """TED accuracy of one sentence (Tsarfaty et al. 2011; normalisation in the module doc)."""
    return sentence_scores(gold, pred, EvaluationOptions(**options))["ted"]


def complete_predications(gold: DependencyTree, pred: DependencyTree, **options) -> Tuple[float, float]:
    """(UCP, LCP) of one sentence (Plank et al. 2015, §2)."""
    scores = sentence_scores(gold, pred, EvaluationOptions(**options))
    return scores["ucp"], scores["lcp"]
