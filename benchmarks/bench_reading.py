"""Reading annotator folders of many small files (issue 42: the shared PCEDT-scale corpus as 8,803
files, one sentence each, in ≤ 1 s).

    python benchmarks/bench_reading.py [--corpus DIR] [--repeats 3]

DIR holds `annotator-{1,2,3}.conllu` from `../shared/bench/make_corpus.py` (written to a temporary
folder when not given). Each sentence is written to `FOLDER/annK/<sent_id>-annK.conll`, the layout
its README describes, and `load_annotations([ann1, ann2, ann3], dirs=True)` is timed in-process,
`--repeats` times, median; beside it the same with the plain-line reading turned off (each line
through conllu's token objects, as before issue 42). The corpora must be equal.
"""
import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "bench"


def write_folders(corpus: Path, out: Path) -> int:
    files = 0
    for k in (1, 2, 3):
        folder = out / f"ann{k}"
        folder.mkdir(parents=True, exist_ok=True)
        for block in (corpus / f"annotator-{k}.conllu").read_text(encoding="utf-8").strip().split("\n\n"):
            sent_id = re.search(r"# sent_id = (\S+)", block).group(1)
            (folder / f"{sent_id}-ann{k}.conll").write_text(block + "\n\n", encoding="utf-8")
            files += 1
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    import platform

    import spacy_agreement as sa
    from spacy_agreement.adapters.conllu import trees

    with tempfile.TemporaryDirectory() as tmp:
        corpus = args.corpus
        if corpus is None:
            corpus = Path(tmp) / "corpus"
            subprocess.run([sys.executable, str(SHARED / "make_corpus.py"), "--out", str(corpus)], check=True,
                           stdout=subprocess.DEVNULL)
        files = write_folders(corpus, Path(tmp) / "folders")
        folders = [str(Path(tmp) / "folders" / f"ann{k}") for k in (1, 2, 3)]
        print(f"date {time.strftime('%Y-%m-%d')}, {platform.platform()}, Python {platform.python_version()}, "
              f"spacy-agreement {sa.__version__}; {files} files in 3 annotator folders, median of {args.repeats}")
        quick_columns = trees._quick_columns
        results = {}
        for name, quick in (("plain lines read directly (now)", True), ("every line through conllu (before)", False)):
            trees._quick_columns = quick_columns if quick else (lambda rows: None)
            walls = []
            for _ in range(args.repeats):
                start = time.perf_counter()
                corpus_read = sa.load_annotations(folders, dirs=True)
                walls.append(time.perf_counter() - start)
            results[name] = corpus_read
            print(f"{name:<40} {statistics.median(walls):5.2f} s  (runs {', '.join(f'{w:.2f}' for w in walls)}; "
                  f"{len(corpus_read)} items)")
        trees._quick_columns = quick_columns
        a, b = results.values()
        same = len(a) == len(b) and all(
            x.keys() == y.keys() and all(x[n].heads.tolist() == y[n].heads.tolist() and x[n].deprels == y[n].deprels
                                         and x[n].location == y[n].location for n in x)
            for x, y in zip(a.items, b.items))
        print(f"the same corpus: {same}")
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
