"""Pairwise LAS, UAS and LA of two annotators counted from the scanner's codes, all items at once
(``accuracy._scanned_attachment``, issue 50), against the item-by-item count (``_pairwise``) on
random files: the same result to the last bit, and the per-item count wherever the codes cannot
serve (an item one annotator lacks, tokens not annotated, other words, three annotators)."""
import pytest

from spacy_agreement.agreement import accuracy
from spacy_agreement.agreement.inputs import read_inputs

from ..random_conllu import names, random_annotations


def both_ways(corpus, label=None, monkeypatch=None):
    fast = accuracy._scanned_attachment(corpus, label)
    monkeypatch.setattr(accuracy, "_scanned_attachment", lambda *args: None)
    slow = accuracy.pairwise_attachment(corpus, label=label)
    monkeypatch.undo()
    return fast, slow, accuracy.pairwise_attachment(corpus, label=label)


def same(x, y):
    assert x.to_dict() == y.to_dict()
    assert [v.hex() for v in x.scores.values()] == [v.hex() for v in y.scores.values()]
    assert x.mismatched == y.mismatched and x.mismatched_scored == y.mismatched_scored


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("label", [None, str, lambda r: r.split(":")[0]])
def test_codes_count_as_the_items_do(tmp_path, monkeypatch, seed, label):
    paths = random_annotations(tmp_path, seed, sentences=20 + 15 * seed, rate=0.05 + 0.1 * (seed % 4),
                               unannotated=False)
    if seed % 2:  # the root relation written otherwise: folded by default, not by str
        text = paths[1].read_text(encoding="utf-8").replace("\troot\t", "\tROOT\t")
        paths[1].write_text(text, encoding="utf-8")
    fast, slow, used = both_ways(read_inputs(names(paths)), label, monkeypatch)
    assert fast is not None  # the codes served
    same(fast, slow)
    same(used, slow)


@pytest.mark.parametrize("case", ["missing", "unannotated", "words", "three"])
def test_the_items_count_where_the_codes_cannot(tmp_path, monkeypatch, case):
    paths = random_annotations(tmp_path, 3, annotators=3 if case == "three" else 2, sentences=30,
                               missing=0.3 if case == "missing" else 0.0, unannotated=case == "unannotated")
    if case == "words":
        text = paths[1].read_text(encoding="utf-8").split("\n")
        text[1] = "\t".join(["1", "other"] + text[1].split("\t")[2:])  # the first word of the first sentence
        paths[1].write_text("\n".join(text), encoding="utf-8")
    corpus = read_inputs(names(paths))
    fast, slow, used = both_ways(corpus, None, monkeypatch)
    assert fast is None
    same(used, slow)


def long_sentences(folder, seed, sentences=300):
    """Two annotators of long sentences (20 to 60 words): there ``length · (count / length)`` is not
    always the count (41 · (7 / 41) is not 7), so the order of the sums shows in the last bits."""
    import random

    rng = random.Random(seed)
    texts = ["", ""]
    for s in range(sentences):
        n = rng.randrange(20, 61)
        heads = [0] + [rng.randrange(0, k) for k in range(1, n)]
        rels = [rng.choice(("nsubj", "obj", "obl", "det")) for _ in range(n)]
        for a in range(2):
            rows = []
            for k in range(n):
                head, rel = heads[k], rels[k]
                if a and rng.random() < 0.3:
                    rel = rng.choice(("nsubj", "obj", "obl", "det"))
                if a and k and rng.random() < 0.1:
                    head = rng.randrange(0, k)
                rows.append(f"{k + 1}\tw{k}\t_\tX\t_\t_\t{head}\t{'root' if head == 0 else rel}\t_\t_\n")
            texts[a] += f"# sent_id = s{s}\n" + "".join(rows) + "\n"
    paths = [folder / "a.conllu", folder / "b.conllu"]
    for path, text in zip(paths, texts):
        path.write_text(text, encoding="utf-8")
    return paths


@pytest.mark.parametrize("seed", range(3))
def test_the_sums_in_the_items_order(tmp_path, monkeypatch, seed):
    fast, slow, _ = both_ways(read_inputs(names(long_sentences(tmp_path, seed))), None, monkeypatch)
    assert fast is not None
    same(fast, slow)
