"""Leaf-ancestor streamed in flat memory (evaluation/constituency/leaf_ancestor_compiled.py) against the pure-Python
reference (``leaf_ancestor_reference``) on generated bracket files, one of many sentences: the same
totals (bit for bit: numpy's pairwise sums, summed back from a temporary file), the same sentences
word by word as they are handed out while scoring, the same per-sentence arrays (``keep_rows``),
worst sentences and skipped sentences; and the CLI's streamed ``--json`` and ``--words`` output
byte for byte what the whole result gives."""
import io
import json

import numpy as np
import pytest
from typer.testing import CliRunner

from spacy_agreement import _lineage
from spacy_agreement.adapters.brackets import read_brackets, trim_trailing_failures
from spacy_agreement.cli import app
from spacy_agreement.cli.leaf_ancestor import corpus_figures, format_result
from spacy_agreement.cli._output import dumps
from spacy_agreement.cli._settings_options import signature_footer, with_signature
from spacy_agreement.evaluation.constituency import leaf_ancestor_compiled as compiled_loops
from spacy_agreement.evaluation.constituency.leaf_ancestor import leaf_ancestor_files, leaf_ancestor_reference
from spacy_agreement.evaluation.settings import LeafAncestorSettings

pytestmark = pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # one-word sentences: GEIG
LABELS = ["S", "NP", "VP", "PP", "NP-SBJ", "ADJP", "SBAR", "X"]
TAGS = ["DT", "NN", "VB", "IN", "JJ", "-NONE-"]
WORDS = ["the", "dog", "saw", "a", "cat", "in", "é", "park", ",", "."]


def random_tree(rng: np.random.Generator, words, penn: bool) -> str:
    """A random bracketing of ``words`` under an S (preterminals above the words with ``penn``)."""
    def build(ws, depth):
        if len(ws) == 1 and depth:
            leaf = f"({rng.choice(TAGS)} {ws[0]})" if penn else ws[0]
            return f"({rng.choice(LABELS)} {leaf})" if rng.random() < 0.2 else leaf
        cuts = sorted(rng.choice(np.arange(1, len(ws)), size=min(len(ws) - 1, int(rng.integers(1, 4))),
                                 replace=False).tolist()) if len(ws) > 1 else []
        parts = [ws[a:b] for a, b in zip([0] + cuts, cuts + [len(ws)])]
        return f"({'S' if not depth else rng.choice(LABELS)} {' '.join(build(p, depth + 1) for p in parts)})"
    return build(list(words), 0)


def write_pair(tmp_path, n: int, seed: int = 0):
    """Gold and candidate files of ``n`` sentences: the same words bracketed twice at random, now
    and then a failed parse (a blank line, ``()``) or a word that differs."""
    rng = np.random.default_rng(seed)
    gold, cand = [], []
    for k in range(n):
        words = rng.choice(WORDS, size=int(rng.integers(1, 25))).tolist()
        penn = bool(rng.random() < 0.7)
        gold.append(random_tree(rng, words, penn))
        roll = rng.random()
        if roll < 0.02:
            cand.append("" if roll < 0.01 else "()")
            continue
        if roll < 0.04:
            words = words[:-1] + ["zzz"]
        cand.append(random_tree(rng, words, penn and rng.random() < 0.9))
    paths = tmp_path / f"g{n}.mrg", tmp_path / f"c{n}.mrg"
    for path, trees in zip(paths, (gold, cand)):
        path.write_text("\n".join(trees) + "\n", encoding="utf-8")
    return paths


def python_files(gold, cand, **options):
    g, c = trim_trailing_failures(read_brackets(gold, "categories", missing=True),
                                  read_brackets(cand, "categories", missing=True))
    return leaf_ancestor_reference(g, c, **options)


class Collect:
    """A sink keeping every sentence handed to it (a test's, not the CLI's)."""

    def __init__(self):
        self.sentences, self.resets = [], 0

    def add(self, sentence):
        self.sentences.append(sentence)

    def reset(self):
        self.sentences, self.resets = [], self.resets + 1


def words_of(sentence):
    return [(w.word, w.score, w.gold_lineage, w.candidate_lineage) for w in sentence.words]


def same_sentences(streamed, reference):
    assert len(streamed) == len(reference)
    for a, b in zip(streamed, reference):
        assert (a.index, a.location, a.brackets) == (b.index, b.location, b.brackets)
        assert words_of(a) == words_of(b)
        assert a.leaf_ancestor == b.leaf_ancestor


