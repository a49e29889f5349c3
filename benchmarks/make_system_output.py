"""Make a "system" CoNLL-U file from a gold one, as a parser run on raw text could have produced it.

    python benchmarks/make_system_output.py GOLD OUT [--seed N] [--rate R] [--plain]

Standard library only; the same seed gives the same file. Without --plain the tokens and sentences
change as well as the trees:

* re-tokenisation: some adjacent single-word tokens joined by SpaceAfter=No are merged into one token;
  some tokens are split at an inner punctuation character or hyphen ("e-mail" -> "e" "-" "mail");
* multiword tokens: `du` is always kept whole (one word); `au` is always split differently (à + les
  instead of à + le); of the others, some are undone (one word) and some are split at another point
  (when the words spell the token: "don't" -> "do" "n't" becomes "don" "'t");
* re-segmentation: some adjacent sentences are merged (the second root attached to the first as
  parataxis), some long ones are split in two (the words whose head fell in the other half attached to
  a new root);
* every variant: a fraction --rate of the words get a wrong head (never a descendant, so no cycle), a
  wrong label, or wrong tags (UPOS, XPOS, FEATS, lemma); a few sentences are re-rooted; some roots are
  written `ROOT` (conll18_ud_eval.py compares the label as written).

With --plain the tokens, multiword tokens and sentences are the gold's; only heads, labels and tags
change. Empty nodes are dropped and DEPS is `_` in both variants (the script ignores them). The output
is valid for conll18_ud_eval.py: ids 1..n, one root per sentence, no cycles, multiword ranges over their
words, a final empty line. Counts of what was done go to stderr.
"""
import argparse
import random
import sys
import unicodedata
from collections import Counter


class Word:
    __slots__ = ("form", "lemma", "upos", "xpos", "feats", "head", "deprel", "misc")

    def __init__(self, cols):
        self.form, self.lemma, self.upos, self.xpos, self.feats = cols[1:6]
        self.head = cols[6]  # an int while reading, then a Word or None (root)
        self.deprel = cols[7]
        self.misc = cols[9]


class Token:
    """One token: a plain word (form None) or a multiword token over its words."""
    __slots__ = ("form", "misc", "words")

    def __init__(self, words, form=None, misc="_"):
        self.words = words
        self.form = form
        self.misc = misc

    @property
    def mwt(self):
        return self.form is not None

    def text(self):
        return self.form if self.mwt else self.words[0].form

    def get_misc(self):
        return self.misc if self.mwt else self.words[0].misc

    def set_misc(self, misc):
        if self.mwt:
            self.misc = misc
        else:
            self.words[0].misc = misc


class Sentence:
    __slots__ = ("sent_id", "tokens")

    def __init__(self, sent_id, tokens):
        self.sent_id = sent_id
        self.tokens = tokens

    def words(self):
        return [w for t in self.tokens for w in t.words]


def no_space_after(misc):
    return "SpaceAfter=No" in misc.split("|")


def with_space_after(misc, no_space):
    items = [m for m in misc.split("|") if m not in ("_", "") and not m.startswith("SpaceAfter=")]
    if no_space:
        items.append("SpaceAfter=No")
    return "|".join(items) or "_"


def read_conllu(path):
    sentences, tokens, words, sent_id, mwt_end = [], [], {}, None, 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line:
                if tokens:
                    for w in words.values():
                        w.head = words[w.head] if w.head else None
                    sentences.append(Sentence(sent_id or str(len(sentences) + 1), tokens))
                tokens, words, sent_id, mwt_end = [], {}, None, 0
                continue
            if line.startswith("#"):
                if line.startswith("# sent_id = "):
                    sent_id = line[len("# sent_id = "):]
                continue
            cols = line.split("\t")
            if "." in cols[0]:
                continue  # empty node
            if "-" in cols[0]:
                start, end = map(int, cols[0].split("-"))
                tokens.append(Token([], form=cols[1], misc=cols[9]))
                mwt_end = end
                continue
            w = Word(cols)
            w.head = int(w.head)
            words[int(cols[0])] = w
            if int(cols[0]) <= mwt_end:
                tokens[-1].words.append(w)
            else:
                tokens.append(Token([w]))
    if tokens:
        for w in words.values():
            w.head = words[w.head] if w.head else None
        sentences.append(Sentence(sent_id or str(len(sentences) + 1), tokens))
    return sentences


