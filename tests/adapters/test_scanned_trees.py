"""The trees of a path read through the compiled scanner (``scanned_trees``, issue 50) against the
trees of the Python reader on the same text (``iter_conll`` of an open file, which never scans):
the same columns, heads, ids, locations (every token's line, ranges' and empty nodes' lines),
multiword tokens, relations not annotated, the same ``ReadStats``, and the same error where the
Python reader raises one (the scanner's path then leaves the file to it)."""
from __future__ import annotations

import io
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_agreement.adapters.conllu import scanned_trees as scanned_module
from spacy_agreement.adapters.conllu.trees import iter_conll, read_conll
from spacy_agreement.corpus import ReadStats
from spacy_agreement.errors import InvalidTreeError

COLUMNS = ("forms", "deprels", "upos", "ids", "lemmas", "feats", "xpos", "misc", "multiword", "unannotated",
           "unlabelled")


@pytest.fixture(autouse=True)
def every_file_scanned(monkeypatch):
    """The small files of these tests through the compiled scanner too (in use it reads a file from
    ``SCAN_FROM_BYTES`` on; ``test_small_files_are_read_by_the_python_reader`` checks below it)."""
    monkeypatch.setattr("spacy_agreement.adapters.conllu.scan.SCAN_FROM_BYTES", 0)


def python_trees(text, **options):
    stats = ReadStats()
    try:
        return list(iter_conll(io.StringIO(text), "f.conllu", stats=stats, **options)), stats
    except InvalidTreeError as exc:
        return str(exc), stats


def path_trees(path, **options):
    stats = ReadStats()
    try:
        return list(iter_conll(path, "f.conllu", stats=stats, **options)), stats
    except InvalidTreeError as exc:
        return str(exc), stats


def assert_same(expected, got):
    trees, stats = expected
    fast, fast_stats = got
    if isinstance(trees, str):
        assert fast == trees
        return
    assert stats == fast_stats
    assert len(trees) == len(fast)
    for x, y in zip(trees, fast):
        for name in COLUMNS:
            assert getattr(x, name) == getattr(y, name), name
        assert x.heads.dtype == y.heads.dtype and np.array_equal(x.heads, y.heads)
        assert not y.heads.flags.writeable
        assert x.location == y.location
        assert x.location.token_offsets == y.location.token_offsets
        assert x.location.extra_offsets == y.location.extra_offsets
        assert x.partial == y.partial


def random_file(rng: random.Random, odd: bool) -> str:
    """Plain CoNLL-U the scanner reads (ranges, empty nodes, relations ``_``, several roots, head
    cycles, comments of every kind) and, with ``odd``, now and then a line it leaves to the Python
    reader (a head ``_``, a head out of range, a BOM, CRLF, a global.columns line)."""
    lines = []
    if odd and rng.random() < 0.1:
        lines.append("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC")
    for s in range(rng.randrange(1, 6)):
        comment = rng.choice(["# sent_id = s{}", "# sent_id =  s{} ", "# sent_id=s{}", "# sent_id = s{}=x",
                              "# text = a b", "# newdoc id = d{}", None])
        if comment:
            lines.append(comment.format(s))
        n = rng.randrange(1, 8)
        k = 1
        while k <= n:
            if rng.random() < 0.15 and k < n:
                last = min(n, k + rng.randrange(1, 3))
                lines.append(f"{k}-{last}\tdu{k}\t_\t_\t_\t_\t_\t_\t_\t{rng.choice(['_', 'SpaceAfter=No'])}")
                words = range(k, last + 1)
            else:
                words = range(k, k + 1)
            for w in words:
                head = rng.choice([0, rng.randrange(0, n + 1), w])  # roots, any head, self-heads
                if odd and rng.random() < 0.03:
                    head = rng.choice(["_", n + 1, "-1"])
                deprel = rng.choice(["nsubj", "obj", "_", "root", "Root"])
                lines.append(f"{w}\tw{rng.randrange(9)}\t{rng.choice(['a', '_'])}\t{rng.choice(['NOUN', 'X'])}\t"
                             f"{rng.choice(['NN', '_'])}\t{rng.choice(['_', 'Case=Nom'])}\t{head}\t{deprel}\t_\t"
                             f"{rng.choice(['_', 'SpaceAfter=No', 'Gloss=x'])}")
            k = words[-1] + 1
            if rng.random() < 0.1:
                lines.append(f"{k - 1}.1\tgone\t_\t_\t_\t_\t_\t_\t{k - 1}:x\t_")
        lines.append("")
    text = "\n".join(lines) + "\n"
    if odd and rng.random() < 0.05:
        text = "\ufeff" + text
    if odd and rng.random() < 0.05:
        text = text.replace("\n", "\r\n")
    return text


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans(), st.sampled_from(["drop", "raise"]))
def test_the_scanned_trees_are_the_python_readers(tmp_path_factory, seed, odd, single_root, cycles):
    text = random_file(random.Random(seed), odd)
    path = tmp_path_factory.mktemp("scan") / "f.conllu"
    path.write_bytes(text.encode("utf-8"))
    options = {"single_root": single_root, "cycles": cycles}
    assert_same(python_trees(text, **options), path_trees(path, **options))


