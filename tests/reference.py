"""Slow, obviously correct reference implementations used to check the Cython core.

Trees are nested tuples ``(label, (child, child, ...))``. Nothing here shares code with
the package: each function is written from the textbook definition.
"""
from functools import lru_cache


def ref_tree_size(tree):
    return 1 + sum(ref_tree_size(child) for child in tree[1])


def ref_leaf_count(tree):
    """Nodes without children: for a phrase tree without words, the sentence length."""
    return 1 if not tree[1] else sum(ref_leaf_count(child) for child in tree[1])


def ref_tree_edit_distance(t1, t2, sub_cost=None):
    """Ordered tree edit distance by the forest recursion of Zhang & Shasha (1989), eq. (1):

    fd(F, G) = min(fd(F − v, G) + 1, fd(F, G − w) + 1,
                   fd(F − T(v), G − T(w)) + fd(C(v), C(w)) + γ(v → w))

    where v, w are the rightmost roots of the forests F, G, F − v removes v (its children
    take its place), F − T(v) removes v's whole subtree and C(v) is v's children. Insert
    and delete cost 1; γ is ``sub_cost(a, b)`` or 0/1 for equal/different labels.
    """

    def gamma(a, b):
        if sub_cost is not None:
            return sub_cost(a, b)
        return 0 if a == b else 1

    @lru_cache(maxsize=None)
    def forest_size(forest):
        return sum(ref_tree_size(t) for t in forest)

    @lru_cache(maxsize=None)
    def fd(f, g):
        if not f:
            return forest_size(g)
        if not g:
            return forest_size(f)
        (v_label, v_children), (w_label, w_children) = f[-1], g[-1]
        return min(
            fd(f[:-1] + v_children, g) + 1,
            fd(f, g[:-1] + w_children) + 1,
            fd(f[:-1], g[:-1]) + fd(v_children, w_children) + gamma(v_label, w_label),
        )

    return fd((t1,), (t2,))


def ref_postorder_labels(tree):
    label, children = tree
    out = []
    for child in children:
        out.extend(ref_postorder_labels(child))
    out.append(label)
    return out


def ref_dependency_to_tuple(heads, deprels):
    """Skjærholt (2014) Figure 1: root ε ("") over the tokens with head 0, nodes labelled with
    their relation, children in token order; tokens unreachable from the root are left out."""

    def build(node):
        children = tuple(build(k) for k in range(1, len(heads) + 1) if heads[k - 1] == node)
        return ("" if node == 0 else deprels[node - 1], children)

    return build(0)


def ref_unreachable_tokens(heads):
    """1-based ids of the tokens whose chain of heads never reaches 0 (head cycles)."""
    out = []
    for k in range(1, len(heads) + 1):
        seen, node = set(), k
        while node != 0 and node not in seen:
            seen.add(node)
            node = heads[node - 1]
        if node != 0:
            out.append(k)
    return out


def ref_krippendorff_alpha(data, distance):
    """Krippendorff's α from its definition: items are lists of values (None = missing)."""
    units = [[v for v in item if v is not None] for item in data]
    units = [u for u in units if len(u) >= 2]
    values = [v for u in units for v in u]
    n = len(values)
    if n < 2:
        return float("nan")
    observed = sum(
        sum(distance(a, b) ** 2 for i, a in enumerate(u) for j, b in enumerate(u) if i != j) / (len(u) - 1)
        for u in units
    ) / n
    expected = sum(
        distance(a, b) ** 2 for i, a in enumerate(values) for j, b in enumerate(values) if i != j
    ) / (n * (n - 1))
    return float("nan") if expected == 0 else 1 - observed / expected


def ref_nominal(a, b):
    return 0 if a == b else 1


def ref_bracket_set(tree):
    """(first leaf, last leaf, label) of every node, leaves numbered left to right from 0."""
    brackets = set()
    counter = [0]

    def visit(node):
        label, children = node
        if not children:
            first = last = counter[0]
            counter[0] += 1
        else:
            spans = [visit(child) for child in children]
            first, last = spans[0][0], spans[-1][1]
        brackets.add((first, last, label))
        return first, last

    visit(tree)
    return brackets


def ref_jaccard(t1, t2):
    a, b = ref_bracket_set(t1), ref_bracket_set(t2)
    return len(a & b) / len(a | b)
