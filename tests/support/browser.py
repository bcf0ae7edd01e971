"""A running ``mindgames serve`` and headless Chromium driven by selenium, for the browser test
and for the screenshot in docs/ (``python tests/support/browser.py --screenshot docs/serve.png``).

The browser is Debian's: ``apt-get install chromium chromium-driver`` (selenium is told where
both are, so it never downloads a browser). ``MINDGAMES_BROWSER_TEST=require`` (set by
``.ci/run``) turns a missing browser into a failure instead of a skip.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `support` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.cli import command, environment

REQUIRE = "MINDGAMES_BROWSER_TEST"
BROWSERS = ("chromium", "chromium-browser")
DRIVER = "chromedriver"


def missing() -> str | None:
    """Why the browser test cannot run here, or None when it can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    if not any(shutil.which(b) for b in BROWSERS) or not shutil.which(DRIVER):
        return "Chromium not found (apt-get install chromium chromium-driver)"
    return None


def required() -> bool:
    return os.environ.get(REQUIRE, "") == "require"


def chrome(width: int = 1100, height: int = 700) -> Any:
    """Headless Chromium with the system's chromedriver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = next(p for p in map(shutil.which, BROWSERS) if p)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--hide-scrollbars"):  # fmt: skip
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(shutil.which(DRIVER)), options=options)


@contextlib.contextmanager
def server(*args: str, timeout: float = 60) -> Iterator[str]:
    """``mindgames serve --port 0 ARGS`` in a subprocess; yields its address, stops it after."""
    proc = subprocess.Popen(
        command("serve", "--port", "0", *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
    )
    first: list[str] = []
    reader = threading.Thread(target=lambda: first.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    try:
        if not first or "http://" not in first[0]:
            proc.kill()
            raise RuntimeError(f"serve did not start: {first} {proc.communicate()[1]}")
        yield first[0].split()[2]
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def wait(driver: Any, condition: Any, seconds: float = 30) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(condition)


def status(driver: Any, *states: str) -> str:
    """Wait until the page's status line is in one of ``states``; return its text."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By

    line = driver.find_element(By.ID, "status")
    try:
        wait(driver, lambda _: line.get_attribute("data-state") in states)
    except TimeoutException:
        raise AssertionError(f"status {line.text!r}, waited for {states}") from None
    return line.text


def click_cell(driver: Any, key: str) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f'g.cell[data-key="{key}"]').click()


def legal_cells(driver: Any) -> list[list[str]]:
    """The clicks of every legal move the page holds."""
    return driver.execute_script("return game.view.legal.map((move) => move.cells || []);")


def screenshot(path: str) -> None:
    """The page in the middle of a checkers game against alpha-beta, with a piece selected."""
    with server("--agent", "alphabeta:depth=4,eval=material") as url:
        driver = chrome()
        try:
            driver.get(url)
            status(driver, "your-move")
            for _ in range(3):
                for key in legal_cells(driver)[-1]:
                    click_cell(driver, key)
                status(driver, "your-move")
            click_cell(driver, legal_cells(driver)[0][0])
            driver.save_screenshot(path)
        finally:
            driver.quit()


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", required=True, help="PNG file to write")
    reason = missing()
    if reason:
        sys.exit(f"cannot take a screenshot: {reason}")
    screenshot(parser.parse_args().screenshot)
