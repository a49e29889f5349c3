"""``_evalb.needs_joining``'s quick answer (every line break at depth 0: no joining, from the
brackets counted a line at a time) against its exact scan and against ``evalb_files._join_trees``,
the Python rule: random texts of brackets, blanks, text and line breaks (trees on one line, spread
over lines, unbalanced, text outside trees) and files past the 1 MiB block, where a line's
brackets fall in two blocks."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_agreement import _evalb
from spacy_agreement.adapters.evalb_files import _join_trees


def _answers(tmp_path, data: bytes):
    path = tmp_path / "brackets"
    path.write_bytes(data)
    return _evalb.needs_joining(path), _evalb._needs_joining_exact(path), bool(_join_trees(data.decode("latin-1")))


pieces = st.sampled_from(["(", ")", "(", ")", "\n", " ", "\t", "\r", "\v", "a", "(S ", "(X x)", "\xe9"])


@settings(max_examples=1500, deadline=None)
@given(st.lists(pieces, max_size=40))
def test_random_texts(tmp_path_factory, parts):
    quick, exact, rule = _answers(tmp_path_factory.mktemp("j"), "".join(parts).encode("latin-1"))
    assert quick == exact == rule


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["(S (A a) (B b))", "( (S\n (A a)))", "(A a", "b)", ") (", "x (A a)", ""]),
                max_size=12),
       st.sampled_from(["\n", "\r\n", "\n\n"]))
def test_trees_a_line_or_spread(tmp_path_factory, trees, end):
    data = end.join(trees).encode("latin-1")
    quick, exact, rule = _answers(tmp_path_factory.mktemp("j"), data)
    assert quick == exact == rule


def test_lines_across_blocks(tmp_path):
    line = b"(S (NP (DT the) (NN dog)) (VP (VBD barked)))\n"
    body = line * ((1 << 20) // len(line) + 3)
    for tail, expected in [(b"", False), (b"( (S\n (A a)))\n", True), (b"(A a\n", False),
                           (b"x\n", False), (b") (A\n a)\n", False), (b"(A\n a))\n", False)]:
        for shift in range(0, 60, 7):  # the block boundary falls at another byte of a line
            data = b" " * shift + body + tail
            assert _answers(tmp_path, data) == (expected,) * 3, (tail, shift)
    spread = b"( (S\n" + b" (X x)" * 400000 + b"\n))\n"  # a tree over 1 MiB and lines
    assert _answers(tmp_path, line * 3 + spread) == (True,) * 3
    assert _answers(tmp_path, b"(A a)\n" * 10 + b"(B\nb)") == (True,) * 3
    assert _answers(tmp_path, b"") == (False,) * 3
