"""The fast paths of leaf-ancestor's compiled loops against what they replaced, on inputs made to
break them: files of one tree a line read in one pass (no first pass; leaf_ancestor_stream.line_batches)
against the first pass's reading and the pure-Python reference, whatever the files hold (lines
that are no whole tree, trees over lines, more lines in one file, failed parses at the end,
escapes, bytes that are not UTF-8, strict errors); the next batch read on a second thread and
the error configurations added there, against one thread; the error configurations' memo
started again and again; and the lineages and GEIG brackets of trees given as arrays whose
subtrees are not contiguous (the walk from the root gives way to the walk up from each leaf)."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spacy_agreement as sa
from spacy_agreement import _lineage
from spacy_agreement.adapters.brackets import read_brackets, trim_trailing_failures
from spacy_agreement.errors import AgreementError
from spacy_agreement.evaluation.constituency import leaf_ancestor_compiled as compiled_loops
from spacy_agreement.evaluation.constituency.leaf_ancestor import leaf_ancestor_files, leaf_ancestor_reference

from .test_leaf_ancestor_streaming import Collect

pytestmark = pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
TREES = ["(S (NP a b) (VP c))", "(S (NP a) (VP b c))", "(S (NP (D a) (N b)) (VP (V c)))", "(S (X a) (Y b) (Z c))",
         "(TOP (S (NP-SBJ (D a)) (VP (V b) (NP (N c)))))", "( (S (NP a) (VP b c)) )", "(S a b c)", "(S a b d)",
         "(S (NP a) b)", "(S é (VP b))"]
ODD = ["", "()", "(())", "  ", "(S a b", "(S a) (S b)", "a b", "(S (NP a\\(b) c)", "(S a\n  (VP b))",
       "(S a))", b"(S \xe9 b)", "\t(S (NP a) (VP b c))  "]


def no_lines(*args, **options):
    raise compiled_loops.NotLines("count")
    yield  # a generator, as line_batches is


def write(path, lines, newline):
    data = newline.encode().join(line if isinstance(line, bytes) else line.encode("utf-8") for line in lines)
    path.write_bytes(data + (newline.encode() if lines else b""))


def python_files(gold, cand, **options):
    g, c = trim_trailing_failures(read_brackets(gold, "categories", missing=True),
                                  read_brackets(cand, "categories", missing=True))
    return leaf_ancestor_reference(g, c, **options)


def outcome(run):
    """What a run gives: the exception (type and message), or the figures and sentences."""
    try:
        result = run()
    except (AgreementError, UnicodeDecodeError, ValueError) as exc:
        return ("error", type(exc).__name__, str(exc))
    sentences = [(s.index, s.location, s.leaf_ancestor, s.brackets,
                  [(w.word, w.score, w.gold_lineage, w.candidate_lineage) for w in s.words]) for s in result.sentences]
    configurations = sorted(result.error_configurations(k=None, min_count=1))
    return ("result", result.to_dict(sentences=False), result.skipped, sentences, configurations)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TREES + ODD), min_size=0, max_size=9),
       st.lists(st.sampled_from(TREES + ODD[:4]), min_size=0, max_size=9),
       st.integers(0, 3), st.sampled_from(["\n", "\r\n"]), st.booleans(), st.integers(1, 4))
def test_one_pass_reads_as_the_first_pass_and_the_python_reader(tmp_path, gold_lines, cand_lines, trailing,
                                                                newline, strict, batch):
    cand_lines = cand_lines + [""] * trailing  # failed parses at the end: cut off if the other file is shorter
    gold, cand = tmp_path / "g.mrg", tmp_path / "c.mrg"
    write(gold, gold_lines, newline)
    write(cand, cand_lines, newline)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiled_loops, "BATCH", batch)
        mp.setattr(compiled_loops, "BLOCK", 5)  # lines cut by a block end
        with pytest.MonkeyPatch.context() as first_pass:  # the reading before the one pass: the first pass first
            first_pass.setattr(compiled_loops, "line_batches", no_lines)
            expected = outcome(lambda: leaf_ancestor_files(gold, cand, strict=strict))
        reference = outcome(lambda: python_files(gold, cand, strict=strict))
        one_pass = outcome(lambda: leaf_ancestor_files(gold, cand, strict=strict, keep_worst=3))
        sink = Collect()
        with_sink = outcome(lambda: leaf_ancestor_files(gold, cand, strict=strict, sink=sink))
        mp.setattr(compiled_loops, "READ_AHEAD", False)
        one_thread = outcome(lambda: leaf_ancestor_files(gold, cand, strict=strict))
    assert one_pass == expected
    assert with_sink == expected and one_thread == expected
    if expected[0] == "result" or not any(line in ODD[4:] for line in gold_lines):  # malformed files aside
        assert expected == reference
    if expected[0] == "result":  # the sink has each sentence once, however often the reading started again
        assert [s.index for s in sink.sentences] == [s[0] for s in expected[3]]


def test_a_longer_file_read_again_with_the_first_pass_resets_the_sink(tmp_path):
    gold, cand = tmp_path / "g.mrg", tmp_path / "c.mrg"
    write(gold, TREES * 3, "\n")
    write(cand, TREES * 3 + ["", "()", ""], "\n")  # failed parses past the gold file's end: cut off
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiled_loops, "BATCH", 4)
        sink = Collect()
        result = leaf_ancestor_files(gold, cand, sink=sink)
    assert sink.resets == 1 and len(sink.sentences) == len(TREES) * 3
    assert outcome(lambda: result) == outcome(lambda: python_files(gold, cand))
    write(cand, TREES * 3 + ["(S a b c)"], "\n")  # one sentence more: the first pass's error, nothing scored
    sink = Collect()
    with pytest.raises(sa.MismatchedCorpusError, match="30 gold sentences but 31 candidate"):
        leaf_ancestor_files(gold, cand, sink=sink)
    assert sink.sentences == []


def test_a_strict_error_comes_after_the_first_pass_s_errors(tmp_path):
    gold, cand = tmp_path / "g.mrg", tmp_path / "c.mrg"
    write(gold, ["(S a b d)"] + TREES * 2, "\n")  # the first sentence's words differ
    write(cand, ["(S a b c)"] + TREES * 2 + ["(S a b c)"], "\n")
    with pytest.raises(sa.MismatchedCorpusError, match="gold sentences but"):  # not the words' error
        leaf_ancestor_files(gold, cand, strict=True)
    write(cand, ["(S a b c)"] + TREES * 2, "\n")
    with pytest.raises(sa.MismatchedCorpusError, match="in gold but"):
        leaf_ancestor_files(gold, cand, strict=True)


def random_corpus(tmp_path, n, seed):
    rng = np.random.default_rng(seed)
    labels, words = ["S", "NP", "VP", "PP", "NP-SBJ", "X", "Y", "Z"], ["a", "b", "c", "d", "e"]

    def tree(ws, depth=0):
        if len(ws) == 1 and depth:
            return f"({rng.choice(labels)} {ws[0]})" if rng.random() < 0.6 else ws[0]
        cut = int(rng.integers(1, len(ws))) if len(ws) > 1 else 1
        parts = [ws[:cut], ws[cut:]] if len(ws) > 1 else [ws]
        return f"({rng.choice(labels)} {' '.join(tree(p, depth + 1) for p in parts)})"

    gold, cand = [], []
    for _ in range(n):
        ws = rng.choice(words, size=int(rng.integers(1, 12))).tolist()
        gold.append(tree(ws))
        cand.append(tree(ws) if rng.random() > 0.03 else "")
    paths = tmp_path / "g.mrg", tmp_path / "c.mrg"
    write(paths[0], gold, "\n")
    write(paths[1], cand, "\n")
    return paths


@pytest.mark.parametrize("batch", [1, 7, 64])
def test_read_ahead_and_error_configurations_on_the_reader_s_thread_are_one_thread_s(tmp_path, monkeypatch, batch):
    gold, cand = random_corpus(tmp_path, 600, seed=batch)
    monkeypatch.setattr(compiled_loops, "BATCH", batch)
    two = compiled_loops.score_files(gold, cand, keep_worst=5, keep_rows=True)[0].store()
    monkeypatch.setattr(compiled_loops, "READ_AHEAD", False)
    one = compiled_loops.score_files(gold, cand, keep_worst=5, keep_rows=True)[0].store()
    assert (two.sentences, two.words, two.below, two.mean_sum, two.word_sum, two.brackets) == \
           (one.sentences, one.words, one.below, one.mean_sum, one.word_sum, one.brackets)
    assert two.features == one.features  # the same rows in the same order, the means to the bit
    assert [entry[:3] for entry in two.worst] == [entry[:3] for entry in one.worst]
    for key in one.rows:
        assert two.rows[key].tolist() == one.rows[key].tolist()
    reference, result = python_files(gold, cand), leaf_ancestor_files(gold, cand)
    assert result.leaf_ancestor == reference.leaf_ancestor and result.brackets == reference.brackets


@pytest.mark.parametrize("limit", [0, 40, 1000])
def test_the_error_configurations_memo_started_again(tmp_path, limit):
    gold, cand = random_corpus(tmp_path, 300, seed=limit)
    before = _lineage.memo_limit(limit)
    try:
        small = leaf_ancestor_files(gold, cand).error_configurations(k=None, min_count=1)
    finally:
        _lineage.memo_limit(before)
    assert small == leaf_ancestor_files(gold, cand).error_configurations(k=None, min_count=1)  # to the bit
    reference = sorted(python_files(gold, cand).error_configurations(k=None, min_count=1))
    assert [(f, n) for f, n, _ in sorted(small)] == [(f, n) for f, n, _ in reference]
    for (_, n, mean), (_, _, want) in zip(sorted(small), reference):  # past 128 words: the last bit
        assert mean == want if n <= 128 else mean == pytest.approx(want, rel=1e-14)


def walked_lineages(labels, parent, first, last, drop):
    """The lineages as the walk up from each leaf makes them (lineage_score.pxi's _lineages_walk)."""
    nkids = [0] * len(labels)
    for p in parent:
        if p >= 0:
            nkids[p] += 1
    words, lineages = [], []
    for i, kids in enumerate(nkids):
        if kids:
            continue
        words.append(labels[i])
        node = parent[i]
        if drop and node >= 0 and nkids[node] == 1:
            node = parent[node]
        path = []
        while node >= 0:
            path.append(node)
            node = parent[node]
        begin = max((k for k, v in enumerate(path) if first[v] == first[i]), default=-1)
        end = max((k for k, v in enumerate(path) if last[v] == first[i]), default=-1)
        lineage = []
        for k, v in enumerate(path):
            lineage += ([0] if k == begin else []) + [labels[v]] + ([1] if k == end else [])
        lineages.append(lineage)
    return words, lineages


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(0, 10 ** 6), min_size=n, max_size=n),
    st.lists(st.integers(0, 4), min_size=2 * n, max_size=2 * n), st.lists(st.integers(3, 9), min_size=n, max_size=n))),
    st.integers(0, 2))
