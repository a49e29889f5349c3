"""The inputs of the agreement commands' functions (:func:`spacy_agreement.alpha`,
:func:`spacy_agreement.layers`): annotation files, folders or project exports read as the
commands read them (:func:`~spacy_agreement.adapters.annotations.load_annotations`), or data
already read (a :class:`~spacy_agreement.corpus.Corpus`, items of trees)."""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..adapters.annotations import load_annotations
from ..adapters.multi_user import USER_KEY
from ..corpus import Corpus
from ..errors import BadOptionError

#: The reading options of the commands (their long options, ``-`` as ``_``) and their defaults.
READ_DEFAULTS: Dict[str, Any] = {"dirs": False, "allow_duplicates": False, "user_key": USER_KEY, "include": None,
                                 "annotator_key": None, "annotator_part": None, "name_pattern": None,
                                 "format": None, "single_root": False}


def _is_path(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike))


def input_paths(inputs: Sequence[Any]) -> Optional[List[Any]]:
    """The paths among a function's positional ``inputs`` (each a ``str`` or
    :class:`os.PathLike`, or one list of them), or ``None`` where they are data already read."""
    if not inputs:
        raise BadOptionError("no input: give annotation files, folders or a project export, or a Corpus")
    if all(_is_path(x) for x in inputs):
        return list(inputs)
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)) and inputs[0] and all(
            _is_path(x) for x in inputs[0]):
        return list(inputs[0])
    if any(_is_path(x) for x in inputs):
        raise BadOptionError("give annotation paths or data already read (a Corpus, items of trees), not both")
    return None


def value_of(option: Any) -> Any:
    """An option's value: the value of an enum member (the CLI's choices), else itself."""
    return getattr(option, "value", option)


def read_inputs(paths: Sequence[Any], strict: bool = False, **reading: Any) -> Corpus:
    """The corpus of annotation ``paths`` as the commands read them (parallel files, annotator
    folders with ``dirs=True``, project exports as folders or ZIPs, flat folders, Prodigy
    JSONL, multi-user CoNLL-U, DocBins); ``reading``: the options of :data:`READ_DEFAULTS`;
    ``strict``: head cycles are errors instead of being dropped and counted."""
    options = {**READ_DEFAULTS, **reading}
    part = value_of(options["annotator_part"])
    return load_annotations(paths, options["dirs"], value_of(options["format"]) or None,
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
    paths = input_paths(inputs)
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
