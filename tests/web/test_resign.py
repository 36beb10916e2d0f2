"""Resign in real browsers: two guests at a Cage table; the one not to move resigns through the
button and its confirm step (a cancel first changes nothing); both see the game over and the
server's result says who resigned."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from .browser import Browser
from .conftest import BrowserFactory, WebServer
from .helpers import api, create_match, wait_turn


def _wait_finished(browser: Browser) -> None:
    status = browser.find("#status")
    browser.wait(lambda: status.get_attribute("data-status") == "finished", what="the game over")


def test_a_player_resigns_through_the_button_after_confirming(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    host, guest = browser_factory(), browser_factory()
    match = create_match(host, web_server.url, "cage", ["you", "open"])
    guest.open(f"{web_server.url}/play/{match}")
    guest.click('.take-seat[data-seat="1"]')
    wait_turn(host, -1)  # running, seat 0 (the host) to move
    guest.wait(lambda: guest.find("#resign").is_displayed(), what="the resign button")

    guest.click("#resign")
    guest.find("#resign-confirm-row")
    button = guest.driver.find_element(By.ID, "resign")
    assert not button.is_displayed()  # the confirm step replaces the button
    guest.click("#resign-cancel")
    guest.find("#resign")
    assert api(web_server.url, f"/api/matches/{match}")["status"] == "running"

    guest.click("#resign")
    guest.click("#resign-confirm")
    for browser in (host, guest):
        _wait_finished(browser)
    summary = api(web_server.url, f"/api/matches/{match}")
    assert summary["result"] == [1.0, -1.0]
    assert "resigned" in summary["result_text"]
    assert "resigned" in host.text("#status") and "You won" in host.text("#status")
    assert "You lost" in guest.text("#status")
    box = guest.driver.find_element(By.ID, "resign-box")
    assert not box.is_displayed()  # no resigning a finished game
