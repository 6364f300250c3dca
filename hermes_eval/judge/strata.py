"""Per-stratum means of every per-query metric (strata: a query's language, its repository)."""
from __future__ import annotations

from typing import Mapping

NO_STRATUM = "(none)"  # a query without a repository


def stratum_means(per_query: Mapping[str, Mapping[str, float]], stratum: Mapping[str, str]) -> dict[str, dict]:
    """{stratum: {"queries": n, metric: mean}} over the queries in ``stratum`` (qid -> name); strata
    sorted by name, metrics by name. ``per_query`` is metric -> qid -> value."""
    members: dict[str, list[str]] = {}
    for qid, name in stratum.items():
        members.setdefault(name, []).append(qid)
    out: dict[str, dict] = {}
    for name in sorted(members):
        qids = members[name]
        row: dict = {"queries": len(qids)}
        for metric in sorted(per_query):
            values = [per_query[metric][q] for q in qids if q in per_query[metric]]
            row[metric] = round(sum(values) / len(values), 6) if values else None
        out[name] = row
    return out
