"""The options every command shares (``--json``, ``--tsv``, ``--output``, ``--quiet``,
``--format``, ``--strict``, ``--max-memory``) as typer option factories, and the parsing of
option values (comma-separated lists, tag sets, the parser-metric options, trees read in
``--format``). The writer of results is :mod:`.output`, the error handler :mod:`.handling`,
the warning lines :mod:`.warning_lines`."""
from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional

import typer

from ..adapters.files import read_trees as registry_read_trees
from ..adapters.files import reader_names
from ..errors import BadOptionError

# --------------------------------------------------------------------------- options


#: ``--format``: the name of a registered reader (:data:`~spacy_agreement.adapters.files.READERS`),
#: checked when the command runs, so that a reader registered at any time is a choice.
InputFormat = str


def _registered_format(value: Optional[str]) -> Optional[str]:
    if value is not None and value not in reader_names():
        raise typer.BadParameter(f"{value!r} is not a registered format: use {', '.join(reader_names())}")
    return value


def json_option(help: str = "Print one JSON object.") -> Any:
    return typer.Option(False, "--json", help=help)


def tsv_option(help: str = "Print key and value, tab-separated (nested keys as a.b).") -> Any:
    return typer.Option(False, "--tsv", help=help)


def output_option(help: str = "Write the result to this file instead of stdout.") -> Any:
    return typer.Option(None, "--output", "-o", help=help)


def quiet_option(help: str = "No progress bar, nothing on stderr but errors.") -> Any:
    return typer.Option(False, "--quiet", "-q", help=help)


def max_memory_option() -> Any:
    return typer.Option(None, "--max-memory", min=0.001, help=(
        "GiB the tree edit distance tables may take; a sentence needing more is one error line (alpha, report) "
        "or left out of TED and listed (evaluate). Default 8, or SPACY_AGREEMENT_MAX_MEMORY."))


def format_option(help: str = "Input format: conll, bracket or a registered reader (default: from the content).") -> Any:
    return typer.Option(None, "--format", help=help, callback=_registered_format,
                        autocompletion=lambda: list(reader_names()))


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


def tags(value: Optional[str], default: Any) -> Any:
    """A comma-separated tag list as a frozenset (``default`` when not given)."""
    if value is None:
        return default
    found = frozenset(t.strip() for t in value.split(",") if t.strip())
    if not found:
        raise BadOptionError(f"no tags in {value!r}")
    return found


def metric_options(no_punct: Optional[bool], punct: Optional[str], punct_label: Optional[List[str]] = None,
                   verb_tags: Optional[str] = None, content_tags: Optional[str] = None,
                   settings_class: Any = None, convention: Optional[str] = None, **rest: Any) -> Any:
    """:class:`~spacy_agreement.evaluation.parser_metrics.EvaluationOptions` (or
    ``settings_class``, a subclass) from the shared options: those given (not ``None``)
    over the values of ``convention`` (:data:`~spacy_agreement.evaluation.metric_options.CONVENTIONS`),
    or over the defaults without one (a bad value raises :class:`~spacy_agreement.errors.BadOptionError`)."""
    from ..evaluation.parser_metrics import EvaluationOptions

    given = {k: v for k, v in rest.items() if v is not None}
    if no_punct is not None:
        given["exclude_punct"] = no_punct
    if punct is not None:
        given["punct_rules"] = punct
    if punct_label:
        given["punct_labels"] = frozenset(punct_label)
    if verb_tags is not None:
        given["verb_upos"] = tags(verb_tags, None)
    if content_tags is not None:
        given["content_upos"] = tags(content_tags, None)
    cls = settings_class or EvaluationOptions
    return cls.for_convention(convention, **given) if convention else cls(**given)


def read_trees(path: Path, fmt: Optional[str], cycles: str = "drop", **options: Any) -> List[Any]:
    """The trees of one file in ``--format`` (default: from the content), through the reader
    registry (:func:`~spacy_agreement.adapters.files.read_trees`); ``options`` go to the reader.
    Bracketed files are read with blank lines as separators unless ``missing=True``."""
    options.setdefault("missing", False)
    return registry_read_trees(path, fmt or None, cycles=cycles, **options)
