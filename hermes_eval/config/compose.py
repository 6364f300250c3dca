"""The one door from Hydra into hermes-eval: the config folder, composing overrides, the offline
environment defaults every entry point (CLI, library, Hydra job) gets."""
from __future__ import annotations

import os
from pathlib import Path

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


def compose(overrides: list[str]):
    """The composed config for ``overrides``; config errors become one-line UserErrors."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    from hermes_eval.config.benchmark_overlays import register

    overrides = quote_source_lists(overrides)
    offline_defaults()
    if names_group(overrides, REGISTERED_GROUPS):
        register(CONF_DIR)  # the benchmark overlays and experiments (conf/benchmarks/*.yaml)
    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            return hydra_compose(config_name="config", overrides=overrides, return_hydra_config=False)
    except Exception as exc:  # hydra raises several config exception types
        raise UserError(_hydra_message(exc)) from None


# the groups conf/benchmarks/*.yaml fill (config/benchmark_overlays.py); no default names them, so a config that
# names neither composes without reading the records (0.25 s of a small run)
REGISTERED_GROUPS = ("benchmark", "experiment")


def names_group(overrides: list[str], groups: tuple[str, ...]) -> bool:
    """Whether an override sets, adds or deletes one of ``groups`` (``experiment=x``, ``+benchmark=y``)."""
    for o in overrides:
        key = o.split("=", 1)[0].lstrip("+~").split("@", 1)[0]
        if key.split(".", 1)[0] in groups:
            return True
    return False


def _hydra_message(exc: Exception) -> str:
    text = " ".join(str(exc).split())
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
    for raw, ov in zip(overrides, parsed):
        if ov.is_sweep_override():
            first = next(iter(ov.sweep_string_iterator()))
            out.append(f"{ov.get_key_element()}={first}")
        else:
            out.append(raw)
    return out
