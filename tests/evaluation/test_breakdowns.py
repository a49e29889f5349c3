"""MaltEval-style breakdowns of attachment (:mod:`spacy_agreement.evaluation.dependency.breakdowns`, issue 29
part 3): the vectorised counts against a slow reference written here (plain loops over tokens)
on random trees with cycles, punctuation, partial annotation and systems without UPOS;
hand-computed cases; the CoNLL 2018 convention (equal to the default one on identical tokens,
totals equal to ``evaluate_aligned_layers`` on retokenised files); tables and JSON."""
import json
import math
import random
import warnings
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spacy_agreement as sa
from spacy_agreement.adapters.conllu.column_reader import parse_conllu_columns, read_conllu_columns
from spacy_agreement.cli._output import dumps
from spacy_agreement.errors import BadOptionError, MismatchedCorpusError
from spacy_agreement.evaluation.conll18.alignment import evaluate_aligned_layers
from spacy_agreement.evaluation.dependency.breakdown_tables import breakdowns_to_json, format_breakdowns
from spacy_agreement.evaluation.dependency.breakdowns import (ALL, ATTRIBUTES, Breakdown, BreakdownRow, breakdowns_from_layers,
                                                   breakdowns_from_trees, depths)
from spacy_agreement.evaluation.dependency.metrics import EvaluationSettings, evaluate
from spacy_agreement.limits import depths as reference_depths
from spacy_agreement.trees import DependencyTree
from tests.evaluation.test_conll18_aligned import _perturbed, random_conllu

DATA = Path(__file__).resolve().parents[1] / "data" / "conll18"
CASES = sorted(p.name[: -len(".gold.conllu")] for p in DATA.glob("*.gold.conllu"))
CONLL18_OPTIONS = EvaluationSettings(ignore_subtypes=True, fold_root_case=False)
UPOS = ["NOUN", "VERB", "PUNCT", "DET"]
RELATIONS = ["nsubj", "obj", "det", "punct", "root", "ROOT", "nmod:poss"]


# ------------------------------------------------------------------------------ the reference


def ref_arc_length(head, dependent):
    if head == 0:
        return "root"
    if head == dependent:
        return "self"
    length = abs(head - dependent)
    if length <= 9:
        return str(length)
    for low, high in ((10, 14), (15, 19), (20, 29)):
        if low <= length <= high:
            return f"{low}-{high}"
    return "30+"


def ref_direction(head, dependent):
    if head == 0:
        return "root"
    if head == dependent:
        return "self"
    return "left" if head < dependent else "right"


def ref_depth(tree, k):
    """Arcs from the root to token k (1-based), walking up; unreachable through a cycle or
    a token not annotated."""
    seen, node, depth = set(), k, 0
    while node != 0:
        if node in seen or node in tree.unannotated:
            return "unreachable"
        seen.add(node)
        node = int(tree.heads[node - 1])
        depth += 1
    return str(depth) if depth < 10 else "10+"


def ref_sentence_length(n):
    for low in (1, 11, 21, 31):
        if low <= n <= low + 9:
            return f"{low}-{low + 9}"
    return "41+"


def reference(pairs, by, options, labelled):
    """{group: [gold, system, correct_gold, correct_system]} and the tokens left out, token by token."""
    counts = defaultdict(lambda: [0, 0, 0, 0])
    left_out = 0
    for gold, pred in pairs:
        g, p = options.normalise(gold), options.normalise(pred, predicted=True)
        n = len(gold)
        for k in range(1, n + 1):
            if options.exclude_punct and options.is_punct(gold.forms[k - 1], gold.upos[k - 1], gold.deprels[k - 1]):
                continue
            if k in gold.unannotated or k in pred.unannotated:
                left_out += 1
                continue
            right = int(g.heads[k - 1]) == int(p.heads[k - 1]) and (not labelled or g.deprels[k - 1] == p.deprels[k - 1])
            groups = []
            for tree in (g, p):
                head = int(tree.heads[k - 1])
                if by == "arc_length":
                    groups.append(ref_arc_length(head, k))
                elif by == "direction":
                    groups.append(ref_direction(head, k))
                elif by == "depth":
                    groups.append(ref_depth(tree, k))
                elif by == "sentence_length":
                    groups.append(ref_sentence_length(n))
                elif by == "upos":
                    own = tree.upos[k - 1]
                    groups.append(own if own != "_" else g.upos[k - 1])
                else:
                    groups.append(tree.deprels[k - 1])
            counts[groups[0]][0] += 1
            counts[groups[0]][2] += right
            counts[groups[1]][1] += 1
            counts[groups[1]][3] += right
    return dict(counts), left_out


