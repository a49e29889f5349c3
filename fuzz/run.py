"""Run a fuzz campaign on one target of ``fuzz/targets.py``.

Coverage-guided, with atheris (libFuzzer for Python; ``pip install atheris``)::

    python fuzz/run.py conll -atheris_runs=100000 fuzz/corpus/conll

Every argument after the target name goes to libFuzzer/atheris as it is; the defaults added
unless given are ``-timeout=2`` (an input running over 2 s is a hang, a finding),
``-max_len=4096``, ``-artifact_prefix=fuzz/artifacts/TARGET/`` (where libFuzzer writes the
input of a crash, a traceback or a hang) and, with no corpus folder named,
``fuzz/corpus/TARGET``. The seed inputs (``targets.SEEDS``) are written into the corpus
folder when it is empty. ``spacy_agreement`` (and for the readers ``conllu`` or ``nltk``) is
imported instrumented, so libFuzzer sees the coverage of the package's Python code; the Cython
kernels are not instrumented (gcc, no ``-fsanitize=fuzzer``), but a crash in them kills
the run like any other.

Without atheris (``--plain N``, also what happens when atheris is missing), the same target
runs on N inputs: the seeds, then random mutations of them (``targets.mutate``), with the
same 2 s limit per input (``--timeout``; a Python-level hang is interrupted by SIGALRM)::

    python fuzz/run.py conll --plain 100000 --seed 1

Options of this script (before or after the target name): ``--keep-going`` records an
unexpected exception (input and traceback under the artifact folder, one per distinct
place) and goes on instead of stopping at the first; ``--plain N``; ``--seed S``;
``--timeout SECONDS``. At the end a summary (inputs run, outcomes, findings, time) is printed
and written to ``fuzz/artifacts/TARGET/summary.json``.
"""
from __future__ import annotations

import argparse
import atexit
import collections
import datetime
import hashlib
import json
import os
import platform
import signal
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: what is imported instrumented, besides spacy_agreement: the parsers the readers rely on
INSTRUMENTED = {"conll": ["conllu"], "judgments": ["conllu"], "datapackage": ["conllu"], "discourse": ["conllu"],
                "brackets": ["nltk"]}


class Hang(Exception):
    """An input ran past the time limit (plain mode)."""


