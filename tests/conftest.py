"""Shared fixtures (where the inter-annotator data of Skjærholt (2014) and the judged parses of
Plank et al. (2015) live), the ``slow`` marker: ``pytest`` skips the slow tests (the quick run),
``pytest --runslow`` runs everything (what CI runs), ``pytest -m slow`` only the slow ones; and,
under ``CI=true``, the skip allow-list: a test skipped for a reason that no line of
``tests/skip_allowlist.txt`` allows fails the run (:func:`pytest_sessionfinish`)."""
import fnmatch
import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_IAA = ROOT.parent / "shared" / "data" / "iaa"
DEFAULT_PLANK = ROOT.parent / "shared" / "data" / "plank2015"
#: The skip reasons CI accepts (fnmatch patterns, one a line; ``#`` starts a comment).
SKIP_ALLOWLIST = Path(__file__).resolve().parent / "skip_allowlist.txt"


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
    if _on_ci():
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


@pytest.fixture(scope="session")
def plank_data():
    """The data released with Plank et al. (2015) (``CoNLL2015/datapackage``: ``da de en es hr``,
    each with gold.conll, parser1.conll, parser2.conll and annotated.csv): the shared
    ``plank2015`` folder, or ``SPACY_AGREEMENT_PLANK_DATA``."""
    path = Path(os.environ.get("SPACY_AGREEMENT_PLANK_DATA", DEFAULT_PLANK))
    if not all((path / lang / "annotated.csv").is_file() for lang in ("da", "de", "en", "es", "hr")):
        _missing(f"the Plank et al. (2015) data not found at {path} (set SPACY_AGREEMENT_PLANK_DATA to the folder "
                 "holding da/ de/ en/ es/ hr/, CoNLL2015/datapackage): the paper's Tables 1, 2 and 5 NOT checked")
    return path


# --------------------------------------------------------------------------- the skip allow-list

#: What pytest_sessionfinish found, for the terminal summary.
_UNLISTED = pytest.StashKey[list]()


def _on_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def allowed_skip_patterns(config=None, path: Path = SKIP_ALLOWLIST):
    """The patterns of ``tests/skip_allowlist.txt`` that hold in this run: one a line, blank
    lines and ``#`` comments left out, a line ``[condition] pattern`` only where the condition
    holds (the file's header says which there are)."""
    import shutil

    holds = {
        "quick run": config is None or not config.getoption("--runslow"),
        "no apt-get": shutil.which("apt-get") is None,
        "installed package": _installed_elsewhere(),
    }
    patterns = []
    for line in path.read_text(encoding="utf-8").splitlines() if path.is_file() else []:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            condition, _, line = line[1:].partition("]")
            if condition not in holds:
                raise ValueError(f"{path}: unknown condition [{condition}]")
            if not holds[condition]:
                continue
        patterns.append(line.strip())
    return patterns


def skip_reason(report) -> str:
    """The reason of a skipped test's report (``Skipped: `` taken off)."""
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    return reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason


def unlisted_skips(reports, patterns):
    """(location, reason) of each skip whose reason matches no pattern, once per reason and location."""
    found = []
    for report in reports:
        reason = skip_reason(report)
        if not any(fnmatch.fnmatchcase(reason, pattern) for pattern in patterns):
            where = report.longrepr[0] if isinstance(report.longrepr, tuple) else report.nodeid
            if (where, reason) not in found:
                found.append((where, reason))
    return found


def _skipped_reports(config):
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    return [] if reporter is None else list(reporter.stats.get("skipped", []))


def pytest_sessionfinish(session, exitstatus):
    """Under ``CI=true``, a skip whose reason ``tests/skip_allowlist.txt`` does not allow fails
    the run (exit status 1), so that a check that stopped running is seen."""
    if not _on_ci():
        return
    unlisted = unlisted_skips(_skipped_reports(session.config), allowed_skip_patterns(session.config))
    session.config.stash[_UNLISTED] = unlisted
    if unlisted and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    unlisted = config.stash.get(_UNLISTED, [])
    if unlisted:
        terminalreporter.section("skips not in tests/skip_allowlist.txt (CI=true: the run fails)", red=True)
        for where, reason in unlisted:
            terminalreporter.line(f"{where}: {reason}")
