"""Run folders say which query set, chunker and system they hold."""
from __future__ import annotations

from hermes_eval.config.compose import compose
from hermes_eval.config.settings import settings_from


def test_run_folders_of_two_query_sets_never_share_a_name_prefix():
    names = {qs: settings_from(compose([f"queryset={qs}", "chunker=python_ast", "retriever=bm25"])).run_name
             for qs in ("docstring", "repoeval_function")}
    assert names["docstring"].startswith("default-docstring-python_ast-")
    assert names["repoeval_function"].startswith("default-repoeval-function-python_ast-")
    assert names["docstring"].rsplit("-", 1)[0] != names["repoeval_function"].rsplit("-", 1)[0]


def test_a_non_default_embedder_is_named_where_vectors_are_used():
    from hermes_eval.config.identity import config_hash, system_label

    def label(*ov):
        return system_label(compose(list(ov)))

    assert label("retriever=dense") == "exact"
    assert label("retriever=dense", "embedder=minilm_onnx_int8") == "exact [minilm_onnx_int8]"
    assert label("retriever=hybrid", "embedder=minilm_static").endswith("[minilm_static]")
    assert label("retriever=bm25", "embedder=minilm_static") == "rank_bm25"  # BM25 never loads it
    # where a derived model is built is not what a run measures
    a = compose(["embedder=minilm_onnx", "embedder.models_dir=/tmp/a"])
    b = compose(["embedder=minilm_onnx", "embedder.models_dir=/tmp/b"])
    assert config_hash(a) == config_hash(b) != config_hash(compose(["embedder=minilm_onnx_int8"]))


def test_which_machines_embed_is_not_what_a_run_measures():
    """scale_out=ray (a Ray cluster's workers encode the documents) names the same run, with the same part
    identities, as one process: the vectors are the same (tests/hermes_eval/test_distributed.py)."""
    from hermes_eval.config.identity import config_hash
    from hermes_eval.stages.reuse import _embedder_identity

    one, ray = (settings_from(compose(["retriever=dense", *ov])) for ov in ([], ["scale_out=ray"]))
    assert ray.embedder.get("scale_out")["_target_"].endswith("RayScaleOut")  # kept in the recorded config
    assert ray.config_hash == one.config_hash == config_hash(compose(["retriever=dense"]))
    assert _embedder_identity(ray) == _embedder_identity(one)
