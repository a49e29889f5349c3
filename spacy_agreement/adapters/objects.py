"""The one input model of the public functions: what a Python user holds, coerced in one place.

For each annotator or system every public function (:func:`spacy_agreement.alpha`,
:func:`~spacy_agreement.evaluate`, :func:`~spacy_agreement.layers`, :func:`~spacy_agreement.compare`,
:func:`~spacy_agreement.evalb`, :func:`~spacy_agreement.leaf_ancestor`, :func:`~spacy_agreement.judge`)
takes, beside a path as the command takes it (file, folder, export, ``.spacy``):

* a spaCy ``Doc`` or ``Span``, or an iterable of them (one item per sentence of each doc;
  the ``# sent_id`` from ``doc.user_data["sent_id"]`` or a ``Doc._.sent_id`` extension where
  present, ``-N`` added for the N-th sentence of a doc of several), a ``DocBin``, spaCy
  ``Example``s (their ``reference`` and ``predicted`` docs, where gold and system are asked
  for, or as two annotators);
* an NLTK ``Tree`` (**one** sentence) or an iterable of them, ``DependencyGraph``s;
* the package's :class:`~spacy_agreement.trees.DependencyTree` and
  :class:`~spacy_agreement.trees.ConstituencyTree` (one, or an iterable);
* a :class:`~spacy_agreement.corpus.Corpus` where a function takes data already read.

The objects are written, in the CLI's formats (CoNLL-U for dependency analyses, one bracketed
tree per line for phrase-structure trees), to files of a temporary folder that lives as long as
the call (:class:`InputFiles`), and the function reads them as it reads the paths it is given:
so the numbers are those of the same analyses written to files and given as paths, with every
count of what is set aside and why. The files are named after the argument (``gold.conllu``,
``annotator2.tree``): results name them so, where they name their inputs.

Whatever cannot be read is a :class:`TypeError` naming the function, the argument, what was
given and the kinds accepted; an empty input (no sentence, or a 0-byte file) is the
:class:`~spacy_agreement.errors.EmptyInputError` the CLI reports as ``FILE: empty file``.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

from ..errors import EmptyInputError, InvalidTreeError, Location

#: The kinds the dependency functions take, said in their TypeErrors.
DEPENDENCY_KINDS = ("a path (file, folder, export, .spacy)", "a spaCy Doc or an iterable of Docs", "a DocBin",
                    "spaCy Examples", "nltk DependencyGraphs", "DependencyTrees")
#: The kinds the phrase-structure functions take.
PHRASE_KINDS = ("a path (bracketed file)", "an nltk Tree (one sentence) or an iterable of Trees",
                "ConstituencyTrees")

def is_path(value: Any) -> bool:
    """Whether ``value`` is a path as the commands take one (``str`` or :class:`os.PathLike`)."""
    return isinstance(value, (str, os.PathLike))


def _type_name(value: Any) -> str:
    kind = type(value)
    module = kind.__module__
    return kind.__name__ if module == "builtins" else f"{module}.{kind.__qualname__}"


def _module_type(value: Any, module: str, name: str) -> bool:
    """Whether ``value`` is an instance of ``module.name`` (by the class's own module, without
    importing it: a value of that class means the module is loaded)."""
    loaded = sys.modules.get(module)
    cls = getattr(loaded, name, None) if loaded is not None else None
    return cls is not None and isinstance(value, cls)


def once(value: Any) -> Any:
    """``value`` with an iterator (a generator of docs or trees) read into a list, so that it can
    be looked at more than once (its kind, then its objects)."""
    from collections.abc import Iterator

    return list(value) if isinstance(value, Iterator) else value


def kind_of(value: Any) -> Optional[str]:
    """The kind of one object of the input model: ``"doc"``, ``"span"``, ``"docbin"``,
    ``"example"``, ``"nltk_tree"``, ``"graph"``, ``"dependency_tree"``, ``"phrase_tree"``,
    ``"corpus"``; ``None`` for anything else (a path, an iterable, an unknown object)."""
    from ..corpus import Corpus
    from ..trees import ConstituencyTree, DependencyTree

    if isinstance(value, DependencyTree):
        return "dependency_tree"
    if isinstance(value, ConstituencyTree):
        return "phrase_tree"
    if isinstance(value, Corpus):
        return "corpus"
    if _module_type(value, "spacy.tokens", "Doc"):
        return "doc"
    if _module_type(value, "spacy.tokens", "Span"):
        return "span"
    if _module_type(value, "spacy.tokens", "DocBin"):
        return "docbin"
    if _module_type(value, "spacy.training", "Example"):
        return "example"
    if _module_type(value, "nltk.parse.dependencygraph", "DependencyGraph"):
        return "graph"
    if _module_type(value, "nltk.tree", "Tree"):
        return "nltk_tree"
    return None


#: the family of each kind's analyses
_FAMILY = {"doc": "dependency", "span": "dependency", "docbin": "dependency", "example": "dependency",
           "graph": "dependency", "dependency_tree": "dependency", "nltk_tree": "phrase", "phrase_tree": "phrase"}


def elements(value: Any) -> Optional[Tuple[str, List[Any]]]:
    """The kind and the objects of one input that is not a path: one object, or an iterable
    of objects of one kind; ``None`` when ``value`` is not of the input model. A ``DocBin`` is
    one object (its docs are decoded where it is written: :func:`analyses_text`); an nltk
    ``Tree`` is one sentence (never its subtrees)."""
    kind = kind_of(value)
    if kind is not None:
        return kind, [value]
    if is_path(value) or isinstance(value, (bytes, dict)) or not isinstance(value, Iterable):
        return None
    items = list(value)
    kinds = {kind_of(x) for x in items}
    if not items:
        return "empty", []
    if len(kinds) != 1 or None in kinds or "corpus" in kinds or "docbin" in kinds:
        if kinds <= {"doc", "span"}:
            return "doc", items
        return None
    return kinds.pop(), items


def describe(value: Any) -> str:
    """What was given, for a message: the type, and for an iterable its elements' types."""
    if is_path(value) or kind_of(value) is not None:
        return _type_name(value)
    if isinstance(value, Iterable) and not isinstance(value, (bytes, dict)):
        try:
            inner = sorted({_type_name(x) for x in list(value)[:50]})
        except Exception:  # an iterable that cannot be listed twice: its type is enough
            inner = []
        return f"{_type_name(value)} of {', '.join(inner)}" if inner else _type_name(value)
    return _type_name(value)


