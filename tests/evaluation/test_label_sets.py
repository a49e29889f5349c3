"""Label sets of another scheme (issue 15): root case, label maps, the label-set warning, the
per-label table, predictions with several roots, and a real trained spaCy pipeline whose
root is ``ROOT`` scored by ``evaluate --model`` and by ``spacy evaluate`` with our scorer."""
import json
import math
import random
import warnings

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.adapters import write_conll
from spacy_agreement.cli import app
from spacy_agreement.errors import AgreementError, BadOptionError
from spacy_agreement.evaluation.dependency.label_sets import LabelSetWarning, RootCaseWarning, read_label_map
from spacy_agreement.evaluation.dependency.metrics import EvaluationSettings, evaluate

runner = CliRunner()
# trees without part-of-speech tags: UCP, LCP and content-word LAS are undefined (nan, warned)
pytestmark = pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")


def tree(heads, deprels, forms=None):
    return sa.DependencyTree.create(heads, deprels, forms or [f"w{k}" for k in range(len(heads))])


# ---------------------------------------------------------------- label normalisation


def test_root_label_is_compared_case_insensitively_by_default():
    gold = tree([2, 0, 2], ["nsubj", "root", "obj"])
    pred = tree([2, 0, 2], ["nsubj", "ROOT", "obj"])
    assert evaluate([gold], [pred]).las == 1.0
    assert evaluate([gold], [pred]).ted == 1.0  # TED sees the folded labels too
    with pytest.warns(RootCaseWarning):  # compared as written, ROOT is wrong: said
        strict = evaluate([gold], [pred], EvaluationSettings(fold_root_case=False))
    assert strict.las == pytest.approx(2 / 3) and strict.ted < 1.0


def test_label_map_applies_to_predicted_labels_only():
    gold = tree([2, 0, 2], ["nsubj", "root", "obj"])
    pred = tree([2, 0, 2], ["nsubj", "ROOT", "dobj"])
    assert evaluate([gold], [pred]).las == pytest.approx(2 / 3)
    mapped = evaluate([gold], [pred], EvaluationSettings(label_map={"dobj": "obj"}))
    assert mapped.las == 1.0 and mapped.la == 1.0
    # a gold label that happens to be a key of the map is left alone
    assert evaluate([tree([0], ["dobj"])], [tree([0], ["dobj"])], EvaluationSettings(label_map={"dobj": "obj"})).la == 0


def test_read_label_map_columns_and_json(tmp_path):
    columns = tmp_path / "map.tsv"
    columns.write_text("# ClearNLP -> UD\ndobj\tobj\n\npobj obl   # comment\n", encoding="utf-8")
    assert read_label_map(columns) == {"dobj": "obj", "pobj": "obl"}
    as_json = tmp_path / "map.json"
    as_json.write_text(json.dumps({"dobj": "obj"}), encoding="utf-8")
    assert read_label_map(as_json) == {"dobj": "obj"}
    bad = tmp_path / "bad.tsv"
    bad.write_text("dobj obj\nnsubjpass\n", encoding="utf-8")
    with pytest.raises(AgreementError, match=r"bad\.tsv:2: expected two columns"):
        read_label_map(bad)
    twice = tmp_path / "twice.tsv"
    twice.write_text("a b\na c\n", encoding="utf-8")
    with pytest.raises(AgreementError, match="mapped twice"):
        read_label_map(twice)


# ---------------------------------------------------------------- label-set check, per-label table, roots


def _clearnlp_corpus(n=30):
    """Gold in UD labels; predictions in ClearNLP labels (dobj for obj), otherwise right."""
    gold = [tree([2, 0, 2], ["nsubj", "root", "obj"]) for _ in range(n)]
    pred = [tree([2, 0, 2], ["nsubj", "ROOT", "dobj"]) for _ in range(n)]
    return gold, pred


