"""``spacy-agreement compare`` as one function: :func:`compare` scores two or more systems against
one gold, as ``evaluate`` (dependency trees) or EVALB (bracketed trees) scores them, keeps each
system's statistics per gold sentence, and compares the systems pair by pair over the sentences
(approximate randomization and the paired bootstrap, :mod:`.comparison`, :mod:`.significance`).
It returns a :class:`CompareRun` whose :meth:`~CompareRun.to_dict` is what ``compare --json``
prints.
"""
from __future__ import annotations

import os
import warnings
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ...errors import BadOptionError, MismatchedCorpusError, UndefinedMetricWarning
from ..._calling import deprecated, looks_like_signature, name_list, positional_settings
from ...adapters.objects import InputFiles
from ..command_results import CommandRun, html_grid, json_safe, p_text, percent_text, resolve_settings, signed_points
from .systems import Comparison, compare_systems, merge_metrics
from ..conll18.files import check_conll18_options, dependency_trees, text_difference, tokens_differ
from ..dependency.evaluate_run import evaluation_settings
from .significance import ComparisonSettings
from ..unit_counts import UnitCounts

PathLike = Union[str, "os.PathLike[str]"]
Note = Optional[Callable[[str], Any]]


def system_names(paths: Sequence[PathLike]) -> List[str]:
    """How the systems are called: their file names, or their paths where two names clash."""
    names = [os.path.basename(os.fspath(p)) for p in paths]
    if len(set(names)) < len(names):
        names = [os.fspath(p) for p in paths]
    if len(set(names)) < len(names):
        raise BadOptionError("the same system file is given twice")
    return names


def dependency_counts(gold: PathLike, systems: Sequence[PathLike], names: List[str], fmt: Optional[str],
                      options: Any, note: Note = None, by: Optional[List[str]] = None,
                      breakdowns: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, UnitCounts], Dict[str, str], str, str]:
    """Each system's counts per gold sentence, as ``evaluate`` scores it: every metric on the
    same tokens; through conll18_ud_eval.py's character alignment (its thirteen F1 scores)
    for every system as soon as one has other tokens or sentences. Returns the counts, the
    metrics' display names, the alignment and the evaluation's signature."""
    from ..conll18.alignment import DISPLAY_NAMES as CONLL18_NAMES
    from ..dependency.breakdowns import breakdowns_from_layers, breakdowns_from_trees
    from ..dependency.metrics import display_name, evaluate
    from ..conll18.accumulator import aligned_evaluation

    if not by and options.cycles != "raise":  # as evaluate: --strict reads the trees, which name each problem
        streamed = streamed_counts(gold, systems, names, fmt, options)
        if streamed is not None:
            display = {m: display_name(m) for m in next(iter(streamed.values())).metrics}
            return streamed, display, "identical", options.signature()
    strict = options.cycles == "raise"
    gold_trees = dependency_trees(gold, fmt, strict)
    preds = [dependency_trees(p, fmt, strict) for p in systems]
    differ = [tokens_differ(gold_trees, trees, options.check_forms) for trees in preds]
    if any(differ) and not options.skip_mismatched:
        from ...adapters.conllu.column_reader import read_conllu_columns

        for path, trees, other in zip(systems, preds, differ):
            if other:
                difference = text_difference(gold_trees, trees, gold, path)
                if difference is not None:
                    raise MismatchedCorpusError(difference)
                check_conll18_options(path, options)
        which = ", ".join(n for n, d in zip(names, differ) if d)
        if note is not None:
            note(f"{which}: other tokens or sentences than the gold's; every system is scored through "
                 "conll18_ud_eval.py's character alignment (its F1 scores), per gold sentence")
        gold_layers = read_conllu_columns(gold)
        counts = {}
        for n, p in zip(names, systems):
            layers = read_conllu_columns(p)
            counts[n] = aligned_evaluation(gold_layers, layers).statistics()
            if by and breakdowns is not None:
                breakdowns[n] = breakdowns_from_layers(gold_layers, layers, by=by)
        return counts, dict(CONLL18_NAMES), "characters", f"conll18|v:{options.signature().rsplit('v:', 1)[1]}"
    counts = {}
    for name, trees in zip(names, preds):
        with warnings.catch_warnings():  # a metric undefined on these files is said once, by the comparison
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            counts[name] = evaluate(gold_trees, trees, options, keep_counts=True).statistics()
        if by and breakdowns is not None:
            breakdowns[name] = breakdowns_from_trees(list(zip(gold_trees, trees)), by=by, options=options)
    display = {m: display_name(m) for m in next(iter(counts.values())).metrics}
    return counts, display, "identical", options.signature()


