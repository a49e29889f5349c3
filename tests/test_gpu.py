"""The GPU backend of α's all-pairs sums (spacy_agreement.agreement.gpu) against the CPU
kernel, sum by sum: on a CUDA GPU when there is one, else the same kernel in Numba's CUDA
simulator (NUMBA_ENABLE_CUDASIM=1, slow: small forests only). And the one-line answers of
``--backend gpu`` without a GPU or without the extra."""
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

if importlib.util.find_spec("numba") is None:
    pytest.skip("numba-cuda is not installed (the test extras bring it: pip install -e '.[test]')",
                allow_module_level=True)


def _real_gpu() -> bool:
    """Whether numba.cuda sees a GPU, asked in a child process (this one may still choose the
    simulator, which is fixed when numba.cuda is first imported)."""
    probe = "from numba import cuda; import sys; sys.exit(0 if cuda.is_available() else 1)"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    try:
        return subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, timeout=120).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


# before numba is imported here: the simulator is chosen once, at that import (numba.cuda is
# imported at once, and the variable put back, so that no other test's child process sees it)
SIMULATED = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
if "numba" not in sys.modules and not SIMULATED and not _real_gpu():
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    try:
        from numba import cuda  # noqa: F401
    finally:
        del os.environ["NUMBA_ENABLE_CUDASIM"]
    SIMULATED = True

import spacy_agreement as sa  # noqa: E402
from spacy_agreement import LabelVocab, _core  # noqa: E402
from spacy_agreement.agreement import gpu  # noqa: E402
from spacy_agreement.agreement.engine import expected_sums  # noqa: E402
from spacy_agreement.trees import Forest  # noqa: E402

from .strategies import labelled_trees  # noqa: E402
from .helpers import assert_same_sums, block_forest, ordered_forest, to_ordered

#: Small blocks in the simulator (a Python thread per CUDA thread).
TPB = 8 if SIMULATED else gpu.THREADS_PER_BLOCK


def gpu_sums(forest, sizes, counts, cost=None, device_bytes=None):
    return gpu.expected_sums_gpu(forest, sizes, counts, cost, device_bytes=device_bytes, threads_per_block=TPB)


@settings(max_examples=12 if SIMULATED else 60, deadline=None)
@given(st.lists(labelled_trees(max_nodes=7), min_size=2, max_size=7), st.integers(1, 3), st.booleans())
def test_gpu_sums_equal_the_cpu_kernel(trees, count, with_costs):
    """δplain and δdiff sums exactly, δnorm to rounding; with unit costs and with a label-cost
    matrix; tables small enough that the pairs need several launches."""
    ordered, forest, sizes = ordered_forest(trees)
    counts = np.arange(count, count + len(ordered), dtype=np.float64)
    cost = None
    if with_costs:
        n_labels = int(forest.labels.max()) + 1
        cost = np.random.default_rng(len(trees)).choice([0.25, 0.5, 1.0, 1.5], size=(n_labels, n_labels))
        np.fill_diagonal(cost, 0.0)
    cpu = expected_sums(forest, sizes, counts, cost=cost, n_threads=1)
    got = gpu_sums(forest, sizes, counts, cost, device_bytes=1)  # one block per launch: many launches
    if cost is None:
        assert_same_sums(got, cpu)
    else:  # fractional costs: every sum to rounding
        assert got.tolist() == pytest.approx(cpu.tolist(), rel=1e-12, abs=1e-12)


def test_gpu_sums_on_trees_of_every_size_and_shape():
    """Empty and one-node trees, a chain and bushy random trees, several launches."""
    vocab = LabelVocab()
    ordered, _, _ = block_forest(seed=9, n_trees=16 if SIMULATED else 200)
    ordered = [t for t in ordered if t.size <= (16 if SIMULATED else 600)]
    ordered += [to_ordered(("x", ()), vocab), to_ordered(("a", (("b", ()), ("c", (("d", ()),)))), vocab)]
    forest = Forest.from_trees(ordered)
    sizes = np.array([t.size for t in ordered], dtype=np.int64)
    counts = np.ones(len(ordered))
    assert_same_sums(gpu_sums(forest, sizes, counts, device_bytes=1), expected_sums(forest, sizes, counts))


