"""The judging page for real judges (issue 51), in headless Chromium driven by Playwright
(:func:`tests.browser.playwright_chromium`; skipped, saying why, without Chromium or Playwright).

Blind by construction (no system file name and no gold in the page or an export; the key beside
the page maps the choices back), nothing lost (two tabs of one judge merged, a click never leaves
the focus on an answer, names compared case-insensitively, an empty name field with "continue
as"), undo, skip, time per item, readable long sentences at 1280 px and on a phone, and
``judgments --key`` on exports made by clicking: the wins per judge and the sign test, checked
against counts and a binomial test written here."""
import base64
import gzip
import json
import math
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_agreement.cli import app
from spacy_agreement.report.judging_page import judge_order, key_path

from ..browser import playwright_chromium
from .judging_data import DIFFERING, write_systems

runner = CliRunner()


def write_many(folder: Path, n: int, length: int = 6):
    """Gold, A and B of ``n`` sentences of ``length`` words (chains), A and B differing on every one."""
    texts = []
    for which in range(3):
        blocks = []
        for k in range(n):
            words = [f"w{k}x{i}" for i in range(length - 1)] + ["."]
            lines = [f"# sent_id = t{k}", f"# text = {' '.join(words)}"]
            for i, word in enumerate(words, start=1):
                head = 0 if i == 1 else i - 1
                rel = "root" if i == 1 else ("punct" if word == "." else "dep")
                if which == 2 and i == 2:
                    rel = "obj"  # B differs from gold and A on the second word
                if which == 1 and k % 3 == 0 and i == 3:
                    rel = "nmod"  # A differs from the gold on some sentences
                lines.append(f"{i}\t{word}\t_\t{'PUNCT' if word == '.' else 'NOUN'}\t_\t_\t{head}\t{rel}\t_\t_")
            blocks.append("\n".join(lines) + "\n")
        texts.append("\n".join(blocks) + "\n")
    paths = []
    for name, text in zip(("gold.conllu", "sysA.conllu", "sysB.conllu"), texts):
        (folder / name).write_text(text, encoding="utf-8")
        paths.append(folder / name)
    return paths


def make_page(folder: Path, gold: Path, a: Path, b: Path, *options: str, name: str = "page.html"):
    html = folder / name
    result = runner.invoke(app, ["judge", str(a), str(b), "--gold", str(gold), "--html", str(html), *options])
    assert result.exit_code == 0, result.output
    key = json.loads(Path(key_path(html)).read_text(encoding="utf-8"))
    return html, key


def payload(html: Path) -> dict:
    packed = re.search(r'<script type="text/plain" id="judging-data">([^<]*)</script>',
                       html.read_text(encoding="utf-8")).group(1)
    return json.loads(gzip.decompress(base64.b64decode(packed)))


def open_page(context, url, problems):
    page = context.new_page()
    page.on("dialog", lambda dialog: (problems.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda message: message.type == "error" and problems.append(f"console: {message.text}"))
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes]")
    return page


def start(page, judge):
    page.get_by_label("Judge").fill(judge)
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector('[data-analysis="1"] svg')


def export(page, target: Path) -> Path:
    with page.expect_download() as caught:
        page.locator("#export-done").click()
    caught.value.save_as(target)
    return target


def shown_item(page) -> str:
    return page.locator("#judging").get_attribute("data-item")


def progress(page) -> str:
    return page.locator("#progress").text_content()


def binomial_two_sided(k: int, n: int) -> float:
    """The two-sided sign test written out: the probability, under p = 1/2, of an outcome as
    unlikely as or less likely than k successes of n."""
    probs = [math.comb(n, i) / 2 ** n for i in range(n + 1)]
    return min(1.0, sum(p for p in probs if p <= probs[k] * (1 + 1e-7)))


