"""The HTML report shows markup from the input as text (issue 17): words, lemmas, tags, labels,
categories, annotator, item and file names and the title made of hostile strings.

Each page is parsed with html5lib (the WHATWG parsing algorithm browsers follow) next to the
page of the same report with harmless strings in their place: the hostile page may hold only
the elements (with their attribute names) and parse errors the harmless one holds, no script,
no comment, no event handler and no ``javascript:`` address; and every hostile string is in
the page's text, each field where it belongs, escaped once (``a&b`` reads ``a&b``).
"""
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, List, Sequence

import html5lib
import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.corpus import Corpus
from spacy_agreement.report.escape import close_bidi, text as escape_text
from spacy_agreement.report.html import html_report

LONG = ("<svg onload=alert(1)>" * 500)[:10_000]
HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "' onmouseover='alert(1)",
    "</svg><script>x()</script>",
    "</script><script>y()</script>",
    "&lt;script&gt;",
    "<!--",
    "]]>",
    "javascript:alert(1)",
    LONG,
    "Ærø 語 ﬁ \u202egnp.exe",
    "a&b",
    "$\\notacommand{$",  # TeX to matplotlib's tick labels
    "<![CDATA[<script>z()</script>]]>",
]
# categories and words of bracketed trees hold neither whitespace nor parentheses
BRACKET_HOSTILE = [
    "<script>alert`1`</script>",
    '"><img/src=x/onerror=alert`1`>',
    "'onmouseover='alert`1`'",
    "</svg><script>x``</script>",
    "</script><script>y``</script>",
    "&lt;script&gt;",
    "<!--",
    "]]>",
    "javascript:alert`1`",
    LONG.replace(" ", "/").replace("(", "`").replace(")", "`"),
    "Ærø語ﬁ\u202egnp.exe",
    "a&b",
]
# names of files and directories: no '/'
FILE_HOSTILE = ['"><img src=x onerror=alert(1)>', "' onmouseover='alert(1)", "<b>&amp;x", "a&b<i>'\""]
HEADS = [[2, 0, 2, 3], [3, 0, 2, 2], [2, 0, 4, 2]]  # three annotators' trees of every sentence
XHTML, SVG = "{http://www.w3.org/1999/xhtml}", "{http://www.w3.org/2000/svg}"
TEXT_ATTRIBUTES = {"title", "data-item"}  # hold the input as text, never followed as an address


def harmless(strings: Sequence[str]) -> List[str]:
    """The same number of distinct strings without markup (the same report structure)."""
    return [f"x{k}" for k in range(len(strings))]


def sentence(strings: Sequence[str], k: int, annotator: int) -> Dict[str, list]:
    """Sentence ``k`` as annotator ``annotator`` analyses it: every field from ``strings``; the
    words are the same for every annotator, heads and labels differ."""
    n = len(strings)
    return {"forms": [strings[(k + j) % n] for j in range(4)],
            "upos": [strings[(k + j + 1) % n] for j in range(4)],
            "lemmas": [strings[(k + j + 2) % n] for j in range(4)],
            "deprels": [strings[(k + j + annotator) % n] for j in range(4)],
            "heads": HEADS[annotator % len(HEADS)]}


def dependency_corpus(strings: Sequence[str], annotators: Sequence[str]) -> Corpus:
    items = [{name: sa.DependencyTree.create(**sentence(strings, k, a)) for a, name in enumerate(annotators)}
             for k in range(len(strings))]
    return Corpus(tuple(annotators), items, list(strings), "dependency")


def phrase_corpus(categories: Sequence[str], names: Sequence[str]) -> Corpus:
    """Three annotators: the same words under differently bracketed, differently labelled trees."""
    n = len(categories)

    def tree(k: int, a: int):
        c = [categories[(k + a + j) % n] for j in range(6)]
        w = [categories[(k + j) % n] for j in range(3)]
        text = (f"({c[0]} ({c[1]} {w[0]}) ({c[2]} ({c[3]} {w[1]}) ({c[4]} {w[2]})))" if a % 2 == 0 else
                f"({c[0]} ({c[2]} ({c[1]} {w[0]}) ({c[3]} {w[1]})) ({c[5]} {w[2]}))")
        return sa.parse_brackets(text)[0]

    annotators = tuple(names[:3])
    items = [{name: tree(k, a) for a, name in enumerate(annotators)} for k in range(n)]
    return Corpus(annotators, items, [names[(3 + k) % len(names)] for k in range(n)], "constituency")


def parse(page: str):
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree", ET))
    return parser.parse(page), {code for _, code, _ in parser.errors}


