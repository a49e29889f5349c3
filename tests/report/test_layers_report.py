"""The per-layer agreement section of the HTML report (issue 28): summary, per-label tables,
the disagreeing tokens with their layer filter, escaping, and no section for phrase trees."""
import re
import warnings
import xml.etree.ElementTree as ET
from typing import List

import html5lib
import pytest

import spacy_agreement as sa
from spacy_agreement.adapters.conllu.trees import parse_conll
from spacy_agreement.agreement.layers import agreement_by_layer, disagreements
from spacy_agreement.corpus import Corpus
from spacy_agreement.errors import UndefinedMetricWarning
from spacy_agreement.report.html import build_report
from spacy_agreement.report.layers_html import LAYERS_SCRIPT, layers_section

XHTML = "{http://www.w3.org/1999/xhtml}"
# annotator → (UPOS of "dog", UPOS of "runs", DEPREL of the last token) in every sentence
CHOICES = {"ann1": ("NOUN", "VERB", "punct"), "ann2": ("PROPN", "VERB", "punct"), "ann3": ("NOUN", "<b>&", "obj")}


def conllu(upos_dog: str, upos_runs: str, last_rel: str, sentences: int = 2) -> str:
    blocks = []
    for k in range(1, sentences + 1):
        blocks.append(f"# sent_id = s{k}\n"
                      "1\tThe\tthe\tDET\t_\tDefinite=Def\t2\tdet\t_\t_\n"
                      f"2\tdog\tdog\t{upos_dog}\t_\tNumber=Sing\t3\tnsubj\t_\t_\n"
                      f"3\truns\trun\t{upos_runs}\t_\t_\t0\troot\t_\t_\n"
                      f"4\t<b>&\t<b>&\tPUNCT\t_\t_\t3\t{last_rel}\t_\t_\n")
    return "\n".join(blocks) + "\n"


def dependency_corpus(sentences: int = 2) -> Corpus:
    trees = {name: parse_conll(conllu(*choice, sentences=sentences)) for name, choice in CHOICES.items()}
    return Corpus.from_items([{name: trees[name][k] for name in CHOICES} for k in range(sentences)],
                             names=[f"s{k + 1}" for k in range(sentences)])


def values(row: dict) -> dict:
    """Each annotator's value in a row of :func:`disagreements`."""
    return row["values"] if isinstance(row.get("values"), dict) else row


def parse(page: str):
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree", ET))
    return parser.parse(page), parser.errors


def section(root) -> ET.Element:
    found = [el for el in root.iter(f"{XHTML}section") if el.get("id") == "layers"]
    assert len(found) == 1
    return found[0]


def table_rows(el, table_id: str) -> List[ET.Element]:
    table = next(t for t in el.iter(f"{XHTML}table") if t.get("id") == table_id)
    return [tr for tr in table.iter(f"{XHTML}tr") if tr.get("data-layer") is not None]


@pytest.fixture(scope="module")
def corpus():
    return dependency_corpus()


@pytest.fixture(scope="module")
def result(corpus):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # no XPOS: undefined, n/a on the page
        return agreement_by_layer(corpus)


@pytest.fixture(scope="module")
def page(corpus):
    return build_report(corpus, items=5).html


def test_the_report_of_a_dependency_corpus_has_the_layers_section(page, result):
    root, errors = parse(page)
    layers = section(root)
    text = "".join(layers.itertext())
    assert set(result.layers) >= {"upos", "xpos", "feats", "lemma", "head", "deprel", "deprel_same_head"}
    for name in result.layers:
        assert name in text
    # before the signature footer, after the plots; the layer filter in the page's one script
    assert page.index('<section id="layers">') > page.index('<section id="plots">')
    assert page.index('<section id="layers">') < page.index("id='signature'")
    scripts = [el for el in root.iter(f"{XHTML}script")]
    assert len(scripts) == 1 and LAYERS_SCRIPT.strip() in "".join(scripts[0].itertext())
    assert "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page  # self-contained
    select = next(el for el in layers.iter(f"{XHTML}select") if el.get("id") == "layer-filter")
    offered = {el.get("value") for el in select if el.get("value")}
    assert offered == {name for name, layer in result.layers.items() if layer.disagreeing}
    assert {"upos", "deprel"} <= offered


def test_summary_numbers_are_formatted_like_the_page(page, result):
    layers = section(parse(page)[0])
    summary = next(layers.iter(f"{XHTML}table"))
    cells = {"".join(tr[0].itertext()): ["".join(td.itertext()) for td in tr[1:]]
             for tr in summary.iter(f"{XHTML}tr") if tr[0].tag == f"{XHTML}td"}
    upos = result["upos"]
    assert cells["upos"] == [f"{100 * upos.alpha:.2f}", f"{100 * upos.observed:.2f}", f"{100 * upos.cohen_mean:.2f}",
                             f"{100 * upos.fleiss:.2f}", str(upos.units), str(upos.disagreeing)]
    assert cells["lemma"][:4] == ["100.00"] * 4
    assert cells["xpos"][:4] == ["n/a"] * 4  # no XPOS written: undefined, as the page writes it


