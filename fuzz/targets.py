"""Fuzz targets of spacy-agreement: one function per target, each taking the fuzzer's bytes.

Shared by the campaigns (``fuzz/run.py``, coverage-guided with atheris, or plain random
mutation without it) and the short runs of the test suite (``tests/test_fuzz.py``), so both
call the same code. Every target feeds its input to the package's public entry points and
decides itself what is an *expected* outcome:

* an :class:`~spacy_agreement.errors.AgreementError` (``InvalidTreeError``,
  ``MismatchedCorpusError``, ``BadOptionError``, ``DiscourseError``, ``JudgmentError``):
  the package rejecting bad input with its own error. A file that is not UTF-8 is one of
  these too (``InvalidTreeError`` "not UTF-8 text" naming the file and line), so a
  ``UnicodeDecodeError`` is a finding. The string entry points get the bytes decoded with
  ``surrogateescape``; the CoNLL and bracket targets also write the bytes to a file as they
  are, the JSON and CSV targets do so for inputs starting with ``\\xff`` and otherwise
  replace bad UTF-8 sequences (so that most inputs get past the decoder);
* ``ValueError`` from the Cython core's own validation, in the target that calls
  ``spacy_agreement._core`` directly with broken arrays (the kernels' documented
  answer to arrays they cannot trust).

Anything else escapes the target and is a finding, and so is a failed consistency check
(``AssertionError``: a tree that does not survive being written and read back, TED that is
not symmetric, α that differs between the serial and the threaded backend, ...). A target
returns a short tag of what happened (``"ok"``, ``"InvalidTreeError"``, ...) that the
campaign counts.

``SEEDS[name]()`` gives each target's seed inputs (built from the package's demo data,
``tests/data`` and ``examples``) and :func:`mutate` the plain random mutator used where
atheris is not installed.
"""
from __future__ import annotations

import atexit
import io
import json
import math
import random
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

import spacy_agreement
from spacy_agreement import _core
from spacy_agreement.adapters.brackets import (
    from_nltk, parse_brackets, read_brackets, split_bracket_sentences, split_brackets, to_nltk,
)
from spacy_agreement.adapters.conllu.trees import iter_conll, parse_conll, read_conll, write_conll
from spacy_agreement.agreement.deltas import delta, distance_matrix, tree_edit_distance
from spacy_agreement.agreement.alpha import pqgram_alpha
from spacy_agreement.agreement.pqgram import pqgram_distance
from spacy_agreement.corpus import ReadStats
from spacy_agreement.errors import AgreementError
from spacy_agreement.evaluation.discourse import arrows as discourse_module
from spacy_agreement.evaluation.constituency import evalb as evalb_module
from spacy_agreement.evaluation.judgments import analysis as judgments_module
from spacy_agreement.evaluation.constituency.evalb_params import EvalbSettings
from spacy_agreement.evaluation.constituency.leaf_ancestor import leaf_ancestor
from spacy_agreement.trees import ConstituencyTree, DependencyTree
from spacy_agreement.vocab import LabelVocab

ROOT = Path(__file__).resolve().parents[1]  # the checkout
DEMO = Path(spacy_agreement.__file__).resolve().parent / "data" / "demo"
TEST_DATA = ROOT / "tests" / "data"
EXAMPLES = ROOT / "examples"

Tag = str

# --------------------------------------------------------------------------- helpers

_WORKDIR: Optional[Path] = None


def workdir() -> Path:
    """A private temporary folder of this process (removed at exit) for the file targets."""
    global _WORKDIR
    if _WORKDIR is None:
        _WORKDIR = Path(tempfile.mkdtemp(prefix="spacy-agreement-fuzz-"))
        atexit.register(shutil.rmtree, _WORKDIR, True)
    return _WORKDIR


def _write(name: str, data: bytes) -> Path:
    path = workdir() / name
    path.write_bytes(data)
    return path


def _text(data: bytes) -> str:
    """The fuzzer's bytes as text for the string entry points (bad bytes kept as lone surrogates)."""
    return data.decode("utf-8", "surrogateescape")


def _file_bytes(data: bytes) -> bytes:
    """What a file target writes: the bytes as they are when they start with ``\\xff`` (so
    the readers meet files that are not UTF-8), otherwise with bad UTF-8 sequences replaced
    (most mutations break UTF-8: without this a third of the inputs would only test the
    decoder)."""
    return data if data[:1] == b"\xff" else data.decode("utf-8", "replace").encode("utf-8")


class _Quiet:
    """Warnings (undefined metrics, label sets, ...) are expected; they are not findings."""

    def __enter__(self):
        self._manager = warnings.catch_warnings()
        self._manager.__enter__()
        warnings.simplefilter("ignore")
        return self

    def __exit__(self, *exc):
        return self._manager.__exit__(*exc)


# --------------------------------------------------------------------------- 1. CoNLL-U / CoNLL-X


def _check_dependency_tree(tree: DependencyTree, vocab: LabelVocab) -> None:
    """What every tree a reader returns must allow: its ordered tree, cycles, its location."""
    ordered, dropped = tree.to_ordered(vocab)
    unreachable = tree.unreachable_tokens()
    assert dropped == unreachable.size, (dropped, unreachable)
    assert ordered.size == len(tree) + 1 - dropped
    if unreachable.size:
        assert isinstance(tree.cycle_error(), AgreementError)
    str(tree.location)
    tree.location.token_lines


