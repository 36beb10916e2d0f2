"""Clocks, correspondence, chat and rematch in real browsers: a rated real-time Axiom game
between two accounts played to a flag (both ratings move as openskill says) and its rematch
with seats swapped; a correspondence Cage game across a server restart, on the waiting list."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from openskill.models import PlackettLuce

from gameshelf.server import create_app
from gameshelf.server.guard import uvicorn_config
from gameshelf.server.ratings import placements
from gameshelf.server.settings import ServerSettings

from .browser import Browser
from .conftest import SCREENSHOTS, BrowserFactory, WebServer, _require_build
from .helpers import agents_ready, api, click_move_button, register, wait_turn

ROOMY = ServerSettings(creates_per_minute=1e6, joins_per_minute=1e6, replays_per_minute=1e6)


def _create(browser: Browser, base: str, game: str, clock: dict[str, str], rated: bool) -> str:
    """Through the lobby: this browser against another player, with a clock."""
    browser.open(base + "/")
    agents_ready(browser)
    browser.select("#game-select", game)
    agents_ready(browser)
    browser.select("#seat-0", "you")
    browser.select("#seat-1", "open")
    browser.select("#clock-mode", clock["mode"])
    for field, value in clock.items():
        if field != "mode":
            box = browser.find(f"#clock-{field}")
            box.clear()
            box.send_keys(value)
    if rated:
        browser.wait(lambda: browser.find("#rated").is_enabled(), what="the rated box")
        browser.click("#rated")
    browser.click("#create-button")
    url: str = browser.wait(
        lambda: browser.driver.current_url if "/play/" in browser.driver.current_url else None,
        what="the match page",
    )
    return url.split("/play/")[1].split("?")[0]


def _clock_ms(browser: Browser, seat: int) -> int:
    shown = browser.find(f'#clocks .clock[data-seat="{seat}"]').get_attribute("data-ms")
    return int(shown or -1)


def test_a_rated_real_time_game_flags_rates_and_is_rematched_with_seats_swapped(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    ada, ben = browser_factory(), browser_factory()
    register(ada, web_server.url, "Ada")
    register(ben, web_server.url, "Ben")
    match = _create(ada, web_server.url, "axiom", {"mode": "realtime", "minutes": "0.15"}, True)
    ben.open(f"{web_server.url}/play/{match}")
    ben.click('.take-seat[data-seat="1"]')
    probe = wait_turn(ada, -1)
    # The match says what was agreed: rated, and its clock.
    assert ben.find("#match-terms").get_attribute("data-rated") == "true"
    assert [b.text for b in ben.finds("#match-terms .badge")] == ["rated", "9 s + 3 s a move"]
    first = _clock_ms(ada, 0)
    time.sleep(1.0)
    assert 0 < _clock_ms(ada, 0) < first - 500  # Black's clock ticks down in the browser
    assert ada.find("#clocks").get_attribute("data-running") == "0"
    ada.screenshot(SCREENSHOTS / "clocks-ticking.png")
    click_move_button(ada, probe["moves"][0])
    probe = wait_turn(ben, -1)
    click_move_button(ben, probe["moves"][0])
    # Ada (Black) now lets her time run out; the server flags her with nobody's help.
    for browser in (ada, ben):
        browser.wait(
            lambda b=browser: "ran out of time" in b.text("#game-over #result-text"),
            30,
            "the flag on the game-over screen",
        )
    assert ada.find("#clocks").get_attribute("data-flagged") == "0"
    summary = api(web_server.url, f"/api/matches/{match}")
    assert summary["result"] == [-1.0, 1.0] and summary["clock"]["flagged"] == 0
    ben.screenshot(SCREENSHOTS / "clocks-flagged.png")

    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=placements([-1.0, 1.0]))
    for index, name in enumerate(("Ada", "Ben")):
        (rating,) = api(web_server.url, f"/api/players/{name}")["ratings"]
        assert rating["games"] == 1
        assert abs(rating["mu"] - expected[index][0].mu) < 1e-9
        assert abs(rating["sigma"] - expected[index][0].sigma) < 1e-9

    # The result names the players, not only the seats.
    assert "Ada (black) ran out of time" in ben.text("#game-over #result-text")
    # One click each: Ada offers, Ben accepts, and both pages move to the new match.
    ada.click("#rematch-button")
    ben.wait(lambda: "asks for a rematch" in ben.text("#rematch-status"), 20, "Ada's rematch wish")
    assert ben.text("#rematch-button") == "Accept the rematch"
    ben.click("#rematch-button")
    for browser in (ada, ben):
        browser.wait(lambda b=browser: match not in b.driver.current_url, what="the rematch")
    rematch = ada.driver.current_url.split("/play/")[1]
    players = api(web_server.url, f"/api/matches/{rematch}/players")
    assert players["rated"] is True
    assert [s["account"] for s in players["seats"]] == ["Ben", "Ada"]  # seats swapped
    probe = wait_turn(ben, -1)  # Ben is Black now, and moves first
    assert ben.find('#seat-list li[data-seat="0"] .badge').text == "you"
    click_move_button(ben, probe["moves"][0])
    wait_turn(ada, -1)
    ada.screenshot(SCREENSHOTS / "clocks-rematch.png")
    assert not ada.console_errors() and not ben.console_errors()


class FixedPortServer:
    """The app on a chosen port (a browser's saved seats belong to its origin, port included),
    so a server can be stopped and started again where the browsers left it."""

    def __init__(self, database_url: str, port: int) -> None:
        app = create_app(database_url, bot_workers=0, settings=ROOMY)
        self.server = uvicorn.Server(uvicorn_config(app, ROOMY, "127.0.0.1", port, "warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "no server"
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[tuple[str, int]]:
    _require_build()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    yield f"sqlite:///{tmp_path / 'web.sqlite3'}", port


def test_a_correspondence_game_survives_a_restart_on_the_waiting_list_with_chat(
    restartable: tuple[str, int], browser_factory: BrowserFactory
) -> None:
    database, port = restartable
    server = FixedPortServer(database, port)
    base = server.url
    ann, bob = browser_factory(), browser_factory()
    match = _create(ann, base, "cage", {"mode": "correspondence", "days": "2"}, False)
    bob.open(f"{base}/play/{match}")
    bob.click('.take-seat[data-seat="1"]')
    # Chat: what Bob types reaches Ann as plain text, markup and all, and her page stays where
    # she left it (the log scrolls itself only).
    ann.js("window.scrollTo(0, 0)")
    assert ann.js("return document.querySelector('#chat-log').getBoundingClientRect().top")
    bob.find("#chat-input").send_keys("good luck <b>Ann</b>")
    bob.click("#chat-send")
    ann.wait(
        lambda: (
            ann.finds("#chat-log li .text")
            and ann.text("#chat-log li .text") == "good luck <b>Ann</b>"
        ),
        20,
        "Bob's message",
    )
    assert not ann.finds("#chat-log b")  # drawn as text, never as markup
    assert ann.js("return window.scrollY") == 0, "a chat message scrolled Ann's page"
    probe = wait_turn(ann, -1)
    assert ann.find("#clocks").get_attribute("data-mode") == "correspondence"
    click_move_button(ann, probe["moves"][0])
    wait_turn(bob, -1)

    server.stop()
    server = FixedPortServer(database, port)
    try:
        bob.open(base + "/")
        bob.wait(
            lambda: bob.finds(f'#waiting-list li[data-match="{match}"]'),
            30,
            "the game on Bob's waiting list",
        )
        assert bob.driver.title.startswith("(1) gameshelf")
        assert "left" in bob.text(f'#waiting-list li[data-match="{match}"]')
        bob.screenshot(SCREENSHOTS / "clocks-waiting-list.png")
        ann.open(base + "/")
        ann.wait(lambda: ann.find("#waiting").get_attribute("data-count") == "0", 30, "Ann")
        assert not ann.driver.title.startswith("(")
        bob.click(f'#waiting-list li[data-match="{match}"] a')
        probe = wait_turn(bob, -1)
        click_move_button(bob, probe["moves"][0])
        bob.wait(lambda: api(base, f"/api/matches/{match}")["plies"] == 2, 20, "the move stored")
        assert "good luck" in bob.text("#chat-log")  # the chat was stored with the match
        assert not bob.console_errors()
    finally:
        server.stop()
