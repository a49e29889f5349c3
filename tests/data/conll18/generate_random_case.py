"""Writes random.gold.conllu and random.sys.conllu: a seeded random gold treebank and a
perturbed "system" output of the same tokens (the fixture pair behind random.conll18.txt).

Every sentence of both files is a tree with one root and no head cycle (what
conll18_ud_eval.py reads). The system changes heads (keeping a tree), relations (subtypes,
other UD relations, labels outside UD, ``ROOT``/``Root`` on the root), UPOS, FEATS (order,
values, non-universal items) and lemmas (case, ``_``), so that UAS, LAS, CLAS, MLAS and BLEX
all differ. Run from this folder: ``python generate_random_case.py`` (deterministic).
"""
import random

SEED = 20180412
SENTENCES = 60

FORMS = ["the", "dog", "Cats", "ran", "to", "a", "house", "in", "Prague", "and", "quickly", "is",
         "big", "they", "saw", "it", ".", ",", "!", "of", "was", "eaten", "by", "her", "new", "car"]
UPOS = ["NOUN", "VERB", "DET", "ADP", "AUX", "PUNCT", "ADJ", "ADV", "PRON", "PROPN", "CCONJ", "SCONJ"]
RELATIONS = ["nsubj", "nsubj:pass", "obj", "iobj", "obl", "obl:tmod", "nmod", "nmod:poss", "nmod:tmod",
             "amod", "advmod", "conj", "compound", "flat", "xcomp", "acl:relcl", "appos", "dep",
             "det", "det:predet", "case", "aux", "aux:pass", "cop", "mark", "cc", "cc:preconj", "clf",
             "punct", "dobj", "prep", "pobj"]
FEATURES = ["Number=Sing", "Number=Plur", "Case=Nom", "Case=Acc", "Definite=Def", "Definite=Ind",
            "PronType=Art", "PronType=Prs", "Tense=Past", "VerbForm=Fin", "Mood=Ind", "Person=3",
            "Gender=Masc", "Degree=Pos", "Voice=Pass", "Polarity=Neg",
            "Number[psor]=Sing", "Foo=Bar", "Typo=Yes", "NameType=Geo"]


def random_tree(rng, n):
    """Heads 1..n (0 = root) of a random tree with one root: tokens attached in a random order."""
    order = list(range(1, n + 1))
    rng.shuffle(order)
    heads = [0] * n
    attached = [order[0]]
    for token in order[1:]:
        heads[token - 1] = rng.choice(attached)
        attached.append(token)
    return heads


def descendants(heads, token):
    out, changed = {token}, True
    while changed:
        changed = False
        for k, h in enumerate(heads, start=1):
            if h in out and k not in out:
                out.add(k)
                changed = True
    return out


def perturb_heads(rng, heads):
    heads = list(heads)
    n = len(heads)
    if n > 1 and rng.random() < 0.15:  # another root: the old root attaches below the new one
        old = heads.index(0) + 1
        new = rng.choice([k for k in range(1, n + 1) if k != old])
        heads[new - 1] = 0
        heads[old - 1] = new
    for token in range(1, n + 1):
        if heads[token - 1] == 0 or rng.random() > 0.2:
            continue
        allowed = [h for h in range(1, n + 1) if h not in descendants(heads, token)]
        heads[token - 1] = rng.choice(allowed)
    return heads


def feats(rng):
    items = rng.sample(FEATURES, rng.randint(0, 3))
    return "|".join(items) if items else "_"


def perturb_feats(rng, value):
    items = [] if value == "_" else value.split("|")
    roll = rng.random()
    if roll < 0.15:
        items = rng.sample(FEATURES, rng.randint(0, 3))
    elif roll < 0.35:
        rng.shuffle(items)  # order only: the same features
    elif roll < 0.45:
        items.append(rng.choice(["Foo=Bar", "Typo=Yes", "Number[psor]=Plur"]))  # not universal
    return "|".join(items) if items else "_"


def lemma_of(rng, form):
    roll = rng.random()
    if roll < 0.1:
        return "_"
    return form.lower()


def perturb_lemma(rng, lemma, form):
    roll = rng.random()
    if roll < 0.1:
        return form.upper()
    if roll < 0.15:
        return "_"
    if roll < 0.2:
        return lemma + "s"
    return lemma


def sentence(rng, index, n):
    forms = [rng.choice(FORMS) for _ in range(n)]
    heads = random_tree(rng, n)
    gold = []
    for k in range(n):
        rel = "root" if heads[k] == 0 else rng.choice(RELATIONS)
        gold.append([str(k + 1), forms[k], lemma_of(rng, forms[k]), rng.choice(UPOS), "_", feats(rng),
                     str(heads[k]), rel, "_", "_"])
    sys_heads = perturb_heads(rng, heads)
    system = []
    for k, row in enumerate(gold):
        rel = row[7]
        if sys_heads[k] == 0:
            rel = rng.choice(["root", "root", "root", "ROOT", "Root"])
        elif rel == "root" or rng.random() < 0.25:
            rel = rng.choice(RELATIONS)
        upos = row[3] if rng.random() > 0.1 else rng.choice(UPOS)
        system.append([row[0], row[1], perturb_lemma(rng, row[2], row[1]), upos, "_", perturb_feats(rng, row[5]),
                       str(sys_heads[k]), rel, "_", "_"])
    header = f"# sent_id = random-{index}\n"
    return (header + "".join("\t".join(r) + "\n" for r in gold) + "\n",
            header + "".join("\t".join(r) + "\n" for r in system) + "\n")


def main():
    rng = random.Random(SEED)
    pairs = [sentence(rng, i, rng.randint(1, 14)) for i in range(1, SENTENCES + 1)]
    with open("random.gold.conllu", "w", encoding="utf-8") as handle:
        handle.write("".join(g for g, _ in pairs))
    with open("random.sys.conllu", "w", encoding="utf-8") as handle:
        handle.write("".join(s for _, s in pairs))


if __name__ == "__main__":
    main()
