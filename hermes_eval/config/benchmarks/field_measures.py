"""The measures a field of research reports for every benchmark of it, by field (a record's ``field:``):
its markdown board shows them beside the record's own ``columns`` whatever else the runs measured."""
from __future__ import annotations

# Bug localization (Ye et al., Bench4BL, BLIZZARD, Gandhi et al.): MAP (trec_eval's, over all gold files),
# MRR uncut and Accuracy@1/5/10 (a gold file in the top k: file_hit@k). judge/average_precision.py holds
# the other AP denominators a paper of the field may use; a record names those in its columns.
FIELD_MEASURES: dict[str, tuple[str, ...]] = {
    "bug_localization": ("file_map", "file_mrr", "file_hit@1", "file_hit@5", "file_hit@10"),
}


def field_measures(field: str) -> tuple[str, ...]:
    """The measures of ``field`` (none for the empty field)."""
    return FIELD_MEASURES[field] if field else ()


__all__ = ["FIELD_MEASURES", "field_measures"]
