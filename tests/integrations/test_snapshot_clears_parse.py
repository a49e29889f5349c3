"""Issue 27: the README's recipe (``analysis_snapshot`` before the parser, gold docs through the
pipeline) must measure the parser on the words alone. spaCy's parser keeps the head of every
token it leaves unattached and the sentence boundaries the doc has, so a gold doc parsed as it
is comes out as a mixture of both analyses, with head cycles. The snapshot clears the parse
(``clear = true``); ``syntax_agreement`` and the scorer report head cycles."""
import random
import re
import subprocess
import sys
import warnings
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

spacy = pytest.importorskip("spacy")
from spacy.attrs import DEP, HEAD, SENT_START  # noqa: E402
from spacy.tokens import Doc  # noqa: E402
from spacy.training import Example  # noqa: E402

import spacy_agreement as sa  # noqa: E402
from spacy_agreement.adapters.spacy import doc_analysis, doc_tree, from_doc, head_cycle_tokens  # noqa: E402
from spacy_agreement.integrations.spacy_components import (HeadCycleWarning, ParseLeakWarning,  # noqa: E402
                                                            clear_parse, score_syntax)

ROOT = Path(__file__).resolve().parents[2]


def demo_trees():
    base = resources.files("spacy_agreement") / "data" / "demo" / "dependency" / "anna"
    with resources.as_file(base) as folder:
        return [t for path in sorted(folder.glob("*.conllu")) for t in sa.read_conll(path)]


def doc_of(vocab, tree):
    heads = [i if h == 0 else h - 1 for i, h in enumerate(tree.heads.tolist())]
    deps = ["ROOT" if h == 0 else d for h, d in zip(tree.heads.tolist(), tree.deprels)]
    return Doc(vocab, words=list(tree.forms), heads=heads, deps=deps, pos=list(tree.upos))


@pytest.fixture(scope="module")
def parser_nlp():
    """A real spaCy parser trained briefly on the demo sentences: weak, so that it leaves
    tokens unattached, which is where a parse left on the doc leaks into its output."""
    random.seed(0)
    spacy.util.fix_random_seed(0)
    trees = demo_trees()
    nlp = spacy.blank("en")
    nlp.add_pipe("parser", config={"min_action_freq": 1})  # a tiny training set: keep every action
    examples = [Example(Doc(nlp.vocab, words=list(t.forms)), doc_of(nlp.vocab, t)) for t in trees]
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(5):
        random.shuffle(examples)
        nlp.update(examples, sgd=optimizer, drop=0.0)
    return nlp


def gold_docs(vocab):
    """Gold docs as a DocBin holds them: heads, relations, sentence boundaries from the heads;
    docs of two sentences (as ``spacy convert`` groups them) and of one."""
    trees = demo_trees()
    pairs = [Doc.from_docs([doc_of(vocab, a), doc_of(vocab, b)]) for a, b in zip(trees[::2], trees[1::2])]
    return pairs + [doc_of(vocab, t) for t in trees]


def words_only(vocab, doc):
    return Doc(vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc])


def recipe(parser_nlp, **snapshot_config):
    """The README's recipe on a copy of the trained pipeline."""
    nlp = spacy.blank("en", vocab=parser_nlp.vocab)
    nlp.add_pipe("parser", source=parser_nlp)
    nlp.add_pipe("analysis_snapshot", before="parser", config={"key": "gold", **snapshot_config})
    nlp.add_pipe("syntax_agreement", config={"compare_with": ["gold"]})
    return nlp


def parse(doc):
    return [(t.head.i, t.dep_) for t in doc]


def in_cycles(doc) -> int:
    """Tokens in head cycles, sentence by sentence, through the package's converter."""
    return sum(int(doc_tree(doc, s.start, s.end, heads_outside="root")[0].unreachable_tokens().size)
               for s in doc.sents)


