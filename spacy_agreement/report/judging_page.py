"""A page for blind pairwise judging of two parsers' analyses, as Plank et al. (2015, §3)
collected their judgments: one self-contained HTML file (no network; it works from
``file://``), and beside it a **key** that only the organiser keeps (issue 51).

Blind by construction. Which system is shown as analysis 1 is drawn once per item when the page is
made (balanced: half the items show A first, seeded by the selection's ``seed``) and written only
into the key, ``PAGE.key.json`` (:func:`key_path`): the systems' files, each item's ``first``
(``"A"`` or ``"B"``) with its three trees, the gold file, the page id, the per-judge order's seed.
The page holds only the two analyses of each item in display order (pictures ``"1"`` and ``"2"``;
the gold only with ``show_gold``), no system file name and no tree; an export holds only choices
in terms of the display order. ``spacy-agreement judgments EXPORTS --key PAGE.key.json`` maps them
back to the systems (:mod:`spacy_agreement.adapters.judgments_files`).

What the page does:

* a judge types a name (compared case-insensitively after trimming: "Alice " and "alice" are one
  judge) and presses "Start"; a returning judge on the same browser may press "Continue as …"
  (the name field itself starts empty, so a shared computer does not offer the last judge's
  name as the next one's). The items come in an order drawn for that judge (:func:`judge_order`,
  the same function in the page's script, seeded by the page id and the judge's name; ``shuffle=False``
  keeps the file's order);
* each item shows the sentence (its ``# text``, rebuilt from the tokens and ``SpaceAfter=No``),
  the two analyses at their natural size (labels and words at least 11 px: the zoom control goes
  from 110 % to 250 %, 125 % at first), each in a box that scrolls horizontally for a long
  sentence, the boxes scrolled together; a legend says what the marks mean (where the two
  analyses differ, or with ``show_gold`` where each differs from the gold);
* keys ``1`` (or ``←``) and ``2`` (or ``→``) choose an analysis, ``0`` (or ``=``) "equally good"
  (unless ``ties=False``), ``s`` skips ("cannot tell"), ``u`` or ``Backspace`` undoes the last
  answer, ``?`` shows the help; a click on an analysis chooses it; the buttons do the same and
  never keep the focus (Space after a click scrolls, it does not answer the next item unseen);
* everything is kept in the browser (``localStorage``, per page and judge) with the time of each
  answer: two tabs of the same judge merge their answers (the later answer to an item wins), and
  the time spent on each item (ms, summed over visits) is recorded;
* **Export** downloads ``judgments-<judge>.jsonl``: a first line ``{"spacy_agreement_judgments":
  "0.4", "page", "judge", "exported"}`` (an export with nothing judged is this line alone, a valid
  file), then one line per answered item: ``{"page", "item", "judge", "choice", "comment", "ms"}``,
  ``choice`` one of ``"1"``, ``"2"``, ``"tie"``, ``"skip"``.

The page id is a hash of everything that makes the study: the items and their trees, the sides,
the selection's settings (``--no-ties`` included), ``show_gold``, ``marks`` and ``shuffle``: a page
made with other options never inherits answers stored in the browser for another.

The items travel in the page as one gzip-compressed, base64-encoded JSON block that the script
opens with the browser's ``DecompressionStream``. Every string from the input reaches the page
through the one escaper (:func:`spacy_agreement.report.escape.text`) and the script writes strings
only as text (``textContent``), never as markup.
"""
from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Union

import numpy as np

from .._display import ShowsAsCommandText
from .._version import __version__
from ..errors import BadOptionError, JudgmentError
from ..evaluation.judgments.judging_items import JudgingSelection, JudgingSettings, select_judging_items
from ..signature import read_signature
from .escape import text as esc
from .judging_payload import PAYLOAD_OPEN, key_item_lines, key_items, packed_payload, page_id_and_key, pictures_of_page
from .judging_script import SCRIPT, STYLE
from .svg_parts import STYLE as SVG_STYLE

