"""`gdl serve`'s page in a real browser (headless Chromium through Selenium, as
test_replay_browser.py): a served Space War game, blue played by clicking: an action's
button, then a piece and one of the destinations marked on the board; a refused typed action
says why. Skipped only when Chromium or chromedriver cannot be found on this machine."""

import os
import threading
import time

import pytest
import uvicorn
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from gdl.interpreter.play.serve.app import Table, bind, urls
from gdl.interpreter.play.serve.session import Session
from gdl.interpreter.loader import load_game

from tests.play.test_replay_browser import CHROMEDRIVER, CHROMIUM, chromium
from tests.helpers import ROOT
from tests.play.test_serve import SPACE_WAR, server_of

GALAXY_GRID = os.path.join(ROOT, "games", "galaxy_grid.gdl")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no Chromium or no chromedriver on this machine (Debian: apt-get install "
    "chromium chromium-driver; .ci/run does it)")
WAIT = 20       # seconds


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture
def served():
    """A Space War table served by uvicorn in a thread: blue human, red random. Yields
    (table, {who: URL})."""
    yield from serving(SPACE_WAR, ["human", "random"])


def serving(path, players):
    """A table of the rule file served by uvicorn in a thread; yields (table, {who: URL})
    and stops it."""
    table = Table(Session(load_game(path), 1, players), pace=0.05)
    bound = bind("127.0.0.1", 0)
    port = bound.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(server_of(table).app(), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [bound]}, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    yield table, dict(urls(table, "127.0.0.1", port))
    server.should_exit = True
    thread.join(10)


def my_turn(browser):
    """Wait until the page offers blue's actions; their texts."""
    WebDriverWait(browser, WAIT).until(
        lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-mine") == "yes"
        and b.find_elements(By.CSS_SELECTOR, "#actions button"))
    return [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#actions button")]


def log_lines(browser):
    return [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#log li")]


def test_play_by_clicking(browser, served):
    table, links = served
    browser.get(links["blue"])
    actions = my_turn(browser)                    # red has chosen its side
    assert actions[0].startswith("station ")
    browser.find_element(By.CSS_SELECTOR, "#actions button").click()
    WebDriverWait(browser, WAIT).until(lambda b: f"blue: {actions[0]}" in log_lines(b))
    for _ in range(3):                            # move a fighter: click it, then a mark
        my_turn(browser)
        fighter = next(piece for piece in browser.find_elements(By.CSS_SELECTOR, "#board .pc")
                       if piece.get_attribute("data-owner") == "blue"
                       and piece.get_attribute("data-kind") == "Fighter"
                       and any(f" {piece.get_attribute('data-label')} " in f" {text} "
                               for text in my_turn(browser)))
        label = fighter.get_attribute("data-label")
        fighter.click()
        shown = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#actions button")]
        assert shown and all(label in text.split() for text in shown)
        marks = browser.find_elements(By.CSS_SELECTOR, "#board .dest")
        assert marks
        before = len(log_lines(browser))
        cell = marks[0].get_attribute("data-cell")
        marks[0].click()
        going = [text for text in shown if cell in text.split()]
        if len(going) > 1:                        # several actions go there: pick the first
            browser.find_element(By.CSS_SELECTOR, "#actions button").click()
        WebDriverWait(browser, WAIT).until(lambda b: len(log_lines(b)) > before)
        assert any(line.startswith(f"blue: ") and label in line and cell in line
                   for line in log_lines(browser)[before:])
    assert sum(1 for seat, _ in table.session.history if seat == 0) == 4
    my_turn(browser)
    box = browser.find_element(By.ID, "text")
    box.send_keys("fly away\n")
    WebDriverWait(browser, WAIT).until(
        lambda b: b.find_element(By.ID, "message").text.startswith("not accepted: 'fly away'"))
    assert "error" in browser.find_element(By.ID, "message").get_attribute("class")


def test_wrong_token_gets_nothing(browser, served):
    table, links = served
    browser.get(links["blue"][:-3] + "abc")
    assert browser.find_element(By.TAG_NAME, "body").text == "forbidden"


def test_build_an_action_step_by_step(browser):
    """Galaxy Grid's dice placement ('place Move 4+5 Direction 6'), built word by word:
    each step offers the next words the listed actions take, and lists only the actions
    that begin with the words chosen; `back` takes one back; the action is played once the
    words name one."""
    for table, links in serving(GALAXY_GRID, ["random", "human", "random", "random"]):
        browser.get(links["blue"])
        actions = my_turn(browser)
        assert all(text.startswith("place ") for text in actions) and len(actions) > 1
        chosen, went_back = [], False
        def blue_played():
            return any(seat == 1 for seat, _ in table.session.history)

        while not blue_played():
            WebDriverWait(browser, WAIT).until(
                lambda b: blue_played() or b.find_elements(By.CSS_SELECTOR, "#steps button"))
            if blue_played():
                break
            words, listed = browser.execute_script(
                "function texts(css) { return Array.from(document.querySelectorAll(css), "
                "function (b) { return b.textContent; }); }"
                "return [texts('#steps button'), texts('#actions button')];")
            listed = [text.split() for text in listed]
            assert words and len(chosen) < 12
            assert all(text[:len(chosen)] == chosen for text in listed)
            assert set(words) == {text[len(chosen)] for text in listed if len(text) > len(chosen)}
            if len(chosen) == 2 and not went_back:
                browser.find_element(By.ID, "back").click()     # one step back, then on
                chosen.pop()
                went_back = True
                continue
            browser.find_element(By.CSS_SELECTOR, f'#steps button[data-word="{words[-1]}"]').click()
            chosen.append(words[-1])
        played = [text for (seat, _), text in zip(table.session.history, table.session.texts)
                  if seat == 1]
        # the words chosen named one action: it was played
        assert len(played) == 1 and played[0].split()[:len(chosen)] == chosen
        assert went_back and len(chosen) >= 3
