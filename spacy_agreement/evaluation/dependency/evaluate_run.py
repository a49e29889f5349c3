"""``spacy-agreement evaluate`` as one function: :func:`evaluate` scores a parser's output against
gold as the command does, from two files (CoNLL-U/CoNLL-X, ``.spacy`` DocBins, any registered
reader), two sequences of trees, or a spaCy pipeline (``model``) that parses the gold, and returns
an :class:`EvaluateRun` whose :meth:`~EvaluateRun.to_dict` is what ``evaluate --json`` prints.

Its defaults are the command's: ``conll18_ud_eval.py``'s convention (Zeman et al. 2018: every word
scored, subtypes stripped, the root relation as written), the script's thirteen scores beside the
package's metrics on CoNLL files with the same tokens, and on files whose tokens or sentences
differ the script's character alignment. Two CoNLL files are read in step, a block of sentences
at a time (:mod:`.streaming`, :mod:`.aligned_stream`), unless ``breakdown``, ``strict`` or a
``model`` needs them whole. The metrics themselves (Plank et al. 2015, §2) are
:func:`spacy_agreement.evaluation.dependency.metrics.evaluate`, which keeps its own defaults (0.2's
convention, ``conv:package``) and signature; every evaluation here, whole or streamed, is counted
by one :class:`~.accumulator.DependencyEvaluator`.
"""
from __future__ import annotations

import os
from contextlib import ExitStack
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ..._calling import positional_settings
from ...adapters.objects import InputFiles, once
from ...errors import BadOptionError, MismatchedCorpusError, warns_once
from ...limits import memory_limit
from ..conll18.alignment import AlignedScores
from ..command_results import Intervals, resolve_settings
from ..conll18.files import (aligned_scores, check_conll18_options, conll18_beside, conll18_changes, dependency_trees,
                            is_path, refuse_as_conll18, refuse_deep_heads, text_difference, tokens_differ)
from .accumulator import evaluate as evaluate_trees
from .result import EvaluationResult
from .settings import EvaluationSettings, options_from_flags

PathLike = Union[str, "os.PathLike[str]"]
Note = Optional[Callable[[str], Any]]


def evaluation_settings(settings: Union[None, str, EvaluationSettings] = None, *, convention: str = "conll18",
                        no_punct: Optional[bool] = None, punct: Optional[str] = None,
                        punct_label: Optional[Sequence[str]] = None, verb_tags: Optional[str] = None,
                        content_tags: Optional[str] = None, ned: Optional[str] = None,
                        ignore_subtypes: Optional[bool] = None, skip_mismatched: bool = False,
                        ignore_forms: bool = False, strict: bool = False, ted_norm: str = "sum",
                        label_map: Union[None, PathLike, Mapping[str, str]] = None,
                        case_sensitive_root: Optional[bool] = None) -> EvaluationSettings:
    """The settings of one ``evaluate`` call, as the command builds them from its options: those
    given over the values of ``convention``
    (:data:`~spacy_agreement.evaluation.dependency.settings.CONVENTIONS`); ``label_map`` a file (two
    columns, or a JSON object: :func:`~.label_sets.read_label_map`) or a mapping; ``settings``
    (an :class:`~.metric_options.EvaluationSettings`, or a signature given back) as
    ``--signature`` applies them."""
    if label_map is not None and not isinstance(label_map, Mapping):
        from .label_sets import read_label_map

        label_map = read_label_map(label_map)
    built = options_from_flags(no_punct, punct, punct_label, verb_tags, content_tags, convention=convention,
                               ignore_subtypes=ignore_subtypes, ted_norm=ted_norm, ned=ned,
                               label_map=dict(label_map) if label_map else None,
                               fold_root_case=None if case_sensitive_root is None else not case_sensitive_root,
                               skip_mismatched=skip_mismatched, check_forms=not ignore_forms,
                               cycles="raise" if strict else "drop")
    resolved = resolve_settings(settings, built, EvaluationSettings.for_convention(convention))
    if settings is not None:  # an option given (not None) that the settings set otherwise is an error
        given = {"no_punct": ("exclude_punct", no_punct), "punct": ("punct_rules", punct),
                 "punct_label": ("punct_labels", punct_label), "verb_tags": ("verb_upos", verb_tags),
                 "content_tags": ("content_upos", content_tags), "ned": ("ned", ned),
                 "ignore_subtypes": ("ignore_subtypes", ignore_subtypes),
                 "case_sensitive_root": ("fold_root_case", case_sensitive_root)}
        for option, (name, value) in given.items():
            if value is None or (option == "punct_label" and not value):
                continue
            if getattr(resolved, name) != getattr(built, name):
                raise BadOptionError(f"the settings set {name} to {getattr(resolved, name)!r} and this call's "
                                     f"{option}={value!r} to {getattr(built, name)!r}: give one", option=option)
    return resolved


