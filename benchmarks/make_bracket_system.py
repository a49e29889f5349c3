"""Make a "system" bracket file from a gold one (one tree per line), as a parser could have produced it.

    python benchmarks/make_bracket_system.py GOLD OUT [--seed N] [--rate R] [--copies K] [--gold-out FILE]

Standard library only; the same seed gives the same file. Every tree keeps its words and their order;
of its phrases and tags, each is changed with probability about --rate (default 0.08):

* a phrase is removed (its children go up into its parent),
* a phrase is added over two or more adjacent children of a phrase (a label drawn from the file's),
* a phrase is relabelled (another label of the file),
* a phrase's last child is moved into the phrase that follows it (an attachment changed: brackets
  that cross the gold's),
* a part-of-speech tag is changed to another tag of the file.

What EVALB (COLLINS.prm) would count as an error sentence is never made, so that its MAX_ERROR does
not end the run: tags in DELETE_LABEL (punctuation, ``-NONE-``) are neither changed nor given to a
word, and the root (``TOP`` or the unlabelled outer bracket) is kept. The compiled EVALB's fixed buffers
are respected too: at most 190 phrases and 4,900 bytes a line (it has 200 and 5,000).

``--copies K`` writes the perturbed file K times (each copy perturbed afresh, the random stream going
on); ``--gold-out FILE`` writes the gold K times alongside, so that the two files stay parallel.
Counts of what was done go to stderr.
"""
import argparse
import random
import sys
from collections import Counter

#: COLLINS.prm's DELETE_LABEL: tags that are never given or taken away (a change would be an
#: EVALB error sentence: the words compared would differ)
KEEP_TAGS = {"TOP", "-NONE-", ",", ":", "``", "''", "."}
MAX_PHRASES, MAX_BYTES = 190, 4900


def parse(line):
    """A tree as nested lists: a phrase is ``[label, children]``, a word ``(tag, word)``."""
    tokens = line.replace("(", " ( ").replace(")", " ) ").split()
    stack, root = [["", []]], None
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok == "(":
            label = tokens[i + 1] if tokens[i + 1] not in "()" else ""
            i += 1 if label == "" else 2
            if i + 1 < len(tokens) and tokens[i] not in "()" and tokens[i + 1] == ")":
                stack[-1][1].append((label, tokens[i]))
                i += 2
                continue
            node = [label, []]
            stack[-1][1].append(node)
            stack.append(node)
            continue
        if tok == ")":
            stack.pop()
        else:
            raise ValueError(f"unexpected token {tok!r} in {line[:60]!r}")
        i += 1
    root = stack[0][1]
    if len(stack) != 1 or len(root) != 1:
        raise ValueError(f"not one balanced tree: {line[:60]!r}")
    return root[0]


def write(node):
    if isinstance(node, tuple):
        return f"({node[0]} {node[1]})"
    inner = " ".join(write(child) for child in node[1])
    return f"({node[0]} {inner})" if node[0] else f"( {inner})"


def phrases(node):
    return 0 if isinstance(node, tuple) else 1 + sum(phrases(c) for c in node[1])


def collect(node, labels, tags):
    if isinstance(node, tuple):
        tags[node[0]] += 1
        return
    labels[node[0]] += 1
    for child in node[1]:
        collect(child, labels, tags)


class Perturber:
    def __init__(self, rng, rate, labels, tags):
        self.rng, self.rate = rng, rate
        self.labels = sorted(k for k in labels if k and k not in KEEP_TAGS)
        self.tags = sorted(k for k in tags if k not in KEEP_TAGS)
        self.done = Counter()

    def other(self, pool, current):
        choice = self.rng.choice(pool)
        return choice if choice != current or len(pool) == 1 else self.other(pool, current)

    def tree(self, root):
        budget = [MAX_PHRASES - phrases(root)]
        root[1] = self.children(root[1], budget)
        return root

    def children(self, kids, budget):
        rng, out = self.rng, []
        for kid in kids:
            if isinstance(kid, tuple):
                tag, word = kid
                if tag not in KEEP_TAGS and rng.random() < self.rate:
                    tag = self.other(self.tags, tag)
                    self.done["tag changed"] += 1
                out.append((tag, word))
                continue
            kid[1] = self.children(kid[1], budget)
            roll = rng.random()
            if roll < self.rate and kid[0] not in KEEP_TAGS:
                out.extend(kid[1])
                budget[0] += 1
                self.done["phrase removed"] += 1
                continue
            if roll < 2 * self.rate and kid[0] not in KEEP_TAGS:
                kid[0] = self.other(self.labels, kid[0])
                self.done["phrase relabelled"] += 1
            out.append(kid)
        for k in range(len(out) - 1):
            a, b = out[k], out[k + 1]
            if (not isinstance(a, tuple) and not isinstance(b, tuple) and len(a[1]) >= 2
                    and rng.random() < self.rate):
                b[1].insert(0, a[1].pop())
                self.done["attachment moved"] += 1
        if len(out) >= 3 and budget[0] > 0 and rng.random() < 2 * self.rate:
            size = rng.randint(2, len(out) - 1)
            start = rng.randint(0, len(out) - size)
            out[start:start + size] = [[rng.choice(self.labels), out[start:start + size]]]
            budget[0] -= 1
            self.done["phrase added"] += 1
        return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gold")
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--rate", type=float, default=0.08)
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--gold-out")
    args = parser.parse_args(argv)
    with open(args.gold, encoding="latin-1") as handle:
        lines = [line.rstrip("\n") for line in handle if line.strip()]
    labels, tags = Counter(), Counter()
    for line in lines:
        collect(parse(line), labels, tags)
    perturber = Perturber(random.Random(args.seed), args.rate, labels, tags)
    with open(args.out, "w", encoding="latin-1", newline="\n") as out:
        for _ in range(args.copies):
            for line in lines:
                text = write(perturber.tree(parse(line)))
                if len(text) > MAX_BYTES:  # EVALB's buffer: keep the gold's parse
                    text = line
                    perturber.done["kept (too long)"] += 1
                out.write(text + "\n")
    if args.gold_out:
        with open(args.gold_out, "w", encoding="latin-1", newline="\n") as out:
            for _ in range(args.copies):
                out.writelines(line + "\n" for line in lines)
    sentences = len(lines) * args.copies
    print(f"{sentences} trees; " + ", ".join(f"{k}: {v}" for k, v in sorted(perturber.done.items())),
          file=sys.stderr)


if __name__ == "__main__":
    main()
