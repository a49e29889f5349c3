"""What the command functions of the constituency and discourse families share
(:func:`~spacy_agreement.evaluation.constituency.evalb_run.evalb`,
:func:`~spacy_agreement.evaluation.constituency.leaf_ancestor_run.leaf_ancestor`,
:func:`~spacy_agreement.evaluation.discourse.discourse_run.discourse`): the settings of a call (a settings
object or a signature given back, with the options of the call), the bootstrap intervals of
``ci=True`` as ``--ci`` computes them, and a small HTML table for notebooks."""
from __future__ import annotations

import dataclasses
import math
import sys
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple, TypeVar, Union

from .._display import ShowsAsCommandText, no_attribute, public_names
from ..errors import BadOptionError
from ..signature import Settings, digest, read_signature

S = TypeVar("S", bound=Settings)


def _same(a: Any, b: Any, kind: str) -> bool:
    if kind == "digest":
        return (a is None) == (b is None) and (a is None or digest(a) == digest(b))
    return a == b


def resolve_settings(settings: Union[None, str, S], built: S, default: Optional[S] = None) -> S:
    """The settings of one call: ``built`` (from the call's options) when ``settings`` is None;
    with a signature (or the path of a saved JSON output holding one), what ``--signature``
    gives (:meth:`~spacy_agreement.signature.Settings.merged`); with a settings object, that
    object, where an option the call sets to another value than its default (``default``: the
    class's defaults) and than the object's is an error naming it, as with ``--signature``."""
    if settings is None:
        return built
    if isinstance(settings, str):
        return built.merged(read_signature(settings), default)
    if not isinstance(settings, type(built)):
        raise BadOptionError(f"settings must be a {type(built).__name__} or a signature, not "
                             f"{type(settings).__name__}", option="settings")
    default = default if default is not None else type(built)()
    for f in settings.signature_fields():
        kind = f.metadata.get("kind", "str")
        mine, theirs = getattr(built, f.name), getattr(settings, f.name)
        if not _same(mine, getattr(default, f.name), kind) and not _same(mine, theirs, kind):
            raise BadOptionError(f"the settings set {f.name} to {theirs!r} and this call to {mine!r}: give one",
                                 option=f.name)
    return settings


class CommandRun(ShowsAsCommandText):
    """A command function's result around the library's own result object: the attribute
    :attr:`WRAPS` names holds it, and this object answers its attributes too. Names that are
    neither set on the instance nor special (dunders: copy, pickle) go to the wrapped object;
    :attr:`signature` is that of :attr:`settings`."""

    WRAPS = ""

    if not TYPE_CHECKING:  # type checkers see the typed properties alone: a misspelt name is an error there
        def __getattr__(self, name: str) -> Any:  # only for names the instance lacks
            if name.startswith("__") or name == self.WRAPS:  # not yet set (copy, pickle)
                raise AttributeError(name)
            wrapped = getattr(self, self.WRAPS)
            try:
                return getattr(wrapped, name)
            except AttributeError:
                raise no_attribute(self, name, dir(self)) from None

    def __dir__(self) -> List[str]:
        return sorted(set(object.__dir__(self)) | set(public_names(self.__dict__.get(self.WRAPS))))

    @property
    def signature(self) -> str:
        return self.settings.signature()  # type: ignore[attr-defined]


@dataclasses.dataclass(frozen=True)
class Intervals:
    """Bootstrap intervals of one system's metrics (``ci=True``, ``--ci``): ``counts`` the
    per-sentence statistics they resample, ``found`` metric → interval, ``settings`` an
    :class:`~spacy_agreement.evaluation.comparison.significance.IntervalSettings`."""

    counts: Any
    found: Dict[str, Any]
    settings: Any

    def to_dict(self) -> Dict[str, Any]:
        """The ``ci`` (metric → [low, high] as fractions) and ``ci_signature`` keys of ``--json``."""
        return {"ci": {m: interval.to_list() for m, interval in self.found.items()},
                "ci_signature": self.settings.signature()}


def bootstrap_intervals(counts: Any, resamples: int, seed: int, confidence: float, interval: str) -> Intervals:
    """The intervals ``--ci`` gives for ``counts`` (a
    :class:`~spacy_agreement.evaluation.unit_counts.UnitCounts`)."""
    from .comparison.systems import system_intervals
    from .comparison.settings import IntervalSettings

    settings = IntervalSettings(resamples=resamples, seed=seed, confidence=confidence, interval=interval)
    return Intervals(counts, system_intervals(counts, settings), settings)


def json_safe(value: Any) -> Any:
    """A result as ``--json`` writes it: NaN and infinities (undefined figures) as None, tuples as
    lists, numpy scalars as Python numbers, in nested dicts and lists too, so that a ``to_dict()``
    equals the command's JSON read back."""
    numpy = sys.modules.get("numpy")  # (a numpy scalar exists only once numpy is imported: evalb needs none)
    if numpy is not None and isinstance(value, (numpy.floating, numpy.integer, numpy.bool_)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def percent_text(value: Optional[float]) -> str:
    """A fraction as a percentage with two decimals (``n/a`` when undefined, as every text
    output prints an undefined figure)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{100 * value:.2f}"


def signed_points(value: Optional[float]) -> str:
    """A difference of fractions in points with its sign (``+1.25``; ``n/a`` when undefined)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{100 * value:+.2f}"


def p_text(value: Optional[float]) -> str:
    """A p-value with four significant digits (``n/a`` when undefined)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.4g}"


def html_grid(title: str, header: Sequence[str], rows: Iterable[Sequence[str]], signature: str,
              notes: Sequence[str] = ()) -> str:
    """:func:`html_table` with a header row and several value columns (one per system, say)."""
    from ..report.escape import text as esc

    head = "".join(f"<th style=\"text-align:{'left' if k == 0 else 'right'}\">{esc(h)}</th>"
                   for k, h in enumerate(header))
    body = "".join("<tr>" + "".join(f"<td style=\"text-align:{'left' if k == 0 else 'right'}\">{esc(cell)}</td>"
                                    for k, cell in enumerate(row)) + "</tr>" for row in rows)
    extra = "".join(f"<p style=\"overflow-wrap:anywhere\">{esc(note)}</p>" for note in notes)
    return (f"<div><p><b>{esc(title)}</b></p><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            f"{extra}<p style=\"font-size:0.8em;overflow-wrap:anywhere\">signature: <code>{esc(signature)}</code></p></div>")


def html_table(title: str, rows: Iterable[Tuple[str, str]], signature: str,
               notes: Sequence[str] = ()) -> str:
    """A compact table for a notebook: ``title``, then name and value rows, notes, and the
    signature; every string through the report's one escaping function."""
    from ..report.escape import text as esc

    body = "".join(f"<tr><td style=\"text-align:left\">{esc(name)}</td>"
                   f"<td style=\"text-align:right\">{esc(value)}</td></tr>" for name, value in rows)
    extra = "".join(f"<p style=\"overflow-wrap:anywhere\">{esc(note)}</p>" for note in notes)
    # a signature is one long word: it wraps anywhere rather than widen a notebook's cell
    return (f"<div><p><b>{esc(title)}</b></p><table>{body}</table>{extra}"
            f"<p style=\"font-size:0.8em;overflow-wrap:anywhere\">signature: <code>{esc(signature)}</code></p></div>")


__all__ = ["Intervals", "bootstrap_intervals", "html_grid", "html_table", "json_safe", "p_text", "percent_text",
           "signed_points",
           "resolve_settings"]
