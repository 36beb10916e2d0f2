"""Game records: JSON round trip, exact replay, and corrupt files rejected by name."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

import gameshelf
from gameshelf.core.errors import InvalidRecord
from gameshelf.core.files import MAX_FILE_BYTES
from gameshelf.core.record import load_record, parse_record, record_from_state, replay
from gameshelf.core.rng import make_rng


def _random_game(game_string: str, seed: int) -> gameshelf.State:
    game = gameshelf.load(game_string)
    state = game.new_initial_state(seed)
    rng = make_rng(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game_string", ["cage", "cage(players=4,no_reverse=semantic)"])
def test_record_save_load_replay_reproduces_every_state(game_string: str, tmp_path: Path) -> None:
    state = _random_game(game_string, 9)
    names = ["alice", "bot", "carol", "dave"][: state.game.spec.num_players]
    record = record_from_state(state, names, seed=9)
    path = tmp_path / "r.json"
    record.save(path)
    loaded = load_record(path)
    states = replay(loaded)
    assert len(states) == len(state.history()) + 1
    assert states[-1].position() == state.position()
    assert loaded.result == state.returns() and loaded.finished
    # Each intermediate state is the state after that prefix of moves.
    game = gameshelf.load(game_string)
    for index in (0, len(states) // 2, len(states) - 1):
        prefix = game.replay(state.history()[:index])
        assert states[index].position() == prefix.position()


def _record() -> dict[str, Any]:
    state = gameshelf.load("cage").new_initial_state()
    for move in ["W0", "O1", "W0", "O1", "W0"]:
        state.play(move)
    return json.loads(record_from_state(state, seed=1).dumps())  # type: ignore[no-any-return]


def _corrupt(change: str) -> dict[str, Any]:
    data = _record()
    if change == "format":
        data["format"] = "pgn"
    elif change == "version":
        data["version"] = 99
    elif change == "game":
        data["game"] = "cage(players=7)"
    elif change == "illegal":
        data["moves"][1]["move"] = "W1"
    elif change == "garbled":
        data["moves"][2]["move"] = "??"
    elif change == "action":
        data["moves"][0]["action"] = 5
    elif change == "player":
        data["moves"][0]["player"] = 1
    elif change == "result":
        data["result"] = [-1.0, 1.0]
    elif change == "short":
        data["moves"].pop()
    elif change == "moves-type":
        data["moves"] = "W0 O1"
    elif change == "players-more":
        data["players"] = ["a", "b", "c"]
    elif change == "players-fewer":
        data["players"] = ["a"]
    elif change == "players-none":
        del data["players"]
    elif change == "players-null":
        data["players"] = None
    elif change == "players-numbers":
        data["players"] = [1, 2]
    elif change == "player-bool":
        data["moves"][0]["player"] = False
    elif change == "player-missing":
        del data["moves"][1]["player"]
    elif change == "player-float":
        data["moves"][0]["player"] = 0.0
    elif change == "player-no-seat":
        data["moves"][0]["player"] = 2
    elif change == "player-below-chance":
        data["moves"][0]["player"] = -3
    elif change == "action-bool":
        data["moves"][0]["action"] = False
    elif change == "action-negative":
        data["moves"][0]["action"] = -1
    elif change == "action-null":
        data["moves"][0]["action"] = None
    elif change == "version-bool":
        data["version"] = True
    elif change == "version-float":
        data["version"] = 1.0
    elif change == "seed-bool":
        data["seed"] = True
    elif change == "started-list":
        data["started"] = ["today"]
    elif change == "finished-number":
        data["finished"] = 2024
    elif change == "initial-number":
        data["initial_position"] = 7
    elif change == "misspelt-result":
        data["reslt"] = data.pop("result")
    elif change == "capitalised-players":
        data["Players"] = data.pop("players")
    elif change == "misspelt-action":
        data["moves"][3]["acton"] = data["moves"][3].pop("action")
    elif change == "result-texts":
        data["result"] = ["x", "y"]
    elif change == "result-nulls":
        data["result"] = [None, None]
    elif change == "result-bools":
        data["result"] = [True, False]
    elif change == "result-text":
        data["result"] = "1-0"
    elif change == "result-long":
        data["result"] = [1.0, -1.0, 0.0]
    elif change == "result-nan":
        data["result"] = [float("nan"), 1.0]
    elif change == "result-huge":
        data["result"] = [10**400, -1]
    return data


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("format", "not a gameshelf record"),
        ("version", "unsupported record version 99"),
        ("game", "players"),
        ("illegal", "move #1 'W1' does not replay"),
        ("garbled", "move #2 '??' does not replay"),
        ("action", "move #0 'W0' is action 0, but the record says 5"),
        ("player", "move #0 'W0' was made by 0"),
        ("result", "recorded result"),
        ("short", "do not end the game"),
        ("moves-type", "'moves' has the wrong type"),
        ("players-more", "'players' has 3 names, but cage has 2 seats"),
        ("players-fewer", "'players' has 1 name, but cage has 2 seats"),
        ("players-none", "record has no 'players' field"),
        ("players-null", "'players' has the wrong type NoneType"),
        ("players-numbers", "'players' must be a list of names"),
        ("player-bool", "move #0 has 'player' False: it must be an integer"),
        ("player-missing", "move #1 has no 'player'"),
        ("player-float", "move #0 has 'player' 0.0: it must be an integer"),
        ("player-no-seat", "move #0 has 'player' 2, which is no seat of cage (0 to 1"),
        ("player-below-chance", "move #0 has 'player' -3, which is no seat"),
        ("action-bool", "move #0 has 'action' False: it must be an action id"),
        ("action-negative", "move #0 has 'action' -1: it must be an action id"),
        ("action-null", "move #0 has 'action' None: it must be an action id"),
        ("version-bool", "unsupported record version True"),
        ("version-float", "unsupported record version 1.0"),
        ("seed-bool", "'seed' must be an integer or null"),
        ("started-list", "'started' must be text or null"),
        ("finished-number", "'finished' must be text or null"),
        ("initial-number", "'initial_position' must be text or null"),
        ("misspelt-result", "the record has an unknown field 'reslt': is it 'result'?"),
        ("capitalised-players", "the record has an unknown field 'Players': is it 'players'?"),
        ("misspelt-action", "move #3 has an unknown field 'acton': is it 'action'?"),
        ("result-texts", "'result' must be a list of 2 numbers"),
        ("result-nulls", "'result' must be a list of 2 numbers"),
        ("result-bools", "'result' must be a list of 2 numbers"),
        ("result-text", "'result' must be a list of 2 numbers"),
        ("result-long", "'result' has 3 values, but cage has 2 players"),
        ("result-nan", "'result': value #0 is not a finite number"),
        ("result-huge", "'result': value #0 is not a finite number"),
    ],
)
def test_corrupt_records_are_rejected_naming_the_problem(change: str, words: str) -> None:
    with pytest.raises(InvalidRecord, match=re.escape(words)):
        replay(parse_record(_corrupt(change)))


def test_unreadable_and_non_json_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidRecord, match="cannot read"):
        load_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(InvalidRecord, match="not valid JSON"):
        load_record(bad)


def test_a_file_that_is_not_utf8_names_the_file_and_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps(_record()).replace("player 1", "pl\u00e9yer").encode("latin-1"))
    offset = path.read_bytes().index(b"\xe9")
    message = f"record {str(path)!r} is not UTF-8 text: byte {offset} cannot be decoded"
    with pytest.raises(InvalidRecord, match=re.escape(message)):
        load_record(path)


def test_a_file_too_large_to_be_a_record_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:  # sparse: no disk is used
        handle.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(InvalidRecord, match=r"record '.*huge\.json' is larger than 16 MiB"):
        load_record(path)
    with path.open("wb") as handle:  # the limit itself is still read (then refused as JSON)
        handle.truncate(MAX_FILE_BYTES)
    with pytest.raises(InvalidRecord, match="is not valid JSON"):
        load_record(path)


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(_record()).encode())
    assert load_record(path).moves[0].move == "W0"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "is nested too deeply"),
        ('{"format": "gameshelf-record", "seed": ' + "9" * 5000 + "}", "too many digits"),
    ],
)
def test_json_python_cannot_hold_names_the_file(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "odd.json"
    path.write_text(text)
    with pytest.raises(InvalidRecord, match=re.escape(f"record {str(path)!r} ") + ".*" + words):
        load_record(path)


def test_a_file_name_with_a_nul_byte_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidRecord, match=r"cannot read record .*null byte"):
        load_record(tmp_path / "bad\x00name.json")


def test_saving_never_leaves_a_torn_file(tmp_path: Path) -> None:
    state = _random_game("cage", 2)
    path = tmp_path / "game.json"
    record_from_state(state).save(path)
    assert not list(tmp_path.glob("*.part"))
    assert json.loads(path.read_text())["format"] == "gameshelf-record"


def test_a_broken_result_is_refused_when_loading(tmp_path: Path) -> None:
    """The result is checked by ``load_record`` already, before anything replays."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**_record(), "result": ["x", "y"]}))
    with pytest.raises(InvalidRecord, match="'result' must be a list of 2 numbers"):
        load_record(path)