def test_blind_page_clicks_export_and_judgments_key(tmp_path):
    gold, a, b = write_systems(tmp_path)[0], *write_systems(tmp_path)[1:]
    html, key = make_page(tmp_path, gold, a, b)
    first = {item["id"]: item["first"] for item in key["items"]}
    assert key["systems"]["A"].endswith("malt.conllu") and key["gold"].endswith("gold.conllu")
    assert key["page"] == re.search(r'data-page="([0-9a-f]+)"', html.read_text(encoding="utf-8")).group(1)
    assert sorted(first.values()).count("A") in (2, 3)  # balanced sides
    source = html.read_text(encoding="utf-8")
    data = payload(html)
    for text in (source, json.dumps(data)):
        assert "malt" not in text and "mst" not in text and "systems" not in text
    assert all(set(item["pictures"]) == {"1", "2"} for item in data["items"])  # no gold without --show-gold
    assert "gold" not in json.dumps(data) and "heads" not in json.dumps(data)
    n = len(DIFFERING)
    problems = []
    with playwright_chromium() as browser:
        context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
        page = open_page(context, html.resolve().as_uri(), problems)
        # alice clicks the analysis of system A (the figure, or its button), except one skip
        start(page, "Alice")
        order = []
        for k in range(n):
            item = shown_item(page)
            order.append(item)
            slot = "1" if first[item] == "A" else "2"
            page.wait_for_timeout(30)
            if k == 3:
                page.get_by_role("button", name=re.compile("Skip")).click()
            elif k % 2:
                page.locator(f'figure[data-analysis="{slot}"]').click()  # on the picture's box, its middle
            else:
                page.locator(f'button[data-choice="{slot}"]').click()
            # a locator's wait runs in Playwright's own world: the page's CSP (no eval) does not stop it
            from playwright.sync_api import expect

            expect(page.locator("#progress")).to_contain_text(re.compile(f"{k + 1} judged|skipped"))
        assert order == [DIFFERING[i] for i in judge_order(key["page"], "alice", n)]  # the script's order is Python's
        assert progress(page) == f"All {n} items \u00b7 {n - 1} judged \u00b7 1 skipped"
        alice = export(page, tmp_path / "judgments-alice.jsonl")
        # bob: always analysis 2 by button, one tie
        page.reload()
        page.wait_for_selector("body[data-ready=yes]")
        start(page, "bob")
        bob_first = []
        for k in range(n):
            bob_first.append(first[shown_item(page)])
            page.locator('button[data-choice="tie"]' if k == 0 else 'button[data-choice="2"]').click()
        bob = export(page, tmp_path / "judgments-bob.jsonl")
        context.close()
    assert problems == []
    for path in (alice, bob):
        text = path.read_text(encoding="utf-8")
        assert "malt" not in text and "mst" not in text and "gold" not in text and '"A"' not in text
    header, *lines = [json.loads(line) for line in alice.read_text(encoding="utf-8").splitlines()]
    assert header["spacy_agreement_judgments"] == "0.4" and header["page"] == key["page"]
    assert len(lines) == n and all(set(line) == {"page", "item", "judge", "choice", "comment", "ms"} for line in lines)
    assert all(line["ms"] > 0 and line["judge"] == "Alice" for line in lines)
    assert sorted(line["choice"] for line in lines).count("skip") == 1

    # the answer: alice gave every judged item to A; bob gave to B the items where A was first
    expected_bob_a = sum(1 for f in bob_first[1:] if f == "B")
    expected_bob_b = sum(1 for f in bob_first[1:] if f == "A")
    result = runner.invoke(app, ["judgments", str(alice), str(bob), "--key", key_path(html), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["won_by_A_Alice"], out["won_by_B_Alice"], out["ties_Alice"], out["skips_Alice"]) == (n - 1, 0, 0, 1)
    assert (out["won_by_A_bob"], out["won_by_B_bob"], out["ties_bob"]) == (expected_bob_a, expected_bob_b, 1)
    assert out["sign_test_p_Alice"] == pytest.approx(binomial_two_sided(n - 1, n - 1))
    assert out["sign_test_p_bob"] == pytest.approx(binomial_two_sided(expected_bob_a, expected_bob_a + expected_bob_b))
    assert out["shared_items_Alice_bob"] == n - 1
    assert out["system_a"] == "malt.conllu" and out["judge_ms_Alice"] > 0
    text = runner.invoke(app, ["judgments", str(alice), str(bob), "--key", key_path(html)]).stdout
    assert "Which analysis the judges prefer (A: malt.conllu, B: mst.conllu" in text
    assert re.search(rf"Alice\s+{n - 1}\s+0\s+0\s+1\s", text)
    assert f"Alice and bob: {n - 1} items judged by both" in text
    # without the key: says how to give it
    refused = runner.invoke(app, ["judgments", str(alice), str(bob)])
    assert refused.exit_code == 1 and "--key PAGE.key.json" in refused.output


def test_two_tabs_of_one_judge_are_merged(tmp_path):
    gold, a, b = write_many(tmp_path, 10)
    html, key = make_page(tmp_path, gold, a, b)
    problems = []
    with playwright_chromium() as browser:
        context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
        one = open_page(context, html.resolve().as_uri(), problems)
        start(one, "carol")
        for _ in range(4):
            one.keyboard.press("1")
        two = open_page(context, html.resolve().as_uri(), problems)
        start(two, "Carol")  # the same judge, another spelling
        assert progress(two) == "Item 5 of 10 \u00b7 4 judged"
        two.keyboard.press("2")
        two.keyboard.press("2")
        from playwright.sync_api import expect

        expect(one.locator("#progress")).to_contain_text("6 judged")  # the other tab's answers, as they come
        one.keyboard.press("1")  # the first tab goes on after the other's answers, not over them
        exported = export(one, tmp_path / "one.jsonl")
        also = export(two, tmp_path / "two.jsonl")
        context.close()
    assert problems == []
    lines = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()[1:]]
    assert len(lines) == 7 and len({line["item"] for line in lines}) == 7
    assert sorted(line["choice"] for line in lines) == ["1"] * 5 + ["2"] * 2
    assert len(also.read_text(encoding="utf-8").splitlines()) == 8


