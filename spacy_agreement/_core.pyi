"""Type stubs of the Cython core (extension/_core.pyx and the parts it includes).

Checked against the built extension by tests/test_packaging.py (``mypy.stubtest``, or a
signature comparison where mypy is absent): every public name of ``_core`` has a stub here
with the same parameters in the same order.
"""
from typing import Callable, List, Optional, Tuple

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

_Int32 = npt.NDArray[np.int32]
_Int64 = npt.NDArray[np.int64]
_Float64 = npt.NDArray[np.float64]
# the mirrored forest (labels, lml, keyroots, kr_offsets) and each tree's Zhang–Shasha
# cost as given and mirrored (see spacy_agreement.agreement.engine.mirror_arrays)
_Mirror = Tuple[_Int32, _Int32, _Int32, _Int64, _Int64, _Int64]

KERNEL_DELTAS: Tuple[str, ...]

def delta_values(code: int, ted: _Float64, size_a: _Int64, size_b: _Int64) -> _Float64: ...
def dependency_postorder(heads: _Int32) -> Tuple[_Int32, _Int32, int]: ...
def derive_lml_keyroots(parent: _Int32) -> Tuple[_Int32, _Int32]: ...
def mirror_forest(
    labels: _Int32, lml: _Int32, offsets: _Int64, keyroots: _Int32, kr_offsets: _Int64,
) -> Tuple[_Int32, _Int32, _Int32, _Int64, _Int64, _Int64]: ...
def validate_forest(
    labels: _Int32, lml: _Int32, offsets: _Int64, keyroots: _Int32, kr_offsets: _Int64, n_labels: int = -1
) -> None: ...
def tree_edit_distance(
    labels1: _Int32, lml1: _Int32, keyroots1: _Int32,
    labels2: _Int32, lml2: _Int32, keyroots2: _Int32,
    cost: Optional[_Float64] = None,
) -> float: ...
def forest_ted_pairs(
    labels: _Int32, lml: _Int32, offsets: _Int64, keyroots: _Int32, kr_offsets: _Int64,
    left: _Int64, right: _Int64, cost: Optional[_Float64] = None,
) -> _Float64: ...
def forest_alpha_sums(
    labels: _Int32, lml: _Int32, offsets: _Int64, keyroots: _Int32, kr_offsets: _Int64,
    item: _Int64, item_count: _Int64, sizes: _Int64, cost: Optional[_Float64] = None,
) -> Tuple[_Float64, _Float64, _Float64]: ...
def expected_sums_rows(
    labels: _Int32, lml: _Int32, offsets: _Int64, keyroots: _Int32, kr_offsets: _Int64,
    sizes: _Int64, counts: _Float64, row_start: int, row_end: int, n_threads: int = 1,
    cost: Optional[_Float64] = None, mirror: Optional[_Mirror] = None,
    layouts: Optional[Tuple[Optional[RowLayouts], Optional[RowLayouts]]] = None, per_row: bool = False,
    progress: Optional[Callable[[int], object]] = None,
) -> _Float64: ...

ROW_KERNELS: Tuple[str, ...]
ROW_GROUP: int
ROW_GROUP_TREES: int

@disjoint_base
class RowLayouts:
    max_rows: int
    n_trees: int
    n_blocks: int
    n_block_columns: int
    n_tree_columns: int
    def covers(self, labels: _Int32, lml: _Int32, offsets: _Int64, keyroots: _Int32, kr_offsets: _Int64) -> bool: ...
    def __reduce__(self) -> Tuple[object, Tuple[object, ...]]: ...

def row_layouts(
    labels: _Int32, lml: _Int32, offsets: _Int64, keyroots: _Int32, kr_offsets: _Int64, blocks: bool = True,
) -> RowLayouts: ...
def row_kernels() -> List[str]: ...
def row_group(n_trees: int) -> int: ...
def row_work_bytes(rows: int) -> int: ...
def row_kernel() -> str: ...
def use_row_kernel(name: str = "auto") -> str: ...
def levenshtein_pairs(
    symbols: _Int32, offsets: _Int64, left: _Int64, right: _Int64, cost: Optional[_Float64] = None,
) -> _Float64: ...
def pqgram_pairs(grams: _Int64, offsets: _Int64, left: _Int64, right: _Int64) -> _Float64: ...
def pqgram_expected_rows(
    grams: _Int64, offsets: _Int64, counts: _Float64, row_start: int, row_end: int, n_threads: int = 1,
) -> float: ...
