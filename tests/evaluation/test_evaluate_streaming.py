"""``evaluate`` in flat memory: gold and prediction read in step, a block of sentences at a
time (spacy_agreement.evaluation.dependency.streaming, .aligned_stream). The streamed figures must be
the whole-file figures exactly, whatever the block size (1, 2, 7 sentences, or all), and a
simple count written here; messages must name the sentence by its number in the file, also
in a late block."""
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_agreement.adapters.conllu.trees import read_conll
from spacy_agreement.adapters.conllu.column_reader import parse_conllu_columns
from spacy_agreement.cli import app
from spacy_agreement.cli.evaluate import evaluate_streamed
from spacy_agreement.cli._output import Output
from spacy_agreement.errors import BadOptionError
from spacy_agreement.evaluation.conll18.alignment import evaluate_aligned, evaluate_aligned_layers
from spacy_agreement.evaluation.conll18.streaming import AlignedStream, Beside, evaluate_aligned_streamed
from spacy_agreement.evaluation.dependency.column_evaluation import SentenceCount
from spacy_agreement.evaluation.dependency.settings import EvaluationSettings
from spacy_agreement.evaluation.dependency.metrics import EvaluationResult, evaluate, get_metric, metric_names
from spacy_agreement.evaluation.dependency.streaming import ScanStream, TokensDiffer, evaluate_identical

DATA = Path(__file__).resolve().parents[1] / "data" / "conll18"
BLOCKS = (1, 2, 7, 10 ** 6)
LABELS = ("nsubj", "obj", "det", "case", "punct", "nmod:poss", "advmod", "aux", "cop", "mark", "obl:tmod", "amod")
UPOS = ("NOUN", "VERB", "DET", "ADP", "PUNCT", "PRON", "ADJ", "AUX")
runner = CliRunner()


# ------------------------------------------------------------------------------- generated corpora

def random_tree(rng, n):
    """Heads of a tree over words 1..n (one root, no cycle)."""
    order = list(range(1, n + 1))
    rng.shuffle(order)
    heads = [0] * (n + 1)
    for k, word in enumerate(order[1:], 1):
        heads[word] = order[rng.randrange(k)]
    return heads[1:]


def corpus(seed, n_sentences=23):
    """Sentences as dicts: words (form, lemma, upos, feats, head, deprel), multiword ranges
    ``(first, last, form)`` and a sent_id."""
    rng = random.Random(seed)
    sentences = []
    for s in range(n_sentences):
        n = rng.randint(1, 9)
        heads = random_tree(rng, n)
        words = []
        for k in range(n):
            form = rng.choice("abcdefgh") + rng.choice(("", "x", "yz"))
            deprel = "root" if heads[k] == 0 else rng.choice(LABELS)
            feats = rng.choice(("_", "Number=Sing", "Case=Nom|Number=Plur"))
            words.append([form, form.upper() if rng.random() < 0.2 else form, rng.choice(UPOS), feats, heads[k], deprel])
        ranges = []
        if n >= 3 and rng.random() < 0.3:
            first = rng.randint(1, n - 1)
            ranges.append((first, first + 1, words[first - 1][0] + words[first][0]))
        sentences.append({"id": f"s{s + 1}", "words": words, "ranges": ranges})
    return sentences


def perturbed(sentences, seed, retokenise=False):
    """A system: heads, labels and tags changed here and there; with ``retokenise`` some words
    of a sentence merged (same text, other tokens)."""
    rng = random.Random(seed)
    out = []
    for sentence in sentences:
        words = [list(w) for w in sentence["words"]]
        if rng.random() < 0.3:
            for k, h in enumerate(random_tree(rng, len(words))):
                words[k][4] = h
                words[k][5] = "root" if h == 0 else words[k][5] if words[k][5] != "root" else "dep"
        for w in words:
            if rng.random() < 0.15 and w[4] != 0:
                w[5] = rng.choice(LABELS)
            if rng.random() < 0.1:
                w[2] = rng.choice(UPOS)
        ranges = list(sentence["ranges"])
        if retokenise and len(words) >= 2 and not ranges and rng.random() < 0.4:
            k = rng.randrange(len(words) - 1)  # words k and k + 1 become one
            merged = [words[k][0] + words[k + 1][0], words[k][1], words[k][2], words[k][3], 0, "root"]
            words = words[:k] + [merged] + words[k + 2:]
            heads = random_tree(rng, len(words))
            for j, w in enumerate(words):
                w[4] = heads[j]
                w[5] = "root" if heads[j] == 0 else (w[5] if w[5] != "root" else "dep")
        out.append({"id": sentence["id"], "words": words, "ranges": ranges})
    return out