def as_counts(breakdown: Breakdown):
    return {r.group: [r.gold, r.system, r.correct_gold, r.correct_system] for r in breakdown.rows}


@st.composite
def sentence_pairs(draw):
    """A (gold, prediction) pair of the same tokens: random heads (cycles and self-heads in
    the prediction, sometimes in the gold), relations, UPOS (``_`` in some predictions),
    punctuation forms, some tokens not annotated on either side."""
    n = draw(st.one_of(st.integers(1, 8), st.integers(9, 45)))
    forms = [draw(st.sampled_from(["a", "b", ",", "."])) for _ in range(n)]

    def heads(cycles):
        if cycles:
            return [draw(st.integers(0, n)) for _ in range(n)]
        order = draw(st.permutations(range(1, n + 1)))
        out, attached = [0] * n, [0]
        for token in order:
            out[token - 1] = draw(st.sampled_from(attached[-4:] + attached[:1]))
            attached.append(token)
        return out

    trees = []
    for side in range(2):
        h = heads(cycles=draw(st.booleans()) if side else draw(st.integers(0, 5)) == 0)
        rels = [draw(st.sampled_from(RELATIONS)) for _ in range(n)]
        partial = draw(st.integers(0, 3)) == 0
        if partial:
            for k in draw(st.sets(st.integers(0, n - 1), max_size=3)):
                h[k] = None
        no_upos = side == 1 and draw(st.booleans())
        upos = ["_"] * n if no_upos else [draw(st.sampled_from(UPOS)) for _ in range(n)]
        trees.append(DependencyTree.create(h, rels, forms, upos, partial=partial))
    return tuple(trees)


OPTIONS = st.sampled_from([EvaluationSettings(), CONLL18_OPTIONS,
                           EvaluationSettings(exclude_punct=True, punct_rules=frozenset({"form"})),
                           EvaluationSettings(exclude_punct=True, ignore_subtypes=True,
                                             label_map={"nsubj": "obj", "ROOT": "root"})])


@settings(max_examples=150, deadline=None)
@given(st.lists(sentence_pairs(), min_size=0, max_size=5), OPTIONS, st.booleans())
def test_the_vectorised_counts_are_the_references(pairs, options, labelled):
    result = breakdowns_from_trees(pairs, ALL, options, labelled)
    assert list(result) == list(ATTRIBUTES)
    for by in ATTRIBUTES:
        expected, left_out = reference(pairs, by, options, labelled)
        breakdown = result[by]
        assert (breakdown.by, breakdown.labelled, breakdown.unannotated) == (by, labelled, left_out)
        assert as_counts(breakdown) == expected, by
        gold_total = sum(r.gold for r in breakdown.rows)
        assert gold_total == sum(r.system for r in breakdown.rows)  # the same tokens on both sides
        assert sum(r.correct_gold for r in breakdown.rows) == sum(r.correct_system for r in breakdown.rows)
        for row in breakdown.rows:
            assert row.gold or row.system
            assert math.isnan(row.recall) if not row.gold else row.recall == row.correct_gold / row.gold
            assert math.isnan(row.precision) if not row.system else row.precision == row.correct_system / row.system


