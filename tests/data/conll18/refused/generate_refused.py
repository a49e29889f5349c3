"""Writes the fixtures of this folder and, run with the real ``conll18_ud_eval.py``, its verdict
on each: ``expected.json``, and for the files it accepts its output on ``gold.conllu`` against
them (``NAME.conll18.txt`` with ``-v``, ``NAME.conll18.counts.txt`` with ``-c``).

* ``gold.conllu``: three sentences (a plain one, one with a multiword token ``du`` = ``de le``,
  one with an empty node); ``system.conllu``: the same tokens with a wrong head, a wrong relation
  and a wrong UPOS (a file the script reads, the base of every fixture); ``retok.conllu``: the
  gold's text with ``barked`` split in two tokens (other tokens: ``evaluate`` aligns through the
  characters).
* ``NAME.conllu``: ``system.conllu`` with one defect (:data:`FIXTURES`: what it is, and the line
  where it is, which ``expected.json`` keeps as ``line``).

The script is run as the README of the folder above says (Python 3, ``python SCRIPT -v GOLD
SYSTEM``), on five pairs per fixture: ``gold-X`` (``gold.conllu`` against it), ``X-gold``, ``X-X``,
``X-retok`` and ``retok-X``. ``expected.json`` holds for each pair ``refused`` (the script stopped:
exit code not 0) and ``message``, the text of the exception it stopped with (``UDError``'s
message alone; ``ValueError: ...`` and the like as Python prints them), or ``table``, its ``-v``
output (where it accepted the pair).

Run from this folder: ``python generate_refused.py --script /tmp/conll18_ud_eval.py``
(deterministic; the script is not part of the repository).
"""
import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

TAB = "\t"


def row(*cells):
    return TAB.join(str(c) for c in cells)


GOLD = [
    "# sent_id = en-1",
    "# text = The dog barked.",
    row(1, "The", "the", "DET", "DT", "Definite=Def|PronType=Art", 2, "det", "_", "_"),
    row(2, "dog", "dog", "NOUN", "NN", "Number=Sing", 3, "nsubj", "_", "_"),
    row(3, "barked", "bark", "VERB", "VBD", "Mood=Ind|Tense=Past|VerbForm=Fin", 0, "root", "_", "SpaceAfter=No"),
    row(4, ".", ".", "PUNCT", ".", "_", 3, "punct", "_", "_"),
    "",
    "# sent_id = fr-1",
    "# text = Il parle du livre.",
    row(1, "Il", "il", "PRON", "_", "Number=Sing|Person=3", 2, "nsubj", "_", "_"),
    row(2, "parle", "parler", "VERB", "_", "Mood=Ind|Tense=Pres", 0, "root", "_", "_"),
    row("3-4", "du", "_", "_", "_", "_", "_", "_", "_", "_"),
    row(3, "de", "de", "ADP", "_", "_", 5, "case", "_", "_"),
    row(4, "le", "le", "DET", "_", "Definite=Def", 5, "det", "_", "_"),
    row(5, "livre", "livre", "NOUN", "_", "Gender=Masc", 2, "obl", "_", "SpaceAfter=No"),
    row(6, ".", ".", "PUNCT", "_", "_", 2, "punct", "_", "_"),
    "",
    "# sent_id = en-2",
    "# text = Cats sleep and dogs too.",
    row(1, "Cats", "cat", "NOUN", "NNS", "Number=Plur", 2, "nsubj", "_", "_"),
    row(2, "sleep", "sleep", "VERB", "VBP", "Mood=Ind|Tense=Pres", 0, "root", "_", "_"),
    row(3, "and", "and", "CCONJ", "CC", "_", 4, "cc", "_", "_"),
    row(4, "dogs", "dog", "NOUN", "NNS", "Number=Plur", 2, "conj", "_", "_"),
    row("4.1", "sleep", "sleep", "VERB", "VBP", "_", "_", "_", "2:conj", "_"),
    row(5, "too", "too", "ADV", "RB", "_", 4, "advmod", "_", "SpaceAfter=No"),
    row(6, ".", ".", "PUNCT", ".", "_", 2, "punct", "_", "_"),
    "",
]


def edited(lines, changes):
    """``lines`` with cells changed: ``{line number (1-based): {column: value}}``."""
    out = list(lines)
    for number, cells in changes.items():
        columns = out[number - 1].split(TAB)
        for column, value in cells.items():
            columns[column] = str(value)
        out[number - 1] = TAB.join(columns)
    return out


ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(10)

# the system: "." attached to "dog", "livre" an obj, "and" an SCONJ, "too" attached to "sleep"
SYSTEM = edited(GOLD, {6: {HEAD: 2}, 15: {DEPREL: "obj"}, 22: {UPOS: "SCONJ"}, 25: {HEAD: 2}})

