"""Library first (issue 40), the agreement family: ``sa.alpha`` and ``sa.layers`` are the
``alpha`` and ``layers`` commands as functions. The command's ``--json`` (run through typer's
CliRunner) and the function's ``.to_dict()`` on the same inputs and options are equal key for
key and in the same order, signature included (NaN is ``null`` in both, as the command's JSON
writer says it); the functions' defaults are the commands' option defaults; the results show
themselves (``repr``, ``_repr_html_``); the old calls keep their results."""
import inspect
import json
import math
import warnings
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_agreement as sa
from spacy_agreement.agreement.alpha import alpha as engine_alpha
from spacy_agreement.cli import app
from spacy_agreement.cli.alpha import alpha_command
from spacy_agreement.cli.layers import layers_command
from spacy_agreement.cli._output import json_safe
from spacy_agreement.errors import BadOptionError, UndefinedMetricWarning

runner = CliRunner()

DEMO = Path(str(resources.files("spacy_agreement") / "data" / "demo" / "dependency"))
DEMO_DIRS = [DEMO / name for name in ("anna", "ben", "cleo")]
NDT = ("ndt/odin-danish.conll", "ndt/thor-danish.conll")
CDT_ES = ("cdt/es/henrik", "cdt/es/jonas", "cdt/es/lotte", "cdt/es/soren")
SSD = ("ssd/ssd.emily2", "ssd/ssd.woodley")

#: What the command prints but the library does not compute: none (``alpha_seconds`` is an
#: estimate from the kernel's rated speed, the same in one process, not a measured time).
TIMING_KEYS = ()


def command_json(*args):
    done = runner.invoke(app, [str(a) for a in args] + ["--json"])
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def assert_same(cli, result):
    """The command's JSON and the result's ``to_dict()``: the same keys in the same order, the
    same values (an undefined figure None, as the command's null: ``to_dict()`` is valid JSON as it
    is), signature included."""
    mine = result.to_dict()
    for key in TIMING_KEYS:
        cli.pop(key, None)
        mine.pop(key, None)
    assert list(cli) == list(mine)
    assert cli == json.loads(json.dumps(mine, allow_nan=False)) == json_safe(mine)
    assert cli["signature"] == result.signature


# --------------------------------------------------------------------------- alpha


def test_alpha_two_conll_files(iaa):
    a, b = (iaa / f for f in NDT)
    result = sa.alpha(a, b)
    assert_same(command_json("alpha", a, b), result)
    assert len(result.to_dict()) > len(result.alpha_dict())  # the accuracies and the input facts
    assert result.las == result.accuracy.scores["las"] and result.corpus.annotators == ("odin-danish", "thor-danish")
    assert sa.alpha([str(a), str(b)]).to_dict() == result.to_dict()  # one list of paths too


@pytest.mark.parametrize("options, flags", [
    ({"method": "exact", "ignore_subtypes": True, "case_sensitive_root": True, "size": "tree"},
     ["--alpha", "exact", "--ignore-subtypes", "--case-sensitive-root", "--size", "tree"]),
    ({"delta": ["plain", "norm"], "backend": "serial"}, ["--delta", "plain", "--delta", "norm", "--backend", "serial"]),
    ({"bootstrap": 200, "seed": 7}, ["--bootstrap", "200", "--seed", "7"]),
    ({"method": "sampled", "seed": 3, "sample_pairs": 500}, ["--alpha", "sampled", "--seed", "3",
                                                            "--sample-pairs", "500"]),
    ({"sample_pairs": 400, "seed": 2}, ["--sample-pairs", "400", "--seed", "2"]),  # alone: the sampled estimate
    ({"alpha_budget": 10.0}, ["--alpha-budget", "10"]),  # over the budget: sampled
    ({"method": "off"}, ["--alpha", "off"]),
    ({"strict": True, "threads": 1}, ["--strict", "--threads", "1"]),
    ({"signature": "alpha|d:plain|size:tree|cycles:drop|partial:missing|cost:none|method:exact|boot:0|xmism:no|"
                   "sub:yes|rootfold:yes|v:0.3.0"},
     ["--signature", "alpha|d:plain|size:tree|cycles:drop|partial:missing|cost:none|method:exact|boot:0|xmism:no|"
                     "sub:yes|rootfold:yes|v:0.3.0"]),
], ids=["labels-size", "deltas", "bootstrap", "sampled", "sample-pairs", "budget", "off", "strict", "signature"])
def test_alpha_options(iaa, options, flags):
    a, b = (iaa / f for f in NDT)
    assert_same(command_json("alpha", a, b, *flags), sa.alpha(a, b, **options))


def test_alpha_annotator_dirs(released_iaa):
    dirs = [released_iaa / d for d in CDT_ES]
    result = sa.alpha(*dirs, dirs=True)
    assert_same(command_json("alpha", "--dirs", *dirs), result)
    assert len(result.corpus.annotators) == 4 and result.to_dict()["items_missing_annotators"] > 0