def local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def shape(root) -> set:
    """(element, its attribute names) of every element; comments as ``#comment``."""
    return {("#comment" if el.tag is ET.Comment else el.tag, frozenset(el.attrib)) for el in root.iter()}


def pair_options(root) -> set:
    """The annotator pairs offered by the page's filter, as shown."""
    select = next(el for el in root.iter(f"{XHTML}select") if el.get("id") == "pair-filter")
    return {"".join(el.itertext()) for el in select if el.get("value")}


def texts(root, tag: str, cls: str) -> List[str]:
    return ["".join(el.itertext()) for el in root.iter(tag) if cls in el.get("class", "").split()]


def check_page(page: str, model_page: str, shown: Sequence[str]) -> ET.Element:
    """``page`` (hostile) against ``model_page`` (the same report with harmless strings)."""
    root, errors = parse(page)
    model, model_errors = parse(model_page)
    assert root.find(f".//{XHTML}body") is not None and root.find(f".//{XHTML}section") is not None
    extra = shape(root) - shape(model)
    assert not extra, f"elements or attributes that are not the template's: {sorted(map(str, extra))[:10]}"
    assert errors <= model_errors, errors - model_errors
    assert not any(el.tag is ET.Comment for el in model.iter())  # so comments are caught by the subset
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    assert not [el for el in elements if local(el.tag) in ("iframe", "object", "embed", "foreignObject")]
    # the one script is the template's own (the filters), word for word the harmless page's
    scripts = ["".join(el.itertext()) for el in elements if local(el.tag) == "script"]
    assert scripts == ["".join(el.itertext()) for el in model.iter() if isinstance(el.tag, str)
                       and local(el.tag) == "script"] and len(scripts) == 1
    for el in elements:
        for name, value in el.attrib.items():
            assert not local(name).lower().startswith("on"), (el.tag, name, value[:80])
            if local(name) not in TEXT_ATTRIBUTES and not local(name).startswith("data-"):
                assert not value.strip().lower().startswith("javascript:"), (el.tag, name, value[:80])
    content = "".join(root.itertext())
    missing = [s[:60] for s in shown if s not in content]
    assert not missing, f"hostile strings not shown as text: {missing}"
    return root


@pytest.fixture(scope="module")
def dependency_pages():
    """The hostile and the harmless page, for every three hostile strings as annotator names."""
    pages = []
    for offset in range(0, len(HOSTILE), 3):
        for strings in (HOSTILE, harmless(HOSTILE)):
            annotators = [strings[(offset + a) % len(strings)] for a in range(3)]
            title = strings[(offset + 3) % len(strings)]
            pages.append((html_report(dependency_corpus(strings, annotators), items=len(strings), title=title),
                          annotators, title))
    return list(zip(pages[::2], pages[1::2]))


def test_escape_text_escapes_once():
    assert escape_text('<a href="x">\'&amp;') == "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;amp;"
    assert escape_text(3) == "3"
    # a right-to-left override turns only its own string around, not the page after it
    assert escape_text("a\u202eb") == "\u2068a\u202eb\u202c\u2069"
    assert escape_text("a\u2067b\u202bc") == "\u2068a\u2067b\u202bc\u202c\u2069\u2069"
    assert escape_text("a\u2067b\u202bc\u2069d") == "\u2068a\u2067b\u202bc\u2069d\u2069"
    assert escape_text("\u2069\u202c\u202eb") == "\u2068\u202eb\u202c\u2069"  # a closer can't end the isolate


def test_hostile_dependency_report_shows_everything_as_text(dependency_pages):
    for (page, annotators, title), (model_page, _, _) in dependency_pages:
        root = check_page(page, model_page, HOSTILE)
        # shown as given, escaped once (bidirectional overrides closed at their string's end)
        assert "".join(root.find(f".//{XHTML}title").itertext()) == close_bidi(title)
        assert "".join(root.find(f".//{XHTML}h1").itertext()) == close_bidi(title)
        shown = {close_bidi(annotators[a]) + " / " + close_bidi(annotators[b]) for a, b in ((0, 1), (0, 2), (1, 2))}
        assert pair_options(root) == shown
        names = {close_bidi(s): s for s in HOSTILE}
        items = {el.get("data-item") for el in root.iter(f"{XHTML}div") if el.get("class") == "item"}
        assert items <= set(names) and len(items) > 1
        if 'class="displacy' in page:  # each field of displaCy's SVG where it belongs: displaCy
            # escapes the words itself, the report the tags and the labels
            corpus = dependency_corpus(HOSTILE, annotators)
            words = set(texts(root, f"{SVG}tspan", "displacy-word"))
            tags = set(texts(root, f"{SVG}tspan", "displacy-tag"))
            labels = set(texts(root, f"{SVG}textPath", "displacy-label"))
            for name in items:
                for tree in corpus.items[corpus.names.index(names[name])].values():
                    assert set(map(close_bidi, tree.forms)) <= words and set(map(close_bidi, tree.upos)) <= tags
                    assert {close_bidi(r) for h, r in zip(tree.heads.tolist(), tree.deprels) if h != 0} <= labels
            assert "a&b" in words and "a&b" in tags and "a&b" in labels and "&lt;script&gt;" in labels
        confused = texts(root, f"{XHTML}td", "name")
        assert set(HOSTILE) & set(confused)
        assert len(root.findall(f".//{SVG}svg")) >= len(items)


