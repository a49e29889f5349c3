"""spacy-agreement: how far do two or more syntactic analyses of the same text agree?

Chance-corrected agreement (Krippendorff's α over tree edit distance, Skjærholt 2014)
and uncorrected accuracies for dependency and phrase-structure trees from spaCy, NLTK,
CoNLL-U/CoNLL-X and bracketed files.
"""
from typing import TYPE_CHECKING

from ._lazy import lazy_exports
from ._version import __version__
from ._moved import install as _install_moved

_install_moved()

#: every public name -> the module that defines it, imported on first use (PEP 562): a command
#: (``spacy-agreement evalb``) or a script importing one family does not pay for the others
_EXPORTS = {
    "AccuracyResult": ".agreement.accuracy",
    "bracket_jaccard": ".agreement.accuracy",
    "pairwise_accuracy": ".agreement.accuracy",
    "pairwise_attachment": ".agreement.accuracy",
    "pairwise_jaccard": ".agreement.accuracy",
    "from_conllu": ".adapters",
    "from_dependency_graph": ".adapters",
    "from_doc": ".adapters",
    "from_nltk": ".adapters",
    "from_span": ".adapters",
    "load_annotations": ".adapters",
    "load_annotator_dirs": ".adapters",
    "load_multi_user": ".adapters",
    "load_parallel_files": ".adapters",
    "load_prodigy": ".adapters",
    "load_project": ".adapters",
    "parse_brackets": ".adapters",
    "parse_conll": ".adapters",
    "read_brackets": ".adapters",
    "read_conll": ".adapters",
    "to_dependency_graph": ".adapters",
    "AlphaResult": ".agreement.alpha",
    "estimate_alpha": ".agreement.alpha",
    "alpha": ".agreement.alpha_run",
    "AlphaSettings": ".agreement.settings",
    "LayerSettings": ".agreement.layers",
    "LayersResult": ".agreement.layers",
    "agreement_by_layer": ".agreement.layers",
    "disagreements": ".agreement.layers",
    "layers": ".agreement.layers",
    "Corpus": ".corpus",
    "delta": ".agreement.deltas",
    "distance_matrix": ".agreement.deltas",
    "tree_edit_distance": ".agreement.deltas",
    "AgreementError": ".errors",
    "BadOptionError": ".errors",
    "DiscourseError": ".errors",
    "EmptyInputError": ".errors",
    "InvalidTreeError": ".errors",
    "JudgmentError": ".errors",
    "ResourceLimitError": ".errors",
    "ScriptRefusalError": ".evaluation.conll18.refusals",
    "Location": ".errors",
    "MismatchedCorpusError": ".errors",
    "UndefinedMetricWarning": ".errors",
    "score_nltk_trees": ".integrations.nltk_scoring",
    "DiscourseRun": ".evaluation.discourse.discourse_run",
    "discourse": ".evaluation.discourse.discourse_run",
    "EvalbSettings": ".evaluation.constituency.evalb_params",
    "EvalbRun": ".evaluation.constituency.evalb_run",
    "evalb": ".evaluation.constituency.evalb_run",
    "LeafAncestorRun": ".evaluation.constituency.leaf_ancestor_run",
    "leaf_ancestor": ".evaluation.constituency.leaf_ancestor_run",
    "CompareRun": ".evaluation.comparison.compare_run",
    "compare": ".evaluation.comparison.compare_run",
    "EvaluateRun": ".evaluation.dependency.evaluate_run",
    "evaluate": ".evaluation.dependency.evaluate_run",
    "JudgingSettings": ".evaluation.judgments.judging_items",
    "JudgmentsRun": ".evaluation.judgments.judgments_run",
    "judgments": ".evaluation.judgments.judgments_run",
    "EvaluationSettings": ".evaluation.dependency.settings",
    "ComparisonSettings": ".evaluation.comparison.settings",
    "JudgingPage": ".report.judging_page",
    "judge": ".report.judging_page",
    "judging_page": ".report.judging_page",
    "DiscourseSettings": ".evaluation.settings",
    "JudgmentSettings": ".evaluation.settings",
    "LeafAncestorSettings": ".evaluation.settings",
    "ConstituencyTree": ".trees",
    "DependencyTree": ".trees",
    "Forest": ".trees",
    "OrderedTree": ".trees",
    "LabelVocab": ".vocab",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

#: 0.3's second names of one concept: still answered for a release, with a DeprecationWarning
_RENAMED = {"EvalbParams": "EvalbSettings", "EvaluationOptions": "EvaluationSettings"}
_exported = __getattr__


def __getattr__(name: str) -> object:  # noqa: F811 (the lazy exports, and the renamed names beside them)
    if name in _RENAMED:
        import warnings

        warnings.warn(f"spacy_agreement.{name} is deprecated and will be removed in the next release: use "
                      f"spacy_agreement.{_RENAMED[name]} (the same class)", DeprecationWarning, stacklevel=2)
        return _exported(_RENAMED[name])
    return _exported(name)

if TYPE_CHECKING:  # the same names for type checkers and the API reference (griffe), which read imports
    from .agreement.accuracy import (AccuracyResult, bracket_jaccard, pairwise_accuracy, pairwise_attachment,
        pairwise_jaccard)
    from .adapters import (from_conllu, from_dependency_graph, from_doc, from_nltk, from_span, load_annotations,
        load_annotator_dirs, load_multi_user, load_parallel_files, load_prodigy, load_project, parse_brackets,
        parse_conll, read_brackets, read_conll, to_dependency_graph)
    from .agreement.alpha import AlphaResult, estimate_alpha
    from .agreement.alpha_run import alpha
    from .agreement.settings import AlphaSettings
    from .agreement.layers import LayerSettings, LayersResult, agreement_by_layer, disagreements, layers
    from .corpus import Corpus
    from .agreement.deltas import delta, distance_matrix, tree_edit_distance
    from .errors import (AgreementError, BadOptionError, DiscourseError, EmptyInputError, InvalidTreeError,
        JudgmentError, Location, MismatchedCorpusError, ResourceLimitError, UndefinedMetricWarning)
    from .evaluation.conll18.refusals import ScriptRefusalError
    from .integrations.nltk_scoring import score_nltk_trees
    from .evaluation.discourse.discourse_run import DiscourseRun, discourse
    from .evaluation.constituency.evalb_params import EvalbSettings
    from .evaluation.constituency.evalb_run import EvalbRun, evalb
    from .evaluation.constituency.leaf_ancestor_run import LeafAncestorRun, leaf_ancestor
    from .evaluation.comparison.compare_run import CompareRun, compare
    from .evaluation.dependency.evaluate_run import EvaluateRun, evaluate
    from .evaluation.judgments.judging_items import JudgingSettings
    from .evaluation.judgments.judgments_run import JudgmentsRun, judgments
    from .evaluation.dependency.settings import EvaluationSettings
    from .evaluation.comparison.settings import ComparisonSettings
    from .report.judging_page import JudgingPage, judge, judging_page
    from .evaluation.settings import DiscourseSettings, JudgmentSettings, LeafAncestorSettings
    from .trees import ConstituencyTree, DependencyTree, Forest, OrderedTree
    from .vocab import LabelVocab

__all__ = [
    "AccuracyResult",
    "AgreementError",
    "BadOptionError",
    "DiscourseError",
    "EmptyInputError",
    "JudgmentError",
    "ResourceLimitError",
    "ScriptRefusalError",
    "AlphaResult",
    "AlphaSettings",
    "ConstituencyTree",
    "Corpus",
    "DependencyTree",
    "Forest",
    "InvalidTreeError",
    "LabelVocab",
    "Location",
    "MismatchedCorpusError",
    "OrderedTree",
    "UndefinedMetricWarning",
    "DiscourseRun",
    "DiscourseSettings",
    "EvalbSettings",
    "EvalbRun",
    "LeafAncestorRun",
    "LeafAncestorSettings",
    "discourse",
    "evalb",
    "leaf_ancestor",
    "alpha",
    "bracket_jaccard",
    "delta",
    "distance_matrix",
    "estimate_alpha",
    "from_conllu",
    "from_dependency_graph",
    "from_doc",
    "from_nltk",
    "from_span",
    "agreement_by_layer",
    "disagreements",
    "LayerSettings",
    "LayersResult",
    "layers",
    "load_annotations",
    "load_annotator_dirs",
    "load_multi_user",
    "load_parallel_files",
    "load_prodigy",
    "load_project",
    "pairwise_accuracy",
    "pairwise_attachment",
    "pairwise_jaccard",
    "parse_brackets",
    "parse_conll",
    "read_brackets",
    "read_conll",
    "score_nltk_trees",
    "CompareRun",
    "ComparisonSettings",
    "EvaluateRun",
    "EvaluationSettings",
    "JudgingPage",
    "JudgingSettings",
    "JudgmentSettings",
    "JudgmentsRun",
    "compare",
    "evaluate",
    "judge",
    "judging_page",
    "judgments",
    "to_dependency_graph",
    "tree_edit_distance",
]
