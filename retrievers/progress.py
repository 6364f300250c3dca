"""A progress hook for long work inside the parts under test (embedding, index builds).

The parts call :func:`track`; what is shown (a bar, a plain log line, nothing) is decided by
whoever runs them, through :func:`install`. Nothing is shown until a reporter is installed, so a
team importing a backend into its own service gets no output from here. A tracker only counts:
it never touches the work itself, so it cannot change a number.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator, Protocol

__all__ = ["Tracker", "install", "track", "count_forward_passes"]


class Tracker(Protocol):
    def update(self, n: int = 1) -> None: ...

    def close(self) -> None: ...


class _Silent:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


# label, total, unit -> Tracker
Reporter = Callable[[str, int, str], Tracker]
_reporter: Reporter | None = None


def install(reporter: Reporter | None) -> None:
    """Route every later :func:`track` to ``reporter`` (None: silent again)."""
    global _reporter
    _reporter = reporter


@contextmanager
def track(label: str, total: int, unit: str = "it") -> Iterator[Tracker]:
    """A tracker for ``total`` units of work named ``label``; closed on exit."""
    tracker: Tracker = _reporter(label, total, unit) if _reporter is not None and total > 0 else _Silent()
    try:
        yield tracker
    finally:
        tracker.close()


@contextmanager
def count_forward_passes(module: Any, label: str, total: int, unit: str = "texts") -> Iterator[None]:
    """Advance a tracker by the batch size of every forward pass of a torch ``module`` while the
    block runs (a forward hook: it observes the batches, the computation is untouched)."""
    with track(label, total, unit) as tracker:
        def seen(_module, args, _out) -> None:
            features = args[0] if args else None  # a dict or a tokenizer's BatchEncoding (a Mapping)
            ids = features.get("input_ids") if hasattr(features, "get") else None
            tracker.update(int(ids.shape[0]) if ids is not None else 1)

        handle = module.register_forward_hook(seen)
        try:
            yield
        finally:
            handle.remove()
