"""Terminal play as a new user meets it: what a seat sees, when the board shows,
saving after the end, resuming, quitting, help and move lists, seats and bots, busy ports."""

from __future__ import annotations

import dataclasses
import importlib
import io
import json
import re
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import gameshelf
from gameshelf.agents.catalogue import agent_catalogue
from gameshelf.cli.main import main
from gameshelf.cli.play import (
    Table,
    card_words,
    columns,
    help_text,
    hidden_event,
    interactive,
    new_table,
    parse_seats,
    private_lines,
)
from gameshelf.core import registry
from gameshelf.core.errors import GameshelfError
from gameshelf.core.record import load_record, replay
from gameshelf.core.registry import game_entry

CAGE_WIN = ["W0", "O1", "W0", "O1", "W0"]  # player 1 completes column 0


def reader(lines: list[str], log: list[str] | None = None) -> Callable[[str], str]:
    """A scripted keyboard: the lines in turn, then the end of input."""
    feed: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        if log is not None:
            log.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


def play_through(table: Table, out: io.StringIO, marks: list[int]) -> int:
    """A human who always plays the first legal move; ``marks`` gets the output length at
    every prompt. The input ends when the game does."""

    def read(prompt: str) -> str:
        marks.append(len(out.getvalue()))
        if table.state.is_terminal():
            raise EOFError
        return str(table.state.legal_moves()[0])

    return interactive(table, read, out, color=False)


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# --------------------------------------------------------------------------- hidden information


@pytest.fixture(scope="module")
def axia_game() -> tuple[Table, str]:
    """A whole two-player AXIA game: seat 0 typed here, seat 1 a greedy bot."""
    game = gameshelf.load("axia")
    seats, _ = parse_seats(game, ["0=human", "1=greedy"])
    table = new_table(game, seats, seed=5)
    out = io.StringIO()
    marks: list[int] = []
    assert play_through(table, out, marks) == 0
    return table, out.getvalue()


def secret_chance_moves(table: Table) -> tuple[list[str], list[str]]:
    """The record's card deals and draws, split into the human's own and the bot's."""
    record = table.record()
    states = replay(record)
    own, theirs = [], []
    for entry, after in zip(record.moves, states[1:], strict=True):
        words = entry.move.split()
        if entry.player >= 0 or words[0] not in ("draw", "deal"):
            continue
        mine = json.dumps(after.view(0)["players"][0])
        (own if f'"{words[1]}"' in mine else theirs).append(entry.move)
    return own, theirs


def test_terminal_axia_never_prints_the_bots_secret_cards(axia_game: tuple[Table, str]) -> None:
    table, text = axia_game
    own, theirs = secret_chance_moves(table)
    assert own and theirs
    printed = set(re.findall(r"^chance: (.*)$", text, re.MULTILINE))
    for move in theirs:
        assert move not in printed, f"the bot's secret {move!r} was shown"
    for move in own:
        assert move in printed  # the human sees their own cards arrive
    assert "chance: 4 events only player 2 may see (hidden)" in text  # the bot's first offer
    assert "player 2 (greedy) makes a move hidden from you" in text


def test_every_chance_event_is_printed_or_counted_as_hidden(
    axia_game: tuple[Table, str],
) -> None:
    table, text = axia_game
    chance = sum(1 for entry in table.record().moves if entry.player < 0)
    shown = len(re.findall(r"^chance: (?!an event|\d+ events)", text, re.MULTILINE))
    hidden = sum(int(n) for n in re.findall(r"^chance: (\d+) events only", text, re.MULTILINE))
    hidden += len(re.findall(r"^chance: an event only", text, re.MULTILINE))
    assert shown + hidden == chance


def test_the_human_sees_their_own_hand_under_the_board(axia_game: tuple[Table, str]) -> None:
    table, text = axia_game
    # Each card of the offer on its own line, with what it scores (from the public card data).
    offer = re.search(r"^your offer:\n((?:  S\d\d: row: .+; column: .+\n){4})", text, re.MULTILINE)
    assert offer is not None
    game = table.game
    first = offer.group(1).split(":")[0].strip()
    card = next(c for c in game.cards.scoring if c.id == first)  # type: ignore[attr-defined]
    assert f"  {first}: row: {card.row.describe()}" in text
    assert "your hand" in text


def test_the_hand_is_worded_by_the_games_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    state = gameshelf.load("axia(players=2)").new_initial_state(3)
    while state.is_chance_node():  # deal the opening offers
        state.apply_action(state.chance_outcomes()[0][0])
    worded = private_lines(state, 0)
    offered = worded.index("your offer:")
    assert re.fullmatch(r"  S\d\d: row: .+; column: .+", worded[offered + 1])
    # An entry without card words: the terminal prints the ids, and never reads the cards.
    plain = dataclasses.replace(game_entry("axia"), card_words=None)
    monkeypatch.setitem(registry._REGISTRY, "axia", plain)
    assert card_words(state.game) == {}
    offer = [line for line in private_lines(state, 0) if line.startswith("your offer:")]
    assert offer and re.fullmatch(r"your offer: (S\d\d ?)+", offer[0])