def test_launches_grow_as_the_trees_shrink():
    """Trees by decreasing size, as α orders them: the later launches meet smaller trees only
    and run more threads in the same table memory; every pair is still summed once."""
    vocab = LabelVocab()
    ordered, _, _ = block_forest(seed=10, n_trees=14 if SIMULATED else 300)
    ordered = sorted((t for t in ordered if t.size <= (14 if SIMULATED else 200)), key=lambda t: -t.size)
    ordered.append(to_ordered(("x", ()), vocab))
    forest = Forest.from_trees(ordered)
    sizes = np.array([t.size for t in ordered], dtype=np.int64)
    counts = np.arange(1, len(ordered) + 1, dtype=np.float64)
    budget = 2 * TPB * gpu._table_elements(int(sizes.max())) * 2  # two blocks of the largest tree's tables
    assert gpu.threads_per_launch(int(sizes.max()), 2, budget, 10**9, TPB) == 2 * TPB
    assert gpu.threads_per_launch(3, 2, budget, 10**9, TPB) > 8 * TPB
    assert_same_sums(gpu_sums(forest, sizes, counts, device_bytes=budget), expected_sums(forest, sizes, counts))


def test_alpha_with_the_gpu_backend_equals_the_threads_backend(iaa):
    """The whole α on part of the shared CDT data (all of it on a GPU)."""
    files = [iaa / "cdt" / "da-lotte.conll", iaa / "cdt" / "da-morten.conll"]
    corpus = sa.load_parallel_files(files)
    data = corpus.items[:8] if SIMULATED else corpus
    threads = sa.alpha(data)
    on_gpu = sa.alpha(data, backend="gpu")
    assert on_gpu.alpha_plain == threads.alpha_plain and on_gpu.alpha_diff == threads.alpha_diff
    assert on_gpu.alpha_norm == pytest.approx(threads.alpha_norm, rel=1e-12)


def test_table_types_and_launch_sizes():
    assert gpu.table_dtype(100, unit=True) == np.int16
    assert gpu.table_dtype(gpu.INT16_MAX_NODES + 1, unit=True) == np.int32
    assert gpu.table_dtype(5, unit=False) == np.float64
    per_thread = (10 * 10 + 11 * 11) * 2
    assert gpu.threads_per_launch(10, 2, 1000 * per_thread, 10**9, 128) == 896  # whole blocks that fit
    assert gpu.threads_per_launch(10, 2, 10**12, 300, 128) == 384  # no more than the pairs need
    assert gpu.threads_per_launch(10, 2, 1, 10**9, 128) == 128  # at least one block
    with pytest.raises(sa.errors.BadOptionError, match="power of two"):
        gpu.expected_sums_gpu(Forest.from_trees([]), np.zeros(0), np.zeros(0), threads_per_block=96)


def _two_files(folder):
    paths = [folder / "a.conll", folder / "b.conll"]
    for path, head in zip(paths, ("2", "0")):
        path.write_text(f"1\tA\t_\tN\tN\t_\t{head}\tx\t_\t_\n2\tB\t_\tN\tN\t_\t0\troot\t_\t_\n\n",
                        encoding="utf-8")
    return paths


def _cli(args, env):
    return subprocess.run([sys.executable, "-m", "spacy_agreement.cli", *args], capture_output=True, text=True,
                          env=env, timeout=300)


def test_gpu_backend_without_a_gpu_is_one_line(tmp_path):
    """No device (hidden, simulator off): exit 1 and one line saying why, before any work."""
    env = {**{k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}, "CUDA_VISIBLE_DEVICES": ""}
    one, other = _two_files(tmp_path)
    done = _cli(["alpha", str(one), str(other), "--backend", "gpu"], env)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--backend gpu" in lines[0], done.stderr


def test_gpu_backend_without_the_extra_is_one_line(tmp_path):
    """numba missing: the line names the extra to install."""
    one, other = _two_files(tmp_path)
    hide = ("import sys; sys.modules['numba'] = None; from spacy_agreement.cli import main; "
            f"sys.argv = ['spacy-agreement', 'alpha', {str(one)!r}, {str(other)!r}, '--backend', 'gpu']; main()")
    done = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip() == "--backend gpu needs the optional extra: pip install 'spacy-agreement[gpu]'"


def test_the_kernel_constants_match_the_cpu_deltas():
    """The device sums are δplain, δdiff, δnorm in _core.KERNEL_DELTAS order."""
    assert _core.KERNEL_DELTAS == ("plain", "diff", "norm")


