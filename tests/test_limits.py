"""Bounded time and memory on pathological input (issue 17): a sentence of tens of thousands
of tokens, flat or a chain, through alpha, evaluate, leaf-ancestor and report answers with a
result or one line and exit 1, within the memory limit (CI uses 20,000 tokens and 1 GiB; the
100,000-token figures are in benchmarks/README.md)."""
import resource
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_agreement import DependencyTree, _core, alpha, tree_edit_distance
from spacy_agreement.errors import ResourceLimitError
from spacy_agreement.limits import depths, max_memory, memory_limit, ted_table_bytes

N = 20_000


def slow_depths(parent):
    out = []
    for start in range(len(parent)):
        node, depth, seen = start, 0, set()
        while node != -1 and node not in seen:
            seen.add(node)
            node = parent[node]
            depth += 1
        out.append(depth if node == -1 else 0)
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-1, 30), min_size=1, max_size=30))
def test_depths_match_a_slow_walk(raw):
    parent = [p if p < len(raw) else -1 for p in raw]
    assert depths(parent) == slow_depths(parent)


def test_ted_tables_over_the_limit_are_one_error_naming_the_tree():
    big = DependencyTree.create([0] + [1] * 2999, ["x"] * 3000)
    with memory_limit(0.01):
        assert max_memory() == int(0.01 * (1 << 30))
        with pytest.raises(ResourceLimitError, match=r"trees of 3,001 and 3,001 nodes needs 137.5 MiB of tables"):
            tree_edit_distance(big, big)
        with pytest.raises(ResourceLimitError, match="over the limit of 10.2 MiB"):
            alpha([[big, big]], backend="serial")
    # the all-pairs paths: both table pairs and the row kernel's buffers (two int32 rows of at
    # most 4,128 columns per node of the row side, up to 512 nodes)
    row_buffers = _core.row_work_bytes(10)
    assert ted_table_bytes(10, 10, threads=2) == 2 * ((100 + 121) * 12 + row_buffers)
    assert 2 * 10 * 4128 * 4 < row_buffers < 2 * 10 * 4128 * 4 + (1 << 20)
    assert _core.row_work_bytes(100_000) == _core.row_work_bytes(512) > _core.row_work_bytes(511)


def _write(path, heads):
    with open(path, "w", encoding="utf-8") as f:
        f.write("# sent_id = big\n")
        for k, h in enumerate(heads, 1):
            f.write(f"{k}\tw{k}\tw\tNOUN\t_\t_\t{h}\t{'root' if h == 0 else 'dep'}\t_\t_\n")
        f.write("\n")


@pytest.fixture(scope="module")
def big_files(tmp_path_factory):
    root = tmp_path_factory.mktemp("big")
    shapes = {"flat": [0] + [1] * (N - 1), "chain": [0] + list(range(1, N))}
    for name, heads in shapes.items():
        _write(root / f"{name}.conllu", heads)
        _write(root / f"{name}2.conllu", heads[:-1] + [2 if name == "flat" else 1])
    return root


def _run(*args):
    done = subprocess.run([sys.executable, "-m", "spacy_agreement.cli", *args], capture_output=True, text=True,
                          timeout=60)
    peak_gib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / (1 << 20)  # KiB on Linux
    assert peak_gib < 6, f"{args}: {peak_gib:.1f} GiB"
    return done


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["flat", "chain"])
def test_huge_sentences_answer_with_a_result_or_one_line(big_files, shape):
    gold, pred = str(big_files / f"{shape}.conllu"), str(big_files / f"{shape}2.conllu")
    for command in (["alpha", gold, pred], ["report", gold, pred, "--html", str(big_files / "r.html")]):
        done = _run(*command, "--max-memory", "1")
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 1 and len(lines) == 1, done.stderr
        assert lines[0].startswith(f"{gold}:1: sentence 1 (sent_id big): the tree edit distance of trees of 20,001")
        assert "GiB of tables" in lines[0] and "over the limit of 1.0 GiB" in lines[0]
    done = _run("evaluate", gold, pred, "--max-memory", "1", "--json")
    assert done.returncode == 0, done.stderr
    import json

    values = json.loads(done.stdout)
    assert values["las"] == pytest.approx((N - 1) / N) and values["ted"] is None
    assert values["sentences_over_limits"] == 1 and "tree edit distance" in values["over_limits"][0]
    done = _run("leaf-ancestor", gold, pred, "--json")
    assert done.returncode == 0, done.stderr
    values = json.loads(done.stdout)
    if shape == "chain":  # 2·10⁸ lineage labels: skipped with the reason
        assert values["sentences_skipped"] == 1 and "too deep for leaf-ancestor" in values["skipped"][0]
    else:
        assert values["leaf_ancestor_words"] > 0.99
