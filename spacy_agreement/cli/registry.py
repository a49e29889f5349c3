"""The registry of commands: each command module registers its function with
:func:`command`, and :mod:`spacy_agreement.cli` adds every registered command to the app. A
new command is one new module (its function under ``@command("name")``) and one import line
in :mod:`spacy_agreement.cli`."""
from __future__ import annotations

from typing import Callable, TypeVar

from ..registry import Registry

F = TypeVar("F", bound=Callable[..., None])

#: The commands by name (``leaf-ancestor``: dashes allowed), in the order ``--help`` lists them.
COMMANDS: Registry[Callable[..., None]] = Registry("command", dashes=True)


def command(name: str) -> Callable[[F], F]:
    """Register the decorated function as the built-in command ``name``; the function is returned unchanged."""
    def register(function: F) -> F:
        COMMANDS.register(name, function, builtin=True)
        return function

    return register


__all__ = ["COMMANDS", "command"]
