"""spacy-agreement: how far do two or more syntactic analyses of the same text agree?

Chance-corrected agreement (Krippendorff's α over tree edit distance, Skjærholt 2014)
and uncorrected accuracies for dependency and phrase-structure trees from spaCy, NLTK,
CoNLL-U/CoNLL-X and bracketed files.
"""
from .agreement.accuracy import AccuracyResult, bracket_jaccard, pairwise_accuracy, pairwise_attachment, pairwise_jaccard
from .adapters import (
    from_conllu,
    from_dependency_graph,
    from_doc,
    from_nltk,
    from_span,
    load_annotations,
    load_annotator_dirs,
    load_multi_user,
    load_parallel_files,
    load_prodigy,
    load_project,
    parse_brackets,
    parse_conll,
    read_brackets,
    read_conll,
    to_dependency_graph,
)
from .agreement.alpha import AlphaResult, estimate_alpha
from .agreement.alpha_run import alpha
from .agreement.settings import AlphaSettings
from .agreement.layers import LayerSettings, LayersResult, agreement_by_layer, disagreements, layers
from .corpus import Corpus
from .agreement.deltas import delta, distance_matrix, tree_edit_distance
from .errors import InvalidTreeError, Location, MismatchedCorpusError, UndefinedMetricWarning
from .integrations.nltk_scoring import score_nltk_trees
from .evaluation.discourse.discourse_run import DiscourseRun, discourse
from .evaluation.constituency.evalb_params import EvalbParams, EvalbSettings  # EvalbParams: 0.3's name
from .evaluation.constituency.evalb_run import EvalbRun, evalb
from .evaluation.constituency.leaf_ancestor_run import LeafAncestorRun, leaf_ancestor
from .evaluation.comparison.compare_run import CompareRun, compare
from .evaluation.dependency.evaluate_run import EvaluateRun, evaluate
from .evaluation.judgments.judging_items import JudgingSettings
from .evaluation.judgments.judgments_run import JudgmentsRun, judgments
from .evaluation.dependency.settings import EvaluationOptions, EvaluationSettings  # EvaluationOptions: 0.3's name
from .evaluation.comparison.significance import ComparisonSettings
from .report.judging_page import JudgingPage, judge, judging_page
from .evaluation.settings import DiscourseSettings, JudgmentSettings, LeafAncestorSettings
from .trees import ConstituencyTree, DependencyTree, Forest, OrderedTree
from .vocab import LabelVocab

from ._version import __version__
from ._moved import install as _install_moved

_install_moved()

__all__ = [
    "AccuracyResult",
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