def test_click_then_space_undo_skip_time_help_and_names(tmp_path):
    gold, a, b = write_many(tmp_path, 6)
    html, key = make_page(tmp_path, gold, a, b)
    problems = []
    with playwright_chromium() as browser:
        context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
        page = open_page(context, html.resolve().as_uri(), problems)
        assert page.get_by_label("Judge").input_value() == "" and not page.locator("#continue-button").is_visible()
        page.get_by_label("Judge").fill("  Dana ")
        page.get_by_label("Judge").press("Enter")  # Enter in the name field starts, and the keys then judge
        page.wait_for_selector('[data-analysis="1"] svg')
        page.keyboard.press("1")
        assert progress(page) == "Item 2 of 6 \u00b7 1 judged"
        page.keyboard.press("u")
        page.locator('button[data-choice="2"]').click()
        assert progress(page) == "Item 2 of 6 \u00b7 1 judged"
        assert page.evaluate("document.activeElement.tagName") not in ("BUTTON", "FIGURE")
        page.keyboard.press("Space")
        page.keyboard.press("Enter")
        assert progress(page) == "Item 2 of 6 \u00b7 1 judged"  # Space after a click answers nothing
        page.keyboard.press("u")  # undo: back to item 1, its answer gone
        assert progress(page) == "Item 1 of 6 \u00b7 0 judged"
        page.keyboard.press("s")
        assert progress(page) == "Item 2 of 6 \u00b7 0 judged \u00b7 1 skipped"
        page.keyboard.press("Backspace")
        assert progress(page) == "Item 1 of 6 \u00b7 0 judged"
        page.wait_for_timeout(400)
        page.keyboard.press("0")
        page.keyboard.press("?")
        assert page.locator("#help").is_visible()
        page.keyboard.press("Escape")
        assert not page.locator("#help").is_visible()
        page.get_by_role("button", name=re.compile("Help")).click()
        assert page.locator("#help").is_visible()
        page.locator("#help-close").click()
        # a new visitor: the field is empty, "continue as" offers the last judge; "dana" is Dana
        page.reload()
        page.wait_for_selector("body[data-ready=yes]")
        assert page.get_by_label("Judge").input_value() == ""
        assert page.locator("#continue-button").text_content() == "Continue as Dana"
        start(page, "DANA")
        assert progress(page) == "Item 2 of 6 \u00b7 1 judged"
        exported = export(page, tmp_path / "dana.jsonl")
        context.close()
    assert problems == []
    header, *lines = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]
    assert [line["choice"] for line in lines] == ["tie"] and lines[0]["ms"] >= 350  # time summed over visits


