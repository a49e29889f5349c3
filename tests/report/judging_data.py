"""Two small systems and a gold for the judging page's tests (not a test module).

Six sentences with sent_ids: in five the systems' analyses differ (a head or a relation of a
word that is not punctuation), in one (``same``) only the attachment of the full stop differs,
so the paper's rule leaves it out; one sentence has a hostile word form."""
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

HOSTILE = "<script>alert(1)</script>"

# sent_id: (words, upos, gold (heads, relations), A, B)
SENTENCES: Dict[str, Tuple[Sequence[str], Sequence[str], Tuple, Tuple, Tuple]] = {
    "s1": (["The", "dog", "barks", "."], ["DET", "NOUN", "VERB", "PUNCT"],
           ([2, 3, 0, 3], ["det", "nsubj", "root", "punct"]),
           ([2, 3, 0, 3], ["det", "nsubj", "root", "punct"]),
           ([2, 3, 0, 3], ["det", "obj", "root", "punct"])),
    "s2": (["I", "saw", "her", "duck", "."], ["PRON", "VERB", "PRON", "NOUN", "PUNCT"],
           ([2, 0, 4, 2, 2], ["nsubj", "root", "nmod:poss", "obj", "punct"]),
           ([2, 0, 4, 2, 2], ["nsubj", "root", "nmod:poss", "obj", "punct"]),
           ([2, 0, 2, 2, 2], ["nsubj", "root", "obj", "xcomp", "punct"])),
    "same": (["It", "rains", "."], ["PRON", "VERB", "PUNCT"],
             ([2, 0, 2], ["expl", "root", "punct"]),
             ([2, 0, 2], ["expl", "root", "punct"]),
             ([2, 0, 1], ["expl", "root", "punct"])),
    "s3": ([HOSTILE, "is", "here", "."], ["X", "AUX", "ADV", "PUNCT"],
           ([3, 3, 0, 3], ["nsubj", "cop", "root", "punct"]),
           ([3, 3, 0, 3], ["nsubj", "cop", "root", "punct"]),
           ([2, 0, 2, 2], ["nsubj", "root", "advmod", "punct"])),
    "s4": (["Colorless", "green", "ideas", "sleep", "furiously", "."], ["ADJ", "ADJ", "NOUN", "VERB", "ADV", "PUNCT"],
           ([3, 3, 4, 0, 4, 4], ["amod", "amod", "nsubj", "root", "advmod", "punct"]),
           ([3, 3, 4, 0, 4, 4], ["amod", "amod", "nsubj", "root", "advmod", "punct"]),
           ([2, 3, 4, 0, 3, 4], ["amod", "amod", "nsubj", "root", "advmod", "punct"])),
    "s5": (["Time", "flies", "."], ["NOUN", "VERB", "PUNCT"],
           ([2, 0, 2], ["nsubj", "root", "punct"]),
           ([2, 0, 2], ["nsubj", "root", "punct"]),
           ([0, 1, 1], ["root", "nmod", "punct"])),
}
#: The items of the paper's rule, in file order.
DIFFERING = ["s1", "s2", "s3", "s4", "s5"]


def conllu(which: int) -> str:
    """The CoNLL-U text of the gold (0), system A (1) or system B (2)."""
    blocks: List[str] = []
    for sent_id, (words, upos, *analyses) in SENTENCES.items():
        heads, relations = analyses[which]
        lines = [f"# sent_id = {sent_id}", f"# text = {' '.join(words)}"]
        lines += [f"{k}\t{w}\t_\t{u}\t_\t_\t{h}\t{r}\t_\t_"
                  for k, (w, u, h, r) in enumerate(zip(words, upos, heads, relations), start=1)]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks) + "\n"


def write_systems(folder: Path) -> Tuple[Path, Path, Path]:
    """``gold.conllu``, ``malt.conllu`` (A) and ``mst.conllu`` (B) in ``folder``."""
    paths = []
    for which, name in enumerate(("gold.conllu", "malt.conllu", "mst.conllu")):
        path = folder / name
        path.write_text(conllu(which), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1], paths[2]
