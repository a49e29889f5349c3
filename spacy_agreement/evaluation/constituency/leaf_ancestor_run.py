"""``spacy-agreement leaf-ancestor`` as one function: :func:`leaf_ancestor` scores a candidate
against gold with the leaf-ancestor metric and GEIG (Sampson & Babarczy 2003), from two files
(bracketed trees, streamed through the compiled reader, or CoNLL) or from trees already read,
and returns a :class:`LeafAncestorRun` that carries its settings
(:class:`~spacy_agreement.evaluation.settings.LeafAncestorSettings`) and signature; its
:meth:`~LeafAncestorRun.to_dict` is what ``leaf-ancestor --json`` prints.

The metric itself (sentence and corpus scores, §2 and §4 of the paper) is
:func:`spacy_agreement.evaluation.constituency.leaf_ancestor.leaf_ancestor` (trees) and
:func:`~spacy_agreement.evaluation.constituency.leaf_ancestor.leaf_ancestor_files` (files), which keep
their signatures; both, and this command, score through the family's accumulator
(:class:`~spacy_agreement.evaluation.constituency.leaf_ancestor_accumulator.LeafAncestorEvaluator`),
and the intervals resample the result's own counts per sentence
(:meth:`~spacy_agreement.evaluation.constituency.leaf_ancestor_result.LeafAncestorResult.statistics`).

Worked example: "the" keeps its lineage but for one boundary (1 − 1/7), "cat" moves from NP to
VP (1 − 4/6), "sat" loses one boundary (1 − 1/7); the sentence scores their mean.

>>> import spacy_agreement as sa
>>> gold = sa.parse_brackets("(S (NP (D the) (N cat)) (VP (V sat)))", leaves="categories")
>>> cand = sa.parse_brackets("(S (NP (D the)) (VP (N cat) (V sat)))", leaves="categories")
>>> run = sa.leaf_ancestor(gold, cand)
>>> round(run.leaf_ancestor, 4), run.signature.rsplit("|", 1)[0]
(0.6825, 'leaf-ancestor|cost:exact|evalb:none')
"""
from __future__ import annotations

import os
import warnings
from typing import Any, Dict, Optional, Sequence, Union

from ..._calling import positional_settings
from ...adapters.objects import InputFiles
from ...errors import BadOptionError
from ..command_results import CommandRun, Intervals, bootstrap_intervals, html_table, json_safe, percent_text, resolve_settings
from .evalb_params import EvalbSettings
from .leaf_ancestor_accumulator import LeafAncestorEvaluator
from .leaf_ancestor_result import LeafAncestorResult
from ..settings import LEAF_ANCESTOR_COSTS, LeafAncestorSettings

PathLike = Union[str, "os.PathLike[str]"]
#: Other names ``format`` takes for a built-in reader (any case), as ``--format`` does.
FORMAT_ALIASES = {"conllu": "conll", "conllx": "conll", "conll-u": "conll", "conll-x": "conll"}


def corpus_figures(result: LeafAncestorResult, gold: Any, candidate: Any, sentences: bool = False) -> Dict[str, Any]:
    """What text, JSON and TSV all carry: the two files (``None`` for trees given in Python)
    and the corpus scores and counts (and with ``sentences`` every sentence and word, for JSON)."""
    return {"gold": None if gold is None else str(gold), "candidate": None if candidate is None else str(candidate),
            "sentences_scored": result.sentences_scored, "words_scored": result.words_scored,
            **result.to_dict(sentences=sentences)}


def leaf_ancestor_settings(settings: Union[None, str, LeafAncestorSettings] = None, costs: str = "exact",
                           evalb_params: Union[None, PathLike, EvalbSettings] = None) -> LeafAncestorSettings:
    """The settings of one call: the cost scheme ``costs``, the EVALB parameters ``evalb_params``
    (a parameter file, read as EVALB reads it, or its
    :class:`~spacy_agreement.evaluation.constituency.evalb_params.EvalbSettings`), and ``settings`` (settings,
    or a signature given back) as ``--signature`` applies them."""
    cost = getattr(costs, "value", costs)  # the command's enum
    if not isinstance(cost, str) or cost not in LEAF_ANCESTOR_COSTS:
        raise BadOptionError(f"unknown leaf-ancestor costs {cost!r}: {' or '.join(LEAF_ANCESTOR_COSTS)} (a cost "
                             "function or mapping: spacy_agreement.evaluation.constituency.leaf_ancestor.leaf_ancestor)",
                             option="costs")
    params = evalb_params if evalb_params is None or isinstance(evalb_params, EvalbSettings) \
        else EvalbSettings.read(evalb_params)
    return resolve_settings(settings, LeafAncestorSettings(cost=cost, evalb=params))


