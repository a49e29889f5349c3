"""Running a real spaCy pipeline over gold CoNLL-U and scoring it (``spacy-agreement evaluate
--model``). Each gold sentence is parsed as one pre-tokenised ``Doc`` (the gold words, so the
tokens always match), and the whole doc is read back as one tree: if the pipeline splits the
sentence in two, both roots attach to the artificial root."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, List, Optional, Sequence

from ..adapters.spacy import doc_tree, token_columns
from ..errors import Location
from ..trees import DependencyTree


def parse_with_pipeline(nlp, gold: Sequence[DependencyTree], batch_size: int = 64,
                        progress: bool = False, docs_out: Optional[List[Any]] = None) -> List[DependencyTree]:
    """The pipeline's analysis of every gold sentence, as trees over the gold tokens.

    UPOS, lemmas, features and fine tags are the pipeline's where it annotates them, and
    the gold's where it does not (a parser-only pipeline is scored as if given gold tags).
    ``docs_out`` (a list) receives the parsed docs."""
    from spacy.tokens import Doc  # lazy: import time

    docs = (Doc(nlp.vocab, words=list(tree.forms)) for tree in gold)
    iterator = nlp.pipe(docs, batch_size=batch_size)
    if progress:
        from tqdm import tqdm  # lazy: import time

        iterator = tqdm(iterator, total=len(gold), desc="parsing", unit="sent")
    out = []
    for tree, doc in zip(gold, iterator):
        predicted, _ = doc_tree(doc, 0, len(doc), location=Location(f"{tree.location.source} (parsed)",
                                                                     tree.location.sentence), heads_outside="root")
        # same tokens as the gold: keep its token ids; the pipeline's UPOS, lemmas, features and
        # tags where it predicts them (MLAS, BLEX), otherwise the gold's (as if given gold tags)
        out.append(replace(predicted, ids=tree.ids, **token_columns(doc, fallback=tree)))
        if docs_out is not None:
            docs_out.append(doc)
    return out


def spacy_convention_scores(nlp, docs: Sequence[Any], gold: Sequence[DependencyTree], options: Any) -> Dict[str, float]:
    """spaCy's own ``dep_las`` and ``dep_uas`` of the parsed ``docs`` against the gold trees,
    as ``spacy evaluate`` computes them with our scorer (F over arcs, punctuation left out by
    each side's own label, labels lowercased, ``label_map``/``ignore_subtypes`` of
    ``options`` applied): the figures to compare with spaCy's table."""
    from spacy.tokens import Doc  # lazy: import time
    from spacy.training import Example

    from .spacy_components import spacy_parser_scores

    examples = []
    for tree, doc in zip(gold, docs):
        heads = [h - 1 if h else k for k, h in enumerate(tree.heads.tolist())]
        reference = Doc(nlp.vocab, words=list(tree.forms), heads=heads, deps=list(tree.deprels))
        examples.append(Example(doc, reference))
    lowered = replace(options, label_map={k.lower(): v.lower() for k, v in options.label_map.items()}
                      if options.label_map else None)
    scores = spacy_parser_scores(examples, lowered)
    return {"spacy_las": float(scores["dep_las"]), "spacy_uas": float(scores["dep_uas"])}


def write_parses(parses: Sequence[DependencyTree], gold: Sequence[DependencyTree]) -> str:
    """CoNLL-U text of the pipeline's parses (``evaluate --model --save-parses``): every
    column the pipeline filled (lemma, UPOS, XPOS, features, head, relation), ``_`` where a
    value is unknown, and the gold sentence's ``sent_id`` where it had one, so that the file
    can be scored again (``evaluate gold.conllu parses.conllu``) or read by other tools."""
    blocks = []
    for number, (tree, reference) in enumerate(zip(parses, gold), start=1):
        sent_id = getattr(reference.location, "sent_id", None) or str(number)
        lines = [f"# sent_id = {sent_id}", f"# text = {' '.join(tree.forms)}"]
        n = len(tree)
        column = lambda values: values if len(values) == n else ("_",) * n  # noqa: E731
        for k, (form, lemma, upos, xpos, feats, head, deprel) in enumerate(zip(
                tree.forms, column(tree.lemmas), column(tree.upos), column(tree.xpos), column(tree.feats),
                tree.heads.tolist(), tree.deprels), start=1):
            cells = [str(k), form, lemma, upos, xpos, feats, str(head), deprel, "_", "_"]
            lines.append("\t".join(cell if cell else "_" for cell in cells))
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)
