"""The example scripts run and print what they promise."""
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_quickstart_runs():
    completed = subprocess.run(
        [sys.executable, str(EXAMPLES / "quickstart.py")], capture_output=True, text=True, check=True
    )
    assert "TED between the two analyses: 1.0" in completed.stdout
    assert "3 annotators, 7 items, 18 annotations" in completed.stdout
