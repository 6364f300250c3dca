"""What every benchmark shares: timing helpers and the bench query set and corpus."""
from __future__ import annotations

from pathlib import Path

import numpy as np


def median_ms(samples_ns) -> float:
    return round(float(np.median(np.asarray(samples_ns, dtype=np.float64))) / 1e6, 4)


def percentile_ms(samples_ns, q: float) -> float:
    return round(float(np.percentile(np.asarray(samples_ns, dtype=np.float64), q)) / 1e6, 4)


def default_chunks_and_queries(cache: Path, n_queries: int = 100):
    """The default corpus chunked with python_ast and its docstring queries, through the run's own
    prepare stage (so masked exactly as a run masks it)."""
    from hermes_eval.cache.content import Cache
    from hermes_eval.config.compose import compose
    from hermes_eval.config.settings import settings_from
    from hermes_eval.stages.prepare import prepare

    s = settings_from(compose(["chunker=python_ast", "queryset.name=bench-docstring",
                               f"queryset.generator.max_queries={n_queries}", f"paths.cache={cache}",
                               f"paths.datasets={Path(cache) / 'bench' / 'datasets'}"]))
    p = prepare(s, Cache(cache))
    return list(p.chunks), [q.query for q in p.queryset.queries]