def test_upos_label_rows_name_the_labels(page, result):
    layers = section(parse(page)[0])
    upos = next(el for el in layers.iter(f"{XHTML}details")
                if "".join(el.find(f"{XHTML}summary").itertext()).startswith("upos:"))
    label_table = upos.find(f"{XHTML}table")
    labels = ["".join(tr[0].itertext()) for tr in label_table.iter(f"{XHTML}tr") if tr[0].tag == f"{XHTML}td"]
    assert labels == [row.label for row in result["upos"].labels]
    assert set(labels) == {"DET", "NOUN", "PROPN", "VERB", "<b>&", "PUNCT"}
    heads = ["".join(th.itertext()) for th in next(label_table.iter(f"{XHTML}tr"))]
    assert heads[1:4] == list(CHOICES)  # one count column per annotator
    noun = next(tr for tr in label_table.iter(f"{XHTML}tr") if "".join(tr[0].itertext()) == "NOUN")
    assert ["".join(td.itertext()) for td in noun[1:4]] == ["2", "0", "2"]
    # per annotator: mean κ with the others and (three annotators) α without them
    per_annotator = upos.findall(f"{XHTML}table")[-1]
    names = ["".join(tr[0].itertext()) for tr in per_annotator.iter(f"{XHTML}tr") if tr[0].tag == f"{XHTML}td"]
    assert names == list(CHOICES) and "α without them" in "".join(per_annotator.itertext())
    # the confusions of UPOS
    assert any("confused with" in "".join(t.itertext()) for t in upos.findall(f"{XHTML}table"))


def test_the_disagreement_table_has_every_disagreement(page, result):
    expected = list(disagreements(result))
    assert 0 < len(expected) < 500
    assert len(re.findall(r"<tr data-layer=", page)) == len(expected)
    rows = table_rows(section(parse(page)[0]), "layer-disagreements")
    assert [tr.get("data-layer") for tr in rows] == [row["layer"] for row in expected]
    first = ["".join(td.itertext()) for td in rows[0]]
    row = expected[0]
    assert first == [row["item"], row["token"], row["form"], row["layer"], *(values(row)[a] for a in CHOICES)]
    assert "more not shown" not in page


def test_rows_truncates_with_a_note(result):
    total = sum(1 for _ in disagreements(result))
    html = layers_section(result, rows=1)
    assert len(re.findall(r"<tr data-layer=", html)) == 1
    assert f"{total - 1} more not shown" in html
    page = build_report(dependency_corpus(), items=2, layers=result).html  # a given result is used as it is
    assert len(re.findall(r"<tr data-layer=", page)) == total


def test_markup_in_forms_and_labels_is_escaped(page):
    layers = section(parse(page)[0])
    raw = page[page.index('<section id="layers">'):page.index("</section>", page.index('<section id="layers">'))]
    assert "<b>&" not in raw and "&lt;b&gt;&amp;" in raw
    assert layers.find(f".//{XHTML}b") is None  # no element made of the input
    cells = {"".join(td.itertext()) for td in layers.iter(f"{XHTML}td")}
    assert "<b>&" in cells  # shown as the text it is (a form, a lemma, a label)


def test_html_parses_like_the_page_without_the_section(page):
    _, errors = parse(page)
    codes = {code for _, code, _ in errors}
    start = page.index('<section id="layers">')
    end = page.index("</section>", start) + len("</section>")
    _, without = parse(page[:start] + page[end:])
    assert codes <= {code for _, code, _ in without}


def test_a_phrase_structure_report_has_no_layers_section():
    trees = ["(S (NP (D the) (N dog)) (VP (V runs)))", "(S (NP (D the)) (VP (N dog) (V runs)))"]
    corpus = Corpus.from_items([[sa.parse_brackets(t)[0] for t in trees] for _ in range(2)])
    page = build_report(corpus, items=2).html
    root, _ = parse(page)
    assert [el.get("id") for el in root.iter(f"{XHTML}section")] == ["summary", "items", "annotators",
                                                                     "confusions", "plots"]
    assert 'id="layers"' not in page and "layer-filter" not in page


def test_an_error_in_the_layers_omits_the_section(monkeypatch, corpus):
    from spacy_agreement.report import layers_html

    def broken(*args, **kwargs):
        raise ValueError("broken")

    monkeypatch.setattr(layers_html, "agreement_by_layer", broken)
    page = build_report(corpus, items=2).html
    assert 'id="layers"' not in page and "id='signature'" in page