def input_error(function: str, argument: str, value: Any, family: Optional[str] = None,
                why: str = "") -> TypeError:
    """The :class:`TypeError` for an input that is not of the input model (or of the wrong
    family): the function, the argument, what was given, the kinds accepted."""
    kinds = DEPENDENCY_KINDS if family == "dependency" else PHRASE_KINDS if family == "phrase" else (
        DEPENDENCY_KINDS + PHRASE_KINDS[1:])
    return TypeError(f"{function}(): {argument} {why or 'cannot be read'}: got {describe(value)}; "
                     f"give {'; '.join(kinds)}")


# --------------------------------------------------------------------------- writers


def _sent_id(doc: Any) -> Optional[str]:
    """A doc's sentence id: ``doc.user_data["sent_id"]``, else a ``Doc._.sent_id`` extension."""
    found = doc.user_data.get("sent_id") if isinstance(doc.user_data, dict) else None
    if found is None and type(doc).has_extension("sent_id"):
        found = doc._.sent_id
    return None if found is None else str(found)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _conllu_block(tree: Any, sent_id: Optional[str] = None, text: Optional[str] = None) -> str:
    """One sentence of CoNLL-U (all ten columns) from a :class:`DependencyTree`."""
    n = len(tree)

    def column(values: Tuple[str, ...]) -> Sequence[str]:
        return [v if v else "_" for v in values] if len(values) == n else ["_"] * n

    lines = []
    if sent_id is not None:
        lines.append(f"# sent_id = {_one_line(sent_id)}")
    if text:
        lines.append(f"# text = {_one_line(text)}")
    ranges = {first: (last, form, misc) for first, last, form, misc in getattr(tree, "multiword", ())}
    lemmas, upos, xpos, feats, misc = (column(tree.lemmas), column(tree.upos), column(tree.xpos),
                                       column(tree.feats), column(tree.misc))
    for k in range(n):
        if k + 1 in ranges:
            last, form, range_misc = ranges[k + 1]
            lines.append(f"{k + 1}-{last}\t{form}\t_\t_\t_\t_\t_\t_\t_\t{range_misc or '_'}")
        lines.append("\t".join([str(k + 1), tree.forms[k] or "_", lemmas[k], upos[k], xpos[k], feats[k],
                                str(int(tree.heads[k])), tree.deprels[k] or "_", "_", misc[k]]))
    return "\n".join(lines) + "\n\n"