class _FailingKernel:
    """A kernel whose first launch fails inside Numba's compiler (as numba-cuda 0.30.4 does
    with numpy 2.5: ``module 'numpy' has no attribute 'row_stack'``)."""

    def __init__(self, compiled):
        self.overloads = {"sig": object()} if compiled else {}

    def __getitem__(self, config):
        def launch(*args):
            raise AttributeError("module 'numpy' has no attribute 'row_stack'")
        return launch


def test_a_kernel_numba_cannot_compile_is_one_option_error():
    with pytest.raises(sa.errors.BadOptionError, match=r"cannot compile the kernel with numpy .*row_stack.*numpy<2.5"):
        gpu._launch(_FailingKernel(compiled=False), 1, TPB, ())
    with pytest.raises(AttributeError):  # once compiled, a fault is the launch's own
        gpu._launch(_FailingKernel(compiled=True), 1, TPB, ())


def test_the_kernel_asks_for_the_disk_cache_and_runs_without_it(monkeypatch):
    """cuda.jit(cache=True) for the kernel and its device functions; where Numba finds no
    writable cache folder (it raises at cuda.jit) they are compiled without the cache, and the
    sums are the same. The simulator takes the option and ignores it."""
    gpu._kernel(TPB)
    real_jit, asked = gpu.cuda.jit, []

    def no_cache_folder(function, device=False, cache=False):
        asked.append((function.__name__, cache))
        if cache:
            raise RuntimeError(f"cannot cache function {function.__name__!r}: no locator available for file 'gpu.py'")
        return real_jit(function, device=device)

    monkeypatch.setattr(gpu.cuda, "jit", no_cache_folder)
    monkeypatch.setattr(gpu, "_kernels", {})
    monkeypatch.setattr(gpu, "_relabel", None)
    monkeypatch.setattr(gpu, "_ted", None)
    vocab = LabelVocab()
    ordered = [to_ordered(("a", (("b", ()), ("c", ()))), vocab), to_ordered(("a", (("c", ()),)), vocab),
               to_ordered(("x", ()), vocab)]
    forest = Forest.from_trees(ordered)
    sizes = np.array([t.size for t in ordered], dtype=np.int64)
    counts = np.ones(len(ordered))
    assert_same_sums(gpu_sums(forest, sizes, counts), expected_sums(forest, sizes, counts))
    assert asked == [("_relabel_cost", True), ("_relabel_cost", False), ("_ted_distance", True),
                     ("_ted_distance", False), ("sums", True), ("sums", False)]
    assert gpu.kernel_cache(TPB) is None


_CACHED_RUN = """
import json, sys
import numpy as np
from spacy_agreement import LabelVocab
from spacy_agreement.agreement import gpu
from spacy_agreement.trees import Forest
from tests.helpers import to_ordered
vocab = LabelVocab()
ordered = [to_ordered(("a", (("b", ()), ("c", ()))), vocab), to_ordered(("a", (("c", ()),)), vocab)]
sums = gpu.expected_sums_gpu(Forest.from_trees(ordered), np.array([3, 2]), np.ones(2))
print(json.dumps({"sums": sums.tolist(), "cache": gpu.kernel_cache()}))
"""


@pytest.mark.skipif(SIMULATED, reason="no CUDA GPU: the disk cache of the compiled kernel NOT tested "
                    "(the simulator compiles nothing)")
def test_a_second_process_loads_the_kernel_from_the_disk_cache(tmp_path):
    """The first process compiles the kernel and writes it to NUMBA_CACHE_DIR; the second
    loads it (a cache hit, no compilation) and gets the same sums."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # the checkout on the path explicitly: `python -c` leaves the working directory out under PYTHONSAFEPATH
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PYTHONPATH": path}
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", _CACHED_RUN], capture_output=True, text=True, env=env,
                              cwd=root, timeout=300)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    (first_path, first_hits, first_misses), (second_path, second_hits, second_misses) = (r["cache"] for r in runs)
    assert first_path.startswith(str(tmp_path)) and second_path == first_path
    assert (first_hits, first_misses) == (0, 1) and (second_hits, second_misses) == (1, 0)
    assert runs[0]["sums"] == runs[1]["sums"]
