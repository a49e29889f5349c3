"""The judging page without a browser (issue 41): which items it holds (Plank et al. 2015's rule:
the sentences whose two analyses differ once punctuation is removed), the pictures, the key and
the exports read back by ``judgments --key`` (issue 51: the page holds no tree and no system; 0.3's
exports with trees still read; dependency and phrase trees, with and without gold), the
size of a page of 500 items, the command and its signature, hostile strings."""
import base64
import gzip
import json
import re
import time
from pathlib import Path

import html5lib
import numpy as np
import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.adapters.judgments_files import json_tree, tree_json
from spacy_agreement.cli import app
from spacy_agreement.errors import BadOptionError, JudgmentError, Location
from spacy_agreement.evaluation.judgments.judging_items import differ_without_punctuation, select_judging_items
from spacy_agreement.evaluation.judgments.analysis import analyse_judgments, format_analysis, iter_judgments
from spacy_agreement.report.judging_page import first_shown, judging_page

from .judging_data import DIFFERING, HOSTILE, SENTENCES, conllu, write_systems

runner = CliRunner()


def page_data(html: str) -> dict:
    """The items the page carries (the gzip-compressed, base64-encoded block its script opens)."""
    packed = re.search(r'<script type="text/plain" id="judging-data">([^<]*)</script>', html).group(1)
    return json.loads(gzip.decompress(base64.b64decode(packed)).decode("utf-8"))


def test_the_items_are_the_sentences_that_differ_without_punctuation(tmp_path):
    gold, malt, mst = write_systems(tmp_path)
    selection = select_judging_items(malt, mst, gold)
    assert [item.id for item in selection.items] == DIFFERING  # "same" differs in its full stop only
    assert (selection.sentences, selection.identical, selection.matched_by) == (6, 1, "sent_id")
    assert all(item.differs for item in selection.items) and selection.items[0].gold is not None
    everything = select_judging_items(malt, mst, gold, all_items=True)
    assert [item.id for item in everything.items] == ["s1", "s2", "s3", "s4", "s5", "same"]  # by sent_id
    assert not everything.items[-1].differs
    drawn = select_judging_items(malt, mst, items=3, seed=7)
    again = select_judging_items(malt, mst, items=3, seed=7)
    assert [i.id for i in drawn.items] == [i.id for i in again.items] and len(drawn.items) == 3
    assert [i.id for i in drawn.items] == sorted((i.id for i in drawn.items), key=DIFFERING.index)  # file order
    assert drawn.candidates == 5 and drawn.settings.signature().startswith("judge|prules:form|all:no|items:3|seed:7")
    # punctuation by label: the full stop (label punct) is left out too
    assert [i.id for i in select_judging_items(malt, mst, punct_rules="label").items] == DIFFERING


def test_sentences_one_system_lacks_or_with_other_tokens_are_left_out_and_counted(tmp_path):
    gold, malt, mst = write_systems(tmp_path)
    text = mst.read_text(encoding="utf-8")
    blocks = text.strip().split("\n\n")
    # drop s5 from B, and give s1 another token in B
    blocks = [b for b in blocks if "sent_id = s5" not in b]
    blocks[0] = blocks[0].replace("4\t.\t_\tPUNCT", "4\tloudly\t_\tADV\t_\t_\t3\tadvmod\t_\t_\n5\t.\t_\tPUNCT")
    mst.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    selection = select_judging_items(malt, mst)
    assert [item.id for item in selection.items] == ["s2", "s3", "s4"]
    assert selection.left_out == {"tokens differ": 1, "lacks B": 1}
    assert selection.left_out_ids == {"tokens differ": ["s1"], "lacks B": ["s5"]}


