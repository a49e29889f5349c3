"""Settings as data, and the signature that says how a number was computed.

Each computation (α, parser evaluation, leaf-ancestor, EVALB, discourse, judgments) takes
one frozen settings object (a dataclass deriving from :class:`Settings`), built once from
the command line, the Python API or a spaCy config, passed down whole and written into its
result. Its **signature** is a short, stable string of every setting that changes a number,
plus the package version, in the manner of sacrebleu's (Post 2018)::

    alpha|d:plain,diff,norm|size:annotation|cycles:drop|cost:unit|method:exact|...|v:0.3.0

The first field names the computation; then ``key:value`` fields in a fixed order; ``v``
is the version of spacy-agreement that computed it. The signature given back
(:meth:`Settings.from_signature`, the commands' ``--signature``) rebuilds the settings and so
reproduces the run on the same files. Fields:

* every field of a settings class that changes a number has a short ``key`` (the field's
  metadata, :func:`setting`); fields that only change how or how fast it is computed
  (threads, backend, progress) have none and are not in the signature;
* values are written as text: booleans ``yes``/``no``, sets sorted and comma-separated,
  sequences comma-separated in their order, ``none`` for an absent value; ``|``, ``%``,
  ``,`` (inside an item) and ``:`` (at the start of a value) are percent-escaped;
* a setting that is data rather than a choice (a label map, a label-cost table) is written
  as ``sha256:`` and the first 12 hex digits of a digest of its content: the signature
  cannot carry it, so reproducing the run needs the same data again, and
  :meth:`Settings.merged` checks that the data given has that digest; a Python function
  (a custom root weight or label cost) is written ``function:NAME`` and cannot be rebuilt;
* a field may be left out of the signature when it cannot change the number (the sampled
  α's pair count when α is exact): ``when`` in its metadata; a field missing from a given
  signature takes its default.

The README's conventions table documents every field of every computation.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import warnings
from typing import Any, Callable, ClassVar, Dict, FrozenSet, Iterable, List, Mapping, Optional, Tuple, Type, TypeVar

from .errors import BadOptionError
from .registry import Registry

S = TypeVar("S", bound="Settings")

#: the settings classes by computation name (the signature's first field)
COMPUTATIONS: Registry = Registry("computation", dashes=True)

#: The modules whose settings classes are the package's computations: each registers its computation
#: when it is imported (a command imports its own), and reading a signature or listing them all
#: imports the rest (:func:`computations`).
SETTINGS_MODULES = (
    "spacy_agreement.agreement.settings",
    "spacy_agreement.agreement.layers",
    "spacy_agreement.evaluation.dependency.settings",
    "spacy_agreement.evaluation.settings",
    "spacy_agreement.evaluation.constituency.evalb_params",
    "spacy_agreement.evaluation.comparison.settings",
    "spacy_agreement.evaluation.judgments.judging_items",
    "spacy_agreement.experiments.synthetic",
)


def computations() -> List[Tuple[str, Type["Settings"]]]:
    """Every registered computation and its settings class, the package's own first, in the order
    of :data:`SETTINGS_MODULES` (their modules imported now), then any registered by other code."""
    import importlib

    for module in SETTINGS_MODULES:
        importlib.import_module(module)
    rank = {module: k for k, module in enumerate(SETTINGS_MODULES)}
    return sorted(COMPUTATIONS.items(), key=lambda item: rank.get(item[1].__module__, len(rank)))

_ESCAPES = {"%": "%25", "|": "%7C", ",": "%2C"}


def version() -> str:
    from ._version import __version__

    return __version__


def setting(default: Any = dataclasses.MISSING, *, key: Optional[str] = None, kind: str = "str", doc: str = "",
            when: Optional[Callable[[Any], bool]] = None, default_factory: Any = dataclasses.MISSING,
            compare: bool = True) -> Any:
    """A settings field: ``key`` its short name in the signature (none: not in it), ``kind``
    how its value is written (``str``, ``int``, ``float``, ``bool``, ``set``, ``list``,
    ``pairs``, ``digest``), ``doc`` one line for the README table, ``when`` a predicate of
    the settings saying whether the field can change the number."""
    metadata = {"key": key, "kind": kind, "doc": doc, "when": when}
    if default_factory is not dataclasses.MISSING:
        return dataclasses.field(default_factory=default_factory, metadata=metadata, compare=compare)
    return dataclasses.field(default=default, metadata=metadata, compare=compare)


class Digest(str):
    """A setting known only by the digest of its content (from a signature given back)."""


def digest(value: Any) -> str:
    """``sha256:`` and 12 hex digits of a mapping's canonical JSON (or ``function:NAME``)."""
    if value is None:
        return "none"
    if isinstance(value, Digest):
        return str(value)
    if callable(value) and not isinstance(value, Mapping):
        return f"function:{getattr(value, '__qualname__', type(value).__name__)}"
    if isinstance(value, Mapping):
        items = sorted(([list(k) if isinstance(k, tuple) else k, v] for k, v in value.items()), key=repr)
        text = json.dumps(items, ensure_ascii=False, default=repr)
    else:
        text = repr(value)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _escape(text: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in str(text))


