"""Table 2 of Skjærholt (2014): α and LAS on real inter-annotator data, at the paper's rounding."""
import pytest

from spacy_agreement import alpha, load_parallel_files, pairwise_accuracy
from spacy_agreement.errors import InvalidTreeError

# row: (files, sentences, tokens of the first annotator, αplain, αdiff, αnorm, LAS)
TABLE2 = {
    "NDT 1": (("ndt/odin-danish.conll", "ndt/thor-danish.conll"), 130, 1674, 98.4, 93.0, 98.8, 94.0),
    "NDT 2": (("ndt/odin-swedish.conll", "ndt/thor-swedish.conll"), 110, 1594, 98.9, 95.0, 99.1, 94.4),
    "NDT 3": (("ndt/odin-norwegian.conll", "ndt/thor-norwegian.conll"), 150, 1997, 97.9, 91.2, 98.7, 95.3),
    "CDT (da)": (("cdt/da-lotte.conll", "cdt/da-morten.conll"), 162, 2394, 95.7, 84.7, 96.2, 90.4),
}


@pytest.mark.parametrize("row", sorted(TABLE2))
def test_table2_row(iaa, row):
    files, sentences, tokens, a_plain, a_diff, a_norm, las = TABLE2[row]
    corpus = load_parallel_files([iaa / f for f in files])
    assert len(corpus) == sentences
    assert sum(len(item[corpus.annotators[0]]) for item in corpus.items) == tokens
    result = alpha(corpus)
    accuracy = pairwise_accuracy(corpus)
    assert round(100 * result.alpha_plain, 1) == a_plain
    assert round(100 * result.alpha_diff, 1) == a_diff
    assert round(100 * result.alpha_norm, 1) == a_norm
    assert round(100 * accuracy.las, 1) == las
    assert accuracy.tokens == tokens and accuracy.items_mismatched == 0
    assert result.items == sentences and result.annotations == 2 * sentences


def test_cdt_cycles_are_counted_and_strict_mode_raises(iaa):
    files = [iaa / "cdt/da-lotte.conll", iaa / "cdt/da-morten.conll"]
    corpus = load_parallel_files(files)
    result = alpha(corpus)
    # tokens caught in head cycles drop out of the TED trees and are reported, with where
    assert result.cycle_tokens > 0
    assert len(result.cycle_trees) > 0 and all("da-" in where for where in result.cycle_trees)
    with pytest.raises(InvalidTreeError) as err:
        alpha(corpus, cycles="raise")
    assert "da-lotte.conll:" in str(err.value) and "cycle" in str(err.value)
    # counting only the nodes left in the trees changes αdiff away from the paper's value
    assert round(100 * alpha(corpus, size="tree").alpha_diff, 1) != 84.7


# Rows of the data released with the paper that the repository does not ship. Inputs as a new
# user gives them: two files, or one directory per annotator (PREFIX-NAME.conll / .tree).
# (inputs, --dirs, αplain, αdiff, αnorm, LAS or Jaccard, items left out of LAS)
RELEASED = {
    "CDT (en)": (("cdt/en-lotte.conll", "cdt/en-morten.conll"), False, 92.4, 70.7, 95.0, 88.4, 0),
    # the paper prints LAS 78.9 (es) and 81.3 (it); the released code on the released data
    # gives 80.3 and 82.3, as we do (same sentences left out: 2 and 15)
    "CDT (es)": (("cdt/es/henrik", "cdt/es/jonas", "cdt/es/lotte", "cdt/es/soren"), True, 86.6, 48.8, 85.8, 80.3, 2),
    "CDT (it)": (("cdt/it/iorn", "cdt/it/lisa", "cdt/it/morten"), True, 84.5, 55.7, 89.2, 82.3, 15),
    # SSD: 5 items differ in leaf count; Jaccard over every item gives the paper's 87.9
    # (leaving them out, as the released code does, gives 92.4)
    "SSD": (("ssd/ssd.emily2", "ssd/ssd.woodley", "ssd/ssd.woodley2"), True, 99.1, 98.6, 99.3, 87.9, 5),
}


@pytest.mark.parametrize("row", sorted(RELEASED))
def test_table2_released_rows_through_the_cli(released_iaa, row):
    import json

    from typer.testing import CliRunner

    from spacy_agreement.cli import app

    inputs, dirs, a_plain, a_diff, a_norm, accuracy, left_out = RELEASED[row]
    args = ["alpha", *[str(released_iaa / p) for p in inputs], "--json", "--quiet"] + (["--dirs"] if dirs else [])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    values = json.loads(result.stdout)
    assert round(100 * values["alpha_plain"], 1) == a_plain
    assert round(100 * values["alpha_diff"], 1) == a_diff
    assert round(100 * values["alpha_norm"], 1) == a_norm
    key = "jaccard" if row == "SSD" else "las"
    assert round(100 * values[key], 1) == accuracy
    assert values["items_mismatched"] == left_out
    if row == "CDT (en)":  # a token that is its own head (en-lotte sentence 187) is read and counted
        assert values["cycle_tokens"] > 0
        strict = CliRunner().invoke(app, args + ["--strict"])
        assert strict.exit_code == 1 and "own head" in strict.stderr or "head cycle" in strict.stderr
    if row == "SSD":
        assert values["items_mismatched_scored"] is True and values["accuracy_items"] == 96
