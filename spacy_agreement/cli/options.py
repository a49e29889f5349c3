"""What every command shares: the options (``--json``, ``--tsv``, ``--output``, ``--quiet``,
``--format``, ``--strict``), the one writer of results (text, strict JSON or TSV, to stdout
or ``--output``) and the one error handler (bad input: exit code 1 and one line on stderr;
anything else is a bug and surfaces as a traceback)."""
from __future__ import annotations

import json
import math
import os
import re
import sys
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

import typer

from ..adapters.files import read_trees as registry_read_trees
from ..adapters.files import reader_names
from ..errors import AgreementError, BadOptionError, utf8_problem

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
        if self.quiet:  # nothing on stderr but errors: no warning lines either
            quiet_warnings()
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


# --------------------------------------------------------------------------- warnings

_UNDEFINED = re.compile(r"^(?P<name>\S+) is undefined: (?P<why>.*)$", re.S)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def warning_lines(messages: List[str]) -> List[str]:
    """The ``warning: ...`` lines of a run: each distinct message once, in order of first
    appearance; undefined results for the same reason on one line (``alpha_plain, alpha_diff
    and alpha_norm are undefined: ...``)."""
    groups: Dict[str, List[str]] = {}
    for text in map(_one_line, messages):
        found = _UNDEFINED.match(text)
        key, name = (found["why"], found["name"]) if found else ("\0" + text, "")
        names = groups.setdefault(key, [])
        if name not in names:
            names.append(name)
    lines = []
    for key, names in groups.items():
        if key.startswith("\0"):
            lines.append(f"warning: {key[1:]}")
        else:
            subject = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
            lines.append(f"warning: {subject} {'is' if len(names) == 1 else 'are'} undefined: {key}")
    return lines


def _default_printer(impl: Any) -> bool:
    """Whether ``impl`` (``warnings._showwarnmsg_impl``) is the standard library's printer, not
    a recorder (``warnings.catch_warnings(record=True)``, as pytest's)."""
    return getattr(impl, "__module__", None) in ("warnings", "_py_warnings") and \
        getattr(impl, "__name__", None) == "_showwarnmsg_impl"


class _Warnings:
    """The warnings of one run of the CLI: collected as they are issued (and handed on to a
    program that records warnings, such as pytest), printed when the run ends."""

    def __init__(self, forward: Optional[Callable[[Any], None]]) -> None:
        self.messages: List[str] = []
        self.quiet = False
        self.forward = forward

    def show(self, message: Any, category: Any, filename: str, lineno: int, file: Any = None,
             line: Optional[str] = None) -> None:
        self.messages.append(str(message))
        if self.forward is not None:
            self.forward(warnings.WarningMessage(message, category, filename, lineno, file, line))

    def flush(self) -> None:
        if not self.quiet:
            for line in warning_lines(self.messages):
                typer.echo(line, err=True)
        self.messages.clear()


_ACTIVE: List[_Warnings] = []


def _succeeded(exc: Optional[BaseException]) -> bool:
    if exc is None:
        return True
    code = getattr(exc, "exit_code", getattr(exc, "code", 1)) if isinstance(exc, (SystemExit, typer.Exit)) else 1
    return code in (0, None)


@contextmanager
def cli_warnings(quiet: Optional[bool] = None) -> Iterator[None]:
    """Python warnings during a run of the CLI as ``warning: <message>`` lines on stderr, each
    distinct message once, without the file, line and source line of Python's default format,
    printed when the run ends well (not after an error, whose one line stays alone; not with
    ``quiet``). Re-entrant: :func:`main` and every command's :func:`handled_errors` enter it,
    the outermost prints. The warning filters (``-W``, ``PYTHONWARNINGS``) still apply."""
    if _ACTIVE:  # the outer run prints
        _ACTIVE[-1].quiet = _ACTIVE[-1].quiet or bool(quiet)
        yield
        return
    shown, impl = warnings.showwarning, getattr(warnings, "_showwarnmsg_impl", None)
    forward: Optional[Callable[[Any], None]] = None
    if shown is not getattr(warnings, "_showwarning_orig", shown):  # a program's own warning handler
        def forward(msg: Any) -> None:
            shown(msg.message, msg.category, msg.filename, msg.lineno, msg.file, msg.line)
    elif impl is not None and not _default_printer(impl):  # a recorder
        forward = impl
    state = _Warnings(forward)
    state.quiet = bool(quiet)
    error: Optional[BaseException] = None
    with warnings.catch_warnings():
        warnings.showwarning = state.show
        _ACTIVE.append(state)
        try:
            yield
        except BaseException as exc:
            error = exc
            raise
        finally:
            _ACTIVE.pop()
            if _succeeded(error):
                state.flush()


