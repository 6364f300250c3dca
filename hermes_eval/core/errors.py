"""User-facing errors: one line naming the file or field and the fix."""
from __future__ import annotations


class UserError(Exception):
    """Bad input; the CLI prints ``hermes-eval: error: <message>`` and exits 2."""

    exit_code = 2


class HygieneError(UserError):
    """A query set fails a hygiene check that the run was told to enforce."""


def one_line(exc: BaseException) -> str:
    """``exc``'s message on one line (library errors often span several).

    Anything but a UserError is prefixed with its type name: a bare message from an unexpected
    exception (``KeyError``: ``'x'``) rarely says what went wrong.
    """
    msg = " ".join(str(exc).split())
    if isinstance(exc, UserError):
        return msg
    return f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__


def error_line(message: str) -> str:
    """The one line every command prints on stderr for a failure: ``hermes-eval: error: <message>``."""
    return f"hermes-eval: error: {message}"


def format_error(exc: BaseException) -> str:
    """:func:`error_line` of :func:`one_line` of ``exc``."""
    return error_line(one_line(exc))
