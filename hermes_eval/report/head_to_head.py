"""Two runs of one query set, query by query: who wins where, by how much, and why the misses miss.

``hermes-eval compare RUN_A RUN_B``: per-query wins, losses and ties on a metric; the paired mean
difference (B - A) with its bootstrap CI and ranx's paired p; the same per stratum (language,
repository, query kind); each arm's misses at k by cause; the queries that differ most each way,
with their gold files and both arms' top results marked hit or miss.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from hermes_eval.core.errors import UserError
from hermes_eval.judge.strata import COLUMN_PREFIX
from hermes_eval.judge.significance import paired_bootstrap, paired_pvalue
from hermes_eval.record.folder import RunFiles
from hermes_eval.record.results import RECORD, read_record
from retrievers.chunk import parse_chunk_id

STRATA = ("language", "repo", "kind")
CAUSES = ("unanswerable", "gold has an identical twin", "outranked by a leak", "right file, wrong chunk",
          "gold ranked below k", "gold never retrieved")
# A hit at k whose gold still falls outside a RAG context of this many tokens (judge/budget.py packs
# chunks in rank order): the gold is found, but a generator given that budget never sees it.
BUDGET_METRIC = "budget_recall@2k"
PAST_BUDGET = "hit, but past the 2k-token budget"


@dataclass(frozen=True)
class Arm:
    """One side of the comparison: its folder, record and files."""

    run_dir: Path
    record: dict
    files: RunFiles

    @property
    def label(self) -> str:
        return f"{self.record.get('chunker')}/{self.record.get('system')}"

    def relevant(self, qid: str) -> set[str]:
        """The chunks this run judged relevant to ``qid``."""
        return {d for d, r in self.files.qrels.get(qid, {}).items() if r > 0}

    def flagged(self, flag: str) -> set[str]:
        """Queries whose hygiene flags (per_query.parquet) include ``flag``."""
        df = self.files.per_query
        if "hygiene_flags" not in df.columns:
            return set()
        return {str(q) for q, f in zip(df["qid"], df["hygiene_flags"]) if flag in str(f or "")}

    @cached_property
    def unanswerable(self) -> set[str]:
        """Queries hygiene found unanswerable in this run's chunking."""
        return self.flagged("unanswerable")

    @cached_property
    def leak_places(self) -> dict[str, list[tuple[str, int, int]]]:
        """qid -> the non-gold spans that hold the query's own text (hygiene's corpus-wide leak search)."""
        df = self.files.per_query
        if "leak_places" not in df.columns:
            return {}
        out = {}
        for q, cell in zip(df["qid"], df["leak_places"]):
            spans = [parse_chunk_id(p) for p in json.loads(cell or "[]")]
            if spans := [sp for sp in spans if sp is not None]:
                out[str(q)] = spans
        return out

    def leaked_in(self, qid: str, hits: list[str]) -> bool:
        """Whether one of ``hits`` overlaps a place that holds the query's own text."""
        places = self.leak_places.get(qid, ())
        for cid in hits:
            c = parse_chunk_id(cid)
            if c and any(c[0] == p and c[1] <= e and s <= c[2] for p, s, e in places):
                return True
        return False

    def past_budget(self, qid: str) -> bool:
        """None of the query's gold inside the token budget (:data:`BUDGET_METRIC` is 0; False when not recorded)."""
        return self._budget.get(qid, 1.0) == 0.0

    @cached_property
    def _budget(self) -> dict[str, float]:
        df = self.files.per_query
        if BUDGET_METRIC not in df.columns:
            return {}
        return dict(zip(df["qid"].astype(str), df[BUDGET_METRIC].astype(float)))

    @cached_property
    def twins(self) -> set[str]:
        """Queries whose gold file has an identical copy elsewhere, judged irrelevant (twin_gold)."""
        return self.flagged("twin_gold")


@dataclass(frozen=True)
class Effect:
    """B - A on one group of queries."""

    group: str
    n: int
    mean_a: float
    mean_b: float
    delta: float
    ci: tuple[float, float]
    p: float
    b_wins: int
    a_wins: int
    ties: int


def load_arm(run_dir: Path) -> Arm:
    """A finished run folder, or a one-line UserError naming what is wrong with it."""
    run_dir = Path(run_dir)
    if not (run_dir / RECORD).exists():
        raise UserError(f"{run_dir}: not a run folder (no {RECORD}); pass a folder under runs/")
    record = read_record(run_dir / RECORD)
    if record.get("status") != "ok":
        raise UserError(f"{run_dir}: {record.get('status')} run, nothing to compare ({record.get('error')})")
    files = RunFiles(run_dir)
    if not files.exists():
        raise UserError(f"{run_dir}: per_query.parquet is missing; run the sweep again to redo it")
    return Arm(run_dir, record, files)