def conllu(sentences):
    lines = []
    for sentence in sentences:
        lines.append(f"# sent_id = {sentence['id']}")
        ranges = {first: (last, form) for first, last, form in sentence["ranges"]}
        for k, (form, lemma, upos, feats, head, deprel) in enumerate(sentence["words"], 1):
            if k in ranges:
                last, span = ranges[k]
                lines.append(f"{k}-{last}\t{span}\t_\t_\t_\t_\t_\t_\t_\t_")
            lines.append(f"{k}\t{form}\t{lemma}\t{upos}\t_\t{feats}\t{head}\t{deprel}\t_\t_")
        lines.append("")
    return "\n".join(lines) + "\n"


def write_pair(tmp_path, gold, system, name="x"):
    g, s = tmp_path / f"{name}.gold.conllu", tmp_path / f"{name}.sys.conllu"
    g.write_text(conllu(gold), encoding="utf-8")
    s.write_text(conllu(system), encoding="utf-8")
    return g, s


def reference_counts(gold, system):
    """LAS and UAS counted here, under conll18's conventions (every word, subtypes stripped):
    (las right, uas right, words)."""
    las = uas = total = 0
    for g, s in zip(gold, system):
        for gw, sw in zip(g["words"], s["words"]):
            total += 1
            if gw[4] == sw[4]:
                uas += 1
                las += gw[5].split(":")[0] == sw[5].split(":")[0]
    return las, uas, total


CONLL18 = EvaluationSettings.for_convention("conll18")
METRICS = {m: get_metric(m) for m in metric_names()}


def streamed(gold, pred, options=CONLL18, block=7, keep_counts=False, beside=None):
    def build(counts, **fields):
        from spacy_agreement.evaluation.dependency.metrics import Counts

        total = Counts(counts)
        return EvaluationResult(total.scores(), counts=total, **fields)

    return evaluate_identical(gold, pred, options, METRICS, keep_counts, block, beside, result=build)


def same_result(a, b):
    assert json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)  # nan as NaN
    assert a.scores.keys() == b.scores.keys()
    for key in a.scores:  # to the last digit
        assert a.scores[key] == b.scores[key] or (a.scores[key] != a.scores[key] and b.scores[key] != b.scores[key])
    assert a.counts.values == b.counts.values


# ------------------------------------------------------------------------------------ same tokens

@pytest.mark.parametrize("block", BLOCKS)
def test_streamed_equals_whole_file_and_a_simple_count(tmp_path, block):
    gold = corpus(1)
    system = perturbed(gold, 2)
    g, s = write_pair(tmp_path, gold, system)
    result = streamed(g, s, block=block)
    whole = evaluate(read_conll(g), read_conll(s), CONLL18)
    same_result(result, whole)
    las, uas, total = reference_counts(gold, system)
    assert result.counts.values["las"] == [las, total] and result.counts.values["uas"] == [uas, total]
    assert result.scores["las"] == las / total
    # nothing per sentence: only how many were scored
    assert isinstance(result.sentences, SentenceCount) and len(result.sentences) == len(gold)
    with pytest.raises(IndexError):
        result.sentences[0]


@pytest.mark.parametrize("block", (1, 2, 7))
def test_streamed_tree_edit_distances_over_the_limit_are_those_of_the_whole_file(tmp_path, block):
    """Each block's tree edit distances are computed on a second thread and come in with the
    next block: the sentences too large for the tables are the whole-file evaluation's, in
    the same order, and the limit is the one in force when the block was counted."""
    from spacy_agreement.limits import memory_limit

    gold = corpus(11, 31)
    g, s = write_pair(tmp_path, gold, perturbed(gold, 12))
    with memory_limit(1.5e-6):  # ~1.6 KB of tables: trees of 9 nodes and more are left out
        result = streamed(g, s, block=block)
        whole = evaluate(read_conll(g), read_conll(s), CONLL18)
    same_result(result, whole)
    assert 2 <= len(result.over_limits) < len(gold) and all("tree edit distance" in x for x in result.over_limits)


@pytest.mark.parametrize("block", BLOCKS)
def test_conll18_beside_streamed_equals_the_whole_alignment(tmp_path, block):
    gold = corpus(3)
    g, s = write_pair(tmp_path, gold, perturbed(gold, 4))
    from spacy_agreement import _conllu

    table = _conllu.StringTable()
    beside = Beside(table, str(g), str(s))
    evaluate_identical(g, s, CONLL18, METRICS, False, block, beside, table=table)
    scores = beside.scores()
    assert scores == evaluate_aligned(g, s)
    las, _, total = reference_counts(gold, perturbed(gold, 4))
    assert (scores.las.correct, scores.las.gold) == (las, total)


