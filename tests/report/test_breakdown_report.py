"""The breakdown section of the HTML report (issue 29, part 3): with one annotator as the gold,
a table and an inline SVG figure per attribute for the other annotators (the systems); without
matplotlib the tables and one line on how to get the plots; names from the input escaped;
``report --gold`` on the command line."""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import html5lib
import pytest
from typer.testing import CliRunner

from spacy_agreement.adapters.conllu.trees import parse_conll
from spacy_agreement.cli import app
from spacy_agreement.corpus import Corpus
from spacy_agreement.errors import BadOptionError
from spacy_agreement.evaluation.dependency.breakdowns import ATTRIBUTES, breakdowns_from_trees
from spacy_agreement.report.breakdown_html import PLOT_NOTE, breakdown_section, corpus_breakdowns
from spacy_agreement.report.html import build_report

XHTML = "{http://www.w3.org/1999/xhtml}"
DATA = Path(__file__).resolve().parents[1] / "data" / "conll18"
GOLD = "gold"
SYSTEM = "<b>parser$&"  # markup, a TeX dollar and an ampersand in a name


def conllu(heads, rels, sentences=3) -> str:
    forms = ["The", "dog", "runs", "<i>&"]
    upos = ["DET", "NOUN", "VERB", "PUNCT"]
    blocks = []
    for k in range(1, sentences + 1):
        rows = [f"{i}\t{forms[i - 1]}\t_\t{upos[i - 1]}\t_\t_\t{heads[i - 1]}\t{rels[i - 1]}\t_\t_"
                for i in range(1, 5)]
        blocks.append(f"# sent_id = s{k}\n" + "\n".join(rows) + "\n")
    return "\n".join(blocks) + "\n"


@pytest.fixture(scope="module")
def corpus():
    trees = {GOLD: parse_conll(conllu([2, 3, 0, 3], ["det", "nsubj", "root", "punct"])),
             SYSTEM: parse_conll(conllu([2, 3, 0, 2], ["det", "nsubj", "root", "<script>"])),
             "other": parse_conll(conllu([3, 3, 0, 3], ["det", "obj", "root", "punct"]))}
    return Corpus.from_items([{name: trees[name][k] for name in trees} for k in range(3)],
                             names=[f"s{k + 1}" for k in range(3)])


@pytest.fixture(scope="module")
def page(corpus):
    return build_report(corpus, items=3, gold=GOLD).html


def parse(page: str):
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree", ET))
    return parser.parse(page), parser.errors


def section_of(page: str) -> str:
    start = page.index('<section id="breakdowns">')
    return page[start:page.index("</section>", start) + len("</section>")]


def test_the_section_has_a_figure_and_a_table_per_attribute(page):
    root, _ = parse(page)
    ids = [el.get("id") for el in root.iter(f"{XHTML}section")]
    assert ids[-1] == "breakdowns" and "layers" in ids
    assert page.index('<section id="breakdowns">') < page.index("id='signature'")
    section = section_of(page)
    assert section.count("<svg") == len(ATTRIBUTES) and PLOT_NOTE not in section
    tables = [t for t in root.iter(f"{XHTML}table") if t.get("class") == "breakdown"]
    assert [t.get("data-by") for t in tables] == list(ATTRIBUTES)
    # ids of each figure are its own: no clash between the six figures
    ids_in_svgs = [el.get("id") for el in root.iter() if el.get("id") and "bd" in el.get("id")[:3]]
    assert len(ids_in_svgs) == len(set(ids_in_svgs)) > 0
    assert "http://" not in section.replace("http://www.w3.org", "") and "https://" not in section


def test_the_tables_show_the_breakdowns_in_percent(page, corpus):
    systems = corpus_breakdowns(corpus, GOLD)
    assert list(systems) == [SYSTEM, "other"]
    root, _ = parse(page)
    direction = next(t for t in root.iter(f"{XHTML}table") if t.get("data-by") == "direction")
    rows = [["".join(td.itertext()) for td in tr.iter(f"{XHTML}td")] for tr in direction.iter(f"{XHTML}tr")]
    rows = [r for r in rows if r]
    assert [r[0] for r in rows] == ["left", "right", "root"]
    # gold: The and dog hang under a head to their right, the punctuation under runs, to its left
    left = systems[SYSTEM]["direction"].row("left")
    assert rows[0][1] == str(left.gold) and rows[0][2] == str(left.system)
    assert rows[0][3] == f"{100 * left.recall:.2f}"


def test_names_and_labels_from_the_input_are_escaped(page):
    section = section_of(page)
    assert "<b>parser" not in section and "&lt;b&gt;parser$&amp;" in section
    assert "<script>" not in section and "&lt;script&gt;" in section
    root, _ = parse(page)
    breakdowns = next(el for el in root.iter(f"{XHTML}section") if el.get("id") == "breakdowns")
    assert breakdowns.find(f".//{XHTML}b") is None and breakdowns.find(f".//{XHTML}script") is None


def test_the_page_parses_as_well_as_without_the_section(page):
    _, errors = parse(page)
    section = section_of(page)
    _, without = parse(page.replace(section, ""))
    assert {code for _, code, _ in errors} <= {code for _, code, _ in without}


def test_without_matplotlib_the_tables_stay_with_one_line(monkeypatch, corpus):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError
    section = section_of(build_report(corpus, items=1, gold=GOLD).html)
    assert section.count(PLOT_NOTE) == 1 and "pip install 'spacy-agreement[plot]'" in section
    assert "<svg" not in section and section.count("class='breakdown'") == len(ATTRIBUTES)


def test_no_gold_no_section_and_an_unknown_gold_is_an_error(corpus):
    assert 'id="breakdowns"' not in build_report(corpus, items=1).html
    with pytest.raises(BadOptionError, match="nobody"):
        build_report(corpus, items=1, gold="nobody")


def test_the_section_of_given_breakdowns_and_the_unlabelled_wording():
    gold = parse_conll(conllu([2, 3, 0, 3], ["det", "nsubj", "root", "punct"], 1))[0]
    pred = parse_conll(conllu([3, 3, 0, 3], ["det", "obj", "root", "punct"], 1))[0]
    html = breakdown_section({"a": breakdowns_from_trees([(gold, pred)], by=("depth",), labelled=False)}, "the gold")
    assert "the right head." in html and "the gold" in html and html.count("<table") == 1


def test_report_gold_on_the_command_line(tmp_path):
    out = tmp_path / "report.html"
    files = [str(DATA / "case1.gold.conllu"), str(DATA / "case1.sys.conllu")]
    result = CliRunner().invoke(app, ["report", *files, "--html", str(out), "--gold", "case1.gold"])
    assert result.exit_code == 0, result.output
    section = section_of(out.read_text(encoding="utf-8"))
    assert "case1.sys" in section and "By arc length" in section
    result = CliRunner().invoke(app, ["report", *files, "--html", str(out), "--gold", "gold"])
    assert result.exit_code != 0 and "case1.gold" in result.output
