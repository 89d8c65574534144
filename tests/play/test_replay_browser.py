"""The replay page (`gdl replay --html`) in a real browser: headless Chromium driven by
Selenium through chromedriver (Debian's `chromium` and `chromium-driver`; `.ci/run` installs
them). Stepping changes the board to the picture of that step's view, the keys and the
slider work, and a page made for one seat draws the other seat's hidden pieces as `?`.
Skipped only when Chromium or chromedriver cannot be found on this machine."""

import os
import shutil
import tempfile
import time
import xml.etree.ElementTree as ET

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from gdl.interpreter.play.render.pictures import Sheet, places
from gdl.interpreter.play.render.replay_page import make_page, state_after
from gdl.interpreter.runtime import introspect

from tests.helpers import ROOT
GOLDEN = os.path.join(ROOT, "tests", "golden")
SPACE_WAR = os.path.join(GOLDEN, "space_war_seed1.txt")
GALAXY_OF_D = os.path.join(GOLDEN, "galaxy_of_d_seed1.txt")
# Flags this machine needs (no network, no GPU, no sandbox as root) and a fresh profile.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,900")


def _find(name, *candidates):
    found = shutil.which(name)
    return found or next((c for c in candidates if os.path.exists(c)), None)


CHROMIUM = _find("chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMEDRIVER = _find("chromedriver", "/usr/bin/chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no Chromium or no chromedriver on this machine (Debian: apt-get install "
    "chromium chromium-driver; .ci/run does it)")

# (place, label, owner, the text on it) of every piece drawn on the page's board
PIECES = """return Array.from(document.querySelectorAll('#places [data-place]')).flatMap(
  g => Array.from(g.querySelectorAll('.pc[data-label]')).map(
    p => [g.getAttribute('data-place'), p.getAttribute('data-label'),
          p.getAttribute('data-owner'), p.querySelector('text').textContent]));"""


def chromium():
    """A headless Chromium driven by Selenium, with a profile of its own (a generator: the
    body of a browser fixture, here and in test_serve_browser.py)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="gdl-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    made = {}
    for name, transcript, seat in (("space_war", SPACE_WAR, None),
                                   ("galaxy_of_d", GALAXY_OF_D, None),
                                   ("galaxy_of_d_one", GALAXY_OF_D, "one")):
        path = folder / f"{name}.html"
        path.write_text(make_page(transcript, seat)[0], encoding="utf-8")
        made[name] = path.as_uri()
    return made


def open_page(browser, uri):
    browser.get(uri)
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "yes"


def board(browser):
    return sorted((place, label, owner) for place, label, owner, _ in
                  browser.execute_script(PIECES))


def expected(transcript, step, seat=None, page=None):
    """(place, label, owner) of every piece the picture of that step's view draws (of the
    page for seat `page`, or of the full page)."""
    game, state = state_after(transcript, step, page)
    viewer = None if seat is None else game.seats.index(seat)
    found = places(game, game.view(state, viewer), Sheet(game.rules.board))
    out = []
    for place, fragment in found.items():
        root = ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{fragment}</g>')
        out += [(place, g.get("data-label"), g.get("data-owner")) for g in root.iter()
                if g.get("data-label") is not None]
    return sorted(out)


def counter(browser):
    return browser.find_element(By.ID, "counter").text


def go_to(browser, step):
    browser.execute_script(
        "var s = document.getElementById('slider'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('input'));", step)
    assert counter(browser).startswith(f"step {step} /")


def test_stepping_changes_the_board(browser, pages):
    open_page(browser, pages["space_war"])
    assert counter(browser) == "step 0 / 81"
    assert board(browser) == []                   # red chooses a side: nothing on the board
    for _ in range(3):
        browser.find_element(By.ID, "next").click()
    assert counter(browser) == "step 3 / 81"
    at_3 = board(browser)
    assert at_3 and at_3 == expected(SPACE_WAR, 3)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    assert counter(browser) == "step 4 / 81"
    assert browser.find_element(By.ID, "decision").text == "4. blue: move Fighter#1 a10"
    at_4 = board(browser)
    assert at_4 != at_3 and at_4 == expected(SPACE_WAR, 4)
    assert ("c:a10", "Fighter#1", "blue") in at_4
    body.send_keys(Keys.ARROW_LEFT)
    assert board(browser) == at_3
    body.send_keys(Keys.END)
    assert counter(browser) == "step 81 / 81"
    assert board(browser) == expected(SPACE_WAR, 81)
    assert "result: " in browser.find_element(By.ID, "status").text
    browser.find_element(By.ID, "back").click()
    assert board(browser) == expected(SPACE_WAR, 80)      # back across a checkpoint
    body.send_keys(Keys.HOME)
    assert counter(browser) == "step 0 / 81" and board(browser) == []


def test_a_link_names_a_step_and_a_view(browser, pages):
    step, _ = _hidden_step(1, 100)
    open_page(browser, pages["galaxy_of_d"] + f"#step={step}&view=two")
    assert counter(browser) == f"step {step} / 361"
    assert Select(browser.find_element(By.ID, "viewer")).first_selected_option.text == "two sees"
    assert board(browser) == expected(GALAXY_OF_D, step, "two")


def test_play_runs_on_and_pauses(browser, pages):
    open_page(browser, pages["space_war"])
    Select(browser.find_element(By.ID, "speed")).select_by_value("20")
    browser.find_element(By.ID, "play").click()
    deadline = time.time() + 10
    while counter(browser) == "step 0 / 81" and time.time() < deadline:
        time.sleep(0.05)
    browser.find_element(By.ID, "play").click()
    paused = counter(browser)
    assert paused != "step 0 / 81"
    time.sleep(0.2)
    assert counter(browser) == paused
    step = int(paused.split()[1])
    assert board(browser) == expected(SPACE_WAR, step)


def _hidden_step(seat_index, start, page=None):
    """A step from `start` on (of the page for seat `page`, or of the full page) at which
    seat `seat_index` of Galaxy of D cannot see some pieces, and their labels."""
    for step in range(start, 360):
        game, state = state_after(GALAXY_OF_D, step, page)
        hidden = ({p["label"] for p in game.view(state, None)["pieces"]}
                  - {p["label"] for p in game.view(state, seat_index)["pieces"]})
        if hidden:
            return step, hidden
    raise AssertionError("no step hides a piece")


def test_a_seat_page_draws_the_other_seats_hidden_pieces_as_question_marks(browser, pages):
    step, hidden = _hidden_step(0, 100, "one")
    open_page(browser, pages["galaxy_of_d_one"])
    options = [o.text for o in Select(browser.find_element(By.ID, "viewer")).options]
    assert options == ["one sees"]
    go_to(browser, step)
    drawn = browser.execute_script(PIECES)
    unknown = [(place, owner, text) for place, label, owner, text in drawn if label == "?"]
    assert unknown and all(owner == "two" and text == "?" for _, owner, text in unknown)
    assert sorted((p, l, o) for p, l, o, _ in drawn) == expected(GALAXY_OF_D, step, "one",
                                                                  page="one")
    shown = browser.find_element(By.TAG_NAME, "main").get_attribute("innerHTML")
    assert [label for label in hidden if f'"{label}"' in shown or f"{label} " in shown] == []


def test_the_viewer_menu_switches_between_the_full_view_and_a_seats(browser, pages):
    step, hidden = _hidden_step(0, 100)
    open_page(browser, pages["galaxy_of_d"])
    menu = Select(browser.find_element(By.ID, "viewer"))
    assert [o.text for o in menu.options] == ["all: every seat", "one sees", "two sees"]
    go_to(browser, step)
    everything = board(browser)
    assert everything == expected(GALAXY_OF_D, step)
    assert hidden <= {label for _, label, _ in everything}
    menu.select_by_visible_text("one sees")
    assert board(browser) == expected(GALAXY_OF_D, step, "one")
    assert any(label == "?" for _, label, _ in board(browser))
    menu.select_by_visible_text("all: every seat")
    assert board(browser) == everything
