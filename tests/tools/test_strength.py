"""The strength page generator: targets are judged from the measured tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tools import strength


def fake(wins: int, games: int) -> dict[str, Any]:
    return {
        "game": "cage",
        "games": games,
        "wall_seconds": 1.0,
        "table": "| agent |",
        "summary": [{"agent": "hard", "wins": wins, "games": games}],
    }


def test_targets_are_judged_with_their_command() -> None:
    runs = {run.slug: run for run in strength.RUNS}
    page = strength.render(
        [(runs["cage-2p-openspiel"], fake(24, 30)), (runs["cage-2p-greedy"], fake(37, 40))],
        None,
        None,
    )
    assert (
        "| Cage, 2 players: hard vs OpenSpiel MCTSBot, equal time a move: hard wins ≥ 80% | "
        "24/30 (80%) | yes | `.venv/bin/python -m tools.strength --only cage-2p-openspiel` |"
    ) in page
    assert (
        "| 37/40 (92%) | **no** | `.venv/bin/python -m tools.strength --only cage-2p-greedy` |"
        in page
    )


def test_solo_band_and_time_budgets_are_judged() -> None:
    runs = {run.slug: run for run in strength.RUNS}
    solo = fake(0, 10)
    solo["summary"][0]["mean_score"] = 120.5
    timing = {
        "rows": [
            {
                "game": "cage",
                "level": "hard",
                "algorithm": "x",
                "budget": 0.5,
                "mean": 0.5,
                "max": 0.6,
            },
            {
                "game": "cage",
                "level": "expert",
                "algorithm": "x",
                "budget": 2.0,
                "mean": 2.0,
                "max": 4.4,
            },
            {
                "game": "axia",
                "level": "easy",
                "algorithm": "x",
                "budget": 0.0,
                "mean": 0.0,
                "max": 0.01,
            },
        ]
    }
    page = strength.render([(runs["axia-solo"], solo)], timing, None)
    assert "hard's mean score in 111–150 | mean 120.5 over 10 | yes |" in page
    assert (
        "worst 2.20× (expert: 4.40 s of 2 s) | **no** | "
        "`.venv/bin/python -m tools.strength --only move-times`" in page
    )
    assert "`axia`: every level" not in page  # an instant level has no budget to judge


def test_a_stale_cache_is_not_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strength, "CACHE", tmp_path)
    run = strength.RUNS[0]
    made = strength._section(run.slug, lambda: fake(1, 2), {run.slug}, strength.run_key(run))
    assert strength._section(run.slug, lambda: fake(0, 0), {"none"}, strength.run_key(run)) == made
    assert strength._section(run.slug, lambda: fake(0, 0), {"none"}, "another|config") is None


def test_missing_sections_are_marked() -> None:
    runs = {run.slug: run for run in strength.RUNS}
    page = strength.render([(runs["axia-solo"], None)], None, None)
    again = "`.venv/bin/python -m tools.strength --only axia-solo`"
    assert f"Not measured yet: {again} measures it." in page
    assert f"| {runs['axia-solo'].title} | not measured yet | – | {again} |" in page


def test_a_run_never_measured_keeps_its_own_line_in_place_of_an_older_ones() -> None:
    """Rebuilding with ``--only`` keeps an old section's numbers, never an old page's line for a
    run it had no numbers for either."""
    run = next(run for run in strength.RUNS if run.slug == "cage-3p-master")
    arenas: list[tuple[strength.Run, Any]] = [(run, None)]
    old_page = strength.render(arenas, None, None).replace("Not measured yet", "Not run")
    page = strength.keep_unmeasured(
        strength.render(arenas, None, None), old_page, arenas, None, None
    )
    block = strength._blocks(page)[run.title]
    assert "Not run" not in block and "Not measured yet" in block


def rated(*rows: tuple[str, float, float]) -> dict[str, Any]:
    """A cached run whose summary rates the given (agent, mu, sigma)."""
    return {
        "summary": [
            {"agent": agent, "rating_mu": mu, "rating_sigma": sigma} for agent, mu, sigma in rows
        ]
    }


def published(ratings: dict[str, Any]) -> dict[tuple[str, int, str], tuple[float, float, str]]:
    return {
        (e["game"], e["players"], e["bot"]): (e["mu"], e["sigma"], e["run"])
        for e in ratings["ratings"]
    }


def test_published_ratings_come_from_the_rated_runs_and_link_the_weaker_bots() -> None:
    runs = {run.slug: run for run in strength.RUNS}
    arenas = [
        (runs["cage-2p-openspiel"], rated(("hard", 40.0, 5.0), ("openspiel-mcts", 10.0, 5.0))),
        (runs["cage-2p-greedy"], rated(("hard", 40.0, 5.0), ("greedy", 10.0, 5.0))),
        # greedy is 30 above random in its own pool: random lands 30 below greedy's 10
        (runs["cage-2p-random"], rated(("greedy", 38.0, 6.0), ("random", 8.0, 6.5))),
        (runs["axiom-greedy"], None),
        (runs["axiom-random"], rated(("greedy", 38.0, 6.0), ("random", 8.0, 6.5))),
    ]
    table = published(strength.publish_ratings(arenas))
    assert table == {
        ("cage", 2, "hard"): (40.0, 5.0, "cage-2p-greedy"),
        ("cage", 2, "greedy"): (10.0, 5.0, "cage-2p-greedy"),
        ("cage", 2, "random"): (-20.0, 6.5, "cage-2p-random"),
    }  # no outside program, nothing for Axiom whose main run is not measured


def test_the_shipped_bot_ratings_are_the_ones_on_the_strength_page() -> None:
    """``bot_ratings.json`` and ``docs/strength.md`` come from one regeneration: every bot of a
    rated run's table on the page has exactly the page's rating in the file."""
    from gameshelf.server.ratings import BOT_RATINGS

    page = _page()
    checked = 0
    for run in strength.RUNS:
        if run.slug not in strength.RATED_RUNS:
            continue
        key = (run.game.split("(")[0], len(run.agents))
        for bot, rating in _page_ratings(page, run.title).items():
            if bot in BOT_RATINGS.get(key, {}):
                assert BOT_RATINGS[key][bot] == rating, (run.slug, bot)
                checked += 1
    assert checked >= 2 * len(strength.RATED_RUNS)


def test_a_linked_run_keeps_its_own_rating_gaps() -> None:
    """A weaker bots' run is linked to the main run by one shift (the mean gap of the bots they
    share): each linked bot's published rating keeps its gap to those bots from the page's table
    of its own run, so linking neither lifts nor sinks one. (At three and four players ``medium``
    outscored hard once every turn order was played, and is rated above it.)"""
    page = _page()
    shipped = json.loads(strength.RATINGS.read_text(encoding="utf-8"))["ratings"]
    checked = 0
    for main, links in strength.RATED_RUNS.items():
        for slug in links:
            run = next(r for r in strength.RUNS if r.slug == slug)
            own = _page_ratings(page, run.title)
            published = {
                e["bot"]: e["mu"]
                for e in shipped
                if e["run"] in (main, slug)
                and (e["game"], e["players"]) == (run.game.split("(")[0], len(run.agents))
            }
            shared = [
                bot for bot in own if any(e["bot"] == bot and e["run"] == main for e in shipped)
            ]
            mine = [e for e in shipped if e["run"] == slug]
            if not shared or not mine:
                continue
            shift = sum(published[bot] - own[bot][0] for bot in shared) / len(shared)
            for entry in mine:
                expected = own[entry["bot"]][0] + shift  # every number rounded to 0.01
                assert entry["mu"] == pytest.approx(expected, abs=0.06), entry
                checked += 1
    assert checked >= 5


def _page() -> str:
    return (Path(__file__).resolve().parents[2] / "docs" / "strength.md").read_text("utf-8")


def _page_ratings(page: str, title: str) -> dict[str, tuple[float, float]]:
    """bot -> (mu, sigma) from the results table of the page's section ``title``."""
    section = page.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    ratings = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rating = [cell for cell in cells if "±" in cell]
        if rating and cells[0] != "agent":
            mu, sigma = (float(part) for part in rating[0].split("±"))
            ratings[cells[0]] = (mu, sigma)
    return ratings


