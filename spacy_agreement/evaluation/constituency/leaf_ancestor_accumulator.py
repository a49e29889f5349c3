"""Leaf-ancestor's accumulator (Sampson & Babarczy 2003): sentence pairs, batches of them or two
bracket files in, a :class:`~.leaf_ancestor_result.LeafAncestorResult` out, whose
:meth:`~.leaf_ancestor_result.LeafAncestorResult.statistics` are its counts per sentence.

:class:`LeafAncestorEvaluator` has the shape of every family's accumulator (EVALB's
:class:`~.evalb.Evaluator`, conll18's
:class:`~spacy_agreement.evaluation.conll18.accumulator.AlignedEvaluator`): :meth:`~LeafAncestorEvaluator.add`
one pair of trees, :meth:`~LeafAncestorEvaluator.add_trees` many, :meth:`~LeafAncestorEvaluator.add_files`
two bracket files, :meth:`~LeafAncestorEvaluator.result`. It wraps the two implementations: phrase
trees with the built-in costs and no EVALB parameters go to the compiled engine
(:class:`~.leaf_ancestor_compiled.Engine`), a batch of :data:`~.leaf_ancestor_compiled.BATCH`
pairs at a time as they come (files: streamed through the compiled reader); anything else
(dependency trees, cost functions, EVALB parameters, ``compiled=False``) is scored by the
reference (:func:`~.leaf_ancestor_reference.leaf_ancestor_reference`) at :meth:`~LeafAncestorEvaluator.result`.
The trees added are kept: a compiled result scores them again for what it did not keep (the
sentences word by word).
"""
from __future__ import annotations

import os
from typing import Any, List, Optional, Sequence, Union

from ...errors import AgreementError, MismatchedCorpusError
from ...trees import ConstituencyTree, DependencyTree
from . import leaf_ancestor_compiled as compiled_loops
from .geig import BracketCounts, EvalbSettings
from .leaf_ancestor_reference import CostScheme, leaf_ancestor_reference
from .leaf_ancestor_result import LeafAncestorResult
from .lineage import Preterminals

Tree = Optional[Union[ConstituencyTree, DependencyTree]]
PathLike = Union[str, "os.PathLike[str]"]


def compiled_applies(cost: CostScheme, evalb: Optional[EvalbSettings], preterminals: Preterminals) -> bool:
    """Whether the compiled loops compute this: the built-in costs, no EVALB parameters."""
    return (evalb is None and isinstance(cost, str) and cost in compiled_loops.COSTS
            and isinstance(preterminals, str) and preterminals in compiled_loops.PRETERMINALS)


def compiled_result(engine: compiled_loops.Engine, cost: CostScheme, source: Any) -> LeafAncestorResult:
    """The result of a compiled :class:`~.leaf_ancestor_compiled.Engine` (``source``: what it
    scored, to score again what it did not keep)."""
    store = engine.store()
    counts = None
    if engine.any_tree:
        counts = BracketCounts(*store.brackets, engine.failed, engine.errors)
    name = cost if isinstance(cost, str) else "custom"
    return LeafAncestorResult(None, counts, name, skipped=engine.skipped, set_aside=engine.set_aside, store=store,
                              source=source, skipped_count=engine.skipped_count)


def _phrase_trees(trees: Sequence[Tree]) -> bool:
    return all(t is None or isinstance(t, ConstituencyTree) for t in trees)


