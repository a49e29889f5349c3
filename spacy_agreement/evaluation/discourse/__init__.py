"""Agreement on discourse arrows between tree nodes (Mírovský et al. 2010): strict,
one-level skip and connective-based agreement, F1 and Cohen's κ. The names of 0.3's
``spacy_agreement.evaluation.discourse`` module are all here.
"""
from ..._lazy import lazy_exports

_EXPORTS = {
    "discourse": ".discourse_run",
    "DiscourseRun": ".discourse_run",
    "CorpusAgreement": ".arrows",
    "DiscourseAgreement": ".arrows",
    "DiscourseDocument": ".arrows",
    "DiscourseError": ".arrows",
    "MEASURES": ".arrows",
    "Node": ".arrows",
    "PairCounts": ".arrows",
    "Relation": ".arrows",
    "compare_pair": ".arrows",
    "corpus_agreement": ".arrows",
    "discourse_agreement": ".arrows",
    "document_from_doc": ".arrows",
    "format_tables": ".arrows",
    "load_discourse": ".arrows",
    "merge_documents": ".arrows",
    "nodes_agree": ".arrows",
    "pair_counts": ".arrows",
    "relations_from_json": ".arrows",
    "set_relations": ".arrows",
    "Extent": ".model",
    "REASONS": ".model",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
