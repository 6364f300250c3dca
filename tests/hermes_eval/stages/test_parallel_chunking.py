"""Files the chunk cache lacks, chunked by a pool of processes: the same chunks and reuse as in one."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

import pytest

from hermes_eval.cache.chunk_store import ChunkStore
from hermes_eval.config.compose import compose
from hermes_eval.config.identity import config_hash
from hermes_eval.config.settings import settings_from
from hermes_eval.core import UserError
from hermes_eval.core.corpus import Corpus, CorpusFile
from hermes_eval.stages.snapshots import MIN_PARALLEL, chunk_by_content, chunk_files
from retrievers.chunkers.base import Chunker
from retrievers.chunkers.functions import FunctionChunker



def _source(i: int) -> str:
    return (f"import os\n\n\n@cached\ndef load_{i}(path):\n    return os.path.join(path, '{i}')\n\n\n"
            f"class Store{i}:\n    def get(self, key):\n        return key * {i}\n")


def _corpus(n: int) -> Corpus:
    """Two snapshots of one repository: the second changes every third file and adds one."""
    first = [(f"pkg/m{i}.py", _source(i)) for i in range(n)]
    second = [(p, t.replace("* ", "+ ") if i % 3 == 0 else t) for i, (p, t) in enumerate(first)]
    second.append(("pkg/new.py", "def fresh():\n    pass\n"))
    return Corpus("c", tuple(CorpusFile(f"r@{s}/{p}", f"r@{s}", "python", t)
                             for s, files in (("0001", first), ("0002", second)) for p, t in files))


@pytest.mark.parametrize("with_store", [False, True], ids=["no-store", "store"])
def test_two_workers_chunk_what_one_does(tmp_path, with_store):
    corpus, scopes = _corpus(MIN_PARALLEL + 16), ["r@0001/", "r@0002/"]
    store = (lambda name: ChunkStore(tmp_path / f"{name}.sqlite")) if with_store else (lambda name: None)
    one, reuse_one = chunk_by_content(FunctionChunker(), corpus, scopes, store("one"), "k", workers=1)
    two, reuse_two = chunk_by_content(FunctionChunker(), corpus, scopes, store("two"), "k", workers=2)
    assert [(c.id, c.text, c.symbol, c.start, c.end) for c in two] == \
           [(c.id, c.text, c.symbol, c.start, c.end) for c in one]
    assert reuse_two == reuse_one and reuse_one["r@0002/"]["files_reused"] == 2 * (MIN_PARALLEL + 16) // 3
    assert len(one) == 2 * (2 * (MIN_PARALLEL + 16)) + 1


def test_chunk_workers_is_auto_or_a_positive_number_and_not_hashed():
    auto = settings_from(compose(["chunk_workers=auto"]))
    assert auto.chunk_workers >= 1 and settings_from(compose(["chunk_workers=3"])).chunk_workers == 3
    assert config_hash(compose(["chunk_workers=1"])) == config_hash(compose(["chunk_workers=auto"]))
    with pytest.raises(UserError, match="chunk_workers=0: use a positive number or auto"):
        settings_from(compose(["chunk_workers=0"]))


@dataclass(frozen=True)
class WhereChunked(Chunker):
    """FunctionChunker's chunks, each marked with the process that made it."""

    def chunk(self, path, text, language):
        return [replace(c, meta={"pid": os.getpid()}) for c in FunctionChunker().chunk(path, text, language)]


@dataclass(frozen=True)
class SlowWhereChunked(WhereChunked):
    """WhereChunked taking 20 ms a file: 64 files outlast the serial budget many times over."""

    def chunk(self, path, text, language):
        time.sleep(0.02)
        return super().chunk(path, text, language)


def test_slow_chunking_of_enough_files_goes_to_other_processes_in_order():
    files = [(f"m{i}.py", f) for i, f in enumerate(_corpus(2 * MIN_PARALLEL).files)]
    got = chunk_files(SlowWhereChunked(), files, workers=2)
    pids = [c.meta["pid"] for chunks in got for c in chunks]
    assert os.getpid() in pids and set(pids) - {os.getpid()}  # the first files here, the rest in the pool
    assert [[c.text for c in chunks] for chunks in got] == \
        [[c.text for c in chunks] for chunks in chunk_files(FunctionChunker(), files, workers=1)]


def test_fast_chunking_and_few_files_stay_here():
    files = [(f"m{i}.py", f) for i, f in enumerate(_corpus(3 * MIN_PARALLEL).files)]
    fast = {c.meta["pid"] for chunks in chunk_files(WhereChunked(), files, workers=2) for c in chunks}
    assert fast == {os.getpid()}  # milliseconds of chunking never start the pool
    few = {c.meta["pid"] for chunks in chunk_files(SlowWhereChunked(), files[:MIN_PARALLEL - 1], 2) for c in chunks}
    assert few == {os.getpid()}
