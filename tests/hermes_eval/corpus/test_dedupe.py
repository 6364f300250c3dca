"""Which files are copies of which: equal text in one snapshot, or (a pooled set's rule) equal text at the
same path of the same repository, whatever the snapshot."""
from __future__ import annotations

from hermes_eval.core import Corpus
from hermes_eval.core.corpus import CorpusFile
from hermes_eval.corpus.dedupe import REPOSITORY_PATH, repository_path, twins


def _corpus(files: dict[str, str]) -> Corpus:
    return Corpus(name="c", files=tuple(CorpusFile(p, "r", "python", t) for p, t in sorted(files.items())))


FILES = {"calc@aaaa1111/pkg/a.py": "A = 1\n", "calc@bbbb2222/pkg/a.py": "A = 1\n",  # one file at two snapshots
         "calc@aaaa1111/pkg/b.py": "A = 1\n",  # the same text at another path
         "calc@bbbb2222/pkg/c.py": "C = 1\n", "util@aaaa1111/pkg/c.py": "C = 1\n"}  # same path, another repository


def test_repository_path_drops_the_snapshot_and_keeps_the_repository():
    assert repository_path("calc@aaaa1111/pkg/a.py") == "calc/pkg/a.py"
    assert repository_path("pkg/a.py") == "pkg/a.py" and repository_path("a.py") == "a.py"


def test_pooled_copies_are_one_file_of_one_repository_at_several_snapshots():
    assert twins(_corpus(FILES), by=REPOSITORY_PATH) == {"calc@bbbb2222/pkg/a.py": "calc@aaaa1111/pkg/a.py"}


def test_by_text_every_equal_text_is_a_copy_and_snapshots_keep_their_own():
    assert twins(_corpus(FILES)) == {"calc@aaaa1111/pkg/b.py": "calc@aaaa1111/pkg/a.py",
                                     "calc@bbbb2222/pkg/a.py": "calc@aaaa1111/pkg/a.py",
                                     "util@aaaa1111/pkg/c.py": "calc@bbbb2222/pkg/c.py"}
    scopes = ["calc@aaaa1111/", "calc@bbbb2222/", "util@aaaa1111/"]
    assert twins(_corpus(FILES), scopes) == {"calc@aaaa1111/pkg/b.py": "calc@aaaa1111/pkg/a.py"}
