"""α at corpus scale: the deduplicated threaded path, the Dask path and the serial loop agree;
sampled and bootstrap intervals behave."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spacy_agreement as sa
from spacy_agreement.agreement.engine import deduplicate, row_chunks
from spacy_agreement.agreement.estimate import bootstrap_alpha, sampled_alpha
from spacy_agreement.trees import OrderedTree

from ..strategies import dependency_heads

FILES = {
    "NDT 1": ("ndt/odin-danish.conll", "ndt/thor-danish.conll"),
    "NDT 2": ("ndt/odin-swedish.conll", "ndt/thor-swedish.conll"),
    "NDT 3": ("ndt/odin-norwegian.conll", "ndt/thor-norwegian.conll"),
    "CDT (da)": ("cdt/da-lotte.conll", "cdt/da-morten.conll"),
}


def same(a, b):
    for kind in ("plain", "diff", "norm"):
        assert a[kind] == pytest.approx(b[kind], rel=1e-12, abs=1e-12)
    assert a.observed == pytest.approx(b.observed) and a.expected == pytest.approx(b.expected)


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.slow
@pytest.mark.parametrize("row", sorted(FILES))
def test_all_paths_agree_on_the_iaa_data(iaa, row, dask_client):
    corpus = sa.load_parallel_files([iaa / f for f in FILES[row]])
    serial = sa.alpha(corpus, backend="serial")
    same(sa.alpha(corpus), serial)
    same(sa.alpha(corpus, n_threads=1), serial)
    same(sa.alpha(corpus, n_threads=2, progress=True), serial)
    same(sa.alpha(corpus, backend="dask", scheduler=dask_client), serial)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.one_of(st.none(), dependency_heads(max_tokens=5)), min_size=3, max_size=3),
                min_size=2, max_size=12))
def test_threads_and_serial_agree_on_random_corpora(raw):
    items = [[None if t is None else sa.DependencyTree.create(*t) for t in item] for item in raw]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sa.UndefinedMetricWarning)
        serial = sa.alpha(items, backend="serial")
        threaded = sa.alpha(items, n_threads=2)
    for kind in ("plain", "diff", "norm"):
        if np.isnan(serial[kind]):
            assert np.isnan(threaded[kind])
        else:
            assert threaded[kind] == pytest.approx(serial[kind], rel=1e-12, abs=1e-12)


def test_deduplicate_counts_and_orders_by_size():
    def tree(labels, parent):
        return OrderedTree.from_parents(np.array(labels), np.array(parent))

    a, b, c = tree([1, 0], [1, -1]), tree([2, 1, 0], [2, 2, -1]), tree([1, 0], [1, -1])
    distinct, counts, of_tree = deduplicate([a, b, c, a], [2, 3, 2, 2])
    assert distinct == [1, 0] and counts.tolist() == [1, 3] and of_tree.tolist() == [1, 0, 1, 1]
    # the same tree with another size |x| (tokens dropped from a cycle) stays apart
    distinct, counts, _ = deduplicate([a, c], [2, 3])
    assert len(distinct) == 2


@pytest.mark.parametrize("n, chunks", [(2, 5), (10, 3), (1000, 64), (7, 1)])
def test_row_chunks_cover_every_row_once(n, chunks):
    ranges = row_chunks(n, chunks)
    assert ranges[0][0] == 0 and ranges[-1][1] == n
    assert all(a < b for a, b in ranges) and all(x[1] == y[0] for x, y in zip(ranges, ranges[1:]))
    if n > 100:  # about equal numbers of pairs
        pairs = [sum(n - 1 - i for i in range(a, b)) for a, b in ranges]
        assert max(pairs) < 2.5 * (n * (n - 1) / 2) / len(ranges)


def test_sampled_alpha_covers_the_exact_value(iaa):
    corpus = sa.load_parallel_files([iaa / f for f in FILES["NDT 1"]])
    exact = sa.alpha(corpus)
    inside = 0
    for seed in range(20):
        estimate = sampled_alpha(corpus, pairs=5000, seed=seed)
        assert estimate.high["plain"] - estimate.low["plain"] < 0.002
        inside += estimate.low["plain"] <= exact.alpha_plain <= estimate.high["plain"]
    assert inside >= 18


def test_bootstrap_interval(iaa):
    corpus = sa.load_parallel_files([iaa / f for f in FILES["CDT (da)"]])
    result = sa.alpha(corpus)
    interval = bootstrap_alpha(result, samples=500, seed=3)
    for kind in ("plain", "diff", "norm"):
        assert interval.low[kind] < result[kind] < interval.high[kind]
    assert interval.to_dict() == bootstrap_alpha(result, samples=500, seed=3).to_dict()
    wider = bootstrap_alpha(result, samples=500, seed=3, confidence=0.99)
    assert wider.low["plain"] <= interval.low["plain"] and wider.high["plain"] >= interval.high["plain"]


def test_cli_scale_options(iaa):
    import json

    from typer.testing import CliRunner

    from spacy_agreement.cli import app

    files = [str(iaa / f) for f in FILES["NDT 2"]]
    exact = json.loads(CliRunner().invoke(app, ["alpha", *files, "--json", "--backend", "serial"]).output)
    threaded = json.loads(CliRunner().invoke(app, ["alpha", *files, "--json", "--threads", "2", "--bootstrap", "200"]).output)
    assert threaded["alpha_plain"] == pytest.approx(exact["alpha_plain"], rel=1e-12)
    assert threaded["alpha_plain_low"] < exact["alpha_plain"] < threaded["alpha_plain_high"]
    sampled = json.loads(CliRunner().invoke(app, ["alpha", *files, "--json", "--sample-pairs", "4000"]).output)
    assert sampled["alpha_plain_low"] <= sampled["alpha_plain"] <= sampled["alpha_plain_high"]
    assert abs(sampled["alpha_plain"] - exact["alpha_plain"]) < 0.005 and sampled["las"] == exact["las"]
    bad = CliRunner().invoke(app, ["alpha", *files, "--backend", "tpu"])
    assert bad.exit_code == 1 and "unknown backend" in bad.output


@pytest.mark.slow
def test_ctrl_c_stops_a_long_alpha_cleanly(tmp_path):
    """SIGINT during a multi-second α: the run stops between chunks, within a second or so."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    bench = Path(__file__).resolve().parents[2] / "benchmarks"
    subprocess.run([sys.executable, str(bench / "make_pcedt_scale.py"), str(tmp_path / "c"), "--sentences", "2500"],
                   check=True, capture_output=True)
    code = ("import sys, spacy_agreement as sa; from pathlib import Path; "
            f"c = sa.load_annotator_dirs(sorted(p for p in Path(r'{tmp_path / 'c'}').iterdir())); "
            "print('ready', flush=True); sa.alpha(c, n_threads=2); print('finished', flush=True)")
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert time.monotonic() - sent < 5
    assert "finished" not in out and "KeyboardInterrupt" in err and process.returncode != 0
