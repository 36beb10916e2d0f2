"""The example plug-in game: ``examples/plugin-tictactoe`` installed next to gameshelf (with
pip, into a folder of its own put on ``PYTHONPATH``) is found through its entry point and plays
everywhere with gameshelf's generic parts: the game list, the terminal, the arena's levels, the
bench, the RL adapters and the server's bot seats. Each check runs in a fresh interpreter, so
the registry discovers the plug-in as it would for a user."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "plugin-tictactoe"
GAMESHELF = Path(sys.executable).with_name("gameshelf")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the installed plug-in (its package and its entry-point metadata)."""
    target = tmp_path_factory.mktemp("plugin-site")
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    command += ["--no-deps", "--no-build-isolation", "--no-index", "--target", str(target)]
    subprocess.run([*command, str(PLUGIN)], check=True, capture_output=True, text=True)
    return target


def run(site: Path, *argv: str, timeout: float = 240) -> str:
    """Run ``argv`` with the plug-in installed; its standard output (a failure shows both)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        list(argv), env=env, capture_output=True, text=True, timeout=timeout, cwd=site
    )
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def refused(site: Path, *argv: str) -> str:
    """Run a command that must be refused (exit status 2); its error output."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(list(argv), env=env, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2, f"{argv} was not refused:\n{done.stdout}\n{done.stderr}"
    return done.stderr


def python(site: Path, code: str) -> str:
    """Run Python ``code`` with the plug-in installed; its standard output."""
    return run(site, sys.executable, "-c", textwrap.dedent(code))


def test_the_game_list_shows_it_only_where_it_is_installed(site: Path) -> None:
    listed = run(site, str(GAMESHELF), "games")
    assert "tictactoe — Tic-tac-toe: two players mark a 3x3 grid" in listed
    assert "tictactoe" not in run(None, str(GAMESHELF), "games")


def test_it_passes_the_conformance_checks(site: Path) -> None:
    out = python(
        site,
        """
        import gameshelf
        from gameshelf.core.conformance import check_replay, check_undo, random_playouts
        game = gameshelf.load("tictactoe")
        stats = random_playouts(game, games=60)
        check_undo(game, games=5)
        check_replay(game, games=5)
        print(stats.games)
        """,
    )
    assert out.split() == ["60"]


def test_the_terminal_plays_every_generic_level_to_the_end(site: Path) -> None:
    for level in ("easy", "medium", "hard", "expert"):
        out = run(
            site, str(GAMESHELF), "play", "tictactoe", "--seat", f"0={level}",
            "--seat", "1=random", "--seed", "3", "--think", "0.05", "--quiet",
        )  # fmt: skip
        assert "after" in out and ("wins" in out or "draw" in out), out


def test_hard_never_loses_to_random_in_the_arena(site: Path, tmp_path: Path) -> None:
    # the arena's fixed-budget levels replay exactly from the seed: no clock in the result
    out = python(
        site,
        """
        import json
        from gameshelf.agents.levels import build_level, level_spec
        from gameshelf.agents import make_agent
        from gameshelf.arena.match import MatchSpec, play_match
        from gameshelf.core.registry import load
        game = load("tictactoe")
        results = []
        for seed in range(6):
            seats = ("hard-fixed", "random") if seed % 2 == 0 else ("random", "hard-fixed")
            result = play_match(MatchSpec("tictactoe", seats, seed))
            results.append(result.returns[seats.index("hard-fixed")])
        print(json.dumps({"hard": level_spec(game, "hard").describe(), "returns": results}))
        """,
    )
    report = json.loads(out)
    assert report["hard"].startswith("mcts, 1 s a move")
    assert min(report["returns"]) >= 0.0, report  # a win (1) or a draw (0), never a loss


def test_the_arena_command_pits_hard_against_random(site: Path, tmp_path: Path) -> None:
    out = run(
        site, str(GAMESHELF), "arena", "tictactoe", "--agents", "hard-fixed,random",
        "--games", "2", "--seed", "1", "--out", str(tmp_path / "arena"),
    )  # fmt: skip
    assert "hard-fixed" in out and "random" in out


