"""Every read error names its file (issue 17): text that is not UTF-8 (with the line of the
first bad byte), a directory given as a file, a missing file, through each reader."""
import pytest

import spacy_agreement as sa
from spacy_agreement.errors import AgreementError
from spacy_agreement.evaluation.discourse.arrows import load_discourse
from spacy_agreement.evaluation.judgments.analysis import load_judgments
from spacy_agreement.evaluation.dependency.label_sets import read_label_map

READERS = {"read_conll": sa.read_conll, "read_brackets": sa.read_brackets, "load_discourse": load_discourse,
           "load_judgments": load_judgments, "read_label_map": read_label_map}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_text_that_is_not_utf8_names_file_and_line(reader, tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("1\tok\t_\tX\t_\t_\t0\troot\t_\t_\n\n2\tGr\u00fc\u00dfe\n".encode("latin-1"))
    with pytest.raises(AgreementError) as caught:
        READERS[reader](path)
    assert str(caught.value).startswith(f"{path}:3: not UTF-8 text")
    assert "byte 0xfc" in str(caught.value)


@pytest.mark.parametrize("reader", sorted(READERS))
def test_directories_and_missing_files_name_the_path(reader, tmp_path):
    with pytest.raises(OSError) as caught:
        READERS[reader](tmp_path)
    assert str(tmp_path) in str(caught.value)
    with pytest.raises(OSError) as caught:
        READERS[reader](tmp_path / "nope.conllu")
    assert "nope.conllu" in str(caught.value)
