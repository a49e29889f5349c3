"""What every command shares: the options (``--json``, ``--tsv``, ``--output``, ``--quiet``,
``--format``, ``--strict``), the one writer of results (text, strict JSON or TSV, to stdout
or ``--output``) and the one error handler (bad input: exit code 1 and one line on stderr;
anything else is a bug and surfaces as a traceback)."""
from __future__ import annotations

import json
import math
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Union

import typer

from ..adapters.files import read_trees as registry_read_trees
from ..adapters.files import reader_names
from ..errors import AgreementError, BadOptionError

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


# --------------------------------------------------------------------------- output


def json_safe(value: Any) -> Any:
    """NaN and infinities (undefined results) as null, in nested dicts and lists too."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def dumps(value: Any, indent: Optional[int] = 2) -> str:
    """The one JSON writer of the CLI: strict JSON, an undefined result (NaN) is ``null``."""
    return json.dumps(json_safe(value), indent=indent, allow_nan=False)


def flat(values: Dict[str, Any], prefix: str = "") -> Dict[str, Any]:
    """Nested dicts flattened to ``a.b`` keys; lists left out (they are per-item detail)."""
    out: Dict[str, Any] = {}
    for k, v in values.items():
        if isinstance(v, dict):
            out.update(flat(v, f"{prefix}{k}."))
        elif not isinstance(v, (list, tuple)):
            out[f"{prefix}{k}"] = v
    return out


def tsv_lines(values: Dict[str, Any]) -> str:
    """A result as two tab-separated columns, key and value (nested keys as ``a.b``; undefined empty)."""
    return "\n".join(f"{k}\t{'' if v is None else v}" for k, v in json_safe(flat(values)).items())


Lazy = Union[Any, Callable[[], Any]]


def _value(lazy: Lazy) -> Any:
    return lazy() if callable(lazy) else lazy


@dataclass(frozen=True)
class Output:
    """Where and how a command writes its result (``--json``, ``--tsv``, ``--output``,
    ``--quiet``). Made first in a command, so that ``--json --tsv`` fails before any work."""

    as_json: bool = False
    tsv: bool = False
    path: Optional[Path] = None
    quiet: bool = False

    def __post_init__(self) -> None:
        if self.as_json and self.tsv:
            raise BadOptionError("--json and --tsv exclude each other: give one")

    @property
    def structured(self) -> bool:
        return self.as_json or self.tsv

    @property
    def progress(self) -> bool:
        """Whether to show a progress bar: not with ``--quiet``, nor when stderr is no terminal."""
        return not self.quiet and sys.stderr.isatty()

    def note(self, message: str) -> None:
        """A line of chatter on stderr (none with ``--quiet``)."""
        if not self.quiet:
            typer.echo(message, err=True)

    def write(self, text: Lazy, data: Lazy = None, tsv: Lazy = None, encoding: str = "utf-8") -> None:
        """The result: ``data`` as JSON with ``--json``, ``tsv`` (default: ``data`` as key and
        value) with ``--tsv``, else ``text``; each may be a function, called only when needed.
        ``encoding`` other than UTF-8 writes the text's bytes (EVALB's latin-1) unchanged."""
        if self.as_json:
            self.emit(dumps(_value(data)))
        elif self.tsv:
            self.emit(_value(tsv) if tsv is not None else tsv_lines(_value(data)))
        else:
            self.emit(_value(text), encoding)

    def emit(self, text: str, encoding: str = "utf-8") -> None:
        """``text`` and a newline to ``--output`` or stdout."""
        if encoding.lower().replace("-", "") == "utf8":
            if self.path is None:
                typer.echo(text)
            else:
                self.path.write_text(text + "\n", encoding="utf-8")
            return
        data = (text + "\n").encode(encoding)
        if self.path is not None:
            self.path.write_bytes(data)
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()


# --------------------------------------------------------------------------- errors


def fail(message: str) -> None:
    """Exit with code 1 after one line on stderr."""
    typer.echo(message, err=True)
    raise typer.Exit(code=1)


def _files(paths: tuple) -> Iterator[Path]:
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file())
        elif path.is_file():
            yield path


def _not_utf8(paths: tuple, exc: UnicodeDecodeError) -> str:
    """The one line for input that is not UTF-8, naming the first such file among ``paths``."""
    for path in _files(paths):
        try:
            path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as found:
            return f"{path}: not UTF-8 text ({found.reason} at byte {found.start})"
        except OSError:
            continue
    return f"input is not UTF-8 text: {exc}"


@contextmanager
def handled_errors(*paths: Optional[Union[str, os.PathLike]]) -> Iterator[None]:
    """The one error handler of the CLI. Bad input, that is an :class:`AgreementError` (a
    malformed tree, mismatched files, a bad option value) or an input file that is missing,
    a directory, unreadable or not UTF-8 (``paths``: the command's input files and folders,
    searched for the culprit), ends with exit code 1 and one line
    ``file:sentence:token: message``. Every other exception is a bug and propagates."""
    try:
        yield
    except AgreementError as exc:
        fail(str(exc))
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError) as exc:
        fail(f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc))
    except UnicodeDecodeError as exc:
        fail(_not_utf8(tuple(p for p in paths if p is not None), exc))


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


def metric_options(no_punct: bool, punct: str, punct_label: Optional[List[str]] = None,
                   verb_tags: Optional[str] = None, content_tags: Optional[str] = None, **rest: Any) -> Any:
    """:class:`~spacy_agreement.evaluation.parser_metrics.EvaluationOptions` from the shared
    options (a bad value raises :class:`~spacy_agreement.errors.BadOptionError`)."""
    from ..evaluation.parser_metrics import EvaluationOptions

    base = EvaluationOptions()
    return EvaluationOptions(
        exclude_punct=no_punct, punct_rules=punct,
        punct_labels=frozenset(punct_label) if punct_label else base.punct_labels,
        verb_upos=tags(verb_tags, base.verb_upos), content_upos=tags(content_tags, base.content_upos), **rest)


def read_trees(path: Path, fmt: Optional[str], cycles: str = "drop", **options: Any) -> List[Any]:
    """The trees of one file in ``--format`` (default: from the content), through the reader
    registry (:func:`~spacy_agreement.adapters.files.read_trees`); ``options`` go to the reader.
    Bracketed files are read with blank lines as separators unless ``missing=True``."""
    options.setdefault("missing", False)
    return registry_read_trees(path, fmt or None, cycles=cycles, **options)