def _doc_blocks(doc: Any, argument: str, number: int) -> List[str]:
    """The CoNLL-U sentences of one spaCy ``Doc`` (or ``Span``: one sentence)."""
    from .spacy import doc_tree

    span = None
    if kind_of(doc) == "span":
        span, doc = doc, doc.doc
    where = Location(f"{argument}, doc {number}")
    if not doc.has_annotation("DEP"):
        raise InvalidTreeError("the Doc has no dependency parse (no DEP annotation): parse it, or leave it out",
                               where)
    sents = [span] if span is not None else list(doc.sents)
    sent_id = _sent_id(doc)
    blocks = []
    for s, sent in enumerate(sents, start=1):
        tree, _ = doc_tree(doc, sent.start, sent.end, location=Location(where.source, s))
        own = sent_id if sent_id is None or len(sents) == 1 else f"{sent_id}-{s}"
        blocks.append(_conllu_block(tree, own, sent.text))
    return blocks


def _bracket_line(tree: Any) -> str:
    """One phrase-structure tree on one line, as bracketed files hold it."""
    if kind_of(tree) == "phrase_tree":
        from .brackets import to_nltk

        tree = to_nltk(tree)
    return tree.pformat(margin=sys.maxsize)


def analyses_text(kind: str, objects: Sequence[Any], argument: str) -> Tuple[str, str]:
    """The file text of some objects of one kind and its suffix (``.conllu`` or ``.tree``)."""
    if kind == "docbin":  # one DocBin: its docs
        from spacy.vocab import Vocab

        kind, objects = "doc", [doc for docbin in objects for doc in docbin.get_docs(Vocab())]
        if not objects:
            raise EmptyInputError(f"{argument}: the DocBin holds no docs", option=argument)
    if kind in ("doc", "span"):
        return "".join(b for d, doc in enumerate(objects, start=1) for b in _doc_blocks(doc, argument, d)), ".conllu"
    if kind == "graph":
        from .nltk_graph import from_dependency_graph

        return "".join(_conllu_block(from_dependency_graph(g, Location(argument, s)))
                       for s, g in enumerate(objects, start=1)), ".conllu"
    if kind == "dependency_tree":
        return "".join(_conllu_block(t, t.location.sent_id) for t in objects), ".conllu"
    if kind in ("nltk_tree", "phrase_tree"):
        return "".join(_bracket_line(t) + "\n" for t in objects), ".tree"
    raise AssertionError(kind)


# --------------------------------------------------------------------------- the files of one call


def check_not_empty(path: Any, argument: str) -> None:
    """An empty file (0 bytes) given as ``argument`` is the error the CLI reports for it."""
    try:
        empty = os.path.isfile(path) and os.path.getsize(path) == 0
    except OSError:
        return  # reading it reports the problem
    if empty:
        raise EmptyInputError(f"{os.fspath(path)}: empty file", option=argument)