def test_empty_export_is_valid_and_mixed_pages_are_refused(tmp_path):
    gold, a, b = write_systems(tmp_path)
    html, key = make_page(tmp_path, gold, a, b)
    other, other_key = make_page(tmp_path, gold, a, b, "--no-ties", name="other.html")
    assert other_key["page"] != key["page"]  # --no-ties changes the study, so the page id
    problems = []
    with playwright_chromium() as browser:
        context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
        page = open_page(context, html.resolve().as_uri(), problems)
        start(page, "erin")
        empty = export(page, tmp_path / "empty.jsonl")
        page.keyboard.press("1")
        page.keyboard.press("2")
        full = export(page, tmp_path / "full.jsonl")
        page = open_page(context, other.resolve().as_uri(), problems)
        start(page, "erin")
        assert progress(page) == "Item 1 of 5 \u00b7 0 judged"  # nothing inherited from the other page
        page.keyboard.press("1")
        elsewhere = export(page, tmp_path / "other.jsonl")
        context.close()
    assert problems == []
    assert len(empty.read_text(encoding="utf-8").splitlines()) == 1
    result = runner.invoke(app, ["judgments", str(empty), str(full), "--key", key_path(html), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["items"] == 2
    mixed = runner.invoke(app, ["judgments", str(full), str(elsewhere), "--key", key_path(html)])
    assert mixed.exit_code == 1
    assert key["page"] in mixed.output and other_key["page"] in mixed.output and "--allow-mixed" in mixed.output
    pooled = runner.invoke(app, ["judgments", str(full), str(elsewhere), "--key", key_path(html), "--key",
                                 key_path(other), "--allow-mixed", "--json"])
    assert pooled.exit_code == 0, pooled.output
    assert json.loads(pooled.stdout)["items"] == 3


def _sizes(page, selector):
    return page.evaluate(f"""Array.from(document.querySelectorAll('{selector}'), (el) => el.getBoundingClientRect().height)""")


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}],
                         ids=["1280px", "phone"])
def test_a_60_token_sentence_is_readable_and_scrolls_in_its_box(tmp_path, viewport):
    gold, a, b = write_many(tmp_path, 2, length=60)
    html, key = make_page(tmp_path, gold, a, b, "--show-gold")
    data = payload(html)
    assert all(set(item["pictures"]) == {"1", "2", "gold"} for item in data["items"])  # the gold, as asked
    problems = []
    with playwright_chromium() as browser:
        context = browser.new_context(accept_downloads=True, viewport=viewport)
        page = open_page(context, html.resolve().as_uri(), problems)
        start(page, "finn")
        for selector in ('[data-analysis="1"] text.label', '[data-analysis="1"] text.word', '#gold text.label'):
            heights = _sizes(page, selector)
            assert len(heights) >= 59 and min(heights) >= 11, (selector, min(heights))
        box = page.locator('[data-analysis="1"] .picture')
        assert box.evaluate("(el) => el.scrollWidth > el.clientWidth + 100")  # it scrolls inside its box
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")
        box.evaluate("(el) => { el.scrollLeft = 300; el.dispatchEvent(new Event('scroll')); }")
        page.wait_for_timeout(50)
        assert page.locator('[data-analysis="2"] .picture').evaluate("(el) => el.scrollLeft") == pytest.approx(300, abs=2)
        assert page.locator("#gold .picture").evaluate("(el) => el.scrollLeft") == pytest.approx(300, abs=2)
        before = min(_sizes(page, '[data-analysis="1"] text.label'))
        page.locator("#zoom-in").click()
        assert min(_sizes(page, '[data-analysis="1"] text.label')) > before
        for _ in range(8):
            page.locator("#zoom-out").click()
        assert min(_sizes(page, '[data-analysis="1"] text.label')) >= 11  # the smallest zoom stays readable
        assert "differs from the gold" in page.locator("#legend").text_content()
        context.close()
    assert problems == []