from .evaluate_result import EvaluateRun  # noqa: E402 (its home; imported here under its old path too)


def _intervals(counts: Any, ci: Any) -> Intervals:
    from ..comparison.systems import system_intervals

    return Intervals(counts, system_intervals(counts, ci), ci)


def _identical_intervals(result: EvaluationResult, ci: Any) -> Optional[Intervals]:
    """``--ci`` of the package's metrics: the defined ones, per sentence."""
    if ci is None:
        return None
    counts = result.statistics()
    defined = [m for m, v in result.scores.items() if v == v]  # nan: undefined on the corpus
    return _intervals(counts.select(counts.units, defined), ci)


def _aligned_intervals(aligned: AlignedScores, ci: Any) -> Optional[Intervals]:
    """``--ci`` of an aligned evaluation: intervals of the thirteen F1 scores, per gold sentence."""
    if ci is None:
        return None
    return _intervals(aligned.statistics(), ci)


def evaluate_streamed(gold: PathLike, pred: PathLike, fmt: Optional[str], options: EvaluationSettings,
                      ci: Any = None, block: Optional[int] = None) -> Optional[EvaluateRun]:
    """``evaluate`` of two CoNLL files read in step, ``block`` sentences at a time
    (:mod:`~spacy_agreement.evaluation.dependency.streaming`): memory flat in the corpus size, the figures
    of the whole-file evaluation. Same tokens: the package's metrics (nothing kept per sentence
    but with ``ci``, an :class:`~.significance.IntervalSettings`), and under conll18 the
    script's thirteen scores beside them, each from summed counts. Other tokens: the script's
    scores from its alignment, the files cut where they meet at a sentence boundary
    (:mod:`~spacy_agreement.evaluation.conll18.streaming`). ``None`` when the whole-file path must
    run instead (another format, a file or block the fast readers leave to the Python readers,
    an error they name, ``ci`` on other tokens)."""
    from ...adapters.files import guess_format
    from ..conll18.streaming import Beside, evaluate_aligned_streamed
    from .accumulator import DependencyEvaluator
    from .streaming import BLOCK, ScanStream, TokensDiffer, Unscannable, identical_batches

    if (fmt or guess_format(gold)) != "conll" or (fmt or guess_format(pred)) != "conll":
        return None
    # nothing kept per sentence but with ci, each sentence's counts
    accumulator = DependencyEvaluator(options, keep_rows=False, keep_counts=ci is not None)
    if not accumulator.compiled:
        return None  # a registered metric: the trees, sentence by sentence
    table = accumulator.table
    beside = (Beside(table, str(gold), str(pred))
              if options.convention == "conll18" and not conll18_changes(options) else None)
    try:
        with ScanStream(gold, table, apart=True) as g_stream, ScanStream(pred, table, apart=True) as p_stream:
            for block_pair in identical_batches(g_stream, p_stream, options.check_forms, options.skip_mismatched,
                                                block or BLOCK, beside):
                accumulator.add_block(*block_pair)
        result = accumulator.result(stacklevel=4)  # the warnings point at the caller of spacy_agreement.evaluate
    except Unscannable:
        return None
    except TokensDiffer:
        if ci is not None or conll18_changes(options):
            return None  # the whole files: their intervals, or the options the alignment cannot honour
        try:
            other, n_gold, n_pred = evaluate_aligned_streamed(gold, pred, block or BLOCK)
        except Unscannable:
            return None  # the whole-file path names where the texts differ, or what the script refuses
        return EvaluateRun("characters", options, aligned=other, gold_sentences=n_gold, system_sentences=n_pred)
    missing: List[str] = []
    aligned = beside.scores() if beside is not None else None
    if beside is not None and aligned is None:
        aligned = conll18_beside(gold, pred, fmt, options, missing.append)  # the whole files: why the script refuses
    return EvaluateRun("identical", options, result, aligned, intervals=_identical_intervals(result, ci),
                       conll18_missing=missing[0] if missing else None)