def _unescape(text: str) -> str:
    return re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text)


def _encode(kind: str, value: Any) -> str:
    if kind == "digest":
        return digest(value)
    if value is None:
        return "none"
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "set":
        return ",".join(_escape(v) for v in sorted(value))
    if kind == "list":
        return ",".join(_escape(v) for v in value)
    if kind == "pairs":
        return ",".join(f"{_escape(a).replace('=', '%3D')}={_escape(b).replace('=', '%3D')}" for a, b in value)
    if kind == "float":
        return repr(float(value))
    return _escape(value)


def _decode(kind: str, text: str, name: str) -> Any:
    if text == "none" and kind not in ("str", "set", "list", "pairs"):
        return None
    try:
        if kind == "digest":
            if not (text.startswith("sha256:") or text.startswith("function:")):
                raise ValueError(text)
            return Digest(text)
        if kind == "bool":
            if text not in ("yes", "no"):
                raise ValueError(text)
            return text == "yes"
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        if kind in ("set", "list"):
            items = tuple(_unescape(v) for v in text.split(",")) if text else ()
            return frozenset(items) if kind == "set" else items
        if kind == "pairs":
            pairs = []
            for part in (text.split(",") if text else ()):
                a, b = part.split("=")
                pairs.append((_unescape(a), _unescape(b)))
            return tuple(pairs)
    except ValueError:
        raise BadOptionError(f"signature field {name!r}: {text!r} is not a {kind} value") from None
    return _unescape(text)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, frozenset) or isinstance(b, frozenset):
        try:
            return frozenset(a) == frozenset(b)
        except TypeError:
            return False
    return a == b


