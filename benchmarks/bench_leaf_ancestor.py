"""Leaf-ancestor at EVALB's speed, in flat memory (issue 31).

In one run, on the same files: the compiled EVALB (``evalb -p COLLINS.prm``) and
``spacy-agreement leaf-ancestor`` (the CLI, interpreter start included), best of ``--repeat``
wall times and the peak RSS of each process (``wait4``); the CLI's start alone (a
one-sentence file) to tell start-up from work. Then a scaling run: the base corpus repeated
1×, 4×, 16× and 64×, time and peak memory of both programs, as an ASCII table and a plot
(``benchmarks/results/leaf_ancestor_scaling.png``, with matplotlib).

    python benchmarks/bench_leaf_ancestor.py --data /tmp/bench31/brackets

``--data`` holds ``evalb``, ``COLLINS.prm``, the base pair ``wsj22.gld``/``wsj22.tst`` and
the main pair ``wsj22x32.gld``/``wsj22x32.tst`` (names can be changed with the options).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import List, Tuple

from _measure import best as _best, repeat_file

RESULTS = Path(__file__).resolve().parent / "results"


def best(command: List[str], repeat: int) -> Tuple[float, float]:
    """Best wall seconds and peak RSS (MiB) of ``repeat`` runs (EVALB exits 1 after a sentence error)."""
    return _best(command, repeat, ok=(0, 1) if "evalb" in Path(command[0]).name else (0,))


def commands(data: Path, gold: Path, test: Path) -> Tuple[List[str], List[str]]:
    evalb = [str(data / "evalb"), "-p", str(data / "COLLINS.prm"), str(gold), str(test)]
    ours = [sys.executable, "-m", "spacy_agreement.cli", "leaf-ancestor", str(gold), str(test)]
    return evalb, ours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("/tmp/bench31/brackets"))
    parser.add_argument("--base", default="wsj22", help="base pair: NAME.gld and NAME.tst")
    parser.add_argument("--main", default="wsj22x32", help="main pair: NAME.gld and NAME.tst")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scales", default="1,4,16,64")
    args = parser.parse_args()
    data = args.data
    lines = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    gold, test = data / f"{args.main}.gld", data / f"{args.main}.tst"
    trees = sum(1 for line in open(gold, "rb") if line.strip())
    evalb, ours = commands(data, gold, test)
    say(f"main: {gold.name} / {test.name}, {trees:,} trees, best of {args.repeat}")
    e_wall, e_mem = best(evalb, args.repeat)
    o_wall, o_mem = best(ours, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        one_g, one_t = Path(tmp) / "one.gld", Path(tmp) / "one.tst"
        one_g.write_bytes(open(data / f"{args.base}.gld", "rb").readline())
        one_t.write_bytes(open(data / f"{args.base}.tst", "rb").readline())
        s_wall, s_mem = best(commands(data, one_g, one_t)[1], args.repeat)
    say(f"{'program':<44}{'wall s':>9}{'peak MB':>10}")
    say(f"{'evalb -p COLLINS.prm (compiled C)':<44}{e_wall:9.2f}{e_mem:10.1f}")
    say(f"{'spacy-agreement leaf-ancestor':<44}{o_wall:9.2f}{o_mem:10.1f}")
    say(f"{'  of which start-up (one-sentence files)':<44}{s_wall:9.2f}{s_mem:10.1f}")
    say(f"ratio leaf-ancestor / EVALB: {o_wall / e_wall:.2f}x (work alone: {(o_wall - s_wall) / e_wall:.2f}x)")
    say()
    scales = [int(x) for x in args.scales.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for scale in scales:
            g = repeat_file(data / f"{args.base}.gld", scale, Path(tmp) / "g.mrg")
            t = repeat_file(data / f"{args.base}.tst", scale, Path(tmp) / "t.mrg")
            n = sum(1 for line in open(g, "rb") if line.strip())
            evalb, ours = commands(data, g, t)
            rows.append((scale, n, *best(evalb, args.repeat), *best(ours, args.repeat)))
    say(f"scaling ({args.base} repeated; best of {args.repeat})")
    say(f"{'scale':>6}{'trees':>10}{'EVALB s':>9}{'EVALB MB':>10}{'ours s':>9}{'ours MB':>9}{'ratio':>7}")
    for scale, n, ew, em, ow, om in rows:
        say(f"{scale:>5}x{n:>10,}{ew:9.2f}{em:10.1f}{ow:9.2f}{om:9.1f}{ow / ew:7.2f}")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "leaf_ancestor.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        say("(no matplotlib: no plot)")
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    trees_axis = [r[1] for r in rows]
    left.plot(trees_axis, [r[2] for r in rows], "o-", label="EVALB (C)")
    left.plot(trees_axis, [r[4] for r in rows], "s-", label="spacy-agreement leaf-ancestor")
    right.plot(trees_axis, [r[3] for r in rows], "o-", label="EVALB (C)")
    right.plot(trees_axis, [r[5] for r in rows], "s-", label="spacy-agreement leaf-ancestor")
    for axis, title in ((left, "wall time (s)"), (right, "peak RSS (MB)")):
        axis.set_xscale("log")
        axis.set_xlabel("trees")
        axis.set_title(title)
        axis.legend()
    right.set_ylim(bottom=0)
    fig.tight_layout()
    fig.savefig(RESULTS / "leaf_ancestor_scaling.png", dpi=100)
    say(f"plot: {RESULTS / 'leaf_ancestor_scaling.png'}")


if __name__ == "__main__":
    main()
