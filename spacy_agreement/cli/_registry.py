"""The registry of commands: each command module registers its function with
:func:`command`, and :mod:`spacy_agreement.cli` adds every registered command to the app. A
new command is one new module (its function under ``@command("name")``) and one line in
:data:`spacy_agreement.cli.COMMAND_MODULES`. :class:`Command` is the class each command is made with
(``app.command(name, cls=Command)``): its ``--help`` speaks in metavars, not Python types, and a
path that cannot be read is reported by the command, as bad input, not by click's check."""
from __future__ import annotations

import inspect
from typing import Any, Callable, Optional, TypeVar

from typer.core import TyperArgument, TyperCommand, TyperGroup

from ..registry import Registry
from ._options import with_metavars

F = TypeVar("F", bound=Callable[..., None])

#: The commands by name (``leaf-ancestor``: dashes allowed), in the order ``--help`` lists them.
COMMANDS: Registry[Callable[..., None]] = Registry("command", dashes=True)

#: The widest ``--help`` of a command, in columns, where the terminal is wider (click's
#: formatter, used where rich is not installed, stops at 80 otherwise; rich uses the terminal's width).
HELP_WIDTH = 120


def command(name: str) -> Callable[[F], F]:
    """Register the decorated function as the built-in command ``name``, each of its options and
    arguments given a metavar where it names none (:func:`~.options.with_metavars`: ``N``,
    ``FILE``, ``[a|b]``, nothing after a flag); the function is returned unchanged otherwise."""
    def register(function: F) -> F:
        COMMANDS.register(name, with_metavars(function), builtin=True)
        return function

    return register


class _NamedArgument(TyperArgument):
    """An argument that ``--help`` shows by its name (its metavar, ``PATHS``) alone, without
    typer's Python type after it (``<list[Path]>``)."""

    def display_type_rich(self, ctx: Any) -> Optional[str]:
        return None


def _paragraphs(text: str) -> str:
    """A docstring's paragraphs, each on one line, so that the help wraps them to the width of
    the terminal instead of breaking where the source does."""
    return "\n\n".join(" ".join(paragraph.split()) for paragraph in inspect.cleandoc(text).split("\n\n"))


class Command(TyperCommand):
    """A command whose ``--help`` shows no Python type: the arguments by their names, the
    options with their metavars (:func:`command`), no type after a flag (``--help`` included);
    its text wrapped to the terminal's width up to :data:`HELP_WIDTH` columns, not broken where
    the docstring's lines end, and its whole first paragraph in the list of commands."""

    def __init__(self, *args: Any, context_settings: Optional[dict] = None, **kwargs: Any) -> None:
        super().__init__(*args, context_settings={"max_content_width": HELP_WIDTH, **(context_settings or {})},
                         **kwargs)
        if self.help:
            self.help = _paragraphs(self.help)
            if self.short_help is None:  # not cut at the first full stop ("Plank et al.")
                self.short_help = self.help.split("\n\n", 1)[0]
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = _NamedArgument  # the same object, shown by its name
            _no_readable_check(param)

    def get_help_option(self, ctx: Any) -> Any:
        return _bare_flag(super().get_help_option(ctx))


class Group(TyperGroup):
    """The ``spacy-agreement`` command group as :class:`Command` makes each command: its
    ``--help`` without a type after it, within :data:`HELP_WIDTH` columns
    (``typer.Typer(cls=Group)``)."""

    def __init__(self, *args: Any, context_settings: Optional[dict] = None, **kwargs: Any) -> None:
        super().__init__(*args, context_settings={"max_content_width": HELP_WIDTH, **(context_settings or {})},
                         **kwargs)

    def get_help_option(self, ctx: Any) -> Any:
        return _bare_flag(super().get_help_option(ctx))


def _no_readable_check(param: Any) -> None:
    """A path the user may not read is bad input (exit code 1 and ``PATH: Permission denied``,
    as :func:`~.handling.handled_errors` says it when the command opens it), not a usage error
    (click's and typer's check of ``readable``: exit code 2): the check is left to the command."""
    info = getattr(getattr(param, "type_descriptor", None), "parameter_info", None)  # typer 0.2x
    checked = info if info is not None else vars(param).get("type")  # click.Path in older typer
    if getattr(checked, "readable", False) is True:
        checked.readable = False


def _bare_flag(option: Any) -> Any:
    """The help option (a flag) without a type after it in ``--help``."""
    if option is not None and option.metavar is None:
        option.metavar = ""
    return option


__all__ = ["COMMANDS", "Command", "Group", "HELP_WIDTH", "command"]
