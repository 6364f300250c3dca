"""The fault suite: what a user meets on a shared or full machine, through the real CLI.

SIGKILL of the whole sweep at named steps of a run (failpoints, hermes_eval/core/failpoints.py), a
runs folder on a real 300 KB tmpfs, two sweeps on one runs folder, cut and edited records, Ctrl-C. Each
test checks the line the user reads, the exit code, and that once the fault is gone the folder
equals an uninterrupted sweep's (the sameness tool), with no temporary file left behind."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import process_stat

from hermes_eval.config.identity import LOCATION_KEYS
from hermes_eval.record.sameness import runs_diffs

pytestmark = pytest.mark.long  # minutes of work: scheduled first (tests/conftest.py)

# two BM25 arms (two chunkings): no model to load, so each sweep is a few seconds of real work. Every
# sweep runs on this machine with this environment, so the sameness tool's bit-exact comparison of
# their records holds across the processes (no embedding, whose low bits follow the SIMD path)
GRID = ["fusion.dense_weight=0.0", "chunker=lines,python_ast", "corpus.name=req", "corpus.sources=[pkg:requests]",
        "queryset.generator.max_queries=30", "warmup=1", "bootstrap=200", "hydra.launcher.n_jobs=1"]
ARMS = 2


def sweep_cmd(runs: Path, ds: Path, cache: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "hermes_eval.cli.main", "sweep", *GRID, f"paths.runs={runs}",
            f"paths.datasets={ds}", f"paths.cache={cache}", *extra]


def sweep(cwd: Path, runs: Path, solo: dict, *extra: str, env: dict | None = None) -> subprocess.CompletedProcess:
    cwd.mkdir(parents=True, exist_ok=True)
    return subprocess.run(sweep_cmd(runs, solo["ds"], solo["cache"], *extra), capture_output=True, text=True,
                          timeout=900, cwd=cwd, env=env, start_new_session=True)


def failing(points: str) -> dict:
    return dict(os.environ, HERMES_FAILPOINTS=points)


def lines(proc: subprocess.CompletedProcess, tag: str) -> list[str]:
    return [ln for ln in proc.stdout.splitlines() if ln.startswith(tag)]


def measured_diffs(diffs: list[str]) -> list[str]:
    """Differences in what was measured: where a run wrote its files or kept its cache is not that."""
    where = ("config.paths", *(f".{k} differs" for k in LOCATION_KEYS))
    return [d for d in diffs if not any(w in d for w in where)]


def same_as_solo(runs: Path, solo: dict) -> None:
    """Every record equal to the uninterrupted sweep's (but for where it was written), the same run
    folders and files, and no temporary file left anywhere."""
    n, diffs = runs_diffs(solo["runs"], runs)
    assert n == ARMS and measured_diffs(diffs) == []
    listing = lambda root: sorted(str(p.relative_to(root)) for p in root.rglob("*")  # noqa: E731
                                  if p.is_file() and not p.name.startswith(".writer"))
    assert listing(runs) == listing(solo["runs"])
    assert not list(runs.rglob("*.tmp"))


@pytest.fixture(scope="module")
def solo(tmp_path_factory) -> dict:
    """One uninterrupted sweep on its own cold cache: the reference every test compares with. Its query
    set and (now warm) cache are shared by the tests."""
    root = tmp_path_factory.mktemp("solo")
    ref = {"runs": root / "runs", "ds": root / "ds", "cache": root / "cache"}
    done = sweep(root, ref["runs"], ref)
    assert done.returncode == 0, done.stderr[-2000:]
    assert len(lines(done, "[ok]")) == ARMS and done.stdout.rstrip().endswith(f"sweep: {ARMS} arms: {ARMS} ok, 0 skipped")
    return ref


@pytest.mark.parametrize("point,finished", [("run.locked@1", 0),  # before chunking and indexing
                                            ("run.trec_written@2", 1),  # arm 2 half-written
                                            ("run.recorded@1", 1)])  # arm 1's record written, lock held
def test_sigkill_of_the_whole_sweep_then_resume_equals_an_uninterrupted_sweep(tmp_path, solo, point, finished):
    runs = tmp_path / "runs"
    killed = sweep(tmp_path, runs, solo, env=failing(point.replace("@", "=killpg@")))
    assert killed.returncode == -9
    records = {p: p.read_bytes() for p in runs.glob("*/record.json")}
    assert len(records) == finished and all(json.loads(b)["status"] == "ok" for b in records.values())

    again = sweep(tmp_path, runs, solo)
    assert again.returncode == 0, again.stderr[-2000:]
    assert len(lines(again, "[skip]")) == finished and len(lines(again, "[ok]")) == ARMS - finished
    assert all(p.read_bytes() == b for p, b in records.items())  # finished records untouched by the resume
    same_as_solo(runs, solo)


def test_a_full_disk_fails_each_arm_in_one_line_and_the_rerun_recovers(tmp_path, solo):
    """paths.runs on a real 300 KB tmpfs (in a user and mount namespace of its own, so no root is needed):
    a run file does not fit; once the filesystem is grown the same command finishes every arm."""
    disk, out = tmp_path / "disk", tmp_path / "out"
    disk.mkdir()
    out.mkdir()
    cmd = shlex.join(sweep_cmd(disk / "runs", solo["ds"], solo["cache"]))
    script = f"""set -u
