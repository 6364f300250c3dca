"""setup_logging: progress as bare lines on stderr, warnings prefixed, idempotent."""
from __future__ import annotations

import logging

import pytest

from hermes_eval.core.log import setup_logging


@pytest.fixture
def fresh():
    logger = logging.getLogger("hermes_eval")
    handlers, level = list(logger.handlers), logger.level
    logger.handlers.clear()
    yield logger
    logger.handlers[:] = handlers
    logger.setLevel(level)


def test_info_is_the_bare_message_and_warnings_are_prefixed(fresh, capsys):
    setup_logging()
    log = logging.getLogger("hermes_eval.some.module")
    log.debug("hidden")
    log.info("[bench] %s: done", "scaling")
    log.warning("leak share %d%%", 40)
    out, err = capsys.readouterr()
    assert out == "" and err == "[bench] scaling: done\nWARNING: leak share 40%\n"


def test_verbose_shows_debug_and_repeated_calls_add_no_handler(fresh, capsys):
    setup_logging()
    setup_logging(verbose=True)
    setup_logging(verbose=True)
    assert len(fresh.handlers) == 1
    logging.getLogger("hermes_eval.x").debug("detail")
    assert capsys.readouterr().err == "detail\n"
    setup_logging()
    logging.getLogger("hermes_eval.x").debug("detail")
    assert capsys.readouterr().err == ""
