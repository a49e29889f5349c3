"""Aligned SVG pictures of several analyses of one sentence (issue 16): the geometry (no
overlapping labels or words, arcs ending at their words, everything inside the picture), what
is highlighted, escaping, and size."""
import html
import random
import re
import xml.etree.ElementTree as ET
from itertools import combinations
from typing import List, Sequence, Tuple

import numpy as np
import pytest

from spacy_agreement import parse_brackets
from spacy_agreement.report.escape import text as escape_text
from spacy_agreement.report.svg import (
    Box,
    dependency_svg,
    layout_dependency,
    layout_phrase,
    phrase_svg,
    phrase_svg_from_trees,
    score_colour,
    text_width,
)

SVG = "{http://www.w3.org/2000/svg}"
OWN_TAGS = {"svg", "style", "g", "path", "rect", "text", "title"}
OWN_ATTRIBUTES = {"xmlns", "class", "viewBox", "width", "height", "style", "data-width", "data-height", "font-family",
                  "role", "data-annotator", "x", "y", "d", "data-dep", "data-span", "rx", "fill"}
HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "' onmouseover='alert(1)",
           "</svg><script>x()</script>", "a&b", "<!--", "]]>", "&lt;b&gt;", "Ærø 語 ﬁ \u202egnp.exe"]
EPS = 1e-6


# --- random analyses ---------------------------------------------------------------------
def projective_heads(rnd: random.Random, n: int) -> List[int]:
    heads = [0] * n

    def build(lo: int, hi: int, head: int) -> None:  # words lo..hi-1 under head (1-based, 0 root)
        if lo >= hi:
            return
        r = rnd.randrange(lo, hi)
        heads[r] = head
        build(lo, r, r + 1)
        build(r + 1, hi, r + 1)

    build(0, n, 0)
    return heads


def random_heads(rnd: random.Random, n: int) -> List[int]:
    """Any tree, mostly non-projective: tokens attach in a random order to earlier ones."""
    order = list(range(1, n + 1))
    rnd.shuffle(order)
    heads, attached = [0] * n, [0]
    for token in order:
        heads[token - 1] = rnd.choice(attached)
        attached.append(token)
    return heads


def random_label(rnd: random.Random) -> str:
    return "".join(rnd.choice("abcdefghijklmnopqrstuvwxyzAQW:") for _ in range(rnd.randint(2, 12)))


def random_word(rnd: random.Random) -> str:
    return "".join(rnd.choice("abcdefghijklmnopqrstuvwxyzæøåMW.") for _ in range(rnd.choice([1, 2, 3, 4, 6, 9, 14])))