class LeafAncestorRun(CommandRun):
    """One ``leaf-ancestor`` run: :attr:`result` (the corpus scores and the sentences behind them,
    a :class:`~spacy_agreement.evaluation.constituency.leaf_ancestor.LeafAncestorResult`, whose attributes
    this object also answers: ``leaf_ancestor``, ``leaf_ancestor_words``, ``sentences``,
    ``worst()``, ``error_configurations()``, ...), the settings it ran with (:attr:`settings`),
    the files (:attr:`gold`, :attr:`candidate`; ``None`` for trees) and with ``ci=True`` the
    bootstrap intervals (:attr:`intervals`). :meth:`to_dict` is ``leaf-ancestor --json``."""

    WRAPS = "result"

    def __init__(self, result: LeafAncestorResult, settings: LeafAncestorSettings, gold: Optional[str] = None,
                 candidate: Optional[str] = None, intervals: Optional[Intervals] = None):
        self.result, self.settings, self.intervals = result, settings, intervals
        self.gold, self.candidate = gold, candidate


    def figures(self, sentences: bool = False) -> Dict[str, Any]:
        """The files, corpus scores and counts (:func:`corpus_figures`)."""
        return corpus_figures(self.result, self.gold, self.candidate, sentences)

    def to_dict(self, sentences: bool = True) -> Dict[str, Any]:
        """What ``leaf-ancestor --json`` prints (``sentences=False``: without the sentences and the
        reasons for skipping, ``--tsv``'s keys; an undefined score is None, JSON's null)."""
        out = {**self.figures(sentences), "signature": self.signature}
        if self.intervals is not None:
            out.update(self.intervals.to_dict())
        return json_safe(out)

    def _headline(self) -> Dict[str, Any]:
        with warnings.catch_warnings():  # an undefined score is said where it is computed, not in a repr
            warnings.simplefilter("ignore")
            return self.result.to_dict(sentences=False)

    @property
    def leaf_ancestor(self) -> float:
        """The leaf-ancestor score, mean over sentences (Sampson & Babarczy 2003, §2), a fraction."""
        return float(self.result.leaf_ancestor)

    @property
    def leaf_ancestor_words(self) -> float:
        """The leaf-ancestor score, mean over words, a fraction."""
        return float(self.result.leaf_ancestor_words)

    @property
    def score(self) -> float:
        """The headline figure: the leaf-ancestor score, mean over sentences."""
        return self.leaf_ancestor

    def __repr__(self) -> str:
        data = self._headline()
        geig = (f", GEIG F {percent_text(data['geig_unlabelled'])} unlabelled, "
                f"{percent_text(data['geig_labelled'])} labelled") if "geig_labelled" in data else ""
        return (f"LeafAncestorRun(leaf-ancestor {percent_text(data['leaf_ancestor'])} (sentences), "
                f"{percent_text(data['leaf_ancestor_words'])} (words){geig}; {self.result.sentences_scored} "
                f"sentences scored, {data['sentences_skipped']} skipped; {self.signature})")

    def _headline_html(self) -> str:
        data = self._headline()
        rows = [("leaf-ancestor, mean over sentences (%)", percent_text(data["leaf_ancestor"])),
                ("leaf-ancestor, mean over words (%)", percent_text(data["leaf_ancestor_words"]))]
        if "geig_labelled" in data:
            rows += [("GEIG unlabelled F (%)", percent_text(data["geig_unlabelled"])),
                     ("GEIG labelled F (%)", percent_text(data["geig_labelled"]))]
        rows += [("sentences scored / skipped", f"{self.result.sentences_scored} / {data['sentences_skipped']}"),
                 ("words scored", str(self.result.words_scored))]
        _, worst = self.result.worst(3)
        notes = [f"lowest: {sentence.location or f'sentence {rank}'} "
                 f"{percent_text(sentence.leaf_ancestor)}" for rank, sentence in worst]
        return html_table("leaf-ancestor", rows, self.signature, notes)


