"""Bad input: a clear error naming file, sentence and token; never a crash or a numpy traceback."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement import _core
from spacy_agreement.cli import app

GOOD = "1\tA\t_\tX\t_\t_\t2\tsubj\t_\t_\n2\tB\t_\tX\t_\t_\t0\troot\t_\t_\n\n"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "bad, where, what",
    [
        ("1\tA\t_\tX\t_\t_\t7\tsubj\t_\t_\n2\tB\t_\tX\t_\t_\t0\troot\t_\t_\n\n", ":4: sentence 2, token 1: ", "out of range"),
        ("1\tA\t_\tX\t_\t_\tx\tsubj\t_\t_\n2\tB\t_\tX\t_\t_\t0\troot\t_\t_\n\n", ":4: sentence 2, token 1: ", "malformed line"),
        ("1\tA\t_\tX\n2\tB\t_\tX\t_\t_\t0\troot\t_\t_\n\n", ":4: sentence 2, token 1: ", "4 columns, expected 10"),
        ("1\tA\t_\tX\t_\t_\t2\tsubj\t_\t_\n2\tB\t_\tX\t_\t_\t0\troot\t_\t_\tx\n\n", ":5: sentence 2, token 2: ", "11 columns"),
        ("1\tA\t_\tX\t_\t_\t2\tsubj\t_\t_\n3\tB\t_\tX\t_\t_\t0\troot\t_\t_\n\n", ":5: sentence 2, token 3: ", "ids must run"),
        # comments without words between two sentences (after the last one they are read: no sentence)
        ("# text = nothing\n\n1\tA\t_\tX\t_\t_\t0\troot\t_\t_\n\n", ":4: sentence 2: ", "empty sentence"),
    ],
)
def test_bad_conll_names_file_sentence_token(tmp_path, bad, where, what):
    path = write(tmp_path, "bad.conll", GOOD + bad)
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.read_conll(path)
    message = str(err.value)
    assert message.startswith(f"{path}{where}"), message
    assert what in message


def test_several_roots_where_one_is_required(tmp_path):
    path = write(tmp_path, "roots.conllu", "1\tA\t_\tX\t_\t_\t0\troot\t_\t_\n2\tB\t_\tX\t_\t_\t0\troot\t_\t_\n\n")
    assert len(sa.read_conll(path)) == 1  # allowed by default (CoNLL-X treebanks)
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.read_conll(path, single_root=True)
    assert str(err.value).startswith(f"{path}:2: sentence 1, token 2: ") and "where one is required" in str(err.value)


def test_cycle_raises_in_strict_mode_naming_the_token():
    tree = sa.DependencyTree.create([0, 3, 2], ["root", "a", "b"], location=sa.Location("f.conll", 4))
    assert tree.unreachable_tokens().tolist() == [2, 3]
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.tree_edit_distance(tree, tree, cycles="raise")
    assert str(err.value).startswith("f.conll: sentence 4, token 2: ")
    assert sa.tree_edit_distance(tree, tree) == 0  # dropped by default


def test_files_with_different_sentence_counts(tmp_path):
    a = write(tmp_path, "a.conll", GOOD + GOOD)
    b = write(tmp_path, "b.conll", GOOD)
    with pytest.raises(sa.MismatchedCorpusError) as err:
        sa.load_parallel_files([a, b])
    assert str(a) in str(err.value) and str(b) in str(err.value)


def test_annotations_with_different_tokens(tmp_path):
    # paired by sent_id, an annotator's changed word is counted and listed by the accuracies
    a = write(tmp_path, "a.conll", "# sent_id = s1\n" + GOOD + "# sent_id = s2\n" + GOOD)
    b = write(tmp_path, "b.conll", "# sent_id = s1\n" + GOOD + "# sent_id = s2\n" + GOOD.replace("\tB\t", "\tC\t", 1))
    corpus = sa.load_parallel_files([a, b])
    result = sa.pairwise_accuracy(corpus)
    assert result.items_mismatched == 1 and result.items == 1 and result.tokens == 2
    assert "token 2 is 'B' against 'C'" in result.mismatched[0]
    with pytest.raises(sa.MismatchedCorpusError) as err:
        sa.pairwise_accuracy(corpus, strict=True)
    assert str(err.value).startswith(f"{a}:5: sentence 2 (sent_id s2): ")
    # paired by position, another sentence at a position is an error naming it
    c = write(tmp_path, "c.conll", GOOD + GOOD)
    d = write(tmp_path, "d.conll", GOOD + GOOD.replace("\tB\t", "\tC\t", 1))
    with pytest.raises(sa.MismatchedCorpusError, match="sentence 2, paired by position, is another sentence"):
        sa.load_parallel_files([c, d])


def test_annotator_dirs_with_different_sentence_counts(tmp_path):
    for name, text in (("x", GOOD), ("y", GOOD + GOOD)):
        (tmp_path / name).mkdir()
        write(tmp_path / name, f"doc-{name}.conll", text)
    with pytest.raises(sa.MismatchedCorpusError) as err:
        sa.load_annotator_dirs([tmp_path / "x", tmp_path / "y"])
    assert "doc-x.conll" in str(err.value) and "doc-y.conll" in str(err.value)


@pytest.mark.parametrize(
    "text, what",
    [("(S (NP P) (VP V)", "never closed"), ("(S (NP P) (VP V)))", "unbalanced ')'"),
     ("junk (S (NP P))", "text outside brackets"), ("()", "empty tree")],
)
def test_unbalanced_brackets(tmp_path, text, what):
    path = write(tmp_path, "bad.tree", "(S (NP P))\n" + text + "\n")
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.read_brackets(path)
    assert str(err.value).startswith(f"{path}:2: sentence 2: ") and what in str(err.value)


def test_cli_reports_bad_input_on_one_line(tmp_path):
    a = write(tmp_path, "a.conll", GOOD + "1\tA\t_\tX\t_\t_\t9\tsubj\t_\t_\n2\tB\t_\tX\t_\t_\t0\troot\t_\t_\n\n")
    b = write(tmp_path, "b.conll", GOOD + GOOD)
    result = CliRunner().invoke(app, ["alpha", str(a), str(b)])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines == [f"{a}:4: sentence 2, token 1: head 9 out of range 0..2"]
    missing = CliRunner().invoke(app, ["alpha", str(b), str(tmp_path / "nope.conll")])
    assert missing.exit_code == 1 and "nope.conll" in missing.output


# ---------------------------------------------------------------- the core never crashes

int32_arrays = st.lists(st.integers(-5, 12), max_size=12).map(lambda v: np.array(v, dtype=np.int32))


def _a_tree_in_postorder(lml, keyroots):
    """Whether (lml, keyroots) may describe a tree in postorder, as the core's docstrings define it
    (extension/validate.pxi): as many lml entries as labels (checked by the caller), lml[i] in
    [0, i] with every node of [lml[i], i] inside that subtree, keyroots strictly increasing nodes
    ending at the root, and keyroots exactly where there are nodes."""
    n = len(lml)
    if (n > 0) != (len(keyroots) > 0):
        return False
    for i in range(n):
        if not 0 <= lml[i] <= i or any(lml[x] < lml[i] for x in range(lml[i], i)):
            return False
    return (n == 0 or keyroots[-1] == n - 1) and all(0 <= k < n for k in keyroots) and \
        all(b > a for a, b in zip(keyroots, keyroots[1:]))


def _postorder_parents(parent):
    """(lml, keyroots) of a parent array that is a tree in postorder (root last, parent -1, every
    subtree a run of indices ending at its root), computed from the children; None otherwise."""
    n = len(parent)
    if n == 0:
        return [], []
    if parent[-1] != -1 or any(not i < parent[i] < n for i in range(n - 1)):
        return None
    children = {i: [c for c in range(n) if parent[c] == i] for i in range(n)}

    def below(i):
        return [i] + [x for c in children[i] for x in below(c)]

    lml = []
    for i in range(n):
        nodes = below(i)
        if sorted(nodes) != list(range(i - len(nodes) + 1, i + 1)):
            return None
        lml.append(min(nodes))
    keyroots = [i for i in range(n) if i == n - 1 or lml[parent[i]] != lml[i]]
    return lml, keyroots


@settings(max_examples=300, deadline=None)
@given(int32_arrays, int32_arrays, int32_arrays, int32_arrays)
def test_core_rejects_garbage_without_crashing(labels, lml, keyroots, parent):
    """Every entry point of the core either refuses its arrays (ValueError) or gives a valid
    answer, and which of the two is decided by the arrays' definition, checked here apart."""
    # tree_edit_distance of a tree with itself: refused exactly when the arrays are not a tree,
    # else a distance between 0 and the two trees' nodes (0 where the keyroots are the true ones)
    valid = len(lml) == len(labels) and _a_tree_in_postorder(lml.tolist(), keyroots.tolist())
    if not valid:
        with pytest.raises(ValueError):
            _core.tree_edit_distance(labels, lml, keyroots, labels, lml, keyroots)
    else:
        d = _core.tree_edit_distance(labels, lml, keyroots, labels, lml, keyroots)
        assert math.isfinite(d) and 0 <= d <= 2 * len(labels)
        n = len(lml)
        true_keyroots = [i for i in range(n) if all(lml[j] != lml[i] for j in range(i + 1, n))]
        if keyroots.tolist() == true_keyroots:
            assert d == 0
    # derive_lml_keyroots: refused exactly when the parents are not a tree in postorder, else
    # the leftmost leaves and keyroots computed from the children
    expected = _postorder_parents(parent.tolist())
    if expected is None:
        with pytest.raises(ValueError):
            _core.derive_lml_keyroots(parent)
    else:
        got_lml, got_keyroots = _core.derive_lml_keyroots(parent)
        assert (got_lml.tolist(), got_keyroots.tolist()) == expected
    # forest_ted_pairs: pairs naming trees 1 and -1 of a one-tree forest are always refused
    offsets = np.array([0, len(labels)], dtype=np.int64)
    kr_offsets = np.array([0, len(keyroots)], dtype=np.int64)
    pairs = np.array([0, 1, -1], dtype=np.int64)
    with pytest.raises(ValueError):
        _core.forest_ted_pairs(labels, lml, offsets, keyroots, kr_offsets, pairs, pairs[::-1].copy())
    # dependency_postorder: refused exactly when a head is outside 0..n, else the tokens the
    # artificial root reaches, in postorder, with their heads as parents, and the count of the others
    n = len(parent)
    heads = parent.tolist()
    if any(not 0 <= h <= n for h in heads):
        with pytest.raises(ValueError):
            _core.dependency_postorder(parent)
    else:
        tokens, parents, unreachable = _core.dependency_postorder(parent)
        reached = {0}
        while True:
            more = {k for k in range(1, n + 1) if heads[k - 1] in reached} - reached
            if not more:
                break
            reached |= more
        assert sorted(tokens.tolist()) == sorted(reached) and unreachable == n + 1 - len(reached)
        assert tokens[-1] == 0 and parents[-1] == -1
        for i, token in enumerate(tokens.tolist()[:-1]):
            assert tokens[parents[i]] == heads[token - 1] and parents[i] > i  # the head, after its dependents


