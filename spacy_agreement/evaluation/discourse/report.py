"""The text of discourse agreement (Mírovský, Mladová & Zikánová 2010): the paper's three
tables side by side, the links each measure scored and set aside, the confusion of types."""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Sequence

from ...report.format import percent

MEASURE_NAMES = ("strict", "skip", "connective")

ROWS = [("F1 on relations", "f1_relations", "f1_relations"),
        ("F1 on relations + types", "f1_types", "f1_types"),
        ("F1 on rel. + connectives / + nodes", "f1_connectives", "f1_nodes"),
        ("F1 on rel. + types + conn. / + nodes", "f1_types_connectives", "f1_types_nodes"),
        ("agreement on types", "agreement_types", "agreement_types"),
        ("agreement on connectives / nodes", "agreement_connectives", "agreement_nodes"),
        ("Cohen's kappa on types", "kappa_types", "kappa_types")]


def _cell(v: float) -> str:
    return percent(v, width=7)


def tables_text(means: Mapping[str, Mapping[str, float]], pairs: int, what: str = "") -> str:
    """The three tables (``means``: measure → figures) as columns, in %."""
    header = f"{'measure (%)':<38} {'strict':>7} {'skip':>7} {'conn.':>7}"
    lines = [f"{pairs} pair(s) of annotators" + (" (means)" if pairs > 1 else "") + what, header]
    for label, key, conn_key in ROWS:
        lines.append(f"{label:<38} {_cell(means['strict'][key])} {_cell(means['skip'][key])} "
                     f"{_cell(means['connective'][conn_key])}")
    return "\n".join(lines)


def format_tables(result: Any) -> str:
    """The paper's three tables side by side (means over pairs when there are several), in %."""
    return tables_text(result.means(), len(result.pairs))


def links_text(links: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> str:
    """Per annotator (or file), per measure: links, scored, set aside by reason."""
    lines = ["links scored / in the file, and set aside by reason:"]
    for name, by_measure in links.items():
        cells = []
        for measure in MEASURE_NAMES:
            acc = by_measure[measure]
            why = ", ".join(f"{n} {reason}" for reason, n in sorted(acc["set_aside"].items()) if n)
            cells.append(f"{measure} {acc['scored']}/{acc['links']}" + (f" ({why})" if why else ""))
        lines.append(f"  {name}: " + "; ".join(cells))
    return "\n".join(lines)


def confusion_text(rows: Sequence[Sequence[Any]], measure: str, limit: int = 20) -> str:
    """The confusion of types among a measure's agreeing pairs, most frequent first."""
    if not rows:
        return f"types of the agreeing relations ({measure}): none"
    width = max(len(str(r[0])) for r in rows[:limit])
    lines = [f"types of the agreeing relations ({measure}), first annotator / second: count"]
    lines += [f"  {str(a):<{width}}  {b}: {n}" for a, b, n in rows[:limit]]
    if len(rows) > limit:
        lines.append(f"  ... {len(rows) - limit} more pair(s) of types (--json lists them all)")
    return "\n".join(lines)


def agreement_text(result: Any, confusion: bool = False) -> str:
    """A document's text: tables, links, and with ``confusion`` the connective measure's confusion."""
    parts = [format_tables(result)]
    if len(result.pairs) > 1:
        parts.append("\n".join(f"{a} / {b}: F1 on relations strict {_cell(t['strict']['f1_relations']).strip()}, "
                               f"skip {_cell(t['skip']['f1_relations']).strip()}, "
                               f"connective {_cell(t['connective']['f1_relations']).strip()}"
                               for a, b, t in result.pairs))
    parts.append(links_text(result.accounting))
    if confusion:
        parts += [confusion_text(rows, m) for m, rows in result.confusion().items()]
    return "\n\n".join(parts)


def corpus_text(result: Any, confusion: bool = False) -> str:
    """A corpus's text: the tables over the corpus, the texts, the links summed."""
    data: Dict[str, Any] = result.to_dict()
    pairs: List[Dict[str, Any]] = data["pairs"]
    parts = [tables_text(data, len(pairs), f", {len(result.texts)} text(s), counts pooled over the texts")]
    parts.append("\n".join(f"{p['annotators'][0]} / {p['annotators'][1]} ({p['texts']} texts): F1 on relations "
                           f"strict {_cell(p['strict']['f1_relations']).strip()}, "
                           f"skip {_cell(p['skip']['f1_relations']).strip()}, "
                           f"connective {_cell(p['connective']['f1_relations']).strip()}" for p in pairs))
    parts.append(links_text({"all files": data["links"]}))
    if result.skipped:
        parts.append("texts left out: " + ", ".join(f"{name} ({why})" for name, why in result.skipped))
    if confusion:
        parts += [confusion_text(rows, m) for m, rows in data["confusion"].items()]
    return "\n\n".join(parts)


__all__ = ["agreement_text", "confusion_text", "corpus_text", "format_tables", "links_text", "tables_text"]
