"""Importing the package is quick: nltk, spaCy, scipy, matplotlib, dask and typer are imported
only where they are used (issue: `import spacy_agreement` took 1.8 s, nearly all nltk)."""
import subprocess
import sys

HEAVY = ("nltk", "spacy", "scipy", "matplotlib", "dask", "distributed", "typer", "thinc", "tqdm")


def test_import_loads_no_heavy_dependency():
    code = ("import sys, spacy_agreement; "
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "", f"imported at package import: {loaded}"


def test_adapters_only_convert():
    """The adapters import no metric, report or command: scoring NLTK parses lives in
    integrations (read from the source, so the package's own __init__ does not interfere)."""
    import ast
    import pathlib

    import spacy_agreement.adapters as adapters

    for path in pathlib.Path(adapters.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level:
                assert not node.module.startswith(("agreement", "evaluation", "integrations", "report",
                                                   "experiments", "cli")), f"{path.name} imports {node.module}"


def test_corpus_is_the_data_model_only():
    """Corpus is data: its module reads no file and imports no adapter (the loaders and the
    reader registry live in adapters/files.py), yet 0.1's names still resolve."""
    import ast
    import pathlib

    import spacy_agreement as sa
    import spacy_agreement.corpus as corpus

    tree = ast.parse(pathlib.Path(corpus.__file__).read_text(encoding="utf-8"))
    top_level = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all(not (n.module or "").startswith("adapters") for n in top_level if isinstance(n, ast.ImportFrom))
    assert not any(isinstance(n, ast.Name) and n.id == "open" for n in ast.walk(tree))
    assert sa.load_parallel_files is sa.adapters.files.load_parallel_files
    assert corpus.load_annotator_dirs is sa.adapters.files.load_annotator_dirs  # the 0.1 place