def test_a_broken_ratings_file_is_refused_with_the_entry(tmp_path: Path) -> None:
    from gameshelf.server.ratings import load_bot_ratings

    path = tmp_path / "bot_ratings.json"
    path.write_text(
        '{"ratings": [{"game": "cage", "players": 2, "bot": "hard", "mu": 30, "sigma": 5},'
        ' {"game": "cage", "players": "two", "bot": "greedy", "mu": 10, "sigma": 5}]}',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="rating 1: bad entry"):
        load_bot_ratings(path)


SHIPPED = {"page": "docs/strength.md", "ratings": "src/gameshelf/server/bot_ratings.json"}


def _shipped(name: str) -> str:
    return (Path(__file__).resolve().parents[2] / SHIPPED[name]).read_text("utf-8")


def test_rerunning_one_section_keeps_every_other_section_of_the_page() -> None:
    """``--only`` on a checkout without the other sections' caches: they stay as shown."""
    old = _shipped("page")
    arenas: list[tuple[strength.Run, Any]] = [(run, None) for run in strength.RUNS]
    # A result the shipped page does not show (whatever it was last measured at).
    wins = next(wins for wins in (50, 51) if f"| {wins}/60 (" not in old)
    arenas[0] = (arenas[0][0], {**fake(wins, 60), "table": "| agent | (new) |"})
    page = strength.keep_unmeasured(strength.render(arenas, None, None), old, arenas, None, None)
    # Only the runs the shipped page has no numbers for either say so.
    unmeasured = [line for line in page.splitlines() if "ot measured yet" in line]
    assert unmeasured == [line for line in old.splitlines() if "ot measured yet" in line]
    assert "| agent | (new) |" in page
    assert f"| {arenas[0][0].title}: hard wins ≥ 80% | {wins}/60 ({wins / 60:.0%}) | yes |" in page
    old_blocks, new_blocks = strength._blocks(old), strength._blocks(page)
    assert list(new_blocks) == list(old_blocks)
    for title in list(old_blocks)[2:]:  # past the targets and the re-measured section
        assert new_blocks[title] == old_blocks[title], title
    old_targets = old_blocks["Targets"].splitlines()
    new_targets = new_blocks["Targets"].splitlines()
    assert len(new_targets) == len(old_targets)
    assert [row for row in new_targets if row not in old_targets] == [
        next(row for row in new_targets if f"{wins}/60" in row)
    ]