def test_each_analysis_is_drawn_alone_on_shared_columns_with_its_differences_marked(tmp_path):
    gold, malt, mst = write_systems(tmp_path)
    page = judging_page(malt, mst, gold, show_gold=True)
    first = page.pictures[0]  # s1: B labels "dog" obj where A (and the gold) say nsubj
    assert set(first) == {"A", "B", "gold"}
    # with the gold shown, each analysis is marked where it differs from the gold (issue 51)
    assert "differs" not in first["A"]
    assert first["B"].count('class="label differs"') == 1 and first["B"].count('class="arc differs"') == 1
    assert "differs" not in first["gold"]
    pair = judging_page(malt, mst, gold).pictures[0]  # without the gold: where the two differ
    for name in ("A", "B"):
        assert pair[name].count('class="label differs"') == 1 and pair[name].count('class="arc differs"') == 1
    xs = [re.findall(r'<text class="word" x="([\d.]+)"', svg) for svg in first.values()]
    assert xs[0] == xs[1] == xs[2]  # the words line up in every picture
    assert 'data-annotator=""' in first["A"]  # no name tells the side
    unmarked = judging_page(malt, mst, gold, no_marks=True)
    assert all("differs" not in svg for drawn in unmarked.pictures for svg in drawn.values())


def test_the_page_carries_the_items_and_the_export_reads_back(tmp_path):
    gold, malt, mst = write_systems(tmp_path)
    page = judging_page(malt, mst, gold)
    data = page_data(page.html)
    assert set(data) == {"ties", "items"} and data["ties"] is True  # no systems, no trees
    assert [item["id"] for item in data["items"]] == DIFFERING
    for item, drawn, first in zip(data["items"], page.pictures, page.sides):
        assert item["pictures"] == {"1": drawn[first], "2": drawn["B" if first == "A" else "A"]}
    key = page.key
    assert [entry["first"] for entry in key["items"]] == page.sides and sorted(page.sides).count("A") == 3
    where = Location("x.jsonl", 1, line=1)
    for name in ("gold", "a", "b"):
        tree = json_tree(key["items"][0][name], "s1", name, where)
        assert tree.deprels == tuple(SENTENCES["s1"][2 + ("gold", "a", "b").index(name)][1])
    assert 'data-page="%s"' % page.page_id in page.html and page.to_dict()["items"] == 5
    # 0.4 exports (choices in display order) of two judges, read with the key
    key_file = tmp_path / "page.key.json"
    page.write_key(key_file)
    paths = []
    for judge, choice in (("ann", "1"), ("bo", "tie")):
        path = tmp_path / f"judgments-{judge}.jsonl"
        lines = [{"spacy_agreement_judgments": "0.4", "page": page.page_id, "judge": judge}] + [
            {"page": page.page_id, "item": item, "judge": judge, "choice": choice, "comment": "", "ms": 10}
            for item in DIFFERING]
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        paths.append(path)
    result = sa.judgments(*paths, key=key_file).analysis
    assert result.items == 5 and result.judge_ties == {"ann": 0, "bo": 5} and result.metrics
    assert result.wins["ann"] == {"A": page.sides.count("A"), "B": page.sides.count("B"), "tie": 0, "skip": 0}
    # 0.3's exports (trees and judgments in terms of the systems) still read
    old = tmp_path / "judgments-old.jsonl"
    old.write_text("".join(json.dumps({"id": entry["id"], "gold": entry["gold"], "a": entry["a"], "b": entry["b"],
                                       "judgments": {"ann": "A", "bo": "tie"}, "shown_first": {"ann": "A"},
                                       "systems": {"A": "malt.conllu", "B": "mst.conllu"}, "page": "0.3page"})
                           + "\n" for entry in key["items"]), encoding="utf-8")
    result = analyse_judgments(iter_judgments(old), mace_restarts=1)
    assert result.items == 5 and result.judge_ties == {"ann": 0, "bo": 5} and result.metrics
    assert result.wins["ann"]["A"] == 5 and result.sign_test["ann"] == pytest.approx(2 / 32)


def test_first_shown_is_fixed_per_judge_and_item_and_balanced():
    assert first_shown("alice", "s1") == first_shown("alice", "s1")
    sides = [first_shown(judge, f"s{k}") for judge in ("alice", "bob", "Zoë 🙂") for k in range(300)]
    assert 0.4 < sides.count("A") / len(sides) < 0.6
    assert [first_shown("alice", f"s{k}") for k in range(40)] != [first_shown("bob", f"s{k}") for k in range(40)]