def test_the_scanner_path_is_taken_for_plain_files(tmp_path, monkeypatch):
    """Not a vacuous comparison: a plain file with ranges, empty nodes and relations ``_`` is read
    through ``scanned_trees``, and gives what the Python reader gives."""
    text = ("# sent_id = a\n1-2\tdu\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n1\tde\tde\tADP\t_\t_\t3\tcase\t_\t_\n"
            "2\tle\tle\tDET\t_\t_\t3\t_\t_\t_\n2.1\tx\t_\t_\t_\t_\t_\t_\t3:x\t_\n3\tchat\tchat\tNOUN\t_\t_\t0\troot\t_\t_\n\n"
            "# sent_id = b\n1\tOui\toui\tINTJ\t_\t_\t0\troot\t_\t_\n\n")
    path = tmp_path / "f.conllu"
    path.write_text(text, encoding="utf-8")
    calls = []
    original = scanned_module.scanned_trees

    def counting(*args, **kwargs):
        result = original(*args, **kwargs)
        calls.append(result is not None)
        return result

    monkeypatch.setattr("spacy_agreement.adapters.conllu.trees.scanned_trees", counting)
    got = path_trees(path)
    assert calls == [True]
    assert_same(python_trees(text), got)
    first = got[0][0]
    assert first.multiword == ((1, 2, "du", "SpaceAfter=No"),)
    assert first.unlabelled == (2,)
    assert first.location.extra_offsets == (("1-2", 1), ("2.1", 4))
    assert first.location.token_lines == (3, 4, 6)
    assert got[1] == ReadStats(sentences=2, multiword_ranges=1, empty_nodes=1, partial_trees=1, unlabelled_tokens=1)


@pytest.mark.parametrize("head, message", [("_", None), ("9", "head 9 out of range 0..1")])
def test_what_the_scanner_leaves_is_read_by_the_python_reader(tmp_path, head, message):
    path = tmp_path / "f.conllu"
    path.write_text(f"# sent_id = a\n1\tx\t_\tX\t_\t_\t{head}\troot\t_\t_\n\n", encoding="utf-8")
    if message is None:  # a head not annotated yet: read, as the Python reader reads it
        (tree,) = read_conll(path)
        assert tree.unannotated == (1,)
    else:
        with pytest.raises(InvalidTreeError, match=message) as caught:
            read_conll(path)
        assert "f.conllu:2" in str(caught.value)


def test_strings_are_shared_between_sentences(tmp_path):
    """One string object per value of the file (the scanner's table), one ids tuple per length."""
    path = tmp_path / "f.conllu"
    path.write_text("".join(f"# sent_id = {k}\n1\tdog\t_\tNOUN\t_\t_\t0\troot\t_\t_\n\n" for k in range(3)),
                    encoding="utf-8")
    trees = read_conll(path)
    assert trees[0].upos[0] is trees[2].upos[0]
    assert trees[0].ids is trees[1].ids


def bytes_trees(data, **options):
    """A file's bytes in memory as the ZIP exports' reader takes them: the compiled reading where
    the scanner reads them, else the Python reader over them as open() reads a file."""
    stats = ReadStats()
    try:
        found = scanned_module.trees_from_bytes(data, "f.conllu", stats=stats, **options)
        if found is None:
            return list(iter_conll(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"), "f.conllu", stats=stats,
                                   **options)), stats
        return list(found), stats
    except InvalidTreeError as exc:
        return str(exc), stats


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans(), st.sampled_from(["drop", "raise"]))
def test_bytes_in_memory_give_the_python_readers_trees(seed, odd, single_root, cycles):
    text = random_file(random.Random(seed), odd)
    options = {"single_root": single_root, "cycles": cycles}
    assert_same(python_trees(text.replace("\r\n", "\n"), **options), bytes_trees(text.encode("utf-8"), **options))


