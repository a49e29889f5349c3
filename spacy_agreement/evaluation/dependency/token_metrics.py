"""The built-in parser metrics over corpus-wide arrays: their compiled implementation (the
compiled path of :class:`~spacy_agreement.evaluation.dependency.accumulator.DependencyEvaluator`).

Every sentence's tokens are rows of flat arrays (:class:`TreeColumns`: heads, and the codes
of the text columns in one :class:`~spacy_agreement._conllu.StringTable` shared by gold and
prediction, so equal codes are equal strings). Each metric is then a few numpy operations
over all tokens of a batch of sentences, summed per sentence with ``np.bincount`` (whole
numbers, exact) or left to right (:func:`~spacy_agreement._conllu.segment_sums`, the
root-weighted LAS, whose weights are fractions), so that every figure is the one the
reference definitions of :mod:`.metrics` give, bit for bit:

* LAS, UAS, LA: the scored tokens with head and label, head, label right. With
  ``attachment="spacy"`` (the convention ``spacy``), LAS and UAS are spaCy's F over arcs
  instead (:func:`spacy_attachment_counts`, which the per-sentence path calls too).
* NED (Schwartz et al. 2011): the predicted head is the gold head, or the gold dependent
  of the token (edge reversed), or (``ned="schwartz"``) the gold grandparent.
* UCP/LCP (Plank et al. 2015, §2): a scored gold verb with a non-punctuation dependent is
  right when no non-punctuation token is its dependent on one side only (LCP: or with
  another label), which is the equality of the two sets of dependents.
* LAS content/function, root-weighted LAS: LAS over gold content words and the others,
  and weighted by ``options.weight(gold depth)`` (depths by
  :func:`~spacy_agreement._conllu.tree_depths`).
* CLAS, MLAS, BLEX (Zeman et al. 2018, as ``conll18_ud_eval.py``): content words by the
  universal part of the relation; MLAS also compares UPOS, the universal features (as a
  sorted list) and the functional children, which are equal when no token is a functional
  child of the word on one side only or with other relation, UPOS or features; BLEX the
  lemma (gold ``_`` matches any).
* TED: the Figure 1 trees of a batch built at once (:func:`~spacy_agreement._conllu.dependency_forest`,
  excluded tokens contracted) and compared by the Cython core (``forest_ted_pairs``);
  sentences too large for the tables are left out and noted, as before.

The per-sentence counts of a batch come back as arrays (sentences × metrics), from which
:class:`SentenceScores` gives the per-sentence rows on demand.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ... import _conllu, _core
from ..._background import Background
from ...adapters.conllu.trees import TreeColumns
from ...errors import BadOptionError, Location, ResourceLimitError
from ...limits import check_ted, max_memory
from .settings import EvaluationSettings, is_punct_form
from .ud_labels import CONTENT_DEPRELS, FUNCTIONAL_DEPRELS, UNIVERSAL_FEATURES, universal_deprel, universal_feats

#: the metrics computed here (every built-in one)
COMPILED_METRICS = frozenset({"las", "uas", "la", "ned", "ted", "ucp", "lcp", "las_content", "las_function",
                              "las_root_weighted", "clas", "mlas", "blex"})
FAST_METRICS = COMPILED_METRICS  # the name before "compiled"
#: sentences per batch: the temporaries of a batch are bounded whatever the corpus size
BATCH = 4096


def _codes(column: List[str], table: "_conllu.StringTable") -> np.ndarray:
    mapping = {value: table.code(value) for value in set(column)}
    return np.fromiter(map(mapping.__getitem__, column), dtype=np.int32, count=len(column))


def columns_from_trees(trees: Sequence[Any], table: "_conllu.StringTable") -> TreeColumns:
    """:class:`TreeColumns` of :class:`~spacy_agreement.trees.DependencyTree` objects (a
    missing lemma or FEATS column is ``_``, as :mod:`.ud_metrics` reads it)."""
    from itertools import chain

    lengths = np.fromiter((len(t) for t in trees), dtype=np.int64, count=len(trees))
    offsets = np.zeros(len(trees) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])

    def column(name: str) -> np.ndarray:
        values = list(chain.from_iterable(
            getattr(t, name) if len(getattr(t, name)) == len(t) else ("_",) * len(t) for t in trees))
        return _codes(values, table)

    heads = np.concatenate([t.heads for t in trees]).astype(np.int32) if len(trees) else np.zeros(0, np.int32)
    locations = [t.location for t in trees]
    return TreeColumns(offsets, heads, column("forms"), column("upos"), column("deprels"), column("lemmas"),
                       column("feats"), locations.__getitem__)


#: the properties of a code (:class:`CodeProperties`): codes of derived strings, then flags
_CODES = ("compared_gold", "compared_pred", "universal", "ufeats", "ted_label")
_PROPERTIES = _CODES + ("punct_upos", "punct_label", "punct_form", "content_upos", "verb_upos", "content_deprel",
                        "functional_deprel", "rootish", "underscore")


class CodeProperties:
    """What the metrics ask of a text value, per code of the table, computed once per
    distinct value (the table grows as files are read: :meth:`update` extends)."""

    def __init__(self, table: "_conllu.StringTable", options: EvaluationSettings):
        self.table, self.options = table, options
        self.size = 0
        self._arcs: Dict[bool, Dict[int, Tuple[int, bool]]] = {}
        self.arrays: Dict[str, np.ndarray] = {name: np.zeros(0, dtype=np.int32 if name in _CODES else bool)
                                              for name in _PROPERTIES}

    def update(self) -> "CodeProperties":
        strings = self.table.strings
        # new values (compared labels, features) are added to the table while it is read: loop
        while self.size < len(strings):
            start, stop = self.size, len(strings)
            new = strings[start:stop]
            o, code = self.options, self.table.code
            own = range(start, stop)  # each value's own code: what code(x) gives where x is what is looked up
            rootish = [x.lower() == "root" for x in new]
            # a label changes only through the map, or as a root relation or one with a subtype
            compared_gold = [code(o.label(x)) if r or ":" in x else c for c, x, r in zip(own, new, rootish)] \
                if not o.label_map else [code(o.label(x)) for x in new]
            compared_pred = [code(o.label(x, predicted=True)) for x in new] if o.label_map else compared_gold
            values = {
                "compared_gold": compared_gold,
                "compared_pred": compared_pred,
                "universal": [code(universal_deprel(x)) if ":" in x else c for c, x in zip(own, new)],
                # a value without "=" or "|" is one feature name or none ("_", a form, a lemma)
                "ufeats": [code("|".join(universal_feats(x))) if "=" in x or "|" in x
                           else code(x if x in UNIVERSAL_FEATURES else "") for x in new],
                "punct_upos": [x in o.punct_upos for x in new],
                "punct_label": [x in o.punct_labels for x in new],
                "punct_form": [is_punct_form(x) for x in new],
                "content_upos": [x in o.content_upos for x in new],
                "verb_upos": [x in o.verb_upos for x in new],
                "content_deprel": [x in CONTENT_DEPRELS for x in new],
                "functional_deprel": [x in FUNCTIONAL_DEPRELS for x in new],
                "rootish": rootish,
                "underscore": [x == "_" for x in new],
                "ted_label": [0 if x == "" else c + 1 for c, x in enumerate(new, start=start)],
            }
            for name, vals in values.items():
                part = np.asarray(vals, dtype=np.int32 if name in _CODES else bool)
                self.arrays[name] = np.concatenate([self.arrays[name], part])
            self.size = stop
        return self

    def __getitem__(self, name: str) -> np.ndarray:
        return self.arrays[name]

    def arcs(self, labels: np.ndarray, predicted: bool) -> Tuple[np.ndarray, np.ndarray]:
        """For each label code, the code of the label as spaCy's F over arcs compares it
        (:meth:`~.metric_options.EvaluationSettings.arc_label`: lowercased, through the label
        map on the predicted side) and whether it marks punctuation by the label rule;
        computed once per distinct label (forms and other columns never: their lowercased
        strings would only grow the table)."""
        o, table, strings = self.options, self.table, self.table.strings
        cache = self._arcs.setdefault(predicted, {})
        codes, inverse = np.unique(labels, return_inverse=True)
        for c in codes.tolist():
            if c not in cache:
                label = o.arc_label(strings[c], predicted)
                cache[c] = (table.code(label), "label" in o.punct_rules and o.arc_punct("", "", label))
        pairs = [cache[c] for c in codes.tolist()]
        arc = np.asarray([a for a, _ in pairs], dtype=np.int32).reshape(-1)
        punct = np.asarray([b for _, b in pairs], dtype=bool).reshape(-1)
        return arc[inverse.reshape(-1)], punct[inverse.reshape(-1)]


class BatchCounts:
    """One batch's per-sentence counts (``numerators``, ``denominators``: sentences ×
    metrics) and what the result keeps beside them."""

    def __init__(self, n: int, metrics: Sequence[str]):
        self.metrics = list(metrics)
        self.numerators = np.zeros((n, len(self.metrics)))
        self.denominators = np.zeros((n, len(self.metrics)))
        self.tokens = 0
        self.verbs = 0
        self.ud = np.zeros(5, dtype=np.int64)  # gold, system, clas, mlas, blex
        self.multi_root: List[int] = []
        self.limits: List[Tuple[int, str]] = []
        self.label_codes: Tuple[np.ndarray, np.ndarray, np.ndarray] = (np.zeros(0, np.int32),) * 3
        self.check_codes: Tuple[np.ndarray, np.ndarray] = (np.zeros(0, np.int32),) * 2
        #: the tree edit distances while they are computed on a second thread (:meth:`finish`)
        self.pending: Optional[Background] = None

    def finish(self) -> None:
        """The tree edit distances in (their column and the sentences over the limits), once
        computed beside the rest (``batch_counts(..., later=True)`` leaves them to this)."""
        if self.pending is not None:
            distances, normalisers, limits = self.pending.result()
            self.pending = None
            self.set("ted", distances, normalisers)
            self.limits.extend(limits)

    def set(self, metric: str, numerators: np.ndarray, denominators: np.ndarray) -> None:
        if metric in self.metrics:
            k = self.metrics.index(metric)
            self.numerators[:, k] = numerators
            self.denominators[:, k] = denominators


def form_rule_problem(gold: TreeColumns, props: CodeProperties) -> Optional[int]:
    """The first sentence without forms (every FORM ``_``) when the form rule needs them."""
    if "form" not in props.options.punct_rules or not len(gold):
        return None
    underscore = props["underscore"][gold.form]
    sid = np.repeat(np.arange(len(gold)), gold.lengths)
    count = np.bincount(sid, weights=underscore, minlength=len(gold))
    bad = np.flatnonzero(count == gold.lengths)
    return int(bad[0]) if len(bad) else None


def batch_counts(gold: TreeColumns, pred: TreeColumns, props: CodeProperties,
                 metrics: Sequence[str], later: bool = False) -> BatchCounts:
    """Every metric's counts for each sentence of a batch (same tokens on both sides). The tree
    edit distances are computed on a second thread (compiled, without the GIL) while the rest
    is counted; ``later``: still computing when this returns, :meth:`BatchCounts.finish` waits
    for them (so that they run beside the caller's next work as well)."""
    o = props.options
    ns = len(gold)
    out = BatchCounts(ns, metrics)
    if ns == 0:
        return out
    lengths = gold.lengths
    sid = np.repeat(np.arange(ns, dtype=np.int64), lengths)
    first = gold.offsets[:-1][sid]
    position = np.arange(len(sid), dtype=np.int64) - first + 1  # 1-based in the sentence
    gh, ph = gold.heads.astype(np.int64), pred.heads.astype(np.int64)
    gl, pl = props["compared_gold"][gold.deprel], props["compared_pred"][pred.deprel]

    def per(mask: np.ndarray) -> np.ndarray:
        return np.bincount(sid, weights=mask, minlength=ns) if len(sid) else np.zeros(ns)

    rules = o.punct_rules
    punct = np.zeros(len(sid), dtype=bool)
    if "upos" in rules:
        punct |= props["punct_upos"][gold.upos]
    if "label" in rules:
        punct |= props["punct_label"][gold.deprel]
    if "form" in rules:
        punct |= props["punct_form"][gold.form]
    scored = ~punct if o.exclude_punct else np.ones(len(sid), dtype=bool)
    if "ted" in metrics:
        out.pending = Background(_ted_counts, gold, pred, props, scored, max_memory(), name="spacy-agreement TED")
    head_ok, label_ok = gh == ph, gl == pl
    attached = head_ok & label_ok
    n_scored = per(scored)
    out.tokens = int(np.count_nonzero(scored))
    if o.attachment == "spacy":  # spaCy's F over arcs, each side's punctuation by its own columns
        g_arc, g_punct = props.arcs(gold.deprel, predicted=False)
        p_arc, p_punct = props.arcs(pred.deprel, predicted=True)
        if "upos" in rules:
            g_punct, p_punct = g_punct | props["punct_upos"][gold.upos], p_punct | props["punct_upos"][pred.upos]
        if "form" in rules:
            g_punct, p_punct = g_punct | props["punct_form"][gold.form], p_punct | props["punct_form"][pred.form]
        every = np.ones(len(sid), dtype=bool)
        las, uas = spacy_attachment_counts(sid, ns, position, gh, ph, g_arc == p_arc,
                                           ~g_punct if o.exclude_punct else every,
                                           ~p_punct if o.exclude_punct else every)
        out.set("las", *las)
        out.set("uas", *uas)
    else:
        out.set("las", per(scored & attached), n_scored)
        out.set("uas", per(scored & head_ok), n_scored)
    out.set("la", per(scored & label_ok), n_scored)

    def at(heads: np.ndarray) -> np.ndarray:
        """Row of each token's head (its own row for the root: masked by the callers)."""
        return np.where(heads > 0, first + heads - 1, np.arange(len(sid)))

    if "ned" in metrics:
        reverse = (ph != 0) & (gh[at(ph)] == position)
        ok = head_ok | reverse
        if o.ned == "schwartz":
            ok |= (gh != 0) & (gh[at(gh)] == ph)
        out.set("ned", per(scored & ok), n_scored)
    if {"las_content", "las_function"} & set(metrics):
        content = props["content_upos"][gold.upos]
        out.set("las_content", per(scored & content & attached), per(scored & content))
        out.set("las_function", per(scored & ~content & attached), per(scored & ~content))
    if "las_root_weighted" in metrics:
        depth = _conllu.tree_depths(np.ascontiguousarray(gold.heads, dtype=np.int32), gold.offsets)
        values, inverse = np.unique(depth, return_inverse=True)
        weights = np.asarray([o.weight(int(d)) for d in values.tolist()], dtype=np.float64)[inverse]
        right = np.where(scored, weights * attached.astype(np.float64), 0.0)
        total = np.where(scored, weights, 0.0)
        out.set("las_root_weighted", _conllu.segment_sums(np.ascontiguousarray(right), gold.offsets),
                _conllu.segment_sums(np.ascontiguousarray(total), gold.offsets))
    if True:  # the verbs are counted whatever the metrics (the result reports them)
        dependent = ~punct
        has_dependent = np.zeros(len(sid), dtype=bool)
        has_dependent[at(gh)[dependent & (gh > 0)]] = True
        verbs = has_dependent & props["verb_upos"][gold.upos] & scored
        bad_u = np.zeros(len(sid), dtype=bool)
        moved = dependent & ~head_ok
        bad_u[at(gh)[moved & (gh > 0)]] = True
        bad_u[at(ph)[moved & (ph > 0)]] = True
        bad_l = bad_u.copy()
        bad_l[at(gh)[dependent & head_ok & ~label_ok & (gh > 0)]] = True
        n_verbs = per(verbs)
        out.verbs = int(np.count_nonzero(verbs))
        out.set("ucp", per(verbs & ~bad_u), n_verbs)
        out.set("lcp", per(verbs & ~bad_l), n_verbs)
    if {"clas", "mlas", "blex"} & set(metrics):
        gud, pud = props["universal"][gl], props["universal"][pl]
        g_content, p_content = props["content_deprel"][gud], props["content_deprel"][pud]
        clas = g_content & head_ok & (gud == pud)
        g_feats, p_feats = props["ufeats"][gold.feats], props["ufeats"][pred.feats]
        same_tags = (gold.upos == pred.upos) & (g_feats == p_feats)
        g_fun = (gh != 0) & props["functional_deprel"][gud]
        p_fun = (ph != 0) & props["functional_deprel"][pud]
        same = g_fun & p_fun & head_ok
        bad_f = np.zeros(len(sid), dtype=bool)
        bad_f[at(gh)[g_fun & ~(same & (gud == pud) & same_tags)]] = True
        bad_f[at(ph)[p_fun & ~same]] = True
        mlas = clas & same_tags & ~bad_f
        underscore = props["underscore"][gold.lemma]
        blex = clas & (underscore | (gold.lemma == pred.lemma))
        n_gold, n_system = per(g_content), per(p_content)
        denominator = n_gold + n_system
        for name, right in (("clas", clas), ("mlas", mlas), ("blex", blex)):
            out.set(name, 2 * per(right), denominator)
        out.ud += np.asarray([np.count_nonzero(g_content), np.count_nonzero(p_content), np.count_nonzero(clas),
                              np.count_nonzero(mlas), np.count_nonzero(blex)], dtype=np.int64)
    pred_roots = per(ph == 0)
    gold_roots = per(gh == 0)
    out.multi_root = np.flatnonzero((pred_roots > 1) & (gold_roots == 1)).tolist()
    out.label_codes = (gl[scored], pl[scored], attached[scored])
    out.check_codes = (gl, pl)
    if not later:
        out.finish()
    return out


def spacy_attachment_counts(sid: np.ndarray, ns: int, position: np.ndarray, gold_heads: np.ndarray,
                            pred_heads: np.ndarray, same_label: np.ndarray, gold_kept: np.ndarray,
                            pred_kept: np.ndarray) -> Tuple[Tuple[np.ndarray, np.ndarray],
                                                             Tuple[np.ndarray, np.ndarray]]:
    """LAS and UAS as spaCy's F over arcs, per sentence: ``((2·matched labelled, |gold| +
    |pred|), (2·matched unlabelled, |gold| + |pred|))``, so that the corpus figure, the summed
    numerators over the summed denominators, is the F of arcs summed over the corpus.

    What ``spacy.scorer.Scorer.score_deps`` computes (spaCy 3.8, called by the parser's
    ``parser_score`` with ``ignore_labels=("p", "punct")`` and a getter that lowercases every
    label): the gold arcs are the (token, head, label) of the reference's tokens whose label
    is not punctuation, the predicted arcs those of the predicted tokens whose *own*
    (predicted) label is not punctuation, and the unlabelled sets the same pairs without
    the label. Its ``PRFScore`` sums over the corpus tp (arcs in both sets), fp (predicted
    only) and fn (gold only); F = 2PR / (P + R) with P = tp / (tp + fp) = tp / |pred| and
    R = tp / |gold|, which is 2·tp / (|gold| + |pred|), the form kept here (summable per
    sentence, as CLAS's F1: the value is spaCy's, up to the rounding of the last bit of a
    double). A token is in both sets when neither side calls it punctuation; it matches
    (unlabelled) when the heads agree, (labelled) when the labels agree too: a word the
    prediction labels ``punct`` and the gold does not is a gold arc with no predicted arc
    (recall lost), punctuation the prediction labels otherwise a predicted arc with no gold
    arc (precision lost). spaCy's root is its own head (label ``ROOT``, ``root`` lowercased):
    here the root is head 0, and a token that is its own head is read as a root, as spaCy
    would read it.

    ``sid`` (each token's sentence, ``ns`` sentences), ``position`` (1-based in its sentence),
    the heads (1-based, 0 the root), ``same_label`` (the labels as compared,
    :meth:`~.metric_options.EvaluationSettings.arc_label`, equal) and the tokens kept on each
    side (not punctuation by that side's own label, when punctuation is left out) are flat
    arrays over the tokens of all sentences."""
    gh = np.where(gold_heads == position, 0, gold_heads)
    ph = np.where(pred_heads == position, 0, pred_heads)
    matched = gold_kept & pred_kept & (gh == ph)

    def per(mask: np.ndarray) -> np.ndarray:
        return np.bincount(sid, weights=mask, minlength=ns) if len(sid) else np.zeros(ns)

    arcs = per(gold_kept) + per(pred_kept)
    return (2 * per(matched & same_label), arcs), (2 * per(matched), arcs)


def _ted_counts(gold: TreeColumns, pred: TreeColumns, props: CodeProperties, scored: np.ndarray, limit: int
                ) -> Tuple[np.ndarray, np.ndarray, List[Tuple[int, str]]]:
    """TED and normaliser per sentence (0, 0 for a sentence too large for ``limit`` bytes of
    tables, :func:`~spacy_agreement.limits.max_memory` when the batch was counted), and the
    sentences left out so, with why. Reads ``props``' arrays, writes nothing shared (it runs on
    a thread of its own: :func:`batch_counts`)."""
    limits: List[Tuple[int, str]] = []
    o = props.options
    keep = (scored if o.exclude_punct else np.ones(len(scored), dtype=bool)).astype(np.int8)
    labels = props["ted_label"]
    forests = [_conllu.dependency_forest(np.ascontiguousarray(side.heads, dtype=np.int32),
                                         np.ascontiguousarray(labels[compared]), keep, side.offsets)
               for side, compared in ((gold, props["compared_gold"][gold.deprel]),
                                      (pred, props["compared_pred"][pred.deprel]))]
    ns = len(gold)
    sizes_g, sizes_p = np.diff(forests[0][2]), np.diff(forests[1][2])
    kept = np.bincount(np.repeat(np.arange(ns), gold.lengths), weights=keep, minlength=ns).astype(np.int64)
    kept = np.where(kept > 0, kept, gold.lengths)  # contract() keeps a tree with nothing kept as it is
    size = kept + 1
    norm = {"sum": 2 * size, "max": size, "gold": size}.get(o.ted_norm)
    if norm is None:
        raise BadOptionError(f"unknown TED normalisation {o.ted_norm!r}: 'sum', 'max' or 'gold'")
    ok = np.ones(ns, dtype=bool)
    largest = int(max(sizes_g.max(), sizes_p.max()))
    try:
        check_ted(largest, largest, kernels=1, limit=limit)
    except ResourceLimitError:
        for s in range(ns):
            try:
                check_ted(int(sizes_g[s]), int(sizes_p[s]), kernels=1, limit=limit)
            except ResourceLimitError as exc:
                ok[s] = False
                limits.append((s, f"ted: {exc.message}"))
    labels_all = np.concatenate([forests[0][0], forests[1][0]])
    lml_all = np.concatenate([forests[0][1], forests[1][1]])
    offsets_all = np.concatenate([forests[0][2], forests[1][2][1:] + forests[0][2][-1]])
    kr_all = np.concatenate([forests[0][3], forests[1][3]])
    kr_offsets_all = np.concatenate([forests[0][4], forests[1][4][1:] + forests[0][4][-1]])
    pairs = np.flatnonzero(ok).astype(np.int64)
    ted = np.zeros(ns)
    if len(pairs):
        ted[pairs] = _core.forest_ted_pairs(labels_all, lml_all, offsets_all, kr_all, kr_offsets_all, pairs,
                                            pairs + ns)
    return ted, np.where(ok, norm, 0).astype(np.float64), limits


class SentenceScores(Sequence):
    """The per-sentence scores of an evaluation (one dict per scored sentence, as
    :attr:`~.result.EvaluationResult.sentences` lists them), computed on demand
    from the per-sentence counts: ``nan`` where a sentence has nothing to count."""

    def __init__(self, metrics: Sequence[str], numerators: np.ndarray, denominators: np.ndarray,
                 value: Callable[[str, float, float], float]):
        self.metrics, self.numerators, self.denominators, self._value = list(metrics), numerators, denominators, value

    def __len__(self) -> int:
        return len(self.numerators)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        row_n, row_d = self.numerators[index].tolist(), self.denominators[index].tolist()
        return {m: self._value(m, n, d) for m, n, d in zip(self.metrics, row_n, row_d)}

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, SentenceScores)):
            return len(self) == len(other) and all(_same_row(a, b) for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"SentenceScores({len(self)} sentences, {', '.join(self.metrics)})"


def _same_row(a: Dict[str, float], b: Dict[str, float]) -> bool:
    return a.keys() == b.keys() and all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in
                                        ((a[k], b[k]) for k in a))


def batches(n: int, size: int = BATCH) -> Iterator[Tuple[int, int]]:
    for start in range(0, n, size):
        yield start, min(n, start + size)
