"""Human-readable output of a tournament: a Markdown results table and a PNG chart."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

from gameshelf.extras import install_hint

if TYPE_CHECKING:
    from .results import TournamentResult


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def table(result: TournamentResult) -> str:
    """The results table: W/D/L (mean score for AXIA), placement, rating ± sigma, time/move."""
    solo = result.players == 1
    scored = any(t.scored for t in result.tallies.values())
    head = ["agent", "games"]
    if not solo:
        head += ["W", "D", "L", "win %", "mean place"]
    if scored:
        head.append("mean score")
    if solo:
        head.append("ranks")
    else:
        head.append("rating (mu ± sigma)")
    head.append("s/move")
    rows = []
    for tally in result.ranked():
        data = tally.to_json()
        row = [tally.name, str(tally.games)]
        if not solo:
            rate = 100.0 * tally.wins / tally.games if tally.games else 0.0
            row += [str(tally.wins), str(tally.draws), str(tally.losses), f"{rate:.0f}%"]
            row.append(_fmt(data["mean_placement"]))
        if scored:
            row.append(_fmt(data["mean_score"], 1))
        if solo:
            row.append(", ".join(f"{k} {v}" for k, v in sorted(tally.ranks.items())) or "-")
        else:
            row.append(f"{_fmt(tally.mu)} ± {_fmt(tally.sigma)}")
        row.append(_fmt(data["seconds_per_move"], 3))
        rows.append(row)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def report_text(result: TournamentResult) -> str:
    """The results table, then (three or more players) the turn-order table."""
    orders = orders_table(result)
    return table(result) + ("\n\n" + orders if orders else "")


def orders_table(result: TournamentResult) -> str:
    """Three or more players: wins of each agent and draws under each turn order ("a → b → c":
    a moves, then b, then c), or ``""``. A weak defender gives its wins to the player after it,
    so an agent's rate can swing with the order; this table shows by how much."""
    if not result.orders:
        return ""
    agents = result.config.agents
    head = ["turn order", "games", *(f"{name} wins" for name in agents), "draws"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for tally in result.orders.values():
        wins = [str(tally.wins[name]) if name in tally.wins else "-" for name in agents]
        row = [" → ".join(tally.order), str(tally.games), *wins, str(tally.draws)]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def chart_missing() -> str | None:
    """Why no chart can be drawn here (matplotlib is not installed), or None."""
    if importlib.util.find_spec("matplotlib") is not None:
        return None
    return f"no ratings.png: it needs matplotlib from the arena extra: {install_hint('arena')}"


def chart(result: TournamentResult, path: Path) -> None:
    """A bar chart: ratings with ±2 sigma error bars (solo games: mean scores). Without
    matplotlib nothing is drawn (:func:`chart_missing` says so)."""
    if chart_missing() is not None:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tallies = result.ranked()
    names = [t.name for t in tallies]
    figure, axes = plt.subplots(figsize=(max(4.0, 1.2 * len(names) + 2), 3.5))
    if result.players == 1:
        values = [t.score_sum / t.scored if t.scored else 0.0 for t in tallies]
        axes.bar(names, values, color="#4a7ab5")
        axes.set_ylabel("mean score")
    else:
        values = [t.mu or 0.0 for t in tallies]
        errors = [2 * (t.sigma or 0.0) for t in tallies]
        axes.bar(names, values, yerr=errors, capsize=6, color="#4a7ab5")
        axes.set_ylabel("openskill mu (±2 sigma)")
    axes.set_title(f"{result.game_string}: {len(result.results)} games")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