def test_the_axia_board_comes_with_a_key_to_its_codes() -> None:
    table = new_table(gameshelf.load("axia"), ["human", "random"], seed=8)
    out = io.StringIO()
    interactive(table, reader(["key", "quit"]), out, color=False)
    text = out.getvalue()
    # Once under the first board, and again when asked for.
    assert text.count("key: a space such as fRuM3/ reads region (f forest") == 2
    assert "Ru rut" in text and "Rk rakya" in text
    cage = new_table(gameshelf.load("cage"), ["human", "human"], seed=1)
    out = io.StringIO()
    interactive(cage, reader(["key", "quit"]), out, color=False)
    assert "key: " not in out.getvalue() and "no short codes" in out.getvalue()


def test_hidden_event_of_a_deal_names_who_may_see_it() -> None:
    state = gameshelf.load("axia").new_initial_state(seed=2)
    assert state.is_chance_node()
    first = state.chance_outcomes()[0][0]
    # the opening deals offer scoring cards to player 1 first: hidden from seat 1 only
    assert hidden_event(state, first, [0]) is None
    assert hidden_event(state, first, [1]) == [0]
    assert hidden_event(state, first, []) is None  # bots only: a spectator sees everything
    cage = gameshelf.load("cage").new_initial_state()
    assert hidden_event(cage, cage.legal_actions()[0], [0]) is None


def test_the_board_shows_only_when_a_human_is_to_move() -> None:
    table = new_table(gameshelf.load("axia"), ["human", "random"], seed=8)
    out = io.StringIO()
    marks: list[int] = []
    play_through(table, out, marks)
    text = out.getvalue()
    before_first_prompt = text[: marks[0]]
    # once, not once per chance event
    assert len(re.findall(r"AXIA (?:setup|round)", before_first_prompt)) == 1
    assert before_first_prompt.count("chance:") >= 2
    assert len(re.findall(r"AXIA (?:setup|round)", text)) <= len(marks)


# --------------------------------------------------------------------------- saving and resuming


def test_save_after_the_game_ended_then_quit_exits_0(tmp_path: Path) -> None:
    table = new_table(gameshelf.load("cage"), ["human", "human"], seed=1)
    out = io.StringIO()
    prompts: list[str] = []
    path = tmp_path / "won.json"
    status = interactive(table, reader([*CAGE_WIN, f"save {path}", "quit"], prompts), out, False)
    text = out.getvalue()
    assert status == 0
    assert "game over: player 1 wins" in text and "bye" in text
    assert prompts[-1].startswith("game over")
    saved = json.loads(path.read_text())
    assert [m["move"] for m in saved["moves"]] == CAGE_WIN and saved["result"] == [1.0, -1.0]


def test_input_that_ends_with_the_game_ends_cleanly() -> None:
    table = new_table(gameshelf.load("cage"), ["human", "human"], seed=1)
    assert interactive(table, reader(CAGE_WIN), io.StringIO(), False) == 0
    table = new_table(gameshelf.load("cage"), ["human", "human"], seed=1)
    out = io.StringIO()
    assert interactive(table, reader(CAGE_WIN[:2]), out, False) == 1
    assert "game abandoned" in out.getvalue()


def test_resume_goes_on_from_a_saved_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "half.json"
    table = new_table(gameshelf.load("cage"), ["human", "human"], seed=1)
    first = io.StringIO()
    interactive(table, reader([*CAGE_WIN[:3], f"save {path}", "quit"]), first, False)
    assert f"saved 3 moves to {path} (go on later: gameshelf play --resume {path})" in str(
        first.getvalue()
    )
    monkeypatch.setattr("sys.stdin", io.StringIO(f"O1\nW0\nsave {path}\nquit\n"))
    status, out, _ = cli(capsys, "play", "--resume", str(path))
    assert status == 0
    assert "player 2 plays O1" in out and "game over: player 1 wins" in out
    assert [m.move for m in load_record(path).moves] == CAGE_WIN


def test_resume_keeps_the_bots_and_refuses_a_game_as_well(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bot.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"W0\nsave {path}\nquit\n"))
    assert cli(capsys, "play", "cage", "--seat", "1=greedy", "--seed", "4")[0] == 0
    assert load_record(path).players == ["human", "greedy"]
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    status, out, _ = cli(capsys, "play", "--resume", str(path))
    assert status == 0 and "player 2 greedy" in out
    status, _, err = cli(capsys, "play", "cage", "--resume", str(path))
    assert status == 2 and "not both" in err


