"""The reader registry: a new input format is one registration, picked up by the loaders and by
every command that reads files (issue: a new format took about eight edits in three places)."""
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.adapters import files
from spacy_agreement.adapters.files import (READERS, first_content, guess_format, read_trees, reader_names,
                                            register_reader, unregister_reader)
from spacy_agreement.adapters.docbin import read_docbin
from spacy_agreement.cli import app
from spacy_agreement.errors import BadOptionError
from spacy_agreement.registry import Registry, RegistryError
from spacy_agreement.evaluation.constituency.leaf_ancestor import leaf_ancestor

runner = CliRunner()

A = "2 0 2\n0 1 2 2\n"
B = "2 0 1\n0 1 1 3\n"


def _sniff_heads(path) -> bool:
    first_line = first_content(path).split(b"\n", 1)[0].split()
    return bool(first_line) and all(token.isdigit() for token in first_line)


def _read_heads(path, **options):
    """A toy format, one tree a line as its list of heads (1-based, 0 the root); a blank line is
    a failed parse. Options meant for other readers (cycles, leaves, ...) are ignored."""
    trees = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            heads = [int(h) for h in line.split()]
            trees.append(sa.DependencyTree.create(heads, ["dep"] * len(heads), [f"w{k}" for k in range(1, len(heads) + 1)],
                                                  location=sa.Location(str(path), number)) if heads else None)
    return trees


@pytest.fixture
def heads_format():
    register_reader("heads", [".heads"], _sniff_heads, _read_heads, family="dependency", description="head lists")
    yield
    unregister_reader("heads")


@pytest.fixture
def heads_files(tmp_path):
    a, b = tmp_path / "a.heads", tmp_path / "b.heads"
    a.write_text(A, encoding="utf-8")
    b.write_text(B, encoding="utf-8")
    return a, b


def _expected_alpha():
    trees = [[sa.DependencyTree.create(list(map(int, x.split())), ["dep"] * len(x.split())),
              sa.DependencyTree.create(list(map(int, y.split())), ["dep"] * len(y.split()))]
             for x, y in zip(A.splitlines(), B.splitlines())]
    return sa.alpha(trees)


def test_registry_lists_the_built_in_formats():
    assert reader_names()[:2] == ("conll", "bracket")
    assert ".conllu" in READERS["conll"].suffixes and ".mrg" in READERS["bracket"].suffixes
    with pytest.raises(ValueError):
        unregister_reader("conll")
    with pytest.raises(ValueError):
        register_reader("bracket", [".x"], _sniff_heads, _read_heads)
    with pytest.raises(BadOptionError, match="unknown format 'nope'"):
        read_trees("whatever", "nope")


def test_readers_are_a_registry_of_built_in_and_added_formats(heads_format):
    """READERS is the package's one registry type: the three formats of the package are built
    in (``spacy``: adapters/docbin.py's reader, imported on first use), an added one can be removed again, and a
    name must be an identifier (``-`` allowed) that is not taken."""
    assert isinstance(READERS, Registry) and READERS.kind == "reader"
    assert reader_names()[:3] == ("conll", "bracket", "spacy") and reader_names()[-1] == "heads"
    assert all(READERS.is_builtin(name) for name in ("conll", "bracket", "spacy"))
    assert not READERS.is_builtin("heads") and "heads" in READERS and READERS.get("heads").family == "dependency"
    assert files.get_reader("spacy").read.resolve() is read_docbin
    with pytest.raises(RegistryError, match="is built in"):
        unregister_reader("spacy")
    with pytest.raises(RegistryError, match="registered already"):
        register_reader("heads", [".h"], _sniff_heads, _read_heads)
    with pytest.raises(RegistryError, match="not an identifier"):
        register_reader("two words", [".x"], _sniff_heads, _read_heads)
    with pytest.raises(ValueError, match="family"):
        register_reader("trees-of-sorts", [".x"], _sniff_heads, _read_heads, family="graph")
    register_reader("heads-too", [".heads2"], _sniff_heads, _read_heads)
    try:
        assert "heads-too" in reader_names()
    finally:
        unregister_reader("heads-too")
    assert "heads-too" not in READERS


