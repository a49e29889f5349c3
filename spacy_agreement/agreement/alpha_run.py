"""``spacy-agreement alpha`` as one function: :func:`alpha` (``spacy_agreement.alpha``) takes
the command's inputs (annotation paths, or data already read) and options, with its defaults,
and returns an :class:`~spacy_agreement.agreement.result.AlphaResult` that carries α, the
accuracies beside it and the corpus, whose ``to_dict()`` is what ``alpha --json`` prints. The
computation is :func:`~spacy_agreement.agreement.run.agreement` (α by the one pipeline of
:mod:`spacy_agreement.agreement.alpha`, the accuracies of :mod:`~spacy_agreement.agreement.accuracy`);
the text is :func:`spacy_agreement.report.text.text_report`."""
from __future__ import annotations

import inspect
from dataclasses import replace
from typing import Any, Dict, Optional, Sequence, Union

from ..adapters.multi_user import USER_KEY
from ..corpus import Corpus
from ..errors import BadOptionError
from ..limits import memory_limit
from ..signature import read_signature
from ..trees import ConstituencyTree, DependencyTree
from . import run
from .alpha import AlphaResult, alpha as alpha_of_trees, alpha_settings
from .deltas import delta_names
from .inputs import read_inputs, split_inputs, value_of
from .pairable import PairableTrees, as_corpus
from .settings import DEFAULT_ALPHA_SECONDS, AlphaSettings


#: The command's options that are fields of :class:`AlphaSettings` under another name
#: (``--alpha`` is ``method``): option -> field.
_RENAMED = {"alpha_budget": "budget", "alpha_seconds": "seconds", "threads": "n_threads", "delta": "deltas",
            "strict": "cycles", "case_sensitive_root": "fold_root_case"}


def _given(value: Any) -> Any:
    """An option's value as a setting: an enum member's value, an empty list as none."""
    value = value_of(value)
    return None if isinstance(value, (list, tuple)) and not value else value


def _fields(options: Dict[str, Any], fields: Dict[str, Any], settings: Optional[AlphaSettings]) -> Dict[str, Any]:
    """The :class:`AlphaSettings` fields that the command's ``options`` set otherwise than by
    default (:func:`alpha`'s defaults, the command's), beside ``fields`` (the settings' own
    names, as the library took them before): what replaces the fields of ``settings``."""
    defaults = {name: p.default for name, p in inspect.signature(alpha).parameters.items()}
    given = {name: _given(v) for name, v in options.items() if _given(v) != defaults[name]}
    for option, name in _RENAMED.items():
        if option in given and name in fields:
            raise TypeError(f"alpha() got {option}= and {name}=, one setting: give one")
    out = dict(fields)
    for name, value in given.items():
        if name == "pqgram":
            continue
        if name == "strict":
            value = "raise"
        elif name == "case_sensitive_root":
            value = False
        elif name == "delta":
            value = value if isinstance(value, str) else tuple(value)
        out[_RENAMED.get(name, name)] = value
    if out.get("sample_pairs") and "method" not in out and getattr(settings, "method", "auto") == "auto":
        out["method"] = "sampled"  # sample_pairs alone asks for the sampled estimate, as --sample-pairs does
    if not out.get("bootstrap"):
        out.pop("bootstrap", None)  # the command's none: 0 resamples
    if given.get("pqgram"):
        chosen = tuple(out.get("deltas") or getattr(settings, "deltas", ()) or delta_names(default_only=True))
        out["deltas"] = chosen + (() if "pqgram" in [getattr(d, "name", d) for d in chosen] else ("pqgram",))
    return out


