"""A thin Selenium wrapper over headless Debian Chromium with explicit waits."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

T = TypeVar("T")

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
]


class Browser:
    """One Chromium session; methods wait explicitly for what they need."""

    def __init__(self, driver: webdriver.Chrome, profile: tempfile.TemporaryDirectory[str]) -> None:
        self.driver = driver
        self.profile = profile

    @classmethod
    def start(cls, chromium: str, chromedriver: str, width: int, height: int) -> Browser:
        profile = tempfile.TemporaryDirectory(prefix="gameshelf-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--window-size={width},{height}")
        options.add_argument(f"--user-data-dir={profile.name}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
        driver.set_page_load_timeout(30)
        return cls(driver, profile)

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.profile.cleanup()

    def open(self, url: str) -> None:
        self.driver.get(url)

    def wait(self, condition: Callable[[], T | None], timeout: float = 30, what: str = "") -> T:
        """Poll ``condition`` until it returns something truthy; fail naming ``what``."""

        def check(_: Any) -> T | None:
            try:
                return condition()
            except (StaleElementReferenceException, WebDriverException):
                return None

        result = WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(
            check, message=f"timed out waiting for {what or condition}"
        )
        return cast(T, result)

    def find(self, css: str, timeout: float = 30) -> WebElement:
        def visible() -> WebElement | None:
            for element in self.driver.find_elements(By.CSS_SELECTOR, css):
                if element.is_displayed():
                    return element
            return None

        return self.wait(visible, timeout, f"a visible {css!r}")

    def finds(self, css: str) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def click(self, css: str, timeout: float = 30) -> None:
        """Click the first visible, enabled ``css`` element; one the page re-rendered between
        being found and clicked (stale) is looked up again. Other click errors (another
        element in the way, say) are raised at once, with their own message."""
        deadline = time.monotonic() + timeout
        while True:
            element = self.wait(
                lambda: next(
                    (e for e in self.finds(css) if e.is_displayed() and e.is_enabled()), None
                ),
                max(deadline - time.monotonic(), 0.1),
                f"an enabled {css!r}",
            )
            try:
                element.click()
                return
            except StaleElementReferenceException:
                if time.monotonic() > deadline:
                    raise

    def click_at(self, element: WebElement, x: float, y: float) -> None:
        """Click at (x, y) CSS pixels from the element's top-left corner (a real pointer click)."""
        size = element.size
        ActionChains(self.driver).move_to_element_with_offset(
            element, int(x - size["width"] / 2), int(y - size["height"] / 2)
        ).click().perform()

    def select(self, css: str, value: str) -> None:
        Select(self.find(css)).select_by_value(value)

    def text(self, css: str) -> str:
        return self.find(css).text

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def console_errors(self) -> list[str]:
        """The browser console's errors since the last call (failed loads, CSP refusals, ...)."""
        entries: list[dict[str, Any]] = self.driver.get_log("browser")  # type: ignore[no-untyped-call]
        return [str(e.get("message")) for e in entries if e.get("level") == "SEVERE"]

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.driver.save_screenshot(str(path))
