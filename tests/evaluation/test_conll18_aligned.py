"""Words aligned through the characters as ``conll18_ud_eval.py`` aligns them, and its thirteen
scores (:mod:`spacy_agreement.evaluation.conll18.alignment`, read by
:mod:`spacy_agreement.adapters.conllu.column_reader`).

* Every fixture pair of tests/data/conll18/ (the same tokens: ``case*``, ``random``; other
  tokens, multiword tokens and sentences: ``retok*``): ``format_conll18_table`` prints the
  script's verbatim ``-v`` and ``-c`` output, and the counts are its counts.
* Properties on random files: a file aligned with itself scores 1 everywhere; on the same
  tokens UAS, LAS, CLAS, MLAS and BLEX are those of ``evaluate`` with the script's conventions;
  the alignment is that of a literal word-by-word walk (the reference below) on random
  retokenisations with multiword tokens on both sides.
* The reader refuses what the script refuses, naming file, line, sentence and token.
"""
import math
import random
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spacy_agreement as sa
from spacy_agreement.adapters.conllu.column_reader import parse_conllu_columns, read_conllu_columns, remove_spaces
from spacy_agreement.errors import InvalidTreeError, MismatchedCorpusError, UndefinedMetricWarning
from spacy_agreement.evaluation.conll18.alignment import (METRICS, AlignedScores, align_words, evaluate_aligned,
                                                evaluate_aligned_layers, format_conll18_table)
from spacy_agreement.evaluation.dependency.metrics import EvaluationSettings, evaluate

DATA = Path(__file__).resolve().parents[1] / "data" / "conll18"
CASES = sorted(p.name[: -len(".gold.conllu")] for p in DATA.glob("*.gold.conllu"))
RETOK = [c for c in CASES if c.startswith("retok")]
CONLL18_OPTIONS = EvaluationSettings(ignore_subtypes=True, fold_root_case=False)


def scores_of(case) -> AlignedScores:
    return evaluate_aligned(DATA / f"{case}.gold.conllu", DATA / f"{case}.sys.conllu")


def counts_table(case):
    """{metric (lower-case): [correct, gold, system, aligned or ""]} of the script's -c output."""
    lines = (DATA / f"{case}.conll18.counts.txt").read_text(encoding="utf-8").splitlines()
    rows = {}
    for line in lines[2:]:
        name, *cells = [cell.strip() for cell in line.split("|")]
        rows[name.lower()] = cells
    return rows


# ------------------------------------------------------------------------------ the fixtures


def test_the_fixtures_are_there():
    assert {"case1", "case4", "random"} <= set(CASES)
    assert len(RETOK) >= 6, RETOK
    for case in CASES:
        for suffix in ("sys.conllu", "conll18.txt", "conll18.counts.txt"):
            assert (DATA / f"{case}.{suffix}").is_file(), f"{case}.{suffix} missing"


