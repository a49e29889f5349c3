"""Phrase-tree conventions of Skjærholt (2014) and format detection from the content.

* |x| in δdiff and δnorm is the sentence length, for phrase trees the leaves of the
  delexicalised tree (§2: "the edit distance minus the difference in length between the two
  sentences"); the node count is the ``size="tree"`` option.
* Mean pairwise Jaccard is computed over every item with two or more annotations (it is
  defined for any two trees); items whose leaf counts differ are counted, not dropped.
"""
import json
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app

from ..strategies import labelled_trees

runner = CliRunner()


def tree(text):
    return sa.parse_brackets(text, leaves="categories")[0]


def brackets_of(text):
    """Labelled brackets (first leaf, last leaf, label) of a category bracketing, computed
    independently of the package: walk the string, number the leaves left to right."""
    tokens = text.replace("(", " ( ").replace(")", " ) ").split()
    out, stack, leaf, k = [], [], 0, 0
    while k < len(tokens):
        t = tokens[k]
        if t == "(":
            stack.append([tokens[k + 1], leaf])
            k += 2
            continue
        if t == ")":
            label, first = stack.pop()
            out.append((first, leaf - 1, label))
        else:
            out.append((leaf, leaf, t))
            leaf += 1
        k += 1
    return set(out), leaf


def test_delta_diff_uses_the_number_of_leaves():
    a, b = tree("(S (NP A B) C)"), tree("(S A B C)")
    # one deletion (NP); same sentence length (3 leaves): δdiff = 1 − |3 − 3| = 1
    assert sa.tree_edit_distance(a, b) == 1
    assert a.annotation_size == b.annotation_size == 3
    assert sa.delta(a, b, "diff") == 1
    assert sa.delta(a, b, "norm") == pytest.approx(1 / 6)
    # the node-count option: 5 against 4 nodes, δdiff = 1 − 1 = 0
    with pytest.warns(sa.UndefinedMetricWarning, match="alpha_diff is undefined"):
        result = sa.alpha([[a, b], [b, b], [a, a]], size="tree")
    leaves = sa.alpha([[a, b], [b, b], [a, a]])
    assert result.observed["diff"] == 0
    assert leaves.observed["diff"] > 0


def test_alpha_sizes_follow_the_convention_through_every_backend():
    items = [[tree("(S (NP A B) (VP C (NP D)))"), tree("(S (NP A B) (VP C D))")],
             [tree("(S A (VP B))"), tree("(S (X A) (VP B))")],
             [tree("(S A B C D E)"), tree("(S (NP A B C) (VP D E))")]]
    results = [sa.alpha(items, backend=b) for b in ("serial", "threads")]
    for r in results[1:]:
        for k in ("plain", "diff", "norm"):
            assert r.observed[k] == pytest.approx(results[0].observed[k])
            assert r.expected[k] == pytest.approx(results[0].expected[k])
    # δdiff of item 1 by hand: TED 1 (delete NP over D), same length 4 → δdiff² = 1
    assert sa.delta(*items[0], "diff") == 1


def test_jaccard_scores_items_whose_leaf_counts_differ(tmp_path):
    texts = [("(S (NP A B) (VP C))", "(S (NP A B) C)"),
             ("(S (NP A B) (VP C D))", "(S (NP A) (VP B C))"),   # 4 leaves against 3
             ("(S A B)", "(S A B)")]
    corpus = sa.Corpus.from_items([[tree(x), tree(y)] for x, y in texts])
    result = sa.pairwise_jaccard(corpus)
    expected_num = expected_den = 0.0
    for x, y in texts:
        (bx, nx), (by, _) = brackets_of(x), brackets_of(y)
        expected_num += nx * len(bx & by) / len(bx | by)
        expected_den += nx
    assert result.jaccard == pytest.approx(expected_num / expected_den)
    assert result.items == 3 and result.items_mismatched == 1 and result.mismatched_scored
    assert "4 leaves against 3" in result.mismatched[0]
    excluded = sa.pairwise_jaccard(corpus, exclude_mismatched=True)
    assert excluded.items == 2 and excluded.items_mismatched == 1 and not excluded.mismatched_scored
    with pytest.raises(sa.MismatchedCorpusError):
        sa.pairwise_jaccard(corpus, strict=True)


def test_jaccard_with_three_annotators_is_the_length_weighted_pairwise_mean():
    texts = ["(S (NP A B) (VP C))", "(S A (VP B C))", "(S (NP A B C))"]
    corpus = sa.Corpus.from_items([[tree(t) for t in texts]])
    pairs = []
    for x, y in combinations(texts, 2):
        bx, by = brackets_of(x)[0], brackets_of(y)[0]
        pairs.append(len(bx & by) / len(bx | by))
    assert sa.pairwise_jaccard(corpus).jaccard == pytest.approx(sum(pairs) / 3)


def test_cli_jaccard_option_and_counts(tmp_path):
    a = tmp_path / "a.tree"
    b = tmp_path / "b.tree"
    a.write_text("(S (NP A B) (VP C D))\n(S (NP A) B)\n", encoding="utf-8")
    b.write_text("(S (NP A) (VP B C))\n(S (NP A) B)\n", encoding="utf-8")
    values = json.loads(runner.invoke(app, ["alpha", str(a), str(b), "--json"]).stdout)
    assert values["items_mismatched"] == 1 and values["items_mismatched_scored"] is True
    assert values["accuracy_items"] == 2
    values = json.loads(runner.invoke(app, ["alpha", str(a), str(b), "--json", "--exclude-mismatched"]).stdout)
    assert values["accuracy_items"] == 1 and values["jaccard"] == 1.0
    text = runner.invoke(app, ["alpha", str(a), str(b)]).stdout
    assert "1 item(s) with different tokens scored (Jaccard is defined for them)" in text


