"""Items by identity, not position (adapters/matching.py): sent_ids, then position for
parallel files, then text; reordered files give exactly the α of ordered ones, a sentence
some annotator lacks is a missing annotation listed by id, duplicate ids are errors."""
import json
import random

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.cli import app
from spacy_agreement.errors import MismatchedCorpusError

runner = CliRunner()


def sentence(rng, k, n):
    heads = [0] + [rng.randint(1, j) for j in range(1, n)]
    return [(f"w{k}_{j}", h, rng.choice(["nsubj", "obj", "det"]) if h else "root") for j, h in enumerate(heads)]


def block(rows, sent_id=None):
    head = f"# sent_id = {sent_id}\n" if sent_id else ""
    return head + "".join(f"{j}\t{form}\t_\tX\t_\t_\t{h}\t{rel}\t_\t_\n" for j, (form, h, rel) in enumerate(rows, 1)) + "\n"


def annotators(seed=0, items=40):
    rng = random.Random(seed)
    gold = [sentence(rng, k, rng.randint(2, 9)) for k in range(items)]
    other = [[(f, h if rng.random() < 0.8 else rng.randint(0, len(s)), r) for f, h, r in s] for s in gold]
    other = [[(f, 0 if h == j + 1 else h, r) for j, (f, h, r) in enumerate(s)] for s in other]  # no self-heads
    return gold, other


def write(path, sentences, ids=True, order=None):
    order = list(range(len(sentences))) if order is None else order
    path.write_text("".join(block(sentences[k], f"s{k}" if ids else None) for k in order), encoding="utf-8")
    return str(path)


