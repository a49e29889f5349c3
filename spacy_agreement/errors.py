"""Errors and warnings of spacy-agreement.

Every input error names where it happened, on one line as the CLI prints it::

    file:LINE: sentence N (sent_id X), token M: message

``LINE`` is the 1-based line of the file the error is on: the token's line, or for an
error about a whole sentence the first line of its block (its first comment or token
line; for a bracketed tree the line the tree starts on). ``N`` is the 1-based sentence
number, ``(sent_id X)`` appears when a CoNLL-U sentence has a ``# sent_id = X`` comment,
and ``, token M`` (the token id as written) when a token is known. Where no file line is
known (trees built in Python, spaCy ``Doc`` objects, NLTK trees) the form is
``source: sentence N, token M: message``, and ``source: message`` when only the source is.
"""
from __future__ import annotations

import functools
import math
import warnings
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Sequence, Tuple, TypeVar, Union


@dataclass(frozen=True)
class Location:
    """Where a tree (or an error) came from.

    ``source`` names the file or other source, ``sentence`` is the 1-based sentence number,
    ``token`` the token id as written. ``line`` is the 1-based file line the sentence
    starts on (its first comment or token line), ``sent_id`` its ``# sent_id`` comment.
    ``token_offsets`` holds, for each syntactic word in order (ids 1..n), its file line
    minus ``line`` (small numbers: the locations of a large corpus take little memory;
    :attr:`token_lines` gives the lines), and ``extra_offsets`` the same for other token
    ids (multiword ranges ``3-4``, empty nodes ``5.1``), so that :meth:`at_token` finds the
    line of a token; ``token_line`` is that line once resolved (or the line of a malformed
    line that has no token). The offset tables are lookup data: they take no part in
    equality, hashing or ``repr``.
    """

    source: str = "<input>"
    sentence: Optional[int] = None
    token: Optional[str] = None
    line: Optional[int] = None
    sent_id: Optional[str] = None
    token_line: Optional[int] = None
    token_offsets: Tuple[int, ...] = field(default=(), compare=False, repr=False)
    extra_offsets: Tuple[Tuple[str, int], ...] = field(default=(), compare=False, repr=False)

    @property
    def token_lines(self) -> Tuple[int, ...]:
        """The file line of each syntactic word in order (ids 1..n); empty when not known."""
        if self.line is None:
            return ()
        return tuple(self.line + offset for offset in self.token_offsets)

    def line_of(self, token: object) -> Optional[int]:
        """The file line of ``token`` (an id as written), or ``None`` when not known."""
        if self.line is None:
            return None
        token = str(token)
        if token.isdigit():
            k = int(token)
            if 1 <= k <= len(self.token_offsets):
                return self.line + self.token_offsets[k - 1]
        for tid, offset in self.extra_offsets:
            if tid == token:
                return self.line + offset
        return None

    def at_token(self, token: object, line: Optional[int] = None) -> "Location":
        """This location narrowed to one token; ``line`` is its file line where the caller
        knows it better than the offset tables."""
        token = str(token)
        if line is None:
            line = self.line_of(token)
        return Location(self.source, self.sentence, token, self.line, self.sent_id, line, self.token_offsets,
                        self.extra_offsets)

    @property
    def file_line(self) -> Optional[int]:
        """The line this location points at: the token's, else the sentence's (or ``None``)."""
        if self.token_line is not None:
            return self.token_line
        if self.token is not None:
            line = self.line_of(self.token)
            if line is not None:
                return line
        return self.line

    def __str__(self) -> str:
        line = self.file_line
        head = self.source if line is None else f"{self.source}:{line}"
        parts = []
        if self.sentence is not None:
            parts.append(f"sentence {self.sentence}" + (f" (sent_id {self.sent_id})" if self.sent_id else ""))
        elif self.sent_id:
            parts.append(f"sent_id {self.sent_id}")
        if self.token is not None:
            parts.append(f"token {self.token}")
        return f"{head}: {', '.join(parts)}" if parts else head