def test_a_kept_section_gets_its_runs_note_in_place_of_an_older_one() -> None:
    """A section kept from an older page keeps its numbers; under its tables it prints the
    run's note of this version (an older note is replaced, not repeated)."""
    runs = {run.slug: run for run in strength.RUNS}
    noted = runs["cage-4p-levels"]
    assert noted.note
    measured = {**fake(14, 48), "table": "| agent | old numbers |\n| hard | 14 |"}
    old_page = strength.render([(noted, measured)], None, None)
    old_page = old_page.replace(noted.note, "An older note.")
    arenas: list[tuple[strength.Run, Any]] = [(noted, None)]
    page = strength.keep_unmeasured(
        strength.render(arenas, None, None), old_page, arenas, None, None
    )
    block = strength._blocks(page)[noted.title]
    assert "| hard | 14 |" in block and "(not measured in this run)" not in block
    assert block.count(noted.note) == 1 and "An older note." not in block
    assert block.rstrip().endswith(noted.note)


def test_rerunning_a_rated_section_keeps_the_other_pools_and_shifts_its_linked_bots() -> None:
    old = json.loads(_shipped("ratings"))
    before = published(old)
    runs = {run.slug: run for run in strength.RUNS}
    hard, greedy = before[("cage", 2, "hard")], before[("cage", 2, "greedy")]
    # hard and greedy move apart: random (rated only against greedy, in cage-2p-random) keeps
    # its gap to greedy, not to the pool's mean.
    remeasured = rated(("hard", hard[0] + 5.0, 4.0), ("greedy", greedy[0] - 2.0, 4.0))
    arenas = [(run, remeasured if run.slug == "cage-2p-greedy" else None) for run in runs.values()]
    fresh = strength.publish_ratings(arenas)
    merged = published(strength.keep_unmeasured_ratings(fresh, json.dumps(old), arenas))
    assert merged[("cage", 2, "hard")] == (hard[0] + 5.0, 4.0, "cage-2p-greedy")
    random = before[("cage", 2, "random")]
    assert merged[("cage", 2, "random")] == (round(random[0] - 2.0, 2), random[1], random[2])
    others = {key: value for key, value in before.items() if key[:2] != ("cage", 2)}
    assert {key: merged[key] for key in others} == others
    assert len(merged) == len(before)
    assert strength.keep_unmeasured_ratings(fresh, "", arenas) == fresh


