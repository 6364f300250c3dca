"""Records that cross every stage: spans, queries, query sets, corpora, errors, the metric registry."""
from hermes_eval.core.corpus import Corpus, CorpusFile
from hermes_eval.core.errors import HygieneError, UserError
from hermes_eval.core.query import Query
from hermes_eval.core.queryset import QuerySet
from hermes_eval.core.spans import Span

__all__ = ["Corpus", "CorpusFile", "HygieneError", "Query", "QuerySet", "Span", "UserError"]
