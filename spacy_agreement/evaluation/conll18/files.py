"""``evaluate`` of two files and ``conll18_ud_eval.py``: whether their tokens differ, where their
texts differ, the script's thirteen scores through its character alignment (other tokens) or
beside the package's metrics (the same tokens, ``--convention conll18``), and the script's
refusals where its table is part of the output (Zeman et al. 2018, the CoNLL 2018 shared task's
evaluation script; :mod:`.aligned`, :mod:`.aligned_refusals`).

Moved here from ``spacy_agreement.cli.evaluate`` (0.3), which still exports every name; used by
:func:`spacy_agreement.evaluate` and :func:`spacy_agreement.compare`."""
from __future__ import annotations

import os
from bisect import bisect_right
from contextlib import contextmanager
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

import numpy as np

from ...adapters.conllu.trees import surface_tokens
from ...adapters.files import guess_format, read_trees
from ...errors import AgreementError, BadOptionError, InvalidTreeError, MismatchedCorpusError
from ...trees import DependencyTree
from .alignment import AlignedScores
from .refusals import RECURSION, ScriptRefusal, ScriptRefusalError, pair_refusal
from ..dependency.metrics import token_problem

PathLike = Union[str, "os.PathLike[str]"]

#: The options the aligned evaluation (other tokens) has: conll18_ud_eval.py's, no other
#: (each with the flag that changes it).
CONLL18_FIXED = {"ignore_subtypes": True, "fold_root_case": False, "exclude_punct": False, "label_map": None}
CONLL18_FLAGS = {"ignore_subtypes": "--keep-subtypes", "fold_root_case": "--fold-root-case",
                 "exclude_punct": "--no-punct", "label_map": "--label-map"}


def is_path(value: Any) -> bool:
    """Whether an input is a file's path (else: trees already read)."""
    return isinstance(value, (str, os.PathLike))


def dependency_trees(path: PathLike, fmt: Optional[str], strict: bool) -> List[Any]:
    """The dependency trees of a file in any registered format that has them (CoNLL-U/X, a
    ``.spacy`` DocBin, ...; from the content unless ``fmt``); ``strict``: head cycles raise."""
    try:
        trees = read_trees(path, fmt or None, cycles="raise" if strict else "drop", missing=False)
    except AgreementError as exc:
        exc.read_by_package = True  # type: ignore[attr-defined]  # refuse_as_conll18: the package refuses it too
        raise
    if any(not isinstance(t, DependencyTree) for t in trees):
        raise BadOptionError(f"{os.fspath(path)}: evaluate scores dependency trees; this file holds phrase-structure "
                             "trees (use leaf-ancestor or evalb)")
    return trees


def tokens_differ(gold: List[Any], pred: List[Any], check_forms: bool) -> bool:
    """Whether gold and prediction differ in sentence count or in any sentence's tokens."""
    return len(gold) != len(pred) or any(token_problem(g, p, check_forms) is not None for g, p in zip(gold, pred))


def text_difference(gold: List[Any], pred: List[Any], gold_path: PathLike, pred_path: PathLike) -> Optional[str]:
    """Where the two files' texts (their surface tokens without whitespace, as
    conll18_ud_eval.py compares them) first differ, or ``None`` when they are the same text."""
    def characters(trees: List[Any]) -> Tuple[str, List[int]]:
        text, starts, length = [], [], 0
        for tree in trees:
            starts.append(length)
            text.append("".join("".join(form.split()) for form, _, _ in surface_tokens(tree)))
            length += len(text[-1])
        return "".join(text), starts

    g_text, g_starts = characters(gold)
    p_text, _ = characters(pred)
    if g_text == p_text:
        return None
    at = next((k for k, (a, b) in enumerate(zip(g_text, p_text)) if a != b), min(len(g_text), len(p_text)))
    sentence = max(0, bisect_right(g_starts, at) - 1)
    where = gold[sentence].location if gold else gold_path
    return (f"{where}: the gold ({len(gold)} sentences) and {pred_path} ({len(pred)} sentences) are not the same "
            f"text (gold {g_text[at:at + 20]!r}, predicted {p_text[at:at + 20]!r}): no alignment can pair their words")


