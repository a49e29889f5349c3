"""``spacy-agreement demo``: α and accuracies on the example annotations shipped with the package."""
from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Optional

from ..agreement.run import agreement
from ..adapters.files import load_annotator_dirs, load_parallel_files
from ..report.text import summary
from . import _annotations as shared
from ._handling import handled_errors
from ._options import json_option, output_option, quiet_option, tsv_option
from ._output import Output, dumps, tsv_lines
from ._registry import command
from ._settings_options import with_signature


@command("demo")
def demo_command(
    as_json: bool = json_option("Print two JSON objects, one a line (JSON Lines): the dependency corpus, then the "
                                "phrase-structure one."),
    tsv: bool = tsv_option("Print key and value, tab-separated (keys prefixed dependency. and phrase.)."),
    quiet: bool = quiet_option(),
    output: Optional[Path] = output_option(),
) -> None:
    """Alpha and accuracies on the small example annotations shipped with the package."""
    root = resources.files("spacy_agreement") / "data" / "demo"
    with handled_errors(), resources.as_file(root) as base:
        out = Output(as_json, tsv, output, quiet)
        dep_dirs = sorted(p for p in (base / "dependency").iterdir() if p.is_dir())
        corpora = {"dependency": load_annotator_dirs(dep_dirs),
                   "phrase": load_parallel_files(sorted((base / "phrase").glob("*.tree")), "bracket")}
        results = {name: (corpus, *agreement(corpus)) for name, corpus in corpora.items()}
        values = {name: with_signature(summary(*computed), computed[1].signature) for name, computed in results.items()}
        if as_json:
            # one JSON object per corpus, as in 0.1, each on its own line so that every line parses
            out.emit("\n".join(dumps(v, indent=None) for v in values.values()))
        elif tsv:
            out.emit(tsv_lines(values))
        else:
            out.emit("\n".join([
                "== Dependency annotations: three annotators, one file annotated by one of them only ==",
                f"   (annotator directories {', '.join(d.name for d in dep_dirs)} in {base / 'dependency'})\n",
                shared.text(*results["dependency"], 5),
                "\n== Phrase-structure annotations: two annotators ==\n",
                shared.text(*results["phrase"], 5),
                "",
                f"signature: {results['phrase'][1].signature}",
            ]))
