"""Writes retok_random.gold.conllu and retok_random.sys.conllu: a seeded random gold treebank and a
"system" output of the same text with other tokens, other multiword tokens and other sentence
boundaries (the fixture pair behind retok_random.conll18.txt).

The gold has single words and multiword tokens (French ``du`` = ``de le``, ``au`` = ``à le``,
English ``don't`` = ``do n't``, Spanish ``dámelo`` = ``da me lo``, German ``zum`` = ``zu dem``),
tokens with a space inside (``New York``, a no-break space in ``10 000``) and a few empty nodes.
The system, over the same characters:

* splits tokens (``housework`` → ``house`` ``work``) and merges neighbours (``of the`` → ``ofthe``),
* leaves a multiword token whole as one word, splits it into other words, writes its characters as
  single tokens, or makes a multiword token of a single word,
* writes a token with a space inside without it (``NewYork``) or as two tokens,
* merges neighbouring sentences and splits sentences,
* and, word by word, changes heads (keeping a tree with one root), relations (subtypes, other
  relations, ``ROOT`` on the root), UPOS, XPOS, FEATS and lemmas (``_`` too).

Every sentence of both files is a tree with one root (what conll18_ud_eval.py reads). Run from
this folder: ``python generate_retok_case.py`` (deterministic). ``--seed``, ``--sentences`` and
``--prefix`` make other pairs (other seeds for fuzzing against the script, 20,000 sentences for
timing): ``python generate_retok_case.py --seed 7 --sentences 20000 --prefix /tmp/big``.
"""
import argparse
import random

SEED = 20180625
SENTENCES = 60

WORDS = ["the", "dog", "Cats", "ran", "to", "a", "house", "in", "Prague", "and", "quickly", "is", "big",
         "they", "saw", "it", ".", ",", "!", "of", "was", "eaten", "by", "her", "new", "car", "housework",
         "le", "livre", "parle", "Il", "ahora", "don", "N'T", "DE", "Zu"]
SPACED = ["New York", "10\u00a0000", "San Francisco"]
MULTIWORD = [("du", ("de", "le")), ("au", ("à", "le")), ("des", ("de", "les")), ("don't", ("do", "n't")),
             ("can't", ("ca", "n't")), ("Dámelo", ("Da", "me", "lo")), ("zum", ("zu", "dem")), ("im", ("in", "dem"))]
UPOS = ["NOUN", "VERB", "DET", "ADP", "AUX", "PUNCT", "ADJ", "ADV", "PRON", "PROPN", "CCONJ", "SCONJ"]
XPOS = ["_", "NN", "VB", "DT", "IN"]
RELATIONS = ["nsubj", "nsubj:pass", "obj", "iobj", "obl", "obl:tmod", "nmod", "nmod:poss", "amod", "advmod",
             "conj", "compound", "flat", "xcomp", "acl:relcl", "appos", "dep", "det", "det:predet", "case",
             "aux", "aux:pass", "cop", "mark", "cc", "clf", "punct", "dobj", "prep"]
FEATURES = ["Number=Sing", "Number=Plur", "Case=Nom", "Case=Acc", "Definite=Def", "PronType=Art",
            "Tense=Past", "VerbForm=Fin", "Person=3", "Gender=Masc", "Polarity=Neg", "Number[psor]=Sing",
            "Foo=Bar"]


class Word:
    def __init__(self, form, lemma="_", upos="_", xpos="_", feats="_", deprel="dep", source=None):
        self.form, self.lemma, self.upos, self.xpos, self.feats, self.deprel = form, lemma, upos, xpos, feats, deprel
        self.head = None  # a Word or None (root)
        self.source = source  # the gold Word this system word copies, if any


class Token:
    def __init__(self, form, words, multiword):
        self.form, self.words, self.multiword = form, words, multiword


def feats(rng):
    items = rng.sample(FEATURES, rng.randint(0, 3))
    return "|".join(items) if items else "_"


def gold_word(rng, form):
    return Word(form, form.lower() if rng.random() > 0.1 else "_", rng.choice(UPOS), rng.choice(XPOS), feats(rng))


