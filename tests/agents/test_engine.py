"""The engine protocol, both ends: ``gameshelf engine`` answering, an external program seated.

The client end is tested against real processes: ``gameshelf engine`` itself (a round trip
through the protocol) and small scripts that break the protocol in one way each.
"""

from __future__ import annotations

import argparse
import io
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import gameshelf
from gameshelf.agents import AGENTS, make_agent
from gameshelf.agents import engine as engine_module
from gameshelf.agents.engine import (
    EngineAgent,
    EngineError,
    EngineSession,
    parse_engine,
    register_engine,
    serve,
)
from gameshelf.arena.cli import add_arena_parser
from gameshelf.arena.match import MatchSpec, play_match

OUR_ENGINE = [sys.executable, "-m", "gameshelf.cli.main", "engine"]


@pytest.fixture
def forget_engines() -> Iterator[None]:
    """Registered engine names are global: drop the ones a test adds."""
    before = set(AGENTS)
    yield
    for name in set(AGENTS) - before:
        del AGENTS[name]


def fake_engine(tmp_path: Path, body: str) -> list[str]:
    """A one-file engine: ``body`` handles each line ``line`` (the handshake is answered)."""
    script = tmp_path / "engine.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    line = line.strip()\n"
        "    if line == 'gsp 1':\n"
        "        print('gsp 1 fake', flush=True)\n"
        "        continue\n" + textwrap.indent(textwrap.dedent(body), "    ")
    )
    return [sys.executable, str(script)]


def logging_engine(tmp_path: Path, log: Path, first: str = "") -> list[str]:
    """An engine that logs every line to ``log``, runs ``first`` (which may answer and
    ``continue``), then answers ``move T0+`` to ``go`` and ``ok`` to the rest."""
    return fake_engine(
        tmp_path,
        f"""
        with open({str(log)!r}, "a") as out:
            out.write(line + "\\n")
        {textwrap.indent(textwrap.dedent(first), "        ").strip()}
        if line.startswith("go"):
            print("move T0+", flush=True)
        elif line != "quit":
            print("ok", flush=True)
        """,
    )


# --- the engine's end ---------------------------------------------------------------------------


def test_a_session_answers_each_command_with_one_line() -> None:
    session = EngineSession("random", seed=3)
    assert session.handle("gsp 1") == "gsp 1 gameshelf-random"
    assert session.handle("game cage") == "ok"
    assert session.handle("play R3") == "ok"
    reply = session.handle("go 0.1")
    assert reply is not None and reply.startswith("move ")
    state = gameshelf.load("cage").new_initial_state()
    state.play("R3")
    assert reply[5:] in [str(move) for move in state.legal_moves()]
    assert session.state is not None and session.state.history() == state.history()  # not played
    assert session.handle("") is None and not session.done
    assert session.handle("quit") is None and session.done


def test_a_session_plays_axiom_moves_written_with_spaces() -> None:
    session = EngineSession("greedy")
    assert session.handle("game axiom") == "ok"
    assert session.handle("play S(1,0,2) S(0,0,2)z+") == "ok"
    reply = session.handle("go 0.2")
    assert reply is not None and reply.startswith("move ")
    assert session.handle(f"play {reply[5:]}") == "ok"
    assert session.state is not None and len(session.state.history()) == 2


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("gsp 2", "speaks 1"),
        ("fly away", "unknown command 'fly'"),
        ("go 1", "no game yet"),
        ("play R3", "no game yet"),
        ("game", "needs a game string"),
        ("game chess", "chess"),
        ("game cage(players=9)", "players"),
        ("game axia", "hidden information"),
    ],
)
def test_a_session_refuses_bad_commands_by_name(command: str, says: str) -> None:
    reply = EngineSession("random").handle(command)
    assert reply is not None and reply.startswith("error ") and says in reply
    assert "\n" not in reply


def test_a_refused_move_changes_nothing() -> None:
    session = EngineSession("random")
    session.handle("game cage")
    session.handle("play R3")
    assert session.state is not None
    before = session.state.position()
    for command, says in (
        ("play", "needs a move"),
        ("play Q9", "not Cage notation"),
        ("play T0+ extra", "T0+ extra"),
        ("go -1", "time per move"),
        ("go soon", "time per move"),
    ):
        reply = session.handle(command)
        assert reply is not None and reply.startswith("error ") and says in reply, reply
    assert session.state.position() == before