def test_alpha_bracketed_pair(released_iaa):
    dirs = [released_iaa / d for d in SSD]
    result = sa.alpha(*dirs, dirs=True)
    assert_same(command_json("alpha", "--dirs", *dirs), result)
    assert result.corpus.family == "constituency" and "jaccard" in result.to_dict()
    assert_same(command_json("alpha", "--dirs", *dirs, "--exclude-mismatched", "--format", "bracket"),
                sa.alpha(*dirs, dirs=True, exclude_mismatched=True, format="bracket"))


ROW = "{}\tw{}\t_\tX\t_\t_\t{}\t{}\t_\t_\n"


def _write(path, sentences):
    path.write_text("".join(f"# sent_id = s{k}\n" + "".join(ROW.format(i, i, h, r) for i, (h, r) in enumerate(rows, 1))
                            + "\n" for k, rows in enumerate(sentences, 1)), encoding="utf-8")
    return path


def test_alpha_partial_attach(tmp_path):
    full = [[(2, "nsubj"), (0, "root"), (2, "obj")], [(0, "root"), (1, "amod")]]
    other = [[(2, "nsubj"), (0, "root"), (2, "iobj")], [(0, "root"), (1, "nmod")]]
    partial = [[(2, "nsubj"), (0, "root"), ("_", "_")], [(0, "root"), (1, "amod")]]
    paths = [_write(tmp_path / f"{n}.conllu", s) for n, s in (("a", full), ("b", other), ("c", partial))]
    for options, flags in (({}, []), ({"partial": "attach"}, ["--partial", "attach"])):
        result = sa.alpha(*paths, **options)
        assert_same(command_json("alpha", *paths, *flags), result)
    assert result.to_dict()["tokens_attached"] == 1 and "alpha_plain_partial_missing" in result.to_dict()


def test_alpha_of_a_corpus_is_the_command_on_its_files(iaa):
    a, b = (iaa / f for f in NDT)
    corpus = sa.load_annotations([a, b])
    assert_same(command_json("alpha", a, b), sa.alpha(corpus))
    settings = sa.AlphaSettings(method="exact", deltas=("plain",), bootstrap=50, seed=4)
    assert_same(command_json("alpha", a, b, "--alpha", "exact", "--delta", "plain", "--bootstrap", "50", "--seed", "4"),
                sa.alpha(corpus, settings))
    assert sa.alpha(corpus, settings=settings).to_dict() == sa.alpha(corpus, settings).to_dict()
    given_back = sa.alpha(corpus, settings=settings).signature  # a signature given back, as --signature
    assert sa.alpha(corpus, settings=given_back).to_dict() == sa.alpha(corpus, signature=given_back).to_dict() \
        == sa.alpha(corpus, settings).to_dict()


def test_old_calls_keep_their_results(iaa):
    corpus = sa.load_annotations([iaa / f for f in NDT])
    engine = engine_alpha(corpus)
    assert engine.accuracy is None and engine.corpus is None and "las" not in engine.to_dict()
    assert engine.to_dict() == engine.alpha_dict()
    new = sa.alpha(corpus)
    assert new.alphas == engine.alphas and new.alpha_dict() == engine.alpha_dict()
    # the settings' own names, a settings object positionally, a label cost positionally (0.2)
    exact = sa.alpha(corpus, deltas=("plain",), method="exact", n_threads=1, budget=1e12, seconds=30)
    assert exact.alphas == sa.alpha(corpus, delta=["plain"], method="exact", threads=1).alphas
    assert sa.alpha(corpus, sa.AlphaSettings(deltas=("norm",))).alphas.keys() == {"norm"}
    cost = sa.alpha(corpus, lambda x, y: 0.0 if x == y else 0.5)
    assert cost.settings.label_cost is not None and cost.alpha_plain != new.alpha_plain
    with pytest.raises(TypeError):
        sa.alpha(corpus, alpha_budget=10, budget=10)
    with pytest.raises(BadOptionError):
        sa.alpha(corpus, dirs=True)  # a reading option with data already read
    # items of bare ordered trees: α alone, as the engine computes it
    node = lambda label: sa.parse_brackets(f"({label})")[0]  # noqa: E731
    items = [[node("A"), node("B")], [node("A"), node("A")], [node("B"), node("B")]]
    assert sa.alpha(items).alpha_plain == engine_alpha(items).alpha_plain


def test_alpha_off_refuses_alpha_options(iaa):
    with pytest.raises(BadOptionError, match='method="off"'):
        sa.alpha(*(iaa / f for f in NDT), method="off", bootstrap=10)


# --------------------------------------------------------------------------- layers


def test_layers_ndt_pair(iaa):
    a, b = (iaa / f for f in NDT)
    result = sa.layers(a, b)
    assert_same(command_json("layers", a, b), result)
    assert result.to_dict() == result.to_json()
    flags = ["--layer", "upos", "--layer", "head", "--layer", "deprel", "--no-per-feature", "--reference",
             "thor-danish", "--unannotated", "value"]
    assert_same(command_json("layers", a, b, *flags),
                sa.layers(a, b, layer=["upos", "head", "deprel"], no_per_feature=True, reference="thor-danish",
                          unannotated="value"))


