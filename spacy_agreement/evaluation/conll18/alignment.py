"""The CoNLL 2018 shared task's evaluation over different tokenisations: words aligned through
the characters of the text, and the thirteen scores of ``conll18_ud_eval.py``.

Zeman et al. (2018), "CoNLL 2018 Shared Task: Multilingual Parsing from Raw Text to Universal
Dependencies", the section on evaluation metrics, and the shared task's script ``conll18_ud_eval.py``
(version 1.2), whose numbers these are to the last printed digit (tests/data/conll18/ holds its
verbatim output on every fixture pair; ``format_conll18_table`` prints the same text).

**Alignment.** Gold and system files are read as columns
(:mod:`spacy_agreement.adapters.conllu.column_reader`): the whitespace-free characters of all tokens,
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

**Modules.** The alignment is :mod:`.word_alignment`, the word-by-word flags and their sums
:mod:`.masks`, the results and the table :mod:`.scores`; this module re-exports their names and
scores one pair of files (:func:`evaluate_aligned_layers`). The family's accumulator,
:class:`~.accumulator.AlignedEvaluator`, sums pairs of files or pieces and keeps their counts per
gold sentence (:meth:`AlignedScores.statistics`).
"""
from __future__ import annotations

from typing import Optional, Union

from ...adapters.conllu.column_reader import ConlluColumns, PathLike, read_conllu_columns
from .masks import AlignedMasks, aligned_masks, count_scores
from .scores import DISPLAY_NAMES, METRICS, AlignedMetric, AlignedScores, format_conll18_table
from .word_alignment import WordAlignment, align_words


def evaluate_aligned_layers(gold: ConlluColumns, system: ConlluColumns,
                            alignment: Optional[WordAlignment] = None) -> AlignedScores:
    """The thirteen scores of ``conll18_ud_eval.py`` for two files already read
    (:func:`~spacy_agreement.adapters.conllu.column_reader.read_conllu_columns`); ``alignment`` when
    the caller has it (:func:`align_words`). The counts of the files alone: their counts per
    gold sentence as well (:meth:`AlignedScores.statistics`) are kept by
    :class:`~.accumulator.AlignedEvaluator`, which sums these over pairs of files or pieces."""
    alignment = alignment if alignment is not None else align_words(gold, system)
    return count_scores(gold, system, alignment, aligned_masks(gold, system, alignment))


def evaluate_aligned(gold_path: Union[PathLike, ConlluColumns], system_path: Union[PathLike, ConlluColumns]) -> AlignedScores:
    """``conll18_ud_eval.py`` on two CoNLL-U files: read both
    (:func:`~spacy_agreement.adapters.conllu.column_reader.read_conllu_columns`), align their words
    through the characters and score (module docstring). Columns already read are taken as
    they are."""
    gold = gold_path if isinstance(gold_path, ConlluColumns) else read_conllu_columns(gold_path)
    system = system_path if isinstance(system_path, ConlluColumns) else read_conllu_columns(system_path)
    return evaluate_aligned_layers(gold, system)


__all__ = ["AlignedMasks", "AlignedMetric", "AlignedScores", "aligned_masks", "DISPLAY_NAMES", "METRICS", "WordAlignment", "align_words",
           "evaluate_aligned", "evaluate_aligned_layers", "format_conll18_table"]