def test_lineages_of_any_postorder_arrays_are_the_walk_s(arrays, pre):
    """Parents after their children, the root last, spans anything: subtrees need not be contiguous."""
    n, draws, spans, labels = arrays
    parent = [-1 if i == n - 1 else i + 1 + draws[i] % (n - 1 - i) for i in range(n)]
    batch = _lineage.Batch()
    batch.add_tree(np.array(labels, dtype=np.int32), np.array(parent, dtype=np.int32),
                   np.array(spans, dtype=np.int32), 0)
    first, last = spans[0::2], spans[1::2]
    nkids = [parent.count(i) for i in range(n)]
    penn = any(k == 0 for k in nkids) and all(parent[i] < 0 or nkids[parent[i]] == 1
                                              for i in range(n) if nkids[i] == 0)
    drop = pre == 2 or (pre == 0 and penn)
    words, lineages = _lineage.tree_lineages(batch, 0, pre)
    assert (words, lineages) == walked_lineages(labels, parent, first, last, drop)
    # GEIG's brackets of the same tree against itself: every bracket matched
    vocab, scores = _lineage.Vocab(), _lineage.Scores()
    for _ in range(12):
        vocab.id(f"L{len(vocab)}")
    status = np.zeros((1, 4), dtype=np.int64)
    _lineage.score_batch(batch, batch, vocab, 0, pre, np.zeros(1, dtype=np.uint8), scores, None, status)
    if status[0, 0] == 0:
        _, _, _, _, gold, cand, mu, ml = scores.arrays()
        brackets = sum(1 for i in range(n) if nkids[i] and not (drop and nkids[i] == 1 and nkids[i - 1] == 0))
        assert gold.tolist() == cand.tolist() == mu.tolist() == ml.tolist() == [brackets]


