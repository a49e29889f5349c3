"""``conll18_ud_eval.py``'s alignment of the words of two files of the same text, through the
characters (:func:`align_words`, a :class:`WordAlignment`). Split from :mod:`.alignment` (which
re-exports every name here, and whose docstring says how the script aligns words: identical spans
outside multiword spans, the longest common subsequence of the forms inside them).
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ...adapters.conllu.column_reader import ConlluColumns
from ...errors import Location, MismatchedCorpusError


@dataclass(frozen=True)
class WordAlignment:
    """Which gold word each system word is aligned with: ``gold_words[k]`` and
    ``system_words[k]`` (indices into the files' words, increasing) are the ``k``-th pair;
    ``gold_of_system[s]`` is the gold partner of system word ``s`` (-1 for none),
    ``system_of_gold`` the reverse; ``multiword_spans`` counts the spans aligned by forms."""

    gold_words: np.ndarray
    system_words: np.ndarray
    gold_of_system: np.ndarray
    system_of_gold: np.ndarray
    multiword_spans: int = 0

    def __len__(self) -> int:
        return len(self.gold_words)


class _Side:
    """What the walk reads of one file's words: spans, multiword flags, the next multiword
    word at or after each position, and (on demand) the forms as the script compares them."""

    def __init__(self, layers: ConlluColumns):
        self.layers = layers
        token = layers.word_token
        self.multiword_array = layers.token_multiword[token]
        self.start_array = layers.token_start[token]
        self.end_array = layers.token_end[token]
        self.start: List[int] = self.start_array.tolist()
        self.end: List[int] = self.end_array.tolist()
        self.multiword: List[bool] = self.multiword_array.tolist()
        self.n = len(self.start)
        positions = np.flatnonzero(self.multiword_array)
        #: next_multiword[i]: the first multiword word at index >= i (n when none)
        after = np.searchsorted(positions, np.arange(self.n + 1), side="left")
        self.next_multiword: List[int] = np.append(positions, self.n)[after].tolist()

    def lowered(self, start: int, stop: int) -> List[str]:
        """The FORMs of words ``start:stop`` as compared in a multiword span: lower-cased (a
        single word's FORM without spaces, a word of a multiword token's as written)."""
        return [form.lower() for form in self.layers.forms[start:stop]]


def _multiword_span(g: _Side, s: _Side, gi: int, si: int) -> Tuple[int, int, int, int]:
    """The multiword span starting at gold word ``gi`` / system word ``si`` (one of them in a
    multiword token): ``(gs, ss, ge, se)``, the words ``gs:ge`` and ``ss:se`` inside it."""
    if g.multiword[gi]:
        end = g.end[gi]
        if not s.multiword[si] and s.start[si] < g.start[gi]:
            si += 1  # the script steps over one system word that starts before the span
    else:
        end = s.end[si]
        if not g.multiword[gi] and g.start[gi] < s.start[si]:
            gi += 1
    gs, ss = gi, si
    g_n, g_start, g_end, g_multiword = g.n, g.start, g.end, g.multiword
    s_n, s_start, s_end, s_multiword = s.n, s.start, s.end, s.multiword
    while True:
        # a word is inside the span when it starts inside it (a multiword token's, which may
        # stretch the span) or ends inside it (a single word's)
        g_inside = gi < g_n and (g_start[gi] < end if g_multiword[gi] else g_end[gi] <= end)
        s_inside = si < s_n and (s_start[si] < end if s_multiword[si] else s_end[si] <= end)
        if not (g_inside or s_inside):
            return gs, ss, gi, si
        if gi < g_n and (si >= s_n or g_start[gi] <= s_start[si]):
            if g_multiword[gi] and g_end[gi] > end:
                end = g_end[gi]
            gi += 1
        else:
            if s_multiword[si] and s_end[si] > end:
                end = s_end[si]
            si += 1


def _common_forms(gold: Sequence[str], system: Sequence[str]) -> List[Tuple[int, int]]:
    """Pairs (g, s) of a longest common subsequence of two lists of forms, taken as the script
    takes them: from the left, equal forms are paired at once; otherwise the gold side moves
    when that keeps the longest common subsequence of what remains, else the system side."""
    n_gold, n_system = len(gold), len(system)
    # longest[g][s]: length of a longest common subsequence of gold[g:] and system[s:]
    longest = [[0] * (n_system + 1) for _ in range(n_gold + 1)]
    for g in range(n_gold - 1, -1, -1):
        row, below, form = longest[g], longest[g + 1], gold[g]
        for s in range(n_system - 1, -1, -1):
            row[s] = below[s + 1] + 1 if form == system[s] else max(below[s], row[s + 1])
    pairs = []
    g = s = 0
    while g < n_gold and s < n_system:
        if gold[g] == system[s]:
            pairs.append((g, s))
            g += 1
            s += 1
        elif longest[g][s] == longest[g + 1][s]:
            g += 1
        else:
            s += 1
    return pairs


def _where(layers: ConlluColumns, k: int) -> Location:
    """The token of ``layers`` holding character ``k`` (its last token past the end)."""
    if not layers.n_tokens:
        return Location(layers.source)
    token = int(np.searchsorted(layers.token_end, k, side="right"))
    return layers.token_location(min(token, layers.n_tokens - 1))


def _check_texts(gold: ConlluColumns, system: ConlluColumns) -> None:
    """The script's one requirement: the same characters (tokens concatenated, spaces removed)."""
    if gold.same_text(system):
        return
    a, b = gold.text, system.text
    k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    raise MismatchedCorpusError(
        f"the text (the tokens' characters, spaces removed) differs from the gold's at character {k}: "
        f"system {b[k:k + 20]!r}, gold {a[k:k + 20]!r} ({_where(gold, k)})", _where(system, k))


def _same_words(gold: ConlluColumns, system: ConlluColumns) -> Optional[WordAlignment]:
    """The alignment where both files have the same tokens and words (the same spans, the same
    multiword tokens, the same forms inside them, lower-cased): every word with its namesake,
    each multiword token a span of its own; ``None`` where the files differ anywhere."""
    n = gold.n_words
    if (n != system.n_words or not np.array_equal(gold.token_start, system.token_start)
            or not np.array_equal(gold.token_end, system.token_end)
            or not np.array_equal(gold.token_multiword, system.token_multiword)
            or not np.array_equal(gold.word_token, system.word_token)):
        return None
    inside = np.flatnonzero(gold.token_multiword[gold.word_token])
    compared = inside
    if gold.word_codes is not None and system.word_codes is not None and gold.code_table is not None \
            and gold.code_table is system.code_table:  # the same code, the same form: only the others compared
        compared = inside[gold.word_codes[inside, 0] != system.word_codes[inside, 0]]
    g_forms, s_forms = (gold.forms, system.forms) if len(compared) else ((), ())
    for k in compared.tolist():
        if g_forms[k] != s_forms[k] and g_forms[k].lower() != s_forms[k].lower():
            return None
    tokens = gold.word_token[inside]  # non-decreasing: the multiword tokens are where it steps
    spans = int(np.count_nonzero(np.diff(tokens))) + 1 if len(tokens) else 0
    words = np.arange(n, dtype=np.int64)
    return WordAlignment(words, words.copy(), words.copy(), words.copy(), spans)


def align_words(gold: ConlluColumns, system: ConlluColumns) -> WordAlignment:
    """The script's alignment of the words of two files of the same text (module docstring);
    different texts raise :class:`~spacy_agreement.errors.MismatchedCorpusError`."""
    _check_texts(gold, system)
    same = _same_words(gold, system)
    if same is not None:
        return same
    g, s = _Side(gold), _Side(system)
    stretches: List[Tuple[int, int, int, int]] = []  # word ranges walked outside multiword spans
    runs: List[Tuple[int, int, int]] = []  # pairs inside multiword spans: (gold, system, how many in a row)
    spans = 0
    gi = si = 0
    while gi < g.n and si < s.n:
        if g.multiword[gi] or s.multiword[si]:
            gs, ss, gi, si = _multiword_span(g, s, gi, si)
            spans += 1
            if gi > gs and si > ss:
                gold_forms, system_forms = g.lowered(gs, gi), s.lowered(ss, si)
                if gold_forms == system_forms:  # the same words: all paired
                    runs.append((gs, ss, gi - gs))
                else:
                    runs.extend((gs + a, ss + b, 1) for a, b in _common_forms(gold_forms, system_forms))
            continue
        # Outside multiword spans the script walks both sides in order of their start,
        # pairing identical spans, until one side reaches its next multiword word (or its end).
        # Which side gets there first, and where the other then stands, follows from the start
        # of the last word before it on each side (a: gold, b: system).
        g_next, s_next = g.next_multiword[gi], s.next_multiword[si]
        a, b = g.start[g_next - 1], s.start[s_next - 1]
        if a <= b:  # gold first: the system stands at its first word starting at or after a
            j = bisect_left(s.start, a, si, s_next)
            if s.start[j] == a and s.end[j] == g.end[g_next - 1]:
                j += 1  # paired with the gold word: both moved on
            stretches.append((gi, g_next, si, j))
            gi, si = g_next, j
        else:  # system first: gold stands after its words starting at or before b
            i = bisect_left(g.start, b, gi, g_next)
            if g.start[i] == b:
                i += 1
            stretches.append((gi, i, si, s_next))
            gi, si = i, s_next
    gold_words, system_words = _stretch_pairs(g, s, stretches)
    if runs:
        table = np.asarray(runs, dtype=np.int64)
        lengths = table[:, 2]
        step = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        gold_words = np.concatenate([gold_words, np.repeat(table[:, 0], lengths) + step])
        system_words = np.concatenate([system_words, np.repeat(table[:, 1], lengths) + step])
        order = np.argsort(gold_words, kind="stable")
        gold_words, system_words = gold_words[order], system_words[order]
    gold_of_system = np.full(s.n, -1, dtype=np.int64)
    gold_of_system[system_words] = gold_words
    system_of_gold = np.full(g.n, -1, dtype=np.int64)
    system_of_gold[gold_words] = system_words
    return WordAlignment(gold_words, system_words, gold_of_system, system_of_gold, spans)


def _stretch_labels(n: int, ranges: np.ndarray) -> np.ndarray:
    """For ``n`` words, the number of the range ``[lo, hi)`` in ``ranges`` each lies in; -1 outside."""
    labels = np.full(n, -1, dtype=np.int64)
    if not len(ranges):
        return labels
    lengths = ranges[:, 1] - ranges[:, 0]
    total = int(lengths.sum())
    if total:
        owner = np.repeat(np.arange(len(ranges), dtype=np.int64), lengths)
        first = np.repeat(ranges[:, 0] - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
        labels[np.arange(total, dtype=np.int64) + first] = owner
    return labels


def _stretch_pairs(g: _Side, s: _Side, stretches: List[Tuple[int, int, int, int]]) -> Tuple[np.ndarray, np.ndarray]:
    """The pairs of words with identical spans that the walk meets in each stretch: a gold and
    a system word walked in the same stretch, with the same start and end."""
    if not stretches:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    ranges = np.asarray(stretches, dtype=np.int64)
    g_label = _stretch_labels(g.n, ranges[:, 0:2])
    s_label = _stretch_labels(s.n, ranges[:, 2:4])
    candidates = np.flatnonzero(g_label >= 0)
    if not len(candidates) or not s.n:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    # the system word with the same start (starts increase on each side, except inside multiword tokens)
    partner = np.searchsorted(s.start_array, g.start_array[candidates], side="left")
    partner = np.minimum(partner, s.n - 1)
    same = ((s.start_array[partner] == g.start_array[candidates]) & (s.end_array[partner] == g.end_array[candidates])
            & (s_label[partner] == g_label[candidates]))
    return candidates[same], partner[same]


__all__ = ["WordAlignment", "align_words"]