def alpha_json(*files):
    result = runner.invoke(app, ["alpha", *files, "--json", "--alpha", "exact"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("ids", [True, False])
def test_reordered_files_give_exactly_the_alpha_of_ordered_ones(tmp_path, ids):
    gold, other = annotators()
    a = write(tmp_path / "a.conllu", gold, ids)
    ordered = alpha_json(a, write(tmp_path / "b.conllu", other, ids))
    shuffled = list(range(len(other)))
    random.Random(1).shuffle(shuffled)
    moved = alpha_json(a, write(tmp_path / "b2.conllu", other, ids, shuffled))
    assert moved["items_matched_by"] == ("sent_id" if ids else "text")
    assert ordered["items_matched_by"] == ("sent_id" if ids else "position")
    for key in ("alpha_plain", "alpha_diff", "alpha_norm", "las", "uas", "la", "items", "annotations"):
        assert moved[key] == ordered[key], key


def test_a_sentence_one_annotator_lacks_is_a_missing_annotation_listed_by_id(tmp_path):
    gold, other = annotators(seed=2)
    a = write(tmp_path / "a.conllu", gold)
    keep = [k for k in range(len(other)) if k != 7]
    fewer = write(tmp_path / "b.conllu", other, order=keep[::-1])
    values = alpha_json(a, fewer)
    assert values["items_missing"] == ["s7: lacks b"] and values["items_unpairable"] == 1
    # the same α as the corpus built by hand with that annotation missing
    items = [[sa.DependencyTree.create([h for _, h, _ in g], [r for _, _, r in g], [f for f, _, _ in g]),
              None if k == 7 else sa.DependencyTree.create([h for _, h, _ in o], [r for _, _, r in o],
                                                          [f for f, _, _ in o])]
             for k, (g, o) in enumerate(zip(gold, other))]
    expected = sa.alpha(items, method="exact")
    assert values["alpha_plain"] == pytest.approx(expected.alpha_plain, rel=1e-12)
    text = runner.invoke(app, ["alpha", a, fewer]).stdout
    assert "items matched by sent_id" in text and "missing: s7: lacks b" in text


def test_items_come_in_the_natural_order_of_their_sent_ids(tmp_path):
    """Module docstring of adapters/matching.py: the items are the ids in their natural order,
    digits compared as numbers (``s2`` before ``s10``), whatever the files' order: file a holds
    s10 before s2, a string sort would put s10 first too, file b lacks both."""
    gold, other = annotators(seed=3, items=12)
    a = write(tmp_path / "a.conllu", gold, order=[10, 2, *[k for k in range(12) if k not in (2, 10)]][::-1])
    b = write(tmp_path / "b.conllu", other, order=[k for k in range(12) if k not in (2, 10)])
    assert alpha_json(a, b)["items_missing"] == ["s2: lacks b", "s10: lacks b"]
    from spacy_agreement.adapters.matching import _natural

    ids = ["s10", "s2", "s1", "a", "s2b", "s2a", "s100", "d9-s3", "d10-s1"]
    assert sorted(ids, key=_natural) == ["a", "d9-s3", "d10-s1", "s1", "s2", "s2a", "s2b", "s10", "s100"]


def test_the_natural_order_compares_each_run_of_digits_as_a_number():
    """The order of ids against a slow rule written here: each run of digits a number, each other
    run text, a number before text at the same place, run by run, then the shorter first."""
    from functools import cmp_to_key

    from spacy_agreement.adapters.matching import _natural

    def runs(key):
        out, k = [], 0
        while k < len(key):
            j = k
            digits = key[k].isdecimal()
            while j < len(key) and key[j].isdecimal() == digits:
                j += 1
            out.append((0, int(key[k:j]), "") if digits else (1, 0, key[k:j]))
            k = j
        return out

    def compare(x, y):
        a, b = runs(x), runs(y)
        return (a > b) - (a < b)

    rnd = random.Random(5)
    for _ in range(500):
        ids = ["".join(rnd.choice("ab-_.0129\u0663") for _ in range(rnd.randint(0, 7))) for _ in range(20)]
        assert sorted(ids, key=_natural) == sorted(ids, key=cmp_to_key(compare))


def test_duplicate_ids_and_unpairable_files_are_one_line_errors(tmp_path):
    gold, other = annotators(seed=3, items=5)
    a = write(tmp_path / "a.conllu", gold)
    twice = tmp_path / "twice.conllu"
    twice.write_text(block(other[0], "s0") + block(other[1], "s0"), encoding="utf-8")
    result = runner.invoke(app, ["alpha", a, str(twice)])
    assert result.exit_code == 1 and "sent_id s0 is in the file twice" in result.output and ":1:" in result.output
    same = [gold[0], gold[0], gold[1]]  # repeated texts, one missing, no ids: nothing to pair them by
    b = write(tmp_path / "b.conllu", same, ids=False)
    c = write(tmp_path / "c.conllu", same, ids=False, order=[2, 0])
    with pytest.raises(MismatchedCorpusError, match="add # sent_id"):
        sa.load_parallel_files([b, c])


def test_cdt_with_ids_shuffled_gives_table2(iaa, tmp_path):
    """The shared CDT agreement data, sent_ids added and the second file shuffled: Table 2's α."""
    files = []
    for k, name in enumerate(("da-lotte", "da-morten")):
        blocks = (iaa / "cdt" / f"{name}.conll").read_text(encoding="utf-8").strip().split("\n\n")
        order = list(range(len(blocks)))
        if k:
            random.Random(5).shuffle(order)
        path = tmp_path / f"{name}.conllu"
        path.write_text("".join(f"# sent_id = cdt{j}\n{blocks[j]}\n\n" for j in order), encoding="utf-8")
        files.append(str(path))
    values = alpha_json(*files)
    assert values["items_matched_by"] == "sent_id"
    assert [round(100 * values[f"alpha_{d}"], 1) for d in ("plain", "diff", "norm")] == [95.7, 84.7, 96.2]
    assert round(100 * values["las"], 1) == 90.4


def test_one_multi_user_file_gives_the_alpha_of_one_file_per_annotator(tmp_path):
    """Arborator-Grew's multi-user layout: every annotator's tree of a sentence in one file,
    marked '# user_id = NAME', in any order: the same α as one file per annotator."""
    gold, other = annotators(seed=4)
    a, b = write(tmp_path / "a.conllu", gold), write(tmp_path / "b.conllu", other)
    separate = alpha_json(a, b)
    blocks = [block(s, f"s{k}").replace("\n", "\n# user_id = anna\n", 1) for k, s in enumerate(gold)]
    blocks += [block(s, f"s{k}").replace("\n", "\n# user_id = ben\n", 1) for k, s in enumerate(other)]
    random.Random(2).shuffle(blocks)
    multi = tmp_path / "multi.conllu"
    multi.write_text("".join(blocks), encoding="utf-8")
    values = alpha_json(str(multi))
    assert values["annotators"] == 2 and values["items_matched_by"] == "sent_id"
    for key in ("alpha_plain", "alpha_diff", "alpha_norm", "las", "items", "annotations"):
        assert values[key] == separate[key], key
    renamed = tmp_path / "renamed.conllu"
    renamed.write_text(multi.read_text(encoding="utf-8").replace("# user_id", "# annotator"), encoding="utf-8")
    assert alpha_json(str(renamed), "--user-key", "annotator")["alpha_plain"] == separate["alpha_plain"]
    unmarked = tmp_path / "unmarked.conllu"
    unmarked.write_text(block(gold[0], "s0").replace("\n", "\n# user_id = anna\n", 1) + block(other[0], "s0"),
                        encoding="utf-8")
    result = runner.invoke(app, ["alpha", str(unmarked)])
    assert result.exit_code == 1 and "no '# user_id = ...' comment" in result.output


def test_another_sentence_under_position_matching_is_a_one_line_error(tmp_path):
    """Parallel files without sent_ids are paired by position only while each position holds one
    text: another sentence at a position is an error naming it, never a silent α; another
    tokenisation of the same text is read (and counted by the accuracies)."""
    gold, other = annotators(seed=7, items=6)
    a = write(tmp_path / "a.conllu", gold, ids=False)
    changed = [list(s) for s in other]
    changed[3] = [(f"something_else_{j}",) + tuple(row[1:]) for j, row in enumerate(changed[3])]
    b = write(tmp_path / "b.conllu", changed, ids=False)
    result = runner.invoke(app, ["alpha", a, b])
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "sentence 4, paired by position, is another sentence" in lines[0]
    assert "something_else_0" in lines[0] and "w3_0" in lines[0] and "add # sent_id" in lines[0]
    split = [list(s) for s in other]
    form, head, rel = split[2][0]
    split[2][0:1] = [(form[:2], head, rel), (form[2:], 1, "dep")]  # re-tokenised: the same characters
    c = write(tmp_path / "c.conllu", [[(f, min(h, len(s)), r) for f, h, r in s] for s in split], ids=False)
    values = alpha_json(a, c)
    assert values["items_matched_by"] == "position" and values["items_mismatched"] == 1


def _reference_user_ids(text, key):
    """The blocks as the readers cut them, each comment line parsed: what user_ids did before issue 50
    made it look only at the comments that hold the key."""
    import io

    from conllu.parser import parse_comment_line

    from spacy_agreement.adapters.conllu.trees import _blocks

    out = []
    for block in _blocks(io.StringIO(text)):
        value = None
        for _, line in block:
            if line.startswith("#"):
                for name, found in parse_comment_line(line):
                    if name == key:
                        value = str(found)
        out.append(value)
    return out


def test_user_ids_as_every_comment_parsed():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    import io

    from spacy_agreement.adapters.conllu.trees import _blocks
    from spacy_agreement.adapters.multi_user import user_ids

    pieces = st.sampled_from(["# user_id = ann", "#user_id=bob", "# user_id =", "# user_idx = c", "# x user_id = d",
                              "# user_id = e = f", "# newdoc id = user_id", "#  user_id  =  g ", "# sent_id = 1",
                              "1\tw\t_\t_\t_\t_\t0\troot\t_\t_", "", " ", "\t", "\u3000", "\x1c", "# user_id = h\r",
                              "#", "# user_id", "2\tx\t_\t_\t_\t_\t1\tdep\t_\t_", "# newdoc", "# newdoc id = n",
                              "# x = 1 = 2", "#x=", "# = x", " # user_id = i ", "#\tuser_id\t=\tj",
                              "# user_id = é\u00a0", "# üser_id = k", "3\tuser_id\t_\t_\t_\t_\t1\tdep\t_\t_"])

    @settings(max_examples=300, deadline=None)
    @given(st.lists(pieces, max_size=30), st.sampled_from(["user_id", "user", "id", "newdoc", "x", "", "_"]),
           st.booleans())
    def check(lines, key, final_newline):
        text = "\n".join(lines) + ("\n" if final_newline else "")
        expected = _reference_user_ids(text, key)
        assert user_ids(text, key) == expected
        # the blocks known (the scanner's sentences: their first lines), only the key's lines looked at
        firsts = [block[0][0] for block in _blocks(io.StringIO(text))]
        assert user_ids(text, key, firsts) == expected
        assert user_ids(text, key, firsts, text.encode("utf-8")) == expected

    check()
