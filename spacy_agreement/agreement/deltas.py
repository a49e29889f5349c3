"""Tree edit distance and the distances δ that α is computed over: a registry.

The built-in δ are those of Skjærholt (2014), §2:

* δplain(x, y) = TED(x, y)
* δdiff(x, y)  = TED(x, y) − abs(|x| − |y|)
* δnorm(x, y)  = TED(x, y) / (|x| + |y|)

TED is the Zhang & Shasha (1989) ordered tree edit distance with unit insert and delete
costs; relabelling costs 1 unless a label cost is given (see
:meth:`LabelVocab.cost_matrix`). |x| is the size of the annotation, the length of the
sentence: for a dependency tree its tokens plus the artificial root (counting tokens that
drop out of the compared tree because they sit in a head cycle), for a phrase tree its
leaves (see :func:`spacy_agreement.agreement.alpha.alpha` for why). Note that δdiff is not a
metric in the strict sense (distinct trees can be at distance 0, Figure 2 of the paper);
the paper uses it all the same.

**The registry.** :data:`DELTAS` maps a name to a :class:`Delta`: a vectorised function of
the pairs' TEDs and sizes. The built-in δ are defined once, in the Cython core (``_delta``
in ``extension/deltas.pxi``), which computes them inside the all-pairs kernels; their
``values`` call the same code. :func:`register_delta` adds a δ (any function of TED, |x|
and |y|): :func:`~spacy_agreement.agreement.alpha.alpha` then reports ``alpha_<name>`` for
it beside the others, everywhere α is shown (the CLI's ``alpha``, reports, JSON). A
registered δ is computed from the TEDs of chunks of pairs, vectorised over each chunk (no
Python call per pair): one more pass over the pairs than the built-ins.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Callable, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _core
from ..registry import Registry
from ..limits import check_forest, check_ted
from ..trees import ConstituencyTree, CyclePolicy, DependencyTree, Forest, OrderedTree
from ..vocab import LabelCost, LabelVocab
from .result import RESULT_KEYS

Tree = Union[DependencyTree, ConstituencyTree]
DeltaName = str  # a registered name: "plain", "diff", "norm", or one added with register_delta
DeltaValues = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


#: A pair-level δ: ``pairs(trees, left, right)`` gives δ of the pairs (``trees[left[k]]``,
#: ``trees[right[k]]``) of ordered trees, for a δ that is not a function of the TED.
PairValues = Callable[[Sequence[OrderedTree], np.ndarray, np.ndarray], np.ndarray]
#: ``expected(distinct, n_threads)``: Σ over ordered pairs of distinct trees of c_i·c_j·δ²
#: (``distinct``: :class:`~spacy_agreement.agreement.pairable.DistinctTrees`), where a δ has
#: a faster way than its ``pairs`` over every pair.
ExpectedSum = Callable[[Any, Optional[int]], float]


@dataclass(frozen=True)
class Delta:
    """A distance δ for α. Either a function of the pairs' TEDs and sizes,
    ``values(ted, size_a, size_b)`` (TEDs as float64, sizes |x| as int64, arrays of pairs),
    or a pair-level hook ``pairs(trees, left, right)`` (:data:`PairValues`) for a δ that is
    not computed from the TED (the pq-gram distance), with optionally ``expected``
    (:data:`ExpectedSum`) for its all-pairs sum. ``kernel_code`` is set for the built-in δ,
    which the Cython kernels compute themselves. ``default``: computed when no δ is named
    (the pq-gram δ is computed only when asked for)."""

    name: str
    values: Optional[DeltaValues] = None
    description: str = ""
    kernel_code: Optional[int] = None
    pairs: Optional[PairValues] = None
    expected: Optional[ExpectedSum] = None
    default: bool = True

    def __post_init__(self) -> None:
        if (self.values is None) == (self.pairs is None):
            raise ValueError(f"delta {self.name!r} needs exactly one of values (a function of TED and sizes) "
                             "and pairs (a pair-level function of trees)")

    @property
    def from_ted(self) -> bool:
        """Whether δ is a function of the TED (``values``), not a pair-level hook."""
        return self.values is not None


def _kernel_values(code: int, ted: np.ndarray, size_a: np.ndarray, size_b: np.ndarray) -> np.ndarray:
    return _core.delta_values(code, np.ascontiguousarray(ted, dtype=np.float64),
                              np.ascontiguousarray(size_a, dtype=np.int64), np.ascontiguousarray(size_b, dtype=np.int64))


def delta_keys(name: str) -> Tuple[str, ...]:
    """The output keys α writes for δ ``name``."""
    return (f"alpha_{name}", f"observed_{name}", f"expected_{name}", f"alpha_{name}_low", f"alpha_{name}_high")


_DESCRIPTIONS = {
    "plain": "TED: every edit counts (Skjærholt 2014, §2)",
    "diff": "TED minus the difference in sentence length: edits forced by different lengths are free",
    "norm": "TED divided by the summed sentence lengths: disagreement per node",
}
#: The distances α is computed over (:class:`~spacy_agreement.registry.Registry`): a name
#: whose keys (:func:`delta_keys`) an α result writes already is refused.
DELTAS: Registry = Registry("delta", keys=delta_keys, reserved=lambda: RESULT_KEYS)
for _code, _name in enumerate(_core.KERNEL_DELTAS):
    DELTAS.register(_name, Delta(_name, partial(_kernel_values, _code), _DESCRIPTIONS.get(_name, ""), _code),
                    builtin=True)


def as_delta(name: str, value: Any, description: str = "", default: bool = True) -> Delta:
    """A :class:`Delta` from what a caller has: a Delta, an object with ``values`` or
    ``pairs`` (and optionally ``expected``, ``description``), or a function of
    ``(ted, size_a, size_b)`` (as the ``krippendorff`` package takes a distance function)."""
    if isinstance(value, Delta):
        return value if value.name == name else replace(value, name=name)
    values, pairs = getattr(value, "values", None), getattr(value, "pairs", None)
    if values is not None or pairs is not None:
        return Delta(name, values, description or getattr(value, "description", ""), None, pairs,
                     getattr(value, "expected", None), default)
    if callable(value):
        return Delta(name, value, description or (getattr(value, "__doc__", None) or "").strip().split("\n")[0],
                     default=default)
    raise ValueError(f"delta {name!r}: give a function of (ted, size_a, size_b), a Delta, or an object with "
                     "values or pairs")


def register_delta(name: str, values: Any = None, description: str = "", *, pairs: Optional[PairValues] = None,
                   expected: Optional[ExpectedSum] = None, default: bool = True, _builtin: bool = False) -> Delta:
    """Add a δ to the registry (see the module docstring): ``values`` a function of
    ``(ted, size_a, size_b)``, a :class:`Delta` or an object with ``values`` or ``pairs``;
    or ``pairs=`` a pair-level function of trees (:data:`PairValues`). ``name`` must be new
    and usable in output keys (letters, digits, ``_``), and its keys (``alpha_<name>``, ...)
    must not be keys an α result writes already (``alpha_method``: no δ ``method``): a
    :class:`~spacy_agreement.registry.RegistryError` (a ``ValueError``) otherwise."""
    DELTAS.check(name)
    delta = as_delta(name, values if values is not None else _Hooks(pairs, expected), description, default)
    return DELTAS.register(name, delta, builtin=_builtin)


@dataclass(frozen=True)
class _Hooks:
    pairs: Optional[PairValues]
    expected: Optional[ExpectedSum]
    values: None = None


def unregister_delta(name: str) -> None:
    """Remove a δ added with :func:`register_delta` (the built-in ones stay)."""
    if name in DELTAS and not DELTAS.is_builtin(name):
        DELTAS.unregister(name)


def delta_names(default_only: bool = False) -> Tuple[str, ...]:
    """The registered δ, built-in first (``default_only``: those computed when no δ is named)."""
    return tuple(name for name, d in DELTAS.items() if d.default or not default_only)


def get_delta(name: str) -> Delta:
    return DELTAS.get(name)


def tree_edit_distance(
    a: Tree, b: Tree, label_cost: Optional[LabelCost] = None, cycles: CyclePolicy = "drop"
) -> float:
    """Zhang–Shasha tree edit distance between two dependency or two phrase trees.

    Dependency trees are compared in the Figure 1 form of Skjærholt (2014) and phrase
    trees without their words (see :mod:`spacy_agreement.trees`).
    """
    ted, _, _ = _ted_and_sizes(a, b, label_cost, cycles)
    return ted


def _ted_and_sizes(a: Tree, b: Tree, label_cost: Optional[LabelCost], cycles: CyclePolicy):
    """TED of two trees and their sizes |x| (``annotation_size``: tokens + root, or leaves)."""
    vocab = LabelVocab()
    x, _ = a.to_ordered(vocab, cycles)
    y, _ = b.to_ordered(vocab, cycles)
    check_ted(x.size, y.size, a.location, kernels=1)  # before the tables are allocated
    ted = ordered_tree_edit_distance(x, y, vocab.cost_matrix(label_cost, symmetric=False))  # one directed pair
    return ted, a.annotation_size, b.annotation_size


def ordered_tree_edit_distance(x: OrderedTree, y: OrderedTree, cost: Optional[np.ndarray] = None) -> float:
    """TED of two :class:`OrderedTree`s built with the same vocabulary (tables bounded by
    :func:`~spacy_agreement.limits.max_memory`)."""
    check_ted(x.size, y.size, kernels=1)
    return float(_core.tree_edit_distance(x.labels, x.lml, x.keyroots, y.labels, y.lml, y.keyroots, cost))


def delta(a: Tree, b: Tree, name: DeltaName = "plain", label_cost: Optional[LabelCost] = None,
          cycles: CyclePolicy = "drop") -> float:
    """δ ``name`` (a registered one) of two trees, not squared."""
    return delta_from_ted(*_ted_and_sizes(a, b, label_cost, cycles), name)


def delta_from_ted(ted: float, size_x: int, size_y: int, name: DeltaName) -> float:
    """δ ``name`` of one pair from its TED and sizes."""
    return float(get_delta(name).values(np.array([ted], dtype=np.float64), np.array([size_x], dtype=np.int64),
                                        np.array([size_y], dtype=np.int64))[0])


def squared_delta_values(ted: np.ndarray, size_a: np.ndarray, size_b: np.ndarray,
                         names: Sequence[str]) -> np.ndarray:
    """δ² of many pairs for each δ in ``names``: an array (len(names), pairs)."""
    out = np.empty((len(names), len(ted)), dtype=np.float64)
    for k, name in enumerate(names):
        out[k] = (name if isinstance(name, Delta) else get_delta(name)).values(ted, size_a, size_b) ** 2
    return out


def distance_matrix(trees: Sequence[Tree], label_cost: Optional[LabelCost] = None,
                    cycles: CyclePolicy = "drop") -> np.ndarray:
    """The symmetric matrix of TEDs between all pairs of ``trees`` (computed once per pair)."""
    vocab = LabelVocab()
    ordered = [t.to_ordered(vocab, cycles)[0] for t in trees]
    check_forest([t.size for t in ordered], [t.location for t in trees])
    forest = Forest.from_trees(ordered)
    n = len(ordered)
    left, right = np.triu_indices(n, k=1)
    values = _core.forest_ted_pairs(*forest.arrays(), left.astype(np.int64), right.astype(np.int64),
                                    vocab.cost_matrix(label_cost))
    out = np.zeros((n, n), dtype=np.float64)
    out[left, right] = values
    out[right, left] = values
    return out