def test_a_result_built_in_code_is_checked_by_replay() -> None:
    record = parse_record(_record())
    record.result = [None, None]  # type: ignore[list-item]
    with pytest.raises(InvalidRecord, match="'result' must be a list of 2 numbers"):
        replay(record)
    record.result = [1, -1]  # integers are numbers too
    assert replay(record)[-1].is_terminal()


def test_a_move_without_an_action_id_replays_by_its_notation() -> None:
    data = _record()
    for entry in data["moves"]:
        del entry["action"]
    assert replay(parse_record(data))[-1].is_terminal()


def test_seats_of_a_record_built_in_code_are_checked_by_replay() -> None:
    record = parse_record(_record())
    record.players.append("a third")
    with pytest.raises(InvalidRecord, match="'players' has 3 names, but cage has 2 seats"):
        replay(record)
    record.players.pop()
    record.moves[0].player = True
    with pytest.raises(InvalidRecord, match="move #0 has 'player' True, which is no seat"):
        replay(record)


def test_saving_onto_a_folder_fails_and_leaves_nothing_behind(tmp_path: Path) -> None:
    folder = tmp_path / "game.json"
    folder.mkdir()
    with pytest.raises(IsADirectoryError):
        record_from_state(_random_game("cage", 2)).save(folder)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert folder.is_dir() and not list(folder.iterdir())


