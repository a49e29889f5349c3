"""Which parser metric agrees with people who judge parses? Generates a synthetic judgment set
with judges of known accuracy (make_judgments.py) and runs the analyses of Plank et al. (2015).

Run: python examples/judgments_analysis.py [OUT.jsonl]
"""
import sys
import tempfile
from pathlib import Path

from spacy_agreement.evaluation.judgments.analysis import analyse_judgments, format_analysis, load_judgments

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_judgments import JUDGES, main as make_judgments  # noqa: E402


def main(argv):
    path = Path(argv[0]) if argv else Path(tempfile.mkdtemp()) / "judgments.jsonl"
    make_judgments([str(path), "--items", "200"])
    result = analyse_judgments(load_judgments(path))
    print(format_analysis(result))
    print("true judge accuracies:", JUDGES)


if __name__ == "__main__":
    main(sys.argv[1:])
