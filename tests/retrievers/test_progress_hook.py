"""The progress hook the parts call: silent until installed, counts batches without touching them."""
from __future__ import annotations

import pytest
import torch

from retrievers import progress


class Counting:
    def __init__(self, label, total, unit):
        self.label, self.total, self.unit, self.seen, self.closed = label, total, unit, [], False
        made.append(self)

    def update(self, n=1):
        self.seen.append(n)

    def close(self):
        self.closed = True


made: list[Counting] = []


@pytest.fixture(autouse=True)
def _reporter():
    made.clear()
    progress.install(Counting)
    yield
    progress.install(None)


class DictModel(torch.nn.Module):
    """A real module taking a sentence-transformers style feature dict."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(3, 2)

    def forward(self, features):
        return {"sentence_embedding": self.linear(features["input_ids"].float())}


def test_forward_passes_advance_by_batch_size_and_leave_outputs_alone():
    model = DictModel()
    batches = [torch.ones(4, 3, dtype=torch.long), torch.ones(2, 3, dtype=torch.long)]
    plain = [model({"input_ids": b})["sentence_embedding"] for b in batches]
    with progress.count_forward_passes(model, "embedding", 6):
        hooked = [model({"input_ids": b})["sentence_embedding"] for b in batches]
    model({"input_ids": batches[0]})  # after the block: the hook is gone
    assert made[0].seen == [4, 2] and made[0].closed and made[0].total == 6
    assert all(torch.equal(a, b) for a, b in zip(plain, hooked))


def test_track_closes_on_error_and_skips_empty_work():
    with pytest.raises(RuntimeError):
        with progress.track("chunking", 3, "files") as t:
            t.update()
            raise RuntimeError("boom")
    assert made[0].closed and made[0].seen == [1]
    with progress.track("nothing", 0, "files") as t:
        t.update()
    assert len(made) == 1  # no tracker for zero work


def test_chunking_reports_each_file():
    from retrievers.chunkers.base import chunk_files
    from retrievers.chunkers.lines import LineChunker

    files = [("a.py", "x = 1\ny = 2\n", "python"), ("b.py", "z = 3\n", "python")]
    chunks = chunk_files(LineChunker(1, 0), files)
    assert [c.id for c in chunks] == ["a.py:1-1", "a.py:2-2", "b.py:1-1"]
    assert made[0].label == "chunking" and made[0].seen == [1, 1] and made[0].total == 2


def test_a_tokenizer_batch_encoding_counts_its_rows():
    from transformers import BatchEncoding

    model = DictModel()
    with progress.count_forward_passes(model, "embedding", 5):
        model(BatchEncoding({"input_ids": torch.ones(5, 3, dtype=torch.long)}))
    assert made[0].seen == [5]