def test_core_checks_cost_matrix_against_labels():
    parent = np.array([1, -1], dtype=np.int32)
    lml, kr = _core.derive_lml_keyroots(parent)
    labels = np.array([3, 0], dtype=np.int32)
    with pytest.raises(ValueError, match="outside the cost matrix"):
        _core.tree_edit_distance(labels, lml, kr, labels, lml, kr, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="non-negative"):
        _core.tree_edit_distance(labels, lml, kr, labels, lml, kr, -np.ones((4, 4)))
    with pytest.raises(ValueError, match="square"):
        _core.tree_edit_distance(labels, lml, kr, labels, lml, kr, np.ones((4, 3)))


cells = st.sampled_from(["1", "2", "3", "0", "-1", "_", "x", "1-2", "1.1", "root", "", " ", "#", "=", "a|b", "9999999999"])
lines = st.lists(cells, min_size=1, max_size=11).map("\t".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(lines, st.just("")), min_size=1, max_size=8))
def test_conll_reader_gives_trees_or_a_located_error(rows):
    text = "\n".join(rows) + "\n\n"
    try:
        trees = sa.parse_conll(text, name="fuzz.conll")
    except sa.InvalidTreeError as err:
        assert str(err).startswith("fuzz.conll")
    else:
        for tree in trees:
            assert len(tree) > 0 and tree.heads.min() >= 0 and tree.heads.max() <= len(tree)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="()ab \n", max_size=40))
def test_bracket_reader_gives_trees_or_a_located_error(text):
    try:
        trees = sa.parse_brackets(text, name="fuzz.tree")
    except sa.InvalidTreeError as err:
        assert str(err).startswith("fuzz.tree")
    else:
        for tree in trees:
            assert len(tree) > 0
