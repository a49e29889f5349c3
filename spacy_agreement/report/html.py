"""A self-contained HTML report of an annotation project, to adjudicate from.

Sections (each an element with an ``id`` so tools can find it):

* ``summary``: α for every δ in % (100 is perfect agreement; with its interval when sampled), one line
  on what each δ measures and on how α was computed, the uncorrected scores, and everything
  skipped or set aside, with the reason;
* ``items``: the items to adjudicate first, ranked by the mean squared δnorm between their
  annotations (``rank_by``: so that long sentences do not come first for their length
  alone), named by ``sent_id`` (else file, line and sentence number) with their text; all
  analyses of an item in one aligned picture (:mod:`.svg`: with two annotators the first's
  arcs above the words and the second's below, differing arcs red with their labels, agreeing
  ones grey; phrase trees as brackets over the same words, words shaded by leaf-ancestor
  score); filters by annotator pair and by confused label pair (a click on a count of the
  confusion table), in a small script of the page's own;
* ``annotators``: pairwise scores (LAS or Jaccard, α plain and norm of the pair), and for three
  or more annotators α with each one left out;
* ``confusions``: the label pairs annotators confuse most (same head, another relation; or the
  same span, another category);
* ``plots`` (with matplotlib): histograms of the δ within items, and for three or more
  annotators the pairwise matrix, as PNG with readable labels;
* ``layers`` (dependency trees): agreement on every annotation layer (:mod:`.layers_html`);
* ``breakdowns`` (with ``gold``, one annotator the reference): the others' attachment against it
  by arc length, direction, depth, sentence length, UPOS and relation (:mod:`.breakdown_html`).

Everything is inline (SVG, CSS, one script, base64 images): one file to send around, no
network. Every string from the input (words, tags, labels, item, file and annotator names, the
title) reaches the page through :func:`~spacy_agreement.report.escape.text`: markup in the
input shows as text. 200 items of UD English EWT take about 1.7 MB and 3 s.
"""
from __future__ import annotations

import warnings
from collections import Counter
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Callable, List, Optional, Sequence, Tuple

import numpy as np

from ..adapters.brackets import from_nltk, to_nltk
from ..agreement.accuracy import AccuracyResult, pairwise_accuracy, token_mismatch
from ..agreement.alpha import AlphaResult
from ..agreement.layers import LayersResult
from ..agreement.run import counted_as
from ..agreement.deltas import get_delta
from ..agreement.alpha import alpha
from ..agreement.settings import AlphaSettings
from ..corpus import Corpus
from ..errors import BadOptionError, UndefinedMetricWarning
from ..evaluation.constituency.leaf_ancestor import score_lineages
from ..evaluation.constituency.lineage import phrase_lineages
from ..trees import ConstituencyTree, DependencyTree
from .breakdown_html import report_breakdowns
from .escape import text as esc
from .format import percent as _percent
from .layers_html import LAYERS_SCRIPT, report_layers
from .plots import plots as _plots
from .svg import STYLE as SVG_STYLE
from .svg import dependency_svg, phrase_svg_from_trees
from .text import alpha_method_line

STYLE = """
body{font-family:Arial,Helvetica,sans-serif;margin:1.5em 2em;color:#222;max-width:1400px}
h1{font-size:1.6em;margin-bottom:.2em} h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0} td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f4f4f4} td.name,th.name{text-align:left} td.why{text-align:left;color:#555;font-size:.9em}
.item{border:1px solid #ddd;border-radius:6px;padding:.5em .8em;margin:.8em 0}
.item h3{margin:.1em 0 .3em 0;font-size:1.05em} .item .text{color:#444;font-size:.92em;margin:.1em 0 .4em 0}
.muted{color:#777;font-size:.9em} .picture{margin:.2em 0}
#filters{position:sticky;top:0;background:#fff;padding:.4em 0;border-bottom:1px solid #eee;z-index:1}
td.pick{cursor:pointer;color:#1f5fbf;text-decoration:underline} .tree{font-family:monospace;font-size:.85em}
"""

