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

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections, self.items, self.svgs, self.differs = [], [], 0, 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self.sections.append(attrs.get("id"))
        if tag == "div" and attrs.get("data-item"):
            self.items.append(attrs["data-item"])
        if tag == "svg":
            self.svgs += 1
        if tag == "path" and "differs" in (attrs.get("class") or "").split():
            self.differs += 1


def overlapping(boxes):
    """Pairs of boxes (page coordinates) that overlap by more than half a pixel."""
    boxes = sorted(boxes, key=lambda b: b["top"])
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if b["top"] >= a["bottom"] - 0.5:
                break
            if min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and \
                    min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5:
                found.append((a["text"], b["text"]))
    return found


@pytest.mark.slow
def test_report_on_cdt_in_a_browser(iaa, tmp_path):
    """Issue 16's acceptance: the CDT (da) report, as a team lead opens it at 1400 px."""
    files = [str(iaa / "cdt/da-lotte.conll"), str(iaa / "cdt/da-morten.conll")]
    corpus = sa.load_parallel_files(files)
    out = tmp_path / "report.html"
    result = CliRunner().invoke(app, ["report", *files, "--html", str(out), "--items", "12", "--json"])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.stderr and "12 items drawn" in result.stderr and "KiB" in result.stderr
    page = out.read_text(encoding="utf-8")
    parsed = Collect()
    parsed.feed(page)
    assert parsed.sections == ["summary", "items", "annotators", "confusions", "plots", "layers"]
    alpha = sa.alpha(corpus)
    # ranked by mean squared δnorm (long sentences do not come first for their length)
    column = list(alpha.alphas).index("norm")
    order = sorted(range(len(alpha.item_names)), key=lambda i: -alpha.item_disagreement[i, column])
    assert parsed.items == [alpha.item_names[i] for i in order[:12]]
    assert parsed.svgs == 12 and parsed.differs > 12  # one picture per item, both analyses in it
    assert "95.7" in page and "84.7" in page and "90.4" in page  # α plain, α diff (Table 2), LAS, in %
    assert "data:image/png;base64," in page and "sent_id" not in page  # CDT has no sent_ids: file and line
    assert "da-lotte.conll:" in page
    from ..browser import render_in_chromium, require_chromium

    require_chromium()
    seen = render_in_chromium(out, width=1400, selectors=("div.item:nth-of-type(-n+5) path.arc.differs",
                                                          "text.label", "svg.sa-parse"),
                              screenshot=tmp_path / "report.png")
    assert seen["console_errors"] == []
    differing = seen["boxes"]["div.item:nth-of-type(-n+5) path.arc.differs"]
    assert differing and all(0 <= b["left"] and b["right"] <= seen["viewport_width"] for b in differing)
    assert seen["scroll_width"] <= seen["viewport_width"]  # nothing hidden behind a horizontal scroll bar
    assert overlapping(seen["boxes"]["text.label"]) == []
    assert seen["screenshot"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_on_phrase_trees_draws_them_and_colours_words(tmp_path):
    base = Path(sa.__file__).parent / "data" / "demo" / "phrase"
    corpus = sa.load_parallel_files(sorted(base.glob("*.tree")), "bracket")
    page = html_report(corpus, items=10)
    assert page.count('class="item"') == 3  # the three sentences the annotators disagree on
    assert page.count("<svg") == 3 and 'class="bracket differs"' in page and 'class="scored"' in page
    assert "It waited" in page  # the item's text
    out = tmp_path / "phrase.html"
    out.write_text(page, encoding="utf-8")
    from ..browser import chromium_path, render_in_chromium

    if chromium_path() is None:
        pytest.skip("headless Chromium not installed (apt-get install chromium); .ci/run installs it")
    seen = render_in_chromium(out, selectors=("svg.sa-parse rect", "text.label"))
    assert seen["console_errors"] == [] and len(seen["boxes"]["svg.sa-parse rect"]) > 0
    assert overlapping(seen["boxes"]["text.label"]) == []


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
