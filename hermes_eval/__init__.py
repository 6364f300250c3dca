"""hermes-eval: the harness that measures hybrid code retrieval.

    import hermes_eval
    outcome = hermes_eval.run(["chunker=lines", "fusion.dense_weight=0.7"])
    print(outcome.record["metrics"]["ndcg@10"])
    table = hermes_eval.load_results("runs")
"""
from typing import TYPE_CHECKING, Any

from hermes_eval.core.version import __version__

if TYPE_CHECKING:
    from hermes_eval.api import compose, load_results, run

__all__ = ["__version__", "compose", "load_results", "run"]
API = ("compose", "load_results", "run")


def __getattr__(name: str) -> Any:
    """:data:`API` from :mod:`hermes_eval.api`, imported at first use: a process that needs one module of the
    package (a reader of query sets, the cost benches' references) does not load Hydra's config and the run's
    stages with it."""
    if name in API:
        from hermes_eval import api

        return getattr(api, name)
    raise AttributeError(f"module 'hermes_eval' has no attribute {name!r}")
