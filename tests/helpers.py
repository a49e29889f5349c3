"""The helpers the tests share, in one module: small input files, the CLI's one-line error
check and the arguments of every command, nested-tuple trees as ordered trees and forests, and
the comparison of α's sums."""
import json
from pathlib import Path

import numpy as np
import pytest

from spacy_agreement.trees import Forest, OrderedTree
from spacy_agreement.vocab import LabelVocab

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


ROW = "{}\tw{}\t_\tX\t_\t_\t{}\t{}\t_\t_\n"


def conll(rows):
    """One CoNLL sentence from ``(head, relation)`` pairs, words ``w1``, ``w2``, ..."""
    return "".join(ROW.format(k, k, h, r) for k, (h, r) in enumerate(rows, 1)) + "\n"


def write_two_annotators(tmp_path):
    """Two annotators' files of four sentences that differ in the first."""
    a, b = tmp_path / "a.conll", tmp_path / "b.conll"
    a.write_text(conll([(2, "x"), (0, "root"), (2, "y")]) + conll([(0, "root"), (1, "x")]) * 3, encoding="utf-8")
    b.write_text(conll([(3, "x"), (0, "root"), (2, "z")]) + conll([(0, "root"), (1, "y")]) * 3, encoding="utf-8")
    return a, b


def one_line_error(result, *needles):
    assert result.exit_code == 1, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


#: setpriv's options that take from root the capabilities by which it reads every file.
_NO_DAC = ["--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search"]


def _root_can_be_refused() -> str:
    """"" where a child process of root, started by ``setpriv`` without CAP_DAC_OVERRIDE and
    CAP_DAC_READ_SEARCH, is refused a file without read permission; else why not."""
    import os
    import shutil
    import subprocess
    import sys
    import tempfile

    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return "setpriv (util-linux) is not installed"
    with tempfile.TemporaryDirectory() as folder:
        locked = Path(folder) / "locked"
        locked.write_text("x", encoding="utf-8")
        locked.chmod(0)
        probe = f"import sys\ntry:\n    open({str(locked)!r})\nexcept PermissionError:\n    sys.exit(3)"
        try:
            done = subprocess.run([setpriv, *_NO_DAC, "--", sys.executable, "-c", probe], capture_output=True,
                                  timeout=60, env=dict(os.environ))
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"setpriv failed: {exc}"
        return "" if done.returncode == 3 else \
            f"setpriv could not drop the capabilities: {done.stderr.decode(errors='replace').strip()[:200]}"


def invoke_bound_by_permissions(app, args):
    """The CLI with ``args`` where file permissions bind: in this process (``CliRunner``) for a
    user other than root; as root (who reads every file), ``python -m spacy_agreement`` in a
    child process that ``setpriv`` started without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, so
    that a file without read permission is refused as it is to any user. Returns what
    :func:`one_line_error` reads (``exit_code``, ``exception``, ``stdout``, ``stderr``,
    ``output``); skips, saying why, where root cannot be refused (no allowed skip reason: under
    CI that fails the run)."""
    import os
    import shutil
    import subprocess
    import sys
    from types import SimpleNamespace

    from typer.testing import CliRunner

    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return CliRunner().invoke(app, args)
    why = _root_can_be_refused()
    if why:
        pytest.skip(f"running as root, which reads every file, and {why}: the permission error NOT checked")
    done = subprocess.run([shutil.which("setpriv"), *_NO_DAC, "--", sys.executable, "-m", "spacy_agreement", *args],
                          capture_output=True, timeout=300, env=dict(os.environ), stdin=subprocess.DEVNULL)
    out, err = done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    return SimpleNamespace(exit_code=done.returncode, exception=None, stdout=out, stderr=err, output=out + err)


def command_args(command, tmp_path, files):
    a, b = files
    mrg_gold, mrg_test = tmp_path / "g.mrg", tmp_path / "t.mrg"
    mrg_gold.write_text("(S (NP (DT a)) (VP (VB b)))\n(S (NP (DT c)) (VP (VB d)))\n", encoding="utf-8")
    mrg_test.write_text("(S (NP (DT a) (VP (VB b))))\n(S (NP (DT c)) (VP (VB d)))\n", encoding="utf-8")
    judged = tmp_path / "j.jsonl"
    items = [{"id": f"s{k}", "gold": {"heads": [0, 1, 1], "deprels": ["root", "x", "y"]},
              "a": {"heads": [0, 1, 1], "deprels": ["root", "x", "z" if k % 2 else "y"]},
              "b": {"heads": [0, 1, 2], "deprels": ["root", "x", "y"]},
              "judgments": {"j1": "AB"[k % 2], "j2": "A"}} for k in range(6)]
    judged.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    return {
        "alpha": [str(a), str(b)],
        "layers": [str(a), str(b)],
        "evaluate": [str(a), str(b)],
        "compare": [str(a), str(b), str(a), "--shuffles", "200", "--resamples", "100"],
        "judgments": [str(judged)],
        "synthetic": [str(a), "--sample", "4", "--runs", "1"],
        "leaf-ancestor": [str(mrg_gold), str(mrg_test)],
        "evalb": [str(mrg_gold), str(mrg_test)],
        "discourse": [str(EXAMPLES / "discourse_example.json")],
        "report": [str(a), str(b), "--html", str(tmp_path / "r.html")],
        "judge": [str(a), str(b), "--html", str(tmp_path / "j.html")],
        "demo": [],
    }[command]