@settings(max_examples=60, deadline=None)
@given(st.lists(sentence_pairs(), min_size=1, max_size=4), st.booleans())
def test_the_totals_are_evaluates_uas_and_las(pairs, labelled):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = evaluate([g for g, _ in pairs], [p for _, p in pairs], metrics=("uas", "las"))
    for breakdown in breakdowns_from_trees(pairs, labelled=labelled).values():
        correct = sum(r.correct_gold for r in breakdown.rows)
        assert correct == result.counts.values["las" if labelled else "uas"][0]
        assert sum(r.gold for r in breakdown.rows) == result.tokens
        assert breakdown.unannotated == result.tokens_unannotated


def test_rows_are_in_their_natural_order():
    trees = sa.parse_conll(
        "1\ta\t_\tNOUN\t_\t_\t2\tnsubj\t_\t_\n2\tb\t_\tVERB\t_\t_\t0\troot\t_\t_\n3\tc\t_\tNOUN\t_\t_\t2\tobj\t_\t_\n"
        "4\td\t_\tNOUN\t_\t_\t2\tobj\t_\t_\n5\te\t_\tPUNCT\t_\t_\t2\tpunct\t_\t_\n\n")
    result = breakdowns_from_trees([(trees[0], trees[0])])
    assert result["arc_length"].groups == ["1", "2", "3", "root"]
    assert result["direction"].groups == ["left", "right", "root"]
    assert result["upos"].groups == ["NOUN", "PUNCT", "VERB"]  # by gold count, then by name
    assert result["deprel"].groups == ["obj", "nsubj", "punct", "root"]
    assert result["deprel"].row("obj").f1 == 1.0 and result["deprel"].row("none").gold == 0


# ------------------------------------------------------------------------------ by hand


def hand_pair():
    """A B C D: gold 2 0 2 3 (det root obj punct); predicted 2 0 4 2 (det root obj obj)."""
    gold = DependencyTree.create([2, 0, 2, 3], ["det", "root", "obj", "punct"], list("ABCD"),
                                 ["DET", "NOUN", "VERB", "PUNCT"])
    pred = DependencyTree.create([2, 0, 4, 2], ["det", "root", "obj", "obj"], list("ABCD"), ["DET", "NOUN", "_", "X"])
    return gold, pred


def test_a_hand_computed_sentence():
    result = breakdowns_from_trees([hand_pair()], labelled=False)
    # directions: gold 1 right, 2 root, 3 left, 4 left; predicted 1 right, 2 root, 3 right, 4 left; 1 and 2 right
    assert as_counts(result["direction"]) == {"left": [2, 1, 0, 0], "right": [1, 2, 1, 1], "root": [1, 1, 1, 1]}
    right = result["direction"].row("right")
    assert (right.recall, right.precision) == (1.0, 0.5) and right.f1 == pytest.approx(2 / 3)
    assert result["direction"].row("left").f1 == 0.0
    # lengths: gold 1, root, 1, 1; predicted 1, root, 1, 2
    assert as_counts(result["arc_length"]) == {"1": [3, 2, 1, 1], "2": [0, 1, 0, 0], "root": [1, 1, 1, 1]}
    assert math.isnan(result["arc_length"].row("2").recall) and math.isnan(result["arc_length"].row("2").f1)
    # depths: gold 2 1 2 3; predicted 2 1 3 2 (3 → 4 → 2)
    assert as_counts(result["depth"]) == {"1": [1, 1, 1, 1], "2": [2, 2, 1, 1], "3": [1, 1, 0, 0]}
    assert as_counts(result["sentence_length"]) == {"1-10": [4, 4, 2, 2]}
    # UPOS: the predicted _ of C is C's gold VERB; D's own X
    assert as_counts(result["upos"]) == {"DET": [1, 1, 1, 1], "NOUN": [1, 1, 1, 1], "VERB": [1, 1, 0, 0],
                                         "PUNCT": [1, 0, 0, 0], "X": [0, 1, 0, 0]}
    labelled = breakdowns_from_trees([hand_pair()], by=("deprel",))
    assert list(labelled) == ["deprel"]
    assert as_counts(labelled["deprel"]) == {"obj": [1, 2, 0, 0], "det": [1, 1, 1, 1], "root": [1, 1, 1, 1],
                                             "punct": [1, 0, 0, 0]}


