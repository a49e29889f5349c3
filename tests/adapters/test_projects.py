"""Annotation tools' project exports (adapters/projects.py): INCEpTION's annotation/DOCUMENT/USER.conllu
and Arborator-Grew's USER/SAMPLE.conllu, as a folder or a ZIP (also under one top folder), give the same
corpus and α to the last bit, and the α of the same files given one per annotator; pseudo-users
(INITIAL_CAS, CURATION_USER, last, validated) are left out unless included; errors name the path."""
import zipfile

import pytest

from spacy_agreement.adapters.files import load_parallel_files
from spacy_agreement.adapters.projects import ProjectMatch, detect_layout, load_project
from spacy_agreement.agreement.alpha import alpha
from spacy_agreement.errors import BadOptionError, InvalidTreeError, MismatchedCorpusError

# (form, head, relation) rows of each document's sentences by sent_id, for the gold annotation
GOLD = {
    "doc2": {"d2-s1": [("a", 2, "det"), ("cat", 3, "nsubj"), ("sat", 0, "root")],
             "d2-s2": [("dogs", 2, "nsubj"), ("bark", 0, "root"), ("loudly", 2, "advmod")],
             "d2-s3": [("it", 2, "nsubj"), ("rains", 0, "root")]},
    "doc10": {"d10-s1": [("we", 2, "nsubj"), ("left", 0, "root"), ("early", 2, "advmod")],
              "d10-s2": [("see", 0, "root"), ("you", 1, "obj")]},
}
# each annotator's changes (sent_id, token, head, relation) to the gold
CHANGES = {"alice": [], "bob": [("d2-s1", 1, 3, "det"), ("d10-s1", 3, 1, "obl")],
           "carol": [("d2-s2", 3, 1, "obj"), ("d2-s3", 1, 2, "obj")],
           "INITIAL_CAS": [("d2-s1", 2, 3, "dep"), ("d2-s2", 1, 2, "dep")],
           "CURATION_USER": [], "last": [("d2-s1", 1, 3, "det")], "validated": []}
ANNOTATORS = ("alice", "bob", "carol")


def conllu(user, doc, order=None):
    ids = list(GOLD[doc]) if order is None else order
    out = []
    for sent_id in ids:
        rows = [list(r) for r in GOLD[doc][sent_id]]
        for sid, token, head, rel in CHANGES[user]:
            if sid == sent_id:
                rows[token - 1][1:] = [head, rel]
        out.append(f"# sent_id = {sent_id}\n# text = {' '.join(r[0] for r in rows)}\n"
                   + "".join(f"{k}\t{f}\t_\tX\t_\t_\t{h}\t{r}\t_\t_\n" for k, (f, h, r) in enumerate(rows, 1)) + "\n")
    return "".join(out)


def user_files(docs=("doc2", "doc10")):
    """{(user, document): text}: carol lacks doc10; bob's doc2 is in another order."""
    files = {}
    for doc in docs:
        for user in ANNOTATORS:
            if (user, doc) != ("carol", "doc10"):
                order = ["d2-s3", "d2-s1", "d2-s2"] if (user, doc) == ("bob", "doc2") else None
                files[user, doc] = conllu(user, doc, order)
    return files


def inception_entries(docs=("doc2", "doc10")):
    entries = {f"annotation/{doc}.conllu/{user}.conllu": text for (user, doc), text in user_files(docs).items()}
    for doc in docs:
        entries[f"annotation/{doc}.conllu/INITIAL_CAS.conllu"] = conllu("INITIAL_CAS", doc)
        entries[f"annotation_ser/{doc}.conllu/INITIAL_CAS.ser"] = "binary"
        entries[f"source/{doc}.conllu"] = conllu("INITIAL_CAS", doc)
    if "doc2" in docs:
        entries["curation/doc2.conllu/CURATION_USER.conllu"] = conllu("CURATION_USER", "doc2")
    entries["exportedproject.json"] = "{}"
    entries["log/project.log"] = "log"
    return entries


def arborator_entries(docs=("doc2", "doc10")):
    entries = {f"{user}/{doc}.conllu": text for (user, doc), text in user_files(docs).items()}
    for doc in docs:
        entries[f"last/{doc}.conllu"] = conllu("last", doc)
        entries[f"validated/{doc}.conllu"] = conllu("validated", doc)
    entries["alice/notes.txt"] = "not a tree"
    return entries


