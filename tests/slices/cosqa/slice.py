"""CoSQA's slice (tests/slices/cut.py says what a slice module holds): rows of the test and dev files, by position,
and the functions they name. Test 1 (twin of dev 86) and test 3 / test 27 / dev 0 (one text under three pair ids)
give the pair-id twins the hygiene test counts; dev 7 is the row the unique-id test reads."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping

COSQA_TEST_ROWS = (0, 1, 2, 3, 4, 5, 6, 7, 27)
COSQA_DEV_ROWS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 86)
COSQA_DISTRACTORS = 10  # the first functions of code_idx_map.txt that no kept row names


def cut(source: str, out: Path, locations: Mapping[str, str]) -> None:
    src = Path(source)
    test = json.loads((src / "cosqa-retrieval-test-500.json").read_text())
    dev = json.loads((src / "cosqa-retrieval-dev-500.json").read_text())
    index = json.loads((src / "code_idx_map.txt").read_text())
    rows = {"test": [test[i] for i in COSQA_TEST_ROWS], "dev": [dev[i] for i in COSQA_DEV_ROWS]}
    named = {r["code"] for split in rows.values() for r in split}
    extra = [code for code in index if code not in named][:COSQA_DISTRACTORS]
    keep = named | set(extra)
    out.mkdir(parents=True, exist_ok=True)
    for split, kept in rows.items():
        (out / f"cosqa-retrieval-{split}-500.json").write_text(json.dumps(kept, indent=1, ensure_ascii=False) + "\n")
    (out / "code_idx_map.txt").write_text(
        json.dumps({code: i for code, i in index.items() if code in keep}, indent=1, ensure_ascii=False) + "\n")


OPTION_CHECKS = {
    "ids": lambda v, qs, _: qs.manifest["ids"] == v and all(
        g.path.startswith({"pairs": "pairs/", "unique": "functions/"}[v]) for q in qs.queries for g in q.gold),
}
