"""A call run on a second thread beside the caller's work (:class:`Background`): what the
streamed evaluations overlap with their Python-level work, the compiled readers and kernels,
which run without the GIL (the next blocks of two CoNLL-U files scanned, a batch's tree edit
distances, the leaf-ancestor error configurations). On the two cores of a laptop or a CI runner
the caller's interpreter-bound work and the compiled work then share the machine instead of
taking turns; the figures are those of the same calls made one after the other.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Dict


class Background:
    """``function(*args)`` started on a thread of its own: :meth:`result` waits for it and gives
    its value, or raises its exception in the caller's thread. Nothing the call reads or writes
    may be touched by the caller until :meth:`result` (or :meth:`wait`) has returned."""

    def __init__(self, function: Callable[..., Any], *args: Any, name: str = "spacy-agreement worker"):
        self._box: Dict[str, Any] = {}
        self._thread = threading.Thread(target=self._run, args=(function, args), name=name)
        self._thread.start()

    def _run(self, function: Callable[..., Any], args: tuple) -> None:
        try:
            self._box["value"] = function(*args)
        except BaseException as exc:  # raised by result(), in the caller's thread
            self._box["error"] = exc

    def wait(self) -> None:
        """Wait for the call to end (its exception, if any, is kept for :meth:`result`)."""
        self._thread.join()

    def result(self) -> Any:
        """The call's value, once it has ended; its exception raised here."""
        self._thread.join()
        if "error" in self._box:
            raise self._box["error"]
        return self._box["value"]


__all__ = ["Background"]