def conll(data: bytes) -> Tag:
    """``read_conll``/``iter_conll``/``parse_conll`` on the text, ``read_conll`` on a file of the
    bytes; trees read are written back (``write_conll``) and must read back the same."""
    text = _text(data)
    tag = "ok"
    single_root = bool(data) and bool(data[-1] & 1)
    stats = ReadStats()
    trees: List[DependencyTree] = []
    try:
        trees = read_conll(io.StringIO(text), "<fuzz>", single_root=single_root, stats=stats)
    except AgreementError as exc:
        tag = type(exc).__name__
    try:
        for _ in iter_conll(io.StringIO(text), cycles="raise"):
            pass
    except AgreementError:
        pass
    try:
        parse_conll(text)
    except AgreementError:
        pass
    try:
        read_conll(_write("input.conllu", data))
    except AgreementError:
        pass
    vocab = LabelVocab()
    for tree in trees:
        _check_dependency_tree(tree, vocab)
    if trees:
        written = write_conll(trees)
        try:
            again = parse_conll(written)
        except AgreementError:
            # a form or label with two spaces in a row is read as a column break: such a tree
            # cannot be written back as it is (conllu's rule), a rejection, not a crash
            return tag
        assert len(again) == len(trees)
        for a, b in zip(trees, again):
            assert a.heads.tolist() == b.heads.tolist(), (a.heads, b.heads)
    return tag


# --------------------------------------------------------------------------- 2. bracketed trees


def _check_constituency_tree(tree: ConstituencyTree, vocab: LabelVocab) -> None:
    ordered, _ = tree.to_ordered(vocab)
    assert ordered.size == len(tree)
    assert tree.annotation_size >= 1
    tree.brackets()
    if tree.labels[-1] == "" and np.count_nonzero(tree.parent == len(tree) - 1) <= 1:
        # an unlabelled root over at most one node (``( (S ...) word)`` read as words): from_nltk
        # takes such a bracket for the outer bracket of Penn files, so it does not read back
        return
    shown = to_nltk(tree)  # with its words where the tree has them
    back = from_nltk(shown, "words" if shown.leaves() else "categories")
    assert back.labels == tree.labels, (back.labels, tree.labels)
    assert back.parent.tolist() == tree.parent.tolist()
    assert back.spans.tolist() == tree.spans.tolist()


def brackets(data: bytes) -> Tag:
    """``parse_brackets`` (both ``missing`` modes, the leaf style picked by the first byte),
    ``split_brackets``, ``split_bracket_sentences`` and ``read_brackets`` on a file."""
    text = _text(data)
    leaves = ("auto", "words", "categories")[data[0] % 3] if data else "auto"
    tag = "ok"
    vocab = LabelVocab()
    for missing in (False, True):
        try:
            trees = parse_brackets(text, leaves, "<fuzz>", missing)
        except AgreementError as exc:
            if not missing:
                tag = type(exc).__name__
            continue
        for tree in trees:
            if tree is not None:
                _check_constituency_tree(tree, vocab)
    for split in (split_brackets, split_bracket_sentences):
        try:
            split(text)
        except AgreementError:
            pass
    path = _write("input.tree", data)
    for missing in (False, True):
        try:
            read_brackets(path, leaves, missing)
        except AgreementError:
            pass
    return tag


# --------------------------------------------------------------------------- 3. discourse JSON

_CONLLU_NEXT_TO_DOCUMENT = (
    "1\tI\t_\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tknow\t_\tVERB\t_\t_\t0\troot\t_\t_\n3\tit\t_\tPRON\t_\t_\t2\tobj\t_\t_\n\n"
    "1\tBut\t_\tCCONJ\t_\t_\t3\tcc\t_\t_\n2\tit\t_\tPRON\t_\t_\t3\tnsubj\t_\t_\n3\trained\t_\tVERB\t_\t_\t0\troot\t_\t_\n"
)


def _safe_reference(data: bytes) -> bool:
    """Whether a ``"conllu"`` reference, if there is one, stays in the work folder: the fuzzer
    must not make the reader open ``/dev/zero`` or the files of the machine."""
    try:
        document = json.loads(data.decode("utf-8"))  # as the reader sees it
    except (ValueError, RecursionError):
        return True  # not UTF-8 or not JSON: the reader rejects it before looking at the reference
    if not isinstance(document, dict) or not isinstance(document.get("conllu"), str):
        return True
    return "/" not in document["conllu"] and "\\" not in document["conllu"]


def discourse(data: bytes) -> Tag:
    """``load_discourse`` on a file of the bytes (next to a CoNLL-U file ``doc.conllu`` it may
    name); a document with two or more annotators is then scored (``discourse_agreement``,
    ``format_tables``)."""
    data = _file_bytes(data)
    if not _safe_reference(data):
        return "skipped"
    folder = workdir() / "discourse"
    folder.mkdir(exist_ok=True)
    conllu_path = folder / "doc.conllu"
    if not conllu_path.exists():
        conllu_path.write_text(_CONLLU_NEXT_TO_DOCUMENT, encoding="utf-8")
    path = folder / "doc.json"
    path.write_bytes(data)
    try:
        document = discourse_module.load_discourse(path)
    except AgreementError as exc:
        return type(exc).__name__
    if len(document.annotators) >= 2:
        with _Quiet():
            result = discourse_module.discourse_agreement(document)
            discourse_module.format_tables(result)
            result.to_dict()
            discourse_module.discourse_agreement(document, skip_both_ends=True)
    return "ok"


# --------------------------------------------------------------------------- 4. judgments


def _analyse(items) -> None:
    if not items or len(items) > 40:
        return
    with _Quiet():
        for kappa in ("cohen", "fleiss"):
            result = judgments_module.analyse_judgments(items, mace_restarts=1, kappa=kappa,
                                                        ties=("half", "skip", "a", "b")[len(items) % 4])
            judgments_module.format_analysis(result)
            result.to_dict()


