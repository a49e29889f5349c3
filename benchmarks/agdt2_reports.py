"""The AGDT 2 inter-coder agreement reports (issue 38) against the package's figures.

    python benchmarks/agdt2_reports.py TREEBANK_DATA [--json OUT]

TREEBANK_DATA is github.com/PerseusDL/treebank_data, as a checkout or as a bare git directory
(then read with ``git ls-tree`` / ``git show`` into a temporary folder). Every folder of
``AGDT2/corpus/stableannotations`` with an ``inter-coder_agreement*.md`` report and the two
annotators' files ``text_1st_annotator*.xml`` / ``text_2nd_annotator*.xml`` is compared: the
report's figures (morphology: ``postag``; UAA: ``head``; LAA: head and relation; LOA: ``relation``;
semantics: ``sg``; agreement as equal words / words, and Cohen's κ) against ``layers`` on the two
files, ``xpos``, ``head``, ``head_deprel``, ``deprel`` and ``misc.sg``:

* ``default``: the package's conventions (``spacy-agreement layers A B --layer xpos --layer head
  --layer head_deprel --layer deprel --misc sg``): items whose forms differ set aside, words not
  annotated (an empty relation) without a head and relation value;
* ``report``: ``--any-forms --unannotated value`` in addition, the reports' counting: every word of
  an item with as many words, an empty relation a value of its own.

A figure is equal when the counts are (agreement: equal words and words) or the κ prints the same
(the reports print κ as a double's shortest form; agreement as an 18-digit decimal, beyond a
double). Where it is not, the reason is the report's own way of counting that, applied to the
package's values, gives the report's figure to the printed digit: κ with the empty value left out of
the chance agreement, or words paired by id rather than by position ("?" if neither does). The
script prints a markdown table; a bare git directory is read into a temporary folder, removed after.
"""
from __future__ import annotations

import argparse
import glob
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np

import spacy_agreement as sa

ROOT = "AGDT2/corpus/stableannotations"
#: the report's sections in order, the layer that answers each, and whether it prints a κ
SECTIONS = (("Morphology", "xpos", True), ("UAA", "head", False), ("LAA", "head_deprel", False),
            ("LOA", "deprel", True), ("Semantics", "misc.sg", True))


def checkout(path: Path, work: Path) -> Path:
    """A folder holding ``AGDT2/``: ``path`` itself, or the files of a bare git directory copied into ``work``."""
    if (path / ROOT).is_dir():
        return path
    git = ["git", f"--git-dir={path}"]
    names = subprocess.run(git + ["ls-tree", "-r", "--name-only", "HEAD", ROOT], check=True, capture_output=True,
                           text=True).stdout.split()
    for name in names:
        if name.endswith((".md", ".xml")):
            target = work / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(subprocess.run(git + ["show", f"HEAD:{name}"], check=True, capture_output=True).stdout)
    return work


def report_figures(path: Path) -> List[Tuple[int, int, str, str]]:
    """The report's metrics tables in order: (words, equal words, agreement, κ as printed)."""
    text = path.read_text(encoding="utf-8")
    out = []
    for body in re.findall(r"<h3>Metrics</h3>\s*<thead>.*?</thead>\s*<tbody>(.*?)</tbody>", text, re.S):
        cells = [html.unescape(c).strip() for c in re.findall(r"<td>(.*?)</td>", body, re.S)]
        out.append((int(cells[0]), int(cells[1]), cells[3], cells[4]))
    return out


def _kappa(observed: float, a, b, leave_out: Optional[int] = None) -> float:
    """Cohen's κ of two rows of category codes (every unit coded by both) from ``observed``, the
    category ``leave_out`` (if any) left out of the chance agreement."""
    size = int(max(a.max(), b.max())) + 1
    counts = np.bincount(a, minlength=size) * np.bincount(b, minlength=size)
    if leave_out is not None:
        counts[leave_out] = 0
    expected = float(counts.sum()) / (a.size * a.size)
    return (observed - expected) / (1 - expected)