#: What each built-in δ measures, one line each (a registered δ shows its own description).
DELTA_TEXT = {
    "plain": "tree edit distance: the nodes to relabel, insert or delete to turn one analysis into the other",
    "diff": "tree edit distance less the difference in sentence length: disagreement beyond what different "
            "lengths force",
    "norm": "tree edit distance divided by the summed lengths: long sentences weigh no more than short ones",
}
#: Rankings of the items: a δ whose mean squared value over an item's pairs orders the items.
DEFAULT_RANKING = "norm"


def _quiet_alpha(corpus: Corpus, settings: AlphaSettings) -> AlphaResult:
    """α under the user's settings (method, budget, threads, δ; no bootstrap, no progress
    bar), warnings silenced: the pairwise and leave-one-out tables."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return alpha(corpus, replace(settings, bootstrap=0, progress=False))


def _is_whole_corpus(result: AlphaResult, corpus: Corpus, names: Sequence[str], both: int,
                     settings: AlphaSettings) -> bool:
    """Whether the α of the one pair of annotators over the items both annotated is ``result``
    itself: two annotators, every item annotated by both (the same trees in the same order, so the
    same sums to the last bit), α exact, or sampled (the same pairs drawn from the same seed), and
    computed under the page's settings."""
    if len(names) != 2 or both != len(corpus.items) or result.items != both or result.items_unpairable:
        return False
    if result.settings.method not in ("exact", "sampled"):
        return False
    mine = replace(settings, bootstrap=0, progress=False, method=result.settings.method,
                   deltas=result.settings.deltas)
    theirs = replace(result.settings, bootstrap=0, progress=False)
    return mine == theirs


def _nltk_with_words(tree: ConstituencyTree):
    """A word-less tree as an NLTK tree with its words put back under the preterminals."""
    t = to_nltk(tree)
    leaves = [sub for sub in t.subtrees() if len(sub) == 0]  # preorder: left to right
    for leaf, word in zip(leaves, tree.words or ()):
        leaf.append(word)
    return t


def _with_words(tree: ConstituencyTree) -> ConstituencyTree:
    """The same tree with the words as its leaves (what leaf-ancestor scores)."""
    return from_nltk(_nltk_with_words(tree), leaves="categories", location=tree.location)


def pairwise_matrix(corpus: Corpus, label: Optional[Callable[[str], str]] = None,
                    exclude_mismatched: bool = False) -> Tuple[List[str], np.ndarray]:
    """LAS (dependency) or Jaccard (phrase) between every two annotators, over the items both
    annotated, computed as the summary computes it (:func:`pairwise_accuracy`, with ``label``
    and ``exclude_mismatched``): LAS over the tokens both annotated, so that a token not
    annotated yet (a partial tree) is no disagreement, and with two annotators the pair's
    figure is the summary's (``nan`` where the pair has no token to compare)."""
    names = list(corpus.annotators)
    key = "las" if corpus.family == "dependency" else "jaccard"
    matrix = np.full((len(names), len(names)), np.nan)
    for i, j in combinations(range(len(names)), 2):
        pair = (names[i], names[j])
        both = [(name, {n: item[n] for n in pair}) for name, item in zip(corpus.names, corpus.items)
                if pair[0] in item and pair[1] in item]
        if not both:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)  # nan: no comparable token
            scores = pairwise_accuracy(Corpus(pair, [it for _, it in both], [n for n, _ in both], corpus.family),
                                       exclude_mismatched=exclude_mismatched, label=label).scores
        matrix[i, j] = matrix[j, i] = scores[key]
    np.fill_diagonal(matrix, 1.0)
    return names, matrix


