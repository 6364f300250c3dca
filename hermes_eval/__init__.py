"""hermes-eval: the harness that measures hybrid code retrieval.

    import hermes_eval
    outcome = hermes_eval.run(["chunker=lines", "fusion.dense_weight=0.7"])
    print(outcome.record["metrics"]["ndcg@10"])
    table = hermes_eval.load_results("runs")
"""
from hermes_eval.api import compose, load_results, run
from hermes_eval.core.version import __version__

__all__ = ["__version__", "compose", "load_results", "run"]
