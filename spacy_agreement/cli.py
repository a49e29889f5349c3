"""The ``spacy-agreement`` command line (typer, as spaCy's own CLI).

Bad input ends with exit code 1 and one line ``file:sentence:token: message`` on stderr.
"""
from __future__ import annotations

import json
import math
import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any, Dict, List, Optional

import typer

from .agreement.accuracy import pairwise_accuracy
from .agreement.alpha import alpha as compute_alpha
from .corpus import Corpus, load_annotator_dirs, load_parallel_files
from .errors import AgreementError
from .report.text import summary, text_report

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="How far do two or more syntactic analyses of the same text agree?",
)


class InputFormat(str, Enum):
    conll = "conll"
    bracket = "bracket"


class SizeConvention(str, Enum):
    annotation = "annotation"
    tree = "tree"


def _fail(message: str) -> None:
    typer.echo(message, err=True)
    raise typer.Exit(code=1)


@contextmanager
def _bad_input_exits():
    """Turn input errors into exit code 1 and one line ``file:sentence:token: message``."""
    try:
        yield
    except AgreementError as exc:
        _fail(str(exc))
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError) as exc:
        _fail(f"{getattr(exc, 'filename', None) or ''}: {exc.strerror or exc}".lstrip(": "))
    except UnicodeDecodeError as exc:
        _fail(f"input is not UTF-8 text: {exc}")
    except ValueError as exc:
        _fail(str(exc))


def _json_safe(values: Dict[str, Any]) -> Dict[str, Any]:
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in values.items()}


def run_alpha(corpus: Corpus, as_json: bool, strict: bool, size: str, worst: int, tsv: bool = False,
              options: Optional[Dict[str, Any]] = None, sample_pairs: Optional[int] = None,
              bootstrap: Optional[int] = None, pqgram: bool = False, exclude_mismatched: bool = False) -> str:
    """α and accuracies of a corpus as the CLI prints them."""
    cycles = "raise" if strict else "drop"
    accuracy = pairwise_accuracy(corpus, strict=strict, exclude_mismatched=exclude_mismatched)
    if sample_pairs:
        from .agreement.estimate import sampled_alpha

        estimate = sampled_alpha(corpus, pairs=sample_pairs, cycles=cycles, size=size)
        values = {"kind": corpus.kind, "annotators": len(corpus.annotators), "method": estimate.method,
                  **estimate.to_dict(), **accuracy.to_dict()}
        if as_json or tsv:
            return json.dumps(_json_safe(values), indent=2) if as_json else _tsv(values)
        return "\n".join(f"alpha {k}: {estimate.estimate[k]:.4f} ({100 * estimate.confidence:.0f}% interval "
                         f"{estimate.low[k]:.4f} .. {estimate.high[k]:.4f}, {sample_pairs} sampled pairs)"
                         for k in ("plain", "diff", "norm"))
    result = compute_alpha(corpus, cycles=cycles, size=size, **(options or {}))
    values = summary(corpus, result, accuracy)
    if pqgram:
        from .agreement.pqgram import pqgram_alpha

        values["alpha_pqgram"] = pqgram_alpha(corpus, cycles=cycles, size=size).alpha
    interval = None
    if bootstrap:
        from .agreement.estimate import bootstrap_alpha

        interval = bootstrap_alpha(result, samples=bootstrap)
        values.update({k: v for k, v in interval.to_dict().items() if k.endswith(("_low", "_high"))})
    if as_json:
        return json.dumps(_json_safe(values), indent=2)
    if tsv:
        return _tsv(values)
    if pqgram and interval is None:
        return text_report(corpus, result, accuracy, worst) + f"\n\nalpha over pq-grams (p=2, q=3): {values['alpha_pqgram']:.4f}"
    if interval is not None:
        lines = [f"bootstrap ({bootstrap} resamples of items, expected disagreement fixed), "
                 f"{100 * interval.confidence:.0f}% intervals:"]
        lines += [f"  alpha {k}: {interval.low[k]:.4f} .. {interval.high[k]:.4f}" for k in ("plain", "diff", "norm")]
        return text_report(corpus, result, accuracy, worst) + "\n\n" + "\n".join(lines)
    return text_report(corpus, result, accuracy, worst)


