"""Discourse links of PDT, PDiT and PDT-C tectogrammatical files (PML ``.t``, ``.t.gz``).

The t-layer schema (``tdata_30_schema.xml``, ``tdata_35_schema.xml``, ``tdata_c_schema.xml``,
public in ``ufal/treex``, ``lib/Treex/Block/Read/PDT_schema/``) gives a t-node a member
``discourse``, a list of links (``t-discourse-link.type``), the t-node being the arrow's
start. A link has ``target_node.rf`` (optional: an arrow without target), ``type``
(``discourse`` or ``list``), ``start_range`` and ``target_range`` (``0``: the node's subtree;
``N`` / ``-N``: that tree and the N following / preceding ones; ``forward`` / ``backward``: to
the end / from the start of the document; ``group``: the group of ``start_group_id`` /
``target_group_id``, whose members are the t-nodes carrying that id in ``discourse_groups``),
``discourse_type``, the connective as ``t-connectors.rf`` (t-nodes) and ``a-connectors.rf``
(a-nodes of the ``.a`` file), and in PDT 3.5 / PDT-C ``is_negated``, ``comment``, ``src``,
``a-connectors_ext.rf``, ``t-connectors_ext.rf`` and ``is_secondary``.

Each link becomes a record of the interchange format
(:mod:`spacy_agreement.evaluation.discourse.json_format`): a node is (tree index from 0, the
t-node's position by ``deepord`` from 1; the tree is the t-tree, heads the t-parents,
labels the functors, forms the t-lemmas); the connective is the set of its t-nodes and of
its a-node ids (the ``_ext`` parts, which extend a connective, included); a target id that
is not a t-node of the file is a target in another document (``target_ref``). An a-node id
is checked against the ``.a`` file named in the t-file's references (or beside it); the
connective's words are read from the ``.m`` file that the ``.a`` file names, where it is
there. What cannot be checked is counted in the file's ``notes`` (``a-connectors not
checked (no .a file)``, ``a-connectors not in the .a file``); the connective is compared by
its ids all the same, which are the same in every annotator's copy of a document.

PML writes a list of one member either as ``<LM>`` or as the member itself; both are read.
A file that is not XML, or a link naming a group no node has, is a
:class:`~spacy_agreement.errors.DiscourseError` naming the file and the t-node.
"""
from __future__ import annotations

import gzip
import os
import xml.etree.ElementTree as ET
from typing import Any, Dict, List, Optional, Tuple, Union

from ..errors import DiscourseError, Location
from ..trees import DependencyTree
from .discourse_files import DiscourseFile

PathLike = Union[str, "os.PathLike[str]"]
PML = "{http://ufal.mff.cuni.cz/pdt/pml/}"


def _parse(path: str) -> ET.Element:
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rb") as handle:
            return ET.parse(handle).getroot()
    except ET.ParseError as exc:
        raise DiscourseError(f"not PML (XML): {exc}", Location(path, line=exc.position[0])) from None
    except (OSError, EOFError) as exc:  # a .gz file that is not gzip
        raise DiscourseError(f"cannot be read: {exc}", Location(path)) from None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(element: ET.Element, name: str) -> Optional[ET.Element]:
    for child in element:
        if _local(child.tag) == name:
            return child
    return None


def _text(element: ET.Element, name: str) -> Optional[str]:
    child = _child(element, name)
    return None if child is None or child.text is None else child.text.strip()


def members(element: Optional[ET.Element]) -> List[ET.Element]:
    """A PML list's members: its ``<LM>`` children, or the element itself when it has none."""
    if element is None:
        return []
    items = [c for c in element if _local(c.tag) == "LM"]
    return items if items else [element]


def _refs(element: ET.Element, name: str) -> List[str]:
    return [m.text.strip() for m in members(_child(element, name)) if m.text and m.text.strip()]


def _strip(ref: str) -> str:
    return ref.split("#", 1)[1] if "#" in ref else ref


