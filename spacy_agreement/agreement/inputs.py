"""The inputs of the agreement commands' functions (:func:`spacy_agreement.alpha`,
:func:`spacy_agreement.layers`): annotation files, folders or project exports read as the
commands read them (:func:`~spacy_agreement.adapters.annotations.load_annotations`), or data
already read (a :class:`~spacy_agreement.corpus.Corpus`, items of trees)."""
from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from .._calling import deprecated, split_signature
from ..adapters.annotations import load_annotations
from ..adapters.multi_user import USER_KEY
from ..adapters.objects import InputFiles, check_not_empty, elements, input_error, kind_of
from ..corpus import Corpus
from ..errors import BadOptionError, EmptyInputError

#: The reading options of the commands (their long options, ``-`` as ``_``) and their defaults.
READ_DEFAULTS: Dict[str, Any] = {"dirs": False, "allow_duplicates": False, "user_key": USER_KEY, "include": None,
                                 "annotator_key": None, "annotator_part": None, "name_pattern": None,
                                 "format": None, "single_root": False}


def _is_path(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike))


def _annotation(value: Any) -> bool:
    """Whether ``value`` is one annotator's annotations of the input model: a path, or objects
    (:mod:`spacy_agreement.adapters.objects`: docs, a DocBin, Examples, nltk trees, the
    package's trees, one or a flat iterable of them), but not data already read (a Corpus,
    items of trees: sequences or mappings of trees)."""
    if _is_path(value):
        return True
    found = elements(value)
    return found is not None and found[0] not in ("corpus", "empty")


def input_paths(inputs: Sequence[Any], function: str = "alpha") -> Optional[List[Any]]:
    """The annotations among a function's positional ``inputs`` (each a path, or objects of the
    input model: :mod:`spacy_agreement.adapters.objects`), or ``None`` where they are data
    already read (a Corpus, items of trees). One list of paths, as 0.3 took them, is taken with
    a :class:`DeprecationWarning`; spaCy ``Example``s alone are two annotators, their reference
    and predicted docs; an empty list is an
    :class:`~spacy_agreement.errors.EmptyInputError`."""
    if not inputs:
        raise BadOptionError("no input: give annotation files, folders or a project export, docs or trees, "
                             "or a Corpus")
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)) and inputs[0] and all(
            _is_path(x) for x in inputs[0]):
        deprecated(f"{function}([path, ...]) with the paths in one list", f"{function}(path1, path2, ...)")
        return list(inputs[0])
    for k, value in enumerate(inputs):
        found = None if _is_path(value) else elements(value)
        if found is not None and found[0] == "empty":
            raise EmptyInputError(f"{function}(): annotator {k + 1} is empty: no sentence to read", option="inputs")
    if all(_annotation(x) for x in inputs):
        return list(inputs)
    if any(_is_path(x) for x in inputs):
        k, value = next((k, x) for k, x in enumerate(inputs, start=1) if not _annotation(x))
        raise input_error(function, f"annotator {k}", value)
    return None


def materialized(inputs: Sequence[Any], files: InputFiles) -> List[Any]:
    """The annotations as paths: each path as it is, each other input of the model written
    to a file named ``annotatorK`` (K its position); spaCy ``Example``s alone as two files,
    their reference and predicted docs."""
    if len(inputs) == 1 and not _is_path(inputs[0]):
        pair = files.examples(inputs[0], "annotator 1")
        if pair is not None:
            return list(pair)
    out = []
    for k, value in enumerate(inputs, start=1):
        if kind_of(value) == "docbin":
            out.append(files.docbin(value, f"annotator{k}"))
        else:  # an empty file is refused by the public functions (split_inputs), as the CLI refuses it
            out.append(files.path(value, f"annotator{k}", check_empty=False))
    return out


def value_of(option: Any) -> Any:
    """An option's value: the value of an enum member (the CLI's choices), else itself."""
    return getattr(option, "value", option)


def read_inputs(paths: Sequence[Any], strict: bool = False, function: str = "alpha", **reading: Any) -> Corpus:
    """The corpus of annotation ``paths`` as the commands read them (parallel files, annotator
    folders with ``dirs=True``, project exports as folders or ZIPs, flat folders, Prodigy
    JSONL, multi-user CoNLL-U, DocBins; objects of the input model written to files first:
    :func:`materialized`); ``reading``: the options of :data:`READ_DEFAULTS`;
    ``strict``: head cycles are errors instead of being dropped and counted."""
    options = {**READ_DEFAULTS, **reading}
    part = value_of(options["annotator_part"])
    with InputFiles(function) as files:
        return load_annotations(materialized(paths, files), options["dirs"], value_of(options["format"]) or None,
                                single_root=options["single_root"], cycles="raise" if strict else "drop",
                                allow_duplicates=options["allow_duplicates"], user_key=options["user_key"],
                                include=options["include"] or (), annotator_key=options["annotator_key"],
                                name_pattern=options["name_pattern"], annotator_part=part)


def reading_given(reading: Dict[str, Any]) -> List[str]:
    """The reading options of ``reading`` set otherwise than by default (which data already
    read cannot take)."""
    return [name for name, value in reading.items()
            if (value_of(value) or None if name == "include" else value_of(value)) != READ_DEFAULTS[name]]


def check_data_reading(reading: Dict[str, Any]) -> None:
    """Data already read with reading options set: an error naming them."""
    given = reading_given(reading)
    if given:
        raise BadOptionError(f"{', '.join(given)} read annotation files: give paths, or leave "
                             f"{'it' if len(given) == 1 else 'them'} out with data already read", option=tuple(given))


def split_inputs(function: str, inputs: Sequence[Any], settings: Any, signature: Optional[str],
                 reading: Dict[str, Any]) -> Tuple[Optional[List[Any]], Any, Any, Optional[str]]:
    """A command function's positional ``inputs`` and ``settings=`` taken apart: ``(paths, data,
    settings, signature)``. Either annotation paths (``data`` None), or data already read with
    its settings positionally or as ``settings=`` (then no reading option may be set); a
    ``settings`` given as a string is a signature given back, as ``--signature``."""
    # an iterator (a generator of docs) is read once, here: the checks below and the reading look at it twice
    inputs = tuple(list(x) if isinstance(x, Iterator) else x for x in inputs)
    inputs, positional_signature = split_signature(function, tuple(inputs))
    if positional_signature is not None:
        if signature or isinstance(settings, str):
            raise TypeError(f"{function}() got two signatures: give signature= alone")
        signature = positional_signature
    paths = input_paths(inputs, function)
    for k, value in enumerate(paths or (), start=1):
        if _is_path(value):
            check_not_empty(value, f"annotator {k}")
    data: Any = None
    if paths is None:
        data, *rest = inputs
        if len(rest) > 1:
            raise TypeError(f"{function}() takes data already read and its settings, or annotation paths")
        if rest:
            if settings is not None:
                raise TypeError(f"{function}() got settings twice (positionally and settings=)")
            settings = rest[0]
        check_data_reading(reading)
    if isinstance(settings, str):  # a signature given back, as --signature
        if signature:
            raise TypeError(f"{function}() got two signatures (settings= and signature=): give one")
        signature, settings = settings, None
    return paths, data, settings, signature


__all__ = ["READ_DEFAULTS", "check_data_reading", "input_paths", "read_inputs", "reading_given", "split_inputs",
           "value_of"]
