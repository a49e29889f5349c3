"""The fast paths of the aligned (``conll18_ud_eval.py``) scores against their reference paths
(issue 42): the alignment of two files with the same words (``_same_words``) against the walk,
the columns coded from the scanner's string codes (``ColumnCoder``) against the coding of
the strings, and the scanner's token ids and ``sent_id`` values against the Python reader's."""
import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_agreement import _conllu
from spacy_agreement.adapters.conllu.column_reader import parse_conllu_columns
from spacy_agreement.adapters.conllu.scan import conllu_columns_from_scan, scan_file
from spacy_agreement.evaluation.conll18 import masks, word_alignment
from spacy_agreement.evaluation.conll18.masks import aligned_masks

from .test_conll18_aligned import random_conllu, reference_alignment

COLUMN_CHOICES = {2: ["x", "_", "y", "X"], 3: list("ABb"), 4: list("_PQ"),
                  5: ["_", "Number=Sing", "Case=Nom|Number=Sing", "Foo=1", "Number=Sing|Case=Nom", "Typo=Yes"],
                  7: ["nsubj", "obj:x", "obj", "det", "case", "punct", "amod", "ROOT"]}


def perturbed(rng: random.Random, text: str, forms: float = 0.2) -> str:
    """The same tokens and words, other columns: random lemmas, tags, features, relations,
    and (with probability ``forms``) another form (or the same in other case) for a word of a
    multiword token."""
    out, inside = [], (0, -1)
    for line in text.split("\n"):
        cols = line.split("\t")
        if not line:
            inside = (0, -1)  # word ids start again
        elif len(cols) == 10 and "-" in cols[0]:
            inside = tuple(map(int, cols[0].split("-")))
        elif len(cols) == 10:
            for k, values in COLUMN_CHOICES.items():
                if rng.random() < 0.4:
                    cols[k] = rng.choice(values)
            if inside[0] <= int(cols[0]) <= inside[1] and rng.random() < forms:  # the text stays
                cols[1] = rng.choice([cols[1].upper(), cols[1].lower(), "a", "b", "AB"])
            line = "\t".join(cols)
        out.append(line)
    return "\n".join(out)


def scanned_pair(tmp_path, gold_text: str, system_text: str):
    """Both texts read by the scanner with one string table (as ``evaluate`` reads them)."""
    table = _conllu.StringTable()
    columns = []
    for name, text in (("gold", gold_text), ("system", system_text)):
        path = tmp_path / f"{name}.conllu"
        path.write_text(text, encoding="utf-8")
        scanned = scan_file(path, table=table, name=name)
        assert scanned is not None
        columns.append(conllu_columns_from_scan(scanned))
    assert columns[0].word_codes is not None and columns[0].code_table is columns[1].code_table
    return columns


def walked(gold, system, monkeypatch_context):
    with monkeypatch_context() as patch:
        patch.setattr(word_alignment, "_same_words", lambda g, s: None)
        return word_alignment.align_words(gold, system)


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 30), st.floats(0, 1))
def test_the_alignment_of_the_same_words_is_the_walks(rng, length, forms):
    text = "".join(rng.choice("ab") for _ in range(length))
    gold_text = random_conllu(rng, text, multiword=0.4)
    gold = parse_conllu_columns(gold_text, "gold")
    system = parse_conllu_columns(perturbed(rng, gold_text, forms), "system")
    fast = word_alignment.align_words(gold, system)
    slow = walked(gold, system, pytest.MonkeyPatch.context)
    for field in ("gold_words", "system_words", "gold_of_system", "system_of_gold"):
        assert getattr(fast, field).tolist() == getattr(slow, field).tolist()
    assert fast.multiword_spans == slow.multiword_spans
    assert list(zip(fast.gold_words.tolist(), fast.system_words.tolist())) == reference_alignment(gold, system)