def random_tree(rng, words):
    """Attach the words of a sentence in a random order: one root, no cycle."""
    order = list(words)
    rng.shuffle(order)
    order[0].head, order[0].deprel = None, "root"
    for k, word in enumerate(order[1:], start=1):
        word.head = rng.choice(order[:k])
        word.deprel = rng.choice(RELATIONS)


def gold_sentence(rng):
    tokens = []
    for _ in range(rng.randint(1, 12)):
        roll = rng.random()
        if roll < 0.15:
            form, parts = rng.choice(MULTIWORD)
            tokens.append(Token(form, [gold_word(rng, p) for p in parts], True))
        elif roll < 0.2:
            form = rng.choice(SPACED)
            tokens.append(Token(form, [gold_word(rng, form)], False))
        else:
            form = rng.choice(WORDS)
            tokens.append(Token(form, [gold_word(rng, form)], False))
    random_tree(rng, [w for t in tokens for w in t.words])
    return tokens


def copy(word, form=None):
    return Word(word.form if form is None else form, word.lemma, word.upos, word.xpos, word.feats, word.deprel,
                source=word)


def squeeze(form):
    return form.replace(" ", "").replace("\u00a0", "")


def retokenise(rng, token):
    """The system's tokens for one gold token (the same characters, spaces aside)."""
    text = squeeze(token.form)
    roll = rng.random()
    if token.multiword:
        if roll < 0.25:  # left whole: one word
            return [Token(token.form, [copy(token.words[0], token.form)], False)]
        if roll < 0.4:  # other words
            cut = rng.randint(1, len(text) - 1) if len(text) > 1 else 1
            pieces = [text[:cut], text[cut:]] if len(text) > 1 else [text]
            return [Token(token.form, [copy(token.words[min(k, len(token.words) - 1)], p)
                                       for k, p in enumerate(pieces)], True)]
        if roll < 0.5 and len(text) > 1:  # its characters as single tokens
            cut = rng.randint(1, len(text) - 1)
            return [Token(text[:cut], [copy(token.words[0], text[:cut])], False),
                    Token(text[cut:], [copy(token.words[-1], text[cut:])], False)]
        return [Token(token.form, [copy(w) for w in token.words], True)]
    word = token.words[0]
    if " " in token.form or "\u00a0" in token.form:
        if roll < 0.3:
            return [Token(text, [copy(word, text)], False)]
        if roll < 0.6:
            first, rest = token.form.replace("\u00a0", " ").split(" ", 1)
            return [Token(first, [copy(word, first)], False), Token(rest, [copy(word, rest)], False)]
        return [Token(token.form, [copy(word)], False)]
    if roll < 0.08 and len(text) > 1:  # split
        cut = rng.randint(1, len(text) - 1)
        return [Token(text[:cut], [copy(word, text[:cut])], False), Token(text[cut:], [Word(text[cut:])], False)]
    if roll < 0.12 and len(text) > 1:  # a multiword token of a single word
        cut = rng.randint(1, len(text) - 1)
        return [Token(text, [copy(word, text[:cut]), Word(text[cut:].upper())], True)]
    if roll < 0.14:  # a multiword token of one word
        return [Token(text, [copy(word)], True)]
    return [Token(token.form, [copy(word)], False)]


def merge(rng, tokens):
    """Merge some neighbouring single-word tokens (``of the`` → ``ofthe``)."""
    out = []
    for token in tokens:
        if (out and not token.multiword and not out[-1].multiword and rng.random() < 0.06
                and " " not in token.form and " " not in out[-1].form):
            last = out.pop()
            form = last.form + token.form
            first = last.words[0]
            out.append(Token(form, [Word(form, first.lemma, first.upos, first.xpos, first.feats, first.deprel,
                                         first.source)], False))
        else:
            out.append(token)
    return out


def system_document(rng, gold):
    """The system's sentences (lists of tokens) for the gold's."""
    sentences = []
    for sentence in gold:
        tokens = merge(rng, [t for token in sentence for t in retokenise(rng, token)])
        # split some sentences
        start = 0
        for k in range(1, len(tokens)):
            if rng.random() < 0.04:
                sentences.append(tokens[start:k])
                start = k
        sentences.append(tokens[start:])
        # merge with the next sentence sometimes
        if len(sentences) > 1 and rng.random() < 0.12:
            last = sentences.pop()
            sentences[-1] = sentences[-1] + last
    return sentences


