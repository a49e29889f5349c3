"""Per-layer agreement (:mod:`spacy_agreement.agreement.layers`) on corpora written here as
CoNLL-U text, and on the CDT inter-annotator data when present. Every figure is checked against
a reliability matrix built in this file from the CoNLL-U text by plain string splitting (never
through the library's reader or :mod:`~spacy_agreement.agreement.layer_values`) and computed by
the ``krippendorff`` package, NLTK / scikit-learn or statsmodels, or counted by hand."""
import json
import math
import warnings
from collections import Counter, defaultdict

import numpy as np
import pytest

from spacy_agreement.adapters.conllu.trees import parse_conll
from spacy_agreement.adapters.files import load_parallel_files
from spacy_agreement.agreement.accuracy import pairwise_attachment
from spacy_agreement.agreement import nominal
from spacy_agreement.agreement.layers import agreement_by_layer, disagreements
from spacy_agreement.corpus import Corpus
from spacy_agreement.errors import UndefinedMetricWarning
from tests.helpers import krippendorff_nominal

NONE = "(none)"  # a feature / MISC key one annotator set and another did not


# --- the reference: CoNLL text → reliability matrices, by string splitting -----------------------

def sentences(text):
    """[(sent_id or None, [10 columns per token line])] of CoNLL-U / CoNLL-X text."""
    out, sent_id, rows = [], None, []
    for line in text.splitlines() + [""]:
        line = line.rstrip("\n")
        if not line.strip():
            if rows:
                out.append((sent_id, rows))
            sent_id, rows = None, []
        elif line.startswith("#"):
            if line.startswith("# sent_id = "):
                sent_id = line.split("=", 1)[1].strip()
        else:
            rows.append(line.split("\t"))
    return out


def unannotated(rows):
    """Token positions not annotated yet: HEAD ``_``, or DEPREL ``_`` where others have one."""
    labelled = any(r[7] != "_" for r in rows)
    return {k for k, r in enumerate(rows) if r[6] == "_" or (labelled and r[7] == "_")}


def key_values(text):
    return dict(part.partition("=")[::2] for part in text.split("|")) if text not in ("", "_") else {}


def reference_matrices(items, annotators, misc=()):
    """The layers of ``items`` (each a dict annotator → token rows; an absent annotator has no
    annotation) as {layer: (rows, units)}: ``rows[a][u]`` the value annotator a gave unit u
    (None: no value), ``units`` (item number, token id, form). Items with fewer than two
    annotations or whose annotations differ in tokens are left out (and returned)."""
    kept, left_out = [], []
    for number, item in enumerate(items):
        present = [item[a] for a in annotators if a in item]
        if len(present) < 2:
            continue
        if len({len(r) for r in present}) > 1 or any(
                len({r[k][1] for r in present if r[k][1] != "_"}) > 1 for k in range(len(present[0]))):
            left_out.append(number)
            continue
        kept.append((number, item))
    units = [(number, item_rows[k][0], item_rows[k][1]) for number, item in kept
             for item_rows in [next(iter(item.values()))] for k in range(len(item_rows))]

    def layer(value):  # value(rows, k) for one annotator's token, or None
        return [[value(item[a], k) if a in item else None
                 for _, item in kept for k in range(len(next(iter(item.values()))))] for a in annotators]

    out = {
        "upos": layer(lambda rows, k: None if rows[k][3] == "_" else rows[k][3]),
        "xpos": layer(lambda rows, k: None if rows[k][4] == "_" else rows[k][4]),
        "lemma": layer(lambda rows, k: None if rows[k][2] == "_" else rows[k][2]),
        "feats": layer(lambda rows, k: NONE if rows[k][5] == "_" else "|".join(sorted(rows[k][5].split("|")))),
        "head": layer(lambda rows, k: None if k in unannotated(rows) else rows[k][6]),
        "deprel": layer(lambda rows, k: None if k in unannotated(rows) else rows[k][7]),
    }
    heads = out["head"]
    same = [len({row[u] for row in heads if row[u] is not None}) == 1
            and sum(row[u] is not None for row in heads) >= 2 for u in range(len(units))]
    out["deprel_same_head"] = [[v if same[u] else None for u, v in enumerate(row)] for row in out["deprel"]]
    names = sorted({name for _, item in kept for rows in item.values() for r in rows for name in key_values(r[5])})
    keyed = [("feats", 5, name) for name in names] + [("misc", 9, key) for key in misc]
    for prefix, column, key in keyed:
        rows = layer(lambda rows, k: key_values(rows[k][column]).get(key, NONE))
        wanted = [any(row[u] not in (None, NONE) for row in rows) for u in range(len(units))]
        out[f"{prefix}.{key}"] = [[v if wanted[u] else None for u, v in enumerate(row)] for row in rows]
    return {name: (rows, units) for name, rows in out.items()}, left_out


