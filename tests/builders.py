"""Small input files written by the tests."""

ROW = "{}\tw{}\t_\tX\t_\t_\t{}\t{}\t_\t_\n"


def conll(rows):
    """One CoNLL sentence from ``(head, relation)`` pairs, words ``w1``, ``w2``, ..."""
    return "".join(ROW.format(k, k, h, r) for k, (h, r) in enumerate(rows, 1)) + "\n"


def write_two_annotators(tmp_path):
    """Two annotators' files of four sentences that differ in the first."""
    a, b = tmp_path / "a.conll", tmp_path / "b.conll"
    a.write_text(conll([(2, "x"), (0, "root"), (2, "y")]) + conll([(0, "root"), (1, "x")]) * 3, encoding="utf-8")
    b.write_text(conll([(3, "x"), (0, "root"), (2, "z")]) + conll([(0, "root"), (1, "y")]) * 3, encoding="utf-8")
    return a, b
