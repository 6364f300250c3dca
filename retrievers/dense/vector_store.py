"""One vector store for many snapshots of a repository: each distinct text stored once, a snapshot a list of rows.

A query set over many snapshots (one per bug report or commit) indexes nearly the same chunks again and
again. :class:`VectorStore` keeps one float32 row per distinct text, in fixed-size blocks (growing never
copies what is stored); blocks past ``mmap_above_bytes`` are memory-mapped files in ``spill_dir`` (a
temporary folder when not given), so a large set's peak memory stays bounded while the values, and so every
score computed from them, are the same float32 as in memory. A snapshot is :class:`Members`: the store
row of each of its documents (two documents with one text share a row).
"""
from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from retrievers.dense.vectors import as_rows


@dataclass(frozen=True)
class Members:
    """A snapshot's documents in ``store``: ``rows[i]`` holds document i's vector."""

    store: "VectorStore"
    rows: np.ndarray

    def __len__(self) -> int:
        return len(self.rows)

    def vectors(self) -> np.ndarray:
        """The documents' vectors, one row each, in document order (a copy: only these rows are read)."""
        return self.store.take(self.rows)


class VectorStore:
    """Distinct texts' vectors, one row each, appended in blocks of ``block_rows``."""

    def __init__(self, block_rows: int = 16384, mmap_above_bytes: int = 1 << 30, spill_dir: str | None = None):
        if block_rows <= 0:
            raise ValueError(f"block_rows must be positive, got {block_rows}")
        self.block_rows, self.mmap_above_bytes = int(block_rows), int(mmap_above_bytes)
        self._spill_given = spill_dir
        self._spill: Path | None = None
        self._row_of: dict[str, int] = {}
        self._blocks: list[np.ndarray] = []
        self.dim: int | None = None
        self.mapped_blocks = 0
        self.last_added = 0

    def __len__(self) -> int:
        return len(self._row_of)

    @property
    def nbytes(self) -> int:
        """Bytes of the blocks allocated (in memory or mapped)."""
        return sum(b.nbytes for b in self._blocks)

    def add(self, texts: Sequence[str], embed: Callable[[list[str]], np.ndarray]) -> Members:
        """``texts`` as members; the texts not stored yet are embedded by ``embed`` (once, in first-seen
        order) and appended."""
        new = list(dict.fromkeys(t for t in texts if t not in self._row_of))
        self.last_added = len(new)  # rows this call appended
        if new:
            self._append(new, as_rows(embed(new), self.dim))
        return Members(self, np.fromiter((self._row_of[t] for t in texts), dtype=np.int64, count=len(texts)))

    def rows_of(self, texts: Iterable[str]) -> list[int | None]:
        """Each text's row, None when it is not stored."""
        return [self._row_of.get(t) for t in texts]

    def take(self, rows: np.ndarray) -> np.ndarray:
        """The vectors at ``rows`` as one C-contiguous float32 matrix, reading only their blocks."""
        rows = np.asarray(rows, dtype=np.int64)
        out = np.empty((len(rows), self.dim or 0), dtype=np.float32)
        if not len(rows):
            return out
        if rows.min() < 0 or rows.max() >= len(self):
            raise IndexError(f"rows outside the store's {len(self)}")
        block, offset = np.divmod(rows, self.block_rows)
        for b in np.unique(block):
            at = block == b
            out[at] = self._blocks[int(b)][offset[at]]
        return out

    def _append(self, texts: list[str], x: np.ndarray) -> None:
        if len(x) != len(texts):
            raise ValueError(f"embed returned {len(x)} vectors for {len(texts)} texts")
        if self.dim is None:
            self.dim = int(x.shape[1])
        start = len(self._row_of)
        done = 0
        while done < len(texts):
            b, off = divmod(start + done, self.block_rows)
            if b == len(self._blocks):
                self._blocks.append(self._new_block())
            n = min(self.block_rows - off, len(texts) - done)
            self._blocks[b][off:off + n] = x[done:done + n]
            done += n
        for i, t in enumerate(texts):
            self._row_of[t] = start + i

    def _new_block(self) -> np.ndarray:
        shape = (self.block_rows, self.dim)
        if self.nbytes + self.block_rows * self.dim * 4 <= self.mmap_above_bytes:
            return np.zeros(shape, dtype=np.float32)
        if self._spill is None:
            self._spill = Path(self._spill_given) if self._spill_given else Path(tempfile.mkdtemp(prefix="vectors-"))
            self._spill.mkdir(parents=True, exist_ok=True)
        self.mapped_blocks += 1
        return np.lib.format.open_memmap(self._spill / f"block-{len(self._blocks)}.npy", mode="w+",
                                         dtype=np.float32, shape=shape)

    def close(self) -> None:
        """Drop the blocks; a spill folder this store made is removed."""
        self._blocks, self._row_of = [], {}
        if self._spill is not None and not self._spill_given:
            shutil.rmtree(self._spill, ignore_errors=True)
        self._spill = None