def to_ordered(tree, vocab):
    """A nested-tuple tree ``(label, children)`` as an OrderedTree (postorder)."""
    labels, parents = [], []

    def visit(node):
        label, children = node
        child_ids = [visit(child) for child in children]
        index = len(labels)
        labels.append(vocab.add(str(label)))
        parents.append(-1)
        for c in child_ids:
            parents[c] = index
        return index

    visit(tree)
    return OrderedTree.from_parents(np.array(labels), np.array(parents))


def ordered_forest(trees):
    """Nested-tuple trees as OrderedTrees, their Forest and their sizes."""
    vocab = LabelVocab()
    ordered = [to_ordered(t, vocab) for t in trees]
    return ordered, Forest.from_trees(ordered), np.array([t.size for t in ordered], dtype=np.int64)


def assert_same_sums(got, expected):
    """α's sums in the order plain, diff, norm: exact for the integer terms of δplain and δdiff,
    to rounding for δnorm (with several threads the rows' shares are added in the order the
    threads finish)."""
    assert list(got[:2]) == list(expected[:2])
    assert got[2] == pytest.approx(expected[2], rel=1e-12, abs=1e-15)


def block_forest(seed=0, n_trees=260):
    """Trees of 1 to 70 nodes, enough for many blocks, with two too big for the layouts in the
    middle (a block must stop before them and start again after)."""
    rng = np.random.default_rng(seed)
    vocab = LabelVocab()
    ordered = [to_ordered(random_tree(rng, int(rng.integers(1, 71))), vocab) for _ in range(n_trees)]
    ordered[n_trees // 3:n_trees // 3] = [chain(530, vocab.add("l0"))]
    ordered[n_trees // 2:n_trees // 2] = [to_ordered(comb(100), vocab)]
    return ordered, Forest.from_trees(ordered), np.array([t.size for t in ordered], dtype=np.int64)


def comb(n_spine, label="a"):
    """A spine whose every node has a leaf as first child: Σ keyroot sizes grows as n²/4."""
    tree = (label, ())
    for _ in range(n_spine):
        tree = (label, (("b", ()), tree))
    return tree


def chain(n, label):
    """A chain of n nodes in postorder (node k under node k + 1), built without recursion."""
    return OrderedTree.from_parents(np.full(n, label), np.append(np.arange(1, n), -1))


def random_tree(rng, n, n_labels=4):
    """A random recursive tree of n nodes as nested tuples (built without recursion)."""
    parent = [-1] + [int(rng.integers(0, k)) for k in range(1, n)]
    kids = [[] for _ in range(n)]
    for k in range(1, n):
        kids[parent[k]].append(k)
    labels = rng.integers(0, n_labels, n)
    built = {}
    for node in range(n - 1, -1, -1):  # children have higher numbers than their parent
        built[node] = (f"l{labels[node]}", tuple(built.pop(c) for c in kids[node]))
    return built[0]


def krippendorff_nominal(reliability):
    """``krippendorff.alpha`` (nominal) of a float matrix (annotators × units, nan missing), the
    independent reference of the layers' α; ``nan`` where the package raises (nothing pairable,
    one value in the whole domain) or returns nan (0/0)."""
    import math
    import warnings

    import krippendorff

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return float(krippendorff.alpha(reliability_data=reliability, level_of_measurement="nominal"))
        except ValueError:
            return math.nan


def option_defaults(command, printing=()):
    """``{python name of the long option: typer default}`` of a CLI command's options, for the
    tests that a library function has its command's defaults: ``--a/--b`` flags by their first
    name (``--signature`` as ``signature=``), the options in ``printing`` (those that
    only shape what the command prints) left out."""
    import inspect

    out = {}
    for parameter in inspect.signature(command).parameters.values():
        info = parameter.default
        decls = getattr(info, "param_decls", None)
        if not decls:
            continue  # an argument
        long = next(d for d in decls if d.startswith("--")).split("/")[0]
        if long in printing:
            continue
        name = long[2:].replace("-", "_")  # --signature is signature=, keyword-only as every option
        out[name] = getattr(info.default, "value", info.default)
    return out

