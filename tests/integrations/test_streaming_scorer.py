"""The scorer ``spacy_agreement.syntax_scorer.v1`` goes through the examples once, scoring each
as it comes: the same numbers as the whole-list scorer (written out below as the reference:
spaCy's own ``parser_score``/``Scorer.score_deps`` and the package's ``evaluate`` over lists of
every tree), a one-shot iterator is enough, and no list of all the trees is built."""
import gc
import json
import math
import warnings
import weakref

import numpy as np
import pytest

spacy = pytest.importorskip("spacy")
from spacy.pipeline.dep_parser import parser_score  # noqa: E402
from spacy.scorer import Scorer  # noqa: E402
from spacy.tokens import Doc  # noqa: E402
from spacy.training import Example  # noqa: E402

from spacy_agreement.adapters.spacy import doc_analysis, doc_tree, head_cycle_tokens  # noqa: E402
from spacy_agreement.agreement.alpha import alpha as alpha_of  # noqa: E402
from spacy_agreement.errors import Location  # noqa: E402
from spacy_agreement.evaluation.label_sets import LabelSetWarning  # noqa: E402
from spacy_agreement.evaluation.leaf_ancestor import leaf_ancestor  # noqa: E402
from spacy_agreement.evaluation.parser_metrics import EvaluationOptions, evaluate  # noqa: E402
from spacy_agreement.integrations import spacy_scoring  # noqa: E402
from spacy_agreement.integrations.spacy_components import (SPACY_OWN, SPACY_PUNCT, HeadCycleWarning,  # noqa: E402
                                                            MisalignedExampleWarning, UnparsedDocWarning,
                                                            aligned_tree, make_syntax_scorer, score_syntax, spacy_parser_scores,
                                                            unparsed)

LABELS = ["nsubj", "obj", "amod", "det", "punct", "nsubj:pass", "OBL", "advmod"]
TAGS = ["NOUN", "VERB", "ADJ", "DET", "PUNCT", "ADV"]


# --- the reference: the whole-list scorer ------------------------------------------------------

def reference_parser_scores(examples, options, **kwargs):
    if not (options.label_map or options.ignore_subtypes):
        return dict(parser_score(examples, **kwargs))
    predicted_docs = {id(eg.predicted) for eg in examples}

    def getter(token, attr):
        value = getattr(token, attr)
        label = (value if isinstance(value, str) else token.vocab.strings[value]).lower()
        return options.label(label, predicted=id(token.doc) in predicted_docs)

    scores = dict(Scorer.score_spans(examples, "sents", has_annotation=lambda doc: doc.has_annotation("SENT_START"),
                                     **kwargs))
    scores.pop("sents_per_type", None)
    kwargs.setdefault("getter", getter)
    kwargs.setdefault("ignore_labels", tuple(SPACY_PUNCT))
    scores.update(Scorer.score_deps(examples, "dep", **kwargs))
    return scores


def reference_score_syntax(examples, alpha="off", leaf_ancestor_=False, label_map=None, ignore_subtypes=False,
                           punct="label", **kwargs):
    examples = list(examples)
    options = EvaluationOptions(exclude_punct=True, punct_labels=frozenset(SPACY_PUNCT), punct_rules=punct,
                                label_map={k.lower(): v.lower() for k, v in label_map.items()} if label_map else None,
                                ignore_subtypes=ignore_subtypes)
    skipped = sum(unparsed(eg.predicted) for eg in examples)
    if skipped:
        warnings.warn(f"{skipped} of {len(examples)} example(s) have no dependency parse in the prediction; "
                      "skipped (dep_examples_unparsed)", UnparsedDocWarning)
    examples = [eg for eg in examples if not unparsed(eg.predicted)]
    in_cycles = [int(head_cycle_tokens(doc_analysis(eg.predicted)[0]).size) for eg in examples]
    if any(in_cycles):
        warnings.warn(f"{sum(in_cycles)} predicted token(s) of {sum(map(bool, in_cycles))} of {len(examples)} "
                      "example(s) are in head cycles (reach no root), which no parser makes from words alone: was "
                      "the parse run over docs that already had heads? scored as they are (dep_tokens_in_cycles)",
                      HeadCycleWarning)
    scores = reference_parser_scores(examples, options, **kwargs)
    golds, preds, misaligned, unaligned, outside = [], [], 0, 0, 0
    for k, eg in enumerate(examples, start=1):
        ref, pred = eg.reference, eg.predicted
        gold_tree, out_gold = doc_tree(ref, 0, len(ref), location=Location("example", k), heads_outside="root",
                                       lowercase=True)
        if [t.text for t in ref] != [t.text for t in pred]:
            misaligned += 1
            pred_tree, missing = aligned_tree(eg, gold_tree)
            unaligned += missing
            out_pred = 0
        else:
            pred_tree, out_pred = doc_tree(pred, 0, len(pred), location=Location("example", k),
                                           heads_outside="root", lowercase=True, fallback=gold_tree)
        outside += out_gold + out_pred
        golds.append(gold_tree)
        preds.append(pred_tree)
    if misaligned:
        warnings.warn(f"{misaligned} of {len(examples)} example(s) have predicted tokens that differ from the "
                      f"reference: scored over the reference tokens through spaCy's alignment, with the {unaligned} "
                      "reference token(s) aligned to no single predicted token, and heads that map to none, counted "
                      "wrong and left out of the compared trees (dep_examples_misaligned, dep_unaligned_tokens)",
                      MisalignedExampleWarning)
    if golds:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LabelSetWarning)
            result = evaluate(golds, preds, options)
        scores["dep_unseen_gold_label_share"] = result.label_check.share
        for key, value in result.scores.items():
            if key not in SPACY_OWN:
                scores[f"dep_{key}"] = value
        if leaf_ancestor_:
            scores["dep_leaf_ancestor"] = leaf_ancestor(golds, preds).leaf_ancestor_words
        scores["dep_sentences_multi_root"] = len(result.multi_root)
        if alpha != "off":
            agreement = alpha_of([[options.normalise(g), options.normalise(p, predicted=True)]
                                  for g, p in zip(golds, preds)], method=alpha)
            scores.update({f"dep_{k}": v for k, v in agreement.to_dict().items() if k.startswith("alpha_")})
            scores["dep_alpha_signature"] = agreement.signature
        scores["dep_signature"] = result.signature
    scores["dep_examples_misaligned"] = misaligned
    scores["dep_examples_unparsed"] = skipped
    scores["dep_unaligned_tokens"] = unaligned
    scores["dep_heads_outside_sentence"] = outside
    scores["dep_tokens_in_cycles"] = sum(in_cycles)
    return scores


