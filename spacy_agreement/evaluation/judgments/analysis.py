"""Do the metrics agree with people who judge parses? The analyses of Plank et al. (2015),
§3–4, for items that each have a gold tree, two candidate parses A and B and the
preferences of one or more human judges.

Input (:func:`load_judgments`; the files are read by
:mod:`spacy_agreement.adapters.judgments_files`, this module checks the items and analyses
them) is JSON Lines, one item per line::

    {"id": "en-17",
     "gold": {"heads": [2, 0, 2], "deprels": ["nsubj", "root", "obj"], "upos": [...], "forms": [...]},
     "a": {...}, "b": {...},
     "judgments": {"judge1": "A", "judge2": "B"}}

A tree may also be given as CoNLL-U text (a string), or a phrase-structure tree as
``{"brackets": "(S ...)"}``. Preferences are ``"A"``, ``"B"`` or ``"tie"`` (no preference; either
case). ``upos`` and ``forms`` are optional (without UPOS, UCP/LCP and POS-wise LAS have nothing to
count), and so is ``gold``: items without a gold tree (or of phrase-structure trees, which the
parser metrics do not score) are analysed for the judges alone (their agreement, κ, MACE), the
metric tables left out. The export of a judging page (``spacy-agreement judge``,
:mod:`spacy_agreement.report.judging_page`) is such a file; several files at once (several
judges' exports) are merged by item (:func:`iter_judgments`).

:func:`load_datapackage` reads the layout of the data released with Plank et al. (2015)
(``CoNLL2015/datapackage/<lang>/``): a folder with ``gold.conll``, ``parser1.conll``,
``parser2.conll`` (parallel CoNLL files) and ``annotated.csv``, one row per sentence, one column
per judge (no header), each cell the colour of the parse the judge preferred (``blue`` or
``red``; an empty cell: not judged). In the released data ``parser1`` is Malt and ``parser2`` MST,
and blue is parser1 (this reproduces the paper's Tables 2 and 5), so the defaults are
``parses=("parser1", "parser2")`` (A and B) and ``colours=("blue", "red")``. Judges are named
``judge1``, ``judge2``, ... by column. :func:`load_judgments` reads either (a folder or a JSONL file).

What :func:`analyse_judgments` computes (a judge's "no preference", ``tie``, is a third value
of the judgments: it counts in the agreement between judges, κ and MACE as a category of its
own and as 0 in the majority vote, and is left out of that judge's agreement with a metric,
which prefers A or B; how many items each judge judged and how many were ties is reported):

* each metric's preferred parse per item (the one it scores higher; ties reported), and the
  mean agreement of each metric with the judges beside the mean agreement between judges
  (Table 5). A metric's tie counts as half an agreement (``ties="half"``), the item is left
  out for that metric (``ties="skip"``), or a tie is a preference for B (``ties="b"``: "A
  when A scores higher, else B", which is what reproduces the paper's Spanish LAS column) or
  for A (``ties="a"``). Agreement with the judges is averaged per judge
  over the items that judge saw, then over judges.
* raw agreement and chance-corrected agreement between judges (Table 1's RAW and κ): RAW is
  the mean over judge pairs of the share of items both judged on which they agree; κ by
  default (``kappa="cohen"``, the paper's) is the mean over judge pairs of Cohen's κ, each
  pair over the items both judged (Cohen's κ itself for two judges); ``kappa="fleiss"`` gives
  Fleiss' κ (the variant allowing a different number of judges per item; items with fewer
  than two judgments are left out).
* Spearman's ρ between the metrics across items (Table 3), over each metric's preference
  strength score(A) − score(B).
* ρ between the aggregated human judgment and each metric's preference strength (Table 4),
  with the judgments aggregated by majority vote (+1 for A, −1 for B, 0 for a tie) and by
  the MACE-style item-response model (:mod:`spacy_agreement.evaluation.judgments.mace`; P(A) − P(B)), and a
  Fisher z-test of whether each metric's ρ differs from LAS's. Like the paper, the test
  treats the two correlations as independent samples (Fisher 1921): z = (atanh ρ_m − atanh
  ρ_LAS) / sqrt(1 / (n_m − 3) + 1 / (n_LAS − 3)), each n the items its ρ is computed over
  (those where the metric is defined: UCP and LCP are not on an item without a verb that has
  a dependent).

Statistics come from scipy (``spearmanr``, ``norm``).

Memory: :func:`iter_judgments` yields the items one at a time and :func:`analyse_judgments`
goes through them once, keeping per item only the numbers its statistics need (each
metric's score(A) − score(B) and the judges' preferences, a few bytes each) and never the
trees; :func:`load_judgments` is the list of all items, trees included, for small files and
for inspection.
"""
from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass, field
from itertools import combinations
from array import array
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ...adapters.documents import read_document
from ...adapters.judgments_files import (DATAPACKAGE_COLOURS, DATAPACKAGE_PARSES, merge_judgment_records,
                                        read_datapackage_records)
