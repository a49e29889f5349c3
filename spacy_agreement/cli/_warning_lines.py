"""Python warnings during a run of the CLI, as ``warning: <message>`` lines on stderr: collected
while the command runs, printed once it has ended well, each distinct message once, and the
undefined results of one reason on one line (``alpha_plain, alpha_diff and alpha_norm are
undefined: ...``, grouped by :class:`~spacy_agreement.errors.UndefinedMetricWarning`'s
``metric`` and ``reason``).

Only public :mod:`warnings` API is used: a run records its warnings with
:class:`warnings.catch_warnings` (``record=True``; the warning filters, ``-W`` and
``PYTHONWARNINGS``, still decide what is recorded), then hands them on to whatever the
program around it does with warnings (pytest's ``recwarn`` and ``pytest.warns``, a
program's own :func:`warnings.showwarning`) by issuing them again with
:func:`warnings.warn_explicit`. The console script (:func:`~spacy_agreement.cli.main`) is a
process of its own: there nothing is around it, and handing on would print each warning a
second time in Python's format, so it does not hand on.
"""
from __future__ import annotations

import warnings
from contextlib import contextmanager
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import typer

from ..errors import UndefinedMetricWarning


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _undefined(message: Union[str, Warning]) -> List[Tuple[str, str]]:
    """``(metric, reason)`` of each undefined result a warning made by
    :func:`~spacy_agreement.errors.undefined` names (several for one call's one warning,
    :func:`~spacy_agreement.errors.warns_once`); none for any other warning."""
    if isinstance(message, UndefinedMetricWarning):
        return [(_one_line(metric), _one_line(reason)) for metric, reason in message.undefined]
    return []


def warning_lines(messages: Sequence[Union[str, Warning]]) -> List[str]:
    """The ``warning: ...`` lines of a run (``messages``: the warnings issued, or their text):
    each distinct message once, in order of first appearance; undefined results for the same
    reason on one line (``alpha_plain, alpha_diff and alpha_norm are undefined: ...``)."""
    groups: Dict[Tuple[bool, str], List[str]] = {}
    for message in messages:
        found = _undefined(message)
        for key, name in ([((True, reason), metric) for metric, reason in found] if found
                          else [((False, _one_line(str(message))), "")]):
            names = groups.setdefault(key, [])
            if name not in names:
                names.append(name)
    lines = []
    for (grouped, text), names in groups.items():
        if not grouped:
            lines.append(f"warning: {text}")
        else:
            subject = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
            lines.append(f"warning: {subject} {'is' if len(names) == 1 else 'are'} undefined: {text}; returning nan")
    return lines


class _Run:
    """The state of one run of the CLI: whether its warning lines are silenced (``--quiet``)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet


_ACTIVE: List[_Run] = []


def _succeeded(exc: Optional[BaseException]) -> bool:
    if exc is None:
        return True
    code = getattr(exc, "exit_code", getattr(exc, "code", 1)) if isinstance(exc, (SystemExit, typer.Exit)) else 1
    return code in (0, None)


def _hand_on(recorded: Sequence[warnings.WarningMessage]) -> None:
    """Issue ``recorded`` again to the program around the run. They have passed the warning
    filters once already (the run's filters are the program's): each is shown, none dropped
    as a repeat nor turned into an error a second time."""
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        for found in recorded:
            warnings.warn_explicit(found.message, found.category, found.filename, found.lineno,
                                   source=found.source)


@contextmanager
def cli_warnings(quiet: Optional[bool] = None, hand_on: bool = True) -> Iterator[None]:
    """Python warnings during a run of the CLI as ``warning: <message>`` lines on stderr (:func:`warning_lines`),
    without the file, line and source line of Python's default format, printed when the run ends well (not after
    an error, whose one line stays alone; not with ``quiet``), then, with ``hand_on``, issued again to the program
    around the run (module docstring). Re-entrant: :func:`~spacy_agreement.cli.main` and every command's
    :func:`~.handling.handled_errors` enter it, the outermost records and prints. The warning filters (``-W``,
    ``PYTHONWARNINGS``) still apply."""
    if _ACTIVE:  # the outer run prints
        _ACTIVE[-1].quiet = _ACTIVE[-1].quiet or bool(quiet)
        yield
        return
    run = _Run(bool(quiet))
    error: Optional[BaseException] = None
    recorded: List[Any] = []
    try:
        with warnings.catch_warnings(record=True) as recorded:
            _ACTIVE.append(run)
            try:
                yield
            finally:
                _ACTIVE.pop()
    except BaseException as exc:
        error = exc
        raise
    finally:
        if _succeeded(error) and not run.quiet:
            for line in warning_lines([found.message for found in recorded]):
                typer.echo(line, err=True)
        if hand_on:
            _hand_on(recorded)


def quiet_warnings() -> None:
    """No warning lines for the running command (its ``--quiet``: :class:`~.output.Output` calls this)."""
    if _ACTIVE:
        _ACTIVE[-1].quiet = True


__all__ = ["cli_warnings", "quiet_warnings", "warning_lines"]
