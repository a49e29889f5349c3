"""Shared fixtures (where the inter-annotator data of Skjærholt (2014) lives) and the
``slow`` marker: ``pytest`` skips the slow tests (the quick run), ``pytest --runslow`` runs
everything (what CI runs), ``pytest -m slow`` only the slow ones."""
import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_IAA = ROOT.parent / "shared" / "data" / "iaa"


def _installed_elsewhere() -> bool:
    """Whether the spacy_agreement under test is not this checkout's (a wheel, say)."""
    spec = importlib.util.find_spec("spacy_agreement")  # found, not imported
    return spec is not None and spec.origin is not None and \
        Path(spec.origin).resolve().parent != ROOT / "spacy_agreement"


if _installed_elsewhere():
    # Python processes started by the tests (``python -c``, ``python -m``) would put their working
    # directory, this checkout, first on sys.path and import its sources instead of the package
    # under test; PYTHONSAFEPATH (Python 3.11+) stops that.
    os.environ["PYTHONSAFEPATH"] = "1"


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run the tests marked slow (the whole suite, as CI does)")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: takes seconds to minutes (trained pipelines, clusters, large random runs); "
                   "skipped unless --runslow or selected with -m")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow") or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow (or -m slow)")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


def iaa_dir() -> Path:
    return Path(os.environ.get("SPACY_AGREEMENT_IAA_DATA", DEFAULT_IAA))


def _missing(message: str):
    """A shared data set that is not there: a skip on a developer's machine, a failure under
    CI (``CI=true``), where a table that is not reproduced must not pass unseen."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message + " (CI=true: the shared data must be there)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def iaa():
    path = iaa_dir()
    if not (path / "ndt").is_dir() or not (path / "cdt").is_dir():
        _missing(f"inter-annotator data not found at {path} (set SPACY_AGREEMENT_IAA_DATA to the folder "
                 "holding ndt/ and cdt/): Table 2 of Skjærholt (2014) NOT checked")
    return path


@pytest.fixture(scope="session")
def released_iaa():
    """The rows of the data released with Skjærholt (2014) (``syn-agreement/data``: cdt/en,
    cdt/es, cdt/it, ssd): the shared inter-annotator folder, or
    ``SPACY_AGREEMENT_RELEASED_IAA_DATA``."""
    value = os.environ.get("SPACY_AGREEMENT_RELEASED_IAA_DATA")
    path = Path(value) if value else iaa_dir()
    if not (path / "ssd").is_dir() or not (path / "cdt" / "es").is_dir():
        _missing(f"released agreement data of Skjærholt (2014) not found at {path} (set "
                 "SPACY_AGREEMENT_RELEASED_IAA_DATA to the data/ folder of the syn-agreement release): "
                 "Table 2 rows CDT en/es/it and SSD NOT checked")
    return path