from ...errors import BadOptionError, JudgmentError, Location, UndefinedMetricWarning, undefined
from ...agreement.kappa import cohen_kappa, fleiss_kappa
from .analysis_text import format_analysis, judged_line
from .judged import PREFERENCES, TIE, _Judged, _JudgedItems
from .mace import MaceResult, mace
from ..dependency.metrics import EvaluationSettings, metric_names, sentence_scores
from ...trees import ConstituencyTree, DependencyTree

#: The metrics of the paper's tables, the default of :func:`analyse_judgments` and of the CLI's
#: ``--metric``; any name of the parser-metric table (:func:`judgment_metric_choices`) can be chosen.
DEFAULT_METRICS = ("las", "uas", "la", "ned", "ted", "lcp", "ucp")


def judgment_metric_choices() -> Tuple[str, ...]:
    """The metrics ``analyse_judgments`` (and ``judgments --metric``) accept: every metric of
    :data:`~spacy_agreement.evaluation.dependency.metrics.PARSER_METRICS`, registered ones included."""
    return metric_names()


@dataclass
class JudgmentItem:
    """A gold tree (or ``None``), two candidate parses, the judges' preferences (``"A"``,
    ``"B"`` or ``"tie"``) and their comments."""

    id: str
    gold: Optional[Union[DependencyTree, ConstituencyTree]]
    a: Union[DependencyTree, ConstituencyTree]
    b: Union[DependencyTree, ConstituencyTree]
    judgments: Dict[str, str]
    comments: Dict[str, str] = field(default_factory=dict)


def _tokens(tree: Union[DependencyTree, ConstituencyTree]) -> int:
    return len(tree) if isinstance(tree, DependencyTree) else tree.n_leaves


def make_item(id: str, gold: Optional[Union[DependencyTree, ConstituencyTree]],
              a: Union[DependencyTree, ConstituencyTree], b: Union[DependencyTree, ConstituencyTree],
              judgments: Mapping[str, str], location: Optional[Location] = None,
              comments: Optional[Mapping[str, str]] = None) -> JudgmentItem:
    """Check and build one item; errors name the item."""
    where = location or Location(f"item {id}")
    trees = [("a", a), ("b", b)] + ([("gold", gold)] if gold is not None else [])
    if len({type(tree) for _, tree in trees}) > 1:
        raise JudgmentError(f"item {id!r}: the parses and the gold must all be dependency trees or all phrase-"
                            "structure trees", where)
    reference, size = ("gold", _tokens(gold)) if gold is not None else ("parse A", _tokens(a))
    for name, tree in trees[:2]:
        if _tokens(tree) != size:
            raise JudgmentError(f"item {id!r}: parse {name.upper()} has {_tokens(tree)} tokens, {reference} has "
                                f"{size}", where)
    clean: Dict[str, str] = {}
    for judge, value in judgments.items():
        value_up = str(value).strip().upper()
        if value_up == TIE.upper():
            value_up = TIE
        elif value_up not in PREFERENCES:
            raise JudgmentError(f"item {id!r}: judge {judge!r} gave unknown preference {value!r} (use A, B or tie)",
                                where)
        clean[str(judge)] = value_up
    notes = {str(judge): str(text) for judge, text in (comments or {}).items() if str(text).strip()}
    return JudgmentItem(str(id), gold, a, b, clean, notes)


def load_datapackage(
    folder: Union[str, "os.PathLike[str]"],
    parses: Sequence[str] = DATAPACKAGE_PARSES,
    colours: Sequence[str] = DATAPACKAGE_COLOURS,
    gold: str = "gold",
    judgments_file: str = "annotated.csv",
) -> List[JudgmentItem]:
    """Items from one language folder of the Plank et al. (2015) release (layout in the module
    docstring; read by :func:`~spacy_agreement.adapters.judgments_files.read_datapackage_records`):
    ``parses`` names the CoNLL files (without ``.conll``) of parse A and parse B,
    ``colours`` the cell values that mean A and B. A first row with no colour in it is taken
    as a header of judge names."""
    return [make_item(*record) for record in read_datapackage_records(folder, parses, colours, gold, judgments_file)]