class AgreementError(ValueError):
    """Base class of the input errors; ``location`` says where, ``message`` says what.

    ``option`` names the parameter (or a tuple of the parameters) of the function called
    that the message speaks of, in Python terms (``bootstrap``, ``method="off"``), so that a
    front end can say it in its own: the CLI prints the command's flags instead
    (``--bootstrap``, ``--alpha off``)."""

    def __init__(self, message: str, location: Optional[Location] = None,
                 option: Union[str, Tuple[str, ...], None] = None):
        self.message = message
        self.location = location
        self.option = option
        super().__init__(f"{location}: {message}" if location is not None else message)

    @property
    def options(self) -> Tuple[str, ...]:
        """:attr:`option` as a tuple of parameter names (empty when none is named)."""
        if self.option is None:
            return ()
        return (self.option,) if isinstance(self.option, str) else tuple(self.option)


class InvalidTreeError(AgreementError):
    """A tree (or the line it was read from) is malformed: bad head, cycle, empty sentence..."""


class MismatchedCorpusError(AgreementError):
    """Annotations that must be parallel are not: different sentence counts or tokens."""


class EmptyInputError(AgreementError):
    """An input holds nothing to read: a 0-byte file (the CLI's ``FILE: empty file``) or an
    empty list of docs or trees; ``option`` names the argument."""


class ResourceLimitError(AgreementError):
    """The input needs more memory or time than the limits allow (a tree edit distance of two
    100,000-node trees, a leaf-ancestor sentence of a 100,000-token chain); the message says
    how much and which limit (:mod:`spacy_agreement.limits`)."""


class BadOptionError(AgreementError):
    """An option or argument value the function (or the CLI) cannot use: an unknown metric,
    rule or backend name, a malformed list, a combination of options that exclude each other.
    ``option`` (:class:`AgreementError`) names the parameter(s): ``BadOptionError(message,
    option="method")``."""


class JudgmentError(AgreementError):
    """A judgment item is malformed: unknown preference, a missing parse, different lengths
    (raised where judgments are read, :mod:`spacy_agreement.adapters.judgments_files`, and
    where items are checked, :mod:`spacy_agreement.evaluation.judgments.analysis`)."""


class DiscourseError(AgreementError):
    """Malformed discourse annotation: unknown node, missing connective, different documents
    (raised where documents are read, :mod:`spacy_agreement.adapters.discourse_files`, and
    where relations are checked, :mod:`spacy_agreement.evaluation.discourse.arrows`)."""


class UndefinedMetricWarning(RuntimeWarning):
    """A metric is undefined for this input (0/0) and was returned as NaN.

    This is the one policy of the library for undefined results: α when the expected
    disagreement is zero (every annotation identical, or nothing pairable), accuracies and
    parser metrics over nothing to count, κ when chance agreement is 1, leaf-ancestor scores
    without words are ``nan`` and this warning is issued, once per undefined value returned;
    a call marked :func:`warns_once` (``evaluate``, the parser metrics' corpus scores, the
    conll18 scores' ``to_dict``) issues one warning naming every value it left undefined.
    :func:`undefined` and :func:`ratio` apply it.

    ``metric`` names the undefined value and ``reason`` says why (as :func:`undefined` was
    given them; ``None`` for a warning made from a message alone), so that a program can
    group or filter warnings without parsing their text; the message is ``"<metric> is
    undefined: <reason>; returning nan"`` (:meth:`of`). ``undefined`` holds every
    ``(metric, reason)`` the warning names (:meth:`of_many`: one warning for several values,
    whose ``metric`` then names them all, ``"ucp and lcp"``, and ``reason`` is theirs when
    they share one, else ``None``); ``metrics`` their names.
    """

    def __init__(self, message: str = "", metric: Optional[str] = None, reason: Optional[str] = None,
                 undefined: Sequence[Tuple[str, str]] = ()) -> None:
        super().__init__(message)
        self.metric = metric
        self.reason = reason
        self.undefined: Tuple[Tuple[str, str], ...] = (
            tuple(undefined) if undefined else ((metric, reason),) if metric is not None and reason is not None else ())

    @property
    def metrics(self) -> Tuple[str, ...]:
        """The names of the undefined values the warning names (empty for one made from a message alone)."""
        return tuple(name for name, _ in self.undefined)

    @classmethod
    def of(cls, metric: str, reason: str = "nothing to count (0/0)") -> "UndefinedMetricWarning":
        """The warning that ``metric`` is undefined for ``reason``, with its message."""
        return cls(f"{metric} is undefined: {reason}; returning nan", metric, reason)

    @classmethod
    def of_many(cls, undefined: Sequence[Tuple[str, str]]) -> "UndefinedMetricWarning":
        """One warning for the ``(metric, reason)`` pairs of one call: the names of one reason
        together, ``"ucp and lcp are undefined: <reason>; las_content is undefined: <reason>;
        returning nan"`` (:meth:`of`'s message for one pair)."""
        pairs = list(dict.fromkeys(undefined))
        if len(pairs) == 1:
            return cls.of(*pairs[0])
        groups: dict = {}
        for name, why in pairs:
            groups.setdefault(why, []).append(name)
        parts = [f"{joined(names)} {'is' if len(names) == 1 else 'are'} undefined: {why}" for why, names in groups.items()]
        return cls(f"{'; '.join(parts)}; returning nan", joined([name for name, _ in pairs]),
                   next(iter(groups)) if len(groups) == 1 else None, pairs)

    def __reduce__(self) -> Tuple[type, Tuple[Any, ...]]:
        return type(self), (str(self), self.metric, self.reason, self.undefined)