# --- generated examples ------------------------------------------------------------------------

def random_heads(rng, n, sentences):
    """Absolute heads of ``sentences`` consecutive trees over ``n`` tokens, and the roots."""
    cuts = sorted(rng.choice(np.arange(1, n), size=sentences - 1, replace=False).tolist()) if sentences > 1 else []
    heads, bounds = [], list(zip([0, *cuts], [*cuts, n]))
    for start, end in bounds:
        root = int(rng.integers(start, end))
        placed = [root]
        order = [i for i in rng.permutation(np.arange(start, end)).tolist() if i != root]
        local = {root: root}
        for i in order:
            local[i] = int(rng.choice(placed))
            placed.append(i)
        heads.extend(local[i] for i in range(start, end))
    return heads


def make_example(vocab, rng, k):
    n = int(rng.integers(2, 12))
    words = [f"w{k}x{i}" if rng.random() > 0.1 else "," for i in range(n)]
    sentences = 2 if n > 5 and rng.random() < 0.4 else 1
    heads = random_heads(rng, n, sentences)
    deps = [LABELS[int(rng.integers(len(LABELS)))] if heads[i] != i else "ROOT" for i in range(n)]
    if rng.random() < 0.1:  # a relation left out of the reference (spaCy's missing values)
        deps[int(rng.integers(n))] = ""
    tags = [TAGS[int(rng.integers(len(TAGS)))] for _ in range(n)]
    ref = Doc(vocab, words=words, heads=heads, deps=deps, pos=tags)
    kind = rng.random()
    if kind < 0.06:  # no parse in the prediction
        return Example(Doc(vocab, words=words), ref)
    pred_heads = [h if rng.random() > 0.3 else None for h in heads]
    pred_heads = random_heads(rng, n, 1) if any(h is None for h in pred_heads) else heads
    pred_deps = [d if rng.random() > 0.25 else LABELS[int(rng.integers(len(LABELS)))] for d in deps]
    pred_deps = [("ROOT" if pred_heads[i] == i else (d or "dep")) for i, d in enumerate(pred_deps)]
    if kind < 0.15 and len(words[0]) > 3:  # the first word split in two: scored through the alignment
        first = words[0]
        pw = [first[:2], first[2:], *words[1:]]
        ph = [0, 0] + [h + 1 for h in pred_heads[1:]]
        ph[0] = pred_heads[0] + 1 if pred_heads[0] != 0 else 0
        return Example(Doc(vocab, words=pw, heads=ph, deps=["ROOT" if ph[i] == i else "dep" for i in range(len(pw))]),
                       ref)
    pred = Doc(vocab, words=words, heads=pred_heads, deps=pred_deps, pos=tags if rng.random() < 0.5 else None)
    return Example(pred, ref)


def generated(count, seed=0):
    vocab = spacy.blank("en").vocab
    rng = np.random.default_rng(seed)
    for k in range(count):
        yield make_example(vocab, rng, k)


def same(x, y):
    return json.dumps(x, sort_keys=True, default=repr) == json.dumps(y, sort_keys=True, default=repr)


class OnePass:
    """Examples to go through once: ``iter()`` once, no ``next()`` after the end."""

    def __init__(self, examples):
        self.examples, self.started, self.exhausted, self.given = iter(examples), 0, False, 0

    def __iter__(self):
        self.started += 1
        assert self.started == 1, "the examples were gone through twice"
        return self

    def __next__(self):
        assert not self.exhausted, "asked for an example after the last"
        try:
            example = next(self.examples)
        except StopIteration:
            self.exhausted = True
            raise
        self.given += 1
        return example