def streamed_counts(gold: PathLike, systems: Sequence[PathLike], names: List[str], fmt: Optional[str],
                    options: Any) -> Optional[Dict[str, UnitCounts]]:
    """Each system's counts per gold sentence as ``evaluate`` streams them (the compiled scanner,
    a block of sentences at a time: :func:`~..dependency.evaluate_run.evaluate_streamed`), where
    every system has the gold's tokens; ``None`` where the whole files must be read instead (another
    format, a block the scanner leaves to the Python readers, other tokens, a registered metric; the caller
    reads the trees under ``--strict`` and ``--breakdown``, as ``evaluate`` does)."""
    from ...adapters.files import guess_format
    from ..dependency.accumulator import DependencyEvaluator
    from ..dependency.streaming import BLOCK, ScanStream, TokensDiffer, Unscannable, identical_batches

    if any((fmt or guess_format(path)) != "conll" for path in (gold, *systems)):
        return None
    counts: Dict[str, UnitCounts] = {}
    for name, path in zip(names, systems):
        accumulator = DependencyEvaluator(options, keep_rows=False, keep_counts=True)
        if not accumulator.compiled:
            return None
        try:
            with warnings.catch_warnings():  # a metric undefined on these files is said once, by the comparison
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                with ScanStream(gold, accumulator.table, apart=True) as g_stream, \
                        ScanStream(path, accumulator.table, apart=True) as p_stream:
                    for block_pair in identical_batches(g_stream, p_stream, options.check_forms,
                                                        options.skip_mismatched, BLOCK):
                        accumulator.add_block(*block_pair)
                counts[name] = accumulator.result().statistics()
        except (Unscannable, TokensDiffer):
            return None
    return counts


def bracket_counts(gold: PathLike, systems: Sequence[PathLike], names: List[str], params: Optional[PathLike],
                   with_leaf_ancestor: bool, strict: bool, note: Note = None) -> Tuple[Dict[str, UnitCounts], str]:
    """EVALB's figures per sentence (its parameter file, or its built-in settings), and with
    ``with_leaf_ancestor`` leaf-ancestor and GEIG beside them. Returns the counts and the
    evaluation's signature."""
    from ...adapters.files import read_trees
    from ..constituency.evalb import EvalbSettings, evaluate_files
    from ..constituency.evalb_run import check_bracketed
    from ..constituency.leaf_ancestor import leaf_ancestor
    from ..settings import LeafAncestorSettings

    check_bracketed(gold, *systems)
    settings = EvalbSettings.read(params) if params else EvalbSettings()
    for warning in settings.warnings:
        if note is not None:
            note(warning)
    counts: Dict[str, UnitCounts] = {}
    gold_trees = None
    for name, path in zip(names, systems):
        report = evaluate_files(gold, path, settings)
        if report.aborted:
            raise BadOptionError(f"{path}: EVALB gives up on this file ({report.messages[-1] if report.messages else 'errors'})")
        counts[name] = report.statistics()
        if with_leaf_ancestor:
            options = {"cycles": "raise" if strict else "drop", "leaves": "categories", "missing": True}
            if gold_trees is None:
                gold_trees = read_trees(gold, "bracket", **options)
            cand = read_trees(path, "bracket", **options)
            result = leaf_ancestor(gold_trees, cand, evalb=settings if params else None)
            counts[name] = merge_metrics(counts[name], result.statistics())
    signature = settings.signature()
    if with_leaf_ancestor:
        signature += "  " + LeafAncestorSettings(evalb=settings if params else None).signature()
    return counts, signature


