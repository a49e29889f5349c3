"""The judgments family split into small modules (issue 40: no module over ~500 lines): the
analysis (``analysis``), the judges' preferences kept compact (``judged``) and the text of the
tables (``analysis_text``). Every public name stays importable from ``analysis`` and from the
package, as the same object."""
import importlib

import spacy_agreement.evaluation.judgments as judgments
from spacy_agreement.evaluation.judgments import analysis

#: what 0.3's module, then ``judgments.analysis``, offered
ANALYSIS_NAMES = ("DEFAULT_METRICS PREFERENCES TIE JudgmentItem JudgmentAnalysis judgment_metric_choices make_item "
                  "load_datapackage iter_judgments load_judgments analyse_judgments judged_line format_analysis "
                  "cohen_kappa fleiss_kappa JudgmentError _spearman _Judged _JudgedItems").split()


def test_every_name_of_the_analysis_is_still_importable_from_it():
    missing = [name for name in ANALYSIS_NAMES if not hasattr(analysis, name)]
    assert not missing
    assert set(analysis.__all__) <= set(dir(analysis))


def test_the_package_gives_the_same_objects_as_the_modules():
    for name in judgments.__all__:
        value = getattr(judgments, name)
        module = importlib.import_module(judgments._EXPORTS[name], judgments.__name__)
        assert getattr(module, name) is value, name
        if hasattr(analysis, name):
            assert getattr(analysis, name) is value, name


def test_the_modules_are_small():
    from pathlib import Path

    folder = Path(judgments.__file__).parent
    assert {p.name: len(p.read_text(encoding="utf-8").splitlines()) <= 500 for p in folder.glob("*.py")} == \
        {p.name: True for p in folder.glob("*.py")}
