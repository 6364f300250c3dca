"""Every run re-scored from its own files before its record is written.

``run.trec`` and the qrels files are read back from disk and scored by trec_eval's own C code
(pytrec_eval); every chunk- and file-level recall@k, ndcg@k and mrr@k value of every query must
equal what the record holds (judge/measures/) (to :data:`TOLERANCE`), and so must the localization metrics
(hit@k, acc@k, acc_all@k, also over modules: run.module.trec), derived from trec_eval's counts: ``P_k`` (k times it is the hits in the
top k) and ``num_rel``. A record therefore never disagrees with
its run files: a metric bug, a writer bug or a reader bug stops the run with one line.
mrr@k is trec_eval's ``recip_rank`` over the top k; a query the run has no line for scores 0.
The whole-ranking metrics (no ``@k``: ``file_mrr``, ``file_map``) are trec_eval's ``recip_rank`` and
``map`` over the whole run, ``map@k`` its ``map_cut_k``, and ``map_found`` (judge/average_precision.py)
its AP times ``num_rel`` over the gold retrieved (``num_rel_ret``, or ``P_k`` times k in the top k).
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

from hermes_eval.core.errors import UserError
from hermes_eval.core.metrics import AP_FAMILIES, LOCALIZATION_FAMILIES
from hermes_eval.judge.average_precision import rescale
from hermes_eval.judge.localization import from_hits
from hermes_eval.record.trec import read_qrels, read_run
from retrievers.identity import distributions

TOLERANCE = 1e-6
FIX = "report it with the run folder: the record's code and trec_eval disagree on this run's files"
# our metric family -> trec_eval measure (``recall_5``, ``ndcg_cut_10``, ``recip_rank`` over the top k)
MEASURES = {"recall": "recall", "ndcg": "ndcg_cut", "mrr": "recip_rank"}
# localization families (judge/localization.py) are re-scored from trec_eval's P_k and num_rel
# level -> (qrels file, metric-name prefix, run file); modules have their own run file (chunk ids do
# not say which definition holds a chunk), files are collapsed from run.trec
LEVELS = {"chunk": ("qrels.trec", "", "run.trec"), "file": ("qrels.file.trec", "file_", "run.trec"),
          "module": ("qrels.module.trec", "module_", "run.module.trec")}
PREFIXES = tuple(p for _, p, _ in LEVELS.values() if p)
WHOLE = ("mrr", *AP_FAMILIES)  # families also recorded over the whole ranking (no @k)


class RescoreMismatch(UserError):
    """The record's numbers and its own run files disagree."""


def _file_of(chunk_id: str) -> str:
    return chunk_id.rsplit(":", 1)[0]


def _level_docs(ranked: list[str], level: str) -> list[str]:
    """Documents as written; files in the order of their first chunk."""
    return ranked if level != "file" else list(dict.fromkeys(_file_of(d) for d in ranked))


def _checked(per_query: Mapping[str, Mapping[str, float]], prefix: str) -> dict[str, tuple[str, int]]:
    """metric name -> (family, k) for the names of one level that trec_eval can re-score."""
    out = {}
    for name in per_query:
        if not name.startswith(prefix) or (not prefix and name.startswith(PREFIXES)):
            continue
        family, at, k = name[len(prefix):].partition("@")
        if (family in MEASURES or family in LOCALIZATION_FAMILIES or family in AP_FAMILIES) and k.isdigit():
            out[name] = (family, int(k))
        elif not at and family in WHOLE:  # the whole ranking: k 0
            out[name] = (family, 0)
    return out


def _want(family: str, k: int, measured: Mapping[str, float]) -> float:
    """trec_eval's value of ``family`` at ``k`` for one query (0 when the run has no line for it);
    a localization family from trec_eval's own counts: ``P_k`` times k hits, ``num_rel``."""
    if family == "mrr":
        return float(measured.get("recip_rank", 0.0))
    if family in AP_FAMILIES:
        ap = float(measured.get(f"map_cut_{k}" if k else "map", 0.0))
        if family == "map":
            return ap
        found = round(float(measured.get(f"P_{k}", 0.0)) * k) if k else int(measured.get("num_rel_ret", 0))
        return rescale(ap, int(measured.get("num_rel", 0)), found)
    if family in MEASURES:
        return float(measured.get(f"{MEASURES[family]}_{k}", 0.0))
    hits = round(float(measured.get(f"P_{k}", 0.0)) * k)
    return from_hits(family, hits, int(measured.get("num_rel", 0)), k)


def _trec_eval(qrels: dict, docs: dict[str, list[str]], measures: set[str], top: int | None = None) -> dict:
    import pytrec_eval

    run = {q: {d: float(len(ds) - i) for i, d in enumerate(ds[:top] if top else ds)} for q, ds in docs.items() if ds}
    return pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run) if run else {}


def rescore(run_dir: Path, per_query: Mapping[str, Mapping[str, float]]) -> dict:
    """Check ``per_query`` (metric -> qid -> value) against ``run_dir``'s files; what was checked."""
    runs: dict[str, dict[str, list[str]]] = {}  # run file -> rankings, each read once
    checked = 0
    for level, (qrels_file, prefix, run_file) in LEVELS.items():
        names = _checked(per_query, prefix)
        if not names:
            continue
        qrels = read_qrels(run_dir / qrels_file)
        if level == "file" and (run_dir / "run.file.trec").is_file():  # a declared file score's own order
            run_file = "run.file.trec"
        if run_file not in runs:
            runs[run_file] = read_run(run_dir / run_file)
        docs = {q: _level_docs(runs[run_file].get(q, []), level) for q in qrels}
        cut = ",".join(map(str, sorted({k for f, k in names.values() if f != "mrr" and k})))
        measures = {f"recall.{cut}", f"ndcg_cut.{cut}", f"P.{cut}", f"map_cut.{cut}"} if cut else set()
        whole = any(k == 0 for _, k in names.values())
        measures |= {"num_rel", "num_rel_ret", "map", "recip_rank"} if whole else {"num_rel"} if cut else set()
        full = _trec_eval(qrels, docs, measures) if measures else {}
        by_top = {k: _trec_eval(qrels, docs, {"recip_rank"}, top=k) for f, k in names.values() if f == "mrr" and k}
        for name, (family, k) in sorted(names.items()):
            got = by_top[k] if family == "mrr" and k else full
            for qid in qrels:
                want = _want(family, k, got.get(qid, {}))
                have = float(per_query[name].get(qid, 0.0))
                if abs(want - have) > TOLERANCE:
                    raise RescoreMismatch(
                        f"{run_dir}: {name} of query {qid!r} is {have:.6f} in the record but trec_eval gives "
                        f"{want:.6f} from run.trec and {qrels_file}; no numbers were recorded: {FIX}")
                checked += 1
    return {"by": f"pytrec_eval {distributions.version('pytrec_eval-terrier')}", "values": checked}
