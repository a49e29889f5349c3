"""The breakdown section of the HTML report (``id="breakdowns"``): where parses go wrong
against a gold analysis, MaltEval-style (:mod:`spacy_agreement.evaluation.dependency.breakdowns`).

For each attribute (arc length, direction, depth, sentence length, UPOS, relation) a table of
the groups (gold words; for each system its words, recall, precision and F1 in %) and, with
matplotlib (the optional extra ``plot``), one small figure: grouped bars of the labelled F1
of each group, one bar per system, as inline SVG whose text is drawn as paths (no markup from
the input reaches the page through it). Without matplotlib the tables stay and one line says
how to get the plots. Every name from the input reaches the page through
:func:`~spacy_agreement.report.escape.text`.

:func:`report_breakdowns` is what :func:`~spacy_agreement.report.html.build_report` calls when
one annotator is the gold (``report --gold NAME``): every other annotator is a system, compared
on the items both annotated (items whose tokens differ are skipped and counted).
"""
from __future__ import annotations

import io
import re
import warnings
from typing import Dict, List, Mapping, Optional

from ..corpus import Corpus
from ..errors import BadOptionError
from ..evaluation.dependency.breakdown_tables import merged_groups
from ..evaluation.dependency.breakdowns import ATTRIBUTES, TITLES, Breakdown, breakdowns_from_trees
from ..evaluation.dependency.settings import EvaluationSettings
from .escape import text as esc
from .format import percent

Systems = Mapping[str, Mapping[str, Breakdown]]
#: At most this many groups in a figure (the most frequent in the gold); the tables show all.
PLOT_GROUPS = 20
PLOT_NOTE = '<p class="muted">Plots need matplotlib: pip install \'spacy-agreement[plot]\'.</p>'
COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")


def _pyplot():
    """matplotlib's pyplot on the Agg backend, or ``None`` when matplotlib is not installed."""
    try:
        import matplotlib  # lazy: import time, and optional

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def _table(by: str, systems: Systems) -> str:
    names = [n for n in systems if by in systems[n]]
    breakdowns = [systems[n][by] for n in names]
    heads = "".join(f"<th colspan='4'>{esc(n)}</th>" for n in names)
    columns = "<th>words</th><th>recall (%)</th><th>precision (%)</th><th>F1 (%)</th>" * len(names)
    rows = [f"<table class='breakdown' data-by='{by}'><tr><th class='name' rowspan='2'>group</th>"
            f"<th rowspan='2'>gold words</th>{heads}</tr><tr>{columns}</tr>"]
    for group in merged_groups(by, breakdowns):
        cells = "".join(f"<td>{b.row(group).system}</td><td>{percent(b.row(group).recall)}</td>"
                        f"<td>{percent(b.row(group).precision)}</td><td>{percent(b.row(group).f1)}</td>"
                        for b in breakdowns)
        rows.append(f"<tr><td class='name'>{esc(group)}</td><td>{breakdowns[0].row(group).gold}</td>{cells}</tr>")
    rows.append("</table>")
    return "".join(rows)


def _svg(figure, prefix: str) -> str:
    """A figure as inline SVG: the XML prologue, metadata and comments dropped, ids prefixed
    (several figures on one page)."""
    buffer = io.StringIO()
    with warnings.catch_warnings():  # a label in a script the font lacks: boxes in the plot, the table shows it
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font")
        figure.tight_layout()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = svg.replace('id="', f'id="{prefix}-').replace('href="#', f'href="#{prefix}-').replace("url(#", f"url(#{prefix}-")
    return svg


def _figure(plt, by: str, systems: Systems, number: int) -> str:
    """Grouped bars: F1 of each group (the :data:`PLOT_GROUPS` most frequent in the gold for
    labels), one bar per system."""
    names = [n for n in systems if by in systems[n]]
    breakdowns = [systems[n][by] for n in names]
    groups = merged_groups(by, breakdowns)
    if by not in ("arc_length", "direction", "depth", "sentence_length"):
        groups = groups[:PLOT_GROUPS]
    if not groups:
        return ""
    width = 0.8 / len(names)
    figure, ax = plt.subplots(figsize=(min(12.0, 1.6 + 0.45 * len(groups) * max(1, len(names)) ** 0.5), 2.8))
    for k, (name, breakdown) in enumerate(zip(names, breakdowns)):
        values = [breakdown.row(g).f1 for g in groups]
        ax.bar([i + (k - (len(names) - 1) / 2) * width for i in range(len(groups))], [100 * v for v in values],
               width, label=name if len(name) <= 30 else name[:29] + "…", color=COLOURS[k % len(COLOURS)])
    ax.set_xticks(range(len(groups)), [g if len(g) <= 14 else g[:13] + "…" for g in groups],
                  rotation=45 if by in ("upos", "deprel") else 0, ha="right" if by in ("upos", "deprel") else "center",
                  fontsize=8)
    ax.set_ylim(0, 100)
    ax.set_ylabel("F1 (%)", fontsize=9)
    ax.set_title(f"F1 by {TITLES[by]}", fontsize=10)
    ax.tick_params(axis="y", labelsize=8)
    if len(names) > 1:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    try:
        return _svg(figure, f"bd{number}")
    finally:
        plt.close(figure)


