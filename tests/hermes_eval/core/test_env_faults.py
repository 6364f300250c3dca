"""Environment failures are told apart from bugs and each says what happened and what to do."""
from __future__ import annotations

import errno

import pytest

from hermes_eval.core.env_faults import classify


@pytest.mark.parametrize("code,key,words", [(errno.ENOSPC, "no_space", "no space left on device"),
                                            (errno.EDQUOT, "quota", "disk quota exceeded"),
                                            (errno.EACCES, "permission", "permission denied"),
                                            (errno.EROFS, "read_only", "read-only file system")])
def test_os_errors_name_cause_file_and_fix(code, key, words):
    fault = classify(OSError(code, "x", "/runs/a/run.trec"))
    assert fault.cause.key == key
    assert fault.message().startswith(f"{words} (/runs/a/run.trec): ") and "run the same command again" in fault.message()


def test_a_fault_behind_a_wrapping_exception_is_found():
    try:
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError as inner:
            raise RuntimeError("writing the index failed") from inner
    except RuntimeError as outer:
        assert classify(outer).cause.key == "no_space"
    assert classify(OSError("pyarrow: IOError: No space left on device")).cause.key == "no_space"
    assert classify(MemoryError()).cause.key == "no_memory"


@pytest.mark.parametrize("exc", [ValueError("bad value"), KeyError("x"), OSError(errno.ENOENT, "gone", "f")])
def test_bugs_and_bad_input_are_not_environment_faults(exc):
    assert classify(exc) is None