def joined(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


#: The undefined values of the running :func:`warns_once` call (``None`` outside one).
_UNDEFINED: "ContextVar[Optional[List[Tuple[str, str]]]]" = ContextVar("spacy_agreement_undefined", default=None)
F = TypeVar("F", bound=Callable[..., Any])


def warns_once(function: F) -> F:
    """``function`` with one :class:`UndefinedMetricWarning` per call: the values it leaves
    undefined (:func:`undefined`, anywhere below it) are collected and named in one warning
    (:meth:`UndefinedMetricWarning.of_many`) when it returns, pointing at its caller. Inside
    another such call, the outer one warns."""
    @functools.wraps(function)
    def once(*args: Any, **kwargs: Any) -> Any:
        if _UNDEFINED.get() is not None:
            return function(*args, **kwargs)
        found: List[Tuple[str, str]] = []
        token = _UNDEFINED.set(found)
        try:
            result = function(*args, **kwargs)
        finally:
            _UNDEFINED.reset(token)
        if found:
            warnings.warn(UndefinedMetricWarning.of_many(found), stacklevel=2)
        return result
    return once  # type: ignore[return-value]


def undefined(name: str, why: str = "nothing to count (0/0)", stacklevel: int = 2) -> float:
    """The one policy for undefined results: warn :class:`UndefinedMetricWarning` (``"<name> is
    undefined: <why>; returning nan"``, with ``metric=name`` and ``reason=why``) and return
    ``nan``. ``stacklevel`` counts from the caller of this function (2: the warning points at
    the caller's caller). Within a :func:`warns_once` call the value is collected, and that
    call's one warning names it."""
    found = _UNDEFINED.get()
    if found is not None:
        if (name, why) not in found:
            found.append((name, why))
        return math.nan
    warnings.warn(UndefinedMetricWarning.of(name, why), stacklevel=stacklevel + 1)
    return math.nan


def ratio(numerator: float, denominator: float, name: str, why: str = "nothing to count (0/0)",
          stacklevel: int = 2) -> float:
    """``numerator / denominator``, or :func:`undefined` when the denominator is 0."""
    if denominator:
        return numerator / denominator
    return undefined(name, why, stacklevel + 1)


def utf8_problem(path: object) -> Optional[InvalidTreeError]:
    """The error for the first byte of the file ``path`` that is not UTF-8 (naming the file,
    the line, the byte and its offset in the file), or ``None`` when the file is UTF-8 text or
    cannot be read."""
    import os

    name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else str(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
        data.decode("utf-8")
    except UnicodeDecodeError as found:
        line = data.count(b"\n", 0, found.start) + 1
        return InvalidTreeError(f"not UTF-8 text ({found.reason}: byte 0x{data[found.start]:02x} at byte "
                                f"{found.start} of the file)", Location(name, line=line))
    except OSError:
        pass
    return None


def not_utf8(path: object, error: Optional[UnicodeDecodeError] = None) -> InvalidTreeError:
    """The error for a file that is not UTF-8 text (:func:`utf8_problem`; found by decoding
    the file's bytes again, so the position is in the file, not in a read buffer)."""
    found = utf8_problem(path)
    if found is not None:
        return found
    return InvalidTreeError(f"not UTF-8 text ({error.reason})" if error else "not UTF-8 text", Location(str(path)))
