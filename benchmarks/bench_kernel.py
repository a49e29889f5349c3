"""ns per Zhang–Shasha cell-equivalent of the all-pairs kernel on the shared PCEDT-scale corpus,
beside the plain scalar kernel, edist, and the wall time of the exact α from the command line.

    python benchmarks/bench_kernel.py [--corpus DIR] [--rows 30] [--threads 2]

A *cell-equivalent* is one DP cell of a plain Zhang–Shasha run on the pair in its cheaper
orientation (left paths, or both trees mirrored): time per pair divided by that count, so
that fewer cells and faster cells both count. The corpus is written by
``../shared/bench/make_corpus.py`` (three annotator files aligned by ``# sent_id``), turned
into annotator directories here. Timed in one run, on the same pairs (``--rows`` rows i of the
pair triangle as α's sums order it, in random runs of 10, every j > i; one thread): the all-pairs kernel
(``_core.expected_sums_rows`` with the layouts built once, as α runs it) with every unit-cost
kernel of ``_core.row_kernels()`` (``classic`` is the per-keyroot-pair kernel kept as the
reference), the pair kernel ``forest_ted_pairs`` on the same pairs, a minimal textbook
Zhang–Shasha in C compiled here with ``cc -O2`` (the plain kernel the ratios are taken
against, and scaled to the corpus README's 5.5 ns per cell), edist's
``standard_ted`` on the first pairs of those rows, and ``spacy-agreement alpha --dirs ...
--alpha exact --threads N``. Not a test: nothing asserts a time.
"""
import argparse
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import spacy_agreement as sa
from spacy_agreement import _core
from spacy_agreement.agreement.engine import oriented, row_layouts
from spacy_agreement.trees import Forest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ted import children_lists, machine  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "bench"
#: The plain C Zhang–Shasha (gcc -O2) of the corpus README, in ns per cell on its machines.
PLAIN_C_NS = 5.5


def annotator_dirs(corpus: Path, out: Path):
    """One directory per annotator file, one ``<sent_id>-annK.conll`` file per sentence."""
    dirs = []
    for path in sorted(corpus.glob("annotator-*.conllu")):
        name = "ann" + path.stem.split("-", 1)[1]
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        for block in path.read_text(encoding="utf-8").split("\n\n"):
            found = re.search(r"^# sent_id = (\S+)", block, flags=re.M)
            if found:
                (folder / f"{found.group(1)}-{name}.conll").write_text(block.strip("\n") + "\n\n", encoding="utf-8")
        dirs.append(folder)
    return dirs


#: A minimal textbook Zhang–Shasha in C (unit costs, one table per keyroot pair), compiled
#: with ``cc -O2`` at run time: the "plain scalar kernel" the issue's figures are relative to.
PLAIN_C = r"""
#include <stdint.h>
#define MIN(a, b) ((a) < (b) ? (a) : (b))
static int zs(const int32_t* l1, const int32_t* m1, const int32_t* k1, int n1, int nk1,
              const int32_t* l2, const int32_t* m2, const int32_t* k2, int n2, int nk2, int* td, int* fd) {
    int w = n2 + 1;
    for (int a = 0; a < nk1; a++) { int i = k1[a], li = m1[i], mi = i - li + 1;
      for (int b = 0; b < nk2; b++) { int j = k2[b], lj = m2[j], mj = j - lj + 1;
        fd[0] = 0;
        for (int di = 1; di <= mi; di++) fd[di * w] = fd[(di - 1) * w] + 1;
        for (int dj = 1; dj <= mj; dj++) fd[dj] = fd[dj - 1] + 1;
        for (int di = 1; di <= mi; di++) { int x = li + di - 1;
          for (int dj = 1; dj <= mj; dj++) { int y = lj + dj - 1;
            int best = MIN(fd[(di - 1) * w + dj] + 1, fd[di * w + dj - 1] + 1);
            if (m1[x] == li && m2[y] == lj) {
              best = MIN(best, fd[(di - 1) * w + dj - 1] + (l1[x] != l2[y]));
              fd[di * w + dj] = best; td[x * n2 + y] = best;
            } else {
              fd[di * w + dj] = MIN(best, fd[(m1[x] - li) * w + m2[y] - lj] + td[x * n2 + y]);
            } } } } }
    return td[(n1 - 1) * n2 + n2 - 1];
}
void plain_pairs(const int32_t* lab, const int32_t* lml, const int64_t* off, const int32_t* kr, const int64_t* kro,
                 const int64_t* left, const int64_t* right, int64_t n, int* td, int* fd, double* out) {
    for (int64_t k = 0; k < n; k++) { int64_t a = left[k], b = right[k];
        out[k] = zs(lab + off[a], lml + off[a], kr + kro[a], off[a + 1] - off[a], kro[a + 1] - kro[a],
                    lab + off[b], lml + off[b], kr + kro[b], off[b + 1] - off[b], kro[b + 1] - kro[b], td, fd); }
}
"""


