"""A flat folder of per-annotator files of several texts as one path (issue 38, item 3;
adapters/flat_folder.py, layout "flat" of adapters/projects.py): the NDT data of Skjærholt's
release as it comes (odin-danish.conll, thor-danish.conll, ...) gives the α of Table 2's rows
read as pairs of files, and of the three texts read as annotator folders, to the last digit;
every name order and separator reads the same; Arborator-Grew's older SAMPLE.USER.conllu
export; folders whose names cannot be read are one line naming the files and the options
(--annotator-part, --name-pattern) that settle them."""
import json
import shutil
import zipfile

import pytest
from typer.testing import CliRunner

from spacy_agreement import alpha, load_annotations, load_parallel_files, pairwise_accuracy
from spacy_agreement.adapters.files import load_annotator_dirs
from spacy_agreement.adapters.flat_folder import place_files
from spacy_agreement.adapters.projects import detect_layout, load_project
from spacy_agreement.cli import app
from spacy_agreement.errors import BadOptionError, MismatchedCorpusError

from .test_projects import arborator_entries, as_folder, as_zip, conllu, user_files

runner = CliRunner()

ANNOTATORS = ("odin", "thor")
TEXTS = ("danish", "norwegian", "swedish")
# Table 2 of Skjærholt (2014): text -> (αplain, αdiff, αnorm, LAS)
TABLE2 = {"danish": (98.4, 93.0, 98.8, 94.0), "swedish": (98.9, 95.0, 99.1, 94.4),
          "norwegian": (97.9, 91.2, 98.7, 95.3)}


def ndt_folder(iaa, folder, name="{annotator}-{text}.conll", texts=TEXTS):
    """The NDT files copied into ``folder`` under the names ``name`` makes."""
    folder.mkdir(parents=True, exist_ok=True)
    for text in texts:
        for annotator in ANNOTATORS:
            shutil.copyfile(iaa / "ndt" / f"{annotator}-{text}.conll",
                            folder / name.format(annotator=annotator, text=text))
    return folder


def figures(corpus):
    result, accuracy = alpha(corpus, method="exact"), pairwise_accuracy(corpus)
    return dict(result.alphas), dict(accuracy.scores)


def test_the_ndt_folder_is_the_three_texts_read_as_annotator_folders(iaa, tmp_path):
    folder = ndt_folder(iaa, tmp_path / "ndt")
    assert detect_layout(folder) == "flat"
    flat = load_annotations([folder])
    assert flat.annotators == ANNOTATORS and len(flat) == 130 + 150 + 110
    assert flat.matched_by.layout == "flat" and not flat.matched_by.missing
    assert any("3 text(s) (danish, norwegian, swedish) by 2 annotator(s) (odin, thor)" in note
               and "NAME-TEXT" in note for note in flat.matched_by.notes)
    # the same files as Skjærholt's released code wants them: one folder per annotator, PREFIX-NAME.conll
    for annotator in ANNOTATORS:
        ndt_folder(iaa, tmp_path / "dirs" / annotator, "{text}-{annotator}.conll")
        for other in (tmp_path / "dirs" / annotator).glob("*.conll"):
            if not other.name.endswith(f"-{annotator}.conll"):
                other.unlink()
    dirs = load_annotator_dirs([tmp_path / "dirs" / a for a in ANNOTATORS])
    assert flat.names == dirs.names
    assert figures(flat) == figures(dirs)  # to the last digit


@pytest.mark.parametrize("text", TEXTS)
def test_each_table2_row_as_a_folder_of_its_two_files(iaa, tmp_path, text):
    folder = ndt_folder(iaa, tmp_path / text, texts=(text,))
    corpus = load_annotations([folder])
    pair = load_parallel_files([iaa / "ndt" / f"{a}-{text}.conll" for a in ANNOTATORS])
    assert corpus.annotators == ANNOTATORS and {n.split(" ", 1)[0] for n in corpus.names} == {text}
    assert figures(corpus) == figures(pair)
    alphas, scores = figures(corpus)
    assert tuple(round(100 * v, 1) for v in (alphas["plain"], alphas["diff"], alphas["norm"], scores["las"])) \
        == TABLE2[text]