def from_raw_text(model: str, gold: PathLike, gold_trees: List[Any], fmt: Optional[str], options: EvaluationSettings,
                  save_parses: Optional[PathLike], note: Note = None,
                  progress: bool = False) -> Tuple[AlignedScores, Tuple[Any, Any]]:
    """``--model --from-text``: the pipeline tokenises, splits and parses the gold's raw text
    (:func:`~spacy_agreement.integrations.spacy_parse.parse_raw_text`); its parses are scored
    through conll18_ud_eval.py's alignment (and saved with ``save_parses``)."""
    from ...adapters.conllu.column_reader import parse_conllu_columns, read_conllu_columns
    from ...integrations.spacy_parse import load_pipeline, parse_raw_text, pipeline_name
    from ..conll18.accumulator import AlignedEvaluator

    check_conll18_options(gold, options)
    nlp = load_pipeline(model, note)
    text = parse_raw_text(nlp, gold_trees, progress=progress)
    name = str(save_parses) if save_parses is not None else f"<{pipeline_name(model)} on the raw text>"
    if save_parses is not None:
        with open(save_parses, "w", encoding="utf-8") as handle:
            handle.write(text)
        if note is not None:
            note(f"wrote the pipeline's {text.count(chr(10) + chr(10))} sentences to {save_parses}")
    layers = (read_conllu_columns(gold), parse_conllu_columns(text, name))
    evaluator = AlignedEvaluator()
    evaluator.add(*layers)
    refuse_deep_heads(gold, None, fmt, options, layers[:1])
    return evaluator.result(), layers


def _parsed(model: str, gold_trees: List[Any], options: EvaluationSettings, save_parses: Optional[PathLike],
            note: Note, progress: bool) -> Tuple[List[Any], Dict[str, float]]:
    """``--model``: the pipeline's parses of the gold words, spaCy's own LAS and UAS of them, the
    parses saved with ``save_parses``."""
    from ...integrations.spacy_parse import parse_with_model, spacy_convention_scores, write_parses

    pred_trees, nlp, docs = parse_with_model(model, gold_trees, note, progress)
    spacy_scores = spacy_convention_scores(nlp, docs, gold_trees, options)
    if save_parses is not None:
        rerooted: List[str] = []  # sentences the pipeline split: one root in the file
        with open(save_parses, "w", encoding="utf-8") as handle:
            handle.write(write_parses(pred_trees, gold_trees, rerooted))
        if note is not None:
            note(f"wrote {len(pred_trees)} parses to {save_parses}" + (
                f" ({len(rerooted)} with several roots written with one: the later attached to the first as "
                f"parataxis, e.g. sent_id {rerooted[0]})" if rerooted else ""))
    return pred_trees, spacy_scores


def _model_name(model: Any) -> str:
    from ...integrations.spacy_parse import pipeline_name

    return str(pipeline_name(model))


