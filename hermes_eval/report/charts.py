"""Leaderboard charts as palette PNG bytes (matplotlib, Agg backend): Pareto, Recall@k, latency CDFs."""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Mapping, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

DPI = 100
PALETTE_COLORS = 64  # colours of a board chart's palette PNG
WIDE = (9.0, 4.6)
FRONT_COLOR = "#d62728"
OTHER_COLOR = "#7f7f7f"
BASELINE_COLOR = "#1f77b4"
CMAP = "tab10"
LOG_TICKS = (1.0, 2.0, 5.0)  # labelled ticks per decade on log axes...
WIDE_DECADES = 2.5  # ...unless the axis spans more decades than this


@dataclass(frozen=True)
class Point:
    """One arm on the quality-vs-latency plane."""

    rank: int
    label: str
    latency_ms: float
    quality: float
    ci_low: float
    ci_high: float
    baseline: bool = False


def plain_text(label: str) -> str:
    """Keep matplotlib from reading ``$...$`` in untrusted labels as mathtext."""
    return str(label).replace("$", r"\$")


def log_x(ax) -> None:
    """Log x axis with plain labels: 1-2-5 ticks over a narrow range, decades over a wide one.
    Call after plotting (the range decides)."""
    from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter

    ax.set_xscale("log")
    lo, hi = ax.get_xlim()
    wide = lo > 0 and np.log10(hi / lo) > WIDE_DECADES
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0,) if wide else LOG_TICKS))
    ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.xaxis.set_minor_formatter(NullFormatter())


def to_png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def palette_png(png: bytes, colors: int = PALETTE_COLORS) -> bytes:
    """``png`` as a palette PNG of at most ``colors`` colours, without dithering: a chart's few colours
    and their anti-aliased edges survive, at about a quarter of the bytes."""
    from PIL import Image

    out = io.BytesIO()
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.quantize(colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        out, format="PNG", optimize=True)
    return out.getvalue()


def board_png(fig) -> bytes:
    """A leaderboard chart's PNG (a palette PNG: boards are committed and rebuilt often)."""
    return palette_png(to_png(fig))


def pareto_front(points: Sequence[Point]) -> list[Point]:
    """Points no other point beats on both lower latency and higher quality, fastest first."""
    front: list[Point] = []
    for p in sorted(points, key=lambda p: (p.latency_ms, -p.quality)):
        if not front or p.quality > front[-1].quality:
            front.append(p)
    return front


def pareto_chart(points: Sequence[Point], metric: str) -> bytes:
    """Quality (with CI) against p95 latency; the Pareto front is red and connected."""
    fig, ax = plt.subplots(figsize=WIDE)
    fr = pareto_front(points)  # computed once: colours the points and draws the step line
    front = set(id(p) for p in fr)
    for p in points:
        on = id(p) in front
        color = FRONT_COLOR if on else (BASELINE_COLOR if p.baseline else OTHER_COLOR)
        ax.errorbar([p.latency_ms], [p.quality], yerr=[[p.quality - p.ci_low], [p.ci_high - p.quality]],
                    fmt="o" if not p.baseline else "s", color=color, ms=7 if on else 5, capsize=3, alpha=0.9)
        text = f"#{p.rank} {p.label}" if on or p.baseline else f"#{p.rank}"
        ax.annotate(plain_text(text), (p.latency_ms, p.quality), xytext=(5, 4), textcoords="offset points",
                    fontsize=7, color=color)
    if len(fr) > 1:
        ax.step([p.latency_ms for p in fr], [p.quality for p in fr], where="post", color=FRONT_COLOR,
                lw=1.2, alpha=0.6, label="Pareto front")
        ax.legend(loc="lower right", fontsize=8)
    if points and min(p.latency_ms for p in points) > 0:
        log_x(ax)
    ax.set_xlabel("p95 latency per query, ms (log)")
    ax.set_ylabel(f"{plain_text(metric)} (95% CI)")
    ax.set_title("Quality vs p95 latency — #rank as in the table; square = baseline, red = Pareto front",
                 fontsize=10)
    ax.grid(alpha=0.3)
    return board_png(fig)


def recall_chart(curves: Mapping[str, Mapping[str, Sequence[float]]], ks: Sequence[int]) -> bytes:
    """Recall@k per arm: chunk level (left) and file level (right)."""
    fig, axes = plt.subplots(1, 2, figsize=(WIDE[0] + 2, WIDE[1]), sharey=True)
    colors = plt.get_cmap(CMAP)
    for ax, level, title in ((axes[0], "chunk", "chunk level (same chunker only)"),
                             (axes[1], "file", "file level (fair across chunkers)")):
        for i, (label, c) in enumerate(curves.items()):
            ax.plot(list(ks), c[level], marker="o", ms=3, lw=1.2, color=colors(i % 10),
                    ls="-" if i < 10 else "--", label=plain_text(label))
        ax.set_xscale("log")
        ax.set_xticks(list(ks))
        ax.set_xticklabels([str(k) for k in ks])
        ax.set_xlabel("k")
        ax.set_title(f"Recall@k, {title}", fontsize=10)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("mean recall@k")
    axes[1].legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return board_png(fig)


def latency_cdf_chart(samples: Mapping[str, Mapping[str, Sequence[float]]], stages: Sequence[str]) -> bytes:
    """Empirical CDF of per-query milliseconds, one panel per stage, one line per arm."""
    n = max(1, len(stages))
    cols = min(3, n)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.0 * rows), squeeze=False)
    colors = plt.get_cmap(CMAP)
    for k, stage in enumerate(stages):
        ax = axes[k // cols][k % cols]
        for i, (label, by_stage) in enumerate(samples.items()):
            x = np.sort(np.asarray(by_stage.get(stage, []), dtype=float))
            x = x[x > 0]
            if x.size:
                ax.plot(x, np.arange(1, x.size + 1) / x.size, lw=1.2, color=colors(i % 10),
                        ls="-" if i < 10 else "--", label=plain_text(label))
        log_x(ax)
        ax.set_title(f"{plain_text(stage)}", fontsize=10)
        ax.set_xlabel("ms per query (log)")
        ax.axhline(0.95, color="#999", lw=0.8, ls=":")
        ax.grid(alpha=0.3)
    for k in range(n, rows * cols):
        axes[k // cols][k % cols].axis("off")
    axes[0][0].set_ylabel("share of queries")
    handles, labels = axes[0][0].get_legend_handles_labels()
    for ax in axes.flat:
        h, lab = ax.get_legend_handles_labels()
        if len(h) > len(handles):
            handles, labels = h, lab
    if handles:
        fig.legend(handles, labels, fontsize=7, loc="lower center", ncol=min(4, len(labels)),
                   bbox_to_anchor=(0.5, -0.02 - 0.035 * ((len(labels) + 3) // 4)))
    fig.tight_layout()
    return board_png(fig)
