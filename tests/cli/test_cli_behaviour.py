"""Honest errors and output (issue 15): warnings as one line each, once; Ctrl-C as one line
and exit code 130, quickly, even inside the all-pairs α kernel; a progress bar that counts
pairs; one-line errors for a missing extra, an unreachable scheduler, unreadable, empty and
duplicate inputs; leaf-ancestor's summary by default; --json/--tsv/--output on every command
with the same figures as the text."""
import json
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import COMMANDS, app
from spacy_agreement.cli._output import Output, flat, json_safe
from spacy_agreement.cli._warning_lines import warning_lines
from ..helpers import command_args, conll, invoke_bound_by_permissions, one_line_error, write_two_annotators


runner = CliRunner()


@pytest.fixture
def files(tmp_path):
    return write_two_annotators(tmp_path)


def identical_files(tmp_path):
    """Two annotators who agree on everything: α is undefined (no expected disagreement)."""
    a, b = tmp_path / "same1.conll", tmp_path / "same2.conll"
    for path in (a, b):
        path.write_text(conll([(0, "root"), (1, "x")]) * 4, encoding="utf-8")
    return a, b


def warnings_in(stderr):
    return [line for line in stderr.splitlines() if line.startswith("warning: ")]


# --------------------------------------------------------------------------- warnings