# --------------------------------------------------------------------------- seats and bots


def test_seats_nobody_chose_are_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    status, out, _ = cli(capsys, "play", "axia(players=3)", "--seat", "0=human", "--seed", "1")
    assert status == 0
    assert "player 2 (--seat 1) is a random bot: no --seat 1=WHO was given" in out
    assert "player 3 (--seat 2) is a random bot" in out


def test_play_help_lists_every_bot(capsys: pytest.CaptureFixture[str]) -> None:
    importlib.import_module("gameshelf.arena")  # its agents too, whatever ran before
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    names = [info.name for info in agent_catalogue()]
    assert len(names) >= 5
    listed = re.findall(r"^  ([\w-]+) ", out.split("weakest first")[1], re.MULTILINE)
    assert listed == names


def test_an_unfit_bot_is_refused_with_the_catalogue_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = cli(capsys, "play", "cage(players=3)", "--seat", "1=alphabeta", "--quiet")
    assert status == 2 and "cannot play cage(players=3)" in err


# --------------------------------------------------------------------------- help, moves, board


def _examples(name: str) -> list[str]:
    return [example.text for example in game_entry(name).notation]


@pytest.mark.parametrize("name", ["axia", "axiom", "cage"])
def test_help_shows_the_notation_of_the_games_entry(name: str) -> None:
    text = help_text(gameshelf.load(name))
    assert _examples(name)
    for example in game_entry(name).notation:
        assert f"  {example.text}  " in text and example.meaning in text
    others = [e for other in ("axia", "axiom", "cage") if other != name for e in _examples(other)]
    assert not any(f"  {example}  " in text for example in others)
    assert f"docs/games/{name}.md" in text


def test_help_for_a_game_without_notation_shows_moves_of_the_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A plug-in may register no notation help: the terminal shows what its moves look like.
    bare = dataclasses.replace(game_entry("cage"), notation=())
    monkeypatch.setattr(registry, "_REGISTRY", {**registry._REGISTRY, "cage": bare})
    text = help_text(gameshelf.load("cage"))
    assert not any(f"  {example}  " in text for example in _examples("cage")[1:])
    first = str(gameshelf.load("cage").new_initial_state(0).legal_moves()[0])
    assert f"  {first}  a legal move at the start" in text


def test_help_examples_are_real_moves() -> None:
    cage = {str(m) for m in gameshelf.load("cage").new_initial_state().legal_moves()}
    assert set(_examples("cage")) <= cage
    axiom = {str(m) for m in gameshelf.load("axiom").new_initial_state().legal_moves()}
    assert set(_examples("axiom")) <= axiom


def test_moves_never_wrap_in_the_middle_of_a_move() -> None:
    moves = [str(m) for m in gameshelf.load("axiom").new_initial_state().legal_moves()]
    text = columns(moves, width=60)
    lines = text.splitlines()
    assert all(len(line) <= 60 for line in lines)
    assert [w for line in lines for w in re.split(r"\s{2,}", line.strip())] == moves


def test_axiom_board_is_a_labelled_grid_with_a_legend(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "--color", "never", "show", "axiom")
    assert status == 0
    assert "layer z=2 (top)" in out and "layer z=1 (bottom)" in out
    header = next(line for line in out.splitlines() if "x=-1" in line)
    assert header.split() == ["x=-1", "x=0", "x=1"]
    assert re.search(r"^  y=0 +\| b> B\+ +\| b- +\| b> B\+ +\|$", out, re.MULTILINE)
    assert "legend: b black cube, w white cube" in out and "> x+ east" in out
    coloured = cli(capsys, "--color", "always", "show", "axiom")[1]
    plain = re.sub(r"\x1b\[[0-9;]*m", "", coloured)
    assert plain == out  # colour never shifts the grid


# --------------------------------------------------------------------------- the server's port


def test_serve_on_a_busy_port_names_it_before_printing_a_url(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
        status, out, err = cli(capsys, "serve", "--port", str(port), "--database-url", url)
    assert status == 2 and out == ""
    assert f"port {port} on 127.0.0.1 is already in use" in err
    assert f"--port {port + 1}" in err


@pytest.mark.parametrize("seat", ["١=random", "+1=random", "1_0=random", "-1=random", "¹=random"])
def test_seat_numbers_are_plain_ascii_digits(seat: str) -> None:
    """``isdigit()``/``int()`` read '١' (Arabic-Indic one) as seat 1: ``--seat`` must not."""
    game = gameshelf.load("cage")
    assert parse_seats(game, ["1=random"])[0] == ["human", "random"]
    with pytest.raises(GameshelfError, match="must look like 0=human"):
        parse_seats(game, [seat])
