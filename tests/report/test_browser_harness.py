"""The browser check of tests/browser.py on a page whose layout is known: boxes, widths,
console errors (console.error and uncaught exceptions), a CSP that forbids inline scripts,
and the full-page screenshot."""
import struct

import pytest

from ..browser import chromium_path, console_lines, instrument, render_in_chromium, require_chromium

PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>fixture</title>
<style>
  html, body { margin: 0; padding: 0; background: #fff; font-family: sans-serif; }
  .box { position: absolute; }
  #first { left: 10px; top: 20px; width: 100px; height: 50px; background: #c33; }
  #second { left: 200px; top: 300px; width: 40px; height: 30px; background: #36c; }
  #tall { position: absolute; left: 0; top: 2400px; width: 10px; height: 10px; background: #000; }
</style></head>
<body>
<div id="first" class="box red">first &amp; one</div>
<div id="second" class="box">second</div>
<svg id="picture" width="300" height="100" style="position:absolute; left:500px; top:100px">
  <text id="label" class="arc-label" x="20" y="50" font-size="20">nsubj</text>
</svg>
<div id="tall"></div>
<script>console.log("just a log"); console.error("boom");</script>
<script>throw new Error("kaput");</script>
</body></html>
"""


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    require_chromium()
    folder = tmp_path_factory.mktemp("page")
    page = folder / "fixture.html"
    page.write_text(PAGE, encoding="utf-8")
    result = render_in_chromium(page, width=900, height=700, selectors=("#first", ".box", "#label", "#missing"))
    assert page.read_text(encoding="utf-8") == PAGE  # a copy was instrumented, not the page
    return result


def test_boxes_come_back_in_page_pixels(rendered):
    (first,) = rendered["boxes"]["#first"]
    assert (first["left"], first["top"], first["right"], first["bottom"]) == (10, 20, 110, 70)
    assert first["text"] == "first & one" and first["classes"] == ["box", "red"]
    boxes = rendered["boxes"][".box"]
    assert [(b["left"], b["top"], b["width"], b["height"]) for b in boxes] == [(10, 20, 100, 50), (200, 300, 40, 30)]
    (label,) = rendered["boxes"]["#label"]
    assert label["tag"] == "text" and label["text"] == "nsubj" and label["classes"] == ["arc-label"]
    assert 500 <= label["left"] < label["right"] <= 800 and 100 <= label["top"] < label["bottom"] <= 200
    assert rendered["boxes"]["#missing"] == []


def test_widths_and_height(rendered):
    assert rendered["viewport_width"] == 900
    assert rendered["scroll_width"] == 900  # nothing sticks out to the right
    assert rendered["scroll_height"] >= 2410


def test_console_errors_are_captured(rendered):
    errors = rendered["console_errors"]
    assert "boom" in errors
    assert any(e.startswith("Uncaught") and "kaput" in e for e in errors)
    assert not any("just a log" in e for e in errors)
    assert len(errors) == 2, errors  # each once, though both the page hook and Chromium's log saw them
    logged = [line["message"] for line in rendered["console_messages"]]
    assert "just a log" in logged  # Chromium's log has every level


def test_the_screenshot_is_the_whole_page(rendered):
    shot = rendered["screenshot"]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width == 900 and height >= 2410  # as wide as the window, as tall as the page


def test_a_policy_against_inline_scripts_still_lets_the_check_run(tmp_path):
    require_chromium()
    page = tmp_path / "csp.html"
    page.write_text(PAGE.replace('<meta charset="utf-8">', '<meta charset="utf-8"><meta http-equiv='
                                 '"Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">'),
                    encoding="utf-8")
    result = render_in_chromium(page, width=900, height=700, selectors=("#second",))
    assert result["boxes"]["#second"][0]["left"] == 200
    # the page's own scripts stay blocked, as for a reader, and that is reported
    assert any("Content-Security-Policy blocked" in e for e in result["console_errors"])
    assert "boom" not in result["console_errors"]


def test_instrumenting_and_log_parsing_need_no_browser():
    page = instrument(PAGE, ["#a"])
    assert page.index("__browserCheckErrors") < page.index("<style>")  # the hook before the page's scripts
    assert page.index('"#a"') > page.index("kaput") and page.rstrip().endswith("</body></html>")
    log = ('[1:1:1123/120756.340581:INFO:CONSOLE:2] "boom", source: file:///p.html (2)\n'
           "noise\n"
           '[1:1:1123/120756.340624:INFO:CONSOLE(3)] "Uncaught Error: kaput", source: file:///p.html (3)\n')
    assert [(line["message"], line["line"]) for line in console_lines(log)] == [("boom", 2), ("Uncaught Error: kaput", 3)]
    assert chromium_path() is None or chromium_path().startswith("/")