def as_folder(root, entries, top=""):
    for name, text in entries.items():
        path = root / top / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def as_zip(path, entries, top=""):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in entries.items():
            zf.writestr(top + name, text)
    return path


def exports(tmp_path, entries):
    """The same export as a folder and a ZIP, each also under one top folder."""
    return {"folder": as_folder(tmp_path / "folder", entries),
            "folder/top": as_folder(tmp_path / "topfolder", entries, "project"),
            "zip": as_zip(tmp_path / "export.zip", entries),
            "zip/top": as_zip(tmp_path / "export_top.zip", entries, "project/")}


def trees(corpus):
    return [{n: (t.forms, t.heads.tolist(), t.deprels) for n, t in item.items()} for item in corpus.items]


def alphas(corpus):
    return alpha(corpus, method="exact").alphas


@pytest.mark.parametrize("layout,entries", [("inception", inception_entries), ("arborator", arborator_entries)])
def test_every_form_of_an_export_gives_the_same_corpus(tmp_path, layout, entries):
    corpora = {}
    for form, path in exports(tmp_path, entries()).items():
        assert detect_layout(path) == layout, form
        corpora[form] = load_project(path)
    first = corpora["folder"]
    doc2, doc10 = ("doc2.conllu", "doc10.conllu") if layout == "inception" else ("doc2", "doc10")
    assert first.annotators == ANNOTATORS
    assert first.names == [f"{doc2} d2-s1", f"{doc2} d2-s2", f"{doc2} d2-s3", f"{doc10} d10-s1", f"{doc10} d10-s2"]
    assert isinstance(first.matched_by, ProjectMatch) and first.matched_by.layout == layout
    assert first.matched_by.rule == "sent_id"
    assert first.matched_by.missing == (f"{doc10} d10-s1: lacks carol", f"{doc10} d10-s2: lacks carol")
    for form, corpus in corpora.items():
        assert (corpus.annotators, corpus.names, corpus.matched_by.missing) == (
            first.annotators, first.names, first.matched_by.missing), form
        assert trees(corpus) == trees(first), form
        assert alphas(corpus) == alphas(first), form
    assert first.read_stats["carol"].sentences == 3 and first.read_stats["alice"].sentences == 5


def test_inception_and_arborator_give_the_same_alpha(tmp_path):
    inception = load_project(as_zip(tmp_path / "i.zip", inception_entries()))
    arborator = load_project(as_zip(tmp_path / "a.zip", arborator_entries()))
    assert trees(inception) == trees(arborator)
    assert alphas(inception) == alphas(arborator)


@pytest.mark.parametrize("entries", [inception_entries, arborator_entries])
def test_one_document_gives_the_alpha_of_one_file_per_annotator(tmp_path, entries):
    files = []
    for (user, _), text in user_files(("doc2",)).items():
        files.append(tmp_path / f"{user}.conllu")
        files[-1].write_text(text, encoding="utf-8")
    parallel = load_parallel_files(files)
    project = load_project(as_zip(tmp_path / "one.zip", entries(("doc2",))))
    assert project.annotators == parallel.annotators
    assert trees(project) == trees(parallel)
    assert alphas(project) == alphas(parallel)
    assert [n.split(" ", 1)[1] for n in project.names] == parallel.names


def test_pseudo_users_are_left_out_unless_included(tmp_path):
    path = as_zip(tmp_path / "i.zip", inception_entries())
    notes = " | ".join(load_project(path).matched_by.notes)
    assert "left out CURATION_USER" in notes and "left out INITIAL_CAS" in notes
    assert "file(s) not read" in notes and "exportedproject.json" in notes
    both = load_project(path, include=("INITIAL_CAS", "curation"))
    assert both.annotators == ("CURATION_USER", "INITIAL_CAS", *ANNOTATORS)
    assert "doc10.conllu d10-s1: lacks CURATION_USER, carol" in both.matched_by.missing
    assert load_project(path, include=("CURATION_USER",)).annotators == ("CURATION_USER", *ANNOTATORS)
    folder = as_folder(tmp_path / "arb", arborator_entries())
    assert "left out last" in " ".join(load_project(folder).matched_by.notes)
    assert load_project(folder, include=("last",)).annotators == (*ANNOTATORS, "last")
    assert load_project(folder, layout="annotator-folders").annotators == ANNOTATORS
    with pytest.raises(BadOptionError, match="include"):
        load_project(folder, include=("nobody",))


