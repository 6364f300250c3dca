"""The part identities a run records and is reused by: :func:`~hermes_eval.stages.reuse.part_identities` and,
when the config names one, how a snapshot set's dense legs share their vector store (``snapshot_dense``:
``retrievers.dense.snapshot_legs.SharedDense``, whose declared version moves when a view over the store ranks
otherwise). Absent, as before it existed, a run's identities are unchanged: an exact leg over the store ranks
as its index per snapshot did."""
from __future__ import annotations

from hermes_eval.config.settings import RunSettings
from hermes_eval.core.errors import one_line
from hermes_eval.stages.reuse import part_identities
from retrievers.identity.key import config_identity


def run_part_identities(s: RunSettings) -> dict[str, dict]:
    out = part_identities(s)
    if s.snapshot_dense is not None:
        try:
            out["snapshot_dense"] = {"preset": s.snapshot_dense.name or "snapshot_dense",
                                     **config_identity(dict(s.snapshot_dense.node), lambda: None).to_dict()}
        except Exception as exc:  # noqa: BLE001 - the run itself reports the part's failure
            out["snapshot_dense"] = {"preset": "snapshot_dense", "error": one_line(exc)}
    return out
