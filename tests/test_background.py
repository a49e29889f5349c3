"""The second thread of the streamed evaluations (:class:`spacy_agreement._background.Background`):
its value, and its exception raised in the caller's thread."""
import threading

import pytest

from spacy_agreement._background import Background


def test_the_value_comes_back_from_another_thread():
    seen = []
    job = Background(lambda a, b: seen.append(threading.current_thread().name) or a + b, 2, 3, name="worker x")
    assert job.result() == 5 and job.result() == 5
    assert seen == ["worker x"] and threading.current_thread().name != "worker x"


def test_the_exception_is_raised_in_the_callers_thread():
    def fail():
        raise KeyError("nope")

    job = Background(fail)
    job.wait()  # waiting keeps the exception for result()
    with pytest.raises(KeyError, match="nope"):
        job.result()