def test_a_warning_is_one_line_printed_once(tmp_path):
    a, b = identical_files(tmp_path)
    with pytest.warns(sa.UndefinedMetricWarning):  # a program that records warnings still gets them
        result = runner.invoke(app, ["alpha", str(a), str(b), "--json"])
    assert result.exit_code == 0, result.output
    lines = warnings_in(result.stderr)
    assert len(lines) == 1, result.stderr  # alpha plain, diff and norm: one reason, one line
    assert "alpha_plain, alpha_diff and alpha_norm are undefined" in lines[0]
    assert result.stderr.strip() == lines[0]  # no file, line number or source line
    assert json.loads(result.stdout)["alpha_plain"] is None
    with pytest.warns(sa.UndefinedMetricWarning):
        quiet = runner.invoke(app, ["alpha", str(a), str(b), "--json", "--quiet"])
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_warnings_of_a_real_process_are_one_line_each(tmp_path):
    a, b = identical_files(tmp_path)
    command = [sys.executable, "-m", "spacy_agreement.cli", "alpha", str(a), str(b)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == warnings_in(done.stderr) and len(warnings_in(done.stderr)) == 1, done.stderr
    assert "UndefinedMetricWarning" not in done.stderr and ".py:" not in done.stderr
    silenced = subprocess.run([sys.executable, "-W", "ignore", *command[1:]], capture_output=True, text=True,
                              timeout=60)
    assert silenced.returncode == 0 and silenced.stderr == ""  # the warning filters still apply


def test_warning_lines_drop_repeats_and_join_undefined_results():
    undefined = sa.UndefinedMetricWarning.of  # grouped by its metric and reason, not by its text
    assert warning_lines([undefined("x", "0/0"), undefined("y", "0/0"), undefined("x", "0/0"),
                          RuntimeWarning("Mean of empty\nslice"), "Mean of empty slice"]) == [
        "warning: x and y are undefined: 0/0; returning nan", "warning: Mean of empty slice"]
    assert warning_lines([undefined("a", "why"), undefined("b", "why"), undefined("Cohen's kappa", "why")]) == [
        "warning: a, b and Cohen's kappa are undefined: why; returning nan"]
    assert warning_lines(["a is undefined: why", "b is undefined: why"]) == [  # text alone is not parsed
        "warning: a is undefined: why", "warning: b is undefined: why"]


def test_an_undefined_metric_warning_carries_its_metric_and_reason():
    from spacy_agreement.errors import undefined

    with pytest.warns(sa.UndefinedMetricWarning) as record:
        undefined("alpha_plain", "no expected disagreement")
    found = record[0].message
    assert (found.metric, found.reason) == ("alpha_plain", "no expected disagreement")
    assert str(found) == "alpha_plain is undefined: no expected disagreement; returning nan"
    assert sa.UndefinedMetricWarning("made from a message").metric is None


# --------------------------------------------------------------------------- Ctrl-C

def _interrupting(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning", "ignore::RuntimeWarning")
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_ctrl_c_is_one_line_and_exit_code_130(command, tmp_path, files, monkeypatch):
    for method in ("write", "emit", "note"):  # every command writes or notes something at the end
        monkeypatch.setattr(Output, method, _interrupting)
    result = runner.invoke(app, [command, *command_args(command, tmp_path, files)])
    assert result.exit_code == 130, (result.output, result.exception)
    assert result.stderr.strip() == "interrupted" and result.stdout == ""


def _big_corpus(tmp_path, sentences=1500):
    """Two annotators' random trees of 8 to 30 tokens: seconds of exact α on two cores."""
    paths = []
    for seed in range(2):
        rng, lengths = np.random.default_rng(seed), np.random.default_rng(99)
        blocks = []
        for _ in range(sentences):
            n = int(lengths.integers(8, 31))
            heads = [0] + [int(rng.integers(1, k)) for k in range(2, n + 1)]
            blocks.append(conll([(h, "root" if h == 0 else "abcde"[int(rng.integers(5))]) for h in heads]))
        path = tmp_path / f"annotator{seed}.conll"
        path.write_text("".join(blocks), encoding="utf-8")
        paths.append(path)
    return paths


def test_ctrl_c_stops_the_alpha_kernel_within_a_second(tmp_path):
    a, b = _big_corpus(tmp_path)
    command = [sys.executable, "-m", "spacy_agreement.cli", "alpha", str(a), str(b), "--alpha", "exact"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1.5)
        assert process.poll() is None, process.communicate()  # still computing: several seconds of work
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert err.splitlines() == ["interrupted"] and out == ""
    assert took < 2.0, f"stopped {took:.2f} s after Ctrl-C"


# --------------------------------------------------------------------------- the α progress bar and its chunks

def _forest(count=60, seed=0):
    """Distinct-ish random dependency trees as the kernel's ordered trees, largest first."""
    from spacy_agreement.trees import DependencyTree, Forest
    from spacy_agreement.vocab import LabelVocab

    rng, vocab = np.random.default_rng(seed), LabelVocab()
    trees = []
    for _ in range(count):
        n = int(rng.integers(2, 12))
        heads = [0] + [int(rng.integers(1, k)) for k in range(2, n + 1)]
        labels = ["root"] + [str(rng.integers(3)) for _ in heads[1:]]
        trees.append(DependencyTree.create(heads, labels).to_ordered(vocab)[0])
    trees.sort(key=lambda t: -t.size)
    return trees, Forest.from_trees(trees)


def test_the_alpha_progress_bar_counts_pairs_with_a_steady_eta(monkeypatch):
    import tqdm

    from spacy_agreement.agreement import engine

    bars = []

    class Bar:
        def __init__(self, **kwargs):
            self.kwargs, self.count = kwargs, 0
            bars.append(self)

        def update(self, k):
            self.count += k

        def close(self):
            pass

    monkeypatch.setattr(tqdm, "tqdm", Bar)
    trees, forest = _forest()
    n = len(forest)
    sizes, counts = forest.sizes.astype(np.int64), np.ones(n)
    total = engine.expected_sums(forest, sizes, counts, n_threads=2, progress=True, forest_trees=trees,
                                 chunk_cells=50.0)
    (bar,) = bars
    assert bar.kwargs["unit"] == "pairs" and bar.kwargs["total"] == n * (n - 1) // 2 == bar.count
    assert bar.kwargs["smoothing"] == 0  # the average rate: no jumpy ETA
    one_chunk = engine.expected_sums(forest, sizes, counts, n_threads=1, chunks=1, forest_trees=trees,
                                     chunk_cells=1e18)
    assert np.allclose(total, one_chunk, rtol=1e-12)


def test_the_kernel_polls_between_groups_of_rows_and_stops_on_an_exception():
    from spacy_agreement import _core

    trees, forest = _forest(120, seed=2)
    n = len(forest)
    sizes, counts = forest.sizes.astype(np.int64), np.ones(n)
    seen, alone = [], []
    whole = _core.expected_sums_rows(*forest.arrays(), sizes, counts, 0, n, 2, progress=seen.append)
    assert sum(seen) == n * (n - 1) // 2 and all(k > 0 for k in seen)
    one = _core.expected_sums_rows(*forest.arrays(), sizes, counts, 0, n, 1, progress=alone.append)
    # one thread: reported after every group of rows the row kernel runs together
    group = _core.row_group(n)
    per_group = [sum(n - 1 - i for i in range(a, min(a + group, n))) for a in range(0, n, group)]
    assert group > 1 and alone == [pairs for pairs in per_group if pairs]
    assert np.array_equal(whole, one)

    calls = []

    def interrupt(pairs):
        calls.append(pairs)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _core.expected_sums_rows(*forest.arrays(), sizes, counts, 0, n, 2, progress=interrupt)
    assert len(calls) == 1  # the other rows were skipped, the callback not called again


def test_groups_of_rows_shrink_in_very_big_forests():
    """Ctrl-C is served between groups of rows: past ROW_GROUP_TREES trees a group has fewer rows,
    so that its pairs stay under ROW_GROUP * ROW_GROUP_TREES."""
    from spacy_agreement import _core

    group, limit = _core.ROW_GROUP, _core.ROW_GROUP_TREES
    assert _core.row_group(2) == _core.row_group(limit) == group > 1
    for n in (limit + 1, 2 * limit, 3 * limit, 10 * limit, 10**9):
        rows = _core.row_group(n)
        assert 1 <= rows < group and (rows == 1 or rows * n <= group * limit)
    assert _core.row_group(2 * limit) == group // 2


def test_chunks_are_sized_by_estimated_work():
    from spacy_agreement.agreement.engine import chunk_pairs, row_work, tree_costs, work_chunks

    trees, forest = _forest(200, seed=1)
    costs = tree_costs(forest)
    assert costs.tolist() == [t.keyroot_cost for t in trees]
    work = row_work(costs)
    assert work[-1] == 0 and work[0] == costs[0] * costs[1:].sum()
    budget = work.sum() / 40
    ranges = work_chunks(work, budget, min_rows=2)
    assert ranges[0][0] == 0 and ranges[-1][1] == len(work)
    assert all(x[1] == y[0] for x, y in zip(ranges, ranges[1:]))
    for start, end in ranges:  # at most the budget, unless the chunk is the fewest rows allowed (or the tail)
        assert work[start:end].sum() <= budget or end - start <= 2 or end == len(work)
    assert sum(chunk_pairs(len(work), a, b) for a, b in ranges) == len(work) * (len(work) - 1) // 2


# --------------------------------------------------------------------------- one-line errors

def test_a_missing_dask_extra_is_one_line(files, monkeypatch):
    a, b = files
    for module in ("distributed", "dask"):
        monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    line = one_line_error(runner.invoke(app, ["alpha", str(a), str(b), "--backend", "dask"]))
    assert line == "--backend dask needs the optional extra: pip install 'spacy-agreement[dask]'"


def test_a_missing_matplotlib_is_one_line_before_the_work(files, tmp_path, monkeypatch):
    from spacy_agreement.cli import synthetic

    a, _ = files
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(synthetic, "run_experiment", lambda *args, **kwargs: pytest.fail("computed first"))
    line = one_line_error(runner.invoke(app, ["synthetic", str(a), "--plot", str(tmp_path / "plots")]))
    assert line == "--plot needs the optional extra: pip install 'spacy-agreement[plot]'"


def test_an_unreachable_scheduler_is_one_line_within_seconds(files, monkeypatch):
    pytest.importorskip("distributed")
    from spacy_agreement.agreement import engine

    monkeypatch.setattr(engine, "SCHEDULER_TIMEOUT", 1.0)
    a, b = files
    start = time.monotonic()
    result = runner.invoke(app, ["alpha", str(a), str(b), "--alpha", "exact", "--backend", "dask",
                                 "--scheduler", "tcp://127.0.0.1:9"])
    one_line_error(result, "cannot reach the dask scheduler tcp://127.0.0.1:9")
    assert time.monotonic() - start < 10


FILE_COMMANDS = {  # a command and its arguments, {x} the input file under test
    "alpha": ["alpha", "{a}", "{x}"],
    "layers": ["layers", "{a}", "{x}"],
    "evaluate": ["evaluate", "{a}", "{x}"],
    "compare": ["compare", "{a}", "{x}", "{a}", "--shuffles", "200", "--resamples", "100"],
    "leaf-ancestor": ["leaf-ancestor", "{a}", "{x}"],
    "evalb": ["evalb", "{a}", "{x}"],
    "synthetic": ["synthetic", "{x}"],
    "judgments": ["judgments", "{x}"],
    "discourse": ["discourse", "{x}"],
    "report": ["report", "{a}", "{x}", "--html", "{html}"],
    "judge": ["judge", "{a}", "{x}", "--html", "{html}"],
}


def test_every_command_that_reads_files_is_checked_here():
    assert set(FILE_COMMANDS) == set(COMMANDS) - {"demo"}  # demo reads the example files shipped with the package


def _args(name, files, x, tmp_path):
    return [arg.format(a=files[0], x=x, html=tmp_path / "r.html") for arg in FILE_COMMANDS[name]]


@pytest.mark.parametrize("name", sorted(FILE_COMMANDS))
def test_an_empty_file_is_one_line(name, files, tmp_path):
    empty = tmp_path / "empty.conll"
    empty.write_text("", encoding="utf-8")
    one_line_error(runner.invoke(app, _args(name, files, empty, tmp_path)), str(empty), "empty file")


@pytest.mark.parametrize("name", sorted(set(FILE_COMMANDS) - {"judgments"}))  # judgments reads a folder too
def test_a_directory_for_a_file_is_one_line(name, files, tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    one_line_error(runner.invoke(app, _args(name, files, folder, tmp_path)), str(folder))


@pytest.mark.parametrize("name", sorted(FILE_COMMANDS))
def test_an_unreadable_file_is_one_line(name, files, tmp_path):
    """A file without read permission (as root: in a process without root's power to read it)."""
    locked = tmp_path / "locked.conll"
    locked.write_bytes(files[1].read_bytes())
    locked.chmod(0)
    try:
        one_line_error(invoke_bound_by_permissions(app, _args(name, files, locked, tmp_path)), str(locked),
                       "Permission denied")
    finally:
        locked.chmod(0o644)


@pytest.mark.parametrize("name", sorted(FILE_COMMANDS))
def test_a_file_that_cannot_be_opened_is_one_line(name, files, tmp_path, monkeypatch):
    """The same error where opening the file fails in the command (the test above goes through the
    operating system's own refusal)."""
    import builtins
    import io

    locked = tmp_path / "locked.conll"
    locked.write_bytes(files[1].read_bytes())
    real_open = builtins.open

    def refusing(file, *args, **kwargs):
        if os.fspath(file) == str(locked):
            raise PermissionError(13, "Permission denied", str(locked))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", refusing)
    monkeypatch.setattr(io, "open", refusing)
    one_line_error(runner.invoke(app, _args(name, files, locked, tmp_path)), f"{locked}: Permission denied")


# --------------------------------------------------------------------------- the same input twice

@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning", "ignore::UserWarning")
def test_the_same_file_twice_is_an_error_naming_it(files, tmp_path):
    a, b = files
    (tmp_path / "sub").mkdir()
    other_path = tmp_path / "sub" / ".." / a.name
    link = tmp_path / "link.conll"
    link.symlink_to(a)
    for second in (a, other_path, link):
        one_line_error(runner.invoke(app, ["alpha", str(a), str(second)]), str(second), "given twice")
    one_line_error(runner.invoke(app, ["report", str(a), str(a), "--html", str(tmp_path / "r.html")]),
                   str(a), "given twice")
    allowed = runner.invoke(app, ["alpha", str(a), str(a), "--allow-duplicates", "--json"])
    assert allowed.exit_code == 0, allowed.output
    values = json.loads(allowed.stdout)
    assert values["annotators"] == 2 and values["las"] == 1.0  # the file agrees with itself
    report = runner.invoke(app, ["report", str(a), str(other_path), "--allow-duplicates", "--html",
                                 str(tmp_path / "r.html"), "--quiet"])
    assert report.exit_code == 0, report.output


def _annotator_dirs(tmp_path, files):
    dirs = []
    for name, source in zip(("anna", "ben"), files):
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"doc-{name}.conll").write_bytes(source.read_bytes())
        dirs.append(folder)
    return dirs


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_the_same_directory_twice_and_an_empty_one_are_errors(files, tmp_path):
    anna, ben = _annotator_dirs(tmp_path, files)
    assert runner.invoke(app, ["alpha", "--dirs", str(anna), str(ben)]).exit_code == 0
    one_line_error(runner.invoke(app, ["alpha", "--dirs", str(anna), str(anna)]), str(anna), "given twice")
    allowed = runner.invoke(app, ["alpha", "--dirs", str(anna), str(anna), "--allow-duplicates", "--json"])
    assert allowed.exit_code == 0 and json.loads(allowed.stdout)["las"] == 1.0, allowed.output
    cleo = tmp_path / "cleo"
    cleo.mkdir()
    one_line_error(runner.invoke(app, ["alpha", "--dirs", str(anna), str(ben), str(cleo)]), str(cleo),
                   "no annotations")


def test_the_loaders_refuse_duplicates_unless_allowed(files):
    from spacy_agreement.errors import BadOptionError

    a, _ = files
    with pytest.raises(BadOptionError, match="given twice"):
        sa.load_parallel_files([a, a])
    corpus = sa.load_parallel_files([a, a], allow_duplicates=True)
    assert len(corpus.annotators) == 2 and len(set(corpus.annotators)) == 2


# --------------------------------------------------------------------------- leaf-ancestor: summary by default

def _leaf_ancestor_files(tmp_path, sentences=12):
    gold, cand = tmp_path / "gold.mrg", tmp_path / "cand.mrg"
    right = "(S (NP (DT the) (NN w{k})) (VP (VBZ barks)))"
    wrong = "(S (NP (DT the) (NN w{k}) (VP (VBZ barks))))"
    gold.write_text("".join(right.format(k=k) + "\n" for k in range(sentences)), encoding="utf-8")
    cand.write_text("".join((wrong if k % 4 == 1 else right).format(k=k) + "\n" for k in range(sentences)),
                    encoding="utf-8")
    return gold, cand


def test_leaf_ancestor_prints_the_summary_and_the_worst_sentences(tmp_path):
    gold, cand = _leaf_ancestor_files(tmp_path)
    text = runner.invoke(app, ["leaf-ancestor", str(gold), str(cand), "--worst", "2"]).stdout
    assert text.splitlines()[0] == f"gold: {gold}  candidate: {cand}"
    assert "score %  word" in text and "gold lineage : candidate lineage" in text
    assert len(re.findall(r"^leaf-ancestor ", text, re.M)) == 2  # two sentences word by word, the worst ones
    assert " w1 " in text and " w5 " in text and " w0 " not in text
    assert "corpus: leaf-ancestor" in text and "12 sentences and 36 words scored" in text and "GEIG unlabelled F" in text
    every = runner.invoke(app, ["leaf-ancestor", str(gold), str(cand), "--words"]).stdout
    assert len(re.findall(r"^leaf-ancestor ", every, re.M)) == 12 and " w0 " in every
    assert len(every.splitlines()) > len(text.splitlines())
    values = json.loads(runner.invoke(app, ["leaf-ancestor", str(gold), str(cand), "--json"]).stdout)
    assert len(values["sentences"]) == 12 and sum(len(s["words"]) for s in values["sentences"]) == 36
    assert values["gold"] == str(gold) and values["candidate"] == str(cand)
    assert values["sentences_scored"] == 12 and values["words_scored"] == 36


# --------------------------------------------------------------------------- --json, --tsv and --output everywhere

def _number(text, pattern):
    found = re.search(pattern, text, re.M)
    assert found, f"{pattern!r} not in:\n{text}"
    return [float(v) for v in found.groups()]


def _same_figures(command, text, data):
    """The main figures of the text output equal those of the JSON as every text output prints
    a score: the fraction × 100, rounded to two decimals (counts as integers)."""
    def check(pattern, *values, scale=100, digits=2):
        shown = _number(text, pattern)
        assert shown == [round(v * scale, digits) for v in values], (command, pattern, shown, values)

    if command == "alpha":
        check(r"^\s+alpha plain\s+(-?[\d.]+)$", data["alpha_plain"])
        check(r"^\s+LAS\s+(-?[\d.]+)$", data["las"])
    elif command == "layers":
        check(r"^\s+deprel\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)", data["layers"]["deprel"]["alpha"],
              data["layers"]["deprel"]["observed"], data["layers"]["deprel"]["cohen_kappa"],
              data["layers"]["deprel"]["fleiss_kappa"])
    elif command == "evaluate":
        check(r"^\s+LAS\s+([\d.]+)$", data["las"])
        check(r"^\s+UAS\s+([\d.]+)$", data["uas"])
    elif command == "compare":
        check(r"^\s+LAS\s+\+([\d.]+)  \[", data["pairs"][0]["metrics"]["las"]["difference"])
        check(r"(\d+) sentences compared", data["units"], scale=1, digits=0)
    elif command == "judgments":
        check(r"raw agreement ([\d.]+)%", data["judge_agreement"])
        check(r"Cohen's kappa (-?[\d.]+)%", data["kappa"])
    elif command == "synthetic":
        first = data["points"][0]
        check(r"^\S+\s+\S+\s+[\d.]+\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)$",
              first["alpha_plain"], first["alpha_diff"], first["alpha_norm"], first["accuracy"])
    elif command == "leaf-ancestor":
        check(r"^corpus: leaf-ancestor ([\d.]+)% \(mean over sentences\), ([\d.]+)% \(mean over words\)",
              data["leaf_ancestor"], data["leaf_ancestor_words"])
        check(r"^GEIG unlabelled F ([\d.]+)%, labelled F ([\d.]+)%", data["geig_unlabelled"], data["geig_labelled"])
        check(r"(\d+) sentences and (\d+) words scored", data["sentences_scored"], data["words_scored"], scale=1,
              digits=0)
    elif command == "evalb":  # EVALB's own bytes print percentages; --json holds fractions, as every command's
        check(r"^Bracketing Recall\s+=\s+([\d.]+)", data["all"]["recall"])
        check(r"^Bracketing FMeasure\s+=\s+([\d.]+)", data["all"]["fmeasure"])
    elif command == "discourse":
        check(r"^F1 on relations\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", data["strict"]["f1_relations"],
              data["skip"]["f1_relations"], data["connective"]["f1_relations"])
        check(r"^Cohen's kappa on types\s+\S+\s+([\d.]+)\s+([\d.]+)", data["skip"]["kappa_types"],
              data["connective"]["kappa_types"])
    elif command == "demo":
        check(r"^\s+alpha plain\s+(-?[\d.]+)$", data["dependency"]["alpha_plain"])
        check(r"^\s+Jaccard\s+(-?[\d.]+)$", data["phrase"]["jaccard"])
    elif command == "report":  # alpha's table beside the page
        check(r"^\s+alpha plain\s+(-?[\d.]+)$", data["alpha_plain"])
    elif command == "judge":  # counts of what the page holds
        check(r": (\d+) items? to judge", data["items"], scale=1, digits=0)
        check(r"^\s+(\d+) sentences in both systems", data["sentences"], scale=1, digits=0)
    else:
        pytest.fail(f"no figures checked for {command}")


def _json(command, stdout):
    if command == "demo":  # one object per corpus, one a line
        dependency, phrase = map(json.loads, stdout.splitlines())
        return {"dependency": dependency, "phrase": phrase}
    return json.loads(stdout, parse_constant=lambda name: pytest.fail(f"{name} in the JSON"))


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning", "ignore::RuntimeWarning")
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_json_tsv_output_and_text_agree(command, tmp_path, files):
    args = command_args(command, tmp_path, files)
    data = _json(command, runner.invoke(app, [command, *args, "--json"]).stdout)
    tsv = runner.invoke(app, [command, *args, "--tsv"])
    assert tsv.exit_code == 0, tsv.output
    rows = [line.split("\t") for line in tsv.stdout.splitlines() if line]
    if command == "synthetic":  # the points as a table: a header and one row per point
        assert len({len(row) for row in rows}) == 1 and len(rows) == len(data["points"]) + 1
        assert float(rows[1][rows[0].index("alpha_plain")]) == data["points"][0]["alpha_plain"]
    else:  # key and value, the JSON's (nested keys as a.b, lists left out, undefined empty)
        assert all(len(row) == 2 for row in rows), tsv.stdout
        expected = {k: "" if v is None else str(v) for k, v in json_safe(flat(data)).items()}
        assert dict(rows) == expected
    target = tmp_path / "out.txt"
    for flags in ([], ["--json"], ["--tsv"]):
        written = runner.invoke(app, [command, *args, *flags, "--output", str(target)])
        assert written.exit_code == 0 and written.stdout == "", (flags, written.output)
        assert target.read_bytes().strip(), flags
        target.unlink()
    _same_figures(command, runner.invoke(app, [command, *args]).stdout, data)
    if command == "report":  # and the page's α is the JSON's
        html = (tmp_path / "r.html").read_text(encoding="utf-8")
        assert _number(html, r"α plain</td><td[^>]*>(-?[\d.]+)") == [round(100 * data["alpha_plain"], 2)]