def codes_of(rows):
    """String values as category numbers (nan: none), the ``krippendorff`` package's input."""
    labels = sorted({v for row in rows for v in row if v is not None})
    number = {label: k for k, label in enumerate(labels)}
    return np.array([[np.nan if v is None else number[v] for v in row] for row in rows], dtype=float).reshape(
        len(rows), -1)


def package_alpha(rows):
    """``krippendorff.alpha`` (nominal): tests/helpers.py ``krippendorff_nominal``."""
    return krippendorff_nominal(codes_of(rows))


def coincidence_alpha(rows):
    """Nominal α from the coincidence matrix built pair by pair (Krippendorff 2011): for
    matrices with too many categories for the package's dense units × values² computation.
    Checked against the package below wherever both run."""
    o, n_c = defaultdict(float), defaultdict(float)
    for u in range(len(rows[0])):
        values = [row[u] for row in rows if row[u] is not None]
        m = len(values)
        for i in range(m):
            for j in range(m):
                if i != j:
                    o[values[i], values[j]] += 1 / (m - 1)
                    n_c[values[i]] += 1 / (m - 1)
    n = sum(n_c.values())
    expected = n * n - sum(v * v for v in n_c.values())
    if n == 0 or expected == 0:
        return math.nan
    return 1 - (n - 1) * sum(v for (c, k), v in o.items() if c != k) / expected


def pairable(rows):
    return sum(sum(row[u] is not None for row in rows) >= 2 for u in range(len(rows[0])))


def differing(rows):
    return sum(len({row[u] for row in rows if row[u] is not None}) > 1 for u in range(len(rows[0])))


def same(got, expected, tol=1e-9):
    return (math.isnan(got) and math.isnan(expected)) or abs(got - expected) <= tol


def conllu(*sents):
    """CoNLL-U text: each sentence (sent_id or None, lines of space-separated columns)."""
    blocks = []
    for sent_id, lines in sents:
        head = [f"# sent_id = {sent_id}"] if sent_id else []
        blocks.append("\n".join(head + ["\t".join(line.split()) for line in lines]))
    return "\n\n".join(blocks) + "\n\n"


# --- three annotators: same trees, different UPOS -----------------------------------------------

#            ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC
SAME_TREES = {
    "a": [["1 The the DET _ _ 3 det _ _", "2 dog dog NOUN _ _ 3 nsubj _ _", "3 barks bark VERB _ _ 0 root _ _",
           "4 loudly loudly ADV _ _ 3 advmod _ _", "5 . . PUNCT _ _ 3 punct _ _"],
          ["1 She she PRON _ _ 2 nsubj _ _", "2 reads read VERB _ _ 0 root _ _", "3 old old ADJ _ _ 4 amod _ _",
           "4 books book NOUN _ _ 2 obj _ _"]],
    "b": [["1 The the DET _ _ 3 det _ _", "2 dog dog NOUN _ _ 3 nsubj _ _", "3 barks bark VERB _ _ 0 root _ _",
           "4 loudly loudly ADJ _ _ 3 advmod _ _", "5 . . PUNCT _ _ 3 punct _ _"],
          ["1 She she PRON _ _ 2 nsubj _ _", "2 reads read VERB _ _ 0 root _ _", "3 old old ADJ _ _ 4 amod _ _",
           "4 books book NOUN _ _ 2 obj _ _"]],
    "c": [["1 The the DET _ _ 3 det _ _", "2 dog dog PROPN _ _ 3 nsubj _ _", "3 barks bark VERB _ _ 0 root _ _",
           "4 loudly loudly ADV _ _ 3 advmod _ _", "5 . . PUNCT _ _ 3 punct _ _"],
          ["1 She she PRON _ _ 2 nsubj _ _", "2 reads read AUX _ _ 0 root _ _", "3 old old ADJ _ _ 4 amod _ _",
           "4 books book NOUN _ _ 2 obj _ _"]],
}