@pytest.mark.parametrize("suffix", [".gld", ".tst", ".txt", ".mrg", ""])
def test_bracket_files_are_recognised_by_their_content(tmp_path, suffix):
    a = tmp_path / f"gold{suffix}"
    b = tmp_path / f"test{suffix}x"
    a.write_text("\n\n  (S (NP (DT the) (NN dog)) (VP (VBZ barks)))\n", encoding="utf-8")
    b.write_text("\n\n(S (NP (DT the) (NN dog)) (VBZ barks))\n", encoding="utf-8")
    assert sa.adapters.guess_format(a) == "bracket"
    corpus = sa.load_parallel_files([a, b])
    assert corpus.family == "constituency"
    result = runner.invoke(app, ["alpha", str(a), str(b), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["tree_family"] == "constituency"


def test_conll_files_are_recognised_by_their_content(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("# sent_id = 1\n1\tA\t_\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    assert sa.adapters.guess_format(a) == "conll"
    b = tmp_path / "b.tree"
    b.write_text("(S A)\n", encoding="utf-8")
    with pytest.raises(ValueError, match="mix bracketed trees and CoNLL"):
        sa.load_parallel_files([a, b])
    empty = tmp_path / "empty.mrg"
    empty.write_text("", encoding="utf-8")
    assert sa.adapters.guess_format(empty) == "bracket"


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # one pairable item, identical
def test_failed_parses_are_missing_annotations_as_in_evalb(tmp_path):
    """In a file of one tree a line, a blank line (or a tree without words, ``(())``) is a
    sentence the parser failed on, as EVALB reads it: a missing annotation, counted."""
    gold = tmp_path / "gold.mrg"
    test = tmp_path / "test.mrg"
    gold.write_text("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))\n(S (NP (PRP it)) (VP (VBZ rains)))\n"
                    "(S (NP (PRP we)) (VP (VBP go)))\n", encoding="utf-8")
    test.write_text("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))\n\n( (()) )\n", encoding="utf-8")
    trees = sa.read_brackets(test, missing=True)
    assert trees[1] is None and trees[2] is None and trees[0].location.sentence == 1
    corpus = sa.load_parallel_files([gold, test])
    assert len(corpus) == 3 and [len(item) for item in corpus.items] == [2, 1, 1]
    values = json.loads(runner.invoke(app, ["alpha", str(gold), str(test), "--json"]).stdout)
    assert values["failed_parses"] == 2 and values["items_unpairable"] == 2 and values["items"] == 1
    out = runner.invoke(app, ["leaf-ancestor", str(gold), str(test), "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    assert result["sentences_skipped"] == 2 and len(result["sentences"]) == 1 and result["leaf_ancestor"] == 1.0
    text = runner.invoke(app, ["leaf-ancestor", str(gold), str(test)]).stdout
    assert "skipped 2 sentence(s): failed parses, or words that differ" in text and f"{gold}:2: sentence 2: no parse (failed parse)" in text
    # without missing=True the blank line only separates trees and (()) is an error
    with pytest.raises(sa.InvalidTreeError, match="empty tree"):
        sa.read_brackets(test)


def test_blank_lines_separate_trees_spread_over_lines(tmp_path):
    path = tmp_path / "a.mrg"
    path.write_text("( (S (NP (DT the) (NN dog))\n    (VP (VBZ barks))) )\n\n( (S (NP (PRP it))\n (VP (VBZ rains))) )\n\n",
                    encoding="utf-8")
    trees = sa.read_brackets(path, missing=True)
    assert len(trees) == 2 and all(t is not None and t.outer_brackets == 1 for t in trees)


def _leaf_count(tree):
    return 1 if not tree[1] else sum(_leaf_count(c) for c in tree[1])


def _ref_prune(tree, drop, start=0):
    """Reference deletion on nested tuples: leaves whose left-to-right index is in ``drop``
    go, and so do nodes left without leaves. Returns (tree or None, leaves seen)."""
    label, children = tree
    if not children:
        return (None if start in drop else tree), 1
    kept, seen = [], 0
    for child in children:
        pruned, n = _ref_prune(child, drop, start + seen)
        seen += n
        if pruned is not None:
            kept.append(pruned)
    return ((label, tuple(kept)) if kept else None), seen


def _brackets(tree):
    def to_text(t):
        return t[0] if not t[1] else f"({t[0]} {' '.join(to_text(c) for c in t[1])})"
    text = to_text(tree) if tree[1] else f"({tree[0]})"
    return sa.parse_brackets(text, leaves="categories")[0]


@settings(max_examples=150, deadline=None)
@given(labelled_trees(max_nodes=12), st.data())
def test_without_leaves_matches_a_reference(tree, data):
    n_leaves = _leaf_count(tree)
    drop = set(data.draw(st.lists(st.integers(0, n_leaves - 1), max_size=n_leaves)))
    reference, _ = _ref_prune(tree, drop)
    converted = _brackets(tree)
    flags, leaf = [], 0
    kids = [0] * len(converted)
    for p in converted.parent.tolist():
        if p >= 0:
            kids[p] += 1
    for node in range(len(converted)):
        flags.append(not kids[node] and leaf in drop)
        leaf += not kids[node]
    if reference is None:
        with pytest.raises(sa.InvalidTreeError, match="no leaf left"):
            converted.without_leaves(flags)
        return
    pruned = converted.without_leaves(flags)
    expected = _brackets(reference)
    assert pruned.labels == expected.labels
    assert pruned.parent.tolist() == expected.parent.tolist()
    assert pruned.spans.tolist() == expected.spans.tolist()