def test_an_unknown_layout_is_a_bad_option_and_a_wrong_one_names_the_path(tmp_path):
    folder = as_folder(tmp_path / "arb", arborator_entries())
    with pytest.raises(BadOptionError, match="layout"):
        load_project(folder, layout="brat")
    with pytest.raises(MismatchedCorpusError, match="layout 'inception'") as caught:
        load_project(folder, layout="inception")
    assert str(folder) in str(caught.value)


@pytest.mark.parametrize("zipped", [False, True])
def test_something_else_names_the_path_and_the_layouts_looked_for(tmp_path, zipped):
    entries = {"readme.txt": "hello", "a.conllu": conllu("alice", "doc2")}
    path = as_zip(tmp_path / "x.zip", entries) if zipped else as_folder(tmp_path / "x", entries)
    for call in (detect_layout, load_project):
        with pytest.raises(MismatchedCorpusError) as caught:
            call(path)
        message = str(caught.value)
        assert str(path) in message and "INCEpTION's annotation/DOCUMENT/USER.conllu" in message
        assert "Arborator-Grew's USER/SAMPLE.conllu" in message and "readme.txt" in message


def test_a_file_that_is_no_zip_and_a_missing_path(tmp_path):
    path = tmp_path / "export.zip"
    path.write_text("not a zip", encoding="utf-8")
    with pytest.raises(MismatchedCorpusError, match="neither a folder nor a ZIP file"):
        detect_layout(path)
    with pytest.raises(FileNotFoundError, match="nope"):
        load_project(tmp_path / "nope")


def test_fewer_than_two_annotators_names_who_was_found(tmp_path):
    entries = {k: v for k, v in inception_entries().items() if "/bob." not in k and "/carol." not in k}
    with pytest.raises(MismatchedCorpusError, match=r"1 annotator\(s\) found \(alice\).*at least two"):
        load_project(as_zip(tmp_path / "i.zip", entries))


def test_an_inception_document_in_another_format_says_to_export_as_conllu(tmp_path):
    entries = inception_entries()
    for user in ANNOTATORS:
        entries.pop(f"annotation/doc10.conllu/{user}.conllu", None)
        entries[f"annotation/doc10.conllu/{user}.tsv"] = "#FORMAT=WebAnno TSV 3.3\n"
    with pytest.raises(MismatchedCorpusError, match="secondary format CoNLL-U") as caught:
        load_project(as_zip(tmp_path / "i.zip", entries))
    assert "i.zip:annotation/doc10.conllu/" in str(caught.value) and ".tsv" in str(caught.value)


def test_errors_in_a_zip_member_name_the_member(tmp_path):
    entries = inception_entries()
    entries["annotation/doc2.conllu/bob.conllu"] += "1\tx\t_\tX\t_\t_\t7\troot\t_\t_\n\n"
    zipped = as_zip(tmp_path / "e.zip", entries, "top/")
    with pytest.raises(InvalidTreeError) as caught:
        load_project(zipped)
    assert str(caught.value).startswith(f"{zipped}:top/annotation/doc2.conllu/bob.conllu:")
    with zipfile.ZipFile(tmp_path / "latin.zip", "w") as zf:
        for name, text in arborator_entries().items():
            zf.writestr(name, text.replace("cat", "Grüße").encode("latin-1") if name == "bob/doc2.conllu" else text)
    with pytest.raises(InvalidTreeError, match=r"latin\.zip:bob/doc2\.conllu:\d+: not UTF-8 text .*byte 0xfc"):
        load_project(tmp_path / "latin.zip")


def test_two_files_of_one_user_for_a_document_are_an_error(tmp_path):
    entries = inception_entries()
    entries["annotation/doc2.conllu/alice.conll"] = entries["annotation/doc2.conllu/alice.conllu"]
    with pytest.raises(MismatchedCorpusError, match="two files of 'alice'"):
        load_project(as_folder(tmp_path / "i", entries))