PathLike = Union[str, "os.PathLike[str]"]
LAYOUTS = ("stacked", "side-by-side")
DEFAULT_TITLE = "Which analysis is better?"
#: The version of the key and of the exports (``spacy_agreement_judgments``) since issue 51.
KEY_VERSION = "0.4"

_M = 0xFFFFFFFF


def _hash32(s: str) -> int:
    """The script's ``hash32``: FNV-1a over the UTF-16 code units of ``s``, MurmurHash3's finaliser."""
    raw = s.encode("utf-16-le")
    h = 2166136261
    for k in range(0, len(raw), 2):
        h = ((h ^ (raw[k] | raw[k + 1] << 8)) * 16777619) & _M
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _M
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _M
    h ^= h >> 16
    return h


def normal_judge(name: str) -> str:
    """A judge's name as judges are compared: trimmed, lower case (the script's ``norm``)."""
    return name.strip().lower()


def judge_order(page_id: str, judge: str, n: int) -> List[int]:
    """The order (indices into the page's items) in which the page shows its ``n`` items to
    ``judge``: a Fisher-Yates shuffle driven by mulberry32 seeded with the hash of the page id and
    the judge's name (compared as :func:`normal_judge`); the page's script computes the same."""
    out = list(range(n))
    a = _hash32(f"{page_id}\n{normal_judge(judge)}")
    for i in range(n - 1, 0, -1):
        a = (a + 0x6D2B79F5) & _M
        t = ((a ^ (a >> 15)) * (1 | a)) & _M
        t = ((t + (((t ^ (t >> 7)) * (61 | t)) & _M)) & _M) ^ t
        j = ((t ^ (t >> 14)) & _M) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def first_shown(judge: str, item_id: str) -> str:
    """0.3's rule of which system a page showed first to ``judge`` on item ``item_id`` (a hash of
    both; pages since 0.4 draw the sides once per item, into the key). Kept for reading 0.3's
    pages' ``shown_first``."""
    return "B" if _hash32(f"{judge}\n{item_id}") & 1 else "A"


def key_path(html: PathLike) -> str:
    """Where the key of the page ``html`` goes: ``PAGE.key.json`` beside ``PAGE.html``."""
    path = os.fspath(html)
    root, ext = os.path.splitext(path)
    return (root if ext.lower() in (".html", ".htm") else path) + ".key.json"