mount -t tmpfs -o size=300k tmpfs {disk}
{cmd} >{out}/full.out 2>{out}/full.err; echo $? >{out}/full.rc
cp -a {disk}/runs {out}/after_fault
mount -o remount,size=64m {disk}
{cmd} >{out}/fixed.out 2>{out}/fixed.err; echo $? >{out}/fixed.rc
cp -a {disk}/runs {out}/after_fix
"""
    done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script],
                          capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    full = (out / "full.out").read_text()
    failed = [ln for ln in full.splitlines() if ln.startswith("[failed]")]
    assert int((out / "full.rc").read_text()) == 1 and len(failed) == ARMS
    for ln in failed:
        assert f"{disk}/runs/" in ln and "no space left on device (" in ln and "free space there" in ln
    assert full.rstrip().endswith(f"sweep: {ARMS} arms: 0 ok, 0 skipped, {ARMS} failed (no space left on device: {ARMS})")
    assert "Traceback" not in (out / "full.err").read_text() + full
    assert not list((out / "after_fault").rglob("*.tmp"))  # a failed write leaves no temporary file
    assert int((out / "fixed.rc").read_text()) == 0, (out / "fixed.err").read_text()[-2000:]
    n, diffs = runs_diffs(solo["runs"], out / "after_fix")
    assert n == ARMS and measured_diffs(diffs) == []


def stopped_in_group(pgid: int) -> int | None:
    """The pid of a stopped process of group ``pgid`` (state ``T`` in /proc/PID/stat), if any."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = process_stat(stat.parent.name)
        except OSError:  # the process ended meanwhile
            continue
        if fields[0] == "T" and int(fields[2]) == pgid:
            return int(stat.parent.name)
    return None


def test_two_sweeps_on_one_runs_folder_and_one_cold_cache_compute_each_arm_once(tmp_path, solo):
    """The first sweep stops itself holding its first arm's lock (failpoint ``run.locked=stop``), so the
    second surely meets a busy arm; once it has said so, the first goes on and both work at once."""
    runs, cache = tmp_path / "runs", tmp_path / "cache"  # cold: nothing chunked or indexed yet
    errs = [tmp_path / f"sweep{i}.err" for i in (1, 2)]

    def start(i: int, env: dict | None = None) -> subprocess.Popen:
        with errs[i].open("w") as err:  # a file, not a pipe: nobody reads stderr while the test waits on stdout
            return subprocess.Popen(sweep_cmd(runs, solo["ds"], cache), stdout=subprocess.PIPE, stderr=err,
                                    text=True, cwd=tmp_path, env=env, start_new_session=True)

    first = start(0, failing("run.locked=stop"))
    second = None
    try:
        deadline = time.monotonic() + 600
        while (holder := stopped_in_group(first.pid)) is None:  # at its first arm, lock taken, nothing done
            assert first.poll() is None and time.monotonic() < deadline, errs[0].read_text()[-2000:]
            time.sleep(0.02)
        [held] = [p.parent for p in runs.glob("*/.writer.json")]
        assert not (held / "record.json").exists()
        second = start(1)
        said = []
        for line in second.stdout:  # its arm lines, flushed one by one
            said.append(line)
            if line.startswith("[busy]"):
                break
        os.killpg(first.pid, signal.SIGCONT)
        outs = ["".join(said) + second.communicate(timeout=900)[0], first.communicate(timeout=900)[0]]
    finally:
        for p in filter(None, (first, second)):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
    for p, err in zip((first, second), errs):
        assert p.returncode == 0, err.read_text()[-2000:]
        assert "Traceback" not in err.read_text()
    assert not any("[failed]" in out for out in outs)
    ok = [ln.split()[1] for out in outs for ln in out.splitlines() if ln.startswith("[ok]")]
    assert sorted(ok) == sorted({p.parent.as_posix() for p in runs.glob("*/record.json")})  # once each
    busy = [ln for ln in outs[0].splitlines() if ln.startswith("[busy]")]  # the arm the first holds
    assert len(busy) == 1, f"the second sweep never met the first's held arm:\n{outs[0]}"
    busy = busy[0]
    assert busy.startswith(f"[busy] {held}: pid {holder} on ")
    assert busy.endswith(" is computing this run; skipped here (busy_run=wait waits for it)")
    same_as_solo(runs, solo)


