"""Every command on the same pair of files in one run: wall time and peak memory, with `evaluate` as the yardstick.

    python benchmarks/bench_commands.py --ewt DIR [--times 4] [--repeat 1] [--out /tmp/bench_commands]
    python benchmarks/bench_commands.py --files A B C      # files already made
    python benchmarks/bench_commands.py --files A B C --before /tmp/old   # and each command of an older tree

The files (issue 50): UD English-EWT dev+test repeated ``--times`` times with distinct sent_ids (each copy's
``# sent_id`` gets ``-kK``), about 16,000 sentences and 250k tokens at 4; the second file ``B`` the same with
10% of the words' relations changed to another relation of the treebank (seeded); a third ``C`` (another
seed) is the second system of ``compare``. ``DIR`` holds ``en_ewt-ud-dev.conllu`` and ``en_ewt-ud-test.conllu``
(a clone of UniversalDependencies/UD_English-EWT, or files taken out of one with ``git show``).

Each command is a fresh process (``_measure.run``: GNU time's peak resident set), run one after the
other, ``--repeat`` times (best wall time, highest peak). The ratio is to ``evaluate A B``'s wall time.
``ZIP`` and ``MULTI``: ``A`` and ``B`` as two annotators of a tool's export (an INCEpTION-style ZIP, one
multi-user file with ``# user_id`` comments), for the exports' readers. ``evalb`` and ``leaf-ancestor`` score
phrase-structure trees: they have their own benchmarks (bench_evalb.py, bench_leaf_ancestor.py) and are not run
on these dependency files.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import sys
import tempfile
from pathlib import Path
from typing import List, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import child_env, ours, run  # noqa: E402


def repeated(sources: Sequence[Path], times: int) -> List[str]:
    """The sources' lines ``times`` over, each copy's sent_ids made distinct (``-kK`` appended)."""
    lines: List[str] = []
    for k in range(times):
        for source in sources:
            for line in source.read_text(encoding="utf-8").splitlines():
                if line.startswith("# sent_id"):
                    line = f"{line}-k{k}"
                lines.append(line)
            if lines and lines[-1] != "":
                lines.append("")
    return lines


def relabelled(lines: Sequence[str], rate: float, seed: int) -> List[str]:
    """The same lines with a fraction ``rate`` of the words' DEPREL changed to another relation seen in them."""
    rows = [line.split("\t") for line in lines]
    words = [i for i, r in enumerate(rows) if len(r) == 10 and r[0].isdigit()]
    labels = sorted({rows[i][7] for i in words})
    rng = random.Random(seed)
    out = list(lines)
    for i in rng.sample(words, int(rate * len(words))):
        row = rows[i]
        row[7] = rng.choice([label for label in labels if label != row[7] and label != "root"] or [row[7]])
        out[i] = "\t".join(row)
    return out


