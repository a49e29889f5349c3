"""`spacy-agreement evalb` against the compiled EVALB (evalb.c), side by side in one run (issue 31).

    python benchmarks/bench_evalb.py EVALB_BINARY DATA_FOLDER [--gold wsj22x32.gld] [--test wsj22x32.tst]
                                     [--params COLLINS.prm] [--repeats 3] [--python-path] [--json OUT]

DATA_FOLDER holds the gold and test files and the parameter file (names relative to it; see
benchmarks/README.md, "EVALB at the compiled program's speed", for how they are made). Both
programs run as the user runs them, one process each, output to a file: `EVALB -p PRM GOLD TEST`
and `python -m spacy_agreement evalb -p PRM GOLD TEST` (the `spacy-agreement` console script's
code, with this interpreter). Each is run once to warm the page cache and Python's bytecode cache,
then --repeats times, alternating, and the best wall time is taken (other jobs on the machine slow
some runs; the best is the least disturbed). Peak RSS is each program's own (GNU time's %M, or
`os.wait4` where /usr/bin/time is missing). The two
outputs must be byte-identical; the script exits with status 1 when they are not.

Also printed: our start-up cost (the same command on the first line pair only: interpreter, imports,
parameter file), the ratio without it, and our in-process time (`evaluate_files` streaming the rows
to nothing, then the summary; no imports). `--python-path` times the Python port alone
(`evaluate_files(..., fast=False)` and `format_report`, in-process, once): the figure before the
compiled path.

PYTHONDONTWRITEBYTECODE is removed from the children's environment and the bytecode written under
a temporary PYTHONPYCACHEPREFIX: an installed package has its modules compiled, and without the cache
every run would compile the package's sources again (about a second).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


TIME = "/usr/bin/time"  # GNU time: the program's own peak RSS (os.wait4's counts the forked Python too)


def run(command, out_path, env):
    """Wall seconds and peak RSS (MiB) of one run, its stdout in ``out_path``; the exit status."""
    rss_file = f"{out_path}.rss"
    timed = [TIME, "-f", "%M", "-o", rss_file] + command if os.access(TIME, os.X_OK) else command
    with open(out_path, "wb") as out:
        start = time.perf_counter()
        process = subprocess.Popen(timed, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    peak = usage.ru_maxrss
    if timed is not command:
        with open(rss_file) as handle:
            peak = int(handle.read().split()[-1])
    return wall, peak / 1024, os.waitstatus_to_exitcode(status)


def in_process(gold, test, prm, fast=True):
    """Seconds of evaluate_files + the summary in this process (the modules already imported)."""
    from spacy_agreement.evaluation.constituency.evalb import EvalbSettings, evaluate_files, format_report, format_summary

    params = EvalbSettings.read(prm)
    start = time.perf_counter()
    if fast:
        report = evaluate_files(gold, test, params, keep_sentences=False, write=lambda block: None)
        format_summary(report)
    else:
        format_report(evaluate_files(gold, test, params, fast=False))
    return time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("evalb", help="the compiled EVALB (gcc -O2 -o evalb evalb.c)")
    parser.add_argument("data", type=Path, help="folder of the gold, test and parameter files")
    parser.add_argument("--gold", default="wsj22x32.gld")
    parser.add_argument("--test", default="wsj22x32.tst")
    parser.add_argument("--params", default="COLLINS.prm")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--python-path", action="store_true", help="also time the Python port alone (slow)")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    args = parser.parse_args(argv)
    gold, test, prm = (args.data / name for name in (args.gold, args.test, args.params))
    work = Path(tempfile.mkdtemp(prefix="bench_evalb."))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    for name, path in (("one.gld", gold), ("one.tst", test)):
        with open(path, "rb") as handle:
            (work / name).write_bytes(handle.readline())
    commands = {"evalb.c": [os.path.abspath(args.evalb), "-p", str(prm), str(gold), str(test)],
                "spacy-agreement": [sys.executable, "-m", "spacy_agreement", "evalb", "-p", str(prm), str(gold),
                                    str(test)]}
    startup_command = commands["spacy-agreement"][:-2] + [str(work / "one.gld"), str(work / "one.tst")]
    for name, command in commands.items():  # warm-up: page cache, bytecode cache
        run(command, work / f"{name}.out", env)
    times = {name: [] for name in commands}
    peaks = {name: 0.0 for name in commands}
    statuses = {}
    for _ in range(args.repeats):
        for name, command in commands.items():
            wall, peak, status = run(command, work / f"{name}.out", env)
            times[name].append(wall)
            peaks[name] = max(peaks[name], peak)
            statuses[name] = status
    startup_runs = [run(startup_command, work / "one.out", env) for _ in range(args.repeats)]
    startup, startup_peak = min(r[0] for r in startup_runs), max(r[1] for r in startup_runs)
    inside = min(in_process(gold, test, prm) for _ in range(args.repeats))
    identical = (work / "evalb.c.out").read_bytes() == (work / "spacy-agreement.out").read_bytes()
    with open(gold, "rb") as handle:
        sentences = sum(1 for _ in handle)
    best = {name: min(values) for name, values in times.items()}
    ratio = best["spacy-agreement"] / best["evalb.c"]
    figures = {"gold": str(gold), "test": str(test), "params": str(prm), "sentences": sentences,
               "cpus": os.cpu_count(), "load_average": os.getloadavg(), "repeats": args.repeats,
               "wall_s": times, "best_s": best, "peak_rss_mib": peaks, "exit_status": statuses,
               "ratio": ratio, "startup_s": startup, "startup_peak_rss_mib": startup_peak,
               "ratio_without_startup": (best["spacy-agreement"] - startup) / best["evalb.c"],
               "in_process_s": inside, "identical": identical}
    print(f"{sentences} sentences ({gold.name} / {test.name}, {prm.name}); best of {args.repeats}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    for name in commands:
        print(f"  {name:16s} {best[name]:7.2f} s   peak RSS {peaks[name]:7.1f} MiB   "
              f"(runs: {', '.join(f'{t:.2f}' for t in times[name])}; exit status {statuses[name]})")
    print(f"  ratio            {ratio:7.2f}x   (spacy-agreement / evalb.c)")
    print(f"  start-up         {startup:7.2f} s   peak RSS {startup_peak:7.1f} MiB   (one line pair); ratio without "
          f"it {figures['ratio_without_startup']:.2f}x")
    print(f"  in-process       {inside:7.2f} s   (evaluate_files streaming the rows, no imports)")
    if args.python_path:
        figures["python_path_s"] = in_process(gold, test, prm, fast=False)
        print(f"  Python port      {figures['python_path_s']:7.2f} s   (in-process, fast=False, once)")
    print(f"  outputs byte-identical: {'yes' if identical else 'NO'}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
