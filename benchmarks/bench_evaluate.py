"""``spacy-agreement evaluate`` against ``conll18_ud_eval.py`` on the same files, in one run (issue 31).

    python benchmarks/bench_evaluate.py GOLD SYS [SYS ...] --script conll18_ud_eval.py [--repeat 3]
        [--scale BASE_GOLD]

For each system file: the script (``python conll18_ud_eval.py GOLD SYS``), ``spacy-agreement
evaluate GOLD SYS -q`` and the same with ``--json``, each the best of ``--repeat`` wall times,
with its peak memory (the child's maximum resident set, ``resource.getrusage(RUSAGE_CHILDREN)``
read in a fresh process per run); then the figures compared: LAS, UAS, CLAS, MLAS, BLEX F1 of
the script's ``--json`` against ours (they must be equal), and the ratio of the times.

``--scale BASE_GOLD`` also runs ``evaluate BASE×k BASE×k`` for k = 1, 4, 16, 64 (``--factors``;
files written to a temporary folder: the corpus concatenated k times, evaluated against itself)
and prints time and peak memory against the corpus size, with the ratios to k = 1 measured in
the same run: ``evaluate`` reads gold and prediction in step, a block of sentences at a time, so
the peak should stay flat (within tens of MB) while the time grows with k.

Make the files with (neither committed):

    git --git-dir=UD_English-EWT show HEAD:en_ewt-ud-dev.conllu > dev.conllu   # and test
    cat dev.conllu test.conllu dev.conllu test.conllu dev.conllu test.conllu dev.conllu test.conllu > gold4.conllu
    python benchmarks/make_system_output.py gold4.conllu sys4.conllu --seed 1
    python benchmarks/make_system_output.py gold4.conllu plain4.conllu --seed 1 --plain
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

MEASURE = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
           "r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE); "
           "w = time.perf_counter() - t; "
           "print(w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode); "
           "sys.stderr.write(r.stdout.decode('utf-8', 'replace'))")


def measure(command, repeat):
    """(best wall seconds, peak RSS in MB over the runs, stdout of the last run)."""
    best, peak, output = float("inf"), 0.0, ""
    for _ in range(repeat):
        done = subprocess.run([sys.executable, "-c", MEASURE, *command], capture_output=True, text=True)
        wall, rss, code = done.stdout.split()
        if int(code) != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
        best, peak, output = min(best, float(wall)), max(peak, int(rss) / 1024), done.stderr
    return best, peak, output


def ours():
    found = shutil.which("spacy-agreement")
    return [found] if found else [sys.executable, "-m", "spacy_agreement.cli"]


def script_f1(script, gold, system, env=None):
    """UAS, LAS, CLAS, MLAS and BLEX F1 as conll18_ud_eval.py's ``-v`` table prints them (lower-case keys)."""
    out = subprocess.run([sys.executable, script, gold, system, "-v"], capture_output=True, text=True, env=env,
                         check=True).stdout
    found = {}
    for line in out.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) >= 4 and parts[0] in ("UAS", "LAS", "CLAS", "MLAS", "BLEX"):
            found[parts[0].lower()] = float(parts[3])
    return found


def ours_f1(json_text, metrics):
    """The same F1 from ``evaluate --json``, rounded as the script prints them."""
    data = json.loads(json_text)
    return {m: round(100 * (data.get(f"{m}_f1") if f"{m}_f1" in data else data[m]), 2) for m in metrics}


def compare(gold, system, script, repeat):
    s_time, s_mem, _ = measure([sys.executable, script, gold, system], repeat)
    theirs = script_f1(script, gold, system)
    q_time, q_mem, _ = measure([*ours(), "evaluate", gold, system, "-q"], repeat)
    j_time, j_mem, j_out = measure([*ours(), "evaluate", gold, system, "-q", "--json"], repeat)
    mine = ours_f1(j_out, theirs)
    same = all(abs(mine[m] - theirs[m]) < 1e-9 for m in theirs)
    print(f"\n{os.path.basename(system)}")
    print(f"  conll18_ud_eval.py         {s_time:7.2f} s  {s_mem:7.0f} MB")
    print(f"  spacy-agreement evaluate   {q_time:7.2f} s  {q_mem:7.0f} MB   ratio {q_time / s_time:.3f}")
    print(f"  ... --json                 {j_time:7.2f} s  {j_mem:7.0f} MB   ratio {j_time / s_time:.3f}")
    print("  F1 (script / ours): " + ", ".join(f"{m.upper()} {theirs[m]:.2f}/{mine[m]:.2f}" for m in theirs)
          + ("  (equal)" if same else "  ** DIFFERENT **"))
    return same


def scaling(base, repeat, factors):
    print("\nscaling: evaluate X X (the corpus against itself), best wall and peak memory (ratios to the first)")
    with open(base, encoding="utf-8") as handle:
        text = handle.read()
    first = None
    with tempfile.TemporaryDirectory() as tmp:
        for k in factors:
            path = os.path.join(tmp, f"x{k}.conllu")
            with open(path, "w", encoding="utf-8") as handle:
                for _ in range(k):
                    handle.write(text)
            wall, mem, _ = measure([*ours(), "evaluate", path, path, "-q", "--json"], repeat)
            first = first or (k, wall, mem)
            print(f"  {k:3d}x  {os.path.getsize(path) / 1e6:7.1f} MB file  {wall:7.2f} s  {mem:7.0f} MB peak   "
                  f"time/k {wall / k * first[0] / first[1]:5.2f}  peak {mem - first[2]:+6.0f} MB")
            os.remove(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("gold")
    parser.add_argument("systems", nargs="+")
    parser.add_argument("--script", required=True, help="conll18_ud_eval.py")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scale", help="base gold file for the 1x/4x/16x/64x memory scaling")
    parser.add_argument("--factors", default="1,4,16,64", help="the k of --scale, comma-separated")
    parser.add_argument("--scale-repeat", type=int, default=1, help="runs of each --scale size (best time)")
    args = parser.parse_args()
    start = time.time()
    ok = all([compare(args.gold, system, args.script, args.repeat) for system in args.systems])
    if args.scale:
        scaling(args.scale, args.scale_repeat, [int(k) for k in args.factors.split(",")])
    print(f"\n({time.time() - start:.0f} s in all)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
