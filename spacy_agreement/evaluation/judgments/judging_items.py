"""The items of a blind pairwise judging study of two parsers (Plank et al. 2015, §3): which
sentences the judges see, as the paper picked them.

Plank et al. "randomly select 200 sentences from the test sections, where our two dependency
parsers do not agree on the correct analysis, after removing punctuation", showed each
sentence's two analyses to 2–4 judges without saying which parser made which, and asked which
is better. :func:`select_judging_items` makes those items from two systems' files (and a gold
file, optional):

* the sentences are paired as every command pairs them, by ``sent_id``, else by position,
  else by text (:func:`~spacy_agreement.adapters.files.load_parallel_files`); a sentence one
  system (or the gold) lacks, or whose analyses are over other tokens, is left out and counted;
* an item is a sentence whose two analyses **differ after removing punctuation**: for
  dependency trees, some token that is not punctuation has another head or relation in A
  than in B (the tokens the paper's evaluation scores: A's LAS against B without punctuation
  is below 100); for phrase-structure trees, the labelled brackets differ once the
  punctuation leaves are deleted (:meth:`~spacy_agreement.trees.ConstituencyTree.without_leaves`,
  as EVALB deletes them). ``all_items=True`` keeps the sentences whose analyses are the same
  too;
* punctuation is a token that is punctuation by the rules ``punct`` (as ``evaluate --punct``:
  ``form`` the CoNLL-07 ``eval.pl`` rule the paper follows, the default here; ``upos``,
  ``label``) in the gold's columns where there is a gold, else in either system's own
  columns; a phrase tree's leaf is punctuation by its word (the ``form`` rule);
* ``items=N`` draws N of them at random (``seed``), kept in the items' order (sent_ids in
  their natural order, as the items are matched; else the files' order), as the paper drew its 200.

What comes back (:class:`JudgingSelection`) counts what was left out and why, and carries the
settings (:class:`JudgingSettings`) whose signature (``judge|...``) reproduces the selection.
"""
from __future__ import annotations

import dataclasses
import functools
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple, Union

import numpy as np

from ...adapters.files import load_parallel_files
from ...errors import BadOptionError
from ...signature import Settings, setting
from ...trees import ConstituencyTree, DependencyTree
from ..dependency.settings import PUNCT_RULES, EvaluationSettings, is_punct_form

PathLike = Union[str, "os.PathLike[str]"]
Tree = Union[DependencyTree, ConstituencyTree]


@dataclass(frozen=True)
class JudgingSettings(Settings):
    """Which sentences a judging page holds (module docstring) and whether judges may say "no
    preference"; how the page draws them (layout, marks, gold shown) is not a setting of the
    selection and not in the signature."""

    computation = "judge"

    punct_rules: Tuple[str, ...] = setting(("form",), key="prules", kind="list",
                                           doc="punctuation rules of the selection: form, upos, label")
    all_items: bool = setting(False, key="all", kind="bool",
                              doc="every sentence, not only those where the analyses differ without punctuation")
    items: Optional[int] = setting(None, key="items", kind="int", doc="how many items drawn at random (none: all)")
    seed: int = setting(0, key="seed", kind="int", doc="seed of the draw of --items")
    ties: bool = setting(True, key="ties", kind="bool", doc="judges may say no preference")

    def __post_init__(self) -> None:
        rules = self.punct_rules
        if isinstance(rules, str):
            rules = tuple(r.strip().lower() for r in rules.split(",") if r.strip())
        object.__setattr__(self, "punct_rules", tuple(rules))
        unknown = [r for r in self.punct_rules if r not in PUNCT_RULES]
        if unknown or not self.punct_rules:
            raise BadOptionError(f"punctuation rules: {', '.join(unknown) or 'none given'}; "
                                 f"choose from {', '.join(PUNCT_RULES)}", option="punct")
        if self.items is not None and self.items < 1:
            raise BadOptionError(f"--items must be at least 1, not {self.items}", option="items")