class LeafAncestorEvaluator:
    """Leaf-ancestor and GEIG, pair by pair (module docstring). ``cost``, ``evalb``,
    ``preterminals`` and ``strict`` as :func:`~.leaf_ancestor.leaf_ancestor` takes them;
    ``keep_worst``, ``keep_rows``, ``keep_skipped`` what the compiled engine keeps
    (:func:`~.leaf_ancestor.leaf_ancestor_files`); ``sink.add(sentence)`` gets every scored
    sentence word by word (as the files are scored; for trees at :meth:`result`);
    ``compiled=False``: the reference alone."""

    def __init__(self, cost: CostScheme = "exact", evalb: Optional[EvalbSettings] = None,
                 preterminals: Preterminals = "auto", strict: bool = False, keep_worst: int = 10,
                 keep_rows: bool = False, keep_skipped: Optional[int] = None, sink: Any = None,
                 compiled: bool = True):
        self.cost, self.evalb, self.preterminals, self.strict = cost, evalb, preterminals, strict
        self.keep_worst, self.keep_rows, self.keep_skipped, self.sink = keep_worst, keep_rows, keep_skipped, sink
        self.compiled = compiled and compiled_applies(cost, evalb, preterminals)
        self.gold: List[Tree] = []
        self.candidate: List[Tree] = []
        self._engine: Optional[compiled_loops.Engine] = None
        self._scored = 0  # pairs handed to the engine
        self._done: Optional[LeafAncestorResult] = None
        self._files = False

    def add(self, gold: Tree, candidate: Tree) -> None:
        """One sentence pair: a gold and a candidate tree (``None``: a failed parse, a skip)."""
        self.add_trees([gold], [candidate])

    def add_trees(self, gold: Sequence[Tree], candidate: Sequence[Tree]) -> None:
        """Parallel gold and candidate trees (as many of each, else
        :class:`~spacy_agreement.errors.MismatchedCorpusError`); full batches go to the compiled
        engine as they come."""
        if len(gold) != len(candidate):
            raise MismatchedCorpusError(f"{len(gold)} gold sentences but {len(candidate)} candidate sentences")
        if self._done is not None or self._files:
            raise AgreementError("this LeafAncestorEvaluator has its result (or scored files): use a new one")
        self.gold.extend(gold)
        self.candidate.extend(candidate)
        self._feed(final=False)

    def _feed(self, final: bool) -> None:
        """Every full batch not yet scored (with ``final`` the rest too) to the compiled engine,
        while every tree is a phrase tree (else the reference scores them all at the end)."""
        batch = compiled_loops.BATCH
        while self.compiled and (len(self.gold) - self._scored >= batch or (final and self._scored < len(self.gold))):
            first = self._scored
            gold, candidate = self.gold[first:first + batch], self.candidate[first:first + batch]
            if not _phrase_trees(gold) or not _phrase_trees(candidate):
                self.compiled, self._engine = False, None
                return
            compiled_loops.add_tree_batch(self._new_engine(), gold, candidate, first)
            self._scored += len(gold)

    def _new_engine(self) -> compiled_loops.Engine:
        if self._engine is None:
            self._engine = compiled_loops.Engine(self.cost, self.preterminals, self.strict, self.keep_worst,  # type: ignore[arg-type]
                                                 keep_rows=self.keep_rows, keep_skipped=self.keep_skipped)
        return self._engine

    def add_files(self, gold: PathLike, candidate: PathLike) -> None:
        """Two bracket files (one tree a line, or trees over lines; a blank line or ``()`` a
        failed parse), read as ``read_brackets(path, leaves="categories", missing=True)`` and
        :func:`~spacy_agreement.adapters.brackets.trim_trailing_failures` read them: streamed
        through the compiled reader and loops where they apply (memory flat in the corpus),
        else (or for a file the compiled reader leaves to the Python reader, which names the
        problem) read whole and :meth:`add_trees`-ed. One pair of files per evaluator."""
        if self._done is not None or self._files or self.gold:
            raise AgreementError("LeafAncestorEvaluator.add_files scores a corpus of its own: use a new evaluator")
        if self.compiled:
            sink = self.sink
            emit = (lambda row, sentence: sink.add(sentence)) if sink is not None else None
            try:
                engine, modes, _ = compiled_loops.score_files(
                    gold, candidate, self.cost, self.preterminals, self.strict, self.keep_worst,  # type: ignore[arg-type]
                    keep_rows=self.keep_rows, keep_skipped=self.keep_skipped, emit=emit,
                    restart=sink.reset if sink is not None else None)
            except compiled_loops.FallBack:
                if sink is not None:
                    sink.reset()
            else:
                self._files = True
                self._done = compiled_result(engine, self.cost, compiled_loops.FileSource(
                    gold, candidate, modes, self.cost, self.preterminals))  # type: ignore[arg-type]
                return
            # the trees read whole are scored as trees are (the engine's defaults, as before)
            self.keep_worst, self.keep_rows, self.keep_skipped = 10, False, None
        from ...adapters.brackets import read_brackets, trim_trailing_failures

        self.add_trees(*trim_trailing_failures(read_brackets(gold, "categories", missing=True),
                                               read_brackets(candidate, "categories", missing=True)))

    def result(self) -> LeafAncestorResult:
        """The scores of everything added (the same object on later calls; nothing can be
        added after it)."""
        if self._done is None:
            self._feed(final=True)
            if self.compiled:
                engine = self._new_engine()
                self._done = compiled_result(engine, self.cost, compiled_loops.TreeSource(
                    self.gold, self.candidate, self.cost, self.preterminals))  # type: ignore[arg-type]
            else:
                self._done = leaf_ancestor_reference(self.gold, self.candidate, self.cost, self.evalb,
                                                     self.preterminals, self.strict)
            if self.sink is not None:
                for sentence in self._done.sentences:
                    self.sink.add(sentence)
        return self._done


__all__ = ["LeafAncestorEvaluator", "compiled_applies", "compiled_result"]