class CompareRun(CommandRun):
    """One ``compare`` run: :attr:`comparison` (every system's metrics with their intervals and
    every pair's difference, interval and p-values, a :class:`~.comparison.Comparison`, whose
    attributes this object also answers: ``pairs``, ``pair(a, b)``, ``values``, ``intervals``,
    ``metrics``, ``set_aside``, ...), the files (:attr:`gold`, :attr:`files`: name → path), how
    the words were paired (:attr:`alignment`: ``identical``, ``characters`` or ``lines`` for
    bracketed trees), the evaluation's signature (:attr:`evaluation_signature`; the
    comparison's is :attr:`signature`), the metrics' :attr:`display` names and with
    ``breakdown`` the :attr:`breakdowns`. :meth:`to_dict` is ``compare --json``."""

    WRAPS = "comparison"

    def __init__(self, comparison: Comparison, gold: str, files: Dict[str, str], alignment: str,
                 evaluation_signature: str, display: Mapping[str, str], breakdowns: Optional[Dict[str, Any]] = None):
        self.comparison, self.gold, self.files, self.alignment = comparison, gold, files, alignment
        self.evaluation_signature, self.display, self.breakdowns = evaluation_signature, dict(display), breakdowns

    @property
    def signature(self) -> str:
        return self.comparison.signature

    def to_dict(self) -> Dict[str, Any]:
        """What ``compare --json`` prints (an undefined figure is None, JSON's null)."""
        out = self.comparison.to_dict()
        out.update(gold=self.gold, files=dict(self.files), alignment=self.alignment,
                   evaluation_signature=self.evaluation_signature)
        if self.breakdowns:
            from ..dependency.breakdown_tables import breakdowns_to_json

            out["breakdowns"] = breakdowns_to_json(self.breakdowns)
        return json_safe(out)

    @property
    def pairs(self) -> List[Any]:
        """Every pair of systems compared (a ``PairComparison`` each: differences, intervals, p-values)."""
        return list(self.comparison.pairs)

    def pair(self, a: str, b: str) -> Any:
        """The comparison of system ``b`` against system ``a`` (their names, as the table names them)."""
        return self.comparison.pair(a, b)

    @property
    def values(self) -> Dict[str, Dict[str, float]]:
        """Each system's corpus value of each metric (fractions)."""
        return dict(self.comparison.values)

    @property
    def metrics(self) -> List[str]:
        """The metrics compared, as ``--metric`` names them."""
        return list(self.comparison.metrics)

    @property
    def score(self) -> float:
        """The headline figure: the difference in the first metric between the first two systems
        (the second less the first, a fraction), as the table's first line shows it."""
        first = self.comparison.pairs[0] if self.comparison.pairs else None
        return float(first.difference[self.comparison.metrics[0]]) if first is not None else float("nan")

    def __repr__(self) -> str:
        c = self.comparison
        metric = c.metrics[0] if c.metrics else None
        pairs = "; ".join(f"{p.b} - {p.a}: {metric} {signed_points(p.difference[metric])} points, p (AR) "
                          f"{p_text(p.p_randomization_adjusted.get(metric, p.p_randomization[metric]))}"
                          for p in c.pairs) if metric else ""
        return f"CompareRun({len(self.files)} systems, {c.units} sentences; {pairs}; {self.signature})"

    def _headline_html(self) -> str:
        c = self.comparison
        names = list(c.values)
        header = ["metric"] + names + [f"{p.b} - {p.a} (p AR / boot)" for p in c.pairs]

        def row(m: str) -> List[str]:
            cells = [self.display.get(m, m)]
            cells += [f"{percent_text(c.values[n][m])} [{percent_text(c.intervals[n][m].low)}, "
                      f"{percent_text(c.intervals[n][m].high)}]" for n in names]
            cells += [f"{signed_points(p.difference[m])} ({p_text(p.p_randomization_adjusted.get(m, p.p_randomization[m]))}"
                      f" / {p_text(p.p_bootstrap_adjusted.get(m, p.p_bootstrap[m]))})" for p in c.pairs]
            return cells

        return html_grid(f"compare: {len(self.files)} systems against {self.gold}, {c.units} sentences", header,
                         [row(m) for m in c.metrics], self.signature, [f"evaluation: {self.evaluation_signature}"])