DEEP = "(" * 501 + ")" * 501  # no word, deeper than nltk reads: a failed parse to the first pass, unread here


@pytest.mark.parametrize("gold_lines, cand_lines", [
    (TREES, TREES + [DEEP]),  # past the end of the gold file: cut off by the first pass, never read
    (TREES, TREES[:5] + [DEEP] + TREES[6:]),  # inside: the compiled reader hands the file over
    (TREES, TREES + ["", "()", "(())"]),
    (TREES + [""], TREES),
    (TREES, TREES[:3] + ["(S a\n  (VP b c))"] + TREES[4:]),  # a tree over two lines: the first pass decides
    (TREES[:4] + [b"(S \xff b)"] + TREES[5:], TREES),
    ([], []), ([""], ["()"]), (TREES, TREES + ["(S a b c)"]),
])
def test_one_pass_and_first_pass_agree(tmp_path, monkeypatch, gold_lines, cand_lines):
    gold, cand = tmp_path / "g.mrg", tmp_path / "c.mrg"
    write(gold, gold_lines, "\n")
    write(cand, cand_lines, "\n")
    monkeypatch.setattr(compiled_loops, "BATCH", 3)

    def figures(**options):
        try:
            engine, modes, count = compiled_loops.score_files(gold, cand, keep_worst=3, **options)
        except compiled_loops.FallBack as exc:  # the Python reader reads the files, or says why not
            return "FallBack", str(exc)
        except AgreementError as exc:
            return type(exc).__name__, str(exc)
        store = engine.store()
        return (modes, count, engine.skipped, store.sentences, store.words, store.mean_sum, store.word_sum,
                store.brackets, store.features, [entry[:4] for entry in store.worst])

    first_pass = figures(emit=lambda row, sentence: None)  # with a sink that cannot be reset: the first pass first
    assert figures() == first_pass
    monkeypatch.setattr(compiled_loops, "READ_AHEAD", False)
    assert figures() == first_pass
