"""Gold spans longer than one line: a commit that rewrites a block and deletes another has gold on each whole
old-side run (derived by hand from the two file versions below)."""
from __future__ import annotations

from scripted_repo import Scripted, day

from hermes_eval.querysets.mined.changes import read_change

BEFORE = "".join(f"line {i}\n" for i in range(1, 21))
# lines 4-6 rewritten as two lines, 10 kept, 12-15 deleted, the rest unchanged
AFTER = "".join(f"line {i}\n" for i in range(1, 4)) + "new a\nnew b\n" + "".join(
    f"line {i}\n" for i in range(7, 12)) + "".join(f"line {i}\n" for i in range(16, 21))


def test_a_multi_line_change_has_multi_line_gold(tmp_path):
    repo = Scripted(tmp_path / "blocks")
    repo.commit("base", day(1), {"src/blocks.py": BEFORE}, "Add the blocks module with twenty lines")
    sha = repo.commit("edit", day(2), {"src/blocks.py": AFTER}, "Rewrite the second block and drop the fourth")
    change = read_change(repo.path, repo.git("rev-parse", f"{sha}^1"), sha)
    assert change.spans == {"src/blocks.py": ((4, 6), (12, 15))}
