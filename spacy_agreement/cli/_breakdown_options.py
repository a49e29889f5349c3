"""``--breakdown`` of ``evaluate`` and ``compare``: attachment scores by arc length, direction,
depth, sentence length, UPOS and relation (MaltEval's group-by,
:mod:`spacy_agreement.evaluation.dependency.breakdowns`)."""
from __future__ import annotations

from typing import Any, Dict, Mapping, Tuple

import typer

from ..evaluation.dependency.breakdown_tables import breakdowns_to_json, chosen_attributes as attributes, format_breakdowns
from ..evaluation.dependency.breakdowns import ATTRIBUTES, Breakdown

BREAKDOWN_HELP = ("Attachment (head and label) recall, precision and F by group: 'all', or some of "
                  f"{', '.join(ATTRIBUTES)} (comma-separated). A gold word counts in its gold group, a predicted "
                  "word in its own (MaltEval's group-by).")


def breakdown_option() -> Any:
    return typer.Option(None, "--breakdown", metavar="ATTRIBUTES", help=BREAKDOWN_HELP)


def breakdown_output(systems: Mapping[str, Mapping[str, Breakdown]]) -> Tuple[str, Dict[str, Any]]:
    """The text tables (after a blank line) and the JSON key ``breakdowns``."""
    return "\n\n" + format_breakdowns(systems), {"breakdowns": breakdowns_to_json(systems)}


__all__ = ["attributes", "breakdown_option", "breakdown_output"]
