"""The Perseus / Arethusa treebank XML reader (issue 38): attributes into columns and MISC, sentence
ids, elliptic words where their insertion_id puts them, unannotated words and heads to words left
out of the file, the format guessed from the content, errors naming file, sentence and word, and
α and per-layer agreement on two hand-written annotators' files, every figure computed by hand."""
import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.adapters import READERS, guess_format, read_perseus, reader_names
from spacy_agreement.adapters.perseus_xml import sniff_perseus
from spacy_agreement.cli import app
from spacy_agreement.corpus import ReadStats
from spacy_agreement.errors import InvalidTreeError, UndefinedMetricWarning
from tests.helpers import one_line_error

DATA = Path(__file__).resolve().parents[1] / "data" / "perseus"
A, B = DATA / "annotator_a.xml", DATA / "annotator_b.xml"
runner = CliRunner()


# --------------------------------------------------------------------------- reading


def test_attributes_become_columns_and_misc():
    first, second = read_perseus(A)
    assert first.ids == ("1", "2", "3", "4") and first.forms == ("ὁ", "ἀνὴρ", "λέγει", ".")
    assert first.lemmas == ("ὁ", "ἀνήρ", "λέγω", "") and first.xpos == ("l-s---mn-", "n-s---mn-", "v3spia---", "")
    assert first.upos == ("_",) * 4 and first.feats == ("_",) * 4
    assert first.heads.tolist() == [2, 3, 0, 0] and first.deprels == ("ATR", "SBJ", "PRED", "AuxK")
    # other attributes in MISC as written, an empty one kept as "key=", none: "_"
    assert first.misc == ("gloss=the", "sg=nmn", "sg=", "_")
    # the sentence id after document_id:subdoc
    assert first.location.sent_id == "urn:cts:greekLit:tlg0000.tlg001:1.1/1"
    assert second.location.sent_id == "urn:cts:greekLit:tlg0000.tlg001:1.1/2"
    assert str(first.location) == f"{A}: sentence 1 (sent_id urn:cts:greekLit:tlg0000.tlg001:1.1/1)"


def test_elliptic_words_are_placed_by_their_insertion_id():
    stats = ReadStats()
    tree = read_perseus(DATA / "reading.xml", stats=stats)[0]
    # written 1 2 3 7(0001f) 4(0001e) 5(0000e) 6(0099e: no word 99, stays where written)
    assert tree.ids == ("5", "1", "4", "7", "2", "3", "6")
    assert tree.forms == ("_", "ego", "[0]", "[2]", "sapiens", ".", "[1]")  # no form: "_"; "[0]" as written
    assert tree.heads.tolist() == [3, 3, 0, 3, 3, 0, 3]  # head 4 is the elliptic word, now at position 3
    assert tree.deprels == ("ExD", "SBJ", "PRED", "AuxY", "PNOM", "AuxK", "ADV")
    assert tree.misc[2] == "insertion_id=0001e|artificial=elliptic" and tree.misc[1] == "_"
    assert tree.xpos[0] == "_" and tree.lemmas[0] == "_"  # absent attributes: no value
    assert not tree.unannotated
    assert tree.location.sent_id == "urn:cts:latinLit:phi0000.phi001:1.1/7"  # cite before document_id:subdoc


def test_unannotated_words_and_heads_to_words_left_out():
    stats = ReadStats()
    tree = read_perseus(DATA / "reading.xml", stats=stats)[1]
    assert tree.location.sent_id == "8"  # no cite, document_id or subdoc
    # relation "nil" (with head 2): a relation not annotated, the head kept; head "" and head 9
    # (no word 9): no head in the tree
    assert tree.unlabelled == (1,) and tree.unannotated == (3, 4)
    assert tree.heads.tolist() == [2, 0, 0, 0]
    # the relation of the word whose head is left out stays; a head that is no word in MISC; "|" written "¦"
    assert tree.deprels == ("_", "PRED", "_", "ATR")
    assert tree.misc == ("_", "_", "_", "head=9|gloss=a¦b")
    assert (stats.sentences, stats.partial_trees, stats.unannotated_tokens, stats.unlabelled_tokens) == (2, 1, 2, 1)


# --------------------------------------------------------------------------- the format