def _pair_matrix(corpus: Corpus, settings: AlphaSettings, accuracy: AccuracyResult) -> Tuple[List[str], np.ndarray]:
    """:func:`pairwise_matrix` under ``settings``; with two annotators who both annotated every item,
    the summary's figure where ``accuracy`` was counted so (the same items and labels: computed once)."""
    names = list(corpus.annotators)
    key = "las" if corpus.family == "dependency" else "jaccard"
    if len(names) == 2 and getattr(accuracy, "_counted_as", None) == counted_as(corpus, settings) and \
            key in accuracy.scores and corpus.items and all(len(item) == 2 for item in corpus.items) and \
            all(n in item for item in corpus.items for n in names):
        matrix = np.full((2, 2), accuracy.scores[key])
        np.fill_diagonal(matrix, 1.0)
        return names, matrix
    return pairwise_matrix(corpus, settings.label, settings.exclude_mismatched)


def label_pairs(a, b) -> Counter:
    """Label pairs two annotations of one item confuse: the same head with another relation,
    or the same span with another category (each pair sorted, so counted in either order)."""
    counts: Counter = Counter()
    if token_mismatch(a, b) is not None:
        return counts
    if isinstance(a, DependencyTree):
        for h1, h2, d1, d2 in zip(a.heads.tolist(), b.heads.tolist(), a.deprels, b.deprels):
            if h1 == h2 and d1 != d2:
                counts[tuple(sorted((d1, d2)))] += 1
    else:
        spans_a = {(s, e): lab for s, e, lab in a.brackets()}
        for s, e, lab in b.brackets():
            other = spans_a.get((s, e))
            if other is not None and other != lab:
                counts[tuple(sorted((other, lab)))] += 1
    return counts


def confusions(corpus: Corpus, k: int = 15) -> List[Tuple[str, str, int]]:
    """Label pairs annotators confuse most over the corpus (:func:`label_pairs`)."""
    counts: Counter = Counter()
    for item in corpus.items:
        for a, b in combinations([item[n] for n in corpus.annotators if n in item], 2):
            counts.update(label_pairs(a, b))
    return [(x, y, n) for (x, y), n in counts.most_common(k)]


def _same(a, b) -> bool:
    if isinstance(a, DependencyTree):
        return len(a) == len(b) and a.heads.tolist() == b.heads.tolist() and a.deprels == b.deprels
    return a.brackets() == b.brackets() and a.n_leaves == b.n_leaves


def item_heading(name: str, trees: Sequence[object]) -> Tuple[str, str]:
    """How an item is named in the report: its ``sent_id`` where a file gave one, else the
    file, line and sentence number of its first annotation; and its text."""
    first = trees[0]
    location = getattr(first, "location", None)
    sent_id = next((t.location.sent_id for t in trees if getattr(t.location, "sent_id", None)), None)
    if sent_id:
        label = f"sent_id {sent_id}"
    elif location is not None and location.sentence is not None and location.source and \
            not location.source.startswith("<"):  # a file, not "<string>" or "<doc>"
        line = f":{location.line}" if getattr(location, "line", None) else ""
        label = f"{location.source}{line}, sentence {location.sentence}"
    else:
        label = name
    words = first.forms if isinstance(first, DependencyTree) else (first.words or ())
    return label, " ".join(words)


def _phrase_scores(trees: Sequence[ConstituencyTree]) -> Optional[List[float]]:
    """Each word's mean leaf-ancestor score of the other trees against the first (the
    reference), where every tree has the same words; else ``None``."""
    if any(t.words is None or t.words != trees[0].words for t in trees):
        return None
    reference = phrase_lineages(_with_words(trees[0]), "drop")
    rows = [[w.score for w in score_lineages([reference], [phrase_lineages(_with_words(t), "drop")])[0]]
            for t in trees[1:]]
    return [float(np.mean(column)) for column in zip(*rows)] if rows else None


