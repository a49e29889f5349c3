"""The HTML report on the shared IAA data (parsed back and screenshotted), and every example."""
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
import shutil

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.report.html import confusions, html_report, pairwise_matrix

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


class Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections, self.items, self.svgs, self.item_annotators = [], [], 0, {}
        self._current = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self.sections.append(attrs.get("id"))
        if tag == "div" and attrs.get("data-item"):
            self._current = attrs["data-item"]
            self.items.append(self._current)
            self.item_annotators[self._current] = 0
        if tag == "div" and attrs.get("class") == "annotator" and self._current:
            self.item_annotators[self._current] += 1
        if tag == "svg":
            self.svgs += 1


@pytest.mark.slow
def test_report_on_cdt(iaa, tmp_path):
    corpus = sa.load_parallel_files([iaa / "cdt/da-lotte.conll", iaa / "cdt/da-morten.conll"])
    out = tmp_path / "report.html"
    result = CliRunner().invoke(app, ["report", str(iaa / "cdt/da-lotte.conll"), str(iaa / "cdt/da-morten.conll"),
                                      "--html", str(out), "--items", "12"])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    parsed = Collect()
    parsed.feed(page)
    assert parsed.sections == ["summary", "items", "annotators", "confusions", "plots"]
    alpha = sa.alpha(corpus)
    expected = [name for name, _ in alpha.worst_items(12)]
    assert parsed.items == expected
    assert all(count == 2 for count in parsed.item_annotators.values())
    assert parsed.svgs == 2 * 12
    assert "95.7" in page and "84.7" in page and "90.4" in page  # α plain, α diff, LAS of Table 2
    assert 'stroke="#d62728"' in page  # differing arcs are marked
    assert "data:image/png;base64," in page
    names, matrix = pairwise_matrix(corpus)
    assert round(100 * matrix[0, 1], 1) == 90.4
    assert confusions(corpus)[0][2] >= confusions(corpus)[-1][2]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("headless Chromium not installed (apt-get install chromium): screenshot not taken")
    shot = tmp_path / "report.png"
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,1600",
                    f"--screenshot={shot}", out.as_uri()], check=True, capture_output=True, timeout=120)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20000


def test_report_on_phrase_trees_colours_words():
    base = Path(sa.__file__).parent / "data" / "demo" / "phrase"
    corpus = sa.load_parallel_files(sorted(base.glob("*.tree")), "bracket")
    page = html_report(corpus, items=10)
    assert "leaf-ancestor:" in page and "(S (NP (PRP It)) (VP (VBD waited)" in page
    assert page.count('class="item"') == 3  # the three sentences the annotators disagree on


@pytest.mark.slow
@pytest.mark.parametrize("script, args, expect", [
    ("quickstart.py", [], "TED between the two analyses"),
    ("pipeline_agreement.py", [], "alpha between the stored and the current analyses"),
    ("score_nltk.py", [], "dependency graphs:"),
    ("judgments_analysis.py", [], "MACE competence"),
    ("project_report.py", ["{tmp}/report.html"], "wrote"),
    ("make_judgments.py", ["{tmp}/j.jsonl", "--items", "20"], "wrote 20 items"),
])
def test_examples_run(script, args, expect, tmp_path):
    args = [a.format(tmp=tmp_path) for a in args]
    completed = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                               timeout=300)
    assert completed.returncode == 0, completed.stderr
    assert expect in completed.stdout