def make_files(ewt: Path, times: int, folder: Path) -> Tuple[Path, Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    gold = repeated([ewt / "en_ewt-ud-dev.conllu", ewt / "en_ewt-ud-test.conllu"], times)
    paths = (folder / "a.conllu", folder / "b.conllu", folder / "c.conllu")
    for path, lines in zip(paths, (gold, relabelled(gold, 0.1, 1), relabelled(gold, 0.1, 2))):
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def make_exports(a: Path, b: Path, folder: Path) -> Tuple[Path, Path]:
    """``A`` and ``B`` as two annotators of a tool's export: an INCEpTION-style ZIP
    (``annotation/doc.conllu/USER.conllu``) and one multi-user file (each tree with ``# user_id``)."""
    import zipfile

    archive = folder / "export.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for user, path in (("ann", a), ("bob", b)):
            z.write(path, f"annotation/doc.conllu/{user}.conllu")
    blocks = [p.read_text(encoding="utf-8").strip().split("\n\n") for p in (a, b)]
    multi = folder / "multi.conllu"
    multi.write_text("".join(f"# user_id = {user}\n{block}\n\n" for pair in zip(*blocks)
                             for user, block in zip(("ann", "bob"), pair)), encoding="utf-8")
    return archive, multi


def commands(a: Path, b: Path, c: Path, folder: Path) -> List[Tuple[str, List[str]]]:
    cli = ours()
    archive, multi = make_exports(a, b, folder)
    return [
        ("evaluate A B", [*cli, "evaluate", str(a), str(b)]),
        ("alpha A B --alpha off", [*cli, "alpha", str(a), str(b), "--alpha", "off"]),
        ("layers A B", [*cli, "layers", str(a), str(b)]),
        ("judge A B --gold A --html P", [*cli, "judge", str(a), str(b), "--gold", str(a), "--html",
                                         str(folder / "judge.html")]),
        ("compare A B C --metric las", [*cli, "compare", str(a), str(b), str(c), "--metric", "las"]),
        # exact α in both (--alpha auto may sample it on a slow machine: then the two are not comparable)
        ("alpha A B --alpha exact", [*cli, "alpha", str(a), str(b), "--alpha", "exact"]),
        ("report A B --alpha exact --html P", [*cli, "report", str(a), str(b), "--alpha", "exact", "--html",
                                              str(folder / "report.html")]),
        # the same two annotators as a tool exports them (the readers of the exports, issue 50's first item)
        ("alpha ZIP --alpha off", [*cli, "alpha", str(archive), "--alpha", "off"]),
        ("layers ZIP", [*cli, "layers", str(archive)]),
        ("alpha MULTI --alpha off", [*cli, "alpha", str(multi), "--alpha", "off"]),
        ("layers MULTI", [*cli, "layers", str(multi)]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--ewt", type=Path, help="folder with en_ewt-ud-dev.conllu and en_ewt-ud-test.conllu")
    source.add_argument("--files", type=Path, nargs=3, metavar=("A", "B", "C"))
    parser.add_argument("--times", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "bench_commands")
    parser.add_argument("--only", nargs="*", help="run only the commands whose name starts with one of these")
    parser.add_argument("--before", type=Path, metavar="SOURCE",
                        help="a source tree of an earlier version (its compiled modules built): each command also "
                             "run with it first (PYTHONPATH), one after the other, for a before/after table")
    args = parser.parse_args()
    args.out = args.out.resolve()
    a, b, c = (f.resolve() for f in args.files) if args.files else make_files(args.ewt, args.times, args.out)
    args.out.mkdir(parents=True, exist_ok=True)
    os.chdir(args.out)  # python -m puts the working directory first on sys.path: never a source tree's
    env = child_env(args.out / "pycache")
    versions = [("now", env)]
    if args.before:
        old = dict(child_env(args.out / "pycache-before"))
        old["PYTHONPATH"] = os.pathsep.join([str(args.before.resolve())] + [p for p in [env.get("PYTHONPATH")] if p])
        versions.insert(0, ("before", old))
    for _, version_env in versions:
        run([*ours(), "--help"], env=version_env)  # the bytecode cache filled before anything is timed
    rows = []
    for name, command in commands(a, b, c, args.out):
        if args.only and not any(name.startswith(o) for o in args.only) and not name.startswith("evaluate"):
            continue
        figures = []
        for label, version_env in versions:
            runs = [run(command, env=version_env)[:2] for _ in range(max(args.repeat, 1))]
            figures.append((min(w for w, _ in runs), max(m for _, m in runs)))
            print(f"{name} ({label}): {figures[-1][0]:.2f} s, {figures[-1][1]:.0f} MiB", file=sys.stderr, flush=True)
        rows.append((name, figures))
    tokens = sum(1 for line in a.open(encoding="utf-8") if line[:1].isdigit() and "\t" in line)
    print(f"{datetime.date.today()}, {platform.system()} {platform.release()} {platform.machine()}, "
          f"{os.cpu_count()} CPUs, Python {platform.python_version()}; {a.name}: {tokens:,} token lines")
    heads = " | ".join(f"wall {v} (s) | × evaluate {v} | peak {v} (MiB)" for v, _ in versions) \
        if len(versions) > 1 else "wall (s) | × evaluate | peak memory (MiB)"
    print(f"\n| command | {heads} |\n|---|" + "---:|---:|---:|" * len(versions))
    bases = [figures[k][0] for k, figures in enumerate([rows[0][1]] * len(versions))]
    for name, figures in rows:
        cells = " | ".join(f"{wall:.2f} | {wall / base:.2f} | {peak:.0f}" for (wall, peak), base in zip(figures, bases))
        print(f"| `{name}` | {cells} |")
    print("\n" + "\n".join(goals({name: figures[-1] for name, figures in rows})))


#: issue 50's goals: the most × evaluate's wall time (or seconds, for compare), and 300 MiB peak
RATIO_GOALS = {"alpha A B --alpha off": 1.5, "layers A B": 2.0, "judge A B --gold A --html P": 2.0,
               "alpha ZIP --alpha off": 1.5, "layers ZIP": 2.0, "alpha MULTI --alpha off": 1.5, "layers MULTI": 2.0}


def goals(now: dict) -> List[str]:
    """Each of issue 50's goals that this run measured, with the figures and whether it is met."""
    lines = []
    base = now.get("evaluate A B", (float("nan"), 0.0))[0]
    for name, most in RATIO_GOALS.items():
        if name in now:
            ratio = now[name][0] / base
            lines.append(f"- `{name}`: {ratio:.2f}× evaluate (goal ≤ {most}×): {'met' if ratio <= most else 'NOT met'}")
    if "compare A B C --metric las" in now:
        wall = now["compare A B C --metric las"][0]
        lines.append(f"- `compare`: {wall:.2f} s (goal ≤ 4 s): {'met' if wall <= 4 else 'NOT met'}")
    if "report A B --alpha exact --html P" in now and "alpha A B --alpha exact" in now:
        bound = now["alpha A B --alpha exact"][0] + 2 * base
        wall = now["report A B --alpha exact --html P"][0]
        lines.append(f"- `report`: {wall:.2f} s against alpha + 2× evaluate = {bound:.2f} s: "
                     f"{'met' if wall <= bound else 'NOT met'}")
    exact = ("alpha A B --alpha exact", "report A B --alpha exact --html P")
    for name, (_, peak) in now.items():
        if peak > 300:
            lines.append(f"- `{name}`: peak {peak:.0f} MiB over 300 MiB"
                         + (" (exact α's working memory counts here)" if name in exact else ""))
    return lines


if __name__ == "__main__":
    main()
