"""Errors and warnings of spacy-agreement.

Every input error names where it happened: the file (or other source), the 1-based
sentence number and, where it applies, the token, in the form
``file:sentence:token: message`` that the CLI prints on one line.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Location:
    """Where a tree came from: a source name, a 1-based sentence number and a token id."""

    source: str = "<input>"
    sentence: Optional[int] = None
    token: Optional[str] = None

    def at_token(self, token: object) -> "Location":
        return Location(self.source, self.sentence, str(token))

    def __str__(self) -> str:
        parts = [self.source]
        if self.sentence is not None:
            parts.append(str(self.sentence))
            if self.token is not None:
                parts.append(self.token)
        return ":".join(parts)


class AgreementError(ValueError):
    """Base class of the input errors; ``location`` says where, ``message`` says what."""

    def __init__(self, message: str, location: Optional[Location] = None):
        self.message = message
        self.location = location
        super().__init__(f"{location}: {message}" if location is not None else message)


class InvalidTreeError(AgreementError):
    """A tree (or the line it was read from) is malformed: bad head, cycle, empty sentence..."""


class MismatchedCorpusError(AgreementError):
    """Annotations that must be parallel are not: different sentence counts or tokens."""


class BadOptionError(AgreementError):
    """An option or argument value the function (or the CLI) cannot use: an unknown metric,
    rule or backend name, a malformed list, a combination of options that exclude each other."""


class UndefinedMetricWarning(RuntimeWarning):
    """A metric is undefined for this input (0/0) and was returned as NaN.

    This is the one policy of the library for undefined results: α when the expected
    disagreement is zero (every annotation identical, or nothing pairable), accuracies and
    parser metrics over nothing to count, κ when chance agreement is 1, leaf-ancestor scores
    without words are ``nan`` and this warning is issued, once per undefined value returned.
    :func:`undefined` and :func:`ratio` apply it.
    """


def undefined(name: str, why: str = "nothing to count (0/0)", stacklevel: int = 2) -> float:
    """The one policy for undefined results: warn :class:`UndefinedMetricWarning` (``"<name> is
    undefined: <why>; returning nan"``) and return ``nan``. ``stacklevel`` counts from the
    caller of this function (2: the warning points at the caller's caller)."""
    warnings.warn(f"{name} is undefined: {why}; returning nan", UndefinedMetricWarning, stacklevel=stacklevel + 1)
    return math.nan


def ratio(numerator: float, denominator: float, name: str, why: str = "nothing to count (0/0)",
          stacklevel: int = 2) -> float:
    """``numerator / denominator``, or :func:`undefined` when the denominator is 0."""
    if denominator:
        return numerator / denominator
    return undefined(name, why, stacklevel + 1)