def test_a_failed_write_keeps_the_old_file_and_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    path.write_text("the old record")

    def full_disk(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        record_from_state(_random_game("cage", 2)).save(path)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert path.read_text() == "the old record"


def test_saving_never_overwrites_a_file_named_like_the_temporary(tmp_path: Path) -> None:
    keep = tmp_path / "game.json.part"
    keep.write_text("someone else's file")
    record_from_state(_random_game("cage", 2)).save(tmp_path / "game.json")
    assert keep.read_text() == "someone else's file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json.part"]


def test_a_record_that_would_not_load_is_not_saved(tmp_path: Path) -> None:
    record = record_from_state(_random_game("cage", 2), ["only one name"])
    path = tmp_path / "game.json"
    with pytest.raises(InvalidRecord, match="'players' has 1 name"):
        record.save(path)
    record = record_from_state(_random_game("cage", 2))
    record.result = [math.nan, 1.0]
    with pytest.raises(ValueError, match="not JSON compliant"):
        record.save(path)
    assert not list(tmp_path.iterdir())


def test_fields_the_format_does_not_know_are_ignored() -> None:
    """The server's seed proof and people's notes do not stop a record from replaying."""
    data = _record()
    data.update(seed_commitment="ab" * 32, seed_salt="cd" * 16, event="club night")
    data["moves"][0]["comment"] = "the usual start"
    assert replay(parse_record(data))[-1].is_terminal()


def test_a_record_without_action_ids_saves_and_loads_again(tmp_path: Path) -> None:
    data = _record()
    for entry in data["moves"]:
        del entry["action"]
    path = tmp_path / "again.json"
    parse_record(data).save(path)
    assert json.loads(path.read_text())["moves"][0] == {"player": 0, "move": "W0"}
    assert replay(load_record(path))[-1].is_terminal()
