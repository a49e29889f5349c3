"""Python's cyclic garbage collector paused while a reader builds a corpus.

A corpus read from files is tens of thousands of small objects made in a row (a tree, its
location and a few tuples per sentence) that form no reference cycle. Each of them counts toward
the collector's thresholds, so reading a treebank runs many collections, the older generations
over every object made so far: about half of the time of building 16,000 trees from scanned
columns. Nothing those collections could free exists, so they are paused for the building and
the collector is restored as it was (enabled or not) afterwards, error or not.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collection_paused() -> Iterator[None]:
    """The cyclic garbage collector disabled inside the block, as it was after it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


__all__ = ["collection_paused"]
