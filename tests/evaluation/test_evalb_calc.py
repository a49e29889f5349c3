"""The compiled ``calc``'s quick matching and crossing (test brackets listed by start, word
positions as 64-bit masks, for sentences under 64 words) against the Python port: random pairs of
bracketings of the same words, short and long (both sides of 64 words), with unary chains, repeated
spans, deleted labels and words (empty brackets), EQ_LABEL pairs and crossing brackets."""
from __future__ import annotations

import random

import pytest

from spacy_agreement.evaluation.constituency.evalb import EvalbSettings, evaluate, format_report

COLLINS = EvalbSettings.parse("MAX_ERROR 10000\nCUTOFF_LEN 40\nLABELED 1\nDELETE_LABEL TOP\nDELETE_LABEL -NONE-\n"
                              "DELETE_LABEL ,\nDELETE_LABEL .\nDELETE_LABEL_FOR_LENGTH -NONE-\nEQ_LABEL ADVP PRT\n")
LABELS = ["S", "NP", "VP", "PP", "ADVP", "PRT", "NP-SBJ", "S=1", "TOP", ",", "X"]
TAGS = ["DT", "NN", "VB", ",", ".", "-NONE-", "IN"]


def bracketing(rng, words):
    """A random tree over ``words``: random cuts, unary chains, the odd empty bracket."""
    if len(words) == 1:
        inner = f"({TAGS[int(words[0][1:]) % len(TAGS)]} {words[0]})"  # one tag a word: the same words kept
        if rng.random() < 0.1:
            inner = f"({rng.choice(LABELS)} (-NONE- *)) " + inner  # a bracket over a deleted word only
    else:
        cuts = sorted(rng.sample(range(1, len(words)), rng.randint(1, min(len(words) - 1, 4))))
        parts = [words[a:b] for a, b in zip([0] + cuts, cuts + [len(words)])]
        inner = " ".join(bracketing(rng, p) for p in parts)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):  # unary chains: the same span more than once
        inner = f"({rng.choice(LABELS)} {inner})"
    return inner


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("labeled", [1, 0])
def test_random_bracketings_compiled_and_python_agree(seed, labeled):
    rng = random.Random(seed)
    params = COLLINS if labeled else COLLINS.with_options(labeled=0)
    gold, test = [], []
    for _ in range(150):
        words = [f"w{rng.randrange(9)}" for _ in range(rng.choice([rng.randint(1, 12), rng.randint(55, 75)]))]
        gold.append(bracketing(rng, words))
        test.append(bracketing(rng, words) if rng.random() < 0.8 else gold[-1])
    compiled, reference = evaluate(gold, test, params), evaluate(gold, test, params, compiled=False)
    assert format_report(compiled) == format_report(reference)
    assert reference.all.error_sentences == 0 and reference.all.crossing > 0
    assert 0 < reference.all.matched < reference.all.gold_brackets
