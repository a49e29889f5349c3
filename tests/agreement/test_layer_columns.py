"""The layers on coded columns (issue 50) against the per-token reference they replaced
(:mod:`tests.reference_layer_values`), on seeded random CoNLL-U: the same reliability matrices
value by value, the same categories, units and notes, under every option; and the sparse
confusions and the disagreeing units against the dense matrix and the per-column sets."""
import numpy as np
import pytest

from spacy_agreement.agreement.inputs import read_inputs
from spacy_agreement.agreement.layer_values import EXTRA_LAYERS, LAYERS, layer_data
from spacy_agreement.agreement.nominal import confused_pairs, confusion_pairs, differing_units

from .. import reference_layer_values as reference
from ..random_conllu import names, random_annotations

OPTIONS = [
    {},
    {"layers": LAYERS + EXTRA_LAYERS, "misc_keys": ("SpaceAfter", "Gloss", "Absent")},
    {"unannotated": "value", "same_forms": False},
    {"per_feature": False, "layers": ("deprel_same_head", "feats.Case", "misc.Gloss")},
    {"layers": ("head_deprel", "upos"), "unannotated": "value"},
]


def assert_same(got, expected):
    assert list(got.layers) == list(expected.layers)
    for name, layer in got.layers.items():
        other = expected.layers[name]
        assert layer.labels == other.labels, name
        assert layer.units == other.units, name
        assert layer.codes.dtype == other.codes.dtype and layer.codes.shape == other.codes.shape, name
        assert np.array_equal(layer.codes, other.codes), name
    assert (got.notes, got.mismatched, got.unpairable, got.item_names) == \
        (expected.notes, expected.mismatched, expected.unpairable, expected.item_names)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("options", OPTIONS)
def test_columns_as_the_reference(tmp_path, seed, options):
    paths = random_annotations(tmp_path, seed, annotators=2 + seed % 3, sentences=25, missing=0.15 * (seed % 2),
                               bare=seed == 4)
    corpus = read_inputs(names(paths))
    assert_same(layer_data(corpus, **options), reference.layer_data(corpus, **options))


def test_no_item_compared(tmp_path):
    paths = random_annotations(tmp_path, 1, annotators=2, sentences=3, missing=1.0)
    corpus = read_inputs(names(paths))
    assert_same(layer_data(corpus), reference.layer_data(corpus))


@pytest.mark.parametrize("seed", range(5))
def test_sparse_confusions_and_differing_units(seed):
    rng = np.random.default_rng(seed)
    size = int(rng.integers(1, 9))
    codes = rng.integers(-1, size, size=(int(rng.integers(1, 5)), int(rng.integers(0, 60))))
    matrix = confusion_pairs(codes, size)
    upper = np.argwhere(np.triu(matrix, 1) > 0)
    lower, higher, times = confused_pairs(codes, size)
    assert [(a, b, int(matrix[a, b])) for a, b in upper.tolist()] == list(zip(lower.tolist(), higher.tolist(),
                                                                              times.tolist()))
    expected = [len(set(col[col >= 0].tolist())) > 1 for col in codes.T]
    assert differing_units(codes).tolist() == expected


@pytest.mark.parametrize("seed", range(8))
def test_unit_counts_as_np_unique(seed):
    """The run-length counts of :func:`unit_counts` are np.unique's over the keys unit·V + c."""
    from spacy_agreement.agreement.nominal import unit_counts

    rng = np.random.default_rng(seed)
    size = int(rng.integers(1, 12))
    codes = rng.integers(-1, size, size=(int(rng.integers(1, 6)), int(rng.integers(0, 80))))
    got = unit_counts(codes, size)
    coders = (codes >= 0).sum(axis=0)
    units = np.flatnonzero(coders >= 2)
    sub = codes[:, units]
    where = sub >= 0
    keys = np.broadcast_to(np.arange(units.size), sub.shape)[where].astype(np.int64) * size + sub[where]
    found, count = np.unique(keys, return_counts=True)
    assert np.array_equal(got.units, units)
    assert np.array_equal(got.unit, found // size) and np.array_equal(got.category, found % size)
    assert np.array_equal(got.count, count.astype(np.float64)) and got.count.dtype == np.float64
    assert got.unit.dtype == np.int64 and got.category.dtype == np.int64


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("options", OPTIONS)
def test_scanned_codes_as_the_reference(tmp_path, seed, options):
    """Files without tokens left unannotated are read through the compiled scanner, and the
    layers then gather the codes the trees carry (``ScannedColumns``) instead of their strings:
    the same matrices, categories and notes as the per-token reference, from two to four files
    (each with a string table of its own, merged)."""
    from spacy_agreement.agreement.layer_values import ScannedColumns, _Columns

    paths = random_annotations(tmp_path, seed, annotators=2 + seed % 3, sentences=25, missing=0.15 * (seed % 2),
                               bare=seed == 4, unannotated=False)
    corpus = read_inputs(names(paths))
    used = []
    original = _Columns.__init__

    def recording(self, *args, **kwargs):
        original(self, *args, **kwargs)
        used.append(self.scanned)

    try:
        _Columns.__init__ = recording
        got = layer_data(corpus, **options)
    finally:
        _Columns.__init__ = original
    assert used and all(isinstance(s, ScannedColumns) for s in used)
    assert_same(got, reference.layer_data(corpus, **options))
