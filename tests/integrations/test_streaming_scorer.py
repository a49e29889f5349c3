"""The scorer ``spacy_agreement.syntax_scorer.v1`` goes through the examples once, scoring each
as it comes: the same numbers as a whole-list reference written out below independently of the
scorer (spaCy's own ``parser_score`` and ``Scorer`` for spaCy's scores; for the package's metrics,
``evaluate`` over trees built here from the docs, through spaCy's alignment where the tokens
differ; the counts and warnings from the examples themselves), a one-shot iterator is enough,
and no list of all the trees is built."""
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

from spacy_agreement.agreement.alpha import alpha as alpha_of  # noqa: E402
from spacy_agreement.evaluation.dependency.label_sets import LabelSetWarning  # noqa: E402
from spacy_agreement.evaluation.constituency.leaf_ancestor import leaf_ancestor  # noqa: E402
from spacy_agreement.evaluation.dependency.metrics import EvaluationSettings, evaluate  # noqa: E402
from spacy_agreement.integrations import spacy_scoring  # noqa: E402
from spacy_agreement.integrations.spacy_components import (HeadCycleWarning, MisalignedExampleWarning,  # noqa: E402
                                                            UnparsedDocWarning, make_syntax_scorer, score_syntax,
                                                            spacy_parser_scores)
from spacy_agreement.trees import DependencyTree  # noqa: E402

LABELS = ["nsubj", "obj", "amod", "det", "punct", "nsubj:pass", "OBL", "advmod"]
TAGS = ["NOUN", "VERB", "ADJ", "DET", "PUNCT", "ADV"]
#: The relations spaCy's parser_score leaves out of its attachment scores (its ignore_labels).
PUNCT_LABELS = ("p", "punct")


# --- the reference: the whole list, from spaCy and from the docs themselves --------------------

def unparsed(doc):
    return not doc.has_annotation("DEP")


def label_getter(examples, label_map, ignore_subtypes):
    """spaCy's dep getter (the label in lower case, as parser_score compares it) with a predicted
    label mapped to the gold's (``label_map``, in lower case) and the subtype dropped."""
    predicted = {id(eg.predicted) for eg in examples}
    lowered = {k.lower(): v.lower() for k, v in (label_map or {}).items()}

    def getter(token, attr):
        value = getattr(token, attr)
        label = (value if isinstance(value, str) else token.vocab.strings[value]).lower()
        if id(token.doc) in predicted:
            label = lowered.get(label, label)
        return label.split(":")[0] if ignore_subtypes else label

    return getter


def reference_parser_scores(examples, label_map=None, ignore_subtypes=False, **kwargs):
    """spaCy's own scores: ``parser_score`` where no label changes; else the calls it makes
    (``Scorer.score_spans`` of the sentences, ``Scorer.score_deps`` without p and punct) with the
    getter above."""
    if not (label_map or ignore_subtypes):
        return dict(parser_score(examples, **kwargs))
    scores = dict(Scorer.score_spans(examples, "sents", has_annotation=lambda doc: doc.has_annotation("SENT_START"),
                                     **kwargs))
    scores.pop("sents_per_type", None)
    kwargs.setdefault("getter", label_getter(examples, label_map, ignore_subtypes))
    kwargs.setdefault("ignore_labels", PUNCT_LABELS)
    scores.update(Scorer.score_deps(examples, "dep", **kwargs))
    return scores


def own_tree(doc, upos=None):
    """A doc's analysis as one tree over all its tokens (a sentence more is a root more): token
    i + 1's head is its head's position + 1, or 0 where it is its own head; relations in lower
    case (spaCy's scorer compares them so); UPOS the doc's where it has them, else ``upos``."""
    heads = [0 if t.head.i == t.i else t.head.i + 1 for t in doc]
    tags = [t.pos_ for t in doc] if doc.has_annotation("POS") else list(upos or ["_"] * len(doc))
    return DependencyTree.create(heads, [t.dep_.lower() for t in doc], [t.text for t in doc], tags)


def own_aligned_tree(example, gold):
    """The predicted analysis over the reference's tokens through spaCy's alignment, as the
    scorer's documentation says: a reference token and a predicted one aligned one to one (each
    the other's only partner) take the predicted relation and head, the head mapped to its
    reference partner (0 for a root; the token itself, wrong, where the head has no partner); a
    reference token without a partner is its own head with relation ``_``. Returns the tree and
    the number of reference tokens without a partner."""
    predicted = example.predicted
    x2y, y2x = example.alignment.x2y, example.alignment.y2x  # predicted -> reference and back
    starts = np.concatenate([[0], np.cumsum(x2y.lengths)])
    partner = {}  # reference token -> its one predicted partner
    for j in range(len(predicted)):
        targets = x2y.data[starts[j]:starts[j + 1]].ravel().tolist()
        if len(targets) == 1 and y2x.lengths[targets[0]] == 1:
            partner[targets[0]] = j
    reference_of = {j: i for i, j in partner.items()}
    heads, deprels = [], []
    for i in range(len(gold)):
        if i not in partner:
            heads.append(i + 1)
            deprels.append("_")
            continue
        token = predicted[partner[i]]
        head = token.head.i
        heads.append(0 if head == token.i else reference_of[head] + 1 if head in reference_of else i + 1)
        deprels.append(token.dep_.lower())
    if predicted.has_annotation("POS"):
        tags = [predicted[partner[i]].pos_ if i in partner else "_" for i in range(len(gold))]
    else:
        tags = list(gold.upos)
    return DependencyTree.create(heads, deprels, list(gold.forms), tags), len(gold) - len(partner)


