"""Segmentation differences at one position (adapters/matching.py, rule 2): files paired by
position whose annotators edited or segmented the text otherwise are one item each, as in the
Spanish and Italian CDT texts of Skjærholt (2014) Table 2 (modelled on them: a dash moved to the
previous sentence, a word dropped, a sentence split and two later ones joined). α takes the
analyses as they are; the accuracies leave those items out; the output lists them. Texts that
are clearly other sentences stay an error naming both."""
import itertools
import json

import pytest
from typer.testing import CliRunner
from zss import simple_distance

import spacy_agreement as sa
from spacy_agreement.adapters.matching import segmentation_difference
from spacy_agreement.cli import app
from spacy_agreement.errors import MismatchedCorpusError

runner = CliRunner()


def block(words, heads, rels, sent_id=None):
    head = f"# sent_id = {sent_id}\n" if sent_id else ""
    return head + "".join(f"{j}\t{w}\t_\tX\t_\t_\t{h}\t{r}\t_\t_\n"
                          for j, (w, h, r) in enumerate(zip(words, heads, rels), 1)) + "\n"


def chain(words, root_rel="root"):
    """Every word on the one before it, the first on the root: a tree for any word list."""
    return [0] + list(range(1, len(words))), [root_rel] + ["dep"] * (len(words) - 1)


def write(path, sentences, ids=None):
    text = ""
    for k, words in enumerate(sentences):
        heads, rels = chain(words)
        text += block(words, heads, rels, None if ids is None else ids[k])
    path.write_text(text, encoding="utf-8")
    return str(path)


S1 = "- Debe haber habido otro hombre , constató Loulou , objetiva .".split()
S2 = "- ¿No notabas , que ella tenía otro hombre ?".split()
S3 = "Ella no contestó .".split()
S4 = "Dopo la drammatica repressione delle manifestazioni studentesche l' orientamento è cambiato .".split()


def test_a_dash_moved_to_the_previous_sentence_is_one_item_each(tmp_path):
    """As in CDT es 0388 sentences 4-5: one annotator's first sentence ends with the dash that
    opens the next sentence for the other."""
    a = write(tmp_path / "henrik.conll", [S1, S2, S3])
    b = write(tmp_path / "soren.conll", [S1 + ["-"], S2[1:], S3])
    corpus = sa.load_parallel_files([a, b])
    assert corpus.matched_by.rule == "position" and len(corpus.items) == 3
    assert [entry.split(":")[0] for entry in corpus.matched_by.resegmented] == ["sentence 1", "sentence 2"]
    assert "13 tokens against 12" in corpus.matched_by.resegmented[0]
    assert "moved sentence boundary" in corpus.matched_by.resegmented[0]
    values = json.loads(runner.invoke(app, ["alpha", a, b, "--json", "-q"]).stdout)
    assert values["items_resegmented"] == 2 and values["items_mismatched"] == 2
    assert values["las"] == 1.0 and values["accuracy_items"] == 1  # only sentence 3 is scored
    # α over the trees as they are: Zhang-Shasha (zss) and the α formula written out here
    assert values["alpha_plain"] == pytest.approx(alpha_plain_reference([[S1, S1 + ["-"]], [S2, S2[1:]], [S3, S3]]),
                                                  abs=1e-12)
    text = runner.invoke(app, ["alpha", a, b]).stdout
    assert "2 item(s) paired by position whose annotators segmented the text otherwise" in text
    assert "segmented otherwise: sentence 1: soren against henrik" in text


def test_a_dropped_word_is_an_edit_of_one_item(tmp_path):
    """As in CDT it 1252 sentence 1: one annotator's text lacks 'drammatica'."""
    a = write(tmp_path / "iorn.conll", [S3, S4])
    b = write(tmp_path / "lisa.conll", [S3, [w for w in S4 if w != "drammatica"]])
    corpus = sa.load_parallel_files([a, b])
    assert corpus.matched_by.resegmented == ("sentence 2: lisa against iorn: 11 tokens against 12: "
                                             "no 'drammatica' (token 3)",)
    accuracy = sa.pairwise_accuracy(corpus)
    assert accuracy.items_mismatched == 1 and accuracy.scores["las"] == 1.0


