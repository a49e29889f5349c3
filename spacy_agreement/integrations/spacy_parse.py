"""Running a real spaCy pipeline over gold CoNLL-U and scoring it (``spacy-agreement evaluate
--model``). Each gold sentence is parsed as one pre-tokenised ``Doc`` (the gold words, so the
tokens always match), and the whole doc is read back as one tree: if the pipeline splits the
sentence in two, both roots attach to the artificial root."""
from __future__ import annotations

from dataclasses import replace
from typing import List, Sequence

from ..trees import DependencyTree


def parse_with_pipeline(nlp, gold: Sequence[DependencyTree], batch_size: int = 64,
                        progress: bool = False) -> List[DependencyTree]:
    """The pipeline's analysis of every gold sentence, as trees over the gold tokens.

    UPOS, lemmas, features and fine tags are the pipeline's where it annotates them, and
    the gold's where it does not (a parser-only pipeline is scored as if given gold tags)."""
    from spacy.tokens import Doc

    from ..adapters.spacy import token_columns
    from .spacy_components import doc_analysis, tree_of

    docs = (Doc(nlp.vocab, words=list(tree.forms)) for tree in gold)
    iterator = nlp.pipe(docs, batch_size=batch_size)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, total=len(gold), desc="parsing", unit="sent")
    out = []
    for tree, doc in zip(gold, iterator):
        heads, deps = doc_analysis(doc)
        predicted, _ = tree_of(doc, 0, len(doc), heads, deps, name=f"{tree.location.source} (parsed)",
                               number=tree.location.sentence)
        # same tokens as the gold: keep its token ids; the pipeline's UPOS, lemmas, features and
        # tags where it predicts them (MLAS, BLEX), otherwise the gold's (as if given gold tags)
        out.append(replace(predicted, ids=tree.ids, **token_columns(doc, fallback=tree)))
    return out
