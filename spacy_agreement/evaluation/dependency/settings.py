"""The options of the parser metrics (:class:`EvaluationSettings`: punctuation rules, labels as
compared, tag sets, TED normaliser, root weights, NED variant) and what they do to a tree:
which tokens are punctuation, gold depths, contraction of excluded tokens. The metrics
themselves are in :mod:`spacy_agreement.evaluation.dependency.metrics`, whose docstring explains
every option."""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, replace
from typing import Any, Callable, FrozenSet, Mapping, Optional, Union

import numpy as np

from ...errors import BadOptionError
from ...signature import Settings, setting
from ...vocab import compared_label
from ...limits import depths
from ...trees import DependencyTree

CONTENT_UPOS = frozenset({"ADJ", "NOUN", "PROPN", "VERB"})

#: The field's evaluation conventions, each a set of option values (any option given
#: explicitly overrides its convention's value; :meth:`EvaluationSettings.for_convention`):
#:
#: * ``conll18``: ``conll18_ud_eval.py`` of the CoNLL 2018 UD shared task (Zeman et al. 2018):
#:   every word scored (punctuation too), relations compared by their universal part (subtypes
#:   stripped), the root relation as written (``ROOT`` is not ``root``). The default of
#:   ``spacy-agreement evaluate``.
#: * ``conll07``: ``eval07.pl`` of the CoNLL 2007 shared task: labels as written, punctuation
#:   scored (its ``-p`` excludes forms of Unicode punctuation only: ``--no-punct``).
#: * ``conllx``: ``eval.pl`` of CoNLL-X (2006): labels as written, punctuation by form excluded.
#: * ``plank2015``: Plank et al. (2015): ``eval.pl``'s punctuation and NED without the
#:   grandparent case (benchmarks/plank2015_parity.md).
#: * ``spacy``: spaCy's parser scorer (``spacy evaluate --gold-preproc``, ``nlp.evaluate``): LAS
#:   and UAS are its F over arcs (``attachment="spacy"``, :func:`spacy_arc_label`), punctuation
#:   (labels ``p`` and ``punct``, lowercased) left out of the gold arcs by the gold label and
#:   of the predicted arcs by the predicted label; the other metrics leave out the gold's
#:   punctuation by label, the root relation case-insensitive (spaCy's ``ROOT``).
#: * ``package``: this package's conventions before 0.3 (punctuation by UPOS or label, scored;
#:   subtypes kept; the root case folded).
CONVENTIONS = {
    "conll18": {"exclude_punct": False, "ignore_subtypes": True, "fold_root_case": False},
    "conll07": {"exclude_punct": False, "punct_rules": frozenset({"form"}), "ignore_subtypes": False,
                "fold_root_case": False},
    "conllx": {"exclude_punct": True, "punct_rules": frozenset({"form"}), "ignore_subtypes": False,
               "fold_root_case": False},
    "plank2015": {"exclude_punct": True, "punct_rules": frozenset({"form"}), "ignore_subtypes": False,
                  "fold_root_case": False, "ned": "undirected"},
    "spacy": {"exclude_punct": True, "punct_rules": frozenset({"label"}), "punct_labels": frozenset({"p", "punct"}),
              "ignore_subtypes": False, "fold_root_case": True, "attachment": "spacy"},
    "package": {"exclude_punct": False, "punct_rules": frozenset({"upos", "label"}), "ignore_subtypes": False,
                "fold_root_case": True},
}
PUNCT_RULES = ("upos", "label", "form")
NED_VARIANTS = ("schwartz", "undirected")
#: What LAS and UAS are (:attr:`EvaluationSettings.attachment`): ``accuracy`` over the gold's
#: scored tokens (Plank et al. 2015, §2; ``conll18_ud_eval.py``), or ``spacy``: spaCy's F over
#: arcs (``spacy.scorer.Scorer.score_deps``; :func:`spacy_arc_label`).
ATTACHMENTS = ("accuracy", "spacy")
Weight = Union[str, Callable[[int], float]]