# --- the tests ---------------------------------------------------------------------------------

OPTIONS = [{}, {"punct": "form"}, {"label_map": {"OBL": "obj", "nsubj:pass": "nsubj"}}, {"ignore_subtypes": True},
           {"alpha": "exact", "leaf_ancestor": True}]


@pytest.mark.parametrize("options", OPTIONS)
def test_one_pass_scores_are_the_whole_list_scores(options):
    examples = list(generated(150, seed=1))
    reference_options = dict(options)
    reference_options["leaf_ancestor_"] = reference_options.pop("leaf_ancestor", False)
    with warnings.catch_warnings(record=True) as expected_warnings:
        warnings.simplefilter("always")
        expected = reference_score_syntax(examples, **reference_options)
    source = OnePass(examples)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        scores = score_syntax(source, **options)
    assert source.started == 1 and source.exhausted and source.given == 150
    assert list(scores) == list(expected)  # the same keys in the same order
    assert same(scores, expected)
    assert scores["dep_examples_misaligned"] > 0 and scores["dep_examples_unparsed"] > 0
    # the same warnings, in the same order
    assert [(w.category, str(w.message)) for w in seen] == [(w.category, str(w.message)) for w in expected_warnings]


def test_registered_scorer_takes_a_generator():
    examples = list(generated(60, seed=2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = reference_score_syntax(examples)
        scores = make_syntax_scorer()(example for example in examples)
    assert same(scores, expected)


def test_a_registered_metric_is_scored_in_the_same_pass():
    from spacy_agreement.evaluation import parser_metrics as pm

    pm.register_metric("root_hits", "root hits", lambda g, p, ctx: (
        float(sum(1 for a, b in zip(g.heads.tolist(), p.heads.tolist()) if a == b == 0)),
        float(sum(1 for a in g.heads.tolist() if a == 0))))
    try:
        examples = list(generated(80, seed=3))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = reference_score_syntax(examples)
            scores = score_syntax(OnePass(examples))
        assert "dep_root_hits" in scores and same(scores, expected)
    finally:
        pm.unregister_metric("root_hits")


@pytest.mark.parametrize("kwargs", [{}, {"ignore_labels": ("det",)}, {"missing_values": frozenset({None})}])
@pytest.mark.parametrize("label_map", [None, {"obl": "obj"}])
def test_spacy_own_scores_counted_in_one_pass_are_spacys(kwargs, label_map):
    examples = [eg for eg in generated(120, seed=4) if not unparsed(eg.predicted)]
    options = EvaluationOptions(label_map=label_map)
    expected = reference_parser_scores(examples, options, **dict(kwargs))
    source = OnePass(examples)
    assert same(spacy_parser_scores(source, options, **dict(kwargs)), expected)
    assert source.started == 1
    if not label_map:  # spaCy's parser_score itself
        assert same(spacy_parser_scores(iter(examples), options, **dict(kwargs)),
                    dict(parser_score(examples, **dict(kwargs))))


def test_no_examples():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert same(score_syntax(iter(())), reference_score_syntax([]))


def test_no_list_of_all_trees_is_built(monkeypatch):
    """Trees are converted and scored a batch at a time: at any moment the trees alive are
    those of one batch (and the one being made), however many examples there are."""
    monkeypatch.setattr(spacy_scoring, "SCORE_BATCH", 8)
    alive = []
    made = spacy_scoring.doc_tree

    def recording(*args, **kwargs):
        tree, count = made(*args, **kwargs)
        alive.append(weakref.ref(tree))
        return tree, count

    monkeypatch.setattr(spacy_scoring, "doc_tree", recording)
    most = 0

    def examples():
        nonlocal most
        for example in generated(200, seed=5):
            gc.collect()
            most = max(most, sum(ref() is not None for ref in alive))
            yield example

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = score_syntax(examples(), leaf_ancestor=True)
        expected = reference_score_syntax(generated(200, seed=5), leaf_ancestor_=True)
    assert same(scores, expected)
    assert len(alive) > 300  # gold and predicted trees of about 190 parsed examples
    assert most <= 2 * 8 + 2  # one batch of pairs, and the pair being made


def test_component_score_goes_through_once():
    nlp = spacy.blank("en")
    nlp.add_pipe("syntax_agreement")
    component = nlp.get_pipe("syntax_agreement")
    docs = []
    for k, example in enumerate(generated(30, seed=6)):
        doc = example.reference
        doc._.agreement = {"snapshot": {"las": math.nan if k % 7 == 0 else (k % 10) / 10}}
        docs.append(Example(doc, doc))
    source = OnePass(docs)
    expected = float(np.mean([(k % 10) / 10 for k in range(30) if k % 7]))
    assert component.score(source) == {"agreement_las": expected} and source.started == 1