def test_a_finished_game_has_no_move() -> None:
    session = EngineSession("random")
    session.handle("game cage(stock=1:1)")
    for move in ("W0", "Y1"):
        assert session.handle(f"play {move}") == "ok"
    assert session.state is not None and session.state.is_terminal()
    reply = session.handle("go 0.1")
    assert reply is not None and reply.startswith("error the game is over")
    assert (session.handle("play T0+") or "").startswith("error ")


def test_serve_answers_until_quit() -> None:
    out = io.StringIO()
    commands = io.StringIO("gsp 1\ngame cage\ngo 0.05\nquit\ngame axiom\n")
    assert serve(commands, out, "random", 0) == 0
    lines = out.getvalue().splitlines()
    assert lines[:2] == ["gsp 1 gameshelf-random", "ok"] and lines[2].startswith("move ")
    assert len(lines) == 3  # nothing after quit


def test_an_unknown_bot_is_refused_when_the_engine_starts() -> None:
    with pytest.raises(gameshelf.core.errors.GameshelfError, match="unknown agent 'nobody'"):
        EngineSession("nobody")


# --- the client's end ---------------------------------------------------------------------------


def test_our_own_engine_plays_a_whole_game_through_the_protocol(forget_engines: None) -> None:
    register_engine("ext-random", " ".join([*OUR_ENGINE, "--agent", "random"]), 0.05)
    result = play_match(MatchSpec("cage", ("ext-random", "greedy"), seed=4))
    assert result.moves[0] >= 1 and result.plies == sum(result.moves)
    assert result.record["players"][0].startswith("ext-random")
    replayed = gameshelf.load("cage").new_initial_state()
    for entry in result.record["moves"]:  # every move the engine sent was legal where played
        replayed.play(entry["move"])
    assert replayed.is_terminal() and replayed.returns() == result.returns


def test_the_engine_is_told_only_new_moves_and_the_whole_game_after_a_rewind(
    tmp_path: Path,
) -> None:
    log = tmp_path / "log.txt"
    argv = logging_engine(tmp_path, log)
    game = gameshelf.load("cage")
    agent = EngineAgent(game, 0, argv, 0.05, label="fake")
    state = game.new_initial_state()
    assert state.action_to_string(agent.step(state)) == "T0+"
    state.play("R3")
    state.play("O4")
    agent.step(state)
    rewound = game.new_initial_state()
    rewound.play("W1")
    agent.step(rewound)
    agent.close()
    assert log.read_text().splitlines() == [
        "game cage",
        "go 0.05",
        "play R3",
        "play O4",
        "go 0.05",
        "game cage",
        "play W1",
        "go 0.05",
        "quit",
    ]


def test_a_refused_move_is_told_again_and_nothing_before_it(tmp_path: Path) -> None:
    log, refused = tmp_path / "log.txt", tmp_path / "refused"
    refuse_once = f"""
    import os
    if line == "play O4" and not os.path.exists({str(refused)!r}):
        open({str(refused)!r}, "w").close()
        print("error not now", flush=True)
        continue
    """
    argv = logging_engine(tmp_path, log, refuse_once)
    game = gameshelf.load("cage")
    agent = EngineAgent(game, 0, argv, 0.05, label="fake")
    state = game.new_initial_state()
    state.play("R3")
    state.play("O4")
    with pytest.raises(EngineError, match="answered 'play O4' with 'error not now'"):
        agent.step(state)
    agent.step(state)
    agent.close()
    told = ["game cage", "play R3", "play O4", "play O4", "go 0.05", "quit"]
    assert log.read_text().splitlines() == told


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("print('move Z9' if line.startswith('go') else 'ok', flush=True)", "played 'Z9'"),
        ("print('move F' if line.startswith('go') else 'ok', flush=True)", "played 'F'"),
        ("print('pass' if line.startswith('go') else 'ok', flush=True)", "instead of 'move MOVE'"),
        ("print('error no idea', flush=True)", "answered 'game cage' with 'error no idea'"),
        (
            "if line.startswith('go'):\n    sys.exit(3)\nprint('ok', flush=True)",
            "exited \\(code 3\\)",
        ),
        ("if not line.startswith('go'):\n    print('ok', flush=True)", "did not answer 'go 0.01'"),
    ],
)
def test_an_engine_that_breaks_the_protocol_is_named_and_nothing_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, says: str
) -> None:
    monkeypatch.setattr(engine_module, "GO_GRACE_SECONDS", 1.0)
    game = gameshelf.load("cage")
    agent = EngineAgent(game, 0, fake_engine(tmp_path, body), 0.01, label="fake")
    state = game.new_initial_state()
    state.play("F")  # now a flip is forbidden
    before = state.position()
    with pytest.raises(EngineError, match=says) as caught:
        agent.step(state)
    agent.close()
    assert "engine 'fake'" in str(caught.value)
    assert state.position() == before


