"""The calls a notebook user gets wrong (issue 49), each answered by the documented exception
with a message naming the argument: never an ``AttributeError`` from inside, a
``JSONDecodeError`` for a path read as a signature, or a silent wrong number."""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import nltk
import pytest

import spacy_agreement as sa

DEMO = Path(sa.__file__).parent / "data" / "demo"
ANNA = DEMO / "dependency" / "anna" / "story-anna.conllu"
BEN = DEMO / "dependency" / "ben" / "story-ben.conllu"
PHRASE_A = DEMO / "phrase" / "annotator-a.tree"
PHRASE_B = DEMO / "phrase" / "annotator-b.tree"


@pytest.fixture
def empty(tmp_path):
    path = tmp_path / "empty.conllu"
    path.write_bytes(b"")
    return path


@pytest.fixture
def prm(tmp_path):
    path = tmp_path / "COLLINS.prm"
    path.write_text("DEBUG 0\nMAX_ERROR 10\nCUTOFF_LEN 40\nLABELED 1\nDELETE_LABEL TOP\n")
    return path


# --------------------------------------------------------------------------- what cannot be read


@pytest.mark.parametrize("call", [
    lambda: sa.evaluate(42, ANNA),
    lambda: sa.evaluate(ANNA, {"a": 1}),
    lambda: sa.alpha(ANNA, 3.5),
    lambda: sa.evalb(PHRASE_A, object()),
    lambda: sa.compare(ANNA, BEN, 7),
    lambda: sa.judge(ANNA, 12),
], ids=["evaluate gold", "evaluate system", "alpha", "evalb", "compare", "judge"])
def test_what_is_not_an_input_is_a_type_error_naming_the_argument(call):
    with pytest.raises((TypeError, sa.AgreementError)) as caught:
        call()
    message = str(caught.value)
    assert any(name in message for name in ("gold", "system", "test", "annotator", "system_b", "system2",
                                            "settings", "after the annotations")), message
    assert "give" in message


def test_docs_given_to_a_phrase_structure_function_say_so():
    spacy = pytest.importorskip("spacy")
    doc = spacy.blank("en")("a dog")
    with pytest.raises(TypeError, match=r"evalb\(\): gold holds dependency analyses"):
        sa.evalb([doc], [doc])


def test_trees_given_to_a_dependency_function_say_so():
    tree = nltk.Tree.fromstring("(S (NP (D the) (N dog)) (VP (V ran)))")
    with pytest.raises(TypeError, match=r"evaluate\(\): gold holds phrase-structure analyses"):
        sa.evaluate([tree], [tree])


# --------------------------------------------------------------------------- empty input


@pytest.mark.parametrize("function", ["alpha", "layers", "evalb", "evaluate", "leaf_ancestor"])
def test_an_empty_file_is_the_commands_error(function, empty):
    other = PHRASE_A if function in ("evalb", "leaf_ancestor") else ANNA
    with pytest.raises(sa.EmptyInputError, match=r"empty\.conllu: empty file"):
        getattr(sa, function)(other, empty)


def test_judge_with_an_empty_file_is_the_commands_error(empty):
    with pytest.raises(sa.EmptyInputError, match="empty file"):
        sa.judge(ANNA, empty)


@pytest.mark.parametrize("call", [lambda: sa.alpha([], []), lambda: sa.evaluate([], []), lambda: sa.evalb([], [])],
                         ids=["alpha", "evaluate", "evalb"])
def test_an_empty_list_is_an_empty_input(call):
    with pytest.raises(sa.EmptyInputError, match="empty"):
        call()


# --------------------------------------------------------------------------- a third positional value


def test_a_parameter_file_after_the_annotations_says_to_give_it_by_name(prm):
    with pytest.raises(TypeError, match=r"params='COLLINS.prm'"):
        sa.evalb(PHRASE_A, PHRASE_B, str(prm))
    with pytest.raises(TypeError, match=r"evalb_params='COLLINS.prm'"):
        sa.leaf_ancestor(PHRASE_A, PHRASE_B, str(prm))
    assert sa.evalb(PHRASE_A, PHRASE_B, params=prm).to_dict()["signature"].count("|") > 1


def test_judge_takes_gold_third():
    page = sa.judge(ANNA, BEN, ANNA, all=True)
    assert page.to_dict()["gold"] == str(ANNA)


def test_compare_takes_the_systems_as_arguments():
    run = sa.compare(ANNA, BEN, ANNA, metric="las", shuffles=50, resamples=20)
    assert len(run.to_dict()["files"]) == 2
    with pytest.raises(sa.BadOptionError, match="two system files or more"):
        sa.compare(ANNA, BEN)


