"""The judging page's screenshot for the docs (``docs/images/judging-page.png``) and the whole loop
of the guide's "Collect judgments" section, on five sentences written for it: ``judge`` makes the
page and its key, two judges (driven by Playwright in the system's headless Chromium) judge every
item and export, and ``judgments --key`` reads their exports; its output is printed (the guide shows it).

    python benchmarks/make_judging_screenshot.py [--png docs/images/judging-page.png] [--keep FOLDER]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# words, UPOS, then (heads, relations) of the gold, of parser A ("malt") and of parser B ("mst")
SENTENCES = {
    "pp-1": ("She saw the man with a telescope .".split(), "PRON VERB DET NOUN ADP DET NOUN PUNCT".split(),
             ([2, 0, 4, 2, 7, 7, 2, 2], "nsubj root det obj case det obl punct".split()),
             ([2, 0, 4, 2, 7, 7, 2, 2], "nsubj root det obj case det obl punct".split()),
             ([2, 0, 4, 2, 7, 7, 4, 2], "nsubj root det obj case det nmod punct".split())),
    "pp-2": ("I ate the pizza with anchovies .".split(), "PRON VERB DET NOUN ADP NOUN PUNCT".split(),
             ([2, 0, 4, 2, 6, 4, 2], "nsubj root det obj case nmod punct".split()),
             ([2, 0, 4, 2, 6, 2, 2], "nsubj root det obj case obl punct".split()),
             ([2, 0, 4, 2, 6, 4, 2], "nsubj root det obj case nmod punct".split())),
    "garden": ("The old man the boats .".split(), "DET NOUN VERB DET NOUN PUNCT".split(),
               ([2, 3, 0, 5, 3, 3], "det nsubj root det obj punct".split()),
               ([3, 3, 0, 5, 3, 3], "det amod root det obj punct".split()),
               ([2, 3, 0, 5, 3, 3], "det nsubj root det obj punct".split())),
    "time": ("They discussed the plan on Monday .".split(), "PRON VERB DET NOUN ADP PROPN PUNCT".split(),
             ([2, 0, 4, 2, 6, 2, 2], "nsubj root det obj case obl punct".split()),
             ([2, 0, 4, 2, 6, 2, 2], "nsubj root det obj case obl:tmod punct".split()),
             ([2, 0, 4, 2, 6, 4, 2], "nsubj root det obj case nmod punct".split())),
    "same": ("It rains .".split(), "PRON VERB PUNCT".split(),
             ([2, 0, 2], "expl root punct".split()), ([2, 0, 2], "expl root punct".split()),
             ([2, 0, 1], "expl root punct".split())),
}


def write(folder: Path) -> list:
    paths = []
    for which, name in enumerate(("gold.conllu", "malt.conllu", "mst.conllu")):
        blocks = []
        for sent_id, (words, upos, *analyses) in SENTENCES.items():
            heads, relations = analyses[which]
            blocks.append(f"# sent_id = {sent_id}\n# text = {' '.join(words)}\n" + "".join(
                f"{k}\t{w}\t_\t{u}\t_\t_\t{h}\t{r}\t_\t_\n"
                for k, (w, u, h, r) in enumerate(zip(words, upos, heads, relations), start=1)))
        (folder / name).write_text("\n".join(blocks) + "\n", encoding="utf-8")
        paths.append(folder / name)
    return paths


def run(args, cwd):
    done = subprocess.run([sys.executable, "-m", "spacy_agreement.cli", *args], cwd=cwd, capture_output=True,
                          text=True)
    print(f"$ spacy-agreement {' '.join(args)}\n{(done.stdout + done.stderr).rstrip()}\n")
    done.check_returncode()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--png", type=Path, default=ROOT / "docs" / "images" / "judging-page.png")
    parser.add_argument("--keep", type=Path, help="keep the files here")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    import json

    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        write(folder)
        run(["judge", "malt.conllu", "mst.conllu", "--gold", "gold.conllu", "--html", "judge.html"], folder)
        # the key (kept from the judges) says which system each item shows as analysis 1
        first = {item["id"]: item["first"] for item in
                 json.loads((folder / "judge.key.json").read_text(encoding="utf-8"))["items"]}
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            # the system each judge prefers, item by item ("=": equally good, "s": skip)
            for judge, prefers in (("alice", {"garden": "B", "pp-1": "A", "pp-2": "B", "time": "A"}),
                                   ("bob", {"garden": "B", "pp-1": "A", "pp-2": "=", "time": "B"})):
                context = browser.new_context(accept_downloads=True, viewport={"width": 900, "height": 860},
                                              device_scale_factor=1)
                page = context.new_page()
                page.goto((folder / "judge.html").resolve().as_uri())
                page.wait_for_selector("body[data-ready=yes]")
                page.get_by_label("Judge").fill(judge)
                page.get_by_role("button", name="Start").click()
                for _ in prefers:
                    page.wait_for_selector('[data-analysis="2"] svg')
                    item = page.locator("#judging").get_attribute("data-item")
                    wanted = prefers[item]
                    key = "0" if wanted == "=" else "1" if first[item] == wanted else "2"
                    if judge == "alice" and item == "pp-2":
                        page.locator("#comment").fill("both attach 'with anchovies' somewhere plausible")
                        page.keyboard.press("Escape")
                    if judge == "alice" and item == "pp-1":
                        page.mouse.move(0, 0)  # no analysis under the pointer (it would show as hovered)
                        page.screenshot(path=str(args.png))
                    page.keyboard.press(key)
                with page.expect_download() as caught:
                    page.locator("#export-done").click()
                caught.value.save_as(folder / caught.value.suggested_filename)
                context.close()
            browser.close()
        run(["judgments", "judgments-alice.jsonl", "judgments-bob.jsonl", "--key", "judge.key.json",
             "--metric", "las", "--metric", "uas", "--metric", "la"], folder)
    print(f"screenshot: {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