def judgments(data: bytes) -> Tag:
    """``load_judgments`` on a JSON Lines file of the bytes; items read are analysed
    (``analyse_judgments`` with both kappas, ``format_analysis``)."""
    return _load_and_analyse(_write("judgments.jsonl", _file_bytes(data)))


def _plank_folder() -> Path:
    folder = workdir() / "datapackage"
    if not folder.exists():
        folder.mkdir()
        for name in ("gold", "parser1", "parser2"):
            source = TEST_DATA / "plank" / "xx" / f"{name}.conll"
            text = source.read_text("utf-8") if source.exists() else _CONLLU_NEXT_TO_DOCUMENT
            (folder / f"{name}.conll").write_text(text, encoding="utf-8")
    return folder


def datapackage(data: bytes) -> Tag:
    """``load_judgments`` on a folder in the layout of the Plank et al. (2015) release whose
    ``annotated.csv`` holds the bytes (the CoNLL files are ``tests/data/plank/xx``'s)."""
    folder = _plank_folder()
    (folder / "annotated.csv").write_bytes(_file_bytes(data))
    return _load_and_analyse(folder)


def _load_and_analyse(path: Path) -> Tag:
    """``load_judgments`` on ``path`` (a JSON Lines file or a release folder), then the
    analysis of what it read; the package's own error at either step is the outcome."""
    try:
        items = judgments_module.load_judgments(path)
    except AgreementError as exc:
        return type(exc).__name__
    try:
        _analyse(items)
    except AgreementError as exc:
        return "analysis:" + type(exc).__name__
    return "ok"


# --------------------------------------------------------------------------- 5. EVALB


def evalb_params(data: bytes) -> Tag:
    """``EvalbSettings.parse`` of the bytes as Latin-1 (what ``EvalbSettings.read`` does with a
    file, which must give the same settings)."""
    text = data.decode("latin-1")
    params = EvalbSettings.parse(text)
    assert EvalbSettings.read(_write("params.prm", data)) == params
    for a, b in params.eq_labels[:3]:
        assert params.label_equal(a, b) and params.label_equal(b, a)
    for a, b in params.eq_words[:3]:
        assert params.word_equal(a, b)
    params.with_options(max_error=3, labeled=0)
    return "warnings" if params.warnings else "ok"


_SEPARATOR = "\n===\n"
_EVALB_PARAMS: Dict[int, EvalbSettings] = {}


def _fixed_params(k: int) -> EvalbSettings:
    if not _EVALB_PARAMS:
        _EVALB_PARAMS[0] = EvalbSettings()
        for i, name in enumerate(("evalb.prm", "strict.prm", "debug.prm"), start=1):
            path = TEST_DATA / "evalb" / name
            _EVALB_PARAMS[i] = EvalbSettings.read(path) if path.exists() else EvalbSettings()
    return _EVALB_PARAMS[k % len(_EVALB_PARAMS)]


def evalb(data: bytes) -> Tag:
    """The EVALB scorer on bracket lines: the text (Latin-1, as EVALB reads it) is
    ``PARAMS\\n===\\nLINES`` or just ``LINES``; the lines alternate gold and test. Scored with
    ``evaluate`` (under the given parameters, else one of the parameter files of
    ``tests/data/evalb`` picked by the first byte), and with ``evaluate_files`` on the two
    files. ``evaluate`` never raises for bad sentences: any exception is a finding."""
    text = data.decode("latin-1")
    if _SEPARATOR in text:
        params_text, body = text.split(_SEPARATOR, 1)
        params = EvalbSettings.parse(params_text)
    else:
        params, body = _fixed_params(data[0] if data else 0), text
    lines = body.split("\n")
    gold, test = lines[0::2], lines[1::2]
    report = evalb_module.evaluate(gold, test, params)
    evalb_module.format_report(report)
    report.to_dict()
    gold_path = _write("gold.tst", "\n".join(gold).encode("latin-1"))
    test_path = _write("test.tst", "\n".join(test).encode("latin-1"))
    evalb_module.format_report(evalb_module.evaluate_files(gold_path, test_path, params))
    return "aborted" if report.aborted else "ok"


# --------------------------------------------------------------------------- 6. kernels


class ByteReader:
    """Decodes the fuzzer's bytes into choices; past the end every choice is 0."""

    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return 0
        self.pos += 1
        return self.data[self.pos - 1]

    def below(self, n: int) -> int:
        """A number in ``0 .. n - 1``."""
        return self.byte() % n if n > 0 else 0

    def chunk(self, longest: int) -> bytes:
        n = self.below(longest + 1)
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out


LABELS = ("", "root", "nsubj", "obj", "punct", "NP", "VP", "S", "-NONE-", "[", "]", "ü", "根", "a b", "\x00",
          "\u200b", "x" * 1000, "_", "ROOT", "root:1")
WORDS = ("the", "dog", "barks", "ü", "", "(", "'", "x" * 300)
ODD_HEADS = (None, True, 1.5, "1", np.int64(1), 2 ** 40, -(2 ** 40), np.int32(0), -1, float("nan"))
COSTS = (0.0, 0.5, 1.0, 2.0, 1e-300, 1e300, -1.0, float("nan"), float("inf"), "x", None, True)
INTERESTING = (-1, 0, 1, 2, 3, -2, 2 ** 31 - 1, -(2 ** 31), 7, 100)


def _label(r: ByteReader) -> str:
    b = r.byte()
    if b < 200:
        return LABELS[b % len(LABELS)]
    return _text(r.chunk(12))


