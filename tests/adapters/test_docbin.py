"""spaCy DocBin input (issue 16): ``alpha`` and ``report`` read ``.spacy`` files, one per
annotator (each doc's current parse) or one holding several analyses per doc stored by the
``analysis_snapshot`` component, and give what the same analyses give as CoNLL-U."""
import json
import subprocess
import sys

import pytest

spacy = pytest.importorskip("spacy")
from spacy.tokens import Doc, DocBin  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

import spacy_agreement as sa  # noqa: E402
from spacy_agreement.adapters import write_conll  # noqa: E402
from spacy_agreement.adapters.docbin import (load_docbin_analyses, load_docbin_files, looks_like_docbin,  # noqa: E402
                                             sentence_spans)
from spacy_agreement.adapters.files import guess_format, load_annotator_dirs, read_trees  # noqa: E402
from spacy_agreement.adapters.spacy import doc_tree  # noqa: E402
from spacy_agreement.cli import app  # noqa: E402
from spacy_agreement.errors import BadOptionError, InvalidTreeError, MismatchedCorpusError  # noqa: E402
from spacy_agreement.integrations.spacy_components import AnalysisSnapshot, alpha_over_docs  # noqa: E402
from ..helpers import one_line_error


runner = CliRunner()
NLP = spacy.blank("en")

WORDS = [
    ["The", "cat", "saw", "a", "dog", ".", "It", "ran", "away", "."],
    ["Dogs", "bark", "."],
    ["She", "laughed", "loudly", "today", "."],
]
# per annotator, per doc: (absolute heads, labels); every annotator splits doc 1 into the same two sentences
ANALYSES = {
    "A": [([1, 2, 2, 4, 2, 2, 7, 7, 7, 7], ["det", "nsubj", "ROOT", "det", "obj", "punct", "nsubj", "ROOT", "advmod", "punct"]),
          ([1, 1, 1], ["nsubj", "ROOT", "punct"]),
          ([1, 1, 1, 1, 1], ["nsubj", "ROOT", "advmod", "obl", "punct"])],
    "B": [([1, 2, 2, 2, 2, 2, 7, 7, 7, 7], ["det", "nsubj", "ROOT", "det", "dobj", "punct", "nsubj", "ROOT", "obj", "punct"]),
          ([1, 1, 1], ["nsubj", "ROOT", "punct"]),
          ([1, 1, 1, 2, 1], ["nsubj", "ROOT", "advmod", "obl", "punct"])],
    "C": [([1, 2, 2, 4, 2, 2, 7, 7, 6, 7], ["det", "nsubj", "ROOT", "det", "obj", "punct", "nsubj", "ROOT", "advmod", "punct"]),
          ([2, 2, 2], ["dep", "dep", "ROOT"]),
          ([1, 1, 3, 1, 1], ["nsubj", "ROOT", "advmod", "obl", "punct"])],
}


def make_doc(k, name):
    heads, deps = ANALYSES[name][k]
    return Doc(NLP.vocab, words=WORDS[k], heads=heads, deps=deps)


def save(path, docs, user_data=False):
    docbin = DocBin(store_user_data=user_data)
    for doc in docs:
        docbin.add(doc)
    docbin.to_disk(path)
    return path


def conll_of(docs):
    """CoNLL-U of the docs' current parses, one sentence a block (spaCy's doc.sents)."""
    return write_conll(doc_tree(doc, sent.start, sent.end)[0] for doc in docs for sent in doc.sents)


@pytest.fixture
def annotator_files(tmp_path):
    """{name: (.spacy path, .conllu path)} of the same analyses."""
    out = {}
    for name in ANALYSES:
        docs = [make_doc(k, name) for k in range(len(WORDS))]
        conllu = tmp_path / f"{name}.conllu"
        conllu.write_text(conll_of(docs), encoding="utf-8")
        out[name] = (save(tmp_path / f"{name}.spacy", docs), conllu)
    return out