def test_a_bad_handshake_or_a_missing_program_is_refused(tmp_path: Path) -> None:
    game = gameshelf.load("cage")
    echo = tmp_path / "echo.py"
    echo.write_text("import sys\nfor line in sys.stdin:\n    print(line.strip(), flush=True)\n")
    with pytest.raises(EngineError, match="must answer 'gsp 1 NAME'"):
        EngineAgent(game, 0, [sys.executable, str(echo)], 0.1, label="echo").start()
    with pytest.raises(EngineError, match="cannot start 'no-such-engine-here'"):
        EngineAgent(game, 0, "no-such-engine-here", 0.1, label="nothing").start()


def test_a_position_not_reached_from_the_start_is_refused(tmp_path: Path) -> None:
    game = gameshelf.load("cage")
    agent = EngineAgent(game, 0, [*OUR_ENGINE, "--agent", "random"], 0.05, label="ours")
    state = game.new_initial_state()
    state.play("R3")
    set_up = game.state_from_position(state.position())
    with pytest.raises(EngineError, match="replays every game from its start"):
        agent.step(set_up)
    agent.close()


def test_hidden_card_games_are_refused_at_construction() -> None:
    with pytest.raises(ValueError, match="hidden information"):
        EngineAgent(gameshelf.load("axia(players=2)"), 0, "anything", 1.0)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("ext", "NAME=COMMAND"),
        ("ext=", "NAME=COMMAND"),
        ("Ext Engine=./x", "must start with a letter"),
        ("hard=./x", "already a bot's name"),
        ("ext=./x 'open", "cannot be split"),
    ],
)
def test_engine_specs_are_checked(text: str, says: str) -> None:
    with pytest.raises(EngineError, match=says):
        parse_engine(text)


def test_the_arena_seats_an_external_engine(
    forget_engines: None, capsys: pytest.CaptureFixture[str]
) -> None:
    main = argparse.ArgumentParser(prog="gameshelf")
    add_arena_parser(main.add_subparsers())
    command = " ".join([*OUR_ENGINE, "--agent", "random"])
    args = main.parse_args(
        ["arena", "cage", "--agents", "greedy,ours", "--games", "2", "--quiet",
         "--engine", f"ours={command}", "--engine-seconds", "0.05"]
    )  # fmt: skip
    out = io.StringIO()
    assert args.func(args, out) == 0
    table = out.getvalue()
    assert "| ours | 2 |" in table and "| greedy | 2 |" in table
    refused = main.parse_args(
        ["arena", "cage", "--agents", "greedy,x", "--backend", "ray", "--engine", "x=cat"]
    )
    assert refused.func(refused, io.StringIO()) == 2
    assert "--backend local" in capsys.readouterr().err


def test_the_arena_refuses_an_unfit_agent_before_any_game() -> None:
    main = argparse.ArgumentParser(prog="gameshelf")
    add_arena_parser(main.add_subparsers())
    args = main.parse_args(
        ["arena", "cage(players=3)", "--agents", "alphabeta,greedy,random", "--games", "1"]
    )
    err = io.StringIO()
    sys_err, sys.stderr = sys.stderr, err
    try:
        assert args.func(args, io.StringIO()) == 2
    finally:
        sys.stderr = sys_err
    assert "agent 'alphabeta' cannot play cage(players=3)" in err.getvalue()


def test_play_match_closes_every_agent(forget_engines: None) -> None:
    closed: list[str] = []

    class Closing(type(make_agent("random", gameshelf.load("cage")))):  # type: ignore[misc]
        def close(self) -> None:
            closed.append("closed")

    AGENTS["closing"] = lambda game, seed: Closing(game, seed)
    play_match(MatchSpec("cage", ("closing", "random"), seed=1))
    assert closed == ["closed"]


def test_the_terminal_table_seats_an_external_engine(
    forget_engines: None, capsys: pytest.CaptureFixture[str]
) -> None:
    from gameshelf.cli.main import main

    command = " ".join([*OUR_ENGINE, "--agent", "random"])
    argv = ["play", "cage", "--seat", "0=ours", "--seat", "1=greedy", "--seed", "3", "--quiet"]
    assert main([*argv, "--engine", f"ours={command}", "--engine-seconds", "0.05"]) == 0
    assert "after" in capsys.readouterr().out  # e.g. "player 2 wins after 23 moves"
    argv[3] = "0=gone"
    assert main([*argv, "--engine", "gone=no-such-engine-here"]) == 2
    assert "cannot start 'no-such-engine-here'" in capsys.readouterr().err