def item_picture(names: Sequence[str], trees: Sequence[object]) -> str:
    """All analyses of one item in one aligned picture (:mod:`.svg`); annotations over
    different tokens are drawn one by one."""
    try:
        if isinstance(trees[0], DependencyTree):
            if all(len(t) == len(trees[0]) for t in trees):
                return dependency_svg(trees[0].forms, [(n, t.heads.tolist(), t.deprels) for n, t in zip(names, trees)],
                                      inline_style=False)
            return "".join(dependency_svg(t.forms, [(n, t.heads.tolist(), t.deprels)], inline_style=False)
                           for n, t in zip(names, trees))
        return phrase_svg_from_trees(list(zip(names, trees)), scores=_phrase_scores(trees), inline_style=False)
    except ValueError:  # leaves that do not line up: the brackets as text
        return "".join(f'<div class="tree"><b>{esc(n)}</b> {esc(_bracket_text(t))}</div>' for n, t in zip(names, trees))


def _bracket_text(tree: ConstituencyTree) -> str:
    shown = _nltk_with_words(tree) if tree.words is not None else to_nltk(tree)
    return " ".join(str(shown).split())


SCRIPT = """
(function () {
  var pair = document.getElementById('pair-filter'), label = document.getElementById('label-filter');
  var count = document.getElementById('filter-count');
  function has(list, value) { return (' ' + (list || '') + ' ').indexOf(' ' + value + ' ') >= 0; }
  function apply() {
    var shown = 0;
    document.querySelectorAll('div.item').forEach(function (item) {
      var ok = (!pair.value || has(item.dataset.pairs, pair.value)) && (!label.value || has(item.dataset.labels, label.value));
      item.hidden = !ok;
      if (ok) { shown += 1; }
    });
    count.textContent = shown + ' shown';
  }
  pair.addEventListener('change', apply);
  label.addEventListener('change', apply);
  document.querySelectorAll('td[data-confusion]').forEach(function (cell) {
    cell.addEventListener('click', function () {
      label.value = cell.dataset.confusion; apply();
      document.getElementById('items').scrollIntoView();
    });
  });
  apply();
})();
"""


@dataclass
class ReportPage:
    """The report (``html``) and what the CLI's summary line says about it."""

    html: str
    items_shown: int
    items_disagreeing: int

    @property
    def size(self) -> int:
        return len(self.html.encode("utf-8"))


