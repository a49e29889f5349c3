# cython: language_level=3
"""Cython core of spacy-agreement: Zhang–Shasha tree edit distance over forests.

Trees come as flat postorder arrays (see ``spacy_agreement.trees.OrderedTree``):

* ``labels``   int32 label id of each node,
* ``lml``      int32 index of the leftmost leaf descendant of each node (tree-local),
* ``keyroots`` int32 keyroots of the tree in increasing order (tree-local),

and a *forest* concatenates many trees with ``offsets`` (int64, ``n_trees + 1``) into
the node arrays and ``kr_offsets`` into the keyroot array.

Every ``def`` function validates its arrays in O(total nodes) before it releases the
GIL, so no input can make a kernel read or write out of bounds: bad input raises
``ValueError`` naming the tree. The kernels themselves touch no Python objects.

Zhang, K. and Shasha, D. (1989). Simple fast algorithms for the editing distance
between trees and related problems. SIAM J. Comput. 18(6):1245-1262.
"""
import numpy as np

cimport cython
from libc.math cimport fabs
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange, threadid
from libc.stdint cimport int32_t, int64_t, uint8_t

include "deltas.pxi"
include "zhang_shasha.pxi"
include "validate.pxi"
include "tree.pxi"
include "ted.pxi"
include "rows.pxi"
include "alpha.pxi"
include "levenshtein.pxi"
include "pqgram.pxi"
