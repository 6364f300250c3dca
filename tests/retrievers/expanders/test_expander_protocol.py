"""What every query expander owes the pipeline, for each conf/expander preset (its chat endpoint
pointed at a loopback server): distinct alternatives, at most ``n``, never the query itself;
nothing (counted) when the endpoint fails, so the original query is still searched."""
from __future__ import annotations

from dataclasses import replace

import pytest
from loopback import ChatServer, closed_port, serving
from omegaconf import OmegaConf

from hermes_eval.config.compose import CONF_DIR
from hermes_eval.config.parts import instantiate_part
from retrievers.expanders.base import Expander
from retrievers.kinds import missing_members

PRESETS = sorted(p.stem for p in (CONF_DIR / "expander").glob("*.yaml") if OmegaConf.load(p).get("_target_"))


def preset(name: str, base_url: str, model: str = "json") -> Expander:
    node = OmegaConf.load(CONF_DIR / "expander" / f"{name}.yaml")
    node.client.base_url, node.client.model = base_url, model
    return instantiate_part(node)


@pytest.fixture
def chat():
    server = ChatServer()
    with serving(server.handler()) as url:
        server.url = url + "/v1"
        yield server


def test_there_is_an_expander_preset():
    assert PRESETS == ["llm"]


@pytest.mark.parametrize("model", ["json", "markdown", "plain"])
@pytest.mark.parametrize("name", PRESETS)
def test_expander_contract(name, model, chat):
    exp = preset(name, chat.url, model)
    assert isinstance(exp, Expander) and missing_members(exp, Expander) == []
    query = "first alternative phrasing"  # the server's own first answer: it must be dropped
    out = exp.expand(query)
    assert out == ["second alternative phrasing"]
    assert exp.expand("read a config file") == ["first alternative phrasing", "second alternative phrasing"]
    assert len(exp.expand("x")) <= exp.n
    assert preset(name, chat.url, model).expand("read a config file") == exp.expand("read a config file")


@pytest.mark.parametrize("name", PRESETS)
def test_a_failing_endpoint_gives_no_alternatives_and_is_counted(name):
    exp = preset(name, f"http://127.0.0.1:{closed_port()}/v1")
    exp = replace(exp, client=replace(exp.client, timeout=2))
    assert exp.expand("read a config file") == []
    assert sum(v for k, v in exp.stats.items() if k not in ("queries", "expanded", "empty")) == 1
