"""Exact α on a CUDA GPU (``--backend gpu``) against the CPU kernel, on the shared PCEDT-scale corpus.

    python benchmarks/bench_gpu.py [--corpus DIR] [--threads 2] [--items N]

Needs the extra ``gpu`` and an NVIDIA GPU (or ``NUMBA_ENABLE_CUDASIM=1`` with a small ``--items``
to check the script itself). Prints, in one run: the device; the GPU kernel's time for all pairs
of distinct annotations (``expected_sums_gpu``, transfers and launches included, after one
warm-up that compiles the kernel) and its picoseconds per Zhang–Shasha DP cell (the left-path
cells it computes) and per cell-equivalent (the cheaper orientation's, as in bench_kernel.py);
the wall time of ``spacy-agreement alpha --dirs ... --alpha exact --backend gpu`` (reading the
files included) beside the CPU backend's with ``--threads N``, and whether the two α agree to
the last digit; an estimate for 100,000 trees from the measured rate. Not a test: nothing
asserts a time.
"""
import argparse
import json
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


def alpha_cli(dirs, *options):
    command = ["spacy-agreement", "alpha", "--dirs", *map(str, dirs), "--alpha", "exact", "--json", "--quiet",
               *options]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, json.loads(done.stdout)


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

    expected_sums_gpu(forest, sizes, counts)  # compiles the kernel
    start = time.perf_counter()
    gpu_sums = expected_sums_gpu(forest, sizes, counts)
    kernel_s = time.perf_counter() - start
    cpu_sums = expected_sums(forest, sizes, counts, n_threads=args.threads, forest_trees=trees)
    same = list(gpu_sums[:2]) == list(cpu_sums[:2])
    print(f"\nGPU sums, all pairs: {kernel_s:.2f} s ({1e12 * kernel_s / cells:.1f} ps per DP cell, "
          f"{1e12 * kernel_s / cheaper:.1f} ps per cell-equivalent); δplain and δdiff sums "
          f"{'equal to' if same else 'DIFFERENT from'} the CPU kernel's, δnorm within "
          f"{abs(gpu_sums[2] - cpu_sums[2]) / max(abs(cpu_sums[2]), 1e-300):.1e}")
    gpu_wall, gpu_out = alpha_cli(dirs, "--backend", "gpu")
    cpu_wall, cpu_out = alpha_cli(dirs, "--threads", str(args.threads))
    keys = ("alpha_plain", "alpha_diff", "alpha_norm")
    print(f"spacy-agreement alpha --backend gpu: {gpu_wall:.1f} s wall; --threads {args.threads}: {cpu_wall:.1f} s "
          f"wall; α equal to the last digit: {all(gpu_out[k] == cpu_out[k] for k in keys[:2])} "
          f"(plain, diff), αnorm {gpu_out['alpha_norm']!r} vs {cpu_out['alpha_norm']!r}")
    per_pair = cells / max(pairs, 1)
    big = 100_000 * 99_999 / 2
    print(f"estimate for 100,000 trees of this corpus's sizes: {big:.3g} pairs x {per_pair:.0f} cells at "
          f"{1e12 * kernel_s / cells:.1f} ps = {big * per_pair * kernel_s / cells / 60:.1f} min of kernel time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