def iter_judgments(path: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
                   reader: str = "judgments", **datapackage_options: Any) -> Iterator[JudgmentItem]:
    """The items of :func:`load_judgments`, one at a time: each is read and checked
    (:func:`make_item`) when the next one is asked for, and nothing of it is kept here, so
    ``analyse_judgments(iter_judgments(path))`` holds one item's trees at a time.

    ``path`` may be a list of files (the exports of several judges, or of one judge twice):
    their items are merged by id
    (:func:`~spacy_agreement.adapters.judgments_files.merge_judgment_records`: a judge's
    judgment in a later file replaces the one in an earlier file, with a warning), which
    keeps every item until the last file is read."""
    if isinstance(path, (str, os.PathLike)):
        records = read_document(reader, path, **datapackage_options)
    else:
        paths = list(path)
        if not paths:
            raise BadOptionError("no judgment file given")
        seen = [os.path.realpath(os.fspath(p)) for p in paths]
        if len(set(seen)) < len(seen):
            raise BadOptionError("the same judgments file is given twice")
        records = (merge_judgment_records((os.fspath(p), read_document(reader, p, **datapackage_options))
                                          for p in paths) if len(paths) > 1
                   else read_document(reader, paths[0], **datapackage_options))
    for record in records:
        yield make_item(*record)


def load_judgments(path: Union[str, "os.PathLike[str]"], reader: str = "judgments",
                   **datapackage_options: Any) -> List[JudgmentItem]:
    """Items from a JSON Lines file (format in the module docstring), or from a folder in the
    layout of the Plank et al. (2015) release (:func:`load_datapackage`, which takes the
    keyword options); read by the registered document reader ``reader``
    (:data:`~spacy_agreement.adapters.documents.DOCUMENT_READERS`; the built-in one is
    :func:`~spacy_agreement.adapters.judgments_files.read_judgment_records`), each item
    checked by :func:`make_item` before the next is read. A list of every item with its
    trees: to analyse a large file, give :func:`iter_judgments` to :func:`analyse_judgments`."""
    return list(iter_judgments(path, reader, **datapackage_options))


@dataclass
class JudgmentAnalysis:
    """Everything of Tables 1, 3, 4 and 5 of Plank et al. (2015) for one set of items."""

    metrics: Tuple[str, ...]
    judges: List[str]
    preferences: Dict[str, List[str]]
    ties: Dict[str, int]
    metric_judge_agreement: Dict[str, float]
    judge_agreement: float
    kappa: float
    kappa_kind: str
    metric_correlations: Dict[Tuple[str, str], float]
    human_correlations: Dict[str, Dict[str, Dict[str, float]]]
    mace: Optional[MaceResult]
    items: int
    differences: Dict[str, np.ndarray] = field(repr=False, default_factory=dict)
    #: per judge: the items judged, how many of them "no preference", how many with a comment
    judge_items: Dict[str, int] = field(default_factory=dict)
    judge_ties: Dict[str, int] = field(default_factory=dict)
    judge_comments: Dict[str, int] = field(default_factory=dict)
    #: why the metric tables are left out (items without gold, phrase-structure trees); "" when they are not
    metrics_left_out: str = ""
    #: per judge, then "overall" (each item won by the judges' majority): items won by A, by B, ties, skips
    wins: Dict[str, Dict[str, int]] = field(default_factory=dict)
    #: per judge and "overall": the two-sided sign test's p-value (binomial, p = 1/2, ties and skips left out)
    sign_test: Dict[str, float] = field(default_factory=dict)
    #: per pair of judges: (judge, judge, items both judged, raw agreement, Cohen's kappa)
    judge_pairs: List[Tuple[str, str, int, float, float]] = field(default_factory=list)
    #: what A and B are (the systems' files, from a judging page's key), else ("A", "B")
    systems: Tuple[str, str] = ("A", "B")
    #: per judge: the time spent on the answers (ms, from a page's exports since 0.4)
    judge_ms: Dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {
            "items": self.items,
            "judges": len(self.judges),
            "judge_agreement": self.judge_agreement,
            "kappa": self.kappa,
            "kappa_kind": self.kappa_kind,
        }
        for metric in self.metrics:
            out[f"agreement_{metric}"] = self.metric_judge_agreement[metric]
            out[f"ties_{metric}"] = self.ties[metric]
            for aggregation, table in self.human_correlations.items():
                for key, value in table[metric].items():
                    out[f"{key}_{aggregation}_{metric}"] = value
        for (m1, m2), value in self.metric_correlations.items():
            out[f"rho_{m1}_{m2}"] = value
        for judge in self.judges:
            out[f"judge_items_{judge}"] = self.judge_items.get(judge, 0)
            out[f"judge_ties_{judge}"] = self.judge_ties.get(judge, 0)
            out[f"judge_comments_{judge}"] = self.judge_comments.get(judge, 0)
        if self.systems != ("A", "B"):
            out["system_a"], out["system_b"] = self.systems
        for who, counts in self.wins.items():
            for what in ("A", "B", "tie", "skip"):
                out[f"{'won_by_' + what if what in 'AB' else what + 's'}_{who}"] = counts.get(what, 0)
            out[f"sign_test_p_{who}"] = self.sign_test.get(who, math.nan)
        for who, ms in self.judge_ms.items():
            out[f"judge_ms_{who}"] = ms
        for j1, j2, shared, raw, k in self.judge_pairs:
            out[f"shared_items_{j1}_{j2}"] = shared
            out[f"agreement_{j1}_{j2}"] = raw
            out[f"kappa_{j1}_{j2}"] = k
        if self.metrics_left_out:
            out["metrics_left_out"] = self.metrics_left_out
        if self.mace is not None:
            for judge, value in self.mace.competence.items():
                out[f"mace_competence_{judge}"] = value
        return out


