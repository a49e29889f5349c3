"""``spacy-agreement layers`` (issue 28): every annotator input alpha takes, JSON with one object
per layer, the per-token export (one row per differing (token, layer), counted here by hand),
the signature given back, and the same figures from spaCy docs with stored analyses."""
import csv
import json
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Doc
from typer.testing import CliRunner

from spacy_agreement.cli import app
from spacy_agreement.errors import UndefinedMetricWarning
from spacy_agreement.integrations.spacy_components import layers_over_docs
from tests.helpers import one_line_error

runner = CliRunner()

# id, form, lemma, upos, xpos, feats, head, deprel: three annotators who differ in UPOS (token 2 of
# s1, token 1 of s2), one lemma (s2) and one relation (s1, token 3); heads all agree
SENTENCES = {
    "anna": [("s1", [("The", "the", "DET", "Definite=Def", 2, "det"), ("dog", "dog", "NOUN", "Number=Sing", 3, "nsubj"),
                     ("barks", "bark", "VERB", "_", 0, "root")]),
             ("s2", [("Run", "run", "VERB", "Mood=Imp", 0, "root"), ("!", "!", "PUNCT", "_", 1, "punct")])],
    "ben": [("s1", [("The", "the", "DET", "Definite=Def", 2, "det"), ("dog", "dog", "PROPN", "Number=Sing", 3, "nsubj"),
                    ("barks", "bark", "VERB", "_", 0, "root")]),
            ("s2", [("Run", "running", "NOUN", "Mood=Imp", 0, "root"), ("!", "!", "PUNCT", "_", 1, "punct")])],
    "cleo": [("s1", [("The", "the", "DET", "Definite=Def", 2, "det"), ("dog", "dog", "NOUN", "Number=Sing", 3, "obj"),
                     ("barks", "bark", "VERB", "_", 0, "root")]),
             ("s2", [("Run", "run", "VERB", "Mood=Imp", 0, "root"), ("!", "!", "PUNCT", "_", 1, "punct")])],
}
# the (token, layer) pairs whose values differ, by hand: upos s1-2, upos s2-1, lemma s2-1, deprel s1-2,
# deprel_same_head s1-2 (the heads agree)
DIFFERING = {("s1", "2", "upos"), ("s2", "1", "upos"), ("s2", "1", "lemma"), ("s1", "2", "deprel"),
             ("s1", "2", "deprel_same_head")}


def write(tmp_path):
    paths = []
    for name, sentences in SENTENCES.items():
        text = ""
        for sent_id, rows in sentences:
            text += f"# sent_id = {sent_id}\n" + "".join(
                f"{k}\t{f}\t{lemma}\t{upos}\t_\t{feats}\t{h}\t{rel}\t_\t_\n"
                for k, (f, lemma, upos, feats, h, rel) in enumerate(rows, 1)) + "\n"
        path = tmp_path / f"{name}.conllu"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def test_layers_json_has_one_object_per_layer(tmp_path):
    with pytest.warns(UndefinedMetricWarning):  # XPOS all _, features of one value: alpha undefined there
        result = runner.invoke(app, ["layers", *write(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["signature"].startswith("layers|") and out["items"] == 2
    layers = out["layers"]
    assert {"upos", "lemma", "head", "deprel", "deprel_same_head", "feats", "feats.Definite"} <= set(layers)
    for name in ("upos", "deprel"):
        assert {"alpha", "observed", "cohen_kappa", "fleiss_kappa", "units", "per_label"} <= set(layers[name])
        assert layers[name]["alpha"] < 1
    assert layers["head"]["alpha"] == 1.0 and layers["head"]["tokens_disagreeing"] == 0
    upos = {row["label"]: row["counts"] for row in layers["upos"]["per_label"]}
    assert upos["PROPN"] == {"anna": 0, "ben": 1, "cleo": 0} and upos["NOUN"] == {"anna": 1, "ben": 1, "cleo": 1}
    # who is the odd one out on UPOS: ben; alpha without ben is 1
    assert layers["upos"]["per_annotator"]["ben"]["alpha_without"] == 1.0


@pytest.mark.parametrize("suffix", [".tsv", ".csv", ".jsonl"])
def test_export_lists_every_disagreement_once(tmp_path, suffix):
    export = tmp_path / f"disagreements{suffix}"
    with pytest.warns(UndefinedMetricWarning):  # as above
        result = runner.invoke(app, ["layers", *write(tmp_path), "--export", str(export), "--quiet"])
    assert result.exit_code == 0, result.output
    text = export.read_text(encoding="utf-8")
    if suffix == ".jsonl":
        rows = [json.loads(line) for line in text.splitlines()]
        found = {(r["item"], r["token"], r["layer"]) for r in rows}
        assert all(set(r["values"]) == {"anna", "ben", "cleo"} for r in rows)
    else:
        rows = list(csv.DictReader(text.splitlines(), delimiter="\t" if suffix == ".tsv" else ","))
        found = {(r["item"], r["token"], r["layer"]) for r in rows}
        assert list(rows[0]) == ["item", "token", "form", "layer", "anna", "ben", "cleo"]
    assert len(rows) == len(DIFFERING) and found == DIFFERING
    with pytest.warns(UndefinedMetricWarning):
        text_output = runner.invoke(app, ["layers", *write(tmp_path)]).stdout
    assert "signature: layers|" in text_output and "upos" in text_output


def test_layers_takes_a_project_export_and_the_signature_back(tmp_path):
    paths = write(tmp_path)
    folder = tmp_path / "export"
    for path in paths:
        name = path.rsplit("/", 1)[1].split(".")[0]
        (folder / name).mkdir(parents=True)
        (folder / name / "sample.conllu").write_text(Path(path).read_text(encoding="utf-8"), encoding="utf-8")
    one = json.loads(runner.invoke(app, ["layers", str(folder), "--json", "--layer", "upos", "--layer", "head"]).stdout)
    assert set(one["layers"]) == {"upos", "head"} and one["items"] == 2
    again = runner.invoke(app, ["layers", *paths, "--json", "--signature", one["signature"]])
    assert json.loads(again.stdout)["layers"].keys() == one["layers"].keys()
    one_line_error(runner.invoke(app, ["layers", *paths, "--export", str(tmp_path / "x.xlsx")]), ".csv, .tsv or .jsonl")
    one_line_error(runner.invoke(app, ["layers", *paths, "--layer", "pos"]), "unknown layer 'pos'")


def test_layers_over_spacy_docs_with_stored_analyses():
    nlp = spacy.blank("en")
    nlp.add_pipe("analysis_snapshot", config={"key": "annotator1"})
    docs = []
    for deps in (["nsubj", "ROOT", "obj"], ["nsubj", "ROOT", "iobj"]):
        doc = Doc(nlp.vocab, words=["I", "saw", "him"], heads=[1, 1, 1], deps=["nsubj", "ROOT", "obj"])
        doc = nlp.get_pipe("analysis_snapshot")(doc)
        for token, dep in zip(doc, deps):
            token.dep_ = dep
        docs.append(doc)
    result = layers_over_docs(docs, ["annotator1"])
    assert set(result.layers) == {"head", "deprel", "deprel_same_head"}
    assert result.layers["deprel"].disagreeing == 1 and result.layers["head"].disagreeing == 0
