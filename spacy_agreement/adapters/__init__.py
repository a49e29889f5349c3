"""Adapters: they only convert outside formats into the compact trees of
:mod:`spacy_agreement.trees`; no metric knows where a tree came from."""
from .brackets import from_nltk, from_nltk_trees, parse_brackets, read_brackets, to_nltk
from .conll import ReadStats, from_conllu, iter_conll, parse_conll, read_conll, write_conll
from .nltk_graph import from_dependency_graph, to_dependency_graph
from .spacy import from_doc, from_span

__all__ = [
    "ReadStats",
    "from_conllu",
    "from_dependency_graph",
    "from_doc",
    "from_nltk",
    "from_nltk_trees",
    "from_span",
    "iter_conll",
    "parse_brackets",
    "parse_conll",
    "read_brackets",
    "read_conll",
    "to_dependency_graph",
    "to_nltk",
    "write_conll",
]
