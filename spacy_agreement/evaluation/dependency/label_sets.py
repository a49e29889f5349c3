"""Gold and predicted label sets that do not match: what a parser trained on another scheme
(spaCy's English pipelines use ClearNLP labels: ``dobj``, ``pobj``, ``prep``, ``ROOT``)
looks like against UD gold (``obj``, ``obl``, ``nmod:poss``, ``root``).

* :func:`read_label_map`: a map from predicted to gold labels, from a file of two columns
  (``predicted gold``, whitespace-separated, ``#`` comments) or a JSON object; applied to the
  predicted labels by :class:`~spacy_agreement.evaluation.dependency.metrics.EvaluationSettings`.
* :func:`check_label_sets`: the share of gold tokens whose label never occurs in the
  predictions (nothing the parser can output would be right for them), with the most
  frequent (gold, predicted) pairs among them; :func:`~spacy_agreement.evaluation.dependency.metrics.evaluate`
  warns (:class:`LabelSetWarning`, one line: :func:`label_warnings`) when that share is above
  :data:`WARN_SHARE`.
* :class:`LabelTable`: precision, recall and F of attachment per label, as spaCy's
  ``dep_las_per_type``: a token counts for its gold label in recall and for its predicted
  label in precision, and is right when head and label are both right.
"""
from __future__ import annotations

import json
import math
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, List, Sequence, Tuple, Union

from ...errors import AgreementError, Location, not_utf8
from ...report.format import percent

if TYPE_CHECKING:
    from ...trees import DependencyTree

#: Share of gold tokens with a label the predictions never use above which evaluation warns
#: (when at least :data:`WARN_TOKENS` tokens are concerned, so that a few sentences don't).
WARN_SHARE = 0.05
WARN_TOKENS = 20


class LabelSetWarning(UserWarning):
    """The gold and predicted label sets overlap poorly: a share of the gold tokens carry
    labels that the predictions never use (a different annotation scheme; map it)."""


class RootCaseWarning(UserWarning):
    """The prediction writes the root relation in another case than the gold (spaCy's
    ``ROOT`` against UD's ``root``) and the options compare it as written (conll18's
    convention): those tokens count as wrong labels."""


def root_case_tokens(pairs: Iterable[Tuple[Sequence[str], Sequence[str]]]) -> int:
    """Tokens whose gold and predicted labels are the root relation in different cases."""
    return sum(1 for gold, pred in pairs for g, p in zip(gold, pred)
               if g != p and g.lower() == "root" and p.lower() == "root")