def same_trees_corpus():
    trees = {a: parse_conll(conllu(*[(None, s) for s in sents])) for a, sents in SAME_TREES.items()}
    return Corpus.from_items([{a: trees[a][k] for a in trees} for k in range(2)])


def same_trees_reference():
    items = [{a: sentences(conllu((None, SAME_TREES[a][k])))[0][1] for a in SAME_TREES} for k in range(2)]
    return reference_matrices(items, ["a", "b", "c"])[0]


def test_same_trees_different_upos(engine):
    corpus = same_trees_corpus()
    assert pairwise_attachment(corpus).scores["las"] == 1.0
    result = agreement_by_layer(corpus, layers=("upos", "head", "deprel", "deprel_same_head"))
    ref = same_trees_reference()
    upos = result["upos"]
    assert upos.alpha < 1
    assert upos.alpha == pytest.approx(package_alpha(ref["upos"][0]), abs=1e-12) and upos.engine == engine
    # heads and relations identical and varied across tokens: α is exactly 1
    for name in ("head", "deprel", "deprel_same_head"):
        assert result[name].alpha == 1.0 and package_alpha(ref[name][0]) == 1.0
        assert result[name].disagreeing == 0 and result[name].units == 9
    # the UPOS rows, counted by hand from SAME_TREES, most frequent first, ties by label
    rows = {row.label: row for row in upos.labels}
    assert [row.label for row in upos.labels] == ["NOUN", "VERB", "ADJ", "DET", "PRON", "PUNCT", "ADV", "AUX",
                                                  "PROPN"]
    expected_counts = {
        "NOUN": (2, 2, 1), "VERB": (2, 2, 1), "ADJ": (1, 2, 1), "DET": (1, 1, 1), "PRON": (1, 1, 1),
        "PUNCT": (1, 1, 1), "ADV": (1, 0, 1), "AUX": (0, 0, 1), "PROPN": (0, 0, 1)}
    for label, (a, b, c) in expected_counts.items():
        assert rows[label].counts == {"a": a, "b": b, "c": c}, label
    # NOUN: pairs ab, ac, bc both gave it to 2, 1, 1 tokens; precision (agreed / second's count)
    # 2/2, 1/1, 1/1; recall (agreed / first's count) 2/2, 1/2, 1/2; F 1, 2/3, 2/3
    noun = rows["NOUN"]
    assert noun.agreed == pytest.approx(4 / 3)
    assert noun.precision == pytest.approx(1.0) and noun.recall == pytest.approx(2 / 3)
    assert noun.f == pytest.approx(7 / 9)
    # category-specific agreement o_cc / n_c: "dog" (NOUN, NOUN, PROPN) adds 2·1/2, "books" 3·2/2
    assert noun.specific == pytest.approx(4 / 5)
    assert rows["DET"].specific == 1.0 and rows["AUX"].specific == 0.0
    # the confusions, each pair of annotators counted: loudly ADV/ADJ (ab, bc), dog NOUN/PROPN (ac, bc),
    # reads VERB/AUX (ac, bc)
    assert upos.confusions == [("ADJ", "ADV", 2), ("AUX", "VERB", 2), ("NOUN", "PROPN", 2)]
    # Fleiss' κ (complete data) against statsmodels; Cohen's κ per pair against NLTK
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    table, _ = inter_rater.aggregate_raters(codes_of(ref["upos"][0]).T.astype(int))
    assert upos.fleiss == pytest.approx(inter_rater.fleiss_kappa(table), abs=1e-9)