@dataclass(frozen=True)
class EvaluationSettings(Settings):
    """Options applied the same way to every metric (see the module docstring): the settings
    of one parser evaluation, written into its result with their signature
    (:mod:`spacy_agreement.signature`).

    ``EvaluationSettings()`` keeps 0.2's defaults, the convention ``package`` (``conv:package``),
    on which the judgments, the spaCy scorer's config and code written against
    :func:`~spacy_agreement.evaluation.dependency.metrics.evaluate` rely; ``spacy-agreement evaluate``
    and :func:`spacy_agreement.evaluate` start from ``for_convention("conll18")``."""

    computation = "evaluate"

    exclude_punct: bool = setting(False, key="xpunct", kind="bool", doc="punctuation left out of every metric")
    punct_upos: FrozenSet[str] = setting(frozenset({"PUNCT"}), key="pupos", kind="set",
                                         doc="UPOS tags of punctuation (rule upos)")
    punct_labels: FrozenSet[str] = setting(frozenset({"punct"}), key="plabels", kind="set",
                                           doc="relations of punctuation (rule label)")
    ignore_subtypes: bool = setting(False, key="sub", kind="bool", doc="relation subtypes dropped (nmod:poss = nmod)")
    ted_norm: str = setting("sum", key="tednorm", doc="TED accuracy normaliser: sum, max or gold")
    root_weight: Weight = setting("inverse-log", key="rw", doc="root-distance weight: inverse-log, log or uniform")
    verb_upos: FrozenSet[str] = setting(frozenset({"VERB"}), key="verbs", kind="set", doc="gold tags of verbs (UCP, LCP)")
    content_upos: FrozenSet[str] = setting(CONTENT_UPOS, key="content", kind="set",
                                           doc="gold tags of content words (LAS content/function)")
    punct_rules: FrozenSet[str] = setting(frozenset({"upos", "label"}), key="prules", kind="set",
                                          doc="what makes a gold token punctuation: upos, label, form")
    ned: str = setting("schwartz", key="ned", doc="NED variant: schwartz or undirected")
    label_map: Optional[Mapping[str, str]] = setting(None, key="lmap", kind="digest", compare=False,
                                                     doc="predicted-to-gold label map: none or its digest")
    fold_root_case: bool = setting(True, key="rootfold", kind="bool",
                                   doc="the root relation compared case-insensitively (ROOT = root)")
    skip_mismatched: bool = setting(False, key="skipmism", kind="bool",
                                    doc="sentences whose tokens differ skipped and counted (else an error)")
    check_forms: bool = setting(True, key="forms", kind="bool",
                                doc="tokens compared by form as well as by count")
    cycles: str = setting("drop", key="cycles", doc="head cycles in the input: drop (scored as they are) or raise")
    attachment: str = setting("accuracy", key="att",
                              doc="LAS and UAS: accuracy (over the gold's scored tokens) or spacy (spaCy's F "
                                  "over arcs, each side's punctuation left out by its own label)")
    convention: str = setting("package", key="conv",
                              doc="the convention the options started from: conll18, conll07, conllx, plank2015, "
                                  "spacy or package (options given explicitly override it)")

    @classmethod
    def for_convention(cls, name: str, **overrides: Any) -> "EvaluationSettings":
        """The options of convention ``name`` (:data:`CONVENTIONS`), with ``overrides``
        (options given explicitly) replacing its values."""
        if name not in CONVENTIONS:
            raise BadOptionError(f"unknown convention {name!r}: {', '.join(CONVENTIONS)}")
        return cls(**{**CONVENTIONS[name], "convention": name, **overrides})

    def __post_init__(self) -> None:
        if isinstance(self.punct_rules, str):  # "upos,label", as the CLI and scorer configs write it
            rules = frozenset(r.strip().lower() for r in self.punct_rules.split(",") if r.strip())
            object.__setattr__(self, "punct_rules", rules)
        for name in ("punct_upos", "punct_labels", "verb_upos", "content_upos", "punct_rules"):
            value = getattr(self, name)
            if not isinstance(value, frozenset):
                object.__setattr__(self, name, frozenset(value))
        if self.convention not in CONVENTIONS:
            raise BadOptionError(f"unknown convention {self.convention!r}: {', '.join(CONVENTIONS)}")
        if self.cycles not in ("drop", "raise"):
            raise BadOptionError(f"cycles must be 'drop' or 'raise', not {self.cycles!r}")
        unknown = set(self.punct_rules) - set(PUNCT_RULES)
        if unknown:
            raise BadOptionError(f"unknown punctuation rule(s) {sorted(unknown)}: choose from {', '.join(PUNCT_RULES)}")
        if self.ned not in NED_VARIANTS:
            raise BadOptionError(f"unknown NED variant {self.ned!r}: {' or '.join(NED_VARIANTS)}")
        if self.attachment not in ATTACHMENTS:
            raise BadOptionError(f"unknown attachment {self.attachment!r}: {' or '.join(ATTACHMENTS)}")

    def label(self, label: str, predicted: bool = False) -> str:
        """A label as it is compared: a predicted one through ``label_map``, then the root
        relation in lower case (``fold_root_case``), then without its subtype
        (``ignore_subtypes``)."""
        if predicted and self.label_map:
            label = self.label_map.get(label, label)
        return compared_label(label, self.fold_root_case, self.ignore_subtypes)

    def normalise(self, tree: DependencyTree, predicted: bool = False) -> DependencyTree:
        """``tree`` with its labels as they are compared (:meth:`label`); the tree itself
        when no label changes."""
        labels = [self.label(x, predicted) for x in tree.deprels]
        if all(a == b for a, b in zip(labels, tree.deprels)):
            return tree
        return replace(tree, deprels=tuple(labels))

    def arc_label(self, label: str, predicted: bool = False) -> str:
        """A label as spaCy's F over arcs compares it (``attachment="spacy"``,
        :func:`spacy_arc_label`)."""
        return spacy_arc_label(label, self.label_map if predicted else None, self.ignore_subtypes)

    def arc_punct(self, form: str, upos: str, arc_label: str) -> bool:
        """Whether a token of either side is punctuation for spaCy's F over arcs, by that side's
        own columns (``arc_label``: its label through :meth:`arc_label`) and the
        ``punct_rules``: the label (in ``punct_labels``, compared in lower case), the UPOS or
        the form. Under the convention ``spacy`` (rule ``label``, ``p`` and ``punct``) this
        is spaCy's ``ignore_labels=("p", "punct")``."""
        rules = self.punct_rules
        return (("label" in rules and arc_label in {x.lower() for x in self.punct_labels})
                or ("upos" in rules and upos in self.punct_upos) or ("form" in rules and is_punct_form(form)))

    def is_punct(self, form: str, upos: str, label: str) -> bool:
        """Whether a gold token is punctuation by any of the ``punct_rules``."""
        rules = self.punct_rules
        return (("upos" in rules and upos in self.punct_upos) or ("label" in rules and label in self.punct_labels)
                or ("form" in rules and is_punct_form(form)))

    def weight(self, depth: int) -> float:
        if callable(self.root_weight):
            return float(self.root_weight(depth))
        if self.root_weight == "inverse-log":
            return 1.0 / math.log2(1 + depth)
        if self.root_weight == "log":
            return math.log2(1 + depth)
        if self.root_weight == "uniform":
            return 1.0
        raise BadOptionError(f"unknown root weight {self.root_weight!r}: 'inverse-log', 'log', 'uniform' or a function")


