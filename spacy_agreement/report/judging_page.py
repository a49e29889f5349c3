"""A page for blind pairwise judging of two parsers' analyses, as Plank et al. (2015, §3)
collected their judgments: one self-contained HTML file (no network; it works from
``file://``), whose export ``spacy-agreement judgments`` reads as it is.

What the page does:

* a judge types a name in the field labelled "Judge" and presses "Start"; the page then shows
  one item at a time: the sentence, and its two analyses (:mod:`.judging_pictures`: each drawn
  as the report draws it, the differences between them marked unless ``marks=False``), one
  above the other (``layout="stacked"``) or side by side (``"side-by-side"``; stacked on a
  narrow screen), the gold below them with ``show_gold=True`` (hidden by default, as in the
  paper). The analysis shown first (top or left) carries ``data-analysis="1"``, the second
  ``data-analysis="2"``;
* **blind**: which system is shown first is drawn per item and per judge, from a hash of the
  judge's name and the item's id (:func:`first_shown`, the same function in the page's
  script), so a judge who reloads sees the same sides; the page never shows which system is
  which, and records the side of each judgment;
* keys ``1`` or ``←`` choose the first analysis, ``2`` or ``→`` the second, ``0`` or ``=``
  "no preference" (unless ``ties=False``), ``Backspace`` goes back to the previous item
  (``Escape`` leaves the comment field); the buttons do the same; a progress line counts
  the items; each item has a comment field;
* everything is kept in the browser (``localStorage``, per page and judge): closing and
  reopening the page and pressing "Start" with the same name goes on where the judge left
  off;
* **Export** downloads ``judgments-<judge>.jsonl``, one line per judged item: its ``id`` and
  ``text``, the ``gold`` (with one), ``a`` and ``b`` analyses as
  :func:`~spacy_agreement.adapters.judgments_files.tree_json` writes them, ``judgments``
  ``{judge: "A" | "B" | "tie"}`` in terms of the systems (not of the sides), ``comments``
  ``{judge: text}`` where the judge wrote one, ``shown_first`` ``{judge: "A" | "B"}``,
  ``systems`` (the two files' names) and ``page`` (the page's id). ``spacy-agreement
  judgments`` reads it, and several judges' exports at once.

The items (:func:`~spacy_agreement.evaluation.judgments.judging_items.select_judging_items`) travel in
the page as one gzip-compressed, base64-encoded JSON block that the script opens with the
browser's ``DecompressionStream`` (every current browser has it): the page of 500 items of 25
words stays near 1 MB (uncompressed, two pictures an item would take over 5 MB), opens at
once (one item in the DOM at a time), and its source does not show which system is which at a
glance (it is blind as shown, not against someone who decodes its data). Every string from the
input reaches the page through the one escaper (:func:`spacy_agreement.report.escape.text`):
the pictures are the report's, built through it; the sentence, the title and the names are
escaped into the page, and the script writes strings only as text (``textContent``), never as
markup.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Union

from .._version import __version__
from ..adapters.judgments_files import tree_json
from ..errors import BadOptionError, JudgmentError
from ..evaluation.judgments.judging_items import JudgingSelection, JudgingSettings, select_judging_items
from ..signature import read_signature
from .escape import text as esc
from .judging_pictures import analysis_pictures
from .svg_parts import STYLE as SVG_STYLE

PathLike = Union[str, "os.PathLike[str]"]
LAYOUTS = ("stacked", "side-by-side")
DEFAULT_TITLE = "Which analysis is better?"

STYLE = """
body{font-family:Arial,Helvetica,sans-serif;margin:1em auto;padding:0 1em;color:#222;max-width:1400px}
h1{font-size:1.4em;margin:.2em 0} .note{color:#555;font-size:.92em} kbd{border:1px solid #bbb;border-radius:3px;
padding:0 .3em;font-size:.85em;background:#f6f6f6}
#progress{color:#444;margin:.2em 0 .6em 0} .sentence{font-size:1.1em;margin:.4em 0 .8em 0;line-height:1.4}
.analyses{display:grid;grid-template-columns:1fr;gap:.8em}
.analyses.side-by-side{grid-template-columns:1fr 1fr}
@media (max-width:760px){.analyses.side-by-side{grid-template-columns:1fr}}
figure.analysis{margin:0;border:2px solid #ddd;border-radius:6px;padding:.3em .6em;overflow-x:auto}
figure.analysis figcaption{font-weight:bold;color:#333;margin-bottom:.2em}
figure.analysis.chosen{border-color:#1f5fbf;background:#f3f7ff}
.choices{display:flex;flex-wrap:wrap;gap:.6em;margin:1em 0 .6em 0}
.choices button,.nav button,#start-button{font-size:1em;padding:.45em .9em;border-radius:5px;border:1px solid #999;
background:#fafafa;cursor:pointer}
.choices button[aria-pressed=true]{background:#1f5fbf;color:#fff;border-color:#1f5fbf}
.choices button[aria-pressed=true] kbd{color:#222} figure.gold{margin-top:.8em}
#comment{width:100%;max-width:60em;font:inherit;box-sizing:border-box}
#judge{font-size:1em;padding:.35em}
.error{color:#b00020}
"""

# The page's script: small on purpose; every string from the data is written with textContent.
SCRIPT = r"""
"use strict";
const $ = (id) => document.getElementById(id);
const PAGE = document.body.dataset.page;
const TIES = document.body.dataset.ties === "yes";
let data = null, judge = null, state = null;

// Which system is shown first to this judge on this item: a hash of both (the same on reload).
function firstShown(judgeName, itemId) {
  const s = judgeName + "\n" + itemId;
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16;
  return (h >>> 0) & 1 ? "B" : "A";
}

const storage = {
  key: (name) => "spacy-agreement-judging/" + PAGE + "/" + name,
  get(name) { try { return JSON.parse(localStorage.getItem(this.key(name))); } catch (e) { return null; } },
  set(name, value) { try { localStorage.setItem(this.key(name), JSON.stringify(value)); return true; } catch (e) { return false; } },
};

async function loadData() {
  const bytes = Uint8Array.from(atob($("judging-data").textContent.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

function save() {
  if (!storage.set("judge:" + judge, state)) $("start-note").textContent = "This browser keeps nothing: export before you close the page.";
  storage.set("last-judge", judge);
}

function start() {
  const name = $("judge").value.trim();
  if (!name || !data) { $("judge").focus(); return; }
  judge = name;
  state = storage.get("judge:" + judge) || {position: 0, answers: {}, comments: {}};
  $("start").hidden = true;
  $("judge-name").textContent = judge;
  document.querySelectorAll(".started").forEach((el) => { el.hidden = false; });
  save();
  show();
}

function judgedCount() { return data.items.filter((item) => state.answers[item.id]).length; }

function show() {
  const n = data.items.length, k = state.position, done = k >= n;
  $("judging").hidden = done;
  $("done").hidden = !done;
  $("progress").textContent = (done ? "All " + n + " items" : "Item " + (k + 1) + " of " + n) + " \u00b7 " + judgedCount() + " judged";
  if (done) { $("export-done").focus(); return; }
  const item = data.items[k], first = firstShown(judge, item.id);
  const shown = {"1": first, "2": first === "A" ? "B" : "A"};
  $("sentence").textContent = item.text;
  for (const slot of ["1", "2"]) {
    document.querySelector('[data-analysis="' + slot + '"] .picture').innerHTML = item.pictures[shown[slot]];
  }
  $("gold").hidden = !item.pictures.gold;
  $("gold").querySelector(".picture").innerHTML = item.pictures.gold || "";
  const answer = state.answers[item.id];
  const pressed = answer ? (answer.choice === "tie" ? "tie" : answer.choice === first ? "1" : "2") : null;
  document.querySelectorAll("[data-choice]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.choice === pressed)));
  document.querySelectorAll("[data-analysis]").forEach((f) => f.classList.toggle("chosen", f.dataset.analysis === pressed));
  $("comment").value = state.comments[item.id] || "";
}

function choose(slot) {  // "1", "2" or "tie"
  if (state.position >= data.items.length || (slot === "tie" && !TIES)) return;
  const item = data.items[state.position], first = firstShown(judge, item.id);
  const choice = slot === "tie" ? "tie" : slot === "1" ? first : (first === "A" ? "B" : "A");
  state.answers[item.id] = {choice: choice, first: first};
  state.position += 1;
  save();
  show();
}

function back() {
  if (state.position > 0) { state.position -= 1; save(); show(); }
}

function exportLines() {
  return data.items.filter((item) => state.answers[item.id]).map((item) => {
    const answer = state.answers[item.id], comment = (state.comments[item.id] || "").trim();
    const line = Object.assign({text: item.text}, item.record);
    line.judgments = {[judge]: answer.choice};
    if (comment) line.comments = {[judge]: comment};
    line.shown_first = {[judge]: answer.first};
    line.systems = data.systems;
    line.page = PAGE;
    return JSON.stringify(line) + "\n";
  }).join("");
}

function download() {
  const blob = new Blob([exportLines()], {type: "application/x-ndjson"});
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "judgments-" + judge.replace(/[^\p{L}\p{N}._-]+/gu, "_") + ".jsonl";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

document.addEventListener("keydown", (event) => {
  if (!judge || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.matches("input, textarea")) {
    if (event.key === "Escape") event.target.blur();
    return;
  }
  const action = {"1": "1", "ArrowLeft": "1", "2": "2", "ArrowRight": "2", "0": "tie", "=": "tie"}[event.key];
  if (action) choose(action);
  else if (event.key === "Backspace") back();
  else return;
  event.preventDefault();
});

$("start-button").addEventListener("click", start);
$("judge").addEventListener("keydown", (event) => { if (event.key === "Enter") start(); });
document.querySelectorAll("[data-choice]").forEach((b) => b.addEventListener("click", () => choose(b.dataset.choice)));
document.querySelectorAll(".back").forEach((b) => b.addEventListener("click", back));
document.querySelectorAll(".export").forEach((b) => b.addEventListener("click", download));
$("comment").addEventListener("input", () => {
  const item = data.items[state.position];
  if (item) { state.comments[item.id] = $("comment").value; save(); }
});

(typeof DecompressionStream === "function" ? loadData() : Promise.reject(new Error("no DecompressionStream")))
  .then((loaded) => {
    data = loaded;
    $("judge").value = storage.get("last-judge") || "";
    $("start-button").disabled = false;
    document.body.dataset.ready = "yes";
  })
  .catch((error) => {
    $("start-note").textContent = "This browser cannot open the page (" + error.message + "): use a current Firefox, Chrome, Edge or Safari.";
    $("start-note").classList.add("error");
  });
"""


def first_shown(judge: str, item_id: str) -> str:
    """Which system (``"A"`` or ``"B"``) the page shows first to ``judge`` on item
    ``item_id``: FNV-1a over the UTF-16 code units of ``judge + "\\n" + item_id``, mixed as
    MurmurHash3's finaliser, its last bit (1: B). The page's script computes the same."""
    s = f"{judge}\n{item_id}".encode("utf-16-le")
    h = 2166136261
    for k in range(0, len(s), 2):
        h = ((h ^ (s[k] | s[k + 1] << 8)) * 16777619) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    h ^= h >> 16
    return "B" if h & 1 else "A"


@dataclass
class JudgingPage:
    """A judging page (module docstring): ``html`` the page, ``selection`` its items and what
    was left out, ``pictures`` each item's drawings (``{"A", "B"}``, and ``"gold"`` when shown),
    ``page_id`` the page's id (in the exports and the browser's storage keys)."""

    html: str
    selection: JudgingSelection
    pictures: List[Dict[str, str]]
    page_id: str
    layout: str
    marks: bool
    show_gold: bool

    @property
    def settings(self) -> JudgingSettings:
        return self.selection.settings

    @property
    def signature(self) -> str:
        """The settings' signature, a string as on every result (give it back as ``settings``)."""
        return self.settings.signature()

    def write(self, path: PathLike) -> None:
        """The page to ``path`` (UTF-8)."""
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(self.html)

    def to_dict(self) -> Dict[str, Any]:
        return {**self.selection.to_dict(), "page": self.page_id, "bytes": len(self.html.encode("utf-8")),
                "layout": self.layout, "marks": self.marks, "show_gold": self.show_gold,
                "signature": self.signature}

    def __repr__(self) -> str:
        s = self.selection
        return (f"JudgingPage({len(s.items)} items of {s.sentences} sentences ({s.identical} the same without "
                f"punctuation), {len(self.html.encode('utf-8')):,} bytes, {self.layout}; {self.signature})")

    def _repr_html_(self) -> str:
        from ..evaluation.command_results import html_table

        s = self.selection
        rows = [("items to judge", str(len(s.items))), ("sentences", str(s.sentences)),
                ("the same without punctuation", str(s.identical)), ("layout", self.layout),
                ("size", f"{len(self.html.encode('utf-8')):,} bytes")]
        return html_table(f"Judging page {self.page_id}", rows, self.signature, ["page.write(path) saves it"])


def _payload(selection: JudgingSelection, pictures: List[Dict[str, str]], ties: bool) -> Dict[str, Any]:
    items = []
    for item, drawn in zip(selection.items, pictures):
        record: Dict[str, Any] = {"id": item.id}
        if item.gold is not None:
            record["gold"] = tree_json(item.gold)
        record["a"], record["b"] = tree_json(item.a), tree_json(item.b)
        items.append({"id": item.id, "text": " ".join(item.words), "pictures": drawn, "record": record})
    systems = {"A": os.path.basename(selection.systems[0]), "B": os.path.basename(selection.systems[1])}
    return {"systems": systems, "ties": ties, "items": items}


def build_judging_page(selection: JudgingSelection, layout: str = "stacked", marks: bool = True,
                       show_gold: bool = False, title: str = DEFAULT_TITLE) -> JudgingPage:
    """The page of the items of ``selection`` (module docstring)."""
    if layout not in LAYOUTS:
        raise BadOptionError(f"layout must be {' or '.join(LAYOUTS)}, not {layout!r}", option="layout")
    if show_gold and selection.gold is None:
        raise BadOptionError("--show-gold needs a gold file (--gold)", option="show_gold")
    if not selection.items:
        raise JudgmentError(f"no item to judge: the analyses of all {selection.sentences} sentences are the same "
                            "once punctuation is removed (--all to judge them anyway)")
    pictures = []
    for item in selection.items:
        drawn = analysis_pictures(item.words, item.a, item.b, item.gold if show_gold else None, marks)
        pictures.append(drawn)
    payload = _payload(selection, pictures, selection.settings.ties)
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    page_id = hashlib.sha256(json.dumps([i["record"] for i in payload["items"]], sort_keys=True).encode("utf-8")
                             ).hexdigest()[:12]
    packed = base64.b64encode(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")
    ties = selection.settings.ties
    n = len(selection.items)
    keys = "<kbd>1</kbd> or <kbd>\u2190</kbd> the first, <kbd>2</kbd> or <kbd>\u2192</kbd> the second" + (
        ", <kbd>0</kbd> or <kbd>=</kbd> no preference" if ties else "")
    tie_button = ('<button type="button" data-choice="tie">No preference <kbd>0</kbd></button>' if ties else "")
    html = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src data: blob:">
<meta name="generator" content="spacy-agreement {esc(__version__)}">
<title>{esc(title)}</title>
<style>{STYLE}{SVG_STYLE}</style></head>
<body data-page="{esc(page_id)}" data-layout="{esc(layout)}" data-ties="{'yes' if ties else 'no'}" data-signature="{esc(selection.settings.signature())}">
<header><h1>{esc(title)}</h1><p id="progress" aria-live="polite">{n} items</p></header>
<section id="start">
<p>Each of the {n} items is a sentence with two analyses. Choose the better one: {keys};
<kbd>Backspace</kbd> goes back. You do not know which parser made which analysis, and the order changes from item to item.
Your answers stay in this browser: close the page whenever you like and come back with the same name.
When you are done, press Export and send the file it downloads.</p>
<p><label for="judge">Judge</label> <input id="judge" type="text" autocomplete="off">
<button type="button" id="start-button" disabled>Start</button></p>
<p id="start-note" class="note"></p>
</section>
<main id="judging" hidden>
<p id="sentence" class="sentence"></p>
<div id="analyses" class="analyses {esc(layout)}">
<figure class="analysis" data-analysis="1"><figcaption>1</figcaption><div class="picture"></div></figure>
<figure class="analysis" data-analysis="2"><figcaption>2</figcaption><div class="picture"></div></figure>
</div>
<figure id="gold" class="analysis gold" hidden><figcaption>Gold</figcaption><div class="picture"></div></figure>
<div class="choices">
<button type="button" data-choice="1">1 is better <kbd>1</kbd></button>
{tie_button}
<button type="button" data-choice="2">2 is better <kbd>2</kbd></button>
</div>
<p><label for="comment">Comment</label> <span class="note">(optional; <kbd>Esc</kbd> leaves the field)</span><br>
<textarea id="comment" rows="2"></textarea></p>
</main>
<section id="done" hidden><p>You have judged every item. Press Export and send the file it downloads.</p></section>
<p class="nav started" hidden>Judge: <b id="judge-name"></b>
<button type="button" class="back">Back <kbd>Backspace</kbd></button>
<button type="button" class="export" id="export-done">Export</button></p>
<script type="text/plain" id="judging-data">{packed}</script>
<script>{SCRIPT}</script>
</body></html>
"""
    return JudgingPage(html, selection, pictures, page_id, layout, marks, show_gold)


def judging_page(system_a: PathLike, system_b: PathLike, gold: Optional[PathLike] = None,
                 settings: Union[None, str, JudgingSettings] = None, *, fmt: Optional[str] = None, layout: str = "stacked",
                 marks: bool = True, show_gold: bool = False, title: str = DEFAULT_TITLE,
                 **options: Any) -> JudgingPage:
    """The judging page of ``system_a`` against ``system_b`` (module docstring): the items as
    :func:`~spacy_agreement.evaluation.judgments.judging_items.select_judging_items` picks them
    (``settings``, a signature given back, or the settings' fields as keyword ``options``:
    ``punct_rules``, ``all_items``, ``items``, ``seed``, ``ties``), drawn one above the other (``layout="stacked"``) or
    ``"side-by-side"``, their differences marked unless ``marks=False``, the gold shown with
    ``show_gold=True``. ``.write(path)`` saves it; ``.to_dict()`` is ``judge --json``."""
    if layout not in LAYOUTS:  # before any file is read
        raise BadOptionError(f"layout must be {' or '.join(LAYOUTS)}, not {layout!r}", option="layout")
    if show_gold and gold is None:
        raise BadOptionError("--show-gold needs a gold file (--gold)", option="show_gold")
    if isinstance(settings, str):  # a signature given back (or a saved JSON output holding one)
        settings = JudgingSettings.from_signature(read_signature(settings))
    selection = select_judging_items(system_a, system_b, gold, settings, fmt, **options)
    return build_judging_page(selection, layout, marks, show_gold, title)


def judge(system_a: Any, system_b: Any, *args: Any, gold: Any = None,
          settings: Union[None, str, JudgingSettings] = None, signature: Optional[str] = None,
          html: Optional[PathLike] = None, all: bool = False,
          items: Optional[int] = None, seed: int = 0, punct: str = "form", layout: str = "stacked",
          no_marks: bool = False, show_gold: bool = False, no_ties: bool = False, title: str = DEFAULT_TITLE,
          format: Optional[str] = None) -> JudgingPage:
    """``spacy-agreement judge A B --html PAGE``: the page for blind pairwise judging of two
    parsers' analyses (Plank et al. 2015, §3; module docstring), written to ``html`` when given.
    The options are the command's (``-`` as ``_``, its defaults): ``gold`` (into the exports,
    and what decides punctuation), ``all`` (every sentence, not only those that differ without
    punctuation), ``items`` and ``seed`` (draw that many), ``punct`` (the selection's rules),
    ``layout``, ``no_marks``, ``show_gold``, ``no_ties``, ``title``, ``format``; ``settings``: a
    :class:`~spacy_agreement.evaluation.judgments.judging_items.JudgingSettings` or a signature given back
    (``--signature``; or ``signature=``). ``system_a``, ``system_b`` and ``gold`` take paths, spaCy
    docs, DocBins, DependencyGraphs or the package's trees (:mod:`spacy_agreement.adapters.objects`).
    :func:`judging_page` is the same page with the selection's settings as
    keywords; :meth:`JudgingPage.to_dict` is ``judge --json``."""
    from .._calling import looks_like_signature, positional_settings
    from ..adapters.objects import InputFiles
    from ..evaluation.command_results import resolve_settings

    if len(args) > 1:
        raise TypeError(f"judge() takes system_a, system_b and gold positionally, not {2 + len(args)} values: "
                        "give the options as keywords")
    if args and (isinstance(args[0], JudgingSettings) or looks_like_signature(args[0]) or args[0] is None):
        settings = positional_settings("judge", args, settings, signature, JudgingSettings)  # 0.3: judge(a, b, settings)
    else:
        if args:
            if gold is not None:
                raise TypeError("judge() got gold positionally and as gold=: give one")
            gold = args[0]
        settings = positional_settings("judge", (), settings, signature, JudgingSettings)
    chosen = resolve_settings(settings, JudgingSettings(punct_rules=punct, all_items=all, items=items, seed=seed,
                                                        ties=not no_ties))
    with InputFiles("judge") as files:
        system_a, system_b = files.path(system_a, "system_a", "dependency"), files.path(system_b, "system_b", "dependency")
        gold = None if gold is None else files.path(gold, "gold", "dependency")
        page = judging_page(system_a, system_b, gold, settings=chosen, fmt=format,
                            layout=getattr(layout, "value", layout), marks=not no_marks, show_gold=show_gold,
                            title=title)
    if html is not None:
        page.write(html)
    return page


__all__ = ["DEFAULT_TITLE", "LAYOUTS", "JudgingPage", "build_judging_page", "first_shown", "judge", "judging_page"]
