"""EVALB's reading and scoring in Python, step by step as ``evalb.c`` does them: the *reference*
implementation (:mod:`.evalb` says every rule; the compiled :mod:`spacy_agreement._evalb` does the
same steps for the pairs EVALB scores without complaint and is tested against this one). Used by
:class:`~.evalb.Evaluator` for every pair EVALB reports an error for, for ``DEBUG`` listings and
with ``compiled=False``; :class:`SentenceBuilder` and :func:`score_sentence` also count GEIG's
brackets (:mod:`.geig`). Split from :mod:`.evalb`, which re-exports every public name here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List

from .evalb_params import BLANK, EvalbSettings
from .evalb_report import ERROR, OK, SKIP, SentenceResult

_TERMINATORS = BLANK + "()"
_QUOTE_WORDS = ("'", '"', "/")
#: How often "Reading sentence" is reported for one line at most. EVALB reports it again
#: and again until ``MAX_ERROR`` ends the run; with a ``MAX_ERROR`` over this (EVALB has no
#: bound: a billion would take minutes and the memory of a billion messages) the run ends
#: after this many, with a message saying so.
READING_SENTENCE_REPEATS = 1000


class EvalbAbort(Exception):
    """More errors than ``MAX_ERROR`` allows: EVALB exits with status 1."""


@dataclass
class _Bracket:
    start: int
    label: str
    buf_start: int = 0
    end: int = -1
    buf_end: int = 0
    result: int = 9  # 0 unmatched, 1 matched, 5 deleted, 9 not yet looked at


@dataclass
class _Quote:
    word: str
    label: str
    index: int
    bracket: int
    ends: List[int]


@dataclass
class _Sentence:
    """What EVALB's ``read_line`` gathers from one line: kept words, brackets, quote words."""

    terminals: List[List[str]] = field(default_factory=list)  # [word, label]
    brackets: List[_Bracket] = field(default_factory=list)
    quotes: List[_Quote] = field(default_factory=list)
    stack: List[int] = field(default_factory=list)
    length: int = 0

    @property
    def wn(self) -> int:
        return len(self.terminals)

    def term(self, i: int) -> List[str]:
        return self.terminals[i] if i < len(self.terminals) else ["", ""]


class SentenceBuilder:
    """Collects a sentence as EVALB does, from its tokenizer or from a tree walk
    (:mod:`spacy_agreement.evaluation.constituency.geig`): ``terminal`` for ``(label word)``, ``open``/``close``."""

    def __init__(self, params: EvalbSettings, error=None):
        self.params, self.sentence = params, _Sentence()
        self._error = error or (lambda message: None)

    def terminal(self, label: str, word: str) -> None:
        s, p = self.sentence, self.params
        if label not in p.delete_labels_for_length:
            s.length += 1
        if label in p.quote_labels and word in _QUOTE_WORDS:
            s.quotes.append(_Quote(word, label, s.wn, len(s.brackets), list(s.stack)))
        if label not in p.delete_labels:
            s.terminals.append([word, label])

    def open(self, label: str, buf_start: int = 0) -> None:
        s = self.sentence
        s.stack.append(len(s.brackets))
        s.brackets.append(_Bracket(s.wn, label, buf_start))

    def close(self, buf_end: int = 0) -> None:
        if not self.sentence.stack:
            self._error("Bracketing unbalance (too many close bracket)")
            return
        bracket = self.sentence.brackets[self.sentence.stack.pop()]
        bracket.end, bracket.buf_end = self.sentence.wn, buf_end

    def finish(self) -> _Sentence:
        if self.sentence.stack:
            self._error("Bracketing is unbalanced (too many open bracket)")
        return self.sentence


def read_sentence(line: str, params: EvalbSettings, error=None) -> _Sentence:
    """One line read as EVALB's ``read_line`` does. ``error(message)`` is called for each
    problem; text outside ``(label word)`` is an error EVALB repeats until ``MAX_ERROR``
    ends the run: it is reported ``MAX_ERROR + 2`` times at most (at least once, at most
    :data:`READING_SENTENCE_REPEATS` times), then :class:`EvalbAbort` is raised if ``error``
    has not raised it."""
    builder = SentenceBuilder(params, error)
    report = error or (lambda message: None)
    text, p = line.split("\0")[0], 0
    n = len(text)
    while p < n:
        ch = text[p]
        if ch in BLANK:
            p += 1
        elif ch == "(":
            start = p = p + 1
            while p < n and text[p] not in _TERMINATORS:
                p += 1
            label = text[start:p]
            if p < n and text[p] in BLANK:
                q = p
                while q < n and text[q] in BLANK:
                    q += 1
                word_start = q
                while q < n and text[q] not in _TERMINATORS:
                    q += 1
                if q < n and text[q] == ")":
                    builder.terminal(label, text[word_start:q])
                    p = q + 1
                    continue
                if q >= n or text[q] != "(":
                    report("More than two elements in a bracket")
            builder.open(label, p)
        elif ch == ")":
            builder.close(p)
            p += 1
        else:
            # EVALB loops on this error until MAX_ERROR stops it: its Error() exits once more
            # than MAX_ERROR + 1 errors were seen, so MAX_ERROR + 2 reports are always enough
            for _ in range(max(1, min(params.max_error + 2, READING_SENTENCE_REPEATS))):
                report("Reading sentence")
            raise EvalbAbort("Reading sentence")
    return builder.finish()