def test_hostile_phrase_report_shows_everything_as_text():
    names = HOSTILE
    corpus = phrase_corpus(BRACKET_HOSTILE, names)
    model = phrase_corpus(harmless(BRACKET_HOSTILE), harmless(names))
    page = html_report(corpus, items=len(BRACKET_HOSTILE), title=HOSTILE[3])
    model_page = html_report(model, items=len(BRACKET_HOSTILE), title="x")
    shown = [*BRACKET_HOSTILE, *corpus.annotators, *corpus.names[:len(BRACKET_HOSTILE)], HOSTILE[3]]
    root = check_page(page, model_page, shown)
    # drawn: brackets and tags as SVG text (long ones shortened, whole in a title), words shaded
    drawn = " ".join(texts(root, f"{SVG}text", "label") + texts(root, f"{SVG}text", "tag")
                     + texts(root, f"{SVG}title", ""))
    assert [s[:60] for s in BRACKET_HOSTILE if s not in drawn] == []
    scored = texts(root, f"{SVG}g", "scored")
    assert scored and any("a&b" in t for t in scored)


def write_conll(path: Path, strings: Sequence[str], annotator: int, sentences: int) -> None:
    rows = []
    for k in range(sentences):
        s = sentence(strings, k, annotator)
        rows += [f"{j}\t{s['forms'][j - 1]}\t{s['lemmas'][j - 1]}\t{s['upos'][j - 1]}\t_\t_\t{s['heads'][j - 1]}\t"
                 f"{s['deprels'][j - 1]}\t_\t_" for j in range(1, 5)] + [""]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def run_report(args: List[str], out: Path) -> str:
    result = CliRunner().invoke(app, ["report", *args, "--html", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_hostile_file_names_through_the_cli(tmp_path):
    pages = []
    for kind, names, strings, title in (("hostile", FILE_HOSTILE[:3], HOSTILE, HOSTILE[0]),
                                        ("harmless", harmless(FILE_HOSTILE[:3]), harmless(HOSTILE), "x")):
        folder = tmp_path / kind
        folder.mkdir()
        paths = [folder / f"{name}.conll" for name in names]
        for a, path in enumerate(paths):
            write_conll(path, strings, a, len(strings))
        pages.append(run_report([*map(str, paths), "--title", title], folder / "report.html"))
    root = check_page(pages[0], pages[1], [*FILE_HOSTILE[:3], *HOSTILE])
    names = FILE_HOSTILE[:3]
    assert pair_options(root) == {f"{names[a]} / {names[b]}" for a, b in ((0, 1), (0, 2), (1, 2))}


def test_hostile_directory_and_file_prefixes_through_the_cli(tmp_path):
    prefixes = ["<!--<script>alert(1)", '"&lt;x&gt;' + "'"]
    pages = []
    for kind, names, fixes, strings in (("hostile", FILE_HOSTILE, prefixes, HOSTILE),
                                        ("harmless", harmless(FILE_HOSTILE), harmless(prefixes), harmless(HOSTILE))):
        dirs = [tmp_path / kind / name for name in names]
        for a, d in enumerate(dirs):
            d.mkdir(parents=True)
            for prefix in fixes:
                write_conll(d / f"{prefix}-{d.name}.conll", strings, a, 5)
        pages.append(run_report(["--dirs", *map(str, dirs), "--title", FILE_HOSTILE[1] if kind == "hostile" else "x"],
                                tmp_path / kind / "report.html"))
    root = check_page(pages[0], pages[1], [*FILE_HOSTILE, *prefixes])
    items = {el.get("data-item") for el in root.iter(f"{XHTML}div") if el.get("class") == "item"}
    assert {item.rsplit(" sentence ", 1)[0] for item in items} == set(prefixes)
