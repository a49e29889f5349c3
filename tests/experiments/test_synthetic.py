"""Synthetic noise (Skjærholt 2014, §3): perturbation properties and the experiment."""
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.experiments.perturb import dominated, perturb_dependency, perturb_phrase, postorder_tokens
from spacy_agreement.experiments.synthetic import run_experiment

from ..reference import ref_unreachable_tokens
from ..strategies import dependency_heads, labelled_trees

LABELS = ["subj", "obj", "det", "mod", "root", "x", "y"]


def is_valid(heads):
    return not ref_unreachable_tokens(heads) and all(1 <= h + 1 <= len(heads) + 1 for h in heads)


@settings(max_examples=300, deadline=None)
@given(dependency_heads(max_tokens=12), st.floats(0, 1), st.floats(0, 1), st.integers(0, 2**31),
       st.sampled_from(["paper", "uniform"]))
def test_perturbed_trees_are_trees(tree, p_relabel, p_reattach, seed, model):
    heads, rels = tree
    original = sa.DependencyTree.create(heads, rels)
    noisy = perturb_dependency(original, LABELS, p_relabel, p_reattach, np.random.default_rng(seed), model)
    assert is_valid(noisy.heads.tolist()) and len(noisy) == len(original)
    assert all(label in LABELS or label in rels for label in noisy.deprels)
    assert noisy.forms == original.forms


@settings(max_examples=200, deadline=None)
@given(dependency_heads(max_tokens=12), st.integers(0, 2**31), st.sampled_from(["paper", "uniform"]))
def test_zero_noise_changes_nothing_and_relabelling_keeps_structure(tree, seed, model):
    heads, rels = tree
    original = sa.DependencyTree.create(heads, rels)
    same = perturb_dependency(original, LABELS, 0.0, 0.0, np.random.default_rng(seed), model)
    assert same.heads.tolist() == heads and same.deprels == original.deprels
    relabelled = perturb_dependency(original, LABELS, 1.0, 0.0, np.random.default_rng(seed), model)
    assert relabelled.heads.tolist() == heads


@settings(max_examples=200, deadline=None)
@given(dependency_heads(max_tokens=10), st.integers(0, 2**31))
def test_reattachment_never_picks_a_dominated_token(tree, seed):
    heads, rels = tree
    rng = np.random.default_rng(seed)
    current = list(heads)
    for token in postorder_tokens(current):
        below = dominated(current, token)
        # the subtree of ``token`` by brute force: tokens whose chain of heads passes through it
        for h in range(1, len(current) + 1):
            node, seen = h, set()
            while node not in (0, token) and node not in seen:
                seen.add(node)
                node = current[node - 1]
            assert below[h] == (node == token)
        assert not below[0]
        candidates = [h for h in range(len(current) + 1) if not below[h]]
        current[token - 1] = candidates[int(rng.integers(len(candidates)))]
        assert is_valid(current)


def test_postorder_children_first_left_to_right():
    # heads: 1->2, 2->0, 3->2, 4->3
    assert postorder_tokens([2, 0, 2, 3]) == [1, 4, 3, 2]


def test_uniform_model_is_uniform_over_small_trees():
    # with p_reattach = 1 over 2 tokens there are 3 rooted trees: {0->1->2, 0->2->1, 0->1, 0->2}
    original = sa.DependencyTree.create([0, 1], ["a", "b"])
    rng = np.random.default_rng(0)
    counts = {}
    for _ in range(3000):
        key = tuple(perturb_dependency(original, ["a"], 0, 1, rng, "uniform").heads.tolist())
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) == {(0, 1), (2, 0), (0, 0)}
    assert all(abs(c / 3000 - 1 / 3) < 0.04 for c in counts.values())


def phrase(tree):
    label, children = tree
    return f"({label} {' '.join(phrase(c) for c in children)})" if children else label


@settings(max_examples=200, deadline=None)
@given(labelled_trees(max_nodes=14), st.floats(0, 1), st.floats(0, 1), st.integers(0, 2**31))
def test_phrase_perturbation_keeps_words_order_and_nodes(tree, p_relabel, p_reattach, seed):
    text = phrase(tree) if tree[1] else f"({tree[0]})"
    original = sa.parse_brackets(text, leaves="categories")[0]
    noisy = perturb_phrase(original, ["NP", "VP"], p_relabel, p_reattach, np.random.default_rng(seed))
    is_leaf = lambda t: [not np.any(t.parent == i) for i in range(len(t))]  # noqa: E731
    assert [l for l, leaf in zip(noisy.labels, is_leaf(noisy)) if leaf] == [
        l for l, leaf in zip(original.labels, is_leaf(original)) if leaf
    ]
    assert len(noisy) == len(original) and noisy.n_leaves == original.n_leaves
    # still a tree in postorder with consistent spans
    sa.OrderedTree.from_parents(np.zeros(len(noisy), dtype=np.int32), noisy.parent)
    if p_relabel == 0 and p_reattach == 0:
        assert noisy.labels == original.labels and noisy.parent.tolist() == original.parent.tolist()


