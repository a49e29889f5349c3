"""Prodigy db-out JSON Lines (adapters/prodigy.py): annotators by _annotator_id or _session_id,
items by _input_hash, only accepted answers (the rest counted), the last of two answers kept,
the root written as a self-relation, labelled ROOT/root or left out, tokens without a relation
unannotated; errors name the line; α equals that of the same trees written as CoNLL-U."""
import io
import json
from pathlib import Path

import pytest

from spacy_agreement.adapters.files import load_parallel_files
from spacy_agreement.adapters.prodigy import (ProdigyReadReport, is_prodigy_jsonl, load_prodigy, prodigy_notes,
                                              read_prodigy)
from spacy_agreement.agreement.alpha import alpha
from spacy_agreement.errors import InvalidTreeError, MismatchedCorpusError

DATA = Path(__file__).resolve().parents[1] / "data" / "prodigy"
DEP = DATA / "dep_correct.jsonl"
REL = DATA / "rel_manual.jsonl"


def by_item(columns):
    return {name: {t.location.sent_id: t for t in trees} for name, trees in columns.items()}


def shape(tree):
    return tree.heads.tolist(), list(tree.deprels), list(tree.unannotated)


def task(tokens=("a", "b", "c"), relations=(), who="x-ann", answer="accept", input_hash=1, **extra):
    """One task line: ``relations`` as (head, child, label), 0-based."""
    line = {"text": " ".join(tokens), "_input_hash": input_hash, "_task_hash": input_hash + 1,
            "tokens": [{"text": t, "start": 0, "end": 0, "id": k, "ws": True} for k, t in enumerate(tokens)],
            "relations": [{"head": h, "child": c, "label": lab} for h, c, lab in relations],
            "answer": answer, "_annotator_id": who, "_session_id": who}
    line.update(extra)
    return json.dumps(line) + "\n"


def test_dep_correct_annotators_items_and_trees():
    columns, report = read_prodigy(DEP)
    assert list(columns) == ["news-bob", "news-alice", "news-carol"]  # first appearance
    trees = by_item(columns)
    assert sorted(trees["news-alice"]) == ["101", "202", "303"]
    assert sorted(trees["news-bob"]) == ["101", "202"]  # 303 rejected
    assert sorted(trees["news-carol"]) == ["202", "303"]  # 101 ignored
    # alice answered 101 twice: the last answer (books attached to reads) is kept
    assert shape(trees["news-alice"]["101"]) == ([2, 0, 2, 2], ["nsubj", "ROOT", "dobj", "punct"], [])
    # bob's root has no relation: the one token without a head is the root
    assert shape(trees["news-bob"]["101"]) == ([2, 0, 2, 2], ["nsubj", "ROOT", "dobj", "punct"], [])
    assert shape(trees["news-bob"]["202"]) == ([2, 3, 0], ["det", "nsubj", "ROOT"], [])
    # carol's root is a self-relation labelled "root"
    assert shape(trees["news-carol"]["303"]) == ([2, 0, 2, 3], ["nsubj", "root", "advmod", "punct"], [])
    tree = trees["news-alice"]["303"]
    assert tree.forms == ("Dogs", "bark", "loudly", ".")
    assert tree.misc == ("_", "_", "SpaceAfter=No", "SpaceAfter=No")
    assert tree.ids == ("1", "2", "3", "4")
    assert (tree.location.line, tree.location.sentence, tree.location.sent_id) == (8, 8, "303")


def test_report_counts_what_is_set_aside():
    _, report = read_prodigy(DEP)
    assert report.tasks == 10
    alice, bob, carol = (report.annotators[n] for n in ("news-alice", "news-bob", "news-carol"))
    assert (alice.accepted, alice.superseded, alice.trees) == (4, 1, 3)
    assert (bob.rejected, bob.ignored, bob.implicit_roots, bob.trees) == (1, 0, 2, 2)
    assert (carol.rejected, carol.ignored, carol.implicit_roots) == (0, 1, 0)
    assert prodigy_notes(report) == [
        "news-bob: 1 rejected, 0 ignored tasks set aside; 2 roots read from the one token without a head",
        "news-alice: 1 accepted answer superseded by a later one (the last kept)",
        "news-carol: 0 rejected, 1 ignored tasks set aside",
    ]


