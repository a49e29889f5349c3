"""Plain CoNLL lines are read without conllu's token objects (issue 42: annotator folders of
8,803 small files in ≤ 1 s): the same trees, locations, counts and errors as the general way,
which the test forces by turning the quick reading off."""
import dataclasses
from pathlib import Path

import pytest

from spacy_agreement.adapters.conllu import trees as conllu_trees
from spacy_agreement.adapters.conllu.trees import ReadStats, parse_conll, read_conll
from spacy_agreement.errors import InvalidTreeError

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = sorted(p for p in DATA.rglob("*") if p.suffix in (".conll", ".conllu") and p.is_file())


def _fields(tree):
    return {f.name: getattr(tree, f.name) for f in dataclasses.fields(tree)}


def _same(a, b):
    fa, fb = _fields(a), _fields(b)
    assert fa.keys() == fb.keys()
    for key in fa:
        x, y = fa[key], fb[key]
        if hasattr(x, "tolist"):
            x, y = x.tolist(), y.tolist()
        assert x == y and type(x) is type(y), key
    assert a.location.token_lines == b.location.token_lines


def _read_both(read, monkeypatch):
    """What ``read()`` gives (trees, stats or the error) the quick way and the general way."""
    outcomes = []
    for quick in (True, False):
        with monkeypatch.context() as patch:
            if not quick:
                patch.setattr(conllu_trees, "_quick_columns", lambda rows: None)
            stats = ReadStats()
            try:
                outcomes.append((read(stats), vars(stats).copy(), None))
            except (InvalidTreeError, UnicodeDecodeError, ValueError) as exc:
                outcomes.append((None, None, (type(exc), str(exc))))
    return outcomes


def test_the_fixtures_hold_plain_files():
    assert len(FILES) > 50


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_a_file_reads_the_same_either_way(path, monkeypatch):
    (quick, quick_stats, quick_error), (general, general_stats, general_error) = _read_both(
        lambda stats: read_conll(path, stats=stats), monkeypatch)
    assert quick_error == general_error
    if quick is not None:
        assert len(quick) == len(general) and quick_stats == general_stats
        for a, b in zip(quick, general):
            _same(a, b)


@pytest.mark.parametrize("text", [
    "1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n2\tb\t_\tX\t_\t_\t1\tdep\t_\t_\n",            # plain
    "1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n3\tb\t_\tX\t_\t_\t1\tdep\t_\t_\n",            # ids skip: the error
    "1\ta\t_\tX\t_\t_\t_\t_\t_\t_\n2\tb\t_\tX\t_\t_\t1\t_\t_\t_\n",                  # HEAD _, DEPREL _
    "1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n2\tb\t_\tX\t_\t_\t7\tdep\t_\t_\n",            # head out of range
    "1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n2\tb\t_\tX\t_\t_\t0\troot\t_\t_\n",           # two roots
    "1\ta\t_\tX\t_\t_\t01\troot\t_\t_\n",                                            # a head conllu reads otherwise
    "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n2\tb\t_\tX\t_\t_\t1\tdep\t_\t_\n",  # multiword
    "1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n1.1\te\t_\tX\t_\t_\t_\t_\t0:root\t_\n",        # empty node
    "1\ta  b\t_\tX\t_\t_\t0\troot\t_\t_\n",                                           # two spaces
    "1\ta\t_\tX\t_\t_\t0\troot\t_\n",                                                 # nine columns
    "1\ta\t_\tX\t_\t_\t1\troot\t_\t_\n",                                              # its own head
])
@pytest.mark.parametrize("single_root", [False, True])
def test_a_sentence_reads_the_same_either_way(text, single_root, monkeypatch):
    document = f"# sent_id = s1\n# text = x\n{text}\n{text}"
    (quick, quick_stats, quick_error), (general, general_stats, general_error) = _read_both(
        lambda stats: list(conllu_trees.iter_conll(__import__("io").StringIO(document), "doc", single_root, stats)),
        monkeypatch)
    assert quick_error == general_error
    if quick is not None:
        assert quick_stats == general_stats
        for a, b in zip(quick, general):
            _same(a, b)
        assert parse_conll(document)[0].location.sent_id == "s1"
