"""``compare`` reads as ``evaluate`` does (issue 50): each system's per-sentence counts from the
compiled scanner's stream, the same figures to the last digit as from the trees read whole (the
reference path, still taken for other formats, other tokens and what the scanner refuses)."""
import json

import pytest

from spacy_agreement.errors import MismatchedCorpusError
from spacy_agreement.evaluation.comparison import compare_run
from spacy_agreement.evaluation.comparison.compare_run import compare

from ..random_conllu import random_annotations


def _run(paths, **options):
    result = compare(paths[0], paths[1:], shuffles=300, resamples=200, **options)
    return json.dumps(result.to_dict(), sort_keys=True, default=str), str(result)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("options", [{}, {"no_punct": True}, {"metric": ["las", "uas"]}])
def test_streamed_counts_as_the_trees(tmp_path, monkeypatch, seed, options):
    paths = random_annotations(tmp_path, seed, annotators=3, sentences=60, rate=0.3, unannotated=False)
    streamed = []
    original = compare_run.streamed_counts
    monkeypatch.setattr(compare_run, "streamed_counts", lambda *a: streamed.append(original(*a)) or streamed[-1])
    new = _run(paths, **options)
    assert streamed and streamed[0] is not None  # the fast path was taken
    monkeypatch.setattr(compare_run, "streamed_counts", lambda *a: None)
    assert new == _run(paths, **options)


def test_unannotated_tokens_read_whole(tmp_path):
    paths = random_annotations(tmp_path, 7, annotators=3, sentences=40, rate=0.5)
    assert compare(paths[0], paths[1:], shuffles=100, resamples=50).to_dict()


def test_strict_reads_the_trees(tmp_path, monkeypatch):
    """As evaluate: --strict reads the trees (their readers name a cycle), not the stream."""
    paths = random_annotations(tmp_path, 3, annotators=3, sentences=20, unannotated=False)
    monkeypatch.setattr(compare_run, "streamed_counts", lambda *a: pytest.fail("streamed under strict"))
    assert compare(paths[0], paths[1:], shuffles=100, resamples=50, strict=True).to_dict()


@pytest.mark.parametrize("skip", [False, True])
def test_other_tokens(tmp_path, monkeypatch, skip):
    """A system with another form in some sentences: skipped (--skip-mismatched) or aligned, as before."""
    paths = random_annotations(tmp_path, 4, annotators=3, sentences=30, unannotated=False)
    lines = paths[2].read_text(encoding="utf-8").split("\n")
    changed = [k for k, line in enumerate(lines) if line.startswith("2\t")][:3]
    for k in changed:
        row = lines[k].split("\t")
        row[1] = "other"
        lines[k] = "\t".join(row)
    paths[2].write_text("\n".join(lines), encoding="utf-8")
    def outcome():
        try:
            return _run(paths, skip_mismatched=skip)
        except MismatchedCorpusError as error:  # another text: no alignment either way
            return str(error)

    new = outcome()
    monkeypatch.setattr(compare_run, "streamed_counts", lambda *a: None)
    assert new == outcome()
