"""The one input model (issue 49): every public function takes, for each annotator or system, a
path or the objects a spaCy or NLTK user holds (docs, a DocBin, Examples, nltk trees,
DependencyGraphs, the package's trees, a Corpus), and gives the numbers of the same analyses
written to files and given as paths: ``to_dict()`` equal to the path route's, the inputs' own
names and the timings aside. The files of the path route are named as the object route names
its files (``gold.conllu``, ``annotator2.tree``), so even the annotator names agree."""
from __future__ import annotations

import os
import warnings
from pathlib import Path

import conllu
import nltk
import pytest
import spacy
from nltk.parse import DependencyGraph
from spacy.tokens import Doc, DocBin
from spacy.training import Example

import spacy_agreement as sa
from spacy_agreement.adapters import read_brackets, read_conll

DEMO = Path(sa.__file__).parent / "data" / "demo"
ANNA = "".join((DEMO / "dependency" / "anna" / f"{t}-anna.conllu").read_text() for t in ("news", "story"))
BEN = "".join((DEMO / "dependency" / "ben" / f"{t}-ben.conllu").read_text() for t in ("news", "story"))
PHRASE_A = (DEMO / "phrase" / "annotator-a.tree").read_text()
PHRASE_B = (DEMO / "phrase" / "annotator-b.tree").read_text()
#: keys that name the inputs or time the run: they differ between the routes by construction
NAMING = {"gold", "candidate", "test", "system_a", "system_b", "systems", "files", "seconds", "alpha_seconds_taken", "page",
          "bytes"}


def relabelled(text: str, every: int = 4) -> str:
    """``text`` with the label of every ``every``-th word changed: a third analysis, same tokens."""
    out, k = [], 0
    for line in text.splitlines():
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit():
            k += 1
            if k % every == 0:
                cols[7] = "dep" if cols[7] != "dep" else "obl"
        out.append("\t".join(cols))
    return "\n".join(out) + "\n"


CARL = relabelled(ANNA)


def docs_of(text: str) -> list:
    """One spaCy doc per CoNLL-U sentence, with the sentence's words, spaces, UPOS, heads and
    labels, and its ``# sent_id`` in ``user_data``."""
    vocab = spacy.blank("en").vocab
    docs = []
    for sentence in conllu.parse(text):
        words = [t for t in sentence if isinstance(t["id"], int)]
        doc = Doc(vocab, words=[t["form"] for t in words],
                  spaces=[(t["misc"] or {}).get("SpaceAfter") != "No" for t in words],
                  heads=[t["head"] - 1 if t["head"] else i for i, t in enumerate(words)],
                  deps=[t["deprel"] for t in words], pos=[t["upos"] for t in words],
                  sent_starts=[True] + [False] * (len(words) - 1))
        doc.user_data["sent_id"] = sentence.metadata["sent_id"]
        docs.append(doc)
    return docs


def graphs_of(text: str) -> list:
    blocks = ["\n".join(line for line in block.splitlines() if not line.startswith("#"))
              for block in text.strip().split("\n\n")]
    return [DependencyGraph(block, top_relation_label="root") for block in blocks if block]


def nltk_trees(text: str) -> list:
    return [nltk.Tree.fromstring(line) for line in text.splitlines() if line.strip()]


def comparable(value):
    """A ``to_dict()`` with the inputs' names and the timings left out, recursively."""
    if isinstance(value, dict):
        return {k: comparable(v) for k, v in value.items() if k not in NAMING}
    if isinstance(value, list):
        return [comparable(v) for v in value]
    return value


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- the matrix

DEPENDENCY_KINDS = {
    "docs": docs_of,
    "docbin": lambda text: DocBin(docs=docs_of(text)),
    "generator of docs": lambda text: (d for d in docs_of(text)),
}


