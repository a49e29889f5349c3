"""The drawing's shortcuts (issue 50: judging pages at treebank scale) against the plain rules they
stand for, on random input: coordinates written from a cache, text widths from a cache, strings
cleaned and escaped with a fast path for the usual ones, and the judging pictures laid out
without the third band they used to place and never showed."""
import html
import random
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from spacy_agreement import DependencyTree
from spacy_agreement.report import escape, svg_parts
from spacy_agreement.report.judging_pictures import (_NAMELESS_TIP, _alone, _dependency_marks, _nameless,
                                                      analysis_pictures)
from spacy_agreement.report.svg import layout_dependency, render_dependency

from ..strategies import dependency_heads

# every kind of character the input may hold: ASCII, controls, accents, wide, bidi controls,
# combining marks, lone surrogates, the non-characters XML refuses, markup
CHARACTERS = st.one_of(st.characters(), st.sampled_from(list("aZ0 .;:<>&\"'\t\n\x00\x1f\x7f\u00e9\u0301\u4e00\u202e"
                                                             "\u2066\u2069\ud800\ufffe\uffff")))
TEXTS = st.text(CHARACTERS, max_size=12)


def written(v: float) -> str:  # the rule _n states: an integer, or one decimal
    r = round(float(v), 1)
    return str(int(r)) if r == int(r) else f"{r:.1f}"


@given(st.lists(st.one_of(st.floats(-1e6, 1e6, allow_nan=False), st.integers(-10 ** 6, 10 ** 6),
                          st.sampled_from([0.05, 0.15, 0.25, -0.05, -0.0, 2.5, 1e-9])), max_size=30))
def test_coordinates_from_the_cache_as_the_rule_writes_them(values):
    for v in values + values[::-1]:  # the second time from the cache
        assert svg_parts._n(v) == written(v)


@given(st.lists(st.tuples(TEXTS, st.sampled_from([10, 11, 12, 13, 10.0]), st.booleans()), max_size=20))
def test_text_widths_from_the_cache_as_summed(cases):
    for s, size, bold in cases + cases:
        expected = sum(svg_parts._char_em(ch) for ch in s) * size * svg_parts._SAFETY * (1.08 if bold else 1.0)
        assert svg_parts.text_width(s, size, bold) == expected


@given(TEXTS)
def test_clean_as_the_xml_rule(s):
    assert svg_parts._clean(s) == re.sub("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]", "\ufffd", s)


@given(st.lists(TEXTS, max_size=10))
def test_escaped_from_the_cache_as_html_escape(strings):
    for s in strings + strings:
        assert escape.text(s) == html.escape(escape.close_bidi(s), quote=True)


def test_the_caches_stay_bounded():
    for k in range((1 << 16) + 10):
        svg_parts._n(k + 0.25)
        escape.text(f"w{k}")
    for cached in (svg_parts._n, svg_parts.text_width, escape._escaped):
        info = cached.cache_info()
        assert info.maxsize == 1 << 16 and info.currsize <= info.maxsize
    assert svg_parts._n(3.25) == "3.2" and escape.text("a<b") == "a&lt;b"


@given(st.lists(st.sampled_from(["<title>", "</title>", ": ", "; ", ":", ";", " ", "not in", "x", "of"]),
                max_size=40))
@example(["<title>", "x", "; ", "not in", ": ", "</title>"])  # a phrase tree's tip: the expression's own work
@example(["<title>", ": ", "of x", "; ", ": ", "not in", ": ", "</title>"])  # three replacements would take too much
def test_nameless_tips_as_the_expression_takes_them_out(parts):
    svg = "".join(parts)
    assert _nameless(svg) == _NAMELESS_TIP.sub(lambda m: m.group(1) or "", svg)


def three_band_pictures(words, a, b):
    """The judging pictures as they were made before: three stacked bands (A, B and A again),
    each of the first two drawn alone."""
    layout = layout_dependency(words, [("", t.heads.tolist(), t.deprels) for t in (a, b, a)])
    differ = _dependency_marks(a, b)
    return {name: _NAMELESS_TIP.sub(lambda m: m.group(1) or "",
                                    render_dependency(_alone(layout, k, differ), inline_style=False))
            for k, name in enumerate(("A", "B"))}


@st.composite
def sentence_pair(draw):
    heads, rels = draw(dependency_heads(max_tokens=14, allow_cycles=draw(st.booleans())))
    n = len(heads)
    rnd = random.Random(draw(st.integers(0, 2 ** 32)))
    other_heads = [h if rnd.random() < 0.6 else rnd.randint(0, n) for h in heads]
    labels = ["".join(rnd.choice("abcdefghijklmnop:WQ") for _ in range(rnd.randint(1, 14))) for _ in range(n)]
    other_labels = [l if rnd.random() < 0.7 else l[::-1] + "x" * rnd.randint(0, 9) for l in labels]
    words = [draw(st.text(CHARACTERS, min_size=1, max_size=rnd.choice([2, 8, 35]))) for _ in range(n)]
    a = DependencyTree.create(heads, labels, words)
    b = DependencyTree.create(other_heads, other_labels, words)
    return words, a, b


@settings(max_examples=150, deadline=None)
@given(sentence_pair())
def test_judging_pictures_as_with_the_third_band(case):
    words, a, b = case
    assert analysis_pictures(words, a, b) == three_band_pictures(words, a, b)
