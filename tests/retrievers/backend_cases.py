"""Every single-backend retriever config, built the way a run builds it (from conf/retriever)."""
from __future__ import annotations

from pathlib import Path

from omegaconf import OmegaConf

CONF = Path(__file__).resolve().parents[2] / "conf" / "retriever"

SPARSE = ["rank_bm25_okapi", "rank_bm25_bm25l", "rank_bm25_bm25plus", "bm25s", "mteb_bm25", "fts5_porter",
          "fts5_code", "tantivy", "tantivy_code", "pyserini_bm25", "repocoder_jaccard",
          "lucene6_bm25", "lucene9_bm25", "blizzard_lucene"]
DENSE = ["exact", "faiss_flat", "faiss_ivf", "faiss_hnsw", "usearch_f32", "usearch_f16", "usearch_i8",
         "sqlite_vec"]
ANN = ["faiss_ivf", "faiss_hnsw", "usearch_f32", "usearch_f16", "usearch_i8"]


def leg_node(name: str):
    """The one configured leg of ``conf/retriever/<name>.yaml``."""
    cfg = OmegaConf.load(CONF / f"{name}.yaml")
    legs = [cfg[k] for k in ("sparse", "dense") if cfg.get(k)]
    assert len(legs) == 1, f"{name} should configure exactly one leg"
    return legs[0]


def make(name: str):
    """A fresh, unbuilt index from the config ``name``."""
    from hermes_eval.config.parts import instantiate_part

    return instantiate_part(leg_node(name))
