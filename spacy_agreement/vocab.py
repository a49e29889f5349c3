"""A label vocabulary shared by the trees of one computation, and label cost matrices."""
from __future__ import annotations

import math
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Tuple, Union

import numpy as np

from .errors import BadOptionError

LabelCost = Union[Callable[[str, str], float], Mapping[Tuple[str, str], float]]


class LabelVocab:
    """Dense ``int32`` ids for string labels.

    Id 0 is always the empty label ``""``, the label of the artificial root of a
    dependency tree (Skjærholt 2014, Figure 1: the root is labelled ε).
    """

    def __init__(self, labels: Iterable[str] = ()):
        self._ids: Dict[str, int] = {"": 0}
        self._labels: List[str] = [""]
        for label in labels:
            self.add(label)

    def add(self, label: str) -> int:
        """The id of ``label``, assigning the next free id when it is new."""
        found = self._ids.get(label)
        if found is None:
            found = len(self._labels)
            self._ids[label] = found
            self._labels.append(label)
        return found

    def ids(self, labels: Iterable[str]) -> np.ndarray:
        return np.fromiter((self.add(lab) for lab in labels), dtype=np.int32)

    def __getitem__(self, label_id: int) -> str:
        return self._labels[label_id]

    def __contains__(self, label: object) -> bool:
        return label in self._ids

    def __len__(self) -> int:
        return len(self._labels)

    @property
    def labels(self) -> Tuple[str, ...]:
        return tuple(self._labels)

    def cost_matrix(self, cost: Optional[LabelCost], symmetric: bool = True) -> Optional[np.ndarray]:
        """A dense ``len(self) × len(self)`` float64 relabelling cost matrix, or ``None``.

        ``cost`` is a function ``cost(a, b)`` of two labels, or a mapping from label
        pairs to costs; pairs missing from a mapping cost 0 when the labels are equal and
        1 otherwise (unit cost), and pairs of labels no tree uses are ignored. ``None`` means unit costs (no matrix). The matrix is
        computed once per computation, never per pair. Every cost is checked
        (:func:`check_label_cost`): 0 for identical labels, finite and non-negative otherwise;
        and the costs must be symmetric (α's δ is a distance: the all-pairs kernels visit each
        pair in one orientation): a mapping's ``(a, b)`` also sets ``(b, a)`` unless that is
        given too (then they must agree), a function must give ``cost(a, b) == cost(b, a)``.
        ``symmetric=False`` (one directed pair, :func:`~spacy_agreement.agreement.deltas.tree_edit_distance`)
        lets a function's costs differ by direction, and a mapping's pairs disagree.
        """
        if cost is None:
            return None
        n = len(self._labels)
        matrix = np.ones((n, n), dtype=np.float64)
        np.fill_diagonal(matrix, 0.0)
        if callable(cost):
            for i, a in enumerate(self._labels):
                for j, b in enumerate(self._labels):
                    matrix[i, j] = check_label_cost(a, b, cost(a, b))
        else:
            for (a, b), value in cost.items():
                value = check_label_cost(a, b, value)  # every given pair, used or not
                reverse = cost.get((b, a))
                if symmetric and reverse is not None and check_label_cost(b, a, reverse) != value:
                    raise BadOptionError(f"label_cost({a!r}, {b!r}) is {value} but label_cost({b!r}, {a!r}) is "
                                         f"{float(reverse)}: alpha needs a symmetric distance")
                if a in self._ids and b in self._ids:  # labels no tree uses cannot matter
                    if reverse is None:
                        matrix[self._ids[b], self._ids[a]] = value
                    matrix[self._ids[a], self._ids[b]] = value
        asymmetric = np.argwhere(matrix != matrix.T) if symmetric else ()
        if len(asymmetric):
            i, j = (int(x) for x in asymmetric[0])
            a, b = self._labels[i], self._labels[j]
            raise BadOptionError(f"label_cost({a!r}, {b!r}) is {matrix[i, j]} but label_cost({b!r}, {a!r}) is "
                                 f"{matrix[j, i]}: alpha needs a symmetric distance")
        return matrix


def check_label_cost(a: str, b: str, value: object) -> float:
    """``value`` as the cost of relabelling ``a`` as ``b``, checked: a number, finite and
    non-negative, and 0 when the labels are equal (otherwise identical trees would be at a
    distance); anything else is a :class:`~spacy_agreement.errors.BadOptionError` naming the pair."""
    try:
        cost = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise BadOptionError(f"label_cost({a!r}, {b!r}) is {value!r}, not a number") from None
    if not math.isfinite(cost) or cost < 0:
        raise BadOptionError(f"label_cost({a!r}, {b!r}) is {cost}: costs must be finite and non-negative")
    if a == b and cost != 0:
        raise BadOptionError(f"label_cost({a!r}, {b!r}) is {cost}: identical labels must cost 0")
    return cost


def compared_label(label: str, fold_root_case: bool = True, ignore_subtypes: bool = False) -> str:
    """A dependency relation as every attachment score compares it (``alpha``'s LAS/LA and
    ``evaluate``'s metrics alike): the root relation in lower case with ``fold_root_case``
    (``ROOT`` and ``Root`` are ``root``), then without its subtype with ``ignore_subtypes``
    (``nmod:poss`` is ``nmod``)."""
    if fold_root_case and label != "root" and label.lower() == "root":
        label = "root"
    return label.split(":", 1)[0] if ignore_subtypes else label
