"""The compiled judging pictures (extension/_drawing.pyx through report.judging_drawing, issue 50)
against the reference path they replace, report.judging_pictures.analysis_pictures, on random
sentences: every character the input may hold, long words and labels, heads in cycles and on
themselves, two and three analyses, marks between the systems or against the gold, none; the
pictures must be the same strings, and as JSON the same bytes json.dumps writes."""
import json
import random

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from spacy_agreement import DependencyTree
from spacy_agreement._drawing import coordinate, dependency_pictures as compiled
from spacy_agreement.report import svg_parts
from spacy_agreement.report.judging_drawing import dependency_pictures
from spacy_agreement.report.judging_pictures import analysis_pictures

from ..strategies import dependency_heads

CHARACTERS = st.one_of(st.characters(), st.sampled_from(list("aZ0 .;:<>&\"'\\\t\n\r\x00\x08\x0c\x1f\x7f\u00e9\u0301"
                                                             "\u4e00\u202e\u2066\u2069\ud800\ufffe\u2028")))
PIECES = st.sampled_from(["; : ", "<title>: ", "; not in: ", ": ", "of", " (root)", "\"", "&amp;", "x" * 40])


def reference_coordinate(v: float) -> str:  # svg_parts._n's rule, not its cache
    r = round(float(v), 1)
    return str(int(r)) if r == int(r) else f"{r:.1f}"


@given(st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers(-10 ** 7, 10 ** 7).map(lambda k: k / 20),
                 st.integers(-10 ** 7, 10 ** 7).map(lambda k: k / 8 + 0.05)))
@example(0.05)
@example(0.25)
@example(-0.25)
@example(-0.04)
@example(-0.0)
@example(99999999999999.95)
@example(1e300)
def test_coordinates_as_svg_parts_writes_them(v):
    assert coordinate(v) == reference_coordinate(v) == svg_parts._n(v)


@st.composite
def text(draw, longest):
    if draw(st.integers(0, 5)) == 0:
        return draw(PIECES) + draw(st.text(CHARACTERS, max_size=3))
    return draw(st.text(CHARACTERS, min_size=1, max_size=draw(st.sampled_from([3, 10, longest]))))


@st.composite
def item(draw, with_gold):
    heads, _ = draw(dependency_heads(max_tokens=12, allow_cycles=draw(st.booleans())))
    n = len(heads)
    rnd = random.Random(draw(st.integers(0, 2 ** 32)))
    words = [draw(text(36)) for _ in range(n)]
    if n > 1 and rnd.random() < 0.3:
        words[rnd.randrange(n)] = words[0]  # a head word that occurs twice
    labels = [draw(text(24)) for _ in range(n)]

    def variant(p):  # another analysis: some heads elsewhere (on themselves too), some labels other
        return DependencyTree.create([h if rnd.random() < p else rnd.randint(0, n) for h in heads],
                                     [l if rnd.random() < p else draw(text(24)) for l in labels], words)

    a = DependencyTree.create(heads, labels, words)
    return words, a, variant(0.7), variant(0.8) if with_gold else None


@st.composite
def items(draw):
    with_gold = draw(st.booleans())
    return draw(st.lists(item(with_gold), min_size=1, max_size=4)), with_gold


def reference(cases, marks, against_gold):
    return [analysis_pictures(words, a, b, gold, marks, against_gold) for words, a, b, gold in cases]


@settings(max_examples=300, deadline=None)
@given(items(), st.booleans(), st.booleans())
def test_pictures_as_the_reference_path_draws_them(drawn, marks, against_gold):
    cases, _ = drawn
    expected = reference(cases, marks, against_gold)
    assert dependency_pictures(cases, marks, against_gold) == expected
    as_json = dependency_pictures(cases, marks, against_gold, as_json=True)
    assert as_json == [{name: json.dumps(svg, ensure_ascii=False)[1:-1].encode("utf-8") for name, svg in one.items()}
                       for one in expected]


def test_a_treebank_sized_batch_as_the_reference_path():
    """Many ordinary sentences in one batch (the compiled loops reuse their buffers from one
    sentence to the next), a few with what the loops leave to the reference path among them."""
    rnd = random.Random(7)
    vocabulary = ["the", "dog", "saw", "a", "cat", "in", "Paris", "'s", "&", "<b>", "über", "日本", "x" * 33]
    relations = ["nsubj", "obj", "det", "case", "nmod", "root", "obl:tmod", "compound:prt", "r" * 25]
    cases = []
    for k in range(300):
        n = rnd.randint(1, 40)
        words = [rnd.choice(vocabulary) for _ in range(n)]
        if k % 50 == 3:
            words[0] = "\u202eevil"  # bidirectional controls: the reference path
        trees = [DependencyTree.create([rnd.randint(0, n) for _ in range(n)], [rnd.choice(relations) for _ in range(n)],
                                       words) for _ in range(3)]
        cases.append((words, *trees))
    for with_gold in (False, True):
        batch = [(w, a, b, g if with_gold else None) for w, a, b, g in cases]
        assert dependency_pictures(batch, True, with_gold) == reference(batch, True, with_gold)


