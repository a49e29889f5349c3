"""Pathological sizes (issue 17): one sentence of N tokens (default 100,000), flat (every
token on the first) and a chain (each token on the one before), gold against a copy with one
attachment changed, through every command that reads it. Prints, per command, the wall time,
the peak memory of the process and how it answered (a result, or its one error line).

    python benchmarks/bench_pathological.py            # 100,000 tokens
    python benchmarks/bench_pathological.py --tokens 20000
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def write_conll(path: Path, heads) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write("# sent_id = big\n")
        for k, head in enumerate(heads, 1):
            out.write(f"{k}\tw{k}\tw\tNOUN\t_\t_\t{head}\t{'root' if head == 0 else 'dep'}\t_\t_\n")
        out.write("\n")


def run(args) -> tuple:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "spacy_agreement.cli", *args], capture_output=True, text=True,
                          timeout=600)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux: the largest child so far
    answer = done.stderr.strip().splitlines()[-1] if done.returncode else "result"
    return seconds, max(peak, before) / (1 << 20), done.returncode, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=100_000)
    n = parser.parse_args().tokens
    folder = Path(tempfile.mkdtemp())
    shapes = {"flat": [0] + [1] * (n - 1), "chain": [0] + list(range(1, n))}
    bracket = "(S " + " ".join(f"(N w{k})" for k in range(n)) + ")\n"
    (folder / "flat.tree").write_text(bracket, encoding="utf-8")
    (folder / "flat2.tree").write_text(bracket.replace("(N w5)", "(V w5)"), encoding="utf-8")
    for name, heads in shapes.items():
        write_conll(folder / f"{name}.conllu", heads)
        write_conll(folder / f"{name}2.conllu", heads[:-1] + [2 if name == "flat" else 1])
    print(f"one sentence of {n:,} tokens; peak memory is the largest process so far (ru_maxrss)")
    print(f"{'input':<7} {'command':<14} {'seconds':>8} {'peak GiB':>9}  exit  answer")
    cases = [(shape, command) for shape in ("flat", "chain") for command in ("alpha", "evaluate", "leaf-ancestor",
                                                                              "report")]
    cases += [("phrase", "alpha"), ("phrase", "leaf-ancestor"), ("phrase", "evalb")]
    for shape, command in cases:
        if shape == "phrase":
            files = [str(folder / "flat.tree"), str(folder / "flat2.tree")]
        else:
            files = [str(folder / f"{shape}.conllu"), str(folder / f"{shape}2.conllu")]
        extra = ["--html", str(folder / "r.html")] if command == "report" else []
        seconds, peak, code, answer = run([command, *files, *extra])
        print(f"{shape:<7} {command:<14} {seconds:8.2f} {peak:9.2f}  {code:4d}  {answer[:110]}")


if __name__ == "__main__":
    main()
