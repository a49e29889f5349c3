"""``str(result)`` of every command function is the command's stdout with its default printing
options (issue 49), on a fixture of each command; the timings a text may hold aside."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app

DEMO = Path(sa.__file__).parent / "data" / "demo"
ANNA = str(DEMO / "dependency" / "anna" / "story-anna.conllu")
BEN = str(DEMO / "dependency" / "ben" / "story-ben.conllu")
PHRASE_A = str(DEMO / "phrase" / "annotator-a.tree")
PHRASE_B = str(DEMO / "phrase" / "annotator-b.tree")
DATA = Path(__file__).parent / "data"
DISCOURSE = str(Path(__file__).parent.parent / "examples" / "discourse_example.json")
PLANK = str(DATA / "plank" / "xx")

#: a timing printed beside the figures ("about 6.6e-07 s here")
TIMING = re.compile(r"about [0-9.e+-]+ s here")


def cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


CASES = {
    "alpha": (["alpha", ANNA, BEN], lambda: sa.alpha(ANNA, BEN)),
    "layers": (["layers", ANNA, BEN], lambda: sa.layers(ANNA, BEN)),
    "evaluate": (["evaluate", ANNA, BEN], lambda: sa.evaluate(ANNA, BEN)),
    "compare": (["compare", ANNA, BEN, ANNA, "--shuffles", "200", "--resamples", "50"],
                lambda: sa.compare(ANNA, BEN, ANNA, shuffles=200, resamples=50)),
    "evalb": (["evalb", PHRASE_A, PHRASE_B], lambda: sa.evalb(PHRASE_A, PHRASE_B)),
    "leaf-ancestor": (["leaf-ancestor", PHRASE_A, PHRASE_B], lambda: sa.leaf_ancestor(PHRASE_A, PHRASE_B)),
    "discourse": (["discourse", DISCOURSE], lambda: sa.discourse(DISCOURSE)),
    "judgments": (["judgments", PLANK], lambda: sa.judgments(PLANK)),
}


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
@pytest.mark.parametrize("command", sorted(CASES))
def test_str_of_the_result_is_the_commands_stdout(command):
    args, call = CASES[command]
    printed = cli(*args)
    shown = str(call())
    assert TIMING.sub("<timing>", shown) + "\n" == TIMING.sub("<timing>", printed)
    assert repr(call()) != shown  # repr stays the one-line summary


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_str_of_a_result_from_objects_names_what_was_set_aside():
    nltk = pytest.importorskip("nltk")
    a = nltk.Tree.fromstring("(S (NP (D the) (N dog)) (VP (V ran)))")
    b = nltk.Tree.fromstring("(S (NP (D the)) (VP (N dog) (V ran)))")
    text = str(sa.alpha([a], [b]))
    assert "skipped:" in text and "signature: alpha|" in text


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
@pytest.mark.parametrize("command", sorted(CASES))
def test_the_notebook_display_shows_what_was_set_aside_and_the_signature(command):
    import html

    result = CASES[command][1]()
    shown = html.unescape(result._repr_html_())
    text = str(result)
    assert TIMING.sub("", text) in TIMING.sub("", shown)  # the whole text: figures, set-aside counts, notes
    assert "monospace" in shown
    if command != "evalb":  # EVALB prints no signature line; its table's footer holds it
        assert "signature: " in shown
    for set_aside in ("skipped", "set aside", "left out", "unpairable", "sentences skipped", "error, skip",
                      "items", "excluded"):
        if set_aside in text:
            assert set_aside in shown


def test_an_alpha_result_from_annotator_folders_shows_its_missing_annotations():
    import html

    demo = DEMO / "dependency"
    result = sa.alpha(demo / "anna", demo / "ben", demo / "cleo", dirs=True)
    shown = html.unescape(result._repr_html_())
    assert "item(s) some annotators lack (missing annotations)" in shown
    assert "signature: alpha|" in shown


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
@pytest.mark.parametrize("command", sorted(CASES))
def test_every_result_pickles(command):
    import pickle

    result = CASES[command][1]()
    again = pickle.loads(pickle.dumps(result))
    assert again.to_dict() == result.to_dict()
    assert TIMING.sub("", str(again)) == TIMING.sub("", str(result))


def test_pickled_evalb_rows_refuse_a_partial_row():
    from spacy_agreement._evalb import _restored_rows
    from spacy_agreement.evaluation.constituency.evalb import SentenceResult

    with pytest.raises(ValueError, match="partial row"):
        _restored_rows(SentenceResult, b"\x00" * 7, {})
    with pytest.raises(ValueError, match="past the last"):
        _restored_rows(SentenceResult, b"", {3: None})


def test_str_of_a_judging_page_is_judges_stdout(tmp_path):
    page_path = tmp_path / "page.html"
    printed = cli("judge", ANNA, BEN, "--all", "--html", str(page_path))
    page = sa.judge(ANNA, BEN, all=True, html=page_path)
    assert str(page) + "\n" == printed
    assert "wrote " + str(page_path) in str(page) and "signature: judge|" in str(page)
    unwritten = sa.judge(ANNA, BEN, all=True)
    assert "not written yet" in str(unwritten)
    import html

    assert "signature: judge|" in html.unescape(page._repr_html_())