def _reffiles(root: ET.Element) -> Dict[str, str]:
    head = _child(root, "head")
    refs = _child(head, "references") if head is not None else None
    return {r.get("name", ""): r.get("href", "") for r in (refs if refs is not None else [])}


def _layer_ids(path: str) -> Tuple[Dict[str, ET.Element], Dict[str, str]]:
    """Every element with an ``id`` in a PML file, and its references by name."""
    root = _parse(path)
    return {e.get("id"): e for e in root.iter() if e.get("id")}, _reffiles(root)


def _beside(tfile: str, href: Optional[str], suffix: str) -> Optional[str]:
    folder = os.path.dirname(tfile)
    candidates = [os.path.join(folder, href)] if href else []
    stem = tfile[:-3] if tfile.endswith(".gz") else tfile
    stem = stem[:-2] if stem.endswith(".t") else os.path.splitext(stem)[0]
    candidates += [stem + suffix, stem + suffix + ".gz"]
    return next((c for c in candidates if os.path.isfile(c)), None)


def _range(value: Optional[str], tree: int, last: int, where: str) -> Optional[Tuple[int, int]]:
    if value in (None, "", "0", "group"):
        return None
    if value == "forward":
        return (tree, last)
    if value == "backward":
        return (0, tree)
    try:
        n = int(value)
    except ValueError:
        raise DiscourseError(f"range {value!r:.40} is not 0, a number of trees, forward, backward or group",
                             Location(where)) from None
    return (tree, tree + n) if n > 0 else (tree + n, tree)


def read_pml_discourse(path: PathLike, annotator: Optional[str] = None) -> DiscourseFile:
    """The t-trees and discourse links of one annotator's PML t-file (module docstring);
    ``annotator`` defaults to the name of the file's folder (parallel annotation keeps one
    copy of each file per annotator's folder)."""
    name = os.fspath(path)
    annotator = annotator or os.path.basename(os.path.dirname(os.path.abspath(name))) or name
    root = _parse(name)
    trees_element = _child(root, "trees")
    if trees_element is None:
        raise DiscourseError("no <trees>: not a PML t-file", Location(name))
    positions: Dict[str, Tuple[int, int]] = {}
    groups: Dict[str, set] = {}
    linked: List[Tuple[ET.Element, Tuple[int, int]]] = []
    trees: List[DependencyTree] = []
    for k, troot in enumerate(members(trees_element)):
        nodes: List[Tuple[int, ET.Element, Optional[ET.Element]]] = []
        stack: List[Tuple[ET.Element, Optional[ET.Element]]] = [(c, None) for c in members(_child(troot, "children"))]
        while stack:
            node, parent = stack.pop()
            order = _text(node, "deepord")
            nodes.append((int(order) if order and order.isdigit() else len(nodes), node, parent))
            stack.extend((c, node) for c in members(_child(node, "children")))
        nodes.sort(key=lambda item: item[0])
        index = {id(node): i + 1 for i, (_, node, _) in enumerate(nodes)}
        heads = [index[id(parent)] if parent is not None else 0 for _, _, parent in nodes]
        for i, (_, node, _) in enumerate(nodes):
            if node.get("id"):
                positions[node.get("id")] = (k, i + 1)
            for g in members(_child(node, "discourse_groups")):
                gid = _text(g, "id")
                if gid:
                    groups.setdefault(gid, set()).add((k, i + 1))
            if _child(node, "discourse") is not None:
                linked.append((node, (k, i + 1)))
        trees.append(DependencyTree.create(heads, [_text(n, "functor") or "_" for _, n, _ in nodes],
                                           [_text(n, "t_lemma") or "_" for _, n, _ in nodes],
                                           location=Location(name, k + 1)))
    references = _reffiles(root)
    afile = _beside(name, references.get("adata"), ".a")
    a_ids, m_forms = _a_layer(afile)
    notes: Dict[str, int] = {}
    records: List[Dict[str, Any]] = []
    last = len(trees) - 1
    for node, start in linked:
        where = f"{name}: t-node {node.get('id')}"
        for link in members(_child(node, "discourse")):
            records.append(_record(link, start, positions, groups, a_ids, m_forms, afile, notes, last, where))
    return DiscourseFile(trees, {annotator: records}, name, {annotator: {}}, {annotator: notes}, os.path.basename(name))