@pytest.fixture(scope="module")
def ndt_points(iaa):
    trees = sa.read_conll(iaa / "ndt" / "odin-norwegian.conll")
    return run_experiment(trees, sample=100, runs=10, seed=1, p_values=(0.1, 1.0))


def point(points, setting, p):
    return next(pt for pt in points if pt.setting == setting and pt.p == p and pt.model == "paper")


# What the experiment gives on the shared NDT file, as the paper ran it (100 sentences, 10 runs
# per point), and how much that varies: (setting, p, measure) -> (mean, sd) over 40 other seeds
# (100-139; each seed draws its own 100 of the 150 sentences and its own noise), measured once.
# A point of the test's seed lies within 4 sd of the mean with probability above 0.9999 if the
# experiment is right (the points' spread is close to normal: a mean over 10 runs); the mean
# itself is known to sd / sqrt(40), so the tolerance is 4 sd sqrt(1 + 1/40). A sign error, a
# wrong δ or noise applied at the wrong rate moves a point by many sd.
NDT_EXPECTED = {
    ("both", 0.1, "alpha_plain"): (0.8357, 0.0101), ("both", 0.1, "alpha_diff"): (0.3891, 0.0473),
    ("both", 0.1, "alpha_norm"): (0.8836, 0.0056), ("both", 0.1, "accuracy"): (0.8260, 0.0040),
    ("both", 1.0, "alpha_plain"): (-0.1192, 0.0070), ("both", 1.0, "alpha_diff"): (-2.2585, 0.1290),
    ("both", 1.0, "alpha_norm"): (0.0745, 0.0160), ("both", 1.0, "accuracy"): (0.0038, 0.0006),
    ("attach", 1.0, "alpha_plain"): (0.0526, 0.0076), ("attach", 1.0, "alpha_diff"): (-1.9777, 0.1201),
    ("attach", 1.0, "alpha_norm"): (0.2828, 0.0142), ("attach", 1.0, "accuracy"): (0.1113, 0.0047),
    ("label", 1.0, "alpha_plain"): (0.3706, 0.0061), ("label", 1.0, "alpha_diff"): (-0.9565, 0.0756),
    ("label", 1.0, "alpha_norm"): (0.4584, 0.0107), ("label", 1.0, "accuracy"): (0.0349, 0.0014),
}
NDT_TOLERANCE = 4 * (1 + 1 / 40) ** 0.5  # in sd (above)

# The figures the paper gives in the text of §3 (Figures 3-5 are curves), (setting, p, measure).
PAPER_FIGURES = {
    ("both", 0.1, "alpha_diff"): 0.158, ("both", 1.0, "alpha_norm"): 0.145, ("both", 1.0, "accuracy"): 0.009,
    ("both", 1.0, "alpha_plain"): -0.068, ("both", 1.0, "alpha_diff"): -2.46,
    ("attach", 1.0, "accuracy"): 0.239, ("label", 1.0, "accuracy"): 0.041,
}
NOT_ON_THIS_FILE = {
    ("attach", 1.0, "accuracy"): "LAS 11.1 ± 0.5% here against the paper's 23.9%",
    ("both", 1.0, "accuracy"): "LAS 0.38 ± 0.06% here against the paper's 0.9%",
    ("both", 1.0, "alpha_plain"): "αplain -11.9 ± 0.7% here against the paper's -6.8%",
}


@pytest.mark.slow
@pytest.mark.parametrize("setting, p, measure", sorted(NDT_EXPECTED))
def test_ndt_points_within_the_monte_carlo_error(ndt_points, setting, p, measure):
    mean, sd = NDT_EXPECTED[setting, p, measure]
    assert abs(getattr(point(ndt_points, setting, p), measure) - mean) <= NDT_TOLERANCE * sd


@pytest.mark.slow
def test_ndt_curves_show_the_papers_findings(ndt_points):
    both_low, both_high = point(ndt_points, "both", 0.1), point(ndt_points, "both", 1.0)
    # αdiff by far the most sensitive at p = 0.1
    assert both_low.alpha_diff < 0.5 < both_low.alpha_plain and both_low.alpha_diff < both_low.las - 0.3
    # αnorm the most lenient at p = 1, while LAS is near 0
    assert both_high.alpha_norm > max(both_high.alpha_plain, both_high.las)
    # αplain below zero at p = 1, αdiff far below
    assert both_high.alpha_plain < 0 and both_high.alpha_diff < -1
    # structural noise is penalised more than label noise
    for measure in ("alpha_plain", "alpha_diff", "alpha_norm"):
        assert getattr(point(ndt_points, "attach", 1.0), measure) < getattr(point(ndt_points, "label", 1.0), measure)
    # LAS with only reattachment stays well above LAS with only relabelling (the paper's
    # non-uniform shuffling): 11.1 ± 0.5% against 3.5 ± 0.1% here
    assert point(ndt_points, "attach", 1.0).las > point(ndt_points, "label", 1.0).las + 10 * 0.0047


