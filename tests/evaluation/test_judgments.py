"""Metrics against human judgments (Plank et al. 2015): kappas, MACE, the analyses, bad input."""
import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.evaluation.judgments.analysis import (
    JudgmentError,
    analyse_judgments,
    cohen_kappa,
    fleiss_kappa,
    load_judgments,
    make_item,
)
from spacy_agreement.evaluation.judgments.mace import mace

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_generator():
    spec = importlib.util.spec_from_file_location("make_judgments", EXAMPLES / "make_judgments.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cohen_kappa_worked_example():
    # observed 4/5; chance (3/5)(2/5) + (2/5)(3/5) = 12/25
    assert cohen_kappa(list("AABBA"), list("ABBBA")) == pytest.approx((0.8 - 0.48) / 0.52)


def test_fleiss_kappa_textbook_example():
    # Fleiss (1971) style example: 10 subjects, 14 raters, 5 categories, kappa = 0.210
    table = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
             [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    items = [[str(c) for c, count in enumerate(row) for _ in range(count)] for row in table]
    assert round(fleiss_kappa(items), 3) == 0.210


def test_mace_recovers_the_good_and_bad_judges():
    generator = load_generator()
    records, truth = generator.generate(items=300, seed=1)
    fitted = mace([r["judgments"] for r in records], labels=["A", "B"], seed=0)
    competence = fitted.competence
    assert competence["expert"] > competence["hasty"] and competence["expert"] > competence["random"]
    assert competence["careful"] > competence["hasty"] > competence["random"] - 0.05
    assert min(competence["expert"], competence["careful"]) > 0.5 > max(competence["hasty"], competence["random"])
    # the model's labels beat the average judge
    accuracy = sum(p == t for p, t in zip(fitted.predicted(), truth)) / len(truth)
    assert accuracy > 0.9


def small_item(id, judgments, a_heads=(2, 0, 2), b_heads=(3, 0, 2)):
    gold = sa.DependencyTree.create([2, 0, 2], ["nsubj", "root", "obj"], upos=["PRON", "VERB", "NOUN"])
    a = sa.DependencyTree.create(list(a_heads), ["nsubj", "root", "obj"], upos=["PRON", "VERB", "NOUN"])
    b = sa.DependencyTree.create(list(b_heads), ["nsubj", "root", "obj"], upos=["PRON", "VERB", "NOUN"])
    return make_item(id, gold, a, b, judgments)


def test_metric_agreement_with_judges_worked_example():
    # LAS prefers A on items 1-3 and ties on item 4 (A and B equal)
    items = [
        small_item("1", {"x": "A", "y": "A"}),
        small_item("2", {"x": "A", "y": "B"}),
        small_item("3", {"x": "B", "y": "B"}),
        small_item("4", {"x": "A", "y": "B"}, b_heads=(2, 0, 2)),
    ]
    result = analyse_judgments(items, metrics=("las", "uas"))
    assert result.preferences["las"] == ["A", "A", "A", "tie"]
    assert result.ties["las"] == 1
    # judge x: 1, 1, 0, 0.5 -> 0.625; judge y: 1, 0, 0, 0.5 -> 0.375; mean 0.5
    assert result.metric_judge_agreement["las"] == pytest.approx(0.5)
    skipped = analyse_judgments(items, metrics=("las", "uas"), ties="skip")
    assert skipped.metric_judge_agreement["las"] == pytest.approx((2 / 3 + 1 / 3) / 2)
    # judges agree on items 1 and 3: raw 0.5; two judges -> Cohen's kappa
    assert result.judge_agreement == 0.5 and result.kappa_kind == "cohen"
    assert result.kappa == pytest.approx(cohen_kappa(list("AABA"), list("ABBB")))


def test_analysis_on_generated_judgments(tmp_path):
    generator = load_generator()
    path = tmp_path / "judgments.jsonl"
    assert generator.main([str(path), "--items", "200", "--seed", "3"]) == 0
    items = load_judgments(path)
    result = analyse_judgments(items)
    # the paper's kappa: mean pairwise Cohen by default, Fleiss on request
    assert result.items == 200 and result.kappa_kind == "cohen"
    assert analyse_judgments(items, kappa="fleiss", mace_restarts=1).kappa_kind == "fleiss"
    # the truth is "higher LAS wins", so LAS agrees with the good judges and correlates best
    table = result.human_correlations["mace"]
    assert table["las"]["rho"] > 0.5
    assert table["las"]["rho"] >= max(table[m]["rho"] for m in result.metrics if m != "las") - 1e-12
    assert result.metric_judge_agreement["las"] > result.judge_agreement
    assert math.isnan(table["las"]["p_vs_las"]) and 0 <= table["lcp"]["p_vs_las"] <= 1
    assert result.metric_correlations[("las", "uas")] == pytest.approx(
        spearman_rho(result.differences["las"], result.differences["uas"]), abs=1e-12)
    cli = CliRunner().invoke(app, ["judgments", str(path), "--json"])
    assert cli.exit_code == 0, cli.output
    out = json.loads(cli.output)
    assert out["items"] == 200 and "rho_mace_las" in out and "mace_competence_expert" in out


def spearman_rho(x, y):
    """Spearman's ρ (1904): Pearson's r of the ranks, tied values taking their mean rank, over the
    items where both are defined."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]

    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        out = [0.0] * len(v)
        start = 0
        while start < len(order):
            end = start
            while end + 1 < len(order) and v[order[end + 1]] == v[order[start]]:
                end += 1
            for k in range(start, end + 1):
                out[order[k]] = (start + end) / 2 + 1
            start = end + 1
        return np.array(out)

    rx, ry = ranks(x), ranks(y)
    rx, ry = rx - rx.mean(), ry - ry.mean()
    return float((rx * ry).sum() / math.sqrt((rx * rx).sum() * (ry * ry).sum()))


def fisher_z_test(r1, n1, r2, n2):
    """The test the module docstring claims, written from its definition: Fisher's (1921) test of
    the difference between two correlations from independent samples of n1 and n2 (the paper's
    "Fisher's z-transform"): each r becomes z = ½ ln((1 + r) / (1 − r)), of standard error
    1/sqrt(n − 3), and Z = (z1 − z2) / sqrt(1/(n1 − 3) + 1/(n2 − 3)) is standard normal under
    equal correlations; two-sided p = erfc(|Z| / √2)."""
    z1, z2 = 0.5 * math.log((1 + r1) / (1 - r1)), 0.5 * math.log((1 + r2) / (1 - r2))
    statistic = (z1 - z2) / math.sqrt(1 / (n1 - 3) + 1 / (n2 - 3))
    return statistic, math.erfc(abs(statistic) / math.sqrt(2))


def test_correlations_and_their_test_against_las_from_their_definitions(tmp_path):
    """Table 4's ρ (majority vote against each metric's preference strength) and the test of each
    metric's ρ against LAS's, recomputed here: LCP and UCP are undefined on the 37 items without a
    verb that has a dependent, so their ρ is over 163 items and LAS's over 200, and the test takes
    each correlation's own number of items."""
    generator = load_generator()
    path = tmp_path / "judgments.jsonl"
    assert generator.main([str(path), "--items", "200", "--seed", "3"]) == 0
    items = load_judgments(path)
    result = analyse_judgments(items, mace_restarts=2)
    majority = np.sign([sum(1 if v == "A" else -1 for v in item.judgments.values()) for item in items])
    defined = {m: int((~np.isnan(result.differences[m])).sum()) for m in result.metrics}
    assert defined["las"] == 200 and defined["lcp"] == defined["ucp"] == 163
    for aggregation, table in result.human_correlations.items():
        for m in result.metrics:
            if aggregation == "majority":
                assert table[m]["rho"] == pytest.approx(spearman_rho(majority, result.differences[m]), abs=1e-12)
            if m == "las":
                assert math.isnan(table[m]["z_vs_las"]) and math.isnan(table[m]["p_vs_las"])
                continue
            z, p = fisher_z_test(table[m]["rho"], defined[m], table["las"]["rho"], defined["las"])
            assert table[m]["z_vs_las"] == pytest.approx(z, rel=1e-12), (aggregation, m)
            assert table[m]["p_vs_las"] == pytest.approx(p, rel=1e-9, abs=1e-15), (aggregation, m)


@pytest.mark.parametrize(
    "record, message",
    [
        ({"id": "s1", "gold": {"heads": [0], "deprels": ["root"]}, "a": {"heads": [0], "deprels": ["root"]},
          "b": {"heads": [0], "deprels": ["root"]}, "judgments": {"x": "C"}}, "unknown preference 'C'"),
        ({"id": "s2", "gold": {"heads": [0], "deprels": ["root"]}, "a": {"heads": [0], "deprels": ["root"]},
          "judgments": {"x": "A"}}, "has no 'b' parse"),
        ({"id": "s3", "gold": {"heads": [0], "deprels": ["root"]}, "a": {"heads": [0, 1], "deprels": ["root", "x"]},
          "b": {"heads": [0], "deprels": ["root"]}, "judgments": {"x": "A"}}, "parse A has 2 tokens, gold has 1"),
    ],
)
def test_bad_judgment_items_name_the_item(tmp_path, record, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(JudgmentError) as err:
        load_judgments(path)
    assert message in str(err.value) and record["id"] in str(err.value) and str(path) in str(err.value)
    cli = CliRunner().invoke(app, ["judgments", str(path)])
    assert cli.exit_code == 1 and message in cli.output


# --- Plank et al. (2015): mean pairwise Cohen's kappa, the released data layout, parity ---------

PLANK_FIXTURE = Path(__file__).resolve().parents[1] / "data" / "plank" / "xx"


def _judged(table):
    one = sa.DependencyTree.create([0], ["root"], forms=["x"])
    return [make_item(str(k), one, one, one, judgments) for k, judgments in enumerate(table)]


def test_mean_pairwise_cohen_against_fleiss_worked_example():
    #        x  y  z
    # item1  A  A  A
    # item2  A  B  A
    # item3  B  B  B
    # item4  B  B  A
    # (x, y): Ao 3/4, Ae .5*.25 + .5*.75 = .5   -> 0.5
    # (x, z): Ao 3/4, Ae .5*.75 + .5*.25 = .5   -> 0.5
    # (y, z): Ao 2/4, Ae .25*.75 + .75*.25 = .375 -> .125 / .625 = 0.2     mean 0.4
    # Fleiss: P_i = 1, 1/3, 1, 1/3 (mean 2/3), p_A = p_B = 1/2 (Pe 1/2)  -> 1/3
    items = _judged([dict(x="A", y="A", z="A"), dict(x="A", y="B", z="A"), dict(x="B", y="B", z="B"),
                     dict(x="B", y="B", z="A")])
    cohen = analyse_judgments(items, metrics=("las",), mace_restarts=1)
    assert cohen.kappa_kind == "cohen" and cohen.kappa == pytest.approx(0.4)
    assert cohen.judge_agreement == pytest.approx(2 / 3)
    fleiss = analyse_judgments(items, metrics=("las",), kappa="fleiss", mace_restarts=1)
    assert fleiss.kappa_kind == "fleiss" and fleiss.kappa == pytest.approx(1 / 3)
    from spacy_agreement.evaluation.judgments.analysis import format_analysis

    assert "mean pairwise Cohen's kappa" in format_analysis(cohen)
    assert "Fleiss' kappa" in format_analysis(fleiss)
    with pytest.raises(ValueError, match="kappa must be"):
        analyse_judgments(items, kappa="scott")


def test_datapackage_reader_on_fixture():
    from spacy_agreement.evaluation.judgments.analysis import load_datapackage

    items = load_datapackage(PLANK_FIXTURE)
    assert [it.id for it in items] == ["xx-1", "xx-2", "xx-3"]
    # blue = parse A = parser1, red = parse B = parser2; empty cells are not judged
    assert items[0].judgments == {"judge1": "A", "judge2": "B"}
    assert items[1].judgments == {"judge1": "B", "judge2": "B", "judge3": "B"}
    assert items[2].judgments == {"judge2": "A", "judge3": "B"}
    assert items[0].a.heads.tolist() == [2, 0, 2, 2, 2, 4] and items[0].b.deprels[3] == "iobj"
    swapped = load_judgments(PLANK_FIXTURE, colours=("red", "blue"))
    assert swapped[0].judgments == {"judge1": "B", "judge2": "A"}
    other = load_judgments(PLANK_FIXTURE, parses=("parser2", "parser1"))
    assert other[0].a.deprels[3] == "iobj"


def test_datapackage_analysis_by_hand():
    # LAS with form punctuation: parser1 3/3, 2/3, 1/1; parser2 2/3, 3/3, 1/1 -> A, B, tie
    # judge1: item1 A (agrees), item2 B (agrees)                       -> 1
    # judge2: item1 B (no), item2 B (yes), item3 A (tie: 1/2 | "b": no)  -> 1/2 | 1/3
    # judge3: item2 B (yes), item3 B (tie: 1/2 | "b": yes)               -> 3/4 | 1
    # judges: (1,2) 1/2 over items 1-2, (1,3) 1 over item 2, (2,3) 1/2 over items 2-3: RAW 2/3;
    # Cohen: (1,2) 0, (1,3) undefined (one label only, left out), (2,3) 0: kappa 0
    from spacy_agreement.evaluation.dependency.metrics import EvaluationSettings

    items = load_judgments(PLANK_FIXTURE)
    options = EvaluationSettings(exclude_punct=True, punct_rules=frozenset({"form"}))
    half = analyse_judgments(items, options=options, mace_restarts=1)
    assert half.metric_judge_agreement["las"] == pytest.approx((1 + 1 / 2 + 3 / 4) / 3)
    as_b = analyse_judgments(items, options=options, ties="b", mace_restarts=1)
    assert as_b.metric_judge_agreement["las"] == pytest.approx((1 + 1 / 3 + 1) / 3)
    assert half.judge_agreement == pytest.approx(2 / 3) and half.kappa == pytest.approx(0.0)
    # UCP over verbs with a non-punctuation dependent: "Komm !" is left out, so parser1 has
    # sah right and lief wrong (the 2nd sentence scores 0 against 1 for parser2)
    assert half.preferences["ucp"] == ["tie", "B", "tie"]
    cli = CliRunner().invoke(app, ["judgments", str(PLANK_FIXTURE), "--json", "--no-punct", "--punct", "form",
                                   "--ties", "b", "--metric", "las"])
    assert cli.exit_code == 0, cli.output
    out = json.loads(cli.output)
    assert out["kappa_kind"] == "cohen" and out["items"] == 3 and out["judges"] == 3
    assert out["agreement_las"] == pytest.approx(7 / 9)
    fleiss = CliRunner().invoke(app, ["judgments", str(PLANK_FIXTURE), "--json", "--kappa", "fleiss"])
    assert json.loads(fleiss.output)["kappa_kind"] == "fleiss"


def test_datapackage_reader_errors(tmp_path):
    for name in ("gold", "parser1", "parser2"):
        (tmp_path / f"{name}.conll").write_text((PLANK_FIXTURE / f"{name}.conll").read_text("utf-8"), "utf-8")
    (tmp_path / "annotated.csv").write_text("blue,red\nred,green\nblue,blue\n", encoding="utf-8")
    with pytest.raises(JudgmentError, match="unknown colour 'green'") as err:
        load_judgments(tmp_path)
    assert "annotated.csv:2" in str(err.value)
    (tmp_path / "annotated.csv").write_text("ann1,ann2\nblue,red\nred,red\n", encoding="utf-8")
    with pytest.raises(JudgmentError, match="different numbers of sentences"):
        load_judgments(tmp_path)
    (tmp_path / "annotated.csv").write_text("ann1,ann2\nblue,red\nred,red\nblue,\n", encoding="utf-8")
    items = load_judgments(tmp_path)  # a header row of judge names
    assert items[0].judgments == {"ann1": "A", "ann2": "B"} and items[2].judgments == {"ann1": "A"}


# --- Plank et al. (2015), Tables 1, 2 and 5, on the released data (tests/conftest.py plank_data) ---
#
# Every figure the package reproduces is asserted to the paper's printed digits; a figure it does not
# reproduce is a strict xfail saying why (benchmarks/plank2015_parity.md has the detail), so that a change
# that moves a reproduced figure fails, and one that makes another figure reproduce fails too (then the
# expectation moves to the asserted ones).

PLANK_METRICS = ("las", "uas", "la", "ned", "ted", "lcp", "ucp")
PLANK_PARSERS = {"parser1": "Malt", "parser2": "MST"}  # in the release parser1 is Malt, parser2 MST
PLANK_TABLE2 = {  # LAS UAS LA NED TED LCP UCP, as printed
    "en": {"parser1": (79.17, 82.31, 87.88, 84.34, 85.20, 41.27, 47.17),
           "parser2": (78.30, 82.91, 86.80, 84.72, 83.49, 36.05, 45.58)},
    "es": {"parser1": (78.72, 82.85, 87.34, 82.90, 84.20, 34.00, 43.00),
           "parser2": (79.51, 84.97, 86.95, 85.00, 83.16, 31.83, 44.00)},
    "da": {"parser1": (79.28, 83.40, 85.92, 83.39, 77.50, 47.69, 55.23),
           "parser2": (82.75, 87.00, 88.42, 87.01, 78.39, 52.31, 62.31)},
    "de": {"parser1": (69.09, 75.70, 82.05, 75.54, 80.37, 19.72, 30.45),
           "parser2": (72.07, 80.29, 82.22, 80.13, 78.94, 19.38, 33.22)},
    "hr": {"parser1": (63.21, 72.34, 76.66, 71.94, 71.64, 23.18, 31.03),
           "parser2": (65.98, 76.20, 79.01, 75.89, 72.82, 24.71, 34.29)},
}
PLANK_VERBS = {"en": "VERB", "es": "VERB", "de": "VERB", "da": "VA,VE", "hr": "V"}
PLANK_TABLE1 = {"da": (0.77, 0.53), "de": (0.67, 0.33), "en": (0.73, 0.45), "es": (0.60, 0.20), "hr": (0.80, 0.59)}
PLANK_TABLE5 = {  # ANN, then the agreement of LAS UAS LA NED TED LCP UCP with the judges
    "da": (0.768, 0.838, 0.848, 0.808, 0.828, 0.828, 0.745, 0.765),
    "de": (0.670, 0.710, 0.690, 0.635, 0.710, 0.630, 0.575, 0.565),
    "en": (0.728, 0.715, 0.705, 0.660, 0.700, 0.658, 0.525, 0.600),
    "es": (0.601, 0.663, 0.644, 0.603, 0.652, 0.635, 0.581, 0.554),
    "hr": (0.800, 0.755, 0.700, 0.735, 0.730, 0.705, 0.570, 0.580),
}

NED_NOT_REPRODUCED = ("the paper's NED lies within -0.40..+0.05 points of its own UAS, which no NED on the same tokens "
                      "can give (NED >= UAS by construction); no definition, average, punctuation rule or argument "
                      "order tried reproduces it (only English does, as the undirected variant)")
TED_NOT_REPRODUCED = ("the paper's TED is TedEval's (Tsarfaty et al. 2011); none of the Figure-1 or TedEval-style "
                      "function trees, normalisations or averages tried reproduces any language (0.2-4.6 points off)")
VERBS_OFF = ("1 to 3 of the paper's verbs are judged otherwise than ours (the same verb set: its figures are k/600, "
             "k/289, k/522 as ours; no variant tried fixes these without breaking the 12 exact ones)")
TABLE2_NOT_REPRODUCED = {
    **{(lang, parser, "ned"): NED_NOT_REPRODUCED for lang in ("es", "da", "de", "hr") for parser in PLANK_PARSERS},
    **{(lang, parser, "ted"): TED_NOT_REPRODUCED for lang in PLANK_TABLE2 for parser in PLANK_PARSERS},
    **{(lang, parser, metric): VERBS_OFF for lang, parser in (("es", "parser1"), ("es", "parser2"), ("de", "parser2"),
                                                              ("hr", "parser2")) for metric in ("lcp", "ucp")},
}
KAPPA_NOT_REPRODUCED = ("mean pairwise Cohen's kappa gives de .341 and en .457, which round to .34 and .46 where the "
                        "paper prints .33 and .45; no common variant (Fleiss, Scott's pi, Krippendorff's alpha, "
                        "truncation) gives all five languages")
DANISH_NOT_REPRODUCED = ("the Danish judges agree with the metric-preferred parse on .59-.69 of the items where the "
                         "paper says .75-.85, though the judges' agreement and Table 2's Danish scores reproduce: the "
                         "released annotated.csv seems not aligned with the released parses for part of the items")
TIES_NOT_REPRODUCED = ("depends on how the paper broke the metric's ties (UCP/LCP tie on 80-150 of 200 items, the "
                       "others on 10-45), which no single rule (half, skip, A, B) reproduces")
TABLE5_REPRODUCED = {(lang, "ann") for lang in PLANK_TABLE5} | {(lang, "las") for lang in ("de", "en", "es", "hr")} | {
    ("en", "ned"), ("de", "lcp")}


def _marked(values, reason):
    return pytest.param(*values, id="-".join(values), marks=[pytest.mark.xfail(strict=True, reason=reason)]
                        if reason else [])


@pytest.fixture(scope="module")
def plank_evaluate(plank_data):
    """``evaluate --convention plank2015 --json`` of one parser of one language (cached)."""
    cache = {}

    def run(lang, parser):
        if (lang, parser) not in cache:
            args = ["evaluate", str(plank_data / lang / "gold.conll"), str(plank_data / lang / f"{parser}.conll"),
                    "--json", "--convention", "plank2015", "--verb-tags", PLANK_VERBS[lang], "--ignore-forms"]
            result = CliRunner().invoke(app, args)
            assert result.exit_code == 0, result.output
            cache[lang, parser] = json.loads(result.stdout)  # warnings go to stderr, the JSON alone to stdout
        return cache[lang, parser]

    return run


@pytest.fixture(scope="module")
def plank_judgments(plank_data):
    """``judgments --json`` of one language as the paper's Tables 1 and 5 are computed (cached)."""
    cache = {}

    def run(lang):
        if lang not in cache:
            args = ["judgments", str(plank_data / lang), "--json", "--no-punct", "--punct", "form", "--verb-tags",
                    PLANK_VERBS[lang], "--ignore-forms", "--ned", "undirected", "--ties", "b"]
            result = CliRunner().invoke(app, args)
            assert result.exit_code == 0, result.output
            cache[lang] = json.loads(result.stdout)
        return cache[lang]

    return run


@pytest.mark.parametrize("lang, parser, metric", [
    _marked((lang, parser, metric), TABLE2_NOT_REPRODUCED.get((lang, parser, metric)))
    for lang in PLANK_TABLE2 for parser in PLANK_PARSERS for metric in PLANK_METRICS])
def test_plank2015_table2(plank_evaluate, lang, parser, metric):
    """Table 2: LAS, UAS, LA exact for all 30 figures; English NED (the undirected variant); UCP
    and LCP for en, da (both parsers), de and hr Malt; punctuation by eval.pl's form rule, left out."""
    out = plank_evaluate(lang, parser)
    assert out["signature"].startswith("evaluate|xpunct:yes|") and "|conv:plank2015|" in out["signature"]
    assert round(100 * out[metric], 2) == PLANK_TABLE2[lang][parser][PLANK_METRICS.index(metric)]


@pytest.mark.parametrize("lang, figure", [
    _marked((lang, figure), KAPPA_NOT_REPRODUCED if figure == "kappa" and lang in ("de", "en") else None)
    for lang in PLANK_TABLE1 for figure in ("raw", "kappa")])
def test_plank2015_table1(plank_judgments, lang, figure):
    """Table 1: RAW (the mean over judge pairs of their raw agreement) and κ (mean pairwise Cohen)."""
    out = plank_judgments(lang)
    assert out["kappa_kind"] == "cohen" and out["items"] == (184 if lang == "es" else 200)  # the paper's note 4
    raw, kappa = PLANK_TABLE1[lang]
    assert round(out["judge_agreement" if figure == "raw" else "kappa"], 2) == (raw if figure == "raw" else kappa)


@pytest.mark.parametrize("lang, column", [
    _marked((lang, column), None if (lang, column) in TABLE5_REPRODUCED else
            DANISH_NOT_REPRODUCED if lang == "da" else TIES_NOT_REPRODUCED)
    for lang in PLANK_TABLE5 for column in ("ann",) + PLANK_METRICS])
def test_plank2015_table5(plank_judgments, lang, column):
    """Table 5: ANN (= Table 1's RAW) exact for all five, LAS for en, de, hr and es (a tie counts
    as preferring parse B, ``--ties b``), English NED and German LCP."""
    out = plank_judgments(lang)
    key = "judge_agreement" if column == "ann" else f"agreement_{column}"
    assert round(out[key], 3) == PLANK_TABLE5[lang][(("ann",) + PLANK_METRICS).index(column)]
