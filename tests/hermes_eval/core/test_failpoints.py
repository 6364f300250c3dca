"""Failpoints fire where armed and only there; a misspelt one is an error, not a silent no-op."""
from __future__ import annotations

import errno
import subprocess
import sys

import pytest

from hermes_eval.core import failpoints
from hermes_eval.core.failpoints import ENV, failpoint, parse


def test_unarmed_failpoints_do_nothing(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    failpoint("write", "/x")


def test_an_injected_error_fires_from_the_nth_hit_and_names_the_file(monkeypatch):
    monkeypatch.setenv(ENV, "write=enospc@2")
    monkeypatch.setattr(failpoints, "_hits", {})
    failpoint("write", "/a")
    failpoint("run.recorded")  # not armed
    for path in ("/b", "/c"):
        with pytest.raises(OSError) as err:
            failpoint("write", path)
        assert err.value.errno == errno.ENOSPC and err.value.filename == path


def test_kill_ends_the_process_with_sigkill():
    code = f"import os; os.environ['{ENV}'] = 'run.locked=kill'; " \
           "from hermes_eval.core.failpoints import failpoint; failpoint('run.locked'); print('survived')"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == -9 and "survived" not in proc.stdout


@pytest.mark.parametrize("spec", ["writ=enospc", "write=explode", "write=enospc@x"])
def test_a_misspelt_failpoint_is_refused(spec):
    with pytest.raises(ValueError, match=ENV):
        parse(spec)