def _heads(r: ByteReader, n: int) -> list:
    heads = []
    for _ in range(n):
        b = r.byte()
        if b < 180:
            heads.append(b % (n + 1))  # in range: self-heads, cycles, no root all possible
        elif b < 230:
            heads.append(b % (n + 4) - 2)  # some out of range on either side
        else:
            heads.append(ODD_HEADS[b % len(ODD_HEADS)])
    return heads


def _dependency(r: ByteReader, n: int) -> DependencyTree:
    heads = _heads(r, n)
    deprels = [_label(r) for _ in range(n)]
    forms = [WORDS[k % len(WORDS)] for k in range(n)] if r.byte() & 1 else None
    return DependencyTree.create(heads, deprels, forms)


def _constituency(r: ByteReader, size: int) -> ConstituencyTree:
    """A random phrase tree of up to ``size`` nodes built directly as postorder arrays."""
    # children counts in preorder, then laid out in postorder
    nodes = [[]]  # children lists, preorder ids
    frontier = [0]
    while frontier and len(nodes) < size:
        node = frontier.pop(r.below(len(frontier)))
        for _ in range(r.below(4)):
            if len(nodes) >= size:
                break
            nodes.append([])
            nodes[node].append(len(nodes) - 1)
            frontier.append(len(nodes) - 1)
    order: List[int] = []
    stack = [(0, 0)]
    while stack:
        node, k = stack.pop()
        if k < len(nodes[node]):
            stack.append((node, k + 1))
            stack.append((nodes[node][k], 0))
        else:
            order.append(node)
    position = {node: i for i, node in enumerate(order)}
    parent = [-1] * len(order)
    for node, kids in enumerate(nodes):
        for child in kids:
            parent[position[child]] = position[node]
    spans: List[Tuple[int, int]] = []
    first: Dict[int, int] = {}
    leaf = 0
    for node in order:
        if nodes[node]:
            spans.append((first[nodes[node][0]], leaf - 1))
            first[node] = first[nodes[node][0]]
        else:
            spans.append((leaf, leaf))
            first[node] = leaf
            leaf += 1
    labels = tuple(_label(r) for _ in order)
    words = tuple(WORDS[k % len(WORDS)] for k in range(leaf)) if r.byte() & 1 else None
    return ConstituencyTree(labels, np.asarray(parent, dtype=np.int32), np.asarray(spans, dtype=np.int32).reshape(-1, 2),
                            words)


def _trees(r: ByteReader, phrase: bool) -> Tuple[List[list], List[object]]:
    """Items (lists of trees, ``None`` for a missing annotation) and every tree built."""
    items, trees = [], []
    for _ in range(1 + r.below(4)):
        item = []
        for _ in range(r.below(5)):
            b = r.byte()
            if b < 24:
                item.append(None)
                continue
            try:
                tree = _constituency(r, 1 + b % 14) if phrase else _dependency(r, b % 9)
            except AgreementError:
                continue  # an empty sentence, a bad head: rejected by DependencyTree.create
            item.append(tree)
            trees.append(tree)
        items.append(item)
    return items, trees


def _label_cost(r: ByteReader, labels: Sequence[str]):
    b = r.byte()
    if b < 160 or not labels:
        return None
    pairs = {}
    for _ in range(1 + r.below(4)):
        a, c = labels[r.below(len(labels))], labels[r.below(len(labels))]
        pairs[(a, c)] = COSTS[r.below(len(COSTS))]
    if b < 210:
        return pairs
    return lambda a, c: pairs.get((a, c), 0.0 if a == c else 1.0)


def _same(x: float, y: float) -> bool:
    return (math.isnan(x) and math.isnan(y)) or math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)


def _public_kernels(r: ByteReader, items, trees, phrase: bool) -> None:
    vocab_labels = sorted({lab for t in trees for lab in (t.labels if phrase else t.deprels)})
    cost = _label_cost(r, vocab_labels + [""])
    cycles = "raise" if r.byte() & 1 else "drop"
    try:
        for a, b in zip(trees, trees[1:] + trees[:1]):
            ab = tree_edit_distance(a, b, cost, cycles)
            ba = tree_edit_distance(b, a, cost, cycles)
            # one pair may use costs that differ by direction; all-pairs computations may not
            assert ab >= 0 and (cost is not None or _same(ab, ba)), (ab, ba)
            assert tree_edit_distance(a, a, cost, cycles) == 0
            for name in ("plain", "diff", "norm"):
                delta(a, b, name, cost, cycles)
        if trees:
            matrix = distance_matrix(trees, cost, cycles)
            assert np.allclose(matrix, matrix.T) and not np.any(np.diag(matrix))
            if len(trees) > 1:
                assert _same(matrix[0, 1], tree_edit_distance(trees[0], trees[1], cost, cycles))
    except AgreementError:
        pass
    for a, b in zip(trees, trees[1:]):
        d = pqgram_distance(a, b)
        assert 0.0 <= d <= 1.0, d
    size = "tree" if r.byte() & 1 else "annotation"
    deltas = (None, ("plain",), ("norm", "diff"), ("bogus",))[r.below(4)]
    with _Quiet():
        try:
            common = dict(label_cost=cost, cycles=cycles, size=size, method="exact", deltas=deltas)
            threads = spacy_agreement.alpha(items, backend="threads", n_threads=1 + r.below(2), **common)
            serial = spacy_agreement.alpha(items, backend="serial", **common)
            for name in threads.alphas:
                assert _same(threads.alphas[name], serial.alphas[name]), (name, threads.alphas, serial.alphas)
            threads.to_dict()
        except AgreementError:
            pass
        try:
            pqgram_alpha(items, n_threads=1, cycles=cycles)
        except AgreementError:
            pass
    # leaf-ancestor between neighbouring trees (word mismatches are errors or skips)
    strict = bool(r.byte() & 1)
    scheme = ("exact", "first-char")[r.below(2)]
    params = EvalbSettings(delete_labels=("-NONE-", "punct")) if r.byte() & 1 else None
    with _Quiet():
        try:
            result = leaf_ancestor(trees[:-1], trees[1:], scheme, params, strict=strict)
            result.to_dict()
        except AgreementError:
            pass


