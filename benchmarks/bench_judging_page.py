"""The judging page (issue 41) on the data released with Plank et al. (2015): how many sentences the
paper's selection rule keeps, against the paper's counts, and how large a page of 500 items is and
how fast it opens in Chromium.

    python benchmarks/bench_judging_page.py [PLANK_FOLDER] [--lang en] [--loads 5] [--json OUT]
    python benchmarks/bench_judging_page.py --scale 200,2000,10000   # generation time and memory (issue 51)

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
3. **Scale** (``--scale N,N,...``, issue 51): generated systems and gold of sentences of 8 to 39 words
   (mean 23, as UD English-GUM's), the two systems each changing 8 % of the heads and relations; for
   each N, ``judge A B --gold GOLD --html PAGE --items N`` in a fresh process: wall time and peak
   memory (``ru_maxrss``) of the whole command, the page's and the key's sizes.
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


def write_generated(folder: Path, n: int, seed: int = 0) -> tuple:
    """Gold, A and B of ``n`` generated sentences (section 3 of the module docstring)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    relations = ["nsubj", "obj", "det", "amod", "obl", "case", "advmod", "conj"]
    blocks: list = [[], [], []]
    for k in range(n):
        m = int(rng.integers(8, 40))
        words = [f"w{int(x)}" for x in rng.integers(0, 5000, m - 1)] + ["."]
        heads = [0] + [int(rng.integers(1, i + 1)) for i in range(1, m)]
        labels = ["root"] + [relations[int(rng.integers(len(relations)))] for _ in range(m - 1)]
        for which in range(3):
            h, r = list(heads), list(labels)
            for i in range(1, m - 1):
                if which and rng.random() < 0.08:
                    h[i] = int(rng.integers(1, i + 1))
                if which and rng.random() < 0.08:
                    r[i] = "dep"
            lines = [f"# sent_id = g{k}", f"# text = {' '.join(words)}"]
            lines += [f"{i}\t{w}\t_\t{'PUNCT' if w == '.' else 'NOUN'}\t_\t_\t{x}\t{'punct' if w == '.' else y}\t_\t_"
                      for i, (w, x, y) in enumerate(zip(words, h, r), start=1)]
            blocks[which].append("\n".join(lines) + "\n")
    paths = []
    for which, name in enumerate(("gold.conllu", "a.conllu", "b.conllu")):
        (folder / name).write_text("\n".join(blocks[which]) + "\n", encoding="utf-8")
        paths.append(folder / name)
    return tuple(paths)


def one_size(folder: Path, items: int) -> dict:
    """``judge`` on the generated files in this process: its time, peak memory, sizes."""
    import resource

    from spacy_agreement.report.judging_page import judge

    gold, a, b = folder / "gold.conllu", folder / "a.conllu", folder / "b.conllu"
    html = folder / f"page-{items}.html"
    start = time.perf_counter()
    page = judge(a, b, gold=gold, html=html, items=items)
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"items": len(page.selection.items), "seconds": elapsed, "peak_bytes": peak,
            "page_bytes": html.stat().st_size,
            "key_bytes": html.with_suffix(".key.json").stat().st_size if html.with_suffix(".key.json").exists() else 0}


def scale(sizes: list) -> int:
    import os
    import platform
    import subprocess

    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print("   items   seconds (process)   peak MB   page MB   key MB")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_generated(folder, int(max(sizes) * 1.05) + 10)
        for n in sizes:
            start = time.perf_counter()
            done = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", str(folder), str(n)],
                                  capture_output=True, text=True, check=True)
            wall = time.perf_counter() - start
            r = json.loads(done.stdout.strip().splitlines()[-1])
            print(f"{r['items']:8d}   {r['seconds']:7.2f} ({wall:6.2f})   {r['peak_bytes'] / 1e6:7.0f}   "
                  f"{r['page_bytes'] / 1e6:7.1f}   {r['key_bytes'] / 1e6:6.1f}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--lang", nargs="*", default=list(LANGUAGES))
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--scale", help="comma-separated numbers of items: generation time and memory")
    parser.add_argument("--one", nargs=2, metavar=("FOLDER", "ITEMS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one_size(Path(args.one[0]), int(args.one[1]))))
        return 0
    if args.scale:
        return scale([int(n) for n in args.scale.split(",")])
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