@dataclass(frozen=True)
class JudgingItem:
    """One sentence to judge: its id (the sent_id, else how the files' sentence is named),
    the words shown, the analyses of system A and B, the gold (or ``None``), and whether A
    and B differ after removing punctuation."""

    id: str
    words: Tuple[str, ...]
    a: Tree
    b: Tree
    gold: Optional[Tree]
    differs: bool


@dataclass
class JudgingSelection:
    """The items of a judging page and what was left out: ``sentences`` paired in both
    systems' files, ``identical`` of them with the same analyses once punctuation is removed
    (left out unless ``all_items``), ``left_out`` the other sentences left out by reason
    (``"lacks A"``, ``"tokens differ"``, ...) with their ids in ``left_out_ids``, and
    ``candidates`` the items before the draw of ``settings.items``."""

    items: List[JudgingItem]
    family: str
    systems: Tuple[str, str]
    gold: Optional[str]
    sentences: int
    identical: int
    candidates: int
    matched_by: str
    settings: JudgingSettings
    left_out: Dict[str, int] = field(default_factory=dict)
    left_out_ids: Dict[str, List[str]] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        return {"items": len(self.items), "sentences": self.sentences, "differ": self.sentences - self.identical,
                "identical": self.identical, "candidates": self.candidates, "family": self.family,
                "system_a": self.systems[0], "system_b": self.systems[1], "gold": self.gold,
                "items_matched_by": self.matched_by,
                **{f"left_out_{reason.replace(' ', '_')}": n for reason, n in self.left_out.items()}}


@functools.lru_cache(maxsize=32)
def _punct_settings(rules: FrozenSet[str]) -> Tuple[EvaluationSettings, Optional[EvaluationSettings]]:
    """The settings of the punctuation ``rules``, and of the rules other than ``form`` (None when
    there are none), made once."""
    others = rules - {"form"}
    return EvaluationSettings(punct_rules=rules), (EvaluationSettings(punct_rules=others) if others else None)


def _punct_rule(tree: DependencyTree, settings: Tuple[EvaluationSettings, Optional[EvaluationSettings]]
                ) -> Callable[[int], bool]:
    """Whether token ``k`` (0-based) of ``tree`` is punctuation (:func:`~..dependency.settings.punct_mask`'s rule, token by
    token); a sentence without forms (every form ``_``) by the rules other than ``form`` only."""
    options, others = settings
    if "form" in options.punct_rules and all(f == "_" for f in tree.forms):
        if others is None:
            return lambda k: False
        options = others
    forms, upos, labels = tree.forms, tree.upos, tree.deprels
    return lambda k: options.is_punct(forms[k], upos[k], labels[k])


def differ_without_punctuation(a: Tree, b: Tree, gold: Optional[Tree] = None,
                               punct: Sequence[str] = ("form",)) -> bool:
    """Whether analyses ``a`` and ``b`` of one sentence differ once punctuation is removed
    (module docstring); ``gold`` decides what is punctuation where given."""
    if isinstance(a, DependencyTree) and isinstance(b, DependencyTree):
        heads_a, heads_b, labels_a, labels_b = a.heads.tolist(), b.heads.tolist(), a.deprels, b.deprels
        if len(heads_a) != len(heads_b):
            raise ValueError(f"{len(heads_a)} tokens in A and {len(heads_b)} in B")
        rules = _punct_settings(frozenset(punct))  # bad rules raise here, whatever the trees
        if heads_a == heads_b and labels_a == labels_b:  # the same analyses (compared whole, in C)
            return False
        changed = [k for k in range(len(heads_a)) if heads_a[k] != heads_b[k] or labels_a[k] != labels_b[k]]
        if not changed:  # the same analyses: whatever is punctuation, they do not differ
            return False
        # whether the tokens that differ are punctuation (by the gold's columns, else by A's or B's)
        judges = [_punct_rule(gold, rules)] if isinstance(gold, DependencyTree) else \
            [_punct_rule(a, rules), _punct_rule(b, rules)]
        return any(not any(judge(k) for judge in judges) for k in changed)
    if isinstance(a, ConstituencyTree) and isinstance(b, ConstituencyTree):
        words = next((t.words for t in (gold, a, b) if t is not None and t.words is not None), None)
        if words is None:
            return a.brackets() != b.brackets()
        drop_words = [is_punct_form(w) for w in words]
        if all(drop_words):
            return a.brackets() != b.brackets()
        return _without(a, drop_words).brackets() != _without(b, drop_words).brackets()
    raise TypeError("both analyses must be dependency trees or both phrase-structure trees")