def item_sides(n: int, seed: int) -> List[str]:
    """Which system each of ``n`` items shows as analysis 1: half ``"A"`` (one more when ``n`` is
    odd), half ``"B"``, in an order drawn with ``seed``."""
    drawn = np.random.default_rng([seed, 51]).permutation(n)
    return ["A" if k < (n + 1) // 2 else "B" for k in drawn.tolist()]


@dataclass
class JudgingPage(ShowsAsCommandText):
    """A judging page (module docstring): ``html`` the page, ``selection`` its items and what
    was left out, ``pictures`` each item's drawings (``{"A", "B"}``, and ``"gold"`` when shown),
    ``page_id`` the page's id (in the exports and the browser's storage keys), ``sides`` which
    system each item shows as analysis 1, ``key`` what :meth:`write_key` writes."""

    html: str
    selection: JudgingSelection
    page_id: str
    layout: str
    marks: bool
    show_gold: bool
    sides: List[str] = field(default_factory=list)
    shuffle: bool = True
    #: where :meth:`write` and :meth:`write_key` last wrote the page and its key (``str()`` says so)
    written: Optional[str] = None
    key_written: Optional[str] = None
    #: the key's items as written, made with the page id (:func:`~.judging_payload.page_id_and_key`)
    _key_lines: Optional[List[bytes]] = field(default=None, repr=False, compare=False)

    @property
    def settings(self) -> JudgingSettings:
        return self.selection.settings

    @functools.cached_property
    def pictures(self) -> List[Dict[str, str]]:
        """Each item's drawings, ``{"A": svg, "B": svg}`` (and ``"gold"`` when shown), read back from
        the page's payload when first asked for (the page is all that is kept)."""
        return pictures_of_page(self.html, self.sides)

    @property
    def signature(self) -> str:
        """The settings' signature, a string as on every result (give it back as ``settings``)."""
        return self.settings.signature()

    def _key_head(self) -> Dict[str, Any]:
        s = self.selection
        return {"spacy_agreement_judging_key": KEY_VERSION, "page": self.page_id,
                "systems": {"A": os.path.abspath(s.systems[0]), "B": os.path.abspath(s.systems[1])},
                "gold": None if s.gold is None else os.path.abspath(s.gold), "show_gold": self.show_gold,
                "ties": s.settings.ties, "marks": self.marks, "signature": self.signature,
                "order": {"shuffle": self.shuffle, "seed": self.page_id,
                          "rule": "per judge: judge_order(page, judge) (spacy_agreement.report.judging_page)"}}

    def _key_items(self) -> Iterator[Dict[str, Any]]:
        return key_items(self.selection.items, self.sides)

    @property
    def key(self) -> Dict[str, Any]:
        """The key (module docstring): what ``judgments --key`` needs to map the choices back."""
        return {**self._key_head(), "items": list(self._key_items())}

    def write(self, path: PathLike) -> None:
        """The page to ``path`` (UTF-8); the key is :meth:`write_key`'s (``judge(html=...)`` writes both)."""
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(self.html)
        self.written = os.fspath(path)

    def write_key(self, path: PathLike) -> None:
        """The key (JSON, one item at a time: its trees are not all held at once) to ``path``: keep it
        from the judges."""
        head = json.dumps(self._key_head(), ensure_ascii=False, separators=(",", ":"))
        with open(path, "wb") as handle:  # the lines are UTF-8 already; the line end as a text file writes it
            handle.write((head[:-1] + ',"items":[').encode("utf-8"))
            for line in self._key_lines or key_item_lines(self.selection.items, self.sides):
                handle.write(line)
            handle.write(("]}" + os.linesep).encode("utf-8"))
        self.key_written = os.fspath(path)

    def to_dict(self) -> Dict[str, Any]:
        return {**self.selection.to_dict(), "page": self.page_id, "bytes": len(self.html.encode("utf-8")),
                "layout": self.layout, "marks": self.marks, "show_gold": self.show_gold,
                "signature": self.signature}

    def __repr__(self) -> str:
        s = self.selection
        return (f"JudgingPage({len(s.items)} items of {s.sentences} sentences ({s.identical} the same without "
                f"punctuation), {len(self.html.encode('utf-8')):,} bytes, {self.layout}; {self.signature})")

    def _headline_html(self) -> str:
        from ..evaluation.command_results import html_table

        s = self.selection
        rows = [("items to judge", str(len(s.items))), ("sentences", str(s.sentences)),
                ("the same without punctuation", str(s.identical)), ("layout", self.layout),
                ("size", f"{len(self.html.encode('utf-8')):,} bytes")]
        return html_table(f"Judging page {self.page_id}", rows, self.signature, ["page.write(path) saves it"])


LEGEND_PAIR = ('<span class="red">Red</span>: where the two analyses differ (another head or relation, a bracket '
               'the other lacks), the label in bold; <span class="grey">grey</span>: the same in both.')
LEGEND_GOLD = ('<span class="red">Red</span>: where this analysis differs from the gold (another head or relation, '
               'a bracket the gold lacks), the label in bold; <span class="grey">grey</span>: as in the gold.')


def build_judging_page(selection: JudgingSelection, layout: str = "stacked", marks: bool = True,
                       show_gold: bool = False, title: str = DEFAULT_TITLE, *, shuffle: bool = True) -> JudgingPage:
    """The page of the items of ``selection`` (module docstring)."""
    if layout not in LAYOUTS:
        raise BadOptionError(f"layout must be {' or '.join(LAYOUTS)}, not {layout!r}", option="layout")
    if show_gold and selection.gold is None:
        raise BadOptionError("--show-gold needs a gold file (--gold)", option="show_gold")
    if not selection.items:
        raise JudgmentError(f"no item to judge: the analyses of all {selection.sentences} sentences are the same "
                            "once punctuation is removed (--all to judge them anyway)")
    sides = item_sides(len(selection.items), selection.settings.seed)
    ties = selection.settings.ties
    # the page id and the key's items while the last items are compressed
    packed, (page_id, key_lines) = packed_payload(selection.items, sides, ties, marks, show_gold,
                                                  lambda: page_id_and_key(selection, sides, show_gold, marks, shuffle))
    n = len(selection.items)
    keys = "<kbd>1</kbd> or <kbd>\u2190</kbd> the first, <kbd>2</kbd> or <kbd>\u2192</kbd> the second" + (
        ", <kbd>0</kbd> or <kbd>=</kbd> equally good" if ties else "")
    tie_button = ('<button type="button" data-choice="tie">Equally good <kbd>0</kbd></button>' if ties else "")
    legend = (LEGEND_GOLD if show_gold else LEGEND_PAIR) if marks else "No marks: compare the two analyses yourself."
    html = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src data: blob:">
<meta name="generator" content="spacy-agreement {esc(__version__)}">
<title>{esc(title)}</title>
<style>{STYLE}{SVG_STYLE}</style></head>
<body data-page="{esc(page_id)}" data-layout="{esc(layout)}" data-ties="{'yes' if ties else 'no'}" data-shuffle="{'yes' if shuffle else 'no'}" data-signature="{esc(selection.settings.signature())}">
<header><h1>{esc(title)}</h1><p id="progress" aria-live="polite">{n} items</p></header>
<section id="start">
<p>Each of the {n} items is a sentence with two analyses. Choose the better one: {keys};
<kbd>s</kbd> skips an item you cannot judge, <kbd>u</kbd> or <kbd>Backspace</kbd> undoes the last answer, <kbd>?</kbd> shows the keys.
A click on an analysis chooses it too. You do not know which parser made which analysis.
Your answers stay in this browser: close the page whenever you like and come back with the same name.
When you are done, press Export and send the file it downloads.</p>
<p><label for="judge">Judge</label> <input id="judge" type="text" autocomplete="off" value="">
<button type="button" id="start-button" disabled>Start</button>
<button type="button" id="continue-button" hidden></button></p>
<p id="start-note" class="note"></p>
</section>
<main id="judging" hidden>
<p id="sentence" class="sentence"></p>
<div class="toolbar"><span class="note">Zoom</span> <button type="button" id="zoom-out" aria-label="Zoom out">\u2212</button>
<span id="zoom-level">125%</span> <button type="button" id="zoom-in" aria-label="Zoom in">+</button>
<span class="note">long sentences scroll sideways inside their box, both boxes together</span></div>
<p class="legend" id="legend">{legend}</p>
<div id="analyses" class="analyses {esc(layout)}">
<figure class="analysis" data-analysis="1"><figcaption>1</figcaption><div class="picture"></div></figure>
<figure class="analysis" data-analysis="2"><figcaption>2</figcaption><div class="picture"></div></figure>
</div>
<figure id="gold" class="analysis gold" hidden><figcaption>Gold</figcaption><div class="picture"></div></figure>
<div class="choices">
<button type="button" data-choice="1">1 is better <kbd>1</kbd></button>
{tie_button}
<button type="button" data-choice="2">2 is better <kbd>2</kbd></button>
<button type="button" data-choice="skip">Skip, cannot tell <kbd>s</kbd></button>
</div>
<p><label for="comment">Comment</label> <span class="note">(optional; <kbd>Esc</kbd> leaves the field)</span><br>
<textarea id="comment" rows="2"></textarea></p>
</main>
<section id="done" hidden><p>You have answered every item. Press Export and send the file it downloads.</p></section>
<p class="nav started" hidden>Judge: <b id="judge-name"></b>
<button type="button" class="undo">Undo <kbd>u</kbd></button>
<button type="button" class="export" id="export-done">Export</button></p>
<p class="nav"><button type="button" class="help-button">Help <kbd>?</kbd></button></p>
<div id="help" role="dialog" aria-label="Keys" hidden>
<p><b>Keys</b></p>
<ul><li><kbd>1</kbd> or <kbd>\u2190</kbd>: analysis 1 is better; <kbd>2</kbd> or <kbd>\u2192</kbd>: analysis 2 is better</li>
{'<li><kbd>0</kbd> or <kbd>=</kbd>: equally good</li>' if ties else ''}
<li><kbd>s</kbd>: skip (cannot tell)</li><li><kbd>u</kbd> or <kbd>Backspace</kbd>: undo the last answer</li>
<li><kbd>?</kbd>: this help; <kbd>Esc</kbd> closes it or leaves the comment field</li>
<li>a click on an analysis chooses it</li></ul>
<button type="button" id="help-close">Close</button>
</div>
{PAYLOAD_OPEN}{packed}</script>
<script>{SCRIPT}</script>
</body></html>
"""
    return JudgingPage(html, selection, page_id, layout, marks, show_gold, sides, shuffle, _key_lines=key_lines)


#: 0.3's names of :func:`judging_page`'s options -> the command's (``judge``'s), which it now takes
_OLD_PAGE_OPTIONS = {"fmt": "format", "marks": "no_marks", "punct_rules": "punct", "all_items": "all",
                     "shuffle": "in_order"}


def judging_page(system_a: Any, system_b: Any, gold: Any = None, *args: Any,
                 settings: Union[None, str, JudgingSettings] = None, signature: Optional[str] = None,
                 format: Optional[str] = None, layout: str = "stacked", no_marks: bool = False,
                 show_gold: bool = False, title: str = DEFAULT_TITLE, in_order: bool = False,
                 punct: Optional[str] = None, all: Optional[bool] = None, **options: Any) -> JudgingPage:
    """The judging page of ``system_a`` against ``system_b`` (module docstring), without writing it:
    :func:`judge` with its options under the same names (``format``, ``no_marks``, ``punct``,
    ``all``, ``in_order``, ...). The items as
    :func:`~spacy_agreement.evaluation.judgments.judging_items.select_judging_items` picks them
    (``settings``, a signature given back, or the settings' fields as keyword ``options``:
    ``items``, ``seed``, ``ties``), drawn one above the other (``layout="stacked"``) or
    ``"side-by-side"``, their differences marked unless ``no_marks=True``, the gold shown with
    ``show_gold=True``, in an order drawn per judge unless ``in_order=True``. ``.write(path)`` saves it,
    ``.write_key(key_path(path))`` its key; ``.to_dict()`` is ``judge --json``. 0.3's names
    (``fmt``, ``marks``, ``punct_rules``, ``all_items``, ``shuffle``) still work, with a
    :class:`DeprecationWarning`."""
    from .._calling import deprecated, positional_settings

    settings = positional_settings("judging_page", args, settings, signature, JudgingSettings)
    for old, new in _OLD_PAGE_OPTIONS.items():
        if old not in options:
            continue
        value = options.pop(old)
        deprecated(f"judging_page({old}=...)", f"judging_page({new}=...), as judge() names it")
        if old == "fmt":
            format = value
        elif old == "marks":
            no_marks = not value
        elif old == "shuffle":
            in_order = not value
        else:
            options[old] = value
    if punct is not None:
        options["punct_rules"] = punct
    if all is not None:
        options["all_items"] = all
    if layout not in LAYOUTS:  # before any file is read
        raise BadOptionError(f"layout must be {' or '.join(LAYOUTS)}, not {layout!r}", option="layout")
    if show_gold and gold is None:
        raise BadOptionError("--show-gold needs a gold file (--gold)", option="show_gold")
    if isinstance(settings, str):  # a signature given back (or a saved JSON output holding one)
        settings = JudgingSettings.from_signature(read_signature(settings))
    selection = select_judging_items(system_a, system_b, gold, settings, format, **options)
    return build_judging_page(selection, layout, not no_marks, show_gold, title, shuffle=not in_order)


def judge(system_a: Any, system_b: Any, *args: Any, gold: Any = None,
          settings: Union[None, str, JudgingSettings] = None, signature: Optional[str] = None,
          html: Optional[PathLike] = None, all: bool = False,
          items: Optional[int] = None, seed: int = 0, punct: str = "form", layout: str = "stacked",
          no_marks: bool = False, show_gold: bool = False, no_ties: bool = False, title: str = DEFAULT_TITLE,
          format: Optional[str] = None, key: Optional[PathLike] = None, in_order: bool = False) -> JudgingPage:
    """``spacy-agreement judge A B --html PAGE``: the page for blind pairwise judging of two
    parsers' analyses (Plank et al. 2015, §3; module docstring), written to ``html`` when given,
    with its key beside it (``PAGE.key.json``, :func:`key_path`; or ``key``).
    The options are the command's (``-`` as ``_``, its defaults): ``gold`` (into the key,
    and what decides punctuation), ``all`` (every sentence, not only those that differ without
    punctuation), ``items`` and ``seed`` (draw that many; the seed draws the sides too), ``punct``
    (the selection's rules), ``layout``, ``no_marks``, ``show_gold``, ``no_ties``, ``title``, ``format``,
    ``in_order`` (every judge sees the items in the files' order); ``settings``: a
    :class:`~spacy_agreement.evaluation.judgments.judging_items.JudgingSettings` or a signature given back
    (``--signature``; or ``signature=``). ``system_a``, ``system_b`` and ``gold`` take paths, spaCy
    docs, DocBins, DependencyGraphs or the package's trees (:mod:`spacy_agreement.adapters.objects`).
    :func:`judging_page` is the same page with the selection's settings as
    keywords; :meth:`JudgingPage.to_dict` is ``judge --json``.

    Parameters
    ----------
    system_a, system_b, gold
        The two systems' analyses and (optionally) the gold, each a path as the command takes it (a CoNLL-U/CoNLL-X file, a ``.spacy`` DocBin, a folder or a
        tool's export), spaCy docs (a ``Doc``, an iterable of them, a ``DocBin``), NLTK
        ``DependencyGraph``\\ s or the package's ``DependencyTree``\\ s: objects are written to a
        file and read as the path would be (:mod:`spacy_agreement.adapters.objects`), so the
        numbers are the same.
    settings
        A settings object of the command (keyword-only), whose fields an option given otherwise than
        by default must not contradict (an error naming the option).
    signature
        A signature given back (as ``--signature``: the signature, or a saved ``--json`` output).
    **options
        The command's long options (``-`` as ``_``) with its defaults (see above).

    Returns
    -------
    JudgingPage
        The page (``html``, ``write(path)``), its items and what was left out; ``to_dict()`` is
        the command's ``--json``.

    Raises
    ------
    TypeError
        An input that is none of the kinds above, or of the other family (phrase-structure trees
        here): the message names the argument, what was given and the kinds accepted.
    spacy_agreement.EmptyInputError
        An empty file (``FILE: empty file``, as the command says) or an empty list.
    spacy_agreement.InvalidTreeError
        A malformed tree, naming the file, the sentence and the token.
    spacy_agreement.BadOptionError
        An option value the function cannot use, naming the option.

    Examples
    --------
    >>> import spacy_agreement as sa
    >>> from pathlib import Path
    >>> demo = Path(sa.__file__).parent / "data" / "demo"
    >>> page = sa.judge(demo / "dependency" / "anna" / "story-anna.conllu",
    ...                 demo / "dependency" / "ben" / "story-ben.conllu", all=True)
    >>> page.to_dict()["items"]
    3
    """
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
        page = judging_page(system_a, system_b, gold, settings=chosen, format=format,
                            layout=getattr(layout, "value", layout), no_marks=no_marks, show_gold=show_gold,
                            title=title, in_order=in_order)
    if html is not None:
        page.write(html)
        page.write_key(key if key is not None else key_path(html))
    elif key is not None:
        page.write_key(key)
    return page


__all__ = ["DEFAULT_TITLE", "KEY_VERSION", "LAYOUTS", "JudgingPage", "build_judging_page", "first_shown", "item_sides",
           "judge", "judge_order", "judging_page", "key_path", "normal_judge"]
