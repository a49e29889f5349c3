"""Phrase-structure evaluation: EVALB (Sekine & Collins 1997, ``evalb.c`` to the byte), GEIG's
bracket F and the leaf-ancestor metric (Sampson & Babarczy 2003). The commands are ``sa.evalb``
and ``sa.leaf_ancestor`` (the modules :mod:`.evalb` and :mod:`.leaf_ancestor` hold the scoring);
each metric has one accumulator (:class:`~.evalb.Evaluator`,
:class:`~.leaf_ancestor_accumulator.LeafAncestorEvaluator`: pairs or files in, a result with its
counts per sentence out) over two implementations, the compiled one and the reference in Python.
"""
from ..._lazy import lazy_exports

_EXPORTS = {
    "EvalbRun": ".evalb_run",
    "EvalbSettings": ".evalb_params",
    "EvalbParams": ".evalb_params",
    "EvalbReport": ".evalb",
    "Evaluator": ".evalb",
    "LeafAncestorEvaluator": ".leaf_ancestor_accumulator",
    "evaluate_files": ".evalb",
    "format_report": ".evalb",
    "BracketCounts": ".geig",
    "bracket_counts": ".geig",
    "LeafAncestorRun": ".leaf_ancestor_run",
    "LeafAncestorResult": ".leaf_ancestor",
    "leaf_ancestor_trees": ".leaf_ancestor:leaf_ancestor",
    "leaf_ancestor_files": ".leaf_ancestor",
    "exact_cost": ".leaf_ancestor",
    "first_char_cost": ".leaf_ancestor",
    "Lineages": ".lineage",
    "dependency_lineages": ".lineage",
    "phrase_lineages": ".lineage",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