@pytest.mark.parametrize("block", (1, 2, 7))
def test_cli_output_is_the_same_for_every_block_size(tmp_path, block):
    gold = corpus(5, 30)
    g, s = write_pair(tmp_path, gold, perturbed(gold, 6))
    outputs = []
    for size in (block, None):
        path = tmp_path / f"out{size}.json"
        assert evaluate_streamed(g, s, None, CONLL18, None, False, 10, Output(True, False, path, True), size)
        outputs.append(json.loads(path.read_text()))
    assert outputs[0] == outputs[1]
    whole = evaluate(read_conll(g), read_conll(s), CONLL18)
    assert outputs[0]["las"] == whole.scores["las"] and outputs[0]["las_f1"] == evaluate_aligned(g, s).las.f1
    assert outputs[0]["sentences_scored"] == 30


def test_intervals_keep_one_small_record_per_sentence(tmp_path):
    gold = corpus(7, 15)
    g, s = write_pair(tmp_path, gold, perturbed(gold, 8))
    result = streamed(g, s, block=2, keep_counts=True)
    whole = evaluate(read_conll(g), read_conll(s), CONLL18, keep_counts=True)
    a, b = result.unit_counts, whole.unit_counts
    assert (a.units == b.units).all() and (a.numerators == b.numerators).all()
    assert (a.denominators == b.denominators).all() and dict(a.labels) == dict(b.labels)


def test_multi_root_and_skipped_sentences_named_in_a_late_block(tmp_path):
    gold = corpus(9, 20)
    system = perturbed(gold, 10)
    late = system[17]
    late["words"] = [list(w) for w in late["words"]] + [["zz", "zz", "X", "_", 0, "root"]]  # other tokens
    system[18]["words"] = [list(w) for w in gold[18]["words"]]
    if len(system[18]["words"]) < 2:
        system[18]["words"].append(["q", "q", "X", "_", 0, "dep"])
        gold[18]["words"] = [list(w) for w in gold[18]["words"]] + [["q", "q", "X", "_", 1, "dep"]]
    system[18]["words"][0][4] = 0
    system[18]["words"][1][4] = 0  # two roots in the prediction, one in the gold
    g, s = write_pair(tmp_path, gold, system)
    options = EvaluationSettings.for_convention("conll07", skip_mismatched=True)
    with pytest.raises(TokensDiffer):
        streamed(g, s, EvaluationSettings.for_convention("conll07"), block=2)
    results = [streamed(g, s, options, block=b) for b in BLOCKS]
    for result in results:
        assert result.skipped == results[-1].skipped and result.multi_root == results[-1].multi_root
    assert results[0].skipped[0].startswith(f"{g}:") and "sentence 18 (sent_id s18)" in results[0].skipped[0]
    assert any("sentence 19 (sent_id s19): " in m and "roots in the prediction" in m for m in results[0].multi_root)
    whole = evaluate(read_conll(g), read_conll(s), options)
    assert results[0].skipped == whole.skipped and results[0].multi_root == whole.multi_root
    same_result(results[0], whole)


def test_an_error_in_a_late_block_names_its_sentence_and_line(tmp_path):
    gold = corpus(11, 12)
    gold[9]["words"] = [["_"] + list(w[1:]) for w in gold[9]["words"]]  # no forms: the form rule cannot run
    g, s = write_pair(tmp_path, gold, perturbed(gold, 12))
    options = EvaluationSettings.for_convention("conllx")  # punctuation by form
    with pytest.raises(BadOptionError) as whole:
        evaluate(read_conll(g), read_conll(s), options)
    for block in (1, 2, 7):
        with pytest.raises(BadOptionError) as error:
            streamed(g, s, options, block=block)
        assert str(error.value) == str(whole.value) and "sentence 10 (sent_id s10)" in str(error.value)
        line = 1 + sum(2 + len(x["words"]) + len(x["ranges"]) for x in gold[:9])
        assert f"{g}:{line}:" in str(error.value)


def test_cli_names_the_late_sentence_whose_text_differs(tmp_path):
    gold = corpus(13, 16)
    system = perturbed(gold, 14)
    system[13]["words"] = [list(w) for w in system[13]["words"]]
    system[13]["words"][0][0] = "QQ"  # another text: nothing can align it
    g, s = write_pair(tmp_path, gold, system)
    done = runner.invoke(app, ["evaluate", str(g), str(s), "-q"])
    assert done.exit_code == 1
    assert "sentence 14 (sent_id s14)" in done.output and "QQ" in done.output


# ----------------------------------------------------------------------------------- other tokens

def fixtures():
    return sorted(p.name[: -len(".gold.conllu")] for p in DATA.glob("*.gold.conllu"))