def tag_set(value: Optional[str], default: Any) -> Any:
    """A comma-separated tag list (``--verb-tags``, ``--content-tags``) as a frozenset
    (``default`` when not given)."""
    if value is None:
        return default
    found = frozenset(t.strip() for t in value.split(",") if t.strip())
    if not found:
        raise BadOptionError(f"no tags in {value!r}")
    return found


def options_from_flags(no_punct: Optional[bool], punct: Optional[str], punct_label: Any = None,
                       verb_tags: Optional[str] = None, content_tags: Optional[str] = None,
                       settings_class: Any = None, convention: Optional[str] = None, **rest: Any) -> Any:
    """:class:`EvaluationSettings` (or ``settings_class``, a subclass) from the options of
    ``evaluate``, ``compare`` and ``judgments`` as their flags give them (``--no-punct``,
    ``--punct RULES``, ``--punct-label`` repeated, ``--verb-tags``/``--content-tags`` comma-separated;
    ``rest`` the fields by name): those given (not ``None``) over the values of ``convention``
    (:data:`CONVENTIONS`), or over the defaults without one (a bad value raises
    :class:`~spacy_agreement.errors.BadOptionError`)."""
    given = {k: v for k, v in rest.items() if v is not None}
    if no_punct is not None:
        given["exclude_punct"] = no_punct
    if punct is not None:
        given["punct_rules"] = punct
    if punct_label:
        given["punct_labels"] = frozenset(punct_label)
    if verb_tags is not None:
        given["verb_upos"] = tag_set(verb_tags, None)
    if content_tags is not None:
        given["content_upos"] = tag_set(content_tags, None)
    cls = settings_class or EvaluationSettings
    return cls.for_convention(convention, **given) if convention else cls(**given)