# the gold's text, "barked" as two tokens
RETOK = GOLD[:4] + [
    row(3, "bark", "bark", "VERB", "VB", "_", 0, "root", "_", "SpaceAfter=No"),
    row(4, "ed", "ed", "PART", "_", "_", 3, "dep", "_", "SpaceAfter=No"),
    row(5, ".", ".", "PUNCT", ".", "_", 3, "punct", "_", "_"),
] + GOLD[6:]


def text(lines, end="\n"):
    return end.join(lines) + end


def with_lines(changes=None, insert=None, delete=(), replace=None):
    """``SYSTEM`` with cells changed, lines replaced (``{number: line}``), deleted and inserted
    (``{number: [lines]}``: before that line), as text."""
    lines = edited(SYSTEM, changes or {})
    for number, line in (replace or {}).items():
        lines[number - 1] = line
    out = []
    for number, line in enumerate(lines, start=1):
        out.extend((insert or {}).get(number, []))
        if number not in delete:
            out.append(line)
    out.extend((insert or {}).get(len(lines) + 1, []))
    return text(out)


SYSTEM_TEXT = text(SYSTEM)  # its last line the blank line that ends the last sentence
EMPTY_NODE = row("1.1", "x", "_", "_", "_", "_", "_", "_", "_", "_")


def chain(n):
    """``SYSTEM_TEXT`` and a sentence of ``n`` words, each the head of the one before (the last
    the root): the script follows such a chain by recursion, one call per word."""
    words = [row(k, f"w{k}", "_", "X", "_", "_", k + 1 if k < n else 0, "dep" if k < n else "root", "_", "_")
             for k in range(1, n + 1)]
    return SYSTEM_TEXT + text([f"# sent_id = chain-{n}"] + words + [""])

#: name: (what the defect is, the line where it is, the file's bytes)
FIXTURES = {
    # --- refused
    "cycle": ("a head cycle beside the root: Cats -> dogs -> Cats", 20,
              with_lines({20: {HEAD: 4}, 23: {HEAD: 1}})),
    "own_head": ("a word that is its own head", 4, with_lines({4: {HEAD: 2}})),
    "two_roots": ("two words attached to the root", 6, with_lines({6: {HEAD: 0}})),
    "head_underscore": ("HEAD _ (a word not annotated yet, as annotation tools export it)", 15,
                        with_lines({15: {HEAD: "_"}})),
    "head_not_integer": ("HEAD 'two'", 15, with_lines({15: {HEAD: "two"}})),
    "head_negative": ("HEAD -1", 6, with_lines({6: {HEAD: -1}})),
    "head_out_of_range": ("HEAD 9 in a sentence of 4 words", 6, with_lines({6: {HEAD: 9}})),
    "comment_inside": ("a comment line between two words", 5, with_lines(insert={5: ["# a comment"]})),
    "columns_two_spaces": ("a line whose columns are separated by two spaces", 5,
                           with_lines(replace={5: SYSTEM[4].replace(TAB, "  ")})),
    "columns_one_space": ("a line whose columns are separated by one space", 5,
                          with_lines(replace={5: SYSTEM[4].replace(TAB, " ")})),
    "nine_columns": ("a line of nine columns (MISC left out)", 5,
                     with_lines(replace={5: TAB.join(SYSTEM[4].split(TAB)[:9])})),
    "trailing_tab": ("a line ending with a tab (eleven columns)", 5, with_lines(replace={5: SYSTEM[4] + TAB})),
    "whitespace_line": ("a line of spaces where the blank line ends a sentence", 7, with_lines(replace={7: "   "})),
    "two_blank_lines": ("two blank lines between sentences", 8, with_lines(insert={8: [""]})),
    "trailing_blank_line": ("a second blank line at the end of the file", 28, SYSTEM_TEXT + "\n"),
    "leading_blank_line": ("a blank line before the first sentence", 1, "\n" + SYSTEM_TEXT),
    "comments_only": ("a block of comments without words between two sentences", 9,
                      with_lines(insert={8: ["# a stray comment", ""]})),
    "empty_nodes_only": ("a sentence of an empty node only", 9, with_lines(insert={8: [EMPTY_NODE, ""]})),
    "empty_form": ("a FORM that is a no-break space", 5, with_lines({5: {FORM: "\u00a0"}})),
    "word_id_not_integer": ("word id 'three'", 5, with_lines({5: {ID: "three"}})),
    "word_id_skipped": ("word ids 1, 2, 3, 5", 6, with_lines({6: {ID: 5}})),
    "range_id": ("multiword token id '3-x'", 12, with_lines({12: {ID: "3-x"}})),
    "range_words_missing": ("a multiword token 3-4 followed by one word and the blank line", 14,
                            with_lines(delete={14, 15, 16})),
    "range_word_head_underscore": ("HEAD _ on a word of a multiword token", 14, with_lines({14: {HEAD: "_"}})),
    "empty_node_columns": ("an empty node of nine columns", 24,
                           with_lines(replace={24: TAB.join(SYSTEM[23].split(TAB)[:9])})),
    "bom": ("a byte-order mark before the first comment", 1, "\ufeff" + SYSTEM_TEXT),
    "bom_before_word": ("a byte-order mark before the first word (no comment)", 1, "\ufeff" + text(SYSTEM[2:])),
    "not_utf8": ("the byte 0xFF in a FORM", 5, None),  # bytes, below
    "chain_995": ("a sentence of 995 words, each the head of the one before: the script's recursion stops "
                  "(RecursionError, Python 3.11)", 29, chain(995)),
    "no_final_blank_line": ("the last sentence not closed by a blank line", 26, SYSTEM_TEXT[:-1]),
    "other_text": ("'barks' where the gold has 'barked': another text", 5, with_lines({5: {FORM: "barks"}})),
    "forms_underscore": ("every FORM of the first sentence written _", 3,
                         with_lines({k: {FORM: "_"} for k in (3, 4, 5, 6)})),
    # --- accepted
    "comment_after_last": ("a comment after the last sentence", 28, SYSTEM_TEXT + "# the end\n"),
    "comment_after_last_no_newline": ("a comment after the last sentence, no newline after it", 28,
                                      SYSTEM_TEXT + "# the end"),
    "crlf": ("CRLF line ends", 1, text(SYSTEM, "\r\n")),
    "cr": ("CR line ends (read as line ends: the script opens the file with universal newlines)", 1,
           text(SYSTEM, "\r")),
    "trailing_space": ("a line ending with a space (in its MISC)", 5, with_lines(replace={5: SYSTEM[4] + " "})),
    "space_in_form": ("'bar ked' where the gold has 'barked' (spaces are not text)", 5,
                      with_lines({5: {FORM: "bar ked"}})),
    "chain_994": ("a sentence of 994 words, each the head of the one before: the longest chain the script "
                  "follows", 29, chain(994)),
    "range_of_one_word": ("a multiword token of one word (5-5)", 15,
                          with_lines(insert={15: [row("5-5", "livre", *["_"] * 8)]})),
    "range_word_ids": ("the words of a multiword token numbered 7 and 8 (the script takes the lines after the "
                       "range as its words, whatever their ids)", 13, with_lines({13: {ID: 7}, 14: {ID: 8}})),
}

