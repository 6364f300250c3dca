"""Progress and warnings go through ``logging`` (``log = logging.getLogger(__name__)`` in each module);
a command's product (a summary, the paths it wrote, JSON it was asked for) is printed to stdout.

The CLI calls :func:`setup_logging` once; library code never configures logging.
"""
from __future__ import annotations

import logging
import sys

ROOT = "hermes_eval"


class _Format(logging.Formatter):
    """``%(message)s`` for INFO and DEBUG; ``WARNING: ...`` / ``ERROR: ...`` above that."""

    def __init__(self) -> None:
        super().__init__("%(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return f"{record.levelname}: {text}" if record.levelno >= logging.WARNING else text


class _Stderr(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at emit time (so redirection and pytest's capture work)."""

    def __init__(self) -> None:
        super().__init__()

    @property
    def stream(self):  # noqa: D401 - property standing in for StreamHandler's attribute
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:  # StreamHandler.__init__ assigns it; the property wins
        pass


def setup_logging(verbose: bool = False) -> logging.Logger:
    """Send the ``hermes_eval`` loggers' records to stderr: INFO and up, or DEBUG and up if ``verbose``.

    Idempotent: calling it again only changes the level, it never adds a second handler.
    """
    logger = logging.getLogger(ROOT)
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    if not any(isinstance(h, _Stderr) for h in logger.handlers):
        handler = _Stderr()
        handler.setFormatter(_Format())
        logger.addHandler(handler)
    return logger