def spacy_arc_label(label: str, label_map: Optional[Mapping[str, str]] = None, ignore_subtypes: bool = False) -> str:
    """A relation as spaCy's parser scorer compares it, for LAS and UAS under
    ``attachment="spacy"`` (the convention ``spacy``): ``spacy.pipeline.dep_parser.parser_score``
    reads every label, the reference's and the prediction's, through a getter that lowercases
    it (``ROOT``, spaCy's root relation, is UD's ``root``; ``PUNCT`` is ``punct``), and
    ``Scorer.score_deps`` compares the lowercased labels as they are: subtypes are kept
    (``nmod:poss`` is not ``nmod``, and ``punct:x`` is not punctuation). A predicted label then
    goes through ``label_map`` looked up in lower case and written in lower case, as
    ``evaluate --model``'s ``spacy_las`` and the scorer ``spacy_agreement.syntax_scorer.v1``
    apply it; with ``ignore_subtypes`` (an option given explicitly) the subtype is dropped
    last. Punctuation is then a label (so lowercased) in ``punct_labels``: spaCy's
    ``ignore_labels=("p", "punct")``."""
    label = label.lower()
    if label_map:
        label = next((v.lower() for k, v in label_map.items() if k.lower() == label), label)
    return label.split(":", 1)[0] if ignore_subtypes else label


def is_punct_form(form: str) -> bool:
    """The CoNLL-07 ``eval.pl`` rule: a form of Unicode punctuation characters only (every
    character's general category starts with ``P``: « » — … ¿ count, $ + do not)."""
    # letters and digits only (most forms) are not punctuation: answered without the categories
    return bool(form) and not form.isalnum() and all(unicodedata.category(ch).startswith("P") for ch in form)


def punct_mask(tree: DependencyTree, options: EvaluationSettings) -> np.ndarray:
    """Which gold tokens are punctuation by the options' rules."""
    if "form" in options.punct_rules and all(f == "_" for f in tree.forms):
        raise BadOptionError(f"{tree.location}: the 'form' punctuation rule needs word forms, and this sentence has none")
    return np.fromiter((options.is_punct(f, u, d) for f, u, d in zip(tree.forms, tree.upos, tree.deprels)),
                       dtype=bool, count=len(tree))


def gold_depths(tree: DependencyTree) -> np.ndarray:
    """Depth of each token in the tree (1 = attached to the root); ``len(tree)`` in a cycle.
    Linear time (:func:`~spacy_agreement.limits.depths`), so a 100,000-token chain is no harder
    than 100,000 short sentences."""
    depth = np.asarray(depths([h - 1 for h in tree.heads.tolist()]), dtype=np.int64)
    depth[depth == 0] = len(tree)
    return depth


def contract(tree: DependencyTree, keep: np.ndarray) -> DependencyTree:
    """The tree without the tokens where ``keep`` is False: their dependents move up to the
    nearest kept ancestor (or the root), as a tree edit distance "delete" does."""
    heads = tree.heads.tolist()
    index = np.cumsum(keep).tolist()  # new 1-based position of kept token k is index[k-1]
    new_heads = []
    for k in np.flatnonzero(keep).tolist():
        head, steps = heads[k], 0
        while head != 0 and not keep[head - 1] and steps <= len(heads):
            head = heads[head - 1]
            steps += 1
        new_heads.append(0 if head == 0 or not keep[head - 1] else index[head - 1])
    pick = np.flatnonzero(keep).tolist()
    if not pick:
        return tree
    return DependencyTree.create(
        new_heads, [tree.deprels[k] for k in pick], [tree.forms[k] for k in pick],
        [tree.upos[k] for k in pick], [tree.ids[k] for k in pick], tree.location,
    )


#: 0.3's name (one word per concept: settings); works until 0.5
EvaluationOptions = EvaluationSettings
