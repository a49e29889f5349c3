"""The options every command shares (``--json``, ``--tsv``, ``--output``, ``--quiet``,
``--format``, ``--strict``, ``--max-memory``) as typer option factories, and the parsing of
option values (comma-separated lists, tag sets, the parser-metric options, trees read in
``--format``). The writer of results is :mod:`.output`, the error handler :mod:`.handling`,
the warning lines :mod:`.warning_lines`."""
from __future__ import annotations

import enum
import inspect
import types
import typing
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import typer

from .._lazy import deferred
from ..errors import BadOptionError

# --------------------------------------------------------------------------- options


#: ``--format``: the name of a registered reader (:data:`~spacy_agreement.adapters.files.READERS`),
#: checked when the command runs, so that a reader registered at any time is a choice.
InputFormat = str

#: Other names ``--format`` takes for a built-in reader (any case): the names of the file kinds.
FORMAT_ALIASES: Dict[str, str] = {"conllu": "conll", "conllx": "conll", "conll-u": "conll", "conll-x": "conll"}


def format_name(value: str) -> str:
    """The registered reader that ``--format VALUE`` names: a reader's name, or an alias of a
    built-in one in any case (``conllu``, ``CoNLL-X``: :data:`FORMAT_ALIASES`); raises
    :class:`typer.BadParameter` naming the choices otherwise."""
    from ..adapters.files import reader_names  # the readers, registered by now

    names = reader_names()
    if value in names:
        return value
    lowered = value.lower()
    found = FORMAT_ALIASES.get(lowered, lowered)
    if found in names:
        return found
    choices = ", ".join(f"{n} (or {', '.join(a for a, r in FORMAT_ALIASES.items() if r == n and '-' not in a)})"
                        if n in FORMAT_ALIASES.values() else n for n in names)
    raise typer.BadParameter(f"{value!r} is not a registered format: use {choices}")


def _registered_format(value: Optional[str]) -> Optional[str]:
    return None if value is None else format_name(value)


def json_option(help: str = "Print one JSON object.") -> Any:
    return typer.Option(False, "--json", help=help)


def tsv_option(help: str = "Print key and value, tab-separated (nested keys as a.b).") -> Any:
    return typer.Option(False, "--tsv", help=help)


def output_option(help: str = "Write the result to this file instead of stdout.") -> Any:
    return typer.Option(None, "--output", "-o", help=help, metavar="FILE")


def quiet_option(help: str = "No progress bar, nothing on stderr but errors.") -> Any:
    return typer.Option(False, "--quiet", "-q", help=help)


def max_memory_option() -> Any:
    return typer.Option(None, "--max-memory", min=0.001, metavar="GIB", help=(
        "GiB the tree edit distance tables may take; a sentence needing more is one error line (alpha, report) "
        "or left out of TED and listed (evaluate). Default 8, or SPACY_AGREEMENT_MAX_MEMORY."))


def format_option(help: str = "Input format: conll (conllu, conllx), bracket or a registered reader "
                              "(default: from the content).") -> Any:
    return typer.Option(None, "--format", help=help, callback=_registered_format, metavar="FORMAT",
                        autocompletion=_reader_names)


def _reader_names() -> List[str]:
    from ..adapters.files import reader_names

    return list(reader_names())


# --------------------------------------------------------------------------- metavars of --help

#: The metavar of an option's value by its type, where the option names none (``metavar=``):
#: what ``--help`` shows after the flag, in click's words, instead of typer's Python types.
TYPE_METAVARS: Dict[type, str] = {int: "N", float: "NUMBER", str: "TEXT", Path: "FILE"}


def _value_type(annotation: Any) -> Any:
    """``X`` of ``Optional[X]``, ``List[X]`` and ``Optional[List[X]]``."""
    while typing.get_origin(annotation) in (typing.Union, types.UnionType, list):
        args = [a for a in typing.get_args(annotation) if a is not type(None) and a is not Ellipsis]
        if len(args) != 1:
            return annotation
        annotation = args[0]
    return annotation


def choices(names: Any) -> str:
    """The metavar of a value out of ``names``: ``[a|b|c]``."""
    return "[" + "|".join(map(str, names)) + "]"


