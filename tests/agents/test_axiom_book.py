"""The Axiom opening book: lookups, the shipped file, the levels that use it, and its builder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tools.axiom_book import build, main

from gameshelf.agents.axiom.book import book_key, book_move, load_book
from gameshelf.agents.axiom.search import AxiomSearchAgent
from gameshelf.agents.base import make_agent
from gameshelf.agents.levels import build_level
from gameshelf.core.registry import load


def _positions_within(plies: int) -> dict[str, object]:
    """Every position reachable from the start in at most ``plies`` plies, by book key."""
    game = load("axiom")
    found: dict[str, object] = {}
    layer = [game.new_initial_state()]
    for ply in range(plies + 1):
        following = []
        for state in layer:
            found[book_key(state)] = state
            if ply == plies:
                continue
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                if not child.is_terminal():
                    following.append(child)
        layer = following
    return found


def test_a_stored_move_is_played_as_an_action_of_that_position() -> None:
    start = load("axiom").new_initial_state()
    action = start.legal_actions()[5]
    book = {book_key(start): start.action_to_string(action)}
    assert book_move(start, book) == action


def test_a_position_outside_the_book_or_an_illegal_stored_move_gives_nothing() -> None:
    start = load("axiom").new_initial_state()
    other = start.clone()
    other.apply_action(other.legal_actions()[0])
    assert (
        book_move(other, {book_key(start): start.action_to_string(start.legal_actions()[0])})
        is None
    )
    # the same board with the other side to move is another position
    game = load("axiom")
    white_to_move = game.from_listing(start.listing(), 1)  # type: ignore[attr-defined]
    assert book_key(start) != book_key(white_to_move)
    white_move = other.action_to_string(other.legal_actions()[0])
    assert book_move(start, {book_key(start): white_move}) is None
    assert book_move(start, {book_key(start): "not a move"}) is None


def test_the_book_is_not_used_under_other_rules() -> None:
    changed = load("axiom(diagonal_moves=false)").new_initial_state()
    start = load("axiom").new_initial_state()
    book = {book_key(start): start.action_to_string(start.legal_actions()[0])}
    assert book_key(changed) == book_key(start)
    assert book_move(changed, book) is None


def test_a_broken_book_file_is_refused_with_its_name(tmp_path: Path) -> None:
    bad = tmp_path / "book.json"
    bad.write_text(json.dumps({"format": "something else", "game": "axiom", "positions": {}}))
    with pytest.raises(ValueError, match=r"book\.json"):
        load_book(bad)
    bad.write_text(json.dumps({"format": "gameshelf-axiom-book", "game": "axiom", "positions": []}))
    with pytest.raises(ValueError, match="positions"):
        load_book(bad)
    bad.write_text(json.dumps({"format": "gameshelf-axiom-book", "game": "axiom"}))
    with pytest.raises(ValueError, match="positions"):
        load_book(bad)
    bad.write_text('{"format": "gameshelf-axiom-book", ')
    with pytest.raises(ValueError, match=r"book\.json is not JSON"):
        load_book(bad)
    bad.write_text("[]")
    with pytest.raises(ValueError, match="not an Axiom opening book"):
        load_book(bad)
    assert load_book(tmp_path / "missing.json") == {}


def test_the_shipped_book_answers_the_likely_first_moves_and_never_opens() -> None:
    book = load_book()
    positions = _positions_within(2)
    answered = opened = 0
    for key in book:
        state = positions.get(key)
        if state is not None:
            ply = len(state.history())  # type: ignore[attr-defined]
            answered += ply % 2 == 1
            opened += ply % 2 == 0
    assert answered >= 3  # the replies to the first player's three best moves
    assert opened == 0  # the second player's book only (BOOK_SEATS)


def test_every_shipped_book_move_is_legal_and_on_the_books_own_tree() -> None:
    """Walk the book's tree from the start (every move of the other side, the book's move of
    its own): every entry is met there, and its move is legal where it is met."""
    book = load_book()
    met: set[str] = set()
    layer = [load("axiom").new_initial_state()]
    while layer:
        following = []
        for state in layer:
            key = book_key(state)
            if key in book:
                met.add(key)
                action = book_move(state, book)
                assert action is not None, book[key]
                moves = [action]
            elif len(state.history()) % 2 == 0:  # the first player's move: every one
                moves = state.legal_actions()
            else:
                continue  # the book has left this line
            for move in moves:
                child = state.clone()
                child.apply_action(move)
                if not child.is_terminal():
                    following.append(child)
        layer = following
    assert met == set(book)
    assert len(book) >= 10


def _first_booked_reply() -> object:
    """A position after the first player's first move that the shipped book answers."""
    start = load("axiom").new_initial_state()
    for action in start.legal_actions():
        child = start.clone()
        child.apply_action(action)
        if book_move(child) is not None:
            return child
    raise AssertionError("the shipped book answers no first move")


def test_the_book_agent_answers_from_the_book_and_the_levels_search() -> None:
    game = load("axiom")
    position = _first_booked_reply()
    booked = make_agent("axiom-hard-book", game, seed=3)
    assert isinstance(booked, AxiomSearchAgent) and booked.book
    assert booked.step(position) == book_move(position)  # type: ignore[arg-type]
    assert booked.nodes == 0  # no search ran
    for level in ("medium", "hard", "expert"):  # the book was tried and not adopted
        agent = build_level(game, level, seed=3, fixed=True)
        assert isinstance(agent, AxiomSearchAgent) and not agent.book
    with pytest.raises(ValueError, match="plays axiom only"):
        make_agent("axiom-hard-book", load("cage"), seed=3)


def test_build_searches_a_half_per_seat() -> None:
    book = build(seconds=0.05, replies=2, plies=2, jobs=1, seats=(0, 1))
    assert book["format"] == "gameshelf-axiom-book" and book["game"] == "axiom"
    positions = _positions_within(2)
    stored = book["positions"]
    # seat 0: the start and the positions after two replies to its move; seat 1: its answers to
    # the first player's two best moves
    assert len(stored) == 5
    for key, text in stored.items():
        state = positions[key]
        assert book_move(state, stored) is not None, text  # type: ignore[arg-type]
    start = load("axiom").new_initial_state()
    assert book_key(start) in stored
    answers = build(seconds=0.05, replies=2, plies=2, jobs=1, seats=(1,))
    assert answers["seats"] == [1] and len(answers["positions"]) == 2
    assert book_key(start) not in answers["positions"]


@pytest.mark.parametrize("seats", ["2", "0,x", "", "1,"])
def test_the_tool_refuses_seats_it_cannot_play_before_any_search(
    seats: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "book.json"
    with pytest.raises(SystemExit) as stop:
        main(["--seats", seats, "--out", str(out)])
    assert stop.value.code == 2
    assert f"--seats must name seats 0 and/or 1, got {seats!r}" in capsys.readouterr().err
    assert not out.exists()
