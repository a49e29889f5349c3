"""One α pipeline: one container and one deduplication per α, backends as one table, the report
computing its pairwise and leave-one-out α with the user's settings, pq-gram α as a
registered δ, registry collisions, and one LAS for ``alpha`` and ``evaluate``."""
import json
from contextlib import nullcontext
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.agreement import alpha as alpha_module
from spacy_agreement.agreement import pairable
from spacy_agreement.agreement.deltas import register_delta, unregister_delta
from spacy_agreement.agreement.settings import AlphaSettings
from spacy_agreement.cli import app
from spacy_agreement.evaluation.dependency.label_sets import RootCaseWarning
from spacy_agreement.registry import RegistryError

runner = CliRunner()
DEMO = Path(sa.__file__).parent / "data" / "demo"
DEPENDENCY = [str(DEMO / "dependency" / name) for name in ("anna", "ben", "cleo")]


def run_json(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def demo_corpus():
    return sa.load_annotator_dirs(DEPENDENCY)


def test_deduplicate_runs_once_per_alpha(monkeypatch):
    calls = []
    original = pairable.deduplicate

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(pairable, "deduplicate", counting)
    corpus = demo_corpus()
    for settings in (AlphaSettings(), AlphaSettings(method="exact", deltas=("plain", "pqgram")),
                     AlphaSettings(bootstrap=20), AlphaSettings(method="sampled", sample_pairs=200)):
        calls.clear()
        sa.alpha(corpus, settings)
        assert len(calls) <= 1, settings
    calls.clear()
    run_json(["alpha", "--dirs", *DEPENDENCY, "--json", "--pqgram"])
    assert len(calls) == 1


def test_every_backend_in_the_table_gives_the_same_alpha():
    corpus = demo_corpus()
    results = {name: sa.alpha(corpus, method="exact", backend=name, n_threads=2)
               for name in alpha_module.BACKENDS if name not in ("gpu", "dask")}
    first = results["threads"]
    for name, result in results.items():
        assert result.alphas == pytest.approx(first.alphas, rel=1e-12), name
        assert result.signature == first.signature  # the backend does not change a number


def test_report_computes_every_alpha_with_the_users_settings(monkeypatch, tmp_path):
    seen = []
    original = alpha_module.alpha

    def recording(data, settings=None, **options):
        seen.append(alpha_module.alpha_settings(settings, **options))
        return original(data, settings, **options)

    import spacy_agreement.agreement.run as run
    import spacy_agreement.report.html as html

    monkeypatch.setattr(run, "alpha", recording)
    monkeypatch.setattr(html, "alpha", recording)
    page = tmp_path / "r.html"
    args = ["report", "--dirs", *DEPENDENCY, "--html", str(page), "--json", "--alpha", "sampled",
            "--alpha-budget", "123", "--threads", "1", "--sample-pairs", "300", "--size", "tree"]
    values = run_json(args)
    # the corpus α, 3 pairwise and 3 leave-one-out α
    assert len(seen) == 1 + 3 + 3
    for settings in seen:
        assert settings.method == "sampled" and settings.budget == 123 and settings.n_threads == 1
        assert settings.sample_pairs == 300 and settings.size == "tree"
    assert values["alpha_method"] == "sampled pairs"
    seen.clear()
    run_json(["report", "--dirs", *DEPENDENCY, "--html", str(page), "--json", "--alpha", "exact", "--threads", "1"])
    assert seen and all(s.method == "exact" and s.n_threads == 1 for s in seen)


def test_pqgram_is_a_registered_delta_with_the_figures_of_the_flag():
    assert "pqgram" in sa.agreement.deltas.DELTAS and "pqgram" not in sa.agreement.deltas.delta_names(True)
    flag = run_json(["alpha", "--dirs", *DEPENDENCY, "--json", "--pqgram"])
    delta = run_json(["alpha", "--dirs", *DEPENDENCY, "--json", "--delta", "plain", "--delta", "diff",
                      "--delta", "norm", "--delta", "pqgram"])
    assert flag == delta
    only = run_json(["alpha", "--dirs", *DEPENDENCY, "--json", "--delta", "pqgram"])
    assert only["alpha_pqgram"] == flag["alpha_pqgram"] and "alpha_plain" not in only
    assert "d:pqgram" in only["signature"]
    python = sa.alpha(demo_corpus(), deltas=("pqgram",))
    assert python.alpha == pytest.approx(flag["alpha_pqgram"], rel=1e-12)


def test_a_delta_or_metric_writing_a_builtin_key_is_an_error():
    for name in ("method", "cells", "budget", "seconds", "plain_low"):
        with pytest.raises(RegistryError, match="is taken"):
            register_delta(name, lambda ted, a, b: ted)
    with pytest.raises(RegistryError, match="is taken"):
        sa.evaluation.dependency.metrics.register_metric("sentences_multi_root", "x", lambda g, p, c: (0, 0))
    with pytest.raises(RegistryError, match="is taken"):
        sa.evaluation.dependency.metrics.register_metric("signature", "x", lambda g, p, c: (0, 0))


def test_a_delta_may_be_a_function_or_an_object():
    corpus = demo_corpus()

    def half_ted(ted, size_a, size_b):
        return ted / 2

    direct = sa.alpha(corpus, deltas=("plain", half_ted), method="exact")
    # α is invariant to scaling δ: half the TED gives δplain's α
    assert direct["half_ted"] == pytest.approx(direct["plain"], rel=1e-12)
    register_delta("halfted", half_ted)
    try:
        registered = sa.alpha(corpus, method="exact")
        assert registered["halfted"] == pytest.approx(direct["plain"], rel=1e-12)
    finally:
        unregister_delta("halfted")

    class Shape:  # a pair-level δ: 0 when the trees have the same number of nodes, else 1
        description = "same size or not"

        @staticmethod
        def pairs(trees, left, right):
            sizes = np.array([t.size for t in trees])
            return (sizes[left] != sizes[right]).astype(float)

    register_delta("shape", Shape())
    try:
        result = sa.alpha(corpus, deltas=("shape",), method="exact")
        assert "shape" in result.alphas and result.settings.deltas == ("shape",)
    finally:
        unregister_delta("shape")


def conll(rows):
    lines = [f"{k}\tw{k}\t_\tX\t_\t_\t{h}\t{d}\t_\t_" for k, (h, d) in enumerate(rows, start=1)]
    return "\n".join(lines) + "\n\n"


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_alpha_and_evaluate_give_the_same_las(tmp_path):
    gold = tmp_path / "gold.conllu"
    pred = tmp_path / "pred.conllu"
    gold.write_text(conll([(2, "nsubj"), (0, "root"), (2, "obj:x")]) + conll([(0, "root"), (1, "nmod:poss")]),
                    encoding="utf-8")
    pred.write_text(conll([(2, "nsubj"), (0, "ROOT"), (2, "obj:y")]) + conll([(0, "ROOT"), (1, "nmod")]),
                    encoding="utf-8")
    for options in ([], ["--ignore-subtypes"], ["--case-sensitive-root"], ["--ignore-subtypes", "--case-sensitive-root"]):
        a = run_json(["alpha", str(gold), str(pred), "--json", *options])
        # alpha keeps subtypes and folds the root's case unless told (annotators disagree on subtypes too);
        # evaluate starts from conll18's convention: the package convention is alpha's
        # the root compared as written: ROOT against root is wrong, and evaluate says so
        with pytest.warns(RootCaseWarning) if "--case-sensitive-root" in options else nullcontext():
            e = run_json(["evaluate", str(gold), str(pred), "--json", "--convention", "package", *options])
        assert a["las"] == pytest.approx(e["las"]) and a["la"] == pytest.approx(e["la"]), options
        assert a["uas"] == pytest.approx(e["uas"])
    assert run_json(["alpha", str(gold), str(pred), "--json"])["las"] == pytest.approx(3 / 5)
    assert run_json(["alpha", str(gold), str(pred), "--json", "--ignore-subtypes"])["las"] == pytest.approx(5 / 5)
    assert run_json(["alpha", str(gold), str(pred), "--json", "--case-sensitive-root"])["las"] == pytest.approx(1 / 5)
    # and alpha with conll18's comparison equals evaluate's default
    conll18 = run_json(["alpha", str(gold), str(pred), "--json", "--ignore-subtypes", "--case-sensitive-root"])
    with pytest.warns(RootCaseWarning):
        assert conll18["las"] == pytest.approx(run_json(["evaluate", str(gold), str(pred), "--json"])["las"])
