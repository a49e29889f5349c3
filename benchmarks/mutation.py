"""Mutation testing the project can repeat (issue 52): small, realistic bugs written by hand in
every metric family, each applied alone to a copy of the checkout, and the tests that should
catch it run against that copy. A mutant the tests fail on is *killed*; one they pass is a
*survivor*: a missing test, unless it is *equivalent* (no input changes a result), which the
entry says, with the reason.

    python benchmarks/mutation.py                 every mutant (about half an hour on two cores)
    python benchmarks/mutation.py --family kappa  one family (--list shows them)
    python benchmarks/mutation.py --check         only that each mutant's text is found, once
    python benchmarks/mutation.py --id delta-diff-half

Each mutant is (family, id, file, the exact old text, the new text, the tests to run): the old
text must occur exactly once in the file (``--check``). The script copies the checkout (without
``.git``) into a temporary folder, applies each mutant there with its original restored after
(try/finally; the checkout itself is never written), and runs ``python -m pytest --runslow -x -q``
on the mutant's tests with ``PYTHONPATH`` set to the copy. A mutant of ``extension/`` (the Cython
core) is rebuilt in the copy (``python setup.py build_ext --inplace``) and its original build
restored after. A test selection that fails on the unmutated copy is reported as ``baseline``
(never counted as a kill): ``--baseline`` runs every selection once unmutated first.

The pytest ``testpaths`` are ``tests`` and ``spacy_agreement``: this file is never collected; CI
does not run it. ``benchmarks/README.md`` has the last run's table.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutant:
    family: str
    id: str
    file: str
    old: str
    new: str
    tests: Tuple[str, ...]
    equivalent: str = ""  # why no input changes a result (then a survivor is not a miss)


def m(family, id, file, old, new, *tests, equivalent=""):
    return Mutant(family, id, file, old, new, tuple(tests), equivalent)


RESULT = "spacy_agreement/agreement/result.py"
DELTAS = "extension/deltas.pxi"
TOKEN = "spacy_agreement/evaluation/dependency/token_metrics.py"
DEP_SETTINGS = "spacy_agreement/evaluation/dependency/settings.py"
ALIGN = "spacy_agreement/evaluation/conll18/word_alignment.py"
EVALB = "spacy_agreement/evaluation/constituency/evalb_params.py"
EVALB_RUN = "spacy_agreement/evaluation/constituency/evalb.py"
LA_REF = "spacy_agreement/evaluation/constituency/leaf_ancestor_reference.py"
LA_RESULT = "spacy_agreement/evaluation/constituency/leaf_ancestor_result.py"
NOMINAL = "spacy_agreement/agreement/nominal.py"
ARROWS = "spacy_agreement/evaluation/discourse/arrows.py"
SIG = "spacy_agreement/evaluation/comparison/significance.py"
RAND = "spacy_agreement/evaluation/comparison/randomization.py"
ESTIMATE = "spacy_agreement/agreement/estimate.py"
ANALYSIS = "spacy_agreement/evaluation/judgments/analysis.py"
MATCHING = "spacy_agreement/adapters/matching.py"
VOCAB = "spacy_agreement/vocab.py"

T_ALPHA = ("tests/agreement/test_alpha_reference.py", "tests/agreement/test_table2.py")
T_PARSER = ("tests/evaluation/test_parser_metrics.py", "tests/evaluation/test_column_evaluation.py")
T_CONLL18 = ("tests/evaluation/test_conll18_aligned.py", "tests/evaluation/test_conll18_parity.py")
T_EVALB = ("tests/evaluation/test_evalb.py", "tests/evaluation/test_evalb_calc.py")
T_LA = ("tests/evaluation/test_leaf_ancestor.py", "tests/evaluation/test_leaf_ancestor_fast.py")
T_KAPPA = ("tests/agreement/test_nominal.py", "tests/evaluation/test_judgments.py")
T_DISCOURSE = ("tests/evaluation/test_discourse.py",)
T_SIG = ("tests/evaluation/test_significance.py",)
T_JUDG = ("tests/evaluation/test_judgments.py",)
T_MATCH = ("tests/adapters/test_item_matching.py",)
T_TED = ("tests/agreement/test_ted.py",)

MUTANTS: List[Mutant] = [
    # ---- α: Do, De and their ratio (Skjærholt 2014, eq. 1-2; Krippendorff 2011)
    m("alpha normalisers", "alpha-do-n-1", RESULT,
      "observed[kind] = float(observed_sums[k] / n) if n else math.nan",
      "observed[kind] = float(observed_sums[k] / (n - 1)) if n > 1 else math.nan", *T_ALPHA),
    m("alpha normalisers", "alpha-de-n2", RESULT,
      "expected[kind] = float(expected_sums[k] / (n * (n - 1))) if n > 1 else math.nan",
      "expected[kind] = float(expected_sums[k] / (n * n)) if n > 1 else math.nan", *T_ALPHA),
    m("alpha normalisers", "alpha-ratio-swapped", RESULT,
      "alphas[kind] = 1.0 - observed[kind] / expected[kind]",
      "alphas[kind] = 1.0 - (observed[kind] / expected[kind]) ** 0.5", *T_ALPHA),
    m("alpha normalisers", "alpha-item-weight-m", "extension/alpha.pxi",
      "per_item[u, k] += 2.0 / <double>(item_count[u] - 1) * dk",
      "per_item[u, k] += 2.0 / <double>(item_count[u]) * dk", *T_ALPHA,
      equivalent="forest_alpha_sums' observed and per-item sums are discarded by its only caller (_serial_backend "
      "in agreement/alpha.py keeps the expected sums; Do and the per-item disagreement come from "
      "engine.observed_sums)"),
    m("alpha normalisers", "alpha-serial-expected", "extension/alpha.pxi", "expected[k] += 2.0 * dk",
      "expected[k] += dk", "tests/agreement/test_alpha_scale.py", "tests/agreement/test_delta_registry.py"),
    m("alpha normalisers", "alpha-item-weight", "spacy_agreement/agreement/engine.py",
      "weight = 2.0 / (item_count[items] - 1)", "weight = 2.0 / item_count[items]", *T_ALPHA),
    m("alpha normalisers", "alpha-expected-counts", "spacy_agreement/agreement/engine.py",
      "weight = 2.0 * counts[left] * counts[right]", "weight = 2.0 * counts[left]", *T_ALPHA,
      "tests/agreement/test_delta_registry.py"),
    # ---- δ (Skjærholt 2014, §2), in the Cython core
    m("deltas", "delta-diff-half", DELTAS, "return ted - fabs(nx - ny)", "return ted - fabs(nx - ny) / 2",
      "tests/agreement/test_alpha_reference.py", "tests/agreement/test_delta_registry.py"),
    m("deltas", "delta-norm-max", DELTAS, "return ted / (nx + ny)", "return ted / (nx if nx > ny else ny)",
      "tests/agreement/test_alpha_reference.py", "tests/agreement/test_delta_registry.py"),
    m("deltas", "pqgram-normaliser", "extension/pqgram.pxi", "return 1.0 - 2.0 * common / <double>(na + nb)",
      "return 1.0 - common / <double>(na + nb)", "tests/agreement/test_pqgram.py"),
    # ---- TED: relabelling cost (Zhang & Shasha 1989)
    m("TED relabel cost", "zs-relabel-2", "extension/zhang_shasha.pxi",
      "                        else:\n                            sub = 1.0",
      "                        else:\n                            sub = 2.0", *T_TED),
    m("TED relabel cost", "cost-matrix-diagonal", VOCAB, "np.fill_diagonal(matrix, 0.0)",
      "np.fill_diagonal(matrix, 0.5)", *T_TED, "tests/agreement/test_alpha_reference.py"),
    # ---- attachment scores (Plank et al. 2015, §2)
    m("UAS/LAS/LA/NED/LCP", "las-head-only", TOKEN, 'out.set("las", per(scored & attached), n_scored)',
      'out.set("las", per(scored & head_ok), n_scored)', *T_PARSER),
    m("UAS/LAS/LA/NED/LCP", "uas-label", TOKEN, 'out.set("uas", per(scored & head_ok), n_scored)',
      'out.set("uas", per(scored & attached), n_scored)', *T_PARSER),
    m("UAS/LAS/LA/NED/LCP", "la-attached", TOKEN, 'out.set("la", per(scored & label_ok), n_scored)',
      'out.set("la", per(scored & attached), n_scored)', *T_PARSER),
    m("UAS/LAS/LA/NED/LCP", "ned-no-reverse", TOKEN, "ok = head_ok | reverse", "ok = head_ok", *T_PARSER),
    m("UAS/LAS/LA/NED/LCP", "ned-reverse-wrong", TOKEN, "reverse = (ph != 0) & (gh[at(ph)] == position)",
      "reverse = (ph != 0) & (gh[at(ph)] == ph)", *T_PARSER),
    m("UAS/LAS/LA/NED/LCP", "ned-grandparent", TOKEN, "ok |= (gh != 0) & (gh[at(gh)] == ph)",
      "ok |= (gh != 0) & (gh[at(gh)] == gh)", *T_PARSER),
    m("UAS/LAS/LA/NED/LCP", "lcp-label-ignored", TOKEN,
      "bad_l[at(gh)[dependent & head_ok & ~label_ok & (gh > 0)]] = True",
      "bad_l[at(gh)[dependent & head_ok & (gh > 0) & False]] = True", *T_PARSER),
    m("UAS/LAS/LA/NED/LCP", "lcp-punct-counted", TOKEN, "        dependent = ~punct\n",
      "        dependent = np.ones(len(sid), dtype=bool)\n", *T_PARSER),
    m("UAS/LAS/LA/NED/LCP", "las-content-head", TOKEN,
      'out.set("las_content", per(scored & content & attached), per(scored & content))',
      'out.set("las_content", per(scored & content & head_ok), per(scored & content))', *T_PARSER),
    m("UAS/LAS/LA/NED/LCP", "root-weight-inverse-log", DEP_SETTINGS, "return 1.0 / math.log2(1 + depth)",
      "return 1.0 / math.log2(2 + depth)", *T_PARSER),
    m("UAS/LAS/LA/NED/LCP", "root-weight-log", DEP_SETTINGS, "            return math.log2(1 + depth)",
      "            return math.log2(2 + depth)", *T_PARSER),
    m("UAS/LAS/LA/NED/LCP", "clas-any-relation", TOKEN, "clas = g_content & head_ok & (gud == pud)",
      "clas = g_content & head_ok", *T_CONLL18, "tests/evaluation/test_ud_metrics.py"),
    # ---- conll18_ud_eval.py's alignment (Zeman et al. 2018)
    m("conll18 alignment", "align-case-sensitive", ALIGN,
      "return [form.lower() for form in self.layers.forms[start:stop]]",
      "return list(self.layers.forms[start:stop])", *T_CONLL18),
    m("conll18 alignment", "align-lcs-min", ALIGN,
      "row[s] = below[s + 1] + 1 if form == system[s] else max(below[s], row[s + 1])",
      "row[s] = below[s + 1] + 1 if form == system[s] else min(below[s], row[s + 1])", *T_CONLL18),
    m("conll18 alignment", "align-end-strict", ALIGN,
      "g_inside = gi < g_n and (g_start[gi] < end if g_multiword[gi] else g_end[gi] <= end)",
      "g_inside = gi < g_n and (g_start[gi] < end if g_multiword[gi] else g_end[gi] < end)", *T_CONLL18),
    m("conll18 alignment", "align-span-start-only", ALIGN,
      "same = ((s.start_array[partner] == g.start_array[candidates]) & (s.end_array[partner] == g.end_array[candidates])",
      "same = ((s.start_array[partner] == g.start_array[candidates])", *T_CONLL18),
    # ---- EVALB's parameters (Sekine & Collins 1997)
    m("EVALB params", "eq-label-one-way", EVALB,
      "return a == b or any((a, b) == pair or (b, a) == pair for pair in self.eq_labels)",
      "return a == b or any((a, b) == pair for pair in self.eq_labels)", *T_EVALB),
    m("EVALB params", "cutoff-strict", EVALB_RUN, "if result.length <= self.params.cutoff_len:",
      "if result.length < self.params.cutoff_len:", *T_EVALB),
    m("EVALB params", "cutoff-default", EVALB, "cutoff_len: int = setting(40,", "cutoff_len: int = setting(100,",
      *T_EVALB),
    m("EVALB params", "max-error-default", EVALB, "max_error: int = setting(10,", "max_error: int = setting(1,",
      *T_EVALB),
    m("EVALB params", "short-lines", EVALB, 'if line.startswith("#") or len(line) < 3:',
      'if line.startswith("#") or len(line) < 1:', *T_EVALB),
    m("EVALB params", "eq-word-one-way", EVALB,
      "return a == b or any((a, b) == pair or (b, a) == pair for pair in self.eq_words)",
      "return a == b or any((a, b) == pair for pair in self.eq_words)", *T_EVALB),
    # ---- leaf-ancestor (Sampson & Babarczy 2003)
    m("leaf-ancestor normaliser", "la-ref-max", LA_REF, "total = len(gl) + len(cl)",
      "total = 2 * max(len(gl), len(cl))", *T_LA),
    m("leaf-ancestor normaliser", "la-compiled-total", "extension/lineage_score.pxi",
      "score = 1.0 - (<double>d2 * 0.5) / <double>total if total else 1.0",
      "score = 1.0 - (<double>d2 * 0.5) / <double>(total + 1) if total else 1.0", *T_LA),
    m("leaf-ancestor normaliser", "la-sentence-median", LA_RESULT,
      "return float(np.mean([s.leaf_ancestor for s in self.sentences]))",
      "return float(np.median([s.leaf_ancestor for s in self.sentences]))", *T_LA),
    m("leaf-ancestor normaliser", "la-store-mean", LA_RESULT,
      "return self._store.mean_sum / self._store.sentences",
      "return self._store.mean_sum / max(self._store.sentences - 1, 1)", *T_LA),
    # ---- κ: chance agreement (Cohen 1960; Fleiss 1971)
    m("kappa chance agreement", "cohen-ae-n-1", NOMINAL,
      "np.bincount(b, minlength=size))) / (n * n)", "np.bincount(b, minlength=size))) / (n * (n + 1))", *T_KAPPA),
    m("kappa chance agreement", "cohen-no-correction", NOMINAL, "    return (observed - expected) / (1 - expected)\n",
      "    return (observed - expected) / (1 - expected * expected)\n", *T_KAPPA),
    m("kappa chance agreement", "fleiss-pi", NOMINAL, "p_i = (agree - raters) / (raters * (raters - 1))",
      "p_i = (agree - raters) / (raters * raters)", *T_KAPPA),
    m("kappa chance agreement", "fleiss-pe", NOMINAL, "p_e = float((p_j ** 2).sum())",
      "p_e = float(p_j.sum() ** 2) / len(p_j)", *T_KAPPA),
    # ---- discourse arrows (Mírovský et al. 2010, §3.2)
    m("discourse skip rule", "skip-both-ends-default", ARROWS,
      "return (same_start and near_target) or (near_start and same_target)",
      "return near_start and near_target", *T_DISCOURSE),
    m("discourse skip rule", "skip-one-end-only", ARROWS,
      "return (same_start and near_target) or (near_start and same_target)",
      "return same_start and near_target", *T_DISCOURSE),
    m("discourse skip rule", "skip-parent-one-way", ARROWS,
      "return a == b or doc.parent(a) == b or doc.parent(b) == a", "return a == b or doc.parent(a) == b",
      *T_DISCOURSE),
    m("discourse skip rule", "skip-both-or", ARROWS, "        return near_start and near_target\n",
      "        return near_start or near_target\n", *T_DISCOURSE),
    m("discourse skip rule", "skip-range-ignored", ARROWS,
      "near_start = xs[1] == ys[1] and _one_level(doc, xs[0], ys[0])", "near_start = _one_level(doc, xs[0], ys[0])",
      *T_DISCOURSE),
    # ---- p-values (Noreen 1989; Koehn 2004)
    m("p-values", "ar-p-no-plus-one", RAND, "return np.clip((count + 1) / (shuffles + 1), 0.0, 1.0)",
      "return np.clip(count / shuffles, 0.0, 1.0)", *T_SIG),
    m("p-values", "boot-p-no-plus-one", SIG, "pv = (1 + extreme.sum(axis=1)) / (1 + boot.shape[1])",
      "pv = extreme.sum(axis=1) / boot.shape[1]", *T_SIG),
    m("p-values", "boot-undefined-not-extreme", SIG, "extreme = np.where(np.isnan(boot), True,",
      "extreme = np.where(np.isnan(boot), False,", *T_SIG),
    m("p-values", "boot-not-shifted", SIG, "np.abs(boot - d[:, None]) >= np.abs(d[:, None]) - 1e-12)",
      "np.abs(boot) >= np.abs(d[:, None]) - 1e-12)", *T_SIG),
    m("p-values", "ar-undefined-not-extreme", SIG, "return np.where(np.isnan(d), np.inf, d)",
      "return np.where(np.isnan(d), 0.0, d)", *T_SIG),
    m("p-values", "fisher-one-sided", ANALYSIS, "float(2 * norm.sf(abs(z)))", "float(norm.sf(abs(z)))", *T_JUDG),
    # ---- bootstrap intervals (Efron & Tibshirani 1993)
    m("bootstrap tails", "boot-tail-1-c", SIG, "    tail = (1 - settings.confidence) / 2\n",
      "    tail = 1 - settings.confidence\n", *T_SIG),
    m("bootstrap tails", "boot-undefined-share", SIG,
      "if len(defined) and 1 - len(defined) / dist.shape[1] <= tail:",
      "if len(defined) and 1 - len(defined) / dist.shape[1] <= 2 * tail:", *T_SIG),
    m("bootstrap tails", "alpha-boot-tail", ESTIMATE, "    tail = (1 - confidence) / 2\n",
      "    tail = 1 - confidence\n", "tests/agreement/test_alpha_bootstrap_coverage.py",
      "tests/agreement/test_alpha_policy.py"),
    # ---- Holm (1979) and Bonferroni
    m("Holm", "holm-not-monotone", SIG, "running = max(running, min(1.0, (m - rank) * p[k]))",
      "running = min(1.0, (m - rank) * p[k])", *T_SIG),
    m("Holm", "holm-factor", SIG, "running = max(running, min(1.0, (m - rank) * p[k]))",
      "running = max(running, min(1.0, (m - rank + 1) * p[k]))", *T_SIG),
    m("Holm", "holm-unsorted", SIG, 'order = ok[np.argsort(p[ok], kind="stable")]', "order = ok", *T_SIG),
    m("Holm", "bonferroni-counts-nan", SIG, "out[ok] = np.minimum(1.0, p[ok] * m)",
      "out[ok] = np.minimum(1.0, p[ok] * len(p))", *T_SIG),
    m("Holm", "holm-uncapped", SIG, "running = max(running, min(1.0, (m - rank) * p[k]))",
      "running = max(running, (m - rank) * p[k])", *T_SIG),
    # ---- Fisher's z (Fisher 1921), Plank et al. 2015 Table 4
    m("Fisher z", "fisher-n-2", ANALYSIS, "math.sqrt(1.0 / (sizes[m] - 3) + 1.0 / (sizes[\"las\"] - 3))",
      "math.sqrt(1.0 / (sizes[m] - 2) + 1.0 / (sizes[\"las\"] - 2))", *T_JUDG),
    m("Fisher z", "fisher-no-atanh", ANALYSIS, "z = (math.atanh(rho) - math.atanh(base))", "z = (rho - base)",
      *T_JUDG),
    m("Fisher z", "fisher-one-size", ANALYSIS, "math.sqrt(1.0 / (sizes[m] - 3) + 1.0 / (sizes[\"las\"] - 3))",
      "math.sqrt(2.0 / (sizes[m] - 3))", *T_JUDG),
    # ---- items by identity (adapters/matching.py)
    m("matching", "sent-id-string-order", MATCHING, "order.sort(key=_natural)", "order.sort()", *T_MATCH),
    m("matching", "sent-id-file-order", MATCHING, "        order.sort(key=_natural)\n", "        pass\n", *T_MATCH),
    m("matching", "natural-digits-as-text", MATCHING, '(0, int(part), "") if part.isdigit()',
      '(0, 0, part) if part.isdigit()', *T_MATCH),
    m("matching", "moved-threshold", MATCHING, "return any(len(positions) > 1 for positions in where.values())",
      "return any(len(positions) > 2 for positions in where.values())", *T_MATCH),
    m("matching", "discourse-match-no-filter", ARROWS,
      "return [(i, j) for i, j in zip(rows.tolist(), cols.tolist()) if weights[i, j] > 0]",
      "return [(i, j) for i, j in zip(rows.tolist(), cols.tolist())]", *T_DISCOURSE),
    m("matching", "discourse-no-exact-preference", ARROWS, "weights[i, j] = (1000.0 + 100.0 * exact",
      "weights[i, j] = (1000.0 + 0.0 * exact", *T_DISCOURSE),
]


# --------------------------------------------------------------------------- running them

def check(mutants: Sequence[Mutant], root: Path = ROOT) -> List[str]:
    """The problems of the list: an old text not found exactly once, a mutant that changes nothing."""
    problems = []
    for mu in mutants:
        text = (root / mu.file).read_text(encoding="utf-8")
        found = text.count(mu.old)
        if found != 1:
            problems.append(f"{mu.id}: the old text is found {found} times in {mu.file}")
        if mu.old == mu.new:
            problems.append(f"{mu.id}: the new text is the old one")
    ids = [mu.id for mu in mutants]
    problems += [f"{i}: id used twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    return problems


def _copy(work: Path) -> Path:
    tree = work / "tree"
    shutil.copytree(ROOT, tree, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", "site"))
    return tree


def _pytest(tree: Path, tests: Sequence[str], timeout: int) -> Tuple[str, float, str]:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    for name, folder in (("SPACY_AGREEMENT_IAA_DATA", "iaa"), ("SPACY_AGREEMENT_PLANK_DATA", "plank2015")):
        shared = ROOT.parent / "shared" / "data" / folder  # the conftest's default, seen from the copy
        if name not in env and shared.is_dir():
            env[name] = str(shared)
    env.pop("CI", None)  # a skip is not a failure here
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", *tests, "--runslow", "-x", "-q", "-p", "no:cacheprovider",
                               "-W", "ignore::pytest.PytestUnraisableExceptionWarning"],
                              cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start, ""
    tail = (done.stdout + done.stderr).strip().splitlines()[-1:] or [""]
    status = {0: "passed", 1: "failed"}.get(done.returncode, f"error {done.returncode}")
    return status, time.perf_counter() - start, tail[0]


class _Build:
    """The Cython core of the copy: built once from its sources (so that later builds only redo
    what a mutant touched), each mutant's build undone by restoring the files it changed."""

    def __init__(self, tree: Path):
        self.tree, self.ready = tree, False

    def _run(self) -> None:
        # setup.py alone builds the extensions; pyproject.toml is set aside for the build, so that a
        # setuptools older than the one it asks for (an SPDX licence needs 77) can run it
        project = self.tree / "pyproject.toml"
        aside = project.with_name("pyproject.toml.aside")
        project.rename(aside)
        try:
            done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=self.tree,
                                  capture_output=True, text=True)
        finally:
            aside.rename(project)
        if done.returncode != 0:
            raise RuntimeError("build_ext failed:\n" + (done.stdout + done.stderr)[-3000:])

    def _outputs(self) -> List[Path]:
        return [*self.tree.glob("extension/*.c"), *self.tree.glob("spacy_agreement/*.so"),
                *self.tree.glob("spacy_agreement/*.pyd")]

    def __enter__(self):
        if not self.ready:
            self._run()
            self.ready = True
        self.saved = {p: p.read_bytes() for p in self._outputs()}
        self.times = {p: p.stat() for p in self._outputs()}
        return self

    def rebuild(self) -> None:
        self._run()

    def __exit__(self, *exc) -> None:
        for path in self._outputs():
            if path not in self.saved:
                path.unlink()
        for path, data in self.saved.items():
            path.write_bytes(data)
            os.utime(path, ns=(self.times[path].st_atime_ns, self.times[path].st_mtime_ns))


