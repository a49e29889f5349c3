"""An annotation project's report: α, the items to adjudicate first with the annotations side
by side, annotator diagnostics and label confusions, in one HTML page.

Run: python examples/project_report.py [OUT.html] [ANNOTATOR_DIR ...]
Without directories it uses the example annotations shipped with the package. Without OUT.html
the page goes into a new temporary directory (never into the checkout); the last line says where.
"""
import sys
import tempfile
from importlib import resources
from pathlib import Path

import spacy_agreement as sa
from spacy_agreement.report.html import html_report


def main(argv):
    out = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="agreement-report-")) / "agreement-report.html"
    out.parent.mkdir(parents=True, exist_ok=True)
    if len(argv) > 1:
        corpus = sa.load_annotator_dirs(argv[1:])
    else:
        base = resources.files("spacy_agreement") / "data" / "demo" / "dependency"
        with resources.as_file(base) as folder:
            corpus = sa.load_annotator_dirs(sorted(p for p in folder.iterdir() if p.is_dir()))
    out.write_text(html_report(corpus, items=10, title="Example annotation project"), encoding="utf-8")
    print(f"wrote {out} ({len(corpus)} items, annotators {', '.join(corpus.annotators)})")


if __name__ == "__main__":
    main(sys.argv[1:])
