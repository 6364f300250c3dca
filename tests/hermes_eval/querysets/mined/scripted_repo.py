"""A scripted repository whose history holds one commit of each kind the miner must tell apart (Python
and JavaScript files, a binary file, a rename, a merge, a revert, a cherry-pick, a twin patch, a bot,
test-only, docs-only, tangled, too-short and new-file-only commits), built with the real git CLI at
fixed dates. ``COMMITS`` names each commit; the line numbers in comments are relied on by the tests."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

ANN = ("Ann Dev", "ann@example.com")
BOT = ("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com")

OPS = "def add(a, b):\n    return a + b\n\n\ndef div(a, b):\n    return a / b\n\n\ndef mul(a, b):\n    return a * b\n"
# after `div_guard`: 1-2 add, 5-8 div, 11-12 mul
OPS_GUARDED = OPS.replace("    return a / b\n", "    if b == 0:\n        return None\n    return a / b\n")
APP = ('function greet(name) {\n  return "hello " + name;\n}\n\nfunction farewell(name) {\n  return "bye " + name;\n}'
       '\n\nmodule.exports = { greet, farewell };\n')  # greet 1-3, farewell 5-7, exports 9
TOTAL = "def legacy_total(values):\n    total = 0\n    for v in values:\n        total += v\n    return total\n"
DIV_MESSAGE = ("Guard against division by zero\n\nDividing by zero crashed the whole request; return None instead\n"
               "so callers can report a friendly error.\n\nSigned-off-by: Ann Dev <ann@example.com>\n"
               "Co-authored-by: Bob Smith <bob@example.com>\nChange-Id: I0123456789abcdef\n")
DIV_QUERY = ("Guard against division by zero\n\nDividing by zero crashed the whole request; return None instead\n"
             "so callers can report a friendly error.")


class Scripted:
    """The repository at ``path``; ``shas`` maps each scripted commit's name to its sha."""

    def __init__(self, path: Path):
        self.path, self.shas, self.day = path, {}, 0
        path.mkdir(parents=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, date: str = "2022-12-28T10:00:00+00:00", who: tuple[str, str] = ANN) -> str:
        env = {"PATH": os.environ["PATH"], "HOME": str(self.path), "GIT_CONFIG_NOSYSTEM": "1",
               "GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1], "GIT_AUTHOR_DATE": date,
               "GIT_COMMITTER_NAME": who[0], "GIT_COMMITTER_EMAIL": who[1], "GIT_COMMITTER_DATE": date}
        return subprocess.run(["git", "-C", str(self.path), *args], check=True, capture_output=True, text=True,
                              env=env).stdout.strip()

    def write(self, files: dict[str, str | bytes]) -> None:
        for rel, body in files.items():
            target = self.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(body if isinstance(body, bytes) else body.encode())

    def commit(self, name: str, date: str, files: dict[str, str | bytes], message: str,
               who: tuple[str, str] = ANN, *git_first: tuple[str, ...]) -> str:
        """Write ``files``, run each ``git_first`` command, commit everything with ``message`` at ``date``."""
        self.write(files)
        for args in git_first:
            self.git(*args, date=date, who=who)
        self.git("add", "-A", date=date, who=who)
        self.git("commit", "-q", "-m", message, date=date, who=who)
        return self.record(name, date)

    def record(self, name: str, date: str) -> str:
        self.shas[name] = self.git("rev-parse", "HEAD", date=date)
        return self.shas[name]


def day(n: int) -> str:
    """The n-th day of January 2023 at 10:00 UTC."""
    return f"2023-01-{n:02d}T10:00:00+00:00"


