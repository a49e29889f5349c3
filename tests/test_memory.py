"""The collector paused while a corpus is built (spacy_agreement._memory): restored as it was,
error or not; what was built frozen only in a command line process. Each case runs in a process
of its own, so the test process's collector is never touched."""
import subprocess
import sys
import textwrap

import pytest


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_library_process_is_paused_and_restored_not_frozen():
    assert run("""
        import gc
        from spacy_agreement._memory import collection_paused
        before = gc.get_freeze_count()
        with collection_paused():
            inside = gc.isenabled()
            built = [[i] for i in range(5000)]
        after = gc.isenabled()
        gc.disable()
        with collection_paused():
            pass
        print(inside, after, gc.isenabled(), gc.get_freeze_count() - before)
    """) == "False True False 0"


def test_restored_after_an_error():
    assert run("""
        import gc
        from spacy_agreement._memory import collection_paused
        try:
            with collection_paused():
                raise ValueError
        except ValueError:
            pass
        print(gc.isenabled())
    """) == "True"


def test_a_command_line_process_freezes_what_it_built():
    out = run("""
        import gc
        from spacy_agreement import _memory
        _memory.freeze_after_reading()
        before = gc.get_freeze_count()
        with _memory.collection_paused():
            built = [[i] for i in range(5000)]
        print(gc.isenabled(), gc.get_freeze_count() - before >= 5000)
    """)
    assert out == "True True"


@pytest.mark.parametrize("argv", [["--version"], ["evaluate", "--help"]])
def test_the_cli_asks_for_it(argv):
    assert run(f"""
        import sys
        from spacy_agreement import _memory
        from spacy_agreement.cli import main
        sys.argv = ["spacy-agreement", *{argv!r}]
        try:
            main()
        except SystemExit:
            pass
        print(_memory._FREEZE)
    """).endswith("True")