def random_analyses(rnd: random.Random, n: int, k: int, shape: str) -> List[Tuple[str, List[int], List[str]]]:
    if shape == "projective":
        heads = projective_heads(rnd, n)
    elif shape == "any":
        heads = random_heads(rnd, n)
    else:  # malformed but real: several roots, tokens headed by themselves, cycles
        heads = [rnd.randint(0, n) for _ in range(n)]
    labels = [random_label(rnd) for _ in range(n)]
    out = [("A", heads, labels)]
    for a in range(1, k):
        h, l = list(heads), list(labels)
        for t in rnd.sample(range(n), max(1, n // 4)):
            if rnd.random() < 0.5:
                h[t] = rnd.randint(0, n)
            else:
                l[t] = random_label(rnd)
        if rnd.random() < 0.3:  # an annotator with an unrelated analysis
            h = projective_heads(rnd, n) if shape == "projective" else random_heads(rnd, n)
        out.append((f"annotator {a}", h, l))
    return out


CASES = [(seed, n, k, shape) for seed, (n, k, shape) in enumerate(
    [(n, k, shape) for n in (5, 12, 25, 40, 60) for k in (2, 3) for shape in ("projective", "any", "malformed")])]


# --- reading the SVG back ------------------------------------------------------------------------
def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag == SVG + "svg"
    return root


def tag(el: ET.Element) -> str:
    return el.tag[len(SVG):] if el.tag.startswith(SVG) else el.tag


def classes(el: ET.Element) -> List[str]:
    return (el.get("class") or "").split()


def path_points(d: str) -> List[Tuple[float, float]]:
    """Every point a path of the module's commands (M V H v q m l) passes through."""
    tokens = re.findall(r"[MVHvqml]|-?\d+(?:\.\d+)?", d)
    points, x, y, cmd, k = [], 0.0, 0.0, None, 0
    nums: List[float] = []
    arity = {"M": 2, "V": 1, "H": 1, "v": 1, "q": 4, "m": 2, "l": 2}
    for t in tokens + ["M"]:
        if t in arity:
            cmd, nums = t, []
            continue
        nums.append(float(t))
        if len(nums) < arity[cmd]:
            continue
        if cmd == "M":
            x, y = nums
        elif cmd == "V":
            y = nums[0]
        elif cmd == "H":
            x = nums[0]
        elif cmd == "v":
            y += nums[0]
        elif cmd == "q":
            points.append((x + nums[0], y + nums[1]))
            x, y = x + nums[2], y + nums[3]
        else:  # m, l
            x, y = x + nums[0], y + nums[1]
        points.append((x, y))
        nums = []
    return points


def viewbox(root: ET.Element) -> Tuple[float, float]:
    _, _, w, h = (float(v) for v in root.get("viewBox").split())
    assert float(root.get("data-width")) == w and float(root.get("data-height")) == h
    assert root.get("width") == "100%" and f"max-width:{root.get('data-width')}px" in root.get("style")
    return w, h


def inside(box: Box, w: float, h: float) -> bool:
    return -EPS <= box.x0 <= box.x1 <= w + EPS and -EPS <= box.y0 <= box.y1 <= h + EPS


# --- dependency geometry -----------------------------------------------------------------------
@pytest.mark.parametrize("seed,n,k,shape", CASES)
def test_dependency_geometry(seed, n, k, shape):
    rnd = random.Random(seed)
    words = [random_word(rnd) for _ in range(n)]
    analyses = random_analyses(rnd, n, k, shape)
    layout = layout_dependency(words, analyses)
    w, h = layout.width, layout.height
    assert len(layout.bands) == k
    assert len(layout.rows) == (1 if k == 2 else k)
    if k == 2:
        assert layout.bands[0].above and not layout.bands[1].above
    xs = layout.x
    assert all(b - a > 0 for a, b in zip(xs, xs[1:]))
    for row in layout.rows:  # words never overlap, and sit inside the picture
        assert all(inside(box, w, h) for box in row.boxes)
        assert all(a.x1 <= b.x0 for a, b in zip(row.boxes, row.boxes[1:]))
        for i, box in enumerate(row.boxes):
            assert abs((box.x0 + box.x1) / 2 - xs[i]) < EPS
    for band, (_, heads, labels) in zip(layout.bands, analyses):
        assert inside(band.name_box, w, h)
        boxes = [arc.label_box for arc in band.arcs]
        for a, b in combinations(boxes, 2):  # no two labels of a band overlap
            assert not a.overlaps(b), (a, b)
        assert all(inside(box, w, h) for box in boxes)
        assert all(band.name_box.x1 < box.x0 for box in boxes)  # names stay clear of the labels
        row = layout.rows[band.row]
        word_top, word_bottom = row.boxes[0].y0, row.boxes[0].y1
        for arc in band.arcs:
            assert arc.head == heads[arc.dependent - 1] and arc.label == labels[arc.dependent - 1]
            assert arc.x_dep == xs[arc.dependent - 1]
            assert arc.x_head == (xs[arc.head - 1] if arc.head else arc.x_dep)
            assert arc.kind == ("root" if arc.head == 0 else "self" if arc.head == arc.dependent else "arc")
            assert arc.level >= 1
            # the label sits on the top line, on the band's side of the words
            assert arc.label_box.y0 < arc.y_top < arc.label_box.y1
            if band.above:
                assert arc.y_top < arc.y_base <= word_top
            else:
                assert word_bottom <= arc.y_base < arc.y_top
        # levels: an arc stands above every arc strictly inside its span
        spans = [(min(a.dependent, a.head), max(a.dependent, a.head), a.level) for a in band.arcs if a.kind == "arc"]
        for lo, hi, level in spans:
            for lo2, hi2, level2 in spans:
                if lo <= lo2 and hi2 <= hi and (lo2, hi2) != (lo, hi):
                    assert level2 < level
                nested = (lo <= lo2 and hi2 <= hi) or (lo2 <= lo and hi <= hi2)
                if level == level2 and (lo, hi) != (lo2, hi2):  # crossing arcs never share a level
                    assert nested or not (lo < hi2 and lo2 < hi)

    # the SVG: every arc's ends at its words' x centres, every coordinate inside the viewBox
    root = parse(dependency_svg(words, analyses))
    assert viewbox(root) == (w, h)
    bands = root.findall(f"{SVG}g[@class='band']")
    assert len(bands) == k
    for band_el, band in zip(bands, layout.bands):
        paths = band_el.findall(f"{SVG}path")
        assert len(paths) == n  # one path per token
        for p in paths:
            dep = int(p.get("data-dep"))
            arc = band.arcs[dep - 1]
            points = path_points(p.get("d"))
            assert all(-EPS <= x <= w + EPS and -EPS <= y <= h + EPS for x, y in points)
            tip = points[-4]  # the end of the line, before the arrow head (m l l)
            assert abs(tip[0] - xs[dep - 1]) < 0.06 and abs(tip[1] - arc.y_base) < 0.06
            if arc.kind == "arc":
                assert abs(points[0][0] - xs[arc.head - 1]) < 0.06 and abs(points[0][1] - arc.y_base) < 0.06
    for el in root.iter():
        if el.get("x") is not None:
            assert -EPS <= float(el.get("x")) <= w + EPS and -EPS <= float(el.get("y")) <= h + EPS


def test_long_words_get_wide_columns():
    words = ["a", "Donaudampfschiffahrtskapitäns", "b", "語語語語語語", "c"]
    layout = layout_dependency(words, [("A", [2, 0, 2, 5, 2], ["x"] * 5), ("B", [2, 0, 2, 2, 4], ["x"] * 5)])
    boxes = layout.rows[0].boxes
    assert all(a.x1 < b.x0 for a, b in zip(boxes, boxes[1:]))
    assert boxes[1].x1 - boxes[1].x0 >= text_width(words[1], 13) - EPS
    assert boxes[3].x1 - boxes[3].x0 >= 6 * 13  # a wide character is 1 em


def test_heights_by_nesting_not_length():
    n = 40
    words = ["w"] * n
    heads = [n] * (n - 1) + [0]  # every word attaches to the last: levels 1..n-1 by nesting
    chain = [k + 2 for k in range(n - 1)] + [0]  # each word to the next: all level 1
    layout = layout_dependency(words, [("A", chain, ["l"] * n), ("B", heads, ["l"] * n)])
    assert {arc.level for arc in layout.bands[0].arcs if arc.kind == "arc"} == {1}
    # the band of short arcs is low, however long the sentence
    assert layout.rows[0].boxes[0].y0 < 3 * 16 + 20


def test_labels_that_would_overlap_are_raised():
    words = ["a", "b", "c", "d"]
    long = "averyverylonglabel"
    layout = layout_dependency(words, [("A", [2, 0, 2, 3], [long, "root", long, long])])
    arcs = layout.bands[0].arcs
    for a, b in combinations(arcs, 2):
        assert not a.label_box.overlaps(b.label_box)
    # the gap between two words widens for the label of the arc joining them
    assert layout.x[1] - layout.x[0] > text_width(long, 10)


def test_bad_input_raises():
    with pytest.raises(ValueError):
        layout_dependency(["a", "b"], [("A", [0], ["x"])])
    with pytest.raises(ValueError):
        layout_dependency(["a", "b"], [("A", [0, 3], ["x", "y"])])
    with pytest.raises(ValueError):
        layout_dependency(["a"], [])
    with pytest.raises(ValueError):
        layout_dependency(["a"], [("A", [0], ["x"])], reference=2)
    with pytest.raises(ValueError):
        phrase_svg(["a", "b"], [("A", [-1], ["S"])])
    with pytest.raises(ValueError):
        phrase_svg(["a"], [("A", [1, 0], ["S", "T"])])  # no root
    with pytest.raises(ValueError):
        phrase_svg(["a"], [("A", [-1, 2, 1], ["S", "T", "U"])])  # a parent cycle


# --- highlighting --------------------------------------------------------------------------------
def differing(root: ET.Element) -> List[Tuple[set, int]]:
    """Per band: the tokens whose arc has the class ``differs``, and how many labels do."""
    out = []
    for band in root.findall(f"{SVG}g[@class='band']"):
        arcs = {int(p.get("data-dep")) for p in band.findall(f"{SVG}path") if "differs" in classes(p)}
        labels = [t for t in band.findall(f"{SVG}text") if "label" in classes(t) and "differs" in classes(t)]
        out.append((arcs, len(labels)))
    return out


def test_dependency_highlighting_two_annotators():
    words = "The old man saw a dog in the park .".split()
    heads = [3, 3, 4, 0, 6, 4, 9, 9, 4, 4]
    labels = ["det", "amod", "nsubj", "root", "det", "obj", "case", "det", "obl", "punct"]
    heads_b, labels_b = list(heads), list(labels)
    heads_b[8] = 6  # token 9 ("park"): another head
    labels_b[1] = "nmod"  # token 2 ("old"): another label
    svg = dependency_svg(words, [("A", heads, labels), ("B", heads_b, labels_b)])
    root = parse(svg)
    assert differing(root) == [({2, 9}, 2), ({2, 9}, 2)]
    muted = [p for p in root.iter(f"{SVG}path") if "differs" not in classes(p)]
    assert len(muted) == 2 * (len(words) - 2) and all(classes(p)[0] == "arc" for p in muted)
    # the root is a stub above its word, like the others highlighted when it differs
    roots = [p for p in root.iter(f"{SVG}path") if "root" in classes(p)]
    assert len(roots) == 2 and all(p.get("data-dep") == "4" for p in roots)
    labels_b[3] = "ROOT"
    assert differing(parse(dependency_svg(words, [("A", heads, labels), ("B", heads_b, labels_b)]))) == \
        [({2, 4, 9}, 3), ({2, 4, 9}, 3)]
    # hovering a word some annotators attach differently shows what each made of it
    word_els = {t.text: t for t in root.iter(f"{SVG}text") if classes(t) == ["word"]}
    assert word_els["park"].find(f"{SVG}title").text == "A: obl of saw; B: obl of dog"
    assert word_els["old"].find(f"{SVG}title").text == "A: amod of man; B: nmod of man"
    assert word_els["dog"].find(f"{SVG}title") is None


def test_dependency_highlighting_three_annotators():
    words = list("abcde")
    a = ("A", [2, 0, 2, 3, 2], ["x", "r", "y", "z", "w"])
    b = ("B", [2, 0, 2, 3, 4], ["x", "r", "y", "z", "w"])  # token 5: another head
    c = ("C", [2, 0, 2, 3, 2], ["x", "r", "q", "z", "w"])  # token 3: another label
    assert differing(parse(dependency_svg(words, [a, b, c]))) == [({3, 5}, 2), ({5}, 1), ({3}, 1)]
    # against B: A and C differ from B on token 5, C also on 3; B differs from someone on both
    assert differing(parse(dependency_svg(words, [a, b, c], reference=1))) == [({5}, 1), ({3, 5}, 2), ({3, 5}, 2)]
    # names at the left of their bands, one band per annotator, each over its own word row
    layout = layout_dependency(words, [a, b, c])
    assert [band.name for band in layout.bands] == ["A", "B", "C"] and len(layout.rows) == 3
    for band in layout.bands:
        row = layout.rows[band.row]
        assert band.name_box.x1 < row.boxes[0].x0
        assert band.above


def test_identical_analyses_highlight_nothing():
    words = list("abc")
    svg = dependency_svg(words, [("A", [2, 0, 2], ["x", "r", "y"])] * 2)
    assert "differs" not in svg.split("</style>")[1]


# --- phrase trees --------------------------------------------------------------------------------
def phrase_differing(root: ET.Element) -> List[List[Tuple[str, str]]]:
    out = []
    for band in root.findall(f"{SVG}g[@class='band']"):
        labels = [t.text for t in band.findall(f"{SVG}text") if "label" in classes(t) and "differs" in classes(t)]
        spans = [p.get("data-span") for p in band.findall(f"{SVG}path") if "differs" in classes(p)]
        tags = [t.text for t in band.findall(f"{SVG}text") if "tag" in classes(t) and "differs" in classes(t)]
        out.append(sorted(zip(labels, spans)) + [("tag", t) for t in tags])
    return out


def test_phrase_one_differing_bracket():
    a = parse_brackets("(S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (DT a) (NN cat))) (. .))")[0]
    b = parse_brackets("(S (NP (DT the) (NN dog)) (VP (VBD saw) (PP (DT a) (NN cat))) (. .))")[0]
    c = parse_brackets("(S (NP (DT the) (NN dog)) (VP (VBD saw) (DT a) (NN cat)) (. .))")[0]
    root = parse(phrase_svg_from_trees([("A", a), ("B", b)]))
    assert phrase_differing(root) == [[("NP", "3-4")], [("PP", "3-4")]]
    # B lacks A's bracket: only the reference's one is highlighted
    root = parse(phrase_svg_from_trees([("A", a), ("C", c)]))
    assert phrase_differing(root) == [[("NP", "3-4")], []]
    assert len([p for p in root.iter(f"{SVG}path") if classes(p) == ["bracket"]]) == 3 + 3
    # a differing preterminal is a highlighted tag
    d = parse_brackets("(S (NP (DT the) (NN dog)) (VP (VBZ saw) (NP (DT a) (NN cat))) (. .))")[0]
    assert phrase_differing(parse(phrase_svg_from_trees([("A", a), ("D", d)]))) == [[("tag", "VBD")], [("tag", "VBZ")]]
    # two trees: the first above the words (root at the top), the second below (root at the bottom)
    layout = layout_phrase(a.words, [("A", a.parent, a.labels), ("C", c.parent, c.labels)])
    top, bottom = layout.bands
    row = layout.rows[0].boxes[0]
    s_top = [br for br in top.brackets if br.label == "S"][0]
    s_bottom = [br for br in bottom.brackets if br.label == "S"][0]
    assert s_top.y == min(br.y for br in top.brackets) < row.y0
    assert s_bottom.y == max(br.y for br in bottom.brackets) > row.y1
    # three trees: stacked, and the reference highlights what any other lacks
    root = parse(phrase_svg_from_trees([("A", a), ("B", b), ("C", c)]))
    assert phrase_differing(root) == [[("NP", "3-4")], [("PP", "3-4")], []]


def test_phrase_scores_colour_the_words():
    a = parse_brackets("(S (NP (DT the) (NN dog)) (VP (VBD barked)))")[0]
    b = parse_brackets("(S (NP (DT the)) (VP (NN dog) (VBD barked)))")[0]
    root = parse(phrase_svg_from_trees([("A", a), ("B", b)], scores=[1.0, 0.0, 0.5]))
    scored = [g for g in root.iter(f"{SVG}g") if classes(g) == ["scored"]]
    assert len(scored) == 3
    fills = [g.find(f"{SVG}rect").get("fill") for g in scored]
    assert fills == [score_colour(1.0), score_colour(0.0), score_colour(0.5)]
    assert fills[0] == "#ffffff" and fills[1] == "#ff7878"
    assert [g.find(f"{SVG}title").text for g in scored] == ["the: 100.00%", "dog: 0.00%", "barked: 50.00%"]
    assert [g.find(f"{SVG}text").text for g in scored] == ["the", "dog", "barked"]
    assert score_colour(float("nan")) == "#dddddd"
    with pytest.raises(ValueError):
        phrase_svg_from_trees([("A", a)], scores=[1.0])


def test_phrase_from_delexicalised_trees():
    a = parse_brackets("(S (NP D N) (VP V (NP D N)))", leaves="categories")[0]
    b = parse_brackets("(S (NP D N) (VP V D N))", leaves="categories")[0]
    root = parse(phrase_svg_from_trees([("A", a), ("B", b)]))
    words = [t.text for t in root.iter(f"{SVG}text") if classes(t) == ["word"]]
    assert words == ["1", "2", "3", "4", "5"]
    tags = [t.text for t in root.iter(f"{SVG}text") if classes(t) == ["tag"]]
    assert tags == ["D", "N", "V", "D", "N"] * 2


def random_phrase_tree(rnd: random.Random, n: int) -> Tuple[List[int], List[str]]:
    """A random tree over n leaves in postorder: parents (-1 root) and labels."""
    parent: List[int] = []
    labels: List[str] = []

    def build(lo: int, hi: int) -> int:  # returns the node index
        if hi - lo == 1 and rnd.random() < 0.7:
            parent.append(-1)
            labels.append(random_label(rnd))
            return len(parent) - 1
        if hi - lo == 1:  # a unary node over a leaf
            kids = [build(lo, hi)]
        else:
            cuts = sorted(rnd.sample(range(lo + 1, hi), rnd.randint(1, min(3, hi - lo - 1))))
            bounds = [lo] + cuts + [hi]
            kids = [build(x, y) for x, y in zip(bounds, bounds[1:])]
        parent.append(-1)
        labels.append(random_label(rnd))
        for kid in kids:
            parent[kid] = len(parent) - 1
        return len(parent) - 1

    build(0, n)
    return parent, labels


PHRASE_CASES = [(seed, n, k) for seed, (n, k) in enumerate((n, k) for n in (5, 17, 33, 60) for k in (2, 3))]


@pytest.mark.parametrize("seed,n,k", PHRASE_CASES)
def test_phrase_geometry(seed, n, k):
    rnd = random.Random(100 + seed)
    words = [random_word(rnd) for _ in range(n)]
    trees = [(f"T{t}",) + random_phrase_tree(rnd, n) for t in range(k)]
    scores = [rnd.random() for _ in range(n)]
    layout = layout_phrase(words, trees, scores)
    w, h = layout.width, layout.height
    for row in layout.rows:
        assert all(a.x1 <= b.x0 for a, b in zip(row.boxes, row.boxes[1:]))
        assert all(inside(box, w, h) for box in row.boxes)
    for band in layout.bands:
        boxes = [b.label_box for b in band.brackets] + [g.label_box for g in band.tags]
        for a, b in combinations(boxes, 2):
            assert not a.overlaps(b), (a, b)
        assert all(inside(box, w, h) for box in boxes)
        assert all(band.name_box.x1 < box.x0 for box in boxes)
        for a, b in combinations(band.brackets, 2):  # bars at one level never overlap
            if a.level == b.level:
                assert a.x1 <= b.x0 or b.x1 <= a.x0
        for br in band.brackets:  # a bar spans its words' columns
            assert br.x0 < layout.x[br.first] <= layout.x[br.last] < br.x1
    root = parse(phrase_svg(words, trees, scores))
    assert viewbox(root) == (w, h)
    for p in root.iter(f"{SVG}path"):
        assert all(-EPS <= x <= w + EPS and -EPS <= y <= h + EPS for x, y in path_points(p.get("d")))
    # the tree's brackets, as ConstituencyTree has them, one drawn per inner node
    assert sum(len(b.brackets) + len(b.tags) for b in layout.bands) == sum(len(t[1]) for t in trees)


# --- escaping --------------------------------------------------------------------------------------
def check_own_markup(root: ET.Element) -> None:
    for el in root.iter():
        assert tag(el) in OWN_TAGS, el.tag
        assert set(el.attrib) <= OWN_ATTRIBUTES, el.attrib
        for value in el.attrib.values():
            assert "javascript:" not in value and "url(" not in value
    # the only style is the module's own
    assert [tag(el) for el in root.iter() if tag(el) == "style"] == ["style"]


def all_text(root: ET.Element) -> str:
    return "\n".join(t for t in root.itertext())


def read_back(s: str) -> str:
    """What the page shows of ``s``: escaped once by the report's escaping (which also isolates
    bidirectional controls), parsed back."""
    return html.unescape(escape_text(s))


@pytest.mark.parametrize("hostile", HOSTILE)
def test_dependency_escaping(hostile):
    words = [hostile, "b", hostile + "c", "d"]
    labels_a = [hostile, "root", "x", hostile + "!"]
    labels_b = [hostile, "root", hostile, "y"]
    svg = dependency_svg(words, [(hostile, [2, 0, 2, 3], labels_a), ("B" + hostile, [2, 0, 4, 2], labels_b)])
    assert "<script" not in svg and "<img" not in svg and "<!--" not in svg.replace("&lt;!--", "")
    root = parse(svg)
    check_own_markup(root)
    content = all_text(root)
    for s in (hostile, hostile + "c", hostile + "!", "B" + hostile):
        assert read_back(s) in content
    # a string shows as text exactly once escaped: the words' elements read the input back
    word_texts = [t for t in root.iter(f"{SVG}text") if classes(t) == ["word"]]
    assert word_texts[0].text == read_back(hostile)
    assert [b.get("data-annotator") for b in root.findall(f"{SVG}g[@class='band']")] == \
        [read_back(hostile), read_back("B" + hostile)]
    assert escape_text(hostile) in svg or len(hostile) > 20


@pytest.mark.parametrize("hostile", HOSTILE)
def test_phrase_escaping(hostile):
    bad = hostile.replace(" ", "_")
    words = [hostile, "b", "c"]
    trees = [(hostile, [2, 2, 4, 4, -1], [bad, "N", "NP", "V", "S"]),
             ("B", [4, 3, 3, 4, -1], [bad, "N", "V", bad, bad + "S"])]
    svg = phrase_svg(words, trees, scores=[0.5, 1.0, 0.0])
    root = parse(svg)
    check_own_markup(root)
    content = all_text(root)
    assert read_back(hostile) in content and read_back(bad) in content and read_back(bad + "S") in content


def test_unusable_characters_and_very_long_strings():
    long = "<svg onload=alert(1)>" * 500
    words = ["a\x00b", long, "c\ud800", "\x1b[31m"]
    svg = dependency_svg(words, [(long, [2, 0, 2, 2], [long, "r", "x\x07", "y"]), ("B", [0, 1, 2, 3], ["a"] * 4)])
    root = parse(svg)
    check_own_markup(root)
    assert long in all_text(root)  # whole in the titles
    assert "a\ufffdb" in all_text(root)
    # shortened on the picture (the whole string in a title): the picture stays narrow
    shown = [t.text for t in root.iter(f"{SVG}text") if classes(t) == ["word"]][1]
    assert len(shown) <= 30 and shown.endswith("\u2026")
    assert float(root.get("data-width")) < 1000
    phrase = phrase_svg(words, [(long, [4, 4, 4, 4, -1], ["A", long, "C\x01", "D", "S"])])
    check_own_markup(parse(phrase))


# --- size --------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,limit", [(25, 15_000), (60, 40_000)])
def test_size(n, limit):
    sizes = []
    for seed in range(20):
        rnd = random.Random(seed)
        words = [random_word(rnd) for _ in range(n)]
        analyses = random_analyses(rnd, n, 2, "any")
        sizes.append(len(dependency_svg(words, analyses).encode("utf-8")))
    assert max(sizes) < limit, sizes


def test_style_can_be_left_out_and_a_least_scale_set():
    svg = dependency_svg(["a", "b"], [("A", [0, 1], ["r", "x"])], inline_style=False, min_scale=0.5)
    root = parse(svg)
    assert root.find(f"{SVG}style") is None
    assert f"min-width:{round(float(root.get('data-width')) / 2)}px" in root.get("style")
