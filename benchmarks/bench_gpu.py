"""Exact α on a CUDA GPU (``--backend gpu``) against the CPU kernel, on the shared PCEDT-scale corpus.

    python benchmarks/bench_gpu.py [--corpus DIR] [--threads 2] [--items N]

Needs the extra ``gpu`` and an NVIDIA GPU (or ``NUMBA_ENABLE_CUDASIM=1`` with a small ``--items``
to check the script itself). Prints, in one run: the device; the GPU kernel's time for all pairs
of distinct annotations (``expected_sums_gpu``, transfers and launches included, after one
warm-up that compiles the kernel) and its picoseconds per Zhang–Shasha DP cell (the left-path
cells it computes) and per cell-equivalent (the cheaper orientation's, as in bench_kernel.py);
the wall time of ``spacy-agreement alpha --dirs ... --alpha exact --backend gpu`` (reading the
files included) beside the CPU backend's with ``--threads N``, and whether the two α agree to
the last digit; the GPU command twice in a row with an empty Numba cache folder
(``NUMBA_CACHE_DIR``): the first process compiles the kernel and writes it to the cache, the
second loads it; where each command's time goes (the same commands, timed inside: imports, the
CUDA check, reading and converting the files, the sums, and within the GPU sums the context,
compiling or loading the kernel, transfers and launches); an estimate for 100,000 trees from
the measured rate. Not a test: nothing asserts a time.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import spacy_agreement as sa
from spacy_agreement import _core
from spacy_agreement.agreement.alpha import pairable_trees
from spacy_agreement.agreement.engine import deduplicate, expected_sums, Mirror
from spacy_agreement.agreement.gpu import cuda_module, expected_sums_gpu
from spacy_agreement.trees import Forest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_kernel import SHARED, annotator_dirs  # noqa: E402
from bench_ted import machine  # noqa: E402


def alpha_args(dirs, *options):
    return ["alpha", "--dirs", *map(str, dirs), "--alpha", "exact", "--json", "--quiet", *options]


def alpha_cli(dirs, *options, env=None):
    start = time.perf_counter()
    done = subprocess.run(["spacy-agreement", *alpha_args(dirs, *options)], capture_output=True, text=True,
                          check=True, env=env)
    return time.perf_counter() - start, json.loads(done.stdout)


#: The command ``spacy-agreement alpha`` in a child process with timers around its parts (argv:
#: the JSON file for the timings, then the command's arguments). Time stamps in seconds from
#: the child's first line; the interpreter's start is the parent's wall time less ``end``.
TIMED_CLI = r'''
import json, sys, time
t0 = time.perf_counter()
record, sys.argv = sys.argv[1], ["spacy-agreement", *sys.argv[2:]]
from spacy_agreement import cli
from spacy_agreement.agreement import alpha, gpu
spans = {"import": [(0.0, time.perf_counter() - t0)]}

def timed(module, name, label):
    inner = getattr(module, name)
    def wrapper(*args, **kwargs):
        start = time.perf_counter() - t0
        try:
            return inner(*args, **kwargs)
        finally:
            spans.setdefault(label, []).append((start, time.perf_counter() - t0))
    setattr(module, name, wrapper)

timed(gpu, "cuda_module", "cuda check")
timed(gpu, "expected_sums_gpu", "sums")
timed(alpha, "expected_sums", "sums")
timed(gpu, "_kernel", "kernel object")
launch = gpu._launch

def first_compiles(kernel, blocks, tpb, args):
    # the first launch: compile (or load from the cache) for the launch's types, timed apart
    if "kernel compile or load" not in spans and hasattr(kernel, "typeof_pyval"):  # (not the simulator)
        start = time.perf_counter() - t0
        try:
            kernel.compile(tuple(kernel.typeof_pyval(a) for a in args))
            spans["kernel compile or load"] = [(start, time.perf_counter() - t0)]
        except Exception as exc:  # left to the launch, untimed
            spans["kernel compile failed: " + type(exc).__name__] = [(start, time.perf_counter() - t0)]
    return launch(kernel, blocks, tpb, args)

gpu._launch = first_compiles
code = 0
try:
    cli.main()
except SystemExit as exc:
    code = exc.code or 0
finally:
    cache = gpu.kernel_cache() if gpu._kernels else None
    with open(record, "w") as out:
        json.dump({"spans": spans, "end": time.perf_counter() - t0, "cache": cache}, out)
sys.exit(code)
'''


def timed_cli(dirs, *options, env=None):
    """The command with timers inside (:data:`TIMED_CLI`): its wall time and its parts."""
    with tempfile.NamedTemporaryFile(suffix=".json") as record:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", TIMED_CLI, record.name, *alpha_args(dirs, *options)],
                       capture_output=True, text=True, check=True, env=env)
        wall = time.perf_counter() - start
        timings = json.loads(Path(record.name).read_text())
    return wall, timings


def breakdown(wall, timings):
    """The parts of one timed command, in seconds: interpreter start and exit, imports, the CUDA
    check, the sums (within the GPU's: context and setup, kernel compile or load, transfers and
    launches) and the rest (reading and converting the files, the observed sums, the output)."""
    spans = timings["spans"]
    took = {label: sum(end - start for start, end in spans.get(label, ())) for label in spans}
    parts = {"interpreter start and exit": wall - timings["end"], "imports": took.get("import", 0.0)}
    cuda_checks = spans.get("cuda check", ())
    sums = spans.get("sums", ())
    first_sums = sums[0][0] if sums else timings["end"]
    # the CUDA check before the files are read (later ones run inside the sums)
    parts["CUDA check (numba.cuda, driver)"] = sum(end - start for start, end in cuda_checks if end <= first_sums)
    parts["sums"] = took.get("sums", 0.0)
    if "kernel compile or load" in spans:
        (kernel_start, kernel_end), = spans["kernel compile or load"]
        made = spans.get("kernel object", [(kernel_start, kernel_start)])[0][0]
        parts["  of which context, setup"] = made - first_sums
        parts["  of which kernel objects"] = took.get("kernel object", 0.0)
        parts["  of which kernel compile or load"] = kernel_end - kernel_start
        parts["  of which transfers, launches"] = sums[-1][1] - kernel_end
    parts["reading, converting, the rest"] = (timings["end"] - parts["imports"]
                                              - parts["CUDA check (numba.cuda, driver)"] - parts["sums"])
    return parts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="folder of make_corpus.py's annotator-K.conllu files")
    parser.add_argument("--threads", type=int, default=2, help="threads of the CPU backend it is compared with")
    parser.add_argument("--items", type=int, help="only the first N sentences (a quick check)")
    args = parser.parse_args(argv)
    cuda = cuda_module()
    tmp = Path(tempfile.mkdtemp())
    if args.corpus is None:
        args.corpus = tmp / "corpus"
        subprocess.run([sys.executable, str(SHARED / "make_corpus.py"), "--out", str(args.corpus)], check=True)
    dirs = annotator_dirs(args.corpus, tmp / "dirs")
    if args.items:
        keep = sorted({p.name.rsplit("-", 1)[0] for p in dirs[0].iterdir()})[:args.items]
        for folder in dirs:
            for path in folder.iterdir():
                if path.name.rsplit("-", 1)[0] not in keep:
                    path.unlink()
    print(machine())
    device = cuda.get_current_device()
    print(f"device: {getattr(device, 'name', device)}")
    corpus = sa.load_annotator_dirs(dirs)
    converted = pairable_trees(corpus)
    distinct, counts, _ = deduplicate(converted.trees, converted.sizes)
    trees = [converted.trees[i] for i in distinct]
    forest = Forest.from_trees(trees)
    sizes = np.asarray(converted.sizes, dtype=np.int64)[distinct]
    mirror = Mirror(*_core.mirror_forest(*forest.arrays()))
    left, right = mirror.cost_left.astype(float), mirror.cost_right.astype(float)
    n = len(trees)
    pairs = n * (n - 1) // 2
    cells = (left.sum() ** 2 - (left ** 2).sum()) / 2  # Σ over pairs of L_i L_j, the cells computed
    upper = np.triu_indices(n, 1) if n <= 3000 else None
    if upper is not None:
        cheaper = np.minimum(left[upper[0]] * left[upper[1]], right[upper[0]] * right[upper[1]]).sum()
    else:  # the orientation split in rows, without every pair at once
        cheaper = sum(np.minimum(left[i] * left[i + 1:], right[i] * right[i + 1:]).sum() for i in range(n - 1))
    print(f"corpus: {len(corpus)} sentences, {len(converted.trees)} annotations, {n} distinct; {pairs:,} pairs, "
          f"{cells:.3g} DP cells (left paths), {cheaper:.3g} cell-equivalents (cheaper orientation)")

    expected_sums_gpu(forest, sizes, counts)  # compiles the kernel, or loads it from Numba's cache
    start = time.perf_counter()
    gpu_sums = expected_sums_gpu(forest, sizes, counts)
    kernel_s = time.perf_counter() - start
    cpu_sums = expected_sums(forest, sizes, counts, n_threads=args.threads, forest_trees=trees)
    same = list(gpu_sums[:2]) == list(cpu_sums[:2])
    print(f"\nGPU sums, all pairs: {kernel_s:.2f} s ({1e12 * kernel_s / cells:.1f} ps per DP cell, "
          f"{1e12 * kernel_s / cheaper:.1f} ps per cell-equivalent); δplain and δdiff sums "
          f"{'equal to' if same else 'DIFFERENT from'} the CPU kernel's, δnorm within "
          f"{abs(gpu_sums[2] - cpu_sums[2]) / max(abs(cpu_sums[2]), 1e-300):.1e}")
    # the GPU command twice in a row on an empty cache folder: the first compiles, the second loads
    cold_env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp / "numba-cache")}
    gpu_wall, gpu_out = alpha_cli(dirs, "--backend", "gpu", env=cold_env)
    warm_wall, warm_out = alpha_cli(dirs, "--backend", "gpu", env=cold_env)
    cpu_wall, cpu_out = alpha_cli(dirs, "--threads", str(args.threads))
    keys = ("alpha_plain", "alpha_diff", "alpha_norm")
    print(f"spacy-agreement alpha --backend gpu: {gpu_wall:.1f} s wall (first process: compiles the kernel, "
          f"writes the cache), {warm_wall:.1f} s (second process: loads it); --threads {args.threads}: "
          f"{cpu_wall:.1f} s wall; α equal to the last digit: {all(gpu_out[k] == cpu_out[k] for k in keys[:2])} "
          f"(plain, diff), αnorm {gpu_out['alpha_norm']!r} vs {cpu_out['alpha_norm']!r}; the two GPU runs' α "
          f"{'equal' if all(gpu_out[k] == warm_out[k] for k in keys) else 'DIFFERENT'}")
    timed_env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp / "numba-cache-timed")}
    try:
        runs = {"gpu, first process": timed_cli(dirs, "--backend", "gpu", env=timed_env),
                "gpu, second process": timed_cli(dirs, "--backend", "gpu", env=timed_env),
                f"--threads {args.threads}": timed_cli(dirs, "--threads", str(args.threads))}
    except subprocess.CalledProcessError as exc:
        print(f"the timed command failed ({exc.returncode}): {exc.stderr[-2000:]}")
        runs = {}
    tables = {name: breakdown(*run) for name, run in runs.items()}
    for name, (_, timings) in runs.items():
        for label in timings["spans"]:
            if label.startswith("kernel compile failed"):
                print(f"{name}: {label}")
    rows = list(dict.fromkeys(row for table in tables.values() for row in table))
    print(f"\nwhere the time goes (s), the same commands timed inside:\n{'':36}"
          + "".join(f"{name:>22}" for name in tables))
    for row in rows:
        print(f"{row:36}" + "".join(f"{table[row]:22.2f}" if row in table else f"{'':22}"
                                    for table in tables.values()))
    print(f"{'wall':36}" + "".join(f"{run[0]:22.2f}" for run in runs.values()))
    for name, (_, timings) in runs.items():
        if timings["cache"]:
            folder, hits, misses = timings["cache"]
            print(f"{name}: kernel cache {folder}: {hits} hit(s), {misses} miss(es)")
    per_pair = cells / max(pairs, 1)
    big = 100_000 * 99_999 / 2
    print(f"estimate for 100,000 trees of this corpus's sizes: {big:.3g} pairs x {per_pair:.0f} cells at "
          f"{1e12 * kernel_s / cells:.1f} ps = {big * per_pair * kernel_s / cells / 60:.1f} min of kernel time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
