"""The compiled leaf-ancestor path (spacy_agreement._lineage, evaluation/constituency/leaf_ancestor_compiled.py)
against the pure-Python implementation it replaced (``leaf_ancestor_reference``: the lineages of
lineage.py, the Levenshtein kernel of _core, GEIG through EVALB's reader), kept as the
reference: same word scores, sentence and corpus means to the bit, GEIG, skipped sentences
and their reasons, errors; and hostile input never crashes the interpreter."""
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spacy_agreement as sa
from spacy_agreement import _lineage
from spacy_agreement.adapters.brackets import read_brackets, trim_trailing_failures
from spacy_agreement.errors import AgreementError
from spacy_agreement.evaluation.constituency.leaf_ancestor import leaf_ancestor, leaf_ancestor_files, leaf_ancestor_reference

LABELS = ["S", "NP", "N1", "VP", "NP-SBJ", "PP=2", "-NONE-", "X"]
WORDS = ["a", "b", "c", "the", "dog", "é", "x"]


@st.composite
def bracket_trees(draw, depth=0):
    """A bracketed tree as text: labelled nodes over words, Penn style or not."""
    label = draw(st.sampled_from(LABELS))
    if depth > 3 or draw(st.integers(0, 3)) == 0:
        if draw(st.booleans()):
            return f"({label} {draw(st.sampled_from(WORDS))})"
        return draw(st.sampled_from(WORDS))
    kids = draw(st.lists(bracket_trees(depth=depth + 1), min_size=1, max_size=3))
    return f"({label} {' '.join(kids)})"


def top(tree):
    return tree if tree.startswith("(") else f"(S {tree})"


def same_result(compiled, reference):
    assert compiled.skipped == reference.skipped
    assert compiled.set_aside == reference.set_aside
    assert len(compiled.sentences) == len(reference.sentences)
    for a, b in zip(compiled.sentences, reference.sentences):
        assert (a.index, a.location) == (b.index, b.location)
        assert [(w.word, w.score, w.gold_lineage, w.candidate_lineage) for w in a.words] == \
               [(w.word, w.score, w.gold_lineage, w.candidate_lineage) for w in b.words]
        assert a.leaf_ancestor == b.leaf_ancestor  # bit for bit: numpy's pairwise sums
        assert a.brackets == b.brackets
    if reference.sentences:
        assert compiled.leaf_ancestor == reference.leaf_ancestor
        assert compiled.leaf_ancestor_words == reference.leaf_ancestor_words
    assert compiled.brackets == reference.brackets
    # error configurations: the same features, counts and means (to the bit up to 128 words)
    assert sorted(compiled.error_configurations(k=None, min_count=1)) == sorted(reference.error_configurations(k=None, min_count=1))
    arrays = compiled.sentence_arrays()
    assert arrays["mean"].tolist() == [s.leaf_ancestor for s in reference.sentences]
    assert compiled.worst(3)[0] == reference.worst(3)[0]
    assert [(k, s.index) for k, s in compiled.worst(3)[1]] == [(k, s.index) for k, s in reference.worst(3)[1]]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(bracket_trees(), bracket_trees()), min_size=1, max_size=6),
       st.sampled_from(["exact", "first-char"]), st.sampled_from(["auto", "keep", "drop"]))
def test_trees_match_the_python_reference(pairs, cost, preterminals):
    gold = [sa.parse_brackets(top(g), leaves="categories")[0] for g, _ in pairs]
    cand = [sa.parse_brackets(top(c), leaves="categories")[0] for _, c in pairs]
    compiled = leaf_ancestor(gold, cand, cost=cost, preterminals=preterminals)
    reference = leaf_ancestor_reference(gold, cand, cost=cost, preterminals=preterminals)
    assert compiled._store is not None and reference._store is None
    same_result(compiled, reference)


def write_corpus(path, trees, newline="\n", spread=False):
    text = newline.join(t.replace(" (", newline + "  (") if spread and t else t for t in trees)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text + newline)


def python_files(gold, cand, **options):
    g, c = trim_trailing_failures(read_brackets(gold, "categories", missing=True),
                                  read_brackets(cand, "categories", missing=True))
    return leaf_ancestor_reference(g, c, **options)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.one_of(bracket_trees(), st.sampled_from(["", "()", "(())", "( (S a) )"])),
                          st.one_of(bracket_trees(), st.sampled_from(["", "()"]))), min_size=1, max_size=8),
       st.sampled_from(["\n", "\r\n"]), st.booleans(), st.sampled_from(["exact", "first-char"]))
def test_files_match_the_python_reader_and_reference(tmp_path, pairs, newline, spread, cost):
    gold, cand = tmp_path / "g.mrg", tmp_path / "c.mrg"
    g = [top(a) if a else a for a, _ in pairs]
    c = [top(b) if b else b for _, b in pairs]
    if spread:  # trees over several lines: blank lines separate, they are no sentences
        g, c = [t for t in g if t], [t for t in c if t]
    write_corpus(gold, g, newline, spread)
    write_corpus(cand, c, newline, spread)
    try:
        reference = python_files(gold, cand, cost=cost)
    except AgreementError as exc:
        with pytest.raises(type(exc)) as got:
            leaf_ancestor_files(gold, cand, cost=cost)
        assert str(got.value) == str(exc)
        return
    compiled = leaf_ancestor_files(gold, cand, cost=cost, keep_worst=2)
    assert compiled._store is not None
    same_result(compiled, reference)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=80) | st.text(alphabet="() \n\r\t\\ab\x1c\u2028\xa0é-=", max_size=60).map(
    lambda t: t.encode("utf-8")))
