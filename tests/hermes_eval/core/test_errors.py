"""format_error: the one line every command prints on stderr for a failure."""
from __future__ import annotations

from hermes_eval.core.errors import HygieneError, UserError, format_error, one_line


def test_user_error_is_its_message():
    assert format_error(UserError("conf/x.yaml: field 'k' must be > 0")) == \
        "hermes-eval: error: conf/x.yaml: field 'k' must be > 0"
    assert format_error(HygieneError("leak share 40%")) == "hermes-eval: error: leak share 40%"


def test_other_exceptions_are_prefixed_with_their_type():
    assert format_error(KeyError("x")) == "hermes-eval: error: KeyError: 'x'"
    assert format_error(ValueError("bad")) == "hermes-eval: error: ValueError: bad"
    assert format_error(KeyboardInterrupt()) == "hermes-eval: error: KeyboardInterrupt"


def test_multi_line_messages_become_one_line():
    exc = RuntimeError("first line\n  second\tline\r\n\nthird  ")
    line = format_error(exc)
    assert line == "hermes-eval: error: RuntimeError: first line second line third"
    assert "\n" not in format_error(UserError("a\nb")) and format_error(UserError("a\nb")).endswith(": a b")


def test_long_messages_are_kept_whole():
    """The terminal gets the whole message; callers that store it (record.json) cut it themselves."""
    msg = "word " * 200
    assert format_error(UserError(msg)) == "hermes-eval: error: " + msg.strip()
    assert one_line(OSError(msg)) == "OSError: " + msg.strip()
