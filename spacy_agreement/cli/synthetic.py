"""``spacy-agreement synthetic``: α and LAS under synthetic noise (Skjærholt 2014, section 3)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

import typer

from ..experiments.synthetic import SyntheticSettings, Point, plot_points, points_tsv, run_experiment
from ..report.format import percent
from ._handling import handled_errors, require_extra
from ._options import (InputFormat, format_option, json_option, output_option, quiet_option,
                      read_trees, tsv_option)
from ._output import Output
from ._registry import command
from ._settings_options import apply_signature, signature_footer, signature_option


def format_points(points: Sequence[Point]) -> str:
    """One line per point: setting, noise model, p, the three α and LAS (in %)."""
    lines = [f"{'setting':<7} {'model':<8} {'p':>4}  {'a_plain%':>8} {'a_diff%':>8} {'a_norm%':>8} {'LAS%':>8}"]
    for pt in points:
        values = " ".join(percent(v, width=8) for v in (pt.alpha_plain, pt.alpha_diff, pt.alpha_norm, pt.las))
        lines.append(f"{pt.setting:<7} {pt.model:<8} {pt.p:4.1f}  {values}")
    return "\n".join(lines)


@command("synthetic")
def synthetic_command(
    corpus: Path = typer.Argument(..., help="A corpus taken as correct: CoNLL file or bracketed trees."),
    fmt: Optional[InputFormat] = format_option(),
    sample: int = typer.Option(100, "--sample", help="How many sentences to sample."),
    runs: int = typer.Option(10, "--runs", help="Runs per point."),
    seed: int = typer.Option(0, "--seed", help="Seed of the sampling and the noise."),
    uniform: bool = typer.Option(False, "--uniform", help="Also the uniform structural-noise model (dependency trees)."),
    as_json: bool = json_option("Print one JSON object with the list of points."),
    tsv: bool = tsv_option("Print the points as TSV."),
    quiet: bool = quiet_option(),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Write one PNG per setting into this directory (needs matplotlib)."),
    output: Optional[Path] = output_option(),
    signature: Optional[str] = signature_option(),
) -> None:
    """Skjaerholt (2014) section 3: alpha and LAS under label and structural noise (Figures 3-5)."""
    with handled_errors(corpus):
        out = Output(as_json, tsv, output, quiet)
        if plot is not None:
            require_extra("matplotlib", "--plot")  # before the work, not after it
        settings = apply_signature(SyntheticSettings(sample, runs, seed, ("paper", "uniform") if uniform else ("paper",)),
                                   signature)
        trees = read_trees(corpus, fmt)
        points = run_experiment(trees, sample=settings.sample, runs=settings.runs, seed=settings.seed,
                                models=settings.models, progress=out.progress)
        if plot is not None:
            for path in plot_points(points, plot):
                out.note(f"wrote {path}")
        out.write(lambda: signature_footer(format_points(points), settings.signature()),
                  lambda: {"corpus": str(corpus), "sample": settings.sample, "runs": settings.runs,
                           "seed": settings.seed, "points": [p.to_dict() for p in points],
                           "signature": settings.signature()},
                  lambda: points_tsv(points, signature=settings.signature()))
