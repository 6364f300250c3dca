"""The dense legs of a snapshot set, over one shared vector store instead of one index per snapshot.

:class:`SnapshotDense` holds what the snapshots of a set share: one
:class:`~retrievers.dense.vector_store.VectorStore` (each distinct text embedded and stored once) and,
when ``ann="filtered"``, one FAISS index per leg searched with the snapshot's members as a filter
(:mod:`retrievers.dense.filtered_faiss`). :meth:`SnapshotDense.attach` swaps a pipeline's vector legs for
views over the store and returns the snapshot's :class:`~retrievers.dense.vector_store.Members`, which the
pipeline then hands those legs in place of a vector matrix.

Which leg reads the store how (``SharedDense.ann``):

- ``exact`` (:class:`~retrievers.dense.exact.ExactIndex`): always exact over the members
  (:class:`~retrievers.dense.member_search.MemberExactIndex`): same rankings as its own index per snapshot.
- ``per_snapshot`` (default): every other backend builds its own index per snapshot, as before (its vectors
  still come from the store).
- ``filtered``: FAISS (flat, ivf, hnsw) searches one shared index with an ``IDSelectorBatch`` of the members;
  usearch and sqlite-vec fall back to exact search over the members (usearch's Python API has no filtered
  search; sqlite-vec's vec0 would need the members written into a metadata column per snapshot), and
  :attr:`SnapshotDense.modes_seen` (the record's ``embeddings.vector_store.modes``) names the fallback.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal, Sequence

import numpy as np

from retrievers.dense.exact import ExactIndex
from retrievers.dense.faiss_index import FaissIndex
from retrievers.dense.member_search import MemberExactIndex
from retrievers.dense.vector_store import Members, VectorStore
from retrievers.identity.declare import declare

Mode = Literal["exact_members", "filtered", "fallback_exact_members", "per_snapshot"]


@declare("retrievers.dense.snapshot_legs.SharedDense")  # bump when a view over the store ranks otherwise
@dataclass(frozen=True)
class SharedDense:
    """How a snapshot set's dense legs share vectors (conf/snapshot_dense/*.yaml). A run naming it records it
    as a part (``hermes_eval/stages/run_parts.py``): its declared version stands for the views' code."""

    ann: Literal["per_snapshot", "filtered"] = "per_snapshot"
    store: bool = True  # false: no shared store, every dense leg embeds and builds per snapshot (as before)
    block_rows: int = 16384  # rows allocated at a time
    mmap_above_mb: int = 1024  # blocks past this many MB are memory-mapped files
    spill_dir: str | None = None  # where (a temporary folder when null)

    def __post_init__(self) -> None:
        if self.ann not in ("per_snapshot", "filtered"):
            raise ValueError(f"snapshot_dense.ann must be per_snapshot or filtered, got {self.ann!r}")


class SnapshotDense:
    """One store for a snapshot set, and the shared filtered indexes of its legs."""

    def __init__(self, settings: SharedDense | None = None):
        self.settings = settings or SharedDense()
        s = self.settings
        self.store = VectorStore(s.block_rows, s.mmap_above_mb << 20, s.spill_dir)
        self._shared: dict[str, Any] = {}
        self.modes_seen: dict[str, Mode] = {}  # leg name -> how it read the store

    def mode(self, name: str, leg: Any) -> Mode:
        """How leg ``name`` reads the store (see the module doc)."""
        if type(leg) is ExactIndex:
            return "exact_members"
        if self.settings.ann == "per_snapshot":
            return "per_snapshot"
        return "filtered" if type(leg) is FaissIndex else "fallback_exact_members"

    def attach(self, legs: dict[str, Any], texts: Sequence[str], embed: Callable[[list[str]], np.ndarray]
               ) -> Members | np.ndarray:
        """Swap ``legs``' vector legs (in place) for views over the store and add ``texts``' vectors (only
        the texts the store lacks are embedded). Returns the documents for the pipeline to hand its vector
        legs: the :class:`Members`, or their vectors when a leg builds its own index per snapshot (a
        member view takes either; ``per_snapshot`` and ``filtered`` legs never meet, one setting picks)."""
        members = self.store.add(texts, embed)
        own = False
        for name, ix in list(legs.items()):
            if getattr(ix, "input", None) != "vector":
                continue
            mode = self.modes_seen[name] = self.mode(name, ix)
            if mode in ("exact_members", "fallback_exact_members"):
                legs[name] = MemberExactIndex()
            elif mode == "filtered":
                from retrievers.dense.filtered_faiss import FilteredFaissView, SharedFaiss

                key = f"{name}:{ix!r}"
                if key not in self._shared:
                    self._shared[key] = SharedFaiss(ix, self.store)
                legs[name] = FilteredFaissView(self._shared[key])
            else:
                own = True
        return members.vectors() if own else members

    def close(self) -> None:
        self._shared.clear()
        self.store.close()
