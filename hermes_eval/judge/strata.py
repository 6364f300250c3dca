"""Per-stratum means of every per-query metric (strata: a query's language, its repository, and any a
query set declares in its manifest: ``strata: {name: meta key}``, e.g. a mined set's commit year)."""
from __future__ import annotations

from typing import Iterable, Mapping

NO_STRATUM = "(none)"  # a query without a repository
COLUMN_PREFIX = "stratum_"  # a declared stratum's per_query.parquet column: stratum_<name>


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


def declared_strata(per_query: Mapping[str, Mapping[str, float]], queries: Iterable,
                    declared: Mapping[str, str]) -> dict[str, dict]:
    """{name: stratum_means} for each stratum a manifest declares (``name -> the meta key`` whose value
    names a query's stratum; ``(none)`` when a query lacks it); language and repo are always there."""
    return {name: stratum_means(per_query, members) for name, members in declared_values(queries, declared).items()}


def declared_values(queries: Iterable, declared: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """{name: {qid: the query's stratum}} for each stratum a manifest declares but language and repo."""
    queries = list(queries)
    return {name: {q.qid: str(q.meta.get(key, NO_STRATUM)) for q in queries}
            for name, key in sorted(declared.items()) if name not in ("language", "repo")}