def read_label_map(path: Union[str, Path]) -> Dict[str, str]:
    """A map from predicted to gold labels: a JSON object, or lines ``predicted gold``
    (whitespace-separated; blank lines and ``#`` comments ignored). Errors name file and line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(path, exc) from None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise AgreementError(f"not JSON: {exc.msg}", Location(str(path), line=exc.lineno)) from None
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
            raise AgreementError("a label map maps label strings to label strings", Location(str(path)))
        return dict(data)
    mapping: Dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        parts = content.split()
        if len(parts) != 2:
            raise AgreementError(f"expected two columns (predicted label, gold label), found {len(parts)}",
                                 Location(str(path), line=number))
        if parts[0] in mapping and mapping[parts[0]] != parts[1]:
            raise AgreementError(f"{parts[0]!r} is mapped twice ({mapping[parts[0]]!r}, {parts[1]!r})",
                                 Location(str(path), line=number))
        mapping[parts[0]] = parts[1]
    return mapping


@dataclass
class LabelSetCheck:
    """Gold tokens whose label the predictions never use: their share, their labels and
    the most frequent (gold, predicted) pairs among them."""

    gold_tokens: int = 0
    unseen_tokens: int = 0
    unseen_labels: List[Tuple[str, int]] = field(default_factory=list)
    pairs: List[Tuple[str, str, int]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.unseen_tokens / self.gold_tokens if self.gold_tokens else 0.0

    def message(self) -> str:
        """The one-line warning."""
        labels = ", ".join(f"{label} {n}" for label, n in self.unseen_labels[:5])
        pairs = ", ".join(f"{g}→{p} {n}" for g, p, n in self.pairs[:5])
        return (f"{percent(self.share, sign=True)} of gold tokens ({self.unseen_tokens} of {self.gold_tokens}) carry labels "
                f"the predictions never use ({labels}); most frequent gold→predicted: {pairs}; "
                "map predicted labels with --label-map (or label_map=)")

    def to_dict(self) -> Dict[str, object]:
        return {"unseen_gold_label_share": self.share, "unseen_gold_tokens": self.unseen_tokens,
                "unseen_gold_labels": dict(self.unseen_labels),
                "unseen_label_pairs": [{"gold": g, "predicted": p, "tokens": n} for g, p, n in self.pairs]}


def check_label_sets(pairs: Iterable[Tuple[Sequence[str], Sequence[str]]]) -> LabelSetCheck:
    """:class:`LabelSetCheck` over the (gold labels, predicted labels) of each sentence,
    labels already normalised as they will be compared."""
    gold = Counter()  # type: Counter[str]
    predicted = set()
    pair_counts = Counter()  # type: Counter[Tuple[str, str]]
    for g, p in pairs:
        gold.update(g)
        predicted.update(p)
        pair_counts.update(zip(g, p))
    unseen = {label: n for label, n in gold.items() if label not in predicted}
    check = LabelSetCheck(sum(gold.values()), sum(unseen.values()))
    check.unseen_labels = sorted(unseen.items(), key=lambda x: (-x[1], x[0]))
    check.pairs = sorted(((g, p, n) for (g, p), n in pair_counts.items() if g in unseen),
                         key=lambda x: (-x[2], x[0], x[1]))
    return check


@dataclass
class LabelTable:
    """Attachment per label: for each label the gold tokens with it, the predicted tokens
    with it and those right in head and label (spaCy's ``dep_las_per_type``)."""

    gold: Counter = field(default_factory=Counter)
    predicted: Counter = field(default_factory=Counter)
    correct: Counter = field(default_factory=Counter)

    def add(self, gold_label: str, predicted_label: str, right: bool) -> None:
        self.gold[gold_label] += 1
        self.predicted[predicted_label] += 1
        if right:
            self.correct[gold_label] += 1

    def rows(self) -> Dict[str, Dict[str, float]]:
        """``{label: {precision, recall, f, gold, predicted, correct}}`` by decreasing gold
        count (precision without predicted tokens, recall without gold tokens: ``nan``; F is
        2·correct / (gold + predicted), 0 when only one side uses the label)."""
        out: Dict[str, Dict[str, float]] = {}
        labels = sorted(set(self.gold) | set(self.predicted), key=lambda x: (-self.gold[x], -self.predicted[x], x))
        for label in labels:
            right, gold, predicted = self.correct[label], self.gold[label], self.predicted[label]
            p = right / predicted if predicted else math.nan
            r = right / gold if gold else math.nan
            f = 2 * right / (gold + predicted)  # the harmonic mean of P and R; 0 when one side never has it
            out[label] = {"precision": p, "recall": r, "f": f, "gold": gold, "predicted": predicted,
                          "correct": right}
        return out


def label_check(compared: Sequence[Tuple["DependencyTree", "DependencyTree"]],
                warn_share: float = WARN_SHARE) -> LabelSetCheck:
    """How well the predicted labels cover the gold ones, over (gold, prediction) pairs whose
    labels are as compared (:meth:`EvaluationSettings.normalise
    <spacy_agreement.evaluation.dependency.settings.EvaluationSettings.normalise>`), every
    token; a :class:`LabelSetWarning` (one line) when the share of gold tokens whose label the
    predictions never use is above ``warn_share`` (and at least :data:`WARN_TOKENS` tokens)."""
    check = check_label_sets((g.deprels, p.deprels) for g, p in compared)
    label_warnings(check, root_case_tokens((g.deprels, p.deprels) for g, p in compared), warn_share, stacklevel=3)
    return check


def label_warnings(check: LabelSetCheck, root_case: int, warn_share: float = WARN_SHARE, stacklevel: int = 3) -> None:
    """The warnings of :func:`label_check`: a :class:`LabelSetWarning` when too many gold
    labels are never predicted, a :class:`RootCaseWarning` when ``root_case`` tokens differ
    only by the case of the root relation."""
    if check.share > warn_share and check.unseen_tokens >= WARN_TOKENS:
        warnings.warn(check.message(), LabelSetWarning, stacklevel=stacklevel)
    if root_case:
        warnings.warn(f"{root_case} token(s) differ from the gold only by the case of the root relation (ROOT against "
                      "root) and count as wrong labels, as conll18_ud_eval.py counts them; compare it "
                      "case-insensitively with --fold-root-case (fold_root_case=True)", RootCaseWarning,
                      stacklevel=stacklevel)
