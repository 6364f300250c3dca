"""Failpoints fire where armed and only there; a misspelt one is an error, not a silent no-op."""
from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time

import pytest
from processes import process_stat

from hermes_eval.core import failpoints
from hermes_eval.core.failpoints import ENV, failpoint, parse


def test_unarmed_failpoints_do_nothing(monkeypatch):
    """Nothing armed, or another point armed: a hit neither fires nor counts (a count would make an
    armed ``@N`` fire early)."""
    monkeypatch.setattr(failpoints, "_hits", {})
    monkeypatch.delenv(ENV, raising=False)
    failpoint("write", "/x")
    failpoint("run.locked")
    assert failpoints._hits == {}
    monkeypatch.setenv(ENV, "run.recorded=enospc")
    failpoint("write", "/x")
    failpoint("run.locked")
    assert failpoints._hits == {}


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


def test_stop_holds_the_process_at_the_nth_hit_only_until_sigcont():
    code = f"import os; os.environ['{ENV}'] = 'run.locked=stop@2'; " \
           "from hermes_eval.core.failpoints import failpoint\n" \
           "for i in range(3):\n    print(i, flush=True); failpoint('run.locked')\nprint('done', flush=True)"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert [proc.stdout.readline() for _ in range(2)] == ["0\n", "1\n"]
        while process_stat(proc.pid)[0] != "T":  # stopped at its second hit, before printing 2
            assert proc.poll() is None
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGCONT)
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0 and out == "2\ndone\n"  # the third hit went through


@pytest.mark.parametrize("spec", ["writ=enospc", "write=explode", "write=enospc@x"])
def test_a_misspelt_failpoint_is_refused(spec):
    with pytest.raises(ValueError, match=ENV):
        parse(spec)
