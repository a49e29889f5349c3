"""The one calling convention of the public functions, and the old call forms kept for a release.

Every public function takes the annotations positionally, annotator-first
(``alpha(*annotators)``, ``evaluate(gold, system)``, ``compare(gold, *systems)``, ...), and
everything else keyword-only under the CLI's long option name (``-`` as ``_``), ``settings=``
(a settings object, or a signature given back) and ``signature=`` included. The call forms of
0.3 that this replaces (settings positionally, lists where the annotators are now separate
arguments) still work, with a :class:`DeprecationWarning` naming the new call
(:func:`deprecated`).
"""
from __future__ import annotations

import os
import sys
import warnings
from typing import Any, Optional, Sequence, Tuple, Union

from .errors import BadOptionError


def deprecated(old: str, new: str, stacklevel: Optional[int] = None) -> None:
    """Warn that the call form ``old`` is deprecated and will go in the next release: ``new``.
    The warning points at the first caller outside the package (unless ``stacklevel`` says)."""
    if stacklevel is None:
        package = os.path.dirname(os.path.abspath(__file__))
        frame, stacklevel = sys._getframe(1), 2
        while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package + os.sep):
            frame, stacklevel = frame.f_back, stacklevel + 1
    warnings.warn(f"{old} is deprecated and will be removed in the next release: call {new}",
                  DeprecationWarning, stacklevel=stacklevel)


def name_list(value: Optional[Union[str, Sequence[str]]]) -> Optional[Tuple[str, ...]]:
    """Names given as a list, or one string of comma-separated names (``metric="las,uas"``, as a
    repeated option or its comma-separated form gives them); ``None`` for none."""
    if not value:
        return None
    return tuple(v.strip() for v in value.split(",") if v.strip()) if isinstance(value, str) else tuple(value)


def looks_like_signature(value: Any) -> bool:
    """Whether ``value`` is a signature given back rather than a path: a string holding ``|``
    (``alpha|d:plain,...``) that names no file."""
    return isinstance(value, str) and "|" in value and not os.path.exists(value)


def positional_settings(function: str, args: Sequence[Any], settings: Any, signature: Optional[str],
                        kind: type, stacklevel: Optional[int] = None, hint: str = "") -> Any:
    """The settings of a call: ``settings=`` or ``signature=`` (one of them), or, as 0.3 took
    them, one positional value after the annotations (a settings object of ``kind`` or a
    signature), with a :class:`DeprecationWarning`."""
    if len(args) > 1:
        raise TypeError(f"{function}() got {len(args)} values after its annotations: give the options as keywords "
                        f"(settings=..., signature=...)")
    if args and args[0] is not None:
        given = args[0]
        if isinstance(given, str) and not (looks_like_signature(given) or given.endswith(".json")):
            raise TypeError(f"{function}(): {given!r} after the annotations is neither an annotation nor a "
                            f"signature: give the options as keywords{' (' + hint + ')' if hint else ''}")
        if not isinstance(given, (kind, str)):
            raise TypeError(f"{function}(): a {type(given).__name__} after the annotations is neither annotations "
                            f"nor settings: give the options as keywords{' (' + hint + ')' if hint else ''}")
        if settings is not None or signature is not None:
            raise TypeError(f"{function}() got settings positionally and as a keyword: give settings= alone")
        deprecated(f"{function}(..., settings) with the settings positionally",
                   f"{function}(..., {'signature' if isinstance(given, str) else 'settings'}=...)", stacklevel)
        settings = given
    if signature is not None:
        if settings is not None:
            raise BadOptionError(f"{function}() got settings= and signature=: give one", option=("settings", "signature"))
        settings = signature
    return settings


def split_signature(function: str, inputs: Tuple[Any, ...]) -> Tuple[Tuple[Any, ...], Optional[str]]:
    """0.3's ``function(a, b, SIGNATURE)``: a last positional string that is a signature, not
    a file, taken as ``signature=`` with a :class:`DeprecationWarning`."""
    if len(inputs) > 1 and looks_like_signature(inputs[-1]):
        deprecated(f"{function}(..., SIGNATURE) with the signature positionally", f"{function}(..., signature=...)")
        return inputs[:-1], inputs[-1]
    return inputs, None


__all__ = ["deprecated", "looks_like_signature", "name_list", "positional_settings", "split_signature"]