def breakdown_section(systems: Systems, gold: str = "gold", note: str = "") -> str:
    """The section (``<section id="breakdowns">``) for ``{system: {attribute: Breakdown}}``:
    a table per attribute and, with matplotlib, a figure each (else one line saying how to get
    them); ``gold`` names the reference in the text, ``note`` (text) is added under it."""
    labelled = next((b.labelled for s in systems.values() for b in s.values()), True)
    what = "the right head and relation" if labelled else "the right head"
    out = ['<section id="breakdowns"><h2>Where the parses go wrong</h2>',
           f"<p class='muted'>Attachment of each system against {esc(gold)}, broken down as MaltEval's GroupBy: a "
           "gold word counts in the group of its gold attribute (recall), a system word in the group of its own "
           f"attribute (precision); a word is correct with {what}. Arc length in words (root: the arc from the "
           "root); direction left when the head is left of the word; depth in arcs from the root.</p>"]
    if note:
        out.append(f"<p class='muted'>{esc(note)}</p>")
    plt = _pyplot()
    if plt is None:
        out.append(PLOT_NOTE)
    rc: Dict[str, object] = {"svg.fonttype": "path", "svg.hashsalt": "spacy-agreement", "text.usetex": False}
    if plt is not None and "text.parse_math" in plt.rcParams:
        rc["text.parse_math"] = False  # a $ in a label is a $
    for number, by in enumerate(by for by in ATTRIBUTES if any(by in s for s in systems.values())):
        out.append(f"<h3>By {esc(TITLES[by])}</h3>")
        if plt is not None:
            with plt.rc_context(rc):
                out.append(f"<div class='plot'>{_figure(plt, by, systems, number)}</div>")
        out.append(_table(by, systems))
    out.append("</section>")
    return "\n".join(out)


def corpus_breakdowns(corpus: Corpus, gold: str, options: Optional[EvaluationSettings] = None
                      ) -> Dict[str, Dict[str, Breakdown]]:
    """Breakdowns of every annotator but ``gold`` against ``gold``, over the items both
    annotated (``options``: :func:`~spacy_agreement.evaluation.dependency.breakdowns.breakdowns_from_trees`'s;
    by default the package's, items whose tokens differ skipped and counted)."""
    options = options or EvaluationSettings(skip_mismatched=True)
    out: Dict[str, Dict[str, Breakdown]] = {}
    for name in corpus.annotators:
        if name != gold:
            pairs = [(item[gold], item[name]) for item in corpus.items if gold in item and name in item]
            out[name] = breakdowns_from_trees(pairs, options=options)  # type: ignore[arg-type]  # dependency corpus
    return out


def report_breakdowns(corpus: Corpus, gold: str, ignore_subtypes: bool = False, fold_root_case: bool = True) -> str:
    """The section for a report whose annotator ``gold`` is the reference (the others are
    systems); relations compared with the report's label settings. An unknown ``gold`` is a
    :class:`~spacy_agreement.errors.BadOptionError`; phrase-structure trees get a one-line
    section (breakdowns are of dependency attachment)."""
    if gold not in corpus.annotators:
        raise BadOptionError(f"--gold {gold!r} is not an annotator of the report: one of {', '.join(corpus.annotators)}")
    if corpus.family != "dependency":
        return ('<section id="breakdowns"><h2>Where the parses go wrong</h2><p class="muted">Breakdowns of '
                "attachment need dependency trees.</p></section>")
    options = EvaluationSettings(ignore_subtypes=ignore_subtypes, fold_root_case=fold_root_case, skip_mismatched=True)
    systems = corpus_breakdowns(corpus, gold, options)
    if not systems:
        return ('<section id="breakdowns"><h2>Where the parses go wrong</h2><p class="muted">No annotator besides '
                f"{esc(gold)} to compare with it.</p></section>")
    notes: List[str] = []
    for name, breakdowns in systems.items():
        any_breakdown = next(iter(breakdowns.values()))
        if any_breakdown.skipped or any_breakdown.unannotated:
            notes.append(f"{name}: {any_breakdown.skipped} item(s) whose tokens differ skipped, "
                         f"{any_breakdown.unannotated} token(s) not annotated left out")
    return breakdown_section(systems, gold, "; ".join(notes))


__all__ = ["PLOT_GROUPS", "breakdown_section", "corpus_breakdowns", "report_breakdowns"]
