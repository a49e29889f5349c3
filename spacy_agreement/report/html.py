"""A self-contained HTML report of an annotation project: where annotators disagree.

Sections (each an element with an ``id`` so tools can find it):

* ``summary``: α (δplain, δdiff, δnorm), the uncorrected scores, and everything skipped;
* ``items``: the items ranked by observed disagreement (what to adjudicate first); for each
  shown item the annotations side by side: dependency trees rendered with displaCy with the
  arcs that differ from the first annotator's marked in red, phrase trees as brackets with
  every word coloured by its leaf-ancestor score against the first annotator;
* ``annotators``: per-annotator diagnostics, α with each annotator left out and the matrix of
  pairwise agreement (LAS or bracket Jaccard);
* ``confusions``: the label pairs annotators confuse most (same head, different relation; or
  same span, different category);
* ``plots`` (when matplotlib is installed): histograms of the within-item distances per δ and
  the pairwise matrix, embedded as PNG.

Everything is inline (SVG, CSS, base64 images): one file to send around. Every string from
the input (words, tags, labels, item, file and annotator names, the title) reaches the page
through :func:`~spacy_agreement.report.escape.text`: markup in the input shows as text.
"""
from __future__ import annotations

import base64
import io
import math
import warnings
from collections import Counter
from itertools import combinations
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..adapters.brackets import from_nltk, to_nltk
from ..agreement.accuracy import AccuracyResult, attachment_counts, bracket_jaccard, pairwise_accuracy, token_mismatch
from ..agreement.alpha import AlphaResult
from ..agreement.policy import estimate_alpha
from .escape import close_bidi, text as esc
from .text import alpha_method_line
from ..corpus import Corpus
from ..agreement.deltas import delta
from ..errors import UndefinedMetricWarning
from ..evaluation.leaf_ancestor import score_lineages
from ..evaluation.lineage import phrase_lineages
from ..trees import ConstituencyTree, DependencyTree
from .format import percent as _percent

STYLE = """
body{font-family:Arial,Helvetica,sans-serif;margin:2em;color:#222;max-width:1200px}
h1{font-size:1.6em} h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0} td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f4f4f4} td.name,th.name{text-align:left}
.item{border:1px solid #ddd;border-radius:6px;padding:.6em 1em;margin:1em 0}
.annotation{overflow-x:auto;margin:.4em 0} .annotator{font-weight:bold;margin-top:.5em}
.word{padding:0 2px;border-radius:3px} .legend span{padding:0 .5em;margin-right:.5em}
.muted{color:#777;font-size:.9em}
"""


