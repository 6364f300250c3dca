"""The one door from Hydra into hermes-eval: the config folder, composing overrides, the offline
environment defaults every entry point (CLI, library, Hydra job) gets."""
from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from hermes_eval.config.known_keys import REGISTERED_GROUPS
from hermes_eval.config.source_overrides import quote_source_lists
from hermes_eval.core.errors import UserError

CONF_DIR = Path(os.environ.get("HERMES_EVAL_CONF", Path(__file__).resolve().parents[2] / "conf"))

OFFLINE_DEFAULTS = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
                    "TOKENIZERS_PARALLELISM": "false", "TRANSFORMERS_VERBOSITY": "error",
                    "HF_HUB_DISABLE_PROGRESS_BARS": "1"}


def offline_defaults() -> None:
    """No model hub at run time unless the caller's environment says otherwise (setdefault)."""
    for var, value in OFFLINE_DEFAULTS.items():
        os.environ.setdefault(var, value)


@contextmanager
def _hydra(overrides: list[str]) -> Iterator[None]:
    """Hydra initialized at conf/ (the benchmark records registered when ``overrides`` name their groups)."""
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    from hermes_eval.config.benchmark_overlays import register

    offline_defaults()
    if names_group(overrides, REGISTERED_GROUPS):
        register(CONF_DIR)  # the benchmark overlays and experiments (conf/benchmarks/*.yaml)
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        yield


def _config(overrides: list[str], return_hydra_config: bool = False):
    from hydra import compose as hydra_compose

    return hydra_compose(config_name="config", overrides=overrides, return_hydra_config=return_hydra_config)


def compose(overrides: list[str]):
    """The composed config for ``overrides``; config errors become one-line UserErrors, and a word naming a key or
    an option the config lacks is refused with the closest ones (``config/known_keys.py``). A composition
    already made from the same config files is read back (``config/compose_cache.py``)."""
    from hermes_eval.config.compose_cache import cached

    overrides = quote_source_lists(overrides)
    offline_defaults()
    if names_group(overrides, REGISTERED_GROUPS):
        from hermes_eval.config.benchmark_overlays import register

        try:
            register(CONF_DIR)  # a sweep launched after this composition finds the overlays in Hydra's store
        except UserError:
            raise
        except Exception as exc:  # noqa: BLE001 - as when composing: one line, not a traceback
            raise UserError(_hydra_message(exc)) from None
    return cached(overrides, CONF_DIR, _composed)


def _composed(overrides: list[str]):
    from hermes_eval.config import known_keys

    try:
        with _hydra(overrides):
            try:
                cfg = _config(overrides)
            except Exception as exc:  # hydra raises several config exception types
                raise known_keys.explain(overrides, _config) or UserError(_hydra_message(exc)) from None
            known_keys.refuse_added(overrides, _config)
            return cfg
    except UserError:
        raise
    except Exception as exc:  # noqa: BLE001 - Hydra itself did not start
        raise UserError(_hydra_message(exc)) from None


def names_group(overrides: list[str], groups: tuple[str, ...]) -> bool:
    """Whether an override sets, adds or deletes one of ``groups`` (``experiment=x``, ``+benchmark=y``)."""
    for o in overrides:
        key = o.split("=", 1)[0].lstrip("+~").split("@", 1)[0]
        if key.split(".", 1)[0] in groups:
            return True
    return False


def _hydra_message(exc: Exception) -> str:
    """Hydra's message on one line, without its hint to append an unknown key with ``+`` (which would run and
    ignore it)."""
    text = re.sub(r"\s*To append to your config use \+\S+", "", " ".join(str(exc).split()))
    return f"config: {text}" if text else f"config: {type(exc).__name__}"


def first_of_sweeps(overrides: list[str]) -> list[str]:
    """Each sweep override (a=1,2) reduced to its first value, to validate before launching."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    out = []
    overrides = quote_source_lists(overrides)
    try:
        parsed = OverridesParser.create().parse_overrides(overrides)
    except Exception as exc:  # noqa: BLE001
        raise UserError(_hydra_message(exc)) from None
    sweeps = [ov for ov in parsed if ov.is_sweep_override()]
    if sweeps:  # every value a group sweeps must be one of its options, not only the first one composed
        from hermes_eval.config.known_keys import check_choices

        with _hydra(overrides):
            check_choices(sweeps)
    for raw, ov in zip(overrides, parsed):
        if ov.is_sweep_override():
            first = next(iter(ov.sweep_string_iterator()))
            out.append(f"{ov.get_key_element()}={first}")
        else:
            out.append(raw)
    return out