class Campaign:
    """Counts what the target answered and records findings."""

    def __init__(self, name: str, artifacts: Path, keep_going: bool, tool: str):
        self.name, self.artifacts, self.keep_going, self.tool = name, artifacts, keep_going, tool
        self.runs = 0
        self.outcomes: collections.Counter = collections.Counter()
        self.findings: dict = {}
        self.slowest = 0.0
        self.started = time.time()
        artifacts.mkdir(parents=True, exist_ok=True)

    def record(self, data: bytes, exc: BaseException) -> None:
        frames = traceback.extract_tb(exc.__traceback__)
        inner = next((f for f in reversed(frames) if "spacy_agreement" in f.filename), frames[-1] if frames else None)
        place = f"{inner.filename}:{inner.lineno}" if inner else "?"
        key = f"{type(exc).__name__} at {place}"
        digest = hashlib.sha1(data).hexdigest()[:16]
        if key not in self.findings:
            self.findings[key] = {"count": 0, "input": f"finding-{digest}", "message": str(exc)[:300]}
            (self.artifacts / f"finding-{digest}").write_bytes(data)
            (self.artifacts / f"finding-{digest}.txt").write_text(
                "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)), encoding="utf-8")
            print(f"\n*** finding {key}: {str(exc)[:200]} (input {self.artifacts / ('finding-' + digest)})",
                  file=sys.stderr, flush=True)
        self.findings[key]["count"] += 1

    def write_summary(self) -> None:
        elapsed = time.time() - self.started
        out = {
            "target": self.name,
            "tool": self.tool,
            "inputs": self.runs,
            "seconds": round(elapsed, 1),
            "inputs_per_second": round(self.runs / elapsed, 1) if elapsed else None,
            "slowest_input_seconds": round(self.slowest, 3),
            "findings": self.findings,
            "outcomes": dict(self.outcomes.most_common()),
            "python": sys.version.split()[0],
            "machine": " ".join(platform.uname()),
            "cpus": os.cpu_count(),
            "finished": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "command": " ".join([Path(sys.executable).name, *sys.argv]),
        }
        (self.artifacts / "summary.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"\n== {self.name}: {self.runs} inputs in {elapsed:.0f} s ({out['inputs_per_second']}/s), "
              f"slowest {self.slowest:.2f} s, {sum(f['count'] for f in self.findings.values())} finding(s) "
              f"in {len(self.findings)} place(s); outcomes {dict(self.outcomes.most_common(8))}",
              file=sys.stderr, flush=True)


def _tool_version() -> str:
    try:
        from importlib.metadata import version

        return f"atheris {version('atheris')}"
    except Exception:  # noqa: BLE001
        return "atheris"


def main(argv) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=True)
    parser.add_argument("target")
    parser.add_argument("--keep-going", action="store_true")
    parser.add_argument("--plain", type=int, metavar="N", help="no atheris: N inputs of random mutation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=2.0)
    ours, rest = parser.parse_known_args(argv[1:])
    plain = ours.plain is not None
    if not plain:
        try:
            import atheris
        except ImportError:
            print("atheris is not installed: plain random mutation (--plain 100000)", file=sys.stderr)
            plain, ours.plain = True, ours.plain or 100_000
    artifacts = HERE / "artifacts" / ours.target
    if plain:
        import targets

        target = targets.TARGETS[ours.target]
        campaign = Campaign(ours.target, artifacts, ours.keep_going, "plain random mutation (fuzz/targets.py mutate)")
        atexit.register(campaign.write_summary)
        _plain(campaign, target, targets, ours)
        return
    extra = INSTRUMENTED.get(ours.target, [])
    with atheris.instrument_imports(include=["spacy_agreement", *extra]):
        if "nltk" in extra:
            import nltk.tree  # noqa: F401  (imported lazily by the package: instrument it here)
        import targets
    target = targets.TARGETS[ours.target]
    campaign = Campaign(ours.target, artifacts, ours.keep_going, _tool_version())
    atexit.register(campaign.write_summary)
    flags = [a for a in rest if a.startswith("-")]
    folders = [a for a in rest if not a.startswith("-")]
    if not folders:
        folders = [str(HERE / "corpus" / ours.target)]
    corpus = Path(folders[0])
    corpus.mkdir(parents=True, exist_ok=True)
    if not any(corpus.iterdir()):
        for seed in targets.SEEDS[ours.target]():
            (corpus / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
    defaults = {"-timeout=": f"-timeout={int(ours.timeout) or 1}", "-max_len=": "-max_len=4096",
                "-artifact_prefix=": f"-artifact_prefix={artifacts}{os.sep}"}
    for prefix, flag in defaults.items():
        if not any(a.startswith(prefix) for a in flags):
            flags.append(flag)

    def one(data: bytes) -> None:
        campaign.runs += 1
        started = time.perf_counter()
        try:
            campaign.outcomes[target(data)] += 1
        except Exception as exc:  # noqa: BLE001
            if not campaign.keep_going:
                raise
            campaign.outcomes["FINDING"] += 1
            campaign.record(data, exc)
        campaign.slowest = max(campaign.slowest, time.perf_counter() - started)

    for seed in targets.SEEDS[ours.target]():  # warm up (lazy imports: scipy, nltk) outside the time limit
        target(seed[:4096])
    atheris.Setup([argv[0], *flags, *folders], one)
    atheris.Fuzz()


def _plain(campaign: Campaign, target, targets, ours) -> None:
    def alarm(signum, frame):
        raise Hang(f"input ran over {ours.timeout} s")

    signal.signal(signal.SIGALRM, alarm)
    for data in targets.inputs(ours.target, ours.plain, ours.seed):
        campaign.runs += 1
        started = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, ours.timeout)
        try:
            campaign.outcomes[target(data)] += 1
        except Exception as exc:  # noqa: BLE001
            signal.setitimer(signal.ITIMER_REAL, 0)
            campaign.outcomes["FINDING"] += 1
            campaign.record(data, exc)
            if not campaign.keep_going:
                raise SystemExit(1)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        campaign.slowest = max(campaign.slowest, time.perf_counter() - started)
        if campaign.runs % 10_000 == 0:
            print(f"#{campaign.runs} {dict(campaign.outcomes.most_common(4))}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main(sys.argv)
