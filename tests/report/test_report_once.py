"""Each number of the report computed once (issue 50): with two annotators who annotated every
item, the pair's α in the annotator table is the corpus α, not computed again; the layer
disagreement table lists only the rows it shows. The page is byte for byte the page computed the
old way (the pair's α run again, every disagreement listed), on seeded random files."""
import re
from itertools import islice

import pytest
from typer.testing import CliRunner

from spacy_agreement.agreement.layers import disagreements
from spacy_agreement.cli import app
from spacy_agreement.report import html as report_html
from spacy_agreement.report import layers_html
from spacy_agreement.report.plots import pair_distances

from ..random_conllu import names, random_annotations

runner = CliRunner()


def _old_table(result, annotators, rows):
    """The disagreement table as it was built before: every row listed, the first ``rows`` shown."""
    shown, total = [], 0
    for row in disagreements(result):
        total += 1
        if total <= rows:
            shown.append(row)
    counted = sum(layer.disagreeing for layer in result.layers.values())
    assert counted == total
    return shown, total


def _page(paths, tmp_path, name, method="exact"):
    out = tmp_path / name
    result = runner.invoke(app, ["report", *names(paths), "--html", str(out), "--alpha", method, "--json"])
    assert result.exit_code == 0, result.output
    # the estimated time of the exact α is measured on the machine: the one thing that may differ
    return re.sub(r"about [0-9.e+]+ s here", "about T s here", out.read_text(encoding="utf-8")), result.stdout


@pytest.mark.parametrize("seed,annotators,missing,unannotated,method",
                         [(1, 2, 0.0, False, "exact"), (2, 2, 0.0, False, "exact"), (3, 2, 0.0, True, "exact"),
                          (4, 2, 0.2, False, "exact"), (5, 3, 0.0, False, "exact"), (6, 2, 0.0, False, "sampled"),
                          (7, 3, 0.0, False, "sampled")])
def test_page_as_computed_twice(tmp_path, monkeypatch, seed, annotators, missing, unannotated, method):
    paths = random_annotations(tmp_path / "in", seed, annotators=annotators, sentences=40, missing=missing,
                               unannotated=unannotated)
    calls, matrices = [], []
    quiet, matrix = report_html._quiet_alpha, report_html.pairwise_matrix
    monkeypatch.setattr(report_html, "_quiet_alpha", lambda *a, **k: calls.append(1) or quiet(*a, **k))
    monkeypatch.setattr(report_html, "pairwise_matrix", lambda *a, **k: matrices.append(1) or matrix(*a, **k))
    new_page, new_json = _page(paths, tmp_path, "new.html", method)
    if annotators == 2 and not missing:
        assert matrices == []  # the summary's accuracies are the pair's: counted once
        if not unannotated:
            assert calls == []  # the corpus α is the pair's: α once
    monkeypatch.setattr(report_html, "_is_whole_corpus", lambda *a, **k: False)
    monkeypatch.setattr(report_html, "_pair_matrix", lambda corpus, settings, accuracy: report_html.pairwise_matrix(
        corpus, settings.label, settings.exclude_mismatched))
    monkeypatch.setattr(layers_html, "islice", lambda rows, n: iter(_old_table_rows(rows, n)))
    old_page, old_json = _page(paths, tmp_path, "old.html", method)
    assert new_page == old_page
    assert new_json == old_json


def _old_table_rows(rows, n):
    listed = list(rows)  # every disagreement, as before
    return listed[:n]


def test_disagreement_total_is_the_layers_count(tmp_path):
    from spacy_agreement.agreement.layers import layers

    paths = random_annotations(tmp_path, 5, annotators=3, sentences=30, missing=0.1)
    result = layers(*names(paths))
    shown, total = _old_table(result, list(result.annotators), 7)
    assert shown == list(islice(disagreements(result), 7))
    assert total == sum(layer.disagreeing for layer in result.layers.values())


def _old_distances(corpus):
    """The plots' δ as they were computed: one tree edit distance per pair, one δ at a time."""
    from itertools import combinations

    from spacy_agreement.agreement.deltas import delta_from_ted, tree_edit_distance

    distances = {"plain": [], "diff": [], "norm": []}
    for item in corpus.items:
        trees = [item[n] for n in corpus.annotators if n in item]
        for a, b in combinations(trees, 2):
            ted = tree_edit_distance(a, b)
            for kind in distances:
                distances[kind].append(delta_from_ted(ted, a.annotation_size, b.annotation_size, kind))
    return distances


@pytest.mark.parametrize("seed", range(4))
def test_plot_distances_as_one_pair_at_a_time(tmp_path, seed):
    from spacy_agreement.agreement.inputs import read_inputs

    paths = random_annotations(tmp_path, seed, annotators=2 + seed % 3, sentences=30, missing=0.2 * (seed % 2))
    corpus = read_inputs(names(paths))
    assert pair_distances(corpus, ("plain", "diff", "norm")) == _old_distances(corpus)


def test_plot_distances_of_phrase_trees(tmp_path):
    from spacy_agreement.agreement.inputs import read_inputs

    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("(S (NP (D the) (N dog)) (VP (V barks)))\n(S (NP (N cats)) (VP (V sleep) (ADV now)))\n")
    b.write_text("(S (NP (D the)) (NP (N dog)) (VP (V barks)))\n(S (NP (N cats) (VP (V sleep))) (ADV now))\n")
    corpus = read_inputs([str(a), str(b)], format="bracket")
    assert pair_distances(corpus, ("plain", "diff", "norm")) == _old_distances(corpus)