def test_the_format_is_guessed_from_the_content(tmp_path):
    assert guess_format(A) == "perseus" and guess_format(DATA / "reading.xml") == "perseus"  # BOM, comments
    named = tmp_path / "annotation.txt"
    named.write_bytes(b'<?xml version="1.0"?>\n<!DOCTYPE treebank>\n<!-- x -->\n<treebank><sentence id="1">'
                      b'<word id="1" form="a" head="0" relation="PRED"/></sentence></treebank>')
    assert sniff_perseus(named) and guess_format(named) == "perseus"
    other = tmp_path / "tei.xml"
    other.write_text('<?xml version="1.0"?><TEI><text/></TEI>', encoding="utf-8")
    assert not sniff_perseus(other) and guess_format(other) != "perseus"
    assert "perseus" in reader_names() and READERS["perseus"].family == "dependency"


def test_alpha_reads_the_files_without_format():
    result = runner.invoke(app, ["alpha", str(A), str(B), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["items_matched_by"] == "sent_id" and out["trees_partial"] == 2


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("body, needles", [
    ('<sentence id="3"><word id="1" form="a" head="0"/><word form="b" head="1"/></sentence>',
     ["sentence 1 (sent_id 3)", "word 2 of the sentence has no id"]),
    ('<sentence id="3"><word id="1" form="a" head="0"/><word id="2" form="b" head="x1"/></sentence>',
     ["sentence 1 (sent_id 3), token 2", "head 'x1' is not a word id"]),
    ('<sentence id="3"><word id="1" form="a" head="0"/><word id="1" form="b" head="1"/></sentence>',
     ["sentence 1 (sent_id 3), token 1", "word id 1 is in the sentence twice"]),
    ('<sentence id="3"><word id="one" form="a" head="0"/></sentence>',
     ["sentence 1 (sent_id 3), token one", "word id 'one' is not a number"]),
    ('<sentence id="3"></sentence>', ["sentence 1 (sent_id 3)", "sentence without words"]),
    ('<sentence id="3"><word id="1" form="a" head="0"></sentence>', [":1: sentence 1 (sent_id 3)", "not well-formed XML"]),
])
def test_errors_name_file_sentence_and_word(tmp_path, body, needles):
    path = tmp_path / "bad.xml"
    path.write_text(f"<treebank>{body}</treebank>", encoding="utf-8")
    with pytest.raises(InvalidTreeError) as caught:
        read_perseus(path)
    message = str(caught.value)
    assert message.startswith(str(path)), message
    for needle in needles:
        assert needle in message, message


def test_a_broken_file_is_one_line_on_the_command_line(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text('<treebank>\n<sentence id="9">\n<word id="1" form="a" head="zero"/>\n</sentence></treebank>',
                   encoding="utf-8")
    one_line_error(runner.invoke(app, ["layers", str(A), str(bad)]), str(bad), "sent_id 9", "token 1", "head 'zero'")


# --------------------------------------------------------------------------- agreement, by hand


def test_layers_on_two_annotators_by_hand():
    """Sentence 1: word 2 SBJ/OBJ, n-s---mn-/n-s---ma-, sg nmn/acc; word 4 head 0/3. Sentence 2: A left
    word 3's relation empty (head 2, as B), B's word 5 points to word 4, left out (A: word 6)."""
    corpus = sa.load_parallel_files([A, B])
    result = sa.agreement_by_layer(corpus, layers=("xpos", "head", "deprel", "head_deprel"), misc=("sg",),
                                   per_feature=False)
    assert result.items == 2 and not result.items_mismatched
    xpos = result["xpos"]  # 8 words with a postag (the elliptic one has none); "" = "" agrees
    assert (xpos.units, xpos.disagreeing) == (8, 1)
    assert xpos.observed == pytest.approx(7 / 8)
    # Cohen: pe = (1 + 1 + 1 + 1 + 1 + 2·2) / 8² = 9/64; κ = (7/8 − 9/64) / (1 − 9/64) = 47/55
    assert xpos.cohen_mean == pytest.approx(47 / 55)
    # α nominal: 16 values, Σ n_c² = 2²·5 + 1 + 1 + 4² = 38: De = (256 − 38)/(16·15), Do = 2/16
    assert xpos.alpha == pytest.approx(1 - (2 / 16) / (218 / 240))
    head = result["head"]  # 9 words: word 3 of sentence 2 compared by its head as written (2 = 2), word 5 6/4
    assert (head.units, head.disagreeing) == (9, 2) and head.observed == pytest.approx(7 / 9)
    deprel = result["deprel"]  # A's word 3 has no relation: 8 words; B's word 5 keeps PNOM
    assert (deprel.units, deprel.disagreeing) == (8, 1)
    labelled = result["head_deprel"]  # s1: words 2 and 4 differ; s2: word 5 (6 PNOM / 4 PNOM)
    assert (labelled.units, labelled.disagreeing) == (8, 3)
    sg = result["misc.sg"]  # where an annotator wrote sg: s1 words 2 (nmn/acc) and 3 ("" both)
    assert (sg.units, sg.disagreeing) == (2, 1)


def test_alpha_on_two_annotators_by_hand():
    """Tree edit distances (unit costs) worked by hand. Sentence 1: A root(PRED(SBJ(ATR)), AuxK), B
    root(PRED(OBJ(ATR), AuxK)): relabel SBJ and move AuxK, 3. Sentence 2 is partial in both files."""
    corpus = sa.load_parallel_files([A, B])
    default = sa.alpha(corpus, deltas=("plain",))
    # the partial-tree rule: both trees of sentence 2 are missing annotations, listed
    assert len(default.partial_trees) == 2 and default.items == 1 and default.items_unpairable == 1
    assert default.alpha_plain == pytest.approx(0.0)  # one item: Do = De = 3²
    # attached: A2 root(COORD(SBJ_CO(unannotated), PRED_CO(PNOM))) (A's word 3 has head 2 and no
    # relation: its head stays), B2 root(COORD(SBJ_CO(ATR), PRED_CO), unannotated) (B's word 5 has
    # head 4, no word: on the root); δ(A2, B2) = 3 (relabel, delete PNOM, insert the root's child);
    # across items δ(A1, A2) = 6, δ(A1, B2) = 4, δ(B1, A2) = 5, δ(B1, B2) = 4
    attached = sa.alpha(corpus, deltas=("plain",), partial="attach")
    observed = Fraction(2 * 3 ** 2 + 2 * 3 ** 2, 4)
    expected = Fraction(2 * (3 ** 2 + 3 ** 2 + 6 ** 2 + 4 ** 2 + 5 ** 2 + 4 ** 2), 4 * 3)
    assert attached.alpha_plain == pytest.approx(float(1 - observed / expected))  # 19/37
    assert attached.attached_tokens == 2 and attached.alphas_missing == {"plain": default.alpha_plain}


def test_layers_command_on_the_files():
    result = runner.invoke(app, ["layers", str(A), str(B), "--layer", "xpos", "--layer", "head", "--layer", "deprel",
                                 "--json"])
    assert result.exit_code == 0, result.output
    layers = json.loads(result.stdout)["layers"]
    assert (layers["xpos"]["units"], layers["head"]["units"], layers["deprel"]["units"]) == (8, 9, 8)


# --------------------------------------------------------------------------- the AGDT reports' way


def test_the_reports_way_of_counting():
    """report_a/b: sentence 1 is "Καὶ" in one file and "καὶ" in the other, and A left the relation of
    word 4 empty (head 1, as B); sentence 2 agrees. The AGDT reports compare every word (--any-forms)
    and count the empty relation as a value (--unannotated value)."""
    corpus = sa.load_parallel_files([DATA / "report_a.xml", DATA / "report_b.xml"])
    with pytest.warns(UndefinedMetricWarning):  # one unit left, one category
        default = sa.agreement_by_layer(corpus, layers=("deprel",), per_feature=False)
    assert default.items_mismatched == ["1/1: token 1 is 'Καὶ' against 'καὶ'"] and default["deprel"].units == 1
    forms = sa.agreement_by_layer(corpus, layers=("deprel",), per_feature=False, same_forms=False)
    assert (forms["deprel"].units, forms["deprel"].disagreeing) == (4, 1)  # A's word 4 has no relation
    report = sa.agreement_by_layer(corpus, layers=("xpos", "head", "deprel", "head_deprel"), per_feature=False,
                                   same_forms=False, unannotated="value")
    assert (report["xpos"].units, report["xpos"].disagreeing) == (5, 0)
    assert (report["head"].units, report["head"].disagreeing) == (5, 0)  # word 4: 1 as written = 1
    deprel = report["deprel"]  # COORD ATR SBJ_CO _ ADV against COORD ATR OBJ PRED_CO ADV
    assert (deprel.units, deprel.disagreeing) == (5, 2) and deprel.observed == pytest.approx(3 / 5)
    assert deprel.cohen_mean == pytest.approx(6 / 11)  # pe = 3/25: (3/5 − 3/25) / (1 − 3/25)
    assert (report["head_deprel"].units, report["head_deprel"].disagreeing) == (5, 2)
    assert report.signature.startswith("layers|l:xpos,head,deprel,head_deprel|misc:|perfeat:no|ref:|forms:no|"
                                       "unann:value|")
    result = runner.invoke(app, ["layers", str(DATA / "report_a.xml"), str(DATA / "report_b.xml"), "--layer", "deprel",
                                 "--any-forms", "--unannotated", "value", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["layers"]["deprel"]["observed"] == pytest.approx(3 / 5)
