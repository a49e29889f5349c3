"""The compiled path of ``evaluate`` (arrays over the corpus, spacy_agreement._conllu) against the
reference (per-sentence) definitions, on generated trees; the Cython scanner on hostile input."""
from __future__ import annotations

import io
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacy_agreement import _conllu, _core
from spacy_agreement.adapters.conllu import column_reader as conllu_words
from spacy_agreement.errors import AgreementError, InvalidTreeError
from spacy_agreement.evaluation.dependency import accumulator, metrics as pm
from spacy_agreement.evaluation.dependency.settings import EvaluationSettings, contract, gold_depths
from spacy_agreement.trees import DependencyTree
from spacy_agreement.vocab import LabelVocab

LABELS = ["root", "ROOT", "punct", "nmod", "nmod:poss", "aux", "case", "obj", "det", ""]
UPOS = ["VERB", "NOUN", "PUNCT", "ADJ", "DET", "AUX"]
FORMS = ["a", ",", "_", "b", "«"]
FEATS = ["_", "Number=Sing", "Case=Nom|Number=Sing", "Number=Sing|Case=Nom", "Number[psor]=Sing", "sg"]
LEMMAS = ["_", "a", "b"]


@st.composite
def tree_pair(draw):
    n = draw(st.integers(1, 9))
    forms = draw(st.lists(st.sampled_from(FORMS), min_size=n, max_size=n))

    def tree():
        return DependencyTree.create(
            heads=draw(st.lists(st.integers(0, n), min_size=n, max_size=n)),
            deprels=draw(st.lists(st.sampled_from(LABELS), min_size=n, max_size=n)),
            forms=forms, upos=draw(st.lists(st.sampled_from(UPOS), min_size=n, max_size=n)),
            feats=draw(st.lists(st.sampled_from(FEATS), min_size=n, max_size=n)),
            lemmas=draw(st.lists(st.sampled_from(LEMMAS), min_size=n, max_size=n)))
    return tree(), tree()


OPTIONS = [
    EvaluationSettings(),
    EvaluationSettings.for_convention("conll18"),
    EvaluationSettings(exclude_punct=True, punct_rules=frozenset({"upos", "label"}), ned="undirected", ted_norm="max",
                      root_weight="log"),
    EvaluationSettings(exclude_punct=True, punct_rules=frozenset({"form"}), ted_norm="gold", root_weight="uniform",
                      label_map={"obj": "nmod"}),
    EvaluationSettings.for_convention("spacy"),  # LAS, UAS: spaCy's F over arcs
    EvaluationSettings.for_convention("spacy", punct_rules=frozenset({"upos", "label", "form"}),
                                     label_map={"OBJ": "Punct", "aux": "case"}, ignore_subtypes=True),
]


def _slow(gold, pred, options, **kwargs):
    """``evaluate`` through the reference path: the one choice (compiled_path_applies) says no."""
    keep = accumulator.compiled_path_applies
    accumulator.compiled_path_applies = lambda metrics, partial=False: False
    try:
        return pm.evaluate(gold, pred, options, **kwargs)
    finally:
        accumulator.compiled_path_applies = keep


def _same(a, b):
    assert a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b)), (a, b)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(tree_pair(), min_size=1, max_size=6), which=st.integers(0, len(OPTIONS) - 1))
