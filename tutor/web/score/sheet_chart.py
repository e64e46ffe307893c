"""The score sheet's chart: each player's running total over the evening as SVG coordinates."""

from __future__ import annotations

from typing import Any, Final

from tutor.rules.sheet import Evening

# Line colours and dash patterns for up to seven players: told apart by colour and by dash.
CHART_STYLES: Final = (("#1f6f4a", ""), ("#b3261e", "6 3"), ("#1a4fa0", "2 3"), ("#8a5a00", "8 3 2 3"),
                       ("#6a1b9a", "1 2"), ("#00695c", "10 4"), ("#444444", "4 2 1 2"))


def chart(ev: Evening) -> dict[str, Any]:
    """Each player's running total over the evening as SVG coordinates (drawn in the
    template): x is the deal, y the total; 0 is a line of its own."""
    width, height, pad = 320, 180, 24
    series = [[0, *(row.totals[p] for row in ev.rows)] for p in range(ev.players)]
    low = min(min(s) for s in series)
    high = max(max(s) for s in series)
    span = max(high - low, 1)
    steps = max(len(ev.rows), 1)

    def x(i: int) -> float:
        return round(pad + i * (width - 2 * pad) / steps, 1)

    def y(v: int) -> float:
        return round(height - pad - (v - low) * (height - 2 * pad) / span, 1)

    lines = [{"points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)), "colour": CHART_STYLES[p][0],
              "dash": CHART_STYLES[p][1], "end": (x(len(values) - 1), y(values[-1]))}
             for p, values in enumerate(series)]
    return {"width": width, "height": height, "lines": lines, "zero": y(0), "left": pad, "right": width - pad,
            "low": low, "high": high, "top": y(high), "bottom": y(low)}
