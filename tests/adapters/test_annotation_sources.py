"""The kinds of annotator input are sources registered in ``ANNOTATION_SOURCES`` and tried in a
documented order (issue 40: tool exports as registered sources tried in order, not an if-ladder):
each built-in source recognises its input and no source before it does, a registered source is
tried before the built-in ones, and one path nothing recognises keeps its message."""
import json
import zipfile

import pytest

import spacy_agreement as sa
from spacy_agreement.adapters import annotations
from spacy_agreement.adapters.annotations import (ANNOTATION_SOURCES, LoadOptions, load_annotations,
                                                  register_annotation_source, source_order,
                                                  unregister_annotation_source)
from spacy_agreement.errors import BadOptionError
from spacy_agreement.registry import RegistryError

BUILT_IN = ("annotator-folders", "project", "prodigy", "multi-user", "docbin", "parallel-files")


def conllu(heads, sent_id="s1", extra=""):
    rows = "".join(f"{k}\tw{k}\t_\tX\t_\t_\t{h}\t{'root' if h == 0 else 'dep'}\t_\t_\n"
                   for k, h in enumerate(heads, 1))
    return f"# sent_id = {sent_id}\n{extra}{rows}\n"


@pytest.fixture
def inputs(tmp_path):
    """One input of each kind, with the source that must read it."""
    a, b = tmp_path / "anna.conllu", tmp_path / "ben.conllu"
    a.write_text(conllu([2, 0, 2]), encoding="utf-8")
    b.write_text(conllu([0, 1, 2]), encoding="utf-8")
    multi = tmp_path / "multi.conllu"
    multi.write_text(conllu([2, 0, 2], extra="# user_id = anna\n") + conllu([0, 1, 2], extra="# user_id = ben\n"),
                     encoding="utf-8")
    export = tmp_path / "export"
    for name, heads in (("anna", [2, 0, 2]), ("ben", [0, 1, 2])):
        (export / "annotation" / "doc.txt").mkdir(parents=True, exist_ok=True)
        (export / "annotation" / "doc.txt" / f"{name}.conllu").write_text(conllu(heads), encoding="utf-8")
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for file in sorted(export.rglob("*.conllu")):
            out.write(file, file.relative_to(export).as_posix())
    prodigy = tmp_path / "db-out.jsonl"
    tasks = [{"text": "w1 w2", "tokens": [{"text": "w1", "id": 0}, {"text": "w2", "id": 1}],
              "relations": [{"head": 1, "child": 0, "label": "dep"}, {"head": 1, "child": 1, "label": "ROOT"}],
              "answer": "accept", "_input_hash": 1, "_annotator_id": name} for name in ("anna", "ben")]
    prodigy.write_text("".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")
    folders = []
    for name, heads in (("anna", [2, 0, 2]), ("ben", [0, 1, 2])):
        folder = tmp_path / "folders" / name
        folder.mkdir(parents=True)
        (folder / "text1.conllu").write_text(conllu(heads), encoding="utf-8")
        folders.append(folder)
    return [("parallel-files", [a, b], {}), ("multi-user", [multi], {}), ("project", [export], {}),
            ("project", [archive], {}), ("prodigy", [prodigy], {}), ("annotator-folders", folders, {"dirs": True})]


def test_the_built_in_sources_and_their_order():
    assert source_order() == BUILT_IN
    assert all(ANNOTATION_SOURCES.is_builtin(name) for name in BUILT_IN)
    assert [name for name in ANNOTATION_SOURCES] == list(BUILT_IN)


def test_each_input_is_read_by_its_source_and_no_source_before_it_recognises_it(inputs):
    for expected, paths, options in inputs:
        given = LoadOptions(**options)
        first = next(name for name in source_order() if ANNOTATION_SOURCES[name].recognises(paths, given))
        assert first == expected, paths
        corpus = load_annotations(paths, **options)
        assert set(corpus.annotators) == {"anna", "ben"}, expected


def test_a_registered_source_is_tried_first_and_unregistered_again(inputs, tmp_path):
    seen = []
    toy = sa.Corpus.from_items([{"x": sa.DependencyTree.create([0], ["root"]),
                                 "y": sa.DependencyTree.create([0], ["root"])}])

    def recognises(paths, options):
        seen.append(len(paths))
        return all(str(p).endswith(".conllu") for p in paths)

    def load(paths, options):
        assert isinstance(options, LoadOptions) and options.single_root
        return toy

    register_annotation_source("toy", recognises, load, "toy files")
    try:
        assert source_order() == ("toy",) + BUILT_IN
        _, paths, _ = inputs[0]  # two CoNLL-U files: parallel files but for the toy source
        assert load_annotations(paths, single_root=True) is toy
        assert seen == [2]
        with pytest.raises(RegistryError):
            register_annotation_source("toy", recognises, load)
        # a second registered source comes before the first
        register_annotation_source("toy-two", lambda paths, options: True, lambda paths, options: "second")
        try:
            assert source_order()[:2] == ("toy-two", "toy")
            assert load_annotations(paths) == "second"
        finally:
            unregister_annotation_source("toy-two")
    finally:
        unregister_annotation_source("toy")
    assert source_order() == BUILT_IN
    assert load_annotations(paths).annotators == ("anna", "ben")


def test_a_built_in_source_cannot_be_removed():
    with pytest.raises(RegistryError, match="built in"):
        unregister_annotation_source("prodigy")
    assert "prodigy" in ANNOTATION_SOURCES


def test_one_path_no_source_recognises_keeps_its_message(tmp_path):
    path = tmp_path / "one.conllu"
    path.write_text(conllu([2, 0, 2]), encoding="utf-8")
    for given in (path, tmp_path / "missing.conllu"):
        with pytest.raises(BadOptionError, match=r"one path holds one annotator here: give two or more files"):
            load_annotations([given])
    assert annotations.__all__ and "load_annotations" in annotations.__all__