def plain_c(tmp: Path):
    """The compiled PLAIN_C kernel as a function of (forest, left, right), or None without cc."""
    import ctypes

    source, library = tmp / "plain.c", tmp / "plain.so"
    source.write_text(PLAIN_C)
    try:
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(library), str(source)], check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"no plain C kernel: cc failed ({error})")
        return None
    lib = ctypes.CDLL(str(library))

    def run(forest, left, right):
        m = int(np.diff(forest.offsets).max())
        td, fd = np.empty(m * m, dtype=np.intc), np.empty((m + 1) * (m + 1), dtype=np.intc)
        out = np.empty(len(left))
        arrays = [np.ascontiguousarray(a) for a in (*forest.arrays(), left, right)]
        pointer = [a.ctypes.data_as(ctypes.c_void_p) for a in arrays]
        lib.plain_pairs(*pointer, ctypes.c_int64(len(left)), td.ctypes.data_as(ctypes.c_void_p),
                        fd.ctypes.data_as(ctypes.c_void_p), out.ctypes.data_as(ctypes.c_void_p))
        return out

    return run


def triangle_rows(n, rows, run=10, seed=0):
    """About ``rows`` rows of the pair triangle in random runs of ``run`` consecutive rows (one
    kernel call each, as α's chunks are), and their pairs (i, j > i)."""
    starts = np.random.default_rng(seed).choice(max(1, n - run), size=max(1, rows // run), replace=False)
    ranges = [(int(a), min(int(a) + run, n - 1)) for a in np.sort(starts)]
    chosen = np.concatenate([np.arange(a, b) for a, b in ranges])
    left = np.repeat(chosen, n - 1 - chosen)
    right = np.concatenate([np.arange(i + 1, n) for i in chosen])
    return ranges, left.astype(np.int64), right.astype(np.int64)


def oriented_corpus(dirs):
    """The annotations of the annotator folders as α's all-pairs sums see them: (trees given,
    forest ordered by cost ratio, sizes, order, mirror, the mirrored forest)."""
    corpus = sa.load_annotator_dirs(dirs)
    vocab = sa.LabelVocab()
    given = [t.to_ordered(vocab)[0] for item in corpus.items for t in item.values()]
    sizes = np.array([t.size for t in given], dtype=np.int64)
    forest, sizes, order, mirror = oriented(Forest.from_trees(given), sizes, np.arange(len(given), dtype=float), None,
                                           given)
    mirrored = Forest(mirror.labels, mirror.lml, forest.offsets, mirror.keyroots, mirror.kr_offsets)
    return corpus, given, forest, sizes, order, mirror, mirrored


def timed_pairs(forest, mirror, rows):
    """``rows`` rows of the pair triangle (:func:`triangle_rows`), each pair's cheaper orientation
    (``flip``: mirrored) and its cell-equivalents: (ranges, left, right, flip, cells)."""
    ranges, left, right = triangle_rows(len(forest), rows)
    flip = mirror.cost_right[left] * mirror.cost_right[right] < mirror.cost_left[left] * mirror.cost_left[right]
    cells = np.where(flip, mirror.cost_right[left] * mirror.cost_right[right],
                     mirror.cost_left[left] * mirror.cost_left[right]).astype(float)
    return ranges, left, right, flip, cells


def both_orientations(kernel, forest, mirrored, left, right, flip):
    """``kernel(forest, left, right)`` over the pairs, each in its cheaper orientation."""
    out = np.empty(len(left))
    out[~flip] = kernel(forest, left[~flip], right[~flip])
    out[flip] = kernel(mirrored, left[flip], right[flip])
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="folder of make_corpus.py's annotator-K.conllu files")
    parser.add_argument("--rows", type=int, default=30)
    parser.add_argument("--edist-pairs", type=int, default=3000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--skip-cli", action="store_true")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp())
    if args.corpus is None:
        args.corpus = tmp / "corpus"
        subprocess.run([sys.executable, str(SHARED / "make_corpus.py"), "--out", str(args.corpus)], check=True)
    dirs = annotator_dirs(args.corpus, tmp / "dirs")
    print(machine())
    # the trees as α's all-pairs sums see them: ordered by cost ratio, with their mirror
    corpus, given, forest, sizes, order, mirror, mirrored = oriented_corpus(dirs)
    trees, counts = [given[int(t)] for t in order], np.ones(len(given))
    start = time.perf_counter()
    layouts = row_layouts(forest.arrays(), mirror)
    layout_s = time.perf_counter() - start
    ranges, left, right, flip, cells = timed_pairs(forest, mirror, args.rows)
    print(f"corpus: {len(corpus)} sentences, {len(forest)} annotations; timed: {len(left):,} pairs "
          f"({sum(b - a for a, b in ranges)} rows i of the pair triangle in {len(ranges)} runs, all j > i), "
          f"{cells.sum():.3g} cell-equivalents, "
          f"{cells.mean():.0f} per pair; layouts of the forest and its mirror built once: {layout_s:.3f} s")

    def best(run):
        """Best of three (after one warm-up) of ``run()``: (seconds, value)."""
        def once():
            start = time.perf_counter()
            value = run()
            return time.perf_counter() - start, value

        once()
        return min((once() for _ in range(3)), key=lambda r: r[0])

    def all_pairs_sums():
        """The all-pairs kernel as α runs it: the rows' sums, one thread, layouts built."""
        return sum(_core.expected_sums_rows(*forest.arrays(), sizes, counts, a, b, 1, None, mirror, layouts)
                   for a, b in ranges)

    def plain_sums(kernel):
        return lambda: both_orientations(kernel, forest, mirrored, left, right, flip)

    results = {}
    plain = plain_c(tmp)
    if plain is not None:
        seconds, values = best(plain_sums(plain))
        results["plain C (cc -O2)"] = (seconds, 2.0 * float(np.sum(values ** 2)))
        reference = values
    for kernel in _core.row_kernels():
        _core.use_row_kernel(kernel)
        seconds, sums = best(all_pairs_sums)
        results[kernel] = (seconds, float(sums[0]))
    _core.use_row_kernel("auto")
    seconds, values = best(plain_sums(lambda f, a, b: _core.forest_ted_pairs(*f.arrays(), a, b)))
    results[f"{_core.row_kernel()}, forest_ted_pairs"] = (seconds, 2.0 * float(np.sum(values ** 2)))
    if plain is None:
        reference = values
    base = "plain C (cc -O2)" if plain is not None else "classic"
    for kernel, (_, plain_sum) in results.items():  # Σ 2 δplain² is an exact integer in float64
        assert plain_sum == results["classic"][1], f"{kernel} differs from the classic kernel"
    from edist.ted import standard_ted

    k = min(args.edist_pairs, len(left))
    converted = {}
    for t in set(left[:k].tolist()) | set(right[:k].tolist()):
        converted[t] = children_lists(trees[t])
    start = time.perf_counter()
    edist = [standard_ted(*converted[a], *converted[b]) for a, b in zip(left[:k].tolist(), right[:k].tolist())]
    edist_s = time.perf_counter() - start
    assert np.array_equal(np.array(edist, dtype=float), reference[:k]), "edist differs"
    classic_ns = results[base][0] / cells.sum() * 1e9
    print(f"\n{'kernel (1 thread)':<32} {'ns / cell-eq':>12} {'us / pair':>10} {'x ' + base[:7]:>10} "
          f"{'at 5.5 ns plain':>16}")
    for kernel, (seconds, _) in results.items():
        ns = seconds / cells.sum() * 1e9
        print(f"{kernel:<32} {ns:12.3f} {seconds / len(left) * 1e6:10.2f} {classic_ns / ns:10.2f} "
              f"{ns * PLAIN_C_NS / classic_ns:16.2f}")
    ns = edist_s / cells[:k].sum() * 1e9
    print(f"{'edist standard_ted':<32} {ns:12.3f} {edist_s / k * 1e6:10.2f} {classic_ns / ns:10.2f} "
          f"{ns * PLAIN_C_NS / classic_ns:16.2f}   ({k} pairs; all distances equal)")
    if not args.skip_cli:
        command = ["spacy-agreement", "alpha", "--dirs", *map(str, dirs), "--alpha", "exact",
                   "--threads", str(args.threads), "--json"]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        alpha = re.search(r'"alpha_plain": ([0-9.eE+-]+)', done.stdout).group(1)
        print(f"\n{' '.join(command[:3])} ... --alpha exact --threads {args.threads}: {wall:.1f} s wall, "
              f"peak {peak:.0f} MiB, alpha_plain {alpha} (kernel {_core.row_kernel()})")
        # the issue-31 yardstick: the whole command's core time per cell-equivalent of all pairs,
        # reading and preparing included, against the plain C kernel's ns per cell timed above
        total = all_pairs_cells(mirror.cost_left, mirror.cost_right)
        whole_ns = wall * args.threads / total * 1e9
        print(f"whole exact alpha: {total:.3g} cell-equivalents over all pairs, {whole_ns:.3f} ns per "
              f"cell-equivalent per thread = {whole_ns / classic_ns:.3f} x the {base} kernel")
    return 0


def all_pairs_cells(cost_left: np.ndarray, cost_right: np.ndarray, block: int = 512) -> float:
    """Σ over all pairs i < j of the cheaper orientation's Zhang–Shasha cells."""
    left, right = np.asarray(cost_left, dtype=float), np.asarray(cost_right, dtype=float)
    total = 0.0
    for a in range(0, len(left), block):
        b = min(a + block, len(left))
        cells = np.minimum(np.outer(left[a:b], left), np.outer(right[a:b], right))
        rows, cols = np.indices(cells.shape)
        total += float(cells[rows + a < cols].sum())
    return total


if __name__ == "__main__":
    sys.exit(main())
