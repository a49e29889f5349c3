"""The judging page (issue 41) on the data released with Plank et al. (2015): how many sentences the
paper's selection rule keeps, against the paper's counts, and how large a page of 500 items is and
how fast it opens in Chromium.

    python benchmarks/bench_judging_page.py [PLANK_FOLDER] [--lang en] [--loads 5] [--json OUT]

PLANK_FOLDER holds the release's language folders (``da/``, ``de/``, ``en/``, ``es/``, ``hr/``, each
``gold.conll``, ``parser1.conll`` (Malt), ``parser2.conll`` (MST)); default ``../shared/data/plank2015``
beside the checkout. Not copied into the repository.

1. **Selection.** For each language, ``judge parser1.conll parser2.conll --gold gold.conll``: the
   sentences whose two parses differ once punctuation (``--punct form``, the CoNLL-07 rule the paper
   evaluates with) is removed, beside the paper's 200 (184 for Spanish, §3 and footnote 4), and, for
   comparison, what other rules would keep (punctuation counted; heads only).
2. **Size and opening time.** The five languages' files joined (984 sentences), ``--items 500
   --seed 0``: the page's size, the time to build it, and the time from navigation until the page is
   ready to start (its data decompressed and parsed) and until the first item is drawn after
   "Start", in headless Chromium (the system's, driven by Playwright), median of ``--loads`` loads.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from spacy_agreement.evaluation.judgments.judging_items import select_judging_items
from spacy_agreement.evaluation.dependency.settings import is_punct_form
from spacy_agreement.report.judging_page import judging_page

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parents[1] / "shared" / "data" / "plank2015"
LANGUAGES = ("da", "de", "en", "es", "hr")
PAPER = {"da": 200, "de": 200, "en": 200, "es": 184, "hr": 200}  # §3, Table 1 SENT


def selection(folder: Path, lang: str) -> dict:
    d = folder / lang
    rule = select_judging_items(d / "parser1.conll", d / "parser2.conll", d / "gold.conll")  # --punct form
    every = select_judging_items(d / "parser1.conll", d / "parser2.conll", d / "gold.conll", all_items=True)
    counted = heads = 0
    for item in every.items:
        a, b = item.a, item.b
        counted += a.heads.tolist() != b.heads.tolist() or a.deprels != b.deprels  # punctuation counted
        kept = [not is_punct_form(w) for w in item.words]
        heads += any(x != y for x, y, k in zip(a.heads.tolist(), b.heads.tolist(), kept) if k)  # heads only
    return {"lang": lang, "sentences": rule.sentences, "differ": len(rule.items), "paper": PAPER[lang],
            "same": rule.identical, "differ_with_punct": counted, "differ_in_heads": heads}


def joined_files(folder: Path, work: Path) -> tuple:
    out = []
    for name in ("parser1", "parser2", "gold"):
        path = work / f"{name}.conll"
        path.write_text("".join((folder / lang / f"{name}.conll").read_text(encoding="utf-8").rstrip("\n") + "\n\n"
                                for lang in LANGUAGES), encoding="utf-8")
        out.append(path)
    return tuple(out)


def open_times(html: Path, loads: int) -> dict:
    from playwright.sync_api import sync_playwright

    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
                    None)
    if chromium is None:
        return {"skipped": "no Chromium on the PATH"}
    ready, first = [], []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for _ in range(loads):
            context = browser.new_context()
            page = context.new_page()
            start = time.perf_counter()
            page.goto(html.resolve().as_uri())
            page.wait_for_selector("body[data-ready=yes]")
            ready.append(time.perf_counter() - start)
            page.get_by_label("Judge").fill("bench")
            clicked = time.perf_counter()
            page.get_by_role("button", name="Start").click()
            page.wait_for_selector('[data-analysis="2"] svg')
            first.append(time.perf_counter() - clicked)
            context.close()
        browser.close()
    return {"ready_s": statistics.median(ready), "first_item_s": statistics.median(first),
            "ready_max_s": max(ready), "chromium": chromium}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--lang", nargs="*", default=list(LANGUAGES))
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"{args.folder}: not found (the Plank et al. 2015 release)", file=sys.stderr)
        return 1
    rows = [selection(args.folder, lang) for lang in args.lang]
    print("lang  sentences  differ  paper  same  differ (punct counted)  differ in heads")
    for r in rows:
        print(f"{r['lang']:<4}  {r['sentences']:9d}  {r['differ']:6d}  {r['paper']:5d}  {r['same']:4d}  "
              f"{r['differ_with_punct']:22d}  {r['differ_in_heads']:15d}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        a, b, gold = joined_files(args.folder, work)
        start = time.perf_counter()
        page = judging_page(a, b, gold, items=500, seed=0)
        built = time.perf_counter() - start
        html = work / "judge.html"
        page.write(html)
        size = html.stat().st_size
        timing = open_times(html, args.loads)
    words = sum(len(item.words) for item in page.selection.items) / len(page.selection.items)
    print(f"\npage of {len(page.selection.items)} items ({page.selection.candidates} candidates, {words:.1f} words "
          f"an item): {size / 1e6:.2f} MB, built in {built:.2f} s")
    if "skipped" in timing:
        print(f"opening: {timing['skipped']}")
    else:
        print(f"opening in headless Chromium ({timing['chromium']}), median of {args.loads}: ready to start "
              f"{timing['ready_s']:.3f} s (max {timing['ready_max_s']:.3f} s), first item drawn "
              f"{timing['first_item_s']:.3f} s after Start")
    if args.json:
        args.json.write_text(json.dumps({"selection": rows, "items": len(page.selection.items), "bytes": size,
                                         "build_s": built, **timing}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