@pytest.mark.parametrize("case", fixtures())
@pytest.mark.parametrize("block", (1, 2, 7))
def test_aligned_streamed_equals_the_whole_alignment_on_the_fixtures(case, block):
    gold, system = DATA / f"{case}.gold.conllu", DATA / f"{case}.sys.conllu"
    try:
        whole = evaluate_aligned(gold, system)
    except Exception as exc:  # a pair the script refuses: the stream refuses it too, as itself
        with pytest.raises(type(exc)):
            evaluate_aligned_streamed(gold, system, block)
        return
    scores, n_gold, n_system = evaluate_aligned_streamed(gold, system, block)
    assert scores == whole
    assert (n_gold, n_system) == (len(read_conll(gold)), len(read_conll(system)))


@pytest.mark.parametrize("block", (1, 2, 7))
def test_aligned_streamed_on_other_tokens_and_other_sentences(tmp_path, block):
    gold = corpus(15, 40)
    system = perturbed(gold, 16, retokenise=True)
    # the system joins some sentences into one (other sentence boundaries)
    joined = []
    for k, sentence in enumerate(system):
        if k % 5 == 1 and joined:
            last = joined[-1]
            n = len(last["words"])
            words = [list(w) for w in sentence["words"]]
            for w in words:
                w[4] = w[4] + n if w[4] else 1
                w[5] = "dep" if w[5] == "root" else w[5]
            joined[-1] = {"id": last["id"], "words": last["words"] + words,
                          "ranges": last["ranges"] + [(a + n, b + n, f) for a, b, f in sentence["ranges"]]}
        else:
            joined.append(sentence)
    g, s = write_pair(tmp_path, gold, joined)
    whole = evaluate_aligned(g, s)
    scores, n_gold, n_system = evaluate_aligned_streamed(g, s, block)
    assert scores == whole and (n_gold, n_system) == (40, len(joined))
    outputs = []
    for size in (block, None):
        path = tmp_path / f"out{size}.json"
        assert evaluate_streamed(g, s, None, CONLL18, None, False, 10, Output(True, False, path, True), size)
        outputs.append(json.loads(path.read_text()))
    assert outputs[0] == outputs[1] and outputs[0]["alignment"] == "characters"
    assert outputs[0]["las_f1"] == whole.las.f1


GOLD_QUIRK = ("# sent_id = 1\n1\tab\tab\tX\t_\t_\t0\troot\t_\t_\n\n"
              "# sent_id = 2\n1-2\tbb\t_\t_\t_\t_\t_\t_\t_\t_\n1\tb\tb\tX\t_\t_\t0\troot\t_\t_\n"
              "2\tb\tb\tX\t_\t_\t1\tdet\t_\t_\n3\tc\tc\tX\t_\t_\t1\tpunct\t_\t_\n\n")
SYSTEM_QUIRK = ("# sent_id = 1\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdet\t_\t_\n\n"
                "# sent_id = 2\n1\tbb\tbb\tX\t_\t_\t0\troot\t_\t_\n2\tc\tc\tX\t_\t_\t1\tpunct\t_\t_\n\n")


def test_files_are_cut_only_where_the_script_carries_nothing_over(tmp_path):
    """Both files end a sentence after "ab", but the script's walk takes the system's "b" of
    the first sentence into the multiword span of the second (conll18_ud_eval.py: 2 words
    aligned); cut there, the pieces would align 1. The last words before a cut must be the same."""
    g, s = tmp_path / "g.conllu", tmp_path / "s.conllu"
    g.write_text(GOLD_QUIRK, encoding="utf-8")
    s.write_text(SYSTEM_QUIRK, encoding="utf-8")
    whole = evaluate_aligned(g, s)
    assert whole.words.correct == 2  # the script's count
    cut = [evaluate_aligned_layers(parse_conllu_columns(a + "\n\n"), parse_conllu_columns(b + "\n\n"))
           for a, b in zip(GOLD_QUIRK.split("\n\n")[:2], SYSTEM_QUIRK.split("\n\n")[:2])]
    assert sum(piece.words.correct for piece in cut) == 1
    for block in (1, 2):
        assert evaluate_aligned_streamed(g, s, block)[0] == whole


def test_pieces_are_scored_as_the_files_meet(tmp_path):
    """With the same tokens every block ends at a synchronisation point: nothing waits."""
    gold = corpus(17, 30)
    g, s = write_pair(tmp_path, gold, perturbed(gold, 18))
    from spacy_agreement import _conllu

    table = _conllu.StringTable()
    stream = AlignedStream(table, str(g), str(s))
    with ScanStream(g, table) as a, ScanStream(s, table) as b:
        while True:
            x, y = a.take(4), b.take(4)
            if x is None:
                break
            stream.push_both(x, y)
            assert not stream.pending[0] or sum(len(p.sentences["line"]) for p in stream.pending[0]) < 4
    assert stream.scores() == evaluate_aligned(g, s)