def test_markup_in_the_input_shows_as_text(tmp_path):
    gold, malt, mst = write_systems(tmp_path)
    page = judging_page(malt, mst, gold, title=HOSTILE, show_gold=True)
    document = html5lib.parse(page.html, namespaceHTMLElements=False)
    scripts = document.findall(".//script")
    assert len(scripts) == 2 and scripts[0].get("type") == "text/plain"  # the data, then the page's own code
    assert document.find(".//title").text == HOSTILE and HOSTILE not in page.html
    for drawn in page.pictures:
        for svg in drawn.values():
            assert "<script" not in svg
    hostile = page.pictures[DIFFERING.index("s3")]["A"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in hostile


def test_a_page_of_500_items_stays_under_5_mb(tmp_path):
    # 500 sentences of 25 words, the two systems differing on a fifth of the words
    rng = np.random.default_rng(0)
    words = [f"word{k}" for k in range(400)]
    labels = ["nsubj", "obj", "obl", "advmod", "amod", "det", "case", "nmod", "conj", "cc"]
    text = {"a": [], "b": []}
    for s in range(500):
        n = 25
        heads = [0] + [int(rng.integers(0, k)) + 1 for k in range(1, n)]  # a tree: each head before its word
        rels = ["root"] + [labels[int(x)] for x in rng.integers(0, len(labels), n - 1)]
        other_heads, other_rels = list(heads), list(rels)
        for k in rng.choice(range(1, n), 5, replace=False):
            other_rels[k] = labels[(labels.index(rels[k]) + 1) % len(labels)]
        forms = [words[int(x)] for x in rng.integers(0, len(words), n)]
        for key, (h, r) in (("a", (heads, rels)), ("b", (other_heads, other_rels))):
            text[key].append(f"# sent_id = s{s}\n" + "".join(f"{k + 1}\t{forms[k]}\t_\tX\t_\t_\t{h[k]}\t{r[k]}\t_\t_\n"
                                                               for k in range(n)))
    a, b = tmp_path / "a.conllu", tmp_path / "b.conllu"
    a.write_text("\n".join(text["a"]) + "\n", encoding="utf-8")
    b.write_text("\n".join(text["b"]) + "\n", encoding="utf-8")
    page = judging_page(a, b)
    assert len(page.selection.items) == 500
    size = len(page.html.encode("utf-8"))
    assert size < 5_000_000, size
    assert size < 2_000_000  # compressed: about 1.1 MB


def test_phrase_structure_trees_are_drawn_and_read_back_without_metrics(tmp_path):
    a, b = tmp_path / "a.mrg", tmp_path / "b.mrg"
    a.write_text("(S (NP (DT The) (NN dog)) (VP (VBZ barks)) (. .))\n"
                 "(S (NP (PRP I)) (VP (VBD saw) (NP (PRP$ her) (NN duck))) (. .))\n"
                 "(S (NP (NN Time)) (VP (VBZ flies)) (. .))\n", encoding="utf-8")
    b.write_text("(S (NP (DT The) (NN dog)) (VP (VBZ barks) (. .)))\n"  # only the full stop moved
                 "(S (NP (PRP I)) (VP (VBD saw) (NP (PRP her)) (VP (VB duck))) (. .))\n"
                 "(S (NP (NN Time) (NNS flies)) (. .))\n", encoding="utf-8")
    page = judging_page(a, b)
    assert [item.words for item in page.selection.items] == [("I", "saw", "her", "duck", "."),
                                                              ("Time", "flies", ".")]
    assert page.selection.family == "constituency" and page.selection.identical == 1
    assert all("sa-phrase" in svg for drawn in page.pictures for svg in drawn.values())
    records = page.key["items"]
    record = records[0]
    assert record["a"] == {"brackets": "(S (NP (PRP I)) (VP (VBD saw) (NP (PRP$ her) (NN duck))) (. .))"}
    tree = json_tree(record["b"], "x", "b", Location("x"))
    assert tree.brackets() == page.selection.items[0].b.brackets() and tree.words == page.selection.items[0].b.words
    lines = [{"id": r["id"], "a": r["a"], "b": r["b"], "judgments": {"ann": "B", "bo": "B"}} for r in records]
    path = tmp_path / "judgments.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.warns(sa.UndefinedMetricWarning, match="Cohen's kappa"):  # the judges agree on every item
        result = analyse_judgments(iter_judgments(path), mace_restarts=1)
    assert result.metrics == () and "phrase-structure" in result.metrics_left_out
    assert result.judge_agreement == 1.0
    assert "no metric tables: the items are phrase-structure trees" in format_analysis(result)


def test_the_phrase_rule_removes_punctuation_leaves():
    trees = sa.parse_brackets("(S (NP (DT The) (NN dog)) (VP (VBZ barks)) (. .))\n"
                              "(S (NP (DT The) (NN dog)) (VP (VBZ barks) (. .)))\n"
                              "(S (NP (DT The)) (NP (NN dog)) (VP (VBZ barks)) (. .))\n")
    assert not differ_without_punctuation(trees[0], trees[1])
    assert differ_without_punctuation(trees[0], trees[2])


def test_docbin_systems(tmp_path):
    spacy = pytest.importorskip("spacy")
    from spacy.tokens import Doc, DocBin

    vocab = spacy.vocab.Vocab()
    for which, name in ((1, "a.spacy"), (2, "b.spacy")):
        bin_ = DocBin()
        for sent_id, (words, upos, *analyses) in SENTENCES.items():
            heads, deps = analyses[which]
            bin_.add(Doc(vocab, words=list(words), heads=[h - 1 if h else k for k, h in enumerate(heads)],
                         deps=list(deps), pos=list(upos)))
        bin_.to_disk(tmp_path / name)
    page = judging_page(tmp_path / "a.spacy", tmp_path / "b.spacy")
    assert len(page.selection.items) == 5 and page.selection.identical == 1


def test_the_command_writes_the_page_and_its_signature_reproduces_it(tmp_path):
    gold, malt, mst = write_systems(tmp_path)
    html = tmp_path / "page.html"
    result = runner.invoke(app, ["judge", str(malt), str(mst), "--gold", str(gold), "--html", str(html),
                                 "--items", "3", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert f"wrote {html}: 3 items to judge" in result.stdout
    assert "6 sentences in both systems (paired by sent_id), 5 differ without punctuation (form), 1 the same" \
        in result.stdout
    signature = result.stdout.strip().splitlines()[-1].split("signature: ")[1]
    assert signature.startswith("judge|prules:form|all:no|items:3|seed:2|ties:yes|v:")
    first = html.read_text(encoding="utf-8")
    again = runner.invoke(app, ["judge", str(malt), str(mst), "--gold", str(gold), "--html", str(html),
                                "--signature", signature, "--json"])
    assert again.exit_code == 0, again.output
    data = json.loads(again.stdout)
    assert data["items"] == 3 and data["signature"] == signature and html.read_text(encoding="utf-8") == first
    assert data == judging_page(malt, mst, gold, signature=signature).to_dict()  # --json is the function's to_dict


@pytest.mark.parametrize("args, message", [
    (["--show-gold"], "--show-gold needs a gold file (--gold)"),
    (["--layout", "diagonal"], "diagonal"),
    (["--punct", "commas"], "commas"),
    (["--items", "0"], "--items"),
])
def test_bad_options_are_one_line(tmp_path, args, message):
    _, malt, mst = write_systems(tmp_path)
    result = runner.invoke(app, ["judge", str(malt), str(mst), "--html", str(tmp_path / "p.html"), *args])
    assert result.exit_code in (1, 2) and message in result.output and "Traceback" not in result.output


def test_no_item_to_judge_is_an_error_that_says_what_to_do(tmp_path):
    a = tmp_path / "a.conllu"
    a.write_text(conllu(1), encoding="utf-8")
    b = tmp_path / "b.conllu"
    b.write_text(conllu(1), encoding="utf-8")
    result = runner.invoke(app, ["judge", str(a), str(b), "--html", str(tmp_path / "p.html")])
    assert result.exit_code == 1 and "no item to judge" in result.output and "--all" in result.output
    with pytest.raises(BadOptionError):
        judging_page(a, b, layout="diagonal")
    with pytest.raises(JudgmentError):
        judging_page(a, b)
