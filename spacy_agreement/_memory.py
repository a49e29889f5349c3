"""Python's cyclic garbage collector paused while a reader builds a corpus.

A corpus read from files is tens of thousands of small objects made in a row (a tree, its
location and a few tuples per sentence) that form no reference cycle. Each of them counts toward
the collector's thresholds, so reading a treebank runs many collections, the older generations
over every object made so far: about half of the time of building 16,000 trees from scanned
columns. Nothing those collections could free exists, so they are paused for the building and
the collector is restored as it was (enabled or not) afterwards, error or not.

The collections are only deferred, though: once the collector runs again, its first passes go
over every object the corpus is made of (a third of a second on 16,000 sentences). A command
line process, which reads its corpus, answers and exits, has no use for them: the CLI calls
:func:`freeze_after_reading`, and the objects that exist when a corpus is built are then moved
out of the collector's reach (``gc.freeze``). They are still freed as usual when no longer
referenced; only a reference cycle among them would wait for the end of the process. A library
user's process is left as it is.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


_FREEZE = False


def freeze_after_reading() -> None:
    """In this process (a command line run), every corpus once built is frozen out of the
    collector's reach (module docstring)."""
    global _FREEZE
    _FREEZE = True


@contextmanager
def collection_paused() -> Iterator[None]:
    """The cyclic garbage collector disabled inside the block, as it was after it (and, after
    :func:`freeze_after_reading`, what the block built frozen)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _FREEZE:
            gc.freeze()
        if was_enabled:
            gc.enable()


__all__ = ["collection_paused", "freeze_after_reading"]
