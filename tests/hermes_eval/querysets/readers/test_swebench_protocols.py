"""CodeRAG-Bench's test-file rule as globs equals its own word split, on many generated paths."""
from __future__ import annotations

import fnmatch
import itertools
import random
import re

from hermes_eval.querysets.readers.swebench_protocols import PROTOCOLS

# upstream's words, written here and not imported: the oracle must not share the code's list
UPSTREAM_TEST_WORDS = ["test", "tests", "testing"]


def is_test(name: str) -> bool:
    """CodeRAG-Bench's rule, as its retrieval/create/swebench_repo.py states it."""
    words = set(re.split(r" |_|\/|\.", name.lower()))
    return any(word in words for word in UPSTREAM_TEST_WORDS)


def test_the_globs_drop_exactly_what_the_word_rule_drops():
    rng = random.Random(7)
    pieces = ["test", "Tests", "TESTING", "contest", "attest", "testcase", "pkg", "util", "a", "te st", "_", "x_test"]
    seps = ["/", "_", ".", " ", "-"]
    paths = set()
    for _ in range(4000):
        n = rng.randint(1, 4)
        body = "".join(rng.choice(pieces) + rng.choice(seps) for _ in range(n)) + rng.choice(pieces)
        paths.add(body.strip("/") + ".py")
    paths |= {"".join(p) + ".py" for p in itertools.product(["tests", "src"], ["/", "_"], ["test", "core"])}
    globs = PROTOCOLS["coderag-bench"].exclude
    for rel in sorted(paths):
        for path in (rel, f"repo@0123abcd/{rel}"):  # one snapshot (no prefix) and several
            dropped = any(fnmatch.fnmatchcase(path, g) for g in globs)
            assert dropped == is_test(rel), path