def _quiet_alpha(corpus: Corpus) -> AlphaResult:
    """α by the package's policy (exact within the budget, else sampled), warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return estimate_alpha(corpus)


def _dep_svg(tree: DependencyTree, differs: Sequence[bool]) -> str:
    """displaCy's SVG of the tree, the arcs in ``differs`` red. displaCy escapes the words
    (``render_word``) but writes tags, lemmas and arc labels as they are: those go in escaped
    here, the words not (escaped twice, ``a&b`` would show as ``a&amp;b``)."""
    from spacy import displacy  # lazy: import time

    words = [{"text": close_bidi(f), "tag": esc(u) if u != "_" else ""} for f, u in zip(tree.forms, tree.upos)]
    arcs, marked = [], []
    for k, (head, rel) in enumerate(zip(tree.heads.tolist(), tree.deprels)):
        if head == 0 or head == k + 1:  # no arc to draw: the root, or a token headed by itself
            continue
        start, end = sorted((k, head - 1))
        arcs.append({"start": start, "end": end, "label": esc(rel), "dir": "left" if head - 1 > k else "right"})
        marked.append(differs[k])
    svg = displacy.render({"words": words, "arcs": arcs}, style="dep", manual=True, jupyter=False,
                          options={"compact": True, "distance": 90})
    parts = svg.split('<g class="displacy-arrow">')
    for i, flag in enumerate(marked, start=1):
        if flag and i < len(parts):
            parts[i] = parts[i].replace('stroke="currentColor"', 'stroke="#d62728"').replace(
                'fill="currentColor"', 'fill="#d62728"')
    roots = [f"{esc(tree.forms[k])} ({esc(tree.deprels[k])})" for k, h in enumerate(tree.heads.tolist()) if h == 0]
    own = [f"{esc(tree.forms[k])} ({esc(tree.deprels[k])})" for k, h in enumerate(tree.heads.tolist()) if h == k + 1]
    note = f"root: {', '.join(roots) or 'none (the whole sentence is a head cycle)'}"
    if own:
        note += f"; its own head: {', '.join(own)}"
    return '<g class="displacy-arrow">'.join(parts) + f'<div class="muted">{note}</div>'


def _word_colour(score: float) -> str:
    # red (0) to white (1)
    v = max(0.0, min(1.0, score))
    return f"rgb(255,{int(120 + 135 * v)},{int(120 + 135 * v)})"


def _bracket_text(tree: ConstituencyTree) -> str:
    shown = _nltk_with_words(tree) if tree.words is not None else to_nltk(tree)
    return " ".join(str(shown).split())


def _phrase_html(tree: ConstituencyTree, reference: Optional[ConstituencyTree]) -> str:
    """Brackets with the words; under another annotator's tree, every word coloured by its
    leaf-ancestor score against the reference (hover: both lineages)."""
    text = f"<code>{esc(_bracket_text(tree))}</code>"
    if reference is None or tree.words is None or tree.words != reference.words:
        return text
    scores = score_lineages([phrase_lineages(_with_words(reference), "drop")],
                            [phrase_lineages(_with_words(tree), "drop")])[0]
    spans = " ".join(f'<span class="word" style="background:{_word_colour(w.score)}" '
                     f'title="{esc(" ".join(w.gold_lineage))} : {esc(" ".join(w.candidate_lineage))}'
                     f' ({w.score:.3f})">{esc(w.word)}</span>' for w in scores)
    return f"<div>leaf-ancestor: {spans}</div>{text}"


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


def _differs(tree: DependencyTree, reference: DependencyTree) -> List[bool]:
    if len(tree) != len(reference):
        return [False] * len(tree)
    return [bool(h != rh or d != rd) for h, rh, d, rd in
            zip(tree.heads.tolist(), reference.heads.tolist(), tree.deprels, reference.deprels)]


def pairwise_matrix(corpus: Corpus) -> Tuple[List[str], np.ndarray]:
    """Token-weighted LAS (dependency) or Jaccard (phrase) between every two annotators."""
    names = list(corpus.annotators)
    matrix = np.full((len(names), len(names)), np.nan)
    for i, j in combinations(range(len(names)), 2):
        num = den = 0.0
        for item in corpus.items:
            a, b = item.get(names[i]), item.get(names[j])
            if a is None or b is None or token_mismatch(a, b) is not None:
                continue
            if isinstance(a, DependencyTree):
                num += attachment_counts(a, b)[0]
                den += len(a)
            else:
                num += bracket_jaccard(a, b) * a.n_leaves
                den += a.n_leaves
        matrix[i, j] = matrix[j, i] = num / den if den else np.nan
    np.fill_diagonal(matrix, 1.0)
    return names, matrix


def confusions(corpus: Corpus, k: int = 15) -> List[Tuple[str, str, int]]:
    """Label pairs annotators confuse most: the same head with another relation, or the same
    span with another category (pairs counted once in either order)."""
    counts: Counter = Counter()
    for item in corpus.items:
        for a, b in combinations([item[n] for n in corpus.annotators if n in item], 2):
            if token_mismatch(a, b) is not None:
                continue
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
    return [(x, y, n) for (x, y), n in counts.most_common(k)]


def _plots(corpus: Corpus, names: List[str], matrix: np.ndarray) -> str:
    try:
        import matplotlib  # lazy: import time (and optional)

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return '<p class="muted">Plots need matplotlib: pip install \'spacy-agreement[plot]\'.</p>'
    distances: Dict[str, List[float]] = {"plain": [], "diff": [], "norm": []}
    for item in corpus.items:
        trees = [item[n] for n in corpus.annotators if n in item]
        for a, b in combinations(trees, 2):
            for kind in distances:
                distances[kind].append(delta(a, b, kind))
    fig, axes = plt.subplots(1, 4, figsize=(14, 3))
    for ax, (kind, values) in zip(axes, distances.items()):
        ax.hist(values, bins=20, color="#4c72b0")
        ax.set_title(f"δ{kind} within items")
    image = axes[3].imshow(matrix, vmin=0, vmax=1, cmap="viridis")
    # annotator names are drawn into the PNG as they are (no markup there); parse_math=False:
    # a name with dollar signs is not TeX; a long name is shortened to keep the plot readable
    ticks = [n if len(n) <= 40 else n[:39] + "…" for n in names]
    axes[3].set_xticks(range(len(names)), ticks, rotation=45, fontsize=7, parse_math=False)
    axes[3].set_yticks(range(len(names)), ticks, fontsize=7, parse_math=False)
    axes[3].set_title("pairwise agreement")
    fig.colorbar(image, ax=axes[3])
    buffer = io.BytesIO()
    with warnings.catch_warnings():  # a name in a script the font lacks: boxes in the plot, the tables show it
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font")
        fig.tight_layout()
        fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="distance histograms and pairwise matrix" src="data:image/png;base64,{data}"/>'


def html_report(corpus: Corpus, items: int = 20, title: str = "Syntactic annotation agreement",
                computed: Optional[Tuple[AlphaResult, AccuracyResult]] = None) -> str:
    """The whole report as one HTML string; ``computed``: α and the accuracies of the corpus
    when the caller has them already (else they are computed here)."""
    result, accuracy = computed if computed is not None else (_quiet_alpha(corpus), pairwise_accuracy(corpus))
    names, matrix = pairwise_matrix(corpus)
    out: List[str] = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{esc(title)}</title>"
                      f"<style>{STYLE}</style></head><body><h1>{esc(title)}</h1>"]
    # summary
    rows = [("α plain", result.alpha_plain), ("α diff", result.alpha_diff), ("α norm", result.alpha_norm)]
    rows += [(k.upper() if k != "jaccard" else "Jaccard", v) for k, v in accuracy.scores.items()]
    out.append('<section id="summary"><h2>Summary</h2>')
    out.append(f"<p>{len(corpus.annotators)} annotators ({', '.join(esc(a) for a in corpus.annotators)}); "
               f"{result.items} items with {result.annotations} annotations ({esc(corpus.family)} trees).</p>"
               f"<p class='muted'>{esc(alpha_method_line(result))}</p><table>")
    out.extend(f"<tr><td class='name'>{esc(n)}</td><td>{_percent(v)}</td></tr>" for n, v in rows)
    out.append("</table><ul>")
    out.append(f"<li>{result.items_unpairable} item(s) with fewer than two annotations not pairable</li>")
    out.append(f"<li>{result.cycle_tokens} token(s) in head cycles left out of the TED trees</li>")
    out.append(f"<li>{accuracy.items_mismatched} item(s) with different tokens left out of the accuracies</li>")
    out.append("</ul></section>")
    # items ranked by disagreement
    order = np.argsort(-result.item_disagreement[:, 0], kind="stable") if result.items else []
    order = [i for i in order if result.item_disagreement[i, 0] > 0]
    name_to_item = {n: it for n, it in zip(corpus.names, corpus.items)}
    out.append(f'<section id="items"><h2>Items ranked by observed disagreement</h2>'
               f'<p class="muted">The {min(items, len(order))} items (of {len(order)} with any disagreement) with the '
               "largest mean squared TED between their annotations; arcs that differ from the first annotator's "
               "are red, and words of phrase trees are coloured by their leaf-ancestor score (white = 1).</p>")
    for rank, index in enumerate(order[:items], start=1):
        name = result.item_names[index]
        item = name_to_item[name]
        present = [n for n in corpus.annotators if n in item]
        reference = item[present[0]]
        out.append(f'<div class="item" data-item="{esc(name)}"><h3>{rank}. {esc(name)} '
                   f'<span class="muted">mean δplain² {result.item_disagreement[index, 0]:.2f}</span></h3>')
        for annotator in present:
            tree = item[annotator]
            out.append(f'<div class="annotator">{esc(annotator)}</div><div class="annotation">')
            if isinstance(tree, DependencyTree):
                out.append(_dep_svg(tree, _differs(tree, reference)))
            else:
                out.append(_phrase_html(tree, None if annotator == present[0] else reference))
            out.append("</div>")
        out.append("</div>")
    out.append("</section>")
    # annotators
    out.append('<section id="annotators"><h2>Annotators</h2><table><tr><th class="name">annotator</th>'
               "<th>α plain without them</th><th>items</th></tr>")
    for annotator in corpus.annotators:
        others = tuple(a for a in corpus.annotators if a != annotator)
        reduced = Corpus(others, [{k: v for k, v in it.items() if k != annotator} for it in corpus.items],
                         corpus.names, corpus.family)
        left_out = _quiet_alpha(reduced).alpha_plain if len(others) >= 2 else math.nan
        count = sum(annotator in it for it in corpus.items)
        out.append(f"<tr><td class='name'>{esc(annotator)}</td><td>{_percent(left_out)}</td>"
                   f"<td>{count}</td></tr>")
    metric = "LAS" if corpus.family == "dependency" else "Jaccard"
    out.append(f"</table><h3>Pairwise {metric}</h3><table><tr><th></th>")
    out.extend(f"<th>{esc(n)}</th>" for n in names)
    out.append("</tr>")
    for n, row in zip(names, matrix):
        out.append(f"<tr><th class='name'>{esc(n)}</th>" + "".join(f"<td>{_percent(v)}</td>" for v in row)
                   + "</tr>")
    out.append("</table></section>")
    # confusions
    out.append('<section id="confusions"><h2>Labels annotators confuse most</h2><table>'
               "<tr><th class='name'>label</th><th class='name'>confused with</th><th>times</th></tr>")
    for x, y, n in confusions(corpus):
        out.append(f"<tr><td class='name'>{esc(x)}</td><td class='name'>{esc(y)}</td><td>{n}</td></tr>")
    out.append("</table></section>")
    out.append(f'<section id="plots"><h2>Plots</h2>{_plots(corpus, names, matrix)}</section>')
    out.append("</body></html>")
    return "\n".join(out)