@pytest.mark.parametrize("word", [":", "; :", ";", "a; : b", "x;", "; ", ": ", "; not in", "in:", "<title>", "::"])
@pytest.mark.parametrize("label", ["punct", ": x", ";", "; : ", "dep:", "; not in: y"])
def test_colons_next_to_the_hover_texts_as_the_reference_path(word, label):
    """The compiled loops take the band's empty name out of the hover texts in one pass over the
    colons (extension/_drawing.pyx, nameless): words and labels with colons and semicolons of their
    own, at either end, next to the ``"; : "`` and ``"<title>: "`` the pictures write."""
    words = [word, "of", word, "x" * 40 + word]
    a = DependencyTree.create([0, 1, 1, 3], ["root", label, "obj", label], words)
    b = DependencyTree.create([0, 3, 1, 1], ["root", label + "2", label, "obj"], words)
    for marks in (True, False):
        assert dependency_pictures([(words, a, b, None)], marks) == reference([(words, a, b, None)], marks, False)


def test_bad_input_raises_as_the_reference_path():
    words = ["a", "b"]
    a = DependencyTree.create([0, 1], ["root", "x"], words)
    b = DependencyTree.create([2, 0], ["x", "root"], words)
    with pytest.raises(ValueError, match="2 heads and 2 labels for 3 words"):
        dependency_pictures([(["a", "b", "c"], a, b, None)])
    with pytest.raises(ValueError, match="no words"):
        dependency_pictures([([], a, b, None)])
    assert dependency_pictures([]) == []
    import dataclasses

    huge = dataclasses.replace(b, heads=np.array([2, 2 ** 32 + 1]))  # no int32 wrap-around into range
    with pytest.raises(ValueError, match="out of range"):
        dependency_pictures([(words, a, huge, None)])
    with pytest.raises(ValueError, match="out of range"):
        analysis_pictures(words, a, huge)


def test_the_compiled_loops_refuse_what_is_out_of_range():
    """Called directly, every index is checked before anything is drawn."""
    one = np.zeros(2, dtype=np.int32)

    def call(heads=((0, 1), (1, 0)), shown=(0, 0), offsets=(0, 2), strings=(b"w",)):
        rows = np.zeros((2, 2))
        return compiled(list(strings), np.array(offsets, dtype=np.int64), np.ones(2), np.array(shown, dtype=np.int32),
                        one - 1, one, np.array(heads, dtype=np.int32), rows, rows, np.zeros((2, 2), dtype=np.int32),
                        np.full((2, 2), -1, dtype=np.int32), np.zeros((2, 2), dtype=np.uint8),
                        np.zeros((2, 2), dtype=np.uint8))

    pictures, raw = call()
    assert len(pictures) == 1 and len(pictures[0]) == 2 and raw == []
    with pytest.raises(ValueError, match="head 3 of token 2 out of range 0..2"):
        call(heads=((0, 3), (1, 0)))
    with pytest.raises(ValueError, match="string 5 out of range"):
        call(shown=(0, 5))
    with pytest.raises(ValueError, match="offsets must run from 0 to 2"):
        call(offsets=(0, 1))
    with pytest.raises(ValueError, match="no words"):
        call(offsets=(0, 0, 2))
    with pytest.raises(TypeError, match="bytes only"):
        call(strings=("w",))
    with pytest.raises(ValueError, match=r"heads: shape \(2, 1\), not \(2, 2\)"):
        call(heads=((0,), (0,)))