def test_bracket_reader_marks_failed_parses(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("(S (NP P) (VP V))\n\n(S (NP P))\n", encoding="utf-8")
    assert guess_format(path) == "bracket"
    trees = read_trees(path)
    assert trees[1] is None and len(trees) == 3


def test_a_registered_reader_is_found_by_suffix_and_by_content(heads_format, heads_files, tmp_path):
    a, b = heads_files
    assert "heads" in reader_names()
    assert guess_format(a) == "heads"
    unnamed = tmp_path / "c.txt"
    unnamed.write_text(A, encoding="utf-8")
    assert guess_format(unnamed) == "heads"  # sniffed: the content, not the name
    empty = tmp_path / "empty.heads"
    empty.write_text("", encoding="utf-8")
    assert guess_format(empty) == "heads"  # nothing to sniff: the suffix
    corpus = sa.load_parallel_files([a, b])
    assert corpus.family == "dependency" and corpus.annotators == ("a", "b") and len(corpus) == 2
    assert sa.alpha(corpus).alpha_plain == pytest.approx(_expected_alpha().alpha_plain)


def test_a_registered_reader_serves_annotator_dirs(heads_format, tmp_path):
    for name, text in (("x", A), ("y", B)):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"doc-{name}.heads").write_text(text, encoding="utf-8")
    corpus = files.load_annotator_dirs([tmp_path / "x", tmp_path / "y"])
    assert corpus.names == ["doc sentence 1", "doc sentence 2"]
    assert sa.alpha(corpus).alpha_plain == pytest.approx(_expected_alpha().alpha_plain)


def test_a_registered_reader_is_picked_up_by_every_command(heads_format, heads_files, tmp_path):
    a, b = heads_files
    expected = _expected_alpha()
    result = runner.invoke(app, ["alpha", str(a), str(b), "--json"])
    assert result.exit_code == 0, result.output
    values = json.loads(result.stdout)
    assert values["tree_family"] == "dependency"
    assert values["alpha_plain"] == pytest.approx(expected.alpha_plain)
    # --format takes the new name; files named otherwise are read with it
    c, d = tmp_path / "c.txt", tmp_path / "d.txt"
    c.write_text(A, encoding="utf-8")
    d.write_text(B, encoding="utf-8")
    result = runner.invoke(app, ["alpha", str(c), str(d), "--format", "heads", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["alpha_plain"] == pytest.approx(expected.alpha_plain)

    result = runner.invoke(app, ["leaf-ancestor", str(a), str(b), "--json"])
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)
    trees_a, trees_b = _read_heads(a), _read_heads(b)
    assert scores["leaf_ancestor_words"] == pytest.approx(leaf_ancestor(trees_a, trees_b).leaf_ancestor_words)

    page = tmp_path / "report.html"
    result = runner.invoke(app, ["report", str(a), str(b), "--html", str(page), "--quiet"])
    assert result.exit_code == 0, result.output
    assert 'id="summary"' in page.read_text(encoding="utf-8")


def test_format_choices_come_from_the_registry(heads_format, heads_files):
    a, b = heads_files
    result = runner.invoke(app, ["alpha", str(a), str(b), "--format", "nope"])
    assert result.exit_code == 2
    assert "heads" in result.output and "conll" in result.output


def test_document_readers_are_one_registry(tmp_path):
    """The readers of judgments, discourse documents and EVALB's lines live in adapters/ and
    are registered; another one is chosen by name."""
    from spacy_agreement.adapters.documents import DOCUMENT_READERS, register_document_reader
    from spacy_agreement.evaluation.constituency.evalb import evaluate_files
    from spacy_agreement.registry import RegistryError

    assert {"judgments", "discourse", "evalb-lines"} <= set(DOCUMENT_READERS)
    with pytest.raises(RegistryError, match="is taken"):
        register_document_reader("judgments", lambda path: [])
    gold, test = tmp_path / "g.txt", tmp_path / "t.txt"
    gold.write_text("(S (A a) (B b))\n", encoding="latin-1")
    test.write_text("(S (A a) (C b))\n", encoding="latin-1")
    register_document_reader("reversed-lines",
                             lambda path: list(reversed(Path(path).read_text(encoding="latin-1").split("\n")[:-1])))
    try:
        same = evaluate_files(gold, test, reader="reversed-lines")
        assert same.to_dict()["all"] == evaluate_files(gold, test).to_dict()["all"]
    finally:
        DOCUMENT_READERS.unregister("reversed-lines")
