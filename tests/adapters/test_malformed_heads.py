"""One policy for malformed heads in every reader and command: a token that is its own head
and a sentence in which no token attaches to the root are head cycles. By default the tokens
drop out of the TED tree and are counted; accuracies score them as they are; ``--strict``
makes them errors naming file, sentence and token. Heads out of range stay errors."""
import json

import pytest
from nltk.parse import DependencyGraph
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.evaluation.dependency.metrics import evaluate

runner = CliRunner()


def row(i, form, head, rel):
    return f"{i}\t{form}\t_\tX\t_\t_\t{head}\t{rel}\t_\t_\n"


GOOD = row(1, "A", 2, "subj") + row(2, "B", 0, "root") + row(3, "C", 2, "obj") + "\n"
# token 3 is its own head; token 1 hangs below it, so both drop out of the TED tree
SELF = row(1, "A", 3, "subj") + row(2, "B", 0, "root") + row(3, "C", 3, "obj") + "\n"
# no token attaches to the root: the whole sentence is a cycle
ROOTLESS = row(1, "A", 2, "subj") + row(2, "B", 3, "root") + row(3, "C", 2, "obj") + "\n"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_readers_accept_self_heads_and_rootless_sentences(tmp_path):
    path = write(tmp_path, "a.conll", GOOD + SELF + ROOTLESS)
    good, self_headed, rootless = sa.read_conll(path)
    assert self_headed.heads.tolist() == [3, 0, 3]
    assert self_headed.unreachable_tokens().tolist() == [1, 3]
    assert rootless.unreachable_tokens().tolist() == [1, 2, 3]
    assert good.unreachable_tokens().size == 0


@pytest.mark.parametrize("text, token, what", [
    (SELF, "3", "token is its own head"),
    (ROOTLESS, "1", "no token attaches to the root"),
    (row(1, "A", 2, "subj") + row(2, "B", 1, "x") + row(3, "C", 0, "root") + "\n", "1", "head cycle"),
])
def test_strict_reading_names_file_sentence_token(tmp_path, text, token, what):
    path = write(tmp_path, "a.conll", GOOD + text)
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.read_conll(path, cycles="raise")
    line = 4 + int(token)  # GOOD takes lines 1-4: token k of sentence 2 is on line 4 + k
    assert str(err.value).startswith(f"{path}:{line}: sentence 2, token {token}: "), str(err.value)
    assert what in str(err.value)


def test_head_out_of_range_stays_an_error(tmp_path):
    path = write(tmp_path, "a.conll", GOOD + row(1, "A", 9, "subj") + row(2, "B", 0, "root") + "\n")
    with pytest.raises(sa.InvalidTreeError) as err:
        sa.read_conll(path)
    assert str(err.value).startswith(f"{path}:5: sentence 2, token 1: ") and "out of range" in str(err.value)


def test_cycle_tokens_drop_out_of_the_ted_tree_and_are_counted(tmp_path):
    a = sa.DependencyTree.create([3, 0, 3], ["subj", "root", "obj"])
    only_root = sa.DependencyTree.create([0], ["root"])
    good = sa.DependencyTree.create([2, 0, 2], ["subj", "root", "obj"])
    # the self-headed token and its dependent are not in the tree: what is left is root -> B
    assert sa.tree_edit_distance(a, only_root) == 0
    assert sa.tree_edit_distance(a, good) == 2
    rootless = sa.DependencyTree.create([2, 3, 2], ["subj", "root", "obj"])
    assert sa.tree_edit_distance(rootless, good) == 3  # only the artificial root is left
    # |x| stays the tokens plus the root (the paper's len(tokens)): δdiff = TED − 0
    assert sa.delta(rootless, good, "diff") == 3
    result = sa.alpha([[a, good], [good, good], [rootless, good]])
    assert result.cycle_tokens == 2 + 3
    assert len(result.cycle_trees) == 2


def test_accuracies_score_a_self_head_as_a_wrong_attachment():
    gold = sa.DependencyTree.create([2, 0, 2], ["subj", "root", "obj"], forms=["A", "B", "C"])
    pred = sa.DependencyTree.create([2, 0, 3], ["subj", "root", "obj"], forms=["A", "B", "C"])
    result = evaluate([gold], [pred], metrics=("uas", "las", "la"))
    assert result.scores["uas"] == pytest.approx(2 / 3)
    assert result.scores["las"] == pytest.approx(2 / 3)
    assert result.scores["la"] == 1.0
    corpus = sa.Corpus.from_items([[gold, pred]])
    assert sa.pairwise_accuracy(corpus).uas == pytest.approx(2 / 3)


def test_cli_alpha_counts_by_default_and_strict_fails_with_one_line(tmp_path):
    a = write(tmp_path, "a.conll", GOOD + GOOD + GOOD)
    b = write(tmp_path, "b.conll", GOOD + SELF + ROOTLESS)
    result = runner.invoke(app, ["alpha", str(a), str(b), "--json"])
    assert result.exit_code == 0, result.output
    values = json.loads(result.stdout)
    assert values["cycle_tokens"] == 2 + 3
    assert values["uas"] == pytest.approx(6 / 9)  # tokens 1 and 3 of SELF, token 2 of ROOTLESS are wrong
    strict = runner.invoke(app, ["alpha", str(a), str(b), "--strict"])
    assert strict.exit_code == 1
    assert strict.stderr.strip() == f"{b}:7: sentence 2, token 3: token is its own head"


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")  # no UPOS: UCP etc. undefined
@pytest.mark.parametrize("command", [
    ["evaluate", "--convention", "package"], ["leaf-ancestor"], ["report", "--html", "REPORT"],
])  # evaluate's default, conll18, refuses what conll18_ud_eval.py refuses (tests/evaluation/test_conll18_edges.py)
def test_every_command_reads_malformed_heads_and_strict_refuses_them(tmp_path, command):
    a = write(tmp_path, "gold.conll", GOOD + GOOD + GOOD)
    b = write(tmp_path, "pred.conll", GOOD + SELF + ROOTLESS)
    args = [str(tmp_path / "r.html") if x == "REPORT" else x for x in command]
    result = runner.invoke(app, [args[0], str(a), str(b), *args[1:]])
    assert result.exit_code == 0, result.output
    strict = runner.invoke(app, [args[0], str(a), str(b), *args[1:], "--strict"])
    assert strict.exit_code == 1
    assert strict.stderr.strip() == f"{b}:7: sentence 2, token 3: token is its own head"


def test_report_draws_a_one_token_self_headed_sentence(tmp_path):
    from spacy_agreement.report.html import html_report

    one = sa.DependencyTree.create([1], ["root"], forms=["Hi"])
    other = sa.DependencyTree.create([0], ["root"], forms=["Hi"])
    page = html_report(sa.Corpus.from_items([[one, other], [other, other]]))
    # drawn, not a crash: the self-head as a dashed loop of its own class, beside the other's root
    assert 'class="arc self differs"' in page and 'class="arc root differs"' in page


@pytest.mark.filterwarnings("ignore:The graph doesn't contain a node that depends on the root")
def test_nltk_dependency_graph_with_a_self_head():
    graph = DependencyGraph("A\tX\t2\tsubj\nB\tX\t2\troot\n", top_relation_label="root")
    tree = sa.from_dependency_graph(graph)
    assert tree.heads.tolist() == [2, 2]
    assert tree.unreachable_tokens().tolist() == [1, 2]