def test_tool_exports_in_memory_are_read_by_the_scanner(tmp_path):
    """A ZIP export's members and a multi-user file go through the compiled reading (their trees
    carry the scanner's columns, which layers counts on), with the locations the Python reader gives."""
    import zipfile

    from spacy_agreement.adapters.conllu.scanned_trees import scanned_words
    from spacy_agreement.adapters.multi_user import load_multi_user
    from spacy_agreement.adapters.projects import load_project

    sentence = "# sent_id = s{k}\n# user = {user}\n1\tdog\t_\tNOUN\t_\t_\t0\t{rel}\t_\t_\n\n"
    multi = tmp_path / "multi.conllu"
    multi.write_text("".join(sentence.format(k=k, user=u, rel=r) for k in range(3) for u, r in (("ann", "root"),
                                                                                                   ("bob", "dep"))),
                     encoding="utf-8")
    corpus = load_multi_user(multi, key="user")
    trees = [item[name] for item in corpus.items for name in corpus.annotators]
    assert len(trees) == 6 and all(scanned_words(t) is not None for t in trees)
    assert trees[1].deprels == ("dep",) and trees[1].location.line == 5 and trees[1].location.source == str(multi)
    with zipfile.ZipFile(tmp_path / "export.zip", "w") as archive:
        for user, rel in (("ann", "root"), ("bob", "dep")):
            archive.writestr(f"annotation/doc.conllu/{user}.conllu",
                             "".join(sentence.format(k=k, user=user, rel=rel) for k in range(3)))
    project = load_project(tmp_path / "export.zip")
    zipped = [item[name] for item in project.items for name in project.annotators]
    assert len(zipped) == 6 and all(scanned_words(t) is not None for t in zipped)
    assert zipped[0].location.source.endswith("export.zip:annotation/doc.conllu/ann.conllu")


def test_small_files_are_read_by_the_python_reader(tmp_path, monkeypatch):
    """Below ``SCAN_FROM_BYTES`` (a file, a ZIP member) the Python reader reads, and its trees carry no
    scanner columns (a corpus of one sentence per file keeps no table per file); the trees are the
    same either way, and at the threshold the scanner reads."""
    from spacy_agreement.adapters.conllu import scan
    from spacy_agreement.adapters.conllu.scanned_trees import scanned_words

    monkeypatch.undo()
    assert scan.SCAN_FROM_BYTES == 4096
    text = random_file(random.Random(3), False)
    data = text.encode("utf-8")
    path = tmp_path / "f.conllu"
    path.write_bytes(data)
    for threshold, scanned in ((len(data) + 1, False), (len(data), True)):
        monkeypatch.setattr(scan, "SCAN_FROM_BYTES", threshold)
        trees = path_trees(path)
        assert_same(python_trees(text), trees)
        assert all((scanned_words(t) is not None) == scanned for t in trees[0])
        assert (scanned_module.trees_from_bytes(data, "f.conllu") is not None) == scanned


def test_a_shrunk_string_table_still_finds_and_takes_values():
    """``StringTable.shrink`` (a file's own table after its scan) cuts the storage down; the codes
    stay, new values are added and found, and merging into another table gives the same codes."""
    from spacy_agreement import _conllu

    table = _conllu.StringTable()
    values = [f"v{k}" * (k % 5 + 1) for k in range(300)]
    codes = [table.code(v) for v in values]
    table.shrink()
    assert [table.code(v) for v in values] == codes and table.strings == values
    more = [f"w{k}" for k in range(5000)]
    assert [table.code(v) for v in more] == list(range(300, 5300))
    assert [table.code(v) for v in values + more] == codes + list(range(300, 5300))
    other = _conllu.StringTable()
    other.code("w7")
    mapped = table.merge_into(other)
    assert [other.strings[k] for k in mapped.tolist()] == values + more
    empty = _conllu.StringTable()
    empty.shrink()
    assert empty.code("x") == 0 and len(empty) == 1


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_tree_codes_are_the_trees_columns(tmp_path_factory, seed):
    """``tree_codes`` gathers the columns of trees from two files, in any order, one tree twice:
    each token's code is the string its tree holds, in one table; a tree not read through the
    scanner gives None."""
    from spacy_agreement import DependencyTree
    from spacy_agreement.adapters.conllu.scanned_trees import CODE_COLUMNS, tree_codes

    rng = random.Random(seed)
    folder = tmp_path_factory.mktemp("codes")
    trees = []
    for name in ("a", "b"):
        path = folder / f"{name}.conllu"
        path.write_text(random_file(rng, False), encoding="utf-8")
        trees += list(read_conll(path))
    rng.shuffle(trees)
    trees.append(trees[0])
    names = list(CODE_COLUMNS)
    left = [tree for tree in trees if scanned_module.scanned_words(tree) is None]  # a file the scanner leaves
    if left:
        assert tree_codes(trees, names) is None
        trees = [tree for tree in trees if scanned_module.scanned_words(tree) is not None]
    found = tree_codes(trees, names)
    attributes = {"form": "forms", "lemma": "lemmas", "upos": "upos", "xpos": "xpos", "feats": "feats",
                  "deprel": "deprels", "misc": "misc"}
    for k, tree in enumerate(trees):
        a, b = found.offsets[k], found.offsets[k + 1]
        assert found.heads[a:b].tolist() == tree.heads.tolist()
        for c, name in enumerate(names):
            assert [found.strings[x] for x in found.codes[c, a:b]] == list(getattr(tree, attributes[name])), name
    made = DependencyTree.create([0], ["root"], ["w"])
    assert tree_codes(trees + [made], names) is None
    assert tree_codes([], ["form"]).codes.shape == (1, 0)


