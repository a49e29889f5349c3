"""What a judging page (:mod:`.judging_page`) carries besides its template, made for pages of
thousands of items: the items' payload, the page id, the key's items, and the pictures read back
from a page.

* The payload is ``{"ties", "items": [{"id", "text", "pictures": {"1", "2"[, "gold"]}}]}`` as
  ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))`` writes it, gzip-compressed (level
  6, no time stamp) and base64-encoded (:func:`packed_payload`). The items are drawn a batch at a
  time (:data:`DRAWN_AT_ONCE`; the dependency items by the compiled loops of
  :func:`~.judging_drawing.dependency_pictures`, straight as JSON string insides) and compressed
  by a thread of its own while the next batch is drawn: zlib lets go of the interpreter while it
  compresses, one worker keeps the order, and deflate's output does not depend on how its input
  is cut, so the bytes are those of one ``json.dumps`` compressed at once.
* The page id (:func:`page_id_and_key`) hashes the settings, the sides and every item's trees; the
  key (:func:`key_items`, :func:`key_item_lines`) holds each item's side and trees. A tree given
  twice (the gold that is one of the systems' files) is turned into JSON once.
"""
from __future__ import annotations

import base64
import hashlib
import json
import zlib
from concurrent.futures import ThreadPoolExecutor
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, TypeVar

import numpy as np

from ..adapters.conllu.scanned_trees import tree_codes
from ..adapters.conllu.trees import sentence_text
from ..adapters.judgments_files import tree_json
from ..evaluation.judgments.judging_items import JudgingItem, JudgingSelection
from ..trees import DependencyTree
from .judging_drawing import PictureStrings, dependency_pictures

#: items drawn at a time (the dependency items of a batch at once, the others one by one)
DRAWN_AT_ONCE = 1024
#: where the payload starts in the page
PAYLOAD_OPEN = '<script type="text/plain" id="judging-data">'


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def sentence_shown(item: JudgingItem) -> str:
    """What the page shows as the sentence: the ``# text`` of a CoNLL-U sentence (rebuilt from its
    tokens and ``SpaceAfter=No``), else the words joined by spaces."""
    tree = item.gold if item.gold is not None else item.a
    if isinstance(tree, DependencyTree) and tuple(tree.forms) == tuple(item.words):
        return sentence_text(tree)
    return " ".join(item.words)


def _payload_items(batch: Sequence[JudgingItem], sides: Sequence[str], start: int, marks: bool,
                   show_gold: bool, strings: Optional[PictureStrings] = None) -> bytes:
    """The items of ``batch`` (the ``start``-th of the page first) as the payload writes them
    (``strings``: the words and labels of the page's earlier batches)."""
    drawn = dependency_pictures([(item.words, item.a, item.b, item.gold if show_gold else None) for item in batch],
                                marks, against_gold=show_gold, as_json=True, strings=strings)
    parts: List[bytes] = []
    for k, item, first, pictures in zip(range(start, start + len(batch)), batch, sides, drawn):
        head = '%s{"id":%s,"text":%s,"pictures":{"1":"' % ("," if k else "", _json(item.id),
                                                            _json(sentence_shown(item)))
        parts += [head.encode("utf-8"), pictures[first], b'","2":"', pictures["B" if first == "A" else "A"]]
        if "gold" in pictures:
            parts += [b'","gold":"', pictures["gold"]]
        parts.append(b'"}}')
    return b"".join(parts)


T = TypeVar("T")