def seat(
    agent: str, wins: int, draws: int, mu: float, place: float, games: int = 24
) -> dict[str, Any]:
    """One agent's summary row at a multi-player table (what the arena caches)."""
    return {
        "agent": agent,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "rating_mu": mu,
        "rating_sigma": 5.0,
        "mean_placement": place,
    }


def test_a_fair_target_is_met_by_the_best_rating_place_and_enough_decided_wins() -> None:
    # 3 players, 4 draws: 20 decided games, a fair share is 20/3 and 1.5 of them exactly 10.
    rows = [
        seat("greedy", 4, 4, 20.0, 2.1),
        seat("hard", 10, 4, 31.0, 1.6),
        seat("openspiel-mcts", 6, 4, 24.0, 1.9),
    ]
    verdict = strength.fair_verdict(rows, 1.5, "hard")
    assert (verdict.players, verdict.decided, verdict.wins) == (3, 20, 10)
    assert verdict.needed == pytest.approx(0.5)
    assert verdict.met
    one_short = [seat("hard", 9, 4, 31.0, 1.6), *rows[::2]]
    assert not strength.fair_verdict(one_short, 1.5, "hard").met


def test_a_fair_target_fails_on_a_better_rated_or_placed_rival_whatever_the_wins() -> None:
    # The shape of a mixed four-player table: hard wins 14 of 29 decided games (48%, above
    # 1.5 quarter shares) and places best, but MCTSBot is rated above it.
    rows = [
        seat("openspiel-mcts", 9, 19, 28.52, 1.42, 48),
        seat("hard", 14, 19, 27.80, 1.31, 48),
        seat("medium", 6, 19, 23.51, 1.48, 48),
        seat("greedy", 0, 19, 20.34, 1.60, 48),
    ]
    rated_below = strength.fair_verdict(rows, 1.5, "hard")
    assert rated_below.wins >= rated_below.needed * rated_below.decided
    assert not rated_below.met
    rows[0] = seat("openspiel-mcts", 9, 19, 27.0, 1.31, 48)  # rated below, placed equal
    assert not strength.fair_verdict(rows, 1.5, "hard").met
    rows[0] = seat("openspiel-mcts", 9, 19, 27.0, 1.32, 48)
    assert strength.fair_verdict(rows, 1.5, "hard").met
    all_drawn = [seat(row["agent"], 0, 48, row["rating_mu"], 1.0, 48) for row in rows]
    assert not strength.fair_verdict(all_drawn, 1.5, "hard").met


def test_a_fair_target_needs_its_judged_bot_at_a_table_of_three_or_more() -> None:
    with pytest.raises(ValueError, match="hard at a table of three or more"):
        strength.fair_verdict(
            [seat("hard", 5, 0, 30.0, 1.2), seat("greedy", 1, 0, 20.0, 1.8)], 1.5, "hard"
        )
    with pytest.raises(ValueError, match=r"master at .* got \['greedy', 'hard', 'random'\]"):
        strength.fair_verdict(
            [seat(name, 1, 0, 20.0, 1.8) for name in ("greedy", "hard", "random")], 1.5, "master"
        )


def master_at_three(master_wins: int) -> list[dict[str, Any]]:
    """A three-player table of master, MCTSBot and greedy: 18 decided games, master rated and
    placed best, hard's name nowhere (a fair share is 6, 1.5 of them 9)."""
    return [
        seat("openspiel-mcts", 15 - master_wins, 6, 26.0, 1.9),
        seat("master", master_wins, 6, 32.0, 1.5),
        seat("greedy", 3, 6, 19.0, 2.3),
    ]