def _mutate_arrays(r: ByteReader, arrays: List[np.ndarray]) -> None:
    for _ in range(r.below(4)):
        array = arrays[r.below(len(arrays))]
        if array.size:
            index = r.below(array.size)
            array.flat[index] = INTERESTING[r.below(len(INTERESTING))] if r.byte() & 1 else r.byte() - 8


def _raw_kernels(r: ByteReader, trees, phrase: bool) -> None:
    """``_core`` directly with arrays derived from the trees, some entries broken."""
    vocab = LabelVocab()
    ordered = [t.to_ordered(vocab)[0] for t in trees]
    forest = spacy_agreement.Forest.from_trees(ordered)
    labels, lml, offsets, keyroots, kr_offsets = (a.copy() for a in forest.arrays())
    n_trees = len(ordered)
    pairs = np.array([r.below(n_trees) for _ in range(2 * r.below(4) if n_trees else 0)], dtype=np.int64)
    left, right = pairs[0::2].copy(), pairs[1::2].copy()
    n_heads = r.below(10)
    heads = np.array([r.below(n_heads + 1) for _ in range(n_heads)], dtype=np.int32)
    parent = ordered[0].parent.copy() if ordered else np.empty(0, dtype=np.int32)
    sizes = np.asarray([o.size for o in ordered], dtype=np.int64)
    counts = np.ones(n_trees, dtype=np.float64)
    cost = np.ones((len(vocab), len(vocab))) - np.eye(len(vocab)) if r.byte() & 1 else None
    clean = [a.copy() for a in (labels, lml, offsets, keyroots, kr_offsets)]
    broken = bool(r.byte() & 1)
    if broken:
        _mutate_arrays(r, [labels, lml, offsets, keyroots, kr_offsets, heads, parent, left, right, sizes])
    calls: List[Callable[[], object]] = [
        lambda: _core.dependency_postorder(heads),
        lambda: _core.derive_lml_keyroots(parent),
        lambda: _core.validate_forest(labels, lml, offsets, keyroots, kr_offsets, len(vocab)),
        lambda: _core.forest_ted_pairs(labels, lml, offsets, keyroots, kr_offsets, left, right, cost),
        lambda: _core.expected_sums_rows(labels, lml, offsets, keyroots, kr_offsets, sizes, counts,
                                         0, n_trees, 1 + r.below(2), cost),
        lambda: _core.forest_alpha_sums(labels, lml, offsets, keyroots, kr_offsets,
                                        np.zeros(n_trees, dtype=np.int64), np.array([max(n_trees, 2)], dtype=np.int64),
                                        sizes, cost),
        lambda: _core.levenshtein_pairs(labels, offsets, left, right, cost),
        lambda: _core.pqgram_pairs(np.sort(labels.astype(np.int64)), np.array([0, labels.size], dtype=np.int64),
                                   np.zeros_like(left), np.zeros_like(right)),
        lambda: _core.pqgram_expected_rows(np.sort(labels.astype(np.int64)), np.array([0, labels.size], dtype=np.int64),
                                           np.ones(1), 0, 1, 1),
        lambda: _core.delta_values(r.below(4) - 1 if broken else r.below(3), np.ones(len(left)),
                                   left.astype(np.int64), right.astype(np.int64)),
    ]
    if n_trees:
        o = ordered[0]
        calls.append(lambda: _core.tree_edit_distance(labels[:o.size].copy(), lml[:o.size].copy(),
                                                      keyroots[:o.keyroots.size].copy(),
                                                      o.labels, o.lml, o.keyroots, cost))
    for call in calls:
        try:
            call()
        except ValueError:
            if not broken:
                raise  # arrays of real trees must be accepted
    if n_trees > 1 and not broken:
        # the kernels agree with each other on the arrays of real trees
        labels, lml, offsets, keyroots, kr_offsets = clean
        everything = np.triu_indices(n_trees, k=1)
        left, right = everything[0].astype(np.int64), everything[1].astype(np.int64)
        unit = _core.forest_ted_pairs(labels, lml, offsets, keyroots, kr_offsets, left, right)
        eye = np.ones((len(vocab), len(vocab))) - np.eye(len(vocab))
        weighted = _core.forest_ted_pairs(labels, lml, offsets, keyroots, kr_offsets, left, right, eye)
        assert np.array_equal(unit, weighted), (unit, weighted)
        a, b = ordered[int(left[0])], ordered[int(right[0])]
        single = _core.tree_edit_distance(a.labels, a.lml, a.keyroots, b.labels, b.lml, b.keyroots)
        assert single == unit[0]
        ma, mb = a.mirrored(), b.mirrored()
        assert _core.tree_edit_distance(ma.labels, ma.lml, ma.keyroots, mb.labels, mb.lml, mb.keyroots) == single
        sums = _core.expected_sums_rows(labels, lml, offsets, keyroots, kr_offsets, sizes, counts, 0, n_trees, 1)
        assert _same(float(sums[0]), float(2 * np.sum(unit ** 2))), (sums, unit)


