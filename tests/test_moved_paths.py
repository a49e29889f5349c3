"""0.3's import paths still work in 0.4 (issue 40: "the old import paths keep working for a
release, listed in the migration page"): each one warns and is the module that holds the code
now, and the migration page lists each one."""
import importlib
import sys
import warnings
from pathlib import Path

import pytest

from spacy_agreement._moved import MOVED

MIGRATION = (Path(__file__).resolve().parents[1] / "docs" / "migration.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_warns_and_is_the_new_module(old):
    new = importlib.import_module(MOVED[old])
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert module is new
    assert module.__name__ == MOVED[old] and module.__spec__.name == MOVED[old]
    assert [w.category for w in caught] == [DeprecationWarning]
    assert old in str(caught[0].message) and MOVED[old] in str(caught[0].message)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_the_migration_page_lists_each_move(old):
    assert f"| `{old}` | `{MOVED[old]}` |" in MIGRATION


def test_from_an_old_path_import_a_name():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from spacy_agreement.evaluation.parser_metrics import evaluate as old_evaluate
        from spacy_agreement.evaluation.metric_options import EvaluationOptions
    from spacy_agreement.evaluation.dependency import EvaluationSettings, evaluate_trees
    assert old_evaluate is evaluate_trees and EvaluationOptions is EvaluationSettings


#: every public name of 0.3's ``evaluation.discourse`` and ``evaluation.judgments`` modules,
#: now the families' packages
OLD_DISCOURSE = ("CorpusAgreement DiscourseAgreement DiscourseDocument DiscourseError MEASURES Node PairCounts "
                 "Relation compare_pair corpus_agreement discourse_agreement document_from_doc format_tables "
                 "load_discourse merge_documents nodes_agree pair_counts relations_from_json set_relations").split()
OLD_JUDGMENTS = ("judgment_metric_choices JudgmentItem make_item load_datapackage iter_judgments load_judgments "
                 "JudgmentAnalysis analyse_judgments judged_line format_analysis").split()


OLD_COMPARISON = "Comparison PairComparison compare_systems merge_metrics system_intervals".split()


@pytest.mark.parametrize("package, names", [("spacy_agreement.evaluation.discourse", OLD_DISCOURSE),
                                            ("spacy_agreement.evaluation.judgments", OLD_JUDGMENTS),
                                            ("spacy_agreement.evaluation.comparison", OLD_COMPARISON)])
def test_a_module_that_became_a_package_keeps_its_names(package, names):
    module = importlib.import_module(package)
    missing = [n for n in names if not hasattr(module, n)]
    assert not missing
    assert set(names) <= set(module.__all__) <= set(dir(module))


def test_the_old_settings_names_are_the_same_classes():
    import spacy_agreement as sa
    assert sa.EvaluationOptions is sa.EvaluationSettings and sa.EvalbParams is sa.EvalbSettings
    assert "EvaluationSettings" in sa.__all__ and "EvaluationOptions" not in sa.__all__
