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

import sys

import typer

try:  # Ctrl-C while the commands load (spaCy, numpy): the same one line and exit code as in a command
    # each command module registers its command (.registry.command); --help lists them in this order
    from . import alpha  # noqa: F401
    from . import layers  # noqa: F401
    from . import evaluate  # noqa: F401
    from . import compare  # noqa: F401
    from . import judgments  # noqa: F401
    from . import judge  # noqa: F401
    from . import synthetic  # noqa: F401
    from . import leaf_ancestor  # noqa: F401
    from . import evalb  # noqa: F401
    from . import discourse  # noqa: F401
    from . import report  # noqa: F401
    from . import demo  # noqa: F401
except KeyboardInterrupt:
    sys.stderr.write("interrupted\n")
    raise SystemExit(130) from None
from ._handling import run
from ._registry import COMMANDS, Command, Group
from ._warning_lines import cli_warnings

app = typer.Typer(
    cls=Group,
    add_completion=False,
    no_args_is_help=True,
    help="How far do two or more syntactic analyses of the same text agree?",
)

for _name, _command in COMMANDS.items():
    app.command(_name, cls=Command)(_command)


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"spacy-agreement {__version__}")
        raise typer.Exit()


@app.callback()
def _app(version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True, metavar="",
                                      help="Print the version and exit.")) -> None:
    """How far do two or more syntactic analyses of the same text agree?"""


def main() -> None:
    """Entry point of the ``spacy-agreement`` console script: warnings as one line each
    (``warning: ...``, :func:`~.warning_lines.cli_warnings`; a process of its own, so they
    are not handed on as well), Ctrl-C as ``interrupted`` and exit code 130 (in a command:
    :func:`~.handling.handled_errors`)."""
    try:
        with cli_warnings(hand_on=False):
            run(app, prog_name="spacy-agreement")  # a usage error: one line, exit code 2
    except KeyboardInterrupt:  # before or after a command (in one, handled_errors answers)
        typer.echo("interrupted", err=True)
        raise SystemExit(130) from None


__all__ = ["COMMANDS", "app", "main"]