@pytest.mark.parametrize("kind", sorted(DEPENDENCY_KINDS))
def test_evaluate_takes_docs_as_the_files_give_them(tmp_path, kind):
    by_path = sa.evaluate(write(tmp_path, "gold.conllu", ANNA), write(tmp_path, "system.conllu", BEN))
    make = DEPENDENCY_KINDS[kind]
    by_objects = sa.evaluate(make(ANNA), make(BEN))
    assert comparable(by_objects.to_dict()) == comparable(by_path.to_dict())
    assert by_objects.las == by_path.las and 0 < by_path.las < 1


def test_evaluate_takes_examples_as_gold_and_system(tmp_path):
    by_path = sa.evaluate(write(tmp_path, "gold.conllu", ANNA), write(tmp_path, "system.conllu", BEN))
    examples = [Example(predicted, reference) for reference, predicted in zip(docs_of(ANNA), docs_of(BEN))]
    assert comparable(sa.evaluate(examples).to_dict()) == comparable(by_path.to_dict())


def test_evaluate_takes_graphs_and_package_trees(tmp_path):
    by_path = sa.evaluate(write(tmp_path, "gold.conllu", ANNA), write(tmp_path, "system.conllu", BEN)).to_dict()
    graphs = sa.evaluate(graphs_of(ANNA), graphs_of(BEN)).to_dict()
    assert comparable(graphs)["las"] == by_path["las"] and graphs["uas"] == by_path["uas"]
    gold_trees = read_conll(write(tmp_path, "g2.conllu", ANNA))
    system_trees = read_conll(write(tmp_path, "s2.conllu", BEN))
    assert sa.evaluate(gold_trees, system_trees).las == by_path["las"]


@pytest.mark.parametrize("kind", ["docs", "docbin", "graphs", "trees", "generator of docs"])
@pytest.mark.parametrize("function", ["alpha", "layers"])
def test_agreement_functions_take_each_annotators_objects(tmp_path, kind, function):
    run = getattr(sa, function)
    by_path = run(write(tmp_path, "annotator1.conllu", ANNA), write(tmp_path, "annotator2.conllu", BEN))
    make = {"docs": docs_of, "docbin": lambda t: DocBin(docs=docs_of(t)), "graphs": graphs_of,
            "trees": lambda t: read_conll(write(tmp_path, "x.conllu", t)),
            "generator of docs": lambda t: (d for d in docs_of(t))}[kind]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sa.UndefinedMetricWarning)
        by_objects = run(make(ANNA), make(BEN))
    got, expected = comparable(by_objects.to_dict()), comparable(by_path.to_dict())
    if kind in ("graphs", "trees"):  # the conversion keeps heads, labels, forms and UPOS; not sent_ids or spacing
        for key in ("alpha_plain", "alpha_diff", "alpha_norm", "las", "uas", "la"):
            if key in expected:
                assert got[key] == expected[key], key
        if function == "layers":
            for layer in ("upos", "head", "deprel"):
                assert got["layers"][layer]["alpha"] == expected["layers"][layer]["alpha"]
        return
    if kind == "docbin":  # a DocBin's items are named "doc D sentence S", as the CLI names a .spacy file's
        expected.pop("items_matched_by", None), got.pop("items_matched_by", None)
    assert got == expected


def test_alpha_takes_examples_as_two_annotators(tmp_path):
    by_path = sa.alpha(write(tmp_path, "reference.conllu", ANNA), write(tmp_path, "predicted.conllu", BEN))
    examples = [Example(predicted, reference) for reference, predicted in zip(docs_of(ANNA), docs_of(BEN))]
    assert comparable(sa.alpha(examples).to_dict()) == comparable(by_path.to_dict())


def test_alpha_takes_a_corpus_and_nltk_trees(tmp_path):
    by_path = sa.alpha(write(tmp_path, "annotator1.tree", PHRASE_A), write(tmp_path, "annotator2.tree", PHRASE_B))
    assert comparable(sa.alpha(nltk_trees(PHRASE_A), nltk_trees(PHRASE_B)).to_dict()) == comparable(by_path.to_dict())
    assert sa.alpha(by_path.corpus).alpha_plain == by_path.alpha_plain


