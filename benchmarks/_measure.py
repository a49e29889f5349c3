"""What the benchmarks share: one program's wall time and peak memory, a corpus repeated k times.

Each measured run is a fresh process, output thrown away or written to a file, started through
GNU time (``/usr/bin/time -f %M``, its peak resident set) where there is one, else waited for
with ``os.wait4`` (``ru_maxrss``). GNU time because a child's peak counts the memory of the process
it was forked from until it runs its program: this script's (about 20 MiB) through ``wait4``, GNU
time's (about 2 MiB) through it, which matters for the compiled EVALB (about 2 MiB in all). ``child_env`` gives the children a bytecode cache (``PYTHONPYCACHEPREFIX`` under
a temporary folder, ``PYTHONDONTWRITEBYTECODE`` removed): without one, every run of an installed
package compiles its sources again (about a second), which is no part of what is measured.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

TIME = "/usr/bin/time"  # GNU time


def ours() -> List[str]:
    """How to run the spacy-agreement CLI with this interpreter."""
    return [sys.executable, "-m", "spacy_agreement.cli"]


def child_env(cache: Union[str, Path]) -> Dict[str, str]:
    """This environment with a bytecode cache under ``cache`` for the measured Python processes."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def run(command: Sequence[str], out: Optional[Union[str, Path]] = None, env: Optional[Dict[str, str]] = None,
        ok: Sequence[int] = (0,)) -> Tuple[float, float, int]:
    """Wall seconds, peak RSS (MiB) and exit status of one process; its stdout goes to ``out``
    (or nowhere). An exit status outside ``ok`` stops the benchmark with the end of its stderr."""
    with tempfile.TemporaryDirectory(prefix="measure.") as tmp:
        peak_file = Path(tmp) / "peak"
        timed = [TIME, "-f", "%M", "-o", str(peak_file), *command] if os.access(TIME, os.X_OK) else list(command)
        with open(out if out is not None else os.devnull, "wb") as sink:
            start = time.perf_counter()
            process = subprocess.Popen(timed, stdout=sink, stderr=subprocess.PIPE, env=env)
            err = process.stderr.read() if process.stderr else b""  # read while it runs: no pipe deadlock
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - start
            process.returncode = code = os.waitstatus_to_exitcode(status)
            if process.stderr:
                process.stderr.close()
        peak_kib = usage.ru_maxrss
        if timed is not command and peak_file.exists():
            words = peak_file.read_text().split()  # "Command exited with non-zero status N" first, then %M
            peak_kib = int(words[-1]) if words and words[-1].isdigit() else peak_kib
    if code not in ok:
        raise SystemExit(f"{' '.join(map(str, command))} failed ({code}): {err.decode('utf-8', 'replace')[-2000:]}")
    return wall, peak_kib / 1024.0, code


def best(command: Sequence[str], repeat: int, env: Optional[Dict[str, str]] = None,
         ok: Sequence[int] = (0,)) -> Tuple[float, float]:
    """The best wall time and the highest peak RSS (MiB) of ``repeat`` runs (at least one)."""
    runs = [run(command, env=env, ok=ok)[:2] for _ in range(max(repeat, 1))]
    return min(w for w, _ in runs), max(m for _, m in runs)


def repeat_file(source: Union[str, Path], times: int, target: Union[str, Path]) -> Path:
    """``source`` written ``times`` times, one copy after the other, to ``target`` (a newline
    added after a copy that lacks one), a block at a time."""
    text = Path(source).read_bytes()
    if text and not text.endswith(b"\n"):
        text += b"\n"
    with open(target, "wb") as handle:
        for _ in range(times):
            handle.write(text)
    return Path(target)


__all__ = ["best", "child_env", "ours", "repeat_file", "run"]
