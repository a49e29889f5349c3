"""The one α policy: exact when it is estimated to take about a minute or less on this machine
(or within a budget of DP cells, where one is given), sampled beyond, and every output says
which was computed."""
import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement import _core
from spacy_agreement.agreement.alpha import pairable_trees
from spacy_agreement.agreement.policy import NS_PER_CELL, estimated_seconds, exact_cells, plan_alpha
from spacy_agreement.agreement.settings import DEFAULT_ALPHA_SECONDS, AlphaSettings
from spacy_agreement.cli import app

runner = CliRunner()


def random_tree(rng, n):
    heads = [0] + [rng.randint(1, k) for k in range(1, n)]
    order = list(range(1, n + 1))
    rng.shuffle(order)  # a random tree over shuffled positions
    position = {old: new for new, old in enumerate(order, start=1)}
    new_heads = [0] * n
    for old, head in enumerate(heads, start=1):
        new_heads[position[old] - 1] = 0 if head == 0 else position[head]
    return sa.DependencyTree.create(new_heads, [rng.choice(["nsubj", "obj", "det", "amod"]) if h else "root"
                                                for h in new_heads])


def corpus(items=60, seed=0):
    rng = random.Random(seed)
    out = []
    for _ in range(items):
        gold = random_tree(rng, rng.randint(3, 12))
        other = random_tree(rng, len(gold)) if rng.random() < 0.5 else gold
        out.append([gold, other])
    return out


def test_exact_cells_counts_distinct_pairs_against_a_slow_reference():
    data = corpus()
    trees = pairable_trees(data)
    distinct = {}
    for t in trees.trees:  # identical trees (labels and shape) are compared once
        distinct[(t.labels.tobytes(), t.parent.tobytes())] = t.size
    sizes = list(distinct.values())
    reference = sum(sizes[i] * sizes[j] for i in range(len(sizes)) for j in range(i + 1, len(sizes)))
    assert exact_cells(trees) == reference


def test_auto_is_exact_within_the_budget_and_sampled_beyond():
    data = corpus()
    trees = pairable_trees(data)
    cells = exact_cells(trees)
    assert plan_alpha(trees, AlphaSettings()).method == "exact"
    assert plan_alpha(trees, AlphaSettings(budget=cells)).method == "exact"
    assert plan_alpha(trees, AlphaSettings(budget=cells - 1)).method == "sampled"
    assert plan_alpha(trees, AlphaSettings(method="exact", budget=1)).method == "exact"
    # the time rule: cells × ns per cell ÷ threads against the limit in seconds
    plan = plan_alpha(trees, AlphaSettings(n_threads=2))
    # a small corpus: the table's time per cell of the kernel this CPU runs, not measured
    assert not plan.measured and plan.ns_per_cell == NS_PER_CELL[_core.row_kernel()]
    assert plan.seconds == pytest.approx(cells * NS_PER_CELL[_core.row_kernel()] * 1e-9 / 2, rel=1e-12)
    assert plan_alpha(trees, AlphaSettings(n_threads=2, seconds=plan.seconds)).method == "exact"
    assert plan_alpha(trees, AlphaSettings(n_threads=2, seconds=plan.seconds * 0.99)).method == "sampled"
    exact = sa.alpha(data)
    auto = sa.estimate_alpha(data)
    assert auto.method == "exact" and auto.alphas == exact.alphas and auto.cells == cells
    sampled = sa.estimate_alpha(data, budget=cells - 1, sample_pairs=20_000)
    assert sampled.method == "sampled pairs" and sampled.cells == cells
    for kind in ("plain", "diff", "norm"):
        assert sampled.low[kind] < sampled.alphas[kind] < sampled.high[kind]
        # within 4 standard errors of the exact α, the standard error being the estimate's own
        # (its 95% interval is a normal one: half its width is 1.96 SE): a correct estimator is
        # further away with probability below 1e-4 (here it is 0.6-0.8 SE away)
        standard_error = (sampled.high[kind] - sampled.low[kind]) / (2 * 1.959964)
        assert abs(sampled.alphas[kind] - exact.alphas[kind]) <= 4 * standard_error
    assert sampled.observed == pytest.approx(exact.observed)  # Do is always exact


def test_bad_method_and_budget_are_one_line_errors():
    with pytest.raises(sa.errors.BadOptionError, match="unknown alpha method"):
        sa.estimate_alpha(corpus(), method="fast")
    with pytest.raises(sa.errors.BadOptionError, match="positive number of cells"):
        sa.estimate_alpha(corpus(), budget=0)
    with pytest.raises(sa.errors.BadOptionError, match="positive number of seconds"):
        sa.alpha(corpus(), seconds=0)


@pytest.fixture()
def files(tmp_path):
    from spacy_agreement.adapters import write_conll

    data = corpus(items=40, seed=3)
    paths = []
    for k in range(2):
        path = tmp_path / f"annotator{k}.conllu"
        path.write_text(write_conll([item[k] for item in data]), encoding="utf-8")
        paths.append(str(path))
    return paths


def test_cli_states_how_alpha_was_computed(files):
    exact = json.loads(runner.invoke(app, ["alpha", *files, "--json"]).stdout)
    assert exact["alpha_method"] == "exact" and exact["alpha_seconds"] <= DEFAULT_ALPHA_SECONDS
    assert exact["alpha_budget"] is None and exact["signature"].startswith("alpha|") and "method:exact" in exact["signature"]
    forced = json.loads(runner.invoke(app, ["alpha", *files, "--json", "--alpha", "exact", "--alpha-budget", "1"]).stdout)
    assert forced["alpha_plain"] == exact["alpha_plain"] and forced["alpha_method"] == "exact"
    sampled = runner.invoke(app, ["alpha", *files, "--json", "--alpha-budget", "10"])
    values = json.loads(sampled.stdout)
    assert values["alpha_method"] == "sampled pairs" and values["samples"] == 20_000
    assert values["alpha_plain_low"] <= values["alpha_plain"] <= values["alpha_plain_high"]
    text = runner.invoke(app, ["alpha", *files, "--alpha-budget", "10"]).stdout
    assert "alpha: sampled" in text and "over the budget of 10" in text and "interval" in text
    off = json.loads(runner.invoke(app, ["alpha", *files, "--json", "--alpha", "off"]).stdout)
    assert off["alpha_method"] == "off" and "alpha_plain" not in off and "las" in off
    assert "alpha: not computed" in runner.invoke(app, ["alpha", *files, "--alpha", "off"]).stdout


