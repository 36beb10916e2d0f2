"""Lobby and match-page steps shared by the browser tests (all through the UI)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from .browser import Browser

# Returns null while nothing is to be done; {"over": true} once the game-over screen shows;
# otherwise {"version": n, "moves": [...]} when this browser may move on a version it has not
# moved on yet.
TURN_PROBE = """
const last = arguments[0];
const over = document.getElementById('game-over');
if (over && !over.hidden) return {over: true};
const box = document.getElementById('legal-moves');
if (!box || box.getAttribute('data-ready') !== 'true') return null;
const version = Number(box.getAttribute('data-version'));
if (version === last) return null;
const moves = [...box.querySelectorAll('button[data-move]')].map(b => b.getAttribute('data-move'));
return moves.length ? {version, moves} : null;
"""

Chooser = Callable[[Browser, list[str], int], None]


def api(base: str, path: str, body: Any = None) -> Any:
    """GET ``path`` (POST ``body`` as JSON when given) and return the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data)
    if data is not None:
        request.add_header("content-type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def _option_field(browser: Browser, name: str) -> Any:
    """The lobby's field for option ``name``, opening "More options" (again) if the form was
    redrawn after the click — under load the redraw for the chosen game can come late."""
    selector = f"[data-option={name}]"

    def visible_field() -> Any:
        try:
            fields = browser.driver.find_elements(By.CSS_SELECTOR, selector)
            if fields and fields[0].is_displayed():
                return fields[0]
            closed = "#more-options:not([open]) summary"
            summaries = browser.driver.find_elements(By.CSS_SELECTOR, closed)
            if fields and summaries:
                summaries[0].click()
        except StaleElementReferenceException:  # the form was redrawn between two calls
            pass
        return None

    return browser.wait(visible_field, 60, f"the lobby field for option {name}")


def agents_ready(browser: Browser) -> str:
    """Wait until the lobby's seat menus offer the bots for the game chosen now; returns its
    game string."""
    probe = (
        "const s = document.getElementById('seats');"
        "return s && s.getAttribute('data-agents') === 'ready' ? s.getAttribute('data-agents-for')"
        " : null;"
    )
    found: str = browser.wait(lambda: browser.js(probe), 30, "the bots for the chosen game")
    return found


def create_match(
    browser: Browser,
    base: str,
    game: str,
    seats: list[str],
    options: dict[str, str] | None = None,
) -> str:
    """Create a match through the lobby form; returns the match id from the page's URL."""
    browser.open(base + "/")
    agents_ready(browser)
    browser.select("#game-select", game)
    for name, value in (options or {}).items():
        field = _option_field(browser, name)
        if field.tag_name == "select":
            browser.select(f"[data-option={name}]", value)
        else:
            field.clear()
            field.send_keys(value)
    agents_ready(browser)
    for index, seat in enumerate(seats):
        browser.select(f"#seat-{index}", seat)
    browser.click("#create-button")
    url: str = browser.wait(
        lambda: browser.driver.current_url if "/play/" in browser.driver.current_url else None,
        what="the match page",
    )
    browser.find("#legal-moves")
    return url.split("/play/")[1].split("?")[0]


def wait_turn(browser: Browser, last: int, timeout: float = 60) -> dict[str, Any]:
    """Wait until this browser may move on a version other than ``last``, or the game is over."""

    def my_turn() -> dict[str, Any] | None:
        result: dict[str, Any] | None = browser.js(TURN_PROBE, last)
        return result

    return browser.wait(my_turn, timeout, "my turn or the game-over screen")


def play_to_end(
    browser: Browser, choose: Chooser, max_turns: int = 400, timeout: float = 60
) -> int:
    """Play this browser's turns (via ``choose``) until the game-over screen shows."""
    last = -1
    for turn in range(max_turns):
        probe = wait_turn(browser, last, timeout)
        if probe.get("over"):
            return turn
        last = int(probe["version"])
        choose(browser, list(probe["moves"]), turn)
    raise AssertionError(f"the game did not end within {max_turns} turns")


def offered(browser: Browser) -> list[dict[str, Any]]:
    """The legal moves offered now, as the server's structures (``#legal-moves[data-legal]``)."""
    raw = browser.js("return document.getElementById('legal-moves').getAttribute('data-legal')")
    moves: list[dict[str, Any]] = json.loads(raw or "[]")
    return moves


def click_move_button(browser: Browser, move: str) -> None:
    browser.click(f'#legal-moves button[data-move="{move}"]')


def first_move(browser: Browser, moves: list[str], turn: int) -> None:
    click_move_button(browser, moves[0])


PASSWORD = "a long enough secret"


def register(browser: Browser, base: str, name: str) -> None:
    """Register ``name`` through the header's form, from the lobby."""
    browser.open(base + "/")
    browser.click("#register-open")
    browser.find("#account-user").send_keys(name)
    browser.find("#account-password").send_keys(PASSWORD)
    browser.click("#account-submit")
    shown = "return document.getElementById('account-name')?.textContent ?? null;"
    browser.wait(lambda: browser.js(shown) == name, what=f"the header to show {name} logged in")