def test_a_sentence_split_and_two_later_joined_pair_by_position(tmp_path):
    """As in CDT it 0620 sentences 10-13: one annotator splits a sentence and joins the two
    after it, keeping the count; the sentences pair by position as Skjærholt's code pairs
    them, each listed with the stretch it belongs to."""
    s10 = "Sì , rispose lei senza esitazione . E con un sorriso lui la trasse vicino .".split()
    s11 = "Un matrimonio a Natale ? continuò lui .".split()
    s12 = "Hum ,".split()
    s13 = "lei nascose il suo volto nel suo petto .".split()
    first = [S3, s10, s11, s12, s13, S3[:3] + ["!"]]
    second = [S3, s10[:7], s10[7:], s11, s12 + s13, S3[:3] + ["!"]]
    a = write(tmp_path / "iorn.conll", first)
    b = write(tmp_path / "morten.conll", second)
    corpus = sa.load_parallel_files([a, b])
    assert corpus.matched_by.rule == "position"
    listed = corpus.matched_by.resegmented
    assert [entry.split(":")[0] for entry in listed] == ["sentence 2", "sentence 3", "sentence 4", "sentence 5"]
    assert all("the text of sentences 2-5 segmented otherwise" in entry for entry in listed)
    assert [len(item) for item in corpus.items] == [2] * 6  # nothing set aside as missing
    assert [list(item["morten"].forms) for item in corpus.items] == second


def test_other_sentences_at_one_position_are_an_error_naming_both(tmp_path):
    """A sentence missing from one file and another added at its end keeps the count but
    shifts every sentence in between: the annotators never end a sentence at the same place
    again, so the files are refused (their texts repeat, so text matching cannot help)."""
    other = "Mañana llueve otra vez en la ciudad .".split()
    a = write(tmp_path / "a.conll", [S3, S1, S2, S3])
    b = write(tmp_path / "b.conll", [S3, S2, other, S3])
    with pytest.raises(MismatchedCorpusError) as err:
        sa.load_parallel_files([a, b])
    message = str(err.value)
    assert "sentence 2, paired by position, is another sentence for b (- ¿No notabas , que ...)" in message
    assert "than for a (- Debe haber habido otro ...)" in message and "add # sent_id" in message
    result = runner.invoke(app, ["alpha", a, b])
    assert result.exit_code == 1 and len([x for x in result.stderr.splitlines() if x.strip()]) == 1


def test_reordered_files_are_still_matched_by_text(tmp_path):
    a = write(tmp_path / "a.conll", [S1, S2, S3, S4])
    b = write(tmp_path / "b.conll", [S2, S1, S4, S3])
    corpus = sa.load_parallel_files([a, b])
    assert corpus.matched_by.rule == "text" and len(corpus.items) == 4 and not corpus.matched_by.resegmented


@pytest.mark.parametrize("a, b, same", [
    ("a b c d e f", "a b c d e f g", True),        # one more token at the end
    ("a b c d e f", "x a b c d e f", True),        # ... or at the start
    ("a b c d e f", "a b x d e f", True),          # one changed
    ("a b c d e f", "a e f", True),                # three dropped, three kept
    ("a b c", "x y z", False),                     # a short sentence wholly replaced
    ("a b c d e f g h", "a b w x y z g h", False),  # four changed, few characters: other words
    ("Thewholesentencehere and one more word", "Thewholesentencehere and one", True),  # 3 tokens, >= kept
])
def test_where_the_line_is(a, b, same):
    assert (segmentation_difference(a.split(), b.split()) is not None) is same


def test_a_change_of_matching_key_is_an_input_note(tmp_path):
    """INCEpTION's CURATION_USER.conllu has no sent_ids while the annotators' files have them:
    the items are matched by position, and the text and JSON outputs say why."""
    a = write(tmp_path / "anna.conllu", [S1, S2], ids=["d1-s1", "d1-s2"])
    b = write(tmp_path / "CURATION_USER.conllu", [S1, S2])
    values = json.loads(runner.invoke(app, ["alpha", a, b, "--json", "-q"]).stdout)
    assert values["items_matched_by"] == "position"
    assert values["input_notes"] == ["sent_id: anna has them but CURATION_USER lacks them: items matched by "
                                     "position instead (give every sentence a # sent_id to match by id)"]
    text = runner.invoke(app, ["alpha", a, b]).stdout
    assert "input: sent_id: anna has them but CURATION_USER lacks them" in text


def alpha_plain_reference(items):
    """Krippendorff's α with δplain (Skjærholt 2014, eq. 1 and 4) written out: unit-cost
    Zhang-Shasha distances from zss between the trees of :func:`chain` under an artificial
    root labelled ''."""
    class Node:
        def __init__(self, label):
            self.label, self.children = label, []

    def tree(words):
        heads, rels = chain(words)
        nodes = [Node("")] + [Node(r) for r in rels]
        for j, h in enumerate(heads, 1):
            nodes[h].children.append(nodes[j])
        return nodes[0]

    def delta(x, y):
        return simple_distance(tree(x), tree(y), get_children=lambda n: n.children, get_label=lambda n: n.label,
                               label_dist=lambda p, q: int(p != q)) ** 2

    values = [v for item in items for v in item]
    n = len(values)
    observed = sum(sum(delta(x, y) for x, y in itertools.permutations(item, 2)) / (len(item) - 1) for item in items)
    expected = sum(delta(x, y) for x, y in itertools.permutations(values, 2))
    return 1 - (n - 1) * observed / expected