def compare(gold: Any, *systems: Any, settings: Union[None, str, ComparisonSettings] = None,
            signature: Optional[str] = None,
            metric: Union[None, str, Sequence[str]] = None, shuffles: int = 10000, resamples: int = 1000, seed: int = 1,
            confidence: float = 0.95, interval: str = "percentile", correction: str = "holm",
            format: Optional[str] = None, convention: str = "conll18", no_punct: Optional[bool] = None,
            punct: Optional[str] = None, ignore_subtypes: Optional[bool] = None,
            label_map: Union[None, PathLike, Mapping[str, str]] = None, case_sensitive_root: Optional[bool] = None,
            skip_mismatched: bool = False, params: Optional[PathLike] = None, leaf_ancestor: bool = False,
            breakdown: Optional[str] = None, strict: bool = False, note: Note = None) -> CompareRun:
    """``spacy-agreement compare GOLD A B [C ...]``: is one parser really better than another?
    Every metric of each system against ``gold`` with a bootstrap interval, and for each pair of
    systems (the second against the first, in the order given) the difference, its interval and
    the p-values of approximate randomization (stratified shuffling) and the paired bootstrap
    (Berg-Kirkpatrick et al. 2012), the corpus metric recomputed from the resampled sentences'
    counts; with three systems or more, each metric's p-values adjusted over the pairs
    (``correction``: holm, bonferroni or none).

    ``gold`` and ``systems``: files. Dependency trees (CoNLL-U/CoNLL-X, any reader with
    dependency trees; ``format`` as ``--format``) are scored as :func:`spacy_agreement.evaluate`
    scores them (``convention``, ``no_punct``, ``punct``, ``ignore_subtypes``, ``label_map``,
    ``case_sensitive_root``, ``skip_mismatched``, ``strict``, ``breakdown``), through
    conll18_ud_eval.py's character alignment for every system as soon as one has other tokens;
    bracketed trees as EVALB scores them (``params``: its parameter file), with
    ``leaf_ancestor=True`` leaf-ancestor and GEIG beside them. ``metric``: compare only these
    (lower case, as ``evaluate``'s JSON names them). ``shuffles``, ``resamples``, ``seed``,
    ``confidence``, ``interval``: the tests' and intervals' settings; ``settings``: a
    :class:`~spacy_agreement.ComparisonSettings` or a signature given
    back (``--signature``). ``note`` gets the command's lines of chatter.

    Parameters
    ----------
    gold
        The gold analyses: a path as the command takes it (a CoNLL-U/CoNLL-X file, a ``.spacy`` DocBin, a folder or a
        tool's export), spaCy docs (a ``Doc``, an iterable of them, a ``DocBin``), NLTK
        ``DependencyGraph``\\ s or the package's ``DependencyTree``\\ s: objects are written to a
        file and read as the path would be (:mod:`spacy_agreement.adapters.objects`), so the
        numbers are the same.
    *systems
        Two systems or more, each its own argument, of the same kinds (0.3's one list still works,
        with a ``DeprecationWarning``).
    settings
        A settings object of the command (keyword-only), whose fields an option given otherwise than
        by default must not contradict (an error naming the option).
    signature
        A signature given back (as ``--signature``: the signature, or a saved ``--json`` output).
    **options
        The command's long options (``-`` as ``_``) with its defaults (see above); ``metric`` a
        name or a list of names.

    Returns
    -------
    CompareRun
        ``pair(a, b)``, ``pairs``, ``values``, ``metrics``: differences, intervals and p-values;
        ``.score`` is the first pair's difference in the first metric, ``str()`` the command's text,
        ``to_dict()`` its ``--json``.

    Raises
    ------
    TypeError
        An input that is none of the kinds above, or of the other family : the message names the argument, what was given and the kinds accepted.
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
    >>> gold = demo / "dependency" / "anna" / "story-anna.conllu"
    >>> run = sa.compare(gold, demo / "dependency" / "ben" / "story-ben.conllu", gold, metric="las",
    ...                  shuffles=1000, resamples=200)
    >>> round(run.score, 4), run.metrics
    (0.0526, ['las'])
    """
    systems_given: List[Any] = list(systems)
    if len(systems_given) in (1, 2) and isinstance(systems_given[0], (list, tuple)) and systems_given[0] and all(
            isinstance(x, (str, os.PathLike)) for x in systems_given[0]):
        deprecated("compare(gold, [system, ...]) with the systems in one list", "compare(gold, system1, system2, ...)")
        systems_given = list(systems_given[0]) + systems_given[1:]
    if len(systems_given) > 1 and (isinstance(systems_given[-1], ComparisonSettings)
                                   or looks_like_signature(systems_given[-1])):
        deprecated("compare(gold, systems, settings) with the settings positionally",
                   f"compare(..., {'signature' if isinstance(systems_given[-1], str) else 'settings'}=...)")
        if settings is not None or signature is not None:
            raise TypeError("compare() got settings positionally and as a keyword: give settings= alone")
        settings = systems_given.pop()
    settings = positional_settings("compare", (), settings, signature, ComparisonSettings)
    metric = name_list(metric)  # one name, a comma-separated string or a list
    with InputFiles("compare") as files:
        gold = files.path(gold, "gold")
        systems = [files.path(system, f"system{k}") for k, system in enumerate(systems_given, start=1)]
        from ...adapters.files import guess_format
        from ..dependency.breakdown_tables import chosen_attributes

        if len(systems) < 2:
            raise BadOptionError("compare needs two system files or more (one system: evaluate --ci)")
        chosen = resolve_settings(settings, ComparisonSettings(shuffles=shuffles, resamples=resamples, seed=seed,
                                                               confidence=confidence, interval=interval,
                                                               correction=correction))
        names = system_names(systems)
        by = chosen_attributes(breakdown)
        breakdowns: Dict[str, Any] = {}
        if (format or guess_format(gold)) == "bracket":
            if by:
                raise BadOptionError("--breakdown groups dependency attachments; bracketed trees have none",
                                     option="breakdown")
            from ...report.comparison_text import BRACKET_NAMES

            counts, evaluation_signature = bracket_counts(gold, systems, names, params, leaf_ancestor, strict, note)
            display, alignment = BRACKET_NAMES, "lines"
        else:
            options = evaluation_settings(None, convention=convention, no_punct=no_punct, punct=punct,
                                          ignore_subtypes=ignore_subtypes, label_map=label_map,
                                          case_sensitive_root=case_sensitive_root, skip_mismatched=skip_mismatched,
                                          strict=strict)
            counts, display, alignment, evaluation_signature = dependency_counts(gold, systems, names, format, options,
                                                                                 note, by, breakdowns)
        if note is not None:
            note(f"comparing {len(names)} systems ({chosen.shuffles:,} shuffles and {chosen.resamples:,} "
                 "resamples per pair) ...")
        result = compare_systems(counts, chosen, metric)
        return CompareRun(result, os.fspath(gold), {n: os.fspath(p) for n, p in zip(names, systems)}, alignment,
                          evaluation_signature, display, breakdowns or None)


__all__ = ["CompareRun", "bracket_counts", "compare", "dependency_counts", "system_names"]