def _format_name(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    from ...adapters.files import reader_names

    if value in reader_names():
        return value
    return FORMAT_ALIASES.get(value.lower(), value.lower())


def _trees(trees: Sequence[Any], name: str) -> list:
    """Trees given in Python: the package's trees as they are, NLTK trees converted with their
    words as leaves (as bracket files are read)."""
    trees = list(trees)
    first = next((t for t in trees if t is not None), None)
    if first is not None and type(first).__module__.split(".")[0] == "nltk":
        from ...adapters.brackets import from_nltk_trees

        return from_nltk_trees(trees, leaves="categories", name=name)
    return trees


def leaf_ancestor(gold: Any, candidate: Any, *args: Any, settings: Union[None, str, LeafAncestorSettings] = None,
                  signature: Optional[str] = None, costs: str = "exact",
                  evalb_params: Union[None, PathLike, EvalbSettings] = None, format: Optional[str] = None,
                  strict: bool = False, ci: bool = False, resamples: int = 1000, seed: int = 1,
                  confidence: float = 0.95, interval: str = "percentile", worst: int = 10,
                  keep_skipped: Optional[int] = None, sink: Any = None,
                  keep_worst: Optional[int] = None) -> LeafAncestorRun:
    """``spacy-agreement leaf-ancestor GOLD CANDIDATE``: leaf-ancestor scores and GEIG bracket F
    (Sampson & Babarczy 2003): each word scored by how close its candidate lineage is to its gold
    lineage, ``1 − Lv(c, g) / (len(c) + len(g))`` (§4), averaged per sentence and over the corpus
    (§2), GEIG's brackets counted as EVALB counts them.

    ``gold`` and ``candidate``: two files (bracketed trees with words as leaves, or CoNLL;
    ``format`` as ``--format``, by default from the gold file's content), or two sequences of
    trees (:class:`~spacy_agreement.trees.ConstituencyTree` read with ``leaves="categories"``,
    :class:`~spacy_agreement.trees.DependencyTree`, NLTK trees; ``None`` a failed parse).
    ``costs``: ``"exact"`` (0/2) or ``"first-char"`` (0.5 for labels sharing their first
    character, the paper's experiment); ``evalb_params``: an EVALB parameter file (or
    :class:`~spacy_agreement.evaluation.constituency.evalb_params.EvalbSettings`) whose ``DELETE_LABEL`` words
    are left out and by whose rules GEIG is counted. ``settings``: a
    :class:`~spacy_agreement.evaluation.settings.LeafAncestorSettings` or a signature given back
    (``--signature``). ``strict``: errors instead of skipped sentences (words that differ; in
    CoNLL, head cycles). ``ci=True`` adds bootstrap intervals (``resamples``, ``seed``,
    ``confidence``, ``interval`` as ``--ci`` takes them). ``signature=``: a signature given back.
    An NLTK tree is one sentence; NLTK trees (and spaCy objects, refused: they hold no phrase
    structure) are read as the same trees written to a bracketed file would be.

    Bracket files are streamed (memory does not grow with the corpus): ``worst`` lowest
    sentences are kept to show (``worst``, as ``--worst``), the first ``keep_skipped`` reasons for skipping one (all by
    default), and ``sink.add(sentence)`` gets every scored sentence as it is scored
    (:func:`~spacy_agreement.evaluation.constituency.leaf_ancestor.leaf_ancestor_files`). The sentences word
    by word are scored again when asked for. Custom cost functions or mappings and the
    ``preterminals`` choice: :func:`spacy_agreement.evaluation.constituency.leaf_ancestor.leaf_ancestor`.


    Parameters
    ----------
    gold, candidate
        The gold and the candidate trees, each a path (a file of bracketed trees, one a line as EVALB reads them), an NLTK ``Tree``
        (**one** sentence) or an iterable of them, or the package's ``ConstituencyTree``\\ s,
        written to a file and read as the path would be.
    settings
        A settings object of the command (keyword-only), whose fields an option given otherwise than
        by default must not contradict (an error naming the option).
    signature
        A signature given back (as ``--signature``: the signature, or a saved ``--json`` output).
    **options
        The command's long options (``-`` as ``_``) with its defaults (see above).

    Returns
    -------
    LeafAncestorRun
        ``leaf_ancestor`` (mean over sentences), ``leaf_ancestor_words``, GEIG, the worst
        sentences word by word; ``.score`` is the leaf-ancestor score, ``str()`` the command's
        text, ``to_dict()`` its ``--json``.

    Raises
    ------
    TypeError
        An input that is none of the kinds above, or of the other family (dependency analyses
        here): the message names the argument, what was given and the kinds accepted.
    spacy_agreement.EmptyInputError
        An empty file (``FILE: empty file``, as the command says) or an empty list.
    spacy_agreement.InvalidTreeError
        A malformed tree, naming the file, the sentence and the token.
    spacy_agreement.BadOptionError
        An option value the function cannot use, naming the option.

    Examples
    --------
    >>> import spacy_agreement as sa
    >>> from pathlib import Path
    >>> demo = Path(sa.__file__).parent / "data" / "demo"
    >>> run = sa.leaf_ancestor(demo / "phrase" / "annotator-a.tree", demo / "phrase" / "annotator-b.tree")
    >>> round(run.leaf_ancestor, 4), round(run.leaf_ancestor_words, 4)
    (0.9583, 0.9593)
    """
    settings = positional_settings("leaf_ancestor", args, settings, signature, LeafAncestorSettings,
                                   hint="evalb_params='COLLINS.prm'")
    if keep_worst is not None:  # 0.3's name of --worst
        from ..._calling import deprecated

        deprecated("leaf_ancestor(keep_worst=...)", "leaf_ancestor(worst=...), as --worst names it")
        worst = keep_worst
    chosen = leaf_ancestor_settings(settings, costs, evalb_params)
    inputs = InputFiles("leaf_ancestor")
    if not _trees_given(gold) or not _trees_given(candidate):
        gold, candidate = inputs.path(gold, "gold", "phrase"), inputs.path(candidate, "candidate", "phrase")
    run = _leaf_ancestor(gold, candidate, chosen, format, strict, ci, resamples, seed, confidence, interval,
                         worst, keep_skipped, sink)
    return inputs.keep(run)  # the sentences word by word are read again from the files when asked for


def _trees_given(value: Any) -> bool:
    """Whether ``value`` is 0.3's sequence of trees (the package's, with ``None`` for a failed
    parse): scored as it is, without files."""
    if isinstance(value, (str, os.PathLike)) or not isinstance(value, (list, tuple)):
        return False
    from ...trees import ConstituencyTree, DependencyTree

    return any(t is not None for t in value) and all(
        t is None or isinstance(t, (ConstituencyTree, DependencyTree)) for t in value)


def _leaf_ancestor(gold: Any, candidate: Any, chosen: LeafAncestorSettings, format: Optional[str], strict: bool,
                   ci: bool, resamples: int, seed: int, confidence: float, interval: str, keep_worst: int,
                   keep_skipped: Optional[int], sink: Any) -> LeafAncestorRun:
    """:func:`leaf_ancestor` on two paths, or two sequences of the package's trees."""
    files = isinstance(gold, (str, os.PathLike))
    if files != isinstance(candidate, (str, os.PathLike)):
        raise BadOptionError("gold and candidate are both files or both sequences of trees", option="candidate")

    def evaluator_for(**keep: Any) -> LeafAncestorEvaluator:  # what the engine keeps: for bracket files only
        return LeafAncestorEvaluator(chosen.cost, chosen.evalb, strict=strict, sink=sink, **keep)

    if files:
        from pathlib import Path

        from ...adapters.brackets import trim_trailing_failures
        from ...adapters.files import guess_format, read_trees

        gold_path, cand_path = Path(gold), Path(candidate)
        kind = _format_name(format) or guess_format(gold_path)  # the gold file's format is the candidate's
        if kind == "bracket":  # streamed (compiled reader and loops where they apply)
            evaluator = evaluator_for(keep_worst=keep_worst, keep_rows=ci, keep_skipped=keep_skipped)
            evaluator.add_files(gold_path, cand_path)
        else:
            options = {"cycles": "raise" if strict else "drop", "leaves": "categories", "missing": True}
            evaluator = evaluator_for()
            evaluator.add_trees(*trim_trailing_failures(read_trees(gold_path, kind, **options),
                                                        read_trees(cand_path, kind, **options)))
        names = (str(gold_path), str(cand_path))
    else:
        evaluator = evaluator_for()
        evaluator.add_trees(_trees(gold, "gold"), _trees(candidate, "candidate"))
        names = (None, None)
    result = evaluator.result()
    found = None
    if ci:
        found = bootstrap_intervals(result.statistics(), resamples, seed, confidence, interval)
    return LeafAncestorRun(result, chosen, *names, intervals=found)


__all__ = ["LeafAncestorRun", "corpus_figures", "leaf_ancestor", "leaf_ancestor_settings"]