def test_a_fair_target_judges_master_at_a_three_player_table() -> None:
    verdict = strength.fair_verdict(master_at_three(9), 1.5, "master")
    assert (verdict.judged, verdict.players, verdict.decided, verdict.wins) == ("master", 3, 18, 9)
    assert (verdict.rating, verdict.best_other_rating) == (32.0, 26.0)
    assert (verdict.place, verdict.best_other_place) == (1.5, 1.9)
    assert verdict.met
    assert not strength.fair_verdict(master_at_three(8), 1.5, "master").met


def test_a_fair_target_on_master_fails_on_a_better_rated_rival() -> None:
    rows = master_at_three(12)
    rows[0] = seat("openspiel-mcts", 3, 6, 33.0, 1.9)
    verdict = strength.fair_verdict(rows, 1.5, "master")
    assert verdict.wins >= verdict.needed * verdict.decided  # enough wins, still not met
    assert not verdict.met


def test_a_master_tables_target_row_names_master() -> None:
    runs = {run.slug: run for run in strength.RUNS}
    table = runs["cage-3p-master"]
    assert table.judged == "master" and table.fair == strength.FAIR_MULTIPLE
    goal = strength.fair_verdict(master_at_three(9), 1.5, "master").goal()
    assert goal.startswith("master's rating and mean place the table's best")
    page = strength.render([(table, {**fake(0, 24), "summary": master_at_three(9)})], None, None)
    row = next(line for line in page.splitlines() if line.startswith(f"| {table.title}: "))
    assert row.startswith(f"| {table.title}: {goal} | rating 32.00 (next best 26.00)")
    assert "wins 9/18 decided (50%)" in row and "hard" not in row
    assert row.endswith("| yes | `.venv/bin/python -m tools.strength --only cage-3p-master` |")


def test_every_fair_target_seats_its_judged_bot_once_among_others() -> None:
    fair = [run for run in strength.RUNS if run.fair is not None]
    assert {run.judged for run in fair} == {"hard", "master"}
    for run in fair:
        bots = [strength.COPIES.get(agent, agent) for agent in run.agents]
        assert bots.count(run.judged) == 1 and len(bots) >= 3, run.slug


def test_a_mixed_tables_target_row_is_judged_and_names_its_command() -> None:
    runs = {run.slug: run for run in strength.RUNS}
    mixed = runs["cage-3p"]
    assert mixed.fair == strength.FAIR_MULTIPLE and mixed.target is None
    data = {
        **fake(0, 24),
        "summary": [
            seat("hard", 7, 0, 30.0, 1.5),
            seat("openspiel-mcts", 9, 0, 26.0, 1.8),
            seat("greedy", 8, 0, 20.0, 2.2),
        ],
    }
    page = strength.render([(mixed, data)], None, None)
    row = next(line for line in page.splitlines() if line.startswith(f"| {mixed.title}: "))
    assert "wins ≥ 1.5× a fair share of the decided games (≥ 50.0%)" in row
    assert "wins 7/24 decided (29%)" in row and "(next best 26.00)" in row
    assert row.endswith("| **no** | `.venv/bin/python -m tools.strength --only cage-3p` |")
    assert "a *fair share*" in page and "`master`" in page


def test_tables_of_strong_players_seat_only_hard_master_and_mctsbot() -> None:
    strong = [run for run in strength.RUNS if "strong players only" in run.title]
    assert {(len(run.agents), run.judged) for run in strong} == {
        (3, "hard"),
        (4, "hard"),
        (3, "master"),
        (4, "master"),
    }
    for run in strong:
        bots = {strength.COPIES.get(agent, agent) for agent in run.agents}
        assert bots <= {"hard", "master", "openspiel-mcts"} and run.judged in bots, run.slug
        assert "openspiel-mcts" in bots and len(bots) >= 2, run.slug
        assert run.seating == "all" and run.note


def test_a_copy_is_registered_only_when_a_run_seats_it() -> None:
    from gameshelf.agents import AGENTS

    assert "hard-2" not in AGENTS  # no listing of the bots shows a copy
    try:
        strength.register_copies(["hard", "greedy"])
        assert "hard-2" not in AGENTS
        strength.register_copies(["hard", "hard-2"])
        assert AGENTS["hard-2"] is AGENTS["hard"]
    finally:
        AGENTS.pop("hard-2", None)
