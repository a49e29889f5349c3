"""Type stubs of the judging page's compiled parts (extension/_drawing.pyx): the dependency pictures
of many sentences at once, as spacy_agreement.report.judging_pictures draws one, and the trees'
JSON texts of the page id and the key."""
from typing import List, Tuple, Union

import numpy as np
import numpy.typing as npt

def dependency_pictures(
    strings: List[bytes],
    offsets: npt.NDArray[np.int64],
    word_width: npt.NDArray[np.float64],
    word_shown: npt.NDArray[np.int32],
    word_title: npt.NDArray[np.int32],
    word_key: npt.NDArray[np.int32],
    heads: npt.NDArray[np.int32],
    plain: npt.NDArray[np.float64],
    bold: npt.NDArray[np.float64],
    label_shown: npt.NDArray[np.int32],
    label_title: npt.NDArray[np.int32],
    layout_bold: npt.NDArray[np.uint8],
    flags: npt.NDArray[np.uint8],
    json: bool = ...,
) -> Tuple[List[List[Union[str, bytes]]], List[Tuple[int, int]]]: ...
def coordinate(v: float) -> str: ...
def tree_texts(
    strings: List[bytes],
    offsets: npt.NDArray[np.int64],
    forms: npt.NDArray[np.int32],
    heads: npt.NDArray[np.int32],
    deprels: npt.NDArray[np.int32],
    upos: npt.NDArray[np.int32],
    with_upos: npt.NDArray[np.uint8],
) -> List[Tuple[bytes, bytes]]: ...
