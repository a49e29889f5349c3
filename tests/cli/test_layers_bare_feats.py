"""``layers`` on FEATS that are not Name=Value pairs (issue 38, item 8): the NDT's bare
``<adj>``, ``3``, ``sg|nom`` are one whole-value layer, said in a note, never dozens of
``feats.<adj>`` rows; UD features still give one layer per name."""
import json

import pytest
from typer.testing import CliRunner

from spacy_agreement.agreement.layers import agreement_by_layer
from spacy_agreement.cli import app
from spacy_agreement.corpus import Corpus
from spacy_agreement.trees import DependencyTree

runner = CliRunner()


def test_ndt_feats_are_one_whole_value_layer(iaa):
    files = [str(iaa / "ndt" / f"{a}-danish.conll") for a in ("odin", "thor")]
    result = runner.invoke(app, ["layers", *files, "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    values = json.loads(result.stdout)
    assert "feats" in values["layers"]
    assert not [name for name in values["layers"] if name.startswith("feats.")]
    assert any("not Name=Value features" in note and "'<" in note for note in values["notes"])
    text = runner.invoke(app, ["layers", *files, "--quiet"]).stdout
    assert "note: FEATS:" in text and "feats.<" not in text and "\n  feats " in text
    asked = runner.invoke(app, ["layers", *files, "--layer", "feats", "--layer", "feats.<adj>", "--json", "--quiet"])
    assert list(json.loads(asked.stdout)["layers"]) == ["feats", "feats.<adj>"]  # asked for by name: made


def tree(feats):
    return DependencyTree.create([2, 0], ["nsubj", "root"], forms=["a", "b"], feats=feats)


@pytest.mark.filterwarnings("ignore::spacy_agreement.errors.UndefinedMetricWarning")  # two tokens: some α undefined
def test_name_value_features_still_give_a_layer_per_name():
    items = [{"x": tree(["Number=Sing", "Mood=Ind|Tense=Past"]), "y": tree(["Number=Plur", "Mood=Ind|Tense=Pres"])}]
    result = agreement_by_layer(Corpus(("x", "y"), items, ["s1"], "dependency"))
    assert {"feats", "feats.Mood", "feats.Number", "feats.Tense"} <= set(result.layers) and not result.notes
    bare = [{"x": tree(["sg|nom", "_"]), "y": tree(["sg|gen", "Tense=Pres"])}]
    result = agreement_by_layer(Corpus(("x", "y"), bare, ["s1"], "dependency"))
    assert [n for n in result.layers if n.startswith("feats")] == ["feats"]
    assert "2 distinct value(s)" in result.notes[0] and "'sg|gen', 'sg|nom'" in result.notes[0]
