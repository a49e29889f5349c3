"""Shared fixtures: where the inter-annotator data of Skjærholt (2014) lives."""
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_IAA = ROOT.parent / "shared" / "data" / "iaa"


def iaa_dir() -> Path:
    return Path(os.environ.get("SPACY_AGREEMENT_IAA_DATA", DEFAULT_IAA))


@pytest.fixture(scope="session")
def iaa():
    path = iaa_dir()
    if not (path / "ndt").is_dir() or not (path / "cdt").is_dir():
        pytest.skip(
            f"inter-annotator data not found at {path} (set SPACY_AGREEMENT_IAA_DATA to the folder "
            "holding ndt/ and cdt/): Table 2 of Skjærholt (2014) NOT checked"
        )
    return path


@pytest.fixture(scope="session")
def released_iaa():
    """The data folder of the code released with Skjærholt (2014) (``syn-agreement/data``:
    cdt/en, cdt/es, cdt/it, ssd), which the repository does not ship."""
    value = os.environ.get("SPACY_AGREEMENT_RELEASED_IAA_DATA")
    path = Path(value) if value else None
    if path is None or not (path / "ssd").is_dir() or not (path / "cdt" / "es").is_dir():
        pytest.skip(
            "released agreement data of Skjærholt (2014) not found (set SPACY_AGREEMENT_RELEASED_IAA_DATA to the "
            "data/ folder of the syn-agreement release): Table 2 rows CDT en/es/it and SSD NOT checked"
        )
    return path
