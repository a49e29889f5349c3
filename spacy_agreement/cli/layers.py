"""``spacy-agreement layers``: agreement on every annotation layer (UPOS, XPOS, FEATS, LEMMA,
HEAD, DEPREL, MISC keys), per label and per annotator, and the per-token disagreements: the
options of :func:`spacy_agreement.layers` (``--json`` is its result's ``to_dict()``) and the
text of its result."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..agreement.layers import layers as layers_of_inputs
from ..report.command_text import layers_command_text
from ..report.layers_text import layers_text  # noqa: F401
from ..agreement.layer_values import EXTRA_LAYERS, LAYERS
from . import _annotations as shared
from ._handling import handled_errors
from ._options import format_option, json_option, output_option, quiet_option, strict_option, tsv_option
from ._output import Output
from ._registry import command
from ._settings_options import signature_footer, signature_option


@command("layers")
def layers_command(
    paths: List[Path] = typer.Argument(..., help=shared.PATHS_HELP),
    dirs: bool = typer.Option(False, "--dirs", help=shared.DIRS_HELP),
    allow_duplicates: bool = shared.allow_duplicates_option(),
    user_key: str = shared.user_key_option(),
    include: Optional[List[str]] = shared.input_options()[0],
    annotator_key: Optional[str] = shared.input_options()[1],
    annotator_part: Optional[shared.AnnotatorPart] = shared.flat_folder_options()[0],
    name_pattern: Optional[str] = shared.flat_folder_options()[1],
    fmt: Optional[str] = format_option(),
    layer: Optional[List[str]] = typer.Option(None, "--layer", help=f"A layer to compare (repeat): {', '.join(LAYERS + EXTRA_LAYERS)}, feats.NAME or misc.KEY (default: every basic layer, and each feature name)."),
    misc: Optional[List[str]] = typer.Option(None, "--misc", help="A MISC key to compare as a layer, misc.KEY (repeat)."),
    no_per_feature: bool = typer.Option(False, "--no-per-feature", help="Compare FEATS as a whole only, not each feature name."),
    reference: Optional[str] = typer.Option(None, "--reference", help="The annotator that per-label precision and recall take as reference (default: the first of each pair)."),
    any_forms: bool = typer.Option(False, "--any-forms", help="Compare the tokens of an item position by position whenever its annotations have as many tokens, even where a form differs (a corrected typo); default: such items are set aside."),
    unannotated: str = typer.Option("none", "--unannotated", help="A token not annotated yet (HEAD _, DEPREL _, an empty relation): none (no head and relation value) or value (the value _, a disagreement with any annotation, as the AGDT inter-coder reports count it)."),
    export: Optional[Path] = typer.Option(None, "--export", help="Write every (token, layer) where annotators differ to this file: .tsv, .csv or .jsonl."),
    details: int = typer.Option(10, "--details", help="Labels shown per layer with disagreements in the text (lowest specific agreement first)."),
    as_json: bool = json_option("Print one JSON object: one object per layer under 'layers', with per-label rows, confusions and per-annotator figures."),
    tsv: bool = tsv_option("Print layers.NAME.KEY and value, tab-separated."),
    strict: bool = strict_option("Head cycles are errors instead of being read."),
    quiet: bool = quiet_option(),
    output: Optional[Path] = output_option(),
    signature: Optional[str] = signature_option(),
) -> None:
    """Agreement on every layer: Krippendorff's alpha, Cohen's and Fleiss' kappa, per label and per annotator."""
    with handled_errors(*paths):
        out = Output(as_json, tsv, output, quiet)
        result = layers_of_inputs(*paths, dirs=dirs, allow_duplicates=allow_duplicates, user_key=user_key,
                                  include=include, annotator_key=annotator_key, annotator_part=annotator_part,
                                  name_pattern=name_pattern, format=fmt, layer=layer, misc=misc,
                                  no_per_feature=no_per_feature, reference=reference, any_forms=any_forms,
                                  unannotated=unannotated, export=export, strict=strict, signature=signature)
        if export is not None:
            out.note(f"wrote {export}: {result.exported} (token, layer) disagreement(s)")
        out.write(lambda: layers_command_text(result, details), lambda: result.to_dict())  # str(result): --details 10
