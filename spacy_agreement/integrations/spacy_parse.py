"""Running a real spaCy pipeline over gold CoNLL-U and scoring it (``spacy-agreement evaluate
--model``), as ``spacy evaluate --gold-preproc`` does on the same data converted with ``spacy
convert``.

Each gold sentence is parsed as one pre-tokenised ``Doc``: the gold words (the syntactic
words, ``de le`` for ``du``, as ``spacy convert`` makes them) with the gold spacing
(:func:`~spacy_agreement.adapters.conllu.trees.space_after`: ``SpaceAfter=No`` in the MISC column, no
space inside a multiword token), so the pipeline sees the text ``spacy evaluate
--gold-preproc`` gives it (``spacy convert`` also puts a space after the last word of every
sentence but the last of each ``-n``-sentence doc; a space after the last word changes no
token). So the tokens always match. The whole doc is read back as one tree: if the pipeline
splits the sentence in two, both roots attach to the artificial root, and they are scored as
they are (as spaCy's scorer does). spaCy names the root relation ``ROOT``: it is read as the
gold scheme's root relation (:func:`root_relation`, ``root`` in UD), so that the parses are
compared with the gold as the saved file is (:func:`write_parses`)."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..adapters.conllu.trees import sentence_text, space_after, surface_tokens
from ..adapters.spacy import doc_tree, token_columns
from ..errors import Location
from ..trees import DependencyTree

#: The relation :func:`write_parses` gives the later roots of a sentence the pipeline split:
#: UD's relation between clauses side by side with no explicit link.
EXTRA_ROOT_RELATION = "parataxis"


def root_relation(gold: Sequence[DependencyTree]) -> str:
    """The gold scheme's root relation: the label most of the gold's tokens attached to the
    root carry (the first seen on a tie; ``root``, UD's, when no token is)."""
    counts = Counter(rel for tree in gold for head, rel in zip(tree.heads.tolist(), tree.deprels) if head == 0)
    return counts.most_common(1)[0][0] if counts else "root"


def gold_doc_words(tree: DependencyTree) -> Dict[str, List[Any]]:
    """``words`` and ``spaces`` of a ``Doc`` over a gold sentence, as ``spacy convert`` builds
    it from CoNLL-U (and ``spacy evaluate --gold-preproc`` gives the pipeline)."""
    return {"words": list(tree.forms), "spaces": space_after(tree)}


def pipeline_name(model: Any) -> Any:
    """How a pipeline is named in messages and results: a loaded pipeline (a
    ``spacy.Language``) by its meta's ``lang_name`` (``en_core_web_sm``), anything else as given."""
    meta = getattr(model, "meta", None)
    if isinstance(meta, dict) and hasattr(model, "pipe_names"):
        return f"{meta.get('lang', 'xx')}_{meta.get('name', 'pipeline')}"
    return model


def load_pipeline(model: Any, note: Optional[Callable[[str], Any]] = None) -> Any:
    """A spaCy pipeline with a parser (``evaluate --model``; spaCy imported only here): ``model``
    a pipeline's name or path, or a pipeline already loaded (``spacy.Language``); ``note``
    hears that it is loading (it can take seconds)."""
    from ..errors import BadOptionError

    if pipeline_name(model) != model:  # a pipeline already loaded (a ``spacy.Language``)
        nlp = model
        model = pipeline_name(model)
    else:
        if note is not None:
            note(f"loading the spaCy pipeline {model} ...")
        import spacy

        try:
            nlp = spacy.load(model)
        except OSError as exc:
            raise BadOptionError(f"{model}: cannot load the spaCy pipeline ({exc})", option="model") from exc
    if "parser" not in nlp.pipe_names and not any(getattr(p, "moves", None) is not None for _, p in nlp.pipeline):
        raise BadOptionError(f"{model}: the pipeline has no parser", option="model")
    return nlp


def parse_with_model(model: str, gold: Sequence[DependencyTree], note: Optional[Callable[[str], Any]] = None,
                     progress: bool = False) -> Tuple[List[DependencyTree], Any, List[Any]]:
    """The gold words parsed by the spaCy pipeline ``model`` (:func:`load_pipeline`,
    :func:`parse_with_pipeline`): the trees, the pipeline and the docs."""
    nlp = load_pipeline(model, note)
    docs: List[Any] = []
    trees = parse_with_pipeline(nlp, gold, progress=progress, docs_out=docs)
    return trees, nlp, docs


def parse_with_pipeline(nlp, gold: Sequence[DependencyTree], batch_size: Optional[int] = None,
                        progress: bool = False, docs_out: Optional[List[Any]] = None) -> List[DependencyTree]:
    """The pipeline's analysis of every gold sentence, as trees over the gold tokens.

    UPOS, lemmas, features and fine tags are the pipeline's where it annotates them, and
    the gold's where it does not (a parser-only pipeline is scored as if given gold tags).
    A token the pipeline attaches to the root labelled ``ROOT`` (any case) gets the gold's
    root relation (:func:`root_relation`). ``batch_size`` defaults to the pipeline's own, as
    ``nlp.evaluate`` uses. ``docs_out`` (a list) receives the parsed docs."""
    from spacy.tokens import Doc  # lazy: import time

    root = root_relation(gold)
    docs = (Doc(nlp.vocab, **gold_doc_words(tree)) for tree in gold)
    iterator = nlp.pipe(docs, batch_size=batch_size)
    if progress:
        from tqdm import tqdm  # lazy: import time

        iterator = tqdm(iterator, total=len(gold), desc="parsing", unit="sent")
    out = []
    for tree, doc in zip(gold, iterator):
        predicted, _ = doc_tree(doc, 0, len(doc), location=Location(f"{tree.location.source} (parsed)",
                                                                     tree.location.sentence), heads_outside="root")
        deprels = tuple(root if head == 0 and rel.lower() == "root" else rel
                        for head, rel in zip(predicted.heads.tolist(), predicted.deprels))
        # same tokens as the gold: keep its token ids; the pipeline's UPOS, lemmas, features and
        # tags where it predicts them (MLAS, BLEX), otherwise the gold's (as if given gold tags)
        out.append(replace(predicted, ids=tree.ids, deprels=deprels, **token_columns(doc, fallback=tree)))
        if docs_out is not None:
            docs_out.append(doc)
    return out


def spacy_convention_scores(nlp, docs: Sequence[Any], gold: Sequence[DependencyTree], options: Any) -> Dict[str, float]:
    """spaCy's own ``dep_las`` and ``dep_uas`` of the parsed ``docs`` against the gold trees:
    what ``spacy evaluate --gold-preproc`` prints for the same pipeline on the gold converted
    with ``spacy convert`` (F over arcs, punctuation left out by each side's own label
    ``punct`` or ``p``, labels lowercased, subtypes kept whatever ``options`` say). The one
    option applied is ``label_map`` of ``options`` (the pipeline's labels in the gold's
    scheme), as the scorer ``spacy_agreement.syntax_scorer.v1`` applies its own. Under
    ``--convention spacy`` the package's own ``las`` and ``uas`` are this F too
    (``attachment="spacy"``, :func:`~spacy_agreement.evaluation.dependency.token_metrics.spacy_attachment_counts`),
    computed from the trees: the two agree to the last printed digit."""
    from spacy.tokens import Doc  # lazy: import time
    from spacy.training import Example

    from .spacy_components import spacy_parser_scores

    examples = []
    for tree, doc in zip(gold, docs):
        heads = [h - 1 if h else k for k, h in enumerate(tree.heads.tolist())]
        reference = Doc(nlp.vocab, **gold_doc_words(tree), heads=heads, deps=list(tree.deprels))
        examples.append(Example(doc, reference))
    lowered = replace(options, label_map={k.lower(): v.lower() for k, v in options.label_map.items()}
                      if options.label_map else None, ignore_subtypes=False)
    scores = spacy_parser_scores(examples, lowered)
    return {"spacy_las": float(scores["dep_las"]), "spacy_uas": float(scores["dep_uas"])}


def one_root(tree: DependencyTree, relation: str = EXTRA_ROOT_RELATION) -> DependencyTree:
    """The tree with one token on the root: every later token attached to the root is
    attached to the first, with ``relation`` (the tree itself when it has one root or none)."""
    heads = tree.heads.tolist()
    roots = [k for k, head in enumerate(heads, start=1) if head == 0]
    if len(roots) < 2:
        return tree
    deprels = list(tree.deprels)
    for k in roots[1:]:
        heads[k - 1] = roots[0]
        deprels[k - 1] = relation
    return DependencyTree.create(heads, deprels, tree.forms, tree.upos, tree.ids, tree.location,
                                 lemmas=tree.lemmas or None, feats=tree.feats or None, xpos=tree.xpos or None,
                                 misc=tree.misc or None, multiword=tree.multiword)


def write_parses(parses: Sequence[DependencyTree], gold: Sequence[DependencyTree],
                 rerooted: Optional[List[str]] = None, extra_root_relation: str = EXTRA_ROOT_RELATION) -> str:
    """CoNLL-U text of the pipeline's parses (``evaluate --model --save-parses``) that
    ``conll18_ud_eval.py`` and this package's strict reader accept.

    Every sentence ends with an empty line (the script requires one at the end of the
    file). Every column the pipeline filled (lemma, UPOS, XPOS, features, head, relation), ``_``
    where a value is unknown; the gold sentence's ``sent_id`` (else its number), its text, its
    multiword token lines (``3-4 du`` over ``de`` and ``le``, so that the characters are the
    gold's) and its ``SpaceAfter=No``. The root relation is the gold scheme's (the parses
    carry it, :func:`parse_with_pipeline`). A sentence the pipeline split (several tokens on
    the root, which the script refuses) is written with one root: the first; each later one
    is attached to it with ``extra_root_relation`` (``parataxis``, UD's relation between
    clauses side by side), and the sentence's id goes to ``rerooted`` (a list) when given.
    Scoring the file therefore differs from the live run (which scores the roots as the
    pipeline put them) on those sentences only."""
    blocks = []
    for number, (tree, reference) in enumerate(zip(parses, gold), start=1):
        sent_id = getattr(reference.location, "sent_id", None) or str(number)
        single = one_root(tree, extra_root_relation)
        if single is not tree and rerooted is not None:
            rerooted.append(sent_id)
        lines = [f"# sent_id = {sent_id}", f"# text = {sentence_text(reference)}"]
        spaces = space_after(reference)
        n = len(single)
        column = lambda values: values if len(values) == n else ("_",) * n  # noqa: E731
        rows = list(zip(single.forms, column(single.lemmas), column(single.upos), column(single.xpos),
                        column(single.feats), single.heads.tolist(), single.deprels))
        for form, first, last in surface_tokens(reference):
            no_space = "_" if spaces[last - 1] else "SpaceAfter=No"
            if last > first:  # a multiword token: its line, then its words
                lines.append("\t".join([f"{first}-{last}", form] + ["_"] * 7 + [no_space]))
            for k in range(first, last + 1):
                word, lemma, upos, xpos, feats, head, deprel = rows[k - 1]
                misc = no_space if last == first else "_"
                cells = [str(k), word, lemma, upos, xpos, feats, str(head), deprel, "_", misc]
                lines.append("\t".join(cell if cell else "_" for cell in cells))
        blocks.append("\n".join(lines) + "\n\n")  # every sentence ends with an empty line, the last too
    return "".join(blocks)


#: Gold sentences given to the pipeline as one text with ``--from-text`` (the pipeline's own
#: sentence boundaries are found inside it; none crosses from one chunk to the next).
TEXT_CHUNK_SENTENCES = 50


def parse_raw_text(nlp, gold: Sequence[DependencyTree], chunk: int = TEXT_CHUNK_SENTENCES,
                   progress: bool = False) -> str:
    """The pipeline's analysis of the gold's raw text, tokenised and split into sentences by
    the pipeline itself (``evaluate --model --from-text``), as CoNLL-U that
    ``conll18_ud_eval.py`` reads, to be scored through its character alignment.

    The text is each gold sentence's (:func:`~spacy_agreement.adapters.conllu.trees.sentence_text`,
    its ``# text``), ``chunk`` sentences joined by a space into one document; the pipeline's
    sentences (``doc.sents``) are the output's. Whitespace tokens (spaCy's ``" "`` and
    ``"\\n"``) are left out (the alignment ignores whitespace): a token headed by one takes
    that token's head. Each sentence has one root (spaCy's sentences do), labelled with the
    gold scheme's root relation (:func:`root_relation`) for spaCy's ``ROOT``. Every column the
    pipeline fills (lemma, UPOS, XPOS, features) is written, ``_`` elsewhere; ``SpaceAfter=No``
    where no space follows a token."""
    root = root_relation(gold)
    texts = [" ".join(sentence_text(tree) for tree in gold[k:k + chunk]) for k in range(0, len(gold), chunk)]
    docs = nlp.pipe(texts)
    if progress:
        from tqdm import tqdm  # lazy: import time

        docs = tqdm(docs, total=len(texts), desc="parsing", unit="docs", leave=False)
    blocks, number = [], 0
    for doc in docs:
        for sent in doc.sents:
            kept = [t for t in sent if not t.is_space]
            if not kept:
                continue
            position = {t.i: k for k, t in enumerate(kept, start=1)}
            number += 1
            lines = [f"# sent_id = {number}", f"# text = {sent.text.strip()}"]
            for k, token in enumerate(kept, start=1):
                head = token.head
                while head.i != head.head.i and head.i not in position:  # past whitespace tokens
                    head = head.head
                head_k = 0 if head.i == token.i or head.i not in position else position[head.i]
                deprel = token.dep_ or "_"
                if head_k == 0:
                    deprel = root if deprel.lower() == "root" or deprel == "_" else deprel
                morph = str(token.morph) or "_"
                misc = "_" if token.whitespace_ else "SpaceAfter=No"
                cells = [str(k), token.text, token.lemma_ or "_", token.pos_ or "_", token.tag_ or "_", morph,
                         str(head_k), deprel, "_", misc]
                lines.append("\t".join(cells))
            roots = [line for line in lines[2:] if line.split("\t")[6] == "0"]
            if len(roots) != 1:  # a parse that is not one tree (a pipeline without a parser)
                lines = _one_root_lines(lines, root)
            blocks.append("\n".join(lines) + "\n\n")
    return "".join(blocks)


def _one_root_lines(lines: List[str], root: str) -> List[str]:
    """CoNLL-U lines of one sentence with exactly one root: the first token on the root
    stays (else the first token becomes it), every other root token is attached to it with
    :data:`EXTRA_ROOT_RELATION`."""
    rows = [line.split("\t") for line in lines[2:]]
    first = next((r for r in rows if r[6] == "0"), rows[0])
    first[6], first[7] = "0", root
    for row in rows:
        if row is not first and row[6] == "0":
            row[6], row[7] = first[0], EXTRA_ROOT_RELATION
    return lines[:2] + ["\t".join(r) for r in rows]