def aligned_scores(gold: PathLike, pred: PathLike, fmt: Optional[str], options: Any) -> Tuple[AlignedScores, Tuple[Any, Any]]:
    """The thirteen scores of conll18_ud_eval.py through its character alignment, for files
    whose tokens or sentences differ: CoNLL-U only, under conll18's conventions (any other
    option is an error saying so, as is another format), through the family's accumulator
    (:class:`~.accumulator.AlignedEvaluator`: the scores' :meth:`~.scores.AlignedScores.statistics`
    are their counts per gold sentence, for ``--ci``); with the two files' columns, read once
    (``--breakdown`` uses them too)."""
    from ...adapters.conllu.column_reader import read_conllu_columns
    from .accumulator import AlignedEvaluator

    if (fmt or guess_format(gold)) != "conll":
        raise BadOptionError(f"{pred}: the tokens differ from the gold's; aligning other tokenisations needs "
                             "CoNLL-U files (or skip those sentences with --skip-mismatched)")
    check_conll18_options(pred, options)
    layers = (read_conllu_columns(gold), read_conllu_columns(pred))
    evaluator = AlignedEvaluator()
    evaluator.add(*layers)
    refuse_deep_heads(gold, pred, fmt, options, layers)
    return evaluator.result(), layers


def conll18_changes(options: Any) -> List[str]:
    """The options set otherwise than conll18_ud_eval.py scores (:data:`CONLL18_FIXED`)."""
    return [name for name, value in CONLL18_FIXED.items() if getattr(options, name) != value]


def check_conll18_options(where: PathLike, options: Any) -> None:
    """One error naming the options that conll18_ud_eval.py's character alignment cannot honour."""
    other = conll18_changes(options)
    if other:
        flags = ", ".join(CONLL18_FLAGS[name] for name in other)
        raise BadOptionError(f"{where}: the tokens differ from the gold's, and the character alignment scores "
                             f"as conll18_ud_eval.py does, whose conventions these options change: {flags} "
                             "(leave them out, or score only the sentences whose tokens match with "
                             "--skip-mismatched)")


def conll18_beside(gold: PathLike, pred: PathLike, fmt: Optional[str], options: Any,
                   note: Optional[Callable[[str], Any]] = None,
                   scans: Optional[Tuple[Any, Any]] = None) -> Optional[AlignedScores]:
    """On identical tokens under --convention conll18, the thirteen scores of conll18_ud_eval.py
    beside the package's (the same LAS, UAS, CLAS, MLAS, BLEX); none for other conventions or
    formats. A pair that the script refuses is refused (:func:`refuse_as_conll18`); where the
    script reads the files and the table still cannot be computed, ``note`` gets one line
    saying why (the command prints it on stderr, ``--quiet`` or not). ``scans``: the two files
    as the Cython scanner read them (not read again)."""
    if not conll18_table(gold, pred, fmt, options):
        return None
    from ...adapters.conllu.column_reader import read_conllu_columns
    from .accumulator import AlignedEvaluator

    try:
        layers = (read_conllu_columns(gold, scanned=scans[0] if scans else None),
                  read_conllu_columns(pred, scanned=scans[1] if scans else None))
        evaluator = AlignedEvaluator()
        evaluator.add(*layers)
        refuse_deep_heads(gold, pred, fmt, options, layers)
        return evaluator.result()
    except ScriptRefusalError:
        raise
    except AgreementError as exc:
        refusal = conll18_refusal(gold, pred, fmt, options)
        if refusal is not None and not (refusal.text and (options.skip_mismatched or not options.check_forms)):
            raise refusal.error() from None
        # the script reads the files (or refuses only their texts, which --skip-mismatched or
        # --ignore-forms let the package score): why its table is missing, --quiet or not
        why = f" (conll18_ud_eval.py refuses the pair: {' '.join(refusal.reason.split(chr(10)))})" if refusal else ""
        if note is not None:
            note(f"the thirteen scores of conll18_ud_eval.py are not computed: {exc}{why}")
        return None


