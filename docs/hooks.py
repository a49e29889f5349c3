"""MkDocs hooks: the sample output of every guide is the real output, made when the site is
built, and the conventions page lists every signature field from the code.

* ``<!-- run: COMMAND -->`` is replaced by a ``console`` block showing ``$ COMMAND`` and what it
  printed, run with ``bash`` in a folder holding the files the examples name (:func:`make_sandbox`:
  the package's demo annotations and the repository's test data); a command that fails fails the build.
* ``<!-- signature-table -->`` is replaced by the table of :func:`spacy_agreement.signature.signature_table`.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from importlib import resources
from pathlib import Path

RUN = re.compile(r"^<!-- run: (.+?) -->$", re.M)
_SANDBOX: dict = {}


def make_sandbox(root: Path) -> Path:
    """Fill ``root`` with the files the README's and the docs' examples name, from the package's
    demo annotations and the repository's test data; return it."""
    repo = Path(__file__).resolve().parents[1]
    demo = Path(str(resources.files("spacy_agreement") / "data" / "demo"))
    dependency, phrase = demo / "dependency", demo / "phrase"
    copies = {"annotator1.conll": dependency / "anna" / "news-anna.conllu",
              "annotator2.conll": dependency / "ben" / "news-ben.conllu",
              "gold.conllu": dependency / "anna" / "news-anna.conllu",
              "predicted.conllu": dependency / "ben" / "news-ben.conllu",
              "corpus.conllu": dependency / "anna" / "story-anna.conllu",
              "a.tree": phrase / "annotator-a.tree", "b.tree": phrase / "annotator-b.tree",
              "gold.mrg": phrase / "annotator-a.tree", "candidate.mrg": phrase / "annotator-b.tree",
              "gold.gld": repo / "tests" / "data" / "evalb" / "main.gld",
              "test.tst": repo / "tests" / "data" / "evalb" / "main.tst",
              "COLLINS.prm": repo / "tests" / "data" / "evalb" / "evalb.prm",
              "discourse.json": repo / "examples" / "discourse_example.json"}
    for name, source in copies.items():
        shutil.copy(source, root / name)
    shutil.copytree(dependency, root / "data")
    os.symlink(repo / "examples", root / "examples")
    return root


def _sandbox() -> Path:
    if "root" not in _SANDBOX:
        _SANDBOX["root"] = make_sandbox(Path(tempfile.mkdtemp(prefix="spacy-agreement-docs-")))
    return _SANDBOX["root"]


def _run(match: "re.Match[str]") -> str:
    command = match.group(1)
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1")
    done = subprocess.run(["bash", "-c", command], cwd=_sandbox(), capture_output=True, text=True, env=env,
                          timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"docs: {command!r} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    shown = (done.stdout + done.stderr).rstrip()
    return f"```console\n$ {command}\n{shown}\n```"


def _signature_table() -> str:
    from spacy_agreement.signature import signature_table
    import spacy_agreement.cli  # noqa: F401  (every computation registered)

    rows = ["| computation | key | setting | default | meaning |", "| --- | --- | --- | --- | --- |"]
    rows += [f"| `{c}` | `{k}` | `{f}` | `{d}` | {doc} |" if str(d) else f"| `{c}` | `{k}` | `{f}` | (none) | {doc} |"
             for c, k, f, d, doc in signature_table()]
    return "\n".join(rows)


def on_page_markdown(markdown: str, **_: object) -> str:
    markdown = RUN.sub(_run, markdown)
    if "<!-- signature-table -->" in markdown:
        markdown = markdown.replace("<!-- signature-table -->", _signature_table())
    return markdown


def on_post_build(**_: object) -> None:
    root = _SANDBOX.pop("root", None)
    if root is not None:
        shutil.rmtree(root, ignore_errors=True)
