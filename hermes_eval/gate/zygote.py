"""Probe processes forked from one that has imported the libraries already.

A dense arm's probe spent about 5 of its 7 s of building importing torch and sentence-transformers, the
same libraries in every probe and tree (they are the gate's environment), and a gate starts three probes a
round. The zygote is a process started as a probe is (the gate's interpreter and environment, hash seed 0,
one thread per library) that imports those libraries (``paired.preload`` of the gate spec) and nothing of
the project, then forks each probe on request: the child moves to its tree's folder, puts the tree first on
``sys.path`` and runs the probe harness on the pipes it was handed, its stderr going to the gate's probe log.
Every probe is still a new process, each round three new ones (interleave.py): only the libraries' import
happened once, before the fork, the same for all three roles.

The gate talks to the zygote over a Unix socket pair (one request per packet: a JSON line and the three file
descriptors of the probe's stdin, stdout and stderr, passed with ``SCM_RIGHTS``). This file runs as the zygote
by path (``python -c BOOT zygote.py SOCKET_FD PRELOAD_JSON HARNESS``): its imports are the standard library's.
"""
from __future__ import annotations

import importlib
import json
import os
import runpy
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import IO, Sequence

PACKET = 65536


class ZygoteError(RuntimeError):
    """The zygote could not start or fork a probe."""


class Zygote:
    """The gate's side: start the zygote, ask it for probes, stop it."""

    def __init__(self, preload: Sequence[str], harness: Path, env: dict, cwd: Path, log: IO[bytes], boot: str):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", boot, str(Path(__file__).resolve()), str(theirs.fileno()),
                 json.dumps(list(preload)), str(harness)],
                cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                pass_fds=(theirs.fileno(),))
        finally:
            theirs.close()
        self.sock = ours
        hello = self._answer()
        self.pid, self.loaded = int(hello["pid"]), list(hello["loaded"])

    def _answer(self) -> dict:
        data = self.sock.recv(PACKET)
        if not data:
            raise ZygoteError(f"the probe zygote exited (code {self.proc.wait()}) without answering")
        msg = json.loads(data)
        if "error" in msg:
            raise ZygoteError(f"the probe zygote failed: {msg['error']}")
        return msg

    def fork(self, tree: Path, log: IO[bytes]) -> tuple[int, IO[str], IO[str]]:
        """A new probe running the harness in ``tree``: (its pid, its stdin to write, its stdout to read)."""
        child_in, to_child = os.pipe()  # (read end, write end)
        from_child, child_out = os.pipe()
        try:
            socket.send_fds(self.sock, [json.dumps({"tree": str(tree)}).encode()], [child_in, child_out, log.fileno()])
        finally:
            os.close(child_in)
            os.close(child_out)
        pid = int(self._answer()["pid"])
        return pid, os.fdopen(to_child, "w"), os.fdopen(from_child, "r")

    def close(self) -> None:
        self.sock.close()  # the zygote ends on the closed socket
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _child(tree: str, fds: list[int], sock: socket.socket, harness: str) -> None:
    """In the forked probe: its pipes as stdin, stdout and stderr, its tree as folder and first import path,
    then the harness as ``__main__``; never returns."""
    code = 1
    try:
        sock.close()
        for target, fd in zip((0, 1, 2), fds):
            os.dup2(fd, target)
            os.close(fd)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the probe waits for its own children as usual
        sys.stdin = open(0, "r", closefd=False)
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", buffering=1, closefd=False)
        os.chdir(tree)
        os.environ["PYTHONPATH"] = tree  # as a new probe's: what it starts inherits its tree too
        sys.path.insert(0, tree)
        sys.dont_write_bytecode = True
        sys.argv = [harness]
        try:
            runpy.run_path(harness, run_name="__main__")
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # noqa: BLE001 - reported on the probe's stderr (the gate's probe log)
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - a closed pipe: nothing left to say
                pass
        os._exit(code)


def serve(sock_fd: int, preload: list[str], harness: str) -> int:
    sock = socket.socket(fileno=sock_fd)
    loaded = []
    for name in preload:
        try:
            importlib.import_module(name)
            loaded.append(name)
        except ImportError:  # a library this environment lacks: the probes import what they need themselves
            pass
    if any(m == "hermes_eval" or m.startswith(("hermes_eval.", "retrievers")) for m in sys.modules):
        sock.send(json.dumps({"error": "the preload imported the project; a probe must import its own tree's"}).encode())
        return 1
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # finished probes are reaped by the kernel
    sock.send(json.dumps({"pid": os.getpid(), "loaded": loaded}).encode())
    while True:
        data, fds, _, _ = socket.recv_fds(sock, PACKET, 3)
        if not data:
            return 0
        request = json.loads(data)
        pid = os.fork()
        if pid == 0:
            _child(request["tree"], list(fds), sock, harness)
        for fd in fds:
            os.close(fd)
        sock.send(json.dumps({"pid": pid}).encode())


if __name__ == "__main__":  # run by path through BOOT (``python -c BOOT THIS_FILE ...``): sys.argv[0] is "-c"
    sys.exit(serve(int(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4]))
