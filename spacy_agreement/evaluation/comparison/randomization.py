"""Approximate randomization without SciPy's per-sentence loop: the same shuffles as
:func:`scipy.stats.permutation_test` (``permutation_type="samples"``, two samples paired by
sentence) draws from the same seed, and the same p-values, about ten times faster.

SciPy permutes each sentence's pair of analyses separately, one ``moveaxis`` per sentence per
batch of shuffles (16,000 sentences × 10,000 shuffles: ~9 s of its 10). Which sentences a
shuffle swaps is all that matters here, so :func:`swap_masks` draws them directly from the
random stream SciPy would consume:

* SciPy ≥ 1.15 (``rng=``): a :class:`numpy.random.Generator`; ``Generator.permuted`` shuffles each
  sentence's two indices with one bounded draw, one 32-bit word of the stream per sentence, and
  swaps them when the word's lowest bit is 0. A batch always draws ``batch`` full rows (SciPy
  permutes a tiled array of that size and drops the surplus rows of the last batch).
* older SciPy (``random_state=``): a :class:`numpy.random.RandomState`; each shuffle draws two
  uniform numbers per sentence and ``argsort`` puts the second first (a swap) when the first is
  the larger.

The tests check the masks against SciPy's own generator and the p-values against
``permutation_test`` itself on data of every kind.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterator, Optional

import numpy as np


def scipy_seeds_generator() -> bool:
    """Whether :func:`scipy.stats.permutation_test` takes ``rng=`` (a Generator from the seed):
    SciPy 1.15 and later (SPEC 7), read from SciPy's version, which does not import
    ``scipy.stats`` (a second; the tests check the version against the signature)."""
    import scipy

    found = re.match(r"(\d+)\.(\d+)", scipy.__version__)
    return found is not None and (int(found.group(1)), int(found.group(2))) >= (1, 15)


def swap_masks(n: int, shuffles: int, batch: int, seed: Optional[int],
               generator: Optional[bool] = None) -> Iterator[np.ndarray]:
    """Boolean arrays of shape (shuffles in the batch, ``n``), batch after batch: which
    sentences each shuffle swaps, as SciPy's permutation test draws them from ``seed``."""
    generator = scipy_seeds_generator() if generator is None else generator
    batch = max(1, min(batch, shuffles))
    if generator:
        yield from _generator_swaps(np.random.default_rng(seed).bit_generator, n, shuffles, batch)
    else:
        state = np.random.RandomState(seed)
        for k in range(0, shuffles, batch):
            uniform = state.random_sample(size=(min(batch, shuffles - k), n, 2))
            yield uniform[..., 0] > uniform[..., 1]


def _generator_swaps(bits: np.random.BitGenerator, n: int, shuffles: int, batch: int) -> Iterator[np.ndarray]:
    """The swaps of :func:`swap_masks` from a Generator's bit generator: the 32-bit words
    ``Generator.integers(0, 2**32, dtype=uint32)`` would give, read from the raw 64-bit draws
    (PCG64 gives a raw word's low half first, then its high half, carried into the next batch
    when a batch takes an odd number of words), without the per-word bounded-draw loop."""
    carry = np.zeros(0, dtype=np.uint32)  # the high half of a raw word the last batch began
    for k in range(0, shuffles, batch):
        need = batch * n - len(carry)
        raw = bits.random_raw((need + 1) // 2)
        halves = np.atleast_1d(raw).astype("<u8", copy=False).view("<u4")
        words = np.concatenate((carry, halves[:need])) if len(carry) else halves[:need]
        carry = halves[need:].copy()
        low = words.view(np.uint8)[::4]  # each little-endian word's lowest byte, which holds its lowest bit
        yield (low.reshape(batch, n)[:min(batch, shuffles - k)] & 1) == 0


def exact_p_values(statistic: Callable[[np.ndarray], np.ndarray], observed: np.ndarray, n: int,
                   batch: int) -> np.ndarray:
    """One p-value per column of ``observed`` over every one of the 2ⁿ arrangements (few
    sentences): the share whose statistic is at least the observed one, with SciPy's tolerance
    (what ``permutation_test`` computes when it enumerates; one sentence, which SciPy refuses,
    gives 1: its two arrangements differ by the same amount)."""
    observed = np.asarray(observed, dtype=float)
    threshold = observed - np.abs(np.finfo(float).eps * 100 * observed)
    count = np.zeros(observed.shape, dtype=np.int64)
    total = 1 << n
    bits = np.arange(n, dtype=np.int64)
    with np.errstate(invalid="ignore"):
        for start in range(0, total, max(1, batch)):
            codes = np.arange(start, min(total, start + max(1, batch)), dtype=np.int64)
            swapped = ((codes[:, None] >> bits) & 1).astype(float)
            count += np.count_nonzero(statistic(swapped) >= threshold, axis=0)
    return np.clip(count / total, 0.0, 1.0)


def randomization_p_values(statistic: Callable[[np.ndarray], np.ndarray], observed: np.ndarray, n: int,
                           shuffles: int, batch: int, seed: Optional[int], dtype: Any = float) -> np.ndarray:
    """One p-value per column of ``observed``: (1 + shuffles whose statistic is at least the
    observed one) / (1 + shuffles), with SciPy's tolerance for ties (100 machine epsilons,
    relative). ``statistic`` maps a 0/1 array of swaps (shuffles × ``n``, of ``dtype``: float64,
    or float32 where the statistic's sums are exact in it) to the statistics (shuffles × columns)."""
    observed = np.asarray(observed, dtype=float)
    threshold = observed - np.abs(np.finfo(float).eps * 100 * observed)
    count = np.zeros(observed.shape, dtype=np.int64)
    with np.errstate(invalid="ignore"):
        for swapped in swap_masks(n, shuffles, batch, seed):
            count += np.count_nonzero(statistic(swapped.astype(dtype)) >= threshold, axis=0)
    return np.clip((count + 1) / (shuffles + 1), 0.0, 1.0)


__all__ = ["exact_p_values", "randomization_p_values", "scipy_seeds_generator", "swap_masks"]
