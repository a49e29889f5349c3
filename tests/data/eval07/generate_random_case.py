"""Writes random.gold.conll and random.sys.conll: a seeded random gold treebank in CoNLL-X
form (10 tab-separated columns, no comment lines, no multiword or empty-node lines: what
eval07.pl reads) and a perturbed "system" output of the same tokens (the fixture pair
behind random.eval07.txt and random.eval07-p.txt).

Every gold sentence is a tree with one root. Forms are drawn from words, punctuation (ASCII
and other Unicode punctuation, several characters) and symbols that are not punctuation
(``$``, ``+``, ``€``, the backquote, mixed forms such as ``$.``), so that ``-p`` leaves out
some tokens and keeps others. The system changes heads (mostly keeping a tree; sometimes a
token is its own head, a second root appears or two tokens form a cycle: eval07.pl scores
whatever is written), relations (another label, another subtype or none, labels in another
case, ``ROOT``/``Root`` on the root) and CPOSTAG (eval07.pl warns and goes on). Run from this
folder: ``python generate_random_case.py`` (deterministic).
"""
import random

SEED = 20070402
SENTENCES = 80

WORDS = ["the", "dog", "Cats", "ran", "to", "a", "house", "in", "Prague", "and", "quickly", "is",
         "big", "they", "saw", "it", "of", "was", "eaten", "by", "her", "new", "car", "-il", "'s",
         "a.", "U.S.", "5", "1,000", "#1"]
PUNCT = [".", ",", "!", "?", ";", ":", "--", "...", "«", "»", "—", "–", "…", "¿", "¡", "''",
         "\"", "(", ")", "-LRB-", "%", "&", "*", "/", "@", "§", "。", "、", "「", "」", ".)", "?!"]
SYMBOLS = ["$", "+", "€", "`", "``", "$.", "<", "=", "^", "|", "~", "©"]
CPOS = ["NOUN", "VERB", "DET", "ADP", "AUX", "PUNCT", "ADJ", "ADV", "PRON", "PROPN", "CCONJ", "SYM",
        "NN", "VB", "P"]
RELATIONS = ["nsubj", "nsubj:pass", "obj", "iobj", "obl", "obl:tmod", "nmod", "nmod:poss", "nmod:tmod",
             "amod", "advmod", "conj", "compound", "det", "case", "aux", "aux:pass", "cc", "punct",
             "SBJ", "OBJ", "NMOD", "P", "PMOD", "VC", "COORD"]


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
    for token in range(1, n + 1):
        if heads[token - 1] == 0 or rng.random() > 0.2:
            continue
        allowed = [h for h in range(1, n + 1) if h not in descendants(heads, token)]
        heads[token - 1] = rng.choice(allowed)
    roll = rng.random()
    if roll < 0.05:  # a token that is its own head
        token = rng.randint(1, n)
        heads[token - 1] = token
    elif roll < 0.1 and n > 1:  # a second root
        token = rng.choice([k for k in range(1, n + 1) if heads[k - 1] != 0])
        heads[token - 1] = 0
    elif roll < 0.15 and n > 2:  # two tokens that head each other
        a, b = rng.sample(range(1, n + 1), 2)
        heads[a - 1], heads[b - 1] = b, a
    return heads


def form(rng):
    roll = rng.random()
    if roll < 0.25:
        return rng.choice(PUNCT)
    if roll < 0.35:
        return rng.choice(SYMBOLS)
    return rng.choice(WORDS)


def relation(rng, label):
    roll = rng.random()
    if roll < 0.15:
        return rng.choice(RELATIONS)
    if roll < 0.22:
        return label.split(":")[0] if ":" in label else label + ":" + rng.choice(["poss", "tmod", "pass"])
    if roll < 0.27:
        return label.upper() if label != label.upper() else label.lower()
    return label


def sentence(rng, n):
    forms = [form(rng) for _ in range(n)]
    heads = random_tree(rng, n)
    gold = []
    for k in range(n):
        rel = rng.choice(["root", "root", "ROOT"]) if heads[k] == 0 else rng.choice(RELATIONS)
        cpos = rng.choice(CPOS)
        gold.append([str(k + 1), forms[k], forms[k].lower(), cpos, cpos, "_", str(heads[k]), rel, "_", "_"])
    sys_heads = perturb_heads(rng, heads)
    system = []
    for k, row in enumerate(gold):
        rel = row[7]
        if sys_heads[k] == 0:
            rel = rng.choice(["root", "root", "root", "ROOT", "Root"])
        elif rel.lower() == "root" or rng.random() < 0.3:
            rel = relation(rng, rng.choice(RELATIONS) if rel.lower() == "root" else rel)
        cpos = row[3] if rng.random() > 0.05 else rng.choice(CPOS)
        system.append([row[0], row[1], row[2], cpos, cpos, "_", str(sys_heads[k]), rel, "_", "_"])
    return ("".join("\t".join(r) + "\n" for r in gold) + "\n",
            "".join("\t".join(r) + "\n" for r in system) + "\n")


def main():
    rng = random.Random(SEED)
    pairs = [sentence(rng, rng.randint(1, 16)) for _ in range(SENTENCES)]
    with open("random.gold.conll", "w", encoding="utf-8", newline="\n") as handle:
        handle.write("".join(g for g, _ in pairs))
    with open("random.sys.conll", "w", encoding="utf-8", newline="\n") as handle:
        handle.write("".join(s for _, s in pairs))


if __name__ == "__main__":
    main()