def _a_layer(afile: Optional[str]) -> Tuple[Optional[Dict[str, ET.Element]], Dict[str, str]]:
    """The a-nodes by id, and the forms of the a-nodes (through the .m file), where the files are there."""
    if afile is None:
        return None, {}
    a_ids, a_refs = _layer_ids(afile)
    mfile = _beside(afile, a_refs.get("mdata"), ".m")
    if mfile is None:
        return a_ids, {}
    m_ids, _ = _layer_ids(mfile)
    forms = {}
    for aid, element in a_ids.items():
        mref = _text(element, "m.rf")
        mnode = m_ids.get(_strip(mref)) if mref else None
        if mnode is not None and _text(mnode, "form"):
            forms[aid] = _text(mnode, "form") or ""
    return a_ids, forms


def _record(link: ET.Element, start: Tuple[int, int], positions: Dict[str, Tuple[int, int]],
            groups: Dict[str, set], a_ids: Optional[Dict[str, ET.Element]], forms: Dict[str, str],
            afile: Optional[str], notes: Dict[str, int], last: int, where: str) -> Dict[str, Any]:
    target_ref = _text(link, "target_node.rf")
    target = positions.get(_strip(target_ref)) if target_ref else None
    record: Dict[str, Any] = {"start": list(start), "target": list(target) if target else None,
                              "type": _text(link, "discourse_type") or "", "link": _text(link, "type") or "discourse",
                              "negated": _text(link, "is_negated") == "1",
                              "secondary": _text(link, "is_secondary") == "1", "where": where}
    if target_ref and target is None:
        record["target_ref"] = target_ref
    for role, node in (("start", start), ("target", target)):
        value = _text(link, f"{role}_range")
        if value == "group":
            gid = _text(link, f"{role}_group_id")
            if gid not in groups:
                raise DiscourseError(f"a link's {role}_group_id {gid!r} names a group no node has",
                                     Location(where))
            record[f"{role}_group"] = sorted(list(n) for n in groups[gid])
        elif node is not None:
            span = _range(value, node[0], last, where)
            if span is not None:
                record[f"{role}_range"] = [max(0, span[0]), min(last, span[1])]
    tokens: List[Any] = []
    for key in ("t-connectors.rf", "t-connectors_ext.rf"):
        for ref in _refs(link, key):
            if _strip(ref) in positions:
                tokens.append(list(positions[_strip(ref)]))
            else:
                notes["t-connectors not in the file"] = notes.get("t-connectors not in the file", 0) + 1
                tokens.append(_strip(ref))
    words = []
    for key in ("a-connectors.rf", "a-connectors_ext.rf"):
        for ref in _refs(link, key):
            aid = _strip(ref)
            tokens.append(aid)
            if a_ids is None:
                notes["a-connectors not checked (no .a file)"] = notes.get("a-connectors not checked (no .a file)", 0) + 1
            elif aid not in a_ids:
                notes["a-connectors not in the .a file"] = notes.get("a-connectors not in the .a file", 0) + 1
            elif aid in forms:
                words.append(forms[aid])
    record["connective"] = tokens
    if words:
        record["connective_text"] = " ".join(words)
    src = _text(link, "src")
    if src:
        record["marks"] = [f"src={src}"]
    return record


def sniff_pml(path: PathLike) -> bool:
    """A ``.t`` or ``.t.gz`` file."""
    name = os.fspath(path)
    return name.endswith(".t") or name.endswith(".t.gz")


__all__ = ["members", "read_pml_discourse", "sniff_pml"]