NOT_UTF8 = with_lines({5: {FORM: "bark@ed"}}).encode("utf-8").replace(b"bark@ed", b"bark\xffed")

PAIRS = ("gold-X", "X-gold", "X-X", "X-retok", "retok-X")


def write_fixtures():
    (HERE / "gold.conllu").write_text(text(GOLD), encoding="utf-8", newline="")
    (HERE / "system.conllu").write_text(SYSTEM_TEXT, encoding="utf-8", newline="")
    (HERE / "retok.conllu").write_text(text(RETOK), encoding="utf-8", newline="")
    for name, (_, _, content) in FIXTURES.items():
        path = HERE / f"{name}.conllu"
        if content is None:
            path.write_bytes(NOT_UTF8)
        else:
            path.write_text(content, encoding="utf-8", newline="")


EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception)): ?(.*)$")


def run(script, gold, system, *flags):
    """The script on a pair: (refused, message or stdout)."""
    done = subprocess.run([sys.executable, str(script), *flags, gold, system], cwd=HERE, capture_output=True,
                          text=True, encoding="utf-8", errors="replace")
    if done.returncode == 0:
        return False, done.stdout
    lines = done.stderr.rstrip("\n").split("\n")
    start = max(k for k, line in enumerate(lines) if EXCEPTION.match(line))
    kind, first = EXCEPTION.match(lines[start]).groups()
    message = "\n".join([first] + lines[start + 1:])
    return True, message if kind.endswith("UDError") else f"{kind}: {message}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--script", default="/tmp/conll18_ud_eval.py", help="conll18_ud_eval.py (version 1.2)")
    args = parser.parse_args()
    write_fixtures()
    expected = {}
    for name, (what, line, _) in FIXTURES.items():
        pairs = {}
        for pair in PAIRS:
            gold, system = (f"{name}.conllu" if side == "X" else f"{side}.conllu" for side in pair.split("-"))
            refused, output = run(args.script, gold, system, "-v")
            pairs[pair] = {"refused": True, "message": output} if refused else {"refused": False, "table": output}
        if not pairs["gold-X"]["refused"]:
            (HERE / f"{name}.conll18.txt").write_text(pairs["gold-X"]["table"], encoding="utf-8")
            (HERE / f"{name}.conll18.counts.txt").write_text(run(args.script, "gold.conllu", f"{name}.conllu", "-c")[1],
                                                             encoding="utf-8")
        expected[name] = {"what": what, "line": line, "pairs": pairs}
    for pair in ("gold-system", "gold-retok"):
        refused, output = run(args.script, *(f"{side}.conllu" for side in pair.split("-")), "-v")
        assert not refused, (pair, output)
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
