"""The balance report as one self-contained HTML file (``sodwa simulate --report``).

The plots are drawn with matplotlib's Agg canvas (no GUI backend, no pyplot
state: ``Figure`` + ``FigureCanvasAgg``) and embedded as base64 PNG, so the file
needs nothing beside it.  The figure functions (``fig_*``) take the report data
of :func:`.report.summarize` and return a ``Figure`` (``FIGURES`` lists them); the
editor's Balance Run dialog shows the same figures through matplotlib's Qt canvas.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .report import TILE_CMAP, TILE_KINDS, TILE_TITLES, format_summary, tile_grid

SIDE_COLOURS = ("#3b6fb6", "#c2452d")


def fig_outcomes(report: dict[str, Any]) -> Figure:
    """Win rates per side, draws and first-mover wins, with 95 % Wilson intervals."""
    rows = [(s["label"], s["wins"]) for s in report["sides"]]
    rows.append(("draws", report["draws"]))
    rows.append(("first mover", report["first_mover"]["wins"]))
    if report["swap"]["done"]:  # each entry on both sides: its own rate
        rows += [(e["label"], e["wins"]) for e in report["entries"]]
    fig = Figure(figsize=(7, 0.5 * len(rows) + 1.2))
    ax = fig.add_subplot()
    labels = [r[0] for r in rows]
    rates = [r[1]["rate"] for r in rows]
    err = [[r[1]["rate"] - r[1]["ci95"][0] for r in rows],
           [r[1]["ci95"][1] - r[1]["rate"] for r in rows]]
    colours = [*SIDE_COLOURS, *["#777777"] * (len(rows) - 2)]
    ax.barh(range(len(rows)), rates, xerr=err, color=colours, capsize=4)
    ax.set_yticks(range(len(rows)), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.axvline(0.5, color="#999999", lw=0.8, ls="--")
    ax.set_xlabel("rate of all battles (bars: 95 % Wilson interval)")
    ax.set_title(f"Outcomes of {report['battles']} battles")
    fig.tight_layout()
    return fig


def fig_length(report: dict[str, Any]) -> Figure:
    """Battle length: the distribution of turns (histogram, median and p95 marked)
    and the ticks (min, median, mean, p95, max)."""
    fig = Figure(figsize=(7, 2.6))
    ax = fig.add_subplot(1, 2, 1)
    counts = report["length"]["turns_counts"]
    ax.bar([v for v, _n in counts], [n for _v, n in counts], width=1.0, color="#5b8c5a")
    turns = report["length"]["turns"]
    for key, ls in (("median", "-"), ("p95", "--")):
        ax.axvline(turns[key], color="#333333", lw=0.9, ls=ls, label=f"{key} {turns[key]}")
    ax.set_xlabel("turns")
    ax.set_ylabel("battles")
    ax.set_title("battle length (turns)")
    ax.legend(fontsize=8)
    ax = fig.add_subplot(1, 2, 2)
    s = report["length"]["ticks"]
    names = ["min", "median", "mean", "p95", "max"]
    ax.bar(names, [s[n] for n in names], color="#5b8c5a")
    ax.set_title("battle length (ticks)")
    fig.tight_layout()
    return fig


def fig_characters(report: dict[str, Any]) -> Figure:
    """Per character: damage dealt and taken, kills and survival."""
    chars = report["characters"]
    fig = Figure(figsize=(8, 0.35 * len(chars) + 1.8))
    ids = [c["id"] for c in chars]
    colours = [SIDE_COLOURS[c["team"]] for c in chars]
    panels = (("damage dealt", [c["damage_dealt"] for c in chars]),
              ("damage taken", [c["damage_taken"] for c in chars]),
              ("kills", [c["kills"] for c in chars]),
              ("survival", [c["survival"]["rate"] for c in chars]))
    for k, (title, values) in enumerate(panels):
        ax = fig.add_subplot(1, 4, k + 1)
        ax.barh(range(len(ids)), values, color=colours)
        ax.set_yticks(range(len(ids)), ids if k == 0 else [""] * len(ids))
        ax.invert_yaxis()
        ax.set_title(f"{title}\nper battle" if k < 3 else "survival rate", fontsize=9)
    fig.tight_layout()
    return fig


def fig_luck_karma(report: dict[str, Any]) -> Figure:
    """Luck (natural hits vs expected) and karma flow per side."""
    fig = Figure(figsize=(7, 2.8))
    ax = fig.add_subplot(1, 2, 1)
    sides = [x["side"] for x in report["luck"]]
    xs = range(len(sides))
    ax.bar([x - 0.2 for x in xs], [x["hits"] for x in report["luck"]], 0.4, label="hits",
           color=SIDE_COLOURS)
    ax.bar([x + 0.2 for x in xs], [x["expected_hits"] for x in report["luck"]], 0.4,
           label="expected", color="#bbbbbb")
    ax.set_xticks(list(xs), sides)
    ax.set_title("natural hits vs expected")
    ax.legend(fontsize=8)
    ax = fig.add_subplot(1, 2, 2)
    for k, key in enumerate(("gained", "spent", "rescues")):
        ax.bar([x + (k - 1) * 0.27 for x in xs], [x[key] for x in report["karma"]], 0.27,
               label=key)
    ax.set_xticks(list(xs), sides)
    ax.set_title("karma per battle")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def fig_tiles(report: dict[str, Any]) -> Figure:
    """Per-tile counts over the map (the editor draws the same counts on the map)."""
    tiles = report["tiles"]
    fig = Figure(figsize=(8, 3.6))
    for k, kind in enumerate(TILE_KINDS):
        ax = fig.add_subplot(1, 2, k + 1)
        image = ax.imshow(tile_grid(report, kind), cmap=TILE_CMAP, interpolation="nearest",
                          vmin=0,
                          extent=(-0.5, tiles["width"] - 0.5, tiles["height"] - 0.5, -0.5))
        ax.set_title(TILE_TITLES[kind], fontsize=9)
        fig.colorbar(image, ax=ax, shrink=0.8, label="count")
    fig.tight_layout()
    return fig


#: Every plot of the report, in order (the HTML report and the editor's Balance Run
#: dialog both show these: one function per plot).
FIGURES = (fig_outcomes, fig_length, fig_characters, fig_luck_karma, fig_tiles)


def png(fig: Figure) -> str:
    """A figure as a ``data:`` URI of a PNG."""
    buf = io.BytesIO()
    FigureCanvasAgg(fig).print_png(buf)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def includes_unsaved_edits(report: dict[str, Any]) -> bool:
    """True when the map played is not the file on disk (``map_hash``, of what was
    played, differs from ``file_hash``, of the file; a map never saved has none)."""
    return report.get("file_hash") != report.get("map_hash")


def provenance(report: dict[str, Any]) -> str:
    """Which map was played, by its hash, and whether that was the file on disk or
    included unsaved edits (the editor's Balance Run plays the map as it stands)."""
    played = f"map played: hash {str(report.get('map_hash'))[:19]}"
    disk = report.get("file_hash")
    if not includes_unsaved_edits(report):
        return f"{played}, the file as saved"
    if disk is None:
        return f"{played}: includes unsaved edits (the map was never saved)"
    return (f"{played}: includes unsaved edits (the file on disk has hash "
            f"{str(disk)[:19]})")


def render(reports: Sequence[dict[str, Any]]) -> str:
    """The HTML document of the reports (one section per map)."""
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
             "<title>SODWA balance report</title><style>body{font-family:sans-serif;"
             "max-width:60em;margin:auto}pre{background:#f4f4f4;padding:1em;overflow-x:auto}"
             "img{max-width:100%}</style></head><body><h1>SODWA balance report</h1>"]
    for rep in reports:
        parts.append(f"<h2>{html.escape(str(rep.get('map', '')))}</h2>")
        parts.append(f"<p class='headline'><strong>{html.escape(rep['headline'])}</strong></p>")
        parts.append(f"<p class='map'>{html.escape(provenance(rep))}</p>")
        parts.append(f"<pre>{html.escape(format_summary(rep))}</pre>")
        for make in FIGURES:
            parts.append(f"<p><img alt='plot' src='{png(make(rep))}'></p>")
        parts.append("<details><summary>report data (JSON)</summary><pre>"
                     f"{html.escape(json.dumps(rep, indent=1))}</pre></details>")
    parts.append("</body></html>")
    return "\n".join(parts)