def build_report(corpus: Corpus, items: int = 50, title: str = "Syntactic annotation agreement",
                 computed: Optional[Tuple[AlphaResult, AccuracyResult]] = None,
                 rank_by: str = DEFAULT_RANKING, settings: Optional[AlphaSettings] = None,
                 layers: Optional[LayersResult] = None, gold: Optional[str] = None) -> ReportPage:
    """The report page (module docstring). ``items``: how many of the most disagreeing items
    to draw (the filters work on these); ``rank_by``: the δ whose mean squared value over an
    item's pairs of annotations ranks the items (``norm`` by default, so that long sentences
    do not come first for their length alone); ``computed``: α and the accuracies of the
    corpus when the caller has them (else computed here); ``settings``: how every α of the
    page is computed, the pairwise and leave-one-out ones included (default: the settings
    of ``computed``'s α, else the package's defaults); ``layers``: the per-layer agreement
    (computed here for a dependency corpus); ``gold``: the annotator whose trees are the
    reference, which adds the breakdowns of the others' attachment against it
    (:mod:`.breakdown_html`). The page ends with the signature."""
    if settings is None:
        settings = computed[0].settings if computed is not None and computed[0] is not None else AlphaSettings()
    breakdowns = "" if gold is None else \
        report_breakdowns(corpus, gold, settings.ignore_subtypes, settings.fold_root_case)
    if computed is None:
        accuracy = pairwise_accuracy(corpus, exclude_mismatched=settings.exclude_mismatched, label=settings.label)
        accuracy._counted_as = counted_as(corpus, settings)  # type: ignore[attr-defined]
        computed = (_quiet_alpha(corpus, settings), accuracy)
    result, accuracy = computed
    # the pairwise and leave-one-out α over the δ of the corpus α, by its settings
    settings = replace(settings, deltas=tuple(result.settings.deltas) or settings.deltas)
    kinds = list(result.alphas)
    if rank_by not in kinds:
        raise BadOptionError(f"cannot rank items by {rank_by!r}: choose from {', '.join(kinds)}")
    names, matrix = _pair_matrix(corpus, settings, accuracy)
    family = corpus.family
    metric = "LAS" if family == "dependency" else "Jaccard"
    out: List[str] = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{esc(title)}</title>"
                      f"<style>{STYLE}{SVG_STYLE}</style></head><body><h1>{esc(title)}</h1>"]
    # ---------------------------------------------------------------- summary
    out.append('<section id="summary"><h2>Summary</h2>')
    out.append(f"<p>{len(corpus.annotators)} annotators ({', '.join(esc(a) for a in corpus.annotators)}); "
               f"{result.items} items with {result.annotations} annotations ({esc(family)} trees).</p>")
    out.append(f"<p class='muted'>{esc(alpha_method_line(result))}. Krippendorff's α is 100% for perfect agreement, "
               "0 for agreement at chance level and negative below it (Skjærholt 2014); every score on this page is "
               "a percentage.</p>")
    out.append("<table><tr><th class='name'>measure</th><th>value (%)</th><th class='name'>what it measures</th></tr>")
    for kind in kinds:
        value = _percent(result.alphas[kind])
        if kind in result.low:
            value += f" <span class='muted'>[{_percent(result.low[kind])}, {_percent(result.high[kind])}]</span>"
        why = DELTA_TEXT.get(kind) or get_delta(kind).description or "a registered distance"
        out.append(f"<tr><td class='name'>α {esc(kind)}</td><td>{value}</td><td class='why'>{esc(why)}</td></tr>")
    for key, value in accuracy.scores.items():
        label = {"las": "LAS", "uas": "UAS", "la": "LA", "jaccard": "Jaccard"}.get(key, key)
        why = {"las": "tokens with the same head and relation (%)", "uas": "tokens with the same head (%)",
               "la": "tokens with the same relation (%)", "jaccard": "brackets in common over brackets in either (%)"
               }.get(key, "")
        out.append(f"<tr><td class='name'>{esc(label)}</td><td>{_percent(value)}</td><td class='why'>{why}</td></tr>")
    out.append("</table>")
    read = corpus.read_stats.values()
    skipped = [
        (result.items_unpairable, "item(s) with fewer than two annotations: not pairable, left out of α"),
        (result.cycle_tokens, "token(s) in head cycles (self-heads, no root): left out of the TED trees"),
        (accuracy.items_mismatched, "item(s) whose annotations differ in tokens: "
         + ("scored by Jaccard" if accuracy.mismatched_scored else "left out of the accuracies")),
        (sum(s.failed_parses for s in read), "failed parse(s): missing annotations"),
        (len(result.partial_trees), "partial tree(s) (heads or relations not annotated, HEAD _ or DEPREL _): "
         "missing annotations of α"),
        (result.attached_tokens, "head(s) or relation(s) not annotated compared as 'unannotated' (--partial attach): "
         + ", ".join(f"α {esc(k)} {_percent(v)} against {_percent(result.alphas_missing[k])}"
                     for k, v in result.alphas.items() if k in result.alphas_missing)
         + " with partial trees as missing annotations"),
        (accuracy.tokens_unannotated, f"token(s) not annotated: the accuracies compare "
         f"{_percent(accuracy.coverage, sign=True)} of token pairs"),
        (accuracy.tokens_unlabelled, f"relation(s) not annotated (DEPREL _): LAS and LA compare "
         f"{_percent(accuracy.label_coverage, sign=True)} of token pairs, UAS their heads"),
        (len(corpus.matched_by.resegmented) if corpus.matched_by is not None else 0,
         "item(s) paired by position whose annotators segmented the text otherwise: in α as they are"),
        (sum(s.multiword_ranges for s in read), "multi-word token range(s): not part of the tree"),
        (sum(s.empty_nodes for s in read), "empty node(s): not part of the basic tree"),
    ]
    out.append("<h3>Skipped or set aside</h3><table>")
    out.extend(f"<tr><td>{n}</td><td class='why'>{why}</td></tr>" for n, why in skipped)
    notes = corpus.matched_by.notes if corpus.matched_by is not None else ()
    out.extend(f"<tr><td>input</td><td class='why'>{esc(note)}</td></tr>" for note in notes)
    resegmented = corpus.matched_by.resegmented if corpus.matched_by is not None else ()
    out.extend(f"<tr><td>segmented otherwise</td><td class='why'>{esc(entry)}</td></tr>" for entry in resegmented)
    out.append("</table></section>")
    # ---------------------------------------------------------------- items
    column = kinds.index(rank_by)
    disagreement = result.item_disagreement[:, column] if result.items else np.zeros(0)
    order = [int(i) for i in np.argsort(-disagreement, kind="stable") if disagreement[i] > 0]
    by_name = {n: it for n, it in zip(corpus.names, corpus.items)}
    shown = order[:items]
    pair_ids = {(a, b): f"p{i}" for i, (a, b) in enumerate(combinations(range(len(names)), 2))}
    confused = confusions(corpus, k=40)
    confusion_ids = {(x, y): f"c{i}" for i, (x, y, _) in enumerate(confused)}
    out.append('<section id="items"><h2>Items to adjudicate</h2>')
    out.append(f'<p class="muted">The {len(shown)} items (of {len(order)} with any disagreement) with the largest mean '
               f'squared δ{esc(rank_by)} between their annotations. Arcs (or brackets) that differ between the '
               "annotators are red with their labels; agreeing ones are grey. With two annotators the first's "
               "analysis is drawn above the words and the second's below; words of phrase trees are shaded by "
               "their leaf-ancestor score (white = 100%). Hover a word for who attaches it where.</p>")
    out.append('<div id="filters">annotators: <select id="pair-filter"><option value="">any pair</option>')
    out.extend(f'<option value="{pid}">{esc(names[a])} / {esc(names[b])}</option>' for (a, b), pid in pair_ids.items())
    out.append('</select> labels: <select id="label-filter"><option value="">any labels</option>')
    out.extend(f'<option value="{cid}">{esc(x)} / {esc(y)}</option>' for (x, y), cid in confusion_ids.items())
    out.append('</select> <span id="filter-count" class="muted"></span></div>')
    for rank, index in enumerate(shown, start=1):
        name = result.item_names[index]
        item = by_name[name]
        present = [n for n in corpus.annotators if n in item]
        trees = [item[n] for n in present]
        pairs, labels = [], Counter()
        for (a, b), pid in pair_ids.items():
            if names[a] in item and names[b] in item and not _same(item[names[a]], item[names[b]]):
                pairs.append(pid)
                labels.update(label_pairs(item[names[a]], item[names[b]]))
        label_ids = [confusion_ids[pair] for pair in labels if pair in confusion_ids]
        heading, words = item_heading(name, trees)
        out.append(f'<div class="item" data-item="{esc(name)}" data-pairs="{" ".join(pairs)}" '
                   f'data-labels="{" ".join(label_ids)}"><h3>{rank}. {esc(heading)} <span class="muted">mean '
                   f'δ{esc(rank_by)}² {disagreement[index]:.3f}</span></h3><div class="text">{esc(words)}</div>'
                   f'<div class="picture">{item_picture(present, trees)}</div></div>')
    out.append("</section>")
    # ---------------------------------------------------------------- annotators
    out.append('<section id="annotators"><h2>Annotators</h2>')
    out.append("<p class='muted'>Each pair of annotators over the items both annotated (partial trees included): "
               + (f"{metric} as in the summary, over the tokens both annotated (a token not annotated yet is no "
                  "disagreement), so that with two annotators it is the summary's figure; "
                  if family == "dependency" else f"{metric} as in the summary; ")
               + "α over those items, a partial tree "
               + ("compared with its unannotated tokens on the root." if settings.partial == "attach"
                  else "a missing annotation.") + "</p>")
    alpha_heads = "".join(f"<th>α {esc(kind)} (%)</th>" for kind in kinds)
    out.append(f"<table><tr><th class='name'>pair</th><th>items both annotated</th><th>{metric} (%)</th>"
               f"{alpha_heads}</tr>")
    for a, b in combinations(range(len(names)), 2):
        both = [{names[a]: it[names[a]], names[b]: it[names[b]]} for it in corpus.items
                if names[a] in it and names[b] in it]
        if len(both) < 2:
            pair_alpha = None
        elif _is_whole_corpus(result, corpus, names, len(both), settings):
            pair_alpha = result  # the pair's α is the corpus α: computed once
        else:
            pair_alpha = _quiet_alpha(Corpus((names[a], names[b]), both, [str(k) for k in range(len(both))], family),
                                      settings)
        cells = "".join(f"<td>{_percent(pair_alpha.alphas[kind]) if pair_alpha else 'n/a'}</td>" for kind in kinds)
        out.append(f"<tr><td class='name'>{esc(names[a])} / {esc(names[b])}</td><td>{len(both)}</td>"
                   f"<td>{_percent(matrix[a, b])}</td>{cells}</tr>")
    out.append("</table>")
    if len(names) >= 3:  # leaving one out says something only when two or more remain
        heads = "".join(f"<th>α {esc(kind)} without them (%)</th>" for kind in kinds)
        out.append(f"<table><tr><th class='name'>annotator</th><th>items</th>{heads}</tr>")
        for annotator in corpus.annotators:
            others = tuple(x for x in corpus.annotators if x != annotator)
            reduced = Corpus(others, [{k: v for k, v in it.items() if k != annotator} for it in corpus.items],
                             corpus.names, family)
            left_out = _quiet_alpha(reduced, settings)
            count = sum(annotator in it for it in corpus.items)
            cells = "".join(f"<td>{_percent(left_out.alphas[kind])}</td>" for kind in kinds)
            out.append(f"<tr><td class='name'>{esc(annotator)}</td><td>{count}</td>{cells}</tr>")
        out.append("</table>")
    out.append("</section>")
    # ---------------------------------------------------------------- confusions
    out.append('<section id="confusions"><h2>Labels annotators confuse most</h2>'
               '<p class="muted">Click a count to see the items above where those labels are confused.</p><table>'
               "<tr><th class='name'>label</th><th class='name'>confused with</th><th>times</th></tr>")
    for x, y, n in confused[:15]:
        out.append(f"<tr><td class='name'>{esc(x)}</td><td class='name'>{esc(y)}</td>"
                   f"<td class='pick' data-confusion='{confusion_ids[(x, y)]}'>{n}</td></tr>")
    out.append("</table></section>")
    out.append(f'<section id="plots"><h2>Plots</h2>{_plots(corpus, names, matrix)}</section>')
    layer_part = report_layers(corpus, layers)  # "" for phrase trees, or where the layers cannot be computed
    out.extend([layer_part] if layer_part else [])
    out.extend([breakdowns] if breakdowns else [])
    out.append(f"<footer class='muted' id='signature'>signature: <code>{esc(result.signature)}</code> "
               "(give it back with --signature to compute the same numbers)</footer>")
    out.append(f"<script>{SCRIPT}{LAYERS_SCRIPT if layer_part else ''}</script></body></html>")
    return ReportPage("\n".join(out), len(shown), len(order))


def html_report(corpus: Corpus, items: int = 50, title: str = "Syntactic annotation agreement",
                computed: Optional[Tuple[AlphaResult, AccuracyResult]] = None,
                rank_by: str = DEFAULT_RANKING, settings: Optional[AlphaSettings] = None) -> str:
    """The whole report as one HTML string (:func:`build_report`)."""
    return build_report(corpus, items, title, computed, rank_by, settings).html
