"""Discourse agreement (Mírovský, Mladová & Zikánová 2010) on the Copenhagen Dependency
Treebank's discourse files (issue 30): every text with two or more annotators' DTAG files
``LANG/NNNN-LANG-disc-ANNOTATOR.tag``, pairwise figures pooled over the texts.

    python benchmarks/bench_discourse_cdt.py CDT_FOLDER [--lang da it] [--skip-empty] [--json OUT]

CDT_FOLDER holds the treebank's language folders (``da/``, ``it/``, ...), as checked out from
github.com/mbkromann/copenhagen-dependency-treebank. A text whose annotators' files hold
different words cannot be compared node by node: it is listed with the reason.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections import defaultdict
from pathlib import Path

from spacy_agreement.adapters.dtag_discourse import cdt_name
from spacy_agreement.errors import DiscourseError, UndefinedMetricWarning
from spacy_agreement.evaluation.discourse.arrows import corpus_agreement, load_discourse, merge_documents
from spacy_agreement.evaluation.discourse.report import corpus_text
from spacy_agreement.evaluation.settings import DiscourseSettings


def run(folder: Path, lang: str, settings: DiscourseSettings):
    groups = defaultdict(list)
    for path in sorted((folder / lang).glob(f"*-{lang}-disc-*.tag")):
        groups[cdt_name(path)[0]].append(path)
    documents, unreadable = [], []
    for text, files in sorted(groups.items()):
        if len(files) < 2:
            continue
        try:
            documents.append((text, merge_documents([load_discourse(f, "dtag-discourse") for f in files])))
        except DiscourseError as exc:
            unreadable.append((text, str(exc)))
    result = corpus_agreement(documents, settings)
    result.skipped.extend((text, "annotators' files hold different words") for text, _ in unreadable)
    return result, unreadable


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--lang", nargs="+", default=["da", "it", "es", "en", "de"])
    parser.add_argument("--skip-empty", action="store_true", help="leave out annotator files without discourse arcs")
    parser.add_argument("--json", type=Path, help="write every figure as JSON here")
    args = parser.parse_args(argv)
    settings = DiscourseSettings(skip_empty=args.skip_empty)
    out = {}
    for lang in args.lang:
        if not (args.folder / lang).is_dir():
            continue
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)  # single-type pairs: kappa n/a, counted as such
            try:
                result, unreadable = run(args.folder, lang, settings)
            except DiscourseError as exc:
                print(f"== {lang}: {exc}")
                continue
            print(f"== {lang} ({time.perf_counter() - start:.1f} s)")
            print(corpus_text(result, confusion=False))
            for text, why in unreadable:
                print(f"  not compared: {text}: {why}")
            out[lang] = result.to_dict()
    print(f"\nsignature: {settings.signature()}")
    if args.json:
        args.json.write_text(json.dumps({"signature": settings.signature(), **out}, indent=1, default=str,
                                        allow_nan=True), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
