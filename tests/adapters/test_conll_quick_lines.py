"""The CoNLL reader's quick path for plain token lines (``_quick_token``) against what conllu's
``parse_line`` makes of the same line with the reader's field parsers: equal wherever the quick
path answers, and it answers for the lines nearly every file is made of."""
import pytest
from conllu.parser import parse_line
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_agreement.adapters.conllu.trees import FIELDS, _LINE_PARSERS, _quick_token, parse_conll

NUMBERS = st.sampled_from(["1", "2", "10", "0", "_", "01", "007", "-1", "-3", "1.1", "3-4", "²", "١", "1e3", " 1", ""])
TEXT = st.text(alphabet=st.sampled_from(["a", "b", "_", " ", "|", "=", "é", "1", "-"]), max_size=6)


def conllu_token(line):
    try:
        return parse_line(line, FIELDS, _LINE_PARSERS)
    except Exception as exc:  # noqa: BLE001 - conllu's own error or the reader's column count
        return type(exc)


@settings(max_examples=400, deadline=None)
@given(NUMBERS, TEXT, TEXT, NUMBERS, TEXT, st.integers(8, 11), st.sampled_from(["\t", "  ", "\t "]))
def test_the_quick_path_reads_what_conllu_reads(tid, form, upos, head, deprel, n_columns, separator):
    columns = [tid, form, "_", upos, "_", "_", head, deprel, "_", "SpaceAfter=No"]
    columns = (columns + ["_"] * 3)[:n_columns]
    line = separator.join(columns).strip()
    quick = _quick_token(line)
    if quick is not None:
        assert quick == conllu_token(line)
        assert list(quick) == list(FIELDS)


@pytest.mark.parametrize("line", [
    "1\tThe\tthe\tDET\tDT\tDefinite=Def\t2\tdet\t_\t_",
    "12\tdogs\tdog\tNOUN\tNNS\t_\t0\troot\t_\tSpaceAfter=No",
    "3\tnot\t_\t_\t_\t_\t_\t_\t_\t_",
])
def test_plain_token_lines_take_the_quick_path(line):
    assert _quick_token(line) is not None
    assert _quick_token(line) == parse_line(line, FIELDS, _LINE_PARSERS)


@pytest.mark.parametrize("line", [
    "1-2\tdu\t_\t_\t_\t_\t_\t_\t_\t_",      # a multiword range
    "2.1\tgone\t_\t_\t_\t_\t_\t_\t_\t_",    # an empty node
    "1\ttwo  spaces\t_\tX\t_\t_\t0\troot\t_\t_",  # conllu splits there
    "01\tx\t_\tX\t_\t_\t0\troot\t_\t_",     # conllu reads a leading zero as an error
    "1\tx\t_\tX\t_\t_\t-1\troot\t_\t_",     # a negative head: conllu's integer, the tree's error
    "1\tx\t_\tX\t_\t_\t0\troot\t_",         # nine columns
])
def test_other_lines_go_to_conllu(line):
    assert _quick_token(line) is None


def test_files_read_the_same_either_way():
    """A sentence of quick lines and one with a range and an empty node (conllu's lines) give
    the trees the reader gave before."""
    text = ("# sent_id = a\n1\tI\t_\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tsee\t_\tVERB\t_\t_\t0\troot\t_\tSpaceAfter=No\n"
            "3\t.\t_\tPUNCT\t_\t_\t2\tpunct\t_\t_\n\n"
            "# sent_id = b\n1-2\tdu\t_\t_\t_\t_\t_\t_\t_\t_\n1\tde\t_\tADP\t_\t_\t2\tcase\t_\t_\n"
            "2\tle\t_\tDET\t_\t_\t0\troot\t_\t_\n2.1\tx\t_\t_\t_\t_\t_\t_\t2:dep\t_\n\n")
    one, two = parse_conll(text)
    assert one.heads.tolist() == [2, 0, 2] and one.deprels == ("nsubj", "root", "punct")
    assert one.misc == ("_", "SpaceAfter=No", "_")
    assert two.multiword == ((1, 2, "du", "_"),) and two.heads.tolist() == [2, 0]
