"""Seeded random CoNLL-U annotations of the same sentences by several annotators (issue 50's
equivalence tests): every column varied (UPOS, XPOS, FEATS as Name=Value pairs or ``_``,
LEMMA, HEAD, DEPREL, MISC keys), some tokens not annotated (HEAD ``_``), some sentences missing
for an annotator, and optionally FEATS that are no Name=Value pairs."""
from __future__ import annotations

import random
from pathlib import Path
from typing import List, Sequence

UPOS = ("NOUN", "VERB", "ADJ", "DET", "PUNCT", "ADP")
XPOS = ("NN", "VB", "JJ", "DT", ".", "IN", "_")
DEPRELS = ("nsubj", "obj", "amod", "det", "punct", "obl", "nmod:poss", "root")
FEATS = {"Number": ("Sing", "Plur"), "Case": ("Nom", "Acc", "Gen"), "Tense": ("Past", "Pres")}
MISC_KEYS = ("SpaceAfter", "Gloss")


def _heads(rng: random.Random, n: int) -> List[int]:
    order = list(range(1, n + 1))
    rng.shuffle(order)
    heads = [0] * (n + 1)
    for k, word in enumerate(order):
        heads[word] = 0 if k == 0 else order[rng.randrange(k)]
    return heads[1:]


def _feats(rng: random.Random, bare: bool) -> str:
    if bare and rng.random() < 0.2:
        return rng.choice(("sg|nom", "<adj>", "3"))
    names = sorted(rng.sample(sorted(FEATS), rng.randrange(len(FEATS) + 1)))
    return "|".join(f"{n}={rng.choice(FEATS[n])}" for n in names) or "_"


def _misc(rng: random.Random) -> str:
    parts = [f"{k}={rng.choice(('No', 'x', 'y'))}" for k in MISC_KEYS if rng.random() < 0.3]
    return "|".join(parts) or "_"


def _sentence(rng: random.Random, n: int, bare: bool) -> List[List[str]]:
    heads = _heads(rng, n)
    rows = []
    for k in range(n):
        deprel = "root" if heads[k] == 0 else rng.choice(DEPRELS[:-1])
        rows.append([str(k + 1), f"w{rng.randrange(30)}", rng.choice(("a", "b", "_")), rng.choice(UPOS),
                     rng.choice(XPOS), _feats(rng, bare), str(heads[k]), deprel, "_", _misc(rng)])
    return rows


def _vary(rng: random.Random, rows: List[List[str]], rate: float, bare: bool,
          unannotated: bool = True) -> List[List[str]]:
    out = [list(r) for r in rows]
    n = len(out)
    for row in out:
        if rng.random() < rate:
            row[3] = rng.choice(UPOS)
        if rng.random() < rate:
            row[4] = rng.choice(XPOS)
        if rng.random() < rate:
            row[5] = _feats(rng, bare)
        if rng.random() < rate:
            row[2] = rng.choice(("a", "b", "_"))
        if rng.random() < rate and row[6] != "0":
            row[7] = rng.choice(DEPRELS[:-1])
        if rng.random() < rate:
            row[9] = _misc(rng)
    if rng.random() < rate:  # another tree
        heads = _heads(rng, n)
        for row, h in zip(out, heads):
            row[6] = str(h)
            row[7] = "root" if h == 0 else (row[7] if row[7] != "root" else rng.choice(DEPRELS[:-1]))
    if unannotated and rng.random() < rate / 2:  # a token not annotated yet
        k = rng.randrange(n)
        out[k][6] = out[k][7] = "_"
    return out


def random_annotations(folder: Path, seed: int, annotators: int = 2, sentences: int = 30, rate: float = 0.2,
                       missing: float = 0.0, bare: bool = False,
                       unannotated: bool = True) -> List[Path]:
    """``annotators`` CoNLL-U files in ``folder`` (a.conllu, b.conllu ...) of ``sentences``
    sentences matched by sent_id; ``missing``: the chance that an annotator other than the first
    lacks a sentence; ``bare``: some FEATS are no Name=Value pairs; ``unannotated``: some tokens
    not annotated yet (HEAD ``_``)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    texts: List[List[str]] = [[] for _ in range(annotators)]
    for s in range(sentences):
        base = _sentence(rng, rng.randrange(1, 12), bare)
        for a in range(annotators):
            if a and rng.random() < missing:
                continue
            rows = base if a == 0 else _vary(rng, base, rate, bare, unannotated)
            texts[a].append(f"# sent_id = s{s}\n" + "".join("\t".join(r) + "\n" for r in rows) + "\n")
    paths = []
    for a, text in enumerate(texts):
        path = folder / f"{'abcdefgh'[a]}.conllu"
        path.write_text("".join(text), encoding="utf-8")
        paths.append(path)
    return paths


def names(paths: Sequence[Path]) -> List[str]:
    return [str(p) for p in paths]