def kernels(data: bytes) -> Tag:
    """Trees decoded from the bytes (head lists with out-of-range heads, self-heads, cycles and
    non-numbers, empty sentences; labels empty, unicode, very long; phrase trees built
    directly as arrays) through ``tree_edit_distance``, ``delta``, ``distance_matrix``,
    ``pqgram_distance``, ``alpha`` (threads and serial, which must agree), ``pqgram_alpha`` and
    ``leaf_ancestor``; then ``_core`` directly with arrays derived from the trees."""
    r = ByteReader(data)
    phrase = bool(r.byte() & 1)
    items, trees = _trees(r, phrase)
    _public_kernels(r, items, trees, phrase)
    _raw_kernels(r, trees, phrase)
    return f"{'phrase' if phrase else 'dependency'}:{len(trees)}"


def _drawing_items(r: ByteReader) -> list:
    """Judging items ``(words, a, b, gold or None)``: trees of one length decoded from the bytes."""
    items, with_gold = [], bool(r.byte() & 1)
    for _ in range(1 + r.below(3)):
        n = 1 + r.below(8)
        try:
            trees = [_dependency(r, n) for _ in range(3)]
        except AgreementError:
            continue
        words = [_label(r) for _ in range(n)] if r.byte() & 1 else list(trees[0].forms)
        items.append((words, trees[0], trees[1], trees[2] if with_gold else None))
    return items


def drawing(data: bytes) -> Tag:
    """The judging page's compiled pictures (``_drawing``): judging items decoded from the bytes
    (odd words and labels, self-heads, cycles) drawn by ``judging_drawing.dependency_pictures``,
    which must give the Python drawing's pictures; then ``_drawing.dependency_pictures`` directly
    with some arrays broken, and ``_drawing.tree_texts`` (the key's tree texts), which must raise
    ``ValueError`` or ``TypeError``, never crash."""
    from spacy_agreement import _drawing
    from spacy_agreement.report.judging_drawing import dependency_pictures
    from spacy_agreement.report.judging_pictures import analysis_pictures

    r = ByteReader(data)
    items = _drawing_items(r)
    marks, against_gold = bool(r.byte() & 1), bool(r.byte() & 1)
    expected = [analysis_pictures(w, a, b, g, marks, against_gold) for w, a, b, g in items]
    assert dependency_pictures(items, marks, against_gold) == expected
    n = sum(len(w) for w, *_ in items)
    bands = 3 if items and items[0][3] is not None else 2
    offsets = np.concatenate(([0], np.cumsum([len(w) for w, *_ in items]))).astype(np.int64)
    ints = [np.zeros(n, dtype=np.int32) for _ in range(3)] + \
        [np.zeros((bands, n), dtype=np.int32) for _ in range(3)]
    ints[3][:] = np.concatenate([t.heads for _, *trees in items for t in trees[:bands]]).reshape(bands, -1) \
        if items else ints[3]
    floats = [np.ones(n), np.ones((bands, n)), np.ones((bands, n))]
    flags = [np.zeros((bands, n), dtype=np.uint8) for _ in range(2)]
    if r.byte() & 1:
        _mutate_arrays(r, [offsets, *ints])
        for f in flags:
            if f.size:
                f.flat[r.below(f.size)] = r.byte()
    strings = [b"w", b"x&amp;"] if r.byte() & 1 else [b"w", "x"]
    try:
        _drawing.dependency_pictures(strings, offsets, floats[0], ints[0], ints[1] - 1, ints[2], ints[3],
                                     floats[1], floats[2], ints[4], ints[5] - 1, flags[0], flags[1])
    except (ValueError, TypeError):
        pass
    codes = [np.zeros(n, dtype=np.int32) for _ in range(3)]  # the key's tree texts, with the same broken offsets
    if r.byte() & 1:
        _mutate_arrays(r, codes)
    with_upos = np.ones(max(len(offsets) - 1, 0), dtype=np.uint8)
    try:
        _drawing.tree_texts([b'"w"'], offsets, codes[0], ints[0], codes[1], codes[2], with_upos)
    except (ValueError, TypeError):
        pass
    return f"drawing:{len(items)}"


# --------------------------------------------------------------------------- registry and seeds

TARGETS: Dict[str, Callable[[bytes], Tag]] = {
    "conll": conll,
    "brackets": brackets,
    "discourse": discourse,
    "judgments": judgments,
    "datapackage": datapackage,
    "evalb_params": evalb_params,
    "evalb": evalb,
    "kernels": kernels,
    "drawing": drawing,
}


def _read(path: Path) -> Optional[bytes]:
    return path.read_bytes() if path.is_file() else None


def _files(folder: Path, pattern: str) -> List[bytes]:
    return [p.read_bytes() for p in sorted(folder.glob(pattern))] if folder.is_dir() else []