def check_comparable(a: Arm, b: Arm, metric: str) -> None:
    """Same query set, same queries, same file-level gold, and the metric recorded by both."""
    qa, qb = a.record.get("queryset"), b.record.get("queryset")
    if qa != qb:
        raise UserError(f"{b.run_dir}: query set {qb!r}, but {a.run_dir} ran {qa!r}; compare runs of one query set")
    ids_a, ids_b = set(a.files.per_query["qid"]), set(b.files.per_query["qid"])
    if ids_a != ids_b:
        raise UserError(f"{b.run_dir}: {len(ids_a ^ ids_b)} queries are in only one of the two runs; compare runs "
                        f"of the same queries (a held-out split or a changed query set differs)")
    if a.files.file_qrels != b.files.file_qrels:
        differ = sum(a.files.file_qrels.get(q) != b.files.file_qrels.get(q) for q in ids_a)
        raise UserError(f"{b.run_dir}: qrels.file.trec differs from {a.run_dir}'s for {differ} queries: the runs "
                        f"were judged against different gold")
    for arm in (a, b):
        if metric not in arm.files.per_query.columns:
            known = sorted(c for c in arm.files.per_query.columns if "@" in c)
            raise UserError(f"{arm.run_dir}: no per-query {metric!r}; use --metric with one of {', '.join(known)}")


def effect(group: str, va: np.ndarray, vb: np.ndarray, seed: int = 0) -> Effect:
    ci = paired_bootstrap(va, vb, seed=seed)
    d = vb - va
    return Effect(group, int(d.size), float(va.mean()), float(vb.mean()), ci.mean, (ci.ci_low, ci.ci_high),
                  paired_pvalue(va, vb) if d.size > 1 else 1.0, int((d > 0).sum()), int((d < 0).sum()),
                  int((d == 0).sum()))


def _strata_of(columns) -> list[str]:
    """The stratum columns a per-query table has: language, repo, kind and every declared stratum's."""
    return [*[s for s in STRATA if s in columns], *[c for c in columns if str(c).startswith(COLUMN_PREFIX)]]


def paired_frame(a: Arm, b: Arm, metric: str) -> pd.DataFrame:
    """One row per query: its text, strata and both arms' values (``a``, ``b``) and ``delta``."""
    keep = ["qid", "query", *_strata_of(a.files.per_query.columns)]
    m = a.files.per_query[keep + [metric]].merge(b.files.per_query[["qid", metric]], on="qid", suffixes=("_a", "_b"))
    m = m.rename(columns={f"{metric}_a": "a", f"{metric}_b": "b"})
    m["delta"] = m["b"] - m["a"]
    return m.sort_values("qid").reset_index(drop=True)


def stratum_column(frame: pd.DataFrame, stratum: str) -> str:
    """The column ``--by stratum`` names: itself, or a declared stratum's (``localized``:
    ``stratum_localized``); UserError naming the ones there are when the runs have neither."""
    for name in (stratum, COLUMN_PREFIX + stratum):
        if name in frame.columns:
            return name
    raise UserError(f"--by {stratum}: these runs have no {stratum!r} column; use one of "
                    f"{', '.join(_strata_of(frame.columns)) or '(none)'}")


def by_stratum(frame: pd.DataFrame, stratum: str) -> list[Effect]:
    stratum = stratum_column(frame, stratum)
    return [effect(str(g or "(none)"), grp["a"].to_numpy(float), grp["b"].to_numpy(float))
            for g, grp in frame.groupby(stratum, sort=True, dropna=False)]


def miss_cause(arm: Arm, qid: str, k: int) -> str | None:
    """Why ``arm`` has no relevant chunk in its top ``k`` for ``qid`` (None: it has one)."""
    rels = arm.relevant(qid)
    ranking = arm.files.rankings.get(qid, [])
    if rels & set(ranking[:k]):
        return None
    if qid in arm.unanswerable:
        return CAUSES[0]
    if qid in arm.twins:  # its copy, as good a hit by text, is judged irrelevant
        return CAUSES[1]
    if arm.leaked_in(qid, ranking[:k]):  # a chunk that holds the query's own text took the place
        return CAUSES[2]
    gold_files = {d for d, r in arm.files.file_qrels.get(qid, {}).items() if r > 0}
    if gold_files & set(arm.files.file_rankings.get(qid, [])[:k]):
        return CAUSES[3]
    return CAUSES[4] if rels & set(ranking) else CAUSES[5]


def miss_causes(arm: Arm, qids: list[str], k: int) -> dict[str, int]:
    """Misses at ``k`` per cause, and (:data:`PAST_BUDGET`) the hits whose gold misses the token budget."""
    found = [miss_cause(arm, q, k) for q in qids]
    out = {c: found.count(c) for c in CAUSES}
    out[PAST_BUDGET] = sum(1 for q, c in zip(qids, found) if c is None and arm.past_budget(q))
    return out


def first_gold_rank(arm: Arm, qid: str) -> int | None:
    rels = arm.relevant(qid)
    return next((i for i, d in enumerate(arm.files.rankings.get(qid, []), start=1) if d in rels), None)