@warns_once
def evaluate(gold: Any, system: Any = None, *args: Any,
             settings: Union[None, str, EvaluationSettings] = None, signature: Optional[str] = None,
             format: Optional[str] = None,
             model: Any = None, convention: str = "conll18", no_punct: Optional[bool] = None,
             punct: Optional[str] = None, punct_label: Optional[Sequence[str]] = None,
             verb_tags: Optional[str] = None, content_tags: Optional[str] = None, ned: Optional[str] = None,
             ignore_subtypes: Optional[bool] = None, skip_mismatched: bool = False, ignore_forms: bool = False,
             strict: bool = False, ted_norm: str = "sum", label_map: Union[None, PathLike, Mapping[str, str]] = None,
             case_sensitive_root: Optional[bool] = None, from_text: bool = False,
             save_parses: Optional[PathLike] = None, max_memory: Optional[float] = None, ci: bool = False,
             resamples: int = 1000, seed: int = 1, confidence: float = 0.95, interval: str = "percentile",
             breakdown: Optional[str] = None, note: Note = None, progress: bool = False) -> EvaluateRun:
    """``spacy-agreement evaluate GOLD SYSTEM``: every parser metric of predicted trees against
    gold, with the command's defaults: LAS, UAS, LA, NED, TED accuracy, UCP, LCP, content- and
    function-word and root-weighted LAS (Plank et al. 2015, §2, §4, §5), CLAS, MLAS and BLEX
    (Zeman et al. 2018), attachment per label, and under ``convention="conll18"`` (the default)
    the thirteen scores of ``conll18_ud_eval.py`` beside them (the same LAS to the last digit).

    ``gold`` and ``system``: two files (CoNLL-U/CoNLL-X, a ``.spacy`` DocBin or any registered
    reader, ``format`` as ``--format``, by default from the content), or two sequences of
    :class:`~spacy_agreement.trees.DependencyTree`; or ``model`` (a spaCy pipeline's name or
    path) instead of ``system``, to parse the gold words (``from_text=True``: the gold's raw
    text, tokenised and split by the pipeline; ``save_parses``: a CoNLL-U file for its parses).
    Files whose tokens or sentences differ are scored through the script's character
    alignment (its thirteen F1 scores; CoNLL-U only, under conll18's conventions), unless
    ``skip_mismatched=True`` sets those sentences aside; trees whose tokens differ need
    ``skip_mismatched``.

    The options are the command's long options (``-`` as ``_``) with its defaults: ``convention``
    (conll18, conll07, conllx, plank2015, spacy or package), ``no_punct``, ``punct``,
    ``punct_label``, ``verb_tags``, ``content_tags``, ``ned``, ``ignore_subtypes``,
    ``case_sensitive_root``, ``ted_norm``, ``label_map`` (a file or a mapping), ``ignore_forms``,
    ``strict``, ``max_memory`` (GiB for the tree edit distance tables); ``None`` leaves an option
    as the convention says. ``settings``: an
    :class:`~spacy_agreement.evaluation.dependency.settings.EvaluationSettings` or a signature given
    back (``--signature``). ``ci=True`` adds bootstrap intervals (``resamples``, ``seed``,
    ``confidence``, ``interval``); ``breakdown`` attachment by group (``"all"`` or some of
    ``arc_length,direction,depth,sentence_length,upos,deprel``). ``note`` gets the command's
    lines of chatter (the pipeline loading, the parses written, why the script's table is
    missing); ``progress`` shows a progress bar while a pipeline parses.

    Undefined figures are ``nan`` (``None`` in :meth:`EvaluateRun.to_dict`), and one
    :class:`~spacy_agreement.errors.UndefinedMetricWarning` names them all.

    Parameters
    ----------
    gold, system
        The gold and the system's analyses, each a path as the command takes it (a CoNLL-U/CoNLL-X file, a ``.spacy`` DocBin, a folder or a
        tool's export), spaCy docs (a ``Doc``, an iterable of them, a ``DocBin``), NLTK
        ``DependencyGraph``\\ s or the package's ``DependencyTree``\\ s: objects are written to a
        file and read as the path would be (:mod:`spacy_agreement.adapters.objects`), so the
        numbers are the same.
        spaCy ``Example``\\ s given as ``gold`` alone are gold and system at once.
    settings
        A settings object of the command (keyword-only), whose fields an option given otherwise than
        by default must not contradict (an error naming the option).
    signature
        A signature given back (as ``--signature``: the signature, or a saved ``--json`` output).
    model
        Instead of ``system``: a spaCy pipeline's name or path, or a pipeline already loaded.
    **options
        The command's long options (``-`` as ``_``) with its defaults (see above).

    Returns
    -------
    EvaluateRun
        ``las``, ``uas``, ``la``, ``ned``, ``ted``, ``lcp``, ``ucp``, ``clas``, ``mlas``, ``blex``
        (fractions), ``scores``, the conll18 table (``aligned``); ``.score`` is LAS, ``str()`` the
        command's text, ``to_dict()`` its ``--json``.

    Raises
    ------
    TypeError
        An input that is none of the kinds above, or of the other family (phrase-structure trees
        here): the message names the argument, what was given and the kinds accepted.
    spacy_agreement.EmptyInputError
        An empty file (``FILE: empty file``, as the command says) or an empty list.
    spacy_agreement.InvalidTreeError
        A malformed tree, naming the file, the sentence and the token.
    spacy_agreement.BadOptionError
        An option value the function cannot use, naming the option.
    spacy_agreement.MismatchedCorpusError
        Texts that no alignment can pair (conll18_ud_eval.py refuses them too).

    Examples
    --------
    >>> import spacy_agreement as sa
    >>> from pathlib import Path
    >>> demo = Path(sa.__file__).parent / "data" / "demo"
    >>> run = sa.evaluate(demo / "dependency" / "anna" / "story-anna.conllu",
    ...                   demo / "dependency" / "ben" / "story-ben.conllu")
    >>> round(run.las, 4), round(run.uas, 4)
    (0.9474, 0.9474)
    """
    settings = positional_settings("evaluate", args, settings, signature, EvaluationSettings)
    gold, system = once(gold), once(system)  # a generator is looked at twice: is it Examples, then its docs
    with InputFiles("evaluate") as files:
        if system is None and model is None:
            system_of = files.examples(gold, "gold")
            if system_of is not None:
                gold, system = system_of
        gold = files.path(gold, "gold", "dependency")
        if system is not None:
            system = files.path(system, "system", "dependency")
        if (system is None) == (model is None):
            raise BadOptionError("give either a predicted file or --model, not both or neither")
        if save_parses is not None and model is None:
            raise BadOptionError("--save-parses keeps the parses of --model: give --model")
        if from_text and model is None:
            raise BadOptionError("--from-text gives the raw text to the pipeline of --model: give --model")
        options = evaluation_settings(settings, convention=convention, no_punct=no_punct, punct=punct,
                                      punct_label=punct_label, verb_tags=verb_tags, content_tags=content_tags, ned=ned,
                                      ignore_subtypes=ignore_subtypes, skip_mismatched=skip_mismatched,
                                      ignore_forms=ignore_forms, strict=strict, ted_norm=ted_norm, label_map=label_map,
                                      case_sensitive_root=case_sensitive_root)
        strict = options.cycles == "raise"
        ci_settings = None
        if ci:
            from ..comparison.significance import IntervalSettings

            ci_settings = IntervalSettings(resamples=resamples, seed=seed, confidence=confidence, interval=interval)
        from .breakdown_tables import chosen_attributes
        from .breakdowns import breakdowns_from_layers, breakdowns_from_trees

        gold_file, system_file = is_path(gold), system is not None and is_path(system)
        files = gold_file and (system_file or system is None)
        with ExitStack() as stack:
            stack.enter_context(memory_limit(max_memory))
            if files:
                stack.enter_context(refuse_as_conll18(gold, system, format, options))  # type: ignore[arg-type]
            by = chosen_attributes(breakdown)
            name = os.path.basename(os.fspath(system)) if system_file else _model_name(model) if model is not None else "system"
            if model is None and files and not by and not strict:
                run = evaluate_streamed(gold, system, format, options, ci_settings)  # type: ignore[arg-type]
                if run is not None:
                    return run
            gold_trees = dependency_trees(gold, format, strict) if gold_file else list(gold)  # type: ignore[arg-type]
            spacy_scores: Dict[str, float] = {}
            if model is not None and from_text:
                if not gold_file:
                    raise BadOptionError("--from-text gives the pipeline the gold file's raw text: give the gold's path")
                aligned, layers = from_raw_text(model, gold, gold_trees, format, options, save_parses, note,  # type: ignore[arg-type]
                                                progress)
                return EvaluateRun("characters", options, aligned=aligned, intervals=_aligned_intervals(aligned, ci_settings),
                                   breakdowns={name: breakdowns_from_layers(*layers, by=by)} if by else None,
                                   gold_sentences=len(gold_trees))
            if model is not None:
                pred_trees, spacy_scores = _parsed(model, gold_trees, options, save_parses, note, progress)
            else:
                pred_trees = dependency_trees(system, format, strict) if system_file else list(system)  # type: ignore[arg-type]
                if tokens_differ(gold_trees, pred_trees, options.check_forms) and not options.skip_mismatched:
                    if not files:
                        raise MismatchedCorpusError(
                            "the gold and the predicted trees differ in tokens or sentences: give the two CoNLL-U files "
                            "(conll18_ud_eval.py's character alignment reads them), or skip_mismatched=True")
                    # other tokens or sentences: conll18_ud_eval.py's character alignment, its thirteen scores
                    difference = text_difference(gold_trees, pred_trees, gold, system)  # type: ignore[arg-type]
                    if difference is not None:
                        raise MismatchedCorpusError(difference)
                    aligned, layers = aligned_scores(gold, system, format, options)  # type: ignore[arg-type]
                    return EvaluateRun("characters", options, aligned=aligned,
                                       intervals=_aligned_intervals(aligned, ci_settings),
                                       breakdowns={name: breakdowns_from_layers(*layers, by=by)} if by else None,
                                       gold_sentences=len(gold_trees), system_sentences=len(pred_trees))
            result = evaluate_trees(gold_trees, pred_trees, options, keep_counts=ci)
            intervals = _identical_intervals(result, ci_settings)
            breakdowns = ({name: breakdowns_from_trees(list(zip(gold_trees, pred_trees)), by=by, options=options)}
                          if by else None)
            missing: List[str] = []
            aligned = conll18_beside(gold, system, format, options, missing.append) if model is None and files else None  # type: ignore[arg-type]
            return EvaluateRun("identical", options, result, aligned, spacy_scores, intervals, breakdowns,
                               conll18_missing=missing[0] if missing else None)


__all__ = ["EvaluateRun", "evaluate", "evaluate_streamed", "evaluation_settings", "from_raw_text"]