def package_figures(first: Path, second: Path, report_way: bool) -> Dict[str, Dict[str, object]]:
    """Per layer: words compared, equal words, observed agreement, Cohen's κ; and, for the notes,
    the figures the report's own ways of counting give from the same values: κ with the empty value
    (``""``; ``_``, an empty relation, under ``--unannotated value``) left out of the chance agreement,
    and agreement with the words whose ids differ in the two files counted as disagreements."""
    corpus = sa.load_parallel_files([first, second])
    options = {"same_forms": False, "unannotated": "value"} if report_way else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = sa.agreement_by_layer(corpus, layers=("xpos", "head", "head_deprel", "deprel"), misc=("sg",),
                                       per_feature=False, **options)
    names = result.annotators
    out: Dict[str, Dict[str, object]] = {}
    for name, layer in result.layers.items():
        data = result.data.layers[name]
        both = (data.codes[0] >= 0) & (data.codes[1] >= 0)
        a, b = data.codes[0][both], data.codes[1][both]
        units = [u for u, kept in zip(data.units, both) if kept]
        ids_differ = np.array([result.data.items[i][names[0]].ids[k] != result.data.items[i][names[1]].ids[k]
                               for i, k in units], dtype=bool)
        by_id = int(np.count_nonzero((a == b) & ~ids_differ))
        moved = [f"sentence {result.data.item_names[i]}: word {result.data.items[i][names[0]].ids[k]} against "
                 f"{result.data.items[i][names[1]].ids[k]}" for (i, k), differ in zip(units, ids_differ) if differ]
        empty = next((c for c, label in enumerate(data.labels) if label in ("", "_")), None)
        out[name] = {"words": layer.units, "equal": layer.units - layer.disagreeing, "observed": layer.observed,
                     "kappa": layer.cohen_mean, "kappa_no_empty": _kappa(layer.observed, a, b, empty),
                     "equal_by_id": by_id, "kappa_by_id": _kappa(by_id / a.size, a, b), "moved": moved}
    return out


def _same_agreement(printed: str, words: int, equal: int, got_words: int, got_equal: int) -> bool:
    return (words, equal) == (got_words, got_equal) and Fraction(printed).limit_denominator(10 ** 6) == \
        Fraction(equal, words)


def package_cells(default: Dict[str, Dict[str, object]], report_way: Dict[str, Dict[str, object]]
                  ) -> Dict[str, Tuple[str, str]]:
    """The table's two package columns (default, ``--any-forms --unannotated value``) of each
    figure, as printed, from :func:`package_figures` of the two ways."""
    cells: Dict[str, Tuple[str, str]] = {}
    for section, layer, has_kappa in SECTIONS:
        d, r = default[layer], report_way[layer]
        cells[f"{section} agreement"] = (f"{d['equal']}/{d['words']} = {d['observed']!r}",
                                         f"{r['equal']}/{r['words']} = {r['observed']!r}")
        if has_kappa:
            cells[f"{section} κ"] = (repr(d["kappa"]), repr(r["kappa"]))
    return cells


def compare(folder: Path) -> List[Dict[str, object]]:
    report = next(iter(folder.glob("inter-coder_agreement*.md")))
    first = next(iter(folder.glob("text_1st_annotator*.xml")))
    second = next(iter(folder.glob("text_2nd_annotator*.xml")))
    printed = report_figures(report)
    default, report_way = package_figures(first, second, False), package_figures(first, second, True)
    cells = package_cells(default, report_way)
    rows = []
    for (section, layer, has_kappa), (words, equal, agreement, kappa) in zip(SECTIONS, printed):
        d, r = default[layer], report_way[layer]
        same = _same_agreement(agreement, words, equal, r["words"], r["equal"])
        by_id = BY_ID.format(len(r["moved"]), "; ".join(r["moved"]))
        why = "" if same else (by_id if _same_agreement(agreement, words, equal, r["words"], r["equal_by_id"])
                               else "?")
        rows.append({"text": folder.name, "figure": f"{section} agreement", "report": f"{equal}/{words} = {agreement}",
                     "default": cells[f"{section} agreement"][0], "package": cells[f"{section} agreement"][1],
                     "equal": same, "why": why})
        if has_kappa:
            same = repr(r["kappa"]) == kappa
            why = "" if same else (NO_EMPTY if repr(r["kappa_no_empty"]) == kappa else
                                   by_id if repr(r["kappa_by_id"]) == kappa else "?")
            rows.append({"text": folder.name, "figure": f"{section} κ", "report": kappa,
                         "default": cells[f"{section} κ"][0], "package": cells[f"{section} κ"][1], "equal": same,
                         "why": why})
    return rows


