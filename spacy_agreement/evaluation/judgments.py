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

A tree may also be given as CoNLL-U text (a string). Preferences are ``"A"`` or ``"B"``
(either case). ``upos`` and ``forms`` are optional (without UPOS, UCP/LCP and POS-wise LAS
have nothing to count).

:func:`load_datapackage` reads the layout of the data released with Plank et al. (2015)
(``CoNLL2015/datapackage/<lang>/``): a folder with ``gold.conll``, ``parser1.conll``,
``parser2.conll`` (parallel CoNLL files) and ``annotated.csv``, one row per sentence, one column
per judge (no header), each cell the colour of the parse the judge preferred (``blue`` or
``red``; an empty cell: not judged). In the released data ``parser1`` is Malt and ``parser2`` MST,
and blue is parser1 (this reproduces the paper's Tables 2 and 5), so the defaults are
``parses=("parser1", "parser2")`` (A and B) and ``colours=("blue", "red")``. Judges are named
``judge1``, ``judge2``, ... by column. :func:`load_judgments` reads either (a folder or a JSONL file).

What :func:`analyse_judgments` computes:

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
  the MACE-style item-response model (:mod:`spacy_agreement.evaluation.mace`; P(A) − P(B)), and a
  Fisher z-test of whether each metric's ρ differs from LAS's. Like the paper, the test
  treats the two correlations as independent samples of n items: z = (atanh ρ_m − atanh
  ρ_LAS) / sqrt(2 / (n − 3)).

Statistics come from scipy (``spearmanr``, ``norm``).
"""
from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..adapters.documents import read_document
from ..adapters.judgments_files import DATAPACKAGE_COLOURS, DATAPACKAGE_PARSES, read_datapackage_records
from ..errors import BadOptionError, JudgmentError, Location, UndefinedMetricWarning, undefined
from ..agreement.kappa import cohen_kappa, fleiss_kappa
from ..report.format import percent
from .mace import MaceResult, mace
from .parser_metrics import EvaluationOptions, display_name, metric_names, sentence_scores
from ..trees import DependencyTree

PREFERENCES = ("A", "B")
#: The metrics of the paper's tables, the default of :func:`analyse_judgments` and of the CLI's
#: ``--metric``; any name of the parser-metric table (:func:`judgment_metric_choices`) can be chosen.
DEFAULT_METRICS = ("las", "uas", "la", "ned", "ted", "lcp", "ucp")


def judgment_metric_choices() -> Tuple[str, ...]:
    """The metrics ``analyse_judgments`` (and ``judgments --metric``) accept: every metric of
    :data:`~spacy_agreement.evaluation.parser_metrics.PARSER_METRICS`, registered ones included."""
    return metric_names()


@dataclass
class JudgmentItem:
    """A gold tree, two candidate parses and the judges' preferences (``"A"`` or ``"B"``)."""

    id: str
    gold: DependencyTree
    a: DependencyTree
    b: DependencyTree
    judgments: Dict[str, str]


def make_item(id: str, gold: DependencyTree, a: DependencyTree, b: DependencyTree,
              judgments: Mapping[str, str], location: Optional[Location] = None) -> JudgmentItem:
    """Check and build one item; errors name the item."""
    where = location or Location(f"item {id}")
    for name, tree in (("a", a), ("b", b)):
        if len(tree) != len(gold):
            raise JudgmentError(f"item {id!r}: parse {name.upper()} has {len(tree)} tokens, gold has {len(gold)}", where)
    clean: Dict[str, str] = {}
    for judge, value in judgments.items():
        value_up = str(value).strip().upper()
        if value_up not in PREFERENCES:
            raise JudgmentError(f"item {id!r}: judge {judge!r} gave unknown preference {value!r} (use A or B)", where)
        clean[str(judge)] = value_up
    return JudgmentItem(str(id), gold, a, b, clean)


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


def load_judgments(path: Union[str, "os.PathLike[str]"], reader: str = "judgments",
                   **datapackage_options: Any) -> List[JudgmentItem]:
    """Items from a JSON Lines file (format in the module docstring), or from a folder in the
    layout of the Plank et al. (2015) release (:func:`load_datapackage`, which takes the
    keyword options); read by the registered document reader ``reader``
    (:data:`~spacy_agreement.adapters.documents.DOCUMENT_READERS`; the built-in one is
    :func:`~spacy_agreement.adapters.judgments_files.read_judgment_records`), each item
    checked by :func:`make_item` before the next is read."""
    return [make_item(*record) for record in read_document(reader, path, **datapackage_options)]


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
        if self.mace is not None:
            for judge, value in self.mace.competence.items():
                out[f"mace_competence_{judge}"] = value
        return out


def analyse_judgments(
    items: Sequence[JudgmentItem],
    metrics: Sequence[str] = DEFAULT_METRICS,
    options: Optional[EvaluationOptions] = None,
    ties: str = "half",
    mace_restarts: int = 10,
    seed: int = 0,
    kappa: str = "cohen",
    check_forms: bool = True,
) -> JudgmentAnalysis:
    """Run every analysis of the module docstring. ``check_forms=False`` lets a parse's forms
    differ from the gold's (only the token count must match; the released Croatian MST parse
    writes numbers as ``<num>``)."""
    from scipy.stats import norm, spearmanr  # lazy: import time

    options = options or EvaluationOptions()
    choices = judgment_metric_choices()
    unknown = [m for m in metrics if m not in choices]
    if unknown:
        raise BadOptionError(f"unknown metrics {unknown}; choose from {', '.join(choices)}")
    if ties not in ("half", "skip", "a", "b"):
        raise BadOptionError("ties must be 'half', 'skip', 'a' or 'b'")
    if kappa not in ("cohen", "fleiss"):
        raise BadOptionError("kappa must be 'cohen' (mean pairwise Cohen) or 'fleiss'")
    if not items:
        raise JudgmentError("no judgment items")
    judges = sorted({j for item in items for j in item.judgments})
    diffs = {m: np.empty(len(items)) for m in metrics}
    for i, item in enumerate(items):
        # nan (no warning) where a metric counts nothing in the sentence: a tie below
        score_a = sentence_scores(item.gold, item.a, options, check_forms, metrics, warn=False)
        score_b = sentence_scores(item.gold, item.b, options, check_forms, metrics, warn=False)
        for m in metrics:
            diffs[m][i] = score_a[m] - score_b[m]  # nan when the metric counts nothing
    preferences = {
        m: ["A" if d > 0 else "B" if d < 0 else "tie" for d in np.nan_to_num(diffs[m], nan=0.0)] for m in metrics
    }
    # Table 5: mean agreement of each metric with the judges, and between judges
    agreement: Dict[str, float] = {}
    for m in metrics:
        per_judge = []
        for judge in judges:
            hits = []
            for item, pref in zip(items, preferences[m]):
                if judge not in item.judgments:
                    continue
                if pref == "tie":
                    if ties == "half":
                        hits.append(0.5)
                    elif ties in ("a", "b"):
                        hits.append(float(item.judgments[judge] == ties.upper()))
                    continue
                hits.append(float(pref == item.judgments[judge]))
            if hits:
                per_judge.append(float(np.mean(hits)))
        agreement[m] = float(np.mean(per_judge)) if per_judge else undefined(
            f"agreement of {m} with the judges", "no judged item the metric decides")
    pair_agreement, cohen = [], []
    for j1, j2 in combinations(judges, 2):
        shared = [(it.judgments[j1], it.judgments[j2]) for it in items if j1 in it.judgments and j2 in it.judgments]
        if shared:
            pair_agreement.append(float(np.mean([a == b for a, b in shared])))
            with warnings.catch_warnings():  # a pair with undefined κ is left out of the mean
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                cohen.append(cohen_kappa([a for a, _ in shared], [b for _, b in shared]))
    judge_agreement = float(np.mean(pair_agreement)) if pair_agreement else undefined(
        "agreement between judges", "no item judged by two judges")
    kind = kappa
    if kind == "cohen":
        valid = [k for k in cohen if not math.isnan(k)]
        kappa_value = float(np.mean(valid)) if valid else undefined(
            "Cohen's kappa", "no pair of judges with a defined kappa (fewer than two judges, or every "
            "pair's judgments in one category)")
    else:
        kappa_value = fleiss_kappa([list(it.judgments.values()) for it in items])
    # Table 3: Spearman's rho between metrics across items
    correlations: Dict[Tuple[str, str], float] = {}
    for m1, m2 in combinations(metrics, 2):
        correlations[(m1, m2)] = _spearman(spearmanr, diffs[m1], diffs[m2])
    # Table 4: rho between aggregated human judgments and each metric
    votes = np.array([sum(+1 if v == "A" else -1 for v in it.judgments.values()) for it in items], dtype=float)
    human = {"majority": np.sign(votes)}
    fitted: Optional[MaceResult] = None
    if judges and any(it.judgments for it in items):
        fitted = mace([it.judgments for it in items], labels=PREFERENCES, restarts=mace_restarts, seed=seed)
        human["mace"] = fitted.posterior[:, 0] - fitted.posterior[:, 1]
    human_corr: Dict[str, Dict[str, Dict[str, float]]] = {}
    n = len(items)
    for aggregation, values in human.items():
        table: Dict[str, Dict[str, float]] = {}
        for m in metrics:
            table[m] = {"rho": _spearman(spearmanr, values, diffs[m])}
        base = table.get("las", {}).get("rho", math.nan)
        for m in metrics:
            rho = table[m]["rho"]
            if m == "las" or n <= 3 or math.isnan(rho) or math.isnan(base) or abs(rho) >= 1 or abs(base) >= 1:
                table[m]["z_vs_las"], table[m]["p_vs_las"] = math.nan, math.nan
                continue
            z = (math.atanh(rho) - math.atanh(base)) / math.sqrt(2.0 / (n - 3))
            table[m]["z_vs_las"], table[m]["p_vs_las"] = z, float(2 * norm.sf(abs(z)))
        human_corr[aggregation] = table
    return JudgmentAnalysis(
        tuple(metrics), judges, preferences, {m: preferences[m].count("tie") for m in metrics}, agreement,
        judge_agreement, kappa_value, kind, correlations, human_corr, fitted, len(items), diffs,
    )


def _kappa_name(result: "JudgmentAnalysis") -> str:
    if result.kappa_kind == "fleiss":
        return "Fleiss' kappa"
    return "Cohen's kappa" if len(result.judges) <= 2 else "mean pairwise Cohen's kappa"


def _spearman(spearmanr, x: np.ndarray, y: np.ndarray) -> float:
    mask = ~(np.isnan(x) | np.isnan(y))
    if mask.sum() < 3 or np.all(x[mask] == x[mask][0]) or np.all(y[mask] == y[mask][0]):
        return math.nan
    return float(spearmanr(x[mask], y[mask]).statistic)


def format_analysis(result: JudgmentAnalysis) -> str:
    """The tables of the paper as text: agreements and κ in %, Spearman's ρ × 100 (as every
    text output prints a score: :func:`~spacy_agreement.report.format.percent`)."""
    width = 7  # -100.00

    def num(v: float) -> str:
        return percent(v, width=width)

    names = [display_name(m) for m in result.metrics]
    lines = [f"{result.items} items, {len(result.judges)} judges ({', '.join(result.judges)})",
             f"between judges: raw agreement {percent(result.judge_agreement, sign=True)}, "
             f"{_kappa_name(result)} {percent(result.kappa, sign=True)}", "",
             "Mean agreement with the judges, % (Table 5)",
             "  " + " ".join(f"{n:>{width}}" for n in ["ANN", *names]),
             "  " + num(result.judge_agreement) + " " + " ".join(num(result.metric_judge_agreement[m]) for m in result.metrics),
             f"  {'ties':<{width}} " + " ".join(f"{result.ties[m]:{width}d}" for m in result.metrics), "",
             "Spearman's rho between metrics, × 100 (Table 3)",
             "       " + " ".join(f"{n:>{width}}" for n in names[1:])]
    for i, m1 in enumerate(result.metrics[:-1]):
        row = [num(result.metric_correlations[(m1, m2)]) for m2 in result.metrics[i + 1:]]
        lines.append(f"  {display_name(m1):<5}" + " " * (width + 1) * i
                     + " ".join(row))
    lines.append("")
    lines.append("Spearman's rho with the human judgments, × 100 (Table 4; * differs from LAS, Fisher z, p < 0.05)")
    lines.append("           " + " ".join(f"{n:>{width}} " for n in names))
    for aggregation, table in result.human_correlations.items():
        cells = []
        for m in result.metrics:
            p = table[m].get("p_vs_las", math.nan)
            cells.append(num(table[m]["rho"]) + ("*" if not math.isnan(p) and p < 0.05 else " "))
        lines.append(f"  {aggregation:<9}" + " ".join(cells))
    if result.mace is not None:
        lines.append("")
        lines.append("MACE competence, %: " + ", ".join(f"{j} {percent(v)}" for j, v in result.mace.competence.items()))
    return "\n".join(lines)
