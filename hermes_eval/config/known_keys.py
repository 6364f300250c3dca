"""Which ``key=value`` words a composed config takes, and the one-line refusal of any other.

A word is known when its key is a key of the composed config (a dotted path, ``hydra.*`` included), a
config group (``chunker=``, ``hydra/launcher=``, ``+benchmark=``, ``+fusion_tuning=``) given one of its
options, or one of :data:`OPTIONAL_KEYS`: keys the code reads with a default that the YAML leaves out,
the only keys ``+KEY=VALUE`` may add. Anything else is refused naming the closest known keys
(difflib), never with Hydra's hint to append it with ``+``: an appended key nothing reads is a typo
that runs and is ignored.

The functions taking Hydra's parsed overrides run inside an initialized Hydra context
(``config/compose.py`` opens it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from hermes_eval.core.errors import UserError

# the config groups the benchmark records fill (config/benchmark_overlays.register); no default names them, so
# a config naming neither composes without reading the records (config/compose.py)
REGISTERED_GROUPS = ("benchmark", "experiment")
CLOSE = 0.6  # difflib's cutoff: how alike a known key must be to be offered
# config folders that are not parts of a run: Hydra's own, and the records `benchmark`, `gate` and `decide` read
NOT_PARTS = ("hydra", "benchmarks", "gate", "decision")


@dataclass(frozen=True)
class OptionalKey:
    """A key the code reads with a default when absent: ``key`` (``.*``: any key under it) and what it sets."""

    key: str
    sets: str

    def matches(self, key: str) -> bool:
        if self.key.endswith(".*"):
            return key.startswith(self.key[:-1]) and len(key) > len(self.key) - 1
        return key == self.key


OPTIONAL_KEYS = (
    OptionalKey("hygiene.tokenizer", "approx: count query and chunk tokens with the regex approximation, "
                                     "not the embedder's tokenizer"),
    OptionalKey("hygiene.max_seq_tokens", "the token length a chunk is truncated at (default: the embedder's)"),
    OptionalKey("hygiene.leak_lines", "lines a query shares with its gold to leak (default 5)"),
    OptionalKey("hygiene.leak_line_chars", "characters a shared line needs to count (default 60)"),
    OptionalKey("hygiene.leak_chars", "a verbatim run this long shared with its gold leaks (default 200)"),
    OptionalKey("corpus.exclude", "globs of paths left out of the corpus"),
    OptionalKey("corpus.languages", "only files of these languages are indexed"),
    OptionalKey("corpus.max_file_bytes", "larger files are skipped (default 1,000,000)"),
    OptionalKey("embedder.checkpoint", "documents encoded between two writes to the embedding cache: the slice "
                "one call encodes, here or on a scale-out worker (default 1024)"),
    OptionalKey("rerank_depth", "the depth every reranker reranks (default 30)"),
    OptionalKey("fusion.weights.*", "a leg's weight in weighted fusion (fusion.weights.LEG)"),
)


def optional_names() -> set[str]:
    """The optional keys that name one key (not a ``.*`` family)."""
    return {k.key for k in OPTIONAL_KEYS if not k.key.endswith(".*")}


def optional(key: str) -> bool:
    """``key`` is one the config may leave out (:data:`OPTIONAL_KEYS`)."""
    return any(k.matches(key) for k in OPTIONAL_KEYS)


def flat_keys(node: Any, prefix: str = "") -> set[str]:
    """Every dotted key of a config (its inner nodes too), values unresolved."""
    from omegaconf import DictConfig, OmegaConf

    data = OmegaConf.to_container(node, resolve=False) if isinstance(node, DictConfig) else node
    out: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            dotted = f"{prefix}{key}"
            out.add(dotted)
            out |= flat_keys(value, f"{dotted}.")
    return out


def closest(key: str, known: Iterable[str], n: int = 3) -> list[str]:
    """The known keys most like ``key``: its siblings (same parent, compared by their last part), else any key
    but its own parents."""
    known = sorted(set(known))
    parent, _, last = key.rpartition(".")
    siblings = {k.rpartition(".")[2]: k for k in known if k.rpartition(".")[0] == parent}
    import difflib  # the refusal path only

    near = [siblings[m] for m in difflib.get_close_matches(last, list(siblings), n, CLOSE)]
    return near or [k for k in difflib.get_close_matches(key, known, n + 2, CLOSE)
                    if not key.startswith(f"{k}.")][:n]


class UnknownKey(UserError):
    """A ``key=value`` word whose key the command does not know; ``known``: the keys it does."""

    def __init__(self, message: str, key: str, word: str, known: Sequence[str]):
        super().__init__(message)
        self.key, self.word, self.known = key, word, tuple(known)


def unknown_key(where: str, word: str, key: str, known: Iterable[str]) -> UnknownKey:
    """``WHERE: WORD: no such key; closest: ..``; when none is close, the keys beside it (its parent's, or the
    top-level ones)."""
    known = sorted(set(known))
    near = closest(key, known)
    parent = key.rpartition(".")[0]
    listed = [k for k in known if parent and k.rpartition(".")[0] == parent] or top_level(known)
    hint = f"closest: {', '.join(near)}" if near else f"none is close; the keys beside it: {', '.join(listed)}"
    return UnknownKey(f"{where}: {word}: no such key; {hint}", key, word, known)


def shown(word: str) -> str:
    """The word without Hydra's ``+``/``++``/``~`` prefix."""
    return word.lstrip("+~")


