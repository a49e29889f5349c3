"""The ``spacy-agreement`` command line (typer, as spaCy's own CLI).

One thin command per module (:mod:`.alpha`, :mod:`.evaluate`, :mod:`.judgments`, :mod:`.judge`,
:mod:`.layers`, :mod:`.synthetic`, :mod:`.leaf_ancestor`, :mod:`.evalb`, :mod:`.discourse`, :mod:`.report`,
:mod:`.demo`), each registered in :data:`~.registry.COMMANDS` by its module, over
:mod:`.options` (the shared options: ``--json``, ``--tsv``, ``--output``, ``--quiet``,
``--format``, ``--strict``), :mod:`.output` (the one writer of results) and :mod:`.handling`
(the one error handler). Bad input ends with exit code 1 and one line
``file:LINE: sentence N (sent_id X), token M: message`` on stderr (LINE: the line in the
file; see :mod:`spacy_agreement.errors`); anything else is a bug and shows its traceback.
Warnings are one line each (``warning: ...``, each message once); Ctrl-C ends any command
with the line ``interrupted`` and exit code 130.
"""
from __future__ import annotations

import importlib
import sys
from typing import Any, Dict, Optional, Sequence

import typer

from ._handling import run
from ._registry import Command, Group
from ._warning_lines import cli_warnings

#: Each built-in command and the module that registers it (:func:`~._registry.command`), in the
#: order ``--help`` lists them. A run of one command imports its module alone (``spacy-agreement
#: evalb`` does not load spaCy, scipy or the α kernel); ``--help``, a mistyped name and the
#: :data:`app` of this module load them all.
COMMAND_MODULES: Dict[str, str] = {
    "alpha": "alpha",
    "layers": "layers",
    "evaluate": "evaluate",
    "compare": "compare",
    "judgments": "judgments",
    "judge": "judge",
    "synthetic": "synthetic",
    "leaf-ancestor": "leaf_ancestor",
    "evalb": "evalb",
    "discourse": "discourse",
    "report": "report",
    "demo": "demo",
}


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"spacy-agreement {__version__}")
        raise typer.Exit()


def _app_callback(version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                               metavar="", help="Print the version and exit.")) -> None:
    """How far do two or more syntactic analyses of the same text agree?"""


def build_app(names: Optional[Sequence[str]] = None) -> typer.Typer:
    """The ``spacy-agreement`` app with the built-in commands ``names`` (every registered
    command when None), their modules imported now."""
    from ._registry import COMMANDS

    chosen = list(COMMAND_MODULES if names is None else names)
    try:  # Ctrl-C while the commands load (spaCy, numpy): the same one line and exit code as in a command
        for name in chosen:
            importlib.import_module("." + COMMAND_MODULES[name], __name__)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise SystemExit(130) from None
    app = typer.Typer(
        cls=Group,
        add_completion=False,
        no_args_is_help=True,
        help="How far do two or more syntactic analyses of the same text agree?",
    )
    if names is None:  # commands registered by other code, after the built-in ones
        chosen += [name for name in COMMANDS if name not in COMMAND_MODULES]
    for name in chosen:
        app.command(name, cls=Command)(COMMANDS[name])
    app.callback()(_app_callback)
    return app


def _command_named(args: Sequence[str]) -> Optional[str]:
    """The built-in command that ``args`` runs, if it can be told without loading the others:
    the first argument, when it is a command's name (not ``--help``, ``--version`` or a typo)."""
    return args[0] if args and args[0] in COMMAND_MODULES else None


def main() -> None:
    """Entry point of the ``spacy-agreement`` console script: warnings as one line each
    (``warning: ...``, :func:`~.warning_lines.cli_warnings`; a process of its own, so they
    are not handed on as well), Ctrl-C as ``interrupted`` and exit code 130 (in a command:
    :func:`~.handling.handled_errors`). Only the command named is loaded."""
    from .._memory import freeze_after_reading

    freeze_after_reading()  # one command, then exit: what it reads need not be collected (_memory)
    try:
        name = _command_named(sys.argv[1:])
        app = build_app(None if name is None else [name])
        with cli_warnings(hand_on=False):
            run(app, prog_name="spacy-agreement")  # a usage error: one line, exit code 2
    except KeyboardInterrupt:  # before or after a command (in one, handled_errors answers)
        typer.echo("interrupted", err=True)
        raise SystemExit(130) from None


def __getattr__(name: str) -> Any:
    """``app`` (every command) and ``COMMANDS`` (the registry, filled), built on first use."""
    if name in ("app", "COMMANDS"):
        globals()["app"] = build_app()
        from ._registry import COMMANDS

        globals()["COMMANDS"] = COMMANDS
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["COMMANDS", "COMMAND_MODULES", "app", "build_app", "main"]
