"""The settings of the evaluations other than the parser metrics (whose settings are
:class:`~spacy_agreement.evaluation.dependency.settings.EvaluationSettings`) and EVALB (whose
settings are its parameter file, :class:`~spacy_agreement.evaluation.constituency.evalb_params.EvalbSettings`):
leaf-ancestor, discourse arrows and judgments. Each is written into its output with its
signature (:mod:`spacy_agreement.signature`).

>>> LeafAncestorSettings().signature().rsplit("|", 1)[0]
'leaf-ancestor|cost:exact|evalb:none'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Tuple

from ..errors import BadOptionError
from ..signature import Settings, setting
from .dependency.settings import EvaluationSettings

LEAF_ANCESTOR_COSTS = ("exact", "first-char")


@dataclass(frozen=True)
class LeafAncestorSettings(Settings):
    """Leaf-ancestor and GEIG (Sampson & Babarczy 2003): the label replacement costs and the
    EVALB parameters GEIG's brackets follow (``evalb``: an
    :class:`~spacy_agreement.evaluation.constituency.evalb_params.EvalbSettings`, or none)."""

    computation = "leaf-ancestor"

    cost: str = setting("exact", key="cost", doc="label replacement costs: exact (0/2) or first-char (0.5 for a "
                                                  "shared first character)")
    evalb: Any = setting(None, key="evalb", kind="digest", compare=False,
                         doc="the EVALB parameters of GEIG: none or the digest of the parameter file's settings")

    def __post_init__(self) -> None:
        if self.cost not in LEAF_ANCESTOR_COSTS:
            raise BadOptionError(f"unknown leaf-ancestor cost {self.cost!r}: {' or '.join(LEAF_ANCESTOR_COSTS)}")


@dataclass(frozen=True)
class DiscourseSettings(Settings):
    """Agreement on discourse arrows (Mírovský et al. 2010)."""

    computation = "discourse"

    skip_both_ends: bool = setting(False, key="skip2", kind="bool",
                                   doc="one-level skip allowed at both ends of an arrow at once")
    ranges: str = setting("exact", key="ranges", doc="range and group ends: exact (same node and extent) or node "
                                                     "(the node the arrow is drawn at)")
    text_connectives: str = setting("sentences", key="textconn", doc="connectives known by text only: sentences "
                                                                    "(text + the sentences joined) or aside")
    lists: bool = setting(False, key="lists", kind="bool", doc="PML list links scored (type 'list') or set aside")
    skip_empty: bool = setting(False, key="empty", kind="bool", doc="an annotator file without any discourse link "
                                                                   "left out as not annotated")

    def __post_init__(self) -> None:  # the choices are checked by evaluation.discourse_model
        from .discourse.model import check_settings
        check_settings(self)


@dataclass(frozen=True)
class JudgmentSettings(EvaluationSettings):
    """Which metric agrees with human judgments (Plank et al. 2015): the metrics' settings
    (every field of :class:`EvaluationSettings`) and the analysis's own."""

    computation = "judgments"

    metrics: Tuple[str, ...] = setting(("las", "uas", "la", "ned", "ted", "lcp", "ucp"), key="metrics", kind="list",
                                       doc="the metrics compared with the judges")
    ties: str = setting("half", key="ties", doc="a metric's tie: half an agreement, skip, or a preference for a or b")
    kappa: str = setting("cohen", key="kappa", doc="agreement between judges: cohen (mean pairwise) or fleiss")
    seed: int = setting(0, key="seed", kind="int", doc="seed of the MACE restarts")

    def __post_init__(self) -> None:  # ties and kappa are checked by the analysis
        super().__post_init__()
        object.__setattr__(self, "metrics", tuple(self.metrics))


__all__ = ["DiscourseSettings", "JudgmentSettings", "LeafAncestorSettings"]
