"""How a command function's result shows itself as text: ``str(result)`` is what the command
prints with its default printing options. The texts live in the report layer
(:mod:`spacy_agreement.report.command_text`), above the results: the module is imported by name
when a result is first printed, so no result module imports the report layer."""
from __future__ import annotations

import difflib
import importlib
from typing import Any, Iterable, List


def command_text(result: Any) -> str:
    """The command's text output for ``result`` (:func:`spacy_agreement.report.command_text.result_text`)."""
    return importlib.import_module("spacy_agreement.report.command_text").result_text(result)


#: The style of the command's text in a notebook: a monospace font whatever the page's (a notebook
#: exported to HTML draws a bare ``<pre>`` in its body font), its columns kept, scrolled sideways.
MONOSPACE = ("font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace;"
             "white-space:pre;overflow-x:auto;font-size:12px;line-height:1.35")


def public_names(*objects: Any) -> List[str]:
    """The public attribute names of ``objects`` (for a result's ``__dir__``: its own and those it answers for)."""
    names = set()
    for obj in objects:
        if obj is not None:
            names.update(n for n in dir(obj) if not n.startswith("_"))
    return sorted(names)


def no_attribute(owner: Any, name: str, known: Iterable[str]) -> AttributeError:
    """The error for a misspelt attribute of a result: its class, the name, the closest names
    it has (``did you mean``), and where to look (``dir(result)``)."""
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return AttributeError(f"{type(owner).__name__} has no attribute {name!r}{hint} (dir(result) lists them)")


class ShowsAsCommandText:
    """Mixin: ``str(result)`` is the command's text output (:func:`command_text`), and the
    notebook display (``_repr_html_``) is the result's headline table (``_headline_html``)
    followed by that text in a monospace font: the figures, what was set aside and why, the
    notes and the signature, as the command prints them."""

    __slots__ = ()

    def __str__(self) -> str:
        return command_text(self)

    def _headline_html(self) -> str:  # the result's own table: each result class has one
        return ""

    def _repr_html_(self) -> str:
        from html import escape

        text = escape(command_text(self), quote=False)
        return (f"{self._headline_html()}<details open><summary>the command's output (str(result))</summary>"
                f"<pre style=\"{MONOSPACE}\">{text}</pre></details>")


__all__ = ["MONOSPACE", "ShowsAsCommandText", "command_text", "no_attribute", "public_names"]
