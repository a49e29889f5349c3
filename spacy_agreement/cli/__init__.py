"""The ``spacy-agreement`` command line (typer, as spaCy's own CLI).

One thin command per module (:mod:`.alpha`, :mod:`.evaluate`, :mod:`.judgments`,
:mod:`.synthetic`, :mod:`.leaf_ancestor`, :mod:`.evalb`, :mod:`.discourse`, :mod:`.report`,
:mod:`.demo`) over :mod:`.options`: the shared options (``--json``, ``--tsv``,
``--output``, ``--quiet``, ``--format``, ``--strict``), the one writer of results and the
one error handler. Bad input ends with exit code 1 and one line
``file:LINE: sentence N (sent_id X), token M: message`` on stderr (LINE: the line in the
file; see :mod:`spacy_agreement.errors`); anything else is a bug and shows its traceback.
Warnings are one line each (``warning: ...``, each message once); Ctrl-C ends any command
with the line ``interrupted`` and exit code 130.
"""
from __future__ import annotations

import typer

from .alpha import alpha_command
from .demo import demo_command
from .discourse import discourse_command
from .evalb import evalb_command
from .evaluate import evaluate_command
from .judgments import judgments_command
from .leaf_ancestor import leaf_ancestor_command
from .options import cli_warnings
from .report import report_command
from .synthetic import synthetic_command

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="How far do two or more syntactic analyses of the same text agree?",
)

COMMANDS = {
    "alpha": alpha_command,
    "evaluate": evaluate_command,
    "judgments": judgments_command,
    "synthetic": synthetic_command,
    "leaf-ancestor": leaf_ancestor_command,
    "evalb": evalb_command,
    "discourse": discourse_command,
    "report": report_command,
    "demo": demo_command,
}
for _name, _command in COMMANDS.items():
    app.command(_name)(_command)


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"spacy-agreement {__version__}")
        raise typer.Exit()


@app.callback()
def _app(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit.")) -> None:
    """How far do two or more syntactic analyses of the same text agree?"""


def main() -> None:
    """Entry point of the ``spacy-agreement`` console script: warnings as one line each
    (``warning: ...``, :func:`~.options.cli_warnings`), Ctrl-C as ``interrupted`` and exit
    code 130 (in a command: :func:`~.options.handled_errors`)."""
    try:
        with cli_warnings():
            app(prog_name="spacy-agreement")
    except KeyboardInterrupt:  # before or after a command (in one, handled_errors answers)
        typer.echo("interrupted", err=True)
        raise SystemExit(130) from None


__all__ = ["COMMANDS", "app", "main"]