def packed_payload(items: Sequence[JudgingItem], sides: Sequence[str], ties: bool, marks: bool, show_gold: bool,
                   meanwhile: Callable[[], T]) -> Tuple[str, T]:
    """The page's payload, compressed and base64-encoded (module docstring): ``sides[k]`` the
    system shown first for item ``k``, ``marks`` and ``show_gold`` as the page draws them; and what
    ``meanwhile()`` gives, called once every item is drawn, while the last are compressed."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # gzip's format, no time stamp
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="judging-page") as compressor:
        chunks = [compressor.submit(packer.compress, ('{"ties":%s,"items":[' % json.dumps(ties)).encode("utf-8"))]
        strings = PictureStrings()  # each word and label worked out once for the page
        for start in range(0, len(items), DRAWN_AT_ONCE):
            batch = _payload_items(items[start:start + DRAWN_AT_ONCE], sides[start:], start, marks, show_gold, strings)
            chunks.append(compressor.submit(packer.compress, batch))
        chunks.append(compressor.submit(packer.compress, b"]}"))
        chunks.append(compressor.submit(packer.flush))
        done = meanwhile()
        packed = b"".join(chunk.result() for chunk in chunks)
    return base64.b64encode(packed).decode("ascii"), done


def pictures_of_page(html: str, sides: Sequence[str]) -> List[Dict[str, str]]:
    """Each item's drawings in a page, ``{"A": svg, "B": svg}`` (and ``"gold"`` when shown), read
    back from its payload (``sides``: the system shown first, per item)."""
    start = html.index(PAYLOAD_OPEN) + len(PAYLOAD_OPEN)
    packed = html[start:html.index("</script>", start)]
    payload = json.loads(zlib.decompress(base64.b64decode(packed), 31).decode("utf-8"))
    out = []
    for entry, first in zip(payload["items"], sides):
        shown = entry["pictures"]
        by_system = {first: shown["1"], ("B" if first == "A" else "A"): shown["2"]}
        drawn = {name: by_system[name] for name in ("A", "B")}
        if "gold" in shown:
            drawn["gold"] = shown["gold"]
        out.append(drawn)
    return out


def _tree_texts(tree: Any) -> Tuple[str, str]:
    """``json.dumps(tree_json(tree), ensure_ascii=False)``, and the same with the compact
    separators ``(",", ":")``, each string of the tree encoded once for both."""
    if not isinstance(tree, DependencyTree):
        data = tree_json(tree)
        return _json(data), _compact(data)
    columns = [('"forms"', list(map(encode_basestring, tree.forms))), ('"heads"', list(map(str, tree.heads.tolist()))),
               ('"deprels"', list(map(encode_basestring, tree.deprels)))]
    if any(u != "_" for u in tree.upos):  # as tree_json: the UPOS only where known
        columns.append(('"upos"', list(map(encode_basestring, tree.upos))))
    spaced = "{" + ", ".join(f"{name}: [{', '.join(values)}]" for name, values in columns) + "}"
    compact = "{" + ",".join(f"{name}:[{','.join(values)}]" for name, values in columns) + "}"
    return spaced, compact


def _compiled_texts(trees: Sequence[DependencyTree]) -> Optional[List[Tuple[bytes, bytes]]]:
    """:func:`_tree_texts` of dependency trees read through the compiled scanner, UTF-8, written by
    the compiled loops (``_drawing.tree_texts``) from their files' codes
    (:func:`~spacy_agreement.adapters.conllu.scanned_trees.tree_codes`), each distinct string
    JSON-encoded once; ``None`` where a tree was not read so."""
    from .._drawing import tree_texts

    found = tree_codes(trees, ("form", "deprel", "upos"))
    if found is None:
        return None
    strings, codes, heads, offsets = found
    try:
        texts = [encode_basestring(value).encode("utf-8") for value in strings]
    except UnicodeEncodeError:  # not UTF-8 (a lone surrogate): the Python path raises as before
        return None
    known = np.concatenate(([0], np.cumsum(np.fromiter((v != "_" for v in strings), bool, len(strings))[codes[2]])))
    with_upos = (known[offsets[1:]] > known[offsets[:-1]]).astype(np.uint8)  # tree_json: the UPOS where known
    return tree_texts(texts, offsets, codes[0], np.ascontiguousarray(heads, dtype=np.int32), codes[1], codes[2],
                      with_upos)


def _texts_of(trees: Sequence[Any]) -> List[Tuple[bytes, bytes]]:
    """:func:`_tree_texts` of each tree, UTF-8: by the compiled loops where all the dependency trees
    were read through the scanner (:func:`_compiled_texts`), else one by one."""
    texts: List[Optional[Tuple[bytes, bytes]]] = [None] * len(trees)
    dependency = [k for k, tree in enumerate(trees) if type(tree) is DependencyTree]
    compiled = _compiled_texts([trees[k] for k in dependency]) if dependency else None
    if compiled is not None:
        for k, pair in zip(dependency, compiled):
            texts[k] = pair
    for k, tree in enumerate(trees):
        if texts[k] is None:
            spaced, compact = _tree_texts(tree)
            texts[k] = (spaced.encode("utf-8"), compact.encode("utf-8"))
    return texts  # type: ignore[return-value]


def _item_texts(items: Sequence[JudgingItem], sides: Sequence[str]) -> Iterator[Tuple[bytes, bytes]]:
    """Per item, UTF-8, what the page id hashes, ``json.dumps([id, a, b, gold], ensure_ascii=False)``,
    and its line of the key, ``json.dumps(entry, ensure_ascii=False, separators=(",", ":"))`` of its
    :func:`key_items` entry (after a comma but for the first); each tree turned into JSON once for
    both (:func:`_texts_of`), a gold that is A's tree (read from the same file) once for the two."""
    n = len(items)
    own_gold = [k for k, item in enumerate(items) if item.gold is not None and item.gold is not item.a]
    texts = _texts_of([item.a for item in items] + [item.b for item in items] + [items[k].gold for k in own_gold])
    gold_texts = dict(zip(own_gold, texts[2 * n:]))
    firsts = {"A": b'"A"', "B": b'"B"'}
    for k, (item, first) in enumerate(zip(items, sides)):
        (a, a_key), (b, b_key) = texts[k], texts[n + k]
        gold, gold_key = (b"null", None) if item.gold is None else texts[k] if item.gold is item.a else gold_texts[k]
        name = (encode_basestring(item.id) if type(item.id) is str else _json(item.id)).encode("utf-8")
        yield (b"[%s, %s, %s, %s]" % (name, a, b, gold),
               b'%s{"id":%s,"first":%s,"a":%s,"b":%s%s}' % (b"," if k else b"", name, firsts.get(first) or
                                                           _compact(first).encode("utf-8"), a_key, b_key,
                                                           b"" if gold_key is None else b',"gold":' + gold_key))


