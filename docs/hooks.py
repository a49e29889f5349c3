"""MkDocs hooks: the sample output of every guide is the real output, made when the site is
built, and the conventions page lists every signature field from the code.

* ``<!-- run: COMMAND -->`` is replaced by a ``console`` block showing ``$ COMMAND`` and what it
  printed, run with ``bash`` in a folder holding the files the examples name (:func:`make_sandbox`:
  the package's demo annotations and the repository's test data); a command that fails fails the build.
* ``<!-- signature-table -->`` is replaced by the table of :func:`spacy_agreement.signature.signature_table`.
* ``<!-- api: FAMILY -->`` (the API reference, ``docs/reference.md``) is replaced by a ``::: spacy_agreement.NAME``
  directive for each top-level name of that family in :data:`API_FAMILIES`, then the few objects below the top
  level of :data:`API_BELOW_TOP`. Every name of ``spacy_agreement.__all__`` must be in one family and every name of
  the table in ``__all__``, and the page must hold every family once: otherwise the build fails, naming what
  to add (:func:`check_api_families`).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from importlib import resources
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

RUN = re.compile(r"^<!-- run: (.+?) -->$", re.M)
API = re.compile(r"^<!-- api: ([a-z-]+) -->$", re.M)
_SANDBOX: dict = {}

#: The API reference's families, each the top-level names (``sa.NAME``) it documents, in the page's
#: order. A name added to ``spacy_agreement.__all__`` must be added here (the build fails until it is).
API_FAMILIES: Dict[str, Tuple[str, ...]] = {
    "agreement": ("alpha", "AlphaResult", "AlphaSettings", "layers", "LayersResult", "LayerSettings",
                  "agreement_by_layer", "disagreements", "estimate_alpha", "pairwise_accuracy",
                  "pairwise_attachment", "pairwise_jaccard", "bracket_jaccard", "AccuracyResult",
                  "tree_edit_distance", "delta", "distance_matrix"),
    "annotations": ("load_annotations", "load_parallel_files", "load_annotator_dirs", "load_project",
                    "load_multi_user", "load_prodigy", "read_conll", "parse_conll", "read_brackets",
                    "parse_brackets", "from_conllu", "from_doc", "from_span", "from_nltk",
                    "from_dependency_graph", "to_dependency_graph"),
    "parser-evaluation": ("evaluate", "EvaluateRun", "EvaluationSettings", "compare", "CompareRun",
                          "ComparisonSettings", "score_nltk_trees"),
    "constituency": ("evalb", "EvalbRun", "EvalbSettings", "leaf_ancestor", "LeafAncestorRun",
                     "LeafAncestorSettings"),
    "discourse": ("discourse", "DiscourseRun", "DiscourseSettings"),
    "judgments": ("judge", "JudgingPage", "JudgingSettings", "judging_page", "judgments", "JudgmentsRun",
                  "JudgmentSettings"),
    "trees": ("Corpus", "DependencyTree", "ConstituencyTree", "OrderedTree", "Forest", "LabelVocab"),
    "errors": ("AgreementError", "InvalidTreeError", "MismatchedCorpusError", "EmptyInputError", "BadOptionError",
               "ResourceLimitError", "JudgmentError", "DiscourseError", "ScriptRefusalError", "UndefinedMetricWarning",
               "Location"),
}

#: Below the top level, documented by module path: only what users need and cannot reach as
#: ``sa.NAME`` (keep this short; a test fails if one of them becomes a top-level name).
API_BELOW_TOP: Dict[str, Tuple[str, ...]] = {
    # what the spaCy users' guide calls over docs that carry stored analyses (the pipeline components
    # themselves are registered with spaCy, by name)
    "agreement": ("spacy_agreement.integrations.spacy_components.alpha_over_docs",
                  "spacy_agreement.integrations.spacy_components.layers_over_docs"),
    # what sa.compare's result gives for each pair of systems (CompareRun.pair(a, b), CompareRun.pairs):
    # the difference, its interval and the p-values the parser developers' guide reads
    "parser-evaluation": ("spacy_agreement.evaluation.comparison.systems.PairComparison",),
}


def make_sandbox(root: Path) -> Path:
    """Fill ``root`` with the files the README's and the docs' examples name, from the package's
    demo annotations and the repository's test data; return it."""
    repo = Path(__file__).resolve().parents[1]
    demo = Path(str(resources.files("spacy_agreement") / "data" / "demo"))
    dependency, phrase = demo / "dependency", demo / "phrase"
    copies = {"annotator1.conll": dependency / "anna" / "news-anna.conllu",
              "annotator2.conll": dependency / "ben" / "news-ben.conllu",
              "gold.conllu": dependency / "anna" / "news-anna.conllu",
              "predicted.conllu": dependency / "ben" / "news-ben.conllu",
              "corpus.conllu": dependency / "anna" / "story-anna.conllu",
              "a.tree": phrase / "annotator-a.tree", "b.tree": phrase / "annotator-b.tree",
              "gold.mrg": phrase / "annotator-a.tree", "candidate.mrg": phrase / "annotator-b.tree",
              "gold.gld": repo / "tests" / "data" / "evalb" / "main.gld",
              "test.tst": repo / "tests" / "data" / "evalb" / "main.tst",
              "COLLINS.prm": repo / "tests" / "data" / "evalb" / "evalb.prm",
              "discourse.json": repo / "examples" / "discourse_example.json"}
    for name, source in copies.items():
        shutil.copy(source, root / name)
    shutil.copytree(dependency, root / "data")
    os.symlink(repo / "examples", root / "examples")
    return root


