"""Type stubs of the Cython core (extension/_core.pyx)."""
from typing import Optional, Tuple

import numpy as np
import numpy.typing as npt

Int32 = npt.NDArray[np.int32]
Int64 = npt.NDArray[np.int64]
Float64 = npt.NDArray[np.float64]

def derive_lml_keyroots(parent: Int32) -> Tuple[Int32, Int32]: ...
def validate_forest(
    labels: Int32, lml: Int32, offsets: Int64, keyroots: Int32, kr_offsets: Int64, n_labels: int = -1
) -> None: ...
def tree_edit_distance(
    labels1: Int32, lml1: Int32, keyroots1: Int32,
    labels2: Int32, lml2: Int32, keyroots2: Int32,
    cost: Optional[Float64] = None,
) -> float: ...
def forest_ted_pairs(
    labels: Int32, lml: Int32, offsets: Int64, keyroots: Int32, kr_offsets: Int64,
    left: Int64, right: Int64, cost: Optional[Float64] = None,
) -> Float64: ...
def forest_alpha_sums(
    labels: Int32, lml: Int32, offsets: Int64, keyroots: Int32, kr_offsets: Int64,
    item: Int64, item_count: Int64, sizes: Int64, cost: Optional[Float64] = None,
) -> Tuple[Float64, Float64, Float64]: ...
def levenshtein_pairs(
    symbols: Int32, offsets: Int64, left: Int64, right: Int64, cost: Optional[Float64] = None,
) -> Float64: ...
def expected_sums_rows(
    labels: Int32, lml: Int32, offsets: Int64, keyroots: Int32, kr_offsets: Int64,
    sizes: Int64, counts: Float64, row_start: int, row_end: int, n_threads: int = 1,
    cost: Optional[Float64] = None,
) -> Float64: ...
def pqgram_pairs(grams: Int64, offsets: Int64, left: Int64, right: Int64) -> Float64: ...
def pqgram_expected_rows(
    grams: Int64, offsets: Int64, counts: Float64, row_start: int, row_end: int, n_threads: int = 1,
) -> float: ...
