"""The one writer of results of the CLI: text, strict JSON or TSV, to stdout or ``--output``
(:class:`Output`), and the conversions behind it (undefined results as ``null``, nested keys
flattened to ``a.b``)."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Union

import typer

from ..errors import BadOptionError
from ..evaluation.command_results import json_safe
from ._warning_lines import quiet_warnings




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


__all__ = ["Lazy", "Output", "dumps", "flat", "json_safe", "tsv_lines"]