def test_compiled_path_equals_the_reference_definitions(pairs, which):
    gold, pred = [g for g, _ in pairs], [p for _, p in pairs]
    options = OPTIONS[which]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            slow = _slow(gold, pred, options, keep_counts=True)
        except AgreementError as exc:
            with pytest.raises(type(exc)) as fast_error:
                pm.evaluate(gold, pred, options, keep_counts=True)
            assert str(fast_error.value) == str(exc)
            return
        fast = pm.evaluate(gold, pred, options, keep_counts=True)
    assert fast.counts.values == slow.counts.values
    for key in slow.scores:
        _same(fast.scores[key], slow.scores[key])
    assert len(fast.sentences) == len(slow.sentences)
    assert fast.sentences == slow.sentences
    a, b = fast.to_json(), slow.to_json()
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], float):
            _same(a[key], b[key])
        else:
            assert a[key] == b[key], key
    assert fast.ud == slow.ud
    u, v = fast.unit_counts, slow.unit_counts
    assert (u.units == v.units).all() and (u.numerators == v.numerators).all()
    assert (u.denominators == v.denominators).all() and u.labels == v.labels


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_skipped_sentences_and_user_metrics_keep_working():
    g = DependencyTree.create([2, 0], ["nsubj", "root"], forms=["a", "b"])
    p = DependencyTree.create([2, 0], ["nsubj", "root"], forms=["a", "c"])
    fast = pm.evaluate([g, g], [g, p], skip_mismatched=True)
    slow = _slow([g, g], [g, p], EvaluationSettings(skip_mismatched=True))
    assert fast.skipped == slow.skipped and len(fast.skipped) == 1
    assert fast.scores == slow.scores
    pm.register_metric("first_ok", "first", lambda g, p, ctx: (float(ctx.head_ok[0]), 1.0))
    try:
        result = pm.evaluate([g], [g])
        assert result.scores["first_ok"] == 1.0 and result.scores["las"] == 1.0
    finally:
        pm.unregister_metric("first_ok")


@settings(max_examples=200, deadline=None)
@given(heads=st.lists(st.integers(0, 10), min_size=1, max_size=10), data=st.data())
def test_forest_and_depths_equal_the_core(heads, data):
    n = len(heads)
    heads = [min(h, n) for h in heads]
    keep = np.asarray(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    tree = DependencyTree.create(heads, [f"l{k % 3}" for k in range(n)])
    vocab = LabelVocab()
    expected, _ = contract(tree, keep).to_ordered(vocab)
    labels = np.asarray([vocab.add(x) for x in tree.deprels], dtype=np.int32)
    out = _conllu.dependency_forest(np.asarray(heads, dtype=np.int32), labels, keep.astype(np.int8),
                                    np.asarray([0, n], dtype=np.int64))
    assert out[0].tolist() == expected.labels.tolist()
    assert out[1].tolist() == expected.lml.tolist() and out[3].tolist() == expected.keyroots.tolist()
    depths = _conllu.tree_depths(np.asarray(heads, dtype=np.int32), np.asarray([0, n], dtype=np.int64))
    assert depths.tolist() == gold_depths(tree).tolist()


def _first_unreachable_slowly(sentences):
    """The first word (counted over all sentences) from which following the heads never reaches
    0: each word's chain walked on its own, stopped where it repeats a word."""
    before = 0
    for heads in sentences:
        for k in range(len(heads)):
            seen, node = set(), k + 1
            while node and node not in seen:
                seen.add(node)
                node = heads[node - 1]
            if node:
                return before + k
        before += len(heads)
    return -1


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(0, 8), min_size=0, max_size=8), min_size=0, max_size=5))
def test_first_unreachable_is_the_first_word_off_the_root(sentences):
    sentences = [[min(h, len(heads)) for h in heads] for heads in sentences]
    flat = np.asarray([h for heads in sentences for h in heads], dtype=np.int32)
    offsets = np.cumsum([0] + [len(heads) for heads in sentences]).astype(np.int64)
    assert _conllu.first_unreachable(flat, offsets) == _first_unreachable_slowly(sentences)


def test_cython_loops_refuse_bad_arrays():
    with pytest.raises(ValueError):
        _conllu.tree_depths(np.asarray([3], dtype=np.int32), np.asarray([0, 1], dtype=np.int64))
    for heads, offsets in (([3], [0, 1]), ([-1], [0, 1]), ([0, 0], [0, 1]), ([0], [-1, 1]), ([0, 1], [0, 2, 1]),
                           ([0], [])):
        with pytest.raises(ValueError):
            _conllu.first_unreachable(np.asarray(heads, dtype=np.int32), np.asarray(offsets, dtype=np.int64))
    with pytest.raises(ValueError):
        _conllu.dependency_forest(np.asarray([0], dtype=np.int32), np.asarray([1], dtype=np.int32),
                                  np.asarray([1], dtype=np.int8), np.asarray([0, 2], dtype=np.int64))
    with pytest.raises(ValueError):
        _conllu.segment_sums(np.zeros(2), np.asarray([0, 3], dtype=np.int64))


