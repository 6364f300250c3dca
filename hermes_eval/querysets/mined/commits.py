"""The first-parent walk of a ref: every commit with its parents, author, dates, message and trailers."""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from hermes_eval.core.errors import UserError

# one git log record: fields split by NUL (-z also ends each commit with one)
FIELDS = ("%H", "%P", "%an", "%ae", "%cI", "%aI", "%B", "%(trailers)")
FORMAT = "%x00".join(FIELDS)


@dataclass(frozen=True)
class Commit:
    """One commit of the walk; ``date`` is the committer date (when the change landed), ISO 8601."""

    sha: str
    parents: tuple[str, ...]
    author: str  # "Name <email>"
    date: str
    author_date: str
    message: str
    trailers: str  # the trailer block as git reads it ('' when none)

    @property
    def when(self) -> datetime:
        """The committer date as an aware datetime."""
        return datetime.fromisoformat(self.date)

    @property
    def subject(self) -> str:
        """The message's first line."""
        return self.message.strip().split("\n", 1)[0]


def git(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    """``git -C repo ARGS`` output; a one-line UserError naming the command when it fails."""
    proc = subprocess.run(["git", "-C", str(repo), "-c", "core.quotePath=false", *args], input=stdin,
                          capture_output=True)
    if proc.returncode != 0:
        last = (proc.stderr.decode(errors="replace").strip().splitlines() or ["no output"])[-1]
        raise UserError(f"git {args[0]} in {repo} failed ({last}): check the repository")
    return proc.stdout


def split_source(text: str) -> tuple[Path, str | None]:
    """``SOURCE`` as written: ``PATH``, ``git:PATH`` (the same repository) or ``git:PATH@REF`` (it at ``REF``,
    the corpus sources' form); a ``git:`` path that is itself a folder keeps any ``@`` in its name."""
    if not text.startswith("git:"):
        return Path(text), None
    body = text[len("git:"):]
    if "@" in body and not Path(body).expanduser().is_dir():
        path, ref = body.rsplit("@", 1)
        return Path(path).expanduser(), ref or None
    return Path(body).expanduser(), None


def check_repository(repo: Path, key: str = "SOURCE") -> Path:
    """``repo`` resolved, or a one-line error when it is not a git clone or bare mirror."""
    proc = subprocess.run(["git", "-C", str(repo), "rev-parse", "--is-bare-repository", "--show-toplevel"],
                          capture_output=True, text=True)
    answer = proc.stdout.split()
    if not Path(repo).is_dir() or not answer or (answer[0] != "true" and proc.returncode != 0):
        raise UserError(f"{key} {repo}: not a git repository; give a local clone or a bare mirror "
                        f"(e.g. HERMES_MIRRORS/OWNER+NAME/repo, made by git clone --mirror)")
    root = Path(repo).resolve()
    if answer[0] != "true" and len(answer) > 1 and Path(answer[1]).resolve() != root:
        raise UserError(f"{key} {repo}: a folder inside the repository at {answer[1]}, not its root; give {answer[1]}")
    return root


def resolve_ref(repo: Path, ref: str) -> str:
    """The full sha ``ref`` names, or a one-line error naming the option."""
    proc = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise UserError(f"ref={ref!r}: no such commit, branch or tag in {repo}; give one it holds (default HEAD)")
    return proc.stdout.strip()


def parse_date(value: str | None, key: str) -> datetime | None:
    """``YYYY-MM-DD`` or an ISO 8601 time as an aware datetime (UTC when no zone is given)."""
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UserError(f"{key}={value!r}: not a date; write YYYY-MM-DD or an ISO 8601 time "
                        f"(2024-01-31T12:00:00+00:00)") from None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def walk(repo: Path, ref: str, since: datetime | None = None, until: datetime | None = None) -> list[Commit]:
    """The first-parent history of ``ref``, oldest first, with committer date in [since, until)."""
    out = git(repo, "log", "--first-parent", "--reverse", "-z", f"--format={FORMAT}", ref, "--")
    parts = out.decode("utf-8", "replace").split("\0")
    n = len(FIELDS)
    commits = []
    for i in range(0, len(parts) - n + 1, n):
        sha, parents, name, email, date, author_date, message, trailers = parts[i:i + n]
        c = Commit(sha.strip(), tuple(parents.split()), f"{name} <{email}>", date, author_date, message, trailers)
        if (since is None or c.when >= since) and (until is None or c.when < until):
            commits.append(c)
    return commits