def analyse_judgments(
    items: Iterable[JudgmentItem],
    metrics: Sequence[str] = DEFAULT_METRICS,
    options: Optional[EvaluationSettings] = None,
    ties: str = "half",
    mace_restarts: int = 10,
    seed: int = 0,
    kappa: str = "cohen",
    check_forms: bool = True,
    *,
    skips: Optional[Mapping[str, int]] = None,
    skipped_items: int = 0,
    systems: Sequence[str] = ("A", "B"),
    judge_ms: Optional[Mapping[str, int]] = None,
) -> JudgmentAnalysis:
    """Run every analysis of the module docstring. ``check_forms=False`` lets a parse's forms
    differ from the gold's (only the token count must match; the released Croatian MST parse
    writes numbers as ``<num>``).

    ``items`` is any iterable (a list, or :func:`iter_judgments`), gone through once: each
    item is scored as it comes and its trees are not kept. What is kept per item is what the
    statistics need: per metric the difference score(A) − score(B) (one float64; the
    preferences, ties and ρ come from it) and the judges' preferences (a judge number and a
    code per judgment, :class:`_Judged`); the table of judgments (items × judges, one byte a
    cell) and MACE's arrays are built from them at the end. Kappas, agreements and ρ are
    computed over all items at once, as before, so the figures are the same whether the
    items come as a list or one at a time.

    Which system the judges prefer: per judge the items won by A and by B, the ties and the
    skips (``skips``: per judge, the answers "cannot tell" of a page's export, which are not in the
    items), and overall the items won by the judges' majority (more judges for A than for B: A;
    as many: a tie); each with a two-sided sign test (``scipy.stats.binomtest``, p = 1/2, over the
    items won by A or B: ties and skips left out; ``skipped_items``: the items every judge who saw
    them skipped, which are not in the items either). ``systems`` names A and B in the text;
    ``judge_ms`` is each judge's time spent (ms)."""
    from scipy.stats import binomtest, norm, spearmanr  # lazy: import time

    options = options or EvaluationSettings()
    choices = judgment_metric_choices()
    unknown = [m for m in metrics if m not in choices]
    if unknown:
        raise BadOptionError(f"unknown metrics {unknown}; choose from {', '.join(choices)}")
    if ties not in ("half", "skip", "a", "b"):
        raise BadOptionError("ties must be 'half', 'skip', 'a' or 'b'")
    if kappa not in ("cohen", "fleiss"):
        raise BadOptionError("kappa must be 'cohen' (mean pairwise Cohen) or 'fleiss'")
    columns = {m: array("d") for m in metrics}
    judged = _Judged()
    comments: Dict[str, int] = {}
    scored: Optional[bool] = None  # whether the metrics are computed: decided by the first item
    left_out = ""
    item = None
    for item in items:
        if scored is None:
            scored = isinstance(item.gold, DependencyTree)
            if not scored:
                left_out = ("the items are phrase-structure trees, and the parser metrics score dependency trees"
                            if isinstance(item.a, ConstituencyTree) else
                            "the items have no gold tree (make the judging page with judge --gold to have it)")
                metrics, columns = (), {}
        elif scored and item.gold is None:
            raise JudgmentError(f"item {item.id!r} has no gold tree, and the items before it have one: give every "
                                "item a gold tree, or none")
        if scored:
            # nan (no warning) where a metric counts nothing in the sentence: a tie below
            score_a = sentence_scores(item.gold, item.a, options, check_forms, metrics, warn=False)
            score_b = sentence_scores(item.gold, item.b, options, check_forms, metrics, warn=False)
            for m in metrics:
                columns[m].append(score_a[m] - score_b[m])  # nan when the metric counts nothing
        judged.add(item.judgments)
        for judge in item.comments:
            comments[judge] = comments.get(judge, 0) + 1
    item = None  # the last item's trees are not kept either
    n = len(judged)
    if not n:
        raise JudgmentError("no judgment items")
    diffs = {m: np.array(columns.pop(m), dtype=float) for m in metrics}
    judges = sorted(judged.names)
    table_of = judged.matrix(judges)  # items × judges: 0 not judged, 1 A, 2 B, 3 no preference
    preferences = {
        m: ["A" if d > 0 else "B" if d < 0 else "tie" for d in np.nan_to_num(diffs[m], nan=0.0)] for m in metrics
    }
    # Table 5: mean agreement of each metric with the judges, and between judges
    agreement: Dict[str, float] = {}
    for m in metrics:
        clean = np.nan_to_num(diffs[m], nan=0.0)
        prefers = np.where(clean > 0, 1, np.where(clean < 0, 2, 0))  # 0: a tie
        tie = prefers == 0
        per_judge = []
        for j in range(len(judges)):
            said = table_of[:, j]
            prefers_one = (said == 1) | (said == 2)  # a judge's "no preference" has no side to agree with
            counted = prefers_one & ~tie if ties == "skip" else prefers_one
            if not counted.any():
                continue
            if ties == "half":
                tied_hit = np.full(n, 0.5)
            else:  # a tie counts as preferring A or B ("skip": never used)
                tied_hit = (said == (1 if ties == "a" else 2)).astype(float)
            hits = np.where(tie, tied_hit, (prefers == said).astype(float))[counted]
            per_judge.append(float(np.mean(hits)))
        agreement[m] = float(np.mean(per_judge)) if per_judge else undefined(
            f"agreement of {m} with the judges", "no judged item the metric decides")
    pair_agreement, cohen = [], []
    pairs: List[Tuple[str, str, int, float, float]] = []
    letters = np.array(_Judged.LETTERS, dtype=object)
    for j1, j2 in combinations(range(len(judges)), 2):
        both = (table_of[:, j1] > 0) & (table_of[:, j2] > 0)
        if both.any():
            first, second = table_of[both, j1], table_of[both, j2]
            pair_agreement.append(float(np.mean(first == second)))
            with warnings.catch_warnings():  # a pair with undefined κ is left out of the mean
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                cohen.append(cohen_kappa(letters[first].tolist(), letters[second].tolist()))
            pairs.append((judges[j1], judges[j2], int(both.sum()), pair_agreement[-1], cohen[-1]))
        else:
            pairs.append((judges[j1], judges[j2], 0, math.nan, math.nan))
    # which system the judges prefer: per judge, and the items by the judges' majority; the sign test
    skipped = dict(skips or {})
    wins: Dict[str, Dict[str, int]] = {}
    for k, judge in enumerate(judges):
        column = table_of[:, k]
        wins[judge] = {"A": int((column == 1).sum()), "B": int((column == 2).sum()), "tie": int((column == 3).sum()),
                       "skip": int(skipped.get(judge, 0))}
    for judge in skipped:
        wins.setdefault(judge, {"A": 0, "B": 0, "tie": 0, "skip": int(skipped[judge])})
    majority = (table_of == 1).sum(axis=1) - (table_of == 2).sum(axis=1)
    wins["overall"] = {"A": int((majority > 0).sum()), "B": int((majority < 0).sum()),
                       "tie": int(((majority == 0) & (table_of > 0).any(axis=1)).sum()),
                       "skip": int(skipped_items)}
    sign = {who: (float(binomtest(c["A"], c["A"] + c["B"], 0.5, alternative="two-sided").pvalue)
                  if c["A"] + c["B"] else math.nan) for who, c in wins.items()}
    judge_agreement = float(np.mean(pair_agreement)) if pair_agreement else undefined(
        "agreement between judges", "no item judged by two judges")
    kind = kappa
    if kind == "cohen":
        valid = [k for k in cohen if not math.isnan(k)]
        kappa_value = float(np.mean(valid)) if valid else undefined(
            "Cohen's kappa", "no pair of judges with a defined kappa (fewer than two judges, or every "
            "pair's judgments in one category)")
    else:
        kappa_value = fleiss_kappa(judged.values())
    # Table 3: Spearman's rho between metrics across items
    correlations: Dict[Tuple[str, str], float] = {}
    for m1, m2 in combinations(metrics, 2):
        correlations[(m1, m2)] = _spearman(spearmanr, diffs[m1], diffs[m2])
    # Table 4: rho between aggregated human judgments and each metric
    votes = ((table_of == 1).sum(axis=1) - (table_of == 2).sum(axis=1)).astype(float)
    human = {"majority": np.sign(votes)}
    fitted: Optional[MaceResult] = None
    if judges:  # some item has a judgment
        labels = PREFERENCES + ((TIE,) if (table_of == 3).any() else ())
        fitted = mace(_JudgedItems(judged), labels=labels, restarts=mace_restarts, seed=seed)
        human["mace"] = fitted.posterior[:, 0] - fitted.posterior[:, 1]
    human_corr: Dict[str, Dict[str, Dict[str, float]]] = {}
    for aggregation, values in human.items():
        table: Dict[str, Dict[str, float]] = {}
        for m in metrics:
            table[m] = {"rho": _spearman(spearmanr, values, diffs[m])}
        base = table.get("las", {}).get("rho", math.nan)
        # each ρ's own number of items: those where the metric (and the judgment) is defined
        sizes = {m: int((~(np.isnan(values) | np.isnan(diffs[m]))).sum()) for m in metrics}
        for m in metrics:
            rho = table[m]["rho"]
            if m == "las" or min(sizes[m], sizes.get("las", 0)) <= 3 or math.isnan(rho) or math.isnan(base) or \
                    abs(rho) >= 1 or abs(base) >= 1:
                table[m]["z_vs_las"], table[m]["p_vs_las"] = math.nan, math.nan
                continue
            z = (math.atanh(rho) - math.atanh(base)) / math.sqrt(1.0 / (sizes[m] - 3) + 1.0 / (sizes["las"] - 3))
            table[m]["z_vs_las"], table[m]["p_vs_las"] = z, float(2 * norm.sf(abs(z)))
        human_corr[aggregation] = table
    return JudgmentAnalysis(
        tuple(metrics), judges, preferences, {m: preferences[m].count("tie") for m in metrics}, agreement,
        judge_agreement, kappa_value, kind, correlations, human_corr, fitted, n, diffs,
        {j: int((table_of[:, k] > 0).sum()) for k, j in enumerate(judges)},
        {j: int((table_of[:, k] == 3).sum()) for k, j in enumerate(judges)},
        {j: comments.get(j, 0) for j in judges}, left_out, wins, sign, pairs, tuple(systems),
        {j: int(v) for j, v in (judge_ms or {}).items()},
    )


def _spearman(spearmanr, x: np.ndarray, y: np.ndarray) -> float:
    mask = ~(np.isnan(x) | np.isnan(y))
    if mask.sum() < 3 or np.all(x[mask] == x[mask][0]) or np.all(y[mask] == y[mask][0]):
        return math.nan
    return float(spearmanr(x[mask], y[mask]).statistic)


__all__ = ["DEFAULT_METRICS", "JudgmentAnalysis", "JudgmentItem", "PREFERENCES", "TIE", "analyse_judgments",
           "format_analysis", "iter_judgments", "judged_line", "judgment_metric_choices", "load_datapackage",
           "load_judgments", "make_item"]