def test_the_same_words_fast_path_is_taken_and_refused():
    gold_text = ("1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdet\t_\t_\n"
                 "3\tc\tc\tX\t_\t_\t1\tdet\t_\t_\n\n")
    gold = parse_conllu_columns(gold_text)
    same = word_alignment._same_words(gold, parse_conllu_columns(gold_text.replace("\ta\ta", "\tA\ta")))
    assert same is not None and same.multiword_spans == 1 and same.gold_words.tolist() == [0, 1, 2]
    assert word_alignment._same_words(gold, parse_conllu_columns(gold_text.replace("\ta\ta", "\tb\ta"))) is None
    other = "1\tab\t_\t_\t_\t_\t0\troot\t_\t_\n2\tc\tc\tX\t_\t_\t1\tdet\t_\t_\n\n"
    assert word_alignment._same_words(gold, parse_conllu_columns(other)) is None


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 30), st.booleans())
def test_the_scanned_codes_give_the_masks_of_the_strings(tmp_path_factory, rng, length, same_words):
    tmp_path = tmp_path_factory.mktemp("codes")
    text = "".join(rng.choice("ab") for _ in range(length))
    gold_text = random_conllu(rng, text, multiword=0.3)
    system_text = perturbed(rng, gold_text, 0.1) if same_words else perturbed(rng, random_conllu(rng, text), 0.1)
    gold, system = scanned_pair(tmp_path, gold_text, system_text)
    fast = aligned_masks(gold, system)
    # without the codes the scores compare the strings, which the scanner's columns make when read
    coded = [dataclasses.replace(c, word_codes=None, code_table=None, code_values=None) for c in (gold, system)]
    slow = aligned_masks(*coded)
    # and columns holding nothing of the scanner's: every string given
    plain = [dataclasses.replace(c, _text=c.text, _token_ids=c.token_ids, _forms=c.forms, _sent_ids=c.sent_ids,
                                 _lemmas=c.lemmas, _upos=c.upos, _xpos=c.xpos, _feats=c.feats, _deprels=c.deprels,
                                 scanned_text=None) for c in coded]
    for name, ok in aligned_masks(*plain).correct.items():
        assert ok.tolist() == slow.correct[name].tolist(), name
    assert gold.same_text(system) == (plain[0].text == plain[1].text) == plain[0].same_text(plain[1])
    assert fast.correct.keys() == slow.correct.keys()
    for name in fast.correct:
        assert fast.correct[name].tolist() == slow.correct[name].tolist(), name
    assert fast.gold_content.tolist() == slow.gold_content.tolist()
    assert fast.system_content.tolist() == slow.system_content.tolist()
    # the scanner's columns are the Python reader's
    for columns, source in ((gold, gold_text), (system, system_text)):
        read = parse_conllu_columns(source)
        for field in ("text", "token_ids", "forms", "lemmas", "upos", "xpos", "feats", "deprels", "sent_ids"):
            assert getattr(columns, field) == getattr(read, field), field


def test_column_coder_codes_the_values_the_table_repeats_across_pieces():
    """Codes of equal (normalised) values are equal, whichever table code they come from and in
    whichever piece they were met first: pieces of a growing table coded by one ColumnCoder
    compare as the strings do (all pieces together), and a piece of another table starts afresh."""
    full = np.asarray(["a", "A", "b|a", "a|b", "", "x", "X", "a|b|c", "c|b|a", ""], dtype=object)
    rng = np.random.default_rng(1)
    table, other = object(), object()
    for normalise in (None, str.lower, lambda v: "|".join(sorted(v.split("|")))):
        coder = masks.ColumnCoder()
        coded, strings = [], []
        for size in (3, 3, 6, 9):  # the table grows between pieces ("" last: code -1's)
            values = np.append(full[:size], "")
            gold = rng.integers(-1, size, 30).astype(np.int32)
            system = rng.integers(-1, size, 20).astype(np.int32)
            (g, s), codes = coder.coded(gold, system, values, table, normalise)
            coded.append(np.concatenate([g, s]))
            strings += values[gold].tolist() + values[system].tolist()
            assert set(codes) >= {normalise(x) if normalise else x for x in values[np.concatenate([gold, system])]}
        (g2, _), _ = masks._coded(strings, [], normalise)
        both = np.concatenate(coded)
        assert ((both[:, None] == both[None, :]) == (g2[:, None] == g2[None, :])).all()
        values = np.append(full[::-1][:5], "")  # another table: its codes mean other values
        gold = np.arange(-1, 5, dtype=np.int32)
        (g, _), _ = coder.coded(gold, gold[:0], values, other, normalise)
        (g2, _), _ = masks._coded(values[gold].tolist(), [], normalise)
        assert ((g[:, None] == g[None, :]) == (g2[:, None] == g2[None, :])).all()


def test_sent_ids_of_the_scanner_are_the_readers(tmp_path):
    lines = ["# sent_id = a", "# sent_id =b", "# sent_id =  b2\u3000", "# sent_id  = c", "#sent_id = d", "# sent_id = e = f",
             "# sent_idx = g", "# sent_id =", "# sent_id = \u3000h\u3000"]
    text = "".join(f"{line}\n1\tw\tw\tX\t_\t_\t0\troot\t_\t_\n\n" for line in lines)
    path = tmp_path / "ids.conllu"
    path.write_text(text, encoding="utf-8")
    scanned = scan_file(path)
    assert conllu_columns_from_scan(scanned).sent_ids == parse_conllu_columns(text).sent_ids
