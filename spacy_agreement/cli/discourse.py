"""``spacy-agreement discourse``: agreement on discourse arrows (Mirovsky et al. 2010).

Each FILE is read by the document reader its name calls for (``--reader`` chooses one):
``.json`` the interchange format (one file may hold every annotator), ``.tag`` a DTAG
discourse file of the Copenhagen Dependency Treebank and ``.t`` / ``.t.gz`` a PML t-file
(one file per annotator). Files of one text are compared together; files of several texts
(CDT's ``NNNN-da-disc-ANNOTATOR.tag``, or PML files of the same name in the annotators'
folders) give each text's figures and the corpus's, each annotator pair's counts pooled.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..evaluation.discourse.report import agreement_text, corpus_text  # noqa: F401
from ..report.command_text import discourse_text
from ..evaluation.discourse.discourse_run import discourse, discourse_settings, reader_for, texts_of  # noqa: F401
from ._handling import handled_errors
from ._options import json_option, output_option, quiet_option, tsv_option
from ._output import Output
from ._registry import command
from ._settings_options import signature_footer, signature_option


@command("discourse")
def discourse_command(
    files: List[Path] = typer.Argument(..., help="Discourse files: JSON (every annotator in one file or several), "
                                                 "or one DTAG .tag / PML .t file per annotator; files of several "
                                                 "texts give per-text and corpus figures."),
    as_json: bool = json_option("Print one JSON object: strict, skip, connective (means over pairs), pairs, links "
                                "(scored and set aside), confusion; texts for several texts."),
    reader: Optional[str] = typer.Option(None, "--reader", help="Document reader of every file: discourse (JSON), "
                                         "dtag-discourse, pml-discourse or a registered one (default: by suffix)."),
    skip_both_ends: bool = typer.Option(False, "--skip-both-ends", help="Allow a one-level skip at both ends at once."),
    ranges: str = typer.Option("exact", "--ranges", help="Range and group ends: exact (same node and extent) or node "
                                                        "(the node the arrow is drawn at)."),
    text_connectives: str = typer.Option("sentences", "--text-connectives",
                                         help="Connectives known by text only (implicit, DTAG's) in the connective "
                                              "measure: sentences (text + the sentences joined) or aside."),
    lists: bool = typer.Option(False, "--lists", help="Score PML list links (type 'list') instead of setting them aside."),
    skip_empty: bool = typer.Option(False, "--skip-empty", help="Leave out annotator files without any discourse link "
                                                               "(not annotated)."),
    confusion: bool = typer.Option(False, "--confusion", help="Print the confusion of types (the JSON always has it)."),
    tsv: bool = tsv_option(),
    quiet: bool = quiet_option(),
    output: Optional[Path] = output_option(),
    signature: Optional[str] = signature_option(),
) -> None:
    """Agreement on discourse arrows: strict, one-level skipping, connective-based (Mirovsky et al. 2010)."""
    with handled_errors(*files):
        out = Output(as_json, tsv, output, quiet)
        settings = discourse_settings(signature, skip_both_ends, ranges, text_connectives, lists, skip_empty)
        run = discourse(*files, settings=settings, reader=reader)  # sa.discourse
        out.write(lambda: discourse_text(run, confusion), run.to_dict)  # str(run) without --confusion
