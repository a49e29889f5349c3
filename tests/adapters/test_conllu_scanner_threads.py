"""The CoNLL-U scanner read without the GIL (issue 42): its own UTF-8 check against
:meth:`bytes.decode`, the table left as it was when a scan fails, files scanned into tables
of their own (on a second thread) against both scanned into one table in turn, and the text
columns the scanner's reading makes only when asked for against the Python reader's."""
import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_agreement import _conllu
from spacy_agreement.adapters.conllu.column_reader import parse_conllu_columns
from spacy_agreement.adapters.conllu.scan import conllu_columns_from_scan, scan_file
from spacy_agreement.evaluation.dependency.streaming import ScanStream, Unscannable, identical_batches

from ..evaluation.test_conll18_aligned import random_conllu

# bytes around every boundary of Table 3-7 of the Unicode Standard
EDGES = [0x00, 0x0A, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
         0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
LINE = "1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n\n"


def decode_error(data: bytes):
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return None


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(EDGES), max_size=14), st.integers(0, 17), st.text(max_size=6))
def test_the_utf8_check_stops_where_the_decoder_does(edges, ascii_before, text):
    data = b"x" * ascii_before + bytes(edges) + text.encode("utf-8", "surrogatepass")
    assert _conllu.utf8_error(data) == decode_error(data)


def table_state(table):
    return len(table), list(table.strings)


@pytest.mark.parametrize("bad", [b"1\t\xff\tx\tX\t_\t_\t0\troot\t_\t_\n\n",  # a value
                                 b"# sent_id = \xed\xa0\x80\n" + LINE.encode(),  # the sent_id comment
                                 b"1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n\n1\ty\t\xc3\tX\t_\t_\t0\troot\t_\t_\n\n"])
@pytest.mark.parametrize("check", [False, True])
def test_a_scan_that_meets_bytes_not_utf8_raises_and_leaves_the_table_as_it_was(bad, check):
    table = _conllu.StringTable()
    _conllu.scan(LINE.replace("x", "old").encode(), table)
    before = table_state(table)
    with pytest.raises(UnicodeDecodeError):
        _conllu.scan(bad, table, check_utf8=check)
    assert table_state(table) == before
    # the table still works: known values keep their codes, a new one gets the next
    assert table.code("old") == before[1].index("old")
    assert table.code("new") == len(before[1]) and table.strings[-1] == "new"
    stop, rows, _ = _conllu.scan(LINE.replace("x", "new").encode(), table)
    assert stop is None and rows["codes"][0, 0] == before[1].__len__()


def test_the_check_raises_the_decoders_own_error():
    data = LINE.encode() + b"# \xe0\x80\x80\n" + LINE.encode()
    with pytest.raises(UnicodeDecodeError) as caught:
        _conllu.scan(data, _conllu.StringTable(), check_utf8=True)
    assert caught.value.start == decode_error(data)


def blocks_in_turn(gold, pred, size):
    """Both files scanned into one table, the gold's block first (the reading before the threads)."""
    table = _conllu.StringTable()
    out = []
    with ScanStream(gold, table) as g, ScanStream(pred, table) as p:
        while True:
            a, b = g.take(size), p.take(size)
            if a is None and b is None:
                return out, table
            out.append((a.scanned.rows["codes"].tolist(), b.scanned.rows["codes"].tolist()))


def blocks_apart(gold, pred, size):
    """The same through identical_batches with both files read apart, a block ahead on a second thread."""
    table = _conllu.StringTable()
    out = []
    with ScanStream(gold, table, apart=True) as g, ScanStream(pred, table, apart=True) as p:
        def beside(a, b):
            assert a.scanned.table is table and b.scanned.table is table
            out.append((a.scanned.rows["codes"].tolist(), b.scanned.rows["codes"].tolist()))

        for _ in identical_batches(g, p, check_forms=False, skip_mismatched=True, block=size, beside=beside):
            pass
    return out, table


def relabelled(rng: random.Random, text: str) -> str:
    """The same tokens, other lemmas, tags and relations (values the gold may not have)."""
    out = []
    for line in text.split("\n"):
        cols = line.split("\t")
        if len(cols) == 10 and "-" not in cols[0]:
            for k in (2, 3, 4, 5, 7, 9):
                if rng.random() < 0.5:  # a relation "_" is left to the Python readers
                    cols[k] = rng.choice(["p", "q", "Case=Nom", "obj", "é", "ünï", "nsubj:pass"] + ["_"] * (k != 7))
        out.append("\t".join(cols))
    return "\n".join(out)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 60), st.integers(1, 7))
def test_files_read_apart_give_the_codes_of_one_table_read_in_turn(tmp_path_factory, rng, length, size):
    tmp = tmp_path_factory.mktemp("apart")
    text = "".join(rng.choice("abcé") for _ in range(length))
    gold_text = random_conllu(rng, text, multiword=0.2)
    gold, pred = tmp / "gold.conllu", tmp / "pred.conllu"
    gold.write_text(gold_text, encoding="utf-8")
    pred.write_text(relabelled(rng, gold_text), encoding="utf-8")
    in_turn, one_table = blocks_in_turn(gold, pred, size)
    apart, shared = blocks_apart(gold, pred, size)
    assert apart == in_turn
    assert shared.strings == one_table.strings  # the same codes for the same values, in the same order


@pytest.mark.parametrize("bad_gold,bad_pred,named", [(True, True, "gold"), (False, True, "pred"), (True, False, "gold")])
def test_what_the_reader_thread_raises_is_raised_in_order(tmp_path, bad_gold, bad_pred, named):
    good, bad = LINE * 3, LINE * 2 + "1\tx\n\n"
    for name, is_bad in (("gold", bad_gold), ("pred", bad_pred)):
        (tmp_path / f"{name}.conllu").write_text(bad if is_bad else good, encoding="utf-8")
    table = _conllu.StringTable()
    with ScanStream(tmp_path / "gold.conllu", table, apart=True) as g, \
            ScanStream(tmp_path / "pred.conllu", table, apart=True) as p:
        with pytest.raises(Unscannable) as caught:
            list(identical_batches(g, p, check_forms=True, skip_mismatched=False, block=1))
    assert caught.value.args == (str(tmp_path / f"{named}.conllu"),)


def test_a_stream_left_early_waits_for_its_reader(tmp_path):
    for name in ("gold", "pred"):
        (tmp_path / f"{name}.conllu").write_text(LINE * 50, encoding="utf-8")
    table = _conllu.StringTable()
    with ScanStream(tmp_path / "gold.conllu", table, apart=True) as g, \
            ScanStream(tmp_path / "pred.conllu", table, apart=True) as p:
        batches = identical_batches(g, p, check_forms=True, skip_mismatched=False, block=2)
        next(batches)
        batches.close()  # the next pair was being read: its thread is waited for before the files close
        assert not [t for t in threading.enumerate() if t.name == "spacy-agreement reader"]


@settings(max_examples=80, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 40))
def test_text_columns_made_when_asked_for_are_the_python_readers(tmp_path_factory, rng, length):
    path = tmp_path_factory.mktemp("lazy") / "file.conllu"
    text = relabelled(rng, random_conllu(rng, "".join(rng.choice("abé") for _ in range(length)), multiword=0.3))
    path.write_text(text, encoding="utf-8")
    scanned = conllu_columns_from_scan(scan_file(path))
    python = parse_conllu_columns(text, str(path))
    for name in ("forms", "lemmas", "upos", "xpos", "feats", "deprels", "token_ids"):
        assert getattr(scanned, name) == getattr(python, name), name
    assert scanned.lemmas is scanned.lemmas  # made once