@dataclasses.dataclass(frozen=True)
class Settings:
    """Base of every settings class (module docstring). A subclass sets ``computation`` (the
    signature's first field) and declares its fields with :func:`setting`."""

    computation: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("computation")
        if name and name not in COMPUTATIONS:
            COMPUTATIONS.register(name, cls, builtin=True)

    # ---------------------------------------------------------------- writing

    @classmethod
    def signature_fields(cls) -> List[dataclasses.Field]:
        return [f for f in dataclasses.fields(cls) if f.metadata.get("key")]

    def signature_values(self) -> Dict[str, str]:
        """The signature's fields as ``{key: written value}``, without the name and version."""
        out: Dict[str, str] = {}
        for f in self.signature_fields():
            when = f.metadata.get("when")
            if when is not None and not when(self):
                continue
            out[f.metadata["key"]] = _encode(f.metadata["kind"], getattr(self, f.name))
        return out

    def signature(self) -> str:
        """``computation|key:value|...|v:VERSION`` (module docstring)."""
        parts = [self.computation] + [f"{k}:{v}" for k, v in self.signature_values().items()]
        return "|".join(parts + [f"v:{version()}"])

    def to_dict(self) -> Dict[str, Any]:
        """Every field (run options too) as JSON-friendly values (sets as sorted lists,
        data as its digest)."""
        out: Dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            kind = f.metadata.get("kind", "str")
            if kind == "digest" or (callable(value) and not isinstance(value, (str, Mapping))):
                value = None if value is None else digest(value)
            elif isinstance(value, (set, frozenset)):
                value = sorted(value)
            elif isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            elif value is not None and not isinstance(value, (str, int, float, bool)):
                value = repr(value)
            out[f.name] = value
        return out

    # ---------------------------------------------------------------- reading

    @classmethod
    def parse_signature(cls, text: str) -> Tuple[Dict[str, Any], Optional[str]]:
        """The field values a signature sets (by field name) and the version it names.
        A signature of another computation, an unknown key or a bad value is a
        :class:`~spacy_agreement.errors.BadOptionError`."""
        parts = [p for p in str(text).strip().split("|")]
        if not parts or parts[0] != cls.computation:
            raise BadOptionError(f"the signature {text!r} is not one of {cls.computation!r} "
                                 f"(it starts with {parts[0]!r} where {cls.computation!r} is expected)")
        by_key = {f.metadata["key"]: f for f in cls.signature_fields()}
        values: Dict[str, Any] = {}
        made_by: Optional[str] = None
        for part in parts[1:]:
            key, sep, raw = part.partition(":")
            if not sep:
                raise BadOptionError(f"signature field {part!r} is not key:value")
            if key == "v":
                made_by = raw
                continue
            if key not in by_key:
                raise BadOptionError(f"signature field {key!r} is not a setting of {cls.computation!r}: "
                                     f"use {', '.join(by_key)}")
            f = by_key[key]
            values[f.name] = _decode(f.metadata["kind"], raw, key)
        return values, made_by

    @classmethod
    def from_signature(cls: Type[S], text: str, base: Optional[S] = None) -> S:
        """The settings a signature names: its fields over ``base`` (default: the defaults).
        A signature made by another version warns that the numbers may differ."""
        start = base if base is not None else cls()
        return dataclasses.replace(start, **cls._given_values(text))

    @classmethod
    def _given_values(cls, text: str) -> Dict[str, Any]:
        """The field values of a signature given back, warning when another version made it."""
        values, made_by = cls.parse_signature(text)
        if made_by is not None and made_by != version():
            warnings.warn(f"the signature was made by spacy-agreement {made_by}, this is {version()}: "
                          "the numbers may differ", UserWarning, stacklevel=3)
        return values

    def merged(self: S, text: str, default: Optional[S] = None) -> S:
        """The settings of signature ``text`` for a run whose own settings are ``self``:
        the signature's values win; a value set differently in ``self`` than both ``default``
        (what the run would have without options: the class's defaults unless given) and
        the signature is an error naming the field (a run cannot follow the signature and
        another value at once); a digest field takes ``self``'s data, which must have the
        signature's digest."""
        values = self._given_values(text)
        default = default if default is not None else type(self)()
        for f in self.signature_fields():
            if f.name not in values:
                continue
            mine, theirs = getattr(self, f.name), values[f.name]
            if f.metadata["kind"] == "digest":
                if isinstance(theirs, Digest) and digest(mine) != theirs:
                    given_text = "none" if mine is None else digest(mine)
                    raise BadOptionError(f"the signature was computed with {f.name} {theirs}: give the same data "
                                         f"(this run has {given_text})")
                values[f.name] = mine if isinstance(theirs, Digest) else None
            elif not _same(mine, getattr(default, f.name)) and not _same(mine, theirs):
                raise BadOptionError(f"the signature sets {f.name} to {_encode(f.metadata['kind'], theirs)!r} and "
                                     f"this run to {_encode(f.metadata['kind'], mine)!r}: give one")
        return dataclasses.replace(self, **values)


def settings_class(text: str) -> Type[Settings]:
    """The settings class of a signature's computation (its first field)."""
    name = str(text).strip().split("|", 1)[0]
    if name not in COMPUTATIONS:  # its module not imported yet in this run
        computations()
    return COMPUTATIONS.get(name)


def signature_table() -> List[Tuple[str, str, str, str, str]]:
    """Every signature field of every computation: (computation, key, setting, default, what
    it is), for the README's conventions table."""
    rows = []
    for name, cls in computations():
        default = cls()
        for f in cls.signature_fields():
            rows.append((name, f.metadata["key"], f.name, _encode(f.metadata["kind"], getattr(default, f.name)),
                         f.metadata.get("doc", "")))
    return rows


def read_signature(value: str) -> str:
    """A signature given on the command line: the string itself, or a saved JSON output (a
    file path) whose ``signature`` it takes."""
    from pathlib import Path

    text = str(value).strip()
    if "|" not in text:
        path = Path(text)
        if not path.is_file():
            raise BadOptionError(f"{text!r} is neither a signature nor a file holding one")
        data = json.loads(path.read_text(encoding="utf-8"))
        found = data.get("signature") if isinstance(data, dict) else None
        if not isinstance(found, str):
            raise BadOptionError(f"{text}: no 'signature' in this JSON file")
        return found
    return text


__all__ = ["COMPUTATIONS", "SETTINGS_MODULES", "Digest", "Settings", "computations", "digest", "read_signature",
           "setting", "settings_class", "signature_table", "version"]