def test_poor_label_overlap_warns_once_naming_labels_and_pairs():
    gold, pred = _clearnlp_corpus()
    with pytest.warns(LabelSetWarning) as record:
        result = evaluate(gold, pred)
    labels = [w for w in record if w.category is LabelSetWarning]
    assert len(labels) == 1
    message = str(labels[0].message)
    assert "33.33% of gold tokens (30 of 90)" in message and "obj 30" in message and "obj→dobj 30" in message
    assert result.label_check.share == pytest.approx(1 / 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", LabelSetWarning)  # mapped: no warning
        assert evaluate(gold, pred, EvaluationSettings(label_map={"dobj": "obj"})).las == 1.0


def test_per_label_table_against_hand_counts():
    # gold: 1 nsubj<-2 root, 3 obj<-2, 4 amod<-3; prediction: obj labelled dobj, amod attached to 2
    gold = tree([2, 0, 2, 3], ["nsubj", "root", "obj", "amod"])
    pred = tree([2, 0, 2, 2], ["nsubj", "root", "dobj", "amod"])
    rows = evaluate([gold], [pred]).per_label
    assert rows["nsubj"] == {"precision": 1.0, "recall": 1.0, "f": 1.0, "gold": 1, "predicted": 1, "correct": 1}
    assert rows["obj"]["recall"] == 0.0 and math.isnan(rows["obj"]["precision"]) and rows["obj"]["f"] == 0.0
    assert rows["dobj"]["gold"] == 0 and rows["dobj"]["precision"] == 0.0 and math.isnan(rows["dobj"]["recall"])
    assert rows["amod"]["correct"] == 0 and rows["amod"]["f"] == 0.0


def test_predictions_with_several_roots_are_counted_and_listed():
    gold = tree([2, 0, 2, 3], ["nsubj", "root", "obj", "amod"])
    split = tree([2, 0, 0, 3], ["nsubj", "root", "root", "amod"])
    result = evaluate([gold, gold], [gold, split])
    assert result.to_dict()["sentences_multi_root"] == 1
    assert len(result.multi_root) == 1 and "sentence" in result.multi_root[0] and "2 roots" in result.multi_root[0]


def test_cli_label_map_table_and_json_carry_the_same_figures(tmp_path):
    gold, pred = _clearnlp_corpus()
    (tmp_path / "gold.conllu").write_text(write_conll(gold), encoding="utf-8")
    (tmp_path / "pred.conllu").write_text(write_conll(pred), encoding="utf-8")
    args = ["evaluate", str(tmp_path / "gold.conllu"), str(tmp_path / "pred.conllu"), "--fold-root-case"]
    with pytest.warns(LabelSetWarning):
        plain = runner.invoke(app, args + ["--json"])
    assert plain.exit_code == 0
    values = json.loads(plain.stdout)
    assert values["las"] == pytest.approx(2 / 3) and values["per_label"]["obj"]["predicted"] == 0
    assert values["unseen_gold_label_share"] == pytest.approx(1 / 3)
    assert values["unseen_label_pairs"][0] == {"gold": "obj", "predicted": "dobj", "tokens": 30}
    warned = [line for line in plain.stderr.splitlines() if "never use" in line]
    assert len(warned) == 1
    with pytest.warns(LabelSetWarning):
        text = runner.invoke(app, args)
    assert "attachment by label" in text.stdout and "obj" in text.stdout and "66.67" in text.stdout
    (tmp_path / "map.tsv").write_text("dobj obj\n", encoding="utf-8")
    mapped = json.loads(runner.invoke(app, args + ["--json", "--label-map", str(tmp_path / "map.tsv")]).stdout)
    assert mapped["las"] == 1.0 and mapped["unseen_gold_label_share"] == 0.0
    with pytest.warns((RootCaseWarning, LabelSetWarning)) as seen:  # ROOT is not root, nor any gold label
        sensitive = runner.invoke(app, args[:-1] + ["--json", "--label-map", str(tmp_path / "map.tsv")])
    assert {w.category for w in seen} >= {RootCaseWarning, LabelSetWarning}
    assert json.loads(sensitive.stdout)["las"] == pytest.approx(2 / 3)  # conll18's default: ROOT is not root
    warned = [line for line in sensitive.stderr.splitlines() if "case of the root relation" in line]
    assert len(warned) == 1 and "30 token(s)" in warned[0] and "--fold-root-case" in warned[0]


# ---------------------------------------------------------------- label costs


@pytest.mark.parametrize("cost, message", [
    (lambda a, b: 0.5 if a.split(":")[0] == b.split(":")[0] else 1.0, "identical labels must cost 0"),
    ({("nsubj", "obj"): -1.0}, r"label_cost\('nsubj', 'obj'\) is -1.0: costs must be finite and non-negative"),
    ({("nsubj", "obj"): float("inf")}, "finite"),
    ({("x", "x"): 2.0}, r"label_cost\('x', 'x'\) is 2.0: identical labels"),  # unused labels are checked too
    (lambda a, b: "cheap", "not a number"),
])
def test_label_costs_are_checked(cost, message):
    a, b = tree([2, 0], ["nsubj", "root"]), tree([2, 0], ["obj", "root"])
    with pytest.raises(BadOptionError, match=message):
        sa.alpha([[a, b], [a, a]], label_cost=cost)


def test_readme_label_cost_gives_zero_for_identical_trees():
    cost = lambda x, y: 0.0 if x == y else 0.5 if x.split(":")[0] == y.split(":")[0] else 1.0  # noqa: E731 (README)
    a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    b = tree([2, 0, 2], ["nsubj:pass", "root", "obj"])
    assert sa.tree_edit_distance(a, a, label_cost=cost) == 0.0
    assert sa.tree_edit_distance(a, b, label_cost=cost) == 0.5


# ---------------------------------------------------------------- a trained pipeline whose root is ROOT

spacy = pytest.importorskip("spacy")

NOUNS = ["dog", "cat", "man", "woman", "child", "bird", "car", "book"]
VERBS = ["saw", "likes", "took", "found", "reads", "sees"]
ADJS = ["big", "small", "old", "red"]


def _sentences(rng, n):
    """UD-style gold (root, obj) without punctuation, so that spaCy's F over arcs equals
    accuracy over tokens: det? (amod) noun verb det (amod) noun."""
    out = []
    for _ in range(n):
        words, heads, labels = [], [], []
        subj_adj, obj_adj = rng.random() < 0.4, rng.random() < 0.4
        words += ["the"] + ([rng.choice(ADJS)] if subj_adj else []) + [rng.choice(NOUNS)]
        subj = len(words)
        verb = subj + 1
        heads += [subj] + ([subj] if subj_adj else []) + [verb]
        labels += ["det"] + (["amod"] if subj_adj else []) + ["nsubj"]
        words.append(rng.choice(VERBS))
        heads.append(0)
        labels.append("root")
        start = len(words) + 1
        obj = start + 1 + (1 if obj_adj else 0)
        words += ["a"] + ([rng.choice(ADJS)] if obj_adj else []) + [rng.choice(NOUNS)]
        heads += [obj] + ([obj] if obj_adj else []) + [verb]
        labels += ["det"] + (["amod"] if obj_adj else []) + ["obj"]
        out.append(tree(heads, labels, words))
    return out


def _doc(vocab, t, label=lambda x: x):
    from spacy.tokens import Doc

    heads = [h - 1 if h else k for k, h in enumerate(t.heads.tolist())]
    return Doc(vocab, words=list(t.forms), heads=heads, deps=[label(d) for d in t.deprels])


@pytest.fixture(scope="module")
def clearnlp_pipeline(tmp_path_factory):
    """A parser trained on ClearNLP-style labels (ROOT, dobj), with our scorer mapping dobj to obj."""
    from spacy.training import Example

    rng = random.Random(1)
    spacy.util.fix_random_seed(1)
    train = _sentences(rng, 60)
    nlp = spacy.blank("en")
    nlp.add_pipe("parser", config={"min_action_freq": 1, "scorer": {
        "@scorers": "spacy_agreement.syntax_scorer.v1", "label_map": {"dobj": "obj"}}})
    clear = {"root": "ROOT", "obj": "dobj"}
    examples = [Example(spacy.tokens.Doc(nlp.vocab, words=list(t.forms)), _doc(nlp.vocab, t, lambda d: clear.get(d, d)))
                for t in train]
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(30):
        rng.shuffle(examples)
        nlp.update(examples, sgd=optimizer, drop=0.0)
    root = tmp_path_factory.mktemp("clearnlp")
    nlp.to_disk(root / "pipeline")
    test = _sentences(random.Random(2), 60)
    (root / "gold.conllu").write_text(write_conll(test), encoding="utf-8")
    from spacy.tokens import DocBin

    DocBin(docs=[_doc(nlp.vocab, t) for t in test]).to_disk(root / "gold.spacy")
    (root / "map.tsv").write_text("dobj obj\n", encoding="utf-8")
    return root


def test_evaluate_model_and_spacy_evaluate_agree_with_a_label_map(clearnlp_pipeline):
    from spacy.cli.evaluate import evaluate as spacy_evaluate

    root = clearnlp_pipeline
    args = ["evaluate", str(root / "gold.conllu"), "--model", str(root / "pipeline"), "--json"]
    with pytest.warns(LabelSetWarning):
        unmapped = runner.invoke(app, args)
    assert unmapped.exit_code == 0, unmapped.output
    values = json.loads(unmapped.stdout)
    # the pipeline never says obj: the warning names it, the table shows it, root is not penalised
    warned = [line for line in unmapped.stderr.splitlines() if "never use" in line]
    assert len(warned) == 1 and "obj→dobj" in warned[0]
    assert values["per_label"]["obj"]["predicted"] == 0 and values["per_label"]["dobj"]["gold"] == 0
    assert values["per_label"]["root"]["predicted"] > 0
    mapped = json.loads(runner.invoke(app, args + ["--label-map", str(root / "map.tsv"),
                                                   "--save-parses", str(root / "parses.conllu")]).stdout)
    assert mapped["las"] > values["las"] and mapped["per_label"]["obj"]["predicted"] > 0
    spacy_scores = spacy_evaluate(root / "pipeline", root / "gold.spacy", silent=True)
    assert spacy_scores["dep_las"] == pytest.approx(mapped["las"], abs=1e-9)
    assert spacy_scores["dep_uas"] == pytest.approx(mapped["uas"], abs=1e-9)
    assert spacy_scores["dep_la"] == pytest.approx(mapped["la"], abs=1e-9)
    # and evaluate --model states spaCy's own figures on its parses (the same whatever the punctuation)
    assert mapped["spacy_las"] == pytest.approx(spacy_scores["dep_las"], abs=1e-9)
    assert mapped["spacy_uas"] == pytest.approx(spacy_scores["dep_uas"], abs=1e-9)
    assert "dep_alpha_plain" not in spacy_scores  # α is off in the scorer by default
    # the saved parses score the same as the live run
    again = json.loads(runner.invoke(app, ["evaluate", str(root / "gold.conllu"), str(root / "parses.conllu"),
                                           "--json", "--label-map", str(root / "map.tsv")]).stdout)
    assert again["las"] == mapped["las"] and again["uas"] == mapped["uas"]


def test_label_costs_must_be_symmetric():
    """α's δ is a distance: the kernels visit each pair in one orientation (a fuzz finding)."""
    a, b = tree([2, 0], ["nsubj", "root"]), tree([2, 0], ["obj", "root"])
    one_way = {("nsubj", "obj"): 0.5}  # a mapping's pair sets its reverse too
    assert sa.tree_edit_distance(a, b, label_cost=one_way) == sa.tree_edit_distance(b, a, label_cost=one_way) == 0.5
    items = [[a, b], [b, a], [a, a]]
    assert sa.alpha(items, one_way, backend="serial").alphas == pytest.approx(sa.alpha(items, one_way).alphas)
    with pytest.raises(BadOptionError, match=r"label_cost\('nsubj', 'obj'\) is 0.5 but label_cost\('obj', 'nsubj'\) is 1.0"):
        sa.alpha(items, label_cost={("nsubj", "obj"): 0.5, ("obj", "nsubj"): 1.0})
    with pytest.raises(BadOptionError, match="symmetric"):
        sa.alpha(items, label_cost=lambda x, y: 0.0 if x == y else (0.5 if x < y else 1.0))


def test_skipped_sentences_are_not_paired_in_the_label_check():
    """With skip_mismatched, a sentence whose tokens differ is left out of the label-set check
    too: its labels are not compared by position (issue: `obl -> punct` from a shifted sentence)."""
    from spacy_agreement.evaluation.dependency.metrics import evaluate

    gold = [sa.DependencyTree.create([0, 1, 1], ["root", "obl", "punct"], ["a", "b", "."])] * 30
    shifted = [sa.DependencyTree.create([0, 1], ["root", "punct"], ["a", "."])] * 30
    result = evaluate(gold + gold, shifted + gold, EvaluationSettings(skip_mismatched=True))
    assert len(result.skipped) == 30 and result.label_check.unseen_tokens == 0 and result.label_check.pairs == []