def test_long_sentences_fill_the_open_bins():
    n = 45  # a chain: token k hangs under k + 1, the last one under the root; token 1 under 45
    heads = [k + 1 for k in range(1, n)] + [0]
    heads[0] = 45
    tree = DependencyTree.create(heads, ["dep"] * n)
    result = breakdowns_from_trees([(tree, tree)])
    assert as_counts(result["sentence_length"]) == {"41+": [45, 45, 45, 45]}
    assert result["arc_length"].row("30+").gold == 1 and result["arc_length"].row("1").gold == 43
    assert result["depth"].groups == [str(d) for d in range(1, 10)] + ["10+"]
    assert result["depth"].row("10+").gold == 35  # tokens 2..36: depth 46 - k


def test_partial_trees_leave_tokens_out_and_count_them():
    gold = DependencyTree.create([2, None, 2, 3], ["det", None, "obj", "punct"], list("ABCD"), partial=True)
    pred = DependencyTree.create([2, 0, 2, None], ["det", "root", "obj", None], list("ABCD"), partial=True)
    result = breakdowns_from_trees([(gold, pred)], labelled=False)
    for breakdown in result.values():
        assert breakdown.unannotated == 2
        assert sum(r.gold for r in breakdown.rows) == 2  # A and C
    # in the gold, A and C hang under B, which is not annotated: no path to the root
    assert as_counts(result["depth"]) == {"2": [0, 2, 0, 2], "unreachable": [2, 0, 2, 0]}
    assert "2 token(s) not annotated" in format_breakdowns({"p": result})


def test_sentences_whose_tokens_differ_are_an_error_or_skipped():
    gold, pred = hand_pair()
    short = DependencyTree.create([0, 1], ["root", "dep"], list("AB"))
    with pytest.raises(MismatchedCorpusError):
        breakdowns_from_trees([(gold, short)])
    result = breakdowns_from_trees([(gold, pred), (gold, short)], options=EvaluationSettings(skip_mismatched=True))
    assert result["direction"].skipped == 1 and sum(r.gold for r in result["direction"].rows) == 4
    assert all(not b.rows for b in breakdowns_from_trees([]).values())


def test_unknown_attributes_are_refused():
    with pytest.raises(BadOptionError, match="arc_lenght"):
        breakdowns_from_trees([hand_pair()], by=("arc_lenght",))
    assert list(breakdowns_from_trees([hand_pair()], by="depth")) == ["depth"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-1, 11), min_size=1, max_size=12))
def test_depths_by_pointer_jumping_are_the_walks(parents):
    parent = np.asarray([p if p < len(parents) else -1 for p in parents])
    expected = reference_depths(parent.tolist())  # 0 in or under a cycle
    assert depths(parent, len(parents)).tolist() == expected


# ------------------------------------------------------------------------------ conll18


@pytest.mark.parametrize("case", [c for c in CASES if not c.startswith("retok")])
def test_on_identical_tokens_conll18_is_the_default_convention(case):
    gold, system = DATA / f"{case}.gold.conllu", DATA / f"{case}.sys.conllu"
    for labelled in (False, True):
        layers = breakdowns_from_layers(read_conllu_columns(gold), read_conllu_columns(system), labelled=labelled)
        trees = breakdowns_from_trees(zip(sa.read_conll(gold), sa.read_conll(system)), options=CONLL18_OPTIONS,
                                      labelled=labelled)
        assert layers == trees, case


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 40))
def test_on_random_identical_tokens_conll18_is_the_default_convention(rng, length):
    text = "".join(rng.choice("abc") for _ in range(length))
    gold_text = random_conllu(rng, text, multiword=0.2, range_words=(2, 3))
    system_text = _perturbed(rng, gold_text)
    layers = breakdowns_from_layers(parse_conllu_columns(gold_text), parse_conllu_columns(system_text))
    trees = breakdowns_from_trees(zip(sa.parse_conll(gold_text), sa.parse_conll(system_text)), options=CONLL18_OPTIONS)
    assert layers == trees


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 40), st.booleans())
def test_on_other_tokens_the_totals_are_the_scripts(rng, length, labelled):
    """Retokenised files: every gold word in the gold totals and every system word in the
    system totals; the correct words are the script's UAS or LAS."""
    text = "".join(rng.choice("abc") for _ in range(length))
    gold = parse_conllu_columns(random_conllu(rng, text))
    system = parse_conllu_columns(random_conllu(rng, text))
    scores = evaluate_aligned_layers(gold, system)
    metric = scores.las if labelled else scores.uas
    for breakdown in breakdowns_from_layers(gold, system, labelled=labelled).values():
        assert sum(r.gold for r in breakdown.rows) == gold.n_words
        assert sum(r.system for r in breakdown.rows) == system.n_words
        assert sum(r.correct_gold for r in breakdown.rows) == metric.correct
        assert sum(r.correct_system for r in breakdown.rows) == metric.correct