@pytest.mark.parametrize("case", CASES)
def test_the_table_is_the_scripts(case):
    scores = scores_of(case)
    assert format_conll18_table(scores) + "\n" == (DATA / f"{case}.conll18.txt").read_text(encoding="utf-8")
    assert format_conll18_table(scores, counts=True) + "\n" == \
        (DATA / f"{case}.conll18.counts.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES)
def test_the_counts_are_the_scripts(case):
    scores, rows = scores_of(case), counts_table(case)
    for name in METRICS:
        metric = getattr(scores, name)
        correct, gold, system, aligned = rows[name]
        assert (metric.correct, metric.gold, metric.system) == (int(correct), int(gold), int(system)), (case, name)
        if name in ("tokens", "sentences"):
            assert metric.aligned is None and aligned == ""
        elif name == "words":
            assert metric.aligned is None and int(aligned) == metric.correct
        else:  # the script prints an aligned count of 0 as nothing
            assert metric.aligned == (int(aligned) if aligned else 0), (case, name)


def test_the_retok_fixtures_differ_in_tokens_words_and_sentences():
    """What they are for: every kind of difference occurs in some pair."""
    rows = {case: counts_table(case) for case in RETOK}
    differs = {row: [c for c in RETOK if len(set(rows[c][row][:3])) > 1] for row in ("tokens", "words", "sentences")}
    assert all(differs.values()), differs
    multiword = [c for c in RETOK if scores_of(c).multiword_spans]
    assert len(multiword) >= 3, multiword


def test_the_random_retok_fixture_is_what_its_generator_writes(tmp_path):
    subprocess.run([sys.executable, str(DATA / "generate_retok_case.py"), "--prefix", str(tmp_path / "retok_random")],
                   check=True, cwd=tmp_path)
    for side in ("gold", "sys"):
        assert (tmp_path / f"retok_random.{side}.conllu").read_bytes() == \
            (DATA / f"retok_random.{side}.conllu").read_bytes()


def test_the_short_output_is_the_scripts_three_lines():
    scores = scores_of("case1")
    f1 = {line.split("|")[0].strip(): line.split("|")[3].strip()
          for line in (DATA / "case1.conll18.txt").read_text(encoding="utf-8").splitlines()[2:]}
    assert format_conll18_table(scores, verbose=False).splitlines() == [
        f"LAS F1 Score: {f1['LAS']}", f"MLAS Score: {f1['MLAS']}", f"BLEX Score: {f1['BLEX']}"]


# ------------------------------------------------------------------------------ the result


def test_to_dict_has_flat_fractions_and_counts():
    scores = scores_of("retok1")
    out = scores.to_dict()
    for name in METRICS:
        for key in ("precision", "recall", "f1", "aligned_accuracy", "correct", "gold", "system", "aligned"):
            assert f"{name}_{key}" in out
    las = scores.las
    assert out["las_f1"] == 2 * las.correct / (las.gold + las.system) == las.f1
    assert out["las_precision"] == las.correct / las.system and out["las_recall"] == las.correct / las.gold
    assert out["upos_aligned_accuracy"] == scores.upos.correct / scores.upos.aligned
    assert out["words_aligned_accuracy"] is None and out["tokens_aligned"] is None
    assert out["signature"].startswith("conll18|v:")
    assert scores.metric("LAS") is scores.las


def test_undefined_values_are_nan_with_a_warning_where_the_script_prints_zero():
    """retok5: no word aligned, no content relation on either side. The script prints 0.00 (the
    table here too); the attributes and to_dict give nan, and to_dict one warning naming every undefined value."""
    scores = scores_of("retok5")
    table = format_conll18_table(scores).splitlines()
    assert table[-1] == "BLEX       |      0.00 |      0.00 |      0.00 |      0.00"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = scores.to_dict()
    found = [w.message for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    assert len(found) == 1  # one call, one warning
    undefined = set(found[0].metrics)
    for name in ("clas", "mlas", "blex"):
        for key in ("precision", "recall", "f1", "aligned_accuracy"):
            assert math.isnan(out[f"{name}_{key}"]) and f"{name}_{key}" in undefined
    for name in ("upos", "las"):  # nothing aligned: the accuracy only
        assert math.isnan(out[f"{name}_aligned_accuracy"]) and out[f"{name}_f1"] == 0.0
    assert out["words_f1"] == 0.0 and out["sentences_f1"] == 1.0
    assert len(found[0].metrics) == len(undefined)  # each value named once
    assert not any(m.startswith(("words", "tokens", "sentences")) for m in undefined)


# ------------------------------------------------------------------------------ random files


def random_conllu(rng: random.Random, text: str, multiword=0.3, forms=("a", "b", "ab", "A", "ba"),
                  range_words=(1, 3)) -> str:
    """A CoNLL-U file of ``text`` (no spaces): random tokens, sentences, multiword tokens (of
    ``range_words`` words) with random word forms, random trees and columns."""
    cuts = sorted(rng.sample(range(1, len(text)), rng.randint(0, len(text) - 1))) if len(text) > 1 else []
    bounds = [0, *cuts, len(text)]
    tokens = [text[a:b] for a, b in zip(bounds, bounds[1:])]
    sentences, current = [], []
    for token in tokens:
        current.append(token)
        if rng.random() < 0.25:
            sentences.append(current)
            current = []
    if current:
        sentences.append(current)
    blocks = []
    for sentence in sentences:
        rows, k = [], 1
        for token in sentence:
            if rng.random() < multiword:
                m = rng.randint(*range_words)
                rows.append(f"{k}-{k + m - 1}\t{token}" + "\t_" * 8)
                for _ in range(m):
                    rows.append((k, rng.choice(list(forms) + [token])))
                    k += 1
            else:
                rows.append((k, token))
                k += 1
        n = k - 1
        order = list(range(1, n + 1))
        rng.shuffle(order)
        heads = {order[0]: 0}
        for i, w in enumerate(order[1:], start=1):
            heads[w] = rng.choice(order[:i])
        lines = []
        for row in rows:
            if isinstance(row, str):
                lines.append(row)
                continue
            w, form = row
            rel = "root" if heads[w] == 0 else rng.choice(["nsubj", "obj:x", "det", "case", "punct", "amod"])
            lines.append("\t".join([str(w), form, rng.choice(["x", "_", "y"]), rng.choice("AB"), rng.choice("_P"),
                                    rng.choice(["_", "Number=Sing", "Case=Nom|Number=Sing", "Foo=1"]), str(heads[w]),
                                    rel, "_", "_"]))
        blocks.append("\n".join(lines) + "\n\n")
    return "".join(blocks)


def reference_alignment(gold, system):
    """The alignment by a literal walk over the words (the module docstring's definition, one
    word at a time): (gold index, system index) pairs."""
    def words(layers):
        token = layers.word_token
        return [(int(layers.token_start[t]), int(layers.token_end[t]), bool(layers.token_multiword[t]),
                 layers.forms[k].lower()) for k, t in enumerate(token)]

    G, S = words(gold), words(system)
    pairs, gi, si = [], 0, 0
    while gi < len(G) and si < len(S):
        if not G[gi][2] and not S[si][2]:
            if G[gi][:2] == S[si][:2]:
                pairs.append((gi, si))
                gi, si = gi + 1, si + 1
            elif G[gi][0] <= S[si][0]:
                gi += 1
            else:
                si += 1
            continue
        # a multiword span: from the multiword word, over everything inside it
        if G[gi][2]:
            end = G[gi][1]
            if not S[si][2] and S[si][0] < G[gi][0]:
                si += 1
        else:
            end = S[si][1]
            if not G[gi][2] and G[gi][0] < S[si][0]:
                gi += 1
        g0, s0 = gi, si

        def within(ws, i):
            return i < len(ws) and (ws[i][0] < end if ws[i][2] else ws[i][1] <= end)

        while within(G, gi) or within(S, si):
            take_gold = gi < len(G) and (si >= len(S) or G[gi][0] <= S[si][0])
            ws, i = (G, gi) if take_gold else (S, si)
            if ws[i][2]:
                end = max(end, ws[i][1])
            gi, si = (gi + 1, si) if take_gold else (gi, si + 1)
        gf, sf = [w[3] for w in G[g0:gi]], [w[3] for w in S[s0:si]]

        def lcs(a, b):  # length of a longest common subsequence of gf[a:] and sf[b:]
            table = {}
            for x in range(len(gf), -1, -1):
                for y in range(len(sf), -1, -1):
                    if x == len(gf) or y == len(sf):
                        table[x, y] = 0
                    elif gf[x] == sf[y]:
                        table[x, y] = table[x + 1, y + 1] + 1
                    else:
                        table[x, y] = max(table[x + 1, y], table[x, y + 1])
            return table

        table, x, y = lcs(0, 0), 0, 0
        while x < len(gf) and y < len(sf):
            if gf[x] == sf[y]:
                pairs.append((g0 + x, s0 + y))
                x, y = x + 1, y + 1
            elif table[x, y] == table[x + 1, y]:
                x += 1
            else:
                y += 1
    return pairs


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 30))
def test_the_alignment_is_the_literal_walks(rng, length):
    text = "".join(rng.choice("ab") for _ in range(length))
    gold = parse_conllu_columns(random_conllu(rng, text), "gold")
    system = parse_conllu_columns(random_conllu(rng, text), "system")
    alignment = align_words(gold, system)
    got = list(zip(alignment.gold_words.tolist(), alignment.system_words.tolist()))
    assert got == reference_alignment(gold, system)
    assert np.all(np.diff(alignment.gold_words) > 0) and np.all(np.diff(alignment.system_words) > 0)
    for g, s in got:
        assert alignment.gold_of_system[s] == g and alignment.system_of_gold[g] == s


