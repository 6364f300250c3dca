"""`hermes-eval datasets mine SOURCE key=value .. name=NAME` in a subprocess: the set lands where
`queryset=NAME` finds it; bad input is one line on stderr and exit 2."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hermes_eval.querysets.store import load_queryset

ROOT = Path(__file__).resolve().parents[4]


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", "datasets", "mine", *args],
                          capture_output=True, text=True, cwd=cwd, env=env)


def test_mine_writes_a_query_set_the_store_reads(scripted, tmp_path):
    proc = _cli(str(scripted.path), "since=2023-01-01", "max_files=12", "bots=renovate", "name=calc-2023",
                f"paths.datasets={tmp_path / 'ds'}", f"paths.cache={tmp_path / 'cache'}", "progress=off", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"{tmp_path / 'ds' / 'calc-2023'}: 6 queries" in proc.stdout
    assert "hermes-eval run queryset=imported queryset.name=calc-2023" in proc.stdout
    qs = load_queryset(tmp_path / "ds" / "calc-2023")
    manifest = json.loads((tmp_path / "ds" / "calc-2023" / "manifest.json").read_text())
    assert manifest["generator"] == "mine-history" and manifest["since"] == "2023-01-01"
    assert manifest["options"]["max_files"] == 12 and manifest["options"]["bots"] == ["renovate"]
    # the bot's commit is 2022-12-30: out of range; the tangled commit is kept at max_files=12
    assert manifest["skipped"]["root"] == 0 and manifest["skipped"]["tangled"] == 0
    tangled = next(q for q in qs.queries if q.meta["commit"] == scripted.shas["tangled"])
    assert len(tangled.gold) == 12 and all(g.start == g.end == 1 for g in tangled.gold)
    assert {q.meta["year"] for q in qs.queries} == {2023}


def test_bad_source_and_bad_option_are_one_line(tmp_path):
    (tmp_path / "plain").mkdir()
    proc = _cli(str(tmp_path / "plain"), f"paths.datasets={tmp_path / 'ds'}", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"hermes-eval: error: SOURCE {tmp_path / 'plain'}: not a git repository; give a local clone or a bare "
        f"mirror (e.g. HERMES_MIRRORS/OWNER+NAME/repo, made by git clone --mirror)"]
    proc = _cli(str(tmp_path / "plain"), "until=yesterday", f"paths.datasets={tmp_path / 'ds'}", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.strip().splitlines() == [
        "hermes-eval: error: until='yesterday': not a date; write YYYY-MM-DD or an ISO 8601 time "
        "(2024-01-31T12:00:00+00:00)"]
    proc = _cli(f"paths.datasets={tmp_path / 'ds'}", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.strip().startswith("hermes-eval: error: datasets mine: give SOURCE")
    assert not (tmp_path / "ds").exists()


def test_a_git_source_is_its_path_and_at_ref_is_its_ref(scripted, tmp_path, capsys):
    """`git:PATH` (the corpus sources' form) mines PATH; `git:PATH@REF` mines it at REF, as `PATH ref=REF` does;
    a different `ref=` beside it is one line naming the fix."""
    from hermes_eval.cli.main import main

    base = [f"paths.datasets={tmp_path / 'ds'}", f"paths.cache={tmp_path / 'cache'}", "progress=off"]
    assert main(["datasets", "mine", str(scripted.path), "name=plain", *base]) == 0
    assert main(["datasets", "mine", f"git:{scripted.path}", "name=same", *base]) == 0
    plain, same = (load_queryset(tmp_path / "ds" / n) for n in ("plain", "same"))
    assert [q.to_dict() for q in same.queries] == [q.to_dict() for q in plain.queries] and len(plain) == 6
    at = scripted.shas["rename"]
    assert main(["datasets", "mine", f"git:{scripted.path}@{at}", *base]) == 0  # named from the path: mine-calc
    assert main(["datasets", "mine", str(scripted.path), f"ref={at}", "name=by-ref", *base]) == 0
    by_at, by_ref = (load_queryset(tmp_path / "ds" / n) for n in ("mine-calc", "by-ref"))
    assert by_at.manifest["ref_commit"] == at and by_at.manifest["ref"] == at
    assert [q.qid for q in by_at.queries] == [q.qid for q in by_ref.queries]
    assert 0 < len(by_at) < len(plain)  # the commits after `rename` are not walked
    capsys.readouterr()
    assert main(["datasets", "mine", f"git:{scripted.path}@{at}", "ref=main", "name=two", *base]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        f"hermes-eval: error: SOURCE git:{scripted.path}@{at} and ref=main name two refs: give one "
        f"(git:PATH@REF is PATH ref=REF)"]
    assert not (tmp_path / "ds" / "two").exists()
