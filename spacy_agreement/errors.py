"""Errors and warnings of spacy-agreement.

Every input error names where it happened: the file (or other source), the 1-based
sentence number and, where it applies, the token, in the form
``file:sentence:token: message`` that the CLI prints on one line.
"""
from __future__ import annotations

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


class UndefinedMetricWarning(RuntimeWarning):
    """A metric is undefined for this input (0/0) and was returned as NaN.

    This is the one policy of the library for undefined results: α when the expected
    disagreement is zero (every annotation identical, or nothing pairable), and
    accuracies over zero tokens, are ``nan`` and this warning is issued.
    """