def test_the_documented_recipe_parses_the_words_alone(parser_nlp):
    nlp = recipe(parser_nlp)
    golds = gold_docs(nlp.vocab)
    gold_parses = [parse(doc) for doc in golds]
    with warnings.catch_warnings():
        warnings.simplefilter("error", HeadCycleWarning)
        warnings.simplefilter("error", ParseLeakWarning)
        docs = list(nlp.pipe(golds))
    with nlp.select_pipes(enable=["parser"]):
        fresh = list(nlp.pipe([words_only(nlp.vocab, doc) for doc in golds]))
    assert sum(len(doc) for doc in docs) == 102
    for doc, alone, gold in zip(docs, fresh, gold_parses):
        assert all(tree.unreachable_tokens().size == 0 for tree in from_doc(doc))  # no head cycle
        assert head_cycle_tokens(doc_analysis(doc)[0]).size == 0
        assert parse(doc) == parse(alone)  # no stored head leaked into the parse
        assert [s.start for s in doc.sents] == [s.start for s in alone.sents]  # nor the gold sentences
        heads, labels = doc._.analyses["gold"]  # the gold analysis is the one stored
        assert list(zip(heads.tolist(), labels)) == gold
        assert doc._.agreement["gold"]["tokens_in_cycles"] == 0
    assert nlp.get_pipe("analysis_snapshot").cleared_docs == len(golds)
    assert nlp.get_pipe("syntax_agreement").tokens_in_cycles == 0


def test_the_snapshot_clears_heads_relations_and_sentences(parser_nlp):
    nlp = recipe(parser_nlp)
    doc = gold_docs(nlp.vocab)[0]
    assert doc.has_annotation("DEP") and len(list(doc.sents)) == 2
    tags = [t.pos_ for t in doc]
    doc = nlp.get_pipe("analysis_snapshot")(doc)
    assert not doc.has_annotation("DEP") and not doc.has_annotation("SENT_START")
    assert all(t.head.i == t.i and t.dep_ == "" and not list(t.children) for t in doc)
    assert all(t.left_edge.i == t.right_edge.i == t.i for t in doc)
    # the same arrays as a doc made from the words
    attrs = [HEAD, DEP, SENT_START]
    assert np.array_equal(doc.to_array(attrs), words_only(nlp.vocab, doc).to_array(attrs))
    assert [t.pos_ for t in doc] == tags and "gold" in doc._.analyses  # the rest is kept
    assert len(clear_parse(Doc(nlp.vocab, words=[]))) == 0


def test_clear_false_keeps_the_heads_and_warns_once_where_a_parser_follows(parser_nlp):
    nlp = recipe(parser_nlp, clear=False)
    golds = gold_docs(nlp.vocab)
    with pytest.warns(ParseLeakWarning):  # a parser follows a snapshot that does not clear
        kept = nlp.get_pipe("analysis_snapshot")(golds[0])
    assert kept.has_annotation("DEP") and len(list(kept.sents)) == 2
    assert parse(kept) == list(zip(kept._.analyses["gold"][0].tolist(), kept._.analyses["gold"][1]))
    nlp = recipe(parser_nlp, clear=False)
    with pytest.warns((ParseLeakWarning, HeadCycleWarning)) as record:
        docs = list(nlp.pipe(gold_docs(nlp.vocab)))
    leaks = [w for w in record if w.category is ParseLeakWarning]
    assert len(leaks) == 1 and "\n" not in str(leaks[0].message) and "'parser'" in str(leaks[0].message)
    # the old behaviour, and what it did: heads the parser kept make cycles, now counted and warned
    cycles = [w for w in record if w.category is HeadCycleWarning]
    total = sum(in_cycles(doc) for doc in docs)
    assert total > 0 and len(cycles) == 1 and "\n" not in str(cycles[0].message)
    assert nlp.get_pipe("syntax_agreement").tokens_in_cycles == total
    assert nlp.get_pipe("analysis_snapshot").cleared_docs == 0