def top_level(known: Iterable[str]) -> list[str]:
    """The keys and groups at the root (not Hydra's own)."""
    return sorted({k for k in known if "." not in k and "/" not in k and k != "hydra"})


def _loader():
    from hydra.core.global_hydra import GlobalHydra

    return GlobalHydra.instance().config_loader()


def is_group(key: str) -> bool:
    """``key`` names a config group (``chunker``, ``hydra/launcher``, ``benchmark``)."""
    return bool(key) and _loader().repository.group_exists(key)


def choices(override) -> list[str]:
    """The option names a group override picks (every value of a sweep ``a,b``)."""
    from hydra.core.override_parser.types import ChoiceSweep

    value = override.value()
    if isinstance(value, ChoiceSweep):
        return [str(v) for v in override.sweep_string_iterator()]
    return [] if value is None or override.is_sweep_override() else [str(value)]


def check_choices(overrides: Sequence) -> None:
    """Refuse a group override naming an option the group lacks, with its closest options."""
    for ov in overrides:
        if ov.is_delete() or not is_group(ov.key_or_group):
            continue
        group = ov.key_or_group
        options = _loader().get_group_options(group)
        for choice in choices(ov):
            if choice not in options:
                import difflib  # the refusal path only

                near = difflib.get_close_matches(choice, options, 3, CLOSE)
                hint = f"closest: {', '.join(near)}; " if near else ""
                raise UserError(f"config: {group}={choice}: no such {group.rsplit('/', 1)[-1]}; {hint}"
                                f"Available options in '{group}': {', '.join(options)}")


def parse(overrides: Sequence[str]) -> list:
    from hydra.core.override_parser.overrides_parser import OverridesParser

    return OverridesParser.create().parse_overrides(list(overrides))


def _base_keys(parsed: Sequence, compose) -> set[str]:
    """The keys of the config the group overrides alone compose (``hydra.*`` included), and the groups."""
    groups = [ov.input_line for ov in parsed if not ov.is_delete() and is_group(ov.key_or_group)]
    cfg = compose(groups, return_hydra_config=True)
    groups = set(_loader().list_groups("")) - set(NOT_PARTS)
    return flat_keys(cfg) | groups | set(REGISTERED_GROUPS)


def refuse_added(overrides: Sequence[str], compose) -> None:
    """After a composition that worked: refuse a ``+KEY``/``++KEY`` adding a key that is neither a group, nor
    optional, nor (``++``) already in the config. ``compose(overrides, return_hydra_config)`` composes."""
    if not any(o.startswith("+") for o in overrides):
        return
    parsed = parse(overrides)
    adds = [ov for ov in parsed if (ov.is_add() or ov.is_force_add()) and not is_group(ov.key_or_group)
            and not optional(ov.key_or_group)]
    if not adds:
        return
    known = _base_keys(parsed, compose) | optional_names()
    for ov in adds:
        if ov.is_force_add() and ov.key_or_group in known:
            continue  # ++ on a key the config has: an ordinary override
        raise unknown_key("config", shown(ov.input_line), ov.key_or_group, known)


def explain(overrides: Sequence[str], compose) -> UserError | None:
    """Why Hydra refused ``overrides``, when a word is the cause: an option its group lacks, or a key that is
    neither in the config nor optional (an optional key the config lacks is added with ``+``). None: another
    cause (Hydra's own message says it)."""
    try:
        parsed = parse(overrides)
    except Exception:  # noqa: BLE001 - a syntax error: Hydra's message names it
        return None
    try:
        check_choices(parsed)
    except UserError as exc:
        return exc
    try:
        known = _base_keys(parsed, compose)
    except Exception:  # noqa: BLE001 - the groups alone do not compose: Hydra's message says why
        return None
    for ov in parsed:
        key = ov.key_or_group
        if ov.is_delete() or ov.is_add() or ov.is_force_add() or key in known or is_group(key):
            continue
        if optional(key):
            return UserError(f"config: {ov.input_line}: {key} is optional and not in this config; add it with "
                             f"+{ov.input_line}")
        return unknown_key("config", ov.input_line, key, known | optional_names())
    return None