#: how the α sentence names each text (benchmarks/README.md)
SHORT_NAMES = {"Aesop_1-8": "Aesop 1-8", "Aesop_9-30": "9-30", "Aesop_31-50": "31-50",
               "P-Apollodorus_1.1.1-1.4.1": "Apollodorus"}


def alpha_figures(first: Path, second: Path) -> Dict[str, Dict[str, object]]:
    """α over whole trees (``sa.alpha``, the package's defaults) of the two annotators' files, with
    partial trees as missing annotations (``missing``, the default) and ``--partial attach``: the
    three α in %, the items and the partial trees of each."""
    out: Dict[str, Dict[str, object]] = {}
    for partial in ("missing", "attach"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = sa.alpha(os.fspath(first), os.fspath(second), partial=partial)
        out[partial] = {"alphas": "/".join(f"{100 * a:.2f}" for a in (result.alpha_plain, result.alpha_diff,
                                                                      result.alpha_norm)),
                        "items": result.items, "partial": result.to_dict()["trees_partial"]}
    return out


def alpha_sentence(figures: Dict[str, Dict[str, Dict[str, object]]]) -> str:
    """The sentence of benchmarks/README.md that gives α on each text (``figures``: text folder ->
    :func:`alpha_figures`), in the order Aesop 1-8, 9-30, 31-50, Apollodorus."""
    parts = []
    for k, name in enumerate(SHORT_NAMES):
        missing, attach = figures[name]["missing"], figures[name]["attach"]
        if k == 0:
            parts.append(f"{SHORT_NAMES[name]} {missing['alphas']} ({missing['items']} items, {missing['partial']} "
                         "partial trees taken as missing annotations: their heads point to words left out of the "
                         f"files), with `--partial attach` {attach['alphas']} ({attach['items']} items)")
        else:
            parts.append(f"{SHORT_NAMES[name]} {missing['alphas']} ({missing['items']}, {missing['partial']} partial "
                         f"trees), attached "
                         f"{attach['alphas']} ({attach['items']})")
    return ("α over whole trees (`alpha`, δplain/δdiff/δnorm in %): " + parts[0] + "; " + "; ".join(parts[1:])
            + ".")


NO_EMPTY = "the report leaves the empty value out of the chance agreement: κ so computed is the report's"
BY_ID = ("the report pairs words by id: the {} word(s) numbered differently in the two files ({}), compared by "
         "position here, are disagreements there; so counted, the package's values give the report's figure")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("treebank_data", type=Path, help="a checkout of PerseusDL/treebank_data or its git directory")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        root = checkout(args.treebank_data, Path(work)) / ROOT
        folders = sorted({Path(p).parent for p in glob.glob(os.fspath(root / "*" / "*" / "inter-coder_agreement*.md"))})
        rows = [row for folder in folders for row in compare(folder)]
        alphas = {folder.name: alpha_figures(next(iter(folder.glob("text_1st_annotator*.xml"))),
                                             next(iter(folder.glob("text_2nd_annotator*.xml")))) for folder in folders}
    print(f"{len(folders)} texts with a report, {len(rows)} figures, {sum(r['equal'] for r in rows)} equal "
          "(package: --any-forms --unannotated value)\n")
    print("| text | figure | report | package, default | package, --any-forms --unannotated value | equal |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['text']} | {row['figure']} | {row['report']} | {row['default']} | {row['package']} | "
              f"{'yes' if row['equal'] else 'no: ' + str(row['why'])} |")
    print("\n" + alpha_sentence(alphas))
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