def _conll_seeds() -> List[bytes]:
    files = _files(DEMO / "dependency", "*/*.conllu") + _files(TEST_DATA / "plank" / "xx", "*.conll")
    seeds = list(files)
    for text in files[:3]:
        seeds += [block + b"\n" for block in text.split(b"\n\n")[:2]]
    seeds += [
        b"# sent_id = mw\n1-2\tdu\t_\t_\t_\t_\t_\t_\t_\t_\n1\tde\t_\tADP\t_\t_\t3\tcase\t_\t_\n"
        b"2\tle\t_\tDET\t_\t_\t3\tdet\t_\t_\n3\tchat\t_\tNOUN\t_\t_\t0\troot\t_\t_\n3.1\tx\t_\t_\t_\t_\t_\t_\t2:x\t_\n",
        b"# global.columns = ID FORM UPOS HEAD DEPREL\n1\ta\tX\t0\troot\n2\tb\tX\t1\tdep\n",
        b"1\ta\ta\tN\tNN\tsg|nom\t2\tSBJ\t_\t_\n2\tb\tb\tV\tVB\t_\t0\tROOT\t_\t_\n",
        b"1\ta\t_\t_\t_\t_\t1\tdep\t_\t_\n2\tb\t_\t_\t_\t_\t3\tdep\t_\t_\n3\tc\t_\t_\t_\t_\t2\tdep\t_\t_\n",
        b"1\ta  b\t_\t_\t_\t_\t0\troot\t_\t_\r\n\r\n1\tc\t_\t_\t_\t_\t0\troot\t_\t_\r\n",
    ]
    return seeds


def _bracket_seeds() -> List[bytes]:
    seeds = _files(DEMO / "phrase", "*.tree")
    seeds += _files(TEST_DATA / "evalb", "*.gld") + _files(TEST_DATA / "evalb", "*.tst")
    seeds += _files(TEST_DATA / "evalb", "*.mrg")
    seeds += [
        b"( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) )\n",
        b"(S (NP P) (VP V (NP D N)))\n(S (NP P) (VP V))\n",
        b"(S (NP (DT a)) (VP (VB b)))\n\n(S (NP (DT c)) (VP (VB d)))\n",
        b"()\n(())\n(S (X y))\n",
        b"(S\n  (NP (DT the)\n      (NN dog))\n  (VP (VBZ barks)))\n",
    ]
    return seeds


def _discourse_seeds() -> List[bytes]:
    seeds = _files(EXAMPLES, "discourse_example.json")
    small = {
        "sentences": [{"tokens": ["I", "know", "it"], "heads": [2, 0, 2], "deprels": ["nsubj", "root", "obj"]},
                      {"tokens": ["But", "it", "rained"], "heads": [3, 3, 0]}],
        "annotators": {
            "a": [{"start": [0, 2], "target": [1, 3], "connective": [[1, 1]], "type": "opp"}],
            "b": [{"start": [0, 3], "target": [1, 3], "connective": [[1, 1]], "type": "conc"},
                  {"start": [1, 3], "target": [0, 2], "connective": [[1, 1], [1, 2]], "type": "opp"}],
        },
    }
    seeds.append(json.dumps(small).encode())
    seeds.append(json.dumps({**{k: v for k, v in small.items() if k != "sentences"}, "conllu": "doc.conllu"}).encode())
    seeds.append(json.dumps({"sentences": small["sentences"], "annotators": {"a": []}}, indent=1).encode())
    seeds.append(b"\xff" + seeds[-1])  # written as it is: not UTF-8
    return seeds


def _judgment_seeds() -> List[bytes]:
    folder = TEST_DATA / "plank" / "xx"
    if not (folder / "gold.conll").exists():
        texts = {name: _CONLLU_NEXT_TO_DOCUMENT for name in ("gold", "parser1", "parser2")}
    else:
        texts = {name: (folder / f"{name}.conll").read_text("utf-8") for name in ("gold", "parser1", "parser2")}
    blocks = {name: [b for b in text.split("\n\n") if b.strip()] for name, text in texts.items()}
    lines = []
    for k, (g, a, b) in enumerate(zip(blocks["gold"], blocks["parser1"], blocks["parser2"])):
        tree = parse_conll(g)[0]
        as_object = {"heads": tree.heads.tolist(), "deprels": list(tree.deprels), "upos": list(tree.upos),
                     "forms": list(tree.forms)}
        lines.append(json.dumps({"id": f"s{k}", "gold": as_object if k % 2 else g, "a": a + "\n", "b": b + "\n",
                                 "judgments": {"j1": "A", "j2": "b" if k % 2 else "a", "j3": "B"}}))
    seeds = [("\n".join(lines) + "\n").encode(), (lines[0] + "\n").encode() if lines else b"{}\n"]
    seeds.append(b'{"id": 1, "gold": {"heads": [0], "deprels": ["root"]}, "a": {"heads": [0], "deprels": ["x"]}, '
                 b'"b": {"heads": [0], "deprels": ["root"]}, "judgments": {"j": "A"}}\n\n')
    return seeds


def _datapackage_seeds() -> List[bytes]:
    seeds = _files(TEST_DATA / "plank" / "xx", "annotated.csv")
    seeds += [b"ann1,ann2,ann3\nblue,red,\nred,red,red\n,blue,red\n", b"blue\nred\nblue\n", b"\n\n\n",
              b'"blue","red"\r\n"red",""\r\nblue,blue\r\n']
    return seeds


def _params_seeds() -> List[bytes]:
    seeds = _files(TEST_DATA / "evalb", "*.prm")
    seeds += [b"DEBUG 1\nMAX_ERROR 3\nCUTOFF_LEN\nLABELED 0\nEQ_LABEL A B C\nEQ_WORD a b\nUNKNOWN 1\n#x\nab\n",
              b"DELETE_LABEL a b\r\nQUOTE_LABEL ''\x00ignored\n\tDEBUG 2\n"]
    return seeds