def test_load_prodigy_corpus_and_report():
    report = ProdigyReadReport()
    corpus = load_prodigy(DEP, report=report)
    assert corpus.annotators == ("news-bob", "news-alice", "news-carol")
    assert corpus.names == ["101", "202", "303"]
    assert corpus.family == "dependency"
    assert corpus.matched_by.rule == "sent_id"
    assert corpus.matched_by.missing == ("101: lacks news-carol", "303: lacks news-bob")
    assert [sorted(item) for item in corpus.items] == [
        ["news-alice", "news-bob"], ["news-alice", "news-bob", "news-carol"], ["news-alice", "news-carol"]]
    assert {n: s.sentences for n, s in corpus.read_stats.items()} == {"news-bob": 2, "news-alice": 3, "news-carol": 2}
    assert report.tasks == 10 and report.annotators["news-bob"].rejected == 1


def test_rel_manual_partial_trees():
    columns, report = read_prodigy(REL)
    trees = by_item(columns)
    # the span "New York" is anchored on its last token; "New", "is" and the disabled "." have no head
    assert shape(trees["rel-ann"]["11"]) == ([0, 3, 0, 3, 0], ["_", "nsubj", "_", "acomp", "_"], [1, 3, 5])
    # a self-relation labelled ROOT: "is" is annotated as the root, the rest stays unannotated
    assert shape(trees["rel-ben"]["11"]) == ([0, 3, 0, 3, 0], ["_", "nsubj", "ROOT", "attr", "_"], [1, 5])
    # one token left without a head in a task with relations: the root
    assert shape(trees["rel-ann"]["22"]) == ([2, 0], ["nsubj", "ROOT"], [])
    # accepted without any relation: nothing annotated
    assert shape(trees["rel-ben"]["22"]) == ([0, 0], ["_", "_"], [1, 2])
    ann, ben = report.annotators["rel-ann"], report.annotators["rel-ben"]
    assert (ann.partial_trees, ann.unannotated_tokens, ann.implicit_roots) == (1, 3, 1)
    assert (ben.partial_trees, ben.unannotated_tokens, ben.implicit_roots) == (2, 4, 0)
    corpus = load_prodigy(REL)
    assert corpus.read_stats["rel-ben"].partial_trees == 2
    assert corpus.read_stats["rel-ben"].unannotated_tokens == 4


def test_disabled_token_is_never_the_implicit_root():
    line = {"text": "a b", "_input_hash": 5, "answer": "accept", "_annotator_id": "x-a",
            "tokens": [{"text": "a", "id": 0, "ws": True}, {"text": "b", "id": 1, "ws": False}],
            "relations": [{"head": 1, "child": 0, "label": "x"}]}
    columns, _ = read_prodigy(io.StringIO(json.dumps(line)))
    assert shape(columns["x-a"][0]) == ([2, 0], ["x", "ROOT"], [])
    line["tokens"][1]["disabled"] = True
    columns, _ = read_prodigy(io.StringIO(json.dumps(line)))
    assert shape(columns["x-a"][0]) == ([2, 0], ["x", "_"], [2])


def test_sessions_only():
    columns, report = read_prodigy(DATA / "sessions.jsonl")
    assert list(columns) == ["deps-dan", "deps-eve"]  # a null _annotator_id falls back too
    assert sorted(by_item(columns)["deps-dan"]) == ["101", "202"]
    corpus = load_prodigy(DATA / "sessions.jsonl")
    assert corpus.annotators == ("deps-dan", "deps-eve")
    forced = load_prodigy(DEP, annotator_key="_session_id")
    assert forced.annotators == ("news-bob", "news-alice", "news-carol")


def test_annotator_key_and_item_key_options():
    text = (task(who="s-1", coder="kim", meta={"sent_id": "a1"}, input_hash=1)
            + task(who="s-1", coder="lee", meta={"sent_id": "a1"}, input_hash=2))
    corpus = load_prodigy(io.StringIO(text), annotator_key="coder", item_key="meta.sent_id")
    assert corpus.annotators == ("kim", "lee")
    assert corpus.names == ["a1"] and sorted(corpus.items[0]) == ["kim", "lee"]
    corpus = load_prodigy(io.StringIO(text), annotator_key="coder")  # by _input_hash: two items
    assert corpus.names == ["1", "2"]
    with pytest.raises(InvalidTreeError, match="no 'coder'"):
        read_prodigy(io.StringIO(task()), annotator_key="coder")
    with pytest.raises(MismatchedCorpusError, match="only one annotator"):  # both are session s-1
        load_prodigy(io.StringIO(text), item_key="meta.sent_id")