def _without(tree: ConstituencyTree, drop_words: Sequence[bool]) -> ConstituencyTree:
    """The tree without the leaves over the words marked in ``drop_words``."""
    leaf = iter(drop_words)
    is_leaf = np.ones(len(tree), dtype=bool)
    is_leaf[tree.parent[tree.parent >= 0]] = False
    return tree.without_leaves([bool(next(leaf)) if is_leaf[node] else False for node in range(len(tree))])


def _size(tree: Tree) -> int:
    return len(tree) if isinstance(tree, DependencyTree) else tree.n_leaves


def words_of(tree: Tree) -> Tuple[str, ...]:
    """The words of an analysis (a phrase tree read without words: its positions 1, 2, ...)."""
    if isinstance(tree, DependencyTree):
        return tuple(tree.forms)
    return tuple(tree.words) if tree.words is not None else tuple(str(k) for k in range(1, tree.n_leaves + 1))


def select_judging_items(system_a: PathLike, system_b: PathLike, gold: Optional[PathLike] = None,
                         settings: Optional[JudgingSettings] = None, fmt: Optional[str] = None,
                         **options: Any) -> JudgingSelection:
    """The items of a judging study of ``system_a`` against ``system_b`` (module docstring).
    ``settings`` (or its fields as keyword ``options``: ``punct_rules``, ``all_items``,
    ``items``, ``seed``, ``ties``) say which; ``fmt`` names the input format (default: read
    from the content, as every command does). The same file twice is an error."""
    if settings is None:
        settings = JudgingSettings(**options)
    elif options:
        settings = dataclasses.replace(settings, **options)
    if os.path.realpath(os.fspath(system_a)) == os.path.realpath(os.fspath(system_b)):
        raise BadOptionError(f"{os.fspath(system_a)}: system A and system B are the same file")
    paths = [gold, system_a, system_b] if gold is not None else [system_a, system_b]
    names = ["gold", "A", "B"] if gold is not None else ["A", "B"]
    # the gold may be one of the systems' files (a parser judged against its own training data)
    corpus = load_parallel_files(paths, fmt=fmt, annotators=names, allow_duplicates=True)
    left_out: Dict[str, List[str]] = {}
    candidates: List[JudgingItem] = []
    identical = sentences = 0
    for label, item in zip(corpus.names, corpus.items):
        missing = [n for n in names if n not in item]
        if missing:
            left_out.setdefault("lacks " + " and ".join(missing), []).append(label)
            continue
        a, b, g = item["A"], item["B"], item.get("gold")
        if _size(a) != _size(b) or (g is not None and _size(g) != _size(a)):
            left_out.setdefault("tokens differ", []).append(label)
            continue
        sentences += 1
        differs = differ_without_punctuation(a, b, g, settings.punct_rules)
        identical += not differs
        if differs or settings.all_items:
            candidates.append(JudgingItem(label, words_of(g if g is not None else a), a, b, g, differs))
    chosen = candidates
    if settings.items is not None and settings.items < len(candidates):
        picked = np.random.default_rng(settings.seed).choice(len(candidates), settings.items, replace=False)
        chosen = [candidates[k] for k in sorted(picked.tolist())]
    matched = corpus.matched_by.rule if corpus.matched_by is not None else "position"
    return JudgingSelection(chosen, corpus.family, (os.fspath(system_a), os.fspath(system_b)),
                            None if gold is None else os.fspath(gold), sentences, identical, len(candidates),
                            matched, settings, {k: len(v) for k, v in left_out.items()}, left_out)


__all__ = ["JudgingItem", "JudgingSelection", "JudgingSettings", "differ_without_punctuation",
           "select_judging_items", "words_of"]