def test_hostile_files_never_crash_and_fail_as_the_python_reader(tmp_path, data):
    gold, cand = tmp_path / "g.mrg", tmp_path / "c.mrg"
    gold.write_bytes(data)
    cand.write_bytes(data)
    try:
        reference = python_files(gold, cand)
    except (AgreementError, UnicodeDecodeError, ValueError) as exc:
        with pytest.raises(type(exc)) as got:
            leaf_ancestor_files(gold, cand)
        assert str(got.value) == str(exc)
        return
    compiled = leaf_ancestor_files(gold, cand)
    assert compiled.skipped == reference.skipped
    assert [s.leaf_ancestor for s in compiled.sentences] == [s.leaf_ancestor for s in reference.sentences]
    assert compiled.brackets == reference.brackets


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200), st.integers(1, 3), st.booleans(), st.integers(0, 5))
def test_compiled_reader_never_crashes(data, mode, eof, units):
    vocab, batch = _lineage.Vocab(), _lineage.Batch()
    count, pos, line, ok = _lineage.parse_units(batch, vocab, data, 0, mode, eof, units, 1, 0)
    assert 0 <= pos <= len(data) and count == len(batch)
    scanner = _lineage.Scanner()
    scanner.feed(data)
    scanner.finish()
    if count:
        status = np.zeros((count, 4), dtype=np.int64)
        _lineage.score_batch(batch, batch, vocab, 1, 0, np.zeros(count, dtype=np.uint8), _lineage.Scores(),
                             _lineage.Features(), status)
        assert set(status[:, 0].tolist()) <= {0, 1}


def test_bad_arrays_are_refused():
    vocab, batch = _lineage.Vocab(), _lineage.Batch()
    one = np.array([0], dtype=np.int32)
    with pytest.raises(ValueError):
        batch.add_tree(np.array([3, 4], dtype=np.int32), np.array([-1, 0], dtype=np.int32),
                       np.zeros(4, dtype=np.int32), 0)
    with pytest.raises(ValueError):
        batch.add_tree(one, one, one, 0)
    status = np.zeros((1, 4), dtype=np.int64)
    with pytest.raises(ValueError):
        _lineage.score_batch(batch, _lineage.Batch(), vocab, 0, 0, np.zeros(1, dtype=np.uint8), _lineage.Scores(),
                             None, status)
    with pytest.raises(IndexError):
        vocab.string(10 ** 6)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 1), max_size=3000))
def test_pairwise_sum_is_numpys(values):
    array = np.asarray(values, dtype=np.float64)
    assert _lineage.pairwise_sum(array) == float(np.sum(array))


def test_malformed_file_names_file_line_and_sentence(tmp_path):
    gold, bad = tmp_path / "g.mrg", tmp_path / "bad.mrg"
    gold.write_text("(S a b)\n(S c)\n", encoding="utf-8")
    bad.write_text("(S a b)\n(S c\n", encoding="utf-8")
    with pytest.raises(sa.InvalidTreeError, match=f"{bad}:2: sentence 2: "):
        leaf_ancestor_files(gold, bad)
    latin = tmp_path / "latin.mrg"
    latin.write_bytes(b"(S a b)\n(S \xe9)\n")
    with pytest.raises(AgreementError, match="latin.mrg"):
        leaf_ancestor_files(gold, latin)


def test_streaming_across_blocks_and_batches(tmp_path, monkeypatch):
    """Small blocks and batches: sentences cut by a block end, \\r\\n split between blocks."""
    from spacy_agreement.evaluation.constituency import leaf_ancestor_compiled as compiled_loops

    monkeypatch.setattr(compiled_loops, "BLOCK", 7)
    monkeypatch.setattr(compiled_loops, "BATCH", 3)
    trees_g = ["(S (NP a b) (VP c))", "", "(S (NP a) b)", "(S x (Y z))"] * 5
    trees_c = ["(S (NP a) (VP b c))", "(S a)", "", "(S x (Y w))"] * 5
    for newline in ("\n", "\r\n", "\r"):
        gold, cand = tmp_path / "g.mrg", tmp_path / "c.mrg"
        write_corpus(gold, trees_g, newline)
        write_corpus(cand, trees_c, newline)
        fast_result = leaf_ancestor_files(gold, cand, cost="first-char", keep_worst=2)
        same_result(fast_result, python_files(gold, cand, cost="first-char"))
        assert os.fspath(gold) in fast_result.skipped[1]


@pytest.mark.parametrize("data", [b"\t", b" \n", b"\n\n", b"()", b"(S a)\n\t", b"(S a)\r\n  ", b"", b"(())\n(S a)"])
def test_blank_and_empty_sentences_count_as_the_python_reader_counts_them(tmp_path, data):
    gold, cand = tmp_path / "g.mrg", tmp_path / "c.mrg"
    gold.write_bytes(data)
    cand.write_bytes(data)
    compiled, reference = leaf_ancestor_files(gold, cand), python_files(gold, cand)
    assert compiled.skipped == reference.skipped and compiled.brackets == reference.brackets
    assert compiled.sentences_scored == len(reference.sentences)