def test_bootstrap_over_the_budget_asks_for_the_exact_alpha(files):
    result = runner.invoke(app, ["alpha", *files, "--alpha-budget", "10", "--bootstrap", "50"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "--bootstrap needs the exact alpha" in lines[0] and "--alpha exact" in lines[0]
    ok = runner.invoke(app, ["alpha", *files, "--alpha", "exact", "--alpha-budget", "10", "--bootstrap", "50", "--json"])
    assert json.loads(ok.stdout)["alpha_method"].startswith("bootstrap")


def test_report_and_score_nltk_trees_follow_the_policy(files, tmp_path):
    page = tmp_path / "r.html"
    result = runner.invoke(app, ["report", *files, "--html", str(page), "--alpha-budget", "10", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["alpha_method"] == "sampled pairs"
    assert "alpha: sampled" in page.read_text(encoding="utf-8")
    nltk = pytest.importorskip("nltk")
    gold = [nltk.Tree.fromstring("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))")] * 3
    parsed = [nltk.Tree.fromstring("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))"),
              nltk.Tree.fromstring("(S (NP (DT the)) (NP (NN dog)) (VP (VBZ barks)))"),
              nltk.Tree.fromstring("(S (NP (DT the) (NN dog) (VBZ barks)))")]
    auto = sa.score_nltk_trees(gold, parsed)
    assert auto["alpha_method"] == "exact"
    sampled = sa.score_nltk_trees(gold, parsed, alpha_budget=1)
    assert sampled["alpha_method"] == "sampled pairs" and "alpha_plain_low" in sampled
    assert "alpha_plain" not in sa.score_nltk_trees(gold, parsed, alpha="off")


def test_a_parser_against_16000_ptb_sized_trees_is_sampled_by_default():
    """Gold against a parse over 16,000 trees of ~25 nodes: several minutes exactly even with
    the fastest kernel on two cores, so sampled by default, and the plan says how long the
    exact α would take."""
    rng = np.random.default_rng(0)
    items = []
    for _ in range(16000):
        n = int(rng.integers(15, 35))
        heads = [0] + [int(rng.integers(1, k + 1)) for k in range(1, n)]
        gold = sa.DependencyTree.create(heads, ["x"] * n)
        parse = sa.DependencyTree.create(heads[:-1] + [1], ["x"] * n)
        items.append([gold, parse])
    settings = AlphaSettings(n_threads=2)
    trees = pairable_trees(items)
    plan = plan_alpha(trees, settings)
    assert plan.method == "sampled" and plan.seconds > DEFAULT_ALPHA_SECONDS
    assert plan.seconds == pytest.approx(estimated_seconds(plan.cells, settings))
    assert plan.seconds >= plan.cells * min(NS_PER_CELL.values()) * 1e-9 / 2


def test_near_the_limit_the_kernel_is_timed_here():
    """Where the table's time per cell puts the exact α near the limit, the kernel is timed on
    the corpus's own trees and that decides; far from it, the table does (no timing)."""
    rng = np.random.default_rng(1)
    items = []
    for _ in range(700):
        n = int(rng.integers(15, 35))
        heads = [0] + [int(rng.integers(1, k + 1)) for k in range(1, n)]
        items.append([sa.DependencyTree.create(heads, ["x"] * n), sa.DependencyTree.create(heads[:-1] + [1], ["x"] * n)])
    trees = pairable_trees(items)
    table = plan_alpha(trees, AlphaSettings(n_threads=2))
    assert not table.measured and table.cells >= 1e8  # far below a minute: no timing
    near = plan_alpha(trees, AlphaSettings(n_threads=2, seconds=table.seconds))
    assert near.measured and near.ns_per_cell > 0
    assert near.seconds == pytest.approx(near.cells * near.ns_per_cell * 1e-9 / 2)
    assert near.method == ("exact" if near.seconds <= table.seconds else "sampled")
    assert not plan_alpha(trees, AlphaSettings(n_threads=2, seconds=table.seconds, budget=1e12)).measured


def test_the_sample_time_is_scaled_to_the_whole_run(monkeypatch):
    """The sample's time per cell is the run's over MEASURED_TO_RUN (the run on every core does
    more per cell than 256 trees on one thread): a sample of 10 ns per cell plans 9."""
    from spacy_agreement.agreement import policy

    items = [[sa.DependencyTree.create([0] + [1] * 29, ["x"] * 30), sa.DependencyTree.create([0] + [2] * 29, ["x"] * 30)]
             for _ in range(400)]
    trees = pairable_trees(items)
    monkeypatch.setattr(policy, "measured_ns_per_cell", lambda trees, settings: 10.0)
    monkeypatch.setattr(policy, "CALIBRATE_MIN_CELLS", 0)
    table = plan_alpha(trees, AlphaSettings(n_threads=1))
    near = plan_alpha(trees, AlphaSettings(n_threads=1, seconds=table.seconds))
    assert near.measured and near.ns_per_cell == pytest.approx(10.0 * policy.MEASURED_TO_RUN) == pytest.approx(9.0)