def write_conllu(sentences, path):
    with open(path, "w", encoding="utf-8") as f:
        for s in sentences:
            words = s.words()
            ids = {id(w): i + 1 for i, w in enumerate(words)}
            text = "".join(t.text() + ("" if no_space_after(t.get_misc()) else " ") for t in s.tokens)
            f.write("# sent_id = %s\n# text = %s\n" % (s.sent_id, text.rstrip()))
            n = 0
            for t in s.tokens:
                if t.mwt:
                    f.write("%d-%d\t%s\t_\t_\t_\t_\t_\t_\t_\t%s\n" % (n + 1, n + len(t.words), t.form, t.misc))
                for w in t.words:
                    n += 1
                    head = ids[id(w.head)] if w.head is not None else 0
                    f.write("\t".join((str(n), w.form, w.lemma, w.upos, w.xpos, w.feats, str(head),
                                       w.deprel, "_", w.misc)) + "\n")
            f.write("\n")


def clone_word(w, form, upos=None, head=None, deprel=None):
    c = Word(["0", form, form, upos or w.upos, w.xpos, "_", 0, deprel or w.deprel, "_", "_"])
    c.head = head
    return c


def collapse(words, form):
    """One word standing for `words` (of one sentence): the first with none of the others above it
    keeps its head and label; the dependents of the others move to it (no cycle can form). Returns
    (kept word, dropped words)."""
    inside = {id(w) for w in words}

    def topmost(w):
        h = w.head
        while h is not None:
            if id(h) in inside:
                return False
            h = h.head
        return True

    keep = next(w for w in words if topmost(w))
    keep.form = form
    dropped = [w for w in words if w is not keep]
    return keep, dropped


def reattach(sentence_words, dropped, keep):
    gone = {id(w) for w in dropped}
    for w in sentence_words:
        if w.head is not None and id(w.head) in gone:
            w.head = keep


def is_punct(c):
    return unicodedata.category(c)[0] in "PS"