def build(path: Path) -> Scripted:
    """The scripted history (first-parent order = the order below)."""
    r = Scripted(path)
    r.commit("root", "2022-12-28T10:00:00+00:00", {
        "calc/ops.py": OPS, "web/app.js": APP, "calc/old_name.py": TOTAL, "README.md": "# Calc\n\nA tiny calculator.\n",
        "tests/test_ops.py": "from calc.ops import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
        "assets/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00one",
        **{f"pkg/m{i:02d}.py": "VALUE = 1\n" for i in range(1, 13)}}, "Initial import of the calculator")
    # a pure insertion after old line 5 (`def div`): anchored at line 5
    r.commit("div_guard", "2022-12-29T10:00:00+00:00", {"calc/ops.py": OPS_GUARDED}, DIV_MESSAGE)
    r.commit("bot", "2022-12-30T10:00:00+00:00", {"web/app.js": APP.replace('"bye "', '"goodbye "')},
             "Bump the farewell greeting text in the app", BOT)
    app = APP.replace('"bye "', '"goodbye "').replace('"hello " + name', '"hello " + name.trim()')
    r.commit("names_file", day(2), {"web/app.js": app}, "Trim whitespace around names in app.js greetings")
    r.commit("debug", day(3), {"calc/ops.py": OPS_GUARDED.replace("    return a * b", '    print("mul", a, b)\n'
                                                                  "    return a * b")},
             "Log every multiplication for debugging purposes")
    r.git("revert", "--no-edit", "HEAD", date=day(4))
    r.record("revert", day(4))
    floats = OPS_GUARDED.replace("    return a + b", "    return float(a) + float(b)")
    r.commit("floats", day(5), {"calc/ops.py": floats}, "Convert the operands of add to floats first")
    r.commit("exact", day(6), {"calc/ops.py": OPS_GUARDED}, "Restore integer arithmetic in addition for exact results")
    r.git("cherry-pick", "-x", r.shas["floats"], date=day(7))
    r.record("picked", day(7))
    r.commit("twin", day(8), {"calc/ops.py": OPS_GUARDED}, "Go back to exact integer addition once more")
    r.commit("test_only", day(9), {"tests/test_ops.py": "from calc.ops import add\n\n\ndef test_add():\n"
                                                        "    assert add(2, 2) == 4\n"},
             "Check addition with a different pair of operands")
    r.commit("docs_only", day(10), {"README.md": "# Calc\n\nA tiny calculator with a web greeting.\n"},
             "Describe the web greeting in the readme")
    r.commit("tangled", day(11), {f"pkg/m{i:02d}.py": "VALUE = 2\n" for i in range(1, 13)},
             "Raise every module value to two for the new release")
    r.commit("short", day(12), {"web/app.js": app.replace('"goodbye "', '"good bye "')}, "Fix typo")
    r.commit("rename", day(13), {"calc/totals.py": TOTAL.replace("total += v", "total += float(v)")},
             "Move the totals helper into its own module and accept strings", ANN, ("rm", "-q", "calc/old_name.py"))
    final_app = app.replace('"goodbye "', '"good bye "').replace("{ greet, farewell }", "{ greet, farewell, version: 2 }")
    r.commit("binary", day(14), {"assets/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00two", "web/app.js": final_app},
             "Refresh the logo and export the app version")
    r.git("checkout", "-q", "-b", "feature", date=day(15))
    r.commit("feature", day(15), {"calc/ops.py": OPS_GUARDED + "\n\ndef sub(a, b):\n    return a - b\n"},
             "Add a subtraction helper to the calculator")
    r.git("checkout", "-q", "main", date=day(16))
    r.git("merge", "--no-ff", "-q", "-m", "Merge branch 'feature' into main", "feature", date=day(16))
    r.record("merge", day(16))
    r.commit("new_file", day(17), {"calc/cli.py": "def main():\n    print('calc')\n"},
             "Add a command line entry point for the calculator")
    return r


# the commits kept, oldest first: {name: [(path, start, end), ...]} in the parent's tree
GOLD = {"div_guard": [("calc/ops.py", 5, 5)], "names_file": [("web/app.js", 2, 2)],
        "floats": [("calc/ops.py", 2, 2)], "exact": [("calc/ops.py", 2, 2)],
        "rename": [("calc/old_name.py", 4, 4)], "binary": [("web/app.js", 9, 9)]}
# no commit here is a release (test_mined_release.py scripts those): counted as 0, in its place
SKIPPED = {"merge": 1, "root": 1, "bot": 1, "revert": 1, "reverted": 1, "cherry_pick": 1, "release": 0,
           "short_message": 1, "test_only": 1, "docs_only": 1, "no_source_change": 1, "tangled": 1, "duplicate": 1,
           "over_limit": 0, "gold_not_indexed": 0, "gold_spans_not_indexed": 0}