def snapshot_docs(current):
    """Docs whose stored analyses A and B were taken by the analysis_snapshot component and
    whose current parse is annotator ``current``'s."""
    snap_a, snap_b = AnalysisSnapshot(NLP, key="A"), AnalysisSnapshot(NLP, key="B")
    docs = []
    for k in range(len(WORDS)):
        doc_a = snap_a(make_doc(k, "A"))
        doc_b = make_doc(k, "B")
        doc_b._.analyses = dict(doc_a._.analyses)
        doc_b = snap_b(doc_b)
        doc = make_doc(k, current)
        doc._.analyses = dict(doc_b._.analyses)
        docs.append(doc)
    return docs


def alpha_json(*args):
    result = runner.invoke(app, ["alpha", *map(str, args), "--json", "--alpha", "exact"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --------------------------------------------------------------------------- one file per annotator


@pytest.mark.parametrize("names", [("A", "B"), ("A", "B", "C")])
def test_one_docbin_per_annotator_gives_what_conll_gives(annotator_files, names):
    spacy_json = alpha_json(*(annotator_files[n][0] for n in names))
    conll_json = alpha_json(*(annotator_files[n][1] for n in names))
    assert spacy_json == conll_json
    assert spacy_json["annotators"] == len(names) and spacy_json["items"] == 4


def test_docbin_files_are_recognised_by_content_and_read_by_the_registry(annotator_files, tmp_path):
    path, conllu = annotator_files["A"]
    unnamed = tmp_path / "a.bin"
    unnamed.write_bytes(path.read_bytes())
    assert guess_format(path) == "spacy" and guess_format(unnamed) == "spacy" and looks_like_docbin(unnamed)
    assert guess_format(conllu) == "conll" and not looks_like_docbin(conllu)
    trees = read_trees(unnamed)
    assert [t.forms for t in trees] == [t.forms for t in sa.read_conll(conllu)]
    assert [t.heads.tolist() for t in trees] == [t.heads.tolist() for t in sa.read_conll(conllu)]
    assert str(trees[1].location) == f"{unnamed}, doc 1: sentence 2"


def test_sniffing_imports_no_spacy(annotator_files):
    """The package's import time is tested; guessing a format must not import spaCy either."""
    path, conllu = annotator_files["A"]
    code = ("import sys; from spacy_agreement.adapters.files import guess_format; "
            f"print(guess_format({str(path)!r}), guess_format({str(conllu)!r}), 'spacy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["spacy", "conll", "False"]


def test_annotator_dirs_of_docbins(annotator_files, tmp_path):
    for name in ("x", "y"):
        (tmp_path / name).mkdir()
    (tmp_path / "x" / "doc-x.spacy").write_bytes(annotator_files["A"][0].read_bytes())
    (tmp_path / "y" / "doc-y.spacy").write_bytes(annotator_files["B"][0].read_bytes())
    corpus = load_annotator_dirs([tmp_path / "x", tmp_path / "y"])
    assert corpus.annotators == ("x", "y") and len(corpus) == 4
    assert alpha_json("--dirs", tmp_path / "x", tmp_path / "y") == alpha_json(annotator_files["A"][0],
                                                                             annotator_files["B"][0])


def test_an_unparsed_doc_is_a_missing_annotation_counted(annotator_files, tmp_path):
    docs = [make_doc(0, "A"), Doc(NLP.vocab, words=WORDS[1]), make_doc(2, "A")]
    partial = save(tmp_path / "partial.spacy", docs)
    corpus = load_docbin_files([partial, annotator_files["B"][0]])
    assert corpus.names == ["doc 1 sentence 1", "doc 1 sentence 2", "doc 2 sentence 1", "doc 3 sentence 1"]
    assert list(corpus.items[2]) == ["B"]
    assert corpus.read_stats["partial"].failed_parses == 1 and corpus.read_stats["B"].failed_parses == 0
    values = alpha_json(partial, annotator_files["B"][0])
    assert values["failed_parses"] == 1 and values["items_unpairable"] == 1


def test_analyses_that_split_a_doc_differently_share_the_joined_sentence(annotator_files, tmp_path):
    # D attaches "It" to "saw": D splits doc 1 after "It", A before it: no split is common
    heads, deps = ANALYSES["A"][0]
    joined = Doc(NLP.vocab, words=WORDS[0], heads=heads[:6] + [2] + heads[7:], deps=deps)
    d = save(tmp_path / "D.spacy", [joined, make_doc(1, "A"), make_doc(2, "A")])
    assert sentence_spans(10, [heads]) == [(0, 6), (6, 10)]
    assert sentence_spans(10, [heads, joined_heads := [t.head.i for t in joined]]) == [(0, 10)]
    assert sentence_spans(10, [joined_heads]) == [(0, 7), (7, 10)]
    assert [(s.start, s.end) for s in joined.sents] == [(0, 7), (7, 10)]  # spaCy's split too
    corpus = load_docbin_files([annotator_files["A"][0], d])
    assert corpus.names == ["doc 1 sentence 1", "doc 2 sentence 1", "doc 3 sentence 1"]
    first = corpus.items[0]
    assert len(first["A"]) == len(first["D"]) == 10 and first["A"].heads.tolist().count(0) == 2
    # the item has two roots under A: --single-root names the file, the doc and the sentence
    result = runner.invoke(app, ["alpha", str(annotator_files["A"][0]), str(d), "--single-root"])
    one_line_error(result, f"{annotator_files['A'][0]}, doc 1: sentence 1, token 8:", "attach to the root")


# --------------------------------------------------------------------------- one file, several analyses


def test_one_docbin_with_two_snapshots_gives_the_two_files_alpha(annotator_files, tmp_path):
    path = save(tmp_path / "snapshots.spacy", snapshot_docs(current="B"), user_data=True)
    corpus = load_docbin_analyses(path)
    # the current parse is B's, which the snapshot "B" copies in every doc: counted once
    assert corpus.annotators == ("A", "B")
    assert alpha_json(path) == alpha_json(annotator_files["A"][0], annotator_files["B"][0])
    assert load_docbin_analyses(path, include_current=True).annotators == ("A", "B", "current")


def test_the_current_parse_is_an_annotator_when_it_is_its_own(annotator_files, tmp_path):
    docs = snapshot_docs(current="C")
    path = save(tmp_path / "snapshots.spacy", docs, user_data=True)
    assert load_docbin_analyses(path).annotators == ("A", "B", "current")
    values = alpha_json(path)
    assert values == alpha_json(*(annotator_files[n][0] for n in "ABC"))
    assert values["alpha_plain"] == pytest.approx(alpha_over_docs(docs, ["A", "B"]).alpha_plain)
    assert load_docbin_analyses(path, include_current=False).annotators == ("A", "B")


def test_report_of_one_docbin(tmp_path):
    path = save(tmp_path / "snapshots.spacy", snapshot_docs(current="C"), user_data=True)
    page = tmp_path / "out.html"
    result = runner.invoke(app, ["report", str(path), "--html", str(page), "--quiet"])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert 'id="summary"' in html and "doc 1 sentence 1" in html


# --------------------------------------------------------------------------- errors


def test_a_spacy_file_that_is_not_a_docbin(annotator_files, tmp_path):
    bad = tmp_path / "bad.spacy"
    bad.write_text("1\tThe\t_\t_\t_\t_\t0\troot\t_\t_\n", encoding="utf-8")
    one_line_error(runner.invoke(app, ["alpha", str(bad)]), f"{bad}: not a spaCy DocBin")
    one_line_error(runner.invoke(app, ["alpha", str(bad), str(annotator_files["A"][0])]), f"{bad}: not a spaCy DocBin")
    garbage = tmp_path / "garbage.spacy"
    garbage.write_bytes(b"x\x9c" + bytes(range(256)))
    one_line_error(runner.invoke(app, ["report", str(garbage), "--html", str(tmp_path / "r.html")]),
                   f"{garbage}: not a spaCy DocBin")
    with pytest.raises(InvalidTreeError, match="not a spaCy DocBin"):
        read_trees(bad, "spacy")
    empty = save(tmp_path / "empty.spacy", [])
    one_line_error(runner.invoke(app, ["alpha", str(empty)]), f"{empty}: the DocBin holds no docs")


def test_docbins_without_analyses(annotator_files, tmp_path):
    # one file whose docs have a parse but no stored analyses (saved without user data)
    one_line_error(runner.invoke(app, ["alpha", str(annotator_files["A"][0])]),
                   f"{annotator_files['A'][0]}: no analyses stored in doc._.analyses")
    saved_without = save(tmp_path / "nouser.spacy", snapshot_docs(current="C"), user_data=False)
    with pytest.raises(InvalidTreeError, match="store_user_data=True"):
        load_docbin_analyses(saved_without)
    # a file of unparsed docs among the annotators' files
    unparsed = save(tmp_path / "unparsed.spacy", [Doc(NLP.vocab, words=w) for w in WORDS])
    one_line_error(runner.invoke(app, ["alpha", str(annotator_files["A"][0]), str(unparsed)]),
                   f"{unparsed}: no doc has a dependency parse")
    with pytest.raises(InvalidTreeError, match="no doc has a dependency parse"):
        read_trees(unparsed)
    # one stored analysis, which the current parse copies: one annotator
    snap = AnalysisSnapshot(NLP, key="only")
    one = save(tmp_path / "one.spacy", [snap(make_doc(k, "A")) for k in range(3)], user_data=True)
    with pytest.raises(BadOptionError, match="copy of 'only'"):
        load_docbin_analyses(one)
    one_line_error(runner.invoke(app, ["alpha", str(one)]), f"{one}: one analysis ('only'", "at least two")


def test_stored_analyses_are_checked(tmp_path):
    doc = make_doc(1, "A")
    doc._.analyses = {"A": ([1, 1, 1], ("nsubj", "ROOT", "punct")), "B": ([1, 99, 1], ("nsubj", "ROOT", "punct"))}
    path = save(tmp_path / "badheads.spacy", [make_doc(0, "A"), doc], user_data=True)
    with pytest.raises(InvalidTreeError, match=r"doc 2: token 2: stored analysis 'B': head 99"):
        load_docbin_analyses(path)
    doc._.analyses = {"A": ([1, 1], ("nsubj", "ROOT"))}
    path = save(tmp_path / "short.spacy", [doc], user_data=True)
    with pytest.raises(InvalidTreeError, match="2 heads and 2 labels for 3 tokens"):
        load_docbin_analyses(path)


def test_docbins_that_do_not_line_up(annotator_files, tmp_path):
    fewer = save(tmp_path / "fewer.spacy", [make_doc(0, "B"), make_doc(1, "B")])
    one_line_error(runner.invoke(app, ["alpha", str(annotator_files["A"][0]), str(fewer)]), "has 3 docs but",
                   "fewer.spacy has 2")
    other = save(tmp_path / "other.spacy", [make_doc(0, "B"), make_doc(2, "B"), make_doc(1, "B")])
    with pytest.raises(MismatchedCorpusError, match="doc 2 has different numbers of tokens"):
        load_docbin_files([annotator_files["A"][0], other])
    one_line_error(runner.invoke(app, ["alpha", str(annotator_files["A"][0]), str(annotator_files["A"][0])]),
                   "given twice")


def test_evaluate_reads_docbins_as_it_reads_conllu(annotator_files):
    """evaluate takes .spacy files too (any registered format with dependency trees)."""
    def scores(gold, pred):
        with pytest.warns(sa.UndefinedMetricWarning):  # no verb, no content word: UCP, LCP, content LAS
            result = runner.invoke(app, ["evaluate", str(gold), str(pred), "--json"])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    (a_spacy, a_conll), (b_spacy, b_conll) = annotator_files["A"], annotator_files["B"]
    from_conll, from_spacy = scores(a_conll, b_conll), scores(a_spacy, b_spacy)
    for key in ("las", "uas", "la", "ned", "ted", "sentences_scored", "tokens_scored"):
        assert from_spacy[key] == from_conll[key], key