def test_compare_takes_docs_for_gold_and_systems(tmp_path):
    options = {"metric": "las", "shuffles": 200, "resamples": 50}
    by_path = sa.compare(write(tmp_path, "gold.conllu", ANNA), write(tmp_path, "system1.conllu", BEN),
                         write(tmp_path, "system2.conllu", CARL), **options)
    by_docs = sa.compare(docs_of(ANNA), docs_of(BEN), docs_of(CARL), **options)
    assert comparable(by_docs.to_dict()) == comparable(by_path.to_dict())


PHRASE_KINDS = {
    "nltk trees": nltk_trees,
    "package trees": lambda text: [t for t in read_brackets_text(text)],
}


def read_brackets_text(text: str) -> list:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "t.tree")
        Path(path).write_text(text)
        return read_brackets(path)


@pytest.mark.parametrize("kind", sorted(PHRASE_KINDS))
def test_evalb_takes_trees(tmp_path, kind):
    by_path = sa.evalb(write(tmp_path, "gold.tree", PHRASE_A), write(tmp_path, "test.tree", PHRASE_B))
    make = PHRASE_KINDS[kind]
    by_objects = sa.evalb(make(PHRASE_A), make(PHRASE_B))
    assert comparable(by_objects.to_dict()) == comparable(by_path.to_dict())


def test_leaf_ancestor_takes_nltk_trees(tmp_path):
    by_path = sa.leaf_ancestor(write(tmp_path, "gold.tree", PHRASE_A), write(tmp_path, "candidate.tree", PHRASE_B))
    by_trees = sa.leaf_ancestor(nltk_trees(PHRASE_A), nltk_trees(PHRASE_B))
    assert comparable(by_trees.to_dict()) == comparable(by_path.to_dict())
    assert str(by_trees) == str(by_path).replace(str(tmp_path), os.path.dirname(by_trees.gold))


def test_a_single_nltk_tree_is_one_sentence(tmp_path):
    first_a, first_b = PHRASE_A.splitlines()[0], PHRASE_B.splitlines()[0]
    one = nltk.Tree.fromstring(first_a), nltk.Tree.fromstring(first_b)
    by_path = sa.evalb(write(tmp_path, "gold.tree", first_a + "\n"), write(tmp_path, "test.tree", first_b + "\n"))
    assert comparable(sa.evalb(*one).to_dict()) == comparable(by_path.to_dict())
    la = sa.leaf_ancestor(*one).to_dict()
    assert la["sentences_scored"] == 1 and la["sentences_skipped"] == 0
    assert sa.score_nltk_trees(*one) == sa.score_nltk_trees([one[0]], [one[1]])


def test_judge_takes_docs(tmp_path):
    by_path = sa.judge(write(tmp_path, "system_a.conllu", ANNA), write(tmp_path, "system_b.conllu", BEN), all=True)
    by_docs = sa.judge(docs_of(ANNA), docs_of(BEN), all=True)
    assert comparable(by_docs.to_dict()) == comparable(by_path.to_dict())


def test_evaluate_takes_a_loaded_pipeline(tmp_path):
    nlp = spacy.blank("en")
    with pytest.raises(sa.BadOptionError, match="no parser"):
        sa.evaluate(write(tmp_path, "gold.conllu", ANNA), model=nlp)


def test_the_temporary_files_are_removed(tmp_path):
    import tempfile

    before = set(os.listdir(tempfile.gettempdir()))
    sa.evaluate(docs_of(ANNA), docs_of(BEN))
    sa.alpha(docs_of(ANNA), docs_of(BEN), method="off")
    sa.evalb(nltk_trees(PHRASE_A), nltk_trees(PHRASE_B))
    left = {n for n in set(os.listdir(tempfile.gettempdir())) - before if n.startswith("spacy-agreement-")}
    assert not left