def test_alpha_equals_conllu_to_the_last_digit():
    names = ["news-bob", "news-alice", "news-carol"]
    conllu = load_parallel_files([DATA / f"dep_correct.{n}.conllu" for n in names], annotators=names)
    assert alpha(load_prodigy(DEP)).alphas == alpha(conllu).alphas
    names = ["rel-ann", "rel-ben"]
    conllu = load_parallel_files([DATA / f"rel_manual.{n}.conllu" for n in names], annotators=names)
    assert alpha(load_prodigy(REL)).alphas == alpha(conllu).alphas


def test_text_stream_and_name():
    corpus = load_prodigy(io.StringIO(DEP.read_text(encoding="utf-8")), name="export.jsonl")
    assert corpus.items[0]["news-alice"].location.source == "export.jsonl"


@pytest.mark.parametrize("relations, needle, token", [
    ([(0, 7, "x")], "relation 1: child 7 is not a token index 0..2", None),
    ([(1, 0, "x"), (9, 2, "y")], "relation 2: head 9 is not a token index 0..2", "3"),
    ([(1, 0, "x"), (2, 0, "y")], "relation 2: token 0 (0-based) has two incoming relations", "1"),
])
def test_bad_relations_name_the_line_and_token(relations, needle, token):
    text = task(input_hash=1) + "\n" + task(relations=relations, input_hash=2)
    with pytest.raises(InvalidTreeError) as caught:
        read_prodigy(io.StringIO(text), name="bad.jsonl")
    assert needle in str(caught.value)
    assert caught.value.location.file_line == 3
    assert caught.value.location.token == token
    assert str(caught.value).startswith("bad.jsonl:3: sentence 2 (sent_id 2)")


def test_other_errors_name_the_line():
    with pytest.raises(InvalidTreeError, match=r"in.jsonl:2: sentence 2: the task names no annotator"):
        read_prodigy(io.StringIO(task() + json.dumps({"tokens": [], "answer": "accept"}) + "\n"), name="in.jsonl")
    with pytest.raises(InvalidTreeError, match=r"in.jsonl:1: sentence 1: not a JSON line"):
        read_prodigy(io.StringIO("{oops\n"), name="in.jsonl")
    with pytest.raises(InvalidTreeError, match=r"no '_input_hash'"):
        read_prodigy(io.StringIO(task().replace('"_input_hash": 1, ', "")), name="in.jsonl")
    with pytest.raises(MismatchedCorpusError, match="only one annotator \\(x-ann\\)"):
        load_prodigy(io.StringIO(task() + task(who="x-bob", answer="reject")), name="in.jsonl")


def test_cycles_raise():
    text = task(relations=[(1, 0, "a"), (0, 1, "b"), (1, 2, "c")]) + task(who="x-bob", relations=[(0, 0, "r")])
    assert len(load_prodigy(io.StringIO(text)).items) == 1
    with pytest.raises(InvalidTreeError):
        load_prodigy(io.StringIO(text), cycles="raise")


def test_sniff(tmp_path):
    assert is_prodigy_jsonl(DEP) and is_prodigy_jsonl(REL)
    blank_first = tmp_path / "b.jsonl"
    blank_first.write_text("\n\n" + task(), encoding="utf-8")
    assert is_prodigy_jsonl(blank_first)
    assert not is_prodigy_jsonl(DATA / "dep_correct.news-alice.conllu")
    for name, content in [("t.jsonl", '{"text": "a"}\n'), ("l.jsonl", "[1, 2]\n"), ("e.jsonl", ""),
                          ("n.jsonl", "{oops\n")]:
        (tmp_path / name).write_text(content, encoding="utf-8")
        assert not is_prodigy_jsonl(tmp_path / name)
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe{")
    assert not is_prodigy_jsonl(tmp_path / "bin.jsonl")
    assert not is_prodigy_jsonl(tmp_path / "missing.jsonl")
    assert not is_prodigy_jsonl(tmp_path)