def page_id_and_key(selection: JudgingSelection, sides: List[str], show_gold: bool, marks: bool,
                    shuffle: bool) -> Tuple[str, List[bytes]]:
    """A hash of everything that makes the study (:mod:`.judging_page`'s docstring): the sha256 of
    the settings, sides and options, then of each item's ``json.dumps([id, a, b, gold],
    ensure_ascii=False)``, its first 12 hex digits; and the key's items as the key file writes
    them (:func:`key_item_lines`, UTF-8), made in the same pass."""
    digest = hashlib.sha256()
    digest.update(json.dumps([selection.settings.signature(), show_gold, marks, shuffle, sides]).encode("utf-8"))
    lines = []
    for hashed, line in _item_texts(selection.items, sides):
        digest.update(hashed)
        lines.append(line)
    return digest.hexdigest()[:12], lines


def key_items(items: Sequence[JudgingItem], sides: Sequence[str]) -> Iterator[Dict[str, Any]]:
    """The key's items: ``{"id", "first", "a", "b"[, "gold"]}``, the trees as :func:`tree_json`."""
    for item, first in zip(items, sides):
        a = tree_json(item.a)
        entry: Dict[str, Any] = {"id": item.id, "first": first, "a": a, "b": tree_json(item.b)}
        if item.gold is not None:
            entry["gold"] = a if item.gold is item.a else tree_json(item.gold)
        yield entry


def key_item_lines(items: Sequence[JudgingItem], sides: Sequence[str]) -> Iterator[bytes]:
    """:func:`key_items` as the key file writes them, comma-separated, UTF-8 (:func:`_item_texts`)."""
    return (line for _, line in _item_texts(items, sides))


__all__ = ["DRAWN_AT_ONCE", "PAYLOAD_OPEN", "key_item_lines", "key_items", "packed_payload",
           "page_id_and_key", "pictures_of_page", "sentence_shown"]
