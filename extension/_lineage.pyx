# cython: language_level=3
"""The leaf-ancestor metric's hot loops (Sampson & Babarczy 2003), for
spacy_agreement.evaluation.constituency.leaf_ancestor: a reader of bracketed trees into compact postorder
arrays (lineage_reader.pxi), the lineages with their boundary markers, their weighted
Levenshtein distances with the label-pair costs, GEIG's bracket counts and the error
configurations (lineage_score.pxi), numpy's pairwise sums, also of values read back from a
file (lineage_sums.pxi), over a C string vocabulary (lineage_vocab.pxi). No
Python object is made per word or node; every input, however malformed, gives a status or a
Python exception, never a crash."""
from libc.stdlib cimport malloc, realloc, free, qsort
from libc.string cimport memcpy, memcmp, memmove, memset
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t, uint8_t
from libc.math cimport fabs, NAN

import numpy as np
cimport numpy as cnp

cnp.import_array()

include "lineage_vocab.pxi"
include "lineage_reader.pxi"
include "lineage_sums.pxi"
include "lineage_score.pxi"
