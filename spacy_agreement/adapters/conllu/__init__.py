"""CoNLL-U and CoNLL-X files, read three ways, all here:

* as trees (:mod:`~.trees`): :func:`read_conll`, :func:`iter_conll`, :func:`parse_conll` give
  :class:`~spacy_agreement.trees.DependencyTree` objects (what every agreement measure and the
  reader registry's ``conll`` format read), :func:`write_conll` writes them;
* as token and word columns (:mod:`~.columns`, read by :mod:`~.column_reader`):
  :func:`read_conllu_columns` and :func:`parse_conllu_columns` give :class:`ConlluColumns`, the
  file as ``conll18_ud_eval.py`` reads it, for the CoNLL 2018 word alignment;
* by the compiled scanner (:mod:`~.scan`): :func:`scan_file` reads a file into rows of string
  codes, from which :func:`conllu_columns_from_scan` builds the same :class:`ConlluColumns` and
  :func:`tree_columns_from_scan` the trees as flat arrays (:class:`TreeColumns`), which the
  streaming evaluation reads. Where the scanner cannot read a file, the Python readers do, and
  name the errors.

0.3's modules ``adapters.conll``, ``adapters.conllu_words`` and ``adapters.string_arrays`` are
:mod:`~.trees`, :mod:`~.column_reader` and :mod:`~.scan` now (the old paths import until 0.5, with a
``DeprecationWarning``; docs: Renamed between versions).
"""
from .trees import (FIELDS, ReadStats, TreeColumns, from_conllu, iter_conll, parse_conll, read_conll, sentence_text,
                    space_after, surface_tokens, tree_columns_from_scan, write_conll)
from .columns import ConlluColumns, SentenceColumns
from .scan import Scanned, StringArrays, conllu_columns_from_scan, join_scanned, remove_spaces, scan_file
from .column_reader import parse_conllu_columns, read_conllu_columns

__all__ = [
    "FIELDS",
    "ConlluColumns",
    "ReadStats",
    "Scanned",
    "SentenceColumns",
    "StringArrays",
    "TreeColumns",
    "conllu_columns_from_scan",
    "from_conllu",
    "iter_conll",
    "join_scanned",
    "parse_conll",
    "parse_conllu_columns",
    "read_conll",
    "read_conllu_columns",
    "remove_spaces",
    "scan_file",
    "sentence_text",
    "space_after",
    "surface_tokens",
    "tree_columns_from_scan",
    "write_conll",
]
