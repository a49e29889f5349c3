"""The CoNLL 2018 shared task's evaluation over different tokenisations: words aligned through
the characters of the text, and the thirteen scores of ``conll18_ud_eval.py``.

Zeman et al. (2018), "CoNLL 2018 Shared Task: Multilingual Parsing from Raw Text to Universal
Dependencies", the section on evaluation metrics, and the shared task's script ``conll18_ud_eval.py``
(version 1.2), whose numbers these are to the last printed digit (tests/data/conll18/ holds its
verbatim output on every fixture pair; ``format_conll18_table`` prints the same text).

**Alignment.** Gold and system files are read as layers
(:mod:`spacy_agreement.adapters.conllu_words`): the whitespace-free characters of all tokens,
which must be the same on both sides (else a
:class:`~spacy_agreement.errors.MismatchedCorpusError` names the first differing character's
token, with 20 characters of each side from there), and each token's character span.

* A word that is a token by itself (not part of a multiword token) is aligned with the word of
  the other side that has the *same span*: "the" and "the" over the same characters; a system
  that splits ``housework`` in two has no word aligned with gold ``housework``.
* Multiword tokens are handled in *multiword spans*: the smallest stretch of text that starts
  with a multiword token of either side and contains whole every multiword token of either
  side that it touches. Inside a span the words of both sides (the words of the multiword
  tokens and the single words inside the span) are aligned by the longest common subsequence
  of their FORMs, lower-cased: gold ``du`` = ``de le`` against a system ``du`` = ``de le`` aligns
  both words, against a system ``du`` left whole aligns none, against ``du`` = ``de les`` one.
  The walk over the words is the script's (which side moves, where a span starts, the order in
  which equal forms are taken), so that every alignment is the script's alignment.

The pairs are found by a walk over the multiword spans only: between two spans the aligned
words are those with identical spans, found with numpy over whole stretches; inside a span the
forms are compared in Python (spans are a few words). Time is linear in the words plus the
squares of the span sizes.

**Scores** (the script's names; each has ``correct``, ``gold``, ``system`` and, for scores over
aligned words, ``aligned``):

* ``tokens``, ``sentences``: spans (start and end) shared by both sides.
* ``words``: aligned words.
* ``upos``, ``xpos``, ``ufeats`` (universal features, sorted:
  :func:`~.ud_metrics.universal_feats`), ``alltags`` (the three), ``lemmas`` (a gold lemma
  ``_`` accepts any): aligned words whose columns are equal.
* ``uas``: aligned words whose head is right: both roots, or the system's head aligned with
  the gold head. ``las``: and the relation, by its universal part
  (:func:`~.ud_metrics.universal_deprel`, always: ``nmod:poss`` = ``nmod``); the root relation
  as written (``ROOT`` is not ``root``).
* ``clas``, ``mlas``, ``blex`` (:mod:`~.ud_metrics`): over content words (gold and system
  words with a content relation; aligned words whose gold word has one), LAS; MLAS also UPOS,
  universal features and the functional children (each aligned with the gold word's, in the
  same order, with the same relation, UPOS and features); BLEX also the lemma.

Precision is ``correct / system``, recall ``correct / gold``, F1 ``2·correct / (gold + system)``
(the script's operations, so the same floating-point values) and the aligned accuracy
``correct / aligned`` (none for tokens, sentences and words).

**Undefined values.** Where one of these divides by zero, the script prints 0.00 (and an
aligned accuracy of 0.00 when nothing is aligned); :func:`format_conll18_table` prints the same.
The attributes and :meth:`AlignedScores.to_dict` follow the package's policy instead
(:func:`~spacy_agreement.errors.undefined`): ``nan`` with an
:class:`~spacy_agreement.errors.UndefinedMetricWarning`, there and only there (CLAS of a file
without a content word, the aligned accuracy of UPOS when no word is aligned). The aligned
accuracy of ``tokens``, ``sentences`` and ``words``, which the script does not print, is
``None``.

**No settings.** Every convention here is the script's (subtypes dropped, root as written,
punctuation scored, empty nodes skipped); the package's options for other conventions belong to
:func:`~.parser_metrics.evaluate`, which requires identical tokens. The result's ``signature``
is ``conll18|v:VERSION``. On identical tokens UAS, LAS, CLAS, MLAS and BLEX equal
``evaluate(..., EvaluationSettings(ignore_subtypes=True, fold_root_case=False))``.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ...adapters.conllu_words import ConlluLayers, PathLike, read_conllu_layers
from ...errors import Location, MismatchedCorpusError, ratio, warns_once
from ..dependency.ud_labels import CONTENT_DEPRELS, FUNCTIONAL_DEPRELS, universal_deprel, universal_feats

#: the scores, in the script's order, and their names in its table
METRICS: Tuple[str, ...] = ("tokens", "sentences", "words", "upos", "xpos", "ufeats", "alltags", "lemmas",
                            "uas", "las", "clas", "mlas", "blex")
DISPLAY_NAMES: Dict[str, str] = {
    "tokens": "Tokens", "sentences": "Sentences", "words": "Words", "upos": "UPOS", "xpos": "XPOS",
    "ufeats": "UFeats", "alltags": "AllTags", "lemmas": "Lemmas", "uas": "UAS", "las": "LAS", "clas": "CLAS",
    "mlas": "MLAS", "blex": "BLEX",
}
_UNALIGNED = -2  # gold partner of a system word that has none (the root's "head" is -1)


# ---------------------------------------------------------------------------------------- results


@dataclass(frozen=True)
class AlignedMetric:
    """The counts of one score and its values: ``correct`` of ``gold`` gold items and
    ``system`` system items, over ``aligned`` aligned words (``None`` for tokens, sentences
    and words). Undefined values (a zero denominator) are ``nan`` with an
    :class:`~spacy_agreement.errors.UndefinedMetricWarning` (module docstring)."""

    name: str
    correct: int
    gold: int
    system: int
    aligned: Optional[int] = None

    @property
    def precision(self) -> float:
        return ratio(self.correct, self.system, f"{self.name}_precision", "nothing in the system file")

    @property
    def recall(self) -> float:
        return ratio(self.correct, self.gold, f"{self.name}_recall", "nothing in the gold file")

    @property
    def f1(self) -> float:
        """2PR/(P+R), computed as ``2·correct / (gold + system)`` (as the script does)."""
        return ratio(2 * self.correct, self.system + self.gold, f"{self.name}_f1", "nothing in either file")

    @property
    def aligned_accuracy(self) -> Optional[float]:
        """``correct / aligned``; ``None`` for tokens, sentences and words."""
        if self.aligned is None:
            return None
        return ratio(self.correct, self.aligned, f"{self.name}_aligned_accuracy", "no aligned word to score")

    def script_values(self) -> Tuple[float, float, float, Optional[float]]:
        """(precision, recall, F1, aligned accuracy) as ``conll18_ud_eval.py`` computes them:
        0 where a denominator is 0 (no warning), aligned accuracy ``None`` where it has none."""
        c, g, s, a = self.correct, self.gold, self.system, self.aligned
        accuracy: Optional[float] = None if a is None else (c / a if a else 0)
        return (c / s if s else 0.0, c / g if g else 0.0, 2 * c / (s + g) if s + g else 0.0, accuracy)

    def to_dict(self) -> Dict[str, Optional[float]]:
        """``<name>_precision``, ``_recall``, ``_f1``, ``_aligned_accuracy`` (fractions) and the
        counts ``_correct``, ``_gold``, ``_system``, ``_aligned``."""
        m = self.name
        return {f"{m}_precision": self.precision, f"{m}_recall": self.recall, f"{m}_f1": self.f1,
                f"{m}_aligned_accuracy": self.aligned_accuracy, f"{m}_correct": self.correct,
                f"{m}_gold": self.gold, f"{m}_system": self.system, f"{m}_aligned": self.aligned}


@dataclass(frozen=True)
class AlignedScores:
    """The thirteen scores of ``conll18_ud_eval.py`` (one :class:`AlignedMetric` each, named as
    lower-case attributes: ``scores.las.f1``, ``scores.upos.aligned_accuracy``), where they came
    from, and what the reading skipped or merged (empty nodes, multiword tokens, the multiword
    spans aligned by forms)."""

    tokens: AlignedMetric
    sentences: AlignedMetric
    words: AlignedMetric
    upos: AlignedMetric
    xpos: AlignedMetric
    ufeats: AlignedMetric
    alltags: AlignedMetric
    lemmas: AlignedMetric
    uas: AlignedMetric
    las: AlignedMetric
    clas: AlignedMetric
    mlas: AlignedMetric
    blex: AlignedMetric
    gold_source: str = "<gold>"
    system_source: str = "<system>"
    gold_empty_nodes: int = 0
    system_empty_nodes: int = 0
    gold_multiword_tokens: int = 0
    system_multiword_tokens: int = 0
    multiword_spans: int = 0

    def metric(self, name: str) -> AlignedMetric:
        """The score named ``name`` (``"las"``; the script's ``"LAS"`` too)."""
        key = name.lower()
        if key not in METRICS:
            raise KeyError(f"unknown score {name!r}: one of {', '.join(METRICS)}")
        return getattr(self, key)

    def metrics(self) -> List[AlignedMetric]:
        """Every score, in the script's order."""
        return [getattr(self, m) for m in METRICS]

    @property
    def signature(self) -> str:
        """``conll18|v:VERSION``: nothing here is a setting (module docstring)."""
        from ...signature import version

        return f"conll18|v:{version()}"

    @warns_once
    def to_dict(self) -> Dict[str, object]:
        """Flat: for every score ``<m>_precision``, ``<m>_recall``, ``<m>_f1`` and
        ``<m>_aligned_accuracy`` as fractions (``nan`` where undefined, one warning naming them
        all, :func:`~spacy_agreement.errors.warns_once`; ``None``
        for the aligned accuracy of tokens, sentences and words), the counts ``<m>_correct``,
        ``<m>_gold``, ``<m>_system``, ``<m>_aligned`` (``None`` where there is no aligned
        accuracy); then the reading's counts and the ``signature``."""
        out: Dict[str, object] = {}
        for metric in self.metrics():
            out.update(metric.to_dict())
        out.update(gold_empty_nodes=self.gold_empty_nodes, system_empty_nodes=self.system_empty_nodes,
                   gold_multiword_tokens=self.gold_multiword_tokens,
                   system_multiword_tokens=self.system_multiword_tokens, multiword_spans=self.multiword_spans,
                   signature=self.signature)
        return out


def format_conll18_table(scores: AlignedScores, counts: bool = False, verbose: bool = True) -> str:
    """The text ``conll18_ud_eval.py`` prints for these scores (without the final newline that
    ``print`` adds): with ``-v`` (the default here) the table of precision, recall, F1 and
    aligned accuracy in percent with 2 decimals; with ``counts=True`` (``-c``) the table of
    correct, gold, system and aligned counts; with ``verbose=False`` (no option) the three lines
    of LAS, MLAS and BLEX F1. Values the script cannot compute print as it prints them (0.00)."""
    if not verbose and not counts:
        return "\n".join([f"LAS F1 Score: {100 * scores.las.script_values()[2]:.2f}",
                          f"MLAS Score: {100 * scores.mlas.script_values()[2]:.2f}",
                          f"BLEX Score: {100 * scores.blex.script_values()[2]:.2f}"])
    head = "Metric     | Correct   |      Gold | Predicted | Aligned" if counts else \
        "Metric     | Precision |    Recall |  F1 Score | AligndAcc"
    lines = [head, "-----------+-----------+-----------+-----------+-----------"]
    for metric in scores.metrics():
        name = DISPLAY_NAMES[metric.name]
        if counts:
            aligned: Union[int, str] = metric.aligned or (metric.correct if metric.name == "words" else "")
            lines.append(f"{name:11}|{metric.correct:10} |{metric.gold:10} |{metric.system:10} |{aligned:10}")
        else:
            precision, recall, f1, accuracy = metric.script_values()
            last = "" if accuracy is None else f"{100 * accuracy:10.2f}"
            lines.append(f"{name:11}|{100 * precision:10.2f} |{100 * recall:10.2f} |{100 * f1:10.2f} |{last}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------- alignment


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

    def __init__(self, layers: ConlluLayers):
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

    @cached_property
    def lower(self) -> List[str]:
        """The FORMs as compared in a multiword span: lower-cased (a single word's FORM without
        spaces, a word of a multiword token's as written)."""
        return [form.lower() for form in self.layers.forms]


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


def _where(layers: ConlluLayers, k: int) -> Location:
    """The token of ``layers`` holding character ``k`` (its last token past the end)."""
    if not layers.n_tokens:
        return Location(layers.source)
    token = int(np.searchsorted(layers.token_end, k, side="right"))
    return layers.token_location(min(token, layers.n_tokens - 1))


def _check_texts(gold: ConlluLayers, system: ConlluLayers) -> None:
    """The script's one requirement: the same characters (tokens concatenated, spaces removed)."""
    a, b = gold.text, system.text
    if a == b:
        return
    k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    raise MismatchedCorpusError(
        f"the text (the tokens' characters, spaces removed) differs from the gold's at character {k}: "
        f"system {b[k:k + 20]!r}, gold {a[k:k + 20]!r} ({_where(gold, k)})", _where(system, k))


def align_words(gold: ConlluLayers, system: ConlluLayers) -> WordAlignment:
    """The script's alignment of the words of two files of the same text (module docstring);
    different texts raise :class:`~spacy_agreement.errors.MismatchedCorpusError`."""
    _check_texts(gold, system)
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
                gold_forms, system_forms = g.lower[gs:gi], s.lower[ss:si]
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


# ---------------------------------------------------------------------------------------- scores


def _coded(gold: Sequence[str], system: Sequence[str], normalise: Optional[Callable[[str], object]] = None
           ) -> Tuple[Tuple[np.ndarray, np.ndarray], Dict[object, int]]:
    """A column of both sides as integer codes, equal where the (normalised) values are equal:
    ``((gold codes, system codes), {normalised value: code})``. Each distinct value is
    normalised once (the readers intern the values, so the look-ups are quick)."""
    distinct = dict.fromkeys(gold)
    distinct.update(dict.fromkeys(system))
    codes: Dict[object, int] = {}
    if normalise is None:
        code_of = {value: codes.setdefault(value, len(codes)) for value in distinct}
    else:
        code_of = {value: codes.setdefault(normalise(value), len(codes)) for value in distinct}
    look_up = code_of.__getitem__
    return ((np.fromiter(map(look_up, gold), dtype=np.int64, count=len(gold)),
             np.fromiter(map(look_up, system), dtype=np.int64, count=len(system))), codes)


def _flags(codes: Dict[object, int], accepted: frozenset) -> np.ndarray:
    """For each code of a coded column, whether its value is in ``accepted``."""
    flags = np.zeros(len(codes), dtype=bool)
    for value, code in codes.items():
        flags[code] = value in accepted
    return flags


@dataclass(frozen=True)
class _Columns:
    """One side's words as the scores compare them: integer codes of the columns, shared with
    the other side (equal codes, equal values as compared), the content and functional
    relations, and the heads as word indices (-1: the root)."""

    upos: np.ndarray
    xpos: np.ndarray
    lemmas: np.ndarray
    feats: np.ndarray  # universal features, sorted
    deprels: np.ndarray  # universal part
    content: np.ndarray
    functional: np.ndarray
    heads: np.ndarray


def _columns(gold: ConlluLayers, system: ConlluLayers) -> Tuple[_Columns, _Columns, np.ndarray]:
    """Both sides' :class:`_Columns`, and where the gold lemma is ``_`` (any lemma is right)."""
    upos, _ = _coded(gold.upos, system.upos)
    xpos, _ = _coded(gold.xpos, system.xpos)
    lemmas, lemma_codes = _coded(gold.lemmas, system.lemmas)
    feats, _ = _coded(gold.feats, system.feats, universal_feats)
    deprels, deprel_codes = _coded(gold.deprels, system.deprels, universal_deprel)
    content, functional = _flags(deprel_codes, CONTENT_DEPRELS), _flags(deprel_codes, FUNCTIONAL_DEPRELS)
    sides = [_Columns(upos[k], xpos[k], lemmas[k], feats[k], deprels[k], content[deprels[k]], functional[deprels[k]],
                      layers.head_words) for k, layers in enumerate((gold, system))]
    return sides[0], sides[1], lemmas[0] == lemma_codes.get("_", -1)


def _spans_metric(name: str, gold_start: np.ndarray, gold_end: np.ndarray, system_start: np.ndarray,
                  system_end: np.ndarray) -> AlignedMetric:
    """Spans shared by both sides (starts are increasing on each side)."""
    _, gk, sk = np.intersect1d(gold_start, system_start, assume_unique=True, return_indices=True)
    correct = int(np.count_nonzero(gold_end[gk] == system_end[sk]))
    return AlignedMetric(name, correct, len(gold_start), len(system_start))


def _count(mask: np.ndarray) -> int:
    return int(np.count_nonzero(mask))


@dataclass(frozen=True)
class AlignedMasks:
    """What the scores count, word by word: the aligned pairs (``gold_words[k]`` with
    ``system_words[k]``), for each score over aligned words (``upos`` ... ``blex``) whether
    pair ``k`` is right, and which words of each side are content words (the CLAS, MLAS and
    BLEX denominators). :func:`evaluate_aligned_layers` sums them over the file;
    :mod:`spacy_agreement.evaluation.unit_counts` over each gold sentence."""

    gold_words: np.ndarray
    system_words: np.ndarray
    correct: Dict[str, np.ndarray]
    gold_content: np.ndarray
    system_content: np.ndarray


def aligned_masks(gold: ConlluLayers, system: ConlluLayers, alignment: Optional[WordAlignment] = None) -> AlignedMasks:
    """The word-by-word flags behind the scores of :func:`evaluate_aligned_layers`."""
    alignment = alignment if alignment is not None else align_words(gold, system)
    G, S, no_gold_lemma = _columns(gold, system)
    ag, as_ = alignment.gold_words, alignment.system_words
    upos = G.upos[ag] == S.upos[as_]
    xpos = G.xpos[ag] == S.xpos[as_]
    feats = G.feats[ag] == S.feats[as_]
    lemmas = no_gold_lemma[ag] | (G.lemmas[ag] == S.lemmas[as_])
    # heads: the gold head against the gold partner of the system head (-1 both roots, -2 unaligned)
    partner = np.where(alignment.gold_of_system >= 0, alignment.gold_of_system, _UNALIGNED)
    system_heads = np.where(S.heads >= 0, partner[np.maximum(S.heads, 0)], -1) if system.n_words else S.heads
    uas = G.heads[ag] == system_heads[as_]
    las = uas & (G.deprels[ag] == S.deprels[as_])
    content = G.content[ag]
    clas = las & content
    # functional children: those of the gold word, each aligned with one of the system word's
    # with the same relation, UPOS and features (same order: the alignment is monotone)
    g_child = (G.heads >= 0) & G.functional
    s_child = (S.heads >= 0) & S.functional
    g_children = np.bincount(G.heads[g_child], minlength=gold.n_words)
    s_children = np.bincount(S.heads[s_child], minlength=system.n_words)
    child = np.flatnonzero(s_child)
    child_gold = partner[child]
    ok = child_gold >= 0
    child, child_gold = child[ok], child_gold[ok]
    ok = (g_child[child_gold] & (G.heads[child_gold] == system_heads[child])
          & (G.deprels[child_gold] == S.deprels[child]) & (G.upos[child_gold] == S.upos[child])
          & (G.feats[child_gold] == S.feats[child]))
    matched_children = np.bincount(S.heads[child[ok]], minlength=system.n_words)
    same_children = (g_children[ag] == s_children[as_]) & (s_children[as_] == matched_children[as_])
    mlas = clas & upos & feats & same_children
    blex = clas & lemmas
    correct = {"upos": upos, "xpos": xpos, "ufeats": feats, "alltags": upos & xpos & feats, "lemmas": lemmas,
               "uas": uas, "las": las, "clas": clas, "mlas": mlas, "blex": blex}
    return AlignedMasks(ag, as_, correct, G.content, S.content)


def evaluate_aligned_layers(gold: ConlluLayers, system: ConlluLayers,
                            alignment: Optional[WordAlignment] = None) -> AlignedScores:
    """The thirteen scores of ``conll18_ud_eval.py`` for two files already read
    (:func:`~spacy_agreement.adapters.conllu_words.read_conllu_layers`); ``alignment`` when
    the caller has it (:func:`align_words`)."""
    alignment = alignment if alignment is not None else align_words(gold, system)
    masks = aligned_masks(gold, system, alignment)
    n_aligned = len(masks.gold_words)
    content = masks.gold_content[masks.gold_words]
    scores = {}
    for name, ok in masks.correct.items():
        if name in ("clas", "mlas", "blex"):
            scores[name] = AlignedMetric(name, _count(ok), _count(masks.gold_content), _count(masks.system_content),
                                         _count(content))
        else:
            scores[name] = AlignedMetric(name, _count(ok), gold.n_words, system.n_words, n_aligned)
    return AlignedScores(
        tokens=_spans_metric("tokens", gold.token_start, gold.token_end, system.token_start, system.token_end),
        sentences=_spans_metric("sentences", gold.sentence_start, gold.sentence_end, system.sentence_start,
                                system.sentence_end),
        words=AlignedMetric("words", n_aligned, gold.n_words, system.n_words), **scores,
        gold_source=gold.source, system_source=system.source, gold_empty_nodes=gold.empty_nodes,
        system_empty_nodes=system.empty_nodes, gold_multiword_tokens=gold.multiword_tokens,
        system_multiword_tokens=system.multiword_tokens, multiword_spans=alignment.multiword_spans)


def evaluate_aligned(gold_path: Union[PathLike, ConlluLayers], system_path: Union[PathLike, ConlluLayers]) -> AlignedScores:
    """``conll18_ud_eval.py`` on two CoNLL-U files: read both
    (:func:`~spacy_agreement.adapters.conllu_words.read_conllu_layers`), align their words
    through the characters and score (module docstring). Layers already read are taken as
    they are."""
    gold = gold_path if isinstance(gold_path, ConlluLayers) else read_conllu_layers(gold_path)
    system = system_path if isinstance(system_path, ConlluLayers) else read_conllu_layers(system_path)
    return evaluate_aligned_layers(gold, system)


__all__ = ["AlignedMasks", "AlignedMetric", "AlignedScores", "aligned_masks", "DISPLAY_NAMES", "METRICS", "WordAlignment", "align_words",
           "evaluate_aligned", "evaluate_aligned_layers", "format_conll18_table"]