@pytest.mark.parametrize("name,reading", [("{annotator}-{text}.conll", "NAME-TEXT"),
                                          ("{text}-{annotator}.conll", "TEXT-NAME"),
                                          ("{text}.{annotator}.conllu", "TEXT-NAME"),
                                          ("{annotator}_{text}.conll", "NAME-TEXT"),
                                          ("{text}_{annotator}.conllx", "TEXT-NAME")])
def test_every_name_order_and_separator_reads_the_same(iaa, tmp_path, name, reading):
    reference = load_annotations([ndt_folder(iaa, tmp_path / "ref")])
    corpus = load_annotations([ndt_folder(iaa, tmp_path / "named", name)])
    assert corpus.annotators == ANNOTATORS and corpus.names == reference.names
    assert any(reading in note for note in corpus.matched_by.notes)
    assert figures(corpus) == figures(reference)


def arborator_old_export():
    """Arborator-Grew's older export: SAMPLE.USER.conllu, sample names with separators of their own."""
    return {f"{doc.replace('doc', 'fr_gsd-sample.')}.{user}.conllu": text
            for (user, doc), text in user_files().items()}


@pytest.mark.parametrize("form", ["folder", "zip", "zip/top"])
def test_arborator_sample_user_files(tmp_path, form):
    entries = arborator_old_export()
    path = {"folder": lambda: as_folder(tmp_path / "old", entries),
            "zip": lambda: as_zip(tmp_path / "old.zip", entries),
            "zip/top": lambda: as_zip(tmp_path / "old_top.zip", entries, "dump.project/")}[form]()
    corpus = load_project(path)
    reference = load_project(as_folder(tmp_path / "arb", arborator_entries()))
    assert corpus.annotators == ("alice", "bob", "carol")
    assert corpus.names == [n.replace("doc", "fr_gsd-sample.") for n in reference.names]
    assert corpus.matched_by.missing == tuple(m.replace("doc", "fr_gsd-sample.") for m in reference.matched_by.missing)
    assert figures(corpus) == figures(reference)


def test_an_export_stays_an_export(tmp_path):
    entries = arborator_entries()
    entries.update({"alice-extra.conllu": conllu("alice", "doc2"), "bob-extra.conllu": conllu("bob", "doc2")})
    assert detect_layout(as_folder(tmp_path / "arb", entries)) == "arborator"
    # one folder holding a flat folder is its top folder, not a one-user Arborator-Grew export
    assert detect_layout(as_zip(tmp_path / "top.zip", arborator_old_export(), "ndt/")) == "flat"


def test_files_of_one_text_named_by_annotator_only_are_one_text(tmp_path):
    folder = tmp_path / "doc2"
    for user in ("alice", "bob", "carol"):
        (folder / f"{user}.conllu").parent.mkdir(exist_ok=True)
        (folder / f"{user}.conllu").write_text(conllu(user, "doc2"), encoding="utf-8")
    corpus = load_annotations([folder])
    parallel = load_parallel_files(sorted(folder.iterdir()))
    assert corpus.annotators == parallel.annotators and figures(corpus) == figures(parallel)
    assert corpus.names[0] == "doc2 d2-s1" and "one text ('doc2')" in " ".join(corpus.matched_by.notes)


def cli_error(*args):
    result = runner.invoke(app, ["alpha", *map(str, args), "--quiet"])
    assert result.exit_code == 1, result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


def test_every_text_of_one_annotator_only_is_ambiguous(iaa, tmp_path):
    folder = tmp_path / "amb"
    folder.mkdir()
    shutil.copyfile(iaa / "ndt/odin-danish.conll", folder / "odin-danish.conll")
    shutil.copyfile(iaa / "ndt/thor-swedish.conll", folder / "thor-swedish.conll")
    message = cli_error(folder)
    assert "no two of its 2 files hold the same sentences" in message
    assert "could not place odin-danish.conll, thor-swedish.conll" in message
    assert "--annotator-part (first" in message and "--name-pattern" in message and "annotator_part" not in message
    with pytest.raises(MismatchedCorpusError, match=r"give annotator_part .* or name_pattern"):
        load_annotations([folder])
    # either option settles it: each text then has one annotation, nothing to pair
    for options in ({"annotator_part": "first"}, {"name_pattern": r"(?P<annotator>\w+)-(?P<text>\w+)"}):
        corpus = load_annotations([folder], **options)
        assert corpus.annotators == ANNOTATORS and len(corpus.matched_by.missing) == len(corpus)
    assert load_annotations([folder], annotator_part="last").annotators == ("danish", "swedish")