def run(mutants: Sequence[Mutant], timeout: int, baseline: bool, keep: bool) -> Dict[str, List[tuple]]:
    work = Path(tempfile.mkdtemp(prefix="spacy-agreement-mutation."))
    results: Dict[str, List[tuple]] = defaultdict(list)
    try:
        tree = _copy(work)
        build = _Build(tree)
        if baseline:
            for tests in sorted({mu.tests for mu in mutants}):
                status, seconds, tail = _pytest(tree, tests, timeout)
                print(f"baseline {status:8} {seconds:6.1f}s  {' '.join(tests)}", flush=True)
                if status != "passed":
                    print(f"    {tail}", flush=True)
        for mu in mutants:
            path = tree / mu.file
            original = path.read_bytes()
            stat = path.stat()
            text = original.decode("utf-8")
            if text.count(mu.old) != 1:
                results[mu.family].append((mu, "stale", 0.0, "the old text is not found once"))
                continue
            cython = mu.file.startswith("extension/")
            if cython:
                build.__enter__()
            try:
                path.write_text(text.replace(mu.old, mu.new), encoding="utf-8")
                if cython:
                    build.rebuild()
                status, seconds, tail = _pytest(tree, mu.tests, timeout)
            finally:
                path.write_bytes(original)
                os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
                if cython:
                    build.__exit__(None, None, None)
            outcome = {"failed": "killed", "timeout": "killed", "passed": "survived"}.get(status, status)
            results[mu.family].append((mu, outcome, seconds, tail))
            mark = outcome + (" (equivalent)" if mu.equivalent and outcome == "survived" else "")
            print(f"{mu.family:26} {mu.id:32} {mark:24} {seconds:6.1f}s  {tail[:70]}", flush=True)
    finally:
        if keep:
            print(f"work folder kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return results


def table(results: Dict[str, List[tuple]]) -> str:
    lines = ["| family | mutants | killed | survived | equivalent (survived, reason below) | other |",
             "|---|---|---|---|---|---|"]
    totals = [0, 0, 0, 0, 0]
    notes = []
    for family, rows in results.items():
        killed = sum(o == "killed" for _, o, _, _ in rows)
        equivalent = [mu for mu, o, _, _ in rows if o == "survived" and mu.equivalent]
        survived = [mu for mu, o, _, _ in rows if o == "survived" and not mu.equivalent]
        other = [f"{mu.id}: {o}" for mu, o, _, _ in rows if o not in ("killed", "survived")]
        counts = [len(rows), killed, len(survived), len(equivalent), len(other)]
        totals = [t + c for t, c in zip(totals, counts)]
        lines.append(f"| {family} | {len(rows)} | {killed} | {len(survived)}"
                     f"{' (' + ', '.join(mu.id for mu in survived) + ')' if survived else ''} | {len(equivalent)} | "
                     f"{len(other)}{' (' + '; '.join(other) + ')' if other else ''} |")
        notes += [f"- `{mu.id}` ({family}): {mu.equivalent}" for mu in equivalent]
    lines.append(f"| **all** | {totals[0]} | {totals[1]} | {totals[2]} | {totals[3]} | {totals[4]} |")
    scored = totals[1] + totals[2]
    lines.append("")
    lines.append(f"Killed: {totals[1]} of {scored} non-equivalent mutants"
                 f" ({100 * totals[1] / scored:.1f}%)." if scored else "No mutant run.")
    return "\n".join(lines + ([""] + notes if notes else []))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", action="append", help="only this family (repeatable)")
    parser.add_argument("--id", action="append", help="only this mutant (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--check", action="store_true", help="only check that every old text is found once")
    parser.add_argument("--baseline", action="store_true", help="run each test selection unmutated first")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per mutant's tests (a timeout kills)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy")
    args = parser.parse_args(argv)
    chosen = [mu for mu in MUTANTS if (not args.family or mu.family in args.family)
              and (not args.id or mu.id in args.id)]
    problems = check(chosen)
    if args.list:
        for mu in chosen:
            print(f"{mu.family:26} {mu.id:32} {mu.file}")
        print(f"{len(chosen)} mutants in {len({mu.family for mu in chosen})} families")
        return 0
    if problems or args.check:
        print("\n".join(problems) or f"{len(chosen)} mutants, every old text found once")
        return 1 if problems else 0
    print(f"{len(chosen)} mutants, {time.strftime('%Y-%m-%d')}", flush=True)
    results = run(chosen, args.timeout, args.baseline, args.keep)
    print()
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
