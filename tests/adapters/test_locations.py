"""Error locations name the line in the file, then the sentence (with its sent_id) and token:
``file:LINE: sentence N (sent_id X), token M: message`` (issue 15, item 6)."""
import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.corpus import ReadStats
from spacy_agreement.errors import Location

runner = CliRunner()


def row(i, form, head, rel="dep"):
    return f"{i}\t{form}\t_\tX\t_\t_\t{head}\t{rel}\t_\t_\n"


FIRST = (
    "# newdoc id = d1\n"                                # line 1
    "# sent_id = s1\n"                                  # line 2
    "# text = A B\n"                                    # line 3
    + row(1, "A", 2) + row(2, "B", 0, "root")          # lines 4-5
    + "\n"                                              # line 6
)


def second(head_of_4="1", third=None):
    """Sentence 2 from line 7: comments, a multiword range, an empty node; token 4 on line 14."""
    return (
        "# sent_id = s2\n"                              # line 7
        "# text = C de F\n"                             # line 8
        + row(1, "C", 0, "root")                        # line 9
        + "2-3\tde\t_\t_\t_\t_\t_\t_\t_\t_\n"          # line 10
        + row(2, "d", 1)                                # line 11
        + (third if third is not None else row(3, "e", 1))  # line 12
        + "3.1\tgap\t_\t_\t_\t_\t_\t_\t1:dep\t_\n"     # line 13
        + row(4, "F", head_of_4)                        # line 14
        + "\n"
    )


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_head_out_of_range_names_line_sentence_sent_id_and_token(tmp_path):
    path = write(tmp_path, "a.conllu", FIRST + second(head_of_4="9"))
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.read_conll(path)
    assert str(err.value) == f"{path}:14: sentence 2 (sent_id s2), token 4: head 9 out of range 0..4"
    assert err.value.location.line == 7 and err.value.location.sent_id == "s2"


def test_trees_know_the_line_of_their_sentence_and_of_every_token(tmp_path):
    path = write(tmp_path, "a.conllu", FIRST + second())
    stats = ReadStats()
    first, tree = sa.read_conll(path, stats=stats)
    assert (stats.sentences, stats.multiword_ranges, stats.empty_nodes) == (2, 1, 1)
    assert str(first.location) == f"{path}:1: sentence 1 (sent_id s1)"  # the block starts at its first comment
    assert str(tree.location) == f"{path}:7: sentence 2 (sent_id s2)"
    assert tree.location.token_lines == (9, 11, 12, 14)
    assert [tree.location.at_token(t).file_line for t in ("1", "2", "3", "4")] == [9, 11, 12, 14]
    assert tree.location.at_token("2-3").file_line == 10 and tree.location.at_token("3.1").file_line == 13
    # an id without a line of its own: the sentence's line
    assert str(tree.location.at_token("x")) == f"{path}:7: sentence 2 (sent_id s2), token x"


def test_self_head_in_strict_mode_names_the_token_line(tmp_path):
    path = write(tmp_path, "a.conllu", FIRST + second(head_of_4="4"))
    assert len(sa.read_conll(path)) == 2  # read by default
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.read_conll(path, cycles="raise")
    assert str(err.value) == f"{path}:14: sentence 2 (sent_id s2), token 4: token is its own head"


def test_column_count_error_names_its_line(tmp_path):
    short = "3\te\t_\tX\t_\t_\t1\tdep\t_\n"  # 9 columns
    path = write(tmp_path, "a.conllu", FIRST + second(third=short))
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.read_conll(path)
    assert str(err.value) == f"{path}:12: sentence 2 (sent_id s2), token 3: line has 9 columns, expected 10"


def test_malformed_line_names_its_line(tmp_path):
    path = write(tmp_path, "a.conllu", FIRST + second(head_of_4="x"))
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.read_conll(path)
    assert str(err.value).startswith(f"{path}:14: sentence 2 (sent_id s2), token 4: malformed line: ")


def test_sentence_without_sent_id_and_text_read_from_a_string():
    text = row(1, "A", 0, "root") + "\n\n\n" + row(1, "A", 0, "root") + row(2, "B", 7) + "\n"
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.parse_conll(text, name="s.conll")
    assert str(err.value) == "s.conll:6: sentence 2, token 2: head 7 out of range 0..2"  # three blank lines


def test_bracket_file_errors_name_the_line_the_tree_starts_on(tmp_path):
    good = write(tmp_path, "good.tree", "(S (NP P))\n\n(S\n  (NP P)\n  (VP V))\n")
    assert [t.location.line for t in sa.read_brackets(good)] == [1, 3]
    assert str(sa.read_brackets(good)[1].location) == f"{good}:3: sentence 2"
    unclosed = write(tmp_path, "bad.tree", "(S (NP P))\n\n(S\n  (NP P)\n  (VP V)\n")
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.read_brackets(unclosed)
    assert str(err.value).startswith(f"{unclosed}:3: sentence 2: unbalanced '('")
    empty = write(tmp_path, "empty.tree", "(S (NP P))\n\n\n()\n")
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.read_brackets(empty)
    assert str(err.value) == f"{empty}:4: sentence 2: empty tree '()'"


def test_cli_prints_the_one_line_and_exits_1(tmp_path):
    a = write(tmp_path, "a.conllu", FIRST + second())
    b = write(tmp_path, "b.conllu", FIRST + second(head_of_4="4"))
    result = runner.invoke(app, ["alpha", "--strict", str(a), str(b)])
    assert result.exit_code == 1, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == [f"{b}:14: sentence 2 (sent_id s2), token 4: token is its own head"]


def test_locations_without_file_lines():
    assert str(Location("x", 3, "5")) == "x: sentence 3, token 5"
    assert str(Location("x", 3)) == "x: sentence 3"
    assert str(Location("x")) == "x"
    assert str(sa.InvalidTreeError("bad", Location("x"))) == "x: bad"
    tree = sa.DependencyTree.create([0, 3, 3], ["root", "a", "b"], location=Location("built", 2))
    assert str(tree.cycle_error()) == "built: sentence 2, token 3: token is its own head"


def test_location_equality_and_hash():
    a = Location("f", 2, None, 7, "s2", token_offsets=(2, 4))  # words on lines 9 and 11
    b = Location("f", 2, None, 7, "s2", token_offsets=(2, 4))
    assert a.token_lines == (9, 11) and Location("f", 2, token_offsets=(2, 4)).token_lines == ()
    assert a == b and hash(a) == hash(b) and a.at_token(2) == b.at_token("2")
    assert a.at_token(2).token_line == 11 and a != Location("f", 2)
    assert str(a.at_token(2)) == "f:11: sentence 2 (sent_id s2), token 2"