def conll18_table(gold: PathLike, pred: Optional[PathLike], fmt: Optional[str], options: Any) -> bool:
    """Whether the output holds conll18_ud_eval.py's table: under --convention conll18 with no
    option that changes its conventions, for CoNLL files."""
    return (options.convention == "conll18" and not conll18_changes(options)
            and (fmt or guess_format(gold)) == "conll" and (pred is None or (fmt or guess_format(pred)) == "conll"))


def conll18_refusal(gold: PathLike, pred: Optional[PathLike], fmt: Optional[str], options: Any) -> Optional[ScriptRefusal]:
    """Why conll18_ud_eval.py would refuse the files (the gold alone without ``pred``), where
    its table is part of the output (:func:`conll18_table`); ``None`` when it reads them or
    there is no table (:func:`~spacy_agreement.evaluation.conll18.refusals.pair_refusal`)."""
    if not conll18_table(gold, pred, fmt, options):
        return None
    return pair_refusal(gold, pred)


def refuse_deep_heads(gold: PathLike, pred: Optional[PathLike], fmt: Optional[str], options: Any,
                      layers: Tuple[Any, ...]) -> None:
    """The one refusal that the readers of the table do not see: a sentence longer than the
    script's recursion can follow (:data:`~spacy_agreement.evaluation.conll18.refusals.RECURSION`
    words) whose chain of heads is that deep. Checked only where such a sentence is read."""
    if any(len(found) and int(np.diff(found.sentence_words).max()) > RECURSION for found in layers):
        refusal = conll18_refusal(gold, pred, fmt, options)
        if refusal is not None:
            raise refusal.error()


@contextmanager
def refuse_as_conll18(gold: PathLike, pred: Optional[PathLike], fmt: Optional[str], options: Any) -> Iterator[None]:
    """Under --convention conll18 a file that conll18_ud_eval.py refuses is refused: an input
    error on the way (a reader's, whichever path read the files) becomes the script's refusal,
    one line with its message, the place and ``--convention package`` to score the files anyway
    (or, where the package's own reader refused them, its reason). A difference of text stays
    the package's error (the package refuses it too), the script's reason added."""
    try:
        yield
    except (InvalidTreeError, MismatchedCorpusError) as exc:
        if isinstance(exc, ScriptRefusalError):
            raise
        refusal = conll18_refusal(gold, pred, fmt, options)
        if refusal is None:
            raise
        if refusal.text and isinstance(exc, MismatchedCorpusError):  # the package's line, the script's reason after it
            reason = " ".join(refusal.reason.split("\n"))
            raise MismatchedCorpusError(f"{exc.message} (conll18_ud_eval.py refuses the pair too: {reason})",
                                        exc.location) from None
        raise refusal.error(str(exc) if getattr(exc, "read_by_package", False) else None) from None


def aligned_keys(aligned: AlignedScores) -> Dict[str, Any]:
    """The aligned scores' flat keys (``<m>_precision``, ``<m>_f1``, ...), not their signature."""
    return {k: v for k, v in aligned.to_dict().items() if k != "signature"}


def aligned_json(aligned: AlignedScores, options: Any) -> Dict[str, Any]:
    """The JSON of an aligned evaluation: every score of conll18_ud_eval.py, and ``las``,
    ``uas``, ``clas``, ``mlas``, ``blex`` as their F1 (what the script reports)."""
    out: Dict[str, Any] = {name: getattr(aligned, name).f1 for name in ("uas", "las", "clas", "mlas", "blex")}
    out.update(aligned_keys(aligned))
    out.update(alignment="characters", gold=aligned.gold_source, predicted=aligned.system_source,
               signature=options.signature())
    return out


__all__ = ["CONLL18_FIXED", "CONLL18_FLAGS", "aligned_json", "aligned_keys", "aligned_scores", "check_conll18_options",
           "conll18_beside", "conll18_changes", "conll18_refusal", "conll18_table", "dependency_trees", "is_path",
           "refuse_as_conll18", "refuse_deep_heads", "text_difference", "tokens_differ"]