def test_a_single_doc_is_one_annotators_analyses(tmp_path):
    gold, system = docs_of(ANNA)[0], docs_of(BEN)[0]
    first_a = ANNA.split("\n\n")[0] + "\n\n"
    first_b = BEN.split("\n\n")[0] + "\n\n"
    by_path = sa.evaluate(write(tmp_path, "gold.conllu", first_a), write(tmp_path, "system.conllu", first_b))
    assert comparable(sa.evaluate(gold, system).to_dict()) == comparable(by_path.to_dict())
    span = gold[0:len(gold)]  # a Span: one sentence
    assert sa.evaluate(span, system).las == by_path.las


def test_layers_takes_a_corpus_and_alpha_a_single_tree_pair(tmp_path):
    by_path = sa.layers(write(tmp_path, "annotator1.conllu", ANNA), write(tmp_path, "annotator2.conllu", BEN))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sa.UndefinedMetricWarning)
        again = sa.layers(sa.alpha(write(tmp_path, "a.conllu", ANNA), write(tmp_path, "b.conllu", BEN)).corpus)
    assert again.layers["deprel"].alpha == by_path.layers["deprel"].alpha
    a, b = (nltk.Tree.fromstring(text.splitlines()[0]) for text in (PHRASE_A, PHRASE_B))
    one = sa.alpha(write(tmp_path, "annotator1.tree", PHRASE_A.splitlines()[0] + "\n"),
                   write(tmp_path, "annotator2.tree", PHRASE_B.splitlines()[0] + "\n"))
    assert comparable(sa.alpha(a, b).to_dict()) == comparable(one.to_dict())


def test_unparsed_docs_are_an_error_naming_the_argument_and_doc():
    doc = spacy.blank("en")("Nobody parsed this .")
    with pytest.raises(sa.InvalidTreeError, match=r"system, doc 1: .*no dependency parse"):
        sa.evaluate(docs_of(ANNA)[:1], [doc])


def test_judge_and_compare_take_docbins_and_leaf_ancestor_package_trees(tmp_path):
    by_path = sa.judge(write(tmp_path, "system_a.conllu", ANNA), write(tmp_path, "system_b.conllu", BEN), all=True)
    by_docbin = sa.judge(DocBin(docs=docs_of(ANNA)), DocBin(docs=docs_of(BEN)), all=True)
    assert by_docbin.to_dict()["items"] == by_path.to_dict()["items"]
    options = {"metric": "las", "shuffles": 200, "resamples": 50}
    by_paths = sa.compare(write(tmp_path, "gold.conllu", ANNA), write(tmp_path, "system1.conllu", BEN),
                          write(tmp_path, "system2.conllu", CARL), **options)
    mixed = sa.compare(DocBin(docs=docs_of(ANNA)), docs_of(BEN), write(tmp_path, "c.conllu", CARL), **options)
    assert mixed.values[next(iter(mixed.values))]["las"] == by_paths.values["system1.conllu"]["las"]
    trees_a, trees_b = read_brackets_text(PHRASE_A), read_brackets_text(PHRASE_B)
    by_files = sa.leaf_ancestor(write(tmp_path, "g.tree", PHRASE_A), write(tmp_path, "c.tree", PHRASE_B))
    assert sa.leaf_ancestor(trees_a, trees_b).leaf_ancestor == pytest.approx(by_files.leaf_ancestor)


def test_generators_of_examples_and_of_docs_are_read_once(tmp_path):
    by_path = sa.evaluate(write(tmp_path, "gold.conllu", ANNA), write(tmp_path, "system.conllu", BEN))
    examples = (Example(p, g) for g, p in zip(docs_of(ANNA), docs_of(BEN)))
    assert sa.evaluate(examples).las == by_path.las
    with pytest.raises(sa.BadOptionError, match="either a predicted file or --model"):
        sa.evaluate(d for d in docs_of(ANNA))  # docs alone: no system (not an empty input)