def test_cut_and_edited_records_are_named_counted_and_redone(tmp_path, solo):
    runs = tmp_path / "runs"
    shutil.copytree(solo["runs"], runs)
    cut, edited = sorted(runs.iterdir())
    (cut / "record.json").write_bytes((cut / "record.json").read_bytes()[:300])
    trec = edited / "run.trec"
    trec.write_text(trec.read_text().replace(" 1 ", " 2 ", 1))  # one rank changed: still a valid TREC file
    board = subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", "leaderboard", "--runs", str(runs),
                            "--out", str(tmp_path / "reports")], capture_output=True, text=True, timeout=600)
    assert board.returncode == 0, board.stderr[-2000:]
    warned = [ln for ln in board.stderr.splitlines() if ln.startswith("hermes-eval: warning:")]
    assert len(warned) == 2 and "Traceback" not in board.stderr
    assert any(f"{cut} (unreadable: record.json unreadable (JSONDecodeError" in ln for ln in warned)
    assert any(f"{edited} (damaged: run.trec does not match its record (sha256 differs" in ln for ln in warned)
    md = (tmp_path / "reports" / "leaderboard.md").read_text().replace("\\", "")  # markdown escapes
    assert f"**2 runs unreadable: {cut} (unreadable: " in md and f"; {edited} (damaged: run.trec " in md

    again = sweep(tmp_path, runs, solo)
    assert again.returncode == 0, again.stderr[-2000:]
    assert len(lines(again, "[ok]")) == ARMS  # both redone
    assert f"{edited}: run.trec does not match its record" in again.stderr
    same_as_solo(runs, solo)


def _as_in_a_terminal() -> None:
    """SIGINT at its default in the sweep, as in a terminal: a shell's background job (``cmd &``) runs with it
    ignored, which the child would inherit, and Python installs no Ctrl-C handler where it is ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _stopped_at_second_arm(runs: Path, sweep_proc: subprocess.Popen, timeout: float = 600) -> Path:
    """The run folder of the sweep's second arm, once the sweep has stopped itself there (failpoint
    ``run.locked=stop@2``: the arm's lock taken, nothing done) with the first arm finished."""
    deadline = time.monotonic() + timeout
    while stopped_in_group(sweep_proc.pid) is None:
        assert sweep_proc.poll() is None and time.monotonic() < deadline, "the sweep never stopped at its second arm"
        time.sleep(0.02)
    assert len(list(runs.glob("*/record.json"))) == 1
    [running] = [p.parent for p in runs.glob("*/.writer.json") if not (p.parent / "record.json").exists()]
    return running


def test_ctrl_c_says_in_one_line_which_arm_it_stopped_and_how_to_resume(tmp_path, solo):
    """SIGINT to the sweep's process group (what Ctrl-C in a terminal sends) while its second arm runs:
    one line naming that arm, the finished arm kept and the command that resumes; exit 130; no traceback.
    The command it prints resumes the sweep to what an uninterrupted one leaves."""
    runs = tmp_path / "runs"
    proc = subprocess.Popen(sweep_cmd(runs, solo["ds"], solo["cache"]), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path, start_new_session=True,
                            env=failing("run.locked=stop@2"),  # it stops itself as its second arm starts
                            preexec_fn=_as_in_a_terminal)
    try:
        running = _stopped_at_second_arm(runs, proc)
        os.killpg(proc.pid, signal.SIGINT)  # pending while stopped: the arm cannot finish before it lands
        os.killpg(proc.pid, signal.SIGCONT)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err[-3000:]
    assert "Traceback" not in err + out and "KeyboardInterrupt" not in err + out
    [said] = [ln for ln in err.splitlines() if "interrupted" in ln]
    assert said.startswith(f"hermes-eval: sweep interrupted during arm {running}; "
                           f"finished arms are kept (1 of {ARMS} finished); resume with: hermes-eval sweep ")
    assert not (running / "record.json").exists() and len(list(runs.glob("*/record.json"))) == 1

    command = shlex.split(said.split("; resume with: ", 1)[1])
    assert command[:2] == ["hermes-eval", "sweep"] and command[2:] == sweep_cmd(runs, solo["ds"], solo["cache"])[4:]
    resumed = subprocess.run([str(Path(sys.executable).parent / "hermes-eval"), *command[1:]], capture_output=True,
                             text=True, timeout=900, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert len(lines(resumed, "[skip]")) == 1 and len(lines(resumed, "[ok]")) == ARMS - 1
    same_as_solo(runs, solo)
