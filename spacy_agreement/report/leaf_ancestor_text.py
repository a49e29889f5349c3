"""The text of ``spacy-agreement leaf-ancestor`` (and ``str()`` of a
:class:`~spacy_agreement.evaluation.constituency.leaf_ancestor_run.LeafAncestorRun`): which file is gold,
the worst sentences word by word, the corpus scores, what was skipped, GEIG and the gold
configurations with the lowest mean word score."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Tuple

from ..evaluation.constituency.leaf_ancestor import LeafAncestorResult, SentenceResult, format_sentence
from ..evaluation.constituency.leaf_ancestor_run import corpus_figures
from .format import percent
from .text import listed


def worst_sentences(result: LeafAncestorResult, k: Optional[int] = None) -> List[Tuple[int, SentenceResult]]:
    """The sentences below a perfect leaf-ancestor score, lowest first, ties in file order, with
    their 1-based rank among the scored sentences: the first ``k`` (all without ``k``)."""
    return result.worst(k)[1]


def format_result(result: LeafAncestorResult, gold: Path, candidate: Path, worst: int, words: bool = False) -> str:
    """Which file is gold and which candidate; the ``worst`` lowest-scoring sentences word by
    word, lowest first and never a perfect one (every sentence in file order with ``words``);
    then the corpus scores, what was skipped, GEIG and the gold configurations with the lowest
    mean word score. Every shortened list ends with ``... and N more``."""
    blocks = [f"gold: {gold}  candidate: {candidate}"]
    if words:
        blocks += [sentence_block(s, k) for k, s in enumerate(result.sentences, 1)]
    else:
        count, below = result.worst(max(worst, 0))
        shown = [sentence_block(s, k) for k, s in below]
        if count:
            blocks.append(f"the {min(count, max(worst, 0))} sentence(s) with the lowest leaf-ancestor score, "
                          f"lowest first ({count} below 100%; --words: every sentence word by word):")
            blocks += listed(shown + [""] * (count - len(shown)), worst, indent="")
    return "\n\n".join(blocks + [format_summary(result, gold, candidate, worst)])


def sentence_block(sentence: SentenceResult, k: int) -> str:
    """A sentence word by word under its location (``sentence k`` without one)."""
    return f"{sentence.location or f'sentence {k}'}\n{format_sentence(sentence)}"


def format_summary(result: LeafAncestorResult, gold: Path, candidate: Path, worst: int) -> str:
    """The corpus scores, what was skipped (the first ``worst``), GEIG and the gold
    configurations with the lowest mean word score (the first ``worst``)."""
    figures = corpus_figures(result, gold, candidate)
    summary = [f"corpus: leaf-ancestor {percent(figures['leaf_ancestor'], sign=True)} (mean over sentences), "
               f"{percent(figures['leaf_ancestor_words'], sign=True)} (mean over words); "
               f"{figures['sentences_scored']} sentences and {figures['words_scored']} words scored, "
               f"{figures['sentences_skipped']} sentences skipped"]
    if result.skipped_count:
        summary.append(f"skipped {result.skipped_count} sentence(s): failed parses, or words that differ:")
        summary.extend(listed(result.skipped + [""] * (result.skipped_count - len(result.skipped)), worst))
    if result.brackets is not None:
        summary.append(f"GEIG unlabelled F {percent(figures['geig_unlabelled'], sign=True)}, "
                       f"labelled F {percent(figures['geig_labelled'], sign=True)} "
                       f"({figures['error_sentences']} error sentences, {figures['skip_sentences']} skipped, "
                       "as EVALB counts them)")
    rows = result.error_configurations(k=None)
    if rows:
        summary.append("gold configurations with the lowest mean word score (%):")
        summary.extend(listed([f"{percent(score, width=6)}  {count:4d}x  {feature}" for feature, count, score in rows], worst))
    return "\n".join(summary)


__all__ = ["format_result", "format_summary", "sentence_block", "worst_sentences"]