def test_the_scanners_trees_make_every_field_of_the_dataclass_when_asked(tmp_path):
    """The scanner's trees (``DependencyTree._scanned``) hold their codes and make each field when
    first asked for, the same object after; pickled and copied with every field made, without their
    codes; their locations equal and hashed as the dataclass's own ``__init__`` makes them; a name
    that is not a field is an AttributeError as on any object."""
    import copy
    import dataclasses
    import pickle

    from spacy_agreement import DependencyTree
    from spacy_agreement.errors import Location

    path = tmp_path / "f.conllu"
    path.write_text(random_file(random.Random(3), False) * 3, encoding="utf-8")
    trees = read_conll(path)
    assert len(trees) >= 4
    tree = trees[0]
    names = {f.name for f in dataclasses.fields(DependencyTree)}
    assert set(tree.__dict__) == {"_scan", "_lazy", "forms", "heads", "unannotated", "unlabelled"}
    cold = pickle.loads(pickle.dumps(trees[1]))  # never asked: pickled with every field made
    assert set(cold.__dict__) == names and cold.forms == trees[1].forms and cold.location == trees[1].location
    assert set(copy.copy(trees[2]).__dict__) == names
    assert len(tree) == len(tree.heads)
    assert tree.forms is tree.forms and tree.location is tree.location
    for name in names:
        getattr(tree, name)
    assert set(tree.__dict__) == names | {"_scan", "_lazy"}
    location = tree.location
    assert set(location.__dict__) == {f.name for f in dataclasses.fields(Location)}
    made = Location(**{f.name: getattr(location, f.name) for f in dataclasses.fields(Location)})
    assert made == location and hash(made) == hash(location) and repr(made) == repr(location)
    again = pickle.loads(pickle.dumps(tree))
    assert "_scan" not in again.__dict__ and again.forms == tree.forms and again.location == location
    assert dataclasses.replace(tree, deprels=tree.deprels).forms == tree.forms
    assert repr(trees[3]) == repr(dataclasses.replace(trees[3]))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        tree.nothing  # noqa: B018
    assert not hasattr(DependencyTree.create([0], ["root"]), "nothing")
    assert DependencyTree.create([0], ["root"]).lemmas == ("_",)
    assert DependencyTree(("a",), np.zeros(1, np.int32), ("root",), ("X",), ("1",)).lemmas == ()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["#", " ", "sent_id", "user_id", "=", "x", "\t", "a b", "==", "\u3000"]), max_size=8),
       st.sampled_from(["sent_id", "user_id", "x"]))
def test_comment_values_as_conllu_parses_them(pieces, key):
    """``comment_value`` (the sent_id of the scanner's trees, the annotator of a multi-user file) reads
    a comment line as conllu's ``parse_comment_line`` does, for keys it has no parser of its own for."""
    from conllu.parser import parse_comment_line

    from spacy_agreement.adapters.conllu.scanned_trees import comment_value

    line = "#" + "".join(pieces)
    found = None
    if line.strip():
        for name, value in parse_comment_line(line):
            if name == key:
                found = value
    assert comment_value(line, key) == found