def test_a_file_given_twice_is_read_once_with_the_same_result(tmp_path):
    """The judging study's gold may be one of the systems' files: read once, each annotator gets the
    same trees and counts as reading it again gives (a pipe or standard input is read as often as given)."""
    from spacy_agreement.adapters.files import load_parallel_files

    path = tmp_path / "a.conllu"
    path.write_text("# sent_id = s1\n1-2\tdu\t_\t_\t_\t_\t_\t_\t_\t_\n1\tde\tde\tADP\t_\t_\t2\tcase\t_\t_\n"
                    "2\tle\tle\tDET\t_\t_\t0\troot\t_\t_\n\n# sent_id = s2\n1\tok\tok\tX\t_\t_\t0\troot\t_\t_\n\n",
                    encoding="utf-8")
    other = tmp_path / "b.conllu"
    other.write_text(path.read_text(encoding="utf-8").replace("case", "det"), encoding="utf-8")
    once = load_parallel_files([path, other, path], annotators=["gold", "A", "B"], allow_duplicates=True)
    copy = tmp_path / "copy.conllu"
    copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    twice = load_parallel_files([path, other, copy], annotators=["gold", "A", "B"])
    assert once.names == twice.names and once.read_stats == twice.read_stats
    assert once.read_stats["B"] is not once.read_stats["gold"] and once.read_stats["B"].multiword_ranges == 1
    for x, y in zip(once.items, twice.items):
        assert {n: (t.heads.tolist(), t.deprels, t.forms) for n, t in x.items()} == \
               {n: (t.heads.tolist(), t.deprels, t.forms) for n, t in y.items()}
    assert once.items[0]["gold"] is once.items[0]["B"]  # the same trees, not read again


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_trees_as_json_dumps_writes_them(data):
    """The page id and the key encode each tree's strings once for both separators: the same text
    as json.dumps of tree_json, spaced and compact."""
    from spacy_agreement.adapters.judgments_files import tree_json
    from spacy_agreement.report.judging_payload import _tree_texts

    heads, _ = data.draw(dependency_heads(max_tokens=8, allow_cycles=True))
    n = len(heads)
    column = st.lists(st.text(CHARACTERS, min_size=1, max_size=6), min_size=n, max_size=n)
    upos = data.draw(st.one_of(st.just(["_"] * n), column))
    tree = DependencyTree.create(heads, data.draw(column), data.draw(column), upos)
    assert _tree_texts(tree) == (json.dumps(tree_json(tree), ensure_ascii=False),
                                 json.dumps(tree_json(tree), ensure_ascii=False, separators=(",", ":")))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.text(st.sampled_from(list("aZ0.;:<>&\"'\\\x01\x1f\x7f\u00e9\u4e00\u2028 _")), min_size=1,
                                 max_size=5), min_size=3, max_size=3), min_size=1, max_size=6), st.integers(0, 2 ** 32))
def test_trees_read_through_the_scanner_as_json_dumps_writes_them(tmp_path_factory, rows, seed):
    """The page id's and key's tree texts of trees read through the compiled scanner, written by the
    compiled loops from their files' codes: the same bytes as json.dumps of tree_json, spaced and
    compact, for every character a CoNLL-U field may hold; UPOS written only where one is known."""
    from spacy_agreement.adapters.conllu import scan
    from spacy_agreement.adapters.conllu.trees import read_conll
    from spacy_agreement.adapters.judgments_files import tree_json
    from spacy_agreement.report.judging_payload import _compiled_texts, _texts_of

    rnd = random.Random(seed)
    lines = []
    for s in range(3):
        for k, (form, label, upos) in enumerate(rows, start=1):
            upos = "_" if s == 1 else upos.replace(" ", "") or "X"  # spaces in FORM only
            lines.append(f"{k}\t{' '.join(form.split()) or 'w'}\t_\t{upos}\t_\t_\t{rnd.randint(0, len(rows))}\t"
                         f"{label.replace(' ', '') or 'dep'}\t_\t_")
        lines.append("")
    path = tmp_path_factory.mktemp("texts") / "f.conllu"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    old = scan.SCAN_FROM_BYTES
    scan.SCAN_FROM_BYTES = 0
    try:
        trees = list(read_conll(path))
    finally:
        scan.SCAN_FROM_BYTES = old
    assert _compiled_texts(trees) is not None  # the compiled path
    assert _texts_of(trees) == [(json.dumps(tree_json(t), ensure_ascii=False).encode("utf-8"),
                                 json.dumps(tree_json(t), ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
                                for t in trees]


def test_the_compiled_tree_texts_refuse_what_is_out_of_range():
    """Called directly, ``_drawing.tree_texts`` checks every index before it writes anything."""
    from spacy_agreement._drawing import tree_texts

    def call(offsets=(0, 2), forms=(0, 1), strings=(b'"a"', b'"b"'), with_upos=(1,)):
        ints = np.array(forms, dtype=np.int32)
        return tree_texts(list(strings), np.array(offsets, dtype=np.int64), ints, np.zeros(2, dtype=np.int32), ints,
                          ints, np.array(with_upos, dtype=np.uint8))

    assert call() == [(b'{"forms": ["a", "b"], "heads": [0, 0], "deprels": ["a", "b"], "upos": ["a", "b"]}',
                       b'{"forms":["a","b"],"heads":[0,0],"deprels":["a","b"],"upos":["a","b"]}')]
    with pytest.raises(ValueError, match="string out of range"):
        call(forms=(0, 2))
    with pytest.raises(ValueError, match="string out of range"):
        call(forms=(-1, 0))
    with pytest.raises(ValueError, match="offsets must run from 0 to 2"):
        call(offsets=(0, 1))
    with pytest.raises(ValueError, match="must not decrease"):
        call(offsets=(0, 3, 2), with_upos=(1, 1))
    with pytest.raises(ValueError, match="one per tree"):
        call(with_upos=(1, 1))
    with pytest.raises(TypeError, match="bytes only"):
        call(strings=('"a"', b'"b"'))
