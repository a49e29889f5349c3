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
    with pytest.warns(DeprecationWarning, match="EvaluationSettings"):  # one name per concept (issue 49)
        assert sa.EvaluationOptions is sa.EvaluationSettings
    with pytest.warns(DeprecationWarning, match="EvalbSettings"):
        assert sa.EvalbParams is sa.EvalbSettings
    assert "EvaluationSettings" in sa.__all__ and "EvaluationOptions" not in sa.__all__
    assert "EvalbParams" not in dir(sa) and "EvaluationOptions" not in dir(sa)


#: 0.3's names of the CoNLL-U token and word columns ("layers" are annotation layers only): old
#: module and name -> the 0.4 name in ``spacy_agreement.adapters.conllu``
RENAMED_COLUMNS = {
    ("spacy_agreement.adapters.conllu_words", "ConlluLayers"): "ConlluColumns",
    ("spacy_agreement.adapters.conllu_words", "SentenceLayers"): "SentenceColumns",
    ("spacy_agreement.adapters.conllu_words", "read_conllu_layers"): "read_conllu_columns",
    ("spacy_agreement.adapters.conllu_words", "parse_conllu_layers"): "parse_conllu_columns",
    ("spacy_agreement.adapters.conllu_words", "layers_from_scan"): "conllu_columns_from_scan",
    ("spacy_agreement.adapters.conll", "columns_from_scan"): "tree_columns_from_scan",
}


@pytest.mark.parametrize("old_module, old_name", sorted(RENAMED_COLUMNS))
def test_an_old_name_of_the_conllu_columns_is_the_new_object(old_module, old_name):
    import spacy_agreement.adapters.conllu as conllu

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        module = importlib.import_module(old_module)
    new = RENAMED_COLUMNS[old_module, old_name]
    assert getattr(module, old_name) is getattr(conllu, new)
    assert new in conllu.__all__ and old_name not in conllu.__all__
    assert any(line.startswith(f"| `{old_name}` ") and line.endswith(f"| `{new}` |") for line in MIGRATION.splitlines())


def test_the_old_conllu_modules_keep_every_name_they_had():
    """What 0.3's ``adapters.conll``, ``adapters.conllu_words`` and ``adapters.string_arrays`` had
    (those the library and its tests import from them) is there under the old paths."""
    had = {"spacy_agreement.adapters.conll": "FIELDS ReadStats TreeColumns columns_from_scan from_conllu iter_conll "
                                             "parse_conll read_conll sentence_text space_after surface_tokens "
                                             "write_conll _LINE_PARSERS _quick_token _blocks",
           "spacy_agreement.adapters.conllu_words": "BLOCK COLUMNS ConlluLayers PathLike Scanned SentenceLayers "
                                                    "StringArrays join_scanned layers_from_scan parse_conllu_layers "
                                                    "read_conllu_layers remove_spaces scan_file _read",
           "spacy_agreement.adapters.string_arrays": "StringArrays remove_spaces"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for old, names in had.items():
            module = importlib.import_module(old)
            assert not [n for n in names.split() if not hasattr(module, n)], old


def test_a_module_of_the_package_importing_an_old_path_is_not_warned():
    """A use of an old path inside the package (not renamed yet) is the library's business: the
    warning is for the user's code."""
    old = "spacy_agreement.adapters.conll"
    importlib.import_module(MOVED[old])
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(f"import {old}", {"__name__": "spacy_agreement._a_module_of_the_package"})
    assert not [w for w in caught if issubclass(w.category, DeprecationWarning)]
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(f"import {old}", {"__name__": "users_code"})
    assert [w.category for w in caught] == [DeprecationWarning]
