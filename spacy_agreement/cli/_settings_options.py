"""What every command does with its settings object (:mod:`spacy_agreement.signature`): the
``--signature`` option (a signature, or a saved JSON output holding one) that rebuilds the
settings of an earlier run, and the signature in every output: a footer line of the text, a
``signature`` key in JSON and TSV."""
from __future__ import annotations

from typing import Any, Dict, Optional, TypeVar

import typer

from ..signature import Settings, read_signature
from ..report.text_parts import signature_footer  # noqa: F401 (its home is the report layer)

S = TypeVar("S", bound=Settings)

SIGNATURE_HELP = ("Compute with the settings of this signature (as printed by an earlier run, or a JSON output "
                  "file holding one): the same numbers on the same files. Options that the signature sets may "
                  "be left out; one that disagrees with it is an error.")


def signature_option() -> Any:
    return typer.Option(None, "--signature", help=SIGNATURE_HELP, metavar="SIGNATURE")


def apply_signature(settings: S, signature: Optional[str], default: Optional[S] = None) -> S:
    """``settings`` from the command's options, or those of ``signature`` (:meth:`Settings.merged`;
    ``default``: the settings the command has without options, where they are not the class's)."""
    if not signature:
        return settings
    return settings.merged(read_signature(signature), default)


def with_signature(data: Dict[str, Any], signature: str) -> Dict[str, Any]:
    """A JSON or TSV result with its ``signature``."""
    return {**data, "signature": signature}


__all__ = ["apply_signature", "signature_footer", "signature_option", "with_signature"]