@pytest.mark.slow
@pytest.mark.parametrize("setting, p, measure", [
    pytest.param(*key, id="-".join(map(str, key)), marks=[pytest.mark.xfail(strict=True, reason=(
        f"{NOT_ON_THIS_FILE[key]}, more than 4 sd·√2 apart: not reproduced on the shared NDT file (150 sentences "
        "of odin-norwegian; the paper drew its 100 from the whole treebank, which is not available)"))]
                 if key in NOT_ON_THIS_FILE else []) for key in sorted(PAPER_FIGURES)])
def test_ndt_points_against_the_papers_figures(ndt_points, setting, p, measure):
    """The paper's figure and this run are two runs of one experiment if the experiment is the
    paper's: their difference then has sd √2 times one run's (NDT_EXPECTED), and lies within 4 of
    those. αdiff at p = 1 (−246%, −236% here) and at p = 0.1 (15.8%, 34.4%: 2.8 of them) are;
    αnorm at p = 1 (14.5%, 6.0%) and LAS with relabelling only (4.1%, 3.3%) are, near the edge
    (3.7 and 3.9 of them: a change of the random draws may move them over it); the others are
    not (NOT_ON_THIS_FILE)."""
    _, sd = NDT_EXPECTED[setting, p, measure]
    assert abs(getattr(point(ndt_points, setting, p), measure) - PAPER_FIGURES[setting, p, measure]) <= \
        4 * 2 ** 0.5 * sd


def test_cli_synthetic_json_tsv_and_plots(tmp_path):
    corpus = tmp_path / "c.conllu"
    text = "".join(
        f"1\tA\t_\tNOUN\t_\t_\t2\tnsubj\t_\t_\n2\tB\t_\tVERB\t_\t_\t0\troot\t_\t_\n3\tC\t_\tNOUN\t_\t_\t2\t{rel}\t_\t_\n\n"
        for rel in ("obj", "obl", "iobj", "obj", "advmod", "obj")
    )
    corpus.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["synthetic", str(corpus), "--runs", "2", "--sample", "5", "--json",
                                      "--plot", str(tmp_path / "plots"), "--uniform"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output[result.output.index("{"):])
    assert len([p for p in out["points"] if p["model"] == "paper"]) == 30
    first = out["points"][0]
    for key in ("setting", "p", "alpha_plain", "alpha_diff", "alpha_norm", "accuracy", "alpha_plain_median",
                "accuracy_median", "accuracy_name"):
        assert key in first
    assert first["accuracy_name"] == "las"
    assert {p["setting"] for p in out["points"]} == {"both", "label", "attach"}
    assert sorted(f.name for f in (tmp_path / "plots").iterdir()) == [
        "synthetic-attach.png", "synthetic-both.png", "synthetic-label.png"]
    tsv = CliRunner().invoke(app, ["synthetic", str(corpus), "--runs", "1", "--sample", "3", "--tsv"])
    assert tsv.exit_code == 0 and tsv.output.splitlines()[0].startswith("setting\tp\tmodel")


def test_phrase_corpus_experiment():
    trees = sa.parse_brackets(
        "(S (NP D N) (VP V (NP D N)))\n(S (NP P) (VP V (PP P (NP D N))))\n(S (NP N) (VP V))\n"
        "(S (NP D A N) (VP V (NP P) (ADVP R)))\n", leaves="categories")
    points = run_experiment(trees, sample=4, runs=2, seed=0, p_values=(0.0, 1.0))
    zero = [p for p in points if p.p == 0.0]
    assert all(p.alpha_plain == 1.0 and p.las == 1.0 for p in zero)
    assert all(p.accuracy_name == "jaccard" and p.accuracy == p.las for p in points)  # las: the 0.1 alias
    noisy = [p for p in points if p.p == 1.0]
    assert len(noisy) == 3 and all(p.las < 1.0 and p.alpha_plain < 1.0 for p in noisy)


def test_sentences_with_cycles_are_not_sampled_and_counted():
    good = sa.DependencyTree.create([0, 1], ["root", "obj"])
    cyclic = sa.DependencyTree.create([0, 3, 2], ["root", "a", "b"])
    with pytest.warns(UserWarning, match="1 sentence"):
        points = run_experiment([good, good, cyclic], sample=3, runs=1, p_values=(0.5,))
    assert len(points) == 3
