"""User-facing errors: one line naming the file or field and the fix."""
from __future__ import annotations


class UserError(Exception):
    """Bad input; the CLI prints ``hermes-eval: error: <message>`` and exits 2."""

    exit_code = 2


class HygieneError(UserError):
    """A query set fails a hygiene check that the run was told to enforce."""