def quiet_warnings() -> None:
    """No warning lines for the running command (its ``--quiet``: :class:`Output` calls this)."""
    if _ACTIVE:
        _ACTIVE[-1].quiet = True


# --------------------------------------------------------------------------- errors

#: Optional modules by import name: the option that needs each and the extra that installs it.
OPTIONAL_EXTRAS: Dict[str, Tuple[str, str]] = {
    "distributed": ("--backend dask", "dask"),
    "dask": ("--backend dask", "dask"),
    "matplotlib": ("--plot", "plot"),
    "numba": ("--backend gpu", "gpu"),
}


def missing_extra(module: str, option: Optional[str] = None) -> str:
    """The one line for an optional extra that is not installed."""
    needed_by, extra = OPTIONAL_EXTRAS.get(module.split(".")[0], (module, module))
    return f"{option or needed_by} needs the optional extra: pip install 'spacy-agreement[{extra}]'"


def require_extra(module: str, option: str) -> None:
    """Fail with one line (:func:`missing_extra`) unless ``module`` can be imported: checked
    before the work, not after it."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        fail(missing_extra(module, option))


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
    """The one line for input that is not UTF-8, naming the first such file among ``paths``
    and the line of its first bad byte (:func:`~spacy_agreement.errors.utf8_problem`)."""
    for path in _files(paths):
        found = utf8_problem(path)
        if found is not None:
            return str(found)
    return f"input is not UTF-8 text: {exc}"


def check_not_empty(paths: Iterator[Union[str, os.PathLike]]) -> None:
    """Fail with one line naming the first of ``paths`` that is an empty file (0 bytes): no
    sentence to read is an error, before any work."""
    for path in paths:
        try:
            empty = os.path.isfile(path) and os.path.getsize(path) == 0
        except OSError:
            continue  # reading it reports the problem
        if empty:
            fail(f"{os.fspath(path)}: empty file")


@contextmanager
def handled_errors(*paths: Optional[Union[str, os.PathLike]],
                   may_be_empty: Tuple[Optional[Union[str, os.PathLike]], ...] = ()) -> Iterator[None]:
    """The one error handler of the CLI. Bad input, that is an :class:`AgreementError` (a
    malformed tree, mismatched files, a bad option value) or an input file that is missing,
    a directory, unreadable, empty (except those in ``may_be_empty``) or not UTF-8
    (``paths``: the command's input files and folders, searched for the culprit), ends
    with exit code 1 and one line
    ``file:LINE: sentence N (sent_id X), token M: message`` (LINE: the line in the file;
    see :mod:`spacy_agreement.errors`); so does an optional extra that is not installed
    (:data:`OPTIONAL_EXTRAS`). Ctrl-C ends with exit code 130 and the line ``interrupted``.
    Every other exception is a bug and propagates. Warnings are printed as by
    :func:`cli_warnings`."""
    with cli_warnings():
        try:
            check_not_empty(p for p in paths if p is not None and p not in may_be_empty)
            yield
        except AgreementError as exc:
            fail(str(exc))
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError) as exc:
            fail(f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc))
        except UnicodeDecodeError as exc:
            fail(_not_utf8(tuple(p for p in paths if p is not None), exc))
        except ImportError as exc:
            if (exc.name or "").split(".")[0] not in OPTIONAL_EXTRAS:
                raise  # a broken installation, not a missing extra
            fail(missing_extra(exc.name or ""))
        except KeyboardInterrupt:
            interrupted()


def interrupted() -> None:
    """Ctrl-C: exit code 130 (128 + SIGINT, as a shell reports it) after the line ``interrupted``."""
    typer.echo("interrupted", err=True)
    raise typer.Exit(code=130)


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