def test_names_split_differently_name_the_files_and_the_options(iaa, tmp_path):
    folder = ndt_folder(iaa, tmp_path / "mixed", texts=("danish",))
    ndt_folder(iaa, folder, "{text}-{annotator}.conll", texts=("swedish",))
    message = cli_error(folder)
    assert "the names are split differently" in message
    assert "could not place swedish-odin.conll, swedish-thor.conll" in message
    assert "--annotator-part" in message and "--name-pattern" in message
    # TEXT-NAME for all is wrong for danish: no part the danish files share comes first
    assert "could not place odin-danish.conll, thor-danish.conll" in cli_error(folder, "--annotator-part", "last")
    pattern = r"(?P<annotator>odin|thor)-(?P<text>\w+)|(?P<text2>\w+)-(?P<annotator2>odin|thor)"
    corpus = load_annotations([folder], name_pattern=pattern)
    assert corpus.annotators == ANNOTATORS and {n.split(" ", 1)[0] for n in corpus.names} == {"danish", "swedish"}
    assert not corpus.matched_by.missing


def test_the_options_through_the_cli(iaa, tmp_path):
    folder = ndt_folder(iaa, tmp_path / "ndt", "{text}.{annotator}.conll", texts=("danish", "swedish"))
    plain = runner.invoke(app, ["alpha", str(folder), "--json", "--quiet"])
    for options in (["--annotator-part", "last"], ["--name-pattern", r"(?P<text>\w+)\.(?P<annotator>\w+)"]):
        for command in (["alpha"], ["report", "--html", str(tmp_path / "r.html")]):
            result = runner.invoke(app, [*command, str(folder), *options, "--json", "--quiet"])
            assert result.exit_code == 0, result.output
            assert json.loads(result.stdout)["alpha_plain"] == json.loads(plain.stdout)["alpha_plain"]
        layers = runner.invoke(app, ["layers", str(folder), *options, "--json", "--quiet"])
        assert layers.exit_code == 0 and json.loads(layers.stdout)["annotators"] == list(ANNOTATORS)
    for command in ("alpha", "report", "layers"):
        assert "--annotator-part" in runner.invoke(app, [command, "--help"]).output
    assert "could not place danish.odin.conll" in cli_error(folder, "--annotator-part", "first")
    assert "--name-pattern" in cli_error(folder, "--name-pattern", "(?P<who>x)")
    assert "does not match 4 file name(s)" in cli_error(folder, "--name-pattern", r"(?P<annotator>x)(?P<text>y)")
    assert "not both" in cli_error(folder, "--annotator-part", "last", "--name-pattern", "(?P<annotator>.)(?P<text>.)")
    assert "flat folder" in cli_error(folder / "danish.odin.conll", folder / "danish.thor.conll", "--annotator-part",
                                      "last")
    usage = runner.invoke(app, ["alpha", str(folder), "--annotator-part", "middle"])
    assert usage.exit_code == 2 and "'middle' is not one of" in usage.output


def test_the_options_are_refused_for_other_inputs(tmp_path):
    export = as_folder(tmp_path / "arb", arborator_entries())
    with pytest.raises(BadOptionError, match="layout 'arborator'"):
        load_annotations([export], annotator_part="first")
    with pytest.raises(BadOptionError, match="flat folder"):
        load_annotations([export, export], name_pattern="(?P<annotator>.)(?P<text>.)", dirs=True)
    with pytest.raises(BadOptionError, match="first' or 'last'"):
        place_files({"a-b": "a-b"}, {"a-b": {"x"}}, "here", annotator_part="middle")


def test_two_files_of_one_annotator_and_text_are_an_error(tmp_path):
    folder = as_folder(tmp_path / "two", {"alice-doc2.conllu": conllu("alice", "doc2"),
                                          "alice-doc2.conll": conllu("alice", "doc2"),
                                          "bob-doc2.conllu": conllu("bob", "doc2")})
    with pytest.raises(MismatchedCorpusError, match="two files of annotator 'alice' for text 'doc2'"):
        load_annotations([folder], name_pattern=r"(?P<annotator>\w+)-(?P<text>\w+)")
