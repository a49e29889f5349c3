"""The settings of one α computation (:class:`AlphaSettings`): built once from the CLI, the
Python API or a spaCy config, passed down whole to :func:`~spacy_agreement.agreement.alpha.alpha`
and written into its result, whose signature (:mod:`spacy_agreement.signature`) says how
the numbers were computed.

>>> AlphaSettings(deltas=("plain", "diff", "norm"), method="exact").signature().rsplit("|", 1)[0]
'alpha|d:plain,diff,norm|size:annotation|cycles:drop|partial:missing|cost:none|method:exact|boot:0|xmism:no|sub:no|rootfold:yes'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Tuple

from ..errors import BadOptionError
from ..signature import Settings, setting
from ..vocab import compared_label

#: ``method`` values: ``"auto"`` (exact when it is estimated to take about a minute or less,
#: else sampled), ``"exact"``, ``"sampled"``, ``"off"`` (no α: accuracies only).
ALPHA_METHODS = ("auto", "exact", "sampled", "off")
BACKENDS = ("threads", "serial", "dask", "gpu")
#: ``partial`` values: how a tree with tokens not annotated yet (HEAD ``_``) enters α.
PARTIAL_POLICIES = ("missing", "attach")
#: Seconds the exact α may be estimated to take under ``method="auto"``.
DEFAULT_ALPHA_SECONDS = 60.0
DEFAULT_SAMPLE_PAIRS = 20000


def _estimated(settings: "AlphaSettings") -> bool:
    return settings.method == "sampled" or settings.bootstrap > 0


@dataclass(frozen=True)
class AlphaSettings(Settings):
    """How α and the accuracies beside it are computed (Skjærholt 2014; see
    :mod:`spacy_agreement.agreement.alpha` for the choices the paper leaves open).

    ``deltas`` empty means every δ registered to be computed by default (δplain, δdiff,
    δnorm and those added with :func:`~spacy_agreement.agreement.deltas.register_delta`);
    a result's settings always name them. ``method`` ``"auto"`` becomes ``"exact"`` or
    ``"sampled"`` in the result's settings (what was computed); ``budget`` (DP cells) or
    ``seconds`` (estimated time on this machine, the default rule) decide it."""

    computation = "alpha"

    deltas: Tuple[str, ...] = setting((), key="d", kind="list",
                                      doc="the distances δ: plain, diff, norm, pqgram or a registered one")
    size: str = setting("annotation", key="size",
                        doc="|x| in δdiff and δnorm: annotation (tokens + root, or leaves; the paper's) or tree "
                            "(nodes of the compared tree)")
    cycles: str = setting("drop", key="cycles", doc="tokens in head cycles: drop (counted) or raise")
    partial: str = setting("missing", key="partial",
                           doc="a tree with tokens not annotated yet (HEAD _): missing (a missing annotation, "
                               "counted and listed) or attach (those tokens on the root, labelled unannotated: "
                               "disagreements)")
    label_cost: Any = setting(None, key="cost", kind="digest", compare=False,
                              doc="label substitution costs: none (unit costs) or the digest of the cost table")
    method: str = setting("auto", key="method",
                          doc="how De was computed: exact (all pairs) or sampled (random pairs); auto is "
                              "resolved to one of them in every output")
    sample_pairs: int = setting(DEFAULT_SAMPLE_PAIRS, key="pairs", kind="int", when=lambda s: s.method == "sampled",
                                doc="random pairs behind the sampled De (sampled only)")
    seed: int = setting(0, key="seed", kind="int", when=_estimated,
                        doc="random seed of the sampled pairs and the bootstrap (estimates only)")
    confidence: float = setting(0.95, key="ci", kind="float", when=_estimated,
                                doc="confidence level of the interval (estimates only)")
    bootstrap: int = setting(0, key="boot", kind="int", doc="bootstrap resamples over items (0: none)")
    exclude_mismatched: bool = setting(False, key="xmism", kind="bool",
                                       doc="phrase trees whose leaf counts differ left out of Jaccard")
    ignore_subtypes: bool = setting(False, key="sub", kind="bool",
                                    doc="relation subtypes dropped before LAS/LA (nmod:poss = nmod)")
    fold_root_case: bool = setting(True, key="rootfold", kind="bool",
                                   doc="the root relation compared case-insensitively (ROOT = root) in LAS/LA")
    # how, not what: these never change a number
    budget: Optional[float] = setting(None, doc="DP cells the exact α may cost under auto (instead of seconds)")
    seconds: float = setting(DEFAULT_ALPHA_SECONDS, doc="estimated seconds the exact α may take under auto")
    backend: str = setting("threads")
    n_threads: Optional[int] = setting(None)
    scheduler: Any = setting(None, compare=False)
    progress: bool = setting(False)

    def __post_init__(self) -> None:
        if isinstance(self.deltas, str):
            object.__setattr__(self, "deltas", tuple(d.strip() for d in self.deltas.split(",") if d.strip()))
        else:
            object.__setattr__(self, "deltas", tuple(self.deltas))
        if self.method not in ALPHA_METHODS:
            raise BadOptionError(f"unknown alpha method {self.method!r}: {', '.join(ALPHA_METHODS)}")
        if self.size not in ("annotation", "tree"):
            raise BadOptionError(f"size must be 'annotation' or 'tree', not {self.size!r}")
        if self.cycles not in ("drop", "raise"):
            raise BadOptionError(f"cycles must be 'drop' or 'raise', not {self.cycles!r}")
        if self.partial not in PARTIAL_POLICIES:
            raise BadOptionError(f"partial must be {' or '.join(map(repr, PARTIAL_POLICIES))}, not {self.partial!r}",
                                 option="partial")
        if self.backend not in BACKENDS:
            raise BadOptionError(f"unknown backend {self.backend!r}: {', '.join(map(repr, BACKENDS))}")
        if self.budget is not None and not float(self.budget) > 0:
            raise BadOptionError(f"the alpha budget must be a positive number of cells, not {self.budget}")
        if not float(self.seconds) > 0:
            raise BadOptionError(f"the alpha time budget must be a positive number of seconds, not {self.seconds}")
        if self.sample_pairs < 1:
            raise BadOptionError(f"sample_pairs must be at least 1, not {self.sample_pairs}")
        if self.bootstrap < 0:
            raise BadOptionError(f"bootstrap must be 0 or more resamples, not {self.bootstrap}")
        if not 0 < self.confidence < 1:
            raise BadOptionError(f"confidence must be between 0 and 1, not {self.confidence}")

    def label(self, label: str) -> str:
        """A label as the accuracies compare it (the root's case folded, subtypes dropped),
        as :meth:`~spacy_agreement.evaluation.dependency.settings.EvaluationSettings.label` does."""
        return compared_label(label, self.fold_root_case, self.ignore_subtypes)


__all__ = ["ALPHA_METHODS", "AlphaSettings", "BACKENDS", "PARTIAL_POLICIES", "DEFAULT_ALPHA_SECONDS", "DEFAULT_SAMPLE_PAIRS"]
