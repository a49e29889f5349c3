"""Time and peak memory of the parser metrics as the corpus grows, beside the reference programs.

For each of ``spacy-agreement evalb`` and ``leaf-ancestor`` (bracket files: WSJ section 22, gold
and parser output) and ``evaluate`` (CoNLL-U: a gold file and a system file made from it by
make_system_output.py), the base corpus repeated 1×, 4×, 16× and 64× (copies one after the
other, in a temporary folder), each CLI run as a user runs it (interpreter start included,
output thrown away), beside the reference program on the same files where there is one: the
compiled EVALB (``evalb -p COLLINS.prm``) for the bracket files, ``python conll18_ud_eval.py``
for CoNLL-U (capped at ``--reference-cap``, 16× by default: it holds the corpus as Python
objects, several GiB at 64×). Each figure is the best wall time of ``--repeat`` runs and the
highest peak RSS of the process (GNU time's, else ``os.wait4``'s: benchmarks/_measure.py), after
one warm-up run of each program (page cache, bytecode cache).

Writes a markdown table to stdout and one SVG (``--out``, default benchmarks/scaling.svg): time
and peak memory against corpus size, log-log, one line per program. The SVG is meant to be
committed: fixed ids (``svg.hashsalt``), text as text (no embedded fonts), no date.

    python benchmarks/bench_scaling.py --brackets /tmp/bench31/brackets --conllu /tmp/bench31/ud

``--brackets`` holds ``evalb``, ``COLLINS.prm`` and ``wsj22.gld``/``wsj22.tst``; ``--conllu``
holds ``gold1.conllu`` and ``conll18_ud_eval.py``. Timings on a shared machine are noisy: the
ratios within one run are what count.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from _measure import best, child_env, ours, repeat_file, run

HERE = Path(__file__).resolve().parent
# (metric, program, reference?) in table and legend order
PROGRAMS = [("evalb", "spacy-agreement evalb", False), ("evalb", "EVALB (C)", True),
            ("leaf-ancestor", "spacy-agreement leaf-ancestor", False),
            ("evaluate", "spacy-agreement evaluate", False), ("evaluate", "conll18_ud_eval.py", True)]


def count_units(path: Path, conllu: bool) -> int:
    """Sentences: CoNLL-U blocks, or non-blank lines of a bracket file (one tree a line)."""
    with open(path, "rb") as handle:
        if conllu:
            return sum(1 for line in handle if line.startswith(b"1\t"))
        return sum(1 for line in handle if line.strip())


def commands(metric: str, name: str, files: Dict[str, Path], brackets: Path, conllu: Path) -> List[str]:
    gold, test = (files["ud_gold"], files["ud_sys"]) if metric == "evaluate" else (files["gold"], files["test"])
    if name == "spacy-agreement evalb":
        return [*ours(), "evalb", "-p", str(brackets / "COLLINS.prm"), str(gold), str(test)]
    if name == "EVALB (C)":
        return [str(brackets / "evalb"), "-p", str(brackets / "COLLINS.prm"), str(gold), str(test)]
    if name == "spacy-agreement leaf-ancestor":
        return [*ours(), "leaf-ancestor", str(gold), str(test)]
    if name == "spacy-agreement evaluate":
        return [*ours(), "evaluate", str(gold), str(test)]
    return [sys.executable, str(conllu / "conll18_ud_eval.py"), str(gold), str(test)]


def measure(args) -> Tuple[Dict[Tuple[str, int], Tuple[float, float]], Dict[Tuple[str, int], int]]:
    """(program, scale) → (best wall s, peak MiB); (corpus, scale) → sentences."""
    figures: Dict[Tuple[str, int], Tuple[float, float]] = {}
    sizes: Dict[Tuple[str, int], int] = {}
    with tempfile.TemporaryDirectory(prefix="bench_scaling.") as tmp:
        work = Path(tmp)
        env = child_env(work / "pycache")
        system = work / "sys1.conllu"
        run([sys.executable, str(HERE / "make_system_output.py"), str(args.conllu / "gold1.conllu"), str(system),
             "--seed", "1"], env=env)
        bases = {"gold": args.brackets / "wsj22.gld", "test": args.brackets / "wsj22.tst",
                 "ud_gold": args.conllu / "gold1.conllu", "ud_sys": system}
        for scale in args.scales:
            files = {key: repeat_file(path, scale, work / f"{key}{Path(path).suffix}") for key, path in bases.items()}
            sizes["WSJ 22", scale] = count_units(files["gold"], False)
            sizes["EWT dev+test", scale] = count_units(files["ud_gold"], True)
            for metric, name, reference in PROGRAMS:
                if reference and metric == "evaluate" and scale > args.reference_cap:
                    continue
                command = commands(metric, name, files, args.brackets, args.conllu)
                ok = (0, 1) if name == "EVALB (C)" else (0,)
                if scale == args.scales[0]:
                    run(command, env=env, ok=ok)  # warm-up
                figures[name, scale] = best(command, args.repeat, env=env, ok=ok)
                wall, peak = figures[name, scale]
                print(f"  {scale:>3}x  {name:<32}{wall:8.2f} s {peak:8.1f} MiB", file=sys.stderr, flush=True)
            for path in files.values():
                path.unlink()
    return figures, sizes


def table(figures, sizes, args) -> str:
    scales = args.scales
    head = "| metric | program | " + " | ".join(f"{s}×" for s in scales) + " |"
    lines = [head, "|" + "---|" * (2 + len(scales))]
    for metric, name, _ in PROGRAMS:
        cells = []
        for scale in scales:
            if (name, scale) in figures:
                wall, peak = figures[name, scale]
                cells.append(f"{wall:.2f} s, {peak:.0f} MiB")
            else:
                cells.append(f"not run (capped at {args.reference_cap}×)")
        lines.append(f"| {metric} | {name} | " + " | ".join(cells) + " |")
    corpora = "; ".join(f"{corpus}: " + ", ".join(f"{sizes[corpus, s]:,}" for s in scales) + " sentences"
                        for corpus in ("WSJ 22", "EWT dev+test"))
    return "\n".join(lines + ["", f"Corpus sizes at {', '.join(f'{s}×' for s in scales)}: {corpora}. "
                              f"Best of {args.repeat} run(s); wall time includes the interpreter's start; "
                              f"peak RSS of each process. {os.cpu_count()} CPUs ({platform.machine()}), "
                              f"Python {platform.python_version()}."])


def plot(figures, args) -> Optional[Path]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no matplotlib: no plot)", file=sys.stderr)
        return None
    matplotlib.rcParams.update({"svg.hashsalt": "spacy-agreement-scaling", "svg.fonttype": "none",
                                "font.size": 9})
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    styles = {"spacy-agreement evalb": "o-", "EVALB (C)": "o--", "spacy-agreement leaf-ancestor": "s-",
              "spacy-agreement evaluate": "^-", "conll18_ud_eval.py": "^--"}
    for _, name, _ in PROGRAMS:
        scales = [s for s in args.scales if (name, s) in figures]
        for axis, column in ((left, 0), (right, 1)):
            axis.plot(scales, [figures[name, s][column] for s in scales], styles[name], label=name, markersize=4)
    for axis, title in ((left, "wall time (s)"), (right, "peak RSS (MiB)")):
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")
        axis.set_xticks(args.scales, [f"{s}×" for s in args.scales])
        axis.set_xlabel("corpus size (WSJ 22 or EWT dev+test repeated)")
        axis.set_title(title)
        axis.grid(True, which="major", linewidth=0.3)
    right.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return args.out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--brackets", type=Path, default=Path("/tmp/bench31/brackets"),
                        help="folder of evalb, COLLINS.prm, wsj22.gld and wsj22.tst")
    parser.add_argument("--conllu", type=Path, default=Path("/tmp/bench31/ud"),
                        help="folder of gold1.conllu and conll18_ud_eval.py")
    parser.add_argument("--scales", type=lambda text: [int(x) for x in text.split(",")], default=[1, 4, 16, 64])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each program and size (best time)")
    parser.add_argument("--reference-cap", type=int, default=16,
                        help="largest scale conll18_ud_eval.py runs at (it holds the corpus as Python objects)")
    parser.add_argument("--out", type=Path, default=HERE / "scaling.svg", help="the SVG plot")
    args = parser.parse_args(argv)
    figures, sizes = measure(args)
    print(table(figures, sizes, args))
    out = plot(figures, args)
    if out is not None:
        print(f"\nplot: {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