def test_the_alignment_of_the_random_retok_fixture_is_the_literal_walks():
    gold = read_conllu_columns(DATA / "retok_random.gold.conllu")
    system = read_conllu_columns(DATA / "retok_random.sys.conllu")
    alignment = align_words(gold, system)
    assert list(zip(alignment.gold_words.tolist(), alignment.system_words.tolist())) == \
        reference_alignment(gold, system)


def _all_one(scores):
    for metric in scores.metrics():
        if metric.gold == 0:  # nothing to count (no content word): undefined, not 1
            continue
        assert metric.correct == metric.gold == metric.system, metric
        assert metric.precision == metric.recall == metric.f1 == 1.0
        if metric.aligned is not None:
            assert metric.aligned_accuracy == 1.0


@pytest.mark.parametrize("path", sorted(DATA.glob("*.conllu")), ids=lambda p: p.name)
def test_a_fixture_aligned_with_itself_scores_one(path):
    _all_one(evaluate_aligned(path, path))


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 40))
def test_a_random_file_aligned_with_itself_scores_one(rng, length):
    text = "".join(rng.choice("abc") for _ in range(length))
    layers = parse_conllu_columns(random_conllu(rng, text))
    _all_one(evaluate_aligned_layers(layers, layers))


def _perturbed(rng: random.Random, text: str) -> str:
    """The same tokens with other heads (still a tree), relations, UPOS, features and lemmas."""
    blocks = []
    for block in text.strip("\n").split("\n\n"):
        rows = [line.split("\t") for line in block.split("\n")]
        words = [r for r in rows if "-" not in r[0]]
        n = len(words)
        if rng.random() < 0.5 and n > 1:  # a new random tree
            order = list(range(1, n + 1))
            rng.shuffle(order)
            heads = {order[0]: 0}
            for i, w in enumerate(order[1:], start=1):
                heads[w] = rng.choice(order[:i])
            for r in words:
                r[6] = str(heads[int(r[0])])
                r[7] = rng.choice(["root", "ROOT"]) if heads[int(r[0])] == 0 else rng.choice(["nsubj", "det", "obj"])
        for r in words:
            if rng.random() < 0.2:
                r[7] = r[7] + ":sub" if r[7] not in ("root", "ROOT") else r[7]
            if rng.random() < 0.2:
                r[3] = rng.choice("ABC")
            if rng.random() < 0.2:
                r[5] = rng.choice(["_", "Number=Sing", "Number=Sing|Case=Nom", "Foo=2"])
            if rng.random() < 0.2:
                r[2] = rng.choice(["_", "x", "z"])
        blocks.append("\n".join("\t".join(r) for r in rows))
    return "\n\n".join(blocks) + "\n\n"


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 40))
def test_on_the_same_tokens_the_attachment_scores_are_evaluates(rng, length):
    """The fast path of identical tokens: aligned UAS, LAS, CLAS, MLAS and BLEX are
    ``evaluate``'s with the script's conventions (subtypes dropped, root as written)."""
    text = "".join(rng.choice("abc") for _ in range(length))
    gold_text = random_conllu(rng, text, multiword=0.2, range_words=(2, 3))  # read_conll: no range of one word
    system_text = _perturbed(rng, gold_text)
    scores = evaluate_aligned_layers(parse_conllu_columns(gold_text), parse_conllu_columns(system_text))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = evaluate(sa.parse_conll(gold_text), sa.parse_conll(system_text), CONLL18_OPTIONS,
                          metrics=("uas", "las", "clas", "mlas", "blex"))
    assert scores.words.correct == scores.words.gold == scores.words.system
    assert scores.uas.f1 == result.scores["uas"]
    assert scores.las.f1 == result.scores["las"]
    for name in ("clas", "mlas", "blex"):
        metric = getattr(scores, name)
        assert (metric.correct, metric.gold, metric.system) == (result.ud.correct(name), result.ud.gold,
                                                                result.ud.system)