def test_old_call_forms_warn_and_give_the_same_numbers(tmp_path):
    new = sa.compare(ANNA, BEN, ANNA, metric="las", shuffles=50, resamples=20)
    with pytest.warns(DeprecationWarning, match=r"compare\(gold, system1, system2, ...\)"):
        old = sa.compare(ANNA, [BEN, ANNA], metric=["las"], shuffles=50, resamples=20)
    assert old.to_dict() == new.to_dict()
    with pytest.warns(DeprecationWarning, match="signature=") as caught:
        again = sa.compare(ANNA, [BEN, ANNA], new.signature, metric=["las"])
    assert caught[0].filename == __file__  # the warning points at the caller's line
    assert again.to_dict() == new.to_dict()
    run = sa.alpha(ANNA, BEN)
    with pytest.warns(DeprecationWarning, match=r"signature=\.\.\."):
        assert sa.alpha(ANNA, BEN, run.signature).to_dict() == run.to_dict()
    with pytest.warns(DeprecationWarning, match=r"alpha\(path1, path2, ...\)"):
        assert sa.alpha([ANNA, BEN]).to_dict() == run.to_dict()
    ev = sa.evaluate(ANNA, BEN)
    with pytest.warns(DeprecationWarning, match="settings="):
        assert sa.evaluate(ANNA, BEN, ev.settings).to_dict() == ev.to_dict()
    assert sa.evaluate(ANNA, BEN, signature=ev.signature).to_dict() == ev.to_dict()


def test_settings_and_signature_together_are_an_error():
    run = sa.evaluate(ANNA, BEN)
    with pytest.raises(sa.BadOptionError, match="settings= and signature="):
        sa.evaluate(ANNA, BEN, settings=run.settings, signature=run.signature)


def test_a_metric_may_be_one_string():
    run = sa.compare(ANNA, BEN, ANNA, metric="las", shuffles=50, resamples=20)
    assert sa.compare(ANNA, BEN, ANNA, metric=["las"], shuffles=50, resamples=20).to_dict() == run.to_dict()


# --------------------------------------------------------------------------- single trees, and what users can find


def test_two_single_trees_are_two_sentences_not_their_subtrees():
    a = nltk.Tree.fromstring("(S (NP (D the) (N dog)) (VP (V ran)))")
    b = nltk.Tree.fromstring("(S (NP (D the)) (VP (N dog) (V ran)))")
    single, listed = sa.score_nltk_trees(a, b), sa.score_nltk_trees([a], [b])
    assert single == listed
    assert single["jaccard"] == 0.5  # brackets S, NP, VP against S, NP, VP: 2 of 4 shared spans (hand count)
    assert sa.leaf_ancestor(a, b).to_dict()["sentences_scored"] == 1


def test_the_errors_are_top_level_names_of_one_hierarchy():
    for name in ("AgreementError", "InvalidTreeError", "MismatchedCorpusError", "EmptyInputError", "BadOptionError",
                 "ResourceLimitError", "JudgmentError", "DiscourseError", "ScriptRefusalError"):
        error = getattr(sa, name)
        assert issubclass(error, sa.AgreementError) and name in sa.__all__, name


def test_dir_lists_public_names_only():
    names = dir(sa)
    assert "TYPE_CHECKING" not in names and "lazy_exports" not in names
    assert not [n for n in names if n.startswith("_") and n != "__version__"]
    assert {"alpha", "evaluate", "AgreementError"} <= set(names)


def test_a_path_after_the_annotations_is_never_read_as_json(prm):
    with pytest.raises(TypeError) as caught:
        sa.evalb(PHRASE_A, PHRASE_B, str(prm))
    assert not isinstance(caught.value, json.JSONDecodeError)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with pytest.raises((FileNotFoundError, sa.AgreementError)):
            sa.alpha(ANNA, BEN, "no-such-file.conllu")


def test_one_name_per_option_across_functions():
    with pytest.warns(DeprecationWarning, match=r"worst=\.\.\."):
        old = sa.leaf_ancestor(PHRASE_A, PHRASE_B, keep_worst=2)
    assert old.to_dict() == sa.leaf_ancestor(PHRASE_A, PHRASE_B, worst=2).to_dict()
    new = sa.judging_page(ANNA, BEN, format="conll", no_marks=True, all=True, in_order=True)
    with pytest.warns(DeprecationWarning, match=r"judging_page\(format=\.\.\.\)"):
        assert sa.judging_page(ANNA, BEN, fmt="conll", no_marks=True, all=True, in_order=True).html == new.html
    with pytest.warns(DeprecationWarning, match=r"no_marks=\.\.\."):
        assert sa.judging_page(ANNA, BEN, marks=False, all=True, in_order=True).html == \
            sa.judging_page(ANNA, BEN, no_marks=True, all=True, in_order=True).html


def test_evalb_messages_show_in_the_notebook(tmp_path):
    import html

    gold, test = tmp_path / "g.tree", tmp_path / "t.tree"
    gold.write_text("(S (NP (D the) (N dog)) (VP (V ran)))\n(S (NP (D a) (N cat)) (VP (V sat)))\n")
    test.write_text("(S (NP (D the) (N dog)) (VP (V ran)))\n")
    run = sa.evalb(gold, test)
    assert run.messages and all(m in html.unescape(run._repr_html_()) for m in run.messages)


def test_an_option_that_contradicts_the_settings_is_an_error():
    run = sa.evaluate(ANNA, BEN, no_punct=True)
    with pytest.raises(sa.BadOptionError, match="no_punct=False") as caught:
        sa.evaluate(ANNA, BEN, settings=run.settings, no_punct=False)
    assert caught.value.option == "no_punct"
    with pytest.raises(sa.BadOptionError, match="no_punct"):
        sa.evaluate(ANNA, BEN, signature=run.signature, no_punct=False)
    assert sa.evaluate(ANNA, BEN, settings=run.settings, no_punct=True).to_dict() == run.to_dict()