def test_a_snapshot_no_parser_follows_leaves_the_doc(parser_nlp):
    nlp = spacy.blank("en", vocab=parser_nlp.vocab)
    nlp.add_pipe("parser", source=parser_nlp)
    nlp.add_pipe("analysis_snapshot", config={"key": "parser"})  # after the parser: the default keeps it
    nlp.add_pipe("syntax_agreement", config={"compare_with": ["parser"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        doc = nlp(words_only(nlp.vocab, gold_docs(nlp.vocab)[0]))
    assert doc.has_annotation("DEP") and doc._.agreement["parser"]["las"] == 1.0
    assert nlp.get_pipe("analysis_snapshot").cleared_docs == 0
    # the snapshot that a parser follows clears; a disabled parser does not count
    nlp.add_pipe("analysis_snapshot", name="before", before="parser", config={"key": "gold"})
    assert nlp.get_pipe("before").parsers_after() == ["parser"]
    with nlp.select_pipes(disable=["parser"]):
        assert nlp.get_pipe("before").parsers_after() == []


def cyclic_doc(vocab):
    """'a' and 'b' each other's head, 'c' below them: three tokens reach no root."""
    doc = Doc(vocab, words=["a", "b", "c", "d"], heads=[1, 0, 1, 3], deps=["dep", "dep", "dep", "ROOT"])
    doc._.analyses = {"gold": (np.array([3, 3, 3, 3], dtype=np.int32), ("dep", "dep", "dep", "ROOT"))}
    return doc


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # no POS: UCP, LCP undefined
def test_head_cycles_in_the_current_parse_are_counted_and_warned_once():
    nlp = spacy.blank("en")
    nlp.add_pipe("syntax_agreement", config={"compare_with": ["gold"]})
    component = nlp.get_pipe("syntax_agreement")
    with pytest.warns(HeadCycleWarning, match=r"syntax_agreement: 3 token\(s\)") as record:
        docs = [component(cyclic_doc(nlp.vocab)), component(cyclic_doc(nlp.vocab))]
    assert len([w for w in record if w.category is HeadCycleWarning]) == 1
    assert component.tokens_in_cycles == 6 and component.docs_with_cycles == 2
    assert docs[0]._.agreement["gold"]["tokens_in_cycles"] == 3  # in the current analysis, none in the stored
    assert head_cycle_tokens(doc_analysis(docs[0])[0]).tolist() == [0, 1, 2]
    ref = Doc(nlp.vocab, words=["a", "b", "c", "d"], heads=[3, 3, 3, 3], deps=["dep", "dep", "dep", "ROOT"])
    with pytest.warns(HeadCycleWarning, match=r"^3 predicted token\(s\) of 1 of 2 example") as record:
        scores = score_syntax([Example(cyclic_doc(nlp.vocab), ref), Example(ref, ref)])
    assert len([w for w in record if w.category is HeadCycleWarning]) == 1
    assert scores["dep_tokens_in_cycles"] == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error", HeadCycleWarning)
        assert score_syntax([Example(ref, ref)])["dep_tokens_in_cycles"] == 0


def test_head_cycle_tokens_agrees_with_the_trees():
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(1, 30))
        heads = rng.integers(0, n, size=n)
        heads[rng.random(n) < 0.2] = -1
        heads = np.where(heads < 0, np.arange(n), heads)
        tree = sa.DependencyTree.create([0 if h == i else h + 1 for i, h in enumerate(heads.tolist())], ["x"] * n)
        assert head_cycle_tokens(heads).tolist() == (tree.unreachable_tokens() - 1).tolist()
    assert head_cycle_tokens([]).size == 0


def readme_spacy_block() -> str:
    """The documented recipe: the first python block of the spaCy users' guide."""
    text = (ROOT / "docs" / "guides" / "spacy.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)
    return next((b for b in blocks if "analysis_snapshot" in b), blocks[0])  # the pipeline's example


@pytest.mark.slow
def test_the_readme_spacy_example_prints_numbers_without_warnings(tmp_path):
    code = readme_spacy_block()
    assert 'before="parser"' in code
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "nan" not in done.stdout and "Warning" not in done.stderr, done.stdout + done.stderr
    assert "'las':" in done.stdout and "'plain':" in done.stdout