@pytest.mark.parametrize("case", [c for c in CASES if not c.startswith("retok")])
def test_on_the_same_token_fixtures_the_attachment_scores_are_evaluates(case):
    scores = scores_of(case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = evaluate(sa.read_conll(DATA / f"{case}.gold.conllu"), sa.read_conll(DATA / f"{case}.sys.conllu"),
                          CONLL18_OPTIONS)
    for name in ("uas", "las", "clas", "mlas", "blex"):
        assert getattr(scores, name).f1 == result.scores[name], (case, name)


# ------------------------------------------------------------------------------ the reader


def W(i, form, head, rel="dep"):
    return f"{i}\t{form}\t_\tX\t_\t_\t{head}\t{rel}\t_\t_"


RANGE = "1-2\tab" + "\t_" * 8

REFUSED = {
    "columns": ("1\ta\t_\n\n", 1, "1", "3 tab-separated columns"),
    "range words missing": (f"{RANGE}\n{W(1, 'a', 0)}\n\n", 3, "1-2", "word 2 is missing"),
    "file ends in a range": (f"{RANGE}\n{W(1, 'a', 0)}\n", 3, "1-2", "word 2 is missing"),
    "head out of range": (f"{W(1, 'a', 0)}\n{W(2, 'b', 3)}\n\n", 2, "2", "outside the sentence"),
    "negative head": (f"{W(1, 'a', 0)}\n{W(2, 'b', -1)}\n\n", 2, "2", "negative"),
    "negative head in a range": (f"{RANGE}\n{W(1, 'a', 0)}\n{W(2, 'b', -1)}\n\n", 3, "2", "outside the sentence"),
    "head not a number": (f"{W(1, 'a', 0)}\n{W(2, 'b', '_')}\n\n", 2, "2", "cannot parse HEAD"),
    "cycle": (f"{W(1, 'a', 0)}\n{W(2, 'b', 3)}\n{W(3, 'c', 2)}\n\n", 2, "2", "head cycle 2 -> 3 -> 2"),
    "own head": (f"{W(1, 'a', 0)}\n{W(2, 'b', 2)}\n\n", 2, "2", "head cycle 2 -> 2"),
    "two roots": (f"{W(1, 'a', 0)}\n{W(2, 'b', 0)}\n\n", 2, "2", "2 words attached to the root"),
    "word id skipped": (f"{W(1, 'a', 0)}\n{W(3, 'b', 1)}\n\n", 2, "3", "word id 3 where 2 is expected"),
    "empty form": (f"{W(1, 'a', 0)}\n{W(2, ' ', 1)}\n\n", 2, "2", "empty FORM"),
    "no final blank line": (f"{W(1, 'a', 0)}\n", 1, None, "does not end with a blank line"),
    "two blank lines": (f"{W(1, 'a', 0)}\n\n\n", 3, None, "empty sentence"),
    "comment inside a sentence": (f"{W(1, 'a', 0)}\n# c\n{W(2, 'b', 1)}\n\n", 2, None, "comment line inside"),
    "bad range id": ("1-x\tab" + "\t_" * 8 + f"\n{W(1, 'a', 0)}\n\n", 1, "1-x",
                     "cannot parse the multiword token id"),
    # stricter than the script, which reads the lines after a range whatever their ids
    "range word ids": (f"{RANGE}\n{W(1, 'a', 0)}\n{W(5, 'b', 1)}\n\n", 3, "5", "word 2 is missing"),
    "empty node inside a range": (f"{RANGE}\n{W(1, 'a', 0)}\n1.1\tx" + "\t_" * 8 + f"\n{W(2, 'b', 1)}\n\n", 3,
                                  "1.1", "word 2 is missing"),
    "range backwards": ("2-1\tab" + "\t_" * 8 + f"\n{W(1, 'a', 0)}\n\n", 1, "2-1", "must cover words 1..b"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_reader_refuses_what_the_script_refuses(name):
    text, line, token, message = REFUSED[name]
    with pytest.raises(InvalidTreeError) as caught:
        parse_conllu_columns("# sent_id = s1\n" + text, "f.conllu")
    error = caught.value
    assert message in error.message, str(error)
    assert error.location.source == "f.conllu" and error.location.file_line == line + 1, str(error)
    assert error.location.sentence is not None and error.location.token == token, str(error)
    assert error.location.sent_id == "s1" or name == "two blank lines"
    assert "\n" not in str(error)


ACCEPTED = {
    "comments after the last sentence": f"{W(1, 'a', 0)}\n\n# end\n",
    "a range of one word": "1-1\tab" + "\t_" * 8 + f"\n{W(1, 'ab', 0)}\n\n",
    "spaces in forms": f"{W(1, 'New York', 0)}\n{W(2, 'a' + chr(0xA0) + 'b', 1)}\n\n",
    "an empty node": f"{W(1, 'a', 0)}\n1.1\tx" + "\t_" * 8 + "\n\n",
    "CRLF": f"{W(1, 'a', 0)}\r\n\r\n",
    "nothing": "",
    "comments only": "# x\n",
    "a root written ROOT": f"{W(1, 'a', 0, 'ROOT')}\n\n",
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_the_reader_accepts_what_the_script_accepts(name):
    layers = parse_conllu_columns(ACCEPTED[name])
    assert len(layers) == (0 if name in ("nothing", "comments only") else 1)


def test_the_layers_of_a_file_with_multiword_tokens_and_an_empty_node():
    layers = read_conllu_columns(DATA / "case4.gold.conllu")
    assert len(layers) == 3 and layers.empty_nodes == 1 and layers.multiword_tokens == 2
    first = layers.sentence(0)
    assert first.text == "Ilparledulivre."
    assert first.token_ids == ("1", "2", "3-4", "5", "6")
    assert first.token_spans[2] == (7, 9) and first.multiword == (False, False, True, False, False)
    assert first.word_tokens == (0, 1, 2, 2, 3, 4) and first.forms[2:4] == ("de", "le")
    assert first.heads == (2, 0, 5, 5, 2, 2) and first.deprels[4] == "obl:arg"
    assert first.location.sent_id == "fr-1" and first.location.line == 1
    assert layers.text.startswith("Ilparledulivre.Dámelo")
    assert layers.head_words[:6].tolist() == [1, -1, 4, 4, 1, 1]
    assert str(layers.word_location(3)) == f"{DATA / 'case4.gold.conllu'}:7: sentence 1 (sent_id fr-1), token 4"


def test_spaces_are_removed_from_the_text_only():
    assert remove_spaces("New York") == "NewYork" and remove_spaces("10\u00a0000") == "10000"
    assert remove_spaces("a\u2009b\u3000c") == "abc" and remove_spaces("plain") == "plain"
    layers = parse_conllu_columns(ACCEPTED["spaces in forms"])
    assert layers.text == "NewYorkab" and layers.forms == ["NewYork", "ab"]


def test_different_texts_are_an_error_naming_the_system_token():
    gold = parse_conllu_columns(f"{W(1, 'the', 0)}\n{W(2, 'dog', 1)}\n\n", "gold.conllu")
    system = parse_conllu_columns(f"# sent_id = x\n{W(1, 'the', 0)}\n{W(2, 'cat', 1)}\n\n", "sys.conllu")
    with pytest.raises(MismatchedCorpusError) as caught:
        evaluate_aligned_layers(gold, system)
    assert str(caught.value).startswith("sys.conllu:3: sentence 1 (sent_id x), token 2: the text")
    assert "'cat'" in str(caught.value) and "'dog'" in str(caught.value) and "gold.conllu:2" in str(caught.value)