def test_same_trees_cohen_and_reference_annotator():
    agreement = pytest.importorskip("nltk.metrics.agreement")
    corpus = same_trees_corpus()
    rows = same_trees_reference()["upos"][0]
    task = agreement.AnnotationTask(data=[(coder, u, label) for coder, row in zip("abc", rows)
                                          for u, label in enumerate(row)])
    result = agreement_by_layer(corpus, layers=("upos",), reference="c")
    for pair in ("a|b", "a|c", "b|c"):
        x, y = pair.split("|")
        assert result["upos"].cohen[pair] == pytest.approx(task.kappa_pairwise(x, y), abs=1e-9)
    assert result["upos"].cohen_mean == pytest.approx(
        np.mean([task.kappa_pairwise(*p) for p in (("a", "b"), ("a", "c"), ("b", "c"))]), abs=1e-9)
    # with c as reference, NOUN: pairs ca, cb agree on "books" only; c gave NOUN once, a and b twice
    noun = next(row for row in result["upos"].labels if row.label == "NOUN")
    assert noun.precision == pytest.approx(0.5) and noun.recall == pytest.approx(1.0)


def test_identical_relation_everywhere_is_undefined_with_warning():
    lines = ["1 a a X _ _ 0 dep _ _", "2 b b Y _ _ 1 dep _ _", "3 c c X _ _ 2 dep _ _"]
    trees = [parse_conll(conllu((None, lines)))[0] for _ in range(2)]
    corpus = Corpus.from_items([trees])
    with pytest.warns(UndefinedMetricWarning):
        result = agreement_by_layer(corpus, layers=("upos", "head", "deprel"))
    assert math.isnan(package_alpha([["dep"] * 3, ["dep"] * 3]))  # the package: one value in the domain
    assert math.isnan(result["deprel"].alpha)
    assert result["head"].alpha == 1.0 and result["upos"].alpha == 1.0


# --- three annotators, a missing annotation, a partial tree: every layer against the package ----

FILES = {
    "a": [
        ("s1", ["1 The the DET DT Definite=Def|PronType=Art 3 det _ _",
                "2 old old ADJ JJ Degree=Pos 3 amod _ _",
                "3 dog dog NOUN NN Number=Sing 4 nsubj _ _",
                "4 barks bark VERB VBZ Mood=Ind|Number=Sing|Person=3|Tense=Pres 0 root _ SpaceAfter=No",
                "5 . . PUNCT . _ 4 punct _ _"]),
        ("s2", ["1 Sie sie PRON PPER Case=Nom|Number=Plur 2 nsubj _ _",
                "2 sehen sehen VERB VVFIN Number=Plur 0 root _ _",
                "3 den der DET ART Case=Acc|Definite=Def 4 det _ _",
                "4 Hund Hund NOUN NN Case=Acc|Number=Sing 2 obj _ SpaceAfter=No"]),
        ("s3", ["1 Er er PRON PPER Case=Nom 2 nsubj _ _",
                "2 gibt geben VERB VVFIN _ 0 root _ _",
                "3 ihm er PRON PPER Case=Dat 2 iobj _ _",
                "4 Brot Brot NOUN NN Case=Acc 2 obj _ SpaceAfter=No|Gloss=bread"]),
    ],
    "b": [
        ("s1", ["1 The the DET DT PronType=Art|Definite=Def 3 det _ _",  # same features, other order
                "2 old old ADJ JJ Degree=Pos 3 amod _ _",
                "3 dog dog NOUN NN Number=Sing 4 nsubj _ _",
                "4 barks barks NOUN NNS Number=Plur 0 root _ SpaceAfter=No",
                "5 . . PUNCT . _ 4 punct _ _"]),
        ("s2", ["1 Sie sie PRON PPER Case=Acc|Number=Plur 2 obj _ _",
                "2 sehen sehen VERB VVFIN Number=Plur 0 root _ _",
                "3 den der DET ART Case=Acc|Definite=Def 4 det _ _",
                "4 Hund Hund NOUN NN Case=Acc|Number=Sing 2 nsubj _ _"]),
        ("s3", ["1 Er er PRON PPER Case=Nom 2 nsubj _ _",
                "2 gibt geben VERB VVFIN _ 0 root _ _",
                "3 ihm ihm PRON PPER Case=Dat 2 obj _ _",
                "4 Brot Brot NOUN NN Case=Acc 2 obj _ SpaceAfter=No"]),
    ],
    "c": [  # lacks s2; token 3 of s3 not annotated yet (HEAD and DEPREL _)
        ("s1", ["1 The the DET DT PronType=Art 3 det _ _",
                "2 old old ADJ JJ Degree=Pos 4 amod _ _",
                "3 dog dog NOUN NN Number=Sing 4 nsubj _ _",
                "4 barks bark VERB VBZ Mood=Ind|Number=Sing|Person=3|Tense=Pres 0 root _ SpaceAfter=No",
                "5 . . PUNCT PUNCT _ 4 punct _ _"]),
        ("s3", ["1 Er er PRON PPER Case=Nom 2 nsubj _ _",
                "2 gibt geben VERB VVFIN _ 0 root _ _",
                "3 ihm er PRON PPER Case=Dat _ _ _ _",
                "4 Brot Brot NOUN NN Case=Nom 2 nsubj _ Gloss=bread"]),
    ],
}
ANNOTATORS = ["a", "b", "c"]


