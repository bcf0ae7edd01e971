"""``mindgames serve`` end to end in headless Chromium: click a move, see the agent answer, see
an illegal click refused (checkers and Kalah on SVG boards; a text-rendered game's move list).

Skipped, with the reason in pytest's summary, where Chromium or selenium is missing; CI sets
MINDGAMES_BROWSER_TEST=require (``.ci/run``), which makes a missing browser a failure.
"""

from __future__ import annotations

import pytest

from mindgames.registry import get_registry

from support import browser
from support.browser import click_cell, status

REASON = browser.missing()
if REASON and not browser.required():  # one line in pytest's summary
    pytest.skip(f"browser test did not run: {REASON}", allow_module_level=True)


@pytest.fixture(scope="module")
def driver():
    if REASON:  # CI: a browser test that cannot run is a failure
        pytest.fail(f"the browser test must run ({browser.REQUIRE}=require): {REASON}")
    chrome = browser.chrome()
    yield chrome
    chrome.quit()


@pytest.fixture(scope="module")
def url(driver):
    with browser.server("--agent", "alphabeta:depth=2,eval=material", "--seed", "3") as address:
        yield address


def moves_played(driver):
    return driver.execute_script("return game.moves.slice();")


def cell_classes(driver, key):
    from selenium.webdriver.common.by import By

    cell = driver.find_element(By.CSS_SELECTOR, f'g.cell[data-key="{key}"]')
    return cell.get_attribute("class").split()


def new_game(driver, url, spec, side=0, agent=None):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(url)
    status(driver, "your-move", "agent-turn", "refused")
    Select(driver.find_element(By.ID, "game-name")).select_by_value(spec.split(":")[0])
    box = driver.find_element(By.ID, "game-spec")
    box.clear()
    box.send_keys(spec)
    Select(driver.find_element(By.ID, "human")).select_by_value(str(side))
    if agent is not None:
        box = driver.find_element(By.ID, "agent")
        box.clear()
        box.send_keys(agent)
    driver.find_element(By.ID, "new-game").click()


def test_a_checkers_move_by_two_clicks_gets_the_agents_answer(driver, url):
    from selenium.webdriver.common.by import By

    driver.get(url)
    assert status(driver, "your-move") == "Black to move: your move"
    click_cell(driver, "11")
    assert "selected" in cell_classes(driver, "11")
    assert "target" in cell_classes(driver, "15")  # where the man on 11 may go
    click_cell(driver, "15")
    assert status(driver, "your-move") == "Black to move: your move"
    played = moves_played(driver)
    assert len(played) == 2 and played[0] == "11-15"
    reply = driver.find_element(By.ID, "last-reply").text
    assert reply.startswith(f"agent played {played[1]}")
    assert driver.find_elements(By.CSS_SELECTOR, 'g.cell[data-key="15"] circle.p0')
    assert "last" in cell_classes(driver, played[1].split("-")[-1])  # the reply is marked
    items = driver.find_elements(By.CSS_SELECTOR, "#moves li")
    assert [item.text for item in items] == played


def test_an_illegal_click_is_refused_and_changes_nothing(driver, url):
    driver.get(url)
    status(driver, "your-move")
    click_cell(driver, "5")  # a man with no move
    text = status(driver, "refused")
    assert text.startswith("refused: illegal: no legal move starts at 5")
    click_cell(driver, "9")
    click_cell(driver, "17")  # 9 may go to 13 or 14, not 17
    assert "illegal: 9 → 17" in status(driver, "refused")
    assert moves_played(driver) == []
    click_cell(driver, "9")
    click_cell(driver, "13")
    status(driver, "your-move")
    assert moves_played(driver)[0] == "9-13"


def test_kalah_is_played_by_clicking_a_pit(driver, url):
    new_game(driver, url, "kalah:pits=3,seeds=3")
    status(driver, "your-move")
    click_cell(driver, "N1")  # the opponent's pit
    assert "no legal move starts at N1" in status(driver, "refused")
    click_cell(driver, "S3")  # 3 seeds: the store, North's 1 and 2; North's turn
    status(driver, "your-move", "over")
    played = moves_played(driver)
    assert played[0] == "3" and len(played) >= 2


def test_a_game_without_a_board_is_played_from_its_move_list(driver, url):
    assert "openspiel" in get_registry().games, "make test installs the OpenSpiel bridge"
    from selenium.webdriver.common.by import By

    new_game(driver, url, "openspiel:game=tic_tac_toe", agent="random")
    status(driver, "your-move")
    assert driver.find_element(By.ID, "text").is_displayed()
    assert not driver.find_elements(By.CSS_SELECTOR, "#board svg")
    buttons = driver.find_elements(By.CSS_SELECTOR, "#legal button.move")
    assert len(buttons) == 9
    buttons[4].click()
    status(driver, "your-move")
    assert len(moves_played(driver)) == 2
