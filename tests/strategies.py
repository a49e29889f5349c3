"""Hypothesis strategies for random trees of every shape."""
from hypothesis import strategies as st

LABELS = ["a", "b", "c", "d"]
RELATIONS = ["subj", "obj", "det", "mod", "root"]


@st.composite
def labelled_trees(draw, labels=LABELS, max_nodes=12):
    """Ordered labelled trees ``(label, children)``: node k > 0 hangs under a random earlier
    node; the choice of parent (last node, the root, anything) mixes chains, bushes and
    balanced shapes."""
    n = draw(st.integers(1, max_nodes))
    shape = draw(st.sampled_from(["any", "chain", "bush", "recent"]))
    parents = [-1]
    for k in range(1, n):
        if shape == "chain":
            parent = k - 1 if draw(st.integers(0, 4)) else draw(st.integers(0, k - 1))
        elif shape == "bush":
            parent = 0 if draw(st.integers(0, 4)) else draw(st.integers(0, k - 1))
        elif shape == "recent":
            parent = draw(st.integers(max(0, k - 3), k - 1))
        else:
            parent = draw(st.integers(0, k - 1))
        parents.append(parent)
    node_labels = [draw(st.sampled_from(labels)) for _ in range(n)]

    def build(k):
        return (node_labels[k], tuple(build(c) for c in range(n) if parents[c] == k))

    return build(0)


@st.composite
def dependency_heads(draw, max_tokens=10, allow_cycles=False, min_tokens=1):
    """``(heads, deprels)``: 1-based heads with 0 for the root. A valid tree (heads drawn
    through a random order of attachment) unless ``allow_cycles``."""
    n = draw(st.integers(min_tokens, max_tokens))
    rels = [draw(st.sampled_from(RELATIONS)) for _ in range(n)]
    if allow_cycles:
        heads = [draw(st.sampled_from([h for h in range(n + 1) if h != k])) for k in range(1, n + 1)]
        return heads, rels
    order = draw(st.permutations(range(1, n + 1)))
    heads = [0] * n
    attached = [0]
    for token in order:
        heads[token - 1] = draw(st.sampled_from(attached))
        attached.append(token)
    return heads, rels
