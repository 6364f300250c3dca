"""Rerankers: reorder the top of a fused candidate list (see ``base`` for the protocol)."""