def alpha(*inputs: Any, settings: Union[None, str, AlphaSettings] = None, dirs: bool = False,
          allow_duplicates: bool = False, user_key: str = USER_KEY, partial: str = "missing",
          include: Optional[Sequence[str]] = None, annotator_key: Optional[str] = None,
          annotator_part: Optional[str] = None, name_pattern: Optional[str] = None, format: Optional[str] = None,
          strict: bool = False, single_root: bool = False, size: str = "annotation", exclude_mismatched: bool = False,
          threads: Optional[int] = None, backend: str = "threads", scheduler: Any = None, method: str = "auto",
          alpha_budget: Optional[float] = None, alpha_seconds: float = DEFAULT_ALPHA_SECONDS,
          sample_pairs: Optional[int] = None, seed: int = 0, bootstrap: Optional[int] = None,
          delta: Optional[Sequence[Any]] = None, pqgram: bool = False, ignore_subtypes: bool = False,
          case_sensitive_root: bool = False, signature: Optional[str] = None, max_memory: Optional[float] = None,
          **fields: Any) -> AlphaResult:
    """``spacy-agreement alpha`` as a function: Krippendorff's α over tree edit distance
    (Skjærholt 2014, §2: δplain, δdiff, δnorm and any registered δ) beside the uncorrected
    scores of Table 2 (LAS/UAS/LA, eq. 3, or bracket Jaccard, §4.2), with every count of
    what was set aside. ``result.to_dict()`` is what ``alpha --json`` prints for the same
    inputs and options, signature included.

    ``inputs``: annotation paths as the command takes them (two or more files, one
    annotator each; annotator folders with ``dirs=True``; one project export, flat folder,
    Prodigy JSONL, multi-user CoNLL-U or DocBin), or data already read: a
    :class:`~spacy_agreement.corpus.Corpus`, items of trees (each a sequence with ``None``
    for a missing annotation, or a mapping from annotator to tree), then optionally the
    settings (or, as in 0.2, a label cost) positionally.

    ``settings``: an :class:`~spacy_agreement.agreement.settings.AlphaSettings`, or a
    signature given back (as ``--signature``: a signature, or a saved JSON output holding one);
    an option given otherwise than by default replaces a settings object's field.
    The options are the command's long options (``-`` as ``_``), with its defaults; the
    command's ``--alpha METHOD`` is ``method=`` (``"auto"``, ``"exact"``, ``"sampled"``,
    ``"off"``), ``--format`` is ``format=``. The settings' own field names are taken too
    (``budget``, ``seconds``, ``n_threads``, ``deltas``, ``cycles``, ``fold_root_case``,
    ``label_cost``, ``confidence``, ``progress``): ``method="sampled"`` or ``sample_pairs``
    alone for the sampled estimate, ``bootstrap=N`` for an interval over items.

    Data already read whose trees are not dependency or phrase trees (bare ordered trees)
    gets α alone, as the engine (:func:`spacy_agreement.agreement.alpha.alpha`) computes it.

    >>> from spacy_agreement import DependencyTree
    >>> a = DependencyTree.create([2, 0], ["subj", "root"])
    >>> b = DependencyTree.create([2, 0], ["obj", "root"])
    >>> c = DependencyTree.create([0, 1, 1], ["root", "obj", "punct"])
    >>> result = alpha([[a, a], [b, a], [c, c]])
    >>> round(result.alpha_plain, 4), round(result.las, 4), result.to_dict()["alpha_method"]
    (0.8276, 0.8571, 'exact')

    Parameters
    ----------
    *inputs
        One argument per annotator: a path as the command takes it (a CoNLL-U/CoNLL-X file, a ``.spacy`` DocBin, a folder or a
        tool's export), spaCy docs (a ``Doc``, an iterable of them, a ``DocBin``), NLTK
        ``DependencyGraph``\\ s or the package's ``DependencyTree``\\ s: objects are written to a
        file and read as the path would be (:mod:`spacy_agreement.adapters.objects`), so the
        numbers are the same.
        spaCy ``Example``\\ s alone are two annotators, their reference and predicted docs. Or
        data already read: a :class:`~spacy_agreement.Corpus`, items of trees.
    settings
        A settings object of the command (keyword-only), whose fields an option given otherwise than
        by default must not contradict (an error naming the option).
    signature
        A signature given back (as ``--signature``: the signature, or a saved ``--json`` output).
    **options
        The command's long options (``-`` as ``_``) with its defaults (see above).

    Returns
    -------
    AlphaResult
        α per δ (``alpha_plain``, ``alpha_diff``, ``alpha_norm``), the accuracies (``las``, ``uas``,
        ``la`` or ``jaccard``), every count of what was set aside; ``.score`` is α over δplain,
        ``str()`` the command's text, ``to_dict()`` its ``--json``.

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
    >>> result = sa.alpha(demo / "dependency" / "anna" / "story-anna.conllu",
    ...                   demo / "dependency" / "ben" / "story-ben.conllu")
    >>> round(result.alpha_plain, 4), round(result.alpha_norm, 4), round(result.las, 4)
    (0.8553, 0.9142, 0.9474)
    """
    reading = {"dirs": dirs, "allow_duplicates": allow_duplicates, "user_key": user_key, "include": include,
               "annotator_key": annotator_key, "annotator_part": annotator_part, "name_pattern": name_pattern,
               "format": format, "single_root": single_root}
    paths, data, settings, signature = split_inputs("alpha", inputs, settings, signature, reading)
    if settings is not None and not isinstance(settings, AlphaSettings):  # 0.2: alpha(data, label_cost)
        fields.setdefault("label_cost", settings)
        settings = None
    options = {"partial": partial, "strict": strict, "size": size, "exclude_mismatched": exclude_mismatched,
               "threads": threads, "backend": backend, "scheduler": scheduler, "method": method,
               "alpha_budget": alpha_budget, "alpha_seconds": alpha_seconds, "sample_pairs": sample_pairs,
               "seed": seed, "bootstrap": bootstrap, "delta": delta, "pqgram": pqgram,
               "ignore_subtypes": ignore_subtypes, "case_sensitive_root": case_sensitive_root}
    wanted = _fields(options, dict(fields), settings)
    if wanted.get("method", getattr(settings, "method", "auto")) == "off" and (
            bootstrap or pqgram or delta or fields.get("deltas")):
        raise BadOptionError('bootstrap, deltas and pqgram need alpha: leave out method="off"',
                             option=("bootstrap", "deltas", "pqgram", "method"))
    resolved = alpha_settings(settings, **wanted)
    if signature:
        resolved = resolved.merged(read_signature(signature))
    if resolved.backend == "gpu":  # a missing extra or GPU is one error before the files are read
        from .gpu import cuda_module

        cuda_module()
    with memory_limit(max_memory):
        if paths is not None:
            corpus = read_inputs(paths, strict=resolved.cycles == "raise", **reading)
        elif isinstance(data, PairableTrees):
            return alpha_of_trees(data, resolved)
        else:
            corpus = as_corpus(data)
            if not _scored(corpus):
                return alpha_of_trees(corpus, resolved)
        return of_corpus(corpus, resolved)


def of_corpus(corpus: Corpus, settings: AlphaSettings) -> AlphaResult:
    """α and the accuracies of ``corpus`` (:func:`~spacy_agreement.agreement.run.agreement`) as
    one result that carries them and the corpus (:func:`alpha`'s result)."""
    result, accuracy = run.agreement(corpus, settings)
    if result is None:  # method="off": the accuracies alone
        result = AlphaResult({}, {}, {}, items=len(corpus.items), annotations=corpus.n_annotations, method="off",
                             settings=settings)
    return replace(result, accuracy=accuracy, corpus=corpus)


def _scored(corpus: Corpus) -> bool:
    """Whether the accuracies are defined for the corpus's trees: dependency trees, or phrase trees."""
    kind = DependencyTree if corpus.family == "dependency" else ConstituencyTree
    return all(isinstance(t, kind) for item in corpus.items for t in item.values())


__all__ = ["alpha", "of_corpus"]