def _sandbox() -> Path:
    if "root" not in _SANDBOX:
        _SANDBOX["root"] = make_sandbox(Path(tempfile.mkdtemp(prefix="spacy-agreement-docs-")))
    return _SANDBOX["root"]


def _run(match: "re.Match[str]") -> str:
    command = match.group(1)
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1")
    done = subprocess.run(["bash", "-c", command], cwd=_sandbox(), capture_output=True, text=True, env=env,
                          timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"docs: {command!r} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    shown = (done.stdout + done.stderr).rstrip()
    return f"```console\n$ {command}\n{shown}\n```"


def _signature_table() -> str:
    from spacy_agreement.signature import signature_table
    import spacy_agreement.cli  # noqa: F401  (every computation registered)

    rows = ["| computation | key | setting | default | meaning |", "| --- | --- | --- | --- | --- |"]
    rows += [f"| `{c}` | `{k}` | `{f}` | `{d}` | {doc} |" if str(d) else f"| `{c}` | `{k}` | `{f}` | (none) | {doc} |"
             for c, k, f, d, doc in signature_table()]
    return "\n".join(rows)


def check_api_families(top_level: Sequence[str], families: Sequence[str]) -> None:
    """Fail (``RuntimeError``, which fails the build) unless :data:`API_FAMILIES` holds every name of
    ``top_level`` (``spacy_agreement.__all__``) exactly once and nothing else, and ``families`` (the
    markers of the page, in order) is every family of the table once."""
    listed: List[str] = [name for names in API_FAMILIES.values() for name in names]
    problems = []
    missing = [name for name in top_level if name not in listed]
    if missing:
        problems.append("top-level names in no family of API_FAMILIES (add each to its family): "
                        + ", ".join(missing))
    gone = [name for name in listed if name not in top_level]
    if gone:
        problems.append("names of API_FAMILIES not in spacy_agreement.__all__ (renamed or removed?): "
                        + ", ".join(gone))
    twice = sorted({name for name in listed if listed.count(name) > 1})
    if twice:
        problems.append("names in two families of API_FAMILIES: " + ", ".join(twice))
    if sorted(families) != sorted(API_FAMILIES) or len(set(families)) != len(families):
        problems.append(f"the page's <!-- api: FAMILY --> markers ({', '.join(families)}) are not every family "
                        f"of API_FAMILIES once ({', '.join(API_FAMILIES)})")
    unknown = sorted(set(API_BELOW_TOP) - set(API_FAMILIES))
    if unknown:
        problems.append("families of API_BELOW_TOP not in API_FAMILIES: " + ", ".join(unknown))
    if problems:
        raise RuntimeError("docs/hooks.py, the API reference: " + "; ".join(problems))


def api_reference(markdown: str) -> str:
    """``markdown`` with each ``<!-- api: FAMILY -->`` replaced by the family's directives
    (:data:`API_FAMILIES`, then :data:`API_BELOW_TOP`), checked by :func:`check_api_families`."""
    import spacy_agreement

    check_api_families(list(spacy_agreement.__all__), API.findall(markdown))

    def directives(match: "re.Match[str]") -> str:
        family = match.group(1)
        paths = [f"spacy_agreement.{name}" for name in API_FAMILIES[family]] + list(API_BELOW_TOP.get(family, ()))
        return "\n\n".join(f"::: {path}" for path in paths)

    return API.sub(directives, markdown)


def on_page_markdown(markdown: str, **_: object) -> str:
    markdown = RUN.sub(_run, markdown)
    if API.search(markdown):
        markdown = api_reference(markdown)
    if "<!-- signature-table -->" in markdown:
        markdown = markdown.replace("<!-- signature-table -->", _signature_table())
    return markdown


def on_post_build(**_: object) -> None:
    root = _SANDBOX.pop("root", None)
    if root is not None:
        shutil.rmtree(root, ignore_errors=True)
