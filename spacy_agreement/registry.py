"""One registry type for every extension point: distances δ, parser metrics, input readers
and commands.

A :class:`Registry` maps a name to an entry under one set of rules:

* a name is an identifier of letters, digits and ``_`` (readers and commands may also use
  ``-``: ``leaf-ancestor``), new in the registry;
* the output keys the entry will write (``keys(name)``: ``alpha_<name>``, ``observed_<name>``
  ... for a δ; the metric's own name for a parser metric) must not be keys that a built-in
  result writes (``reserved()``) nor keys another entry writes: a collision is a
  :class:`RegistryError` naming both;
* built-in entries cannot be removed; :meth:`Registry.unregister` removes an added one;
* :meth:`Registry.get` of an unknown name is a
  :class:`~spacy_agreement.errors.BadOptionError` listing the names there are.

>>> colours = Registry("colour", keys=lambda name: (f"colour_{name}",), reserved=lambda: {"colour_count"})
>>> colours.register("red", 1, builtin=True)
1
>>> colours.names()
('red',)
>>> colours.register("count", 2)
Traceback (most recent call last):
...
spacy_agreement.registry.RegistryError: colour 'count' would write the key 'colour_count', which is taken: a built-in result writes it
"""
from __future__ import annotations

import re
from typing import Callable, Dict, Generic, Iterable, Iterator, Optional, Tuple, TypeVar

from .errors import BadOptionError

T = TypeVar("T")

_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_DASHED = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


class RegistryError(ValueError):
    """A name that cannot be registered: not an identifier, taken, or writing an output key
    that a built-in result or another entry writes already."""


def _own_key(name: str) -> Tuple[str, ...]:
    return (name,)


def _nothing() -> Iterable[str]:
    return ()


class Registry(Generic[T]):
    """Named entries of one kind (``kind``: ``"delta"``, ``"metric"``, ``"reader"``,
    ``"command"``), in registration order, built-in first (module docstring)."""

    def __init__(self, kind: str, keys: Callable[[str], Iterable[str]] = _own_key,
                 reserved: Callable[[], Iterable[str]] = _nothing, dashes: bool = False) -> None:
        self.kind = kind
        self._keys = keys
        self._reserved = reserved
        self._pattern = _DASHED if dashes else _IDENTIFIER
        self._entries: Dict[str, T] = {}
        self._builtin: set = set()

    # ------------------------------------------------------------------ adding and removing

    def check(self, name: str) -> None:
        """Raise :class:`RegistryError` unless ``name`` could be registered now."""
        if not isinstance(name, str) or not self._pattern.match(name):
            allowed = "letters, digits, '_' and '-'" if self._pattern is _DASHED else "letters, digits and '_'"
            raise RegistryError(f"{self.kind} name {name!r} is not an identifier ({allowed}, starting with a letter)")
        if name in self._entries:
            raise RegistryError(f"{self.kind} name {name!r} is taken: a {self.kind} of that name is registered already")
        new = set(self._keys(name))
        reserved = set(self._reserved())
        for key in sorted(new & reserved):
            raise RegistryError(f"{self.kind} {name!r} would write the key {key!r}, which is taken: "
                                "a built-in result writes it")
        for other in self._entries:
            for key in sorted(new & set(self._keys(other))):
                raise RegistryError(f"{self.kind} {name!r} would write the key {key!r}, which is taken: "
                                    f"{self.kind} {other!r} writes it")

    def register(self, name: str, entry: T, builtin: bool = False) -> T:
        """Add ``entry`` under ``name`` (the rules of the module docstring) and return it."""
        self.check(name)
        self._entries[name] = entry
        if builtin:
            self._builtin.add(name)
        return entry

    def unregister(self, name: str) -> None:
        """Remove an added entry; removing a built-in one is a :class:`RegistryError`, an
        unknown name is ignored."""
        if name in self._builtin:
            raise RegistryError(f"{self.kind} {name!r} is built in")
        self._entries.pop(name, None)

    # ------------------------------------------------------------------ looking up

    def get(self, name: str) -> T:
        try:
            return self._entries[name]
        except KeyError:
            raise BadOptionError(f"unknown {self.kind} {name!r}: use one of {', '.join(self._entries)}") from None

    def find(self, name: str) -> Optional[T]:
        return self._entries.get(name)

    def names(self) -> Tuple[str, ...]:
        """The registered names, built-in first, in registration order."""
        return tuple(self._entries)

    def is_builtin(self, name: str) -> bool:
        return name in self._builtin

    def keys_of(self, name: str) -> Tuple[str, ...]:
        """The output keys entry ``name`` writes."""
        return tuple(self._keys(name))

    def items(self) -> Iterator[Tuple[str, T]]:
        return iter(list(self._entries.items()))

    def values(self) -> Iterator[T]:
        return iter(list(self._entries.values()))

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, name: str) -> T:
        return self._entries[name]

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {list(self._entries)})"


__all__ = ["Registry", "RegistryError"]