GOOD = ("# sent_id = s1\n# text = Ab c.\n1-2\tAb\t_\t_\t_\t_\t_\t_\t_\t_\n1\tA\ta\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_\n"
        "2\tb\tb\tAUX\tVB\t_\t3\taux\t_\t_\n3\tc\tc\tVERB\tVB\t_\t0\troot\t_\tSpaceAfter=No\n3.1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n")
PIECES = ["\t", "\n", " ", "  ", "#", "1", "2", "0", "-", ".", "_", "root", "\r", "\ufeff", "é", "\x00", "99999999999",
          "sent_id", "# sent_id = x", "1-2", "\n\n", "ROOT", "3.1"]


def _read_both(text, tmp_path):
    path = tmp_path / "x.conllu"
    path.write_bytes(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    outcomes = []
    for read in (lambda: conllu_words.read_conllu_columns(path),
                 lambda: conllu_words._read(open(path, encoding="utf-8"), str(path))):
        try:
            layers = read()
            outcomes.append(("ok", [getattr(layers, f) for f in ("text", "token_ids", "forms", "deprels", "sent_ids",
                                                                 "empty_nodes")],
                             layers.heads.tolist(), layers.word_lines.tolist(), layers.sentence_lines.tolist()))
        except (AgreementError, UnicodeDecodeError) as exc:
            outcomes.append(("error", type(exc).__name__, str(exc)))
    return outcomes


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=40), cut=st.integers(0, len(GOOD)))
def test_scanner_on_hostile_lines_reads_as_the_python_reader(pieces, cut, tmp_path):
    text = GOOD[:cut] + "".join(pieces) + GOOD[cut:]
    fast, slow = _read_both(text, tmp_path)
    assert fast == slow
    table = _conllu.StringTable()
    try:
        stop, rows, sentences = _conllu.scan(text.encode("utf-8", "surrogatepass"), table, 1)
    except UnicodeDecodeError:
        return
    assert stop is None or stop >= 1
    assert len(sentences["rows"]) == len(sentences["line"]) + 1


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=200))
def test_scanner_never_crashes_on_bytes(data):
    table = _conllu.StringTable()
    try:
        _conllu.scan(data, table, 1)
    except UnicodeDecodeError:
        pass


def test_fast_layers_equal_the_python_reader_on_a_file(tmp_path):
    fast, slow = _read_both(GOOD * 3, tmp_path)
    assert fast == slow and fast[0] == "ok"
    text = GOOD.replace("\t3\taux", "\t7\taux")
    fast, slow = _read_both(text, tmp_path)
    assert fast == slow and fast[0] == "error" and "HEAD 7" in fast[2]
    with pytest.raises(InvalidTreeError):
        conllu_words.parse_conllu_columns(text)


def test_fast_tree_columns_equal_the_trees(tmp_path):
    from spacy_agreement.adapters.conllu.trees import tree_columns_from_scan, read_conll

    path = tmp_path / "x.conllu"
    path.write_text(GOOD * 2, encoding="utf-8")
    scanned = conllu_words.scan_file(path)
    columns = tree_columns_from_scan(scanned)
    trees = read_conll(path)
    strings = scanned.table.strings
    assert columns.lengths.tolist() == [len(t) for t in trees]
    assert [strings[c] for c in columns.form] == [f for t in trees for f in t.forms]
    assert [strings[c] for c in columns.feats] == [f for t in trees for f in t.feats]
    assert columns.heads.tolist() == [h for t in trees for h in t.heads.tolist()]
    assert [str(columns.where(s)) for s in range(2)] == [str(t.location) for t in trees]