def test_the_rl_adapters_wrap_it(site: Path) -> None:
    out = python(
        site,
        """
        import gymnasium as gym
        from gymnasium.utils.env_checker import check_env
        from pettingzoo.test import api_test
        import gameshelf.rl.gymnasium
        from gameshelf.rl import gym_id
        from gameshelf.rl.encodings import GenericEncoder, encoder_for
        from gameshelf.rl.pettingzoo import env
        from gameshelf.core.registry import load
        encoder = encoder_for(load("tictactoe"))
        assert isinstance(encoder, GenericEncoder), encoder
        single = gym.make(gym_id("tictactoe"), opponent="random")
        check_env(single.unwrapped)
        api_test(env("tictactoe"), num_cycles=200)
        obs, info = single.reset(seed=2)
        print(gym_id("tictactoe"), encoder.size, int(obs["action_mask"].sum()))
        """,
    )
    assert out.split()[-3:] == ["gameshelf/Tictactoe-v0", str(9 + len("tictactoe")), "9"]


def test_openspiel_simulates_it_through_the_adapter(site: Path) -> None:
    out = python(
        site,
        """
        import pyspiel
        import gameshelf.rl.openspiel
        game = pyspiel.load_game("gameshelf_tictactoe")
        pyspiel.random_sim_test(game, num_sims=30, serialize=False, verbose=False)
        print(game.num_distinct_actions(), game.max_game_length(), game.get_type().short_name)
        """,
    )
    assert out.split()[-3:] == ["9", "9", "gameshelf_tictactoe"]


def test_the_server_seats_a_bot_for_it(site: Path) -> None:
    out = python(
        site,
        """
        import json, tempfile, pathlib
        from starlette.testclient import TestClient
        from gameshelf.server import create_app
        folder = pathlib.Path(tempfile.mkdtemp())
        app = create_app(f"sqlite:///{folder / 'plugin.sqlite3'}", bot_workers=0)
        with TestClient(app) as client:
            games = [g["name"] for g in client.get("/api/games").json()]
            bots = [a["name"] for a in client.get("/api/agents?game=tictactoe").json()]
            seats = [{"kind": "human"}, {"kind": "bot", "agent": "hard"}]
            made = client.post("/api/matches", json={"game": "tictactoe", "seats": seats})
            print(json.dumps({"games": games, "bots": bots, "status": made.status_code,
                              "match": made.json()}))
        """,
    )
    report = json.loads(out.splitlines()[-1])
    assert "tictactoe" in report["games"]
    assert {"random", "greedy", "easy", "medium", "hard", "expert"} <= set(report["bots"])
    assert not any(name.startswith(("cage-", "axiom-")) for name in report["bots"])
    assert report["status"] == 201, report["match"]
    assert report["match"]["seats"][1]["agent"] == "hard"


def test_the_plugins_page_example_runs(site: Path) -> None:
    page = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", page, re.DOTALL)
    out = python(site, code + "\nprint('example ran')\n")
    assert out.split()[-2:] == ["example", "ran"]


def test_the_analysis_finds_the_winning_move(site: Path) -> None:
    out = run(
        site, str(GAMESHELF), "analyse", "tictactoe", "--position", "xx.oo....",
        "--seconds", "0.5", "--seed", "1", "--json",
    )  # fmt: skip
    best = json.loads(out)["moves"][0]
    assert (best["move"], best["solved"]) == ("c1", "win")  # X completes its first row


def test_the_bench_measures_it(site: Path, tmp_path: Path) -> None:
    report = tmp_path / "bench.json"
    run(
        site, str(GAMESHELF), "bench", "--rounds", "1", "--seconds", "0.05",
        "--mcts-seconds", "0.01", "--mcts-sims", "2", "--memory-steps", "30",
        "--only", "ours/tictactoe,memory/peak/tictactoe", "--json", str(report),
    )  # fmt: skip
    rows = {row["key"]: row for row in json.loads(report.read_text())["rows"]}
    assert rows["playout/ours/tictactoe"]["value"] > 0
    assert rows["mcts/ours/tictactoe"]["value"] > 0
    assert rows["memory/peak/tictactoe"]["value"] > 0


def test_the_commands_of_capabilities_it_lacks_say_so(site: Path, tmp_path: Path) -> None:
    svg = tmp_path / "x.svg"
    assert "tictactoe has no SVG picture" in refused(
        site, str(GAMESHELF), "show", "tictactoe", "--svg", str(svg)
    )
    assert not svg.exists()
    assert "'tictactoe' has no cards; games with cards: axia" in refused(
        site, str(GAMESHELF), "cards", "tictactoe"
    )
    shown = run(site, str(GAMESHELF), "show", "tictactoe", "--position", "x...o....")
    assert shown.splitlines()[-2:] == ["1 x . .", "  a b c"]