def _evalb_seeds() -> List[bytes]:
    seeds = []
    folder = TEST_DATA / "evalb"
    params = _files(folder, "evalb.prm")
    for stem in ("main", "short", "fatal"):
        gold, test = _read(folder / f"{stem}.gld"), _read(folder / f"{stem}.tst")
        if gold is None or test is None:
            continue
        interleaved = b"\n".join(x for pair in zip(gold.split(b"\n"), test.split(b"\n")) for x in pair)
        seeds.append(interleaved)
        for p in params:
            seeds.append(p + _SEPARATOR.encode() + interleaved)
    seeds += [b"(S (NP (DT the) (NN dog)))\n(S (NP (DT the) (NN cat)))\n",
              b"MAX_ERROR 2\nDEBUG 1\n===\n(S (A a) (B b))\n(S (A a) (B b)\n(S (A a))\n\n",
              b"MAX_ERROR 10\n===\n(S (A a) (B b))\n(S (A a b))\n",  # EVALB repeats "Reading sentence"
              b"MAX_ERROR 1000000000\n===\n(S (A a) (B b))\n(S (A a b))\n",  # ... a billion times (a hang)
              b"( (S (NP-SBJ (PRP He)) (VP (VBD left)) (. .)) )\n(S (NP (PRP He)) (VP (VBD left)) (. .))\n"]
    return seeds


def _kernel_seeds() -> List[bytes]:
    rng = random.Random(17)
    seeds = [bytes(rng.randrange(256) for _ in range(rng.randrange(8, 200))) for _ in range(48)]
    seeds += [b"\x00" * 64, b"\x01" * 64, b"\x00\x02\x30\x05\x01\x00\x03\x02\x00\x30\x05\x02\x00\x01\x03\x01" * 4]
    return seeds


SEEDS: Dict[str, Callable[[], List[bytes]]] = {
    "conll": _conll_seeds,
    "brackets": _bracket_seeds,
    "discourse": _discourse_seeds,
    "judgments": _judgment_seeds,
    "datapackage": _datapackage_seeds,
    "evalb_params": _params_seeds,
    "evalb": _evalb_seeds,
    "kernels": _kernel_seeds,
    "drawing": _kernel_seeds,
}

# tokens the plain mutator inserts, per target (atheris finds its own)
DICTIONARY: Dict[str, Tuple[bytes, ...]] = {
    "conll": (b"\t", b"\n", b"\n\n", b"#", b"# sent_id = ", b"# global.columns = ", b"-", b".", b"_", b"0", b"1",
              b"  ", b"\r", b"\x00", b"\xff", b"99999999999999999999"),
    "brackets": (b"(", b")", b"()", b" ", b"\n", b"\n\n", b"( ", b"\xff", b"\x00", b"(S ", b"(X x)"),
    "discourse": (b"{", b"}", b"[", b"]", b'"', b",", b":", b"null", b"true", b"1e999", b"-1", b"[[[[[[[[",
                  b'"heads"', b'"tokens"', b'"deprels"', b'"annotators"', b'"conllu"', b'"connective"',
                  b'"start"', b'"target"', b'"type"', b'"sentences"', b"NaN", b"0", b"\\u0000"),
    "judgments": (b"{", b"}", b"[", b"]", b'"', b",", b":", b"null", b"true", b"1e999", b"-1", b"\n", b'"gold"',
                  b'"a"', b'"b"', b'"heads"', b'"deprels"', b'"judgments"', b'"A"', b'"id"', b"[[[[[[[[", b"\\t"),
    "datapackage": (b",", b"\n", b'"', b"blue", b"red", b"\r\n", b"\x00", b"green", b"\xff"),
    "evalb_params": (b"\n", b" ", b"\t", b"#", b"\x00", b"DEBUG ", b"MAX_ERROR ", b"CUTOFF_LEN ", b"LABELED ",
                     b"DELETE_LABEL ", b"EQ_LABEL ", b"EQ_WORD ", b"QUOTE_LABEL ", b"-", b"9"),
    "evalb": (b"(", b")", b" ", b"\n", b"\n===\n", b"MAX_ERROR ", b"DEBUG 1\n", b"-NONE-", b"'", b"\x00", b"\t",
              b"QUOTE_LABEL POS\n"),
    "kernels": (b"\x00", b"\xff", b"\x7f", b"\x80", b"\x01\x00", b"\xe6", b"\xc8"),
}


def mutate(data: bytes, rng: random.Random, seeds: Sequence[bytes] = (), dictionary: Sequence[bytes] = (),
           max_len: int = 4096) -> bytes:
    """One to four random edits of ``data`` (bit flips, byte changes, inserts, deletes, repeated
    or spliced chunks, dictionary tokens), as the plain campaign and the tests use them."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        pos = rng.randrange(len(out) + 1)
        if op == 0 and out:
            out[min(pos, len(out) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1 and out:
            out[min(pos, len(out) - 1)] = rng.randrange(256)
        elif op == 2:
            out[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif op == 3 and out:
            end = min(len(out), pos + rng.randint(1, 16))
            del out[pos:end]
        elif op == 4 and out:
            start = rng.randrange(len(out))
            chunk = out[start:start + rng.randint(1, 32)]
            out[pos:pos] = chunk * rng.randint(1, 8)
        elif op == 5 and seeds:
            other = rng.choice(seeds)
            start = rng.randrange(len(other) + 1)
            out[pos:] = other[start:start + rng.randint(1, 256)]
        elif dictionary:
            out[pos:pos] = rng.choice(dictionary)
    return bytes(out[:max_len])


def inputs(name: str, count: int, seed: int = 0, max_len: int = 4096):
    """The seed inputs of target ``name`` then random mutations of them: ``count`` in all."""
    rng = random.Random(seed)
    seeds = [s[:max_len] for s in SEEDS[name]()]
    for k in range(count):
        if k < len(seeds):
            yield seeds[k]
        else:
            yield mutate(rng.choice(seeds), rng, seeds, DICTIONARY.get(name, ()), max_len)