@pytest.fixture(params=["krippendorff", "closed form"])
def engine(request, monkeypatch):
    """What computes the layers' nominal α, each checked against the ``krippendorff`` package: the
    package itself, which nominal.value_alpha calls where units · categories² fits
    nominal.PACKAGE_CELLS (these small matrices), or, with that path switched off
    (PACKAGE_CELLS = 0), the closed form of nominal.py, which is then what the package checks."""
    if request.param == "closed form":
        monkeypatch.setattr(nominal, "PACKAGE_CELLS", 0)
    return request.param


@pytest.fixture
def mixed(tmp_path, engine):
    """(result, reference matrices) of FILES read from files, MISC SpaceAfter as a layer."""
    paths = []
    for name in ANNOTATORS:
        path = tmp_path / f"{name}.conllu"
        path.write_text(conllu(*FILES[name]), encoding="utf-8")
        paths.append(path)
    corpus = load_parallel_files(paths)
    assert corpus.annotators == tuple(ANNOTATORS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # feats.Degree: one value
        result = agreement_by_layer(corpus, misc=("SpaceAfter",))
    by_id = [{a: dict(sentences(conllu(*FILES[a]))) for a in ANNOTATORS}]
    items = [{a: by_id[0][a][sid] for a in ANNOTATORS if sid in by_id[0][a]} for sid in ("s1", "s2", "s3")]
    ref, left_out = reference_matrices(items, ANNOTATORS, misc=("SpaceAfter",))
    assert left_out == []
    return result, ref


def test_every_layer_alpha_equals_krippendorff(mixed, engine):
    result, ref = mixed
    assert result.items == 3 and result.items_mismatched == [] and result.items_unpairable == 0
    assert set(result.layers) == set(ref)
    assert {"upos", "lemma", "head", "deprel", "feats.Case", "misc.SpaceAfter"} <= set(ref)
    checked = 0
    for name, (rows, _) in ref.items():
        layer = result[name]
        expected = package_alpha(rows)
        assert same(layer.alpha, expected), (name, layer.alpha, expected)
        if not math.isnan(expected):
            assert layer.engine == engine, name  # the package did not check itself
        assert same(coincidence_alpha(rows), expected), name  # the reference of the CDT test agrees
        assert layer.units == pairable(rows), name
        assert layer.disagreeing == differing(rows), name
        checked += not math.isnan(expected)
    assert checked >= 10
    # the layers that make the fixture worth having really disagree
    for name in ("upos", "lemma", "head", "deprel", "feats.Case", "misc.SpaceAfter", "deprel_same_head"):
        assert result[name].alpha < 1, name


def test_missing_annotation_and_partial_tree(mixed):
    result, ref = mixed
    # 13 tokens; c lacks s2 (4 tokens) and has no head/relation on token 3 of s3
    assert result["upos"].missing == 4 and result["upos"].units == 13
    assert result["head"].missing == 5 and result["deprel"].missing == 5
    # values of the head layer: 13·3 minus the missing five
    assert result["head"].values == 34
    assert ref["head"][0][2][11] is None and ref["head"][0][0][11] == "2"  # the reference agrees
    # feats.Case is compared only on the tokens where some annotator set Case (3 in s2, 3 in s3)
    assert result["feats.Case"].units == 6 == pairable(ref["feats.Case"][0])
    assert result["misc.SpaceAfter"].units == 3  # barks, Hund, Brot


def test_cohen_and_per_annotator_against_independent(mixed):
    result, ref = mixed
    for name in ("upos", "head", "deprel", "lemma"):
        rows = ref[name][0]
        layer = result[name]
        for i, j in (("a", "b"), ("a", "c"), ("b", "c")):
            x, y = rows[ANNOTATORS.index(i)], rows[ANNOTATORS.index(j)]
            both = [(p, q) for p, q in zip(x, y) if p is not None and q is not None]
            got = layer.cohen[f"{i}|{j}"]
            if len({v for pq in both for v in pq}) < 2:
                assert math.isnan(got)
                continue
            agreement = pytest.importorskip("nltk.metrics.agreement")
            task = agreement.AnnotationTask(data=[(coder, u, pq[k]) for u, pq in enumerate(both)
                                                  for k, coder in enumerate("xy")])
            assert got == pytest.approx(task.kappa_pairwise("x", "y"), abs=1e-9), (name, i, j)
            from sklearn.metrics import cohen_kappa_score  # the test extra has it: never left out

            assert got == pytest.approx(cohen_kappa_score([p for p, _ in both], [q for _, q in both]), abs=1e-9)
        for k, annotator in enumerate(ANNOTATORS):
            rest = [row for m, row in enumerate(rows) if m != k]
            assert same(layer.annotators[annotator]["alpha_without"], package_alpha(rest)), (name, annotator)


def test_deprel_same_head_counts_only_tokens_whose_heads_agree(mixed):
    result, ref = mixed
    heads, _ = ref["head"]
    rows, units = ref["deprel_same_head"]
    agreeing = [u for u in range(len(units))
                if len({row[u] for row in heads if row[u] is not None}) == 1
                and sum(row[u] is not None for row in heads) >= 2]
    # by hand: "old" (s1 token 2: 3, 3, 4) is out; "ihm" (s3 token 3: 2, 2, none) is in
    assert len(agreeing) == 12 and 1 not in agreeing and 11 in agreeing
    layer = result.data.layers["deprel_same_head"]
    with_values = [u for u in range(layer.codes.shape[1]) if (layer.codes[:, u] >= 0).sum() >= 1]
    assert with_values == agreeing
    assert result["deprel_same_head"].units == 12
    assert result["deprel_same_head"].alpha == pytest.approx(package_alpha(rows), abs=1e-9)
    assert result["deprel"].units == 13  # every token: "ihm" has two relations, enough
    # Sie (nsubj/obj), Hund (obj/nsubj), ihm (iobj/obj/none), Brot (obj/obj/nsubj)
    assert result["deprel_same_head"].disagreeing == differing(rows) == 4


def test_disagreements_rows(mixed):
    result, ref = mixed
    rows = list(disagreements(result))
    expected = []
    for name, (matrix, units) in ref.items():
        for u, (item, token, form) in enumerate(units):
            values = [row[u] for row in matrix]
            if len({v for v in values if v is not None}) > 1:
                expected.append((name, ("s1", "s2", "s3")[item], token, form,
                                 tuple("" if v is None else v for v in values)))
    # each annotator's value ("" for none) under "values"
    got = [(r["layer"], r["item"], r["token"], r["form"], tuple(r["values"][a] for a in ANNOTATORS)) for r in rows]
    assert len(rows) == len(expected) == sum(layer.disagreeing for layer in result.layers.values())
    assert Counter(got) == Counter(expected)
    assert len(set(got)) == len(got)  # every (token, layer) once
    # a few by hand: lemma of "barks", the head of "old", a feature set by one annotator only
    assert ("lemma", "s1", "4", "barks", ("bark", "barks", "bark")) in got
    assert ("head", "s1", "2", "old", ("3", "3", "4")) in got
    assert ("feats.Definite", "s1", "1", "The", ("Def", "Def", NONE)) in got
    assert ("misc.SpaceAfter", "s2", "4", "Hund", ("No", NONE, "")) in got
    # FEATS is a set of features: a and b wrote the same two in another order
    assert ("feats", "s1", "1", "The", ("Definite=Def|PronType=Art",) * 2 + ("PronType=Art",)) in got


def test_json(mixed):
    result, _ = mixed
    out = result.to_json()
    json.dumps(out)  # serialisable (nan as NaN)
    assert out["signature"].startswith("layers|")
    assert set(out["layers"]) == set(result.layers)
    for name, layer in out["layers"].items():
        assert name.split(".")[0] == name.split(".")[0].lower()
        assert {"alpha", "observed", "cohen_kappa", "fleiss_kappa", "units"} <= set(layer), name
    assert "misc.SpaceAfter" in out["layers"] and "upos" in out["layers"]
    assert out["layers"]["upos"]["alpha"] == result["upos"].alpha


# --- items whose annotations have different tokens ----------------------------------------------

def test_items_with_different_tokens_are_left_out(engine):
    good = ["1 a a X _ _ 0 root _ _", "2 b b Y _ _ 1 dep _ _", "3 c c Z _ _ 1 obj _ _"]
    good_b = ["1 a a X _ _ 0 root _ _", "2 b b X _ _ 1 dep _ _", "3 c c Z _ _ 2 obj _ _"]
    longer = good + ["4 d d X _ _ 1 dep _ _"]
    other_form = ["1 a a X _ _ 0 root _ _", "2 B b Y _ _ 1 dep _ _", "3 c c Z _ _ 1 obj _ _"]
    texts = {"a": [good, good, good, good], "b": [good_b, longer, other_form, None]}
    trees = {n: [None if s is None else parse_conll(conllu((None, s)))[0] for s in sents]
             for n, sents in texts.items()}
    corpus = Corpus.from_items([{n: trees[n][k] for n in trees if trees[n][k] is not None} for k in range(4)])
    result = agreement_by_layer(corpus, layers=("upos", "head"))
    assert len(result.items_mismatched) == 2 and result.items == 1 and result.items_unpairable == 1
    assert "item 2" in result.items_mismatched[0] and "item 3" in result.items_mismatched[1]
    items = [{n: sentences(conllu((None, s)))[0][1] for n, sents in texts.items()
              for s in [sents[k]] if s is not None} for k in range(4)]
    ref, left_out = reference_matrices(items, ["a", "b"])
    assert left_out == [1, 2]
    assert result["upos"].units == 3
    for name in ("upos", "head"):
        assert result[name].alpha == pytest.approx(package_alpha(ref[name][0]), abs=1e-12)


# --- the CDT data (Skjærholt 2014), when present ------------------------------------------------

def test_cdt_every_layer_equals_reference(iaa):
    files = [iaa / "cdt/da-lotte.conll", iaa / "cdt/da-morten.conll"]
    corpus = load_parallel_files(files)
    result = agreement_by_layer(corpus)
    assert result.items == 162 and result.items_mismatched == []
    parsed = [sentences(path.read_text(encoding="utf-8")) for path in files]
    assert len(parsed[0]) == len(parsed[1]) == 162
    names = list(corpus.annotators)
    items = [{names[0]: x[1], names[1]: y[1]} for x, y in zip(*parsed)]  # paired by position
    ref, left_out = reference_matrices(items, names)
    assert left_out == []
    assert set(result.layers) == set(ref)
    dense = 0
    for name, (rows, units) in ref.items():
        layer = result[name]
        values = len({v for row in rows for v in row if v is not None})
        assert layer.categories == values, name
        assert layer.units == pairable(rows) and layer.disagreeing == differing(rows), name
        expected = coincidence_alpha(rows)
        if values <= 70:  # the package's dense units × values² is quick (xpos, 88 values, takes a second)
            dense += 1
            assert package_alpha(rows) == pytest.approx(expected, abs=1e-9), name
        assert layer.alpha == pytest.approx(expected, abs=1e-9), (name, layer.alpha, expected)
    assert dense >= len(ref) - 4  # all but xpos, lemma, feats, feats.id
    for name in ("upos", "head", "deprel", "deprel_same_head"):  # the package on the layers that matter
        assert result[name].alpha == pytest.approx(package_alpha(ref[name][0]), abs=1e-9), name
    # the syntactic layers disagree (the POS and morphology were given to both annotators)
    assert result["head"].alpha < 1 and result["deprel"].alpha < 1 and result["deprel_same_head"].units < 2394
    assert sum(1 for _ in disagreements(result)) == sum(differing(rows) for rows, _ in ref.values())