def test_a_retokenised_fixture_counts_unaligned_words():
    case = next(c for c in CASES if c.startswith("retok"))
    gold = read_conllu_columns(DATA / f"{case}.gold.conllu")
    system = read_conllu_columns(DATA / f"{case}.sys.conllu")
    result = breakdowns_from_layers(gold, system, by=("sentence_length", "upos"))
    assert sum(r.gold for r in result["upos"].rows) == gold.n_words
    assert sum(r.system for r in result["sentence_length"].rows) == system.n_words


# ------------------------------------------------------------------------------ output


def test_tables_put_systems_side_by_side_in_percent():
    gold, pred = hand_pair()
    systems = {"parser-a": breakdowns_from_trees([(gold, pred)], labelled=False),
               "parser-b": breakdowns_from_trees([(gold, gold)], labelled=False)}
    text = format_breakdowns(systems)
    blocks = text.split("\n\n")
    assert len(blocks) == len(ATTRIBUTES)
    direction = next(b for b in blocks if b.startswith("By arc direction"))
    assert "head right (UAS-style)" in direction and "parser-a" in direction and "parser-b" in direction
    rows = {line.split()[0]: line.split() for line in direction.splitlines()[4:]}
    assert list(rows) == ["left", "right", "root"]
    # right: gold 1; parser-a 2 words, recall 100, precision 50, F1 66.67; parser-b 1 word, all 100
    assert rows["right"] == ["right", "1", "|", "2", "100.00", "50.00", "66.67", "|", "1", "100.00", "100.00", "100.00"]
    length = next(b for b in blocks if b.startswith("By arc length"))
    assert "n/a" in length  # group 2: no gold word in it, recall undefined
    assert [line.split()[0] for line in length.splitlines()[4:]] == ["1", "2", "root"]


def test_json_has_fractions_under_lower_case_keys():
    gold, pred = hand_pair()
    data = breakdowns_to_json({"parser-a": breakdowns_from_trees([(gold, pred)], labelled=False)})
    direction = data["parser-a"]["direction"]
    assert direction["by"] == "direction" and direction["labelled"] is False and direction["unannotated"] == 0
    assert direction["rows"][1] == {"group": "right", "gold": 1, "system": 2, "correct_gold": 1, "correct_system": 1,
                                    "recall": 1.0, "precision": 0.5, "f1": pytest.approx(2 / 3)}
    loaded = json.loads(dumps(data))  # nan (no gold word of length 2) is null in the CLI's JSON
    row = next(r for r in loaded["parser-a"]["arc_length"]["rows"] if r["group"] == "2")
    assert row["recall"] is None and row["precision"] == 0.0
    assert all(k == k.lower() for k in row)


def test_rows_and_breakdowns_are_frozen_and_compare_by_value():
    row = BreakdownRow("1", 2, 2, 1, 1)
    with pytest.raises(Exception):
        row.gold = 3  # type: ignore[misc]
    assert Breakdown("depth", True, (row,)) == Breakdown("depth", True, (BreakdownRow("1", 2, 2, 1, 1),))
    assert row.to_dict()["f1"] == 0.5