def tokens_in_cycles(doc):
    """Tokens whose chain of heads never reaches a root (a token that is its own head)."""
    count = 0
    for token in doc:
        seen, node = set(), token.i
        while doc[node].head.i != node and node not in seen:
            seen.add(node)
            node = doc[node].head.i
        count += doc[node].head.i != node
    return count


def reference_score_syntax(examples, alpha="off", leaf_ancestor_=False, label_map=None, ignore_subtypes=False,
                           punct="label", **kwargs):
    """The whole list at once: (scores, [(warning class, counts its message must say)])."""
    examples = list(examples)
    options = EvaluationSettings(exclude_punct=True, punct_labels=frozenset(PUNCT_LABELS), punct_rules=punct,
                                label_map={k.lower(): v.lower() for k, v in label_map.items()} if label_map else None,
                                ignore_subtypes=ignore_subtypes)
    said = []
    skipped = sum(unparsed(eg.predicted) for eg in examples)
    if skipped:
        said.append((UnparsedDocWarning, f"{skipped} of {len(examples)} example"))
    examples = [eg for eg in examples if not unparsed(eg.predicted)]
    in_cycles = [tokens_in_cycles(eg.predicted) for eg in examples]
    if any(in_cycles):
        said.append((HeadCycleWarning, f"{sum(in_cycles)} predicted token"))
    scores = reference_parser_scores(examples, label_map, ignore_subtypes, **kwargs)
    golds, preds, misaligned, unaligned = [], [], 0, 0
    for eg in examples:
        gold = own_tree(eg.reference)
        if [t.text for t in eg.reference] != [t.text for t in eg.predicted]:
            misaligned += 1
            pred, missing = own_aligned_tree(eg, gold)
            unaligned += missing
        else:
            pred = own_tree(eg.predicted, gold.upos)
        golds.append(gold)
        preds.append(pred)
    if misaligned:
        said.append((MisalignedExampleWarning, f"{misaligned} of {len(examples)} example"))
    if golds:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LabelSetWarning)
            result = evaluate(golds, preds, options)
        scores["dep_unseen_gold_label_share"] = result.label_check.share
        for key, value in result.scores.items():
            if key not in ("las", "uas"):  # spaCy's own dep_las and dep_uas stand
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
    scores["dep_heads_outside_sentence"] = 0  # a doc's heads are its own tokens
    scores["dep_tokens_in_cycles"] = sum(in_cycles)
    return scores, said


def reference_scores(examples, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return reference_score_syntax(examples, **options)[0]


def assert_warned(seen, said):
    """The warnings seen are those the reference says, in its order, each naming its counts."""
    assert [w.category for w in seen] == [category for category, _ in said]
    for w, (_, counts) in zip(seen, said):
        assert counts in str(w.message), (str(w.message), counts)


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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected, said = reference_score_syntax(examples, **reference_options)
    source = OnePass(examples)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        scores = score_syntax(source, **options)
    assert source.started == 1 and source.exhausted and source.given == 150
    assert list(scores) == list(expected)  # the same keys in the same order
    assert same(scores, expected)
    assert scores["dep_examples_misaligned"] > 0 and scores["dep_examples_unparsed"] > 0
    assert_warned(seen, said)  # the same warnings, in the same order


def test_registered_scorer_takes_a_generator():
    examples = list(generated(60, seed=2))
    expected = reference_scores(examples)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = make_syntax_scorer()(example for example in examples)
    assert same(scores, expected)


def test_a_registered_metric_is_scored_in_the_same_pass():
    from spacy_agreement.evaluation.dependency import metrics as pm

    pm.register_metric("root_hits", "root hits", lambda g, p, ctx: (
        float(sum(1 for a, b in zip(g.heads.tolist(), p.heads.tolist()) if a == b == 0)),
        float(sum(1 for a in g.heads.tolist() if a == 0))))
    try:
        examples = list(generated(80, seed=3))
        expected = reference_scores(examples)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scores = score_syntax(OnePass(examples))
        assert "dep_root_hits" in scores and same(scores, expected)
    finally:
        pm.unregister_metric("root_hits")


@pytest.mark.parametrize("kwargs", [{}, {"ignore_labels": ("det",)}, {"missing_values": frozenset({None})}])
@pytest.mark.parametrize("label_map", [None, {"obl": "obj"}])
def test_spacy_own_scores_counted_in_one_pass_are_spacys(kwargs, label_map):
    examples = [eg for eg in generated(120, seed=4) if not unparsed(eg.predicted)]
    options = EvaluationSettings(label_map=label_map)
    expected = reference_parser_scores(examples, label_map, **dict(kwargs))
    source = OnePass(examples)
    assert same(spacy_parser_scores(source, options, **dict(kwargs)), expected)
    assert source.started == 1
    if not label_map:  # spaCy's parser_score itself
        assert same(spacy_parser_scores(iter(examples), options, **dict(kwargs)),
                    dict(parser_score(examples, **dict(kwargs))))


def test_no_examples():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert same(score_syntax(iter(())), reference_scores([]))


def test_no_list_of_all_trees_is_built(monkeypatch):
    """Trees are converted and scored a batch at a time: at any moment the trees alive are
    those of one batch (and the one being made), however many examples there are. Eight batches
    of eight examples are enough to see it (a full collection before each example is what
    costs: 200 examples took minutes; issue 52)."""
    EXAMPLES = 64
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
        for example in generated(EXAMPLES, seed=5):
            gc.collect()
            most = max(most, sum(ref() is not None for ref in alive))
            yield example

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = score_syntax(examples(), leaf_ancestor=True)
    expected = reference_scores(generated(EXAMPLES, seed=5), leaf_ancestor_=True)
    assert same(scores, expected)
    assert len(alive) > 6 * 8 * 2  # gold and predicted trees of more than six batches of parsed examples
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