def metavar_of(annotation: Any, info: Any, name: str) -> str:
    """The metavar ``--help`` shows for a parameter without one: none for a flag (a ``bool``
    option), ``[a|b]`` for the choices of an ``Enum``, ``N``, ``NUMBER``, ``TEXT`` or ``FILE``
    by the value's type (:data:`TYPE_METAVARS`); an argument's name in capitals (``PATHS``)."""
    kind = _value_type(annotation)
    if isinstance(info, typer.models.ArgumentInfo):
        return name.upper()
    if kind is bool:
        return ""
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return choices(member.value for member in kind)
    return TYPE_METAVARS.get(kind, "VALUE")


def with_metavars(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (a command) with a metavar (:func:`metavar_of`) on each of its typer options
    and arguments that has none; the function itself is unchanged."""
    hints = typing.get_type_hints(function)
    for name, parameter in inspect.signature(function).parameters.items():
        info = parameter.default
        if isinstance(info, typer.models.ParameterInfo) and info.metavar is None:
            info.metavar = metavar_of(hints.get(name, str), info, name)
    return function


def strict_option(help: str) -> Any:
    return typer.Option(False, "--strict", help=help)


def cycles(strict: bool) -> str:
    """The readers' ``cycles`` argument for ``--strict``: head cycles raise, or are dropped and counted."""
    return "raise" if strict else "drop"


def comma_list(value: str, option: str, count: Optional[int] = None) -> tuple:
    """``a,b`` as a tuple of stripped names; ``count`` names exactly, or at least one."""
    parts = tuple(v.strip() for v in value.split(","))
    if count is not None and (len(parts) != count or not all(parts)):
        raise BadOptionError(f"{option} takes {count} comma-separated names, got {value!r}")
    parts = tuple(p for p in parts if p)
    if not parts:
        raise BadOptionError(f"{option}: no names in {value!r}")
    return parts


# --------------------------------------------------------------------------- options of evaluate and judgments

PUNCT_HELP = ("Punctuation rule(s), comma-separated: upos (UPOS PUNCT), label (a --punct-label relation), "
              "form (CoNLL-07 eval.pl: the form is Unicode punctuation only; Plank et al. 2015). "
              "Default upos,label.")
VERB_HELP = "Gold tags of verbs for UCP/LCP, comma-separated (default VERB; e.g. VA,VE for CDT, V for Croatian)."
CONTENT_HELP = ("Gold tags of content words for LAS content/function, comma-separated "
                "(default ADJ,NOUN,PROPN,VERB; e.g. AN,NC,NP,VA,VE for CDT).")
NED_HELP = "NED variant: schwartz (reversed edges and grandparents count) or undirected (reversed edges only)."
IGNORE_FORMS_HELP = "Compare sentences by token count only (a parser that rewrote forms, e.g. numbers as <num>)."
CONVENTION_HELP = ("The field's convention the options start from (any option given overrides it): conll18 "
                   "(conll18_ud_eval.py: every word, subtypes stripped, root as written), conll07 (eval07.pl: labels "
                   "as written, punctuation scored), conllx (eval.pl: punctuation by form excluded), plank2015, spacy "
                   "(spacy evaluate's UAS and LAS: F over arcs, each side's punct/p arcs left out by its own label, "
                   "labels lowercased) or package (0.2's defaults).")


# the library's (spacy_agreement.evaluation.dependency.settings), under the names the commands use, its
# module imported by the commands that call them
tags = deferred("..evaluation.dependency.settings", "tag_set", __package__)
metric_options = deferred("..evaluation.dependency.settings", "options_from_flags", __package__)


def read_trees(path: Path, fmt: Optional[str], cycles: str = "drop", **options: Any) -> List[Any]:
    """The trees of one file in ``--format`` (default: from the content), through the reader
    registry (:func:`~spacy_agreement.adapters.files.read_trees`); ``options`` go to the reader.
    Bracketed files are read with blank lines as separators unless ``missing=True``."""
    from ..adapters.files import read_trees as registry_read_trees

    options.setdefault("missing", False)
    return registry_read_trees(path, fmt or None, cycles=cycles, **options)