@pytest.mark.filterwarnings("ignore::spacy_agreement.UndefinedMetricWarning")
def test_layers_three_annotators(released_iaa, tmp_path):
    dirs = [released_iaa / d for d in CDT_ES[:3]]
    assert_same(command_json("layers", "--dirs", *dirs, "--any-forms"), sa.layers(*dirs, dirs=True, any_forms=True))
    target = tmp_path / "d.tsv"
    result = sa.layers(*DEMO_DIRS, dirs=True, export=target)
    cli_target = tmp_path / "cli.tsv"
    assert_same(command_json("layers", "--dirs", *DEMO_DIRS, "--export", cli_target), result)
    assert result.exported > 0 and target.read_text(encoding="utf-8") == cli_target.read_text(encoding="utf-8")


def test_layers_of_a_corpus_and_settings():
    corpus = sa.load_annotations(DEMO_DIRS, dirs=True)
    signature = "layers|l:upos,deprel|misc:|perfeat:no|ref:|v:0.3.0"
    cli = command_json("layers", "--dirs", *DEMO_DIRS, "--signature", signature)
    assert_same(cli, sa.layers(corpus, signature=signature))
    assert_same(cli, sa.layers(corpus, settings=signature))
    assert_same(cli, sa.layers(corpus, sa.LayerSettings(layers=("upos", "deprel"), per_feature=False)))
    assert sa.layers(corpus, layers=("upos",)).to_dict() == sa.agreement_by_layer(corpus, layers=("upos",)).to_dict()
    with pytest.raises(BadOptionError):
        sa.layers(corpus, strict=True)


# --------------------------------------------------------------------------- defaults


#: Options that only shape what the command prints: not parameters of the function.
PRINTING = {"--json", "--tsv", "--quiet", "--output", "--worst", "--details"}
#: The long options whose parameter is named otherwise (documented: ``--alpha`` is ``method``).
RENAMED = {"--alpha": "method"}


def option_defaults(command):
    """``{library parameter: default}`` of a command's options and arguments, by their long flags."""
    out = {}
    for name, param in inspect.signature(command).parameters.items():
        info = param.default
        decls = [d for d in (getattr(info, "param_decls", None) or ()) if d.startswith("--")]
        if not decls:
            continue  # the paths
        flag = decls[0]
        if flag in PRINTING:
            continue
        default = info.default
        out[RENAMED.get(flag, flag[2:].replace("-", "_"))] = getattr(default, "value", default)
    return out


@pytest.mark.parametrize("function, command", [(sa.alpha, alpha_command), (sa.layers, layers_command)],
                         ids=["alpha", "layers"])
def test_the_functions_defaults_are_the_commands(function, command):
    options = option_defaults(command)
    parameters = {name: p.default for name, p in inspect.signature(function).parameters.items()
                  if p.kind is p.KEYWORD_ONLY and name != "settings"}
    assert set(parameters) == set(options)
    for name, default in options.items():
        assert parameters[name] == default, name


# --------------------------------------------------------------------------- how the results show themselves


def test_results_show_themselves(iaa):
    a, b = (iaa / f for f in NDT)
    result = sa.alpha(a, b, bootstrap=50)
    line = repr(result)
    assert "\n" not in line and "alpha plain 98.38" in line and "LAS 93.97" in line and result.signature in line
    page = result._repr_html_()
    assert page.startswith("<div>") and "<table" in page and result.signature in page.replace("&#x27;", "'")
    assert "LAS" in page and "most disagreement" in page and "interval" in page
    off = sa.alpha(a, b, method="off")
    assert "alpha off" in repr(off) and "alpha not computed" in off._repr_html_()
    layers = sa.layers(a, b, layer=["upos", "head"])
    assert "\n" not in repr(layers) and "upos 99.80" in repr(layers) and layers.signature in repr(layers)
    table = layers._repr_html_()
    assert "<table" in table and "head" in table and "confused" in table and layers.signature in table
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "alpha plain" in repr(engine_alpha(sa.load_annotations([a, b]), deltas=("plain",)))


def test_html_escapes_what_comes_from_the_input():
    one, other = sa.DependencyTree.create([2, 0], ["x", "root"]), sa.DependencyTree.create([2, 0], ["y", "root"])
    corpus = sa.Corpus.from_items([{"<b>a</b>": one, "b&c": other}, {"<b>a</b>": one, "b&c": one}],
                                  names=["<i>item</i>", "plain"])
    page = sa.alpha(corpus, method="exact")._repr_html_()
    assert "<b>" not in page and "&lt;b&gt;a&lt;/b&gt;" in page and "b&amp;c" in page
    assert "&lt;i&gt;item&lt;/i&gt;" in page and "<i>" not in page
    with pytest.warns(UndefinedMetricWarning):  # every annotation the same: α undefined, shown as n/a
        same = sa.alpha([[one, one], [one, one]])
    assert math.isnan(same.alpha_plain) and "n/a" in same._repr_html_() and "n/a" in repr(same)