def descendants(word, words):
    out, changed = {word}, True
    while changed:
        changed = False
        for w in words:
            if w.head in out and w not in out:
                out.add(w)
                changed = True
    return out


def system_tree(rng, words):
    """Heads of a system sentence: the gold's where they map into the sentence, else the root;
    then cycles broken, and some words reattached; one root."""
    partner = {}
    for w in words:
        if w.source is not None and w.source not in partner:
            partner[w.source] = w
    roots = [w for w in words if w.source is not None and w.source.head is None]
    root = roots[0] if roots else rng.choice(words)
    for w in words:
        head = partner.get(w.source.head) if w.source is not None and w.source.head is not None else None
        w.head = head if head is not None and head is not w else root
    root.head = None
    for w in words:  # break cycles: a word that does not reach the root hangs from it
        seen, k = set(), w
        while k is not None and k not in seen:
            seen.add(k)
            k = k.head
        if k is not None:
            w.head = root
    if len(words) > 1 and rng.random() < 0.1:  # another root
        new = rng.choice([w for w in words if w is not root])
        new.head, root.head = None, new
        root = new
    for w in words:
        if w is not root and rng.random() < 0.12:
            allowed = [h for h in words if h not in descendants(w, words)]
            w.head = rng.choice(allowed)
    for w in words:
        if w is root:
            w.deprel = rng.choice(["root", "root", "root", "ROOT"])
        elif w.deprel == "root" or w.source is None or rng.random() < 0.2:
            w.deprel = rng.choice(RELATIONS)
        if rng.random() < 0.1:
            w.upos = rng.choice(UPOS)
        if rng.random() < 0.08:
            w.xpos = rng.choice(XPOS)
        roll = rng.random()
        if roll < 0.1:
            w.feats = feats(rng)
        elif roll < 0.2 and w.feats != "_":
            items = w.feats.split("|")
            rng.shuffle(items)
            w.feats = "|".join(items)
        roll = rng.random()
        if roll < 0.08:
            w.lemma = "_"
        elif roll < 0.15:
            w.lemma = w.form.upper()
        if w.source is None and w.lemma == "_" and rng.random() < 0.5:
            w.lemma = w.form


def write(sentences, prefix, rng, empty_nodes):
    blocks = []
    for number, tokens in enumerate(sentences, start=1):
        words = [w for t in tokens for w in t.words]
        ids = {id(w): k for k, w in enumerate(words, start=1)}
        lines = [f"# sent_id = {prefix}-{number}",
                 "# text = " + " ".join(t.form for t in tokens)]
        k = 1
        for t in tokens:
            if t.multiword:
                lines.append(f"{k}-{k + len(t.words) - 1}\t{t.form}\t_\t_\t_\t_\t_\t_\t_\t_")
            for w in t.words:
                head = 0 if w.head is None else ids[id(w.head)]
                lines.append("\t".join([str(k), w.form, w.lemma, w.upos, w.xpos, w.feats, str(head), w.deprel,
                                        "_", "_"]))
                k += 1
            if empty_nodes and rng.random() < 0.02:  # after a token's last word, never inside a range
                lines.append(f"{k - 1}.1\t{t.words[-1].form}\t_\t_\t_\t_\t_\t_\t{k - 1}:dep\t_")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--sentences", type=int, default=SENTENCES)
    parser.add_argument("--prefix", default="retok_random", help="writes PREFIX.gold.conllu and PREFIX.sys.conllu")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    gold = [gold_sentence(rng) for _ in range(args.sentences)]
    system = system_document(rng, gold)
    for sentence in system:
        system_tree(rng, [w for t in sentence for w in t.words])
    with open(f"{args.prefix}.gold.conllu", "w", encoding="utf-8") as handle:
        handle.write(write(gold, "gold", rng, True))
    with open(f"{args.prefix}.sys.conllu", "w", encoding="utf-8") as handle:
        handle.write(write(system, "sys", rng, True))


if __name__ == "__main__":
    main()
