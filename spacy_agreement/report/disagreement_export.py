"""The per-token disagreements of per-layer agreement as a file a team sorts and filters in a
spreadsheet (INCEpTION calls its equivalent a diagnosis export): one row per (token, layer)
where annotators differ, with the item, the token id and form, the layer and each annotator's
value (empty: none). CSV, TSV or JSON Lines, chosen by the file's suffix."""
from __future__ import annotations

import csv
import json
import os
from typing import IO, Any, Dict, Iterable, Sequence, Union

from ..errors import BadOptionError

FORMATS = {".csv": "csv", ".tsv": "tsv", ".txt": "tsv", ".jsonl": "jsonl", ".json": "jsonl"}
PathLike = Union[str, "os.PathLike[str]"]


def export_format(path: PathLike) -> str:
    """``csv``, ``tsv`` or ``jsonl`` from the file's suffix (an unknown one is an error naming them)."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in FORMATS:
        raise BadOptionError(f"{os.fspath(path)}: export as .csv, .tsv or .jsonl (JSON Lines)", option="export")
    return FORMATS[suffix]


def write_disagreements(rows: Iterable[Dict[str, Any]], annotators: Sequence[str], handle: IO[str],
                        fmt: str = "tsv") -> int:
    """Write the rows (:func:`~spacy_agreement.agreement.layers.disagreements`) and return how many."""
    fixed = ["item", "token", "form", "layer"]
    count = 0
    if fmt == "jsonl":  # one object a line: the fixed fields and ``values`` by annotator
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
        return count
    writer = csv.writer(handle, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
    writer.writerow(fixed + [f"value:{a}" if a in fixed else a for a in annotators])
    for row in rows:
        writer.writerow([row[k] for k in fixed] + [row["values"].get(a, "") for a in annotators])
        count += 1
    return count


def export_disagreements(rows: Iterable[Dict[str, Any]], annotators: Sequence[str], path: PathLike) -> int:
    """:func:`write_disagreements` into ``path`` in the format of its suffix (:func:`export_format`)."""
    fmt = export_format(path)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        return write_disagreements(rows, annotators, handle, fmt)


__all__ = ["FORMATS", "export_disagreements", "export_format", "write_disagreements"]
