"""Chunkers: turn one file's text into Chunks. Each module holds one strategy."""
from retrievers.chunkers.base import Chunker, chunk_files

__all__ = ["Chunker", "chunk_files"]
