"""Issue 42's table in one run: each command of ours beside the reference program it replaces, on
the same files, whole commands (interpreter start included), three runs each, median, peak memory.

    python benchmarks/bench_references.py [--brackets DIR] [--ud DIR --script conll18_ud_eval.py]
        [--corpus DIR] [--significance] [--runs 3] [--rows 30] [--threads 2] [--json FILE]

Rows (each one left out when its data is not given):

* ``evalb``: ``spacy-agreement evalb -p COLLINS.prm`` against the compiled EVALB (``DIR/evalb``, built
  from evalb.c with ``gcc -O2``) on ``DIR/wsj22x32.gld`` and ``.tst``; the two outputs must be the
  same bytes. Goal ≤ 0.8×.
* ``leaf-ancestor``: ``spacy-agreement leaf-ancestor`` (leaf-ancestor and GEIG, its defaults) on the
  same files against the same EVALB run. Goal ≤ 1.5× and ≤ 100 MB.
* ``evaluate``: ``spacy-agreement evaluate GOLD SYS`` against ``python conll18_ud_eval.py GOLD SYS``:
  ``DIR/gold4.conllu`` with ``plain4.conllu`` (same tokens; goal ≤ 0.06×) and ``sys4.conllu`` (other
  tokens, through the character alignment; goal ≤ 0.08×) — see bench_evaluate.py for how they are
  made. LAS, UAS, CLAS, MLAS and BLEX F1 must be the script's.
* ``exact α``: ``spacy-agreement alpha --dirs ... --alpha exact --threads N`` on the shared
  PCEDT-scale corpus (``../shared/bench/make_corpus.py``), per cell-equivalent and thread, against a
  plain scalar C Zhang–Shasha (bench_kernel.py's, ``cc -O2``) timed on ``--rows`` rows of the pair
  triangle in the same run. Goal ≤ 0.15×.
* ``randomization`` (``--significance``): 10,000 shuffles of 16,000 sentences, in-process, beside
  SciPy's ``permutation_test`` (0.3's path) on the same seed. Goal ≤ 2 s.

Runs alternate the reference and ours; the ratio is of the medians. Peak memory is each process's
maximum resident set (GNU time), the largest of its runs. Not a test: nothing asserts a time; a
difference in output does stop the script (exit status 1).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _measure import child_env, ours, run  # noqa: E402

Row = Dict[str, object]


def alternate(reference: Sequence[str], mine: Sequence[str], runs: int, env: Dict[str, str],
              out_dir: Path) -> Tuple[List[float], float, List[float], float]:
    """Wall times and peaks (MiB) of ``runs`` alternating runs of each, after one warm-up of each."""
    walls: Dict[str, List[float]] = {"ref": [], "ours": []}
    peaks = {"ref": 0.0, "ours": 0.0}
    for index in range(runs + 1):
        for key, command in (("ref", reference), ("ours", mine)):
            wall, peak, _ = run(command, out=out_dir / f"{key}.out", env=env)
            if index:  # the first round warms the page cache and the bytecode cache
                walls[key].append(wall)
                peaks[key] = max(peaks[key], peak)
    return walls["ref"], peaks["ref"], walls["ours"], peaks["ours"]


def row(name: str, goal: float, ref_walls: List[float], ref_peak: float, walls: List[float], peak: float,
        note: str = "") -> Row:
    ratio = statistics.median(walls) / statistics.median(ref_walls)
    return {"row": name, "reference_s": statistics.median(ref_walls), "reference_runs": ref_walls,
            "reference_peak_mib": ref_peak, "ours_s": statistics.median(walls), "ours_runs": walls,
            "ours_peak_mib": peak, "ratio": ratio, "goal": goal, "met": ratio <= goal, "note": note}


def bracket_rows(data: Path, runs: int, env: Dict[str, str], tmp: Path) -> List[Row]:
    gold, test, prm, evalb = data / "wsj22x32.gld", data / "wsj22x32.tst", data / "COLLINS.prm", data / "evalb"
    reference = [str(evalb), "-p", str(prm), str(gold), str(test)]
    found = alternate(reference, [*ours(), "evalb", "-p", str(prm), str(gold), str(test)], runs, env, tmp)
    same = (tmp / "ref.out").read_bytes() == (tmp / "ours.out").read_bytes()
    if not same:
        raise SystemExit("evalb: our output differs from the compiled EVALB's")
    rows = [row("evalb (COLLINS.prm), WSJ22 x 32", 0.8, *found, note="output byte-identical")]
    found = alternate(reference, [*ours(), "leaf-ancestor", str(gold), str(test)], runs, env, tmp)
    rows.append(row("leaf-ancestor + GEIG, same files (against EVALB)", 1.5, *found,
                    note=f"peak goal 100 MB: {'met' if found[3] <= 100 else 'not met'}"))
    return rows


def same_figures(script: Path, gold: Path, system: Path, env: Dict[str, str]) -> str:
    """The script's F1 of the five metrics against ours (bench_evaluate's readings of both); stops
    the benchmark when one differs."""
    from bench_evaluate import ours_f1, script_f1

    theirs = script_f1(str(script), str(gold), str(system), env)
    mine = ours_f1(subprocess.run([*ours(), "evaluate", str(gold), str(system), "-q", "--json"], check=True,
                                  capture_output=True, text=True, env=env).stdout, theirs)
    for metric in theirs:
        if mine[metric] != theirs[metric]:
            raise SystemExit(f"evaluate {system.name}: {metric.upper()} F1 {mine[metric]} against the script's "
                             f"{theirs[metric]}")
    return "F1 equal to the script's: " + ", ".join(f"{m.upper()} {v:.2f}" for m, v in theirs.items())


def evaluate_rows(data: Path, script: Path, runs: int, env: Dict[str, str], tmp: Path) -> List[Row]:
    gold, rows = data / "gold4.conllu", []
    for system, name, goal in (("plain4.conllu", "evaluate, same tokens, EWT dev+test x 4", 0.06),
                               ("sys4.conllu", "evaluate, other tokens (aligned), EWT dev+test x 4", 0.08)):
        if not (data / system).exists():
            continue
        reference = [sys.executable, str(script), str(gold), str(data / system)]
        found = alternate(reference, [*ours(), "evaluate", str(gold), str(data / system), "-q"], runs, env, tmp)
        rows.append(row(name, goal, *found, note=same_figures(script, gold, data / system, env)))
    return rows


def alpha_row(corpus: Path, runs: int, rows_timed: int, threads: int, env: Dict[str, str], tmp: Path) -> Row:
    """Exact α per cell-equivalent per thread against the plain C kernel, each run timing both."""
    from bench_kernel import all_pairs_cells, annotator_dirs, both_orientations, oriented_corpus, plain_c, timed_pairs

    dirs = annotator_dirs(corpus, tmp / "dirs")
    _, _, forest, _, _, mirror, mirrored = oriented_corpus(dirs)
    _, left, right, flip, cell_array = timed_pairs(forest, mirror, rows_timed)
    cells = float(cell_array.sum())
    total = all_pairs_cells(mirror.cost_left, mirror.cost_right)
    kernel = plain_c(tmp)
    if kernel is None:
        raise SystemExit("exact α: no C compiler for the plain kernel")

    def plain_ns() -> float:
        start = time.perf_counter()
        both_orientations(kernel, forest, mirrored, left, right, flip)
        return (time.perf_counter() - start) / cells * 1e9

    command = [*ours(), "alpha", "--dirs", *map(str, dirs), "--alpha", "exact", "--threads", str(threads), "--json"]
    plain_ns()  # warm-up
    run(command, env=env)
    plain, walls, ratios, peak = [], [], [], 0.0
    for _ in range(runs):
        plain.append(plain_ns())
        wall, mib, _ = run(command, out=tmp / "alpha.json", env=env)
        walls.append(wall)
        peak = max(peak, mib)
        ratios.append(wall * threads / total * 1e9 / plain[-1])
    alpha = json.loads((tmp / "alpha.json").read_text())["alpha_plain"]
    found = row(f"exact alpha, PCEDT-scale corpus, --threads {threads}, per cell-equivalent and thread", 0.15,
                plain, 0.0, [w * threads / total * 1e9 for w in walls], peak,
                note=f"alpha_plain {alpha}; wall {statistics.median(walls):.1f} s; {total:.3g} cell-equivalents; "
                     f"reference and ours in ns per cell-equivalent")
    found["ratio"], found["met"] = statistics.median(ratios), statistics.median(ratios) <= 0.15
    return found


def significance_row(runs: int) -> Row:
    code = ("import sys, time; sys.path.insert(0, %r); from bench_significance import systems, scipy_randomization; "
            "from spacy_agreement.evaluation.comparison.significance import randomization_test; "
            "a, b = systems(16000, 13, 1); randomization_test(a, b, 10, 1); f = %s; t = time.perf_counter(); "
            "v = f(a, b, 10000, 1); print(time.perf_counter() - t); print(sorted(v.items()))")
    walls: Dict[str, List[float]] = {"ours": [], "scipy": []}
    values: Dict[str, str] = {}
    for _ in range(runs):
        for key, function in (("scipy", "scipy_randomization"), ("ours", "randomization_test")):
            done = subprocess.run([sys.executable, "-c", code % (str(HERE), function)], check=True,
                                  capture_output=True, text=True)
            seconds, value = done.stdout.splitlines()[:2]
            walls[key].append(float(seconds))
            values[key] = value
    if values["ours"] != values["scipy"]:
        raise SystemExit("randomization: p-values differ from SciPy's")
    found = row("approximate randomization, 10,000 shuffles, 16,000 sentences (in-process; seconds)", 2.0, walls["scipy"], 0.0,
                walls["ours"], 0.0, note="p-values equal to SciPy's permutation_test; the goal is in seconds")
    found["ratio"] = found["ours_s"]  # no reference program: the goal is seconds, so the column shows them
    found["met"] = found["ours_s"] <= 2.0
    return found


def machine() -> str:
    """bench_ted's description of the machine and the load when the run starts."""
    from bench_ted import machine as described

    return f"{described()}\nload average {os.getloadavg()[0]:.2f}"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--brackets", type=Path, help="folder with evalb, COLLINS.prm, wsj22x32.gld and .tst")
    parser.add_argument("--ud", type=Path, help="folder with gold4.conllu, plain4.conllu and sys4.conllu")
    parser.add_argument("--script", type=Path, help="conll18_ud_eval.py")
    parser.add_argument("--corpus", type=Path, help="make_corpus.py's folder (annotator-K.conllu)")
    parser.add_argument("--significance", action="store_true", help="the randomization row")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", type=int, default=30, help="rows of the pair triangle the plain kernel runs")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write the rows here")
    args = parser.parse_args(argv)
    print(machine(), flush=True)
    rows: List[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench42.") as tmp_name:
        tmp = Path(tmp_name)
        env = child_env(tmp / "pycache")
        jobs: List[Callable[[], List[Row]]] = []
        if args.brackets:
            jobs.append(lambda: bracket_rows(args.brackets, args.runs, env, tmp))
        if args.ud and args.script:
            jobs.append(lambda: evaluate_rows(args.ud, args.script, args.runs, env, tmp))
        if args.corpus:
            jobs.append(lambda: [alpha_row(args.corpus, args.runs, args.rows, args.threads, env, tmp)])
        if args.significance:
            jobs.append(lambda: [significance_row(args.runs)])
        for job in jobs:
            for found in job():
                rows.append(found)
                print(f"{found['row']}: reference {found['reference_s']:.3f} (runs "
                      f"{', '.join(f'{w:.3f}' for w in found['reference_runs'])}), ours {found['ours_s']:.3f} (runs "
                      f"{', '.join(f'{w:.3f}' for w in found['ours_runs'])}), ratio {found['ratio']:.3f} "
                      f"(goal {found['goal']}: {'met' if found['met'] else 'NOT met'}), peak MiB reference "
                      f"{found['reference_peak_mib']:.0f} / ours {found['ours_peak_mib']:.0f}; {found['note']}",
                      flush=True)
    print("\n| work | reference | ours | ratio | goal | peak MiB (ref / ours) |\n|---|---|---|---|---|---|")
    for found in rows:
        print(f"| {found['row']} | {found['reference_s']:.3f} | {found['ours_s']:.3f} | **{found['ratio']:.3f}** "
              f"| {found['goal']} {'met' if found['met'] else 'not met'} | {found['reference_peak_mib']:.0f} / "
              f"{found['ours_peak_mib']:.0f} |")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