@app.command("alpha")
def alpha_command(
    paths: List[Path] = typer.Argument(..., help="Two or more parallel files (one annotator each), or directories with --dirs."),
    dirs: bool = typer.Option(False, "--dirs", help="PATHS are annotator directories holding PREFIX-NAME.conll/.tree files."),
    fmt: Optional[InputFormat] = typer.Option(None, "--format", help="Input format (default: from the content: bracket when a file starts with '(')."),
    as_json: bool = typer.Option(False, "--json", help="Print one flat JSON object."),
    tsv: bool = typer.Option(False, "--tsv", help="Print key and value, tab-separated."),
    strict: bool = typer.Option(False, "--strict", help="Errors instead of counts: tokens that are their own head, sentences without a root, other head cycles, annotations with different tokens."),
    single_root: bool = typer.Option(False, "--single-root", help="Require exactly one root token per sentence."),
    size: SizeConvention = typer.Option(SizeConvention.annotation, "--size", help="|x| in delta-diff/norm: annotation (the paper's: tokens + root, or the leaves of a phrase tree) or tree (nodes of the compared tree)."),
    exclude_mismatched: bool = typer.Option(False, "--exclude-mismatched", help="Leave phrase-tree items whose annotations differ in leaf count out of Jaccard (default: scored and counted)."),
    worst: int = typer.Option(5, "--worst", help="How many of the most disagreeing items to list."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Threads for the all-pairs sum (default: all cores)."),
    backend: str = typer.Option("threads", "--backend", help="threads, serial or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address (default: a local cluster)."),
    sample_pairs: Optional[int] = typer.Option(None, "--sample-pairs", help="Estimate the expected disagreement from this many random pairs, with a confidence interval."),
    bootstrap: Optional[int] = typer.Option(None, "--bootstrap", help="Add a bootstrap confidence interval over items with this many resamples."),
    pqgram: bool = typer.Option(False, "--pqgram", help="Add alpha over the pq-gram distance (p=2, q=3), a fast approximation."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the result to this file instead of stdout."),
) -> None:
    """Krippendorff's alpha (delta plain, diff, norm) and LAS/UAS/LA or bracket Jaccard."""
    fmt_value = fmt.value if fmt else None
    with _bad_input_exits():
        cycles = "raise" if strict else "drop"
        if dirs:
            corpus = load_annotator_dirs(paths, fmt_value, single_root=single_root, cycles=cycles)
        else:
            corpus = load_parallel_files(paths, fmt_value, single_root=single_root, cycles=cycles)
        options = {"backend": backend, "n_threads": threads, "scheduler": scheduler,
                   "progress": not quiet and sys.stderr.isatty()}
        text = run_alpha(corpus, as_json, strict, size.value, worst, tsv, options, sample_pairs, bootstrap, pqgram,
                         exclude_mismatched)
    _emit(text, output)


def _tsv(values: Dict[str, Any]) -> str:
    """A flat result as two tab-separated columns, key and value."""
    return "\n".join(f"{k}\t{'' if v is None else v}" for k, v in _json_safe(values).items())


def _emit(text: str, output: Optional[Path]) -> None:
    if output is None:
        typer.echo(text)
    else:
        output.write_text(text + "\n", encoding="utf-8")


PUNCT_HELP = ("Punctuation rule(s), comma-separated: upos (UPOS PUNCT), label (a --punct-label relation), "
              "form (CoNLL-07 eval.pl: the form is Unicode punctuation only; Plank et al. 2015). "
              "Default upos,label.")
VERB_HELP = "Gold tags of verbs for UCP/LCP, comma-separated (default VERB; e.g. VA,VE for CDT, V for Croatian)."
CONTENT_HELP = ("Gold tags of content words for LAS content/function, comma-separated "
                "(default ADJ,NOUN,PROPN,VERB; e.g. AN,NC,NP,VA,VE for CDT).")
NED_HELP = "NED variant: schwartz (reversed edges and grandparents count) or undirected (reversed edges only)."
IGNORE_FORMS_HELP = "Compare sentences by token count only (a parser that rewrote forms, e.g. numbers as <num>)."


def _tags(value: Optional[str], default: Any) -> Any:
    if value is None:
        return default
    tags = frozenset(t.strip() for t in value.split(",") if t.strip())
    if not tags:
        _fail(f"no tags in {value!r}")
    return tags


def _metric_options(no_punct: bool, punct: str, punct_label: Optional[List[str]] = None,
                    verb_tags: Optional[str] = None, content_tags: Optional[str] = None, **rest: Any):
    """EvaluationOptions from the shared command-line options (bad values exit with code 1)."""
    from .evaluation.parser_metrics import EvaluationOptions

    base = EvaluationOptions()
    try:
        return EvaluationOptions(
            exclude_punct=no_punct, punct_rules=punct,
            punct_labels=frozenset(punct_label) if punct_label else base.punct_labels,
            verb_upos=_tags(verb_tags, base.verb_upos), content_upos=_tags(content_tags, base.content_upos), **rest)
    except ValueError as exc:
        _fail(str(exc))


@app.command("evaluate")
def evaluate_command(
    gold: Path = typer.Argument(..., help="Gold CoNLL-U/CoNLL-X file."),
    pred: Optional[Path] = typer.Argument(None, help="Predicted CoNLL-U/CoNLL-X file (or use --model)."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="A spaCy pipeline (name or path) to parse the gold words with."),
    as_json: bool = typer.Option(False, "--json", help="Print one flat JSON object."),
    tsv: bool = typer.Option(False, "--tsv", help="Print key and value, tab-separated."),
    no_punct: bool = typer.Option(False, "--no-punct", help="Exclude punctuation (as --punct defines it)."),
    punct: str = typer.Option("upos,label", "--punct", help=PUNCT_HELP),
    punct_label: List[str] = typer.Option(["punct"], "--punct-label", help="Relations that mark punctuation."),
    verb_tags: Optional[str] = typer.Option(None, "--verb-tags", help=VERB_HELP),
    content_tags: Optional[str] = typer.Option(None, "--content-tags", help=CONTENT_HELP),
    ned: str = typer.Option("schwartz", "--ned", help=NED_HELP),
    ignore_subtypes: bool = typer.Option(False, "--ignore-subtypes", help="Compare nmod:poss as nmod."),
    skip_mismatched: bool = typer.Option(False, "--skip-mismatched", help="Skip (and count) sentences whose tokens differ instead of failing."),
    ignore_forms: bool = typer.Option(False, "--ignore-forms", help=IGNORE_FORMS_HELP),
    strict: bool = typer.Option(False, "--strict", help="Tokens that are their own head, sentences without a root and other head cycles are errors (default: scored as they are, a self-head is a wrong attachment)."),
    ted_norm: str = typer.Option("sum", "--ted-norm", help="TED accuracy normaliser: sum, max or gold."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the result to this file."),
) -> None:
    """Every parser metric (LAS, UAS, LA, NED, TED, UCP, LCP, POS-wise and root-weighted LAS,
    and CLAS, MLAS, BLEX of the CoNLL 2018 shared task)."""
    from .adapters.conll import read_conll
    from .evaluation.parser_metrics import evaluate

    if (pred is None) == (model is None):
        _fail("give either a predicted file or --model, not both or neither")
    options = _metric_options(no_punct, punct, punct_label, verb_tags, content_tags,
                              ignore_subtypes=ignore_subtypes, ted_norm=ted_norm, ned=ned)
    with _bad_input_exits():
        cycles = "raise" if strict else "drop"
        gold_trees = read_conll(gold, cycles=cycles)
        if model is not None:
            import spacy

            from .integrations.spacy_parse import parse_with_pipeline

            try:
                nlp = spacy.load(model)
            except OSError as exc:
                _fail(f"{model}: cannot load the spaCy pipeline ({exc})")
            if "parser" not in nlp.pipe_names and not any(
                    getattr(p, "moves", None) is not None for _, p in nlp.pipeline):
                _fail(f"{model}: the pipeline has no parser")
            pred_trees = parse_with_pipeline(nlp, gold_trees, progress=not quiet and sys.stderr.isatty())
        else:
            pred_trees = read_conll(pred, cycles=cycles)
        result = evaluate(gold_trees, pred_trees, options, skip_mismatched, check_forms=not ignore_forms)
    values = result.to_dict()
    if as_json or tsv:
        _emit(json.dumps(_json_safe(values), indent=2) if as_json else _tsv(values), output)
        return
    lines = [f"{values['sentences']} sentences, {values['tokens']} tokens scored, {values['verbs']} verbs"]
    names = {"las_content": "LAS content", "las_function": "LAS function", "las_root_weighted": "LAS root-weighted"}
    for key, value in result.scores.items():
        shown = "  n/a" if math.isnan(value) else f"{100 * value:5.1f}"
        lines.append(f"  {names.get(key, key.upper()):<18} {shown}")
    if result.skipped:
        lines.append(f"skipped {len(result.skipped)} sentence(s) whose tokens differ:")
        lines.extend(f"  {where}" for where in result.skipped[:10])
    _emit("\n".join(lines), output)


@app.command("judgments")
def judgments_command(
    path: Path = typer.Argument(..., help="JSON Lines file of judged items, or a folder in the layout of the Plank et al. (2015) release: gold.conll, parser1.conll, parser2.conll, annotated.csv (format: spacy_agreement.evaluation.judgments)."),
    as_json: bool = typer.Option(False, "--json", help="Print one flat JSON object."),
    no_punct: bool = typer.Option(False, "--no-punct", help="Exclude punctuation from the metrics (as --punct defines it)."),
    punct: str = typer.Option("upos,label", "--punct", help=PUNCT_HELP),
    verb_tags: Optional[str] = typer.Option(None, "--verb-tags", help=VERB_HELP),
    content_tags: Optional[str] = typer.Option(None, "--content-tags", help=CONTENT_HELP),
    ned: str = typer.Option("schwartz", "--ned", help=NED_HELP),
    kappa: str = typer.Option("cohen", "--kappa", help="Kappa between judges: cohen (mean pairwise Cohen's kappa, the paper's) or fleiss."),
    parses: str = typer.Option("parser1,parser2", "--parses", help="Folder input: the CoNLL files (no .conll) of parse A and parse B."),
    colours: str = typer.Option("blue,red", "--colours", help="Folder input: the annotated.csv values meaning A and B."),
    ignore_forms: bool = typer.Option(False, "--ignore-forms", help=IGNORE_FORMS_HELP),
    ties: str = typer.Option("half", "--ties", help="A metric's tie counts as half an agreement (half), is skipped (skip), or counts as preferring B (b) or A (a)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the MACE restarts."),
    metric: List[str] = typer.Option(
        ["las", "uas", "la", "ned", "ted", "lcp", "ucp"], "--metric",
        help="Metrics to compare (repeat the option); also las_content, las_function, las_root_weighted."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the result to this file."),
) -> None:
    """Which metric agrees with the people who judge parses (Plank et al. 2015, Tables 1, 3-5)."""
    from .evaluation.judgments import analyse_judgments, format_analysis, load_judgments

    options = _metric_options(no_punct, punct, None, verb_tags, content_tags, ned=ned)
    with _bad_input_exits():
        items = load_judgments(path, parses=_pair(parses, "--parses"), colours=_pair(colours, "--colours")) \
            if path.is_dir() else load_judgments(path)
        result = analyse_judgments(items, metrics=metric, options=options, ties=ties, seed=seed, kappa=kappa,
                                   check_forms=not ignore_forms)
    text = json.dumps(_json_safe(result.to_dict()), indent=2) if as_json else format_analysis(result)
    _emit(text, output)


def _pair(value: str, option: str) -> tuple:
    parts = tuple(v.strip() for v in value.split(","))
    if len(parts) != 2 or not all(parts):
        _fail(f"{option} takes two comma-separated names, got {value!r}")
    return parts


@app.command("synthetic")
def synthetic_command(
    corpus: Path = typer.Argument(..., help="A corpus taken as correct: CoNLL file or bracketed trees."),
    fmt: Optional[InputFormat] = typer.Option(None, "--format", help="conll or bracket (default: from the content)."),
    sample: int = typer.Option(100, "--sample", help="How many sentences to sample."),
    runs: int = typer.Option(10, "--runs", help="Runs per point."),
    seed: int = typer.Option(0, "--seed", help="Seed of the sampling and the noise."),
    uniform: bool = typer.Option(False, "--uniform", help="Also the uniform structural-noise model (dependency trees)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object with the list of points."),
    tsv: bool = typer.Option(False, "--tsv", help="Print the points as TSV."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Write one PNG per setting into this directory (needs matplotlib)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the result to this file."),
) -> None:
    """Skjaerholt (2014) section 3: alpha and LAS under label and structural noise (Figures 3-5)."""
    from .adapters.brackets import read_brackets
    from .adapters.conll import read_conll
    from .corpus import guess_format
    from .experiments.synthetic import points_tsv, plot_points, run_experiment

    kind = fmt.value if fmt else guess_format(corpus)
    with _bad_input_exits():
        trees = read_conll(corpus) if kind == "conll" else read_brackets(corpus)
        models = ("paper", "uniform") if uniform else ("paper",)
        points = run_experiment(trees, sample=sample, runs=runs, seed=seed, models=models,
                                progress=not quiet and sys.stderr.isatty())
    if plot is not None:
        try:
            for path in plot_points(points, plot):
                typer.echo(f"wrote {path}", err=True)
        except RuntimeError as exc:
            _fail(str(exc))
    if as_json:
        text = json.dumps({"corpus": str(corpus), "sample": sample, "runs": runs, "seed": seed,
                           "points": [_json_safe(p.to_dict()) for p in points]}, indent=2)
    elif tsv:
        text = points_tsv(points)
    else:
        lines = [f"{'setting':<7} {'model':<8} {'p':>4}  {'a_plain':>8} {'a_diff':>8} {'a_norm':>8} {'LAS':>8}"]
        for pt in points:
            lines.append(f"{pt.setting:<7} {pt.model:<8} {pt.p:4.1f}  {pt.alpha_plain:8.3f} {pt.alpha_diff:8.3f} "
                         f"{pt.alpha_norm:8.3f} {pt.las:8.3f}")
        text = "\n".join(lines)
    _emit(text, output)


class CostChoice(str, Enum):
    exact = "exact"
    first_char = "first-char"


@app.command("leaf-ancestor")
def leaf_ancestor_command(
    gold: Path = typer.Argument(..., help="Gold trees: bracketed (words as leaves) or CoNLL."),
    candidate: Path = typer.Argument(..., help="Candidate trees, same sentences and words."),
    costs: CostChoice = typer.Option(CostChoice.exact, "--costs", help="Label replacement costs: exact (0/2) or first-char (0.5 for a shared first character)."),
    evalb_params: Optional[Path] = typer.Option(None, "--evalb-params", help="EVALB parameter file (DELETE_LABEL, EQ_LABEL, ...)."),
    fmt: Optional[InputFormat] = typer.Option(None, "--format", help="bracket or conll (default: from the content)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object with every sentence and word."),
    worst: int = typer.Option(10, "--worst", help="How many error configurations to list."),
    strict: bool = typer.Option(False, "--strict", help="Errors instead of skipped sentences: words that differ; in CoNLL, tokens that are their own head, sentences without a root and other head cycles."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the result to this file."),
) -> None:
    """Leaf-ancestor scores word by word and GEIG bracket F (Sampson & Babarczy 2003)."""
    from .adapters.brackets import read_brackets
    from .adapters.conll import read_conll
    from .corpus import guess_format
    from .evaluation.geig import EvalbParams
    from .evaluation.leaf_ancestor import format_sentence, leaf_ancestor

    kind = fmt.value if fmt else guess_format(gold)
    with _bad_input_exits():
        params = EvalbParams.read(evalb_params) if evalb_params else None
        if kind == "conll":
            cycles = "raise" if strict else "drop"
            gold_trees, cand_trees = read_conll(gold, cycles=cycles), read_conll(candidate, cycles=cycles)
        else:
            gold_trees = read_brackets(gold, leaves="categories", missing=True)
            cand_trees = read_brackets(candidate, leaves="categories", missing=True)
        result = leaf_ancestor(gold_trees, cand_trees, cost=costs.value, evalb=params, strict=strict)
    if as_json:
        _emit(json.dumps(result.to_dict()), output)
        return
    blocks = []
    for number, sentence in enumerate(result.sentences, start=1):
        blocks.append(f"sentence {number} ({sentence.location})\n{format_sentence(sentence)}")
    summary = [f"corpus: LA {result.la:.3f} (mean over sentences), {result.la_words:.3f} (mean over words)"]
    if result.skipped:
        summary.append(f"skipped {len(result.skipped)} sentence(s): failed parses, or words that differ:")
        summary.extend(f"  {where}" for where in result.skipped[:worst])
    if result.brackets is not None:
        geig = result.brackets.scores()
        summary.append(f"GEIG unlabelled F {geig['geig_unlabelled']:.3f}, labelled F {geig['geig_labelled']:.3f}")
    rows = result.error_configurations(k=worst)
    if rows:
        summary.append("gold configurations with the lowest mean word score:")
        summary.extend(f"  {score:.3f}  {count:4d}x  {feature}" for feature, count, score in rows)
    _emit("\n\n".join(blocks + ["\n".join(summary)]), output)


@app.command("evalb")
def evalb_command(
    gold: Path = typer.Argument(..., help="Gold trees, one per line as EVALB reads them (any suffix: .gld, .mrg, ...)."),
    test: Path = typer.Argument(..., help="Test (parser) trees, line by line parallel to GOLD."),
    params: Optional[Path] = typer.Option(None, "--params", "-p", help="EVALB parameter file (COLLINS.prm, new.prm); default: EVALB's built-in settings."),
    max_error: Optional[int] = typer.Option(None, "--max-error", "-e", help="Override MAX_ERROR: give up after this many errors (+1)."),
    cutoff_len: Optional[int] = typer.Option(None, "--cutoff-len", "-c", help="Override CUTOFF_LEN for the len<=N summary."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object: every sentence and both summaries."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the result to this file."),
) -> None:
    """Bracket scores exactly as EVALB (Sekine & Collins) prints them, diff-able with its output."""
    from .evaluation.evalb import EvalbParams, evaluate_files, format_report

    with _bad_input_exits():
        settings = EvalbParams.read(params) if params else EvalbParams()
        settings = settings.with_options(max_error=max_error, cutoff_len=cutoff_len)
        for warning in settings.warnings:
            typer.echo(warning, err=True)
        report = evaluate_files(gold, test, settings)
    for message in report.messages:
        typer.echo(message, err=True)
    if as_json:
        _emit(json.dumps(report.to_dict()), output)
    else:
        data = (format_report(report) + "\n").encode("latin-1")  # EVALB's bytes, whatever the encoding
        if output is not None:
            output.write_bytes(data)
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
    if report.aborted:
        raise typer.Exit(code=1)


@app.command("discourse")
def discourse_command(
    files: List[Path] = typer.Argument(..., help="Discourse JSON file(s) over the same document (format: spacy_agreement.evaluation.discourse)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object: strict, skip, connective and pairs."),
    skip_both_ends: bool = typer.Option(False, "--skip-both-ends", help="Allow a one-level skip at both ends at once."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the result to this file."),
) -> None:
    """Agreement on discourse arrows: strict, one-level skipping, connective-based (Mirovsky et al. 2010)."""
    from .evaluation.discourse import discourse_agreement, format_tables, load_discourse, merge_documents

    with _bad_input_exits():
        document = merge_documents([load_discourse(f) for f in files])
        result = discourse_agreement(document, skip_both_ends=skip_both_ends)
    if as_json:
        data = result.to_dict()
        clean = {k: (_json_safe(v) if isinstance(v, dict) else v) for k, v in data.items()}
        clean["pairs"] = [{k: (_json_safe(v) if isinstance(v, dict) else v) for k, v in p.items()} for p in data["pairs"]]
        _emit(json.dumps(clean, indent=2), output)
    else:
        _emit(format_tables(result), output)


@app.command("report")
def report_command(
    paths: List[Path] = typer.Argument(..., help="Parallel files (one annotator each), or directories with --dirs."),
    html_path: Path = typer.Option(..., "--html", help="Write the self-contained HTML report here."),
    dirs: bool = typer.Option(False, "--dirs", help="PATHS are annotator directories."),
    fmt: Optional[InputFormat] = typer.Option(None, "--format", help="conll or bracket (default: from the content)."),
    items: int = typer.Option(20, "--items", help="How many of the most disagreeing items to show."),
    title: str = typer.Option("Syntactic annotation agreement", "--title", help="Title of the page."),
    strict: bool = typer.Option(False, "--strict", help="Tokens that are their own head, sentences without a root and other head cycles are errors instead of being counted."),
) -> None:
    """One HTML page: alpha, items ranked by disagreement with the trees side by side, annotators, confusions."""
    from .report.html import html_report

    fmt_value = fmt.value if fmt else None
    with _bad_input_exits():
        cycles = "raise" if strict else "drop"
        corpus = (load_annotator_dirs(paths, fmt_value, cycles=cycles) if dirs
                  else load_parallel_files(paths, fmt_value, cycles=cycles))
        page = html_report(corpus, items=items, title=title)
    html_path.write_text(page, encoding="utf-8")
    typer.echo(f"wrote {html_path}", err=True)


@app.command("demo")
def demo_command(as_json: bool = typer.Option(False, "--json", help="Print JSON objects.")) -> None:
    """Alpha and accuracies on the small example annotations shipped with the package."""
    from importlib import resources

    root = resources.files("spacy_agreement") / "data" / "demo"
    with resources.as_file(root) as base:
        dep_dirs = sorted(p for p in (base / "dependency").iterdir() if p.is_dir())
        dep = load_annotator_dirs(dep_dirs)
        phrase = load_parallel_files(sorted((base / "phrase").glob("*.tree")), "bracket")
        if not as_json:
            typer.echo("== Dependency annotations: three annotators, one file annotated by one of them only ==")
            typer.echo(f"   (annotator directories {', '.join(d.name for d in dep_dirs)} in {base / 'dependency'})\n")
        typer.echo(run_alpha(dep, as_json, False, "annotation", 5))
        if not as_json:
            typer.echo("\n== Phrase-structure annotations: two annotators ==\n")
        typer.echo(run_alpha(phrase, as_json, False, "annotation", 5))


def main() -> None:
    """Entry point of the ``spacy-agreement`` console script."""
    app(prog_name="spacy-agreement")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
