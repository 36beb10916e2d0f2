"""The ``gameshelf`` command line, driven in-process."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import gameshelf
from gameshelf.cli.main import main
from gameshelf.cli.play import interactive, new_table
from gameshelf.core import engines
from gameshelf.core.record import record_from_state
from gameshelf.core.registry import game_entry


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_games_lists_each_game_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "games")
    assert status == 0
    assert "cage — Rubik's Cage" in out
    assert "simultaneous" in out and "draw | mover_priority | shared" in out


def test_games_verbose_names_each_games_engine(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "games", "--verbose")
    named = [line.split(":", 1)[1].strip() for line in out.splitlines() if "engine:" in line]
    why = f" ({engines.pure_reason})" if engines.pure_reason else ""
    expected = [
        "compiled (mypyc)" if engines.game_package(game_entry(name)).COMPILED else f"pure{why}"
        for name in gameshelf.available_games()
    ]
    assert status == 0 and named == expected
    assert "engine:" not in run(capsys, "games")[1]


def test_games_names_what_a_default_without_a_value_means(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "games")
    cards = next(line for line in out.splitlines() if line.split()[:1] == ["cards"])
    assert status == 0 and cards.split()[1:3] == ["default", "standard"], cards
    assert "None" not in out


def test_perft_prints_one_line_per_depth(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", "cage(players=4)", "--depth", "3")
    assert status == 0
    assert out.splitlines() == ["depth 1: 15", "depth 2: 218", "depth 3: 3172"]


@pytest.mark.parametrize("divide", [[], ["--divide"]])
def test_perft_at_depth_0_counts_the_empty_sequence(
    capsys: pytest.CaptureFixture[str], divide: list[str]
) -> None:
    status, out, _ = run(capsys, "perft", "cage", "--depth", "0", *divide)
    assert status == 0 and out.splitlines() == ["depth 0: 1"]


@pytest.mark.parametrize("depth", ["-1", "21", "99999999999"])
def test_perft_refuses_a_depth_that_never_finishes(
    capsys: pytest.CaptureFixture[str], depth: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(capsys, "perft", "cage", "--depth", depth)
    assert exit_.value.code == 2
    assert f"--depth must be 0..20, not {depth}" in capsys.readouterr().err


def test_perft_from_a_position_and_divide(capsys: pytest.CaptureFixture[str]) -> None:
    position = "WOW/-/-/-/-/-/YW/- W1Y3R4O3B4G4 1 Y6 5 *"
    _, out, _ = run(capsys, "perft", "cage", "--position", position, "--depth", "1")
    assert out.strip() == "depth 1: 28"  # 21 drops (column 0 is full) + 6 twists + flip
    _, out, _ = run(capsys, "perft", "cage", "--depth", "2", "--divide")
    assert "T1+: 30" in out and out.strip().endswith("depth 2: 954")


def test_moves_prints_every_legal_move(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, out, _ = run(capsys, "moves", "cage(players=4)")
    assert out.split() == [f"W{c}" for c in range(8)] + [
        "T0+",
        "T0-",
        "T1+",
        "T1-",
        "T2+",
        "T2-",
        "F",
    ]
    file = tmp_path / "pos.txt"
    file.write_text("-/-/-/-/-/-/-/- W4Y4R4O4 3 T2+ 3 *\n")
    _, out, _ = run(capsys, "moves", "cage(players=4)", "--position", str(file))
    assert "T2-" not in out.split() and out.split()[0] == "O0"


def test_errors_are_one_clear_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "moves", "cage(players=9)")
    assert status == 2 and "players" in err and "maximum 4" in err
    status, _, err = run(capsys, "moves", "cage", "--position", "nonsense")
    assert status == 2 and "6 fields" in err
    status, _, err = run(capsys, "play", "cage", "--seat", "2=human")
    assert status == 2 and "seats 0..1" in err
    status, _, err = run(capsys, "play", "cage", "--seat", "1=genius", "--quiet")
    assert status == 2 and "unknown agent 'genius'" in err
    status, _, err = run(capsys, "play", "axia", "--seat", "0=human", "--seat", "1=alphabeta")
    assert status == 2 and "bot 'alphabeta' cannot play axia" in err


BOT_GAME = (
    "play",
    "cage(players=3)",
    "--seat",
    "0=greedy",
    "--seat",
    "1=random",
    "--seat",
    "2=random",
    "--seed",
    "5",
    "--quiet",
)


def test_bot_game_quiet_prints_the_result_and_saves_a_replayable_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    status, out, _ = run(capsys, *BOT_GAME, "--save", str(record))
    assert status == 0
    first = out.splitlines()[0]
    assert first.endswith("moves") and ("wins" in first or "draw" in first)
    status, out, _ = run(capsys, "replay", str(record))
    assert status == 0 and "replayed" in out
    assert "players: player 1 greedy, player 2 random, player 3 random" in out
    status, out, _ = run(capsys, "replay", str(record), "--all")
    assert status == 0 and re.search(r"^1\. player 1: \w", out, re.MULTILINE)
    assert re.search(r"^2\. player 2: \w", out, re.MULTILINE)
    # The same seed plays the same game.
    run(capsys, *BOT_GAME, "--save", str(tmp_path / "again.json"))
    moves = [m["move"] for m in json.loads(record.read_text())["moves"]]
    again = [m["move"] for m in json.loads((tmp_path / "again.json").read_text())["moves"]]
    assert moves == again


def test_replay_of_a_corrupt_record_names_the_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "format": "gameshelf-record",
                "version": 1,
                "game": "cage",
                "seed": 1,
                "players": ["a", "b"],
                "moves": [
                    {"player": 0, "move": "W0", "action": 0},
                    {"player": 1, "move": "W1", "action": 1},
                ],
            }
        )
    )
    status, _, err = run(capsys, "replay", str(path))
    assert status == 2 and "move #1 'W1' does not replay" in err


def scripted(lines: list[str]) -> tuple[list[str], object]:
    prompts: list[str] = []
    feed = iter(lines)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return prompts, read


def test_terminal_play_moves_lists_undo_save_and_errors(tmp_path: Path) -> None:
    game = gameshelf.load("cage")
    table = new_table(game, ["human", "random"], seed=3)
    out = io.StringIO()
    save = tmp_path / "partial.json"
    _, read = scripted(["moves", "R9", "O0", "W0", "undo", "R5", f"save {save}", "quit"])
    status = interactive(table, read, out, color=False)  # type: ignore[arg-type]
    text = out.getvalue()
    assert status == 0  # quit is a normal way out
    assert re.search(r"^W0 +W1 +W2 ", text, re.MULTILINE)  # the move list, in columns
    assert "not Cage notation" in text  # R9
    assert "O is not a colour of player 1" in text  # O0
    assert "took back 2 move(s)" in text  # W0 and the bot's reply
    history = table.state.history()
    assert game.new_initial_state().action_to_string(history[0]) == "R5"
    saved = json.loads(save.read_text())
    assert saved["moves"][0]["move"] == "R5" and len(saved["moves"]) == 2


def test_terminal_play_to_the_end_between_two_humans() -> None:
    table = new_table(gameshelf.load("cage"), ["human", "human"], seed=1)
    out = io.StringIO()
    _, read = scripted(["W0", "O1", "W0", "O1", "W0"])
    assert interactive(table, read, out, color=False) == 0  # type: ignore[arg-type]
    assert "game over: player 1 wins" in out.getvalue()


def test_colour_output_uses_ansi_and_plain_output_does_not(
    capsys: pytest.CaptureFixture[str],
) -> None:
    position = "W/-/-/-/-/-/-/- W3Y4R4O4B4G4 1 W0 1 *"
    _, out, _ = run(capsys, "--color", "always", "show", "cage", "--position", position)
    assert "\x1b[48;5;255m" in out
    _, out, _ = run(capsys, "--color", "never", "show", "cage", "--position", position)
    assert "\x1b" not in out and " W " in out


def test_cards_prints_the_axia_deck_and_refuses_other_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "cards", "axia")
    assert status == 0 and "Territory cards (60)" in out and "reconstructed" in out
    status, _, err = run(capsys, "cards", "cage")
    assert status == 2 and "games with cards: axia" in err


def test_solve_is_wired_into_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "cage(players=2,stock=3:0)", "--max-plies", "5")
    assert status == 0 and "win in 5 plies" in out


def test_an_svg_that_cannot_be_written_is_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for target, reason in ((tmp_path / "no" / "x.svg", "No such file"), (tmp_path, "directory")):
        status, out, err = run(capsys, "show", "axiom", "--svg", str(target))
        assert status == 2 and out == ""
        assert err.startswith(f"gameshelf: error: cannot write {str(target)!r}: ")
        assert reason in err and len(err.splitlines()) == 1


def test_play_refuses_a_save_path_before_the_game_is_played(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bots = ("--seat", "0=random", "--seat", "1=random", "--quiet", "--seed", "1")
    missing = tmp_path / "no" / "game.json"
    status, out, err = run(capsys, "play", "cage", *bots, "--save", str(missing))
    assert status == 2 and out == ""  # no game was played only to be lost
    assert "there is no folder" in err and len(err.splitlines()) == 1
    status, out, err = run(capsys, "play", "cage", *bots, "--save", str(tmp_path))
    assert status == 2 and out == "" and "is a folder" in err


def test_play_save_that_fails_after_the_game_is_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(self: object, path: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(gameshelf.core.record.GameRecord, "save", refuse)
    bots = ("--seat", "0=random", "--seat", "1=random", "--quiet", "--seed", "1")
    target = str(tmp_path / "g.json")
    status, _, err = run(capsys, "play", "cage", *bots, "--save", target)
    assert status == 2
    assert err == f"gameshelf: error: cannot write {target!r}: Permission denied\n"


def test_save_at_the_terminal_reports_a_name_it_cannot_use(tmp_path: Path) -> None:
    table = new_table(gameshelf.load("cage"), ["human", "random"], seed=1)
    lines = iter(["save bad\x00name.json", f"save {tmp_path}", "quit"])
    out = io.StringIO()
    assert interactive(table, lambda prompt: next(lines), out, color=False) == 0
    errors = [line for line in out.getvalue().splitlines() if line.startswith("error:")]
    assert errors == [
        "error: cannot save to 'bad\\x00name.json': embedded null byte",
        f"error: cannot save to {str(tmp_path)!r}: Is a directory",
    ]


def test_save_onto_a_folder_at_the_terminal_leaves_no_stray_file(tmp_path: Path) -> None:
    folder = tmp_path / "game.json"
    folder.mkdir()
    table = new_table(gameshelf.load("cage"), ["human", "random"], seed=1)
    lines = iter([f"save {folder}", "quit"])
    out = io.StringIO()
    assert interactive(table, lambda prompt: next(lines), out, color=False) == 0
    assert f"error: cannot save to {str(folder)!r}: Is a directory" in out.getvalue()
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"] and not list(folder.iterdir())


@pytest.mark.parametrize("command", ["moves", "perft", "show", "analyse"])
def test_a_position_file_that_is_not_utf8_is_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    file = tmp_path / "pos.txt"
    file.write_bytes(b"-/-/-/-/-/-/-/- W4Y4R4O4B4G4 0 - 0 *\xff\n")
    extra = ["--depth", "1"] if command == "perft" else []
    status, out, err = run(capsys, command, "cage", "--position", str(file), *extra)
    assert status == 2 and out == ""
    assert err == (
        f"gameshelf: error: position file {str(file)!r} is not UTF-8 text: byte 36 "
        "cannot be decoded\n"
    )


def finished_record() -> dict[str, object]:
    """A finished cage game (player 1 wins) as record JSON."""
    state = gameshelf.load("cage").new_initial_state()
    for move in ["W0", "O1", "W0", "O1", "W0"]:
        state.play(move)
    data: dict[str, object] = record_from_state(state, seed=1).to_json()
    return data


def _with(**change: object) -> bytes:
    return json.dumps({**finished_record(), **change}).encode()


LATIN_1 = _with(players=["Ren\u00e9", "b"]).replace(b"\\u00e9", b"\xe9")
LATIN_1_BYTE = LATIN_1.index(0xE9)

BROKEN_RECORDS: dict[str, tuple[bytes, str]] = {
    "result of texts": (_with(result=["x", "y"]), "'result' must be a list of 2 numbers"),
    "result of nulls": (_with(result=[None, None]), "'result' must be a list of 2 numbers"),
    "latin-1 text": (LATIN_1, f"not UTF-8 text: byte {LATIN_1_BYTE} cannot"),
    "three players": (_with(players=["a", "b", "c"]), "'players' has 3 names, but cage has 2"),
    "player true": (
        _with(moves=[{"player": True, "move": "W0", "action": 0}], result=None),
        "move #0 has 'player' True: it must be an integer",
    ),
    "misspelt result": (
        _with(result=None).replace(b'"result": null', b'"reslt": [-1.0, 1.0]'),
        "unknown field 'reslt': is it 'result'?",
    ),
    "deep nesting": (b"[" * 100_000 + b"]" * 100_000, "is nested too deeply"),
    "a huge number": (_with(seed=0).replace(b'"seed": 0', b'"seed": ' + b"9" * 5000), "digits"),
}


@pytest.mark.parametrize("command", ["replay", "analyse"])
@pytest.mark.parametrize("case", sorted(BROKEN_RECORDS))
def test_a_broken_record_is_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, case: str
) -> None:
    content, message = BROKEN_RECORDS[case]
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    argv = (
        ["replay", str(path)] if command == "replay" else ["analyse", "cage", "--record", str(path)]
    )
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("gameshelf: error: ") and len(err.splitlines()) == 1
    assert message in err
    assert path.read_bytes() == content and [p.name for p in tmp_path.iterdir()] == ["broken.json"]


def test_replay_shows_control_characters_of_player_names_as_codes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A record from someone else cannot drive the terminal through a player's name."""
    path = tmp_path / "names.json"
    record = {
        "format": "gameshelf-record",
        "version": 1,
        "game": "cage",
        "seed": 1,
        "players": ["Ann\x1b[2J\x1b]0;owned\x07", "Bob"],
        "moves": [{"player": 0, "move": "W0", "action": 0}],
    }
    path.write_text(json.dumps(record))
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    assert "\x1b" not in out and "\x07" not in out
    assert "player 1 Ann\\u001b[2J\\u001b]0;owned\\u0007, player 2 Bob" in out
