"""Many requests to one ``git cat-file`` process in one round trip: answers in order, equal to asking one
at a time, missing objects reported in place, and no deadlock when requests and answers each overflow a pipe."""
from __future__ import annotations

import subprocess

from hermes_eval.corpus.git_batch import ask
from tests.hermes_eval.conftest import git


def _cat_file(repo, *args):
    return subprocess.Popen(["git", "-C", str(repo), "cat-file", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)


def test_thousands_of_blobs_come_back_in_order_and_equal_to_one_at_a_time(tmp_path):
    git(tmp_path, "init", "-q")
    paths = []
    for i in range(3000):  # 3000 x 41 request bytes and ~450 KB of answers: both overflow a 64 KB pipe
        p = tmp_path / f"f{i}.txt"
        p.write_text(f"blob {i}\n" + "x" * (i % 200) + "\n")
        paths.append(p)
    shas = git(tmp_path, "hash-object", "-w", *map(str, paths)).split()
    names = shas[::-1] + ["0" * 40]  # order other than written; one object git does not hold
    proc = _cat_file(tmp_path, "--batch")
    try:
        got = ask(proc, names, content=True)
        assert len(got) == len(names)
        for sha, p, (header, data) in zip(shas[::-1], paths[::-1], got):
            assert header[0].decode() == sha and data == p.read_bytes()
        assert got[-1] == ([b"0" * 40, b"missing"], None)
        [(header, data)] = ask(proc, [shas[7]], content=True)  # the process still answers afterwards
        assert data == paths[7].read_bytes()
    finally:
        proc.stdin.close()
        proc.wait()
    check = _cat_file(tmp_path, "--batch-check")
    try:
        sizes = [(int(h[2]), d) for h, d in ask(check, shas, content=False)]
        assert sizes == [(p.stat().st_size, None) for p in paths]
        assert ask(check, [], content=False) == []
    finally:
        check.stdin.close()
        check.wait()


def test_a_small_request_written_whole_still_reads_answers_larger_than_a_pipe(tmp_path):
    git(tmp_path, "init", "-q")
    paths = []
    for i in range(60):  # a 2.5 KB request (no writer thread) for ~500 KB of answers
        p = tmp_path / f"big{i}.txt"
        p.write_text(f"{i}\n" + "y" * 8192)
        paths.append(p)
    shas = git(tmp_path, "hash-object", "-w", *map(str, paths)).split()
    proc = _cat_file(tmp_path, "--batch")
    try:
        assert [d for _, d in ask(proc, shas, content=True)] == [p.read_bytes() for p in paths]
    finally:
        proc.stdin.close()
        proc.wait()
