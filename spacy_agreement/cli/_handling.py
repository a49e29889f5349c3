"""The one error handler of the CLI (:func:`handled_errors`): bad input ends with exit code 1
and one line on stderr, Ctrl-C with exit code 130 and ``interrupted``, an optional extra that
is not installed with the line that installs it; anything else is a bug and surfaces as a
traceback. The library's errors speak in Python terms (``bootstrap``, ``method="off"``,
:attr:`~spacy_agreement.errors.AgreementError.option`); :func:`in_flags` says them with the
command's flags (:data:`FLAGS`)."""
from __future__ import annotations

import importlib
import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, Optional, Tuple, Union

import typer

from ..errors import AgreementError, utf8_problem
from ..report.flags import FLAGS, in_flags  # noqa: F401 (their home is the report layer)
from ._warning_lines import cli_warnings


#: Optional modules by import name: the option that needs each and the extra that installs it.
OPTIONAL_EXTRAS: Dict[str, Tuple[str, str]] = {
    "distributed": ("--backend dask", "dask"),
    "dask": ("--backend dask", "dask"),
    "matplotlib": ("--plot", "plot"),
    "numba": ("--backend gpu", "gpu"),
}

def _cli_terms(exc: AgreementError) -> str:
    """The one line of an :class:`AgreementError`, its parameters said as flags."""
    if not exc.options:
        return str(exc)
    message = in_flags(exc.message, exc.options)
    return f"{exc.location}: {message}" if exc.location is not None else message


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
    malformed tree, mismatched files, a bad option value: the parameters it names said as
    the command's flags, :func:`in_flags`) or an input file that is missing,
    a directory, unreadable, empty (except those in ``may_be_empty``) or not UTF-8
    (``paths``: the command's input files and folders, searched for the culprit), ends
    with exit code 1 and one line
    ``file:LINE: sentence N (sent_id X), token M: message`` (LINE: the line in the file;
    see :mod:`spacy_agreement.errors`); so does an optional extra that is not installed
    (:data:`OPTIONAL_EXTRAS`). Ctrl-C ends with exit code 130 and the line ``interrupted``.
    Every other exception is a bug and propagates. Warnings are printed as by
    :func:`~.warning_lines.cli_warnings`."""
    with cli_warnings():
        try:
            check_not_empty(p for p in paths if p is not None and p not in may_be_empty)
            yield
        except AgreementError as exc:
            fail(_cli_terms(exc))
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


def _click_exceptions() -> Any:
    """The module of the click exceptions that typer raises (typer's own copy of click in
    recent versions, click itself in older ones)."""
    return importlib.import_module(typer.BadParameter.__module__)


def _flag(param: Any) -> str:
    """How the user wrote a parameter: an option's long flag, an argument's name (``PATHS``)."""
    if getattr(param, "param_type_name", "") == "argument":
        return (param.metavar or param.name or "argument").upper()
    flags = list(getattr(param, "opts", ())) + list(getattr(param, "secondary_opts", ()))
    long = [f for f in flags if f.startswith("--")]
    return (long or flags or [param.name or "option"])[0]


def _choices(param: Any) -> Optional[Tuple[str, ...]]:
    """The choices of a parameter whose value is one of a few (an Enum), or ``None``."""
    described = getattr(param, "type_descriptor", None)  # typer 0.2x and later
    values = getattr(described, "choices", None) if getattr(described, "is_choice", False) else None
    values = values if values is not None else getattr(getattr(param, "type", None), "choices", None)
    if not values:
        return None
    return tuple(str(getattr(v, "value", v)) for v in values)


def _first_line(text: str) -> str:
    text = " ".join(text.split())
    return text[:1].lower() + text[1:].rstrip(".") if text[:2] != text[:2].upper() else text.rstrip(".")


#: What a value's check failed on (pydantic's error types, behind typer's conversions), said plainly.
_VALUE_ERRORS = {
    "int_parsing": "is not an integer", "int_from_float": "is not an integer", "int_type": "is not an integer",
    "float_parsing": "is not a number", "float_type": "is not a number",
    "bool_parsing": "is not true or false", "bool_type": "is not true or false",
}
_BOUNDS = {"greater_than_equal": ("ge", "is below the minimum"), "greater_than": ("gt", "must be above"),
           "less_than_equal": ("le", "is above the maximum"), "less_than": ("lt", "must be below")}


def _bad_value(exc: Any) -> str:
    """What was wrong with a value, in one line: ``'exakt' is not one of auto, exact, sampled,
    off``, ``'x' is not an integer``; without typer's or pydantic's words (``Value error,``,
    ``Input should be``)."""
    cause = exc.__cause__
    errors = cause.errors() if hasattr(cause, "errors") and callable(cause.errors) else []
    value = errors[0].get("input") if errors else None
    given = repr(value) if value is not None else "the value"
    options = _choices(exc.param)
    if options is not None and (not errors or errors[0].get("type") in ("value_error", "enum", "literal_error")):
        return f"{given} is not one of {', '.join(options)}"
    if errors:
        kind, context = errors[0].get("type", ""), errors[0].get("ctx") or {}
        if kind in _VALUE_ERRORS:
            return f"{given} {_VALUE_ERRORS[kind]}"
        if kind in _BOUNDS and _BOUNDS[kind][0] in context:
            key, words = _BOUNDS[kind]
            return f"{given} {words} {context[key]}"
        message = re.sub(r"^(Value error|Assertion failed), ", "", str(errors[0].get("msg", "")))
        return f"{given}: {_first_line(message)}"
    return _first_line(str(exc.message))


def usage_line(exc: Any) -> str:
    """The one line of a usage error (a click ``UsageError``: a bad option value, an unknown
    option or command, a missing argument): ``error: --alpha: 'exakt' is not one of auto, exact,
    sampled, off``, ``error: no such option: --bogus``."""
    exceptions = _click_exceptions()
    missing = getattr(exceptions, "MissingParameter", ())
    if isinstance(exc, exceptions.BadParameter) and not isinstance(exc, missing) and exc.param is not None:
        return f"error: {_flag(exc.param)}: {_bad_value(exc)}"
    return f"error: {_first_line(exc.format_message())}"


def run(app: Any, args: Optional[list] = None, prog_name: str = "spacy-agreement") -> None:
    """Run the typer ``app`` as the console script does (:func:`spacy_agreement.cli.main`) and
    exit with its code: a usage error (an option value of the wrong kind or not among its
    choices, an unknown option or command, a missing argument) is one line on stderr,
    :func:`usage_line`, and exit code 2, as click's; ``--help`` with no arguments exits with 2
    after the help, as click does. Everything else as the app does it (bad input: exit code 1
    and one line, :func:`handled_errors`)."""
    exceptions = _click_exceptions()
    try:
        code = app(args=args, prog_name=prog_name, standalone_mode=False)
    except exceptions.UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # the help is the answer, printed already or here
            help_text = exc.format_message()
            if help_text.strip():
                typer.echo(help_text)
            raise SystemExit(2) from None
        typer.echo(usage_line(exc), err=True)
        raise SystemExit(exc.exit_code) from None
    except exceptions.ClickException as exc:  # a file that cannot be opened, and the like
        typer.echo(f"error: {_first_line(exc.format_message())}", err=True)
        raise SystemExit(exc.exit_code) from None
    except typer.Abort:
        typer.echo("aborted", err=True)
        raise SystemExit(1) from None
    raise SystemExit(code if isinstance(code, int) else 0)


def interrupted() -> None:
    """Ctrl-C: exit code 130 (128 + SIGINT, as a shell reports it) after the line ``interrupted``."""
    typer.echo("interrupted", err=True)
    raise typer.Exit(code=130)


__all__ = ["FLAGS", "OPTIONAL_EXTRAS", "check_not_empty", "fail", "handled_errors", "in_flags", "interrupted",
           "missing_extra", "require_extra", "run", "usage_line"]