class Maker:
    def __init__(self, rng, args, labels, upos, xpos):
        self.rng, self.args = rng, args
        self.labels, self.upos, self.xpos = labels, upos, xpos
        self.n = Counter()

    # -- tokens -----------------------------------------------------------------------------------
    def retokenise(self, s):
        rng, a = self.rng, self.args
        out = []
        for t in s.tokens:
            low = t.form.lower() if t.mwt else None
            if t.mwt and low == "du":
                keep, dropped = collapse(t.words, t.form)
                reattach(s.words(), dropped, keep)
                keep.misc = t.misc
                out.append(Token([keep]))
                self.n["mwt du kept whole"] += 1
                continue
            if t.mwt and low == "au" and len(t.words) == 2:
                t.words[1].form = "les"
                self.n["mwt au split as à+les"] += 1
                out.append(t)
                continue
            if t.mwt and rng.random() < a.mwt_rate:
                if rng.random() < 0.5 or "".join(w.form for w in t.words) != t.form or len(t.form) < 3:
                    keep, dropped = collapse(t.words, t.form)
                    reattach(s.words(), dropped, keep)
                    keep.misc = t.misc
                    out.append(Token([keep]))
                    self.n["mwt undone"] += 1
                else:  # the same words, cut at other points
                    cuts = sorted(rng.sample(range(1, len(t.form)), len(t.words) - 1))
                    cuts = [0] + cuts + [len(t.form)]
                    for w, b, e in zip(t.words, cuts, cuts[1:]):
                        w.form = t.form[b:e]
                    self.n["mwt split elsewhere"] += 1
                    out.append(t)
                continue
            if not t.mwt and rng.random() < a.split_rate:
                w = t.words[0]
                inner = [i for i, c in enumerate(w.form) if is_punct(c) and 0 < i < len(w.form)]
                if inner and not any(unicodedata.category(c) == "Zs" for c in w.form) and len(w.form) > 1:
                    i = rng.choice(inner)
                    pieces = [w.form[:i], w.form[i], w.form[i + 1:]]
                    pieces = [p for p in pieces if p]
                    misc = w.misc
                    w.form, w.lemma = pieces[0], pieces[0]
                    new = [w]
                    for p in pieces[1:]:
                        punct = len(p) == 1 and is_punct(p)
                        new.append(clone_word(w, p, upos="PUNCT" if punct else None, head=w,
                                              deprel="punct" if punct else "flat"))
                    for x in new:
                        x.misc = "SpaceAfter=No"
                    new[-1].misc = misc
                    out.extend(Token([x]) for x in new)
                    self.n["tokens split"] += 1
                    continue
            out.append(t)
        s.tokens = out
        # merge adjacent plain tokens written without a space between them
        out, i = [], 0
        while i < len(s.tokens):
            t = s.tokens[i]
            nxt = s.tokens[i + 1] if i + 1 < len(s.tokens) else None
            if (nxt is not None and not t.mwt and not nxt.mwt and no_space_after(t.get_misc())
                    and rng.random() < a.merge_rate):
                w1, w2 = t.words[0], nxt.words[0]
                keep, dropped = collapse([w1, w2], w1.form + w2.form)
                reattach(s.words(), dropped, keep)
                keep.misc = w2.misc
                keep.lemma = keep.form
                out.append(Token([keep]))
                self.n["tokens merged"] += 1
                i += 2
                continue
            out.append(t)
            i += 1
        s.tokens = out

    # -- sentences --------------------------------------------------------------------------------
    def resegment(self, sentences):
        rng, a = self.rng, self.args
        out, merged_last = [], False
        for s in sentences:
            if out and not merged_last and rng.random() < a.sent_merge_rate:
                prev = out[-1]
                root1 = next(w for w in prev.words() if w.head is None)
                root2 = next(w for w in s.words() if w.head is None)
                root2.head, root2.deprel = root1, "parataxis"
                last = prev.tokens[-1]
                last.set_misc(with_space_after(last.get_misc(), False))
                out[-1] = Sentence(prev.sent_id + "+" + s.sent_id, prev.tokens + s.tokens)
                merged_last = True
                self.n["sentences merged"] += 1
                continue
            merged_last = False
            nwords = len(s.words())
            if nwords >= a.long and len(s.tokens) >= 4 and rng.random() < a.sent_split_rate:
                cut = rng.randint(len(s.tokens) // 3, 2 * len(s.tokens) // 3)
                for j, part in enumerate((s.tokens[:cut], s.tokens[cut:])):
                    words = [w for t in part for w in t.words]
                    inside = {id(w) for w in words}
                    ext = [w for w in words if w.head is None or id(w.head) not in inside]
                    root = next((w for w in ext if w.head is None), ext[0])
                    for w in ext:
                        w.head = root
                    root.head, root.deprel = None, "root"
                    out.append(Sentence("%s.%d" % (s.sent_id, j + 1), part))
                self.n["sentences split"] += 1
                continue
            out.append(s)
        return out

    # -- trees and tags ---------------------------------------------------------------------------
    def perturb(self, s):
        rng, a = self.rng, self.args
        words = s.words()
        pos = {id(w): i for i, w in enumerate(words)}
        if len(words) > 2 and rng.random() < a.reroot_rate:
            old = next(w for w in words if w.head is None)
            new = rng.choice([w for w in words if w is not old])
            new.head, new.deprel = None, "root"
            old.head = new
            old.deprel = rng.choice(self.labels)
            self.n["sentences re-rooted"] += 1
        children = {}
        for w in words:
            if w.head is not None:
                children.setdefault(id(w.head), []).append(w)
        for w in words:
            if rng.random() >= a.rate:
                continue
            self.n["words perturbed"] += 1
            what = rng.choice(("head", "head", "label", "label", "tags", "head+label"))
            if "head" in what and w.head is not None and len(words) > 2:
                below, stack = {id(w)}, [w]
                while stack:
                    for c in children.get(id(stack.pop()), ()):
                        if id(c) not in below:
                            below.add(id(c))
                            stack.append(c)
                cands = [x for x in words if id(x) not in below and x is not w.head]
                near = [x for x in cands if abs(pos[id(x)] - pos[id(w)]) <= 4]
                if cands:
                    new = rng.choice(near or cands)
                    children[id(w.head)].remove(w)
                    children.setdefault(id(new), []).append(w)
                    w.head = new
                    self.n["heads changed"] += 1
            if "label" in what and w.head is not None:
                w.deprel = rng.choice([x for x in self.labels if x != w.deprel])
                self.n["labels changed"] += 1
            if what == "tags":
                k = rng.choice(("upos", "xpos", "feats", "lemma"))
                if k == "upos":
                    w.upos = rng.choice([x for x in self.upos if x != w.upos])
                elif k == "xpos":
                    w.xpos = rng.choice([x for x in self.xpos if x != w.xpos] or ["_"])
                elif k == "feats":
                    feats = w.feats.split("|") if w.feats != "_" else []
                    w.feats = "|".join(feats[:-1]) or "_" if feats else "Number=Sing"
                else:
                    w.lemma = w.form.lower() if w.lemma != w.form.lower() else w.form.upper()
                self.n[k + " changed"] += 1
        for w in words:
            if w.head is None:
                w.deprel = "root"
                if rng.random() < a.root_upper_rate:
                    w.deprel = "ROOT"
                    self.n["roots written ROOT"] += 1


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("gold")
    p.add_argument("out")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--plain", action="store_true", help="the gold's tokens and sentences; trees and tags only")
    p.add_argument("--rate", type=float, default=0.15, help="fraction of words given a wrong head, label or tag")
    p.add_argument("--root-upper-rate", type=float, default=0.1, help="roots written ROOT")
    p.add_argument("--reroot-rate", type=float, default=0.03, help="sentences given another root")
    p.add_argument("--merge-rate", type=float, default=0.2, help="SpaceAfter=No token pairs merged")
    p.add_argument("--split-rate", type=float, default=0.3, help="tokens with inner punctuation split")
    p.add_argument("--mwt-rate", type=float, default=0.2, help="other multiword tokens undone or re-cut")
    p.add_argument("--sent-merge-rate", type=float, default=0.05, help="sentences merged with the one before")
    p.add_argument("--sent-split-rate", type=float, default=0.2, help="long sentences split in two")
    p.add_argument("--long", type=int, default=30, help="words from which a sentence is long")
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    sentences = read_conllu(args.gold)
    words = [w for s in sentences for w in s.words()]
    labels = sorted({w.deprel for w in words if w.deprel != "root"})
    upos = sorted({w.upos for w in words})
    xpos = sorted({w.xpos for w in words if w.xpos != "_"})
    n_in = (len(sentences), sum(len(s.tokens) for s in sentences), len(words))
    m = Maker(rng, args, labels, upos, xpos)
    if not args.plain:
        for s in sentences:
            m.retokenise(s)
        sentences = m.resegment(sentences)
    for s in sentences:
        m.perturb(s)
    write_conllu(sentences, args.out)
    n_out = (len(sentences), sum(len(s.tokens) for s in sentences), sum(len(s.words()) for s in sentences))
    print("%s -> %s (seed %d%s): sentences %d -> %d, tokens %d -> %d, words %d -> %d"
          % (args.gold, args.out, args.seed, ", plain" if args.plain else "", n_in[0], n_out[0],
             n_in[1], n_out[1], n_in[2], n_out[2]), file=sys.stderr)
    for k, v in sorted(m.n.items()):
        print("  %-24s %d" % (k, v), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