@pytest.mark.parametrize("n, batch, spool", [(1, 1024, 1 << 20), (37, 5, 64), (3000, 256, 4096)])
def test_streamed_totals_and_sentences_are_the_reference(tmp_path, monkeypatch, n, batch, spool):
    monkeypatch.setattr(compiled_loops, "BATCH", batch)
    monkeypatch.setattr(compiled_loops, "SPOOL", spool)  # small: the values go through a temporary file
    gold, cand = write_pair(tmp_path, n, seed=n)
    reference = python_files(gold, cand, cost="first-char")
    sink = Collect()
    streamed = leaf_ancestor_files(gold, cand, cost="first-char", keep_worst=4, keep_rows=True, sink=sink)
    assert streamed._store is not None and sink.resets == 0
    # totals, bit for bit
    assert streamed.sentences_scored == len(reference.sentences)
    assert streamed.words_scored == sum(len(s.words) for s in reference.sentences)
    if reference.sentences:
        assert streamed.leaf_ancestor == reference.leaf_ancestor
        assert streamed.leaf_ancestor_words == reference.leaf_ancestor_words
    assert streamed.brackets == reference.brackets
    assert streamed.skipped == reference.skipped and streamed.set_aside == reference.set_aside
    assert streamed.skipped_count == len(reference.skipped)
    assert streamed.to_dict(sentences=False) == reference.to_dict(sentences=False)
    # every sentence as it was scored, and per-sentence arrays
    same_sentences(sink.sentences, reference.sentences)
    fast_rows, slow_rows = streamed.sentence_arrays(), reference.sentence_arrays()
    assert fast_rows.keys() == slow_rows.keys()
    for key in fast_rows:
        assert fast_rows[key].tolist() == slow_rows[key].tolist(), key
    assert [streamed.location(row) for row in range(len(reference.sentences))] == [s.location for s in reference.sentences]
    # worst sentences: from the heap, and beyond it by scoring again
    for k in (3, 4, 9, None):
        count, got = streamed.worst(k)
        want_count, want = reference.worst(k)
        assert count == want_count
        assert [row for row, _ in got] == [row for row, _ in want]
        same_sentences([s for _, s in got], [s for _, s in want])
    assert sorted(streamed.error_configurations(k=None, min_count=1)) == \
           sorted(reference.error_configurations(k=None, min_count=1)) or n > 128  # past 128 words: the last bit


def test_without_sink_or_rows_the_sentences_are_scored_again(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled_loops, "BATCH", 64)
    gold, cand = write_pair(tmp_path, 300, seed=3)
    reference = python_files(gold, cand)
    lean = leaf_ancestor_files(gold, cand, keep_worst=0, keep_skipped=2)
    assert lean._store.rows is None and lean._store.worst == []
    assert lean.skipped == reference.skipped[:2] and lean.skipped_count == len(reference.skipped) and lean.set_aside == {}
    assert lean.to_dict(sentences=False) == reference.to_dict(sentences=False)
    assert lean.worst(5)[0] == reference.worst(5)[0]
    assert [row for row, _ in lean.worst(5)[1]] == [row for row, _ in reference.worst(5)[1]]
    same_sentences(lean.sentences, reference.sentences)
    assert lean.sentence_arrays()["mean"].tolist() == reference.sentence_arrays()["mean"].tolist()


def test_a_file_left_to_the_python_reader_midway_resets_the_sink(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled_loops, "BATCH", 8)
    gold, cand = write_pair(tmp_path, 60, seed=5)
    for path in (gold, cand):  # an escaped bracket in a word: nltk's reader keeps it, the compiled one hands over
        path.write_text(path.read_text(encoding="utf-8") + "(S (NN a\\(b\\)) (NN c))\n", encoding="utf-8")
    sink = Collect()
    streamed = leaf_ancestor_files(gold, cand, sink=sink)
    assert isinstance(streamed._source, compiled_loops.TreeSource) and sink.resets == 1  # the trees read whole, then scored
    reference = python_files(gold, cand)
    assert streamed.to_dict(sentences=False) == reference.to_dict(sentences=False)
    same_sentences(sink.sentences, reference.sentences)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 127, 128, 129, 1000, 4099, 100_003])
def test_pairwise_stream_is_numpys_sum(n):
    values = np.random.default_rng(n).random(n)
    assert _lineage.pairwise_stream(io.BytesIO(values.tobytes()).read, n) == float(np.sum(values))
    total = compiled_loops.PairwiseSum()
    for part in np.array_split(values, 7):
        total.add(part)
    assert total.total() == float(np.sum(values))


@pytest.mark.parametrize("option", ["--json", "--words"])
def test_cli_streamed_output_is_the_whole_results(tmp_path, monkeypatch, option):
    monkeypatch.setattr(compiled_loops, "BATCH", 16)
    gold, cand = write_pair(tmp_path, 200, seed=7)
    reference = python_files(gold, cand)
    signature = LeafAncestorSettings(cost="exact").signature()
    if option == "--json":
        expected = dumps(with_signature(corpus_figures(reference, gold, cand, sentences=True), signature))
    else:
        expected = signature_footer(format_result(reference, gold, cand, 10, words=True), signature)
    result = CliRunner().invoke(app, ["leaf-ancestor", str(gold), str(cand), option])
    assert result.exit_code == 0, result.output
    assert result.stdout == expected + "\n"
    out = tmp_path / "out.txt"
    assert CliRunner().invoke(app, ["leaf-ancestor", str(gold), str(cand), option, "--output", str(out)]).exit_code == 0
    assert out.read_text(encoding="utf-8") == expected + "\n"
    if option == "--json":
        assert len(json.loads(result.stdout)["sentences"]) == len(reference.sentences)
