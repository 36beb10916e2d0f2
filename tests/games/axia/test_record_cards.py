"""A record of an AXIA game played with a card file of one's own keeps that file's digest, and
refuses to replay once the file has changed (it would replay, silently, with other cards)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import gameshelf
from gameshelf.core.errors import InvalidRecord
from gameshelf.core.record import file_digests, load_record, parse_record, record_from_state, replay
from gameshelf.games.axia.cardsets import standard_card_data


def _card_file(folder: Path) -> Path:
    path = folder / "my-cards.json"
    path.write_text(json.dumps(standard_card_data()), encoding="utf-8")
    return path


def _played(game_string: str, plies: int = 30) -> gameshelf.State:
    state = gameshelf.load(game_string).new_initial_state(4)
    rng = random.Random(4)
    while not state.is_terminal() and len(state.history()) < plies:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_record_keeps_the_digest_of_its_card_file(tmp_path: Path) -> None:
    cards = _card_file(tmp_path)
    state = _played(f"axia(cards={cards})")
    record = record_from_state(state, seed=4)
    (digest,) = record.files.values()
    assert record.files == {"cards": digest} and digest.startswith("sha256:")
    saved = tmp_path / "game.json"
    record.save(saved)
    assert json.loads(saved.read_text())["files"] == {"cards": digest}
    states = replay(load_record(saved))
    assert states[-1].history() == state.history()


def test_a_changed_card_file_is_refused_naming_the_option(tmp_path: Path) -> None:
    cards = _card_file(tmp_path)
    saved = tmp_path / "game.json"
    record_from_state(_played(f"axia(cards={cards})"), seed=4).save(saved)
    data = standard_card_data()
    data["note"] = str(data.get("note", "")) + " (edited)"
    cards.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidRecord, match=r"option cards=.*my-cards\.json has changed"):
        load_record(saved)
    cards.write_text(json.dumps(standard_card_data()), encoding="utf-8")
    load_record(saved)  # the same bytes again: it loads


def test_games_that_read_no_file_record_no_digest() -> None:
    for game_string in ("axia", "axia(cards=standard)", "cage"):
        game = gameshelf.load(game_string)
        assert file_digests(game) == {}
        assert "files" not in record_from_state(_played(game_string, 4)).to_json()


@pytest.mark.parametrize(
    ("files", "words"),
    [
        ("sha256:00", "must be an object"),
        ({"cards": "md5:abc"}, "64 hex digits"),
        ({"cards": "sha256:" + "G" * 64}, "64 hex digits"),
        ({"cards": "sha256:" + "0" * 64}, "names no file"),
    ],
)
def test_a_broken_files_field_is_refused(files: object, words: str) -> None:
    data = record_from_state(_played("axia", 4)).to_json()
    data["files"] = files
    with pytest.raises(InvalidRecord, match=words):
        parse_record(data)