class InputFiles:
    """The inputs of one call, as paths: a context manager whose :meth:`path` gives a path
    unchanged (after the empty-file check) and writes any other input of the model to a file
    of a temporary folder, removed when the call ends.

    >>> import nltk
    >>> with InputFiles("evalb") as files:
    ...     path = files.path(nltk.Tree.fromstring("(S (NP (D the) (N dog)) (VP (V ran)))"), "gold", "phrase")
    ...     print(os.path.basename(path), open(path).read().strip())
    gold.tree (S (NP (D the) (N dog)) (VP (V ran)))
    """

    def __init__(self, function: str):
        self.function = function
        self.folder: Optional[str] = None

    def __enter__(self) -> "InputFiles":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        if self.folder is not None:
            import shutil

            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def keep(self, result: Any) -> Any:
        """``result``, which reads the files again when asked for details: the folder is
        removed when the result is garbage-collected (or the interpreter exits), not before."""
        if self.folder is not None:
            import shutil
            import weakref

            weakref.finalize(result, shutil.rmtree, self.folder, True)
            self.folder = None
        return result

    def _new_folder(self) -> str:
        """The call's temporary folder, made when the first object is written (a path alone makes none)."""
        if self.folder is None:
            import tempfile

            self.folder = tempfile.mkdtemp(prefix="spacy-agreement-")
        return self.folder

    def _write(self, name: str, data: Union[str, bytes]) -> str:
        """``data`` (text, written as UTF-8, or bytes) to the file ``name`` of the call's folder."""
        path = os.path.join(self._new_folder(), name)
        with open(path, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        return path

    def path(self, value: Any, argument: str, family: Optional[str] = None, *, check_empty: bool = True) -> Any:
        """``value`` (the input given as ``argument``) as a path the function reads.
        ``family``: ``"dependency"`` or ``"phrase"`` where the function reads one only;
        ``check_empty``: a 0-byte file is an error (the CLI's), unless the caller checks it itself."""
        value = once(value)
        if is_path(value):
            if check_empty:
                check_not_empty(value, argument)
            return value
        found = elements(value)
        if found is None:
            raise input_error(self.function, argument, value, family)
        kind, objects = found
        if kind == "empty":
            raise EmptyInputError(f"{self.function}(): {argument} is empty: no sentence to read", option=argument)
        if kind == "example":
            raise input_error(self.function, argument, value, family,
                              "holds spaCy Examples, which are gold and system at once")
        if kind == "corpus":
            raise input_error(self.function, argument, value, family, "is a Corpus, which this function cannot take")
        if family is not None and _FAMILY[kind] != family:
            raise input_error(self.function, argument, value, family,
                              f"holds {'dependency' if family == 'phrase' else 'phrase-structure'} analyses")
        text, suffix = analyses_text(kind, objects, argument)
        return self._write(argument.replace(" ", "") + suffix, text)

    def docbin(self, value: Any, name: str) -> str:
        """A ``DocBin`` as the ``.spacy`` file it would be saved to (its docs' stored analyses
        and user data kept), read as the CLI reads one."""
        return self._write(name + ".spacy", value.to_bytes())

    def examples(self, value: Any, argument: str) -> Optional[Tuple[str, str]]:
        """spaCy ``Example``s (one, or an iterable) as the paths of their reference and
        predicted docs (``reference.conllu``, ``predicted.conllu``); ``None`` for anything else."""
        found = None if is_path(value) else elements(value)
        if found is None or found[0] != "example":
            return None
        examples = found[1]
        reference = self._write("reference.conllu", "".join(
            b for d, eg in enumerate(examples, start=1) for b in _doc_blocks(eg.reference, f"{argument} reference", d)))
        predicted = self._write("predicted.conllu", "".join(
            b for d, eg in enumerate(examples, start=1) for b in _doc_blocks(eg.predicted, f"{argument} predicted", d)))
        return reference, predicted


__all__ = ["DEPENDENCY_KINDS", "InputFiles", "PHRASE_KINDS", "analyses_text", "check_not_empty", "describe",
           "elements", "input_error", "is_path", "kind_of", "once"]
