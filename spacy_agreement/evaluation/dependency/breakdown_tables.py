"""Breakdowns of attachment (:mod:`.breakdowns`) as text tables and JSON, for one system or
several side by side.

* :func:`format_breakdowns`: one table per attribute, a row per group, the gold count and for
  each system its count, recall, precision and F1 in percent with two decimals
  (:func:`~spacy_agreement.report.format.percent`, as all text output; ``n/a`` where
  undefined).
* :func:`breakdowns_to_json`: the same counts and scores as fractions under lower-case keys
  (``nan`` where undefined, which the CLI's JSON writer prints as ``null``).

Systems are a mapping ``{name: {attribute: Breakdown}}`` (what
:func:`~.breakdowns.breakdowns_from_trees` or :func:`~.breakdowns.breakdowns_from_layers` gives
for each system); groups are merged over the systems in their natural order.
"""
from __future__ import annotations

from typing import Dict, List, Mapping, Optional

from ...errors import BadOptionError
from ...report.format import percent
from .breakdowns import ATTRIBUTES, FIXED_ORDER, TITLES, Breakdown, BreakdownRow

Systems = Mapping[str, Mapping[str, Breakdown]]


def chosen_attributes(value: Optional[str]) -> Optional[List[str]]:
    """The attributes ``--breakdown VALUE`` asks for: ``all``, or some of
    :data:`~.breakdowns.ATTRIBUTES` comma-separated (``None``: no breakdown)."""
    if value is None:
        return None
    if value.strip() == "all":
        return list(ATTRIBUTES)
    chosen = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [v for v in chosen if v not in ATTRIBUTES]
    if unknown or not chosen:
        raise BadOptionError(f"--breakdown {value!r}: 'all' or some of {', '.join(ATTRIBUTES)}", option="breakdown")
    return chosen


def merged_groups(by: str, breakdowns: List[Breakdown]) -> List[str]:
    """Every group of ``by`` that any of ``breakdowns`` has, in the natural order: bins
    ascending and directions left, right, root; labels by gold count, then system count,
    descending (the largest over the systems), then by name."""
    rows: Dict[str, List[BreakdownRow]] = {}
    for breakdown in breakdowns:
        for row in breakdown.rows:
            rows.setdefault(row.group, []).append(row)
    if by in FIXED_ORDER:
        order = {group: k for k, group in enumerate(FIXED_ORDER[by])}
        return sorted(rows, key=lambda g: order.get(g, len(order)))
    return sorted(rows, key=lambda g: (-max(r.gold for r in rows[g]), -max(r.system for r in rows[g]), g))


def _attributes(systems: Systems) -> List[str]:
    present = {by for breakdowns in systems.values() for by in breakdowns}
    return [by for by in ATTRIBUTES if by in present]


def format_breakdowns(systems: Systems) -> str:
    """Text tables, one per attribute (in the order of :data:`~.breakdowns.ATTRIBUTES`), the
    systems side by side: for each group the gold words and, per system, its words in the
    group, recall, precision and F1 (%). A line under a table says how many tokens were left
    out (not annotated) or sentences skipped, and when the systems' gold counts differ (other
    sentences scored) whose the gold column shows (the first system's)."""
    names = list(systems)
    blocks: List[str] = []
    for by in _attributes(systems):
        present = [(name, systems[name][by]) for name in names if by in systems[name]]
        breakdowns = [b for _, b in present]
        groups = merged_groups(by, breakdowns)
        labelled = breakdowns[0].labelled
        what = "head and relation right (LAS-style)" if labelled else "head right (UAS-style)"
        width = max([5] + [len(g) for g in groups])
        system_width = 9 + 8 + 10 + 8 + 3
        title = f"By {TITLES[by]}: {what}; recall over the gold words of a group, precision over the system's (%)"
        top = f"{'':{width}} {'':>7} " + "".join(f"| {name[:system_width - 2]:<{system_width - 2}} "
                                                 for name, _ in present)
        head = f"{'group':<{width}} {'gold':>7} " + "".join(
            f"| {'system':>7} {'recall':>7} {'precision':>9} {'F1':>7}  " for _ in present)
        lines = [title, top.rstrip(), head.rstrip(), "-" * len(head.rstrip())]
        for group in groups:
            first = breakdowns[0].row(group)
            cells = "".join(f"| {b.row(group).system:7d} {percent(b.row(group).recall, width=7)} "
                            f"{percent(b.row(group).precision, width=9)} {percent(b.row(group).f1, width=7)}  "
                            for b in breakdowns)
            lines.append(f"{group:<{width}} {first.gold:7d} {cells}".rstrip())
        notes = []
        for name, breakdown in present:
            left_out = []
            if breakdown.unannotated:
                left_out.append(f"{breakdown.unannotated} token(s) not annotated")
            if breakdown.skipped:
                left_out.append(f"{breakdown.skipped} sentence(s) whose tokens differ")
            if left_out:
                notes.append(f"{name}: left out {' and '.join(left_out)}")
        if any(b.row(g).gold != breakdowns[0].row(g).gold for b in breakdowns[1:] for g in groups):
            notes.append(f"the systems' gold counts differ (other sentences scored): the gold column is {names[0]}'s")
        blocks.append("\n".join(lines + notes))
    return "\n\n".join(blocks)


def breakdowns_to_json(systems: Systems) -> Dict[str, Dict[str, Dict[str, object]]]:
    """``{system: {attribute: Breakdown.to_dict()}}``: counts, and recall, precision and F1 as
    fractions (``nan`` where undefined), keys in lower case."""
    return {name: {by: breakdowns[by].to_dict() for by in ATTRIBUTES if by in breakdowns}
            for name, breakdowns in systems.items()}


__all__ = ["breakdowns_to_json", "format_breakdowns", "merged_groups"]