def _fix_quote(gold: _Sentence, test: _Sentence, params: EvalbSettings) -> None:
    """EVALB's ``fix_quote``: where a quote word was deleted on one side only (a ``'``
    tagged ``''`` in gold and ``POS`` in test, say), put it back on the deleting side."""
    deleted = params.delete_labels
    for i, q2 in enumerate(test.quotes):
        ind = q2.index
        for j, q1 in enumerate(gold.quotes):
            if q1.index != ind or q1.label == q2.label:
                continue
            if q1.label in deleted and q2.label not in deleted:
                _reinsert(q1, gold)
                for later in gold.quotes[j:]:
                    later.index += 1
            elif q2.label in deleted and q1.label not in deleted:
                _reinsert(q2, test)
                for later in test.quotes[i:]:
                    later.index += 1


def _reinsert(quote: _Quote, s: _Sentence) -> None:
    while len(s.terminals) < quote.index:
        s.terminals.append(["", ""])
    s.terminals.insert(quote.index, [quote.word, quote.label])
    for k, bracket in enumerate(s.brackets):
        if k >= quote.bracket:
            bracket.start += 1
            bracket.end += 1
    for k in quote.ends:
        s.brackets[k].end += 1


def _massage(s: _Sentence, params: EvalbSettings) -> int:
    for b in s.brackets:
        b.result = 0
        if b.start == b.end:
            b.result = 5
            continue
        b.label = re.split("[-=]", b.label, maxsplit=1)[0]
        if any(params.label_equal(b.label, d) for d in params.delete_labels):
            b.result = 5
    return sum(b.result != 5 for b in s.brackets)


def _crosses(g: _Bracket, t: _Bracket) -> bool:
    return ((g.start < t.start and g.end > t.start and g.end < t.end)
            or (g.start > t.start and g.start < t.end and g.end > t.end))


def score_sentence(gold: _Sentence, test: _Sentence, params: EvalbSettings, line: int = 1, status: int = OK,
                   error=None) -> SentenceResult:
    """EVALB's ``calc_result`` for one pair of read sentences (changes them, as EVALB does)."""
    result = SentenceResult(line, gold.length, status)

    def fail(message: str) -> SentenceResult:
        result.status = ERROR
        result.errors.append(message)
        if error:
            error(message)
        return result

    if test.wn == 0:
        result.status = SKIP
        return result
    if gold.wn != test.wn:
        _fix_quote(gold, test, params)
        if gold.wn != test.wn:
            return fail(f"Length unmatch ({gold.wn}|{test.wn})")
    for i in range(gold.wn):
        if not params.word_equal(gold.term(i)[0], test.term(i)[0]):
            return fail(f"Words unmatch ({gold.term(i)[0]}|{test.term(i)[0]})")
    result.gold_brackets, result.test_brackets = _massage(gold, params), _massage(test, params)
    for g in gold.brackets:
        for t in test.brackets:
            if g.result != 5 and t.result == 0 and (g.start, g.end) == (t.start, t.end) and (
                    params.labeled == 0 or params.label_equal(g.label, t.label)):
                g.result = t.result = 1
                result.matched += 1
                break
    result.crossing = sum(any(g.result != 5 and t.result != 5 and _crosses(g, t) for g in gold.brackets)
                          for t in test.brackets)
    result.words = gold.wn
    for i in range(gold.wn):
        g_term, t_term = gold.term(i), test.term(i)
        ok = params.label_equal(g_term[1], t_term[1])
        g_term[2:] = t_term[2:] = [int(ok)]
        result.correct_tags += ok
    return result


def _debug_listing(gold: _Sentence, test: _Sentence) -> str:
    """EVALB's ``dsp_info`` (``DEBUG 1``)."""
    out = [f"-<1>---(wn1={gold.wn:3d}, bn1={len(gold.brackets):3d})-           "
           f"-<2>---(wn2={test.wn:3d}, bn2={len(test.brackets):3d})-"]
    for i in range(max(gold.wn, test.wn)):
        row = []
        for t, tail in ((gold.term(i), "      "), (test.term(i), "")):
            if t[0]:
                row.append(f"{i:3d} : {t[2] if len(t) > 2 else 9:d} : {t[1]:<6s}  {t[0]:<16s}{tail}")
            else:
                row.append(" " * 40 if tail else "")
        out.append("".join(row))
    out.append("")
    for i in range(max(len(gold.brackets), len(test.brackets))):
        row = []
        for bs, tail in ((gold.brackets, "      "), (test.brackets, "")):
            if i < len(bs):
                b = bs[i]
                row.append(f"{i:3d} : {b.result:d} : {b.start:3d}  {b.end:3d}  {b.label:<6s}{tail}")
            else:
                row.append(" " * 32 if tail else "")
        out.append("".join(row))
    return "\n".join(out + ["", "========"])


__all__ = ["READING_SENTENCE_REPEATS", "EvalbAbort", "SentenceBuilder", "read_sentence", "score_sentence"]
