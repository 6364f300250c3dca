"""Baselines that search a repository's history instead of its code: a published system's own protocol
reproduced from the repository's git history (``commit_bm25``: Gandhi et al. 2025's BM25 over past commit
messages), scored with the paper's metric definitions beside the standard ones."""
